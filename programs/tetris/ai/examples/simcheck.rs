//! The rules model's games (`sim.rs`) against the real game: plays the AI on the Z80 game
//! (title-screen wait SEED, as `retro run --ai --seed`) and prints, for each piece, the frames
//! from its decision to the next piece's and what `sim.rs` counts for it, with the RNG state:
//! where the two first differ is where a simulated game stops being the game's.
//!
//!     cargo run --release -p retro-tetris-ai --example simcheck -- SEED [HZ] [PIECES]

use std::path::Path;

use retro_tetris_ai::player::{self, Config, Player, View, controller, run_to_frame};
use retro_tetris_ai::sim;
use retro_z80_machine::{FrameRate, Program, Workbench};

fn main() {
    let argv: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: SEED [HZ] [PIECES]"))
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris.asm");
    let asm = retro_z80_asm::assemble_file(&path).unwrap_or_else(|e| panic!("{e:?}"));
    let program = Program::from_assembly(&asm);
    let rng_labels = sim::RngLabels::find(&program.symbols).expect("the game's labels");
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    let cfg = Config {
        seed: argv.first().copied().unwrap_or(0),
        tap_hz: argv.get(1).copied().unwrap_or(30) as u8,
        weights: std::env::var("AI_WEIGHTS").map_or(retro_tetris_ai::eval::TUNED, |list| {
            let mut w = retro_tetris_ai::eval::TUNED;
            for (d, x) in w.w.iter_mut().zip(list.split(',')) {
                *d = x.trim().parse().expect("AI_WEIGHTS: numbers");
            }
            w
        }),
        ..Config::default()
    };
    let pieces = argv.get(2).copied().unwrap_or(100);
    let mut player = Player::new(&program.symbols, cfg).expect("the game's labels");
    let labels = *player.labels();
    run_to_frame(&mut m);
    let mut frame = 0u64;
    let mut first: Option<sim::Start> = None;
    let mut end = (0u32, 0u32, 0u32);
    let mut last: Option<(u64, u32, u8, sim::Timing)> = None;
    loop {
        let view = View::read(&labels, m.mem());
        if view.in_game && view.dead {
            println!("topped out at {} lines", view.lines);
            end = (player.pieces, view.lines, view.score);
            break;
        }
        let decided = player.pieces;
        let (rng, fc) = rng_labels.read(m.mem());
        let pad = player.frame(m.mem());
        if player.pieces > decided {
            if let Some((f0, l0, fc0, t)) = last {
                let real = frame - f0;
                let cleared = view.lines - l0;
                let model = t.frames(cleared as u8, fc0);
                println!(
                    "piece {:>4}: real {real:>3} frames, model {model:>3}{}",
                    decided - 1,
                    if real == model { "" } else { "   DIFFERS" }
                );
            }
            let d = player.last.as_ref().expect("a decision");
            let best = d.best().copied();
            println!(
                "piece {decided:>4}: {} next {} rng {:04x} count {} id {} fc {} path {} y {}{}",
                view.motion.o,
                view.next,
                rng.seed,
                rng.spawn_count,
                rng.spawn_id,
                fc,
                d.path.len(),
                best.map_or(0, |b| b.y),
                if view.motion.drop_ar != 0 { " (hang)" } else { "" }
            );
            last = best.map(|b| (frame, view.lines, fc, sim::Timing::of(d.path.len(), b.y)));
            if first.is_none() {
                first = Some(sim::Start {
                    rng,
                    fc,
                    current: view.motion.o,
                    next: view.next,
                    first: player.asked().expect("a decision").start,
                    cool: player.asked().expect("a decision").cool,
                });
            }
            end = (decided, view.lines, view.score);
            if decided >= pieces {
                break;
            }
        }
        m.state.dev.pad = controller(pad);
        if !run_to_frame(&mut m) {
            break;
        }
        frame += 1;
    }
    // The same game on the rules model alone, from the game's state at the first decision.
    let cfg = player.config();
    let o = sim::play_from(
        cfg.weights,
        cfg.level,
        player::period_of(cfg.tap_hz),
        first.expect("a first piece"),
        end.0,
    );
    println!(
        "game: {} pieces, lines {}, score {}; model: {} pieces, lines {}, score {}",
        end.0, end.1, end.2, o.pieces, o.lines, o.score
    );
}
