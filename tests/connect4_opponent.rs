//! Connect-4's computer opponent (`computerMove` in programs/connect4/connect4.asm), called on its
//! own: it never misses a win in one move or a block of the opponent's win in one move, never
//! picks a full column, leaves GAMESTRUCT as it found it (but pieceCount), and beats a random
//! player in at least 95 of 100 games (issue #13).

mod connect4;

use std::cell::RefCell;

use connect4::harness::{CLASSIC, Size, Z80};
use connect4::model::Board;
use connect4::{BUDGET, game_struct, load};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Asks the Z80 for the computer's column in `board`, playing `player`.
fn computer_move(z: &mut Z80, board: &Board, player: u8) -> usize {
    // CurrentSlot and LastY hold something else, to see that they come back unchanged.
    load(z, board, 0, 0xFF, player);
    let before = game_struct(z);
    let gs = z.sym("GAMESTRUCT");
    z.call("computerMove", &[("IY", gs)], BUDGET)
        .unwrap_or_else(|e| panic!("{e}"));
    let column = z.a() as usize;
    let count = z.sym("COUNToff") as usize;
    let mut after = game_struct(z);
    after[count] = before[count];
    assert_eq!(
        before, after,
        "computerMove changed GAMESTRUCT (beyond pieceCount)"
    );
    assert!(column < board.size.w, "computerMove answered column {column}");
    assert!(
        board.landing_row(column).is_some(),
        "computerMove picked the full column {column}"
    );
    column
}

/// The columns where `player`'s drop wins at once.
fn winning_columns(board: &Board, player: u8) -> Vec<usize> {
    (0..board.size.w)
        .filter(|&x| {
            board.landing_row(x).is_some_and(|y| {
                let mut b = board.clone();
                b.set(x, y, player);
                b.wins_through(x, y, player)
            })
        })
        .collect()
}

/// Random positions reached by legal play (nobody has won, the board is not full): the computer
/// takes a win when there is one, and otherwise blocks the opponent's win when there is one.
fn never_misses(size: Size, cases: u32) {
    let z = RefCell::new(Z80::new(size));
    // Each case is one position and one computerMove call (tens of checkWIN calls inside); the
    // count is fixed rather than PROPTEST_CASES (100,000 in CI) to keep the run under a minute.
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let moves = proptest::collection::vec(0..size.w, 0..size.w * size.h);
    let counts = RefCell::new((0, 0));
    runner
        .run(&moves, |moves| {
            let mut board = Board::new(size);
            let mut player = 1u8;
            for m in moves {
                let Some(y) = board.landing_row(m) else { continue };
                board.set(m, y, player);
                if board.wins_through(m, y, player) {
                    board.set(m, y, 0); // a position after a win is not one the computer sees
                    break;
                }
                player = 3 - player;
            }
            if board.full() {
                return Ok(());
            }
            let column = computer_move(&mut z.borrow_mut(), &board, player);
            let win = winning_columns(&board, player);
            let threats = winning_columns(&board, 3 - player);
            // What the computer must do: take its win, else stop the opponent's.
            let (must, kind) = match (win.is_empty(), threats.is_empty()) {
                (false, _) => (win, 0),
                (true, false) => (threats, 1),
                (true, true) => return Ok(()),
            };
            let what = ["win", "block"][kind];
            prop_assert!(
                must.contains(&column),
                "missed a {} {:?} in {:?}: chose {}",
                what,
                must,
                board,
                column
            );
            let mut c = counts.borrow_mut();
            if kind == 0 {
                c.0 += 1
            } else {
                c.1 += 1
            }
            Ok(())
        })
        .unwrap();
    let (wins, blocks) = *counts.borrow();
    // The random positions must actually contain both situations, or the test proves nothing.
    assert!(
        wins >= 50 && blocks >= 50,
        "only {wins} win and {blocks} block positions"
    );
}

#[test]
fn computer_never_misses_a_win_or_a_block_7x6() {
    never_misses(CLASSIC, 2000);
}

#[test]
fn computer_never_misses_a_win_or_a_block_8x7_five_in_a_row() {
    never_misses(Size { w: 8, h: 7, n: 5 }, 1000);
}

/// A small deterministic random generator (xorshift64*), so that the 100 games are the same on
/// every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// One game, the computer against a player who drops into a random free column; `computer_starts`
/// picks who moves first. Returns the winner (1 random, 2 computer) or 0 for a draw.
fn game(z: &mut Z80, seed: u64, computer_starts: bool) -> u8 {
    let mut board = Board::new(CLASSIC);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut player = if computer_starts { 2 } else { 1 };
    loop {
        let x = if player == 2 {
            computer_move(z, &board, 2)
        } else {
            let free: Vec<usize> = (0..CLASSIC.w)
                .filter(|&x| board.landing_row(x).is_some())
                .collect();
            free[rng.below(free.len())]
        };
        let y = board.drop(x, player).unwrap();
        if board.wins_through(x, y, player) {
            return player;
        }
        if board.full() {
            return 0;
        }
        player = 3 - player;
    }
}

#[test]
fn computer_beats_a_random_player_in_at_least_95_of_100_games() {
    let mut z = Z80::new(CLASSIC);
    let results: Vec<u8> = (0..100).map(|g| game(&mut z, g, g % 2 == 0)).collect();
    let won = results.iter().filter(|&&r| r == 2).count();
    eprintln!("computer won {won} of 100 games against a random player ({results:?})");
    assert!(won >= 95, "the computer won only {won} of 100 games: {results:?}");
}
