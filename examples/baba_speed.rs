//! How long a move of programs/baba takes on our interpreter, in wall time: a level with 30 text
//! tiles in ten rules plus one loose word, each measured move pushing that word (so the rules are
//! read again and the border shows it), and each undo taking it back (the rules are read again
//! too). `cargo run --release --example baba_speed` prints the statements and the wall time per
//! move and per undo (median, 90th percentile, worst; docs/baba.md has a run's figures).
//! `-- --listing FILE` writes the program with that level instead, for whole-process timing
//! (scripts/baba-speed.sh).

#[path = "../tests/baba/mod.rs"]
mod baba;

use std::time::Instant;

use baba::harness::Baba;
use baba::levels::{grid, listing, with_levels};

/// Runs of the move and the undo.
const ROUNDS: usize = 500;

fn main() {
    // Ten rules of three words, BABA IS YOU among them, and a loose STOP for BABA to push.
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
    let text = with_levels(&listing(), &[level]);
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, path] = args.as_slice()
        && flag == "--listing"
    {
        std::fs::write(path, text).expect("the listing is written");
        return;
    }
    let words = level.iter().filter(|&&t| (8..32).contains(&t)).count();
    let mut g = Baba::listing(&text);
    g.keys("SPACE");
    let (mut moves, mut undos) = (Vec::new(), Vec::new());
    let (mut move_statements, mut undo_statements) = (0, 0);
    for _ in 0..ROUNDS {
        // RIGHT pushes the loose STOP one tile and the rules are read again; Z takes it back.
        let field = g.field();
        let t = Instant::now();
        g.keys("RIGHT");
        moves.push(t.elapsed().as_secs_f64() * 1000.0);
        move_statements = move_statements.max(g.last_statements);
        assert_ne!(g.field(), field, "the move pushed the word");
        let t = Instant::now();
        g.keys("z");
        undos.push(t.elapsed().as_secs_f64() * 1000.0);
        undo_statements = undo_statements.max(g.last_statements);
        assert_eq!(g.field(), field, "the undo took it back");
    }
    println!("level with {words} text tiles, {ROUNDS} moves and {ROUNDS} undos");
    for (what, times, statements) in [
        ("move", &mut moves, move_statements),
        ("undo", &mut undos, undo_statements),
    ] {
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "{what}: median {:.3} ms, 90% {:.3} ms, worst {:.3} ms of wall time; \
             at most {statements} statements (the machine runs 20,000 a 60 Hz jiffy)",
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
