//! The player on the real game (programs/tetris/tetris.asm on the Z80 workbench): it plays a
//! whole game from the title screen to the top-out through the controller alone. A second
//! machine replays the same buttons with no AI attached, and after every frame the two
//! machines' whole memories are the same: the player wrote nothing (a watchpoint on all 64K,
//! in effect). Over the whole game the game never did anything the player's rules model did not
//! predict.

use std::path::Path;

use retro_tetris_ai::explain::{info_ai, info_at, placement};
use retro_tetris_ai::plan::Planner;
use retro_tetris_ai::player::{Config, Player, period_of, play, run_to_frame};
use retro_tetris_ai::rules::Tally;
use retro_z80_machine::{FrameRate, Program, Workbench};

fn game() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris.asm");
    let asm = retro_z80_asm::assemble_file(&path).unwrap_or_else(|e| panic!("{e:?}"));
    Program::from_assembly(&asm)
}

fn machine(program: &Program) -> Workbench {
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    m
}

#[test]
fn a_whole_game_through_the_controller_alone() {
    let program = game();
    // 10 presses a second from level 19: a whole game, short enough for the unoptimised suite.
    let cfg = Config {
        level: 19,
        tap_hz: 10,
        seed: 5,
        ..Config::default()
    };
    let mut player = Player::new(&program.symbols, cfg).unwrap();
    let mut ai = machine(&program);
    let out = play(&mut ai, &mut player, 200_000);
    assert!(out.dead, "the game ends in a top-out: {out:?}");
    assert!(out.lines >= 5, "it clears lines: {} lines", out.lines);
    // The level the game's rule gives those lines from level 19 (the first level-up at 140).
    let mut tally = Tally::new(19);
    for _ in 0..out.lines {
        tally.add(1, 0);
    }
    assert_eq!(out.level, tally.level);
    assert_eq!(
        player.surprises, 0,
        "the game did what the model predicted at every frame"
    );
    assert!(player.pieces >= 20, "{} pieces", player.pieces);

    // The same buttons into a machine with no player: the same memory after every frame.
    let mut ai = machine(&program);
    let mut plain = machine(&program);
    run_to_frame(&mut ai);
    run_to_frame(&mut plain);
    let mut player = Player::new(&program.symbols, cfg).unwrap();
    for (frame, &pad) in out.pads.iter().enumerate() {
        let chosen = retro_tetris_ai::player::controller(player.frame(ai.mem()));
        assert_eq!(chosen, pad, "frame {}: the player is deterministic", frame + 1);
        ai.state.dev.pad = chosen;
        plain.state.dev.pad = pad;
        run_to_frame(&mut ai);
        run_to_frame(&mut plain);
        if ai.mem()[..] != plain.mem()[..] {
            let at = (0..0x10000).find(|&a| ai.mem()[a] != plain.mem()[a]).unwrap();
            panic!("frame {}: memory differs at {at:04X}h", frame + 1);
        }
    }
}

#[test]
fn info_ai_shows_the_decisions_best_five_with_their_terms() {
    let program = game();
    let mut m = machine(&program);
    let mut player = Player::new(&program.symbols, Config::default()).unwrap();
    assert_eq!(info_ai(&mut player, 5), "ai: no decision yet\n");
    run_to_frame(&mut m);
    // Up to the AI's fourth decision (a breakpoint where a piece spawns), frame by frame.
    while player.pieces < 4 {
        let pad = player.frame(m.mem());
        m.state.dev.pad = retro_tetris_ai::player::controller(pad);
        run_to_frame(&mut m);
    }
    let text = info_ai(&mut player, 5);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(
        lines[0].starts_with("ai: ") && lines[0].contains("level 19"),
        "{text}"
    );
    let best = *player.last.as_ref().unwrap().best().unwrap();
    let want = format!("1. {}", placement(best.o, best.x, best.y));
    assert!(lines[1].starts_with(&want), "{text}");
    assert!(lines[1].contains(&format!("value {:>9.1}", best.value)), "{text}");
    for (rank, line) in lines[1..].iter().enumerate() {
        assert!(line.starts_with(&format!("{}. ", rank + 1)), "{text}");
        assert!(line.contains(" then ") && line.contains("height"), "{text}");
    }

    // The debugger's way: the game played first (its buttons become a movie), each decision
    // with the frame it was made at; `info ai` at a frame explains the decision made there or
    // last before it.
    let cfg = Config {
        stop_lines: Some(2),
        ..Config::default()
    };
    let mut first = Player::new(&program.symbols, cfg).unwrap();
    let out = play(&mut machine(&program), &mut first, 100_000);
    assert!(out.decisions.len() > 6, "{} decisions", out.decisions.len());
    let mut planner = Planner::new(cfg.weights, period_of(cfg.tap_hz));
    let fourth = out.decisions[3].0;
    assert_eq!(info_at(&mut planner, &out, fourth, 5), text);
    let fifth = out.decisions[4].0;
    assert_eq!(
        info_at(&mut planner, &out, fifth - 1, 5),
        text,
        "between decisions"
    );
    assert_ne!(info_at(&mut planner, &out, fifth, 5), text);
    assert_eq!(
        info_at(&mut planner, &out, out.decisions[0].0 - 1, 5),
        "ai: no decision yet\n"
    );
}
