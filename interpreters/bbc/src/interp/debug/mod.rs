//! The debugger's side of the interpreter: statement by statement control, and views of the
//! state a BASIC programmer reasons about (variables, the control stack, the statement pointer
//! on the token bytes, the VDU queue).
//!
//! A debugger attaches a [`Control`] to the interpreter. The statement loop then calls
//! `Interp::debug_statement` at the start of every statement (separators and line ends are not
//! statements); while the run is quiet (running, no watch, no error pending) that is an inline
//! count and a look at the breakpoint map byte for the statement's position, and only a
//! statement that may stop goes on to ask the [`Control`]. The host's ticks stay at their usual
//! statements, so virtual time runs as without the debugger. Statements that would otherwise run
//! in place (an empty `FOR ... NEXT` pass) come round the loop so that each is seen.
//!
//! The debugger itself ([`crate::debug::BbcDebugger`]) runs the interpreter on its worker thread
//! (FN calls nest on the Rust stack, so a stop inside a FN cannot return to the caller): the
//! thread serves commands while the program is stopped and runs it when a command says so.

pub(crate) mod control;
pub mod vdulog;
pub(crate) mod views;

pub use control::Control;

use super::error::BasicError;
use super::value::Val;
use super::{Frame, Interp, R, Stop};

/// Statements a FN called by a debugger's expression may run before it is stopped: a script has
/// no Escape, and the terminal waits for the answer (`print FNforever` must not hang either).
pub const EVAL_STATEMENTS: u32 = 1_000_000;

impl Interp {
    /// Attaches a debugger: from now on every statement goes through it.
    pub fn attach(&mut self, mut control: Box<Control>) {
        if self.vdu.log.is_none() {
            self.vdu.log = Some(vdulog::VduLog::default());
        }
        control.attached(self);
        self.debug = Some(control);
    }

    /// Detaches the debugger, if any; statements run at full speed again.
    pub fn detach(&mut self) -> Option<Box<Control>> {
        self.debug.take()
    }

    /// Called by the statement loop at the start of every statement (pc on its first byte, past
    /// spaces) while a debugger is attached: the quiet run's check inline, the rest out of line.
    #[inline(always)]
    pub(super) fn debug_statement(&mut self) -> R<()> {
        let rel = self.pc.wrapping_sub(self.page);
        if let Some(c) = self.debug.as_mut()
            && c.quiet_at(rel)
        {
            return Ok(());
        }
        self.debug_check()
    }

    /// Whether the statement at `p` may run without the statement loop's call to
    /// [`Interp::debug_statement`]: no debugger is attached, or it lets this statement pass
    /// quietly (and has counted it).
    #[inline(always)]
    pub(super) fn debug_passes(&mut self, p: usize) -> bool {
        let rel = p.wrapping_sub(self.page);
        self.debug.as_mut().is_none_or(|c| c.quiet_at(rel))
    }

    /// A statement where the debugger may stop: the [`Control`] decides (its evaluations go
    /// through [`Interp::in_scratch`], which keeps virtual time still).
    #[cold]
    #[inline(never)]
    fn debug_check(&mut self) -> R<()> {
        let Some(mut control) = self.debug.take() else {
            return Ok(());
        };
        let r = control.at_statement(self, self.pc);
        self.debug = Some(control);
        r
    }

    /// An error is being raised at pc (before ON ERROR takes it, or the run ends with it).
    pub(super) fn debug_error(&mut self, e: &BasicError) {
        let pc = self.pc;
        if let Some(c) = self.debug.as_mut() {
            c.error_raised(e, pc);
        }
    }

    /// Evaluates tokenized expression bytes where EVAL would, without moving the statement
    /// pointer. Errors come back in BASIC's words.
    pub(crate) fn debug_eval(&mut self, bytes: &[u8]) -> Result<Val, String> {
        self.in_scratch(bytes, Interp::expr)
    }

    /// Runs tokenized assignment bytes (`VAR=EXPR`) as a LET would, where EVAL works.
    pub(crate) fn debug_assign(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.in_scratch(bytes, Interp::assignment)
    }

    /// Where the memory `save` and `load` reach ends: HIMEM (above it are EVAL's and the prompt's
    /// scratch areas, not the program's).
    pub(crate) fn memory_end(&self) -> usize {
        self.himem
    }

    /// The debugger's `load`: bytes into memory from `at` (the caller checked they fit), as `?`
    /// writes them (a write into the program forgets what was cached about it).
    pub(crate) fn debug_poke(&mut self, at: usize, bytes: &[u8]) {
        if at + bytes.len() <= self.himem {
            self.poke(at, bytes);
        }
    }

    /// Runs `f` with the statement pointer on `bytes` in EVAL's scratch area, which must be
    /// used up exactly; then everything the pointer and nesting were comes back. FNs it calls
    /// run at most [`EVAL_STATEMENTS`] statements, without ticking the host; if one fails or is
    /// stopped, the frames it left are unwound (its LOCALs get their values back) so the
    /// program goes on as if the expression had not been evaluated.
    fn in_scratch<T>(&mut self, bytes: &[u8], f: impl FnOnce(&mut Interp) -> R<T>) -> Result<T, String> {
        if bytes.len() + 2 > 500 {
            return Err("String too long".into());
        }
        let area = self.eval_area;
        let saved: Vec<u8> = self.mem[area..area + bytes.len() + 1].to_vec();
        self.mem[area..area + bytes.len()].copy_from_slice(bytes);
        self.mem[area + bytes.len()] = 0x0D;
        let (pc, depth, fn_level, stack) = (self.pc, self.depth, self.fn_level, self.stack.len());
        // RND's register is the one state a plain expression changes (keys and files it would
        // touch are refused: see `no_side_effect`); without this `print RND` would change what
        // the program draws next, and a replay going backwards would not match the run.
        let rnd = self.rnd;
        let outer_level = std::mem::replace(&mut self.eval_level, fn_level);
        let outer_called = std::mem::replace(&mut self.eval_called_fn, false);
        let ticks = self.ticks_left;
        let outer = self
            .eval_ticks
            .replace(EVAL_STATEMENTS / super::host::TICK_STATEMENTS);
        self.ticks_left = super::host::TICK_STATEMENTS;
        self.pc = area;
        let r = f(self);
        let ok = r.is_ok() && self.skip_spaces() == 0x0D;
        let ran_out = self.eval_ticks == Some(0);
        if outer.is_none() {
            let ticks = EVAL_STATEMENTS / super::host::TICK_STATEMENTS - self.eval_ticks.unwrap_or(0);
            let partial = super::host::TICK_STATEMENTS.saturating_sub(self.ticks_left);
            self.eval_statements +=
                u64::from(ticks) * u64::from(super::host::TICK_STATEMENTS) + u64::from(partial);
        }
        self.eval_ticks = outer;
        self.ticks_left = ticks;
        // A FN's effects stand (the issue: "without side effects on the program unless it
        // calls a FN"), RND's included, as if the program had called it.
        if !self.eval_called_fn {
            self.rnd = rnd;
        }
        self.eval_level = outer_level;
        self.eval_called_fn |= outer_called;
        self.mem[area..area + saved.len()].copy_from_slice(&saved);
        if r.is_err() {
            self.unwind_to(stack);
        }
        self.pc = pc;
        self.depth = depth;
        self.fn_level = fn_level;
        match r {
            Ok(_) if !ok => Err("Syntax error".into()),
            Ok(v) => Ok(v),
            Err(s) if ran_out && matches!(*s, Stop::Abort) => Err(format!(
                "Escape: a FN ran {EVAL_STATEMENTS} statements without returning (stopped; the program is as it was)"
            )),
            Err(s) => Err(stop_words(&s)),
        }
    }

    /// Refuses what would take input the program is to read or touch a file (`what` says
    /// which) in a debugger's own expression: a key read takes the key and lets virtual time
    /// pass, and a file's channel or pointer cannot be given back. In a FN the expression calls
    /// it is done, as the FN's other effects are.
    pub(super) fn no_side_effect(&self, what: &str) -> R<()> {
        if self.eval_ticks.is_some() && self.fn_level == self.eval_level {
            return Err(BasicError::user(
                0,
                format!(
                    "{what}: a debugger expression leaves the program as it was (a FN it calls may do it)"
                ),
            )
            .into());
        }
        Ok(())
    }

    /// Statements the FNs of debugger expressions ran since the last call.
    pub(super) fn take_eval_statements(&mut self) -> u64 {
        std::mem::take(&mut self.eval_statements)
    }

    /// PROC, FN and GOSUB frames on the control stack: how deep in routines the program is.
    pub fn call_depth(&self) -> usize {
        self.stack
            .iter()
            .filter(|f| matches!(f, Frame::Gosub { .. } | Frame::Proc { .. } | Frame::Fn { .. }))
            .count()
    }

    /// The program's virtual time in centiseconds, as TIME reads it (keys typed in the
    /// terminal arrive at it).
    pub(crate) fn time_cs(&mut self) -> i64 {
        self.host.time_cs()
    }

    /// PAGE and TOP: where the program's bytes are in [`Interp::mem`].
    pub fn program_span(&self) -> (usize, usize) {
        (self.page, self.top)
    }
}

/// A stop's words: an error's message, or what ended the run.
fn stop_words(s: &Stop) -> String {
    match s {
        Stop::Error(e) => e.message.to_string(),
        Stop::End => "the expression ended the program".into(),
        Stop::Quit(_) => "the expression quit".into(),
        Stop::Abort => "stopped".into(),
        Stop::Chain(_) => "the expression chained another program".into(),
    }
}
