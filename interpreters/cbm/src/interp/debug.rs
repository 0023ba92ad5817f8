//! What a debugger needs of the interpreter ([`crate::debug`]): where the next statement is, a
//! read-only view of the FOR/GOSUB stack, a copy of the whole state to go back to (reverse
//! execution, and expressions evaluated with no side effect), and direct-mode style evaluation
//! of an expression or an assignment in the program's context.
//!
//! Nothing here runs unless a debugger calls it: the run loop is untouched.

use super::error::BasicError;
use super::expr::Value;
use super::{BUF, Console, Interp, Outcome, Slice, StackEntry, State, zp};
use crate::float::Fac;
use crate::tokenize::crunch;

/// Everything a program's run can change, to go back to: memory and the interpreter's
/// `State` (TXTPTR and CURLIN, the stack, the temporaries, CONT's place, RND's seed, the
/// clock...). Open files are not in it: a debugger that goes back over file I/O does not undo it.
#[derive(Clone)]
pub struct Snapshot {
    mem: Box<[u8]>,
    state: State,
}

/// A console that shows nothing, for evaluating on a copy of the interpreter.
pub struct Quiet;

impl Console for Quiet {
    fn chrout(&mut self, _mem: &mut [u8], _byte: u8) {}
    fn column(&self, mem: &[u8]) -> u8 {
        mem[zp::PNTR]
    }
    fn input_key(&mut self, _mem: &mut [u8], _key: u8) -> Option<Vec<u8>> {
        None
    }
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
    /// It is the first of its line, reached from the line before or by a jump to the line
    /// (not a statement run again, as an INPUT waiting for its line).
    pub starts_line: bool,
}

impl Interp {
    /// TXTPTR as this interpreter keeps it: the address of the next byte to read (the ROM's
    /// TXTPTR at $7A is one less: CHRGET moves it before reading).
    pub fn txtptr(&self) -> usize {
        self.state.pos
    }

    /// CURLIN: the line running (None in direct mode).
    pub fn current_line(&self) -> Option<u16> {
        self.state.line
    }

    /// The statement NEWSTT runs next, or None where the program ends (the end of its last
    /// line, or a byte that is neither `:` nor the end of a line: ?SYNTAX ERROR).
    pub fn next_statement(&self) -> Option<NextStatement> {
        if self.state.again {
            return Some(NextStatement {
                line: self.state.line,
                addr: self.state.stmt_start,
                starts_line: false,
            });
        }
        match self.mem[self.state.pos] {
            0 if self.state.line.is_some() && self.mem[self.state.pos + 2] != 0 => Some(NextStatement {
                line: Some(self.word(self.state.pos + 3)),
                addr: self.state.pos + 5,
                starts_line: true,
            }),
            b':' => Some(NextStatement {
                line: self.state.line,
                addr: self.state.pos + 1,
                starts_line: false,
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
            let pos = self.state.pos;
            if done > 0
                && stops
                    .iter()
                    .any(|&a| a == pos + 1 || a == pos + 5 || self.state.again)
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
                    self.state.pos = self.state.stmt_start;
                    self.state.again = true;
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
        self.state.stmt_start
    }

    /// The FOR and GOSUB stack, oldest first (the interpreter's own entries, read-only), and
    /// the bytes it takes on the 6502 stack.
    pub fn stack_entries(&self) -> (&[StackEntry], usize) {
        (&self.state.stack, self.state.stack_bytes)
    }

    /// How many GOSUBs are waiting for their RETURN.
    pub fn gosub_depth(&self) -> usize {
        self.state
            .stack
            .iter()
            .filter(|f| matches!(f, StackEntry::Gosub { .. }))
            .count()
    }

    /// A copy of everything the run can change.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            mem: self.mem.clone(),
            state: self.state.clone(),
        }
    }

    /// [`Interp::snapshot`] into an old one, reusing its memory.
    pub fn snapshot_into(&self, s: &mut Snapshot) {
        s.mem.copy_from_slice(&self.mem);
        s.state.clone_from(&self.state);
    }

    /// Goes back to a snapshot (the text cache is dropped: the program may have changed; what
    /// lives only inside a statement is cleared).
    pub fn restore(&mut self, s: &Snapshot) {
        self.mem.copy_from_slice(&s.mem);
        self.state.clone_from(&s.state);
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
        self.state.pos = BUF;
        self.depth = 0;
        self.state.temps.clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::InputSource;
    use crate::program::Program;

    /// Memory and the whole [`State`] as text. Every field of [`Interp`] is named here: one
    /// added outside `State` does not compile until it is placed (in `State`, restored with the
    /// rest, or here as outside the run).
    fn everything(it: &Interp) -> String {
        let Interp {
            mem,
            state,
            depth: _,
            console: _,
            input: _,
            idle_polls: _,
            files: _,
            machine_call: _,
            cache: _,
            name_at: _,
            // Only within a slice (0 between them).
            spare: _,
        } = it;
        format!("{mem:?}\n{state:?}")
    }

    #[test]
    fn restore_gives_back_everything_the_run_changed() {
        // FOR and GOSUB frames, string temporaries, RND's seed, the clock and GET's polls all
        // move while it runs.
        let p = Program::from_text(
            "10 dim a(3):s=0\n20 for i=1 to 3:a(i)=rnd(1):gosub 100:next\n\
             30 x$=str$(s)+\"!\":get k$:s=s+1:if s<50 then 20\n40 end\n100 s=s+a(i):return\n",
        )
        .unwrap();
        let mut it = Interp::new(&p, Box::new(Quiet), InputSource::Keys, None).unwrap();
        it.run_slice(137);
        let snap = it.snapshot();
        let then = everything(&it);
        it.set_jiffies(99);
        it.run_slice(1_000);
        assert_ne!(everything(&it), then, "the run moved on");
        it.restore(&snap);
        assert_eq!(everything(&it), then);
    }
}
