//! The packed-matrix search (the seed's "Mustersuche"): fill an r-row, 21-column rectangle with
//! straight-dropped tetrominoes so that it clears completely, starting from some cells already
//! filled (the three-square tops of the J/T/L emitters, or nothing for a platform).
//!
//! Because every piece falls straight down and no covered gap is allowed, each column of the
//! rectangle is a stack and the array of 21 stack heights is the whole state (the seed: "ein
//! eindimensionales ganzzahliges Array mit 21 Elementen"). Rows fill from the bottom up and clear
//! as soon as they are full, as in the game, so the number of cleared rows is the lowest stack.
//! A piece may be dropped only where its underside matches the stacks exactly and it rests on
//! something: a stack cell in a row that has not cleared yet, or a square under the rectangle
//! (the `support` columns: the floor, printed squares, or squares emitted by an earlier pass).
//! A drop that cuts the free space into parts whose sizes are not multiples of 4 is refused.
//!
//! The search is a depth-first backtracking search in drop order. Moves are tried lowest first,
//! ties in a seeded shuffled order (the seed's "random incremental construction", deterministic
//! here), and stack profiles already shown to be dead ends are remembered, so a search either
//! finds a sequence, proves there is none, or stops at its node budget.

use std::collections::HashSet;

use crate::field::WIDTH;
use crate::piece::Orientation;

/// The tallest rectangle the search handles (stack heights are packed 4 bits each).
pub const MAX_ROWS: usize = 15;

/// One drop: an orientation and the column of its pivot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Drop {
    pub orientation: Orientation,
    pub x: i32,
}

impl Drop {
    /// The drop's mirror image in the 21-column field.
    pub fn mirror(self) -> Drop {
        let (o, shift) = self.orientation.mirror();
        Drop {
            orientation: o,
            x: WIDTH as i32 - 1 - self.x + shift as i32,
        }
    }
}

impl Problem {
    /// A full rectangle of `rows` rows over the given stacks and supports.
    pub fn rectangle(rows: usize, heights: [u8; WIDTH], support: u32) -> Problem {
        Problem {
            rows,
            caps: [rows.min(MAX_ROWS) as u8; WIDTH],
            heights,
            support,
        }
    }
}

/// A search problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Rows of the rectangle.
    pub rows: usize,
    /// Height each column must reach (`rows`, or less where a well stays open for a later piece,
    /// as in a platform).
    pub caps: [u8; WIDTH],
    /// Stack heights before the first drop.
    pub heights: [u8; WIDTH],
    /// Columns with a square directly under the rectangle's bottom row (bit x for column x).
    pub support: u32,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Drops that fill the rectangle, in order.
    Found(Vec<Drop>),
    /// The whole search space was explored: no sequence exists.
    Impossible,
    /// The node budget ran out first.
    GaveUp,
}

/// One of the 371 placements: an orientation at a leftmost column, with its underside and top
/// per column, measured from the piece's lowest cell.
#[derive(Debug, Clone, Copy)]
struct Placement {
    drop: Drop,
    left: usize,
    width: usize,
    bottom: [u8; 4],
    top: [u8; 4],
}

fn placements() -> Vec<Placement> {
    let mut out = Vec::with_capacity(371);
    for o in Orientation::all() {
        let cells = o.cells_up();
        let (lo, hi) = o.x_span();
        let low = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let width = (hi - lo + 1) as usize;
        let mut bottom = [u8::MAX; 4];
        let mut top = [0u8; 4];
        for &(dx, dy) in &cells {
            let i = (dx - lo) as usize;
            let h = (dy - low) as u8;
            bottom[i] = bottom[i].min(h);
            top[i] = top[i].max(h);
        }
        for left in 0..=WIDTH - width {
            out.push(Placement {
                drop: Drop {
                    orientation: o,
                    x: (left as i32) - lo as i32,
                },
                left,
                width,
                bottom,
                top,
            });
        }
    }
    out
}

/// A small deterministic generator (xorshift64*) for the move order; the speed example draws its
/// sprites with it too. Seed it with an odd number.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

struct Searcher {
    caps: [u8; WIDTH],
    support: u32,
    placements: Vec<Placement>,
    dead: HashSet<u128>,
    nodes: u64,
    budget: u64,
    rng: Rng,
    path: Vec<Drop>,
    lowest_first: bool,
    rough: u8,
}

fn pack(h: &[u8; WIDTH]) -> u128 {
    h.iter().fold(0u128, |acc, &v| (acc << 4) | v as u128)
}

enum Step {
    Done,
    Dead,
    Out,
}

impl Searcher {
    /// Whether every run of not-yet-full columns holds a multiple of 4 empty cells.
    fn splits_ok(&self, h: &[u8; WIDTH]) -> bool {
        let mut run = 0u32;
        for (&v, &cap) in h.iter().zip(&self.caps) {
            if v == cap {
                if !run.is_multiple_of(4) {
                    return false;
                }
                run = 0;
            } else {
                run += (cap - v) as u32;
            }
        }
        run.is_multiple_of(4)
    }

    /// Keeps the stacks within `rough` rows of each other above the cleared rows (ignoring
    /// columns that are complete): tall blocks are found far sooner by growing them evenly.
    fn flat_enough(&self, h: &[u8; WIDTH]) -> bool {
        let floor = *h.iter().min().unwrap_or(&0);
        h.iter()
            .zip(&self.caps)
            .all(|(&v, &cap)| v == cap || v - floor <= self.rough)
    }

    fn fits(&self, p: &Placement, h: &[u8; WIDTH], floor: u8) -> Option<u8> {
        let base = h[p.left] as i32 - p.bottom[0] as i32;
        if base < 0 {
            return None;
        }
        let mut supported = false;
        for i in 0..p.width {
            let hc = h[p.left + i];
            if hc as i32 != base + p.bottom[i] as i32
                || base + p.top[i] as i32 >= self.caps[p.left + i] as i32
            {
                return None;
            }
            supported |= hc > floor || self.support & (1 << (p.left + i)) != 0;
        }
        supported.then_some(base as u8)
    }

    fn go(&mut self, h: &[u8; WIDTH]) -> Step {
        if *h == self.caps {
            return Step::Done;
        }
        let key = pack(h);
        if self.dead.contains(&key) {
            return Step::Dead;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Step::Out;
        }
        let floor = *h.iter().min().unwrap_or(&0);
        // Candidate moves: (order key, placement). Lowest drops first when `lowest_first`,
        // otherwise a plain shuffle; the key's low bits are random either way.
        let mut moves = [(0u64, 0u16); 371];
        let mut n = 0;
        for (i, p) in self.placements.iter().enumerate() {
            if let Some(base) = self.fits(p, h, floor) {
                let r = self.rng.next_u64() >> 8;
                let key = if self.lowest_first {
                    ((base as u64) << 56) | r
                } else {
                    r
                };
                moves[n] = (key, i as u16);
                n += 1;
            }
        }
        let moves = &mut moves[..n];
        moves.sort_unstable();
        for &(_, i) in moves.iter() {
            let p = self.placements[i as usize];
            let mut next = *h;
            for c in 0..p.width {
                next[p.left + c] += p.top[c] - p.bottom[c] + 1;
            }
            if !self.splits_ok(&next) || !self.flat_enough(&next) {
                continue;
            }
            self.path.push(p.drop);
            match self.go(&next) {
                Step::Done => return Step::Done,
                Step::Out => return Step::Out,
                Step::Dead => {
                    self.path.pop();
                }
            }
        }
        self.dead.insert(key);
        Step::Dead
    }
}

/// How evenly tall blocks are grown: the stacks are kept within `rough` rows of each other, at
/// each level in turn, with this share (in eighths) of the budget. Tight levels find most tall
/// blocks in milliseconds (a 3-square, 5-row emitter: seconds to minutes with 4, instantly with
/// 2) but miss some that only a looser one finds (the single-square emitters needing 7 rows).
pub const ROUGH_LEVELS: [(u8, u64); 3] = [(2, 1), (3, 2), (4, 5)];

/// Searches for a drop sequence that fills `problem`'s rectangle, visiting at most `budget`
/// stack profiles. The same problem, budget and seed always give the same answer.
///
/// Rectangles of up to 4 rows are searched without restriction, so `Impossible` is a proof.
/// Taller ones are searched with the stacks kept even (see [`ROUGH_LEVELS`]): that search is not
/// exhaustive, so for them the answer is `Found` or `GaveUp`, never `Impossible`.
pub fn search(problem: &Problem, budget: u64, seed: u64) -> Outcome {
    search_counted(problem, budget, seed).0
}

/// [`search`], also returning how many stack profiles it visited (at most `budget`): the
/// converter charges that to its budget for a whole sprite.
pub fn search_counted(problem: &Problem, budget: u64, seed: u64) -> (Outcome, u64) {
    let caps = problem.caps;
    if problem.rows == 0
        || problem.rows > MAX_ROWS
        || caps.iter().any(|&c| c as usize > problem.rows)
        || problem.heights.iter().zip(&caps).any(|(h, c)| h > c)
    {
        return (Outcome::Impossible, 0);
    }
    let empty: u32 = problem
        .heights
        .iter()
        .zip(&caps)
        .map(|(&h, &c)| (c - h) as u32)
        .sum();
    let mut s = Searcher {
        caps,
        support: problem.support,
        placements: placements(),
        dead: HashSet::new(),
        nodes: 0,
        budget: 0,
        rng: Rng(seed | 1),
        path: Vec::new(),
        lowest_first: true,
        rough: u8::MAX,
    };
    if !empty.is_multiple_of(4) || !s.splits_ok(&problem.heights) {
        return (Outcome::Impossible, 0);
    }
    if problem.rows <= 4 {
        let outcome = s.restarts(&problem.heights, budget);
        return (outcome, s.nodes.min(budget));
    }
    let mut spent = 0;
    for (rough, eighths) in ROUGH_LEVELS {
        let share = budget * eighths / 8;
        // Profiles dead under a tighter level may live under a looser one.
        s.dead.clear();
        s.nodes = 0;
        s.rough = rough;
        if let Outcome::Found(d) = s.restarts(&problem.heights, share) {
            return (Outcome::Found(d), spent + s.nodes.min(share));
        }
        spent += s.nodes.min(share);
    }
    debug_assert!(spent <= budget);
    (Outcome::GaveUp, spent)
}

impl Searcher {
    /// Restarts, as the seed's searcher does (MAX_ATTEMPTS): a run that is not going well is
    /// abandoned after a few thousand profiles and the next starts with a new shuffle; every
    /// other run uses a plain shuffle instead of lowest-first. Dead ends proven by a run that
    /// was cut short stay proven, so they carry over, and a run that finishes without a
    /// sequence proves there is none (under the current `rough`).
    fn restarts(&mut self, start: &[u8; WIDTH], budget: u64) -> Outcome {
        let mut attempt_cap = 2_000u64;
        let mut attempt = 0u32;
        loop {
            let left = budget.saturating_sub(self.nodes);
            if left == 0 {
                return Outcome::GaveUp;
            }
            self.budget = self.nodes + attempt_cap.min(left);
            self.lowest_first = attempt.is_multiple_of(2);
            self.path.clear();
            match self.go(start) {
                Step::Done => return Outcome::Found(std::mem::take(&mut self.path)),
                Step::Dead => return Outcome::Impossible,
                Step::Out => {}
            }
            attempt += 1;
            attempt_cap += attempt_cap / 8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;

    #[test]
    fn there_are_371_placements() {
        // The seed's figure: 371 ways to add a piece to a 21-wide matrix.
        assert_eq!(placements().len(), 371);
    }

    #[test]
    fn seven_emitters_side_by_side_fill_one_row() {
        // Seven tops cover all 21 columns: nothing is left to drop.
        let p = Problem::rectangle(1, [1; WIDTH], 0);
        assert_eq!(search(&p, 10, 1), Outcome::Found(vec![]));
        // Three tops (columns 4-6, 11-13, 14-16) leave three gaps of four cells on the floor:
        // the search must find the three flat Is, one per gap.
        let mut heights = [0; WIDTH];
        heights[4..7].fill(1);
        heights[11..17].fill(1);
        let p = Problem::rectangle(1, heights, (1 << WIDTH) - 1);
        match search(&p, 1_000, 1) {
            Outcome::Found(d) => {
                let mut lefts: Vec<i32> = d
                    .iter()
                    .inspect(|d| assert_eq!(d.orientation.piece(), Piece::I, "{d:?}"))
                    .map(|d| d.x + i32::from(d.orientation.x_span().0))
                    .collect();
                lefts.sort_unstable();
                assert_eq!(lefts, [0, 7, 17]);
            }
            other => panic!("{other:?}"),
        }
        // Without the floor under the gaps nothing holds those Is up.
        let p = Problem::rectangle(1, heights, 0);
        assert_eq!(search(&p, 1_000, 1), Outcome::Impossible);
    }

    #[test]
    fn a_single_row_cannot_be_filled_without_support() {
        // One free row over nothing: only a flat I fits, and nothing holds it up (the seed).
        let mut heights = [0; WIDTH];
        heights[0] = 1;
        let p = Problem::rectangle(1, heights, 0);
        assert_eq!(search(&p, 1_000_000, 1), Outcome::Impossible);
        // On the floor the same row fills with five flat Is.
        let p = Problem::rectangle(1, heights, (1 << WIDTH) - 1);
        match search(&p, 1_000_000, 1) {
            Outcome::Found(d) => assert_eq!(d.len(), 5),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_single_square_emitter_needs_three_rows_not_two() {
        let mut heights = [0; WIDTH];
        heights[9..12].fill(1);
        for rows in [1, 2] {
            let p = Problem::rectangle(rows, heights, 0);
            assert_eq!(search(&p, 10_000_000, 1), Outcome::Impossible, "{rows} rows");
        }
        let p = Problem::rectangle(3, heights, 0);
        match search(&p, 10_000_000, 1) {
            Outcome::Found(d) => assert_eq!(d.len(), 15),
            other => panic!("{other:?}"),
        }
    }
}
