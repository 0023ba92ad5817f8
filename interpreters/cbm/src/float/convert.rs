//! Conversions between the FAC and machine integers, with the ROM's range checks: AYINT for
//! `%` variables, GETADR for 16-bit addresses, GETBYT for bytes.

use super::arith::{fcomp, normalize, qint};
use super::{Fac, FloatError, FloatResult, Packed};

/// -32768, the constant AYINT compares against (90 80 00 00 00).
const NEG32768: Packed = Packed([0x90, 0x80, 0, 0, 0]);

impl Fac {
    /// An exact conversion of a 32-bit signed integer (GIVAYF and friends).
    pub fn from_i32(v: i32) -> Fac {
        let neg = v < 0;
        let mag = (v as i64).unsigned_abs();
        normalize(0xA0, neg, mag << 8)
    }

    /// An exact conversion of a 32-bit unsigned integer (the 24-bit jiffy clock, for one).
    pub fn from_u32(v: u32) -> Fac {
        normalize(0xA0, false, (v as u64) << 8)
    }

    /// A `%` variable's value, or any signed 16-bit result (GIVAYF).
    pub fn from_i16(v: i16) -> Fac {
        Fac::from_i32(v as i32)
    }

    /// An unsigned 16-bit value (FRE's and PEEK's addresses, line numbers).
    pub fn from_u16(v: u16) -> Fac {
        Fac::from_i32(v as i32)
    }

    /// A byte (PEEK, ASC, LEN).
    pub fn from_u8(v: u8) -> Fac {
        Fac::from_i32(v as i32)
    }

    /// AYINT on the FAC as it is (rounding byte included): what AND, OR and NOT do with their
    /// right operand (the left one was pushed rounded: round it first), and array subscripts.
    /// Floors; ?ILLEGAL QUANTITY outside -32768..32767 (-32768 itself is checked by comparing,
    /// so a FAC that rounds to it passes).
    pub fn to_i16(self) -> FloatResult<i16> {
        if self.exp >= 0x90 && fcomp(self, NEG32768) != 0 {
            return Err(FloatError::IllegalQuantity);
        }
        Ok(qint(self) as i16)
    }

    /// The value stored into a `%` variable (LET, READ, INPUT): ROUND_FAC first, then
    /// [`Fac::to_i16`]. ROUND_FAC leaves the rounding byte shifted left rather than cleared, so
    /// `A%=23/(1/5)` is 115 where `INT(23/(1/5))` is 114, yet `A%=-1/3*3` is -2, as on the C64.
    pub fn to_int_variable(self) -> FloatResult<i16> {
        self.round()?.to_i16()
    }

    /// MKINT: as [`Fac::to_i16`] but negative numbers are ?ILLEGAL QUANTITY (array subscripts).
    pub fn to_nonneg_i16(self) -> FloatResult<i16> {
        if self.neg {
            return Err(FloatError::IllegalQuantity);
        }
        self.to_i16()
    }

    /// GETADR: an address for POKE, PEEK, SYS, WAIT: truncated, ?ILLEGAL QUANTITY if negative or
    /// 65536 and above.
    pub fn to_u16(self) -> FloatResult<u16> {
        if self.neg || self.exp >= 0x91 {
            return Err(FloatError::IllegalQuantity);
        }
        Ok(qint(self) as u16)
    }

    /// GETBYT (CONINT): a byte for POKE's value, CHR$, TAB, SPC: ?ILLEGAL QUANTITY if negative
    /// or 256 and above.
    pub fn to_u8(self) -> FloatResult<u8> {
        let v = self.to_nonneg_i16()?;
        u8::try_from(v).map_err(|_| FloatError::IllegalQuantity)
    }
}
