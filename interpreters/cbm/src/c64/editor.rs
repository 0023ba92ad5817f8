//! The KERNAL's screen editor: what CHROUT does to the screen, and how a typed line is read back
//! from it. Every bit of its state lives in the C64's memory where the KERNAL keeps it (cursor
//! row 214 and column 211, the line link table at 217, quote mode 212, insert count 216, reverse
//! 199, the colour 646, the screen page 648), so PEEK and POKE see and change the same state.
//!
//! Logical lines: a printed or typed line may span two physical rows (80 columns). The link
//! table has one byte per row, bit 7 set where a logical line starts; a row with bit 7 clear
//! continues the row above. Printing past column 39 of a one-row line links the next row to it,
//! first opening a blank row there (the rows below move down), or scrolling the screen up when
//! the line is the bottom one.

use super::mem::{
    COLOR, COLOUR_RAM, HIBASE, INSRT, LDTB1, LNMX, LXSP, MODE, PNT, PNTR, QTSW, RVS, TBLX, USER, VIC_MEMORY,
};

/// Screen width and height in characters.
pub const COLS: usize = 40;
pub const ROWS: usize = 25;

/// The 16 colour codes in colour-number order (the KERNAL's table at $E8DA).
pub const COLOUR_CODES: [u8; 16] = [
    144, 5, 28, 159, 156, 30, 31, 158, 129, 149, 150, 151, 152, 153, 154, 155,
];

/// The screen code a printable PETSCII byte shows as (before reverse video), or None for the
/// control codes.
pub fn petscii_to_screen(b: u8) -> Option<u8> {
    Some(match b {
        0x20..=0x3F => b,
        0x40..=0x5F => b & 0x3F,
        0x60..=0x7F => b & 0xDF,
        0xA0..=0xBF => b - 0x40,
        0xC0..=0xDF => b - 0x80,
        0xE0..=0xFE => b - 0x80,
        0xFF => 0x5E,
        _ => return None,
    })
}

/// The PETSCII byte the editor reads back for screen code `s` (the KERNAL's conversion when
/// RETURN takes a line from the screen): reversed characters inside quotes read as the control
/// codes that printed them.
pub fn screen_to_petscii(s: u8, in_quotes: bool) -> u8 {
    let mut a = s & 0x3F;
    if s & 0x40 != 0 {
        a |= 0x80;
    }
    let reversed_in_quotes = s & 0x80 != 0 && in_quotes;
    if !reversed_in_quotes && s & 0x20 == 0 {
        a |= 0x40;
    }
    a
}

/// The screen editor over the machine's memory.
pub struct Editor<'a> {
    pub m: &'a mut [u8],
}

impl<'a> Editor<'a> {
    pub fn new(m: &'a mut [u8]) -> Self {
        Editor { m }
    }

    fn base(&self) -> usize {
        (self.m[HIBASE] as usize) << 8
    }

    /// Address of the first character of physical row `row`.
    pub fn row_addr(&self, row: usize) -> usize {
        (self.base() + row * COLS) & 0xFFFF
    }

    fn colour_addr(row: usize) -> usize {
        COLOUR_RAM + row * COLS
    }

    pub fn is_start(&self, row: usize) -> bool {
        self.m[LDTB1 + row] & 0x80 != 0
    }

    fn set_start(&mut self, row: usize, start: bool) {
        let hi = (self.row_addr(row) >> 8) as u8;
        self.m[LDTB1 + row] = hi | if start { 0x80 } else { 0 };
    }

    /// The first row of the logical line that row `row` belongs to.
    pub fn line_start(&self, row: usize) -> usize {
        let mut r = row.min(ROWS - 1);
        while r > 0 && !self.is_start(r) {
            r -= 1;
        }
        r
    }

    /// How many rows the logical line starting at `start` covers (1 or 2).
    pub fn line_rows(&self, start: usize) -> usize {
        if start + 1 < ROWS && !self.is_start(start + 1) {
            2
        } else {
            1
        }
    }

    pub fn row(&self) -> usize {
        (self.m[TBLX] as usize).min(ROWS - 1)
    }

    pub fn pntr(&self) -> usize {
        self.m[PNTR] as usize
    }

    /// STUPT: points PNT, USER and LNMX at the logical line the cursor row is in, and keeps the
    /// column within it.
    fn stupt(&mut self) {
        let row = self.row();
        let start = self.line_start(row);
        let rows = self.line_rows(start);
        let pnt = self.row_addr(start) as u16;
        self.m[PNT..PNT + 2].copy_from_slice(&pnt.to_le_bytes());
        let user = Self::colour_addr(start) as u16;
        self.m[USER..USER + 2].copy_from_slice(&user.to_le_bytes());
        self.m[LNMX] = (rows * COLS - 1) as u8;
        let col = self.pntr().min(rows * COLS - 1);
        let within = (row - start) * COLS + col % COLS;
        self.m[PNTR] = within as u8;
    }

    /// Puts the cursor at physical row `row`, column `col` (0-39), as PLOT does.
    pub fn plot(&mut self, row: usize, col: usize) {
        self.m[TBLX] = row.min(ROWS - 1) as u8;
        self.m[PNTR] = col.min(COLS - 1) as u8;
        self.stupt();
    }

    /// The cursor as (physical row, column 0-39).
    pub fn cursor(&self) -> (usize, usize) {
        let start = self.line_start(self.row());
        let p = self.pntr();
        ((start + p / COLS).min(ROWS - 1), p % COLS)
    }

    fn set_cursor_in_line(&mut self, start: usize, pntr: usize) {
        self.m[PNTR] = pntr as u8;
        self.m[TBLX] = (start + pntr / COLS).min(ROWS - 1) as u8;
        self.stupt_keep();
    }

    /// Like [`Self::stupt`] but trusting PNTR as a column within the logical line.
    fn stupt_keep(&mut self) {
        let start = self.line_start(self.row());
        let rows = self.line_rows(start);
        let pnt = self.row_addr(start) as u16;
        self.m[PNT..PNT + 2].copy_from_slice(&pnt.to_le_bytes());
        let user = Self::colour_addr(start) as u16;
        self.m[USER..USER + 2].copy_from_slice(&user.to_le_bytes());
        self.m[LNMX] = (rows * COLS - 1) as u8;
    }

    fn colour(&self) -> u8 {
        self.m[COLOR] & 0x0F
    }

    /// Writes screen code `code` in the current colour at (row, col).
    fn put_at(&mut self, row: usize, col: usize, code: u8, colour: u8) {
        let a = self.row_addr(row) + col;
        self.m[a & 0xFFFF] = code;
        self.m[Self::colour_addr(row) + col] = colour;
    }

    fn get_at(&self, row: usize, col: usize) -> (u8, u8) {
        let a = self.row_addr(row) + col;
        (self.m[a & 0xFFFF], self.m[Self::colour_addr(row) + col])
    }

    /// The screen code at column `p` of the logical line starting at `start`.
    pub fn line_char(&self, start: usize, p: usize) -> u8 {
        self.get_at(start + p / COLS, p % COLS).0
    }

    fn clear_row(&mut self, row: usize) {
        let c = self.colour();
        for col in 0..COLS {
            self.put_at(row, col, 0x20, c);
        }
    }

    fn copy_row(&mut self, from: usize, to: usize) {
        for col in 0..COLS {
            let (ch, c) = self.get_at(from, col);
            self.put_at(to, col, ch, c);
        }
        let start = self.is_start(from);
        self.set_start(to, start);
    }

    /// CLR: blank screen in the current colour, every row its own line, cursor home.
    pub fn clear_screen(&mut self) {
        for row in 0..ROWS {
            self.clear_row(row);
            self.set_start(row, true);
        }
        self.home();
    }

    pub fn home(&mut self) {
        self.m[TBLX] = 0;
        self.m[PNTR] = 0;
        self.stupt_keep();
    }

    /// SCROL: moves the screen up a row, and again while the top row continues a line that
    /// went off the top; the cursor row (and the row input started on) move with it. Returns
    /// how many rows it moved (two when the top line was a linked one).
    fn scroll_up(&mut self) -> usize {
        let mut rows = 0;
        loop {
            rows += 1;
            self.move_rows_up();
            self.clear_row(ROWS - 1);
            self.set_start(ROWS - 1, true);
            self.m[TBLX] = self.m[TBLX].saturating_sub(1);
            self.m[LXSP] = self.m[LXSP].wrapping_sub(1);
            if self.is_start(0) {
                break;
            }
        }
        self.set_start(0, true);
        rows
    }

    /// Rows 1.. move up one row, as `copy_row` from each to the one above, in two block moves
    /// of screen and colour RAM when the screen does not wrap past FFFFh (a printing loop
    /// scrolls thousands of times a second; cell by cell it ran the machine at a tenth of real
    /// time).
    fn move_rows_up(&mut self) {
        let (screen, len) = (self.row_addr(0), (ROWS - 1) * COLS);
        let colour = Self::colour_addr(0);
        let apart = screen + ROWS * COLS <= colour || colour + ROWS * COLS <= screen;
        if screen + COLS + len > self.m.len() || !apart {
            for row in 1..ROWS {
                self.copy_row(row, row - 1);
            }
            return;
        }
        self.m.copy_within(screen + COLS..screen + COLS + len, screen);
        self.m.copy_within(colour + COLS..colour + COLS + len, colour);
        for row in 1..ROWS {
            let start = self.is_start(row);
            self.set_start(row - 1, start);
        }
    }

    /// Opens a blank row at `row`: the rows from there down move one down, the bottom row's
    /// text is lost.
    fn open_row(&mut self, row: usize) {
        for r in (row + 1..ROWS).rev() {
            self.copy_row(r - 1, r);
        }
        self.clear_row(row);
        self.set_start(row, true);
        if (self.m[LXSP] as usize) >= row && (self.m[LXSP] as usize) < ROWS {
            self.m[LXSP] += 1;
        }
    }

    /// Makes the one-row logical line at `start` two rows long.
    fn extend_line(&mut self, start: usize) -> usize {
        let mut start = start;
        if start == ROWS - 1 {
            // The line moves up as many rows as SCROL moved the screen.
            start -= self.scroll_up();
        } else {
            self.open_row(start + 1);
        }
        self.set_start(start + 1, false);
        start
    }

    /// NXLN: to the start of the next logical line, scrolling at the bottom.
    fn next_line(&mut self) {
        let start = self.line_start(self.row());
        let mut next = start + self.line_rows(start);
        while next >= ROWS {
            self.m[TBLX] = (ROWS - 1) as u8;
            next -= self.scroll_up();
        }
        self.m[TBLX] = next as u8;
        self.m[PNTR] = 0;
        self.stupt_keep();
    }

    /// After writing a character: the cursor moves right, linking a second row onto a one-row
    /// line at column 40 and starting a new line at column 80.
    fn advance(&mut self) {
        let start = self.line_start(self.row());
        let p = self.pntr() + 1;
        let lnmx = self.line_rows(start) * COLS - 1;
        if p <= lnmx {
            self.set_cursor_in_line(start, p);
        } else if lnmx == 2 * COLS - 1 {
            self.next_line();
        } else {
            let start = self.extend_line(start);
            self.m[TBLX] = (start + 1) as u8;
            self.set_cursor_in_line(start, p);
        }
    }

    /// Shows screen code `code` at the cursor and moves on (quote mode and insert count as the
    /// KERNAL keeps them).
    fn show(&mut self, code: u8) {
        let mut code = code;
        if self.m[RVS] != 0 {
            code |= 0x80;
        }
        if self.m[INSRT] != 0 {
            self.m[INSRT] -= 1;
        }
        let (row, col) = self.cursor();
        let c = self.colour();
        self.put_at(row, col, code, c);
        self.advance();
    }

    /// A control code shown as a reversed character (inside quotes, or while inserting).
    fn show_reversed(&mut self, code: u8) {
        if self.m[INSRT] != 0 {
            self.m[INSRT] -= 1;
        }
        let (row, col) = self.cursor();
        let c = self.colour();
        self.put_at(row, col, code | 0x80, c);
        self.advance();
    }

    /// CHROUT to the screen: one PETSCII byte, as the KERNAL's PRINT routine ($E716) does it.
    pub fn print(&mut self, b: u8) {
        let quote = self.m[QTSW] != 0;
        let insert = self.m[INSRT] != 0;
        if b == 13 || b == 141 {
            self.m[INSRT] = 0;
            self.m[RVS] = 0;
            self.m[QTSW] = 0;
            self.next_line();
            return;
        }
        if let Some(code) = petscii_to_screen(b) {
            if b == b'"' {
                self.m[QTSW] ^= 1;
            }
            self.show(code);
            return;
        }
        if b < 0x20 {
            if insert || (quote && b != 20) {
                self.show_reversed(b);
                return;
            }
            match b {
                20 => self.delete(),
                18 => self.m[RVS] = 0x12,
                19 => self.home(),
                29 => self.right(),
                17 => self.down(),
                14 => self.m[VIC_MEMORY] |= 2,
                8 => self.m[MODE] = 0x80,
                9 => self.m[MODE] = 0,
                _ => self.colour_code(b),
            }
            return;
        }
        // 0x80..=0x9F: the shifted control codes.
        if quote || (insert && b != 148) {
            self.show_reversed((b & 0x1F) | 0x40);
            return;
        }
        match b {
            148 => self.insert(),
            145 => self.up(),
            146 => self.m[RVS] = 0,
            157 => self.left(),
            147 => self.clear_screen(),
            142 => self.m[VIC_MEMORY] &= !2,
            _ => self.colour_code(b),
        }
    }

    fn colour_code(&mut self, b: u8) {
        if let Some(n) = COLOUR_CODES.iter().position(|&c| c == b) {
            self.m[COLOR] = n as u8;
        }
    }

    fn right(&mut self) {
        let start = self.line_start(self.row());
        let p = self.pntr() + 1;
        if p < self.line_rows(start) * COLS {
            self.set_cursor_in_line(start, p);
        } else {
            self.next_line();
        }
    }

    fn left(&mut self) {
        let start = self.line_start(self.row());
        let p = self.pntr();
        if p > 0 {
            self.set_cursor_in_line(start, p - 1);
        } else if start > 0 {
            // To the last column of the row above (the end of the line before).
            self.m[TBLX] = (start - 1) as u8;
            let prev = self.line_start(start - 1);
            self.m[PNTR] = ((start - 1 - prev) * COLS + COLS - 1) as u8;
            self.stupt_keep();
        }
    }

    fn down(&mut self) {
        let start = self.line_start(self.row());
        let p = self.pntr();
        if p + COLS < self.line_rows(start) * COLS {
            self.set_cursor_in_line(start, p + COLS);
        } else {
            self.next_line();
            let start = self.line_start(self.row());
            self.set_cursor_in_line(start, p % COLS);
        }
    }

    fn up(&mut self) {
        let (row, col) = self.cursor();
        if row == 0 {
            return;
        }
        let start = self.line_start(row - 1);
        self.m[TBLX] = (row - 1) as u8;
        self.m[PNTR] = ((row - 1 - start) * COLS + col) as u8;
        self.stupt_keep();
    }

    /// DEL: the character left of the cursor goes, the rest of the logical line closes up.
    fn delete(&mut self) {
        let start = self.line_start(self.row());
        let p = self.pntr();
        if p == 0 {
            if start == 0 {
                return;
            }
            self.left();
            let (row, col) = self.cursor();
            let c = self.colour();
            self.put_at(row, col, 0x20, c);
            return;
        }
        let last = self.line_rows(start) * COLS - 1;
        for q in p..=last {
            let (ch, c) = self.get_at(start + q / COLS, q % COLS);
            self.put_at(start + (q - 1) / COLS, (q - 1) % COLS, ch, c);
        }
        let c = self.colour();
        self.put_at(start + last / COLS, last % COLS, 0x20, c);
        self.set_cursor_in_line(start, p - 1);
    }

    /// INST: opens a space at the cursor, the rest of the line moves right (the line grows to
    /// two rows if its last character is not a space), and the next characters typed are
    /// shown as in quote mode.
    fn insert(&mut self) {
        let mut start = self.line_start(self.row());
        let p = self.pntr();
        let mut last = self.line_rows(start) * COLS - 1;
        let end_char = self.line_char(start, last);
        if end_char != 0x20 || p == last {
            if last == 2 * COLS - 1 {
                return;
            }
            start = self.extend_line(start);
            last = 2 * COLS - 1;
            self.set_cursor_in_line(start, p);
        }
        let mut q = last;
        while q > p {
            let (ch, c) = self.get_at(start + (q - 1) / COLS, (q - 1) % COLS);
            self.put_at(start + q / COLS, q % COLS, ch, c);
            q -= 1;
        }
        let c = self.colour();
        self.put_at(start + p / COLS, p % COLS, 0x20, c);
        self.m[INSRT] = self.m[INSRT].saturating_add(1);
    }

    /// The logical line the cursor is on, as PETSCII, read as RETURN reads it: from `from`
    /// (a column in the line, where INPUT's prompt ended) to the last non-space character.
    pub fn read_line(&self, from: usize) -> Vec<u8> {
        let start = self.line_start(self.row());
        let last = self.line_rows(start) * COLS;
        let mut end = last;
        while end > from && self.line_char(start, end - 1) == 0x20 {
            end -= 1;
        }
        let mut quote = false;
        let mut out = Vec::with_capacity(end.saturating_sub(from));
        for p in from..end {
            let b = screen_to_petscii(self.line_char(start, p), quote);
            if b == b'"' {
                quote = !quote;
            }
            out.push(b);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Vec<u8> {
        let mut m = vec![0u8; 0x10100];
        crate::c64::power_on(&mut m);
        m
    }

    fn print(m: &mut [u8], bytes: &[u8]) {
        let mut e = Editor::new(m);
        for &b in bytes {
            e.print(b);
        }
    }

    fn row_text(m: &[u8], row: usize) -> String {
        (0..COLS)
            .map(|c| {
                let s = m[0x400 + row * COLS + c] & 0x7F;
                match s {
                    0 => '@',
                    1..=26 => (b'A' + s - 1) as char,
                    0x20..=0x3F => s as char,
                    _ => '#',
                }
            })
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    #[test]
    fn screen_codes_of_printable_petscii() {
        // Reference sheet 4.5.
        assert_eq!(petscii_to_screen(b'@'), Some(0));
        assert_eq!(petscii_to_screen(b'A'), Some(1));
        assert_eq!(petscii_to_screen(b' '), Some(0x20));
        assert_eq!(petscii_to_screen(0x60), Some(0x40));
        assert_eq!(petscii_to_screen(0xA0), Some(0x60));
        assert_eq!(petscii_to_screen(0xC1), Some(0x41));
        assert_eq!(petscii_to_screen(0xFF), Some(0x5E));
        assert_eq!(petscii_to_screen(13), None);
        assert_eq!(petscii_to_screen(147), None);
        // And back, as RETURN reads them.
        for b in (0x20..=0x5Fu8).chain(0xA0..=0xDF) {
            let s = petscii_to_screen(b).unwrap();
            assert_eq!(screen_to_petscii(s, false), b, "{b:#x}");
        }
        // Reversed characters inside quotes read as the control codes that made them.
        assert_eq!(screen_to_petscii(0x91, true), 17);
        assert_eq!(screen_to_petscii(0xD3, true), 147);
        assert_eq!(screen_to_petscii(0x91, false), b'Q');
    }

    #[test]
    fn printing_puts_codes_and_colours_in_memory() {
        let mut m = machine();
        print(&mut m, b"HI");
        assert_eq!(&m[0x400..0x402], &[8, 9]);
        assert_eq!(&m[COLOUR_RAM..COLOUR_RAM + 2], &[14, 14]);
        // {red} then reverse on: colour 2, screen code + 128.
        print(&mut m, &[28, 18, b'A', 146, b'B']);
        assert_eq!(&m[0x402..0x404], &[0x81, 2]);
        assert_eq!(m[COLOUR_RAM + 2], 2);
        assert_eq!(m[COLOR], 2);
        assert_eq!(m[PNTR], 4);
    }

    #[test]
    fn return_ends_reverse_and_quote_mode() {
        let mut m = machine();
        print(&mut m, &[18, b'"', 13, b'A', 17]);
        assert_eq!(m[0x400], 0xA2, "a reversed quote");
        assert_eq!(m[0x400 + 40], 1, "not reversed after RETURN");
        // Quote mode ended too: the cursor-down moved the cursor instead of printing.
        assert_eq!(m[0x400 + 41], 0x20);
        assert_eq!(m[TBLX], 2);
    }

    #[test]
    fn quote_mode_shows_cursor_keys_as_reversed_characters() {
        let mut m = machine();
        print(
            &mut m,
            &[b'"', 17, 145, 29, 157, 19, 147, 28, 5, 18, 146, 133, b'"', 17],
        );
        // {down}=Q, {up}=reversed shifted Q, {rght}=], {left}=reversed shifted ], {home}=S,
        // {clr}=reversed shifted S, {red}=£, {wht}=E, {rvon}=R, {rvof}=shifted R, {f1}=shifted E.
        let want = [
            0x22, 0x91, 0xD1, 0x9D, 0xDD, 0x93, 0xD3, 0x9C, 0x85, 0x92, 0xD2, 0xC5, 0x22,
        ];
        assert_eq!(&m[0x400..0x400 + want.len()], &want);
        assert_eq!(m[QTSW], 0);
        // After the closing quote, {down} moves again.
        assert_eq!(m[TBLX], 1);
    }

    #[test]
    fn delete_in_quote_mode_still_deletes() {
        let mut m = machine();
        print(&mut m, b"\"AB");
        print(&mut m, &[20, 20]);
        assert_eq!(row_text(&m, 0), "\"");
        assert_eq!(m[PNTR], 1);
        assert_eq!(m[QTSW], 1);
    }

    #[test]
    fn insert_opens_a_space_and_counts_quote_like_characters() {
        let mut m = machine();
        print(&mut m, b"ABC");
        print(&mut m, &[157, 157, 148, 148]);
        assert_eq!(row_text(&m, 0), "A  BC");
        assert_eq!(m[INSRT], 2);
        // While inserting, a control code shows reversed (here {down}), using up one insert.
        print(&mut m, &[17, b'X']);
        assert_eq!(m[0x401], 0x91);
        assert_eq!(m[0x402], 24);
        assert_eq!(m[INSRT], 0);
        // Then control codes act again.
        print(&mut m, &[17]);
        assert_eq!(m[TBLX], 1);
    }

    #[test]
    fn delete_closes_up_the_logical_line() {
        let mut m = machine();
        print(&mut m, b"ABCDE");
        print(&mut m, &[157, 157, 20]);
        assert_eq!(row_text(&m, 0), "ABDE");
        assert_eq!(m[PNTR], 2);
    }

    #[test]
    fn lines_link_past_column_40_and_break_at_80() {
        let mut m = machine();
        print(&mut m, &[19]);
        // Something on row 1, which the long line pushes down.
        print(&mut m, &[17]);
        print(&mut m, b"BELOW");
        print(&mut m, &[19]);
        print(&mut m, &[b'X'; 45]);
        assert_eq!(m[TBLX], 1);
        assert_eq!(m[PNTR], 45);
        assert_eq!(m[LNMX], 79);
        assert_eq!(m[LDTB1 + 1] & 0x80, 0, "row 1 continues row 0");
        assert_eq!(row_text(&m, 2), "BELOW");
        print(&mut m, &[b'Y'; 35]);
        // Column 80: a new logical line.
        assert_eq!((m[TBLX], m[PNTR]), (2, 0));
        assert_eq!(row_text(&m, 2), "BELOW");
        // RETURN from the first row of a linked line goes past both rows.
        print(&mut m, &[19, 13]);
        assert_eq!(m[TBLX], 2);
    }

    #[test]
    fn printing_past_the_bottom_scrolls() {
        let mut m = machine();
        for i in 0..25 {
            print(&mut m, format!("{i}\r").as_bytes());
        }
        assert_eq!(row_text(&m, 0), "1");
        assert_eq!(row_text(&m, 23), "24");
        assert_eq!(m[TBLX], 24);
        // A long line on the bottom row scrolls the screen to make room for its second row.
        print(&mut m, &[b'Z'; 41]);
        assert_eq!(row_text(&m, 0), "2");
        assert_eq!(m[TBLX], 24);
        assert_eq!(m[LDTB1 + 24] & 0x80, 0);
    }

    #[test]
    fn cursor_keys_move_and_wrap() {
        let mut m = machine();
        print(&mut m, &[29, 29, 17, 17]);
        assert_eq!(Editor::new(&mut m).cursor(), (2, 2));
        print(&mut m, &[145, 157, 157, 157]);
        assert_eq!(Editor::new(&mut m).cursor(), (0, 39));
        print(&mut m, &[29]);
        assert_eq!(Editor::new(&mut m).cursor(), (1, 0));
        print(&mut m, &[19]);
        assert_eq!(Editor::new(&mut m).cursor(), (0, 0));
        // Home does not move further; up at the top does nothing.
        print(&mut m, &[157, 145]);
        assert_eq!(Editor::new(&mut m).cursor(), (0, 0));
        print(&mut m, b"A");
        print(&mut m, &[147]);
        assert_eq!(row_text(&m, 0), "");
        assert_eq!(Editor::new(&mut m).cursor(), (0, 0));
    }

    #[test]
    fn colour_codes_set_646_and_charset_codes_switch_53272() {
        let mut m = machine();
        for (n, &c) in COLOUR_CODES.iter().enumerate() {
            print(&mut m, &[c]);
            assert_eq!(m[COLOR] as usize, n);
        }
        print(&mut m, &[14]);
        assert_eq!(m[VIC_MEMORY], 23);
        print(&mut m, &[142]);
        assert_eq!(m[VIC_MEMORY], 21);
    }

    #[test]
    fn read_line_takes_the_logical_line_and_quoted_controls() {
        let mut m = machine();
        print(&mut m, b"10 PRINT\"");
        print(&mut m, &[147, 17]);
        print(&mut m, b"\"");
        print(&mut m, &[b'A'; 40]);
        let e = Editor::new(&mut m);
        let mut want = b"10 PRINT\"".to_vec();
        want.extend_from_slice(&[147, 17, b'"']);
        want.extend_from_slice(&[b'A'; 40]);
        assert_eq!(e.read_line(0), want);
        assert_eq!(e.read_line(3), want[3..].to_vec());
    }
}
