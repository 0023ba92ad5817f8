//! Baba Is You (programs/baba) end to end: the `retro` binary plays the program as a user would,
//! headless by key scripts (`retro run --headless --keys ... --dump-screen text|colours`), and in
//! a terminal (tmux). The expected screens are drawn here from the level designs
//! (programs/baba/levels.txt) and the tile graphics DATA of the listing (lines 8510-8536: four
//! characters and a colour per tile), so they check what the program draws, not how.

mod baba;

use std::path::Path;
use std::process::{Command, Output};

use baba::codec::{Field, W, decode};
use baba::levels::{LISTING, PRG, SOLUTIONS, designed, listing, petcat_text};
use retro_cbm::c64::charset::{Charset, screen_char};

#[path = "common/pty.rs"]
mod pty;

/// Screen rows the field takes (18 rows of 10 tiles, each tile four characters).
const FIELD_ROWS: usize = 18;
/// The status line ("LEVEL n OF m   TURN t") and the message line under it.
const STATUS_ROW: usize = 19;
const MESSAGE_ROW: usize = 20;

fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("retro runs")
}

/// Plays `program` headless with the key script `keys` and returns the final screen's 25 rows
/// (`dump` is `text` or `colours`) and everything printed before them. The run ends when the
/// program waits for a key the script does not have, or ends.
fn play(program: &str, keys: &str, dump: &str) -> (Vec<String>, String) {
    let script = format!("={keys}");
    let out = retro(&[
        "run",
        "--headless",
        program,
        "--keys",
        &script,
        "--dump-screen",
        dump,
    ]);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(
        out.status.code(),
        Some(0),
        "retro run {program} --keys '{keys}': {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 25, "a dumped screen: {stdout}");
    let (before, screen) = lines.split_at(lines.len() - 25);
    let screen: Vec<String> = screen.iter().map(|r| pad(r)).collect();
    (screen, before.join("\n"))
}

/// A dumped row, 40 characters (the dump may leave trailing blanks out).
fn pad(row: &str) -> String {
    let n = row.chars().count();
    format!("{row}{}", " ".repeat(40usize.saturating_sub(n)))
}

/// How the text dump shows a screen code (reverse video kept in bit 7): a reversed space is a
/// solid block, any other character is shown as itself (docs/c64.md).
fn dump_char(code: u8) -> char {
    let ch = screen_char(code, Charset::Upper);
    if code & 0x80 != 0 && ch == ' ' { '█' } else { ch }
}

/// Each tile's four screen codes and colour, read from the listing's tile graphics DATA
/// (`"four characters",colour,"name"`, reverse on/off by {rvon}/{rvof}) and turned into screen
/// codes as the C64's PETSCII-to-screen-code mapping does.
fn tile_faces() -> Vec<([u8; 4], u8)> {
    let mut items = Vec::new();
    for line in listing().lines() {
        let Some((num, rest)) = line.split_once(' ') else {
            continue;
        };
        let Ok(num) = num.parse::<u32>() else { continue };
        if !(8510..=8536).contains(&num) {
            continue;
        }
        let body = rest.strip_prefix("data").expect("a tile graphics DATA line");
        // Items separated by commas outside quotes.
        let mut quoted = false;
        let mut item = String::new();
        for c in body.chars().chain(std::iter::once(',')) {
            match c {
                '"' => {
                    quoted = !quoted;
                    item.push(c);
                }
                ',' if !quoted => items.push(std::mem::take(&mut item)),
                _ => item.push(c),
            }
        }
    }
    assert_eq!(items.len(), 32 * 3, "32 tiles of three items");
    items
        .chunks(3)
        .map(|t| {
            let bytes = retro_cbm::petcat::text_to_bytes(t[0].trim_matches('"')).expect("petcat");
            let mut codes = Vec::new();
            let mut reverse = 0;
            for b in bytes {
                match b {
                    18 => reverse = 128,
                    146 => reverse = 0,
                    _ => codes.push(petscii_to_screen_code(b) | reverse),
                }
            }
            let colour = t[1].trim().parse().expect("a colour");
            (codes.try_into().expect("four characters a tile"), colour)
        })
        .collect()
}

/// The screen code a printable PETSCII character is shown with.
fn petscii_to_screen_code(b: u8) -> u8 {
    match b {
        0x20..=0x3F => b,
        0x40..=0x5F => b - 0x40,
        0x60..=0x7F => b - 0x20,
        0xA0..=0xBF => b - 0x40,
        0xC0..=0xFE => b - 0x80,
        0xFF => 0x5E,
        _ => panic!("no screen code for PETSCII {b}"),
    }
}

/// The field's rows as the text dump and the colour dump show them.
fn field_picture(field: &Field) -> (Vec<String>, Vec<String>) {
    let faces = tile_faces();
    let mut text = Vec::new();
    let mut colours = Vec::new();
    for row in field.chunks(W) {
        let mut t = String::new();
        let mut c = String::new();
        for &tile in row {
            let (codes, colour) = faces[usize::from(tile & 31)];
            t.extend(codes.iter().map(|&s| dump_char(s)));
            c.push_str(&format!("{colour:x}").repeat(4));
        }
        text.push(t);
        colours.push(c);
    }
    (text, colours)
}

/// The key script that reaches level `n` (1-based) from the title screen.
fn to_level(n: usize) -> String {
    let mut keys = String::from("SPACE");
    if n > 1 {
        keys.push_str(&format!(" n*{}", n - 1));
    }
    keys
}

#[test]
fn the_title_screen_then_each_level_as_designed() {
    let (title, _) = play(PRG, "", "text");
    let title = title.join("\n");
    for words in ["BABA", "A RULE-PUSHING PUZZLE", "PRESS A KEY TO START"] {
        assert!(title.contains(words), "the title shows {words:?}:\n{title}");
    }
    let levels = designed();
    for (i, (name, grid)) in levels.iter().enumerate() {
        let keys = to_level(i + 1);
        let (text, _) = play(PRG, &keys, "text");
        let (colours, _) = play(PRG, &keys, "colours");
        let (want_text, want_colours) = field_picture(grid);
        assert_eq!(&text[..FIELD_ROWS], &want_text[..], "level {name}: the tiles");
        assert_eq!(
            &colours[..FIELD_ROWS],
            &want_colours[..],
            "level {name}: their colours"
        );
        assert_eq!(
            text[STATUS_ROW].trim_end(),
            format!(" LEVEL {} OF {}   TURN 0", i + 1, levels.len()),
            "level {name}: the status line"
        );
    }
}

#[test]
fn every_level_is_solved_by_its_key_script_on_the_prg_and_the_listing() {
    for (i, solution) in SOLUTIONS.iter().enumerate() {
        let (text, _) = play(PRG, &format!("{} {solution}", to_level(i + 1)), "text");
        assert_eq!(
            text[MESSAGE_ROW].trim_end(),
            " SOLVED! PRESS A KEY",
            "level {}: the win",
            i + 1
        );
    }
    // All ten in a row, a key after each win, end on the final screen.
    let all: Vec<String> = SOLUTIONS.iter().map(|s| format!("{s} SPACE")).collect();
    let keys = format!("SPACE {}", all.join(" "));
    for program in [PRG, LISTING] {
        let (text, _) = play(program, &keys, "text");
        let screen = text.join("\n");
        assert!(
            screen.contains(&format!("YOU SOLVED ALL {} LEVELS. WELL DONE!", SOLUTIONS.len())),
            "{program}: the final screen:\n{screen}"
        );
        // A key on the final screen goes back to the title.
        let (text, _) = play(program, &format!("{keys} SPACE"), "text");
        assert!(text.join("\n").contains("PRESS A KEY TO START"));
    }
}

#[test]
fn moves_undone_give_back_the_start_screen() {
    // Level 2: pushes rocks, walks into walls (no turn), then every turn is undone.
    let start = to_level(2);
    let moves = "RIGHT*3 DOWN UP*3 LEFT*2 RIGHT*4";
    let (moved, _) = play(PRG, &format!("{start} {moves}"), "text");
    let (text0, _) = play(PRG, &start, "text");
    assert_ne!(
        moved[..FIELD_ROWS],
        text0[..FIELD_ROWS],
        "the moves changed the field"
    );
    let turns: usize = moved[STATUS_ROW]
        .split("TURN")
        .nth(1)
        .and_then(|t| t.trim().parse().ok())
        .expect("the status line counts turns");
    assert!(turns > 0);
    let undone = format!("{start} {moves} z*{turns}");
    let (text, _) = play(PRG, &undone, "text");
    let (colours, _) = play(PRG, &undone, "colours");
    let (colours0, _) = play(PRG, &start, "colours");
    assert_eq!(text, text0, "the start screen's characters");
    assert_eq!(
        colours[..FIELD_ROWS],
        colours0[..FIELD_ROWS],
        "the start field's colours"
    );
    let (again, _) = play(PRG, &format!("{undone} z"), "text");
    assert_eq!(again, text0, "undo at the start does nothing");
}

#[test]
fn the_editor_shows_its_cursor_places_tiles_and_plays_them() {
    // Level 1: E, one tile right and a rock (C) there with water behind (SHIFT-E), F7.
    let keys = format!("{} e RIGHT c E", to_level(1));
    let (text, _) = play(PRG, &keys, "text");
    // The cursor >..< shows the tile under it: water (E) behind, rock (C) in front.
    assert_eq!(
        &text[0][4..8],
        ">EC<",
        "the editor's cursor:\n{}",
        text.join("\n")
    );
    assert!(text[MESSAGE_ROW].contains("EDITOR"));
    let (text, _) = play(PRG, &format!("{keys} F7"), "text");
    let mut grid = designed()[0].1;
    grid[1] = 3 + 32 * 5;
    assert_eq!(
        &text[..FIELD_ROWS],
        &field_picture(&grid).0[..],
        "F7 plays the edited field"
    );
    // F1: the legend names every tile letter.
    let (text, _) = play(PRG, &format!("{} e F1", to_level(1)), "text");
    let legend = text.join("\n");
    for tile in ["A BABA", "P IS", "Q YOU", "W SINK"] {
        assert!(legend.contains(tile), "the legend lists {tile:?}:\n{legend}");
    }
}

/// The screen editor's reading of a screen code (what RETURN on a line enters): 0-31 are the
/// letters 64-95, 32-63 themselves, 64-95 the shifted letters 192-223, 96-127 160-191.
fn screen_code_to_petscii(code: u8) -> u8 {
    match code & 0x7F {
        c @ 0..=31 => c + 64,
        c @ 32..=63 => c,
        c @ 64..=95 => c + 128,
        c => c + 64,
    }
}

/// The DATA lines and `15 ML=` line D left on the screen, read back as the screen editor reads
/// them: a line starts on a row with a number and ` DATA"` and goes on over the next row until
/// its closing quote.
fn d_lines(screen: &[String]) -> (Vec<(u32, Vec<u8>)>, Option<String>) {
    // The characters D can print: letters 64-95 (screen codes 0-31), digits, punctuation and
    // the quote (32-63), shifted letters (64-95), 161-167 (97-103), 188 (124) and 191 (127).
    let mut code_of = std::collections::HashMap::new();
    for code in (0..=103u8).chain([124, 127]).filter(|&c| c != 96) {
        let previous = code_of.insert(dump_char(code), code);
        assert!(
            previous.is_none(),
            "screen code {code} has a character of its own"
        );
    }
    let mut data = Vec::new();
    let mut ml = None;
    let mut row = 0;
    while row < screen.len() {
        let mut line = screen[row].clone();
        row += 1;
        if line.starts_with("15 ML=") {
            ml = Some(line.trim_end().to_string());
            continue;
        }
        let Some((num, _)) = line.split_once(" DATA\"") else {
            continue;
        };
        let Ok(num) = num.parse() else { continue };
        while line.matches('"').count() < 2 && row < screen.len() {
            line.push_str(&screen[row]);
            row += 1;
        }
        let string = line.split('"').nth(1).expect("a quoted string");
        let bytes = string
            .chars()
            .map(|c| screen_code_to_petscii(code_of[&c]))
            .collect();
        data.push((num, bytes));
    }
    (data, ml)
}

#[test]
fn d_shows_each_level_as_data_lines_that_decode_to_it() {
    let levels = designed();
    let first = 9000 + 10 * (levels.len() as u32 + 1);
    for (i, (name, grid)) in levels.iter().enumerate() {
        let (text, _) = play(PRG, &format!("{} d", to_level(i + 1)), "text");
        let (lines, ml) = d_lines(&text);
        assert!(!lines.is_empty(), "level {name}: D lines:\n{}", text.join("\n"));
        let strings: Vec<Vec<u8>> = lines.iter().map(|(_, s)| s.clone()).collect();
        assert_eq!(
            &decode(&strings),
            grid,
            "level {name}: the D lines on the screen ({:?}) decode to the level",
            strings.iter().map(|s| petcat_text(s)).collect::<Vec<_>>()
        );
        let nums: Vec<u32> = lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(nums, (first..first + nums.len() as u32).collect::<Vec<_>>());
        assert_eq!(ml, Some(format!("15 ML={}", levels.len() + 1)));
    }
}

/// A screen row of the terminal as tmux shows it: each C64 cell is two terminal columns.
fn spaced(s: &str) -> String {
    s.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

/// `retro run programs/baba/baba.prg` in a terminal (tmux, 100x40), as a player uses it: the
/// title, a level played to its win, then the editor's way of adding a level: D prints level 3
/// as DATA and stops at READY.; RETURN on the two printed lines enters them (the screen editor),
/// SAVE writes the program, RUN, and N ten times reaches the new level 11, which is level 3
/// again. Ctrl-Q gives the terminal back as it was.
#[test]
#[cfg(unix)]
fn played_in_a_terminal_with_a_level_added_through_d() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("temp dir");
    // Device 8 is the directory the program is in: a copy in the test's own directory.
    let prg = dir.path().join("baba.prg");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(PRG), &prg).expect("copy baba.prg");
    let args = format!("run '{}'", prg.display());
    let Some(tmux) = pty::Tmux::start("baba", 100, 40, dir.path(), &args) else {
        return;
    };
    let (send, wait_for) = (|keys: &[&str]| tmux.send(keys), |text: &str| tmux.wait_for(text));
    let press = |key: &str, n: usize| {
        for _ in 0..n {
            send(&[key]);
        }
    };
    wait_for(&spaced("PRESS A KEY TO START"));
    send(&["Space"]);
    wait_for(&spaced("LEVEL 1 OF 10   TURN 0"));
    press("Right", 4);
    press("Down", 5);
    wait_for(&spaced("SOLVED! PRESS A KEY"));
    send(&["Space"]);
    wait_for(&spaced("LEVEL 2 OF 10"));
    send(&["-l", "n"]);
    wait_for(&spaced("LEVEL 3 OF 10"));
    send(&["-l", "d"]);
    wait_for(&spaced("15 ML=11"));
    wait_for("R E A D Y .");
    // Below READY. now: up three rows to "15 ML=11", RETURN; up three more to the DATA line's
    // first row (it takes two), RETURN; the cursor is then on "15 ML=11" again: down one row
    // to the blank line, RUN.
    press("Up", 3);
    send(&["Enter"]);
    press("Up", 3);
    send(&["Enter"]);
    send(&["Down"]);
    // SAVE the program with its new level.
    send(&["-l", "save\"baba2\",8"]);
    send(&["Enter"]);
    wait_for(&spaced("SAVING BABA2"));
    let saved = dir.path().join("baba2.prg");
    let start = Instant::now();
    while !saved.exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    send(&["-l", "run"]);
    send(&["Enter"]);
    wait_for(&spaced("PRESS A KEY TO START"));
    send(&["Space"]);
    wait_for(&spaced("LEVEL 1 OF 11"));
    press("n", 10);
    let s = wait_for(&spaced("LEVEL 11 OF 11   TURN 0"));
    assert!(
        s.contains(&spaced("WALL")) && s.contains(&spaced("STOP")),
        "level 11 is level 3 (WALL IS STOP):\n{s}"
    );
    send(&["C-q"]);
    let s = tmux.finish();
    assert!(s.contains("RC=0"), "{s}");
    let listed = retro(&["list", saved.to_str().expect("a UTF-8 path")]);
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        listed.contains("15 ml=11") && listed.contains("9110 data\""),
        "the saved program holds the new level:\n{listed}"
    );
}
