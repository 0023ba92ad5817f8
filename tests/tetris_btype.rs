//! NES Tetris's B-type end (issue #31): a B-type game that clears its 25 lines ends as the NES
//! ends it. The movie (programs/tetris/movies/b_type_ai.fm2) is a B-type game (level 9,
//! height 0) played by the Tetris AI's player (programs/tetris/ai) at the controller, the menus
//! and the name entry pressed by the recorder below; `RECORD=1 cargo test --test tetris_btype`
//! records it again. The meta_nestris oracle plays on past 0 lines, so its trace
//! (tests/traces/ours/b_type_ai.trace.gz, record-traces.sh) covers the game up to the frame the
//! lines reach 0 (frame 8,495): ours equals it there line for line, and on the next frame
//! (the NES's playState 6, which the oracle lacks) in all but the field, where ours shows the
//! SUCCESS box; from there on the oracle plays on (its next piece spawns 5 frames after the
//! goal) while ours shows SUCCESS, the ending's scene, the name entry and the level menu with
//! the new name.

use std::path::PathBuf;

use retro_tetris_ai::player::{Config, Player, controller, run_to_frame};
use retro_z80_machine::{FrameRate, Program, Workbench};

mod common;
use common::{retro_text, tetris_trace};

const MOVIE: &str = "programs/tetris/movies/b_type_ai.fm2";
// The buttons, in the game's order (A in bit 7, Right in bit 0).
const START: u8 = 0x10;
const UP: u8 = 0x08;
const DOWN: u8 = 0x04;
const RIGHT: u8 = 0x01;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn game() -> String {
    root().join("programs/tetris/tetris.asm").display().to_string()
}

/// Plays the movie's game: the menus to B-type, level 9, height 0; the AI's player in the game;
/// after the goal, Start in the ending's scene; the name "AI" entered; the level menu.
fn record() -> Vec<u8> {
    let asm = retro_z80_asm::assemble_file(&root().join("programs/tetris/tetris.asm"))
        .unwrap_or_else(|f| panic!("tetris.asm does not assemble:\n{}", f.render(false)));
    let program = Program::from_assembly(&asm);
    let mut m = Workbench::new(FrameRate::Hz60);
    program.load_into(&mut m);
    m.state.dev.save = None; // the NES's table, whatever the user has kept
    let sym = |name: &str| program.symbols.get(name).unwrap();
    let mut player = Player::new(&program.symbols, Config::default()).unwrap();
    let mut pads = vec![];
    let mut prev = 0u8;
    // Menu presses, one at a time, each released for a frame before the next.
    let mut script: Vec<u8> = vec![
        START, START, RIGHT, START, DOWN, RIGHT, RIGHT, RIGHT, RIGHT, START,
    ];
    let mut naming: Vec<u8> = vec![UP, RIGHT, UP, UP, UP, UP, UP, UP, UP, UP, UP, START];
    let mut scene_frames = 0;
    let mut after = 0;
    assert!(run_to_frame(&mut m));
    while pads.len() < 20_000 && after < 120 {
        let b = |name: &str| m.peek(sym(name));
        let busy = m.peek_word(sym("delay")) != 0;
        let pad = if b("in_game") == 0 {
            if b("menu_mode") == 3 && script.is_empty() && naming.is_empty() {
                after += 1;
            }
            let queue = if b("menu_mode") == 4 {
                &mut naming
            } else {
                &mut script
            };
            if busy || prev != 0 || queue.is_empty() {
                0
            } else {
                queue.remove(0)
            }
        } else if b("ending") != 0 {
            // The ending: Start two seconds into its scene.
            if b("ending") == 2 {
                scene_frames += 1;
            }
            if scene_frames == 120 { START } else { 0 }
        } else {
            player.frame(m.mem())
        };
        prev = pad;
        m.state.dev.pad = controller(pad);
        pads.push(controller(pad));
        assert!(run_to_frame(&mut m));
    }
    let b = |name: &str| m.peek(sym(name));
    assert!(
        naming.is_empty(),
        "the game did not reach the name entry: frame {}, in_game {} menu {} dead {} ending {} lines {:02x}",
        pads.len(),
        b("in_game"),
        b("menu_mode"),
        b("dead"),
        b("ending"),
        b("lines")
    );
    pads
}

#[test]
fn the_recorded_b_type_game_is_the_ai_game_played_again() {
    let pads = record();
    let text = retro_machine::movie::write_fm2(&pads, "B-type, level 9, height 0: the AI's player");
    let path = root().join(MOVIE);
    if std::env::var_os("RECORD").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == text,
        "{MOVIE} differs from the game recorded now (RECORD=1 to re-record)"
    );
}

/// Our game's state trace of the first `frames` frames of the movie.
fn trace(frames: usize) -> Vec<String> {
    screen_or_trace(frames, &["--trace-state"])
}

fn screen(frames: usize) -> Vec<String> {
    screen_or_trace(frames, &["--dump-screen", "text"])
}

fn screen_or_trace(frames: usize, what: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(MOVIE)).unwrap();
    let mut cut = String::new();
    let mut n = 0;
    for line in text.lines() {
        if line.starts_with('|') {
            if n == frames {
                continue;
            }
            n += 1;
        }
        cut.push_str(line);
        cut.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("cut.fm2");
    std::fs::write(&movie, cut).unwrap();
    let (game, movie) = (game(), movie.display().to_string());
    let mut args = vec!["run", &game, "--headless", "--movie", &movie];
    args.extend_from_slice(what);
    let (out, err, code) = retro_text(&args);
    assert_eq!(code, Some(0), "{err}");
    out.lines().map(str::to_string).collect()
}

fn field(line: &str) -> &str {
    line.rsplit(' ').next().unwrap()
}

#[test]
fn a_b_type_game_that_reaches_0_lines_ends_as_the_nes_ends_it() {
    let want = tetris_trace("ours/b_type_ai");
    // The goal: the frame the oracle's lines reach 0 (its game plays on after it).
    let goal = want
        .iter()
        .position(|l| l.split(' ').nth(1) == Some("play") && l.split(' ').nth(4) == Some("0"))
        .expect("the oracle's game reaches 0 lines");
    let ours = trace(goal + 3);
    for (i, (o, w)) in ours.iter().zip(&want).take(goal + 1).enumerate() {
        assert_eq!(o, w, "frame {} differs from the oracle's", i + 1);
    }
    eprintln!("b_type_ai: {} frames match the oracle, to the goal", goal + 1);
    // Where the oracle stops covering it: the next frame is the NES's playState 6
    // (bTypeGoalCheck), which the oracle does not have ("gameplay continues after the B-type
    // goal is reached", its lib.rs). Both count the frame (all but the field agree); ours writes
    // the SUCCESS box into rows 7-9, the oracle's field is unchanged.
    let but_field = |l: &str| l.rsplit_once(' ').unwrap().0.to_string();
    assert_eq!(but_field(&ours[goal + 1]), but_field(&want[goal + 1]));
    assert_eq!(field(&want[goal + 1]), field(&want[goal]));
    let box_rows: String = field(&ours[goal + 1]).chars().skip(70).take(30).collect();
    assert_eq!(box_rows, "#".repeat(30), "{}", ours[goal + 1]);
    assert_ne!(field(&want[goal + 1]).get(70..100), Some(&*"#".repeat(30)));
    // From the frame after, the NES sleeps in playState 6 (the frame's counters stand still);
    // the oracle plays on: its fall counter goes on counting and it spawns the next piece
    // (MoveTetrimino) 5 frames after the goal.
    let fall = |l: &str| l.split(' ').nth(10).unwrap().to_string();
    assert_eq!(fall(&ours[goal + 2]), fall(&ours[goal + 1]), "{}", ours[goal + 2]);
    assert_ne!(fall(&want[goal + 2]), fall(&want[goal + 1]), "{}", want[goal + 2]);
    assert_eq!(want[goal + 5].split(' ').nth(2), Some("MoveTetrimino"));
    // SUCCESS shows in the playfield for 14 + 128 frames.
    let s = screen(goal + 10);
    assert_eq!(s[2 + 8].get(11..21), Some(" SUCCESS! "), "{}", s.join("\n"));
    let s = screen(goal + 1 + 141);
    assert!(s.join("\n").contains("SUCCESS!"), "{}", s.join("\n"));
    // Then the ending's scene: the cathedral in half blocks, the level's objects in the sky.
    let rows = screen(goal + 1 + 142 + 40);
    let s = rows.join("\n");
    assert!(!s.contains("SUCCESS") && !s.contains("LINES"), "{s}");
    // The domes' tops (whole cells read as blanks), and one object (height 0: 0 + 1) in the sky.
    assert_eq!(rows[13].trim_end(), "               ▄ ▄", "{s}");
    assert_eq!(rows[14].trim_end(), "         ▄ ▄        ▄ ▄", "{s}");
    assert_eq!(
        rows[..13].iter().map(|r| r.matches('#').count()).sum::<usize>(),
        1,
        "{s}"
    );
    // Start: the score beats B-type's table: CONGRATULATIONS and the name entry, then the
    // level menu with the name "AI" in B-type's table.
    let end = std::fs::read_to_string(root().join(MOVIE))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('|'))
        .count();
    let s = screen(end).join("\n");
    assert!(
        s.contains("B-TYPE") && s.contains("LEVEL") && s.contains("HEIGHT"),
        "{s}"
    );
    assert!(
        s.contains("1 AI    "),
        "the new name first in B-type's table:\n{s}"
    );
    assert!(s.contains("2 ALEX   002000  09"), "{s}");
}
