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

/// What a decision is made from: the field, the lines, level and score, the piece as it is
/// (`start`, with `cool` frames before the timeline allows a press) and the next piece, when
/// it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    pub board: Board,
    pub tally: Tally,
    pub start: Motion,
    pub cool: u8,
    pub next: Option<u8>,
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

    /// Decides where the piece goes.
    pub fn decide(&mut self, at: &Situation) -> Decision {
        let ranked = self.rank(at);
        let path = ranked
            .first()
            .map(|r| self.first.path(&r.placement))
            .unwrap_or_default();
        Decision {
            path,
            top: ranked.iter().take(5).map(|r| r.scored).collect(),
        }
    }

    /// Why the decision is what it is: the best `n` placements of the piece, each with the next
    /// piece's placement that makes its value and the features of the field the pair leaves,
    /// best first (what the debugger's `info ai` shows).
    pub fn explain(&mut self, at: &Situation, n: usize) -> Vec<Explained> {
        let (board, tally) = (&at.board, at.tally);
        let ranked = self.rank(at);
        ranked
            .iter()
            .take(n)
            .map(|r| {
                let mut b = *board;
                let n1 = b.lock(r.placement.o, r.placement.x, r.placement.y);
                let mut t = tally;
                t.add(n1, 0);
                let mut n2 = 0;
                if let Some((o, x, y)) = r.then {
                    n2 = b.lock(o, x, y);
                    t.add(n2, 0);
                }
                let features = features_of(&b, t.level, self.period(), n1, n2);
                let mut terms = [0.0; FEATURES];
                for (i, term) in terms.iter_mut().enumerate() {
                    *term = self.weights.w[i] * features[i];
                }
                Explained {
                    scored: r.scored,
                    then: r.then,
                    cleared: (n1, n2),
                    features,
                    terms,
                }
            })
            .collect()
    }

    /// Every placement of the current piece with its value, best first; ties to the earliest
    /// found (the search's order: fewer frames).
    fn rank(&mut self, at: &Situation) -> Vec<Ranked> {
        let (board, tally) = (&at.board, at.tally);
        self.first
            .search(board, tally.level, at.start, at.cool, &mut self.here);
        // Each placement alone first; the next piece is looked at only after the best
        // LOOKAHEAD of them (the others are dropped).
        let mut ranked: Vec<Ranked> = Vec::with_capacity(self.here.len());
        let mut after: Vec<(Board, Tally, u8)> = Vec::with_capacity(self.here.len());
        for p in &self.here {
            let mut b1 = *board;
            let n1 = b1.lock(p.o, p.x, p.y);
            let mut t1 = tally;
            t1.add(n1, 0);
            let value = value_of(&self.weights, &b1, t1.level, self.first.period(), n1, 0);
            ranked.push(Ranked {
                scored: Scored {
                    o: p.o,
                    x: p.x,
                    y: p.y,
                    value,
                },
                placement: *p,
                then: None,
                at: after.len(),
            });
            after.push((b1, t1, n1));
        }
        let by_value = |a: &Ranked, b: &Ranked| b.scored.value.total_cmp(&a.scored.value);
        if let Some(n) = at.next {
            ranked.sort_by(by_value);
            ranked.truncate(LOOKAHEAD);
            for r in ranked.iter_mut() {
                let (b1, t1, n1) = after[r.at];
                (r.scored.value, r.then) = self.best_next(&b1, t1, n, n1);
            }
        }
        ranked.sort_by(by_value);
        ranked
    }

    /// The best value the `next` piece reaches after the first piece left `b1` (having
    /// cleared `n1` lines), and where that piece goes (none: it cannot spawn, the game ends).
    fn best_next(&mut self, b1: &Board, t1: Tally, next: u8, n1: u8) -> (f32, Option<(u8, i8, i8)>) {
        self.second
            .search(b1, t1.level, Motion::spawn(next, 0), 0, &mut self.then);
        let mut best = (
            DEATH + value_of(&self.weights, b1, t1.level, self.second.period(), n1, 0),
            None,
        );
        for p in &self.then {
            let mut b2 = *b1;
            let n2 = b2.lock(p.o, p.x, p.y);
            let mut t2 = t1;
            t2.add(n2, 0);
            let v = value_of(&self.weights, &b2, t2.level, self.second.period(), n1, n2);
            if v > best.0 {
                best = (v, Some((p.o, p.x, p.y)));
            }
        }
        best
    }
}

/// A placement being ranked: its search node (for the path), the next piece's best placement
/// after it, and where its field is kept.
struct Ranked {
    scored: Scored,
    placement: Placement,
    then: Option<(u8, i8, i8)>,
    at: usize,
}

/// One of the best placements, taken apart (see [`Planner::explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    pub scored: Scored,
    /// Where the next piece then goes (orientation, pivot), if it is known and can spawn.
    pub then: Option<(u8, i8, i8)>,
    /// Lines cleared by the piece and by the next one.
    pub cleared: (u8, u8),
    /// The features of the field the pair leaves ([`crate::eval::NAMES`]' order) ...
    pub features: [f32; FEATURES],
    /// ... and each one's weight times its value: the terms `scored.value` sums.
    pub terms: [f32; FEATURES],
}

/// The value of field `b` reached with clears of `n1` and `n2` lines (presses every `period`
/// frames).
pub fn value_of(w: &Weights, b: &Board, level: u8, period: u8, n1: u8, n2: u8) -> f32 {
    w.value(&features_of(b, level, period, n1, n2))
}

/// The features of field `b` reached with clears of `n1` and `n2` lines.
fn features_of(b: &Board, level: u8, period: u8, n1: u8, n2: u8) -> [f32; FEATURES] {
    let burnt = |n: u8| if n < 4 { n } else { 0 };
    let tetris = |n: u8| u8::from(n == 4);
    features(b, level, period, burnt(n1) + burnt(n2), tetris(n1) + tetris(n2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::TUNED;
    use crate::rules::{FULL, SPAWN};

    /// A stack with a hole and a tetris-ready well: placements differ in many terms.
    fn board() -> Board {
        let mut b = Board::default();
        for r in 16..22 {
            b.rows[r] = FULL & !(1 << 9);
        }
        b.rows[16] &= !0b111;
        b.rows[18] &= !(1 << 4);
        b
    }

    #[test]
    fn explain_takes_the_decision_apart() {
        let mut p = Planner::new(TUNED, 2);
        let tally = Tally::new(19);
        for (&piece, &next) in SPAWN.iter().zip(SPAWN.iter().rev()) {
            let at = Situation {
                board: board(),
                tally,
                start: Motion::spawn(piece, 0),
                cool: 0,
                next: Some(next),
            };
            let d = p.decide(&at);
            let why = p.explain(&at, 5);
            assert_eq!(why.len(), 5);
            let tops: Vec<Scored> = why.iter().map(|e| e.scored).collect();
            assert_eq!(tops, d.top, "piece {piece}: the same five, in the same order");
            for e in &why {
                let sum: f32 = e.terms.iter().sum();
                assert!(
                    (sum - e.scored.value).abs() < 0.01 * e.scored.value.abs().max(1.0),
                    "the terms add up to the value: {sum} against {}",
                    e.scored.value
                );
                // The pair, played out, leaves a field with those features.
                let mut b = board();
                let n1 = b.lock(e.scored.o, e.scored.x, e.scored.y);
                let (o, x, y) = e.then.expect("the next piece has room");
                let n2 = b.lock(o, x, y);
                assert_eq!(e.cleared, (n1, n2));
                assert_eq!(e.features, features_of(&b, 19, 2, n1, n2));
            }
        }
    }
}
