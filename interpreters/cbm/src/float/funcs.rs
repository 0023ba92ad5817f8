//! SQR, LOG, EXP, `^`, SIN, COS, TAN and ATN, by the ROM's own range reductions and polynomial
//! tables (the constants below are the C64 ROM's bytes), so each result is the ROM's to the bit.

use super::arith::{add_exponents, fadd, fcomp, fdiv, fmult, int};
use super::{Fac, FloatError, FloatResult};

const fn k(b: [u8; 5]) -> Fac {
    // MOVFM at compile time.
    Fac {
        exp: b[0],
        mant: u32::from_be_bytes([b[1] | 0x80, b[2], b[3], b[4]]),
        neg: b[1] & 0x80 != 0,
        ext: 0,
    }
}

pub(super) const ONE: Fac = k([0x81, 0x00, 0x00, 0x00, 0x00]);
pub(super) const HALF: Fac = k([0x80, 0x00, 0x00, 0x00, 0x00]);
const NEG_HALF: Fac = k([0x80, 0x80, 0x00, 0x00, 0x00]);
const SQR_HALF: Fac = k([0x80, 0x35, 0x04, 0xF3, 0x34]);
const SQR_TWO: Fac = k([0x81, 0x35, 0x04, 0xF3, 0x34]);
const LOG_TWO: Fac = k([0x80, 0x31, 0x72, 0x17, 0xF8]);
const LOG_E: Fac = k([0x81, 0x38, 0xAA, 0x3B, 0x29]);
const PI_HALF: Fac = k([0x81, 0x49, 0x0F, 0xDA, 0xA2]);
const PI_DOUB: Fac = k([0x83, 0x49, 0x0F, 0xDA, 0xA2]);
const QUARTER: Fac = k([0x7F, 0x00, 0x00, 0x00, 0x00]);

const POLY_LOG: [Fac; 4] = [
    k([0x7F, 0x5E, 0x56, 0xCB, 0x79]),
    k([0x80, 0x13, 0x9B, 0x0B, 0x64]),
    k([0x80, 0x76, 0x38, 0x93, 0x16]),
    k([0x82, 0x38, 0xAA, 0x3B, 0x20]),
];

const POLY_EXP: [Fac; 8] = [
    k([0x71, 0x34, 0x58, 0x3E, 0x56]),
    k([0x74, 0x16, 0x7E, 0xB3, 0x1B]),
    k([0x77, 0x2F, 0xEE, 0xE3, 0x85]),
    k([0x7A, 0x1D, 0x84, 0x1C, 0x2A]),
    k([0x7C, 0x63, 0x59, 0x58, 0x0A]),
    k([0x7E, 0x75, 0xFD, 0xE7, 0xC6]),
    k([0x80, 0x31, 0x72, 0x18, 0x10]),
    k([0x81, 0x00, 0x00, 0x00, 0x00]),
];

const POLY_SIN: [Fac; 6] = [
    k([0x84, 0xE6, 0x1A, 0x2D, 0x1B]),
    k([0x86, 0x28, 0x07, 0xFB, 0xF8]),
    k([0x87, 0x99, 0x68, 0x89, 0x01]),
    k([0x87, 0x23, 0x35, 0xDF, 0xE1]),
    k([0x86, 0xA5, 0x5D, 0xE7, 0x28]),
    k([0x83, 0x49, 0x0F, 0xDA, 0xA2]),
];

const POLY_ATN: [Fac; 12] = [
    k([0x76, 0xB3, 0x83, 0xBD, 0xD3]),
    k([0x79, 0x1E, 0xF4, 0xA6, 0xF5]),
    k([0x7B, 0x83, 0xFC, 0xB0, 0x10]),
    k([0x7C, 0x0C, 0x1F, 0x67, 0xCA]),
    k([0x7C, 0xDE, 0x53, 0xCB, 0xC1]),
    k([0x7D, 0x14, 0x64, 0x70, 0x4C]),
    k([0x7D, 0xB7, 0xEA, 0x51, 0x7A]),
    k([0x7D, 0x63, 0x30, 0x88, 0x7E]),
    k([0x7E, 0x92, 0x44, 0x99, 0x3A]),
    k([0x7E, 0x4C, 0xCC, 0x91, 0xC7]),
    k([0x7F, 0xAA, 0xAA, 0xAA, 0x13]),
    k([0x81, 0x00, 0x00, 0x00, 0x00]),
];

/// FSUB/FSUBT: `arg - fac`. FSUBT flips FAC's sign byte whatever the value.
#[inline]
fn fsub(arg: Fac, fac: Fac) -> FloatResult<Fac> {
    fadd(arg, Fac { neg: !fac.neg, ..fac })
}

/// A FAC stored to a temporary and read back (STORE_FAC_AT_YX_ROUNDED leaves the FAC rounded
/// with a zero rounding byte, and the copy in memory is the same value).
#[inline]
fn stored(f: Fac) -> FloatResult<Fac> {
    Ok(Fac::from_packed(f.to_packed()?))
}

/// POLYNOMIAL (SERMAIN): Horner's rule over `table`, highest power first, with x rounded.
fn polynomial(f: Fac, table: &[Fac]) -> FloatResult<Fac> {
    let x = stored(f)?;
    let mut acc = fmult(table[0], x)?;
    acc = fadd(table[1], acc)?;
    for &c in &table[2..] {
        acc = fmult(x, acc)?;
        acc = fadd(c, acc)?;
    }
    Ok(acc)
}

/// POLYNOMIAL_ODD: x * P(x²), x rounded. Also gives TEMP1 (the rounded x), which TAN reuses.
fn polynomial_odd(f: Fac, table: &[Fac]) -> FloatResult<(Fac, Fac)> {
    let x = stored(f)?;
    let sq = fmult(x, x)?;
    let p = polynomial(sq, table)?;
    Ok((fmult(x, p)?, x))
}

/// FLOAT: a signed byte as a FAC (ADDACC's addend).
#[inline]
fn float_i8(a: i8) -> Fac {
    Fac::from_i16(a as i16)
}

impl Fac {
    /// LOG: the natural logarithm; ?ILLEGAL QUANTITY for zero and negative numbers.
    pub fn log(self) -> FloatResult<Fac> {
        if self.sign() <= 0 {
            return Err(FloatError::IllegalQuantity);
        }
        let n = self.exp.wrapping_sub(0x80) as i8;
        let mut f = Fac { exp: 0x80, ..self };
        f = fadd(SQR_HALF, f)?;
        f = fdiv(SQR_TWO, f, SQR_TWO.neg ^ f.neg)?;
        f = fsub(ONE, f)?;
        f = polynomial_odd(f, &POLY_LOG)?.0;
        f = fadd(NEG_HALF, f)?;
        // ADDACC: FAC rounded into ARG, plus the exponent as a number.
        f = fadd(f.rounded()?, float_i8(n))?;
        fmult(LOG_TWO, f)
    }

    /// EXP: e to the power; ?OVERFLOW from about 88.03, zero below about -88.7.
    pub fn exp(self) -> FloatResult<Fac> {
        self.exp_charac(&mut 0)
    }

    /// EXP, leaving in `charac` what the ROM leaves in CHARAC ($07): the low byte of the
    /// whole part of `self / LOG(2)` (unchanged when the result is out of range).
    pub fn exp_charac(self, charac: &mut u8) -> FloatResult<Fac> {
        let mut f = fmult(LOG_E, self)?;
        // The ROM rounds the product up when its rounding byte is $B0 or more, and carries
        // the rounding byte plus $50 into the subtraction below.
        let (argext, c) = f.ext.overflowing_add(0x50);
        if c {
            f = increment_mantissa(f)?;
        }
        let whole = Fac { ext: 0, ..f };
        if whole.exp >= 0x88 {
            return out_of_range(whole);
        }
        let i = int(whole, charac);
        let scale = charac.wrapping_add(0x81);
        if scale == 0 {
            return out_of_range(i);
        }
        let scale = scale.wrapping_sub(1);
        let frac = fsub(i, Fac { ext: argext, ..f })?.negated();
        let p = polynomial(frac, &POLY_EXP)?;
        // ADD_EXPONENTS1 with SGNCPR = 0: the result is positive.
        let exp = match add_exponents(scale, p.exp)? {
            Some((e, _)) => e,
            None => 0,
        };
        Ok(Fac { exp, neg: false, ..p })
    }

    /// BASIC's `self ^ rhs` (FPWRT): EXP(LOG(self) * rhs), with integer powers of negative
    /// numbers allowed; `0 ^ y` is 0 and `x ^ 0` is 1.
    ///
    /// A negative base needs an integer power, and the ROM takes the result's sign from the
    /// low bit of CHARAC ($07) after INT of the power. INT leaves CHARAC alone for powers of
    /// 2^31 and more, so their sign comes from whatever wrote CHARAC last (an earlier INT, EXP,
    /// SIN, `^`, or the interpreter's text scanning): [`Fac::pow_charac`] takes that byte;
    /// `pow` treats it as 0 (even), as after RUN.
    pub fn pow(self, rhs: Fac) -> FloatResult<Fac> {
        self.pow_charac(rhs, &mut 0)
    }

    /// `^` with the machine's CHARAC byte, read and written as the ROM does.
    pub fn pow_charac(self, rhs: Fac, charac: &mut u8) -> FloatResult<Fac> {
        fpwrt(self.rounded()?, rhs, charac)
    }

    /// SQR: the square root, as the ROM computes it: `x ^ .5`.
    pub fn sqr(self) -> FloatResult<Fac> {
        self.sqr_charac(&mut 0)
    }

    /// SQR, writing CHARAC as its EXP does.
    pub fn sqr_charac(self, charac: &mut u8) -> FloatResult<Fac> {
        fpwrt(self.rounded()?, HALF, charac)
    }

    /// SIN, in radians.
    pub fn sin(self) -> FloatResult<Fac> {
        self.sin_charac(&mut 0)
    }

    /// SIN, writing CHARAC as its INT of the turns does.
    pub fn sin_charac(self, charac: &mut u8) -> FloatResult<Fac> {
        let mut cprmask = false;
        Ok(sin(self, &mut cprmask, charac)?.0)
    }

    /// COS: SIN of the value plus pi/2.
    pub fn cos(self) -> FloatResult<Fac> {
        self.cos_charac(&mut 0)
    }

    /// COS, writing CHARAC as SIN does.
    pub fn cos_charac(self, charac: &mut u8) -> FloatResult<Fac> {
        fadd(PI_HALF, self)?.sin_charac(charac)
    }

    /// TAN: SIN over a cosine that the ROM gets from SIN's own reduced angle.
    pub fn tan(self) -> FloatResult<Fac> {
        self.tan_charac(&mut 0)
    }

    /// TAN, writing CHARAC as SIN does.
    pub fn tan_charac(self, charac: &mut u8) -> FloatResult<Fac> {
        let x = stored(self)?;
        let mut cprmask = false;
        let (s, temp1) = sin(x, &mut cprmask, charac)?;
        let temp3 = stored(s)?;
        let c = sin_tail(Fac { neg: false, ..temp1 }, true, cprmask)?.0;
        fdiv(temp3, c, temp3.neg ^ c.neg)
    }

    /// ATN, in radians.
    pub fn atn(self) -> FloatResult<Fac> {
        let negative = self.neg;
        let mut f = self.neg_if(negative);
        let big = f.exp >= 0x81;
        if big {
            f = fdiv(ONE, f, ONE.neg ^ f.neg)?;
        }
        f = polynomial_odd(f, &POLY_ATN)?.0;
        if big {
            f = fsub(PI_HALF, f)?;
        }
        Ok(f.neg_if(negative))
    }

    #[inline]
    fn neg_if(self, yes: bool) -> Fac {
        if yes { self.negated() } else { self }
    }
}

/// OUTOFRNG: ?OVERFLOW for a positive FAC, zero for a negative one (ZERO_FAC clears only the
/// exponent and sign; the mantissa stays, and shows if the zero is stored).
fn out_of_range(f: Fac) -> FloatResult<Fac> {
    if f.neg {
        Ok(Fac {
            exp: 0,
            neg: false,
            ..f
        })
    } else {
        Err(FloatError::Overflow)
    }
}

/// INCREMENT_MANTISSA: one more in the mantissa, renormalising on a carry out.
fn increment_mantissa(f: Fac) -> FloatResult<Fac> {
    let mant = f.mant.wrapping_add(1);
    if mant != 0 {
        return Ok(Fac { mant, ..f });
    }
    let exp = f.exp.wrapping_add(1);
    if exp == 0 {
        return Err(FloatError::Overflow);
    }
    Ok(Fac {
        exp,
        mant: 0x8000_0000,
        ext: f.ext >> 1,
        ..f
    })
}

/// FPWRT: ARG ^ FAC.
fn fpwrt(arg: Fac, fac: Fac, charac: &mut u8) -> FloatResult<Fac> {
    if fac.exp == 0 {
        return fac.exp_charac(charac);
    }
    if arg.exp == 0 {
        return Ok(Fac {
            exp: 0,
            neg: false,
            ..fac
        });
    }
    let y = stored(fac)?;
    // A negative base needs an integer power (else LOG sees a negative number: ?ILLEGAL
    // QUANTITY); the low bit of CHARAC after INT says whether it is odd. INT does not write
    // CHARAC for powers of 2^31 and more, so there the sign comes from what wrote it last.
    let odd = if arg.neg {
        let i = int(y, charac);
        if fcomp(i, y.to_packed()?) != 0 {
            return Err(FloatError::IllegalQuantity);
        }
        *charac & 1 != 0
    } else {
        false
    };
    let base = Fac {
        neg: false,
        ext: 0,
        ..arg
    };
    let l = base.log()?;
    let r = fmult(y, l)?.exp_charac(charac)?;
    Ok(if odd { r.negated() } else { r })
}

/// SIN up to its polynomial; also gives TEMP1 (the reduced angle as POLYNOMIAL_ODD stored it)
/// and flips `cprmask` where the ROM does, for TAN.
fn sin(f: Fac, cprmask: &mut bool, charac: &mut u8) -> FloatResult<(Fac, Fac)> {
    let arg = f.rounded()?;
    let turns = fdiv(arg, PI_DOUB, arg.neg)?;
    let turns_r = turns.rounded()?;
    let whole = int(turns_r, charac);
    let frac = fsub(turns_r, whole)?;
    let mut f = fsub(QUARTER, frac)?;
    let negative = f.neg;
    if !negative {
        return sin_tail(f, true, negative);
    }
    f = fadd(HALF, f)?;
    if f.neg {
        return sin_tail(f, false, negative);
    }
    *cprmask = !*cprmask;
    sin_tail(f, true, negative)
}

/// SIN1/L3F5B: fold into a quarter circle and evaluate the sine polynomial.
fn sin_tail(mut f: Fac, negate_first: bool, negate_after: bool) -> FloatResult<(Fac, Fac)> {
    if negate_first {
        f = f.negated();
    }
    f = fadd(QUARTER, f)?;
    if negate_after {
        f = f.negated();
    }
    polynomial_odd(f, &POLY_SIN)
}
