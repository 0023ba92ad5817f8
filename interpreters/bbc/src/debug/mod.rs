//! `retro debug prog.bas` on a BBC BASIC program: [`BbcDebugger`], offered to the front end as
//! a [`retro_machine::debug::Debuggable`] machine with the Z80 debugger's command language in
//! BASIC's words (docs/debugging-basic.md). It is a dialect layer over the BASIC debugging kit
//! ([`retro_machine::debug::basic`]).
//!
//! The interpreter's side (the statement gate [`crate::interp::debug::Control`] and the views of
//! its state) lives with the interpreter; here are the session on the worker thread
//! ([`session`]) and the debugger's own commands and panels.

mod commands;
pub mod session;

#[cfg(test)]
mod tests;

pub use session::{BbcDebugger, DebugOptions};
