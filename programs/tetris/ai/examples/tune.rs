//! The AI's tuner (docs/tetris-ai.md): the cross-entropy method over the evaluation's weights,
//! each candidate scored by whole games on the rules model (`retro_tetris_ai::sim`), no emulator.
//!
//!     cargo run --release -p retro-tetris-ai --example tune -- eval [--level 19] [--hz 30] [--games 10] [--pieces 1500]
//!     cargo run --release -p retro-tetris-ai --example tune -- tune [--seed 1] [--generations 8] [--population 12] [--games 10] [--pieces 1500] [--sigma 0.3] [--minutes M]
//!
//! `eval` plays `eval::TUNED` (or `--weights`); `tune` starts from them (its first mean) and
//! prints each generation's best and the mean it moves to; the last mean is what gets committed
//! (`eval::TUNER_SEED4`, the AI's default, came from `TUNED` this way).

use std::time::Instant;

use retro_tetris_ai::eval::{FEATURES, NAMES, TUNED, Weights};
use retro_tetris_ai::player::period_of;
use retro_tetris_ai::sim::{SimOutcome, play};

struct Args {
    mode: String,
    level: u8,
    hz: u8,
    games: u32,
    pieces: u32,
    seed: u64,
    generations: u32,
    population: usize,
    /// `--sigma S`: the first generation's spread, a fraction of each weight (plus 0.5).
    sigma: f64,
    /// `--minutes M`: no new generation starts after M minutes of wall time.
    minutes: f64,
    /// `--weights w1,w2,...`: play or start from these instead of the committed ones.
    weights: Weights,
}

fn args() -> Args {
    let mut a = Args {
        mode: "eval".into(),
        level: 19,
        hz: 30,
        games: 10,
        pieces: 1500,
        seed: 1,
        generations: 8,
        population: 12,
        sigma: 0.3,
        minutes: f64::INFINITY,
        weights: TUNED,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let value = || argv.get(i + 1).cloned().unwrap_or_default();
        let number = || {
            value()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{}: a number", argv[i]))
        };
        match argv[i].as_str() {
            "eval" | "tune" => {
                a.mode = argv[i].clone();
                i += 1;
                continue;
            }
            "--level" => a.level = number() as u8,
            "--hz" => a.hz = number() as u8,
            "--games" => a.games = number() as u32,
            "--pieces" => a.pieces = number() as u32,
            "--seed" => a.seed = number(),
            "--generations" => a.generations = number() as u32,
            "--population" => a.population = number() as usize,
            "--minutes" => a.minutes = number() as f64,
            "--sigma" => a.sigma = value().parse().unwrap_or_else(|_| panic!("--sigma: a number")),
            "--weights" => {
                let v: Vec<f32> = value()
                    .split(',')
                    .map(|x| x.trim().parse().expect("--weights: numbers"))
                    .collect();
                assert_eq!(v.len(), FEATURES, "--weights: {FEATURES} numbers");
                a.weights.w.copy_from_slice(&v);
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    a
}

/// The games' RNG starts: spread over the LFSR's period.
fn game_seed(g: u32) -> u32 {
    g * 3271 + 17
}

/// Games `first`.. (`a.games` of them) with weights `w`.
fn games(w: Weights, a: &Args, first: u32) -> Vec<SimOutcome> {
    (first..first + a.games)
        .map(|g| play(w, a.level, period_of(a.hz), game_seed(g), a.pieces))
        .collect()
}

/// A candidate's fitness: the mean over its games of the score (capped at 999,999, as the
/// game caps it: the goal is the max-out) less, for a game that topped out before its last
/// piece, 1,000,000 times the fraction of its pieces it did not play. So a top-out costs more
/// the earlier it comes (after 60 of 800 pieces, 925,000; after 700, 125,000): with 800 pieces
/// from level 19 (about 320 lines, into level 29, where the max-out comes), a candidate is
/// scored on what the goals ask for: max out, and do not die before (the benchmark's lost games
/// died at level 19 and at level 29's start). The fitness before this one (the uncapped points
/// of 1,000 pieces, 300,000 less for any top-out) was dominated by the points from level 30 up,
/// and a top-out after 60 pieces cost it no more than one after 900. Most games max out, so
/// candidates would tie on the capped score: a tenth of the uncapped points breaks the ties
/// (at most some 50,000 between games that lived, less than a top-out in the last 5% of the
/// pieces costs).
fn fitness(out: &[SimOutcome], pieces: u32) -> f64 {
    out.iter()
        .map(|o| {
            let lost = f64::from(pieces.saturating_sub(o.pieces)) / f64::from(pieces);
            f64::from(o.score) + 0.1 * o.points as f64 - 1_000_000.0 * lost
        })
        .sum::<f64>()
        / out.len() as f64
}

/// xorshift64* and Box-Muller: the tuner's own normal deviates.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.next().max(1e-12), self.next());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

fn main() {
    let a = args();
    if a.mode == "eval" {
        let t0 = Instant::now();
        println!("seed  score    points   lines level pieces frames");
        let out = games(a.weights, &a, 0);
        for (g, o) in out.iter().enumerate() {
            println!(
                "{:<5} {:<8} {:<8} {:<5} {:<5} {:<6} {}",
                game_seed(g as u32),
                o.score,
                o.points,
                o.lines,
                o.level,
                o.pieces,
                o.frames
            );
        }
        println!(
            "fitness {:.0}; topped out before {} pieces: {} of {}; {:.1} s",
            fitness(&out, a.pieces),
            a.pieces,
            out.iter().filter(|o| o.pieces < a.pieces).count(),
            out.len(),
            t0.elapsed().as_secs_f64()
        );
        return;
    }
    let mut rng = Rng(a.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut mean: Vec<f64> = a.weights.w.iter().map(|&w| f64::from(w)).collect();
    let mut sigma: Vec<f64> = mean.iter().map(|m| m.abs() * a.sigma + 0.5).collect();
    let elite = (a.population / 4).max(2);
    let started = Instant::now();
    for generation in 0..a.generations {
        if started.elapsed().as_secs_f64() > a.minutes * 60.0 {
            println!(
                "(--minutes {}: stopped before generation {generation})",
                a.minutes
            );
            break;
        }
        let t0 = Instant::now();
        // Each generation's candidates play the same games (new ones each generation, so the
        // mean does not fit a few piece sequences).
        let first = generation * a.games;
        let mut scored: Vec<(f64, Vec<f64>)> = (0..a.population)
            .map(|c| {
                let w: Vec<f64> = if c == 0 {
                    mean.clone()
                } else {
                    mean.iter()
                        .zip(&sigma)
                        .map(|(m, s)| m + s * rng.normal())
                        .collect()
                };
                let mut weights = Weights { w: [0.0; FEATURES] };
                for (d, s) in weights.w.iter_mut().zip(&w) {
                    *d = *s as f32;
                }
                (fitness(&games(weights, &a, first), a.pieces), w)
            })
            .collect();
        let at_mean = scored[0].0;
        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
        for i in 0..FEATURES {
            let xs: Vec<f64> = scored[..elite].iter().map(|s| s.1[i]).collect();
            let m = xs.iter().sum::<f64>() / elite as f64;
            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / elite as f64;
            mean[i] = m;
            sigma[i] = v.sqrt() + 0.05;
        }
        println!(
            "generation {generation}: best {:.0}, the mean's own {:.0} ({:.0} s)",
            scored[0].0,
            at_mean,
            t0.elapsed().as_secs_f64()
        );
        let show: Vec<String> = mean.iter().map(|m| format!("{m:.2}")).collect();
        println!("  mean: [{}]", show.join(", "));
    }
    for (n, m) in NAMES.iter().zip(&mean) {
        println!("{n:>20}: {m:.2}");
    }
}
