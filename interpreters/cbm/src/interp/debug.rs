//! What a debugger needs of the interpreter ([`crate::debug`]): where the next statement is, a
//! read-only view of the FOR/GOSUB stack, a copy of the whole state to go back to (reverse
//! execution, and expressions evaluated with no side effect), and direct-mode style evaluation
//! of an expression or an assignment in the program's context.
//!
//! Nothing here runs unless a debugger calls it: the run loop is untouched.

use super::error::BasicError;
use super::expr::Value;
use super::{BUF, Interp, Outcome, Slice, StackEntry, zp};
use crate::float::{Fac, Packed};
use crate::tokenize::crunch;

/// Everything a program's run can change, to go back to: memory, TXTPTR and CURLIN, the stack,
/// the temporaries, CONT's place, RND's seed, the clock. Open files are not in it: a debugger
/// that goes back over file I/O does not undo it.
#[derive(Clone)]
pub struct Snapshot {
    mem: Box<[u8]>,
    pos: usize,
    line: Option<u16>,
    stack: Vec<StackEntry>,
    stack_bytes: usize,
    temps: Vec<(u8, u16)>,
    cont: Option<(usize, Option<u16>)>,
    seed: Packed,
    jiffies: u64,
    channel: u8,
    stop_key: bool,
    ticks: u64,
    input_done: bool,
    stmt_start: usize,
    pending_stop: Option<bool>,
    input_prompted: bool,
    input_more: Option<usize>,
    again: bool,
    jiffy_tick: u64,
}

impl Snapshot {
    /// The 64 KiB (and the guard bytes past it) as they were.
    pub fn mem(&self) -> &[u8] {
        &self.mem
    }
}

/// Where the next statement starts, as NEWSTT would find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextStatement {
    /// Its line (None in direct mode).
    pub line: Option<u16>,
    /// The address of its first byte (after the `:` or the line's header).
    pub addr: usize,
}

impl Interp {
    /// TXTPTR as this interpreter keeps it: the address of the next byte to read (the ROM's
    /// TXTPTR at $7A is one less: CHRGET moves it before reading).
    pub fn txtptr(&self) -> usize {
        self.pos
    }

    /// CURLIN: the line running (None in direct mode).
    pub fn current_line(&self) -> Option<u16> {
        self.line
    }

    /// The statement NEWSTT runs next, or None where the program ends (the end of its last
    /// line, or a byte that is neither `:` nor the end of a line: ?SYNTAX ERROR).
    pub fn next_statement(&self) -> Option<NextStatement> {
        if self.again {
            return Some(NextStatement {
                line: self.line,
                addr: self.stmt_start,
            });
        }
        match self.mem[self.pos] {
            0 if self.line.is_some() && self.mem[self.pos + 2] != 0 => Some(NextStatement {
                line: Some(self.word(self.pos + 3)),
                addr: self.pos + 5,
            }),
            b':' => Some(NextStatement {
                line: self.line,
                addr: self.pos + 1,
            }),
            _ => None,
        }
    }

    /// Runs up to `max` statements, stopping before one that starts at an address of `stops`
    /// (never before the first) and after one where GET found no key. Returns how it ended and
    /// how many statements finished (one that stopped with an error or END counts; a wait for
    /// input does not).
    pub fn run_watched(&mut self, max: u32, stops: &[usize]) -> (Slice, u32) {
        let mut done = 0;
        while done < max {
            // The next statement starts 1 byte on (after `:`) or 5 (after a line's end and the
            // next line's link and number): only then is the whole look needed.
            let pos = self.pos;
            if done > 0
                && stops.iter().any(|&a| a == pos + 1 || a == pos + 5 || self.again)
                && let Some(next) = self.next_statement()
                && stops.contains(&next.addr)
            {
                break;
            }
            let polls = self.idle_polls;
            // run_slice(1), without its loop.
            match self.step() {
                Ok(Outcome::Next) => done += 1,
                Ok(Outcome::Blocked) => {
                    self.pos = self.stmt_start;
                    self.again = true;
                    return (Slice::Waiting, done);
                }
                Err(stop) => return (Slice::Stopped(stop), done + 1),
            }
            if self.idle_polls != polls {
                break;
            }
        }
        (Slice::Running, done)
    }

    /// Where the statement running (or the last one run) began.
    pub fn statement_start(&self) -> usize {
        self.stmt_start
    }

    /// The FOR and GOSUB stack, oldest first (the interpreter's own entries, read-only), and
    /// the bytes it takes on the 6502 stack.
    pub fn stack_entries(&self) -> (&[StackEntry], usize) {
        (&self.stack, self.stack_bytes)
    }

    /// How many GOSUBs are waiting for their RETURN.
    pub fn gosub_depth(&self) -> usize {
        self.stack
            .iter()
            .filter(|f| matches!(f, StackEntry::Gosub { .. }))
            .count()
    }

    /// A copy of everything the run can change.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            mem: self.mem.clone(),
            pos: self.pos,
            line: self.line,
            stack: self.stack.clone(),
            stack_bytes: self.stack_bytes,
            temps: self.temps.clone(),
            cont: self.cont,
            seed: self.seed,
            jiffies: self.jiffies,
            channel: self.channel,
            stop_key: self.stop_key,
            ticks: self.ticks,
            input_done: self.input_done,
            stmt_start: self.stmt_start,
            pending_stop: self.pending_stop,
            input_prompted: self.input_prompted,
            input_more: self.input_more,
            again: self.again,
            jiffy_tick: self.jiffy_tick,
        }
    }

    /// [`Interp::snapshot`] into an old one, reusing its memory.
    pub fn snapshot_into(&self, s: &mut Snapshot) {
        s.mem.copy_from_slice(&self.mem);
        s.stack.clone_from(&self.stack);
        s.temps.clone_from(&self.temps);
        s.pos = self.pos;
        s.line = self.line;
        s.stack_bytes = self.stack_bytes;
        s.cont = self.cont;
        s.seed = self.seed;
        s.jiffies = self.jiffies;
        s.channel = self.channel;
        s.stop_key = self.stop_key;
        s.ticks = self.ticks;
        s.input_done = self.input_done;
        s.stmt_start = self.stmt_start;
        s.pending_stop = self.pending_stop;
        s.input_prompted = self.input_prompted;
        s.input_more = self.input_more;
        s.again = self.again;
        s.jiffy_tick = self.jiffy_tick;
    }

    /// Goes back to a snapshot (the text cache is dropped: the program may have changed).
    pub fn restore(&mut self, s: &Snapshot) {
        self.mem.copy_from_slice(&s.mem);
        self.pos = s.pos;
        self.line = s.line;
        self.stack.clone_from(&s.stack);
        self.stack_bytes = s.stack_bytes;
        self.temps.clone_from(&s.temps);
        self.cont = s.cont;
        self.seed = s.seed;
        self.jiffies = s.jiffies;
        self.channel = s.channel;
        self.stop_key = s.stop_key;
        self.ticks = s.ticks;
        self.input_done = s.input_done;
        self.stmt_start = s.stmt_start;
        self.pending_stop = s.pending_stop;
        self.input_prompted = s.input_prompted;
        self.input_more = s.input_more;
        self.again = s.again;
        self.jiffy_tick = s.jiffy_tick;
        self.depth = 0;
        self.machine_call = None;
        self.name_at = None;
        self.memory_changed();
    }

    /// Evaluates an expression (typed text, crunched as direct mode crunches it) where the
    /// program is, and puts everything back: no side effect, whatever it calls (RND, FRE...).
    /// Errors are the ROM's words (`?SYNTAX  ERROR`).
    pub fn debug_eval(&mut self, text: &str) -> Result<DebugValue, String> {
        let saved = self.snapshot();
        let r = self.in_buffer(text, |it| {
            let v = it.expr()?;
            Ok(match v {
                Value::Num(f) => DebugValue::Num(f),
                Value::Str(s) => DebugValue::Str(it.str_bytes(s).to_vec()),
            })
        });
        self.restore(&saved);
        r
    }

    /// Runs `VAR=EXPR` as LET would, where the program is; only the assignment stays (TXTPTR,
    /// CURLIN and the statement's place come back). On an error nothing changes.
    pub fn debug_assign(&mut self, text: &str) -> Result<(), String> {
        let saved = self.snapshot();
        let r = self.in_buffer(text, |it| {
            // Only an assignment: a variable's first letter, or LET.
            let c = it.getc();
            if !c.is_ascii_uppercase() && c != crate::tokens::LET {
                return Err(BasicError::Syntax);
            }
            match super::stmt::dispatch(it, c)? {
                Outcome::Next => Ok(()),
                Outcome::Blocked => Err(BasicError::Syntax),
            }
        });
        match r {
            Ok(()) => {
                let kept = self.snapshot();
                self.restore(&saved);
                // The assignment's memory (the variable, a new string), nothing else.
                self.mem.copy_from_slice(&kept.mem);
                self.mem[BUF..BUF + 89].copy_from_slice(&saved.mem[BUF..BUF + 89]);
                self.memory_changed();
                Ok(())
            }
            Err(e) => {
                self.restore(&saved);
                Err(e)
            }
        }
    }

    /// Crunches `text` into the input buffer and runs `f` with TXTPTR on it; the text must be
    /// used up.
    fn in_buffer<T>(
        &mut self,
        text: &str,
        f: impl FnOnce(&mut Interp) -> super::error::Result<T>,
    ) -> Result<T, String> {
        let petscii: Vec<u8> = text.bytes().map(super::ascii_to_petscii).collect();
        let body = crunch(&petscii);
        if body.len() > 88 {
            return Err(stop_words(BasicError::StringTooLong));
        }
        self.mem[BUF..BUF + body.len()].copy_from_slice(&body);
        self.mem[BUF + body.len()] = 0;
        self.pos = BUF;
        self.depth = 0;
        self.temps.clear();
        let r = f(self);
        match r {
            Ok(v) if self.peekc() == 0 => Ok(v),
            Ok(_) => Err(stop_words(BasicError::Syntax)),
            Err(e) => Err(stop_words(e)),
        }
    }

    /// VARTAB, ARYTAB and STREND: where the simple variables and the arrays are.
    pub fn variable_span(&self) -> (usize, usize, usize) {
        (
            self.word(zp::VARTAB) as usize,
            self.word(zp::ARYTAB) as usize,
            self.word(zp::STREND) as usize,
        )
    }
}

/// A value a debugger expression gave.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugValue {
    Num(Fac),
    /// The string's PETSCII bytes.
    Str(Vec<u8>),
}

fn stop_words(e: BasicError) -> String {
    format!("?{}  ERROR", e.name())
}
