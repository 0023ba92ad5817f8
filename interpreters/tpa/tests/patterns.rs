//! The stored patterns (data/patterns.txt) do what they say, and the file is complete.

use retro_tpa::convert::replay_pattern;
use retro_tpa::field::WIDTH;
use retro_tpa::pattern::{self, Kind, Library, STORED, Side};

#[test]
fn the_stored_file_parses_and_round_trips() {
    let patterns = pattern::parse(STORED).expect("data/patterns.txt parses");
    assert!(!patterns.is_empty());
    for p in &patterns {
        assert!(
            p.is_canonical(),
            "{} is stored although its mirror image is the canonical one",
            p.to_line()
        );
        assert_eq!(pattern::parse(&p.to_line()).unwrap(), vec![p.clone()]);
    }
}

#[test]
fn every_emitter_leaves_exactly_its_squares_in_every_colour() {
    let lib = Library::stored();
    let mut checked = 0;
    for p in lib.all() {
        let Kind::Emit(tops) = &p.kind else { continue };
        let k = tops.len();
        // The block and the squares are whole pieces: 21r + k cells in (21r + k) / 4 pieces.
        assert_eq!((WIDTH * p.rows + k) % 4, 0, "{}", p.to_line());
        assert_eq!(k + p.drops.len(), (WIDTH * p.rows + k) / 4, "{}", p.to_line());
        for colour in 1..=3u8 {
            let left = replay_pattern(p, colour).unwrap_or_else(|e| panic!("{}: {e}", p.to_line()));
            // J (1) prints under the right end of its top, T (2) the middle, L (3) the left end.
            let want: Vec<(usize, usize, u8)> = tops
                .iter()
                .map(|&a| (a as usize + [2, 1, 0][colour as usize - 1], 0, colour))
                .collect();
            assert_eq!(left, want, "{} with colour {colour}", p.to_line());
        }
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn every_platform_clears_and_leaves_only_the_square_it_stood_on() {
    let lib = Library::stored();
    let mut checked = 0;
    for p in lib.all() {
        let Kind::Platform(c, _) = p.kind else { continue };
        assert_eq!((WIDTH * p.rows - 4) % 4, 0);
        let left = replay_pattern(p, 1).unwrap_or_else(|e| panic!("{}: {e}", p.to_line()));
        assert_eq!(left, vec![(c as usize, 0, 2)], "{}", p.to_line());
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn single_squares_can_be_printed_from_every_top_position() {
    // 19 positions for a three-cell top in 21 columns (0..=18). The search proved 3 rows
    // impossible for tops at 3, 7, 11 and 15 (two mirror classes); those take 7 rows.
    let lib = Library::stored();
    for a in 0..=(WIDTH - 3) as u8 {
        let p = lib
            .emitter(&[a])
            .unwrap_or_else(|| panic!("no emitter for top {a}"));
        let want = if a % 4 == 3 { 7 } else { 3 };
        assert_eq!(p.rows, want, "top {a}");
    }
}

#[test]
fn platforms_exist_for_every_printable_column_on_both_sides() {
    // The converter falls back on these once its search budget is spent, so every column a
    // pixel can sit in (2-18) must have one with the well on either side.
    let lib = Library::stored();
    let mut found = 0;
    for c in 2..=(WIDTH - 3) as u8 {
        for side in [Side::Left, Side::Right] {
            let p = lib
                .platform(c, side)
                .unwrap_or_else(|| panic!("no platform on column {c}, well {side:?}"));
            assert_eq!(p.kind, Kind::Platform(c, side));
            assert_eq!(p.rows, pattern::PLATFORM_ROWS, "platform {c} {side:?}");
            found += 1;
        }
    }
    assert_eq!(found, 34);
}

/// Every set of `k` emitter tops (three cells each, side by side or apart, in 21 columns),
/// listed without the library's help: C(21 - 2k, k) of them.
fn top_sets(k: usize) -> Vec<Vec<u8>> {
    fn extend(from: usize, k: usize, now: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if k == 0 {
            out.push(now.clone());
            return;
        }
        for a in from..=WIDTH.saturating_sub(3 * k) {
            now.push(a as u8);
            extend(a + 3, k - 1, now, out);
            now.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, k, &mut Vec::new(), &mut out);
    out
}

#[test]
fn every_multi_square_emitter_set_is_complete() {
    // The audit's counts (and C(21 - 2k, k)): every arrangement of 2..7 tops has a stored
    // pattern (or its mirror image), and the table holds no others.
    let lib = Library::stored();
    for (k, want) in [(2, 136), (3, 455), (4, 715), (5, 462), (6, 84), (7, 1)] {
        let sets = top_sets(k);
        assert_eq!(sets.len(), want, "{k} tops");
        for tops in &sets {
            let p = lib
                .emitter(tops)
                .unwrap_or_else(|| panic!("no emitter for tops {tops:?}"));
            assert_eq!(p.kind, Kind::Emit(tops.clone()));
        }
        let stored = lib
            .all()
            .filter(|p| matches!(&p.kind, Kind::Emit(t) if t.len() == k))
            .count();
        assert_eq!(stored, want, "{k} tops: patterns in the table");
    }
}
