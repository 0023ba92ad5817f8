//! The tuner's games (`sim.rs`, the rules model alone) are the real game's: started from the
//! state the Z80 game is in when the AI decides its first piece (the RNG, the pick counter, the
//! last pick, the frame counter, the first piece where its hang ended), the simulated game
//! places the same pieces in the same places and tops out at the same piece, with the same
//! lines and score, after the same number of frames. The frames decide how far the RNG steps
//! between pieces, so every line clear's animation (17-20 frames, by the frame counter's
//! phase) has to be counted exactly: with a mean of 18 the two games part at the first clear
//! of another length.

use std::path::Path;

use retro_tetris_ai::eval::TUNER_SEED3;
use retro_tetris_ai::player::{Config, Player, View, controller, period_of, run_to_frame};
use retro_tetris_ai::sim::{RngLabels, Start, play_from};
use retro_z80_machine::{FrameRate, Program, Workbench};

#[test]
fn a_simulated_game_from_the_games_start_is_the_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris.asm");
    let asm = retro_z80_asm::assemble_file(&path).unwrap_or_else(|e| panic!("{e:?}"));
    let program = Program::from_assembly(&asm);
    let rng_labels = RngLabels::find(&program.symbols).unwrap();
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    // Title wait 0 at 30 Hz with the tuner's seed-3 weights: a game lost at level 19 after 10
    // lines (docs/tetris-ai.md, "Games"), short enough for the unoptimised suite, with line
    // clears at several phases of the frame counter.
    let cfg = Config {
        seed: 0,
        tap_hz: 30,
        weights: TUNER_SEED3,
        ..Config::default()
    };
    let mut player = Player::new(&program.symbols, cfg).unwrap();
    let labels = *player.labels();
    run_to_frame(&mut m);
    let mut start = None;
    // The frame of each decision that placed a piece, and of the first that found no place.
    let mut placed = vec![];
    let mut no_place = None;
    let mut frame = 0u64;
    let view = loop {
        let view = View::read(&labels, m.mem());
        if view.in_game && view.dead {
            break view;
        }
        assert!(frame < 20_000, "the game ends");
        let (state, phase) = rng_labels.read(m.mem());
        let decided = player.pieces;
        let pad = player.frame(m.mem());
        let placing = player.last.as_ref().is_some_and(|d| d.best().is_some());
        if player.pieces > decided && !placing {
            no_place.get_or_insert(frame);
        }
        if player.pieces > decided && placing {
            placed.push(frame);
            let at = player.asked().unwrap();
            start.get_or_insert(Start {
                rng: state,
                fc: phase,
                current: view.motion.o,
                next: view.next,
                first: at.start,
                cool: at.cool,
            });
        }
        m.state.dev.pad = controller(pad);
        assert!(run_to_frame(&mut m));
        frame += 1;
    };
    let placed_count = placed.len() as u32;
    // The model plays on to its own top-out (a limit well past the game's).
    let sim = play_from(
        TUNER_SEED3,
        19,
        period_of(30),
        start.expect("a first decision"),
        placed_count + 100,
    );
    assert_eq!(
        (view.lines, view.score),
        (10, 28_800),
        "the game as the benchmark played it"
    );
    assert_eq!(
        (sim.pieces, sim.lines, sim.score),
        (placed_count, view.lines, view.score),
        "the model's game ends where the game's did"
    );
    // The model counts the frames from the first decision to the spawn that could not move.
    let end = no_place.expect("a spawn with no place: the top-out");
    assert_eq!(sim.frames, end - placed[0], "the frames the game took");
}
