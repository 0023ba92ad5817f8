//! Whole games on the rules model alone (no emulator), for the tuner: the planner's placements,
//! the game's piece selection (its LFSR and `pick`), lines, levels and points. The piece
//! sequence depends on how many frames each piece takes (the RNG steps once a frame); the model
//! counts them exactly: the plan's frames, the entry delay and the line-clear animation by the
//! timing rule of nes-tetris.md section 6, with the frame counter's phase that decides the
//! animation's length. Started from the game's own state ([`Start`]), a simulated game is the
//! game's, piece for piece (`tests/sim_model.rs`, `examples/simcheck.rs`); started from a seed
//! (the tuner's games) it is a game the real one could deal, but for the first piece's hang,
//! which the seed's start leaves out (it only shifts where the RNG is).

use retro_z80_asm::output::SymbolTable;

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

/// Where a simulated game starts: the game's RNG and the frame counter when the first piece
/// is decided, and that piece and the next.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    pub rng: Rng,
    pub fc: u8,
    pub current: u8,
    pub next: u8,
    /// The first piece as it is decided (in the game, where its hang ended) and the frames
    /// before the timeline allows a press then.
    pub first: Motion,
    pub cool: u8,
}

impl Start {
    /// A game whose RNG starts `seed` steps after its power-on state (the frame counter's
    /// phase, which the title wait picks in the game, from the seed too), its two pieces picked
    /// as `game_init` picks them: the first, one RNG step, the next.
    pub fn from_seed(seed: u32) -> Start {
        let mut rng = Rng {
            seed: 0x8988,
            spawn_count: 0,
            spawn_id: 0,
        };
        for _ in 0..seed {
            rng.step();
        }
        let current = rng.pick();
        rng.step();
        let next = rng.pick();
        Start {
            rng,
            fc: seed as u8,
            current,
            next,
            first: Motion::spawn(current, 0),
            cool: 0,
        }
    }
}

/// Where the game keeps what [`Start`] needs besides the pieces: the RNG, the pick counter, the
/// last pick and the frame counter (ram.asm's labels).
#[derive(Clone, Copy, Debug)]
pub struct RngLabels {
    rng: usize,
    spawn_count: usize,
    spawn_id: usize,
    frame_counter: usize,
}

impl RngLabels {
    pub fn find(symbols: &SymbolTable) -> Result<RngLabels, String> {
        let get = |name: &str| {
            symbols
                .get(name)
                .map(usize::from)
                .ok_or_else(|| format!("the program has no label `{name}`"))
        };
        Ok(RngLabels {
            rng: get("rng")?,
            spawn_count: get("spawn_count")?,
            spawn_id: get("spawn_id")?,
            frame_counter: get("frame_counter")?,
        })
    }

    /// The RNG and the frame counter as `mem` holds them.
    pub fn read(&self, mem: &[u8; 0x10000]) -> (Rng, u8) {
        let rng = Rng {
            seed: u16::from_le_bytes([mem[self.rng], mem[self.rng + 1]]),
            spawn_count: mem[self.spawn_count],
            spawn_id: mem[self.spawn_id],
        };
        (rng, mem[self.frame_counter])
    }
}

/// Plays from `level` with presses every `period` frames until the top-out or `max_pieces`; the
/// RNG starts `seed` steps after its power-on state.
pub fn play(weights: Weights, level: u8, period: u8, seed: u32, max_pieces: u32) -> SimOutcome {
    play_from(weights, level, period, Start::from_seed(seed), max_pieces)
}

/// Plays a game from `start` (see [`play`]).
pub fn play_from(weights: Weights, level: u8, period: u8, start: Start, max_pieces: u32) -> SimOutcome {
    let mut planner = Planner::new(weights, period);
    let Start {
        mut rng,
        mut fc,
        mut current,
        mut next,
        first,
        cool,
    } = start;
    let mut board = Board::default();
    let mut tally = Tally::new(level);
    let mut out = SimOutcome::default();
    while out.pieces < max_pieces {
        let d = planner.decide(&Situation {
            board,
            tally,
            start: if out.pieces == 0 {
                first
            } else {
                Motion::spawn(current, 0)
            },
            cool: if out.pieces == 0 { cool } else { 0 },
            next: Some(next),
        });
        let Some(best) = d.best().copied() else { break };
        let cleared = board.lock(best.o, best.x, best.y);
        tally.add(cleared, 0);
        out.points += u64::from(POINTS[usize::from(cleared.min(4))]) * (u64::from(tally.level) + 1);
        let frames = Timing::of(d.path.len(), best.y).frames(cleared, fc);
        for _ in 0..frames {
            rng.step();
        }
        fc = fc.wrapping_add(frames as u8);
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

/// The frames from a piece's decision to the next piece's, as the model counts them.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    path: u64,
    y: i8,
}

impl Timing {
    /// A plan of `path` frames locking with its pivot in row `y`.
    pub fn of(path: usize, y: i8) -> Timing {
        Timing { path: path as u64, y }
    }

    /// The plan's frames, then the entry delay: 2k + 8 frames with k = ceil((20 - r0) / 4),
    /// r0 = max(y - 2, 0); a line clear's animation adds 17-20 frames, by the phase of the
    /// game's frame counter (`fc`, its value when the piece was decided): the animation steps
    /// on the frames where `frame_counter & 3` is 1 (play.asm), so its length is 17 + (1 - s)
    /// mod 4 with s the counter's phase after the plan and the entry delay. (A mean of 18 here
    /// made the simulated games' RNG drift from the game's at the first clear of 17, 19 or 20
    /// frames: `examples/simcheck.rs` compares the two piece by piece.)
    pub fn frames(self, cleared: u8, fc: u8) -> u64 {
        let r0 = (self.y - 2).max(0) as u64;
        let k = (20 - r0).div_ceil(4);
        let before = self.path + 2 * k + 8;
        if cleared == 0 {
            return before;
        }
        let s = (u64::from(fc) + before) & 3;
        before + 17 + ((5 - s) & 3)
    }
}
