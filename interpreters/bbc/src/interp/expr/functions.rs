//! The built-in functions and pseudo-variables (LEN, MID$, RND, INKEY, EVAL...).

use super::operators::{arith, float};
use crate::interp::error;
use crate::interp::host::KeyRead;
use crate::interp::number::{self, Format, Num};
use crate::interp::value::Val;
use crate::interp::{Interp, MAX_STRING, R, Stop};
use crate::tokens as tok;

impl Interp {
    /// A built-in function or pseudo-variable; pc is past its token.
    #[inline(never)]
    pub(in crate::interp) fn function(&mut self, t: u8) -> R<Val> {
        Ok(match t {
            tok::TRUE => Val::Int(-1),
            tok::FALSE => Val::Int(0),
            tok::PI => Val::Float(std::f64::consts::PI),
            tok::NOT => Val::Int(!self.factor_int()?),
            tok::ABS => match self.factor()? {
                // Wraps as RISC OS's integer ABS does: ABS(-2^31) is -2^31.
                Val::Int(i) => Val::Int(i.wrapping_abs()),
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
            tok::SIN | tok::COS | tok::TAN => {
                let x = arith::trig_arg(self.factor_f64()?).ok_or(error::ACCURACY)?;
                match t {
                    tok::SIN => Val::Float(x.sin()),
                    tok::COS => Val::Float(x.cos()),
                    _ => float(x.tan())?,
                }
            }
            tok::ATN => Val::Float(self.factor_f64()?.atan()),
            tok::ASN | tok::ACS => {
                let x = self.factor_f64()?;
                if !(-1.0..=1.0).contains(&x) {
                    return Err(error::ARC_RANGE.into());
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
                // LEFT$ compares its count unsigned, as RISC OS does: LEFT$("abc",-1) is "abc".
                let n = match count {
                    Some(n) if t == tok::LEFT_S => (n as u32).min(len as u32) as usize,
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
                // The count is unsigned, as on RISC OS: MID$(s$,2,-1) is the rest of s$.
                let to = from + (len as u32 as usize).min(slen - from);
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
                if n >= 0 {
                    self.no_side_effect("INKEY would take a key the program is to read")?;
                }
                let k = self.inkey(n)?;
                if t == tok::INKEY {
                    Val::Int(k)
                } else if k < 0 {
                    Val::Str(Vec::new())
                } else {
                    Val::Str(vec![k as u8])
                }
            }
            tok::GET_S if self.at(self.pc) == b'#' => self.get_string_fn()?,
            tok::GET | tok::GET_S => {
                self.no_side_effect("GET would take a key the program is to read")?;
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
            tok::OPENIN | tok::OPENOUT | tok::OPENUP => {
                self.no_side_effect("OPENIN, OPENOUT and OPENUP would open a file")?;
                self.open_fn(t)?
            }
            tok::EOF | tok::BGET | tok::EXT | tok::PTR => self.file_fn(t)?,
            tok::USR => {
                return Err(error::UNSUPPORTED.into());
            }
            _ => return Err(error::SYNTAX.into()),
        })
    }

    pub(in crate::interp) fn rnd_fn(&mut self) -> R<Val> {
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
    pub(in crate::interp) fn inkey(&mut self, n: i32) -> R<i32> {
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
    pub(in crate::interp) fn eval_string(&mut self, s: &[u8]) -> R<Val> {
        let bytes = crate::interp::eval_tokens(s);
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
pub(in crate::interp) fn instr(s: &[u8], find: &[u8], start: usize) -> i32 {
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
