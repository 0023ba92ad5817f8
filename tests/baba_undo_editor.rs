//! Baba Is You (programs/baba): undo back to the start, the level editor and its D output, and
//! the committed .prg against the listing.

mod baba;

use baba::codec::decode;
use baba::harness::Baba;
use baba::levels::{PRG, designed, listing, program_levels};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// The picture a player sees: each cell's screen code and, where the cell shows ink, its colour.
/// A blank (code 32) shows only the background, so the colour RAM under it is invisible: the
/// status line's "turn 10" leaves white under a blank once undo prints "turn 0" again.
fn picture(g: &mut Baba) -> Vec<(u8, Option<u8>)> {
    let screen = g.screen();
    let colours = g.colours();
    screen
        .into_iter()
        .zip(colours)
        .map(|(code, colour)| (code, (code != 32).then_some(colour & 15)))
        .collect()
}

/// Goes from the title screen to level `n` (1-based) with N.
fn at_level(n: usize) -> Baba {
    let mut g = Baba::game();
    g.keys("SPACE");
    for _ in 1..n {
        g.keys("n");
    }
    g
}

#[test]
fn any_moves_undone_give_back_the_start_screen() {
    // Each case plays up to 24 moves on one level and undoes them all (about 10 ms a case in the
    // test profile), so 64 cases rather than CI's 100,000.
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    let levels = designed().len();
    runner
        .run(
            &(1..=levels, proptest::collection::vec(0..4usize, 1..24)),
            |(level, moves)| {
                let mut g = at_level(level);
                let start = picture(&mut g);
                let field = g.field();
                let mut turns = 0;
                for m in moves {
                    let before = g.field();
                    g.keys(["LEFT", "RIGHT", "UP", "DOWN"][m]);
                    if g.won() {
                        // A win moves on; the moves so far were checked by the field changes.
                        return Ok(());
                    }
                    if g.field() != before {
                        turns += 1;
                    }
                }
                prop_assert_eq!(
                    g.var("T") as usize,
                    turns,
                    "a turn counts only when something moved"
                );
                for _ in 0..turns {
                    g.keys("z");
                }
                prop_assert_eq!(g.field(), field);
                prop_assert_eq!(picture(&mut g), start.clone());
                g.keys("z");
                prop_assert_eq!(picture(&mut g), start, "undo at the start does nothing");
                Ok(())
            },
        )
        .unwrap();
}

/// What D printed: each DATA line's number and string, and the `15 ml=` line, from the PETSCII
/// the program printed (a DATA line is `9110 DATA"..."`, a line at most 80 characters).
fn dump(g: &mut Baba) -> (Vec<(u32, Vec<u8>)>, String) {
    g.take_printed();
    g.keys("d");
    assert!(g.stopped.is_some(), "D ends the program");
    let printed = g.take_printed();
    let mut data = Vec::new();
    let mut ml = String::new();
    for line in printed.split(|&b| b == 13) {
        // Colour and clear-screen codes print nothing.
        let line: Vec<u8> = line
            .iter()
            .copied()
            .filter(|&b| !(b < 32 || (128..160).contains(&b)))
            .collect();
        let text: String = line.iter().map(|&b| b as char).collect();
        if let Some((num, rest)) = text.split_once(" DATA\"") {
            let string = rest.strip_suffix('"').expect("the string closes the line");
            let bytes: Vec<u8> = string.chars().map(|c| c as u8).collect();
            assert!(line.len() <= 80, "a D line fits the screen editor: {text}");
            data.push((num.parse().expect("a line number"), bytes));
        } else if text.starts_with("15 ML=") {
            ml = text;
        }
    }
    (data, ml)
}

#[test]
fn d_prints_each_level_as_the_data_it_came_from() {
    let text = listing();
    let levels = program_levels(&text);
    for (i, data) in levels.iter().enumerate() {
        let mut g = at_level(i + 1);
        let (lines, ml) = dump(&mut g);
        let printed: Vec<Vec<u8>> = lines.iter().map(|(_, s)| s.clone()).collect();
        assert_eq!(&printed, data, "level {}: D prints the level's own DATA", i + 1);
        assert_eq!(decode(&printed), designed()[i].1);
        let first = 9000 + 10 * (levels.len() as u32 + 1);
        let nums: Vec<u32> = lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(nums, (first..first + nums.len() as u32).collect::<Vec<_>>());
        assert_eq!(ml, format!("15 ML={}", levels.len() + 1));
    }
}

#[test]
fn the_editor_places_tiles_and_d_keeps_them() {
    let mut g = at_level(1);
    // The cursor starts on tile 0: a rock (C) with water behind it (SHIFT-E); one right: a BABA
    // word (I), then DEL takes it away; one down, on the BABA word of level 1: a flag (D) with
    // lava behind it (SHIFT-F).
    g.keys("e c SHIFT-E RIGHT i DEL DOWN d SHIFT-F");
    let f = g.field();
    assert_eq!(f[0], 3 + 32 * 5, "a rock in front of water");
    assert_eq!(f[1], 0, "DEL took the BABA word away");
    assert_eq!(f[11], 4 + 32 * 6, "a flag in front of lava");
    g.keys("F5");
    let kept = g.field();
    let memory: Vec<u8> = (49152..49152 + kept.len() as u16).map(|a| g.peek(a)).collect();
    assert_eq!(memory, kept, "F5 keeps the field at 49152, a byte a tile");
    g.keys("DEL");
    assert_eq!(g.field()[11], 6, "DEL: the lava comes to the front");
    g.keys("DEL");
    assert_eq!(g.field()[11], 0);
    g.keys("F3");
    assert_eq!(g.field(), kept, "F3 brings back what F5 kept");
    g.keys("F7");
    let (lines, _) = dump(&mut g);
    let printed: Vec<Vec<u8>> = lines.iter().map(|(_, s)| s.clone()).collect();
    assert_eq!(
        decode(&printed),
        kept,
        "D of an edited field decodes to it, backgrounds and all"
    );
}

#[test]
fn the_prg_is_the_listing_tokenized() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let prg = std::fs::read(root.join(PRG)).expect("baba.prg is committed");
    let program = retro_cbm::Program::read(listing().as_bytes()).expect("the listing reads");
    assert_eq!(
        program.to_prg(),
        prg,
        "run `retro tok programs/baba/baba.bas -o programs/baba/baba.prg`"
    );
}

#[test]
fn a_full_undo_memory_forgets_the_oldest_turns_only() {
    // With room for 20 records (line 10's mu), 30 moves of 2 records each fill it twice over;
    // the latest turns still undo exactly, and undo stops where the memory begins.
    let text = listing().replace("mu=2000", "mu=20");
    assert_ne!(text, listing(), "line 10 sets mu");
    let level = baba::levels::grid(&["IPQ", "", "....A"]);
    let mut g = Baba::listing(&baba::levels::with_levels(&text, &[level]));
    g.keys("SPACE");
    let mut seen = vec![g.field()];
    for i in 0..30 {
        g.keys(if i % 2 == 0 { "RIGHT" } else { "LEFT" });
        seen.push(g.field());
    }
    for back in 1..=5 {
        g.keys("z");
        assert_eq!(g.field(), seen[30 - back], "undo {back}");
    }
    g.keys("z*40");
    assert!(g.stopped.is_none());
    assert!(g.var("T") > 0.0, "the oldest turns were forgotten");
}
