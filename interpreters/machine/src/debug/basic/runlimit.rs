//! How a [`RunLimit`] bounds a BASIC debugger's run: a batch run takes at most N statements; the
//! terminal runs every command that runs the program a frame of virtual time at a time, and a
//! command that reaches the frame's end is under way, to go on at the next frame.

use crate::debug::{RunLimit, StopReason};

/// The statements a run may take, and whether it also stops at the end of the frame.
pub fn budget(limit: RunLimit) -> (u64, bool) {
    match limit {
        RunLimit::Steps(n) => (n, false),
        RunLimit::Frame(n) => (n, true),
    }
}

/// Whether a command that stopped with `stop` under `limit` goes on at the next frame.
pub fn goes_on(stop: &StopReason, limit: RunLimit) -> bool {
    *stop == StopReason::Limit && matches!(limit, RunLimit::Frame(_))
}
