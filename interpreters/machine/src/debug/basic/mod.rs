//! The BASIC debugging kit: what a statement-level BASIC debugger keeps whatever its dialect.
//! The BBC and C64 debuggers are dialect layers over it; a new dialect implements
//! [`location::Locate`] and [`crate::basic_machine::BasicMachine`] and keeps its points in a
//! [`points::Points`].
//!
//! - [`points`]: statement breakpoints (conditions, hit counts, `tbreak`, `until`'s own) and
//!   watches, numbered as `delete`/`enable` name them, listed as `info breakpoints` shows them.
//! - [`location`]: `LINE`, `LINE:STATEMENT` and a dialect's named places (PROCname) to a
//!   statement's position.
//! - [`changes`]: the user's assignments (`set`) as events of the run, made again when going
//!   back replays the statement they were made before.
//! - [`history`]: a ring of checkpoints by statement count, for going back.
//! - [`runlimit`]: how a [`super::RunLimit`] bounds a run and when a command goes on at the
//!   next frame.
//! - [`panels`]: what the dialects' panels share (changed variables, bytes in hex).
//!
//! With the `conformance` feature, `conformance` holds the scenarios every dialect's debugger
//! passes (its tests run them on its own debugger).

pub mod changes;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod history;
pub mod location;
pub mod panels;
pub mod points;
pub mod runlimit;

#[cfg(test)]
mod tests;
