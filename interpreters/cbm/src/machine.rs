//! The C64 as a [`Machine`] for the front end, in the terminal or headless: 60 jiffies a second
//! of virtual time; in each the KERNAL's interrupt takes one typed key into the keyboard buffer
//! at 631 (count at 198) and scans the held keys into 197 and 653, then BASIC runs a budget of
//! statements. What the program prints goes to the screen editor (screen RAM at 1024, colour
//! RAM at 55296, [`crate::c64`]) and to a text stream for headless runs.
//!
//! After a program stops, a machine made for the terminal shows READY. and reads lines typed at
//! it with the screen editor, as a C64 does (direct mode); a headless run ends there instead.
//! [`CbmMachine::direct`] starts at the power-on screen.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::Frame;

use crate::c64::{self, C64Console, keyboard, mem};
use crate::interp::{BasicError, Console, HostDir, InputSource, Interp, Slice, Stop, Typed};
use crate::petcat;
use crate::program::Program;

pub use crate::interp::STATEMENTS_PER_JIFFY;

/// Statements run between looks at the budget.
const CHUNK: u32 = 250;
/// What a GET that finds no key costs of the jiffy's budget: a program polling the keyboard
/// gets through about 20 polls a jiffy and then gives the host CPU back until the next one.
const POLL_COST: i64 = 1_000;
/// The cursor blinks every 20 jiffies, as the KERNAL's interrupt blinks it.
const BLINK_JIFFIES: u64 = 20;

/// The power-on screen's text, after CLR.
const BANNER: &[u8] = b"\r    **** COMMODORE 64 BASIC V2 ****\r\r 64K RAM SYSTEM  38911 BASIC BYTES FREE\r";
const READY: &[u8] = b"\rREADY.\r";

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
/// after numbers (and any other) a space, letters as the C64's upper-case screen shows them,
/// graphics (shifted letters among them) in petcat's notation.
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
            // A shifted letter is a graphic on the upper-case screen: petcat's {SHIFT-x} keeps
            // it apart from the letter (which petcat's own text would write as a capital).
            0xC1..=0xDA => {
                out.push_str("{SHIFT-");
                out.push((b - 0x80) as char);
                out.push('}');
            }
            0x00..=0x1F | 0x80..=0x9F if codes == ControlCodes::Omit => {}
            _ => petcat::byte_to_text(b, out),
        }
    }
}

/// Shares the console between the interpreter (which prints) and the machine (which drains).
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<C64Console>>);

impl Console for Shared {
    fn chrout(&mut self, mem: &mut [u8], b: u8) {
        self.0.borrow_mut().chrout(mem, b);
    }
    fn column(&self, mem: &[u8]) -> u8 {
        self.0.borrow().column(mem)
    }
    fn poked(&mut self, mem: &mut [u8], addr: u16) {
        self.0.borrow_mut().poked(mem, addr);
    }
    fn input_key(&mut self, mem: &mut [u8], key: u8) -> Option<Vec<u8>> {
        self.0.borrow_mut().input_key(mem, key)
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
    /// After the program stops, show READY. and take typed lines (the terminal), instead of
    /// ending the run (headless).
    pub ready_after: bool,
    /// The characters cells show for the PETSCII graphics.
    pub glyphs: c64::Glyphs,
    /// A line number and a hint added to a ?SYNTAX ERROR there: the program's first line, when
    /// its listing would crunch keywords in the other letter convention (`--charset`).
    pub syntax_hint: Option<(u16, String)>,
}

/// What the machine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// BASIC runs a program or a direct-mode line.
    Running,
    /// The editor reads a line at READY.
    Editing,
}

/// The Commodore 64.
pub struct CbmMachine {
    interp: Interp,
    console: Shared,
    codes: ControlCodes,
    ready_after: bool,
    phase: Phase,
    done: Option<RunState>,
    /// Typed keys the keyboard interrupt has not taken into the buffer yet (one a jiffy).
    keys: VecDeque<u8>,
    jiffies: u64,
    glyphs: c64::Glyphs,
    /// RUN/STOP+RESTORE was pressed: the NMI's warm start is due.
    restore: bool,
    /// SHIFT+Commodore was pressed: the keyboard interrupt switches the character set.
    switch_set: bool,
    syntax_hint: Option<(u16, String)>,
}

impl CbmMachine {
    /// Loads `program` and gets ready to RUN it, reading INPUT and GET from `input`.
    pub fn new(program: &Program, input: InputSource, options: Options) -> Result<CbmMachine, BasicError> {
        let mut m = Self::power_on(program, input, &options)?;
        m.ready_after = options.ready_after;
        Ok(m)
    }

    /// A C64 at the power-on screen, READY. for typed lines (`retro c64`). With a stream as
    /// input, its lines are typed at READY. (and read by INPUT), and the run ends with it.
    pub fn direct(input: InputSource, options: Options) -> Result<CbmMachine, BasicError> {
        let mut m = Self::power_on(&Program::default(), input, &options)?;
        m.ready_after = true;
        m.print(BANNER);
        m.ready();
        Ok(m)
    }

    fn power_on(program: &Program, input: InputSource, options: &Options) -> Result<CbmMachine, BasicError> {
        let console = Shared::default();
        let mut interp = Interp::new(
            program,
            Box::new(console.clone()),
            input,
            options.disk.clone().map(HostDir),
        )?;
        c64::power_on(&mut interp.mem);
        if let Some(seed) = options.seed {
            interp.seed_rnd(seed);
        }
        Ok(CbmMachine {
            interp,
            console,
            codes: options.codes,
            ready_after: false,
            phase: Phase::Running,
            done: None,
            keys: VecDeque::new(),
            jiffies: 0,
            glyphs: options.glyphs,
            restore: false,
            switch_set: false,
            syntax_hint: options.syntax_hint.clone(),
        })
    }

    /// The interpreter, for tests and tools.
    pub fn interp(&mut self) -> &mut Interp {
        &mut self.interp
    }

    /// The interpreter, to look at.
    pub fn interp_ref(&self) -> &Interp {
        &self.interp
    }

    /// Whether the screen editor is in the middle of reading a typed line (a debugger's
    /// checkpoints keep it).
    pub fn console_reading(&self) -> bool {
        self.console.0.borrow().reading()
    }

    pub fn set_console_reading(&mut self, reading: bool) {
        self.console.0.borrow_mut().set_reading(reading);
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

    /// Prints on the screen and the text stream.
    fn print(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.console.chrout(&mut self.interp.mem, b);
        }
    }

    /// READY. and the editor waits for a line.
    fn ready(&mut self) {
        self.print(READY);
        self.edit();
    }

    fn edit(&mut self) {
        self.phase = Phase::Editing;
        self.interp.mem[mem::BLNSW] = 0;
    }

    /// A program or direct line stopped: the run ends (headless), or the C64 says why and
    /// shows READY.
    fn stopped(&mut self, stop: Stop) -> RunState {
        self.console.0.borrow_mut().cancel_input();
        let state = match &stop {
            Stop::End => RunState::Ended,
            Stop::Error(BasicError::Syntax, Some(n))
                if self.syntax_hint.as_ref().is_some_and(|(first, _)| first == n) =>
            {
                let hint = &self.syntax_hint.as_ref().expect("checked").1;
                RunState::Failed(format!("{} {hint}", stop.message()))
            }
            other => RunState::Failed(other.message()),
        };
        if !self.ready_after {
            if let RunState::Failed(_) = &state {
                // The screen shows the message as the C64 does; the text stream leaves it to
                // stderr (headless runs print the state there, with any hint).
                let mut e = c64::editor::Editor::new(&mut self.interp.mem);
                e.print(13);
                for &b in stop.message().as_bytes() {
                    e.print(b);
                }
                e.print(13);
            }
            self.done = Some(state.clone());
            return state;
        }
        if stop != Stop::End {
            self.print(b"\r");
            self.print(stop.message().as_bytes());
        }
        self.ready();
        RunState::WaitingForKey
    }

    /// A line the editor read at READY.
    fn typed_line(&mut self, line: &[u8]) -> RunState {
        self.interp.mem[mem::BLNSW] = 1;
        match self.interp.type_line(line) {
            Ok(Typed::Run) => {
                self.phase = Phase::Running;
                RunState::Running
            }
            Ok(Typed::Stored | Typed::Nothing) => {
                self.edit();
                RunState::WaitingForKey
            }
            Err(e) => self.stopped(Stop::Error(e, None)),
        }
    }

    /// The editor at READY.: keys typed (or, headless, the next line of the stream).
    fn run_editor(&mut self) -> RunState {
        if self.interp.reads_stream() {
            // Keys a program left in the keyboard buffer are typed first (POKE 631/198).
            while let Some(k) = self.interp.buffered_key() {
                if let Some(line) = self.console.input_key(&mut self.interp.mem, k) {
                    return self.typed_line(&line);
                }
            }
            let Some(line) = self.interp.stream_line() else {
                self.done = Some(RunState::Ended);
                return RunState::Ended;
            };
            for &b in &line {
                self.console.input_key(&mut self.interp.mem, b);
            }
            let read = self
                .console
                .input_key(&mut self.interp.mem, 13)
                .unwrap_or_default();
            return self.typed_line(&read);
        }
        while let Some(k) = self.interp.take_key() {
            if let Some(line) = self.console.input_key(&mut self.interp.mem, k) {
                return self.typed_line(&line);
            }
        }
        RunState::WaitingForKey
    }

    /// BASIC runs for one jiffy's budget.
    fn run_basic(&mut self) -> RunState {
        let mut budget = i64::from(STATEMENTS_PER_JIFFY);
        let slice = loop {
            self.interp.idle_polls = 0;
            let s = self.interp.run_slice(CHUNK);
            budget -= i64::from(CHUNK) + i64::from(self.interp.idle_polls) * POLL_COST;
            if s != Slice::Running || budget <= 0 {
                break s;
            }
        };
        match slice {
            Slice::Running => RunState::Running,
            Slice::Waiting if self.interp.input_ended() => {
                self.done = Some(RunState::Ended);
                RunState::Ended
            }
            Slice::Waiting => RunState::WaitingForKey,
            Slice::Stopped(stop) => self.stopped(stop),
        }
    }

    /// RUN/STOP+RESTORE: the NMI stops a running program where it is (CONT carries on, as
    /// after RUN/STOP), the KERNAL's IOINIT and CINT reset the VIC-II, the colours and the
    /// editor and clear the screen, and BASIC's warm start prints READY. (a headless run of a
    /// program ends there).
    fn restore(&mut self) {
        if self.phase == Phase::Running {
            self.interp.press_stop();
            let stopped = self.interp.run_slice(1);
            debug_assert!(matches!(stopped, Slice::Stopped(Stop::Break(_))));
        }
        self.console.0.borrow_mut().cancel_input();
        c64::reset_screen(&mut self.interp.mem);
        if !self.ready_after {
            self.done = Some(RunState::Ended);
            return;
        }
        self.ready();
    }

    /// The KERNAL's keyboard interrupt: one key into the buffer, the held keys into 197/653.
    fn scan_keyboard(&mut self, now: VirtualTime, held: &HeldKeys) {
        if std::mem::take(&mut self.switch_set) && self.interp.mem[mem::MODE] & 0x80 == 0 {
            // SHIFT+Commodore flips the character set, unless CHR$(8) locked it.
            self.interp.mem[mem::VIC_MEMORY] ^= 2;
        }
        if !self.keys.is_empty() && (self.interp.mem[mem::NDX] as usize) < 10 {
            let k = self.keys.pop_front().expect("not empty");
            self.interp.type_key(k);
        }
        let (code, shift) = keyboard::scan(&held.held(now));
        self.interp.mem[mem::LSTX] = code;
        self.interp.mem[mem::SHFLAG] = shift;
    }
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
            // RUN/STOP breaks a running program; at READY. it does nothing.
            if self.phase == Phase::Running {
                self.interp.press_stop();
            }
        } else if event.key == Key::PageUp {
            self.restore = true;
        } else if event.key == Key::PageDown {
            self.switch_set = true;
        } else if let Some(p) = keyboard::typed(event.key) {
            self.keys.push_back(p);
        }
    }

    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        if let Some(s) = &self.done {
            return s.clone();
        }
        self.jiffies = now.as_micros() * 60 / 1_000_000;
        self.interp.set_jiffies(self.jiffies);
        if std::mem::take(&mut self.restore) {
            self.restore();
            if let Some(s) = &self.done {
                return s.clone();
            }
        }
        self.scan_keyboard(now, held);
        let state = match self.phase {
            Phase::Editing => self.run_editor(),
            Phase::Running => self.run_basic(),
        };
        let keys_waiting = !self.keys.is_empty() || self.interp.mem[mem::NDX] != 0;
        match state {
            // Keys still to be taken, or stdin's next line to type at READY.: not idle.
            RunState::WaitingForKey
                if keys_waiting || (self.phase == Phase::Editing && self.interp.reads_stream()) =>
            {
                RunState::Running
            }
            s => s,
        }
    }

    fn frame(&self) -> Frame {
        let blink_on = (self.jiffies / BLINK_JIFFIES).is_multiple_of(2);
        c64::frame(&self.interp.mem, blink_on, self.glyphs)
    }

    fn drain_text(&mut self, out: &mut String) {
        let bytes = self.take_petscii();
        petscii_to_text(&bytes, self.codes, out);
    }
}
