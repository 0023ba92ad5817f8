//! The NES Tetris oracle's recorded traces (programs/tetris/tests/traces, made by
//! programs/tetris/tests/record-traces.sh from ../shared/oracles/meta_nestris) are what the Z80
//! Tetris (issue #17) will be compared with frame by frame. Here they are checked against the
//! upstream checkpoints in the oracle's metadata.yaml (score at a frame, death, menu mode), and
//! against the movies they were recorded from (one line per input frame; like the oracle's own
//! test, released buttons are played after a movie's end up to its last checkpoint).

use std::path::PathBuf;

mod common;
use common::tetris_trace;

fn oracle_movies() -> Option<PathBuf> {
    common::oracle("meta_nestris/tests/movies", "metadata.yaml")
}

/// A movie's checks: (frame, key, value).
type Checks = Vec<(usize, String, String)>;

/// metadata.yaml's entries: (movie path, [(frame, key, value)]). The file has one fixed shape
/// (`- filename:`, `checks:`, `FRAME:`, `key: value`), read line by line.
fn checkpoints(yaml: &str) -> Vec<(String, Checks)> {
    let mut entries: Vec<(String, Checks)> = Vec::new();
    let mut frame = 0;
    for line in yaml.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("- filename:") {
            entries.push((name.trim().to_string(), Vec::new()));
        } else if let Some(f) = t.strip_suffix(':').and_then(|f| f.parse().ok()) {
            frame = f;
        } else if let (Some((k, v)), Some(entry)) = (t.split_once(": "), entries.last_mut())
            && line.starts_with("      ")
        {
            entry.1.push((frame, k.to_string(), v.to_string()));
        }
    }
    entries
}

#[test]
fn recorded_traces_meet_the_oracles_checkpoints_and_cover_every_frame() {
    let Some(movies) = oracle_movies() else { return };
    let yaml = std::fs::read_to_string(movies.join("metadata.yaml")).unwrap();
    let entries = checkpoints(&yaml);
    assert!(entries.len() >= 25, "{} entries", entries.len());
    let mut checked = 0;
    for (movie, checks) in entries {
        let name = movie.trim_end_matches(".fm2");
        let lines = tetris_trace(name);
        let fm2 = std::fs::read_to_string(movies.join(&movie)).unwrap();
        let inputs = fm2.lines().filter(|l| l.starts_with('|')).count();
        let last_check = checks.iter().map(|c| c.0).max().unwrap_or(0);
        assert_eq!(lines.len(), inputs.max(last_check), "{movie}");
        for (frame, key, value) in checks {
            let fields: Vec<&str> = lines[frame - 1].split(' ').collect();
            assert_eq!(fields[0], frame.to_string(), "{movie}: frame numbering");
            // FRAME play PLAY_STATE score LINES level PIECE x y NEXT fall shift drop dead FIELD
            let got = match key.as_str() {
                "menu_mode" => (fields[1] == "menu").then(|| fields[2].to_string()),
                "is_gameplay_state" => Some((fields[1] == "play").to_string()),
                "score" => (fields[1] == "play").then(|| fields[3].to_string()),
                "line_count" => (fields[1] == "play").then(|| fields[4].to_string()),
                "dead" => Some((fields[1] == "play" && fields[13] == "1").to_string()),
                other => panic!("{movie}: unknown check {other}"),
            };
            assert_eq!(
                got.as_deref(),
                Some(value.as_str()),
                "{movie} frame {frame}: {key}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} checkpoints");
}
