//! How long a move of programs/baba takes on our interpreter, in wall time: a level with 30 text
//! tiles, each measured move pushing a word (so the rules are read again and the border shows
//! it). `cargo run --release --example baba_speed` prints the statements each move ran and the
//! median and worst wall time over the moves (docs/baba.md has a run's figures).

#[path = "../tests/baba/mod.rs"]
mod baba;

use std::time::Instant;

use baba::harness::Baba;
use baba::levels::{grid, listing, with_levels};

fn main() {
    // 30 words: ten rules of three, BABA IS YOU among them; BABA pushes a word back and forth.
    let rows = [
        "IPQ.JPS...",
        "KPT.LPR...",
        "MPW.NPY...",
        "OPU.IPZ...",
        "KPV.NPX...",
        "..........",
        "..AS......",
    ];
    let level = grid(&rows);
    let words = level.iter().filter(|&&t| (8..32).contains(&t)).count();
    let mut g = Baba::listing(&with_levels(&listing(), &[level]));
    g.keys("SPACE");
    let mut times = Vec::new();
    let mut statements = Vec::new();
    for _ in 0..200 {
        // RIGHT pushes the loose STOP one tile, and the rules are read again; Z takes it back.
        let t = Instant::now();
        g.keys("RIGHT");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        statements.push(g.last_statements);
        g.keys("z");
    }
    times.sort_by(f64::total_cmp);
    statements.sort_unstable();
    println!("level with {words} text tiles, {} moves", times.len());
    println!(
        "wall time per move: median {:.2} ms, worst {:.2} ms",
        times[times.len() / 2],
        times[times.len() - 1]
    );
    println!(
        "statements per move: median {}, most {} (the machine runs 20,000 a 60 Hz jiffy)",
        statements[statements.len() / 2],
        statements[statements.len() - 1]
    );
}
