//! The VDU system: every byte a program outputs goes into one queue, which collects complete
//! sequences (a control code 0-31 and its parameter bytes, with the real parameter counts) and
//! hands each to a [`VduDriver`]. The driver here is a text screen good enough for text programs;
//! a graphics driver plugs in behind the same trait.

use retro_screen::frame::{Cell, CellGrid, Cursor, Frame};
use retro_screen::palette::Palette;

/// Parameter bytes that follow each control code 0-31 (RISC OS and Brandy's table).
pub const PARAMS: [u8; 32] = [
    0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 1, 2, 5, 0, 0, 1, 9, 8, 5, 0, 0, 4, 4, 0, 2,
];

/// What executes complete VDU sequences and answers the questions BASIC asks the screen.
pub trait VduDriver: Send {
    /// One complete sequence: a printable byte (32-126, 128-255), DEL (127), or a control code
    /// 0-31 followed by exactly its parameter bytes.
    fn sequence(&mut self, seq: &[u8]);
    /// Text cursor column, relative to the text window (POS).
    fn pos(&self) -> i32;
    /// Text cursor row, relative to the text window (VPOS).
    fn vpos(&self) -> i32;
    /// Logical colour at graphics coordinates, or -1 off screen (POINT).
    fn point(&self, x: i32, y: i32) -> i32;
    /// The screen as a frame.
    fn frame(&self) -> Frame;
    /// The current screen mode.
    fn mode(&self) -> u8;
    /// How many times VDU 7 rang since the last call, for a front end to beep; drivers without
    /// a bell say 0.
    fn take_bells(&mut self) -> u32 {
        0
    }
    /// The driver's state for a debugger (cursors, windows, colours), one fact a line.
    fn describe(&self) -> Vec<String> {
        vec![format!(
            "text cursor ({}, {}) in the window",
            self.pos(),
            self.vpos()
        )]
    }
}

/// The VDU queue in front of a driver, plus the printable text stream headless runs print.
pub struct Vdu {
    seq: [u8; 10],
    have: usize,
    need: usize,
    /// VDU 21 disables output until VDU 6.
    disabled: bool,
    /// Printable text since the last [`Vdu::take_text`], for headless stdout.
    text: Vec<u8>,
    /// Whether to collect `text` at all (embedders that only want the screen can turn it off).
    pub collect_text: bool,
    /// The text stream's view of the screen (see [`Vdu::take_text`]).
    stream: StreamState,
    driver: Box<dyn VduDriver>,
    /// The last sequences dispatched, when a debugger asked for them (see `debug`).
    pub log: Option<crate::interp::debug::vdulog::VduLog>,
}

/// What the text stream needs to know to leave out a graphics screen's cursor padding.
#[derive(Default)]
struct StreamState {
    /// A graphics mode (any MODE but 7) is selected: only lines with visible text are streamed.
    graphics: bool,
    /// Spaces printed on the current line and not yet streamed: they go out only if a visible
    /// character follows them on the line.
    spaces: usize,
    /// The current line has streamed a visible character.
    visible: bool,
}

impl Default for Vdu {
    fn default() -> Self {
        Vdu::new(Box::new(TextScreen::new(7)))
    }
}

impl Vdu {
    pub fn new(driver: Box<dyn VduDriver>) -> Self {
        Vdu {
            seq: [0; 10],
            have: 0,
            need: 0,
            disabled: false,
            text: Vec::new(),
            collect_text: true,
            stream: StreamState::default(),
            driver,
            log: None,
        }
    }

    /// Queues one byte; when it completes a sequence, the driver runs it.
    #[inline]
    pub fn write(&mut self, b: u8) {
        if self.need > 0 {
            self.seq[self.have] = b;
            self.have += 1;
            self.need -= 1;
            if self.need == 0 {
                let n = self.have;
                self.have = 0;
                self.dispatch(n);
            }
            return;
        }
        if b < 32 {
            let need = PARAMS[b as usize] as usize;
            if need > 0 {
                self.seq[0] = b;
                self.have = 1;
                self.need = need;
                return;
            }
        }
        self.seq[0] = b;
        self.dispatch(1);
    }

    pub fn write_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write(b);
        }
    }

    fn dispatch(&mut self, n: usize) {
        let code = self.seq[0];
        if let Some(log) = &mut self.log {
            log.record(&self.seq[..n]);
        }
        if self.disabled {
            if code == 6 {
                self.disabled = false;
            }
            return;
        }
        if code == 21 {
            self.disabled = true;
            return;
        }
        if self.collect_text {
            self.stream_text(n);
        }
        self.driver.sequence(&self.seq[..n]);
    }

    /// Adds a sequence's share to the text stream. In MODE 7 (the start-up mode) that is every
    /// printable character, line feed and bell, as a console BASIC prints them. In a graphics
    /// mode the program is drawing a screen, so spaces and line feeds that only move the cursor
    /// or paint blocks (Rheolism's bricks are coloured spaces) print nothing: a line is streamed
    /// only once it holds a visible character, without its trailing spaces (docs/bbc-vdu.md).
    fn stream_text(&mut self, n: usize) {
        let code = self.seq[0];
        let st = &mut self.stream;
        match code {
            22 if n == 2 => {
                st.graphics = self.seq[1] & 0x7F != 7;
                st.spaces = 0;
            }
            10 => {
                if !st.graphics || st.visible {
                    self.text.push(b'\n');
                }
                st.visible = false;
                st.spaces = 0;
            }
            // The bell travels with the text, so the terminal front end can ring it.
            7 => self.text.push(7),
            32 if st.graphics => st.spaces += 1,
            32..=126 | 128..=255 => {
                if st.graphics {
                    self.text.extend(std::iter::repeat_n(b' ', st.spaces));
                    st.spaces = 0;
                    st.visible = true;
                }
                self.text.push(code);
            }
            _ => {}
        }
    }

    /// Bytes of text collected and not yet taken.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Moves the printable text collected so far into `out` (Latin-1 bytes as chars).
    pub fn take_text(&mut self, out: &mut String) {
        out.extend(self.text.drain(..).map(|b| b as char));
    }

    /// Bytes still waiting for parameters (0 when the queue is between sequences).
    pub fn pending(&self) -> &[u8] {
        &self.seq[..self.have]
    }

    pub fn pos(&self) -> i32 {
        self.driver.pos()
    }
    pub fn vpos(&self) -> i32 {
        self.driver.vpos()
    }
    pub fn point(&self, x: i32, y: i32) -> i32 {
        self.driver.point(x, y)
    }
    pub fn frame(&self) -> Frame {
        self.driver.frame()
    }
    pub fn mode(&self) -> u8 {
        self.driver.mode()
    }
    pub fn driver(&self) -> &dyn VduDriver {
        &*self.driver
    }
    pub fn driver_mut(&mut self) -> &mut dyn VduDriver {
        &mut *self.driver
    }
}

/// Text geometry of a screen mode: (columns, rows, colours).
pub fn mode_geometry(mode: u8) -> (usize, usize, usize) {
    match mode {
        0 => (80, 32, 2),
        1 => (40, 32, 4),
        2 => (20, 32, 16),
        3 => (80, 25, 2),
        4 => (40, 32, 2),
        5 => (20, 32, 4),
        6 => (40, 25, 2),
        7 => (40, 25, 16),
        8 => (80, 32, 4),
        9 => (40, 32, 16),
        10 => (20, 32, 256),
        11 => (80, 25, 4),
        12 => (80, 32, 16),
        13 => (40, 32, 256),
        14 => (80, 25, 16),
        15 => (80, 32, 256),
        _ => (80, 32, 16),
    }
}

/// A character-cell screen: text windows, colours, cursor movement and scrolling. Graphics
/// operations act on whole cells (CLG paints every cell's background; POINT reads a cell), which
/// is enough for programs that draw with text, until a pixel driver replaces it.
pub struct TextScreen {
    mode: u8,
    cols: usize,
    rows: usize,
    colours: usize,
    cells: Vec<Cell>,
    x: usize,
    y: usize,
    /// Text window: left, bottom, right, top (inclusive cell coordinates).
    win: (usize, usize, usize, usize),
    fg: u8,
    bg: u8,
    gfg: u8,
    gbg: u8,
    cursor_on: bool,
    /// After a character in the last column the cursor waits past the edge (RISC OS scroll
    /// protection); the wrap happens with the next character.
    pending_wrap: bool,
}

impl TextScreen {
    pub fn new(mode: u8) -> Self {
        let mut t = TextScreen {
            mode,
            cols: 40,
            rows: 25,
            colours: 16,
            cells: Vec::new(),
            x: 0,
            y: 0,
            win: (0, 24, 39, 0),
            fg: 7,
            bg: 0,
            gfg: 7,
            gbg: 0,
            cursor_on: true,
            pending_wrap: false,
        };
        t.set_mode(mode);
        t
    }

    fn set_mode(&mut self, mode: u8) {
        let (c, r, n) = mode_geometry(mode);
        self.mode = mode;
        self.cols = c;
        self.rows = r;
        self.colours = n;
        self.fg = (n.min(16) - 1) as u8 & 7;
        self.bg = 0;
        self.gfg = self.fg;
        self.gbg = 0;
        self.cells = vec![Cell::new(' ', self.fg, 0); c * r];
        self.win = (0, r - 1, c - 1, 0);
        self.x = 0;
        self.y = 0;
        self.pending_wrap = false;
        self.cursor_on = true;
    }

    fn colour_mask(&self) -> u8 {
        (self.colours.min(256) - 1) as u8
    }

    fn clear_window(&mut self, bg: u8) {
        let (l, b, r, t) = self.win;
        for row in t..=b {
            for col in l..=r {
                self.cells[row * self.cols + col] = Cell::new(' ', self.fg, bg);
            }
        }
        self.x = l;
        self.y = t;
        self.pending_wrap = false;
    }

    fn scroll_up(&mut self) {
        let (l, b, r, t) = self.win;
        for row in t..b {
            for col in l..=r {
                self.cells[row * self.cols + col] = self.cells[(row + 1) * self.cols + col];
            }
        }
        for col in l..=r {
            self.cells[b * self.cols + col] = Cell::new(' ', self.fg, self.bg);
        }
    }

    fn scroll_down(&mut self) {
        let (l, b, r, t) = self.win;
        for row in (t + 1..=b).rev() {
            for col in l..=r {
                self.cells[row * self.cols + col] = self.cells[(row - 1) * self.cols + col];
            }
        }
        for col in l..=r {
            self.cells[t * self.cols + col] = Cell::new(' ', self.fg, self.bg);
        }
    }

    fn line_feed(&mut self) {
        if self.y >= self.win.1 {
            self.scroll_up();
        } else {
            self.y += 1;
        }
    }

    fn wrap_if_pending(&mut self) {
        if self.pending_wrap {
            self.pending_wrap = false;
            self.x = self.win.0;
            self.line_feed();
        }
    }

    fn put_char(&mut self, c: u8) {
        self.wrap_if_pending();
        let ch = match c {
            32..=126 => c as char,
            127 => ' ',
            _ => char::from_u32(c as u32).unwrap_or(' '),
        };
        self.cells[self.y * self.cols + self.x] = Cell::new(ch, self.fg, self.bg);
        if self.x >= self.win.2 {
            self.pending_wrap = true;
        } else {
            self.x += 1;
        }
    }

    fn left(&mut self) {
        self.pending_wrap = false;
        if self.x > self.win.0 {
            self.x -= 1;
        } else {
            self.x = self.win.2;
            if self.y > self.win.3 {
                self.y -= 1;
            } else {
                self.scroll_down();
            }
        }
    }
}

impl VduDriver for TextScreen {
    fn sequence(&mut self, s: &[u8]) {
        let word = |i: usize| i16::from_le_bytes([s[i], s[i + 1]]) as i32;
        match s[0] {
            7 | 0..=6 | 14 | 15 | 27 => {}
            8 => self.left(),
            9 => {
                if self.pending_wrap {
                    self.wrap_if_pending();
                } else if self.x >= self.win.2 {
                    self.x = self.win.0;
                    self.line_feed();
                } else {
                    self.x += 1;
                }
            }
            10 => {
                self.pending_wrap = false;
                self.line_feed();
            }
            11 => {
                self.pending_wrap = false;
                if self.y > self.win.3 {
                    self.y -= 1;
                } else {
                    self.scroll_down();
                }
            }
            12 => self.clear_window(self.bg),
            13 => {
                self.pending_wrap = false;
                self.x = self.win.0;
            }
            16 => {
                // CLG on a cell screen: every cell takes the graphics background colour.
                let g = self.gbg;
                for c in &mut self.cells {
                    *c = Cell::new(' ', c.fg, g);
                }
            }
            17 => {
                let c = s[1];
                if c & 0x80 != 0 {
                    self.bg = c & self.colour_mask();
                } else {
                    self.fg = c & self.colour_mask();
                }
            }
            18 => {
                let c = s[2];
                if c & 0x80 != 0 {
                    self.gbg = c & self.colour_mask();
                } else {
                    self.gfg = c & self.colour_mask();
                }
            }
            20 => {
                self.fg = (self.colours.min(16) - 1) as u8 & 7;
                self.bg = 0;
                self.gfg = self.fg;
                self.gbg = 0;
            }
            22 => self.set_mode(s[1] & 0x7F),
            23 => {
                if s[1] == 1 {
                    self.cursor_on = s[2] != 0;
                }
            }
            25 => {
                // PLOT on a cell screen: point plots (69) colour the cell under them.
                let (k, x, y) = (s[1], word(2), word(4));
                if (k & 0xF8 == 64 || k & 0xF8 == 96)
                    && let Some((cx, cy)) = self.cell_at(x, y)
                {
                    let c = self.gfg;
                    self.cells[cy * self.cols + cx].bg = c;
                }
            }
            26 => {
                self.win = (0, self.rows - 1, self.cols - 1, 0);
                self.x = 0;
                self.y = 0;
                self.pending_wrap = false;
            }
            28 => {
                let (l, b, r, t) = (s[1] as usize, s[2] as usize, s[3] as usize, s[4] as usize);
                if l < self.cols && r < self.cols && b < self.rows && t < self.rows && l <= r && t <= b {
                    self.win = (l, b, r, t);
                    self.x = l;
                    self.y = t;
                    self.pending_wrap = false;
                }
            }
            30 => {
                self.x = self.win.0;
                self.y = self.win.3;
                self.pending_wrap = false;
            }
            31 => {
                let (x, y) = (self.win.0 + s[1] as usize, self.win.3 + s[2] as usize);
                if x <= self.win.2 && y <= self.win.1 {
                    self.x = x;
                    self.y = y;
                    self.pending_wrap = false;
                }
            }
            127 => {
                self.left();
                self.cells[self.y * self.cols + self.x] = Cell::new(' ', self.fg, self.bg);
            }
            19 | 24 | 29 | 21 => {}
            c => self.put_char(c),
        }
    }

    fn pos(&self) -> i32 {
        (self.x - self.win.0) as i32 + self.pending_wrap as i32
    }

    fn vpos(&self) -> i32 {
        (self.y - self.win.3) as i32
    }

    fn point(&self, x: i32, y: i32) -> i32 {
        match self.cell_at(x, y) {
            Some((cx, cy)) => self.cells[cy * self.cols + cx].bg as i32,
            None => -1,
        }
    }

    fn frame(&self) -> Frame {
        let mut grid = CellGrid::new(self.cols, self.rows, Cell::default());
        for y in 0..self.rows {
            for x in 0..self.cols {
                grid.set(x, y, self.cells[y * self.cols + x]);
            }
        }
        let palette = match self.colours {
            2 => Palette::acorn2(),
            _ => Palette::acorn16(),
        };
        let mut f = Frame::cells(grid, palette);
        f.cursor = Some(Cursor {
            x: self.x.min(self.cols - 1),
            y: self.y,
            visible: self.cursor_on,
        });
        f
    }

    fn mode(&self) -> u8 {
        self.mode
    }
}

impl TextScreen {
    /// The text cell under graphics coordinates (1280x1024 units, origin bottom left).
    fn cell_at(&self, x: i32, y: i32) -> Option<(usize, usize)> {
        if !(0..1280).contains(&x) || !(0..1024).contains(&y) {
            return None;
        }
        let cx = x as usize * self.cols / 1280;
        let cy = (1023 - y as usize) * self.rows / 1024;
        Some((cx, cy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen_text(v: &Vdu) -> String {
        let f = v.frame();
        match f.screen {
            retro_screen::Screen::Cells(g) => (0..g.height())
                .map(|y| {
                    g.row(y)
                        .iter()
                        .map(|c| c.ch)
                        .collect::<String>()
                        .trim_end()
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("\n")
                .trim_end()
                .to_string(),
            _ => String::new(),
        }
    }

    #[test]
    fn parameters_are_collected_before_the_driver_sees_a_sequence() {
        let mut v = Vdu::default();
        // VDU 31,5,2 then "X": the 5 and 2 are parameters, not characters.
        v.write_all(&[31, 5, 2, b'X']);
        assert_eq!(v.pos(), 6);
        assert_eq!(v.vpos(), 2);
        let mut t = String::new();
        v.take_text(&mut t);
        assert_eq!(t, "X");
        // A half-sent sequence waits.
        v.write_all(&[17]);
        assert_eq!(v.pending(), &[17]);
        v.write(129);
        assert!(v.pending().is_empty());
    }

    #[test]
    fn text_window_scrolls_only_inside_itself() {
        let mut v = Vdu::default();
        v.write_all(b"top");
        v.write_all(&[28, 0, 3, 39, 2]);
        v.write_all(b"a\r\nb\r\nc");
        assert_eq!(screen_text(&v), "top\n\nb\nc");
    }

    #[test]
    fn graphics_modes_stream_only_lines_with_text() {
        let mut v = Vdu::default();
        // MODE 7: everything, blank lines and trailing spaces included.
        v.write_all(b"a \r\n\r\nb\r\n");
        // MODE 9: coloured spaces and cursor moves (Rheolism's bricks) print nothing; text does,
        // with the spaces before it on its line but not after it.
        v.write_all(&[22, 9, 17, 129, b' ', 8, b' ', b' ', 10, 10, 11]);
        v.write_all(b"\r\n\r\n  GAME OVER  \r\n\r\n");
        v.write_all(&[22, 7]);
        v.write_all(b"\r\nc\r\n");
        let mut t = String::new();
        v.take_text(&mut t);
        assert_eq!(t, "a \n\nb\n  GAME OVER\n\nc\n");
    }

    #[test]
    fn vdu_21_mutes_until_vdu_6() {
        let mut v = Vdu::default();
        v.write_all(&[21, b'a', 6, b'b']);
        let mut t = String::new();
        v.take_text(&mut t);
        assert_eq!(t, "b");
    }
}
