//! Baba Is You (programs/baba): each property and rule on a small test level of its own. The
//! test levels replace the game's (lines 15 and 9010 on) and the program runs them by key
//! scripts; the playfield is read back by PEEK (pf%()), so each test states what a player sees
//! happen. Expectations come from the design notes (seeds/004) and docs/baba.md.

mod baba;

use baba::codec::{Field, W};
use baba::harness::Baba;
use baba::levels::{grid, listing, with_levels};

/// Tile codes (the editor's letters).
const BABA: u8 = 1;
const WALL: u8 = 2;
const ROCK: u8 = 3;
const FLAG: u8 = 4;
const WATER: u8 = 5;
const LAVA: u8 = 6;
const DOOR: u8 = 7;

fn at(x: usize, y: usize) -> usize {
    y * W + x
}

/// Starts a one-level game on `rows` and returns it at the level's first key wait.
fn play(rows: &[&str]) -> Baba {
    let mut g = Baba::listing(&with_levels(&listing(), &[grid(rows)]));
    g.keys("SPACE");
    assert_eq!(g.field(), grid(rows), "the level starts as designed");
    g
}

/// Where the tile's front thing and back thing are.
fn tile(f: &Field, x: usize, y: usize) -> (u8, u8) {
    let v = f[at(x, y)];
    (v & 31, v >> 5)
}

#[test]
fn you_moves_and_words_are_push() {
    let mut g = play(&["IPQ", "", "A.."]);
    g.keys("RIGHT");
    assert_eq!(tile(&g.field(), 1, 2), (BABA, 0));
    assert_eq!(tile(&g.field(), 0, 2), (0, 0));
    // Up into the IS of BABA IS YOU pushes it off the top? No: the edge stops the whole line.
    g.keys("UP UP");
    assert_eq!(
        tile(&g.field(), 1, 1),
        (BABA, 0),
        "pushing a word against the edge does nothing"
    );
    assert_eq!(tile(&g.field(), 1, 0), (16, 0));
}

#[test]
fn stop_blocks_and_a_push_chain_stops_at_stop() {
    let mut g = play(&["IPQ.JPS", "KPT", "", "A.CC.B"]);
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 1, 3), tile(&f, 2, 3), tile(&f, 3, 3)),
        ((BABA, 0), (ROCK, 0), (ROCK, 0))
    );
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 2, 3), tile(&f, 3, 3), tile(&f, 4, 3), tile(&f, 5, 3)),
        ((BABA, 0), (ROCK, 0), (ROCK, 0), (WALL, 0)),
        "two rocks pushed one tile, then stopped by the wall"
    );
    g.keys("RIGHT");
    assert_eq!(g.field(), f, "the chain into STOP moves nothing");
}

#[test]
fn push_moves_a_thing_off_what_it_stands_on() {
    // A rock pushed over a flag, then off it again: the flag stays.
    let mut g = play(&["IPQ.KPT", "", "A.C.D"]);
    g.keys("RIGHT*3");
    assert_eq!(tile(&g.field(), 4, 2), (ROCK, FLAG));
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!((tile(&f, 4, 2), tile(&f, 5, 2)), ((BABA, FLAG), (ROCK, 0)));
}

#[test]
fn win_needs_you_on_win() {
    let mut g = play(&["IPQ.LPR", "", "A.D"]);
    g.keys("RIGHT");
    assert!(!g.won(), "next to the flag is not on it");
    g.keys("RIGHT");
    assert!(g.won(), "BABA (YOU) on the flag (WIN)");
    assert_eq!(tile(&g.field(), 2, 2), (BABA, FLAG));
}

#[test]
fn shut_and_open_destroy_each_other() {
    let mut g = play(&["IPQ.OPU", "IPV", "", "A.G"]);
    g.keys("RIGHT");
    assert_eq!(tile(&g.field(), 1, 3), (BABA, 0));
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 1, 3), tile(&f, 2, 3)),
        ((0, 0), (0, 0)),
        "BABA (OPEN) and the door (SHUT) are gone"
    );
    // Without OPEN the door is a wall.
    let mut g = play(&["IPQ.OPU", "", "A.G"]);
    g.keys("RIGHT*2");
    assert_eq!(tile(&g.field(), 1, 2), (BABA, 0));
    assert_eq!(tile(&g.field(), 2, 2), (DOOR, 0));
}

#[test]
fn shut_open_through_a_push_chain() {
    // The rock (OPEN) at the head of a pushed line goes into the door (SHUT).
    let mut g = play(&["IPQ.OPU", "KPT.KPV", "", "A.C.G"]);
    g.keys("RIGHT*2");
    let f = g.field();
    assert_eq!(
        (tile(&f, 2, 3), tile(&f, 3, 3), tile(&f, 4, 3)),
        ((BABA, 0), (ROCK, 0), (DOOR, 0))
    );
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 3, 3), tile(&f, 4, 3)),
        ((BABA, 0), (0, 0)),
        "rock and door destroyed"
    );
}

#[test]
fn sink_destroys_both() {
    let mut g = play(&["IPQ.MPW", "KPT", "", "A.C.E"]);
    g.keys("RIGHT*2");
    let f = g.field();
    assert_eq!((tile(&f, 3, 3), tile(&f, 4, 3)), ((ROCK, 0), (WATER, 0)));
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 3, 3), tile(&f, 4, 3)),
        ((BABA, 0), (0, 0)),
        "rock and water sank"
    );
    // BABA into water sinks too, and then nothing is YOU.
    let mut g = play(&["IPQ.MPW", "", "A.E"]);
    g.keys("RIGHT*2");
    assert_eq!(tile(&g.field(), 2, 2), (0, 0));
    assert_eq!(g.yous(), 0);
}

#[test]
fn lose_destroys_you_only() {
    // Lava is LOSE: BABA (YOU) walking onto it destroys both; a pushed rock does not.
    let mut g = play(&["IPQ.NPX", "KPT", "", "AC.F"]);
    g.keys("RIGHT*2");
    assert_eq!(
        tile(&g.field(), 3, 3),
        (ROCK, LAVA),
        "a rock (not YOU) sits on LOSE"
    );
    g.keys("RIGHT");
    let f = g.field();
    assert_eq!(
        (tile(&f, 3, 3), tile(&f, 4, 3)),
        ((0, 0), (ROCK, 0)),
        "BABA and the lava are gone"
    );
    assert_eq!(g.yous(), 0);
}

#[test]
fn hot_melts_melt_only() {
    let mut g = play(&["IPQ.NPY", "IPZ", "", "A.F"]);
    g.keys("RIGHT*2");
    assert_eq!(tile(&g.field(), 2, 3), (LAVA, 0), "BABA melted; the lava stays");
    // Not MELT: BABA walks over the lava.
    let mut g = play(&["IPQ.NPY", "", "A.F."]);
    g.keys("RIGHT*2");
    assert_eq!(tile(&g.field(), 2, 2), (BABA, LAVA));
    g.keys("RIGHT");
    assert_eq!(
        (tile(&g.field(), 2, 2), tile(&g.field(), 3, 2)),
        ((LAVA, 0), (BABA, 0))
    );
}

#[test]
fn noun_is_noun_transforms() {
    // Push FLAG into ROCK IS _: both rocks become flags.
    let mut g = play(&["IPQ", "KP.L", "", "A", "", "C.....C"]);
    g.keys("RIGHT*4 UP*2 LEFT");
    let f = g.field();
    assert_eq!(tile(&f, 2, 1), (12, 0), "FLAG is next to ROCK IS");
    assert_eq!(
        (tile(&f, 0, 5), tile(&f, 6, 5)),
        ((FLAG, 0), (FLAG, 0)),
        "every rock is a flag"
    );
}

#[test]
fn breaking_you_leaves_only_undo_and_restart() {
    let mut g = play(&["", "IPQ", "", "..A"]);
    g.keys("UP UP");
    let f = g.field();
    assert_eq!(tile(&f, 2, 0), (17, 0), "YOU pushed out of the rule");
    assert_eq!(g.yous(), 0);
    g.keys("LEFT DOWN RIGHT");
    assert_eq!(g.field(), f, "nothing moves without YOU");
    g.keys("z");
    assert_eq!(tile(&g.field(), 2, 1), (17, 0), "undo puts YOU back");
    g.keys("r");
    assert_eq!(g.field(), grid(&["", "IPQ", "", "..A"]), "restart");
}

#[test]
fn rules_read_top_to_bottom_and_made_by_pushing_a_word() {
    // BABA IS YOU top to bottom; FLAG IS _ top to bottom, WIN beside the gap.
    let rows = ["I.L", "P.P", "Q..RA", "", "", "...D"];
    let mut g = play(&rows);
    g.keys("DOWN*3 LEFT");
    assert_eq!(tile(&g.field(), 3, 5), (BABA, FLAG));
    assert!(!g.won(), "the flag is not WIN yet");
    let mut g = play(&rows);
    g.keys("LEFT");
    assert_eq!(tile(&g.field(), 2, 2), (18, 0), "WIN pushed under FLAG IS");
    g.keys("DOWN*3");
    assert!(g.won(), "FLAG IS WIN, read downwards, was made by the push");
}

#[test]
fn the_border_shows_the_rules_being_read() {
    // reference/cbm-basic.md 1a: green (5) while the rules are read, cyan (3) after, light blue
    // (14) waiting for a key; white (1) while the editor keeps or brings back the field.
    let mut g = play(&["IPQ", "", "A.K"]);
    assert_eq!(g.key_border(29), [14], "a move that moves no word reads no rules");
    assert_eq!(g.key_border(29), [14, 5, 3, 14], "pushing a word reads the rules");
    assert_eq!(g.key_border(b'Z'), [14, 5, 3, 14], "so does undo");
    g.keys("e");
    assert_eq!(g.key_border(135), [14, 1, 14], "F5 keeps the field");
    assert_eq!(g.key_border(134), [14, 1, 14], "F3 brings it back");
}
