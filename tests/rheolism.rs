//! Rheolism, the one-line Tetris, played headless from its tokenized bytes with seeds and key
//! scripts; the assertions read the `--dump-screen colours` grid (one hex digit per text cell).
//!
//! Every expectation is derived from the seed document's explanation of the program
//! (shared/seeds/001_441bfe294a6e274a.txt), never recorded from a run:
//! - the screen is white (MODE 9, GCOL -9, CLG), the board is black: columns 15-24, rows 0-24;
//! - a brick v (0-6) has colour v+1 (COLOUR v-15 sets the text background to (v-15) AND 15);
//! - a brick is drawn around the text cursor B, which starts at (19,3), over the "flower" the
//!   loop `d=n/3 OR 2 EOR d` traces from B (VDU 8/9/10/11 moves), on the squares n whose bit
//!   (n+i) MOD 12 is set in 975 AND &C2590EC/8^v; i is the orientation (a rotation adds 9);
//! - key 7 (ASCII 55, 55 MOD 3 = 1) makes m = 8, left; 9 (57 MOD 3 = 0) m = 9, right; 8 (56 MOD 3
//!   = 2) m = 7, rotate; no key within INKEY 6 gives m = 10, down one row.

use std::collections::BTreeSet;
use std::process::Output;

mod common;
use common::retro;

const RHEOLISM: &str = "programs/rheolism/rheolism.bbc";

/// Runs Rheolism headless and returns (stdout, the final colour grid as 32 rows of 40 digits).
fn play(seed: u32, keys: &str, time: &str) -> (Output, Vec<Vec<u8>>) {
    let seed = seed.to_string();
    let keys = format!("={keys}");
    let mut args = vec!["run", RHEOLISM, "--headless", "--seed", &seed, "--keys", &keys];
    args.extend(["--dump-screen", "colours"]);
    if !time.is_empty() {
        args.extend(["--time", time]);
    }
    let o = retro(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // The dump is the last 32 lines (Rheolism itself prints no text).
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 32, "no screen dump in:\n{text}");
    let grid = lines[lines.len() - 32..]
        .iter()
        .map(|l| {
            let l = &l[l.len() - 40..];
            l.bytes()
                .map(|b| (b as char).to_digit(16).expect("hex digit") as u8)
                .collect()
        })
        .collect();
    (o, grid)
}

/// The cells of the board (columns 15-24, rows 0-24) that are not black, with their colours.
fn pieces(grid: &[Vec<u8>]) -> BTreeSet<(i32, i32, u8)> {
    let mut s = BTreeSet::new();
    for (row, line) in grid.iter().enumerate().take(25) {
        for (col, &c) in line.iter().enumerate().take(25).skip(15) {
            if c != 0 {
                s.insert((col as i32, row as i32, c));
            }
        }
    }
    s
}

/// The flower's squares n = 0..11 as (dx, dy) from B, by running the program's own direction
/// loop: d starts at 9 and becomes (n/3 OR 2) EOR d; VDU 8/9/10/11 move left/right/down/up.
fn flower() -> [(i32, i32); 12] {
    let (mut d, mut x, mut y) = (9, 0, 0);
    let mut out = [(0, 0); 12];
    for (n, o) in out.iter_mut().enumerate() {
        d ^= (n as i32 / 3) | 2;
        match d {
            8 => x -= 1,
            9 => x += 1,
            10 => y += 1,
            11 => y -= 1,
            _ => unreachable!("the flower only moves the cursor"),
        }
        *o = (x, y);
    }
    out
}

/// The squares brick `v` in orientation `i` covers with its cursor at B = (bx, by).
fn brick(v: u32, i: usize, (bx, by): (i32, i32)) -> BTreeSet<(i32, i32)> {
    let pattern = 975 & (0xC2590EC >> (3 * v));
    flower()
        .iter()
        .enumerate()
        .filter(|&(n, _)| pattern & (1 << ((n + i) % 12)) != 0)
        .map(|(_, &(dx, dy))| (bx + dx, by + dy))
        .collect()
}

/// The first brick a seed gives: `--seed N` is `RND(-N)`, and the program's first RND is
/// `v=ABS RND MOD 7`; the interpreter's RND (reference section 8) computes it.
fn first_brick(seed: u32) -> u32 {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("v.bbc");
    std::fs::write(&prog, format!("10 X=RND(-{seed})\n20 PRINT ABS RND MOD 7\n")).unwrap();
    let o = retro(&["run", "--headless", prog.to_str().unwrap()]);
    String::from_utf8_lossy(&o.stdout)
        .trim()
        .parse()
        .expect("a brick number")
}

/// Where brick `v` (orientation `i`) is on the board: the B for which its squares are exactly
/// the coloured cells, all in colour v+1.
fn locate(cells: &BTreeSet<(i32, i32, u8)>, v: u32, i: usize) -> (i32, i32) {
    let squares: BTreeSet<(i32, i32)> = cells.iter().map(|&(x, y, _)| (x, y)).collect();
    assert!(
        cells.iter().all(|&(_, _, c)| c as u32 == v + 1),
        "brick {v} in colour {}: {cells:?}",
        v + 1
    );
    let found: Vec<(i32, i32)> = (0..40)
        .flat_map(|bx| (0..32).map(move |by| (bx, by)))
        .filter(|&b| brick(v, i, b) == squares)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "brick {v} orientation {i} not found exactly once in {cells:?}"
    );
    found[0]
}

#[test]
fn the_initial_board_is_a_black_well_in_a_white_screen() {
    // At 0.1 s the scan has emptied the board (about 4 frames of statements) and the first brick
    // is not drawn yet (it waits for INKEY 6 first, 60 ms).
    let (_, grid) = play(1, "", "0.1");
    for (row, line) in grid.iter().enumerate() {
        for (col, &c) in line.iter().enumerate() {
            let board = (15..=24).contains(&col) && row <= 24;
            assert_eq!(c, if board { 0 } else { 7 }, "cell {col},{row}");
        }
    }
}

#[test]
fn the_first_brick_has_the_seeds_shape_and_colour_and_falls_in_its_column() {
    for seed in [1, 4, 13] {
        let v = first_brick(seed);
        let (_, grid) = play(seed, "", "0.5");
        let (bx, by) = locate(&pieces(&grid), v, 0);
        // It starts at (19,3) and only falls: same column, lower row.
        assert_eq!(bx, 19, "seed {seed}");
        assert!(by > 3, "seed {seed}: brick {v} has not fallen (B row {by})");
    }
}

#[test]
fn keys_7_and_9_move_the_brick_left_and_right_and_8_rotates_it() {
    // A key typed before the first INKEY is read at once: that iteration moves (or rotates)
    // instead of falling, and the falls that follow happen on the same frames as without the
    // key. So at any moment the brick is where it would be without the key, moved once.
    for seed in [1, 13] {
        let v = first_brick(seed);
        let (_, base) = play(seed, "", "0.5");
        let b = locate(&pieces(&base), v, 0);
        for (key, dx) in [("7", -1), ("9", 1), ("LEFT", -1), ("RIGHT", 1)] {
            let (_, moved) = play(seed, key, "0.5");
            assert_eq!(
                locate(&pieces(&moved), v, 0),
                (b.0 + dx, b.1),
                "seed {seed} key {key}"
            );
        }
        for key in ["8", "UP"] {
            // Rotation runs `i+=m=7AND9-6*r` in the test phase (r=0): i becomes 9, the squares
            // three quarter turns round the flower; it fits at the spawn point, so the draw
            // phase (which would add 3 more, back to 12 = 0) does not undo it.
            let (_, turned) = play(seed, key, "0.5");
            assert_eq!(locate(&pieces(&turned), v, 9), b, "seed {seed} key {key}");
        }
    }
}

#[test]
fn a_completed_line_disappears_and_the_rows_above_move_down() {
    // Seed 13 deals I, I, O (bricks 0, 0, 4: checked here). An I lies across columns 17-20
    // (squares 2, 3, 6, 7), an O on columns 18-19 (squares 0, 3, 6, 9). Two lefts put the first
    // I on 15-18, two rights the second on 19-22, five rights the O on 23-24: the O's lower half
    // completes row 24. Each brick takes about 1.5 s to fall (one row per INKEY 6), so the keys
    // for each come while it falls.
    let keys = "+200 7 7 +1700 9 9 +1700 9*5";
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("v.bbc");
    std::fs::write(
        &prog,
        "10 X=RND(-13)\n20 FOR I=1 TO 3:PRINT ABS RND MOD 7;:NEXT\n",
    )
    .unwrap();
    let o = retro(&["run", "--headless", prog.to_str().unwrap()]);
    let deal: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(deal, ["0", "0", "4"]);

    // Before the O lands: the two red Is fill row 24 but for columns 23-24.
    let (_, before) = play(13, keys, "4.4");
    assert_eq!(&before[24][15..25], &[1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    // After: row 24 was removed and everything above moved down one row, so the O's upper half
    // (magenta, colour 5) is now alone on row 24 and the row above it is empty.
    let (_, after) = play(13, keys, "4.8");
    assert_eq!(&after[24][15..25], &[0, 0, 0, 0, 0, 0, 0, 0, 5, 5]);
    assert!(after[23][15..25].iter().all(|&c| c == 0));
    // The next brick is already falling, whole, above.
    let rest: Vec<_> = pieces(&after).into_iter().filter(|&(_, y, _)| y < 23).collect();
    assert_eq!(rest.len(), 4, "{rest:?}");
    // Outside the board nothing changed: still white.
    assert!(
        after
            .iter()
            .all(|l| l[..15].iter().chain(&l[25..]).all(|&c| c == 7))
    );
}

#[test]
fn the_game_ends_by_itself_when_a_brick_cannot_leave_its_spawn_row() {
    // With no keys the bricks pile up under the spawn point (B = (19,3)) until one cannot fall
    // at all; UNTIL VPOS=3 then ends the program, with status 0. A program that has ended
    // changes the screen no more: the board at 30 s and at 60 s is the same, while at 5 s the
    // game was still going.
    let (_, early) = play(1, "", "5");
    let (at30, grid) = play(1, "", "30");
    let (_, at60) = play(1, "", "60");
    assert_eq!(grid, at60, "the program still runs after 30 s");
    assert_ne!(early, grid, "the game was already over at 5 s");
    // A graphics screen streams only lines with text (docs/bbc-vdu.md), and Rheolism prints
    // none: stdout holds the screen dump alone, not a thousand lines of brick spaces.
    assert_eq!(String::from_utf8_lossy(&at30.stdout).lines().count(), 32);
    // The last brick sits in its spawn rows (0-3) on top of the stack.
    assert!(pieces(&grid).iter().any(|&(_, y, _)| y <= 3));
}

#[test]
fn the_screenshot_shows_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("rheolism.png");
    let (_, grid) = play(1, "", "0.5");
    let o = retro(&[
        "run",
        RHEOLISM,
        "--headless",
        "--seed",
        "1",
        "--time",
        "0.5",
        "--screenshot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let info = common::Picture::read(&png);
    // MODE 9 is 320x256 square pixels; screenshots are at scale 2.
    assert_eq!((info.width, info.height), (640, 512));
    let rgb = |x: u32, y: u32| info.at(x, y);
    // Each text cell is 16x16 picture pixels; its centre has the cell's colour.
    let at = |col: u32, row: u32| rgb(col * 16 + 8, row * 16 + 8);
    assert_eq!(at(0, 0), (255, 255, 255), "white outside the board");
    assert_eq!(at(16, 10), (0, 0, 0), "black board");
    assert_eq!(at(20, 31), (255, 255, 255), "white below it");
    // The brick's cells in the dump are its colour in the picture too (white L for seed 1).
    let mut seen = 0;
    for (x, y, c) in pieces(&grid) {
        let want = [
            (0, 0, 0),
            (255, 0, 0),
            (0, 255, 0),
            (255, 255, 0),
            (0, 0, 255),
            (255, 0, 255),
            (0, 255, 255),
            (255, 255, 255),
        ][c as usize];
        assert_eq!(at(x as u32, y as u32), want);
        seen += 1;
    }
    assert_eq!(seen, 4);
}
