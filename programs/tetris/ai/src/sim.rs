//! Whole games on the rules model alone (no emulator), for the tuner: the planner's placements,
//! the game's piece selection (its LFSR and `pick`), lines, levels and points. The piece
//! sequence depends on how many frames each piece takes (the RNG steps once a frame); the model
//! counts the plan's frames exactly and the entry delay and line-clear animation from the
//! timing rule of nes-tetris.md section 6 (line clears at their mean), so its sequences are the
//! game's kind of sequence, not a prediction of one particular game.

use crate::eval::Weights;
use crate::motion::Motion;
use crate::plan::{Planner, Situation};
use crate::rules::{Board, POINTS, Rng, Tally};

/// A simulated game's end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimOutcome {
    pub score: u32,
    /// The points without the game's 999,999 cap (as meta_nestris's uncapped modifier counts
    /// them): the tuner's measure past the max-out, where the capped score no longer tells
    /// games apart.
    pub points: u64,
    pub lines: u32,
    pub level: u8,
    pub pieces: u32,
    pub frames: u64,
}

/// Plays from `level` with presses every `period` frames until the top-out or `max_pieces`; the
/// RNG starts `seed` steps after its power-on state.
pub fn play(weights: Weights, level: u8, period: u8, seed: u32, max_pieces: u32) -> SimOutcome {
    let mut planner = Planner::new(weights, period);
    let mut rng = Rng {
        seed: 0x8988,
        spawn_count: 0,
        spawn_id: 0,
    };
    for _ in 0..seed {
        rng.step();
    }
    let mut board = Board::default();
    let mut tally = Tally::new(level);
    let mut out = SimOutcome::default();
    let mut current = rng.pick();
    rng.step();
    let mut next = rng.pick();
    while out.pieces < max_pieces {
        let d = planner.decide(&Situation {
            board,
            tally,
            start: Motion::spawn(current, 0),
            cool: 0,
            next: Some(next),
        });
        let Some(best) = d.best().copied() else { break };
        let cleared = board.lock(best.o, best.x, best.y);
        tally.add(cleared, 0);
        out.points += u64::from(POINTS[usize::from(cleared.min(4))]) * (u64::from(tally.level) + 1);
        // The plan's frames, then the entry delay: 2k + 8 frames with k = ceil((20 - r0) / 4),
        // r0 = max(y - 2, 0); a line clear's animation adds 17-20 (18 here).
        let r0 = (best.y - 2).max(0) as u64;
        let k = (20 - r0).div_ceil(4);
        let frames = d.path.len() as u64 + 2 * k + 8 + if cleared > 0 { 18 } else { 0 };
        for _ in 0..frames {
            rng.step();
        }
        out.frames += frames;
        out.pieces += 1;
        current = next;
        next = rng.pick();
    }
    out.score = tally.score;
    out.lines = tally.lines;
    out.level = tally.level;
    out
}
