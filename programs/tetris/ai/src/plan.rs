//! The decision: every placement of the current piece the timeline reaches, each followed by
//! every placement of the next piece (two-piece lookahead), valued by the evaluation of the field
//! they leave; the current piece goes where its best pair starts.

use crate::eval::{FEATURES, Weights, features};
use crate::motion::Motion;
use crate::rules::{Board, Tally};
use crate::search::{Placement, Searcher};

/// A placement of the current piece with its value (the best over the next piece's placements).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub o: u8,
    pub x: i8,
    pub y: i8,
    pub value: f32,
}

/// What the planner chose, and why.
#[derive(Clone, Debug, Default)]
pub struct Decision {
    /// The buttons of each frame to the lock (empty when nothing is reachable).
    pub path: Vec<u8>,
    /// The best placements, best first (at most 5).
    pub top: Vec<Scored>,
}

impl Decision {
    pub fn best(&self) -> Option<&Scored> {
        self.top.first()
    }
}

/// The value of a field that ends the game.
pub const DEATH: f32 = -1.0e9;

/// How many of the current piece's best placements (by their own value) are looked at with the
/// next piece: the rest are never better in practice, and the lookahead is most of the time.
pub const LOOKAHEAD: usize = 40;

pub struct Planner {
    pub weights: Weights,
    first: Searcher,
    second: Searcher,
    here: Vec<Placement>,
    then: Vec<Placement>,
}

impl Planner {
    pub fn new(weights: Weights, period: u8) -> Planner {
        Planner {
            weights,
            first: Searcher::new(period),
            second: Searcher::new(period),
            here: vec![],
            then: vec![],
        }
    }

    pub fn period(&self) -> u8 {
        self.first.period()
    }

    /// Decides where the piece in `start` goes on `board` (`cool` frames before the next press
    /// is allowed), looking at `next` when it is known.
    pub fn decide(
        &mut self,
        board: &Board,
        tally: Tally,
        start: Motion,
        cool: u8,
        next: Option<u8>,
    ) -> Decision {
        self.first.search(board, tally.level, start, cool, &mut self.here);
        // Each placement alone first; the next piece is looked at only after the best
        // LOOKAHEAD of them (the others are dropped).
        let mut scored: Vec<(Scored, u32, Board, Tally, u8)> = Vec::with_capacity(self.here.len());
        for p in &self.here {
            let mut b1 = *board;
            let n1 = b1.lock(p.o, p.x, p.y);
            let mut t1 = tally;
            t1.add(n1, 0);
            let value = self.value(&b1, t1.level, n1, 0);
            let s = Scored {
                o: p.o,
                x: p.x,
                y: p.y,
                value,
            };
            scored.push((s, p.node, b1, t1, n1));
        }
        if let Some(n) = next {
            scored.sort_by(|a, b| b.0.value.total_cmp(&a.0.value));
            scored.truncate(LOOKAHEAD);
            for entry in scored.iter_mut() {
                entry.0.value = self.best_next(&entry.2, entry.3, n, entry.4);
            }
        }
        // Best first; ties to the earliest found (the search's order: fewer frames).
        scored.sort_by(|a, b| b.0.value.total_cmp(&a.0.value));
        let path = scored
            .first()
            .map(|(s, node, ..)| {
                self.first.path(&Placement {
                    o: s.o,
                    x: s.x,
                    y: s.y,
                    node: *node,
                })
            })
            .unwrap_or_default();
        Decision {
            path,
            top: scored.iter().take(5).map(|s| s.0).collect(),
        }
    }

    fn best_next(&mut self, b1: &Board, t1: Tally, next: u8, n1: u8) -> f32 {
        self.second
            .search(b1, t1.level, Motion::spawn(next, 0), 0, &mut self.then);
        let mut best = DEATH + self.value(b1, t1.level, n1, 0);
        for p in &self.then {
            let mut b2 = *b1;
            let n2 = b2.lock(p.o, p.x, p.y);
            let mut t2 = t1;
            t2.add(n2, 0);
            let v = value_of(&self.weights, &b2, t2.level, n1, n2);
            if v > best {
                best = v;
            }
        }
        best
    }

    fn value(&self, b: &Board, level: u8, n1: u8, n2: u8) -> f32 {
        value_of(&self.weights, b, level, n1, n2)
    }
}

/// The value of field `b` reached with clears of `n1` and `n2` lines.
pub fn value_of(w: &Weights, b: &Board, level: u8, n1: u8, n2: u8) -> f32 {
    let burnt = |n: u8| if n < 4 { n } else { 0 };
    let tetris = |n: u8| u8::from(n == 4);
    let f: [f32; FEATURES] = features(b, level, burnt(n1) + burnt(n2), tetris(n1) + tetris(n2));
    w.value(&f)
}
