//! The Commodore 64 around BASIC: the screen editor, screen and colour RAM, the VIC-II's
//! picture and the keyboard (issue #15).
//!
//! The interpreter prints through one [`Console`] path; [`C64Console`] is that path on a C64:
//! each byte goes to the KERNAL's screen editor ([`editor`]), which keeps all its state in the
//! machine's memory, and to a text stream for headless runs. [`frame`] draws what the VIC-II
//! would show from that memory, so POKEs to screen RAM, colour RAM, the border and background
//! show at once.

use mem::{
    BACKGROUND, BLNSW, BORDER, CIA2_PRA, COLOR, COLOUR_RAM, HIBASE, INSRT, LDTB1, LSTX, LXSP, MODE, NDX,
    PNTR, QTSW, RVS, TBLX, VIC_MEMORY, XMAX,
};

pub mod charset;
pub mod editor;
pub mod keyboard;
pub mod mem;

use retro_screen::{Cell, CellGrid, Cursor, Frame, Palette};

use crate::interp::Console;
use charset::{Charset, screen_char};
use editor::{COLS, Editor, ROWS};

/// The screen, keyboard and VIC-II state after power-on: light blue text on blue with a light
/// blue border, screen RAM at 1024, the upper case/graphics set, a cleared screen.
pub fn power_on(m: &mut [u8]) {
    m[HIBASE] = 4;
    m[NDX] = 0;
    m[LSTX] = 64;
    reset_screen(m);
}

/// What the KERNAL's IOINIT and CINT set again, at power-on and on RUN/STOP+RESTORE: the VIC-II
/// bank and registers (colours, the upper case/graphics set), the text colour, the editor's
/// modes (reverse, quote, insert, the SHIFT+Commodore lock), a cleared screen. The editor's
/// screen page (648) and the keyboard buffer stay as they are.
pub fn reset_screen(m: &mut [u8]) {
    m[BORDER] = 0xF0 | 14;
    m[BACKGROUND] = 0xF0 | 6;
    m[0xD022..=0xD024].fill(0xF0);
    m[VIC_MEMORY] = 21;
    m[CIA2_PRA] = 0x97;
    m[COLOR] = 14;
    m[XMAX] = 10;
    m[BLNSW] = 1;
    m[RVS] = 0;
    m[QTSW] = 0;
    m[INSRT] = 0;
    m[MODE] = 0;
    Editor::new(m).clear_screen();
}

/// The screen: the editor over the machine's memory, plus the stream of PETSCII printed (the
/// text a headless run shows).
#[derive(Default)]
pub struct C64Console {
    /// PETSCII printed (and typed) since the last [`C64Console::take`].
    pending: Vec<u8>,
    /// A line is being typed (the editor is reading the screen for INPUT or direct mode).
    reading: bool,
}

impl C64Console {
    /// The PETSCII printed since the last call.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }

    /// Whether a line is being typed (for INPUT or at READY.).
    pub fn reading(&self) -> bool {
        self.reading
    }

    pub fn set_reading(&mut self, reading: bool) {
        self.reading = reading;
    }

    /// Forgets a line half typed for an INPUT that a BREAK ended.
    pub fn cancel_input(&mut self) {
        self.reading = false;
    }
}

impl Console for C64Console {
    fn chrout(&mut self, mem: &mut [u8], byte: u8) {
        self.pending.push(byte);
        Editor::new(mem).print(byte);
    }

    fn column(&self, mem: &[u8]) -> u8 {
        mem[PNTR]
    }

    fn poked(&mut self, mem: &mut [u8], addr: u16) {
        mem::poked(mem, addr);
    }

    fn input_key(&mut self, mem: &mut [u8], key: u8) -> Option<Vec<u8>> {
        let mut e = Editor::new(mem);
        if !self.reading {
            // LXSP: where the line being typed starts (after INPUT's prompt).
            let (row, _) = e.cursor();
            let col = e.pntr() as u8;
            e.m[LXSP] = row as u8;
            e.m[LXSP + 1] = col;
            self.reading = true;
        }
        if key == 13 || key == 141 {
            // RETURN reads the logical line the cursor is on: from where typing started when
            // that is this line, else from its first column.
            let start = e.line_start(e.row());
            let lxsp = e.m[LXSP] as usize;
            let from = if lxsp < ROWS && e.line_start(lxsp) == start {
                e.m[LXSP + 1] as usize
            } else {
                0
            };
            let line = e.read_line(from);
            e.print(13);
            self.pending.push(13);
            self.reading = false;
            return Some(line);
        }
        e.print(key);
        self.pending.push(key);
        None
    }
}

/// Which character set the VIC-II shows: bit 1 of 53272 picks the lower case half of the
/// character ROM.
pub fn charset(m: &[u8]) -> Charset {
    if m[VIC_MEMORY] & 2 != 0 {
        Charset::Lower
    } else {
        Charset::Upper
    }
}

/// Where the VIC-II reads the screen: its 16 KiB bank (CIA 2, inverted) plus 1 KiB times the
/// top four bits of 53272.
pub fn screen_address(m: &[u8]) -> usize {
    let bank = (3 - (m[CIA2_PRA] & 3) as usize) * 0x4000;
    bank + ((m[VIC_MEMORY] >> 4) as usize) * 0x400
}

/// Which characters the picture's cells hold for the PETSCII graphics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Glyphs {
    /// The closest Unicode characters, from the Symbols for Legacy Computing block where
    /// that is closest (the default).
    #[default]
    Unicode,
    /// Only characters older terminal fonts have ([`charset::fallback`]): box drawing, block
    /// elements and shades.
    Fallback,
}

/// The picture: 40x25 cells from screen and colour RAM on the background colour, the border
/// around it, and the cursor when the editor is waiting for a line (`blink_on`: in the half
/// of its blink when it shows).
pub fn frame(m: &[u8], blink_on: bool, glyphs: Glyphs) -> Frame {
    let set = charset(m);
    let paper = m[BACKGROUND] & 15;
    let screen = screen_address(m);
    let mut grid = CellGrid::new(COLS, ROWS, Cell::new(' ', 14, paper));
    for row in 0..ROWS {
        for col in 0..COLS {
            let i = row * COLS + col;
            let code = m[(screen + i) & 0xFFFF];
            let ink = m[COLOUR_RAM + i] & 15;
            let ch = match glyphs {
                Glyphs::Unicode => screen_char(code, set),
                Glyphs::Fallback => charset::fallback(screen_char(code, set)),
            };
            let cell = match (code & 0x80 != 0, ch) {
                // A reversed space is a solid block of the character's colour.
                (true, ' ') => Cell::new('█', ink, paper),
                (true, _) => Cell::new(ch, paper, ink),
                (false, _) => Cell::new(ch, ink, paper),
            };
            grid.set(col, row, cell);
        }
    }
    let mut f = Frame::cells(grid, Palette::c64());
    f.border = Some(m[BORDER] & 15);
    f.paper = Some(paper);
    if m[BLNSW] == 0 {
        let e_row = (m[TBLX] as usize).min(ROWS - 1);
        let start = {
            let mut r = e_row;
            while r > 0 && m[LDTB1 + r] & 0x80 == 0 {
                r -= 1;
            }
            r
        };
        let p = m[PNTR] as usize;
        f.cursor = Some(Cursor {
            x: p % COLS,
            y: (start + p / COLS).min(ROWS - 1),
            visible: blink_on,
        });
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_screen::dump;

    #[test]
    fn frame_shows_screen_and_colour_ram_on_the_background() {
        let mut m = vec![0u8; 0x10100];
        power_on(&mut m);
        let mut e = Editor::new(&mut m);
        for &b in b"\x1cA\x12B\x92 \x12 " {
            e.print(b);
        }
        m[0x400 + 40] = 0x41; // a spade, by POKE
        m[COLOUR_RAM + 40] = 7;
        m[BORDER] = 0xF2;
        let f = frame(&m, true, Glyphs::Unicode);
        let text = dump::text(&f);
        assert!(text.starts_with("AB █"), "{text}");
        assert_eq!(text.lines().nth(1).unwrap().chars().next(), Some('♠'));
        let colours = dump::colours(&f);
        assert!(colours.starts_with("2222e"), "{colours}");
        assert!(colours.lines().nth(1).unwrap().starts_with('7'));
        assert_eq!(f.border, Some(2));
        // The lower case set: POKE 53272,23.
        m[VIC_MEMORY] = 23;
        assert!(dump::text(&frame(&m, true, Glyphs::Unicode)).starts_with("ab █"));
        // With the fallback, a PETSCII graphic from the Legacy Computing block becomes one that
        // older fonts have: screen code 66 (a vertical line a little left of centre) a box
        // drawing line.
        m[VIC_MEMORY] = 21;
        m[0x400 + 41] = 66;
        let line = |g| {
            dump::text(&frame(&m, true, g))
                .lines()
                .nth(1)
                .unwrap()
                .chars()
                .nth(1)
        };
        assert_eq!(line(Glyphs::Unicode), Some('\u{1FB72}'));
        assert_eq!(line(Glyphs::Fallback), Some('│'));
    }
}
