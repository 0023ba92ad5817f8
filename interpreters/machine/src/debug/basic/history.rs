//! Checkpoints for going back, oldest first by the step count each was taken at: one ring for
//! every debugger that goes back by restoring a checkpoint and running forward (the BASIC
//! dialects, and the Z80's). A checkpoint is the debugger's own (the interpreter's state and the
//! machine's clock; the Z80's registers and its memory as a change from the checkpoint before).
//! The ring keeps at most `capacity` of them (the C64's fixed count); a debugger that sizes its
//! history otherwise (the Z80's, in virtual time and bytes) drops the oldest itself with
//! [`History::pop_oldest`].

use std::collections::VecDeque;

/// A checkpoint knows the step count it was taken at.
pub trait Checkpoint {
    fn count(&self) -> u64;
}

#[derive(Clone, Debug)]
pub struct History<P> {
    points: VecDeque<P>,
    capacity: usize,
}

impl<P: Checkpoint> History<P> {
    /// An empty history of at most `capacity` checkpoints.
    pub fn new(capacity: usize) -> History<P> {
        History {
            points: VecDeque::new(),
            capacity,
        }
    }

    /// Keeps `point`, after dropping those at or after its count (a future that no longer
    /// happens, or the same step taken again) and the oldest beyond the capacity.
    pub fn push(&mut self, point: P) {
        self.take_from(point.count());
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

    /// The newest checkpoint at or before step `to`, or the oldest there is.
    pub fn at_or_before(&self, to: u64) -> Option<&P> {
        self.position_at_or_before(to)
            .map(|i| &self.points[i])
            .or(self.points.front())
    }

    /// Where the newest checkpoint at or before step `to` is (0 the oldest), if there is one.
    pub fn position_at_or_before(&self, to: u64) -> Option<usize> {
        self.points.partition_point(|p| p.count() <= to).checked_sub(1)
    }

    /// Drops the checkpoints after step `count` (the future changed: a `set`, or going back).
    pub fn forget_after(&mut self, count: u64) {
        self.take_after(count);
    }

    /// Takes the checkpoints after step `count` out, newest first.
    pub fn take_after(&mut self, count: u64) -> Vec<P> {
        self.take_while_back(|c| c > count)
    }

    /// Takes the checkpoints at or after step `count` out, newest first.
    pub fn take_from(&mut self, count: u64) -> Vec<P> {
        self.take_while_back(|c| c >= count)
    }

    fn take_while_back(&mut self, drop: impl Fn(u64) -> bool) -> Vec<P> {
        let mut taken = Vec::new();
        while self.points.back().is_some_and(|p| drop(p.count())) {
            taken.extend(self.points.pop_back());
        }
        taken
    }

    /// Takes the oldest checkpoint out (a history sized in something else than a count).
    pub fn pop_oldest(&mut self) -> Option<P> {
        self.points.pop_front()
    }

    /// The statement count of the oldest checkpoint.
    pub fn oldest(&self) -> Option<u64> {
        self.points.front().map(P::count)
    }

    /// The newest checkpoint.
    pub fn newest(&self) -> Option<&P> {
        self.points.back()
    }

    /// Whether there is a checkpoint at step `count` exactly.
    pub fn has(&self, count: u64) -> bool {
        self.points.binary_search_by_key(&count, P::count).is_ok()
    }

    /// The checkpoint counts, newest first (a backward search goes segment by segment).
    pub fn counts_newest_first(&self) -> Vec<u64> {
        self.points.iter().rev().map(P::count).collect()
    }

    /// The checkpoints, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &P> + ExactSizeIterator {
        self.points.iter()
    }

    /// Checkpoint `i` (0 the oldest).
    pub fn get(&self, i: usize) -> Option<&P> {
        self.points.get(i)
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut P> {
        self.points.get_mut(i)
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Forgets every checkpoint (a new run).
    pub fn clear(&mut self) {
        self.points.clear();
    }
}

/// The most memory a debugger's reverse history takes (every machine's: the Z80's, the C64's).
pub const MAX_BYTES: usize = 256 << 20;
/// Seconds of virtual time the history keeps unless `set record limit` says otherwise.
pub const DEFAULT_LIMIT_SECONDS: u64 = 60;

/// `set record limit SECONDS`'s argument (`60`, `60s`, `unlimited` or 0): the seconds of
/// virtual time to keep, `None` for no limit but [`MAX_BYTES`].
pub fn parse_limit(arg: &str) -> Result<Option<u64>, String> {
    let a = arg.trim_start_matches('=').trim();
    if a == "unlimited" || a == "0" {
        return Ok(None);
    }
    a.trim_end_matches('s')
        .trim()
        .parse()
        .ok()
        .filter(|&n| n > 0 && n <= 24 * 3600)
        .map(Some)
        .ok_or_else(|| format!("`{a}` is not a number of seconds (set record limit 60)"))
}

/// How far back a history reaches, for `info record`.
pub struct Reach {
    /// How many steps back, and the step count it reaches.
    pub back: u64,
    pub oldest: u64,
    /// What a step is (`steps`, `statements`).
    pub unit: &'static str,
    pub frames: u64,
    pub seconds: f64,
    pub checkpoints: usize,
    pub bytes: usize,
    /// The limit in seconds (`None`: only [`MAX_BYTES`]).
    pub limit: Option<u64>,
}

impl Reach {
    /// `info record`'s two lines, in every machine's words.
    pub fn text(&self) -> String {
        let limit = match self.limit {
            None => "no limit".to_string(),
            Some(s) => format!("{s} s"),
        };
        format!(
            "Reverse history: back {} {} to {} {}, {} frames = {:.1} s of virtual time\n\
             {} checkpoints in {:.1} MiB; limit {limit} (set record limit SECONDS), at most {} MiB\n",
            self.back,
            self.unit,
            self.unit.trim_end_matches('s'),
            self.oldest,
            self.frames,
            self.seconds,
            self.checkpoints,
            self.bytes as f64 / (1 << 20) as f64,
            MAX_BYTES >> 20,
        )
    }
}
