//! The C64 as a [`Machine`] for the front end, headless for now: the interpreter runs a budget of
//! statements per 60 Hz jiffy, keys go into the keyboard buffer, and what the program prints
//! streams out as text. The screen editor and the memory-mapped screen (issue #15) will replace
//! [`TextConsole`] behind the same [`Console`] path.

use std::cell::RefCell;
use std::rc::Rc;

use retro_screen::machine::{Machine, RunState};
use retro_screen::{Cell, CellGrid, Frame, HeldKeys, Key, KeyEvent, KeyEventKind, Palette, VirtualTime};

use crate::interp::{BasicError, Console, HostDir, InputSource, Interp, Slice, Stop};
use crate::petcat;
use crate::program::Program;

/// Statements per jiffy: far faster than a real C64 (about 30), so programs feel instant, but a
/// busy loop still lets the clock and keys move.
pub const STATEMENTS_PER_JIFFY: u32 = 20_000;

/// How the text stream shows PETSCII that has no plain-text face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ControlCodes {
    /// Leave colour, cursor and other control codes out (the default).
    #[default]
    Omit,
    /// Show them in petcat's notation, `{clr}`, `{red}`.
    Petcat,
}

/// Converts the PETSCII a program prints to the text stream: CR is a newline, the cursor-right
/// after numbers (and any other) a space, letters as the C64's upper-case screen shows them.
pub fn petscii_to_text(bytes: &[u8], codes: ControlCodes, out: &mut String) {
    for &b in bytes {
        match b {
            13 | 141 => out.push('\n'),
            29 => out.push(' '),
            0x20..=0x5B | 0x5D => out.push(b as char),
            0x5C => out.push('£'),
            0x5E => out.push('↑'),
            0x5F => out.push('←'),
            0xA0 => out.push(' '),
            0xFF => out.push('π'),
            0x00..=0x1F | 0x80..=0x9F if codes == ControlCodes::Omit => {}
            _ => petcat::byte_to_text(b, out),
        }
    }
}

/// The screen as a text stream, plus a 40x25 glass-teletype view of it for `frame()`.
#[derive(Default)]
pub struct TextConsole {
    pending: Vec<u8>,
    column: u8,
    rows: Vec<Vec<u8>>,
}

impl TextConsole {
    fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }

    fn put_row_char(&mut self, c: u8) {
        if self.rows.is_empty() {
            self.rows.push(Vec::new());
        }
        let row = self.rows.last_mut().expect("a row");
        if row.len() == 40 {
            self.rows.push(Vec::new());
        }
        self.rows.last_mut().expect("a row").push(c);
        if self.rows.len() > 25 {
            self.rows.remove(0);
        }
    }
}

impl Console for TextConsole {
    fn chrout(&mut self, b: u8) {
        self.pending.push(b);
        match b {
            13 | 141 => {
                self.column = 0;
                self.rows.push(Vec::new());
                if self.rows.len() > 25 {
                    self.rows.remove(0);
                }
            }
            147 => {
                self.column = 0;
                self.rows.clear();
            }
            19 => self.column = 0,
            157 | 20 => self.column = self.column.saturating_sub(1),
            0x00..=0x1F | 0x80..=0x9F if b != 29 => {}
            _ => {
                self.column = if self.column >= 79 { 0 } else { self.column + 1 };
                self.put_row_char(if b == 29 { b' ' } else { b });
            }
        }
    }

    fn column(&self) -> u8 {
        self.column
    }
}

/// Shares the console between the interpreter (which prints) and the machine (which drains).
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<TextConsole>>);

impl Console for Shared {
    fn chrout(&mut self, b: u8) {
        self.0.borrow_mut().chrout(b);
    }
    fn column(&self) -> u8 {
        self.0.borrow().column()
    }
}

/// Options for a run.
#[derive(Default)]
pub struct Options {
    /// RND seeded as RND(-seed) before the program starts.
    pub seed: Option<i64>,
    /// The directory device 8 reads and writes (None: no disk drive).
    pub disk: Option<std::path::PathBuf>,
    /// How control codes show in the text stream.
    pub codes: ControlCodes,
}

/// The Commodore 64 running one BASIC program.
pub struct CbmMachine {
    interp: Interp,
    console: Shared,
    codes: ControlCodes,
    done: Option<RunState>,
}

impl CbmMachine {
    /// Loads `program` and gets ready to RUN it, reading INPUT and GET from `input`.
    pub fn new(program: &Program, input: InputSource, options: Options) -> Result<CbmMachine, BasicError> {
        let console = Shared::default();
        let mut interp = Interp::new(
            program,
            Box::new(console.clone()),
            input,
            options.disk.map(HostDir),
        )?;
        if let Some(seed) = options.seed {
            interp.seed_rnd(seed);
        }
        Ok(CbmMachine {
            interp,
            console,
            codes: options.codes,
            done: None,
        })
    }

    /// The interpreter, for tests and tools.
    pub fn interp(&mut self) -> &mut Interp {
        &mut self.interp
    }

    /// The PETSCII printed since the last call.
    pub fn take_petscii(&mut self) -> Vec<u8> {
        self.console.0.borrow_mut().take()
    }

    /// Runs until the program stops or waits for input that cannot come, without a clock
    /// (benchmarks, tests). Returns how it stopped, or None if it waits for input.
    pub fn run_to_end(&mut self, budget: u64) -> Option<Stop> {
        let mut left = budget;
        while left > 0 {
            let n = left.min(1 << 20) as u32;
            left -= u64::from(n);
            match self.interp.run_slice(n) {
                Slice::Running => {}
                Slice::Waiting => {
                    if self.interp.input_ended() {
                        return None;
                    }
                }
                Slice::Stopped(s) => return Some(s),
            }
        }
        None
    }
}

/// The PETSCII a terminal key types (C64 key codes for the special keys).
pub fn key_petscii(key: Key) -> Option<u8> {
    Some(match key {
        Key::Char(c) if c.is_ascii() => crate::interp::ascii_to_petscii(c as u8),
        Key::Return => 13,
        Key::Left => 157,
        Key::Right => 29,
        Key::Up => 145,
        Key::Down => 17,
        Key::Backspace => 20,
        Key::Home => 19,
        Key::F(n @ 1..=8) => [133, 137, 134, 138, 135, 139, 136, 140][n as usize - 1],
        _ => return None,
    })
}

impl Machine for CbmMachine {
    fn name(&self) -> &str {
        "Commodore 64 BASIC V2"
    }

    fn frame_hz(&self) -> u32 {
        60
    }

    fn key(&mut self, event: KeyEvent) {
        if event.kind != KeyEventKind::Press {
            return;
        }
        if event.key == Key::Escape {
            self.interp.press_stop();
        } else if let Some(p) = key_petscii(event.key) {
            self.interp.type_key(p);
        }
    }

    fn run_frame(&mut self, now: VirtualTime, _held: &HeldKeys) -> RunState {
        if let Some(s) = &self.done {
            return s.clone();
        }
        self.interp.set_jiffies(now.as_micros() * 60 / 1_000_000);
        let state = match self.interp.run_slice(STATEMENTS_PER_JIFFY) {
            Slice::Running => RunState::Running,
            Slice::Waiting if self.interp.input_ended() => RunState::Ended,
            Slice::Waiting => RunState::WaitingForKey,
            Slice::Stopped(Stop::End) => RunState::Ended,
            Slice::Stopped(stop) => RunState::Failed(stop.message()),
        };
        if matches!(state, RunState::Ended | RunState::Failed(_)) {
            self.done = Some(state.clone());
        }
        state
    }

    fn frame(&self) -> Frame {
        // Light blue on blue, the C64's power-on colours.
        let mut grid = CellGrid::new(40, 25, Cell::new(' ', 14, 6));
        let console = self.console.0.borrow();
        for (y, row) in console.rows.iter().enumerate() {
            let mut text = String::new();
            petscii_to_text(row, ControlCodes::Omit, &mut text);
            for (x, ch) in text.chars().take(40).enumerate() {
                grid.set(x, y, Cell::new(ch, 14, 6));
            }
        }
        Frame::cells(grid, Palette::c64())
    }

    fn drain_text(&mut self, out: &mut String) {
        let bytes = self.take_petscii();
        petscii_to_text(&bytes, self.codes, out);
    }
}
