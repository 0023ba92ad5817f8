//! The VDU system: the queue every byte a program prints goes through ([`queue`], with its
//! debugger [`log`]), and the graphics VDU driver behind it, a RISC OS style screen.
//!
//! The screen is a real framebuffer of logical colours, one byte per pixel, in the geometry of
//! the current MODE ([`mode`]). Text is drawn into it with the 8x8 font (or VDU 23 definitions),
//! so POINT reads back exactly what PRINT drew, as Rheolism relies on. Two cursors (text and
//! graphics), two windows (VDU 28 and VDU 24), the graphics origin (VDU 29), the palette (VDU 19)
//! and the colours with their GCOL actions are the VDU variables of RISC OS; [`draw`] holds the
//! PLOT primitives.
//!
//! Coordinates: text cells are (column, row) from the top left; graphics units are from the
//! bottom left, `1 << xeig` units per pixel across and `1 << yeig` up (MODE 9: 4 and 4, so
//! 1280x1024 units). The driver keeps the graphics cursor in absolute units (origin included).

mod describe;
pub mod draw;
pub mod log;
pub mod mode;
pub mod queue;

#[cfg(test)]
mod tests;

use retro_screen::font::glyph;
use retro_screen::frame::{Cursor, Frame, PixelBuffer, Screen};
use retro_screen::palette::{Palette, PaletteEntry, Rgb};

pub use mode::ModeInfo;
pub use queue::{PARAMS, Vdu, VduDriver};

/// Inclusive rectangle in pixels, y = 0 at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixRect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl PixRect {
    fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
}

/// The RISC OS screen: framebuffer, palette and VDU variables.
pub struct GraphicsScreen {
    pub(crate) m: ModeInfo,
    pub(crate) px: Vec<u8>,
    palette: Vec<PaletteEntry>,
    /// Text cursor, absolute cell.
    tx: usize,
    ty: usize,
    /// Text window: left, bottom, right, top (inclusive cells).
    twin: (usize, usize, usize, usize),
    /// RISC OS scroll protection: after a character in the window's last column the cursor
    /// waits one past the edge (POS = width); the wrap happens with the next character.
    pending_wrap: bool,
    /// Text colours as pixel values.
    tfg: u8,
    tbg: u8,
    /// Graphics colours as pixel values, with their GCOL actions.
    pub(crate) gfg: u8,
    pub(crate) gbg: u8,
    pub(crate) gfg_act: u8,
    pub(crate) gbg_act: u8,
    /// Graphics window in pixels.
    pub(crate) gwin: PixRect,
    /// Graphics origin, in units.
    origin: (i32, i32),
    /// Graphics cursor and the point before it, absolute units (triangles and parallelograms
    /// use both).
    pub(crate) gcur: (i32, i32),
    pub(crate) gprev: (i32, i32),
    /// VDU 5: characters go to the graphics cursor.
    vdu5: bool,
    cursor_on: bool,
    /// VDU 23 character definitions (characters 32-255); they survive MODE changes, as on RISC OS.
    chars: Box<[Option<[u8; 8]>; 256]>,
    /// VDU 7s since the last [`VduDriver::take_bells`].
    bells: u32,
    /// Graphics pixels drawn since the last [`VduDriver::take_work`]: what drawing costs in
    /// virtual time.
    work: u64,
}

impl GraphicsScreen {
    /// A screen in `mode` (a mode this driver lacks falls back to MODE 12's 80x32 16 colours).
    pub fn new(mode: u8) -> Self {
        let m = ModeInfo::of(mode)
            .or_else(|| ModeInfo::of(12))
            .expect("MODE 12 exists");
        let mut s = GraphicsScreen {
            m,
            px: Vec::new(),
            palette: Vec::new(),
            tx: 0,
            ty: 0,
            twin: (0, 0, 0, 0),
            pending_wrap: false,
            tfg: 0,
            tbg: 0,
            gfg: 0,
            gbg: 0,
            gfg_act: 0,
            gbg_act: 0,
            gwin: PixRect {
                x0: 0,
                y0: 0,
                x1: 0,
                y1: 0,
            },
            origin: (0, 0),
            gcur: (0, 0),
            gprev: (0, 0),
            vdu5: false,
            cursor_on: true,
            chars: Box::new([None; 256]),
            bells: 0,
            work: 0,
        };
        s.set_mode(m);
        s
    }

    /// The text cursor as a frame shows it.
    fn cursor(&self) -> Cursor {
        Cursor {
            x: self.tx,
            y: self.ty,
            visible: self.cursor_on && !self.vdu5,
        }
    }

    /// The current mode's description.
    pub fn mode_info(&self) -> ModeInfo {
        self.m
    }

    /// The logical colour of the pixel at (`x`, `y`), y = 0 at the top, or `None` off screen.
    pub fn pixel(&self, x: usize, y: usize) -> Option<u8> {
        (x < self.m.width && y < self.m.height).then(|| self.px[y * self.m.width + x])
    }

    fn set_mode(&mut self, m: ModeInfo) {
        self.m = m;
        self.px = vec![0; m.width * m.height];
        self.vdu5 = false;
        self.cursor_on = true;
        self.reset_colours();
        self.reset_windows();
    }

    /// VDU 20: default colours, actions and palette.
    fn reset_colours(&mut self) {
        let fg = self.colour_value(self.m.default_fg());
        // In 256 colours the default white is the brightest tint.
        let fg = if self.m.colours == 256 { fg | 3 } else { fg };
        self.tfg = fg;
        self.gfg = fg;
        self.tbg = 0;
        self.gbg = 0;
        self.gfg_act = 0;
        self.gbg_act = 0;
        self.palette = self.m.default_palette();
    }

    /// VDU 26: full-screen windows, origin and both cursors home.
    fn reset_windows(&mut self) {
        let (cols, rows) = self.m.text_size();
        self.twin = (0, rows - 1, cols - 1, 0);
        self.tx = 0;
        self.ty = 0;
        self.pending_wrap = false;
        self.gwin = PixRect {
            x0: 0,
            y0: 0,
            x1: self.m.width as i32 - 1,
            y1: self.m.height as i32 - 1,
        };
        self.origin = (0, 0);
        self.gcur = (0, 0);
        self.gprev = (0, 0);
    }

    /// The pixel value a COLOUR/GCOL number means in this mode.
    fn colour_value(&self, c: u8) -> u8 {
        let c = c & self.m.colour_mask();
        if self.m.colours == 256 { c << 2 } else { c }
    }

    /// All bits a pixel value can have (what the invert action flips).
    pub(crate) fn pixel_mask(&self) -> u8 {
        match self.m.colours {
            256 => 255,
            n => (n - 1) as u8,
        }
    }

    // ---- coordinates ----

    /// Pixel column of an absolute graphics x.
    pub(crate) fn px_x(&self, x: i32) -> i32 {
        x >> self.m.xeig
    }
    /// Pixel row (0 at the top) of an absolute graphics y.
    pub(crate) fn px_y(&self, y: i32) -> i32 {
        self.m.height as i32 - 1 - (y >> self.m.yeig)
    }

    // ---- text ----

    fn fill_px(&mut self, x0: usize, y0: usize, x1: usize, y1: usize, v: u8) {
        let w = self.m.width;
        for y in y0..y1.min(self.m.height) {
            self.px[y * w + x0..y * w + x1.min(w)].fill(v);
        }
    }

    /// Fills text cells (l..=r, t..=b) with the text background.
    fn clear_cells(&mut self, l: usize, t: usize, r: usize, b: usize) {
        let (cw, ch) = (self.m.char_w, self.m.char_h);
        self.fill_px(l * cw, t * ch, (r + 1) * cw, (b + 1) * ch, self.tbg);
    }

    fn glyph_of(&self, c: u8) -> [u8; 8] {
        self.chars[c as usize].unwrap_or_else(|| glyph(char::from(c)))
    }

    /// Draws character `c` in text cell (`cx`, `cy`) in the text colours.
    fn draw_char_cell(&mut self, c: u8, cx: usize, cy: usize) {
        let g = self.glyph_of(c);
        let (cw, ch, w) = (self.m.char_w, self.m.char_h, self.m.width);
        for row in 0..ch {
            let bits = g.get(row).copied().unwrap_or(0);
            let base = (cy * ch + row) * w + cx * cw;
            for col in 0..cw {
                self.px[base + col] = if bits & (0x80 >> col) != 0 {
                    self.tfg
                } else {
                    self.tbg
                };
            }
        }
    }

    /// Moves the text window's contents up one row; the bottom row becomes background.
    fn scroll_up(&mut self) {
        let (l, b, r, t) = self.twin;
        let (cw, ch, w) = (self.m.char_w, self.m.char_h, self.m.width);
        let (x0, x1) = (l * cw, (r + 1) * cw);
        for y in t * ch..b * ch {
            let (dst, src) = (y * w, (y + ch) * w);
            self.px.copy_within(src + x0..src + x1, dst + x0);
        }
        self.clear_cells(l, b, r, b);
    }

    /// Moves the text window's contents down one row; the top row becomes background.
    fn scroll_down(&mut self) {
        let (l, b, r, t) = self.twin;
        let (cw, ch, w) = (self.m.char_w, self.m.char_h, self.m.width);
        let (x0, x1) = (l * cw, (r + 1) * cw);
        for y in ((t + 1) * ch..(b + 1) * ch).rev() {
            let (dst, src) = (y * w, (y - ch) * w);
            self.px.copy_within(src + x0..src + x1, dst + x0);
        }
        self.clear_cells(l, t, r, t);
    }

    fn line_feed(&mut self) {
        if self.ty >= self.twin.1 {
            self.scroll_up();
        } else {
            self.ty += 1;
        }
    }

    fn wrap_if_pending(&mut self) {
        if self.pending_wrap {
            self.pending_wrap = false;
            self.tx = self.twin.0;
            self.line_feed();
        }
    }

    fn put_char(&mut self, c: u8) {
        if self.vdu5 {
            self.put_char_graphics(c);
            return;
        }
        self.wrap_if_pending();
        self.draw_char_cell(c, self.tx, self.ty);
        if self.tx >= self.twin.2 {
            self.pending_wrap = true;
        } else {
            self.tx += 1;
        }
    }

    /// VDU 8: left; from the window's left edge to the right edge of the row above; at the
    /// top-left corner the window scrolls down.
    fn text_left(&mut self) {
        if self.pending_wrap {
            // The cursor is logically one past the last column: back onto it.
            self.pending_wrap = false;
            return;
        }
        if self.tx > self.twin.0 {
            self.tx -= 1;
        } else {
            self.tx = self.twin.2;
            if self.ty > self.twin.3 {
                self.ty -= 1;
            } else {
                self.scroll_down();
            }
        }
    }

    /// VDU 9: right; from the right edge to the start of the next row, scrolling at the bottom.
    fn text_right(&mut self) {
        if self.pending_wrap || self.tx >= self.twin.2 {
            self.pending_wrap = false;
            self.tx = self.twin.0;
            self.line_feed();
        } else {
            self.tx += 1;
        }
    }

    fn text_up(&mut self) {
        self.pending_wrap = false;
        if self.ty > self.twin.3 {
            self.ty -= 1;
        } else {
            self.scroll_down();
        }
    }

    fn home(&mut self) {
        self.tx = self.twin.0;
        self.ty = self.twin.3;
        self.pending_wrap = false;
    }

    // ---- VDU 5 text at the graphics cursor ----

    fn char_units(&self) -> (i32, i32) {
        (
            (self.m.char_w as i32) << self.m.xeig,
            (self.m.char_h as i32) << self.m.yeig,
        )
    }

    fn put_char_graphics(&mut self, c: u8) {
        let g = self.glyph_of(c);
        // The graphics cursor is the character's top-left corner.
        let (x0, y0) = (self.px_x(self.gcur.0), self.px_y(self.gcur.1));
        for (row, bits) in g.iter().enumerate() {
            for col in 0..8 {
                if bits & (0x80 >> col) != 0 {
                    self.plot_px(x0 + col, y0 + row as i32, self.gfg, self.gfg_act);
                }
            }
        }
        let (cw, _) = self.char_units();
        self.gcur.0 = self.gcur.0.wrapping_add(cw);
    }

    fn graphics_cursor_move(&mut self, code: u8) {
        let (cw, ch) = self.char_units();
        match code {
            8 => self.gcur.0 = self.gcur.0.wrapping_sub(cw),
            9 => self.gcur.0 = self.gcur.0.wrapping_add(cw),
            10 => self.gcur.1 = self.gcur.1.wrapping_sub(ch),
            11 => self.gcur.1 = self.gcur.1.wrapping_add(ch),
            13 => self.gcur.0 = self.gwin.x0 << self.m.xeig,
            _ => {}
        }
    }

    /// The graphics window's top-left corner in units (where VDU 5 text starts after CLS/VDU 30).
    fn gwin_top_left(&self) -> (i32, i32) {
        let top = (self.m.height as i32 - 1 - self.gwin.y0) << self.m.yeig;
        (self.gwin.x0 << self.m.xeig, top + (1 << self.m.yeig) - 1)
    }

    // ---- graphics ----

    /// Sets one pixel through a GCOL action, inside the graphics window only.
    pub(crate) fn plot_px(&mut self, x: i32, y: i32, colour: u8, action: u8) {
        if !self.gwin.contains(x, y) {
            return;
        }
        self.work = self.work.saturating_add(1);
        let i = y as usize * self.m.width + x as usize;
        let old = self.px[i];
        let mask = self.pixel_mask();
        self.px[i] = match action & 7 {
            0 => colour,
            1 => old | colour,
            2 => old & colour,
            3 => old ^ colour,
            4 => old ^ mask,
            5 => old,
            6 => old & !colour & mask,
            _ => (old | !colour) & mask,
        };
    }

    /// CLG: the graphics window in the graphics background colour (through its action).
    fn clg(&mut self) {
        let r = self.gwin;
        let (c, a) = (self.gbg, self.gbg_act);
        if a == 0 {
            let w = self.m.width;
            let area = (r.x1 - r.x0 + 1).max(0) as u64 * (r.y1 - r.y0 + 1).max(0) as u64;
            self.work = self.work.saturating_add(area);
            for y in r.y0..=r.y1 {
                let base = y as usize * w;
                self.px[base + r.x0 as usize..=base + r.x1 as usize].fill(c);
            }
        } else {
            for y in r.y0..=r.y1 {
                for x in r.x0..=r.x1 {
                    self.plot_px(x, y, c, a);
                }
            }
        }
    }

    fn set_graphics_window(&mut self, l: i32, b: i32, r: i32, t: i32) {
        let (l, b, r, t) = (
            l + self.origin.0,
            b + self.origin.1,
            r + self.origin.0,
            t + self.origin.1,
        );
        let (wu, hu) = (
            (self.m.width as i32) << self.m.xeig,
            (self.m.height as i32) << self.m.yeig,
        );
        // RISC OS ignores a window that is inside out or reaches off the screen.
        if l > r || b > t || l < 0 || b < 0 || r >= wu || t >= hu {
            return;
        }
        self.gwin = PixRect {
            x0: self.px_x(l),
            y0: self.px_y(t),
            x1: self.px_x(r),
            y1: self.px_y(b),
        };
    }

    fn set_text_window(&mut self, l: u8, b: u8, r: u8, t: u8) {
        let (cols, rows) = self.m.text_size();
        let (l, r) = (l.min(r) as usize, l.max(r) as usize);
        let (t, b) = (t.min(b) as usize, t.max(b) as usize);
        if r >= cols || b >= rows {
            return;
        }
        self.twin = (l, b, r, t);
        self.home();
    }

    fn vdu19(&mut self, l: u8, p: u8, r: u8, g: u8, b: u8) {
        if self.m.colours == 256 {
            return;
        }
        let l = (l & self.m.colour_mask()) as usize;
        let entry = match p {
            0..=15 => mode::physical(p),
            16 => PaletteEntry::Solid(Rgb(r, g, b)),
            _ => return,
        };
        self.palette[l] = entry;
    }

    fn vdu23(&mut self, s: &[u8]) {
        match s[1] {
            0 => {} // 6845 registers
            1 => self.cursor_on = s[2] != 0,
            2..=31 => {} // ECF patterns, dot patterns, scroll flags: not modelled
            c => {
                let mut g = [0u8; 8];
                g.copy_from_slice(&s[2..10]);
                self.chars[c as usize] = Some(g);
            }
        }
    }
}

impl VduDriver for GraphicsScreen {
    fn describe(&self) -> Vec<String> {
        self.describe_state()
    }
    fn sequence(&mut self, s: &[u8]) {
        let word = |i: usize| i16::from_le_bytes([s[i], s[i + 1]]) as i32;
        match s[0] {
            0..=3 | 6 | 14 | 15 | 21 | 27 => {}
            4 => self.vdu5 = false,
            5 => self.vdu5 = true,
            7 => self.bells = self.bells.saturating_add(1),
            c @ 8..=11 if self.vdu5 => self.graphics_cursor_move(c),
            8 => self.text_left(),
            9 => self.text_right(),
            10 => {
                self.pending_wrap = false;
                self.line_feed();
            }
            11 => self.text_up(),
            12 => {
                if self.vdu5 {
                    self.clg();
                    self.gcur = self.gwin_top_left();
                } else {
                    let (l, b, r, t) = self.twin;
                    self.clear_cells(l, t, r, b);
                    self.home();
                }
            }
            13 if self.vdu5 => self.graphics_cursor_move(13),
            13 => {
                self.pending_wrap = false;
                self.tx = self.twin.0;
            }
            16 => self.clg(),
            17 => {
                let v = self.colour_value(s[1]);
                if s[1] & 0x80 != 0 {
                    self.tbg = v;
                } else {
                    self.tfg = v;
                }
            }
            18 => {
                let v = self.colour_value(s[2]);
                if s[2] & 0x80 != 0 {
                    self.gbg = v;
                    self.gbg_act = s[1];
                } else {
                    self.gfg = v;
                    self.gfg_act = s[1];
                }
            }
            19 => self.vdu19(s[1], s[2], s[3], s[4], s[5]),
            20 => self.reset_colours(),
            22 => {
                if let Some(m) = ModeInfo::of(s[1] & 0x7F) {
                    self.set_mode(m);
                }
            }
            23 => self.vdu23(s),
            24 => self.set_graphics_window(word(1), word(3), word(5), word(7)),
            25 => self.plot(s[1], word(2), word(4)),
            26 => self.reset_windows(),
            28 => self.set_text_window(s[1], s[2], s[3], s[4]),
            29 => self.origin = (word(1), word(3)),
            30 => {
                if self.vdu5 {
                    self.gcur = self.gwin_top_left();
                } else {
                    self.home();
                }
            }
            31 => {
                let (x, y) = (self.twin.0 + s[1] as usize, self.twin.3 + s[2] as usize);
                if y <= self.twin.1 {
                    if x <= self.twin.2 {
                        self.tx = x;
                        self.ty = y;
                        self.pending_wrap = false;
                    } else if x == self.twin.2 + 1 {
                        // Scroll protection allows the column just past the edge.
                        self.tx = self.twin.2;
                        self.ty = y;
                        self.pending_wrap = true;
                    }
                }
            }
            127 => {
                if self.vdu5 {
                    self.graphics_cursor_move(8);
                    let (x0, y0) = (self.px_x(self.gcur.0), self.px_y(self.gcur.1));
                    for y in 0..self.m.char_h as i32 {
                        for x in 0..self.m.char_w as i32 {
                            self.plot_px(x0 + x, y0 + y, self.gbg, self.gbg_act);
                        }
                    }
                } else {
                    self.text_left();
                    self.clear_cells(self.tx, self.ty, self.tx, self.ty);
                }
            }
            c => self.put_char(c),
        }
    }

    fn pos(&self) -> i32 {
        (self.tx - self.twin.0) as i32 + self.pending_wrap as i32
    }

    fn vpos(&self) -> i32 {
        (self.ty - self.twin.3) as i32
    }

    fn point(&self, x: i32, y: i32) -> i32 {
        let (ax, ay) = (x.saturating_add(self.origin.0), y.saturating_add(self.origin.1));
        if ax < 0 || ay < 0 {
            return -1;
        }
        let (px, py) = (self.px_x(ax), self.px_y(ay));
        if px >= self.m.width as i32 || py < 0 {
            return -1;
        }
        let v = self.px[py as usize * self.m.width + px as usize];
        if self.m.colours == 256 {
            (v >> 2) as i32
        } else {
            v as i32
        }
    }

    fn frame(&self) -> Frame {
        let mut buf = PixelBuffer::new(self.m.width, self.m.height, (self.m.char_w, self.m.char_h), 0);
        buf.pixels_mut().copy_from_slice(&self.px);
        buf.pixel_aspect = self.m.pixel_aspect();
        let mut f = Frame::pixels(
            buf,
            Palette {
                entries: self.palette.clone(),
            },
        );
        f.cursor = Some(self.cursor());
        f
    }

    fn frame_into(&self, into: &mut Frame) {
        // The same frame as `frame`, in the buffer of the last one when the mode's size is
        // unchanged.
        match &mut into.screen {
            Screen::Pixels(buf) if buf.width() == self.m.width && buf.height() == self.m.height => {
                buf.pixels_mut().copy_from_slice(&self.px);
                buf.char_size = (self.m.char_w, self.m.char_h);
                buf.pixel_aspect = self.m.pixel_aspect();
                into.palette.entries.clone_from(&self.palette);
                into.cursor = Some(self.cursor());
                into.border = None;
                into.flash_phase = false;
                into.paper = None;
            }
            _ => *into = self.frame(),
        }
    }

    fn mode(&self) -> u8 {
        self.m.number
    }

    fn take_bells(&mut self) -> u32 {
        std::mem::take(&mut self.bells)
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    fn pending_work(&self) -> u64 {
        self.work
    }
}
