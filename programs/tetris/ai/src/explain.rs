//! The debugger's `info ai`: the AI's last decision as text, its best placements with their
//! values and the terms that make them (docs/tetris-ai.md).

use crate::eval::NAMES;
use crate::plan::{Explained, Planner, Situation};
use crate::player::{Outcome, Player};
use crate::rules::piece_of;

/// The pieces' letters, by [`piece_of`]'s index.
const LETTERS: [char; 7] = ['T', 'J', 'Z', 'O', 'S', 'L', 'I'];

/// A placement as `T o2 x5 y18`: the piece, its orientation (the game's `piece` byte) and pivot.
pub fn placement(o: u8, x: i8, y: i8) -> String {
    format!("{} o{o} x{x} y{y}", LETTERS[piece_of(o)])
}

/// The player's last decision's best `n` placements, best first, one line each: the piece's placement,
/// the next piece's placement after it, the lines they clear, the value and its terms (the
/// largest first, zero terms left out). "no decision yet" before the first piece.
pub fn info_ai(player: &mut Player, n: usize) -> String {
    match player.asked().copied() {
        Some(at) => report(&at, &player.explain(n)),
        None => "ai: no decision yet\n".to_string(),
    }
}

/// The text of `info ai` for the decision made at the machine's frame `frame` or the last one
/// before it, in a game played by [`crate::player::play`] (`planner` as the player's: the same
/// weights and press rate). The debugger replays the game's buttons as a movie (so reverse
/// execution replays it) and asks this where it stopped.
pub fn info_at(planner: &mut Planner, game: &Outcome, frame: u64, n: usize) -> String {
    let at = game.decisions.partition_point(|d| d.0 <= frame);
    match at.checked_sub(1).map(|i| game.decisions[i].1) {
        Some(at) => report(&at, &planner.explain(&at, n)),
        None => "ai: no decision yet\n".to_string(),
    }
}

/// A decision's header line and one line for each of its best placements.
fn report(at: &Situation, top: &[Explained]) -> String {
    let next = match at.next {
        Some(o) => LETTERS[piece_of(o)],
        None => '?',
    };
    let mut out = format!(
        "ai: {} to place, {next} next; level {}, lines {}, score {}\n",
        LETTERS[piece_of(at.start.o)],
        at.tally.level,
        at.tally.lines,
        at.tally.score
    );
    if top.is_empty() {
        out.push_str("  no placement: the piece cannot move (the game is over)\n");
    }
    for (rank, e) in top.iter().enumerate() {
        out.push_str(&line(rank + 1, e));
    }
    out
}

fn line(rank: usize, e: &Explained) -> String {
    let s = e.scored;
    let then = match e.then {
        Some((o, x, y)) => placement(o, x, y),
        None => "no room".to_string(),
    };
    let mut terms: Vec<(usize, f32)> = e
        .terms
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, t)| t != 0.0)
        .collect();
    terms.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
    let terms: Vec<String> = terms
        .iter()
        .map(|&(i, t)| format!("{} {:+.1}", NAMES[i], t))
        .collect();
    let cleared = match e.cleared {
        (0, 0) => String::new(),
        (a, b) => format!(" (lines {a}+{b})"),
    };
    format!(
        "{rank}. {:<13} then {:<13} value {:>9.1}{cleared}: {}\n",
        placement(s.o, s.x, s.y),
        then,
        s.value,
        terms.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_is_its_piece_orientation_and_pivot() {
        assert_eq!(placement(2, 5, 0), "T o2 x5 y0");
        assert_eq!(placement(17, 9, 17), "I o17 x9 y17");
        assert_eq!(placement(10, -1, 3), "O o10 x-1 y3");
    }
}
