//! FM2 movies: every movie that comes with the NES Tetris oracle parses (from ../shared/oracles or
//! `$RETRO_ORACLES`), and no input makes the parser panic or take more than linear time.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use retro_machine::movie::{Pad, parse_fm2};

fn movies_dir() -> Option<PathBuf> {
    let oracles = std::env::var_os("RETRO_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles"));
    let dir = oracles.join("meta_nestris/tests/movies");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
        "{} is missing and RETRO_REQUIRE_CONFORMANCE is set",
        dir.display()
    );
    eprintln!("SKIPPED: {} not found (set RETRO_ORACLES)", dir.display());
    None
}

fn fm2_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            fm2_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "fm2") {
            out.push(path);
        }
    }
}

#[test]
fn every_oracle_movie_parses_with_one_frame_per_input_line() {
    let Some(dir) = movies_dir() else { return };
    let mut files = Vec::new();
    fm2_files(&dir, &mut files);
    assert!(
        files.len() >= 20,
        "expected the oracle's movies, found {}",
        files.len()
    );
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let movie = parse_fm2(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let input_lines = text.lines().filter(|l| l.starts_with('|')).count();
        assert_eq!(movie.frames.len(), input_lines, "{}", path.display());
        assert!(
            movie.get("romFilename").is_some_and(|r| r.starts_with("Tetris")),
            "{}",
            path.display()
        );
        // Every movie starts a game: Start is pressed somewhere.
        assert!(
            movie.frames.iter().any(|f| f.pad.pressed(Pad::START)),
            "{}",
            path.display()
        );
    }
}

proptest! {
    #[test]
    fn any_text_parses_or_fails_without_panicking(text in "(version 3\n)?([|0-9A-Za-z. \r\n]{0,40}\n){0,20}") {
        let _ = parse_fm2(&text);
    }

    #[test]
    fn written_frames_read_back(pads in prop::collection::vec((any::<u8>(), 0u8..4), 0..50)) {
        let mut text = String::from("version 3\nport0 1\n");
        for &(pad, cmd) in &pads {
            let buttons: String = "RLDUTSBA"
                .chars()
                .enumerate()
                .map(|(i, c)| if pad & (0x80 >> i) != 0 { c } else { '.' })
                .collect();
            text.push_str(&format!("|{cmd}|{buttons}|........||\n"));
        }
        let movie = parse_fm2(&text).unwrap();
        let back: Vec<(u8, u8)> = movie.frames.iter().map(|f| (f.pad.0, f.commands)).collect();
        prop_assert_eq!(back, pads);
    }
}

#[test]
fn a_megabyte_of_input_lines_parses_in_one_pass() {
    let mut text = String::from("version 3\n");
    while text.len() < 1 << 20 {
        text.push_str("|0|R..U...A|........||\n");
    }
    let movie = parse_fm2(&text).unwrap();
    assert!(movie.frames.len() > 40_000);
}
