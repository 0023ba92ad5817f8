//! RND, the ROM's generator: the seed is a packed number (at 139-143 on the C64); RND of a
//! positive number steps it (seed × 11879546 + 3.927677739E-8, then its mantissa bytes
//! reversed), RND of a negative number reseeds from the number's own bytes, and RND(0) takes
//! its bytes from the CIA timers, which the caller passes.

use super::arith::{fadd, fmult, normalize};
use super::{Fac, FloatResult, Packed};

/// The seed after power-on (the ROM copies it to 139-143): 80 4F C7 52 58.
pub const POWER_ON_SEED: Packed = Packed([0x80, 0x4F, 0xC7, 0x52, 0x58]);

/// 11879546 (98 35 44 7A 00).
const RND_MUL: Fac = Fac {
    exp: 0x98,
    mant: 0xB544_7A00,
    neg: false,
    ext: 0,
};
/// 3.927677739E-8 (68 28 B1 46 00).
const RND_ADD: Fac = Fac {
    exp: 0x68,
    mant: 0xA8B1_4600,
    neg: false,
    ext: 0,
};

/// RND(`arg`), updating `seed`. `clock` is what RND(0) reads into the mantissa, in the order the
/// ROM reads it: on the C64 the CIA 1 registers $DC04, $DC08, $DC05, $DC09 (timer A low, TOD
/// tenths, timer A high, TOD seconds).
pub fn rnd(arg: Fac, seed: &mut Packed, clock: [u8; 4]) -> FloatResult<Fac> {
    let (exp, mant) = match arg.sign() {
        0 => (0u8, u32::from_be_bytes(clock)),
        s => {
            let f = if s > 0 {
                let f = fmult(RND_MUL, Fac::from_packed(*seed))?;
                fadd(RND_ADD, f)?
            } else {
                arg
            };
            // Swap the first and last, second and third mantissa bytes.
            (f.exp, f.mant.swap_bytes())
        }
    };
    // The exponent byte becomes the rounding byte of a number in [0, 1).
    let ext = if arg.sign() == 0 { 0 } else { exp };
    let f = normalize(0x80, false, (mant as u64) << 8 | ext as u64);
    *seed = f.to_packed()?;
    Ok(Fac::from_packed(*seed))
}
