//! The Z80 NES Tetris (programs/tetris, issue #17) replays every movie that comes with the
//! meta_nestris oracle and is compared frame by frame with the oracle's recorded trace
//! (programs/tetris/tests/traces, recorded by record-traces.sh; tests/tetris_traces.rs checks
//! them against the oracle's own checkpoints). Like the oracle's test, released buttons are played
//! after a movie's end up to its trace's length; the 999,999 movies run with `uncapped=1`, as the
//! oracle recorded them (its uncapped-score modifier).
//!
//! Each movie must match at least the number of frames in `MATCHED` (docs/tetris.md keeps the
//! same table); a movie that falls short reports its first differing frame with both states.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::tetris_trace;

/// (movie, frames that must match from the start). A count equal to the trace's length is a
/// whole-movie match.
const MATCHED: &[(&str, usize)] = &[
    ("a_type_999999_score/tasvideos_239m", 14764),
    ("a_type_999999_score/tasvideos_399m", 13314),
    ("b_type_clear/tasvideos_920m", 3087),
    ("death/no_i_pieces", 5148),
    ("death/no_input", 6610),
    ("death/normal_play", 2159),
    ("death/random_input_0", 29755),
    ("death/random_input_1", 43920),
    ("death/random_input_2", 55750),
    ("death/random_input_3", 43842),
    ("death/random_input_4", 77233),
    ("death/random_input_5", 18318),
    ("death/random_input_6", 17909),
    ("menuing/copyright_next_early", 280),
    ("menuing/game_type_next_early", 292),
    ("menuing/game_type_previous_early", 309),
    ("menuing/game_type_random_input", 4955),
    ("menuing/gameplay", 290),
    ("menuing/gameplay_with_backtrack", 306),
    ("menuing/gameplay_with_timeout", 545),
    ("menuing/level_select_next_early", 301),
    ("menuing/level_select_previous_early", 300),
    ("menuing/level_select_random_input", 5915),
    ("menuing/title_backtrack", 297),
    ("menuing/title_next_early", 285),
    ("menuing/title_next_early_after_timeout", 539),
    ("menuing/title_random_input", 16364),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Our game's trace of `movie` padded with released frames to `frames` frames.
fn our_trace(movie: &Path, frames: usize, uncapped: bool) -> Vec<String> {
    let text = std::fs::read_to_string(movie).unwrap();
    let mut padded = text.clone();
    let have = text.lines().filter(|l| l.starts_with('|')).count();
    for _ in have..frames {
        padded.push_str("|0|........|........||\n");
    }
    let dir = std::env::temp_dir().join(format!("retro-tetris-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(movie.file_name().unwrap());
    std::fs::write(&file, padded).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retro"));
    cmd.arg("run")
        .arg(root().join("programs/tetris/tetris.asm"))
        .arg("--headless")
        .arg("--movie")
        .arg(&file)
        .arg("--trace-state");
    if uncapped {
        cmd.args(["--poke", "uncapped=1"]);
    }
    let out = cmd.output().unwrap();
    std::fs::remove_file(&file).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_oracle_movie_replays_frame_by_frame_as_far_as_the_table_says() {
    let Some(movies) = common::oracle("meta_nestris/tests/movies", "metadata.yaml") else {
        return;
    };
    let mut report = String::new();
    let mut failures = vec![];
    for (name, need) in MATCHED {
        let want = tetris_trace(name);
        let got = our_trace(
            &movies.join(format!("{name}.fm2")),
            want.len(),
            name.starts_with("a_type_999999_score/"),
        );
        let same = want.iter().zip(&got).take_while(|(a, b)| a == b).count();
        report.push_str(&format!("{name}: matches {same} of {} frames\n", want.len()));
        if same < *need {
            failures.push(format!(
                "{name}: {same} frames match, {need} expected; frame {}:\n  oracle: {}\n  ours:   {}",
                same + 1,
                want.get(same).map_or("<end>", String::as_str),
                got.get(same).map_or("<end>", String::as_str),
            ));
        }
    }
    eprint!("{report}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Our own movies (programs/tetris/movies, recorded from key scripts with `retro run --record`:
/// a short A-type game from level 0, a level 19 start, a B-type game) match the oracle's traces
/// (recorded by record-traces.sh) at every frame up to the top-out, which each of them reaches;
/// the oracle does not model what follows it.
#[test]
fn our_own_movies_match_the_oracle_to_the_top_out() {
    for name in ["a_type_level0", "level19", "b_type"] {
        let want = tetris_trace(&format!("ours/{name}"));
        let death = want
            .iter()
            .position(|l| l.split(' ').nth(1) == Some("play") && l.split(' ').nth(13) == Some("1"))
            .unwrap_or_else(|| panic!("{name}: the oracle's game does not top out"));
        let movie = root().join(format!("programs/tetris/movies/{name}.fm2"));
        let got = our_trace(&movie, want.len(), false);
        let same = want.iter().zip(&got).take_while(|(a, b)| a == b).count();
        assert!(
            same > death,
            "{name}: frame {} differs:\n  oracle: {}\n  ours:   {}",
            same + 1,
            want[same],
            got.get(same).map_or("<end>", String::as_str)
        );
        eprintln!(
            "{name}: {} frames match, the top-out at frame {}",
            same,
            death + 1
        );
    }
}

/// `--record FILE.fm2` writes the movie through a symbolic link (the link stays a link) and into
/// a FIFO, as `cat >` would (#21: every user file).
#[test]
#[cfg(unix)]
fn record_writes_through_a_symlink_and_into_a_fifo() {
    let game = root().join("programs/tetris/tetris.asm");
    let record = |to: &str| {
        let game = game.to_str().expect("a UTF-8 path");
        common::retro(&[
            "run",
            game,
            "--headless",
            "--keys",
            "=+600 START",
            "--time",
            "1",
            "--record",
            to,
        ])
    };
    let dir = tempfile::tempdir().unwrap();
    for (how, movie) in [
        (
            "through a symlink",
            common::written_through_a_symlink(dir.path(), record),
        ),
        ("into a FIFO", common::written_into_a_fifo(dir.path(), record)),
    ] {
        let movie = String::from_utf8(movie).expect("a text movie");
        assert!(movie.starts_with("version 3\n"), "{how}: an FM2 header:\n{movie}");
        // The input log: a line a frame, about 60 for the second of NTSC time.
        let frames = movie.lines().filter(|l| l.starts_with('|')).count();
        assert!((55..=65).contains(&frames), "{how}: {frames} frames:\n{movie}");
    }
}
