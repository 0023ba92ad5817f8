//! One game of the AI on the real Z80 game, headless (to the top-out or the max-out), with the field and `info ai` (the best five
//! placements and their terms) at every decision: for finding out why a game was lost.
//!
//!     cargo run --release -p retro-tetris-ai --example replay -- SEED [HZ] [FROM_PIECE] [W1,W2,...]
//!
//! SEED is the title-screen wait (`retro run --ai --seed`), HZ the press rate (default 30), and
//! decisions before FROM_PIECE are not printed; the weights (all of them, in
//! `eval::NAMES`' order) replace the committed ones.

use std::path::Path;

use retro_tetris_ai::explain::info_ai;
use retro_tetris_ai::player::{Config, Player, View, controller, run_to_frame};
use retro_tetris_ai::rules::MAX_SCORE;
use retro_z80_machine::{FrameRate, Program, Workbench};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let argv: Vec<u32> = args
        .iter()
        .take(3)
        .map(|a| a.parse().expect("numbers: SEED [HZ] [FROM_PIECE] [W1,W2,...]"))
        .collect();
    let mut weights = retro_tetris_ai::eval::TUNED;
    if let Some(list) = args.get(3) {
        for (w, x) in weights.w.iter_mut().zip(list.split(',')) {
            *w = x.trim().parse().expect("weights: numbers");
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris.asm");
    let asm = retro_z80_asm::assemble_file(&path).unwrap_or_else(|e| panic!("{e:?}"));
    let program = Program::from_assembly(&asm);
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    let cfg = Config {
        seed: argv.first().copied().unwrap_or(0),
        tap_hz: argv.get(1).copied().unwrap_or(30) as u8,
        weights,
        ..Config::default()
    };
    let from = argv.get(2).copied().unwrap_or(0);
    let mut player = Player::new(&program.symbols, cfg).expect("the game's labels");
    let labels = *player.labels();
    run_to_frame(&mut m);
    loop {
        let view = View::read(&labels, m.mem());
        if view.in_game && (view.dead || view.score == MAX_SCORE) {
            let end = if view.dead { "topped out" } else { "maxed out" };
            println!(
                "{end}: score {} lines {} level {}",
                view.score, view.lines, view.level
            );
            break;
        }
        let decided = player.pieces;
        let pad = player.frame(m.mem());
        if player.pieces > decided && decided >= from {
            println!("piece {decided}");
            for row in &view.board.rows[2..] {
                let cells: String = (0..10)
                    .map(|c| if row & (1 << c) != 0 { '#' } else { '.' })
                    .collect();
                println!("  {cells}");
            }
            print!("{}", info_ai(&mut player, 5));
        }
        m.state.dev.pad = controller(pad);
        if !run_to_frame(&mut m) {
            break;
        }
    }
}
