//! Whole Connect-4 games played headless by key scripts. The game logs every round to the
//! machine's debug console: the columns played and the result with both players' points
//! (docs/connect4.md); the board is read from the attribute cells.
//!
//! The expected results come from the rules (each game's moves are checked by the Rust model in
//! tests/connect4/model.rs before the Z80 plays them), never from a recording.
//!
//! TEMPORARY: the games run on the harness's stand-in for the workbench machine
//! (`harness::play_game`) until the machine itself is merged; then they run through
//! `retro run programs/connect4/connect4.asm --headless --keys ...`.

mod connect4;

use connect4::harness::{CLASSIC, Played, assemble, play_game};
use connect4::model::Board;

/// Plays the game with `keys`, and checks it ended through the quit key (exit status 0).
fn play(keys: &str) -> Played {
    let played = play_game(keys, 600);
    assert_eq!(
        played.exit,
        Some(0),
        "the game did not quit; console:\n{}",
        played.console
    );
    played
}

/// Checks the attribute cells show `board`: each slot's top-left cell has the paper colour of
/// what the slot holds (SlotColors: black, red, yellow), with FLASH exactly on `flashing`.
fn assert_screen_shows(attrs: &[u8], board: &Board, flashing: &[(usize, usize)]) {
    let asm = assemble(CLASSIC);
    let sym = |n: &str| asm.symbols.get(n).unwrap() as usize;
    let (row0, col0, pitch) = (sym("FRAMEROW") + 1, sym("FRAMECOL") + 1, sym("PITCH"));
    for y in 0..CLASSIC.h {
        for x in 0..CLASSIC.w {
            let attr = attrs[(row0 + y * pitch) * 32 + col0 + x * pitch];
            let paper = (attr >> 3) & 7;
            let want = [0, 2, 6][board.get(x, y) as usize]; // black, red, yellow
            assert_eq!(
                paper,
                want,
                "slot ({x},{y}) shows paper {paper}, the board holds {}",
                board.get(x, y)
            );
            assert_eq!(
                attr & 0x80 != 0,
                flashing.contains(&(x, y)),
                "FLASH on slot ({x},{y})"
            );
        }
    }
}

/// Where the cursor starts each round: the middle column (0-based).
const START_COLUMN: usize = (CLASSIC.w - 1) / 2;

/// The keys for one round of two players dropping into `columns` (from 1), from the cursor at
/// `cursor` (0-based): arrows to the column, SPACE, and time for the piece to fall.
fn round_keys(columns: &[usize], cursor: &mut usize) -> String {
    let mut keys = String::new();
    for &c in columns {
        let x = c - 1;
        while *cursor < x {
            keys += "RIGHT ";
            *cursor += 1;
        }
        while *cursor > x {
            keys += "LEFT ";
            *cursor -= 1;
        }
        keys += "SPACE +400 ";
    }
    keys
}

/// How a round ends, by the model.
struct Outcome {
    /// Some(winner), or None for a full board.
    winner: Option<u8>,
    board: Board,
    /// The winning line's slots.
    line: Vec<(usize, usize)>,
}

/// What the model says a round ends in, after checking that the moves are legal and the game ends
/// exactly at the last one.
fn outcome(columns: &[usize], first: u8) -> Outcome {
    let mut board = Board::new(CLASSIC);
    let mut player = first;
    for (i, &c) in columns.iter().enumerate() {
        let (x, y) = (c - 1, board.drop(c - 1, player).expect("a legal move"));
        let last = i + 1 == columns.len();
        if board.wins_through(x, y, player) {
            assert!(last, "the game ends at move {}", i + 1);
            let line = board.line_cells(x, y, player);
            return Outcome {
                winner: Some(player),
                board,
                line,
            };
        }
        assert!(!last || board.full(), "the moves end before the game does");
        player = 3 - player;
    }
    Outcome {
        winner: None,
        board,
        line: vec![],
    }
}

/// The console lines of a round.
fn round_log(round: usize, columns: &[usize], result: Option<u8>, points: (u32, u32)) -> String {
    let moves: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let result = match result {
        Some(p) => format!("Player {p} wins."),
        None => "Draw.".to_string(),
    };
    format!(
        "Round {round}: {}\n{result} Points: P1 {}, P2 {}\n",
        moves.join(" "),
        points.0,
        points.1
    )
}

/// Two players play `rounds` (player 1 starts the odd rounds, player 2 the even ones), then quit;
/// the console must show each round's moves, result and points.
fn two_player_rounds(rounds: &[&[usize]]) {
    let mut keys = String::from("+500 2 +500 ");
    let mut expected = String::from("Connect-4\n");
    let mut points = (0, 0);
    let mut last = None;
    for (i, columns) in rounds.iter().enumerate() {
        let first = if i % 2 == 0 { 1 } else { 2 };
        let end = outcome(columns, first);
        let result = end.winner;
        last = Some(end);
        match result {
            Some(1) => points.0 += 1,
            Some(_) => points.1 += 1,
            None => {}
        }
        let mut cursor = START_COLUMN;
        if i > 0 {
            keys += "SPACE +500 "; // the next round
        }
        keys += &round_keys(columns, &mut cursor);
        keys += "+1500 ";
        expected += &round_log(i + 1, columns, result, points);
    }
    keys += "Q";
    expected += "Bye.\n";
    let played = play(&keys);
    assert_eq!(played.console, expected);
    // The last round's board stays on the screen, its winning line flashing.
    let last = last.unwrap();
    assert_screen_shows(&played.attrs, &last.board, &last.line);
}

#[test]
fn a_horizontal_win() {
    two_player_rounds(&[&[4, 4, 3, 3, 2, 2, 1]]);
}

#[test]
fn a_vertical_win() {
    two_player_rounds(&[&[1, 2, 1, 2, 1, 2, 1]]);
}

#[test]
fn a_rising_diagonal_win() {
    two_player_rounds(&[&[1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4]]);
}

#[test]
fn a_falling_diagonal_win() {
    two_player_rounds(&[&[7, 6, 6, 5, 5, 4, 5, 4, 4, 1, 4]]);
}

/// The drawn game of docs/connect4.md: 42 pieces, no line.
#[test]
fn a_draw() {
    two_player_rounds(&[&[
        2, 1, 1, 3, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 4, 3, 3, 3, 3, 5, 4, 5, 4, 4, 6, 4, 6, 4, 6, 5, 5, 6, 5, 5,
        7, 7, 7, 6, 7, 7, 7, 6,
    ]]);
}

/// Points add up over rounds, and the starting player alternates: player 1 wins round 1, player 2
/// (starting) round 2, round 3 is drawn, player 1 wins round 4... as player 2 starts it.
#[test]
fn points_over_four_rounds() {
    let draw: &[usize] = &[
        2, 1, 1, 3, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 4, 3, 3, 3, 3, 5, 4, 5, 4, 4, 6, 4, 6, 4, 6, 5, 5, 6, 5, 5,
        7, 7, 7, 6, 7, 7, 7, 6,
    ];
    two_player_rounds(&[
        &[4, 4, 3, 3, 2, 2, 1],
        &[2, 1, 2, 1, 2, 1, 2],
        draw,
        &[5, 4, 5, 4, 5, 4, 6, 4],
    ]);
}

/// One player against the computer (player 2): the human's keys go to an absolute column (LEFT
/// against the left edge, then RIGHT), since the cursor is wherever the computer left it. Returns
/// the console text.
fn against_computer(human: &[usize]) -> String {
    let mut keys = String::from("+500 1 +500 ");
    for &c in human {
        keys += &format!("LEFT*{} ", CLASSIC.w);
        if c > 1 {
            keys += &format!("RIGHT*{} ", c - 1);
        }
        keys += "SPACE +3000 ";
    }
    keys += "Q";
    play(&keys).console
}

/// The console's moves of round 1, as columns from 1.
fn moves_of_round_one(out: &str) -> Vec<usize> {
    let line = out.lines().find(|l| l.starts_with("Round 1:")).expect("a round");
    line["Round 1:".len()..]
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

/// The computer beats a player who always drops into the same column, and one who spreads out
/// along the bottom row (it blocks the horizontal threat), and its moves replayed on the model
/// give the result the game printed.
#[test]
fn the_computer_wins_against_simple_players() {
    for human in [
        vec![1; 8],
        vec![7; 8],
        vec![1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7],
    ] {
        let out = against_computer(&human);
        assert!(
            out.contains("\nPlayer 2 wins. Points: P1 0, P2 1\n"),
            "human {human:?}:\n{out}"
        );
        let moves = moves_of_round_one(&out);
        assert_eq!(outcome(&moves, 1).winner, Some(2), "the logged moves {moves:?}");
        let theirs: Vec<usize> = moves.iter().step_by(2).copied().collect();
        assert_eq!(
            theirs[..],
            human[..theirs.len()],
            "player 1's moves are the scripted ones"
        );
    }
}
