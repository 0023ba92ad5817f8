//! One game of the AI on the real Z80 game, headless, with the field and `info ai` (the best five
//! placements and their terms) at every decision: for finding out why a game was lost.
//!
//!     cargo run --release -p retro-tetris-ai --example replay -- SEED [HZ] [FROM_PIECE]
//!
//! SEED is the title-screen wait (`retro run --ai --seed`), HZ the press rate (default 30), and
//! decisions before FROM_PIECE are not printed.

use std::path::Path;

use retro_tetris_ai::explain::info_ai;
use retro_tetris_ai::player::{Config, Player, View, controller, run_to_frame};
use retro_z80_machine::{FrameRate, Program, Workbench};

fn main() {
    let argv: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: SEED [HZ] [FROM_PIECE]"))
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris.asm");
    let asm = retro_z80_asm::assemble_file(&path).unwrap_or_else(|e| panic!("{e:?}"));
    let program = Program::from_assembly(&asm);
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    let cfg = Config {
        seed: argv.first().copied().unwrap_or(0),
        tap_hz: argv.get(1).copied().unwrap_or(30) as u8,
        ..Config::default()
    };
    let from = argv.get(2).copied().unwrap_or(0);
    let mut player = Player::new(&program.symbols, cfg).expect("the game's labels");
    let labels = *player.labels();
    run_to_frame(&mut m);
    loop {
        let view = View::read(&labels, m.mem());
        if view.in_game && view.dead {
            println!("topped out: score {} lines {}", view.score, view.lines);
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
