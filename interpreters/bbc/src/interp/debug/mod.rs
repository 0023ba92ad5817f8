//! The debugger's side of the interpreter: statement by statement control, and views of the
//! state a BASIC programmer reasons about (variables, the control stack, the statement pointer
//! on the token bytes, the VDU queue).
//!
//! A debugger attaches a [`Control`] to the interpreter. The hot loop pays nothing for this when
//! no debugger is attached: it already counts statements down to the host's next tick, and with
//! a debugger attached that count is kept at one, so every statement passes through the cold
//! `trace_tick` (which keeps the host's ticks at their usual statements, so virtual time runs as
//! without the debugger) and `Interp::debug_statement`, which asks the [`Control`] whether to stop.
//!
//! [`session::BbcDebugger`] runs the interpreter on its own thread (FN calls nest on the Rust
//! stack, so a stop inside a FN cannot return to the caller): the thread serves commands while
//! the program is stopped and runs it when a command says so.

mod commands;
mod control;
pub mod session;
pub mod vdulog;
mod views;

#[cfg(test)]
mod tests;

pub use control::Control;
pub use session::{BbcDebugger, DebugOptions};

use super::error::BasicError;
use super::value::Val;
use super::{Frame, Interp, R, Stop, host};

/// Statements a FN called by a debugger expression may run before its host's tick comes due
/// (the hook's own evaluations must not move the program's virtual time).
const EVAL_TICKS: u32 = 1 << 30;

impl Interp {
    /// Attaches a debugger: from now on every statement goes through it.
    pub fn attach(&mut self, mut control: Box<Control>) {
        // The host's ticks stay at their usual statements (so virtual time runs as without the
        // debugger): `trace_tick` counts them.
        if self.trace.is_none() {
            self.trace_count = host::TICK_STATEMENTS - self.ticks_left.clamp(1, host::TICK_STATEMENTS);
        }
        self.ticks_left = 1;
        if self.vdu.log.is_none() {
            self.vdu.log = Some(vdulog::VduLog::default());
        }
        control.attached(self);
        self.debug = Some(control);
    }

    /// Detaches the debugger, if any; statements run at full speed again.
    pub fn detach(&mut self) -> Option<Box<Control>> {
        let c = self.debug.take()?;
        if self.trace.is_none() {
            self.ticks_left = (host::TICK_STATEMENTS - self.trace_count).max(1);
        }
        Some(c)
    }

    /// Called by `trace_tick` at every statement while a debugger is attached.
    #[cold]
    #[inline(never)]
    pub(super) fn debug_statement(&mut self) -> R<()> {
        // Separators and line ends pass through the statement loop too; they are not statements.
        let mut p = self.pc;
        while self.at(p) == b' ' {
            p += 1;
        }
        if matches!(self.at(p), b':' | 0x0D) {
            return Ok(());
        }
        let rel = p.wrapping_sub(self.page);
        if let Some(c) = self.debug.as_mut()
            && c.quiet_at(rel)
        {
            return Ok(());
        }
        let Some(mut control) = self.debug.take() else {
            return Ok(());
        };
        self.ticks_left = EVAL_TICKS;
        let r = control.at_statement(self, p);
        self.ticks_left = 1;
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
    pub(super) fn debug_eval(&mut self, bytes: &[u8]) -> Result<Val, String> {
        self.in_scratch(bytes, Interp::expr)
    }

    /// Runs tokenized assignment bytes (`VAR=EXPR`) as a LET would, where EVAL works.
    pub(super) fn debug_assign(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.in_scratch(bytes, Interp::assignment)
    }

    /// Runs `f` with the statement pointer on `bytes` in EVAL's scratch area, which must be
    /// used up exactly; then everything the pointer and nesting were comes back.
    fn in_scratch<T>(&mut self, bytes: &[u8], f: impl FnOnce(&mut Interp) -> R<T>) -> Result<T, String> {
        if bytes.len() + 2 > 500 {
            return Err("String too long".into());
        }
        let area = self.eval_area;
        let saved: Vec<u8> = self.mem[area..area + bytes.len() + 1].to_vec();
        self.mem[area..area + bytes.len()].copy_from_slice(bytes);
        self.mem[area + bytes.len()] = 0x0D;
        let (pc, depth) = (self.pc, self.depth);
        self.pc = area;
        let r = f(self);
        let ok = r.is_ok() && self.skip_spaces() == 0x0D;
        self.mem[area..area + saved.len()].copy_from_slice(&saved);
        self.pc = pc;
        self.depth = depth;
        match r {
            Ok(_) if !ok => Err("Syntax error".into()),
            Ok(v) => Ok(v),
            Err(s) => Err(stop_words(&s)),
        }
    }

    /// PROC, FN and GOSUB frames on the control stack: how deep in routines the program is.
    pub fn call_depth(&self) -> usize {
        self.stack
            .iter()
            .filter(|f| matches!(f, Frame::Gosub { .. } | Frame::Proc { .. } | Frame::Fn { .. }))
            .count()
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
