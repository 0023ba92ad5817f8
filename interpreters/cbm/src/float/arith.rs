//! The ROM's arithmetic: FADD (with the rounding byte), FMULT, FDIV, rounding, normalising,
//! comparison, QINT and INT. Each routine follows the ROM's steps, carries included; a comment
//! names the ROM routine and says where a carry does something surprising.

use super::{Fac, FloatError, FloatResult, Packed};
use std::cmp::Ordering;

const MASK40: u64 = (1 << 40) - 1;

/// The mantissa and rounding byte as one 40-bit number.
#[inline]
fn v40(f: Fac) -> u64 {
    (f.mant as u64) << 8 | f.ext as u64
}

/// A FAC made of an exponent, a sign and a 40-bit mantissa+rounding byte.
#[inline]
fn from_v40(exp: u8, neg: bool, v: u64) -> Fac {
    Fac {
        exp,
        mant: (v >> 8) as u32,
        neg,
        ext: v as u8,
    }
}

/// NORMALIZE_FAC2: shift left until the top bit is set, taking the shifts off the exponent;
/// zero (exponent and sign cleared, the rest left as it is) on underflow. The C64's byte loop
/// gives up after four byte shifts, before looking at the rounding byte that has reached the
/// top, so a result that lives only in the rounding byte becomes zero.
#[inline]
pub(super) fn normalize(exp: u8, neg: bool, v: u64) -> Fac {
    // The loop's byte shifts then bit shifts add up to the 40-bit value's leading zeros, so
    // they are counted at once; four byte shifts (32 or more leading zeros, zero included)
    // are where the loop gives up, leaving the value shifted by those 32 bits.
    let lz = (v << 24).leading_zeros();
    if lz >= 32 {
        return from_v40(0, false, (v << 32) & MASK40);
    }
    let v = (v << lz) & MASK40;
    if lz >= exp as u32 {
        from_v40(0, false, v)
    } else {
        from_v40(exp - lz as u8, neg, v)
    }
}

/// NORMALIZE_FAC6: a carry out of the mantissa; one more in the exponent and shift it back in.
#[inline]
fn carry_in(exp: u8, neg: bool, v: u64) -> FloatResult<Fac> {
    let exp = exp.wrapping_add(1);
    if exp == 0 {
        return Err(FloatError::Overflow);
    }
    Ok(from_v40(exp, neg, (1 << 39) | (v >> 1)))
}

impl Fac {
    /// ROUND_FAC: round the mantissa by the rounding byte's top bit (the rounding byte is left
    /// shifted, as the ROM leaves it; callers that store clear it).
    pub fn round(self) -> FloatResult<Fac> {
        if self.exp == 0 {
            return Ok(self);
        }
        let up = self.ext & 0x80 != 0;
        let ext = self.ext << 1;
        if !up {
            return Ok(Fac { ext, ..self });
        }
        let mant = self.mant.wrapping_add(1);
        if mant != 0 {
            return Ok(Fac { mant, ext, ..self });
        }
        carry_in(self.exp, self.neg, ext as u64)
    }

    /// Round and drop the rounding byte, as pushing a left operand or storing does (what
    /// COPY_FAC_TO_ARG_ROUNDED leaves in both FAC and ARG).
    #[inline]
    pub fn rounded(self) -> FloatResult<Fac> {
        let f = self.round()?;
        Ok(Fac { ext: 0, ..f })
    }

    /// NEGOP: change the sign (zero stays zero). The rounding byte is kept.
    pub fn negated(self) -> Fac {
        if self.exp == 0 {
            self
        } else {
            Fac {
                neg: !self.neg,
                ..self
            }
        }
    }

    /// ABS.
    pub fn abs(self) -> Fac {
        Fac { neg: false, ..self }
    }

    /// SIGN: -1, 0 or 1.
    pub fn sign(self) -> i8 {
        if self.exp == 0 {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    /// SGN: the sign as a number.
    pub fn sgn(self) -> Fac {
        Fac::from_i16(self.sign() as i16)
    }

    /// BASIC's `self + rhs`: FADDT with ARG = `self` rounded (as the operator stack holds it)
    /// and FAC = `rhs`.
    pub fn plus(self, rhs: Fac) -> FloatResult<Fac> {
        fadd(self.rounded()?, rhs)
    }

    /// BASIC's `self - rhs`: FSUBT.
    pub fn minus(self, rhs: Fac) -> FloatResult<Fac> {
        fadd(self.rounded()?, Fac { neg: !rhs.neg, ..rhs })
    }

    /// BASIC's `self * rhs`: FMULTT.
    pub fn times(self, rhs: Fac) -> FloatResult<Fac> {
        fmult(self.rounded()?, rhs)
    }

    /// BASIC's `self / rhs`: FDIVT.
    pub fn divided_by(self, rhs: Fac) -> FloatResult<Fac> {
        let arg = self.rounded()?;
        fdiv(arg, rhs, arg.neg ^ rhs.neg)
    }

    /// BASIC's comparison of `self` (rounded, as the operator stack holds it) with `rhs` (the
    /// FAC), by FCOMP.
    #[inline]
    pub fn compare(self, rhs: Fac) -> FloatResult<Ordering> {
        Ok(self.to_packed()?.compare(rhs))
    }

    /// INT: the largest integer not above the value (the rounding byte counts).
    #[inline]
    pub fn int(self) -> Fac {
        self.int_charac(&mut 0)
    }

    /// INT, writing the integer's low byte to `charac` as the ROM writes CHARAC ($07), which
    /// `^` reads later (see [`Fac::pow_charac`]); values of 2^31 and more leave it alone.
    pub fn int_charac(self, charac: &mut u8) -> Fac {
        int(self, charac)
    }
}

impl Packed {
    /// BASIC's comparison of this stored number (on the left) with `rhs` (the FAC), by FCOMP:
    /// what [`Fac::compare`] does once its left operand is stored.
    #[inline]
    pub fn compare(self, rhs: Fac) -> Ordering {
        match fcomp(rhs, self) {
            1 => Ordering::Less,
            0 => Ordering::Equal,
            _ => Ordering::Greater,
        }
    }
}

/// FADDT: FAC = ARG + FAC, with the ROM's rounding-byte handling. `arg`'s own rounding byte is
/// ignored (ARG never has one).
pub(super) fn fadd(arg: Fac, fac: Fac) -> FloatResult<Fac> {
    if fac.exp == 0 {
        // COPY_ARG_TO_FAC
        return Ok(Fac { ext: 0, ..arg });
    }
    if arg.exp == 0 {
        return Ok(fac);
    }
    let subtract = arg.neg != fac.neg;
    // The operand with the smaller exponent is shifted right. FAC's rounding byte travels
    // with FAC's mantissa either way (as ARGEXTENSION when ARG is the one shifted).
    let (exp, neg, big, small, carry) = match arg.exp.cmp(&fac.exp) {
        // Equal exponents: no shift, and the carry is left set by the exponent subtraction,
        // so an addition adds one more unit to the rounding byte.
        Ordering::Equal => (fac.exp, fac.neg, v40(fac), (arg.mant as u64) << 8, 1),
        Ordering::Greater => {
            let d = (arg.exp - fac.exp) as u32;
            let s = if d >= 40 { 0 } else { v40(fac) >> d };
            (arg.exp, arg.neg, (arg.mant as u64) << 8, s, 0)
        }
        Ordering::Less => {
            let d = (fac.exp - arg.exp) as u32;
            let s = if d >= 40 { 0 } else { ((arg.mant as u64) << 8) >> d };
            (fac.exp, fac.neg, v40(fac), s, 0)
        }
    };
    if subtract {
        // FADD3: the subtraction sets its own carry, so no extra unit here.
        if big >= small {
            Ok(normalize(exp, neg, big - small))
        } else {
            // COMPLEMENT_FAC: the result changes sign.
            Ok(normalize(exp, !neg, small - big))
        }
    } else {
        let sum = big + small + carry;
        if sum >> 40 != 0 {
            carry_in(exp, neg, sum & MASK40)
        } else {
            Ok(from_v40(exp, neg, sum))
        }
    }
}

/// ADD_EXPONENTS: the biased sum of two exponents, for FMULT and FDIV. `None` means the result
/// underflows to zero. The second value is the carry the ROM leaves behind, which FMULT's first
/// zero-byte shift depends on.
#[inline]
pub(super) fn add_exponents(a: u8, b: u8) -> FloatResult<Option<(u8, bool)>> {
    if a == 0 {
        return Ok(None);
    }
    let sum = a as u32 + b as u32;
    if sum < 128 {
        return Ok(None);
    }
    if sum >= 384 {
        return Err(FloatError::Overflow);
    }
    // Below 256 the `adc #$80` carries out; from 256 up it does not.
    Ok(Some(((sum - 128) as u8, sum < 256)))
}

/// FMULTT: FAC = ARG * FAC, multiplying ARG's mantissa by FAC's bytes from the rounding byte
/// up, as the ROM does. A zero byte of the multiplier shifts the partial product right a byte,
/// and one bit more when the carry is clear: after another zero byte, or on the first byte
/// when the exponents add up to 256 or more. The stray bit only matters once the partial
/// product is non-zero, where it costs the ROM's product its lowest bits.
pub(super) fn fmult(arg: Fac, fac: Fac) -> FloatResult<Fac> {
    if fac.exp == 0 {
        return Ok(fac);
    }
    let Some((exp, mut carry)) = add_exponents(arg.exp, fac.exp)? else {
        return Ok(Fac {
            exp: 0,
            neg: false,
            ..fac
        });
    };
    let neg = if exp == 0 { false } else { arg.neg ^ fac.neg };
    let m = fac.mant.to_be_bytes();
    let multiplier = [fac.ext, m[3], m[2], m[1], m[0]];
    let a = arg.mant;
    if !stray_bit(&multiplier) {
        // Without the stray shift, the shift-and-add loop computes exactly the top 40 bits of
        // A times the 40-bit multiplier, over 2^32 (the bits it shifts out never carry back up).
        let product = (a as u128 * ((fac.mant as u128) << 8 | fac.ext as u128)) >> 32;
        return Ok(normalize(exp, neg, product as u64));
    }
    let mut result: u32 = 0;
    let mut ext: u8 = fac.ext;
    for (i, &byte) in multiplier.iter().enumerate() {
        if byte == 0 && i < 4 {
            // MULTIPLY1 -> SHIFT_RIGHT1
            ext = result as u8;
            result >>= 8;
            if !carry {
                result >>= 1;
            }
            carry = false;
            continue;
        }
        // MULTIPLY2: eight shift-and-add steps, lowest bit first, each adding A (with its
        // carry) when the bit is set and shifting carry, result and rounding byte right. All
        // eight together add A times the byte to the result and shift it right a byte into the
        // rounding byte (whose old bits fall off): one multiply-add, bit for bit the same
        // (the sum stays below 2^40; `multiply2_is_one_multiply_add` checks it).
        (result, ext) = multiply2(result, a, byte);
        carry = true;
    }
    Ok(normalize(exp, neg, (result as u64) << 8 | ext as u64))
}

/// MULTIPLY2's eight shift-and-add steps for one multiplier byte: the result and rounding
/// byte after them.
#[inline]
pub(super) fn multiply2(result: u32, a: u32, byte: u8) -> (u32, u8) {
    let v = u64::from(result) + u64::from(a) * u64::from(byte);
    ((v >> 8) as u32, v as u8)
}

/// Whether FMULT's stray one-bit shift hits a non-zero partial product: a zero byte of the
/// multiplier met with the carry clear once some non-zero byte has been added in. The carry
/// is clear at a zero byte after another zero byte (or at the first byte, before anything is
/// added, where the shift moves only zeros), so the shift matters exactly where two zero
/// bytes in a row among the four lowest (rounding byte, then the mantissa from its low end)
/// follow a non-zero one. Checked at once, as the common multiplier has no zero byte at all.
#[inline]
pub(super) fn stray_bit(multiplier: &[u8; 5]) -> bool {
    let [b0, b1, b2, b3, _] = *multiplier;
    (b1 == 0 && b2 == 0 && b0 != 0) || (b2 == 0 && b3 == 0 && (b0 | b1) != 0)
}

/// [`stray_bit`] as the ROM meets it, byte by byte with the carry (for the property test
/// that the two agree).
#[cfg(test)]
pub(super) fn stray_bit_stepwise(multiplier: &[u8; 5], mut carry: bool) -> bool {
    let mut partial = false;
    for &b in &multiplier[..4] {
        if b == 0 {
            if !carry && partial {
                return true;
            }
            carry = false;
        } else {
            partial = true;
            carry = true;
        }
    }
    false
}

/// FDIVT: FAC = ARG / FAC. FAC is rounded first; the quotient has 32 bits plus two in the
/// rounding byte. `neg` is the result's sign (SGNCPR; DIV10 passes false).
pub(super) fn fdiv(arg: Fac, fac: Fac, neg: bool) -> FloatResult<Fac> {
    if fac.exp == 0 {
        return Err(FloatError::DivisionByZero);
    }
    let fac = fac.round()?;
    let (exp, neg) = match add_exponents(arg.exp, fac.exp.wrapping_neg())? {
        None => {
            return Ok(Fac {
                exp: 0,
                neg: false,
                ..fac
            });
        }
        Some((0, _)) => (0u8, false),
        Some((e, _)) => (e, neg),
    };
    let exp = exp.wrapping_add(1);
    if exp == 0 {
        return Err(FloatError::Overflow);
    }
    // The ROM's loop is a restoring division that makes 34 exact quotient bits (the first
    // compares without a shift, a bit shifted out of the remainder's top counts as "bigger"):
    // floor(ARG * 2^33 / FAC) for normalised mantissas. An unnormalised divisor (only a
    // hand-made FAC has one) takes the loop itself.
    let d = fac.mant;
    let q: u64 = if d >> 31 != 0 {
        let n = (arg.mant as u64) << 32;
        let (q1, r1) = (n / d as u64, n % d as u64);
        q1 << 1 | (2 * r1 >= d as u64) as u64
    } else {
        let mut rem = arg.mant;
        let mut q = 0u64;
        let mut bit = rem >= d;
        for n in 0..34 {
            q = q << 1 | bit as u64;
            if n == 33 {
                break;
            }
            if bit {
                rem = rem.wrapping_sub(d);
            }
            let top = rem >> 31 != 0;
            rem <<= 1;
            bit = top || rem >= d;
        }
        q
    };
    // 32 quotient bits, then two in the top of the rounding byte.
    let v = (q >> 2) << 8 | (q & 3) << 6;
    Ok(normalize(exp, neg, v))
}

/// FCOMP: compare the FAC with a packed number `m`: 1 if `m` < FAC, 0 if equal, -1 if
/// `m` > FAC. The FAC's rounding byte rounds its last mantissa byte in the comparison (so a
/// last byte of $FF rounded up compares equal to $00).
pub(super) fn fcomp(fac: Fac, m: Packed) -> i8 {
    let b = m.0;
    if b[0] == 0 {
        return fac.sign();
    }
    let mneg = b[1] & 0x80 != 0;
    let sign_of = |c: bool, neg: bool| -> i8 {
        // L3B0A/SIGN2: carry set means |m| >= |FAC|.
        if c ^ neg { -1 } else { 1 }
    };
    if mneg != fac.neg {
        return if fac.neg { -1 } else { 1 };
    }
    if b[0] != fac.exp {
        return sign_of(b[0] > fac.exp, fac.neg);
    }
    let f = fac.mant.to_be_bytes();
    for (&mb, &fb) in [b[1] | 0x80, b[2], b[3]].iter().zip(&f[..3]) {
        if mb != fb {
            return sign_of(mb > fb, fac.neg);
        }
    }
    let borrow = (fac.ext > 0x7F) as u16;
    let diff = (b[4] as u16).wrapping_sub(f[3] as u16 + borrow);
    if diff & 0xFF == 0 {
        return 0;
    }
    sign_of(diff >> 8 == 0, fac.neg)
}

/// QINT: the value as a 32-bit two's complement integer, floored (the rounding byte counts).
/// The exponent must be below $A0.
pub(super) fn qint(f: Fac) -> i32 {
    if f.exp == 0 {
        return 0;
    }
    debug_assert!(f.exp < 0xA0);
    let v = v40(f) as i64;
    let v = if f.neg { -v } else { v };
    let n = 8 + (0xA0 - f.exp as u32);
    if n >= 63 {
        if v < 0 { -1 } else { 0 }
    } else {
        (v >> n) as i32
    }
}

/// INT, also leaving the integer's low byte in CHARAC (`charac`), which EXP and `^` read. From
/// 2^31 up the value is already an integer and INT returns at once, leaving CHARAC as it was.
pub(super) fn int(f: Fac, charac: &mut u8) -> Fac {
    if f.exp >= 0xA0 {
        return f;
    }
    let q = qint(f);
    *charac = q as u8;
    let (neg, mag) = if q < 0 {
        (true, (q as i64).unsigned_abs())
    } else {
        (false, q as u64)
    };
    normalize(0xA0, neg, mag << 8)
}

/// MUL10: FAC rounded, times four by exponent, plus itself, then doubled by exponent.
pub(super) fn mul10(f: Fac) -> FloatResult<Fac> {
    let f = f.rounded()?;
    if f.exp == 0 {
        return Ok(f);
    }
    if f.exp >= 0xFE {
        return Err(FloatError::Overflow);
    }
    let arg = Fac { exp: f.exp + 2, ..f };
    let sum = fadd(arg, f)?;
    let exp = sum.exp.wrapping_add(1);
    if exp == 0 {
        return Err(FloatError::Overflow);
    }
    Ok(Fac { exp, ..sum })
}

/// DIV10: FAC rounded, divided by ten, positive.
pub(super) fn div10(f: Fac) -> FloatResult<Fac> {
    let arg = f.rounded()?;
    fdiv(arg, TEN, false)
}

/// 10, the ROM's CONTEN.
pub(super) const TEN: Fac = Fac {
    exp: 0x84,
    mant: 0xA000_0000,
    neg: false,
    ext: 0,
};
