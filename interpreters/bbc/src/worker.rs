//! The interpreter's own thread, for the machine ([`crate::machine`]) and the debugger
//! ([`crate::debug`]) alike. A PROC or FN call nests on the Rust stack, so BASIC runs on a
//! thread with a big stack (and a nesting limit well inside it); a stop inside a FN cannot
//! return to the caller, so the thread keeps the interpreter and the caller sends it work over
//! a channel. Dropping the [`Worker`] closes the channel, which ends whatever the thread waits
//! for, and joins it.

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

use crate::interp::host::Host;
use crate::interp::{Interp, LoadError};
use crate::vdu::Vdu;

/// Stack for the interpreter thread; deep FN recursion stops with an error long before it.
const STACK: usize = 256 << 20;
/// Nesting limit that fits the worker's stack with a wide margin.
const MAX_DEPTH: u32 = 20_000;

/// The VDU a worker's interpreter draws with: the graphics screen, in MODE 7 until the program
/// picks another.
pub(crate) fn screen() -> Vdu {
    Vdu::new(Box::new(crate::vdu::GraphicsScreen::new(7)))
}

/// An interpreter as a worker runs it: drawing on [`screen`] (the one `Interp::new` starts with:
/// building a second one cost a 100 KB allocation and its page faults at every start), nesting
/// bounded to fit the worker's stack, its files in `dir` and below, RND seeded with `seed`.
pub(crate) fn interp(
    program: &[u8],
    host: Box<dyn Host>,
    seed: Option<i64>,
    dir: Option<PathBuf>,
) -> Result<Interp, LoadError> {
    let mut it = Interp::new(program, host)?;
    it.max_depth = MAX_DEPTH;
    it.set_file_root(dir);
    if let Some(s) = seed {
        it.seed(s);
    }
    Ok(it)
}

/// Runs `f` on the calling thread, on a stack as big as a worker's (mapped as it is used, so it
/// costs nothing until the program nests): the interpreter's nesting limit holds there as on a
/// worker. A headless run has no one to hand frames to, so it needs no thread of its own.
pub(crate) fn on_big_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::grow(STACK, f)
}

/// A thread running an interpreter, and the channel that gives it work (`M`).
pub(crate) struct Worker<M> {
    to: Option<Sender<M>>,
    thread: Option<JoinHandle<()>>,
}

impl<M> Worker<M> {
    /// Runs `body` on a thread named `name` with the interpreter's stack; `to` is the sending end
    /// of the channel whose receiving end `body` holds.
    pub(crate) fn spawn(
        name: &str,
        to: Sender<M>,
        body: impl FnOnce() + Send + 'static,
    ) -> Result<Worker<M>, LoadError> {
        let thread = std::thread::Builder::new()
            .name(name.into())
            .stack_size(STACK)
            .spawn(body)
            .map_err(|_| LoadError::TooBig)?;
        Ok(Worker {
            to: Some(to),
            thread: Some(thread),
        })
    }

    /// Gives the thread `work`: false when it has gone.
    pub(crate) fn send(&self, work: M) -> bool {
        self.to.as_ref().is_some_and(|tx| tx.send(work).is_ok())
    }
}

impl<M> Drop for Worker<M> {
    fn drop(&mut self) {
        // Closing the channel makes the thread stop wherever it waits.
        self.to = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
