//! `retro run programs/tetris/tetris.asm --ai` (issue #30, docs/tetris-ai.md) from the command
//! line: the AI's games, recorded with `--record`, are the NES's games: the meta_nestris oracle's
//! traces of the two committed AI movies (programs/tetris/movies/ai_level19_seed*.fm2, recorded
//! by movies/record.sh; traces by tests/record-traces.sh, re-checked against the oracle in CI)
//! equal our game's at every frame, and end on the score and lines the AI reported. Today's AI
//! plays those same games again (it is deterministic), so a change to the AI that changes its
//! games shows here and the movies are re-recorded.

use std::path::PathBuf;

mod common;
use common::{retro_text, tetris_trace};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn game() -> String {
    root().join("programs/tetris/tetris.asm").display().to_string()
}

/// The AI's two short games: (title-screen wait, what the AI printed).
const GAMES: [(u32, &str); 2] = [
    (1, "ai: score 112800 lines 31 level 19 frames 4095"),
    (2, "ai: score 132800 lines 31 level 19 frames 4259"),
];

#[test]
fn the_ai_plays_its_recorded_games_again_and_says_how_they_ended() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, line) in GAMES {
        let movie = dir.path().join(format!("ai{seed}.fm2"));
        let (out, err, code) = retro_text(&[
            "run",
            &game(),
            "--headless",
            "--ai",
            "--ai-lines",
            "30",
            "--seed",
            &seed.to_string(),
            "--record",
            movie.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out, format!("{line}\n"));
        assert!(
            err.contains("frames the game did not follow the plan: 0"),
            "{err}"
        );
        let committed =
            std::fs::read_to_string(root().join(format!("programs/tetris/movies/ai_level19_seed{seed}.fm2")))
                .unwrap();
        let recorded = std::fs::read_to_string(&movie).unwrap();
        assert!(
            recorded == committed,
            "seed {seed}: the recorded movie differs from the committed one"
        );
    }
}

#[test]
fn the_ai_games_are_the_oracles_games_frame_by_frame() {
    for (seed, line) in GAMES {
        let name = format!("ai_level19_seed{seed}");
        let want = tetris_trace(&format!("ours/{name}"));
        let movie = root().join(format!("programs/tetris/movies/{name}.fm2"));
        let (out, err, code) = retro_text(&[
            "run",
            &game(),
            "--headless",
            "--movie",
            movie.to_str().unwrap(),
            "--trace-state",
        ]);
        assert_eq!(code, Some(0), "{err}");
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got.len(), want.len(), "{name}: frames");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{name}: frame {} differs from the oracle's", i + 1);
        }
        // The oracle's last frame has the score and lines the AI printed.
        let f: Vec<&str> = want.last().unwrap().split(' ').collect();
        assert!(
            line.starts_with(&format!("ai: score {} lines {} level {}", f[3], f[4], f[5])),
            "{name}: the oracle ends on {} {} {}, the AI said {line}",
            f[3],
            f[4],
            f[5]
        );
    }
}

#[test]
fn bad_ai_options_are_refused() {
    for (args, says) in [
        (
            vec!["--ai", "--ai-level", "20"],
            "--ai-level 20: the game starts at levels 0-19",
        ),
        (
            vec!["--ai", "--ai-tap", "31"],
            "--ai-tap 31: 1 to 30 presses a second",
        ),
        (vec!["--ai-tap", "15"], "--ai"),
    ] {
        let mut all = vec!["run", "programs/tetris/tetris.asm", "--headless"];
        all.extend(args.iter().copied());
        let (_, err, code) = retro_text(&all);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A program that is not the Tetris game: its missing labels are named.
    let (_, err, code) = retro_text(&["run", "programs/connect4/connect4.asm", "--headless", "--ai"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the program has no label `in_game`"), "{err}");
}

#[path = "common/pty.rs"]
mod pty;

fn spaced(s: &str) -> String {
    s.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

/// In a terminal (tmux, 100 x 34) the AI plays to watch, with its panel (pieces per second, the
/// plan) under the screen; Escape (Ctrl-C reaches the machine as Escape) hands the controller
/// back; Ctrl-Q quits.
#[test]
#[cfg(unix)]
fn in_the_terminal_it_plays_to_watch_and_escape_takes_the_controller() {
    let args = format!("run '{}' --ai", game());
    let Some(tmux) = pty::Tmux::start("tetris-ai", 100, 34, &root(), &args) else {
        return;
    };
    tmux.wait_for(&spaced("LEVEL"));
    tmux.wait_for(&spaced("pieces/s"));
    let screen = tmux.wait_for(&spaced("value"));
    assert!(screen.contains(&spaced("plan o")), "{screen}");
    tmux.send(&["C-c"]);
    tmux.wait_for(&spaced("AI off: you play"));
    tmux.send(&["C-q"]);
    tmux.wait_for("RC=0");
}
