//! How long converting a 17x32 three-colour sprite takes over many random sprites, not just the
//! benchmark's three: the issue's target is under 1 second for every such sprite, realtime
//! searches included. The sprites come from fixed seeds, so every run measures the same ones.
//!
//! ```sh
//! cargo run --release -p retro-tpa --example speed [COUNT [TOTAL]]   # default 200 of each kind
//! ```
//!
//! TOTAL overrides the conversion's node budget ([`Effort::total`]), to see what a budget costs
//! and buys. Times are the thread's CPU time where Linux tells it (on the shared machine other
//! jobs inflate the wall clock), the wall clock elsewhere.
//!
//! Two kinds: every pixel opaque in a random colour (1-3), and each pixel transparent or one of
//! the three colours with equal odds (holes under pixels, so platforms). Prints, for each kind,
//! the median, 99th percentile and worst time and the pieces per pixel; the figures are recorded
//! in docs/tetris-printer.md.

use std::time::Instant;

use retro_tpa::convert::{Effort, convert_with};
use retro_tpa::image::{DEFAULT_PALETTE, Image};
use retro_tpa::pattern::Library;
// xorshift64*: the same sprites on every machine, with no dependency.
use retro_tpa::search::Rng;

fn sprite(seed: u64, transparent: bool) -> Image {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let px = (0..17 * 32)
        .map(|_| {
            if transparent {
                (rng.next_u64() >> 32) as u8 % 4
            } else {
                (rng.next_u64() >> 32) as u8 % 3 + 1
            }
        })
        .collect();
    Image::new(17, 32, px, DEFAULT_PALETTE).expect("17x32 fits")
}

/// The calling thread's CPU time in seconds (Linux's schedstat), if the system tells it.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Seconds `f` took: CPU time if known, else wall time.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let out = f();
    let took = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    (out, took)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut effort = Effort::default();
    if let Some(total) = args.next().and_then(|a| a.parse().ok()) {
        effort.total = total;
    }
    let library = Library::stored();
    println!(
        "time source: {}",
        if cpu_seconds().is_some() {
            "thread CPU time"
        } else {
            "wall clock"
        }
    );
    let mut failed = false;
    for (kind, transparent) in [("opaque", false), ("with transparency", true)] {
        let mut times = Vec::new();
        let (mut drops, mut pixels, mut refused, mut most_nodes) = (0usize, 0usize, 0usize, 0u64);
        for seed in 0..count {
            let image = sprite(seed, transparent);
            let (result, took) = timed(|| convert_with(&image, &library, effort));
            times.push((took, seed));
            match result {
                Ok(c) => {
                    drops += c.stats.drops;
                    pixels += c.stats.pixels;
                    most_nodes = most_nodes.max(c.stats.nodes);
                }
                Err(e) => {
                    // An empty row between printed ones is a legal refusal; anything else is not.
                    println!("{kind} seed {seed}: refused: {e}");
                    refused += 1;
                }
            }
        }
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let (worst, worst_seed) = times[times.len() - 1];
        println!(
            "17x32 {kind}: {count} sprites, median {:.3} s, 99th percentile {:.3} s, worst {worst:.3} s (seed {worst_seed}); \
             {drops} drops for {pixels} pixels = {:.2} pieces per pixel; {refused} refused; most search nodes {most_nodes}",
            at(0.5).0,
            at(0.99).0,
            drops as f64 / pixels.max(1) as f64,
        );
        failed |= worst >= 1.0;
    }
    if failed {
        println!("over the 1 s target");
        std::process::exit(1);
    }
}
