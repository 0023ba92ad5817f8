//! Taps and holds in an ordinary terminal (tmux: no kitty keyboard protocol, so no key releases;
//! issue 31). A tap used to read as half a second of holding: one tap of Left moved a Tetris
//! piece four columns, and Connect-4 merged taps less than about 0.55 s apart. Now a lone press is
//! down for about two frames (docs/keys.md).

use std::path::Path;
use std::time::Duration;

#[path = "common/pty.rs"]
mod pty;

/// The screen without spaces (the workbench's text cells are two terminal columns each).
fn squeezed(screen: &str) -> String {
    screen.replace(' ', "")
}

/// One tap of Left, played in tmux while `--record` records the controller: the movie holds Left
/// for one to three frames, and replayed (`--movie --trace-state`) the first piece moves exactly
/// one column, from 5 to 4.
#[test]
#[cfg(unix)]
fn one_tap_of_left_moves_a_tetris_piece_one_column() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("tap.fm2");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(tmux) = pty::Tmux::start(
        "tap-tetris",
        100,
        40,
        here,
        &format!(
            "run programs/tetris/tetris.asm --keys '=+4600 START +600 START +600 START +600 START' \
             --record '{}'",
            movie.display()
        ),
    ) else {
        return;
    };
    tmux.wait_until("the game", |s| squeezed(s).contains("LINES-000"));
    std::thread::sleep(Duration::from_millis(500));
    tmux.send(&["Left"]);
    std::thread::sleep(Duration::from_millis(800));
    tmux.send(&["C-q"]);
    tmux.finish();

    let text = std::fs::read_to_string(&movie).expect("the movie was recorded");
    let frames: Vec<bool> = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(2).is_some_and(|pad| pad.contains('L')))
        .collect();
    let runs: Vec<usize> = frames
        .split(|&left| !left)
        .map(<[bool]>::len)
        .filter(|&n| n > 0)
        .collect();
    assert_eq!(runs.len(), 1, "one press of Left in the movie: {runs:?}");
    assert!(
        (1..=3).contains(&runs[0]),
        "a tap holds Left for about two frames, not {}",
        runs[0]
    );

    let out = std::process::Command::new(pty::RETRO)
        .current_dir(here)
        .args([
            "run",
            "programs/tetris/tetris.asm",
            "--headless",
            "--trace-state",
            "--movie",
        ])
        .arg(&movie)
        .output()
        .expect("run retro");
    let trace = String::from_utf8_lossy(&out.stdout);
    // FRAME play STATE score LINES level PIECE x y ...: the first piece's columns, in order.
    let play: Vec<Vec<&str>> = trace
        .lines()
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .filter(|f| f.get(1) == Some(&"play") && f.len() > 8)
        .collect();
    let first_piece = play.first().expect("the game was played")[6];
    let mut columns: Vec<&str> = play
        .iter()
        .take_while(|f| f[6] == first_piece)
        .map(|f| f[7])
        .collect();
    columns.dedup();
    assert_eq!(columns, ["5", "4"], "the first piece's columns");
}

/// Where Connect-4's cursor (the current player's colour over the column, on the row under the
/// message) starts, in terminal columns.
fn cursor_column(tmux: &pty::Tmux) -> usize {
    let shot = tmux.run(&["capture-pane", "-p", "-e"]);
    let screen = String::from_utf8_lossy(&shot.stdout).into_owned();
    let lines: Vec<&str> = screen.lines().collect();
    let message = lines
        .iter()
        .position(|l| squeezed(l).contains("YOURMOVE"))
        .unwrap_or_else(|| panic!("no turn message:\n{screen}"));
    pty::backgrounds(lines[message + 1])
        .iter()
        .position(Option::is_some)
        .unwrap_or_else(|| panic!("no cursor under the message:\n{screen}"))
}

/// Three taps of Right 0.15 s apart move Connect-4's cursor three columns (26.8).
#[test]
#[cfg(unix)]
fn three_quick_taps_move_connect4_three_columns() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(tmux) = pty::Tmux::start(
        "taps-connect4",
        100,
        40,
        here,
        "run programs/connect4/connect4.asm",
    ) else {
        return;
    };
    tmux.wait_until("the menu", |s| squeezed(s).contains("TWOPLAYERS"));
    tmux.send(&["2"]);
    tmux.wait_until("the first move", |s| squeezed(s).contains("P1:YOURMOVE"));
    let before = cursor_column(&tmux);
    for i in 0..3 {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(150));
        }
        tmux.send(&["Right"]);
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = cursor_column(&tmux);
    // A slot is three attribute cells apart (two wide and the frame), six terminal columns.
    assert_eq!(
        (after as isize - before as isize) / 6,
        3,
        "the cursor moved from column {before} to {after}"
    );
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// A game played at the keyboard (Enter for Start, X and Z to turn, Space for Select, arrows)
/// and recorded with `--record` replays the same from the movie: the replay's last screen is the
/// one the player saw (Enter and the letters used to be left out of the movie).
#[test]
#[cfg(unix)]
fn a_keyboard_played_tetris_game_replays_from_its_recording() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("played.fm2");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(tmux) = pty::Tmux::start(
        "record-tetris",
        100,
        40,
        here,
        &format!(
            "run programs/tetris/tetris.asm --record '{}' --dump-screen text",
            movie.display()
        ),
    ) else {
        return;
    };
    // Enter (Start) until the game is on: the legal screen, the title, the type and level menus.
    let mut tries = 0;
    while !squeezed(&tmux.screen()).contains("LINES-000") {
        assert!(tries < 60, "the game never started:\n{}", tmux.screen());
        tmux.send(&["Enter"]);
        std::thread::sleep(Duration::from_millis(400));
        tries += 1;
    }
    for key in ["x", "Left", "Left", "z", "Space", "Right", "x", "Down", "Down"] {
        tmux.send(&[key]);
        std::thread::sleep(Duration::from_millis(250));
    }
    tmux.send(&["C-q"]);
    let shown = tmux.finish();
    let lines: Vec<&str> = shown.lines().collect();
    let rc = lines
        .iter()
        .position(|l| l.starts_with("RC="))
        .expect("RC= shown");
    let played: Vec<String> = lines[rc.saturating_sub(24)..rc]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect();

    let out = std::process::Command::new(pty::RETRO)
        .current_dir(here)
        .args([
            "run",
            "programs/tetris/tetris.asm",
            "--headless",
            "--dump-screen",
            "text",
            "--movie",
        ])
        .arg(&movie)
        .output()
        .expect("run retro");
    let text = String::from_utf8_lossy(&out.stdout);
    let all: Vec<&str> = text.lines().collect();
    let replayed: Vec<String> = all[all.len().saturating_sub(24)..]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect();
    assert_eq!(replayed, played, "the replay ends on the screen the player saw");
    let movie_text = std::fs::read_to_string(&movie).unwrap();
    assert!(
        // Only frame lines: the header's `romFilename Tetris (USA)` has a T too.
        movie_text
            .lines()
            .filter(|l| l.starts_with('|'))
            .any(|l| l.split('|').nth(2).is_some_and(|pad| pad.contains('T'))),
        "Start (Enter) is in the movie"
    );
}
