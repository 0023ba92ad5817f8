//! Flag bits and lookup tables.

/// Carry.
pub const CF: u8 = 0x01;
/// Add/subtract (set by subtractions, read by DAA).
pub const NF: u8 = 0x02;
/// Parity / overflow.
pub const PF: u8 = 0x04;
/// Undocumented bit 3 (often called X or F3).
pub const XF: u8 = 0x08;
/// Half carry.
pub const HF: u8 = 0x10;
/// Undocumented bit 5 (often called Y or F5).
pub const YF: u8 = 0x20;
/// Zero.
pub const ZF: u8 = 0x40;
/// Sign.
pub const SF: u8 = 0x80;

const fn build(parity: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let v = i as u8;
        let mut f = v & (SF | YF | XF);
        if v == 0 {
            f |= ZF;
        }
        if parity && v.count_ones() & 1 == 0 {
            f |= PF;
        }
        t[i] = f;
        i += 1;
    }
    t
}

/// S, Z, Y and X of a result byte.
pub(crate) static SZ53: [u8; 256] = build(false);
/// S, Z, Y, X and even parity of a result byte (logic ops, shifts, IN r,(C), DAA).
pub(crate) static SZ53P: [u8; 256] = build(true);
