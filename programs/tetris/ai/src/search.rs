//! Every lock position a piece can reach from where it is, under the input rules the player keeps
//! (the timeline): a frame-by-frame breadth-first search over [`Motion`] states, so gravity,
//! rotation without kicks, tucks (a shift under an overhang just before the piece would lock)
//! and spins come out of the game's own frame rules rather than from a model of them.
//!
//! The timeline: a new press at most every `period` frames (`--ai-tap HZ`: 60 / HZ, 2 at the
//! NES's limit of 30 Hz), a press being any one of Left or Right with any one of A or B, held
//! for one frame and then released (so the DAS counter never matters: every shift is a fresh
//! press). Down is not used while searching (the player soft drops only after its last press,
//! at levels where that is faster than gravity).

use crate::motion::Motion;
use crate::rules::{A, B, Board, LEFT, RIGHT};

/// The presses the timeline allows on a frame when a press is due (0 = none).
const PRESSES: [u8; 9] = [0, LEFT, RIGHT, A, B, LEFT | A, LEFT | B, RIGHT | A, RIGHT | B];

/// A reachable lock: the orientation and pivot where the piece locks, and its search node (for
/// [`Searcher::path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub o: u8,
    pub x: i8,
    pub y: i8,
    pub node: u32,
}

#[derive(Clone, Copy)]
struct Node {
    m: Motion,
    cool: u8,
    pad: u8,
    parent: u32,
}

/// The search's reusable memory (no allocation per search once warmed up).
pub struct Searcher {
    period: u8,
    nodes: Vec<Node>,
    seen: Vec<u32>,
    locked: Vec<u32>,
    generation: u32,
}

/// States are told apart by orientation, pivot, gravity counter and press cool-down (the DAS
/// counter does not matter: every shift is a fresh press; nor does the soft drop: Down is not
/// pressed). `falls` is the number of `fall` values kept apart (the level's speed).
fn key(m: &Motion, cool: u8, period: u8, falls: usize) -> usize {
    let pos = (usize::from(m.o) * 22 + (m.y + 2) as usize) * 10 + m.x as usize;
    (pos * usize::from(period) + usize::from(cool)) * falls + usize::from(m.fall).min(falls - 1)
}

impl Searcher {
    /// A searcher for presses every `period` frames (at least 2: a button must be released for
    /// a frame before it is newly pressed again).
    pub fn new(period: u8) -> Searcher {
        let period = period.max(2);
        Searcher {
            period,
            nodes: Vec::with_capacity(4096),
            seen: vec![],
            locked: vec![0; 19 * 22 * 10],
            generation: 0,
        }
    }

    pub fn period(&self) -> u8 {
        self.period
    }

    /// Every lock reachable from `start` (after a frame whose buttons were `prev`, with `cool`
    /// frames before the next press is allowed) at `level`, earliest first, into `out`.
    pub fn search(&mut self, board: &Board, level: u8, start: Motion, cool: u8, out: &mut Vec<Placement>) {
        out.clear();
        self.nodes.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.locked.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let falls = usize::from(crate::rules::speed(level)) + 1;
        let size = 19 * 22 * 10 * usize::from(self.period) * falls;
        if self.seen.len() < size {
            self.seen.resize(size, 0);
        }
        if !board.fits(start.o, start.x, start.y) {
            return; // the spawn is blocked: the game is over
        }
        let cool = cool.min(self.period - 1);
        self.nodes.push(Node {
            m: start,
            cool,
            pad: 0,
            parent: u32::MAX,
        });
        let mut i = 0;
        while i < self.nodes.len() {
            let node = self.nodes[i];
            let choices = if node.cool == 0 {
                &PRESSES[..]
            } else {
                &PRESSES[..1]
            };
            for &pad in choices {
                let mut m = node.m;
                let prev = if i == 0 { 0 } else { node.pad };
                let locked = m.step(board, level, pad, prev);
                let cool = if pad != 0 {
                    self.period - 1
                } else {
                    node.cool.saturating_sub(1)
                };
                if locked {
                    let k = (usize::from(m.o) * 22 + (m.y + 2) as usize) * 10 + m.x as usize;
                    if self.locked[k] != g {
                        self.locked[k] = g;
                        self.nodes.push(Node {
                            m,
                            cool,
                            pad,
                            parent: i as u32,
                        });
                        out.push(Placement {
                            o: m.o,
                            x: m.x,
                            y: m.y,
                            node: (self.nodes.len() - 1) as u32,
                        });
                        // A locked node is a leaf: mark it so it is not expanded.
                        let last = self.nodes.len() - 1;
                        self.nodes[last].m.y = i8::MIN;
                    }
                    continue;
                }
                let k = key(&m, cool, self.period, falls);
                if self.seen[k] == g {
                    continue;
                }
                self.seen[k] = g;
                self.nodes.push(Node {
                    m,
                    cool,
                    pad,
                    parent: i as u32,
                });
            }
            i += 1;
            while i < self.nodes.len() && self.nodes[i].m.y == i8::MIN {
                i += 1;
            }
        }
    }

    /// The buttons of each frame from the search's start to `p`'s lock (the lock frame last).
    pub fn path(&self, p: &Placement) -> Vec<u8> {
        let mut pads = vec![];
        let mut n = p.node;
        while n != 0 && n != u32::MAX {
            let node = &self.nodes[n as usize];
            pads.push(node.pad);
            n = node.parent;
        }
        pads.reverse();
        pads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::FULL;
    use std::collections::{BTreeSet, HashSet, VecDeque};

    /// Brute force: every input sequence the timeline allows, frame by frame, with no pruning
    /// but exact-state deduplication (the whole state, `fall` and the previous pad included).
    fn brute(board: &Board, level: u8, start: Motion, period: u8) -> BTreeSet<(u8, i8, i8)> {
        let mut found = BTreeSet::new();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(start, 0u8, 0u8)]);
        while let Some((m, cool, prev)) = queue.pop_front() {
            for pad in PRESSES {
                if pad != 0 && cool != 0 {
                    continue;
                }
                let mut n = m;
                let locked = n.step(board, level, pad, prev);
                if locked {
                    found.insert((n.o, n.x, n.y));
                    continue;
                }
                let c = if pad != 0 {
                    period - 1
                } else {
                    cool.saturating_sub(1)
                };
                let state = (n.o, n.x, n.y, n.fall, n.shift_ar, n.drop_ar, c, pad);
                if seen.insert(state) {
                    queue.push_back((n, c, pad));
                }
            }
        }
        found
    }

    pub(super) fn small_board(seed: u64) -> Board {
        // A random stack in the lower rows, with overhangs (tucks and spins to find).
        let mut s = seed | 1;
        let mut b = Board::default();
        for r in 12..22 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let fill = (r - 11) as u64 * 6;
            let mut bits = 0u16;
            for c in 0..10 {
                if (s >> (c * 6)) % 64 < fill {
                    bits |= 1 << c;
                }
            }
            b.rows[r] = bits & FULL & !(1 << (s % 10));
        }
        b
    }

    #[test]
    fn the_search_finds_exactly_what_brute_force_finds() {
        let mut checked = 0;
        for seed in 1..40u64 {
            let board = small_board(seed * 7919);
            for (&o, level, period) in [2u8, 7, 8, 10, 11, 14, 18]
                .iter()
                .zip([19u8, 29, 18, 19, 29, 16, 19])
                .zip([2u8, 2, 3, 4, 2, 2, 6])
                .map(|((o, l), p)| (o, l, p))
            {
                let start = Motion::spawn(o, 0);
                let mut s = Searcher::new(period);
                let mut out = vec![];
                s.search(&board, level, start, 0, &mut out);
                let got: BTreeSet<_> = out.iter().map(|p| (p.o, p.x, p.y)).collect();
                assert_eq!(got.len(), out.len(), "each lock once");
                assert_eq!(got, brute(&board, level, start, period), "seed {seed} piece {o}");
                // Each path, replayed, ends in its lock.
                for p in &out {
                    let mut m = start;
                    let mut prev = 0;
                    let pads = s.path(p);
                    for (f, &pad) in pads.iter().enumerate() {
                        let locked = m.step(&board, level, pad, prev);
                        assert_eq!(locked, f + 1 == pads.len());
                        prev = pad;
                    }
                    assert_eq!((m.o, m.x, m.y), (p.o, p.x, p.y));
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked} placements");
    }

    #[test]
    fn tucks_under_an_overhang_are_found() {
        // A roof over columns 0-2 on row 17; rows 18-19 open below it and in columns 3-4, the
        // rest of those rows filled: only a piece slid or turned in at the last rows gets under.
        let mut b = Board::default();
        b.rows[19] = 0b111; // row 17
        b.rows[20] = FULL & !0b11111; // row 18
        b.rows[21] = FULL & !0b11111; // row 19
        let mut s = Searcher::new(2);
        let mut out = vec![];
        // (Not the I: four long, it cannot turn or slide under a one-row roof.)
        for o in [2u8, 7, 8, 10, 11, 14] {
            s.search(&b, 19, Motion::spawn(o, 0), 0, &mut out);
            let under = out.iter().any(|p| {
                crate::rules::MINOS[usize::from(p.o)]
                    .iter()
                    .any(|&(dx, dy)| p.x + dx < 3 && p.y + dy >= 18)
            });
            assert!(under, "piece {o}: no tuck under the roof in {out:?}");
        }
    }
}
