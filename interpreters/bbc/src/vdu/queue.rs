//! The VDU queue: every byte a program outputs goes into it, and it collects complete sequences
//! (a control code 0-31 and its parameter bytes, with the real parameter counts) and hands each to
//! a [`VduDriver`]: the real one is [`super::GraphicsScreen`].

use retro_screen::frame::Frame;

use super::GraphicsScreen;
use super::log::VduLog;

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
    /// The screen as a frame, written over `into`, whose buffers a driver may reuse (the
    /// machine publishes a frame at every yield: a fresh buffer each time is page faults).
    fn frame_into(&self, into: &mut Frame) {
        *into = self.frame();
    }
    /// The current screen mode.
    fn mode(&self) -> u8;
    /// How many times VDU 7 rang since the last call, for a front end to beep; drivers without
    /// a bell say 0.
    fn take_bells(&mut self) -> u32 {
        0
    }
    /// Graphics pixels drawn since the last call, which the machine charges to the virtual
    /// clock (a filled circle takes time on the real machine); drivers that draw nothing say 0.
    fn take_work(&mut self) -> u64 {
        0
    }
    /// What [`VduDriver::take_work`] would give, leaving it.
    fn pending_work(&self) -> u64 {
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
    pub log: Option<VduLog>,
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
    /// The queue in front of the real driver, in MODE 7 as the machine starts.
    fn default() -> Self {
        Vdu::new(Box::new(GraphicsScreen::new(7)))
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
    /// See [`VduDriver::frame_into`].
    pub fn frame_into(&self, into: &mut Frame) {
        self.driver.frame_into(into)
    }
    pub fn mode(&self) -> u8 {
        self.driver.mode()
    }
    pub fn driver(&self) -> &dyn VduDriver {
        &*self.driver
    }
    /// See [`VduDriver::take_work`].
    pub fn take_work(&mut self) -> u64 {
        self.driver.take_work()
    }
    /// See [`VduDriver::pending_work`].
    pub fn pending_work(&self) -> u64 {
        self.driver.pending_work()
    }
    pub fn driver_mut(&mut self) -> &mut dyn VduDriver {
        &mut *self.driver
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screen's text as the real driver shows it, without trailing blanks.
    fn screen_text(v: &Vdu) -> String {
        retro_screen::dump::text(&v.frame())
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
            .trim_end()
            .to_string()
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
