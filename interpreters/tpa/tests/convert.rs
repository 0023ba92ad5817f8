//! Random sprites convert, and their sequences print exactly the sprite by legal moves.

use proptest::prelude::*;
use retro_screen::Rgb;
use retro_tpa::convert::{ConvertError, Effort, convert, convert_with, placement};
use retro_tpa::field::{Field, IllegalDrop, WIDTH};
use retro_tpa::image::{DEFAULT_PALETTE, Image};
use retro_tpa::pattern::Library;
use retro_tpa::replay::Replay;

/// The field the sprite should leave: its pixels where `placement` puts them, nothing else.
fn expected(image: &Image) -> Field {
    let p = placement(image).unwrap();
    let mut f = Field::new();
    for y in 0..image.height() {
        for x in 0..image.width() {
            if let (Some((fx, fy)), c) = (p.field_cell(x, y), image.get(x, y))
                && c != 0
            {
                f.set(fx, fy, c);
            }
        }
    }
    f
}

/// Rows from the floor up that already equal the finished picture.
fn finished_rows(now: &Field, want: &Field, printed: usize) -> usize {
    (0..printed)
        .take_while(|&y| (0..WIDTH).all(|x| now.colour(x, y) == want.colour(x, y)))
        .count()
}

/// Converts and replays `image`, checking every drop; panics with the reason on any failure.
/// Returns whether it printed (false: refused, rightly, as empty or with a gap row).
fn check(image: &Image) -> bool {
    check_with(image, Effort::default())
}

/// [`check`] with the given search effort.
fn check_with(image: &Image, effort: Effort) -> bool {
    let conversion = match convert_with(image, &Library::stored(), effort) {
        Ok(c) => c,
        Err(ConvertError::GapRow(y)) => {
            assert!(
                (0..image.width()).all(|x| image.get(x, y) == 0),
                "row {y} is not empty"
            );
            return false;
        }
        Err(ConvertError::Empty) => {
            assert!((0..image.height()).all(|y| (0..image.width()).all(|x| image.get(x, y) == 0)));
            return false;
        }
        Err(e) => panic!("{e}\n{image:?}"),
    };
    let want = expected(image);
    let printed_rows = want.stack_height();
    let mut field = Field::new();
    for (i, d) in conversion.sequence.drops.iter().enumerate() {
        let done = finished_rows(&field, &want, printed_rows);
        let colour = retro_tpa::convert::piece_colour(d.orientation.piece());
        // Every drop is a legal printer move: spawn, turn, shift, straight fall.
        let landing = field
            .drop(d.orientation, d.x, colour)
            .unwrap_or_else(|e| panic!("drop {} is illegal: {e}", i + 1));
        // No line clear ever takes away a finished row of the picture.
        if let Some(&low) = landing.cleared.first() {
            assert!(
                low >= done,
                "drop {} cleared row {low} below the {done} finished rows",
                i + 1
            );
        }
    }
    assert_eq!(field, want, "the replay leaves exactly the sprite");
    assert_eq!(conversion.field, want);
    // The front end's replay plays the same sequence to the same field.
    let mut replay = Replay::new(conversion.sequence.clone(), 7);
    assert_eq!(replay.run_to_end().unwrap(), &want);
    true
}

fn sprite() -> impl Strategy<Value = Image> {
    (1usize..=17, 1usize..=16)
        .prop_flat_map(|(w, h)| (Just(w), Just(h), prop::collection::vec(0u8..=3, w * h)))
        .prop_map(|(w, h, px)| Image::new(w, h, px, DEFAULT_PALETTE).unwrap())
}

/// The 1,000 random sprites (a new random set each run), with an explicit runner: the
/// `proptest!` macro would let PROPTEST_CASES (100,000 in CI) override the count, and each case
/// is a whole conversion and replay (0.1 s on average on the loaded 2-core machine, 1,000 in
/// 110-160 s; a sprite's searches are bounded by `Effort::total`, and the worst of 400 random
/// 17x32 sprites takes 0.5 s of CPU in release: `examples/speed.rs`). A failing case is
/// reported as found, not shrunk: shrinking re-runs whole conversions.
#[test]
fn random_sprites_print_exactly() {
    use proptest::test_runner::{Config, TestRunner};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let printed = AtomicUsize::new(0);
    let mut runner = TestRunner::new(Config {
        cases: 1_000,
        max_shrink_iters: 0,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&sprite(), |image| {
            if check(&image) {
                printed.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
    // A refusal (an empty row between printed ones) passes the check without printing
    // anything, so the test must see most sprites really print. A row is all transparent with
    // odds (1/4)^width, so mostly the narrow sprites are refused: 6.6% of this strategy's
    // sprites (counted over 200,000), so 934 of 1,000 print on average, and fewer than 880
    // is seven standard deviations off.
    let printed = printed.into_inner();
    assert!(printed >= 880, "only {printed} of 1,000 random sprites printed");
}

#[test]
fn a_full_17_by_16_sprite_in_three_colours_prints() {
    let px: Vec<u8> = (0..17 * 16).map(|i| (i % 3 + 1) as u8).collect();
    assert!(check(&Image::new(17, 16, px, DEFAULT_PALETTE).unwrap()));
}

#[test]
fn single_pixels_print_in_every_column_and_colour() {
    for x in 0..17 {
        for c in 1..=3u8 {
            let mut px = vec![0u8; 17];
            px[x] = c;
            assert!(check(&Image::new(17, 1, px, DEFAULT_PALETTE).unwrap()));
        }
    }
}

#[test]
fn three_pixels_of_one_colour_side_by_side_print_with_flipped_emitters() {
    // Rows of runs of three: each colour's J, T or L pointing up prints a run in one piece.
    for c in 1..=3u8 {
        let mut px = vec![0u8; 17 * 2];
        for x in 4..13 {
            px[x] = c;
            px[17 + x] = c;
        }
        let img = Image::new(17, 2, px, DEFAULT_PALETTE).unwrap();
        let conv = convert(&img).unwrap();
        assert!(
            conv.stats.flipped >= 3,
            "colour {c}: {} flipped",
            conv.stats.flipped
        );
        let flipped_id = [0x05, 0x00, 0x10][usize::from(c - 1)];
        assert!(conv.sequence.drops.iter().any(|d| d.orientation.0 == flipped_id));
        assert!(check(&img));
    }
}

#[test]
fn a_pixel_over_a_hole_gets_a_platform() {
    // Two rows: a pixel at the left on the floor, then one at the right with nothing below it.
    let img = Image::from_text("......x\nx......\n").unwrap();
    let c = convert(&img).unwrap();
    assert_eq!(c.stats.platforms, 1);
    assert!(check(&img));
}

#[test]
fn sprites_that_cannot_print_say_why() {
    let gap = Image::from_text("x\n.\nx\n").unwrap();
    let e = convert(&gap).unwrap_err();
    assert_eq!(e, ConvertError::GapRow(1));
    assert!(
        e.to_string()
            .contains("empty row cannot be left between printed ones")
    );
    assert_eq!(
        convert(&Image::from_text("...\n").unwrap()),
        Err(ConvertError::Empty)
    );
    // Transparent rows under and over the sprite are not printed: the sprite sits on the floor.
    let low = Image::from_text("...\n.x.\n...\n").unwrap();
    let p = placement(&low).unwrap();
    assert_eq!(p.field_cell(1, 1), Some((10, 0)));
    assert!(check(&low));
}

#[test]
fn a_spent_search_budget_still_prints_exactly() {
    // With no search at all the stored patterns print any sprite, only with more pieces; the
    // budget is the whole sprite's, so the default one bounds its time.
    let px: Vec<u8> = (0..17 * 16).map(|i| ((i * 7 / 3 + i / 17) % 4) as u8).collect();
    let img = Image::new(17, 16, px, DEFAULT_PALETTE).unwrap();
    let none = Effort {
        total: 0,
        ..Effort::default()
    };
    assert!(check_with(&img, none));
    let lib = Library::stored();
    let bare = convert_with(&img, &lib, none).unwrap().stats;
    assert_eq!((bare.nodes, bare.searched, bare.flipped), (0, 0, 0));
    let full = convert(&img).unwrap().stats;
    assert!(
        full.searched > 0 && full.nodes <= Effort::default().total,
        "{full:?}"
    );
    assert!(
        full.drops < bare.drops,
        "searching saves pieces: {full:?} {bare:?}"
    );
}

#[test]
fn the_top_rows_of_a_tall_sprite_with_holes_print_on_the_lowest_blocks() {
    // Random 17x32 sprite 19 of examples/speed.rs (with transparency): its top rows stand on
    // platforms, and the blocks its searches found for them reached the spawn point, so it was
    // refused as too tall. Those rows are printed again with single-square emitters.
    let rows = [
        "22210300010321202",
        "12113221303302221",
        "32023310131202300",
        "20100120120123221",
        "00003331013033313",
        "10211132103322110",
        "30312312203101002",
        "00012330122032120",
        "30230102300330010",
        "13003211110113001",
        "31121313010321113",
        "30112310203013310",
        "31120000211320313",
        "11212122230300000",
        "32320330300000330",
        "21322202331222203",
        "13222220222003010",
        "30011020323033302",
        "31312213000111232",
        "33013131210112202",
        "23111230210013120",
        "31210331333011232",
        "33322230202313033",
        "22313032311202301",
        "03103333322221020",
        "11313123131302320",
        "31223321331230011",
        "20210222320122112",
        "01213200023032122",
        "00333321120011311",
        "01021330111223203",
        "30300112133123012",
    ];
    let px: Vec<u8> = rows.concat().bytes().map(|b| b - b'0').collect();
    let img = Image::new(17, 32, px, DEFAULT_PALETTE).unwrap();
    let stats = convert(&img).unwrap().stats;
    assert!(stats.low_rows > 0, "{stats:?}");
    assert!(check(&img));
}

#[test]
fn a_sprite_too_tall_for_its_blocks_says_which_row() {
    // 42 rows fit the field as pixels, but each pixel's block is built above it by pieces that
    // spawn in the top rows: the column prints up to field row 37, and at image row 3 (field
    // row 38) the block reaches the spawn point.
    let column = Image::new(1, 42, vec![2; 42], DEFAULT_PALETTE).unwrap();
    let e = convert(&column).unwrap_err();
    assert_eq!(
        e,
        ConvertError::TooTall {
            row: 3,
            why: IllegalDrop::SpawnBlocked
        }
    );
    assert_eq!(
        e.to_string(),
        "row 3 of the image (counting from 0 at the top) does not fit in the field: \
         the piece is blocked at the spawn point"
    );
}

#[test]
fn a_tall_sprite_fills_the_field_and_stays_legal() {
    // A 17x32 sprite (the seed's largest) either prints, or says which row does not fit.
    let px: Vec<u8> = (0..17 * 32)
        .map(|i| ((i * 7 / 3) % 4) as u8)
        .map(|v| v.max(1))
        .collect();
    let img = Image::new(17, 32, px, [Rgb(1, 2, 3), Rgb(4, 5, 6), Rgb(7, 8, 9)]).unwrap();
    match convert(&img) {
        Ok(_) => assert!(check(&img)),
        Err(e) => panic!("{e}"),
    }
}
