//! Expressions, evaluated straight from the token bytes with BBC BASIC V's precedence:
//! 1 factors (unary minus, NOT, functions, brackets, indirection), 2 `^`, 3 `* / DIV MOD`,
//! 4 `+ -`, 5 comparisons and shifts, 6 `AND`, 7 `OR EOR`.

use std::cmp::Ordering;

use super::error::{self, BasicError};
use super::host::{KeyRead, Signal};
use super::number::{self, Format, Num};
use super::tok;
use super::value::Val;
use super::{Formal, Frame, Interp, MAX_STRING, R, Routine, Stop, VarRef};

#[inline]
fn float(x: f64) -> R<Val> {
    if x.is_finite() {
        Ok(Val::Float(x))
    } else {
        Err(error::TOO_BIG.into())
    }
}

pub(super) const OP_LE: u8 = 1;
pub(super) const OP_GE: u8 = 2;
pub(super) const OP_NE: u8 = 3;
pub(super) const OP_SHL: u8 = 4;
pub(super) const OP_ASR: u8 = 5;
pub(super) const OP_LSR: u8 = 6;

/// `<<`, `>>` (arithmetic) and `>>>` (logical) on 32 bits; counts outside 0-31 shift everything out.
fn shift(op: u8, x: i32, s: i32) -> Val {
    let in_range = (0..32).contains(&s);
    Val::Int(match (op, in_range) {
        (OP_SHL, true) => x.wrapping_shl(s as u32),
        (OP_SHL, false) => 0,
        (OP_LSR, true) => ((x as u32) >> s) as i32,
        (OP_LSR, false) => 0,
        (_, true) => x >> s,
        (_, false) => x >> 31,
    })
}

fn bool_val(b: bool) -> Val {
    Val::Int(if b { -1 } else { 0 })
}

impl Interp {
    /// A whole expression.
    pub(super) fn expr(&mut self) -> R<Val> {
        if let Some(v) = self.cached_expr() {
            return Ok(v);
        }
        if self.depth >= self.max_depth {
            return Err(error::DEEP_CALL.into());
        }
        self.depth += 1;
        let r = self.expr_or();
        self.depth -= 1;
        r
    }

    pub(super) fn expr_int(&mut self) -> R<i32> {
        let v = self.expr()?;
        self.to_int(v)
    }

    pub(super) fn expr_str(&mut self) -> R<Vec<u8>> {
        let v = self.expr()?;
        self.to_str(v)
    }

    /// The binary operator at pc (after spaces), if any: see [`Interp::binop_at`].
    #[inline]
    fn peek_binop(&mut self) -> (u8, u8, usize) {
        self.skip_spaces();
        self.binop_at(self.pc)
    }

    /// The binary operator at `p`, if any: (operator, precedence, length in bytes). Precedence:
    /// 1 OR EOR, 2 AND, 3 comparisons and shifts, 4 + -, 5 * / DIV MOD, 6 ^.
    #[inline]
    pub(super) fn binop_at(&self, p: usize) -> (u8, u8, usize) {
        let c = self.at(p);
        match c {
            tok::OR | tok::EOR => (c, 1, 1),
            tok::AND => (c, 2, 1),
            b'=' => (c, 3, 1),
            b'<' => match self.at(p + 1) {
                b'=' => (OP_LE, 3, 2),
                b'>' => (OP_NE, 3, 2),
                b'<' => (OP_SHL, 3, 2),
                _ => (c, 3, 1),
            },
            b'>' => match self.at(p + 1) {
                b'=' => (OP_GE, 3, 2),
                b'>' if self.at(p + 2) == b'>' => (OP_LSR, 3, 3),
                b'>' => (OP_ASR, 3, 2),
                _ => (c, 3, 1),
            },
            b'+' | b'-' => (c, 4, 1),
            b'*' | b'/' | tok::DIV | tok::MOD => (c, 5, 1),
            b'^' => (c, 6, 1),
            _ => (0, 0, 0),
        }
    }

    /// Operators of precedence `min` and tighter, left to right (precedence climbing).
    pub(super) fn expr_prec(&mut self, min: u8) -> R<Val> {
        let a = self.factor()?;
        self.expr_prec_from(a, min)
    }

    /// Continues [`Interp::expr_prec`] after its first operand `a` (the string fast paths read
    /// that operand themselves).
    #[inline]
    pub(super) fn expr_prec_from(&mut self, mut a: Val, min: u8) -> R<Val> {
        loop {
            let (op, prec, len) = self.peek_binop();
            if prec < min || prec == 0 {
                return Ok(a);
            }
            self.pc += len;
            let b = if prec == 6 {
                self.factor()?
            } else {
                self.expr_prec(prec + 1)?
            };
            a = match (a, b) {
                // Concatenation, giving the right-hand string back for reuse.
                (Val::Str(mut x), Val::Str(y)) if op == b'+' => {
                    super::strings::append(&mut x, &y)?;
                    self.str_free(y);
                    Val::Str(x)
                }
                (a, b) => self.binop(op, a, b)?,
            };
        }
    }

    fn expr_or(&mut self) -> R<Val> {
        self.expr_prec(1)
    }

    /// Applies a binary operator, keeping integers integer where BASIC does.
    #[inline]
    fn binop(&mut self, op: u8, a: Val, b: Val) -> R<Val> {
        binop_values(op, a, b)
    }
}

fn to_f64(v: Val) -> R<f64> {
    match v {
        Val::Int(i) => Ok(i as f64),
        Val::Float(f) => Ok(f),
        Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
    }
}

fn to_int(v: Val) -> R<i32> {
    match v {
        Val::Int(i) => Ok(i),
        Val::Float(f) => Ok(number::f64_to_i32(f)?),
        Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
    }
}

/// Applies a binary operator, keeping integers integer where BASIC does.
pub(super) fn binop_values(op: u8, a: Val, b: Val) -> R<Val> {
    {
        if let (Val::Int(x), Val::Int(y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            return Ok(match op {
                b'+' => x.checked_add(y).map_or(Val::Float(x as f64 + y as f64), Val::Int),
                b'-' => x.checked_sub(y).map_or(Val::Float(x as f64 - y as f64), Val::Int),
                b'*' => x.checked_mul(y).map_or(Val::Float(x as f64 * y as f64), Val::Int),
                b'=' => bool_val(x == y),
                b'<' => bool_val(x < y),
                b'>' => bool_val(x > y),
                OP_LE => bool_val(x <= y),
                OP_GE => bool_val(x >= y),
                OP_NE => bool_val(x != y),
                tok::AND => Val::Int(x & y),
                tok::OR => Val::Int(x | y),
                tok::EOR => Val::Int(x ^ y),
                tok::DIV | tok::MOD => {
                    if y == 0 {
                        return Err(error::DIV_ZERO.into());
                    }
                    Val::Int(if op == tok::DIV {
                        x.wrapping_div(y)
                    } else {
                        x.wrapping_rem(y)
                    })
                }
                OP_SHL | OP_ASR | OP_LSR => shift(op, x, y),
                _ => return binop_general(op, a, b),
            });
        }
        // Floats (or a float and an integer) for the arithmetic and comparisons.
        let (x, y) = match (&a, &b) {
            (Val::Float(x), Val::Float(y)) => (*x, *y),
            (Val::Int(x), Val::Float(y)) => (*x as f64, *y),
            (Val::Float(x), Val::Int(y)) => (*x, *y as f64),
            _ => return binop_general(op, a, b),
        };
        match op {
            b'+' => float(x + y),
            b'-' => float(x - y),
            b'*' => float(x * y),
            b'/' if y != 0.0 => float(x / y),
            b'=' => Ok(bool_val(x == y)),
            b'<' => Ok(bool_val(x < y)),
            b'>' => Ok(bool_val(x > y)),
            OP_LE => Ok(bool_val(x <= y)),
            OP_GE => Ok(bool_val(x >= y)),
            OP_NE => Ok(bool_val(x != y)),
            _ => binop_general(op, a, b),
        }
    }
}

#[inline(never)]
fn binop_general(op: u8, a: Val, b: Val) -> R<Val> {
    {
        match op {
            b'=' | b'<' | b'>' | OP_LE | OP_GE | OP_NE => {
                let o = compare(&a, &b)?;
                Ok(bool_val(match op {
                    b'=' => o == Some(Ordering::Equal),
                    b'<' => o == Some(Ordering::Less),
                    b'>' => o == Some(Ordering::Greater),
                    OP_LE => matches!(o, Some(Ordering::Less | Ordering::Equal)),
                    OP_GE => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
                    _ => o != Some(Ordering::Equal),
                }))
            }
            b'+' => match (a, b) {
                (Val::Str(mut x), Val::Str(y)) => {
                    super::strings::append(&mut x, &y)?;
                    Ok(Val::Str(x))
                }
                (a, b) => float(to_f64(a)? + to_f64(b)?),
            },
            b'-' => float(to_f64(a)? - to_f64(b)?),
            b'*' => float(to_f64(a)? * to_f64(b)?),
            b'/' => {
                let (x, y) = (to_f64(a)?, to_f64(b)?);
                if y == 0.0 {
                    return Err(error::DIV_ZERO.into());
                }
                float(x / y)
            }
            b'^' => {
                let (x, y) = (to_f64(a)?, to_f64(b)?);
                let r = x.powf(y);
                if r.is_nan() {
                    return Err(error::LOG_RANGE.into());
                }
                float(r)
            }
            _ => {
                let (x, y) = (to_int(a)?, to_int(b)?);
                binop_values(op, Val::Int(x), Val::Int(y))
            }
        }
    }
}

impl Interp {
    /// A factor: the operand of a unary operator or one-argument function.
    pub(super) fn factor(&mut self) -> R<Val> {
        let b = self.skip_spaces();
        match b {
            b'0'..=b'9' | b'.' => {
                let off = self.pc.wrapping_sub(self.page);
                if let Some(&(len, n)) = self.numbers.get(off)
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
                if let Some(slot) = self.numbers.get_mut(off)
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
                    Val::Int(i) => Ok(i.checked_neg().map(Val::Int).unwrap_or(Val::Float(-(i as f64)))),
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
                if let Some(&s) = self.site.get(self.pc.wrapping_sub(self.page))
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

    /// A built-in function or pseudo-variable; pc is past its token.
    #[inline(never)]
    fn function(&mut self, t: u8) -> R<Val> {
        Ok(match t {
            tok::TRUE => Val::Int(-1),
            tok::FALSE => Val::Int(0),
            tok::PI => Val::Float(std::f64::consts::PI),
            tok::NOT => Val::Int(!self.factor_int()?),
            tok::ABS => match self.factor()? {
                Val::Int(i) => i.checked_abs().map(Val::Int).unwrap_or(Val::Float(2147483648.0)),
                Val::Float(f) => Val::Float(f.abs()),
                Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
            },
            tok::SGN => match self.factor()? {
                Val::Int(i) => Val::Int(i.signum()),
                Val::Float(f) => Val::Int(if f > 0.0 {
                    1
                } else if f < 0.0 {
                    -1
                } else {
                    0
                }),
                Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
            },
            tok::INT => match self.factor()? {
                Val::Int(i) => Val::Int(i),
                Val::Float(f) => Val::Int(number::f64_to_i32(f.floor())?),
                Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
            },
            tok::SQR => {
                let x = self.factor_f64()?;
                if x < 0.0 {
                    return Err(error::NEG_ROOT.into());
                }
                Val::Float(x.sqrt())
            }
            tok::LN | tok::LOG => {
                let x = self.factor_f64()?;
                if x <= 0.0 {
                    return Err(error::LOG_RANGE.into());
                }
                Val::Float(if t == tok::LN { x.ln() } else { x.log10() })
            }
            tok::EXP => float(self.factor_f64()?.exp()).map_err(|_| Stop::Error(error::EXP_RANGE))?,
            tok::SIN => Val::Float(self.factor_f64()?.sin()),
            tok::COS => Val::Float(self.factor_f64()?.cos()),
            tok::TAN => float(self.factor_f64()?.tan())?,
            tok::ATN => Val::Float(self.factor_f64()?.atan()),
            tok::ASN | tok::ACS => {
                let x = self.factor_f64()?;
                if !(-1.0..=1.0).contains(&x) {
                    return Err(error::NEG_ROOT.into());
                }
                Val::Float(if t == tok::ASN { x.asin() } else { x.acos() })
            }
            tok::DEG => Val::Float(self.factor_f64()?.to_degrees()),
            tok::RAD => Val::Float(self.factor_f64()?.to_radians()),
            // A plain string variable is read in place rather than copied out.
            tok::LEN => Val::Int(match self.str_var_factor() {
                Some(i) => self.str_slot(i)?.len(),
                None => {
                    let s = self.factor_str()?;
                    let n = s.len();
                    self.str_free(s);
                    n
                }
            } as i32),
            tok::ASC => {
                let c = match self.str_var_factor() {
                    Some(i) => self.str_slot(i)?.first().copied(),
                    None => {
                        let s = self.factor_str()?;
                        let c = s.first().copied();
                        self.str_free(s);
                        c
                    }
                };
                Val::Int(c.map_or(-1, |c| c as i32))
            }
            tok::CHR_S => {
                let c = self.factor_int()? as u8;
                Val::Str(self.str_from(&[c]))
            }
            tok::VAL => match self.str_var_factor() {
                Some(i) => val_of(self.str_slot(i)?),
                None => val_of(&self.factor_str()?),
            },
            tok::STR_S => {
                let hex = self.eat(b'~');
                let n = self.factor()?;
                let n = self.to_num(n)?;
                if hex {
                    Val::Str(format!("{:X}", number::f64_to_i32(n.as_f64())? as u32).into_bytes())
                } else {
                    let mut s = self.str_new();
                    number::format_num(&mut s, n, Format::for_str(self.resident[0]));
                    Val::Str(s)
                }
            }
            tok::LEFT_S | tok::RIGHT_S => {
                let s = self.str_arg()?;
                let count = if self.eat(b',') {
                    Some(self.int_arg()?)
                } else {
                    None
                };
                self.close()?;
                let len = self.str_of(&s)?.len();
                // Without a count, LEFT$ drops the last character and RIGHT$ keeps only it.
                let n = match count {
                    Some(n) => n.clamp(0, len as i32) as usize,
                    None if t == tok::LEFT_S => len.saturating_sub(1),
                    None => len.min(1),
                };
                let range = if t == tok::LEFT_S { 0..n } else { len - n..len };
                Val::Str(self.substring(s, range)?)
            }
            tok::MID_S => {
                let s = self.str_arg()?;
                self.comma()?;
                let start = self.int_arg()?;
                let len = if self.eat(b',') { self.int_arg()? } else { 255 };
                self.close()?;
                let slen = self.str_of(&s)?.len();
                let from = (start.max(1) as usize - 1).min(slen);
                let to = from + (len.max(0) as usize).min(slen - from);
                Val::Str(self.substring(s, from..to)?)
            }
            tok::STRING_S => {
                let n = self.expr_int()?;
                self.comma()?;
                let s = self.expr_str()?;
                self.close()?;
                let n = n.max(0) as usize;
                if n * s.len() > MAX_STRING {
                    return Err(error::STRING_TOO_LONG.into());
                }
                Val::Str(s.repeat(n))
            }
            tok::INSTR => {
                let s = self.str_arg()?;
                self.comma()?;
                let f = self.str_arg()?;
                let start = if self.eat(b',') {
                    self.int_arg()?.max(1) as usize
                } else {
                    1
                };
                self.close()?;
                let r = instr(self.str_of(&s)?, self.str_of(&f)?, start);
                self.str_arg_free(s);
                self.str_arg_free(f);
                Val::Int(r)
            }
            tok::POS => Val::Int(self.vdu.pos()),
            tok::VPOS => Val::Int(self.vdu.vpos()),
            tok::COUNT => Val::Int(self.count as i32),
            tok::POINT => {
                let x = self.expr_int()?;
                self.comma()?;
                let y = self.expr_int()?;
                self.close()?;
                Val::Int(self.vdu.point(x, y))
            }
            tok::TIME => Val::Int((self.host.time_cs() + self.time_offset) as i32),
            tok::PAGE => Val::Int(self.page as i32),
            tok::LOMEM => Val::Int(self.lomem as i32),
            tok::HIMEM => Val::Int(self.himem as i32),
            tok::TO if self.at(self.pc) == b'P' => {
                // TOP is tokenized as TO followed by P.
                self.pc += 1;
                Val::Int(self.top as i32)
            }
            tok::ERR => Val::Int(self.err),
            tok::ERL => Val::Int(self.erl as i32),
            tok::REPORT if self.at(self.pc) == b'$' => {
                self.pc += 1;
                Val::Str(self.report.clone())
            }
            tok::RND => self.rnd_fn()?,
            tok::INKEY | tok::INKEY_S => {
                let n = self.factor_int()?;
                let k = self.inkey(n)?;
                if t == tok::INKEY {
                    Val::Int(k)
                } else if k < 0 {
                    Val::Str(Vec::new())
                } else {
                    Val::Str(vec![k as u8])
                }
            }
            tok::GET | tok::GET_S => {
                let k = match self.host.read_key(&mut self.vdu, None) {
                    KeyRead::Key(k) => k,
                    KeyRead::Timeout => 0,
                    KeyRead::Signal(s) => {
                        self.signal(s)?;
                        0
                    }
                };
                if t == tok::GET {
                    Val::Int(k as i32)
                } else {
                    Val::Str(vec![k])
                }
            }
            tok::DIM => self.dim_fn()?,
            tok::ESC_FN => {
                let t2 = self.at(self.pc);
                self.pc += 1;
                match t2 {
                    tok::func::SUM => self.sum_fn()?,
                    _ => return Err(error::UNSUPPORTED.into()),
                }
            }
            tok::EVAL => {
                let s = self.factor_str()?;
                self.eval_string(&s)?
            }
            tok::FN => self.call_fn()?,
            tok::ADVAL => {
                self.factor_int()?;
                Val::Int(0)
            }
            tok::OPENIN | tok::OPENOUT | tok::OPENUP => self.open_fn(t)?,
            tok::EOF | tok::BGET | tok::EXT | tok::PTR => self.file_fn(t)?,
            tok::USR => {
                return Err(error::UNSUPPORTED.into());
            }
            _ => return Err(error::SYNTAX.into()),
        })
    }

    fn rnd_fn(&mut self) -> R<Val> {
        if self.at(self.pc) != b'(' {
            return Ok(Val::Int(self.rnd.next_u32() as i32));
        }
        self.pc += 1;
        let n = self.expr_int()?;
        self.close()?;
        Ok(match n {
            n if n < 0 => {
                self.rnd.seed(n);
                Val::Int(n)
            }
            0 => Val::Float(self.rnd.fraction()),
            1 => {
                self.rnd.next_u32();
                Val::Float(self.rnd.fraction())
            }
            n => {
                self.rnd.next_u32();
                Val::Int(1 + (n as f64 * self.rnd.fraction()) as i32)
            }
        })
    }

    /// INKEY n: a key within n centiseconds (-1 if none), or a held-key test for negative n.
    pub(super) fn inkey(&mut self, n: i32) -> R<i32> {
        if n < 0 {
            if n == -256 {
                // The OS identifier: RISC OS 3.x reports &A0-&AF.
                return Ok(0xA5);
            }
            let k = (-(n as i64) - 1) as u64;
            return Ok(if k < 128 && self.host.key_down(k as u8) {
                -1
            } else {
                0
            });
        }
        match self.host.read_key(&mut self.vdu, Some((n & 0x7FFF) as u32)) {
            KeyRead::Key(k) => Ok(k as i32),
            KeyRead::Timeout => Ok(-1),
            KeyRead::Signal(s) => {
                self.signal(s)?;
                Ok(-1)
            }
        }
    }

    /// EVAL: the string is tokenized into a scratch line and evaluated there.
    pub(super) fn eval_string(&mut self, s: &[u8]) -> R<Val> {
        let bytes = super::eval_tokens(s);
        if bytes.len() + 2 > 500 {
            return Err(error::STRING_TOO_LONG.into());
        }
        let area = self.eval_area;
        let saved: Vec<u8> = self.mem[area..area + bytes.len() + 1].to_vec();
        self.mem[area..area + bytes.len()].copy_from_slice(&bytes);
        self.mem[area + bytes.len()] = 0x0D;
        let pc = self.pc;
        self.pc = area;
        let r = self.expr();
        let ok = r.is_ok() && self.skip_spaces() == 0x0D;
        self.mem[area..area + saved.len()].copy_from_slice(&saved);
        self.pc = pc;
        let v = r?;
        if !ok {
            return Err(error::SYNTAX.into());
        }
        Ok(v)
    }

    /// Calls FNname(args); pc is past the FN token. Returns the value of its `=`.
    fn call_fn(&mut self) -> R<Val> {
        if self.depth >= self.max_depth {
            return Err(error::DEEP_CALL.into());
        }
        let frame_at = self.stack.len();
        self.push(Frame::Fn { returns: Vec::new() }, error::DEEP_CALL)?;
        let ret = self.enter_routine(tok::FN, frame_at)?;
        self.depth += 1;
        self.fn_level += 1;
        let level = self.fn_level;
        // A one-line FN (`DEF FNf(x)=expr`) has its `=` run here, without entering the
        // statement loop; an error in it goes to the loop's handling (ON ERROR LOCAL).
        let r = if self.skip_spaces() == b'=' {
            match self.fn_expr_body() {
                Err(s) => match self.catch_local(level, s) {
                    Ok(()) => self.exec_level(level),
                    Err(s) => Err(s),
                },
                ok => ok,
            }
        } else {
            self.exec_level(level)
        };
        self.fn_level -= 1;
        self.depth -= 1;
        // Statements only stop without an error at `=`, which left the value in `fn_result`.
        r?;
        self.pc = ret;
        Ok(std::mem::take(&mut self.fn_result))
    }

    /// The `=` statement at pc, first in a FN body, as `exec` runs it (its statement count
    /// included).
    fn fn_expr_body(&mut self) -> R<()> {
        self.ticks_left -= 1;
        if self.ticks_left == 0 {
            self.tick()?;
        }
        if self.debug.is_some() {
            self.debug_statement()?;
        }
        self.pc += 1;
        let v = self.expr()?;
        self.end_stmt()?;
        self.fn_return(v)
    }

    /// Reads PROC/FN call arguments at pc, binds them to the DEF's formal parameters (saving the
    /// old values as LOCALs above the frame at `frame_at`) and moves pc into the body. Returns
    /// where execution resumes after the call.
    pub(super) fn enter_routine(&mut self, kind: u8, frame_at: usize) -> R<usize> {
        let start = self.pc;
        // Each call site remembers the routine it found and its name's length (the name there
        // never changes unless the program is written to, which clears the cache).
        let cached = match self.calls.get(start.wrapping_sub(self.page)) {
            Some(&c) if c != 0 => self
                .routines
                .get(((c & 0xFF_FFFF) - 1) as usize)
                .map(|&r| (r, start + (c >> 24) as usize)),
            _ => None,
        };
        let (routine, call_pc) = match cached {
            Some(hit) => hit,
            None => self.resolve_call(kind, start)?,
        };
        self.pc = call_pc;
        let generation = self.routines_gen;
        let first = routine.first as usize;
        let ret = if routine.count == 1 {
            self.bind_one(first, generation, frame_at)?
        } else {
            // The formals are copied: evaluating the actuals can call a FN that writes the
            // program (forgetting `formals`).
            let fbase = self.arg_formals.len();
            let vbase = self.args.len();
            let count = routine.count as usize;
            self.arg_formals
                .extend_from_slice(&self.formals[first..first + count]);
            let r = self.bind_args(fbase, vbase, generation, first, frame_at);
            self.arg_formals.truncate(fbase);
            self.args.truncate(vbase);
            r?
        };
        self.pc = routine.body;
        Ok(ret)
    }

    /// An actual argument's value. A lone variable or number, the commonest arguments (which
    /// the expression cache leaves alone), is read straight from the caches for its position.
    /// Inlined so the value comes back in registers.
    #[inline(always)]
    fn argument(&mut self) -> R<Val> {
        let off = self.pc.wrapping_sub(self.page);
        // `expr` would refuse to start at this depth.
        if self.depth < self.max_depth {
            if let Some(&s) = self.site.get(off)
                && s != 0
            {
                let (v, len) = super::site_decode(s);
                if matches!(self.at(self.pc + len), b',' | b')') {
                    // Numbers are read here rather than through `read`, which returns them
                    // through memory.
                    let val = match v {
                        VarRef::Int(i) => self.ints.get(i as usize).map(|&x| Val::Int(x)),
                        VarRef::Float(i) => self.floats.get(i as usize).map(|&x| Val::Float(x)),
                        VarRef::Resident(i) => Some(Val::Int(self.resident[i as usize % 27])),
                        _ => self.read(v).ok(),
                    };
                    if let Some(val) = val {
                        self.pc += len;
                        return Ok(val);
                    }
                }
            }
            if let Some(&(len, n)) = self.numbers.get(off)
                && len != 0
                && matches!(self.at(self.pc + len as usize), b',' | b')')
            {
                self.pc += len as usize;
                return Ok(match n {
                    Num::Int(i) => Val::Int(i),
                    Num::Float(f) => Val::Float(f),
                });
            }
        }
        self.expr()
    }

    /// Finds the routine a call site names (the name is at `start`), parsing its DEF's formal
    /// parameters if no call has yet, and caches it for the site. Returns the routine and where
    /// the name ends.
    #[cold]
    fn resolve_call(&mut self, kind: u8, start: usize) -> R<(Routine, usize)> {
        let mut end = start;
        while tok::is_word(self.at(end)) {
            end += 1;
        }
        if end == start {
            return Err(error::BAD_CALL.into());
        }
        let mut key = Vec::with_capacity(end - start + 1);
        key.push(kind);
        key.extend_from_slice(&self.mem[start..end]);
        let def = self.find_routine(&key)?;
        // Call sites of one DEF share its entry (a linear search, once per call site).
        let ri = match self.routines.iter().position(|r| r.def == def) {
            Some(i) => i,
            None => self.parse_routine(def)?,
        };
        let len = end - start;
        if let Some(slot) = self.calls.get_mut(start.wrapping_sub(self.page))
            && len < 0x100
            && ri + 1 < 0xFF_FFFF
        {
            *slot = (len as u32) << 24 | (ri as u32 + 1);
        }
        Ok((self.routines[ri], end))
    }

    /// Parses the formal parameters after a DEF's name at `def` into a new routine entry.
    /// A malformed list is an error with pc where it went wrong (in the DEF line).
    fn parse_routine(&mut self, def: usize) -> R<usize> {
        let first = self.formals.len();
        let r = self.parse_formals(def);
        if r.is_err() {
            self.formals.truncate(first);
        }
        r?;
        self.routines.push(Routine {
            def,
            body: self.pc,
            first: first as u32,
            count: (self.formals.len() - first) as u32,
        });
        Ok(self.routines.len() - 1)
    }

    fn parse_formals(&mut self, def: usize) -> R<()> {
        self.pc = def;
        if self.eat(b'(') {
            loop {
                let ret = self.eat(tok::RETURN);
                self.skip_spaces();
                let p = self.pc;
                let (mut e, arr, _) = self.scan_name(p);
                if e == p || !tok::is_word(self.at(p)) && self.at(p) != b'@' {
                    return Err(error::ARGUMENTS.into());
                }
                if arr {
                    // An array, passed by reference: `name()`.
                    match self.whole_array_at(p) {
                        Some((_, _, end)) => e = end,
                        None => return Err(error::ARGUMENTS.into()),
                    }
                }
                self.formals.push(Formal {
                    at: p,
                    ret,
                    arr,
                    var: None,
                });
                self.pc = e;
                if self.eat(b')') {
                    break;
                }
                self.expect(b',', error::ARGUMENTS)?;
            }
        }
        Ok(())
    }

    /// Evaluates the actual arguments at pc onto `args` (all before any formal changes, so
    /// `PROCa(x)` with formal x passes the caller's x), then binds them to the formals copied to
    /// `arg_formals[fbase..]`: each formal's old value is saved as a LOCAL above the frame at
    /// `frame_at`. `generation` is `routines_gen` when the formals were copied from
    /// `formals[first..]`. Returns the pc after the arguments.
    fn bind_args(
        &mut self,
        fbase: usize,
        vbase: usize,
        generation: u32,
        first: usize,
        frame_at: usize,
    ) -> R<usize> {
        let count = self.arg_formals.len() - fbase;
        if self.skip_spaces() == b'(' {
            self.pc += 1;
            loop {
                let n = self.args.len() - vbase;
                if n >= count {
                    return Err(error::ARGUMENTS.into());
                }
                let arg = if self.arg_formals[fbase + n].arr {
                    (Val::Int(self.whole_array(true)? as i32), None)
                } else if self.arg_formals[fbase + n].ret {
                    let v = self.var_ref(true)?;
                    (self.read(v)?, Some(v))
                } else {
                    (self.argument()?, None)
                };
                self.args.push(arg);
                if self.eat(b')') {
                    break;
                }
                self.expect(b',', error::ARGUMENTS)?;
            }
        }
        if self.args.len() - vbase != count {
            return Err(error::ARGUMENTS.into());
        }
        let ret = self.pc;
        let mut returns = Vec::new();
        for k in 0..count {
            let formal = self.arg_formals[fbase + k];
            let (val, actual) = std::mem::take(&mut self.args[vbase + k]);
            if let (true, Val::Int(slot)) = (formal.arr, &val) {
                self.bind_array(formal.at, *slot as u32)?;
                continue;
            }
            let v = self.formal_var(formal, generation, first + k)?;
            self.push_local(v, val)?;
            if let (true, Some(a)) = (formal.ret, actual) {
                returns.push((v, a));
            }
        }
        self.fill_call_frame(frame_at, ret, returns);
        Ok(ret)
    }

    /// `bind_args` for the commonest routine, with one parameter: nothing goes through the
    /// argument stacks.
    fn bind_one(&mut self, first: usize, generation: u32, frame_at: usize) -> R<usize> {
        let formal = self.formals[first];
        if !self.eat(b'(') {
            return Err(error::ARGUMENTS.into());
        }
        let (val, actual) = if formal.arr {
            (Val::Int(self.whole_array(true)? as i32), None)
        } else if formal.ret {
            let v = self.var_ref(true)?;
            (self.read(v)?, Some(v))
        } else {
            (self.argument()?, None)
        };
        // A comma means too many arguments, anything else is malformed: both are this error.
        if !self.eat(b')') {
            return Err(error::ARGUMENTS.into());
        }
        let ret = self.pc;
        if let (true, Val::Int(slot)) = (formal.arr, &val) {
            self.bind_array(formal.at, *slot as u32)?;
            self.fill_call_frame(frame_at, ret, Vec::new());
            return Ok(ret);
        }
        let v = self.formal_var(formal, generation, first)?;
        self.push_local(v, val)?;
        let returns = match (formal.ret, actual) {
            (true, Some(a)) => vec![(v, a)],
            _ => Vec::new(),
        };
        self.fill_call_frame(frame_at, ret, returns);
        Ok(ret)
    }

    /// The variable formal parameter `formal` (copied from `formals[index]` when `routines_gen`
    /// was `generation`) names. It is resolved once and kept unless the arguments ran CLEAR or
    /// wrote the program since the copy.
    #[inline]
    fn formal_var(&mut self, formal: Formal, generation: u32, index: usize) -> R<VarRef> {
        let same = generation == self.routines_gen;
        if let (Some(v), true) = (formal.var, same) {
            return Ok(v);
        }
        self.pc = formal.at;
        let v = self.var_ref(true)?;
        if same && let Some(f) = self.formals.get_mut(index) {
            f.var = Some(v);
        }
        Ok(v)
    }

    /// Fills in the PROC/FN frame at `frame_at` once its arguments are bound. The frame may be
    /// gone if an argument ran CLEAR or RUN; then there is nothing to fill in.
    #[inline]
    fn fill_call_frame(&mut self, frame_at: usize, ret: usize, returns: Vec<(VarRef, VarRef)>) {
        // The frame was pushed with an empty list: most calls have no RETURN parameters and
        // leave it alone.
        match self.stack.get_mut(frame_at) {
            Some(Frame::Proc { returns: r, ret: rp }) => {
                if !returns.is_empty() {
                    *r = returns;
                }
                *rp = ret;
            }
            Some(Frame::Fn { returns: r }) if !returns.is_empty() => *r = returns,
            _ => {}
        }
    }

    /// The body address of DEF PROCname / DEF FNname (`key` is the token then the name).
    fn find_routine(&mut self, key: &[u8]) -> R<usize> {
        if self.procs.is_none() {
            let mut map = std::collections::HashMap::new();
            for i in 0..self.lines.len() {
                let mut p = self.lines[i].1 + 4;
                while self.at(p) == b' ' {
                    p += 1;
                }
                if self.at(p) != tok::DEF {
                    continue;
                }
                p += 1;
                while self.at(p) == b' ' {
                    p += 1;
                }
                let kind = self.at(p);
                if kind != tok::PROC && kind != tok::FN {
                    continue;
                }
                let s = p + 1;
                let mut e = s;
                while tok::is_word(self.at(e)) {
                    e += 1;
                }
                let mut k = vec![kind];
                k.extend_from_slice(&self.mem[s..e]);
                map.entry(k.into_boxed_slice()).or_insert(e);
            }
            self.procs = Some(map);
        }
        self.procs
            .as_ref()
            .and_then(|m| m.get(key).copied())
            .ok_or_else(|| error::NO_SUCH_FN.into())
    }
}

/// Compares two values of the same kind; `None` for unordered floats (NaN).
fn compare(a: &Val, b: &Val) -> Result<Option<Ordering>, BasicError> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Str(x), Val::Str(y)) => Some(x.cmp(y)),
        (Val::Str(_), _) | (_, Val::Str(_)) => return Err(error::TYPE_MISMATCH),
        (x, y) => {
            let f = |v: &Val| match v {
                Val::Int(i) => *i as f64,
                Val::Float(f) => *f,
                Val::Str(_) => 0.0,
            };
            f(x).partial_cmp(&f(y))
        }
    })
}

/// VAL: the number at the start of the string (after spaces and a sign), 0 if none.
pub fn val_of(s: &[u8]) -> Val {
    let mut i = 0;
    while i < s.len() && s[i] == b' ' {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'-' || s[i] == b'+') {
        neg = s[i] == b'-';
        i += 1;
    }
    let (n, _) = number::parse_decimal(&s[i..]);
    match (n, neg) {
        (Num::Int(v), true) => Val::Int(v.wrapping_neg()),
        (Num::Int(v), false) => Val::Int(v),
        (Num::Float(f), true) => Val::Float(-f),
        (Num::Float(f), false) => Val::Float(f),
    }
}

/// INSTR: 1-based position of `find` in `s` at or after `start`, 0 if absent.
fn instr(s: &[u8], find: &[u8], start: usize) -> i32 {
    if start > s.len() + 1 {
        return 0;
    }
    if find.is_empty() {
        return start as i32;
    }
    let hay = &s[start - 1..];
    if find.len() > hay.len() {
        return 0;
    }
    // Candidates by their first byte, so most positions cost one comparison, not a memcmp call.
    let (first, rest) = (find[0], &find[1..]);
    (0..=hay.len() - find.len())
        .find(|&p| hay[p] == first && &hay[p + 1..p + find.len()] == rest)
        .map_or(0, |p| (p + start) as i32)
}

impl Interp {
    /// The Escape/Abort check that waits use.
    pub(super) fn check_signal(&mut self, s: Signal) -> R<()> {
        self.signal(s)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn instr_finds_what_a_window_search_finds() {
        let reference = |s: &[u8], f: &[u8], start: usize| -> i32 {
            if start > s.len() + 1 {
                return 0;
            }
            if f.is_empty() {
                return start as i32;
            }
            s[start - 1..]
                .windows(f.len())
                .position(|w| w == f)
                .map_or(0, |p| (p + start) as i32)
        };
        let words: [&[u8]; 8] = [b"", b"a", b"ab", b"aab", b"abab", b"ba", b"xyz", b"aaaa"];
        for s in words {
            for f in words {
                for start in 1..7 {
                    assert_eq!(
                        super::instr(s, f, start),
                        reference(s, f, start),
                        "{s:?} {f:?} {start}"
                    );
                }
            }
        }
    }
}
