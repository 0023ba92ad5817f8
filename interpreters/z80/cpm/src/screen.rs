//! The CP/M machine as a [`Machine`] the front end runs: a 4 MHz Z80 in virtual time, keys typed
//! into the console, and the console's output drawn on an 80x24 terminal screen.
//!
//! The terminal understands what CP/M programs commonly send: printable characters, CR, LF, BS,
//! TAB, FF (clear screen), and the cursor and erase sequences of the VT52 (`ESC Y r c`, `ESC H`,
//! `ESC J`, `ESC K`, `ESC E`, `ESC A`-`D`) and of the VT100/ANSI (`ESC [ r ; c H`, `ESC [ J`,
//! `ESC [ K`, cursor moves; colour and other SGR codes are accepted and ignored). BEL and other
//! control codes draw nothing.
//!
//! Keys: printable characters and control characters as typed, Return = CR, Escape = ESC (1Bh),
//! Backspace = BS (08h), Delete = DEL (7Fh), Tab = 09h; the arrow keys send the WordStar keys most
//! CP/M programs use (^E up, ^X down, ^S left, ^D right).

use std::time::Duration;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::{Cell, CellGrid, Frame, Palette};

use crate::machine::{CpmMachine, Stop};
use crate::{CLOCK_HZ, CpmError};

/// Columns and rows of the console screen.
pub const COLUMNS: usize = 80;
pub const ROWS: usize = 24;

/// An 80x24 glass terminal.
#[derive(Clone, Debug)]
pub struct Terminal {
    grid: CellGrid,
    x: usize,
    y: usize,
    escape: Escape,
}

/// Where the terminal is in an escape sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Escape {
    None,
    /// After ESC.
    Start,
    /// VT52 `ESC Y`: the row, then the column (each + 32).
    Row,
    Column(u8),
    /// ANSI `ESC [`: parameters so far.
    Csi(Vec<u16>),
}

const BLANK: Cell = Cell::new(' ', 1, 0);

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal {
            grid: CellGrid::new(COLUMNS, ROWS, BLANK),
            x: 0,
            y: 0,
            escape: Escape::None,
        }
    }

    /// The screen as cells (white on black) with the cursor.
    pub fn frame(&self) -> Frame {
        let mut frame = Frame::cells(self.grid.clone(), Palette::acorn2());
        frame.cursor = Some(retro_screen::Cursor {
            x: self.x.min(COLUMNS - 1),
            y: self.y,
            visible: true,
        });
        frame
    }

    /// One row as text, trailing spaces removed.
    pub fn row_text(&self, y: usize) -> String {
        let s: String = self.grid.row(y).iter().map(|c| c.ch).collect();
        s.trim_end().to_string()
    }

    /// Draws a byte the program wrote.
    pub fn write(&mut self, b: u8) {
        match std::mem::replace(&mut self.escape, Escape::None) {
            Escape::None => self.plain(b),
            Escape::Start => self.after_esc(b),
            Escape::Row => self.escape = Escape::Column(b.wrapping_sub(32)),
            Escape::Column(row) => self.move_to(row as usize, b.wrapping_sub(32) as usize),
            Escape::Csi(mut params) => match b {
                b'0'..=b'9' => {
                    if params.is_empty() {
                        params.push(0);
                    }
                    let last = params.last_mut().expect("just pushed");
                    *last = last.saturating_mul(10).saturating_add((b - b'0') as u16);
                    self.escape = Escape::Csi(params);
                }
                b';' => {
                    if params.is_empty() {
                        params.push(0);
                    }
                    if params.len() < 16 {
                        params.push(0);
                    }
                    self.escape = Escape::Csi(params);
                }
                b'?' | b' ' => self.escape = Escape::Csi(params),
                _ => self.csi(b, &params),
            },
        }
    }

    fn plain(&mut self, b: u8) {
        match b {
            b'\r' => self.x = 0,
            b'\n' => self.line_feed(),
            0x08 => self.x = self.x.min(COLUMNS - 1).saturating_sub(1),
            b'\t' => self.x = ((self.x / 8 + 1) * 8).min(COLUMNS - 1),
            0x0C => self.clear(),
            0x1B => self.escape = Escape::Start,
            0x20..=0x7E | 0xA0..=0xFF => {
                if self.x >= COLUMNS {
                    self.x = 0;
                    self.line_feed();
                }
                self.grid.set(self.x, self.y, Cell::new(b as char, 1, 0));
                self.x += 1;
            }
            _ => {}
        }
    }

    fn after_esc(&mut self, b: u8) {
        match b {
            b'[' => self.escape = Escape::Csi(Vec::new()),
            b'Y' => self.escape = Escape::Row,
            b'H' => self.move_to(0, 0),
            b'E' => self.clear(),
            b'J' => self.erase_below(),
            b'K' => self.erase_line(),
            b'A' => self.y = self.y.saturating_sub(1),
            b'B' => self.y = (self.y + 1).min(ROWS - 1),
            b'C' => self.x = (self.x + 1).min(COLUMNS - 1),
            b'D' => self.x = self.x.saturating_sub(1),
            _ => {}
        }
    }

    fn csi(&mut self, b: u8, params: &[u16]) {
        let p = |i: usize| params.get(i).copied().filter(|&v| v > 0).unwrap_or(1) as usize;
        match b {
            b'H' | b'f' => self.move_to(p(0) - 1, p(1) - 1),
            b'A' => self.y = self.y.saturating_sub(p(0)),
            b'B' => self.y = (self.y + p(0)).min(ROWS - 1),
            b'C' => self.x = (self.x + p(0)).min(COLUMNS - 1),
            b'D' => self.x = self.x.saturating_sub(p(0)),
            b'J' => match params.first().copied().unwrap_or(0) {
                2 | 3 => self.clear_keep_cursor(),
                _ => self.erase_below(),
            },
            b'K' => self.erase_line(),
            _ => {}
        }
    }

    fn move_to(&mut self, row: usize, col: usize) {
        self.y = row.min(ROWS - 1);
        self.x = col.min(COLUMNS - 1);
    }

    fn line_feed(&mut self) {
        if self.y + 1 < ROWS {
            self.y += 1;
        } else {
            let mut grid = CellGrid::new(COLUMNS, ROWS, BLANK);
            for y in 1..ROWS {
                for (x, &c) in self.grid.row(y).iter().enumerate() {
                    grid.set(x, y - 1, c);
                }
            }
            self.grid = grid;
        }
    }

    fn clear(&mut self) {
        self.clear_keep_cursor();
        self.move_to(0, 0);
    }

    fn clear_keep_cursor(&mut self) {
        self.grid.fill(BLANK);
    }

    fn erase_line(&mut self) {
        for x in self.x..COLUMNS {
            self.grid.set(x, self.y, BLANK);
        }
    }

    fn erase_below(&mut self) {
        self.erase_line();
        for y in self.y + 1..ROWS {
            for x in 0..COLUMNS {
                self.grid.set(x, y, BLANK);
            }
        }
    }
}

/// A CP/M machine running in virtual time with a terminal: what `retro run prog.com` drives.
pub struct CpmRun {
    pub machine: CpmMachine,
    pub terminal: Terminal,
    /// T-states the machine has been given so far (it idles through the rest of a frame while it
    /// waits for input, so this runs ahead of the CPU's own count then).
    given: u64,
    start_tstates: u64,
    text: String,
    state: RunState,
}

impl CpmRun {
    pub fn new(machine: CpmMachine) -> CpmRun {
        let start_tstates = machine.cpu.tstates();
        CpmRun {
            machine,
            terminal: Terminal::new(),
            given: 0,
            start_tstates,
            text: String::new(),
            state: RunState::Running,
        }
    }

    fn collect_output(&mut self) {
        for b in self.machine.console.take_output() {
            self.terminal.write(b);
            // The text stream carries the bytes as they are (Latin-1 above 7Fh).
            self.text.push(b as char);
        }
    }
}

/// The bytes a key types on the console.
pub(crate) fn key_bytes(key: Key) -> Option<u8> {
    Some(match key {
        Key::Char(c) if c.is_ascii() => c as u8,
        Key::Return => b'\r',
        Key::Escape => 0x1B,
        Key::Backspace => 0x08,
        Key::Delete => 0x7F,
        Key::Tab => b'\t',
        Key::Up => 0x05,
        Key::Down => 0x18,
        Key::Left => 0x13,
        Key::Right => 0x04,
        _ => return None,
    })
}

impl Machine for CpmRun {
    fn name(&self) -> &str {
        "CP/M 2.2"
    }

    fn frame_hz(&self) -> u32 {
        50
    }

    fn key(&mut self, event: KeyEvent) {
        if event.kind == KeyEventKind::Press
            && let Some(b) = key_bytes(event.key)
        {
            self.machine.console.push(b);
        }
    }

    fn run_frame(&mut self, now: VirtualTime, _held: &HeldKeys) -> RunState {
        if matches!(self.state, RunState::Ended | RunState::Failed(_)) {
            return self.state.clone();
        }
        let target = now.as_micros() * (CLOCK_HZ / 1_000_000);
        self.state = loop {
            let done = self.machine.cpu.tstates() - self.start_tstates;
            self.given = self.given.max(done);
            if self.given >= target {
                break RunState::Running;
            }
            match self.machine.run_for(target - self.given) {
                Ok(Stop::Budget) => {}
                Ok(Stop::Exit) => break RunState::Ended,
                Ok(Stop::NeedInput | Stop::Polling) => {
                    // Idle until input: the rest of the frame passes with the CPU waiting.
                    self.given = target;
                    if self.machine.console.stream_pending() {
                        // A pipe that is open but quiet (`sleep 60 | retro run`): wait for it at
                        // most a frame of real time, so the virtual clock (and `--time`) goes on
                        // at the host's pace and the wait costs no CPU.
                        self.machine
                            .console
                            .wait_for_input(Duration::from_micros(1_000_000 / u64::from(self.frame_hz())));
                        break RunState::Running;
                    }
                    break RunState::WaitingForKey;
                }

                Err(e) => break RunState::Failed(failure(&e)),
            }
        };
        self.collect_output();
        self.state.clone()
    }

    fn frame(&self) -> Frame {
        self.terminal.frame()
    }

    fn drain_text(&mut self, out: &mut String) {
        out.push_str(&self.text);
        self.text.clear();
    }
}

fn failure(e: &CpmError) -> String {
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(bytes: &[u8]) -> Terminal {
        let mut t = Terminal::new();
        for &b in bytes {
            t.write(b);
        }
        t
    }

    #[test]
    fn text_lines_and_backspace() {
        let t = term(b"Hello\r\nWorlds\x08!\r\n");
        assert_eq!(t.row_text(0), "Hello");
        assert_eq!(t.row_text(1), "World!");
        assert_eq!((t.x, t.y), (0, 2));
    }

    #[test]
    fn scrolling_at_the_bottom_and_wrapping_at_the_right() {
        let mut bytes = Vec::new();
        for i in 0..30 {
            bytes.extend_from_slice(format!("line {i}\r\n").as_bytes());
        }
        let t = term(&bytes);
        assert_eq!(t.row_text(0), "line 7");
        assert_eq!(t.row_text(22), "line 29");
        let t = term(&[b'x'; 81]);
        assert_eq!(t.row_text(0).len(), 80);
        assert_eq!(t.row_text(1), "x");
    }

    #[test]
    fn vt52_and_ansi_cursor_addressing_and_clearing() {
        let t = term(b"junk\x1bY\x22\x25A\x1b[5;10HB");
        assert_eq!(t.row_text(2), "     A");
        assert_eq!(t.row_text(4), "         B");
        let t = term(b"junk\x0cnew");
        assert_eq!(t.row_text(0), "new");
        let t = term(b"abc\x1b[2J\x1b[Hx\x1b[31mred\x1b[0m");
        assert_eq!(t.row_text(0), "xred");
        let t = term(b"abcdef\x1b[1;3H\x1b[K");
        assert_eq!(t.row_text(0), "ab");
    }

    #[test]
    fn keys_type_ascii_and_wordstar_cursor_keys() {
        assert_eq!(key_bytes(Key::Char('a')), Some(b'a'));
        assert_eq!(key_bytes(Key::Char('\u{3}')), Some(3));
        assert_eq!(key_bytes(Key::Return), Some(13));
        assert_eq!(key_bytes(Key::Escape), Some(27));
        assert_eq!(key_bytes(Key::Up), Some(5));
        assert_eq!(key_bytes(Key::Char('é')), None);
        assert_eq!(key_bytes(Key::F(1)), None);
    }
}
