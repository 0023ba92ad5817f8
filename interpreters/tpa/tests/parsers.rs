//! Fuzz-style checks of every reader in the crate: any input gives a value or an error, never a
//! panic; whatever parses writes back to the same thing. Cases are cheap (one short parse), so
//! CI's PROPTEST_CASES applies as it is.

use proptest::prelude::*;
use retro_tpa::image::Image;
use retro_tpa::pattern;
use retro_tpa::sequence::Sequence;

/// Text made of the characters the formats use, so parses get past the first word.
fn format_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("palette ".to_string()),
            Just("emit ".to_string()),
            Just("platform ".to_string()),
            Just("rows ".to_string()),
            Just("left ".to_string()),
            Just("#FF00aa ".to_string()),
            Just(": ".to_string()),
            Just("\n".to_string()),
            "[TJLSZOIx.@0-9A-F, #-]{1,6}",
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn sequence_files_never_panic_and_round_trip(text in format_text()) {
        if let Ok(seq) = Sequence::parse(&text) {
            prop_assert_eq!(Sequence::parse(&seq.to_text("again")), Ok(seq));
        }
    }

    #[test]
    fn pattern_files_never_panic_and_round_trip(text in format_text()) {
        if let Ok(patterns) = pattern::parse(&text) {
            for p in patterns {
                prop_assert_eq!(pattern::parse(&p.to_line()), Ok(vec![p]));
            }
        }
    }

    #[test]
    fn text_sprites_never_panic(text in "[a-c.x\n #]{0,200}") {
        if let Ok(img) = Image::from_text(&text) {
            prop_assert!(img.width() <= 17);
            prop_assert!((0..img.height()).all(|y| (0..img.width()).all(|x| img.get(x, y) <= 3)));
        }
    }

    #[test]
    fn png_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(bytes);
        let _ = Image::from_png(&png);
    }
}
