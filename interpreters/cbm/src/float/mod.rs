//! The C64 BASIC ROM's 5-byte floating point, bit-exact.
//!
//! Two forms, as in the ROM:
//! - [`Packed`] is the 5-byte memory form (MFLPT): exponent byte (bias 128, 0 means the value
//!   zero), then four mantissa bytes, most significant first, whose top bit holds the sign (the
//!   leading 1 is implied). Variables, array elements, the RND seed and constants live in it.
//! - [`Fac`] is the floating accumulator: exponent, 32-bit mantissa with its leading 1, a sign,
//!   and the ROM's extra *rounding byte* (FACEXTENSION) below the mantissa. Results of arithmetic
//!   stay in a `Fac` with that byte, exactly as the ROM keeps them in the FAC; storing to a
//!   variable ([`Fac::to_packed`]) rounds it away as MOVMF does.
//!
//! Binary operators follow the ROM's evaluator: `a.plus(b)` is BASIC's `a + b`, where the left
//! operand `a` was pushed on the operator stack *rounded* (so its rounding byte is dropped) and
//! the right operand `b` is the FAC, rounding byte and all. Comparisons do the same
//! ([`Fac::compare`]). Every routine follows the ROM's algorithm step by step (the shifts, the
//! carries, the rounding byte, the multiplication that shifts one bit too far after two zero
//! bytes of the multiplier, the polynomial tables), so results agree to the last bit; the tests
//! beside each module and the goldens recorded from cbmbasic (see docs/cbm-basic.md, "Numbers")
//! check that.
//!
//! Errors are the ROM's: [`FloatError::Overflow`] (?OVERFLOW), [`FloatError::DivisionByZero`]
//! (?DIVISION BY ZERO) and [`FloatError::IllegalQuantity`] (?ILLEGAL QUANTITY).
//!
//! Everything here is plain integer arithmetic on `Copy` values: no allocation, no floats.

mod arith;
mod convert;
mod funcs;
mod rnd;
mod text;

pub use rnd::{POWER_ON_SEED, rnd};
pub use text::{FinResult, FoutText};

/// An error the ROM's number routines raise, named as the ROM prints it (without `?` and
/// `  ERROR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum FloatError {
    /// `?OVERFLOW  ERROR`: a result beyond ±1.70141183E+38.
    #[error("OVERFLOW")]
    Overflow,
    /// `?DIVISION BY ZERO  ERROR`.
    #[error("DIVISION BY ZERO")]
    DivisionByZero,
    /// `?ILLEGAL QUANTITY  ERROR`: LOG of a non-positive number, SQR of a negative one, a
    /// negative number to a non-integer power, an integer conversion out of range.
    #[error("ILLEGAL QUANTITY")]
    IllegalQuantity,
}

/// The result type of the number routines.
pub type FloatResult<T> = Result<T, FloatError>;

/// A number in the ROM's 5-byte memory form (MFLPT), as variables and array elements hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Packed(pub [u8; 5]);

impl Packed {
    /// The value zero as BASIC stores it (all five bytes 0).
    pub const ZERO: Packed = Packed([0; 5]);

    /// The packed value of `f`, rounded as storing it in a variable does (MOVMF).
    pub fn from_fac(f: Fac) -> FloatResult<Packed> {
        f.to_packed()
    }

    /// The value as a FAC (MOVFM): the rounding byte is zero.
    pub fn to_fac(self) -> Fac {
        Fac::from_packed(self)
    }

    /// The value, when it is a whole number other than zero of magnitude below 2^31 (the range
    /// where whole-number arithmetic on two of them stays exact in the 32-bit mantissa).
    #[inline]
    pub fn to_whole(self) -> Option<i64> {
        let [exp, b1, b2, b3, b4] = self.0;
        Packed::whole_of_parts(exp, u32::from_be_bytes([b1, b2, b3, b4]))
    }

    /// [`Packed::to_whole`] of the exponent byte and the four mantissa bytes as one
    /// big-endian word (sign in its top bit), as NEXT reads a variable.
    #[inline(always)]
    pub fn whole_of_parts(exp: u8, word: u32) -> Option<i64> {
        // 0.m × 2^(exp-128) with m in [1/2, 1): at least 1 from exp 129, below 2^31 up to 159.
        if !(129..=159).contains(&exp) {
            return None;
        }
        let mant = word | 0x8000_0000;
        let fraction_bits = 160 - u32::from(exp);
        if mant & ((1u32 << fraction_bits) - 1) != 0 {
            return None;
        }
        let v = i64::from(mant >> fraction_bits);
        Some(if word & 0x8000_0000 != 0 { -v } else { v })
    }

    /// A whole number of magnitude 1 to 2^32-1, exactly, in the normalised form the ROM's
    /// FADD and MOVMF leave for it (no rounding happens: every bit fits the mantissa).
    #[inline]
    pub fn from_whole(v: i64) -> Option<Packed> {
        let (exp, word) = Packed::parts_of_whole(v)?;
        let [b1, b2, b3, b4] = word.to_be_bytes();
        Some(Packed([exp, b1, b2, b3, b4]))
    }

    /// [`Packed::from_whole`] as the exponent byte and the mantissa word (sign in its top
    /// bit), as NEXT stores a variable.
    #[inline(always)]
    pub fn parts_of_whole(v: i64) -> Option<(u8, u32)> {
        let magnitude = u32::try_from(v.unsigned_abs()).ok().filter(|&m| m != 0)?;
        let shift = magnitude.leading_zeros();
        let sign = if v < 0 { 0x8000_0000 } else { 0 };
        Some(((160 - shift) as u8, (magnitude << shift) & 0x7FFF_FFFF | sign))
    }
}

/// The floating accumulator: the ROM's working form of a number, with its rounding byte.
///
/// When `exp` is 0 the value is zero whatever the other fields hold; they are kept (as the ROM
/// leaves them) only so that storing such a zero gives the ROM's exact bytes, and `==` treats
/// all zeros as equal.
#[derive(Clone, Copy, Debug)]
pub struct Fac {
    /// The exponent byte: value = 0.mant × 2^(exp-128); 0 means zero.
    pub exp: u8,
    /// The mantissa, leading 1 in bit 31 when normalised.
    pub mant: u32,
    /// True for negative numbers (the ROM's FACSIGN bit 7).
    pub neg: bool,
    /// The rounding byte below the mantissa (FACEXTENSION).
    pub ext: u8,
}

impl PartialEq for Fac {
    fn eq(&self, other: &Fac) -> bool {
        (self.exp == 0 && other.exp == 0)
            || (self.exp == other.exp
                && self.mant == other.mant
                && self.neg == other.neg
                && self.ext == other.ext)
    }
}

impl Eq for Fac {}

impl Default for Fac {
    fn default() -> Self {
        Fac::ZERO
    }
}

impl Fac {
    /// Zero.
    pub const ZERO: Fac = Fac {
        exp: 0,
        mant: 0,
        neg: false,
        ext: 0,
    };
    /// One.
    pub const ONE: Fac = Fac {
        exp: 0x81,
        mant: 0x8000_0000,
        neg: false,
        ext: 0,
    };
    /// Pi, as the `π` token ($FF) gives it: the ROM's constant 82 49 0F DA A2.
    pub const PI: Fac = Fac {
        exp: 0x82,
        mant: 0xC90F_DAA2,
        neg: false,
        ext: 0,
    };

    /// The FAC loaded from memory (MOVFM): the rounding byte is zero.
    pub fn from_packed(p: Packed) -> Fac {
        let b = p.0;
        Fac {
            exp: b[0],
            mant: u32::from_be_bytes([b[1] | 0x80, b[2], b[3], b[4]]),
            neg: b[1] & 0x80 != 0,
            ext: 0,
        }
    }

    /// The 5-byte memory form, rounded by the rounding byte as MOVMF does. Rounding up the
    /// largest mantissa can overflow, as on the C64.
    pub fn to_packed(self) -> FloatResult<Packed> {
        let f = self.round()?;
        let m = f.mant.to_be_bytes();
        let top = if f.neg { m[0] } else { m[0] & 0x7F };
        Ok(Packed([f.exp, top, m[1], m[2], m[3]]))
    }

    /// True if the value is zero.
    pub fn is_zero(self) -> bool {
        self.exp == 0
    }

    /// True if the value is below zero.
    pub fn is_negative(self) -> bool {
        self.exp != 0 && self.neg
    }

    /// The value as an f64, for debugging and displays that do not need the ROM's formatting
    /// (the rounding byte is included; it is exact).
    pub fn to_f64(self) -> f64 {
        if self.exp == 0 {
            return 0.0;
        }
        let m = ((self.mant as u64) << 8 | self.ext as u64) as f64;
        let v = m * 2f64.powi(self.exp as i32 - 128 - 40);
        if self.neg { -v } else { v }
    }
}

#[cfg(test)]
mod tests;
