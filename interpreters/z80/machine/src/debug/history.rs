//! Reverse execution: checkpoints of the whole machine every [`INTERVAL`] steps, and deterministic
//! replay from the nearest one.
//!
//! Recording costs a 64 KiB copy every 8192 steps (8 bytes a step), not a record per
//! instruction: the machine is deterministic given its state and the key script's events (which
//! are a function of virtual time), so any earlier step is reached by restoring the checkpoint at
//! or before it and running forward. With [`KEEP`] checkpoints the history reaches back at least
//! `(KEEP - 1) * INTERVAL` = 1,040,384 steps (about 8 MiB).

use std::collections::VecDeque;

use crate::workbench::State;

/// Steps between checkpoints.
pub const INTERVAL: u64 = 8192;
/// Checkpoints kept.
pub const KEEP: usize = 128;

#[derive(Default)]
pub struct History {
    /// (step count, state at that count), oldest first.
    checkpoints: VecDeque<(u64, State)>,
}

impl History {
    /// Records the state at step `count`, dropping the oldest checkpoint when full and any
    /// checkpoint at or after `count` (a future that no longer happens).
    pub fn record(&mut self, count: u64, state: &State) {
        while self.checkpoints.back().is_some_and(|(c, _)| *c >= count) {
            self.checkpoints.pop_back();
        }
        if self.checkpoints.len() == KEEP {
            self.checkpoints.pop_front();
        }
        self.checkpoints.push_back((count, state.clone()));
    }

    /// Forgets checkpoints after step `count`.
    pub fn truncate_after(&mut self, count: u64) {
        while self.checkpoints.back().is_some_and(|(c, _)| *c > count) {
            self.checkpoints.pop_back();
        }
    }

    /// The latest checkpoint at or before step `count`.
    pub fn at_or_before(&self, count: u64) -> Option<&(u64, State)> {
        self.checkpoints.iter().rev().find(|(c, _)| *c <= count)
    }

    /// The oldest step the history can go back to.
    pub fn oldest(&self) -> Option<u64> {
        self.checkpoints.front().map(|c| c.0)
    }

    /// The checkpoint counts, newest first (reverse-continue searches segment by segment).
    pub fn counts_newest_first(&self) -> Vec<u64> {
        self.checkpoints.iter().rev().map(|c| c.0).collect()
    }

    pub fn clear(&mut self) {
        self.checkpoints.clear();
    }
}
