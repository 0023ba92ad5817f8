//! The AI's rules model (`motion`, `rules`) against the NES: the meta_nestris oracle's traces of
//! every movie we have (programs/tetris/tests/traces, recorded by record-traces.sh and
//! re-checked against the oracle in CI). Frame by frame, while a piece is in play, the model
//! steps the trace's state with the movie's buttons and must reach the trace's next state
//! (orientation, position, gravity, DAS and soft-drop counters, or the lock); at each lock the
//! model's field after its line clears, and its lines, level and score, must be the trace's when
//! the next piece appears.

use std::io::Read;
use std::path::{Path, PathBuf};

use retro_tetris_ai::motion::Motion;
use retro_tetris_ai::rules::{Board, MAX_SCORE, START, Tally};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn oracle_movies() -> Option<PathBuf> {
    let dir = std::env::var_os("RETRO_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/oracles"))
        .join("meta_nestris/tests/movies");
    if dir.join("metadata.yaml").exists() {
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

fn trace(name: &str) -> Vec<String> {
    let path = root().join(format!("programs/tetris/tests/traces/{name}.trace.gz"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines().map(str::to_string).collect()
}

/// The movie's buttons per frame, in the game's order (A in bit 7).
fn pads(movie: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(movie).unwrap();
    let m = retro_machine::movie::parse_fm2(&text).unwrap();
    m.frames.iter().map(|f| f.pad.0.reverse_bits()).collect()
}

/// A trace line's play state: (state, score, lines, level, motion, dead, field).
struct Line {
    state: String,
    score: u32,
    lines: u32,
    level: u8,
    m: Motion,
    board: Board,
}

fn parse(line: &str) -> Option<Line> {
    let f: Vec<&str> = line.split(' ').collect();
    if f.get(1) != Some(&"play") {
        return None;
    }
    let n = |i: usize| f[i].parse::<i32>().unwrap();
    let mut page = [0u8; 256];
    for (i, c) in f[14].bytes().enumerate() {
        page[i] = u8::from(c == b'#');
    }
    Some(Line {
        state: f[2].to_string(),
        score: n(3) as u32,
        lines: n(4) as u32,
        level: n(5) as u8,
        m: Motion {
            o: n(6) as u8,
            x: n(7) as i8,
            y: n(8) as i8,
            fall: n(10) as u8,
            shift_ar: n(11) as u8,
            drop_ar: n(12) as i8,
            hold_down: 0,
        },
        board: Board::from_page(&page),
    })
}

/// Checks one movie; returns (frames stepped, locks checked).
fn check(name: &str, movie: &Path) -> (usize, usize) {
    let lines = trace(name);
    let pads = pads(movie);
    let pad = |frame: usize| pads.get(frame - 1).copied().unwrap_or(0);
    let (mut stepped, mut locks) = (0, 0);
    let mut hold_down = 0u8;
    // A pause during the piece: its soft-drop count is not known, so its points are not checked.
    let mut paused = false;
    // The hidden rows -2 and -1 (the trace shows rows 0-19): what locks left there, from the
    // model itself.
    let mut hidden = [0u16; 2];
    // After a lock: the field, lines, level and score the next piece must find.
    let mut expect: Option<(Board, Tally)> = None;
    // B-type games (their lines count down from 25) have garbage frames the trace does not
    // show: the model is for A-type.
    let mut b_type = false;
    for i in 1..lines.len() {
        let Some(b) = parse(&lines[i]) else { continue };
        let Some(a) = parse(&lines[i - 1]) else {
            b_type = b.lines != 0;
            continue;
        };
        if b_type {
            continue;
        }
        let frame = i + 1; // line i (0-based) is the state after frame i + 1
        if b.state == "MoveTetrimino"
            && a.state != "MoveTetrimino"
            && let Some((board, tally)) = expect.take()
        {
            assert_eq!(b.board, board, "{name} frame {frame}: the field after the lock");
            assert_eq!(
                (b.lines, b.level, b.score.min(MAX_SCORE)),
                (tally.lines, tally.level, tally.score),
                "{name} frame {frame}: lines, level, score"
            );
            locks += 1;
        }
        if b.state == "MoveTetrimino" && a.state != "MoveTetrimino" {
            hold_down = 0;
            paused = false;
        }
        if a.state != "MoveTetrimino" {
            continue;
        }
        if pad(frame) & START != 0 || pad(frame - 1) & START != 0 {
            // Start pauses (or unpauses): frames the game does not run.
            paused = true;
            continue;
        }
        if lines[i - 1].split_once(' ').map(|x| x.1) == lines[i].split_once(' ').map(|x| x.1) {
            continue; // paused
        }
        let mut m = a.m;
        m.hold_down = hold_down;
        let mut field = a.board;
        field.rows[..2].copy_from_slice(&hidden);
        let locked = m.step(&field, a.level, pad(frame), pad(frame - 1));
        hold_down = m.hold_down;
        stepped += 1;
        if locked {
            assert_eq!(b.state, "LockTetrimino", "{name} frame {frame}: the lock");
            assert_eq!((b.m.o, b.m.x, b.m.y), (m.o, m.x, m.y), "{name} frame {frame}");
            let mut board = field;
            let cleared = board.lock(m.o, m.x, m.y);
            hidden.copy_from_slice(&board.rows[..2]);
            // The trace shows rows 0-19 only: the hidden rows are not compared.
            board.rows[0] = 0;
            board.rows[1] = 0;
            let mut tally = Tally {
                lines: a.lines,
                level: a.level,
                score: a.score.min(MAX_SCORE),
            };
            tally.add(cleared, hold_down);
            expect = (!paused).then_some((board, tally));
        } else {
            let got = (m.o, m.x, m.y, m.fall, m.shift_ar, m.drop_ar);
            let want = (b.m.o, b.m.x, b.m.y, b.m.fall, b.m.shift_ar, b.m.drop_ar);
            assert_eq!(got, want, "{name} frame {frame}: from {}", lines[i - 1]);
        }
    }
    (stepped, locks)
}

#[test]
fn the_rules_model_follows_the_oracle_on_every_a_type_movie() {
    let Some(movies) = oracle_movies() else { return };
    let mut total = (0, 0);
    let mut names: Vec<(String, PathBuf)> = vec![];
    for dir in ["a_type_999999_score", "death"] {
        for e in std::fs::read_dir(movies.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "fm2") {
                let stem = p.file_stem().unwrap().to_string_lossy().to_string();
                names.push((format!("{dir}/{stem}"), p));
            }
        }
    }
    for ours in ["a_type_level0", "level19", "ai_level19_seed1", "ai_level19_seed2"] {
        names.push((
            format!("ours/{ours}"),
            root().join(format!("programs/tetris/movies/{ours}.fm2")),
        ));
    }
    names.sort();
    for (name, movie) in &names {
        let (s, l) = check(name, movie);
        eprintln!("{name}: {s} frames stepped, {l} locks");
        total = (total.0 + s, total.1 + l);
    }
    // (34,379 frames and 1,128 locks when this was written: every A-type piece of every movie
    // but the ones paused with Start.)
    assert!(total.0 >= 34_000, "{total:?}");
    assert!(total.1 >= 1_100, "{total:?}");
}
