//! The interpreter's connection to the world outside: keys, lines of input, time and escape.
//!
//! The interpreter calls its [`Host`] synchronously: every few thousand statements (so a host can
//! end a frame, deliver Escape or stop a runaway program) and whenever BASIC waits for input or
//! time. A host may block in these calls: the machine runs the interpreter on its own thread and
//! blocks there between frames; [`ScriptHost`] answers at once from a buffer.

use std::collections::VecDeque;

use retro_machine::machine::RunState;

use crate::vdu::Vdu;

/// What a host tells the interpreter at a check point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Continue,
    /// The Escape key: raise the Escape error.
    Escape,
    /// Stop running at once (budget spent, machine dropped, input exhausted).
    Abort,
}

/// The answer to a key read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRead {
    Key(u8),
    Timeout,
    Signal(Signal),
}

/// The answer to a line read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineRead {
    Line(Vec<u8>),
    Signal(Signal),
}

/// How many statements run between [`Host::tick`] calls.
pub const TICK_STATEMENTS: u32 = 1000;

/// Graphics pixels that cost one host tick ([`TICK_STATEMENTS`] statements, a
/// millisecond) of virtual time: 16 pixels a microsecond, so a full-screen MODE 1 rectangle takes
/// 5 ms, about what RISC OS on an ARM2 Archimedes takes to fill its 20 KB of screen. Drawing is
/// charged to the clock so that a program drawing without pause runs at about the real machine's
/// pace, hands over its frames in time (the terminal stays responsive) and `--time` bounds it.
pub const PIXELS_PER_TICK: u64 = 16 * TICK_STATEMENTS as u64;

pub trait Host: Send {
    /// Called every [`TICK_STATEMENTS`] statements with the screen, which a host may show.
    fn tick(&mut self, vdu: &mut Vdu) -> Signal;
    /// Whether the host charges graphics to its clock (see [`PIXELS_PER_TICK`]):
    /// then a big drawing brings its next tick forward. Hosts that count statements (the
    /// debugger's statement counts) say no.
    fn charges_drawing(&self) -> bool {
        false
    }
    /// Virtual centiseconds since the program started (TIME before any `TIME=`).
    fn time_cs(&mut self) -> i64;
    /// A key press: at once if one is waiting, otherwise wait up to `timeout_cs` centiseconds
    /// (`None`: wait for ever, as GET does).
    fn read_key(&mut self, vdu: &mut Vdu, timeout_cs: Option<u32>) -> KeyRead;
    /// A line of input for INPUT, without its line end. The host echoes it if the machine would.
    fn read_line(&mut self, vdu: &mut Vdu) -> LineRead;
    /// INKEY(-n): whether the key with internal key number `n - 1` is held now.
    fn key_down(&mut self, _internal: u8) -> bool {
        false
    }
    /// WAIT / WAIT n: let `cs` centiseconds pass (0: until the next frame).
    fn wait(&mut self, vdu: &mut Vdu, cs: u32) -> Signal;
    /// The run is over (`state`: ended, or failed with the message already on the screen):
    /// a host that hands frames to a front end shows the last one and says how it ended.
    /// Nothing is called after it.
    fn finish(&mut self, _vdu: &mut Vdu, _state: RunState) {}
}

/// A host for embedding, tests and benchmarks: input comes from a byte buffer (keys and lines
/// alike), time advances one centisecond per [`ScriptHost::statements_per_cs`] statements plus
/// whatever waits consume, and an optional statement budget stops runaway programs.
pub struct ScriptHost {
    pub input: VecDeque<u8>,
    /// Statements per virtual centisecond.
    pub statements_per_cs: u64,
    /// Stop after this many statements (checked at each tick).
    pub budget: Option<u64>,
    /// Echo INPUT lines to the screen, as a terminal would.
    pub echo: bool,
    statements: u64,
    waited_cs: i64,
}

impl ScriptHost {
    pub fn new(input: &[u8]) -> Self {
        ScriptHost {
            input: input.iter().copied().collect(),
            statements_per_cs: 10_000,
            budget: None,
            echo: true,
            statements: 0,
            waited_cs: 0,
        }
    }
    pub fn with_budget(mut self, statements: u64) -> Self {
        self.budget = Some(statements);
        self
    }
}

impl Host for ScriptHost {
    fn tick(&mut self, _vdu: &mut Vdu) -> Signal {
        self.statements += TICK_STATEMENTS as u64;
        match self.budget {
            Some(b) if self.statements >= b => Signal::Abort,
            _ => Signal::Continue,
        }
    }
    fn time_cs(&mut self) -> i64 {
        (self.statements / self.statements_per_cs.max(1)) as i64 + self.waited_cs
    }
    fn read_key(&mut self, _vdu: &mut Vdu, timeout_cs: Option<u32>) -> KeyRead {
        match self.input.pop_front() {
            Some(b) => KeyRead::Key(if b == b'\n' { 13 } else { b }),
            None => match timeout_cs {
                Some(t) => {
                    self.waited_cs += t as i64;
                    KeyRead::Timeout
                }
                None => KeyRead::Signal(Signal::Abort),
            },
        }
    }
    fn read_line(&mut self, vdu: &mut Vdu) -> LineRead {
        if self.input.is_empty() {
            return LineRead::Signal(Signal::Abort);
        }
        let mut line = Vec::new();
        while let Some(b) = self.input.pop_front() {
            if b == b'\n' {
                break;
            }
            if b != b'\r' {
                line.push(b);
            }
        }
        if self.echo {
            vdu.write_all(&line);
            vdu.write_all(b"\r\n");
        }
        LineRead::Line(line)
    }
    fn wait(&mut self, _vdu: &mut Vdu, cs: u32) -> Signal {
        self.waited_cs += cs.max(2) as i64;
        Signal::Continue
    }
}

impl super::Interp {
    /// Lets a machine host block for its first frame before the program starts.
    pub(crate) fn host_first_frame(&mut self) -> bool {
        let vdu = &mut self.vdu;
        self.host.tick(vdu) != Signal::Abort
    }

    /// Lets a machine host report the end of the run.
    pub(crate) fn host_finish(&mut self, state: RunState) {
        let vdu = &mut self.vdu;
        self.host.finish(vdu, state);
    }
}
