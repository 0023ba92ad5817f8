//! What the Z80 NES Tetris (programs/tetris, issue #17) shows: the menus' text, the game's
//! numbers and statistics as the NES lays them out, the Select toggle of the next piece, pause,
//! the curtain after a top-out and the way back to the level menu. Driven headless by key
//! scripts and movies, read back with `--dump-screen text` / `colours` (the workbench's font).

use std::path::PathBuf;
use std::process::Command;

mod common;
#[path = "common/pty.rs"]
mod pty;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn game() -> PathBuf {
    root().join("programs/tetris/tetris.asm")
}

/// The screen after a headless run with `keys` for `seconds`, as `format` (text or colours),
/// with nothing kept in the user's data directory (the NES's high scores).
fn screen(keys: &str, seconds: f64, format: &str) -> Vec<String> {
    let none = tempfile::tempdir().unwrap();
    screen_in(none.path(), keys, seconds, format)
}

/// `screen` with the data directory `data` (`RETRO_DATA_DIR`: the high scores' save file).
fn screen_in(data: &std::path::Path, keys: &str, seconds: f64, format: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_retro"))
        .arg("run")
        .arg(game())
        .args(["--headless", "--keys", &format!("={keys}"), "--time"])
        .arg(seconds.to_string())
        .args(["--dump-screen", format])
        .env("RETRO_DATA_DIR", data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn row(screen: &[String], r: usize) -> &str {
    screen[r].trim_end()
}

/// A row from character column `c` on (the pictures' half blocks take more than a byte).
fn from_col(line: &str, c: usize) -> String {
    line.chars().skip(c).collect()
}

/// The legal screen is skippable with Start after 267 + its frames: 4.6 s in.
const TO_TITLE: &str = "+4600 START +600";
const TO_GAME_TYPE: &str = "+4600 START +600 START +600";
const TO_LEVEL: &str = "+4600 START +600 START +600 START +600";

#[test]
fn the_legal_screen_and_the_title_show_their_text() {
    let legal = screen("", 2.0, "text").join("\n");
    for words in ["TM AND (C) 1987 V/O", "TETRIS LICENSED TO", "ALEXEY PAZHITNOV"] {
        assert!(legal.contains(words), "{words:?} missing:\n{legal}");
    }
    let title = screen(TO_TITLE, 5.4, "text");
    let text = title.join("\n");
    assert!(text.contains("PUSH START"), "{text}");
    assert!(
        !text.contains("LICENSED"),
        "the legal screen's text is gone:\n{text}"
    );
    // TETRIS is a picture: letters of 3 x 5 half-cells, in half blocks at one cell per attribute
    // (whole cells are their colour: blank in text, coloured paper), a colour each.
    assert_eq!(row(&title, 4), "     ▀ ▀  ▀▀ ▀ ▀  ▀▄ ▀ ▀  ▀▀");
    assert_eq!(row(&title, 5), "          ▀       ▀▄     ▀▀");
    assert_eq!(row(&title, 6), "      ▀  ▀▀▀  ▀  ▀ ▀ ▀▀▀ ▀▀▀");
    let colours = screen(TO_TITLE, 5.4, "colours");
    let stems: String = [6, 9, 14, 17, 22, 25]
        .iter()
        .map(|&c| colours[4].as_bytes()[c] as char)
        .collect();
    assert_eq!(
        stems, "aecdbf",
        "T red, E yellow, T green, R cyan, I magenta, S white"
    );
}

#[test]
fn the_game_type_menu_marks_the_chosen_type_and_music() {
    let s = screen(TO_GAME_TYPE, 6.2, "text");
    assert_eq!(row(&s, 3).trim(), "GAME TYPE");
    assert_eq!(row(&s, 6), "     A-TYPE          B-TYPE");
    assert_eq!(row(&s, 14).trim(), "MUSIC-1");
    assert_eq!(row(&s, 20).trim(), "OFF");
    // The choice is black on yellow (flashing: ink and paper swap every 16 frames, so read the
    // attribute through both phases): B-TYPE and MUSIC-3 after Right and Down Down.
    let chosen = |keys: &str| -> Vec<(usize, usize)> {
        let mut cells = vec![];
        for extra in ["", " +270"] {
            let c = screen(
                &format!("{keys}{extra}"),
                7.0 + if extra.is_empty() { 0.0 } else { 0.27 },
                "colours",
            );
            for (r, line) in c.iter().enumerate() {
                for (col, ch) in line.chars().enumerate() {
                    if ch == 'e' {
                        cells.push((r, col));
                    }
                }
            }
        }
        cells.sort();
        cells.dedup();
        cells
    };
    let picked = chosen(&format!("{TO_GAME_TYPE} RIGHT DOWN DOWN"));
    let b_type: Vec<_> = (21..27).map(|c| (6, c)).collect();
    let music3: Vec<_> = (12..19).map(|c| (18, c)).collect();
    assert_eq!(picked, [b_type, music3].concat());
}

#[test]
fn the_level_menu_shows_levels_and_b_type_heights() {
    let a = screen(TO_LEVEL, 7.0, "text");
    assert_eq!(row(&a, 0).trim(), "A-TYPE");
    assert_eq!(row(&a, 3).trim(), "LEVEL");
    assert_eq!(row(&a, 5), "   0 1 2 3 4");
    assert_eq!(row(&a, 7), "   5 6 7 8 9");
    let b = screen("+4600 START +600 START +600 RIGHT START +600", 7.0, "text");
    assert_eq!(row(&b, 0).trim(), "B-TYPE");
    assert_eq!(row(&b, 3), "   LEVEL           HEIGHT");
    assert_eq!(row(&b, 5), "   0 1 2 3 4       0 1 2");
    assert_eq!(row(&b, 7), "   5 6 7 8 9       3 4 5");
}

#[test]
fn a_game_shows_lines_score_level_statistics_and_the_labels() {
    // Level 9 (Right x4, Down), A-type, two seconds in: one piece dealt and still falling.
    let s = screen(&format!("{TO_LEVEL} RIGHT*4 DOWN START +2000"), 9.5, "text");
    assert_eq!(row(&s, 0), " A-TYPE    LINES-000");
    assert_eq!(row(&s, 2), "STATISTICS             010000");
    assert_eq!(from_col(row(&s, 1), 23), "TOP");
    assert_eq!(from_col(row(&s, 4), 23), "SCORE");
    assert_eq!(from_col(row(&s, 5), 23), "000000");
    assert_eq!(from_col(row(&s, 8), 23), "NEXT");
    // The next piece in a box of half cells (its cells are attributes: blank in text).
    assert_eq!(from_col(row(&s, 9), 22), "▗▄▄▄▄▖");
    assert_eq!(from_col(row(&s, 10), 22), "▐    ▌");
    assert_eq!(from_col(row(&s, 11), 22), "▐    ▌");
    assert_eq!(from_col(row(&s, 12), 22), "▝▀▀▀▀▘");
    assert_eq!(from_col(row(&s, 14), 23), "LEVEL");
    assert_eq!(from_col(row(&s, 15), 23), " 09");
    // Seven small pieces, in half blocks (a mino is half a cell high; whole cells are coloured
    // paper, blank in text), with their counts, which add up to the one piece dealt.
    let pictures = [" ▀ ▀ ", " ▀▀  ", " ▀ ▄ ", "     ", " ▄ ▀ ", "  ▀▀ ", " ▀▀▀▀"];
    let colours = screen(&format!("{TO_LEVEL} RIGHT*4 DOWN START +2000"), 9.5, "colours");
    let mut total = 0;
    for (i, picture) in pictures.iter().enumerate() {
        let line: Vec<char> = row(&s, 4 + 2 * i).chars().collect();
        let shown: String = line[..5].iter().collect();
        assert_eq!(&shown, picture, "row {}: {line:?}", 4 + 2 * i);
        total += line[6..9].iter().collect::<String>().parse::<u32>().unwrap();
        // The whole cells (coloured paper; a half block's paper is black, BRIGHT or not): T's,
        // Z's and S's middle, J's and L's end, O's two.
        let whole: Vec<usize> = (1..5)
            .filter(|&c| !matches!(colours[4 + 2 * i].as_bytes()[c], b'0' | b'8'))
            .collect();
        let want: &[usize] = [&[2][..], &[3], &[2], &[2, 3], &[2], &[1], &[]][i];
        assert_eq!(whole, want, "row {}: {}", 4 + 2 * i, colours[4 + 2 * i]);
    }
    assert_eq!(total, 1);
}

#[test]
fn the_level_menu_shows_the_game_types_high_scores() {
    // The NES's table at power-on (nothing kept in the data directory): A-type's three, B-type's.
    let a = screen(TO_LEVEL, 7.0, "text");
    assert_eq!(row(&a, 12), "        NAME   SCORE   LV");
    assert_eq!(row(&a, 14), "      1 HOWARD 010000  09");
    assert_eq!(row(&a, 15), "      2 OTASAN 007500  05");
    assert_eq!(row(&a, 16), "      3 LANCE  005000  00");
    let b = screen("+4600 START +600 START +600 RIGHT START +600", 7.0, "text");
    assert_eq!(row(&b, 14), "      1 ALEX   002000  09");
    assert_eq!(row(&b, 15), "      2 TONY   001000  05");
    assert_eq!(row(&b, 16), "      3 NINTEN 000500  00");
}

/// The save file's bytes for a table: "TS", the six entries (name, BCD score little-endian,
/// level), their sum.
fn save_file(entries: &[(&str, u32, u8)]) -> Vec<u8> {
    let mut table = vec![];
    for (name, score, level) in entries {
        table.extend(format!("{name:<6}").bytes());
        let bcd = |n: u32| (((n / 10 % 10) << 4) | (n % 10)) as u8;
        table.extend([bcd(*score), bcd(score / 100), bcd(score / 10000), *level]);
    }
    let sum = table.iter().fold(0u8, |a, b| a.wrapping_add(*b));
    [b"TS".to_vec(), table, vec![sum]].concat()
}

#[test]
fn a_score_that_makes_the_table_is_named_and_kept_in_the_data_directory() {
    // A kept table whose A-type scores are 0: any score beats them.
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("z80/tetris.sav");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let kept = [
        ("ZED", 0, 3),
        ("YAN", 0, 3),
        ("XIA", 0, 3),
        ("WOL", 0, 3),
        ("VIC", 0, 3),
        ("UMA", 0, 3),
    ];
    std::fs::write(&file, save_file(&kept)).unwrap();
    let level = screen_in(data.path(), TO_LEVEL, 7.0, "text");
    assert_eq!(
        row(&level, 14),
        "      1 ZED    000000  03",
        "the kept table is read"
    );
    // Level 9: the first piece soft-dropped (11 points), then no input: it tops out; Start after
    // the curtain: the name entry.
    let play = format!("{TO_LEVEL} RIGHT*4 DOWN START +500 hold DOWN 700 +24000 START +1000");
    let s = screen_in(data.path(), &play, 33.5, "text");
    assert_eq!(row(&s, 2).trim(), "CONGRATULATIONS");
    assert_eq!(row(&s, 4).trim(), "YOU ARE A TETRIS MASTER.");
    assert_eq!(row(&s, 6).trim(), "PLEASE ENTER YOUR NAME");
    assert_eq!(row(&s, 9).trim(), "A-TYPE");
    assert_eq!(row(&s, 14), "      1        000011  09", "a blank name first");
    assert_eq!(
        row(&s, 15),
        "      2 ZED    000000  03",
        "the others a place down"
    );
    // The letter under the cursor flashes (black on bright yellow, swapping): only it is marked.
    let c = screen_in(data.path(), &play, 33.5, "colours");
    assert!(matches!(&c[14][7..10], "0e0" | "080"), "{}", c[14]);
    // Up: A; Right, Down Down: from the space back to the list's last, "-", then "."; Right, Up
    // held for half a second (30 frames): A at once, B 16 frames later, then C and D 6 apart.
    let named = format!("{play} UP RIGHT DOWN DOWN RIGHT hold UP 500 +300");
    let s = screen_in(data.path(), &named, 36.0, "text");
    assert_eq!(row(&s, 14), "      1 A.D    000011  09");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        save_file(&kept),
        "nothing is kept before Start"
    );
    // Start keeps it: the file, and the level menu of a new run.
    screen_in(data.path(), &format!("{named} START +1000"), 37.5, "text");
    let mut now = kept.to_vec();
    now.insert(0, ("A.D", 11, 9));
    now.remove(3);
    assert_eq!(std::fs::read(&file).unwrap(), save_file(&now));
    let level = screen_in(data.path(), TO_LEVEL, 7.0, "text");
    assert_eq!(row(&level, 14), "      1 A.D    000011  09");
    assert_eq!(row(&level, 16), "      3 YAN    000000  03");
}

#[test]
fn a_headless_run_neither_reads_nor_writes_the_users_high_scores() {
    // A user's kept table in every place the data directory could be (the home stands in a
    // temporary directory), and no RETRO_DATA_DIR: a headless run shows the NES's table and
    // plays a name entry to its end without keeping it.
    let home = tempfile::tempdir().unwrap();
    let xdg = home.path().join("xdg");
    let kept = save_file(&[("ZED", 0, 3); 6]);
    let places = [
        xdg.join("retro/z80/tetris.sav"),
        home.path().join(".local/share/retro/z80/tetris.sav"),
        home.path()
            .join("Library/Application Support/retro/z80/tetris.sav"),
    ];
    for file in &places {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, &kept).unwrap();
    }
    let run = |keys: &str, seconds: f64| -> Vec<String> {
        let out = Command::new(env!("CARGO_BIN_EXE_retro"))
            .arg("run")
            .arg(game())
            .args(["--headless", "--keys", &format!("={keys}"), "--time"])
            .arg(seconds.to_string())
            .args(["--dump-screen", "text"])
            .env_remove("RETRO_DATA_DIR")
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", &xdg)
            .env("APPDATA", &xdg)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let level = run(TO_LEVEL, 7.0);
    assert_eq!(row(&level, 14), "      1 HOWARD 010000  09", "the NES's table");
    // Level 9, soft-dropped and topped out (as above): 11 points beat the kept table's 0s but
    // not the NES's 5,000, so no name entry; a second Start (which would keep a name entered)
    // starts a new game.
    let play = format!("{TO_LEVEL} RIGHT*4 DOWN START +500 hold DOWN 700 +24000 START +1000");
    let s = run(&play, 33.5);
    assert!(!s.join("\n").contains("CONGRATULATIONS"), "{}", s.join("\n"));
    run(&format!("{play} START +1000"), 35.0);
    for file in &places {
        assert_eq!(std::fs::read(file).unwrap(), kept, "{} untouched", file.display());
    }
    let entries = walk(home.path());
    assert_eq!(
        entries.len(),
        places.len(),
        "nothing new under the home: {entries:?}"
    );
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_playfield_is_framed_in_white() {
    let s = screen(&format!("{TO_LEVEL} START +1000"), 8.0, "colours");
    // The playfield's 10 x 20 cells from row 2, column 11.
    if let Err(e) = common::white_frame(&s, 2, 11, 10, 20) {
        panic!("{e}:\n{}", s.join("\n"));
    }
}

#[test]
fn select_hides_and_shows_the_next_piece_and_pause_hides_the_playfield() {
    let start = format!("{TO_LEVEL} START +1000");
    // The next piece's box: rows 9-11, columns 23-27.
    let next_box = |s: &[String]| -> String { s[9..12].iter().map(|l| &l[23..28]).collect() };
    let shown = screen(&start, 8.0, "colours");
    assert!(next_box(&shown).chars().any(|c| c != '0'), "the next piece shows");
    let hidden = screen(&format!("{start} SELECT +300"), 8.4, "colours");
    assert!(next_box(&hidden).chars().all(|c| c == '0'), "Select hides it");
    let again = screen(&format!("{start} SELECT +300 SELECT +300"), 8.8, "colours");
    assert_eq!(next_box(&again), next_box(&shown), "Select shows it again");
    // Paused: PAUSE on a blank playfield; Start again brings the playfield back.
    let paused = screen(&format!("{start} START +300"), 8.4, "text");
    assert_eq!(row(&paused, 11).get(13..18), Some("PAUSE"));
    let colours = screen(&format!("{start} START +300"), 8.4, "colours");
    for line in &colours[2..22] {
        assert!(
            line[11..21].chars().all(|c| c == '0' || c == '8'),
            "the playfield is hidden: {line}"
        );
    }
    let resumed = screen(&format!("{start} START +300 START +300"), 8.8, "text");
    assert!(!resumed.join("\n").contains("PAUSE"));
}

#[test]
fn a_top_out_brings_the_curtain_down_and_start_returns_to_the_level_menu() {
    // Level 19 (A held while Start is pressed): with no input the pieces stack up in the middle and top out
    // within some 12 seconds.
    let play = format!("{TO_LEVEL} RIGHT*4 DOWN press PAD-A +100 START +100 release PAD-A");
    let over = screen(&format!("{play} +16000"), 23.0, "colours");
    for line in &over[2..22] {
        assert_eq!(&line[11..21], "7777777777", "the curtain covers the playfield");
    }
    let back = screen(&format!("{play} +16000 START +1000"), 24.5, "text");
    assert_eq!(row(&back, 3).trim(), "LEVEL");
    assert_eq!(row(&back, 5), "   0 1 2 3 4");
}

#[test]
fn a_movie_ends_with_the_numbers_of_its_last_state_on_the_screen() {
    // Our own level 0 game, replayed headless: the screen's LINES, SCORE and LEVEL are the state
    // the trace reports for the last frame.
    let movie = root().join("programs/tetris/movies/a_type_level0.fm2");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_retro"))
            .arg("run")
            .arg(game())
            .args(["--headless", "--movie"])
            .arg(&movie)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let trace = run(&["--trace-state"]);
    let last: Vec<&str> = trace
        .lines()
        .rev()
        .find(|l| l.split(' ').nth(1) == Some("play"))
        .expect("the movie plays a game")
        .split(' ')
        .collect();
    let (score, lines, level) = (last[3], last[4], last[5]);
    let s: Vec<String> = run(&["--dump-screen", "text"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(&row(&s, 0)[11..], format!("LINES-{:0>3}", lines));
    assert_eq!(from_col(row(&s, 5), 23), format!("{:0>6}", score));
    assert_eq!(row(&s, 15)[23..].trim(), format!("{:0>2}", level));
    assert!(score != "0", "the game scored: {score}");
}

/// `retro run --movie` in a terminal plays the movie to watch: our level 19 movie (level 19 is
/// reached only by the movie's A held with Start) shows LEVEL 19 at the machine's speed, Ctrl-Q
/// ends it and the terminal is given back.
#[test]
#[cfg(unix)]
fn a_movie_plays_in_the_terminal_to_watch() {
    use std::time::Duration;
    let mut s = pty::spawn_retro(
        100,
        30,
        &format!(
            "run '{}' --movie '{}'",
            game().display(),
            root().join("programs/tetris/movies/level19.fm2").display()
        ),
    );
    s.set_expect_timeout(Some(Duration::from_secs(90)));
    s.expect("\x1b[?1049h").expect("the run takes the screen");
    s.expect("L E V E L").expect("the game's screen is drawn");
    s.expect("1 9").expect("the movie started level 19");
    pty::quit_and_check_restored(s);
}

/// At 80 x 24 (the attribute cells, two terminal columns a cell) the pictures show as blocks:
/// the title's TETRIS in half blocks, the statistics' pieces (the T is `▀█▀`: its whole cell a
/// coloured blank) and NEXT's box in quarter blocks, each quarter block split over its cell's two
/// columns (`▗▄▄▄▄▖` is ` ▄▄▄▄▄▄▄▄▄▄ `, `▐` is ` █`).
#[test]
#[cfg(unix)]
fn the_pictures_show_at_80_by_24() {
    let data = tempfile::tempdir().unwrap();
    let cmd = format!(
        "RETRO_DATA_DIR='{}' '{}' run '{}'; echo RC=$?; sleep 30",
        data.path().display(),
        pty::RETRO,
        game().display()
    );
    let Some(tmux) = pty::Tmux::start_shell("tetris-80x24", 80, 24, &cmd, None) else {
        return;
    };
    // The legal screen takes Start after 267 frames: Enter until the title shows. T, E, T, R,
    // I, S: each letter's top row, 3 half cells wide (a cell is 2 columns).
    let top = "\u{2580}\u{2580}  \u{2580}\u{2580}    \u{2580}\u{2580}\u{2580}\u{2580}";
    let title = tmux.wait_until("the title's picture", |s| {
        s.contains(top) || {
            tmux.send(&["Enter"]);
            std::thread::sleep(std::time::Duration::from_millis(700));
            false
        }
    });
    assert!(title.contains("P U S H   S T A R T"), "{title}");
    for _ in 0..3 {
        tmux.send(&["Enter"]);
        std::thread::sleep(std::time::Duration::from_millis(800));
    }
    tmux.wait_for("S T A T I S T I C S");
    let game = tmux.wait_until("the next box", |s| {
        // (tmux leaves out the blanks at a line's end.)
        s.lines()
            .any(|l| l.ends_with(&format!(" {}", "\u{2584}".repeat(10))))
    });
    let lines: Vec<&str> = game.lines().collect();
    assert!(
        lines.iter().any(|l| l.contains(" \u{2588}        \u{2588}")),
        "NEXT's sides:\n{game}"
    );
    // The statistics' T (first of the seven): `▀▀  ▀▀` and its count.
    assert!(
        lines.iter().any(|l| l
            .trim_start()
            .starts_with("\u{2580}\u{2580}  \u{2580}\u{2580}    0 0")),
        "the T:\n{game}"
    );
    assert!(!game.contains('#'), "no cell falls back to `#`:\n{game}");
    tmux.send(&["C-q"]);
    tmux.wait_for("RC=0");
}

/// `retro debug --movie` gives the debugged program the movie's input: the game our level 19
/// movie starts is at level 19.
#[test]
fn the_debugger_replays_a_movie() {
    let out = Command::new(env!("CARGO_BIN_EXE_retro"))
        .arg("debug")
        .arg(game())
        .arg("--movie")
        .arg(root().join("programs/tetris/movies/level19.fm2"))
        .args([
            "--script",
            "=break game_over_frame;continue;print byte[level];print byte[dead]",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Breakpoint 1, "), "the game ends:\n{text}");
    assert!(text.contains("byte[level] = 19 ($13)"), "{text}");
    assert!(text.contains("byte[dead] = 1 ($01)"), "{text}");
}
