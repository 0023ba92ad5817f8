//! Reverse execution: checkpoints of the whole machine every [`INTERVAL`] steps, and deterministic
//! replay from the nearest one.
//!
//! The machine is deterministic given its state and the key script's events (which are a
//! function of virtual time), so any earlier step is reached by restoring the checkpoint at or
//! before it and running forward. The history is sized in virtual time, not steps: it keeps the
//! checkpoints of the last [`DEFAULT_SECONDS`] seconds (`set record limit`), within
//! [`MAX_BYTES`]. A checkpoint keeps only the bytes of memory that changed since the one before
//! (a full copy every `KEY_EVERY`), so a frame spent in HALT or waiting for a key costs a few
//! hundred bytes, not 64 KiB: a minute of a program waiting for keys is about 3 MiB, ten seconds
//! of ZEXDOC (which never waits) a few MiB more.
//!
//! The checkpoints are kept in the ring every debugger that goes back keeps them in
//! ([`retro_machine::debug::basic::history`], the BASIC dialects' too); this history adds what
//! is the Z80's own: memory as changes, and a size in virtual time and bytes.

use retro_machine::debug::basic::history::{self as ring, History as Ring};
use retro_z80::Cpu;

use crate::host::{FrameClock, Saved, Snapshot};

/// Steps between checkpoints.
pub const INTERVAL: u64 = 8192;
/// Seconds of virtual time the history keeps by default.
pub const DEFAULT_SECONDS: u64 = 60;
/// The most memory the history may take, whatever its limit in time.
pub use retro_machine::debug::basic::history::MAX_BYTES;
/// Checkpoints between full copies of memory (restoring one applies at most this many deltas).
const KEY_EVERY: usize = 64;
/// Memory is compared in blocks of this many bytes; a changed block is kept whole.
const BLOCK: usize = 32;

type Memory = Box<[u8; 0x10000]>;

/// A checkpoint's memory: whole, or the runs of bytes that differ from the checkpoint before.
enum Mem {
    Full(Memory),
    Delta(Vec<(u16, Vec<u8>)>),
}

impl Mem {
    fn bytes(&self) -> usize {
        match self {
            Mem::Full(_) => 0x10000,
            Mem::Delta(runs) => runs.iter().map(|(_, r)| r.len() + 32).sum(),
        }
    }
}

struct Checkpoint<D> {
    count: u64,
    cpu: Cpu,
    dev: D,
    clock: FrameClock,
    mem: Mem,
}

impl<D> ring::Checkpoint for Checkpoint<D> {
    fn count(&self) -> u64 {
        self.count
    }
}

impl<D> Checkpoint<D> {
    fn tstates(&self) -> u64 {
        self.cpu.tstates()
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Checkpoint<D>>() + self.mem.bytes()
    }
}

/// How far back the history reaches (`info record`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The oldest step it can go back to.
    pub oldest: u64,
    /// T-states and frames from the oldest checkpoint to the newest.
    pub tstates: u64,
    pub frames: u64,
    pub checkpoints: usize,
    pub bytes: usize,
}

pub struct History<D> {
    /// Oldest first; the oldest always keeps its memory whole.
    checkpoints: Ring<Checkpoint<D>>,
    /// The memory at the newest checkpoint: what the next one is compared with.
    last_mem: Memory,
    /// Checkpoints since the newest full copy.
    since_full: usize,
    bytes: usize,
    /// The virtual time kept, in T-states (`u64::MAX`: no limit but [`MAX_BYTES`]).
    limit_t: u64,
}

impl<D: Clone> Default for History<D> {
    fn default() -> History<D> {
        History::new(u64::MAX)
    }
}

/// The runs of `now` that differ from `before`, block by block; `before` takes them, so it is
/// `now` afterwards (one pass, and only the changed blocks are written: a checkpoint of a
/// program that changes little costs a read of memory, not a copy). Memory is compared a page
/// (1 KiB) at a time first, as fixed-size arrays the compiler compares inline: a program changes
/// a few pages between checkpoints, and a call to `memcmp` per 32-byte block made the history
/// cost a quarter of the debugger's speed.
fn diff(before: &mut [u8; 0x10000], now: &[u8; 0x10000]) -> Vec<(u16, Vec<u8>)> {
    const PAGE: usize = 1024;
    let mut runs: Vec<(u16, Vec<u8>)> = vec![];
    let mut open = false;
    let (pages_before, _) = before.as_chunks_mut::<PAGE>();
    let (pages_now, _) = now.as_chunks::<PAGE>();
    for (p, (pa, pb)) in pages_before.iter_mut().zip(pages_now).enumerate() {
        if pa == pb {
            open = false;
            continue;
        }
        let (blocks_before, _) = pa.as_chunks_mut::<BLOCK>();
        let (blocks_now, _) = pb.as_chunks::<BLOCK>();
        for (i, (a, b)) in blocks_before.iter_mut().zip(blocks_now).enumerate() {
            if a == b {
                open = false;
                continue;
            }
            *a = *b;
            match runs.last_mut() {
                Some((_, run)) if open => run.extend_from_slice(b),
                _ => runs.push(((p * PAGE + i * BLOCK) as u16, b.to_vec())),
            }
            open = true;
        }
    }
    runs
}

fn apply(mem: &mut [u8; 0x10000], runs: &[(u16, Vec<u8>)]) {
    for (at, run) in runs {
        let at = *at as usize;
        mem[at..at + run.len()].copy_from_slice(run);
    }
}

impl<D: Clone> History<D> {
    /// An empty history keeping `limit_t` T-states of virtual time.
    pub fn new(limit_t: u64) -> History<D> {
        History {
            // Sized here, in time and bytes, not in a count.
            checkpoints: Ring::new(usize::MAX),
            last_mem: Box::new([0; 0x10000]),
            since_full: 0,
            bytes: 0,
            limit_t,
        }
    }

    /// Keeps `limit_t` T-states of virtual time from now on (older checkpoints go at once).
    pub fn set_limit(&mut self, limit_t: u64) {
        self.limit_t = limit_t;
        self.trim();
    }

    pub fn limit(&self) -> u64 {
        self.limit_t
    }

    /// Records the state at step `count`, dropping any checkpoint at or after `count` (a future
    /// that no longer happens) and the oldest ones beyond the limits.
    pub fn record(&mut self, count: u64, state: Snapshot<D>, mem: &[u8; 0x10000]) {
        self.forget(count, true);
        let mem = if self.checkpoints.is_empty() || self.since_full + 1 >= KEY_EVERY {
            self.since_full = 0;
            self.last_mem.copy_from_slice(&mem[..]);
            Mem::Full(crate::host::copy_memory(mem))
        } else {
            self.since_full += 1;
            Mem::Delta(diff(&mut self.last_mem, mem))
        };
        let c = Checkpoint {
            count,
            cpu: state.cpu,
            dev: state.dev,
            clock: state.clock,
            mem,
        };
        self.bytes += c.bytes();
        self.checkpoints.push(c);
        self.trim();
    }

    /// After the newest checkpoints went: the memory and full-copy count of the new newest.
    fn resync_newest(&mut self) {
        let Some(last) = self.checkpoints.len().checked_sub(1) else {
            self.since_full = 0;
            return;
        };
        self.last_mem = self.memory_at(last);
        self.since_full = self
            .checkpoints
            .iter()
            .rev()
            .take_while(|c| matches!(c.mem, Mem::Delta(_)))
            .count();
    }

    /// Drops the oldest checkpoints while the next one still reaches the time limit back, or the
    /// history is over [`MAX_BYTES`]; the new oldest gets its memory whole.
    fn trim(&mut self) {
        while self.checkpoints.len() > 2 {
            let tstates = |c: Option<&Checkpoint<D>>| c.map_or(0, Checkpoint::tstates);
            let (newest, second) = (
                tstates(self.checkpoints.newest()),
                tstates(self.checkpoints.get(1)),
            );
            let time_kept = newest.saturating_sub(second) >= self.limit_t;
            if !time_kept && self.bytes <= MAX_BYTES {
                break;
            }
            let Some(oldest) = self.checkpoints.pop_oldest() else {
                break;
            };
            self.bytes -= oldest.bytes();
            let Mem::Full(mut mem) = oldest.mem else {
                unreachable!("the oldest checkpoint keeps its memory whole")
            };
            let Some(next) = self.checkpoints.get_mut(0) else {
                break;
            };
            if let Mem::Delta(runs) = &next.mem {
                apply(&mut mem, runs);
                self.bytes -= next.mem.bytes();
                next.mem = Mem::Full(mem);
                self.bytes += 0x10000;
            }
        }
    }

    /// The whole memory at checkpoint `i`: its last full copy with the deltas since applied.
    fn memory_at(&self, i: usize) -> Memory {
        let full = (0..=i)
            .rev()
            .find(|&k| {
                self.checkpoints
                    .get(k)
                    .is_some_and(|c| matches!(c.mem, Mem::Full(_)))
            })
            .expect("the oldest checkpoint is whole");
        let Some(Checkpoint {
            mem: Mem::Full(base), ..
        }) = self.checkpoints.get(full)
        else {
            unreachable!()
        };
        let mut mem = base.clone();
        for c in self.checkpoints.iter().skip(full + 1).take(i - full) {
            if let Mem::Delta(runs) = &c.mem {
                apply(&mut mem, runs);
            }
        }
        mem
    }

    /// Forgets checkpoints after step `count`.
    pub fn truncate_after(&mut self, count: u64) {
        self.forget(count, false);
    }

    /// Drops the checkpoints after step `count` (`and_at`: and the one at it), and counts their
    /// bytes out.
    fn forget(&mut self, count: u64, and_at: bool) {
        let gone = if and_at {
            self.checkpoints.take_from(count)
        } else {
            self.checkpoints.take_after(count)
        };
        for c in &gone {
            self.bytes -= c.bytes();
        }
        if !gone.is_empty() {
            self.resync_newest();
        }
    }

    /// The latest checkpoint at or before step `count`: its step and the machine's state.
    pub fn at_or_before(&self, count: u64) -> Option<(u64, Saved<D>)> {
        let i = self.checkpoints.position_at_or_before(count)?;
        let c = self.checkpoints.get(i)?;
        Some((
            c.count,
            Saved {
                snapshot: Snapshot {
                    cpu: c.cpu.clone(),
                    dev: c.dev.clone(),
                    clock: c.clock,
                },
                mem: self.memory_at(i),
            },
        ))
    }

    /// Whether there is a checkpoint at step `count` exactly.
    pub fn has(&self, count: u64) -> bool {
        self.checkpoints.has(count)
    }

    /// The oldest step the history can go back to.
    pub fn oldest(&self) -> Option<u64> {
        self.checkpoints.oldest()
    }

    /// How far back it reaches.
    pub fn span(&self) -> Option<Span> {
        let (first, last) = (self.checkpoints.get(0)?, self.checkpoints.newest()?);
        Some(Span {
            oldest: first.count,
            tstates: last.tstates() - first.tstates(),
            frames: last.clock.frame - first.clock.frame,
            checkpoints: self.checkpoints.len(),
            bytes: self.bytes,
        })
    }

    /// The checkpoint counts, newest first (reverse-continue searches segment by segment).
    pub fn counts_newest_first(&self) -> Vec<u64> {
        self.checkpoints.counts_newest_first()
    }

    pub fn clear(&mut self) {
        self.checkpoints.clear();
        self.bytes = 0;
        self.since_full = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_holds_the_changed_blocks_and_gives_the_memory_back() {
        let before = Box::new([0u8; 0x10000]);
        let mut now = before.clone();
        now[5] = 1;
        now[40] = 2; // the next block: one run of two blocks
        now[0xFFFF] = 3;
        let mut last = before.clone();
        let runs = diff(&mut last, &now);
        assert_eq!(last, now, "the last memory follows");
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].0, runs[0].1.len()), (0, 64));
        assert_eq!((runs[1].0, runs[1].1.len()), (0xFFE0, 32));
        let mut back = before.clone();
        apply(&mut back, &runs);
        assert_eq!(back, now);
    }
}
