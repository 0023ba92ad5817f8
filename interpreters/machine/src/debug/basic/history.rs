//! Checkpoints for going back: the newest `capacity` of them, by statement count (the first,
//! at RUN, is kept while it is among them). A checkpoint is the dialect's: whatever it needs to
//! be where the program was (the interpreter's state, the machine's clock).

use std::collections::VecDeque;

/// A checkpoint knows the statement count it was taken at.
pub trait Checkpoint: Clone {
    fn count(&self) -> u64;
}

#[derive(Clone, Debug)]
pub struct History<P> {
    points: VecDeque<P>,
    capacity: usize,
}

impl<P: Checkpoint> History<P> {
    pub fn new(capacity: usize) -> History<P> {
        History {
            points: VecDeque::new(),
            capacity,
        }
    }

    /// Keeps `point` (replacing one kept at the same count; the future after it is forgotten).
    pub fn push(&mut self, point: P) {
        let count = point.count();
        self.forget_after(count);
        if self.points.back().is_some_and(|p| p.count() == count) {
            self.points.pop_back();
        }
        self.points.push_back(point);
        while self.points.len() > self.capacity {
            self.points.pop_front();
        }
    }

    /// The oldest checkpoint, to fill again, when there are as many as are kept (a checkpoint's
    /// buffers are large: taking them back saves an allocation each).
    pub fn recycle(&mut self) -> Option<P> {
        if self.points.len() >= self.capacity {
            self.points.pop_front()
        } else {
            None
        }
    }

    /// The newest checkpoint at or before statement `to`, or the oldest there is.
    pub fn at_or_before(&self, to: u64) -> Option<&P> {
        self.points
            .iter()
            .rev()
            .find(|p| p.count() <= to)
            .or(self.points.front())
    }

    /// Drops checkpoints after statement `count` (the future changed: a `set`, or going back).
    pub fn forget_after(&mut self, count: u64) {
        while self.points.back().is_some_and(|p| p.count() > count) {
            self.points.pop_back();
        }
    }

    /// The statement count of the oldest checkpoint.
    pub fn oldest(&self) -> Option<u64> {
        self.points.front().map(P::count)
    }

    /// Forgets every checkpoint (a new run).
    pub fn clear(&mut self) {
        self.points.clear();
    }
}
