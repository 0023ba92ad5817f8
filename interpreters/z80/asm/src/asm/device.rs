//! sjasmplus's virtual ZX Spectrum 48K (`DEVICE ZXSPECTRUM48`): its memory as a 48K machine has
//! it after `CLEAR ramtop`, and the files made from that memory (`SAVESNA`, `SAVETAP`).
//!
//! The values are the real machine's state, byte for byte what sjasmplus writes (checked by the
//! golden corpus in tests/sjasmplus), so a snapshot loads in any Spectrum emulator.

/// The default RAMTOP (as `CLEAR 23899` leaves it): the fake BASIC stack ends just below it.
pub(super) const ZX_RAMTOP: i64 = 0x5D5B;

/// The four bytes on the machine stack below RAMTOP after `CLEAR`: the ROM's error return
/// (1303h, MAIN-4) and the 3Eh end marker. A 48K snapshot's start address goes just below them.
const ZX_STACK: [u8; 4] = [0x03, 0x13, 0x00, 0x3E];

/// The system variables at 5C00h that differ from 0 on a 48K after `CLEAR` (address, bytes):
/// KSTATE, REPDEL/REPPER, the channel and stream pointers, ERR_NR, FLAGS..., CHARS, RASP/PIP,
/// ATTR_P, UDG, P_RAMT and the printer buffer's neighbours, as the ROM sets them up.
const ZX_SYSVARS: &[(u16, &[u8])] = &[
    (0x5C00, &[0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0x14, 0x01]),
    (
        0x5C10,
        &[0x01, 0, 0x06, 0, 0x0B, 0, 0x01, 0, 0x01, 0, 0x06, 0, 0x10],
    ),
    (0x5C36, &[0, 0x3C, 0x40, 0, 0xFF, 0xCC, 0x01, 0x54, 0xFF]),
    (
        0x5C48,
        &[
            0x38, 0, 0, 0xCB, 0x5C, 0, 0, 0xB6, 0x5C, 0xB6, 0x5C, 0xCB, 0x5C, 0, 0,
        ],
    ),
    (
        0x5C57,
        &[
            0xCA, 0x5C, 0xCC, 0x5C, 0xCC, 0x5C, 0xCC, 0x5C, 0, 0, 0xCE, 0x5C, 0xCE, 0x5C, 0xCE, 0x5C,
        ],
    ),
    (0x5C68, &[0x92, 0x5C, 0x10, 0x02]),
    (
        0x5C7B,
        &[
            0x58, 0xFF, 0, 0, 0x21, 0x5B, 0, 0x21, 0x17, 0, 0x40, 0xE0, 0x50, 0x21, 0x18, 0x21,
        ],
    ),
    (0x5C8B, &[0x17, 0x01, 0x38, 0, 0x38]),
    (
        0x5CB2,
        &[
            0x57, 0xFF, 0xFF, 0xFF, 0xF4, 0x09, 0xA8, 0x10, 0x4B, 0xF4, 0x09, 0xC4, 0x15, 0x53,
        ],
    ),
    (
        0x5CC0,
        &[
            0x81, 0x0F, 0xC4, 0x15, 0x52, 0xF4, 0x09, 0xC4, 0x15, 0x50, 0x80, 0x80, 0x0D, 0x80,
        ],
    ),
];

/// The user-defined graphics at FF58h: the ROM's letters A..U, 8 rows each, as bit pictures.
const ZX_UDG: [[u8; 6]; 21] = [
    [0x3C, 0x42, 0x42, 0x7E, 0x42, 0x42], // A
    [0x7C, 0x42, 0x7C, 0x42, 0x42, 0x7C], // B
    [0x3C, 0x42, 0x40, 0x40, 0x42, 0x3C], // C
    [0x78, 0x44, 0x42, 0x42, 0x44, 0x78], // D
    [0x7E, 0x40, 0x7C, 0x40, 0x40, 0x7E], // E
    [0x7E, 0x40, 0x7C, 0x40, 0x40, 0x40], // F
    [0x3C, 0x42, 0x40, 0x4E, 0x42, 0x3C], // G
    [0x42, 0x42, 0x7E, 0x42, 0x42, 0x42], // H
    [0x3E, 0x08, 0x08, 0x08, 0x08, 0x3E], // I
    [0x02, 0x02, 0x02, 0x42, 0x42, 0x3C], // J
    [0x44, 0x48, 0x70, 0x48, 0x44, 0x42], // K
    [0x40, 0x40, 0x40, 0x40, 0x40, 0x7E], // L
    [0x42, 0x66, 0x5A, 0x42, 0x42, 0x42], // M
    [0x42, 0x62, 0x52, 0x4A, 0x46, 0x42], // N
    [0x3C, 0x42, 0x42, 0x42, 0x42, 0x3C], // O
    [0x7C, 0x42, 0x42, 0x7C, 0x40, 0x40], // P
    [0x3C, 0x42, 0x42, 0x52, 0x4A, 0x3C], // Q
    [0x7C, 0x42, 0x42, 0x7C, 0x44, 0x42], // R
    [0x3C, 0x40, 0x3C, 0x02, 0x42, 0x3C], // S
    [0xFE, 0x10, 0x10, 0x10, 0x10, 0x10], // T
    [0x42, 0x42, 0x42, 0x42, 0x42, 0x3C], // U
];

/// A 48K Spectrum's RAM after `CLEAR ramtop` (ramtop -1: all zeros): white paper attributes, the
/// system variables, the UDGs and the BASIC stack. `mem` is the whole 64K address space.
pub(super) fn zx48_init(mem: &mut [u8], ramtop: i64) {
    mem.iter_mut().for_each(|b| *b = 0);
    if ramtop == -1 {
        return;
    }
    mem[0x5800..0x5B00].iter_mut().for_each(|b| *b = 7 * 8);
    for (k, glyph) in ZX_UDG.iter().enumerate() {
        let at = 0xFF58 + k * 8;
        mem[at + 1..at + 7].copy_from_slice(glyph);
    }
    for &(addr, bytes) in ZX_SYSVARS {
        mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
    }
    let top = ramtop as usize;
    mem[0x5CB2] = top as u8; // RAMTOP
    mem[0x5CB3] = (top >> 8) as u8;
    let stack = top + 1 - ZX_STACK.len();
    mem[0x5C3D] = stack as u8; // ERR_SP
    mem[0x5C3E] = (stack >> 8) as u8;
    mem[stack..stack + ZX_STACK.len()].copy_from_slice(&ZX_STACK);
}

/// A valid RAMTOP for `DEVICE ZXSPECTRUM48,ramtop`; anything else means the default.
pub(super) fn ramtop(asked: Option<i64>) -> i64 {
    match asked {
        Some(v) if v == -1 || (0x5D00..=0xFFFF).contains(&v) => v,
        _ => ZX_RAMTOP,
    }
}

/// A 48K .sna snapshot: the 27-byte header (the registers as BASIC leaves them on `USR`, with
/// interrupts disabled, IM 1 and a white border), then RAM 4000h..FFFFh. The program starts by
/// the `RETN` emulators perform: the start address is pushed below the BASIC stack when that
/// stack is untouched, else at 4000h (the top-left screen bytes, as sjasmplus does, with a
/// warning). Returns the file and whether that fallback was needed.
pub(super) fn sna48(mem: &mut [u8], ramtop: i64, start: u16) -> (Vec<u8>, bool) {
    let mut stack = (ramtop + 1 - ZX_STACK.len() as i64).max(0x4002) as usize;
    let untouched = mem[stack - 2..stack] == [0, 0] && mem[stack..stack + ZX_STACK.len()] == ZX_STACK;
    let sp = if untouched {
        stack -= 2;
        mem[stack..stack + 2].copy_from_slice(&start.to_le_bytes());
        stack as u16
    } else {
        mem[0x4000..0x4002].copy_from_slice(&start.to_le_bytes());
        0x4000
    };
    let mut out = sna_header(start, sp).to_vec();
    out.extend_from_slice(&mem[0x4000..0x10000]);
    (out, !untouched)
}

/// The stack pointer of a 128K snapshot: the BASIC stack under RAMTOP as `CLEAR` leaves it (the
/// start address is stored in the 128K extension, not pushed).
pub(super) fn sna128_sp(ramtop: i64) -> u16 {
    (ramtop + 1 - ZX_STACK.len() as i64).max(0x4002) as u16
}

/// The 27-byte .sna header: the registers as BASIC leaves them on `USR start`.
pub(super) fn sna_header(start: u16, sp: u16) -> [u8; 27] {
    let [start_lo, start_hi] = start.to_le_bytes();
    let [sp_lo, sp_hi] = sp.to_le_bytes();
    #[rustfmt::skip]
    let header: [u8; 27] = [
        0x3F,                   // I
        0x58, 0x27,             // HL'
        0x9B, 0x36,             // DE'
        0x00, 0x00,             // BC'
        0x44, 0x00,             // F', A'
        0x2B, 0x2D,             // HL
        0xDC, 0x5C,             // DE
        start_lo, start_hi,     // BC (the start address, as USR leaves it)
        0x3A, 0x5C,             // IY (the system variables)
        0x3C, 0xFF,             // IX
        0x00,                   // IFF2: interrupts disabled
        0x00,                   // R
        0x54, 0x00,             // F, A
        sp_lo, sp_hi,           // SP
        0x01,                   // IM 1
        0x07,                   // border white
    ];
    header
}

/// One standard-speed tape block as a .tap file holds it: length, flag, data, XOR checksum.
pub(super) fn tap_block(flag: u8, data: &[u8]) -> Vec<u8> {
    let mut out = ((data.len() + 2) as u16).to_le_bytes().to_vec();
    out.push(flag);
    out.extend_from_slice(data);
    out.push(data.iter().fold(flag, |x, b| x ^ b));
    out
}

/// A ROM tape header block for a CODE file: type 3, the name padded to 10 characters with
/// spaces, the length, the load address and 32768.
pub(super) fn tap_code_header(name: &[u8], len: u16, start: u16) -> Vec<u8> {
    tap_header(3, name, len, start, 0x8000)
}

/// A ROM tape header block: type (0 program, 3 bytes), the name padded to 10 characters with
/// spaces, the length and the two parameters (a program's autorun line, 8000h for none, and its
/// length without variables; a CODE file's load address and 32768).
pub(super) fn tap_header(kind: u8, name: &[u8], len: u16, param1: u16, param2: u16) -> Vec<u8> {
    let mut h = vec![kind];
    h.extend((0..10).map(|k| name.get(k).copied().unwrap_or(b' ')));
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&param1.to_le_bytes());
    h.extend_from_slice(&param2.to_le_bytes());
    tap_block(0x00, &h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_basic_stack_sits_under_ramtop_and_the_snapshot_returns_to_start() {
        let mut mem = vec![0u8; 0x10000];
        zx48_init(&mut mem, ZX_RAMTOP);
        assert_eq!(&mem[0x5D58..0x5D5C], &ZX_STACK);
        assert_eq!(mem[0x5800], 0x38);
        assert_eq!(&mem[0xFF58..0xFF60], &[0, 0x3C, 0x42, 0x42, 0x7E, 0x42, 0x42, 0]);
        let (sna, fallback) = sna48(&mut mem, ZX_RAMTOP, 0x8000);
        assert!(!fallback);
        assert_eq!(sna.len(), 27 + 0xC000);
        assert_eq!(&sna[23..25], &[0x56, 0x5D]);
        assert_eq!(&mem[0x5D56..0x5D58], &[0x00, 0x80]);
    }

    #[test]
    fn tap_blocks_carry_their_checksum() {
        assert_eq!(tap_block(0xFF, &[1, 2]), vec![4, 0, 0xFF, 1, 2, 0xFF ^ 1 ^ 2]);
        let h = tap_code_header(b"code", 8, 0x8000);
        assert_eq!(h.len(), 21);
        assert_eq!(&h[..4], &[0x13, 0, 0, 3]);
    }
}
