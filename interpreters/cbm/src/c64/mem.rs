//! Where the C64 keeps the state of its screen, keyboard and video chip (the KERNAL's addresses,
//! so PEEK and POKE find them as on a C64); what power-on puts there is [`super::power_on`].

/// RVS: reverse video on (18) or off (0).
pub const RVS: usize = 0xC7;
/// LSTX: the matrix code of the key held now (64: none).
pub const LSTX: usize = 0xC5;
/// NDX: how many keys wait in the keyboard buffer.
pub const NDX: usize = 0xC6;
/// LXSP: the row (and next byte, column) where the line being typed started.
pub const LXSP: usize = 0xC9;
/// BLNSW: 0 while the cursor blinks (the editor waits for a key).
pub const BLNSW: usize = 0xCC;
/// PNT: the address of the cursor's logical line in screen RAM.
pub const PNT: usize = 0xD1;
/// PNTR: the cursor's column in its logical line (0-79).
pub const PNTR: usize = 0xD3;
/// QTSW: quote mode.
pub const QTSW: usize = 0xD4;
/// LNMX: the last column of the cursor's logical line (39 or 79).
pub const LNMX: usize = 0xD5;
/// TBLX: the cursor's physical row.
pub const TBLX: usize = 0xD6;
/// INSRT: characters still to be shown as in quote mode after INST.
pub const INSRT: usize = 0xD8;
/// LDTB1: the line link table, one byte per row, bit 7 set where a logical line starts.
pub const LDTB1: usize = 0xD9;
/// USER: the address of the cursor's logical line in colour RAM.
pub const USER: usize = 0xF3;
/// The keyboard buffer (10 bytes).
pub const KEYD: usize = 0x277;
/// COLOR: the colour printed characters get.
pub const COLOR: usize = 0x286;
/// HIBASE: the page of screen RAM the editor writes to.
pub const HIBASE: usize = 0x288;
/// XMAX: the keyboard buffer's size.
pub const XMAX: usize = 0x289;
/// SHFLAG: SHIFT (1), Commodore (2) and CTRL (4) keys held.
pub const SHFLAG: usize = 0x28D;
/// MODE: 128 when CHR$(8) has locked the SHIFT+Commodore character set switch.
pub const MODE: usize = 0x291;
/// Colour RAM (1,000 nybbles).
pub const COLOUR_RAM: usize = 0xD800;
/// VIC-II registers.
pub const VIC_MEMORY: usize = 0xD018;
pub const BORDER: usize = 0xD020;
pub const BACKGROUND: usize = 0xD021;
/// CIA 2 port A: its low two bits pick the VIC-II's 16 KiB bank (inverted).
pub const CIA2_PRA: usize = 0xDD00;

/// What a POKE to a hardware register leaves for PEEK: the VIC-II's colour registers have no
/// top four bits (they read as 1s), colour RAM has only the low four.
pub fn poked(m: &mut [u8], addr: u16) {
    let a = addr as usize;
    match a {
        0xD020..=0xD02E => m[a] |= 0xF0,
        0xD800..=0xDBFF => m[a] &= 0x0F,
        _ => {}
    }
}
