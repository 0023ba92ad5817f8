//! Checkpoints for going back: the whole state every [`super::CHECKPOINT_EVERY`] statements,
//! the newest [`super::CHECKPOINTS`] of them (the first, at RUN, is kept while it is among them).

use std::collections::VecDeque;

use super::{CHECKPOINTS, Clock};
use crate::interp::debug::Snapshot;

pub(super) struct History {
    points: VecDeque<(Clock, Snapshot, bool)>,
}

impl History {
    pub(super) fn new() -> History {
        History {
            points: VecDeque::new(),
        }
    }

    /// Keeps the state at `clock.count` (replacing one kept at the same count).
    pub(super) fn push(&mut self, clock: Clock, snap: Snapshot, reading: bool) {
        self.forget_after(clock.count);
        if self.points.back().is_some_and(|p| p.0.count == clock.count) {
            self.points.pop_back();
        }
        self.points.push_back((clock, snap, reading));
        while self.points.len() > CHECKPOINTS {
            self.points.pop_front();
        }
    }

    /// The oldest checkpoint's snapshot to fill again, when there are as many as are kept.
    pub(super) fn recycle(&mut self) -> Option<Snapshot> {
        (self.points.len() >= CHECKPOINTS).then(|| self.points.pop_front().map(|p| p.1))?
    }

    /// The newest checkpoint at or before statement `to`, or the oldest there is.
    pub(super) fn at_or_before(&self, to: u64) -> Option<(Clock, Snapshot, bool)> {
        self.points
            .iter()
            .rev()
            .find(|p| p.0.count <= to)
            .or(self.points.front())
            .cloned()
    }

    /// Drops checkpoints after statement `count` (the future changed: a `set`, or going back).
    pub(super) fn forget_after(&mut self, count: u64) {
        while self.points.back().is_some_and(|p| p.0.count > count) {
            self.points.pop_back();
        }
    }

    /// The statement count of the oldest checkpoint.
    pub(super) fn oldest(&self) -> Option<u64> {
        self.points.front().map(|p| p.0.count)
    }
}
