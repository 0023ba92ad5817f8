//! Whole Connect-4 games played headless by key scripts: `retro run programs/connect4/connect4.asm
//! --headless --keys ... --dump-screen colours`. The game logs every round to the machine's debug
//! console (stdout when headless): the columns played and the result with both players' points
//! (docs/connect4.md); the colour dump after it shows the board.
//!
//! The expected results come from the rules (each game's moves are checked by the Rust model in
//! tests/connect4/model.rs before the Z80 plays them), never from a recording.

mod connect4;

use std::process::{Command, Stdio};

use connect4::harness::{CLASSIC, assemble};
use connect4::model::Board;

const CONNECT4: &str = "programs/connect4/connect4.asm";

/// A headless run: the console text and the final colour grid (24 rows of 32 palette indices).
struct Played {
    console: String,
    grid: Vec<Vec<u8>>,
}

/// Plays the game with `keys`, and checks it ended through the quit key (exit status 0).
fn play(keys: &str) -> Played {
    let keys = format!("={keys}");
    let o = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args([
            "run",
            CONNECT4,
            "--headless",
            "--keys",
            &keys,
            "--dump-screen",
            "colours",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("run retro");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 24, "no screen dump in:\n{out}");
    let split = lines.len() - 24;
    let grid = lines[split..]
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| c.to_digit(16).expect("a colour digit") as u8)
                .collect()
        })
        .collect();
    Played {
        console: lines[..split].iter().map(|l| format!("{l}\n")).collect(),
        grid,
    }
}

/// Checks the screen shows `board`: each slot's top-left cell has the paper colour of what the
/// slot holds (SlotColors: black 0, bright red 10, bright yellow 14). The `flashing` slots may
/// show their ink instead (bright white 15 on red, bright black 8 on yellow), all in the same
/// phase, as FLASH swaps ink and paper.
fn assert_screen_shows(grid: &[Vec<u8>], board: &Board, flashing: &[(usize, usize)]) -> bool {
    let asm = assemble(CLASSIC);
    let sym = |n: &str| asm.symbols.get(n).unwrap() as usize;
    let (row0, col0, pitch) = (sym("FRAMEROW") + 1, sym("FRAMECOL") + 1, sym("PITCH"));
    let mut swapped = None;
    for y in 0..CLASSIC.h {
        for x in 0..CLASSIC.w {
            let shown = grid[row0 + y * pitch][col0 + x * pitch];
            let (paper, ink) = [(0, 7), (10, 15), (14, 8)][board.get(x, y) as usize];
            if flashing.contains(&(x, y)) {
                assert!(
                    shown == paper || shown == ink,
                    "flashing slot ({x},{y}) shows {shown}"
                );
                let phase = shown == ink;
                assert_eq!(*swapped.get_or_insert(phase), phase, "the line flashes in step");
            } else {
                assert_eq!(
                    shown,
                    paper,
                    "slot ({x},{y}) shows {shown}, the board holds {}",
                    board.get(x, y)
                );
            }
        }
    }
    swapped.unwrap_or(false)
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
    assert_screen_shows(&played.grid, &last.board, &last.line);
}

/// The winning line flashes: ended 16 frames (one flash phase, 320 ms) apart, two runs of the same
/// game show it once in the players' colour and once swapped.
#[test]
fn the_winning_line_flashes() {
    let columns = [4, 4, 3, 3, 2, 2, 1];
    let end = outcome(&columns, 1);
    let mut phases = Vec::new();
    for wait in ["+1500", "+1820"] {
        let mut cursor = START_COLUMN;
        let keys = format!("+500 2 +500 {} {wait} Q", round_keys(&columns, &mut cursor));
        phases.push(assert_screen_shows(&play(&keys).grid, &end.board, &end.line));
    }
    assert_ne!(phases[0], phases[1], "the line looks the same 16 frames apart");
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

/// The code block that follows `marker` in docs/connect4.md.
fn doc_block(doc: &str, marker: &str) -> String {
    let after = &doc[doc
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker} in docs/connect4.md"))..];
    let start = after.find("```text\n").expect("a text block") + "```text\n".len();
    let end = after[start..].find("```").expect("the block's end");
    after[start..start + end].to_string()
}

/// docs/connect4.md's debugger walkthrough: its keys and commands are the files it names, and
/// running them prints exactly the output the page shows.
#[test]
fn the_debugger_walkthrough_prints_what_the_docs_show() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/connect4.md")).unwrap();
    let keys = "programs/connect4/walkthrough.keys";
    let script = "programs/connect4/walkthrough.gdb";
    assert_eq!(
        doc_block(&doc, "<!-- walkthrough keys -->"),
        std::fs::read_to_string(format!("{root}/{keys}")).unwrap()
    );
    assert_eq!(
        doc_block(&doc, "<!-- walkthrough script -->"),
        std::fs::read_to_string(format!("{root}/{script}")).unwrap()
    );
    let o = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["debug", CONNECT4, "--keys", keys, "--script", script])
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .expect("run retro");
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out,
        doc_block(&doc, "<!-- walkthrough output -->"),
        "the walkthrough's output changed"
    );
}
