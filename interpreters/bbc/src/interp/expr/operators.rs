//! The binary operators: precedence climbing over the token bytes, and the arithmetic of each
//! operator on values (one home, used by the byte evaluator, whole-array operations and string
//! concatenation).

use std::cmp::Ordering;

use crate::interp::error::{self, BasicError};
use crate::interp::number;
use crate::interp::value::Val;
use crate::interp::{Interp, R};
use crate::tokens as tok;

#[inline]
pub(in crate::interp) fn float(x: f64) -> R<Val> {
    if x.is_finite() {
        Ok(Val::Float(x))
    } else {
        Err(error::TOO_BIG.into())
    }
}

pub(in crate::interp) const OP_LE: u8 = 1;
pub(in crate::interp) const OP_GE: u8 = 2;
pub(in crate::interp) const OP_NE: u8 = 3;
pub(in crate::interp) const OP_SHL: u8 = 4;
pub(in crate::interp) const OP_ASR: u8 = 5;
pub(in crate::interp) const OP_LSR: u8 = 6;

/// The arithmetic of BASIC's operators on plain numbers, in one place: the byte evaluator
/// ([`binop_values`]), compound assignments and the compiled expressions (`fastexpr`) all call
/// these, so an operator cannot mean one thing on one path and another on the other. `None` is
/// where BASIC does something else: an error (division by zero, a result too big or not a
/// number) or, for `+ - *` on integers, going on in floats.
pub(in crate::interp) mod arith {
    use super::{OP_LSR, OP_SHL};

    /// A float result BASIC can hold.
    #[inline(always)]
    pub fn finite(f: f64) -> Option<f64> {
        f.is_finite().then_some(f)
    }

    #[inline(always)]
    pub fn fdiv(x: f64, y: f64) -> Option<f64> {
        if y == 0.0 { None } else { finite(x / y) }
    }

    /// `^`: a result that is not a number (a negative base to a fraction) is "Log range".
    #[inline(always)]
    pub fn pow(x: f64, y: f64) -> Option<f64> {
        // Squaring, the commonest power, by one multiplication: the exact square rounded once,
        // which libm's pow (correct to within about half a unit in the last place) gives too,
        // and Acorn's BASIC multiplies out integer powers; pow was a third of BM8's time.
        if y == 2.0 {
            return finite(x * x);
        }
        let r = x.powf(y);
        if r.is_nan() { None } else { finite(r) }
    }

    /// The argument of SIN, COS or TAN, if Acorn's BASIC reduces it: from 2^23 up the reduction
    /// by pi/2 has no fraction bits left, so it stops with "Accuracy lost" (BBC BASIC (Z80)
    /// 5.00 does at exactly 8388608; Brandy computes on and prints a meaningless value).
    #[inline(always)]
    pub fn trig_arg(x: f64) -> Option<f64> {
        (x.abs() < 8_388_608.0).then_some(x)
    }

    /// `+`, `-` and `*` on two integers where the result fits 32 bits; `None` where it does not
    /// and BASIC goes on in floats ([`widen`] is that value; the compiled forms hand the case
    /// back to the byte evaluator instead).
    #[inline(always)]
    pub fn iadd(x: i32, y: i32) -> Option<i32> {
        x.checked_add(y)
    }

    #[inline(always)]
    pub fn isub(x: i32, y: i32) -> Option<i32> {
        x.checked_sub(y)
    }

    #[inline(always)]
    pub fn imul(x: i32, y: i32) -> Option<i32> {
        x.checked_mul(y)
    }

    /// `x op y` for `+ - *` on integers that overflowed 32 bits: the float result.
    #[cold]
    pub fn widen(op: u8, x: i32, y: i32) -> f64 {
        let (x, y) = (x as f64, y as f64);
        match op {
            b'+' => x + y,
            b'-' => x - y,
            _ => x * y,
        }
    }

    /// `DIV`: truncating; -2^31 DIV -1 wraps as the ARM's division does.
    #[inline(always)]
    pub fn div(x: i32, y: i32) -> Option<i32> {
        (y != 0).then(|| x.wrapping_div(y))
    }

    /// `MOD`: the remainder takes the dividend's sign.
    #[inline(always)]
    pub fn rem(x: i32, y: i32) -> Option<i32> {
        (y != 0).then(|| x.wrapping_rem(y))
    }

    /// `<<`, `>>` (arithmetic) and `>>>` (logical) on 32 bits; counts outside 0-31 shift
    /// everything out.
    #[inline(always)]
    pub fn shift(op: u8, x: i32, s: i32) -> i32 {
        let in_range = (0..32).contains(&s);
        match (op, in_range) {
            (OP_SHL, true) => x.wrapping_shl(s as u32),
            (OP_SHL, false) => 0,
            (OP_LSR, true) => ((x as u32) >> s) as i32,
            (OP_LSR, false) => 0,
            (_, true) => x >> s,
            (_, false) => x >> 31,
        }
    }
}

/// `<<`, `>>` and `>>>` as a value.
pub(in crate::interp) fn shift(op: u8, x: i32, s: i32) -> Val {
    Val::Int(arith::shift(op, x, s))
}

pub(in crate::interp) fn bool_val(b: bool) -> Val {
    Val::Int(if b { -1 } else { 0 })
}

impl Interp {
    /// A whole expression.
    pub(in crate::interp) fn expr(&mut self) -> R<Val> {
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

    pub(in crate::interp) fn expr_int(&mut self) -> R<i32> {
        let v = self.expr()?;
        self.to_int(v)
    }

    pub(in crate::interp) fn expr_str(&mut self) -> R<Vec<u8>> {
        let v = self.expr()?;
        self.to_str(v)
    }

    /// The binary operator at pc (after spaces), if any: see [`Interp::binop_at`].
    #[inline]
    pub(in crate::interp) fn peek_binop(&mut self) -> (u8, u8, usize) {
        self.skip_spaces();
        self.binop_at(self.pc)
    }

    /// The binary operator at `p`, if any: (operator, precedence, length in bytes). Precedence:
    /// 1 OR EOR, 2 AND, 3 comparisons and shifts, 4 + -, 5 * / DIV MOD, 6 ^.
    #[inline]
    pub(in crate::interp) fn binop_at(&self, p: usize) -> (u8, u8, usize) {
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
    pub(in crate::interp) fn expr_prec(&mut self, min: u8) -> R<Val> {
        let a = self.factor()?;
        self.expr_prec_from(a, min)
    }

    /// Continues [`Interp::expr_prec`] after its first operand `a` (the string fast paths read
    /// that operand themselves).
    #[inline]
    pub(in crate::interp) fn expr_prec_from(&mut self, mut a: Val, min: u8) -> R<Val> {
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
                    crate::interp::value::append(&mut x, &y)?;
                    self.str_free(y);
                    Val::Str(x)
                }
                (a, b) => self.binop(op, a, b)?,
            };
        }
    }

    pub(in crate::interp) fn expr_or(&mut self) -> R<Val> {
        self.expr_prec(1)
    }

    /// Applies a binary operator, keeping integers integer where BASIC does.
    #[inline]
    pub(in crate::interp) fn binop(&mut self, op: u8, a: Val, b: Val) -> R<Val> {
        binop_values(op, a, b)
    }
}

pub(in crate::interp) fn to_f64(v: Val) -> R<f64> {
    match v {
        Val::Int(i) => Ok(i as f64),
        Val::Float(f) => Ok(f),
        Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
    }
}

pub(in crate::interp) fn to_int(v: Val) -> R<i32> {
    match v {
        Val::Int(i) => Ok(i),
        Val::Float(f) => Ok(number::f64_to_i32(f)?),
        Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
    }
}

/// Applies a binary operator, keeping integers integer where BASIC does.
pub(in crate::interp) fn binop_values(op: u8, a: Val, b: Val) -> R<Val> {
    {
        if let (Val::Int(x), Val::Int(y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            return Ok(match op {
                b'+' => arith::iadd(x, y).map_or_else(|| Val::Float(arith::widen(op, x, y)), Val::Int),
                b'-' => arith::isub(x, y).map_or_else(|| Val::Float(arith::widen(op, x, y)), Val::Int),
                b'*' => arith::imul(x, y).map_or_else(|| Val::Float(arith::widen(op, x, y)), Val::Int),
                b'=' => bool_val(x == y),
                b'<' => bool_val(x < y),
                b'>' => bool_val(x > y),
                OP_LE => bool_val(x <= y),
                OP_GE => bool_val(x >= y),
                OP_NE => bool_val(x != y),
                tok::AND => Val::Int(x & y),
                tok::OR => Val::Int(x | y),
                tok::EOR => Val::Int(x ^ y),
                tok::DIV => Val::Int(arith::div(x, y).ok_or(error::DIV_ZERO)?),
                tok::MOD => Val::Int(arith::rem(x, y).ok_or(error::DIV_ZERO)?),
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
pub(in crate::interp) fn binop_general(op: u8, a: Val, b: Val) -> R<Val> {
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
                    crate::interp::value::append(&mut x, &y)?;
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
                if x.powf(y).is_nan() {
                    return Err(error::LOG_RANGE.into());
                }
                arith::pow(x, y).map(Val::Float).ok_or(error::TOO_BIG.into())
            }
            _ => {
                let (x, y) = (to_int(a)?, to_int(b)?);
                binop_values(op, Val::Int(x), Val::Int(y))
            }
        }
    }
}

/// Compares two values of the same kind; `None` for unordered floats (NaN).
pub(in crate::interp) fn compare(a: &Val, b: &Val) -> Result<Option<Ordering>, BasicError> {
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

#[cfg(test)]
mod tests {
    use super::arith;

    #[test]
    fn squares_are_what_libm_pow_gives() {
        // Integers (BM8's K^2), fractions, negatives, tiny and huge values, and overflow.
        let mut xs: Vec<f64> = (0..2000).map(|k| k as f64 * 517.25 - 3.0e5).collect();
        xs.extend([0.1, -0.0, 1e-160, 1.7e154, -3.3e-5, 2f64.powi(26) + 1.0, 1e200]);
        for x in xs {
            let libm = x.powf(2.0);
            let ours = arith::pow(x, 2.0);
            if libm.is_finite() {
                assert_eq!(ours.map(f64::to_bits), Some(libm.to_bits()), "{x}");
            } else {
                assert_eq!(ours, None, "{x}");
            }
        }
    }
}
