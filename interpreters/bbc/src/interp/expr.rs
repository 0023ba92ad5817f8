//! Expressions, evaluated straight from the token bytes with BBC BASIC V's precedence:
//! 1 factors (unary minus, NOT, functions, brackets, indirection), 2 `^`, 3 `* / DIV MOD`,
//! 4 `+ -`, 5 comparisons and shifts, 6 `AND`, 7 `OR EOR`. Here: factors; the binary operators
//! and their arithmetic (shared with the compiled forms) are in `operators`, the built-in
//! functions in `functions`, and PROC/FN calls in `calls`.

mod calls;
mod functions;
mod operators;

pub use functions::val_of;
pub(super) use operators::{OP_ASR, OP_GE, OP_LE, OP_LSR, OP_NE, OP_SHL, arith, binop_values};

use super::error;
use super::host::Signal;
use super::number::{self, Num};
use super::value::Val;
use super::{Interp, MAX_STRING, R, VarRef};
use crate::tokens as tok;

impl Interp {
    /// A factor: the operand of a unary operator or one-argument function.
    pub(super) fn factor(&mut self) -> R<Val> {
        let b = self.skip_spaces();
        match b {
            b'0'..=b'9' | b'.' => {
                let off = self.pc.wrapping_sub(self.page);
                if let Some(&(len, n)) = self.pos.numbers.get(off)
                    && len != 0
                {
                    self.pc += len as usize;
                    return Ok(match n {
                        Num::Int(i) => Val::Int(i),
                        Num::Float(f) => Val::Float(f),
                    });
                }
                let (n, len) =
                    number::parse_decimal(&self.mem[self.pc..self.pc + 64.min(self.mem.len() - self.pc)]);
                let len = len.max(1);
                if let Some(slot) = self.pos.numbers.get_mut(off)
                    && len < 256
                {
                    *slot = (len as u8, n);
                }
                self.pc += len;
                Ok(match n {
                    Num::Int(i) => Val::Int(i),
                    Num::Float(f) => Val::Float(f),
                })
            }
            tok::LINE_NUMBER => {
                // The tokenizer encodes a number after some keywords as a line number constant
                // (`WAIT 10`, a leading number in EVAL's string): it reads as that number.
                let n = crate::tokens::decode_line_number([
                    self.at(self.pc + 1),
                    self.at(self.pc + 2),
                    self.at(self.pc + 3),
                ]);
                self.pc += 4;
                Ok(Val::Int(n as i32))
            }
            b'-' => {
                self.pc += 1;
                match self.factor()? {
                    // Integer negation wraps as RISC OS's does: -(-2^31) is -2^31.
                    Val::Int(i) => Ok(Val::Int(i.wrapping_neg())),
                    Val::Float(f) => Ok(Val::Float(-f)),
                    Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
                }
            }
            b'+' => {
                self.pc += 1;
                let v = self.factor()?;
                self.to_num(v.clone())?;
                Ok(v)
            }
            b'(' => {
                self.pc += 1;
                let v = self.expr()?;
                self.expect(b')', error::MISSING_BRACKET)?;
                Ok(v)
            }
            b'"' => self.string_literal(),
            b'&' => {
                self.pc += 1;
                let mut v: u64 = 0;
                let mut n = 0;
                while let Some(d) = (self.at(self.pc) as char).to_digit(16) {
                    v = (v << 4) | d as u64;
                    n += 1;
                    self.pc += 1;
                }
                if n == 0 || n > 8 {
                    return Err(error::BAD_HEX.into());
                }
                Ok(Val::Int(v as u32 as i32))
            }
            b'%' => {
                self.pc += 1;
                let mut v: u32 = 0;
                let mut n = 0;
                while matches!(self.at(self.pc), b'0' | b'1') {
                    v = (v << 1) | (self.at(self.pc) - b'0') as u32;
                    n += 1;
                    self.pc += 1;
                }
                if n == 0 || n > 32 {
                    return Err(error::BAD_HEX.into());
                }
                Ok(Val::Int(v as i32))
            }
            b'?' | b'!' | b'$' | b'|' => {
                let v = self.var_ref(false)?;
                self.read(v)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'`' | b'@' => {
                // Inline fast path: a simple variable already resolved at this position.
                if let Some(&s) = self.pos.site.get(self.pc.wrapping_sub(self.page))
                    && s != 0
                {
                    let (v, len) = super::site_decode(s);
                    let end = self.pc + len;
                    if !matches!(self.at(end), b'?' | b'!') {
                        match v {
                            VarRef::Resident(i) if (i as usize) < 27 => {
                                self.pc = end;
                                return Ok(Val::Int(self.resident[i as usize]));
                            }
                            VarRef::Int(i) if (i as usize) < self.ints.len() => {
                                self.pc = end;
                                return Ok(Val::Int(self.ints[i as usize]));
                            }
                            VarRef::Float(i) if (i as usize) < self.floats.len() => {
                                self.pc = end;
                                return Ok(Val::Float(self.floats[i as usize]));
                            }
                            _ => {}
                        }
                    }
                }
                let v = self.var_ref(false)?;
                // Numbers straight from their slots; everything else through `read`.
                match v {
                    VarRef::IntEl(a, o) => match self.arrays.get(a as usize).map(|x| &x.data) {
                        Some(super::ArrayData::Int(d)) if (o as usize) < d.len() => {
                            Ok(Val::Int(d[o as usize]))
                        }
                        _ => self.read(v),
                    },
                    VarRef::Resident(i) if (i as usize) < 27 => Ok(Val::Int(self.resident[i as usize])),
                    VarRef::Int(i) if (i as usize) < self.ints.len() => Ok(Val::Int(self.ints[i as usize])),
                    VarRef::Float(i) if (i as usize) < self.floats.len() => {
                        Ok(Val::Float(self.floats[i as usize]))
                    }
                    VarRef::Str(i) if (i as usize) < self.strs.len() => {
                        let mut s = self.str_new();
                        s.extend_from_slice(&self.strs[i as usize]);
                        Ok(Val::Str(s))
                    }
                    v => self.read(v),
                }
            }
            tok::PTR_LEFT..=tok::HIMEM_LEFT => {
                // A pseudo-variable tokenized in its statement form (EVAL strings start there).
                self.pc += 1;
                self.function(b - 0x40)
            }
            0x7F..=0xFF => {
                self.pc += 1;
                self.function(b)
            }
            _ => Err(error::SYNTAX.into()),
        }
    }

    #[inline(never)]
    fn string_literal(&mut self) -> R<Val> {
        self.pc += 1;
        let mut s = self.str_new();
        loop {
            let c = self.at(self.pc);
            if c == 0x0D {
                return Err(error::MISSING_QUOTE.into());
            }
            self.pc += 1;
            if c == b'"' {
                if self.at(self.pc) == b'"' {
                    self.pc += 1;
                } else {
                    break;
                }
            }
            s.push(c);
        }
        if s.len() > MAX_STRING {
            return Err(error::STRING_TOO_LONG.into());
        }
        Ok(Val::Str(s))
    }

    fn factor_f64(&mut self) -> R<f64> {
        let v = self.factor()?;
        self.to_f64(v)
    }

    pub(super) fn factor_int(&mut self) -> R<i32> {
        let v = self.factor()?;
        self.to_int(v)
    }

    pub(super) fn factor_str(&mut self) -> R<Vec<u8>> {
        let v = self.factor()?;
        self.to_str(v)
    }

    fn comma(&mut self) -> R<()> {
        self.expect(b',', error::MISSING_COMMA)
    }

    fn close(&mut self) -> R<()> {
        self.expect(b')', error::MISSING_BRACKET)
    }
}

impl Interp {
    /// The Escape/Abort check that waits use.
    pub(super) fn check_signal(&mut self, s: Signal) -> R<()> {
        self.signal(s)
    }
}
