//! Baba Is You (programs/baba): the levels. Each level's DATA decodes, by our Rust codec, to the
//! grid it was designed as (programs/baba/levels.txt), the program builds that same playfield
//! (pf%() read by PEEK), and a scripted key sequence reaches its win.

mod baba;

use baba::codec::{decode, encode};
use baba::harness::Baba;
use baba::levels::{SOLUTIONS, designed, level_count, listing, program_levels};

#[test]
fn every_level_decodes_to_its_design_and_encodes_back_to_its_data() {
    let text = listing();
    let levels = program_levels(&text);
    let grids = designed();
    assert_eq!(levels.len(), grids.len());
    assert_eq!(level_count(&text), grids.len(), "line 15's ml counts the levels");
    assert!(grids.len() >= 10);
    for (data, (name, grid)) in levels.iter().zip(&grids) {
        assert_eq!(&decode(data), grid, "level {name}");
        assert_eq!(
            &encode(grid),
            data,
            "level {name}: the DATA is what D would print"
        );
    }
}

#[test]
fn the_program_builds_each_level_as_decoded() {
    let grids = designed();
    let mut g = Baba::game();
    g.keys("SPACE");
    for (i, (name, grid)) in grids.iter().enumerate() {
        assert_eq!(&g.field(), grid, "level {name}");
        if i + 1 < grids.len() {
            g.keys("n");
        }
    }
}

#[test]
fn every_level_is_solved_by_its_key_script() {
    let mut g = Baba::game();
    g.keys("SPACE");
    for (i, keys) in SOLUTIONS.iter().enumerate() {
        let before = g.field();
        g.keys(keys);
        assert_ne!(g.field(), before, "level {} changed", i + 1);
        // The win waits for a key on "SOLVED! PRESS A KEY"; the next level follows it.
        g.keys("SPACE");
        if i + 1 < SOLUTIONS.len() {
            assert_eq!(
                g.field(),
                designed()[i + 1].1,
                "level {} follows level {}",
                i + 2,
                i + 1
            );
        }
    }
}
