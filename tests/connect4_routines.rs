//! Connect-4's Z80 routines (programs/connect4/connect4.asm), each called on its own with the
//! inputs its header comment documents, and the win checks against a Rust model of the rules.
//!
//! Expectations come from the hackathon slides (shared/seeds/003_9b04d42a44da3aa5.txt) as
//! restated in shared/reference/connect4.md and issue #13: row 0 is the top row, Board is
//! XSIZE*YSIZE bytes (0 empty, 1/2 a player's piece), the checks return A = 0 for "N in a row" and
//! A = FFh (-1) otherwise, checkFullGrid returns A = 0 when the top row has a hole.

mod connect4;

use std::cell::{Cell, RefCell};

use connect4::harness::{CLASSIC, Size, Z80};
use connect4::model::{Board, winning_lines};
use connect4::{BUDGET, check, game_struct, load};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const OTHER: Size = Size { w: 8, h: 7, n: 5 };

#[test]
fn slot_pointer_addresses_every_slot_row_by_row() {
    for size in [
        CLASSIC,
        OTHER,
        Size { w: 1, h: 1, n: 2 },
        Size { w: 15, h: 9, n: 3 },
    ] {
        let mut z = Z80::new(size);
        let board = z.sym("Board");
        for y in 0..size.h {
            for x in 0..size.w {
                z.call(
                    "slotPointer",
                    &[("B", x as u16), ("C", y as u16), ("DE", 0x1234)],
                    BUDGET,
                )
                .unwrap();
                assert_eq!(
                    z.hl(),
                    board + (y * size.w + x) as u16,
                    "slotPointer({x},{y}) at {size:?}"
                );
                assert_eq!(z.bc(), ((x as u16) << 8) | y as u16, "BC is kept");
                assert_eq!(z.de(), 0x1234, "DE is kept");
            }
        }
    }
}

#[test]
fn drop_checker_finds_the_lowest_empty_slot_or_reports_a_full_column() {
    for size in [CLASSIC, OTHER] {
        let mut z = Z80::new(size);
        let board = z.sym("Board");
        for x in 0..size.w {
            // Fill the column one piece at a time: before each piece, dropChecker must name the slot
            // it lands in; with the column full, carry.
            for filled in 0..=size.h {
                z.call("dropChecker", &[("B", x as u16), ("DE", 0x5678)], BUDGET)
                    .unwrap();
                assert_eq!(z.de(), 0x5678, "DE is kept");
                assert_eq!(z.bc() >> 8, x as u16, "B is kept");
                if filled == size.h {
                    assert!(z.carry(), "column {x} full at {size:?}: carry");
                    assert_eq!(z.bc() & 0xFF, 0xFF, "column {x} full: C = FFh");
                } else {
                    let y = size.h - 1 - filled;
                    assert!(!z.carry(), "column {x} with {filled} pieces: no carry");
                    assert_eq!(
                        z.bc() & 0xFF,
                        y as u16,
                        "column {x} with {filled} pieces lands in row {y}"
                    );
                    assert_eq!(z.hl(), board + (y * size.w + x) as u16);
                    z.poke(board + (y * size.w + x) as u16, 1 + (filled % 2) as u8);
                }
            }
        }
    }
}

#[test]
fn check_full_grid_on_empty_nearly_full_and_full_boards() {
    for size in [CLASSIC, OTHER] {
        let mut z = Z80::new(size);
        let gs = z.sym("GAMESTRUCT");
        let board = z.sym("Board");
        let cells = (size.w * size.h) as u16;
        let full_grid = |z: &mut Z80| {
            z.call("checkFullGrid", &[("IY", gs)], BUDGET).unwrap();
            z.a()
        };
        assert_eq!(full_grid(&mut z), 0, "empty board at {size:?}");
        // Full, in a pattern of both players; the last top-row slot decides A's value.
        for i in 0..cells {
            z.poke(board + i, 1 + ((i / 3) % 2) as u8);
        }
        let last_top = z.peek(board + size.w as u16 - 1);
        assert_eq!(
            full_grid(&mut z),
            last_top,
            "full board at {size:?}: A = the last top slot"
        );
        // Nearly full: one hole in the top row, in each column in turn.
        for x in 0..size.w as u16 {
            let keep = z.peek(board + x);
            z.poke(board + x, 0);
            assert_eq!(
                full_grid(&mut z),
                0,
                "hole at column {x} of the top row at {size:?}"
            );
            z.poke(board + x, keep);
        }
        // Holes below the top row do not count (pieces cannot float; the slides' shortcut).
        z.poke(board + cells - 1, 0);
        assert_ne!(full_grid(&mut z), 0, "only the top row is read");
    }
}

/// A fixed, busy position (not necessarily reachable) to compare counts on: every cell and
/// direction.
fn busy_board(size: Size) -> Board {
    let mut b = Board::new(size);
    let mut s = 0x2545_F491u32;
    for y in 0..size.h {
        for x in 0..size.w {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            b.set(x, y, [0, 1, 2, 1, 2, 1][(s % 6) as usize]);
        }
    }
    b
}

#[test]
fn check_semi_diagonal_and_check_diagonal_count_like_the_slides() {
    for size in [CLASSIC, OTHER] {
        let mut z = Z80::new(size);
        let gs = z.sym("GAMESTRUCT");
        let count = gs + z.sym("COUNToff");
        let board = busy_board(size);
        for player in [1u8, 2] {
            for y in 0..size.h {
                for x in 0..size.w {
                    load(&mut z, &board, x, y, player);
                    for dy in -1i32..=1 {
                        for dx in -1i32..=1 {
                            if (dx, dy) == (0, 0) {
                                continue;
                            }
                            let regs = [
                                ("B", x as u16),
                                ("C", y as u16),
                                ("D", dx as u8 as u16),
                                ("E", dy as u8 as u16),
                                ("IY", gs),
                            ];
                            z.call("checkSemiDiagonal", &regs, BUDGET).unwrap();
                            let want = board.semi(x, y, dx, dy, player);
                            assert_eq!(z.a() as usize, want, "semi ({x},{y}) d=({dx},{dy}) p{player}");
                            assert_eq!(z.peek(count) as usize, want, "pieceCount holds the count");
                            assert_eq!(z.bc(), ((x as u16) << 8) | y as u16, "BC is kept");
                            assert_eq!(z.de(), ((dx as u8 as u16) << 8) | dy as u8 as u16, "DE kept");
                            z.call("checkDiagonal", &regs, BUDGET).unwrap();
                            let want = board.line(x, y, dx, dy, player);
                            assert_eq!(z.a() as usize, want, "line ({x},{y}) d=({dx},{dy}) p{player}");
                            assert_eq!(z.de(), ((dx as u8 as u16) << 8) | dy as u8 as u16, "DE kept");
                        }
                    }
                }
            }
        }
    }
}

/// The routines a line in direction `dir` is found by, besides checkWIN and checkWINgeneral.
fn direction_routine(line: &[(usize, usize)]) -> &'static str {
    let (x0, y0) = line[0];
    let (x1, y1) = line[1];
    match (x1 as i32 - x0 as i32, y1 as i32 - y0 as i32) {
        (1, 0) => "checkHorizontalN",
        (0, 1) => "checkVerticalN",
        _ => "checkDiagonals",
    }
}

/// Every winning line, completed by its last piece at each of its positions, for both players:
/// won. With one of the other pieces the opponent's: not won.
///
/// The board holds the line and, under each of its pieces, the other player's pieces, so the
/// position is one a game can reach and the line is the only one of the player's. A vertical line
/// can only be completed by its top piece (pieces stack), so its last piece is always the top one;
/// horizontal and diagonal lines are completed at each of their WINSIZE positions.
fn all_lines(size: Size, expect_lines: usize) {
    let mut z = Z80::new(size);
    let lines = winning_lines(size);
    assert_eq!(lines.len(), expect_lines, "winning lines at {size:?}");
    let mut checked = 0;
    for line in &lines {
        let vertical = direction_routine(line) == "checkVerticalN";
        for player in [1u8, 2] {
            let other = 3 - player;
            let mut board = Board::new(size);
            for &(x, y) in line {
                board.set(x, y, player);
                for below in y + 1..size.h {
                    if board.get(x, below) == 0 {
                        board.set(x, below, other);
                    }
                }
            }
            let lasts: Vec<usize> = if vertical { vec![0] } else { (0..size.n).collect() };
            for &k in &lasts {
                let (x, y) = line[k];
                load(&mut z, &board, x, y, player);
                let before = game_struct(&z);
                for routine in ["checkWIN", "checkWINgeneral", direction_routine(line)] {
                    assert!(
                        check(&mut z, routine, x, y),
                        "{routine}: line {line:?} last ({x},{y}) p{player}"
                    );
                }
                let count = z.sym("COUNToff") as usize;
                let mut after = game_struct(&z);
                after[count] = before[count];
                assert_eq!(
                    before, after,
                    "the checks change no GAMESTRUCT byte but pieceCount"
                );
                checked += 1;
                // One of the other pieces of the line is the opponent's: no line any more.
                for (j, &(ox, oy)) in line.iter().enumerate() {
                    if j == k {
                        continue;
                    }
                    let mut spoilt = board.clone();
                    spoilt.set(ox, oy, other);
                    load(&mut z, &spoilt, x, y, player);
                    for routine in ["checkWIN", "checkWINgeneral", direction_routine(line)] {
                        assert!(
                            !check(&mut z, routine, x, y),
                            "{routine}: line {line:?} last ({x},{y}) p{player}, ({ox},{oy}) the other's"
                        );
                    }
                }
            }
        }
    }
    // 7x6: 48 horizontal and diagonal lines at 4 positions and 21 vertical ones, for 2 players.
    let flat = lines
        .iter()
        .filter(|l| direction_routine(l) != "checkVerticalN")
        .count();
    assert_eq!(checked, 2 * (flat * size.n + (lines.len() - flat)));
}

#[test]
fn all_69_winning_lines_of_the_7x6_board() {
    all_lines(CLASSIC, 69);
}

#[test]
fn all_winning_lines_of_an_8x7_board_with_5_in_a_row() {
    // Horizontal 4*7, vertical 8*3, each diagonal direction 4*3.
    all_lines(OTHER, 28 + 24 + 24);
}

/// Plays random legal games (each move a column; a full column passes to the next free one) until
/// a win or a full board, and after every drop compares every check with the model. Returns the
/// number of positions compared.
fn play_and_compare(z: &mut Z80, moves: &[usize]) -> Result<usize, TestCaseError> {
    let size = z.size;
    let mut board = Board::new(size);
    let mut player = 1u8;
    let count = z.sym("COUNToff") as usize;
    let mut positions = 0;
    for &m in moves {
        let x = (0..size.w)
            .map(|k| (m + k) % size.w)
            .find(|&c| board.landing_row(c).is_some());
        let Some(x) = x else { break };
        let y = board.drop(x, player).unwrap();
        load(z, &board, x, y, player);
        let before = game_struct(z);
        let won = board.wins_through(x, y, player);
        prop_assert_eq!(
            check(z, "checkWIN", x, y),
            won,
            "checkWIN at {:?} after ({},{})",
            board,
            x,
            y
        );
        prop_assert_eq!(check(z, "checkWINgeneral", x, y), won, "checkWINgeneral");
        prop_assert_eq!(
            check(z, "checkHorizontalN", x, y),
            board.horizontal(y, player),
            "horizontal"
        );
        prop_assert_eq!(
            check(z, "checkVerticalN", x, y),
            board.vertical(x, y, player),
            "vertical"
        );
        prop_assert_eq!(
            check(z, "checkDiagonals", x, y),
            board.diagonals(x, y, player),
            "diagonals"
        );
        let gs = z.sym("GAMESTRUCT");
        z.call("checkFullGrid", &[("IY", gs)], BUDGET).unwrap();
        prop_assert_eq!(z.a() != 0, board.full(), "checkFullGrid");
        let mut after = game_struct(z);
        after[count] = before[count];
        prop_assert_eq!(before, after, "only pieceCount changes");
        positions += 1;
        if won {
            break;
        }
        player = 3 - player;
    }
    Ok(positions)
}

/// The property test for one board size. Each case is a whole game, tens of Z80 calls per position,
/// so the case count is fixed here rather than taken from PROPTEST_CASES (CI sets 100,000, which
/// would be millions of positions): 1,000 games give well over the 10,000 positions the issue
/// asks for, and the test counts them to be sure.
fn property(size: Size) {
    let z = RefCell::new(Z80::new(size));
    let positions = Cell::new(0usize);
    let mut runner = TestRunner::new(Config {
        cases: 1000,
        failure_persistence: None,
        ..Config::default()
    });
    let moves = proptest::collection::vec(0..size.w, size.w * size.h);
    runner
        .run(&moves, |m| {
            let n = play_and_compare(&mut z.borrow_mut(), &m)?;
            positions.set(positions.get() + n);
            Ok(())
        })
        .unwrap();
    assert!(
        positions.get() >= 10_000,
        "only {} positions compared",
        positions.get()
    );
}

#[test]
fn property_checks_agree_with_the_model_on_random_games_7x6() {
    property(CLASSIC);
}

#[test]
fn property_checks_agree_with_the_model_on_random_games_8x7_five_in_a_row() {
    property(OTHER);
}

/// The full, drawn board of docs/connect4.md (row 0 on top), reached by the moves
/// 2 1 1 3 1 1 1 1 2 2 2 2 2 3 4 3 3 3 3 5 4 5 4 4 6 4 6 4 6 5 5 6 5 5 7 7 7 6 7 7 7 6 (columns from
/// 1, player 1 first), with no four in a row anywhere.
pub const DRAWN_BOARD: [&str; 6] = ["2112221", "1222122", "2112121", "1221211", "1121212", "2121211"];

fn drawn_board() -> Board {
    let mut b = Board::new(CLASSIC);
    for (y, row) in DRAWN_BOARD.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            b.set(x, y, c - b'0');
        }
    }
    b
}

/// checkWIN's and checkWINgeneral's cost on the drawn full board, for the last piece in each
/// column of the top row: (instructions, T-states) of each. docs/connect4.md reports these numbers,
/// and this test reads them back from there, so neither the routines nor the page can change
/// without the other: a slower routine fails here, and a faster one needs the page updated.
#[test]
fn check_win_cost_on_a_full_board_is_the_documented_one() {
    let mut z = Z80::new(CLASSIC);
    let board = drawn_board();
    assert!(board.full());
    assert_eq!(board.cells.iter().filter(|&&c| c == 1).count(), 21);
    let gs = z.sym("GAMESTRUCT");
    let mut measured = Vec::new();
    for x in 0..CLASSIC.w {
        assert!(!board.wins_through(x, 0, board.get(x, 0)));
        load(&mut z, &board, x, 0, board.get(x, 0));
        let mut row = vec![x as u64 + 1, board.get(x, 0) as u64];
        for routine in ["checkWIN", "checkWINgeneral"] {
            let cost = z.call(routine, &[("IY", gs)], BUDGET).unwrap();
            assert_eq!(z.a(), 0xFF, "no line on the drawn board");
            row.extend([cost.instructions, cost.tstates]);
        }
        measured.push(row);
    }
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/connect4.md")).unwrap();
    // The table's rows: `| column | player | instructions | T-states | instructions | T-states |`.
    let documented: Vec<Vec<u64>> = doc
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let numbers: Option<Vec<u64>> = f
                .get(1..f.len().saturating_sub(1))?
                .iter()
                .map(|n| n.parse().ok())
                .collect();
            numbers.filter(|n| n.len() == 6)
        })
        .collect();
    let table: String = measured
        .iter()
        .map(|r| {
            format!(
                "| {} |\n",
                r.iter().map(u64::to_string).collect::<Vec<_>>().join(" | ")
            )
        })
        .collect();
    assert_eq!(
        documented, measured,
        "the routines' cost on the full board differs from docs/connect4.md; measured:\n{table}"
    );
}
/// The game draws its texts with the workbench's shared font, so that the debugger's screen panel
/// and `--dump-screen text` read them back as letters.
#[test]
fn the_game_font_is_the_shared_font() {
    let z = Z80::new(CLASSIC);
    let font = z.sym("Font");
    for c in b' '..=b'Z' {
        let at = font + 8 * (c - b' ') as u16;
        let glyph: Vec<u8> = (at..at + 8).map(|a| z.peek(a)).collect();
        assert_eq!(
            glyph,
            retro_screen::font::glyph(c as char),
            "glyph {:?}",
            c as char
        );
    }
}
