//! The C64's two character sets as Unicode: each of the 128 screen codes of the upper
//! case/graphics set and of the lower/upper case set shown as the closest Unicode character.
//! The PETSCII graphics are in Unicode's Symbols for Legacy Computing block (U+1FB00), box
//! drawing, block elements and the card suits; the shared 8x8 font draws every one of them, so
//! pixel and PNG renderings use our own glyphs, never the C64's character ROM. Reverse video
//! (screen codes 128-255) is the same character with its colours swapped.
//!
//! [`fallback`] maps the Legacy Computing characters to older, widely available ones for
//! terminal fonts that lack them.

/// Which character set the VIC-II shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// Upper case and graphics (power-on, POKE 53272,21, CHR$(142)).
    Upper,
    /// Lower and upper case (POKE 53272,23, CHR$(14)).
    Lower,
}

/// Screen codes 64-127 of the upper case/graphics set.
const UPPER_GRAPHICS: [char; 64] = [
    '─',
    '♠',
    '\u{1FB72}',
    '\u{1FB78}',
    '\u{1FB77}',
    '\u{1FB76}',
    '\u{1FB7A}',
    '\u{1FB71}', //
    '\u{1FB74}',
    '╮',
    '╰',
    '╯',
    '\u{1FB7C}',
    '╲',
    '╱',
    '\u{1FB7D}', //
    '\u{1FB7E}',
    '●',
    '\u{1FB7B}',
    '♥',
    '\u{1FB70}',
    '╭',
    '╳',
    '○', //
    '♣',
    '\u{1FB75}',
    '♦',
    '┼',
    '\u{1FB8C}',
    '│',
    'π',
    '◥', //
    ' ',
    '▌',
    '▄',
    '▔',
    '▁',
    '▏',
    '▒',
    '▕', //
    '\u{1FB8F}',
    '◤',
    '\u{1FB87}',
    '├',
    '▗',
    '└',
    '┐',
    '▂', //
    '┌',
    '┴',
    '┬',
    '┤',
    '▎',
    '▍',
    '\u{1FB88}',
    '\u{1FB82}', //
    '\u{1FB83}',
    '▃',
    '\u{1FB7F}',
    '▖',
    '▝',
    '┘',
    '▘',
    '▚', //
];

/// The character screen code `code` (0-255; reverse video ignored) shows in `set`.
pub fn screen_char(code: u8, set: Charset) -> char {
    let c = code & 0x7F;
    match (c, set) {
        (0, _) => '@',
        (1..=26, Charset::Upper) => (b'A' + c - 1) as char,
        (1..=26, Charset::Lower) => (b'a' + c - 1) as char,
        (27, _) => '[',
        (28, _) => '£',
        (29, _) => ']',
        (30, _) => '↑',
        (31, _) => '←',
        (32..=63, _) => c as char,
        (65..=90, Charset::Lower) => (b'A' + c - 65) as char,
        (0x5E, Charset::Lower) => '\u{1FB96}',
        (0x5F, Charset::Lower) => '\u{1FB98}',
        (0x69, Charset::Lower) => '\u{1FB99}',
        (0x7A, Charset::Lower) => '✓',
        _ => UPPER_GRAPHICS[(c - 64) as usize],
    }
}

/// The closest character that fonts without the Legacy Computing block have.
pub fn fallback(ch: char) -> char {
    match ch {
        '\u{1FB70}' | '\u{1FB71}' | '\u{1FB72}' | '\u{1FB73}' | '\u{1FB74}' | '\u{1FB75}' => '│',
        '\u{1FB76}' | '\u{1FB77}' | '\u{1FB78}' | '\u{1FB79}' | '\u{1FB7A}' | '\u{1FB7B}' => '─',
        '\u{1FB7C}' => '└',
        '\u{1FB7D}' => '┌',
        '\u{1FB7E}' => '┐',
        '\u{1FB7F}' => '┘',
        '\u{1FB82}' => '▀',
        '\u{1FB83}' => '▀',
        '\u{1FB87}' => '▐',
        '\u{1FB88}' => '▐',
        '\u{1FB8C}' => '▒',
        '\u{1FB8F}' => '▒',
        '\u{1FB96}' => '▒',
        '\u{1FB98}' | '\u{1FB99}' => '░',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_screen::font::{FALLBACK, glyph};

    #[test]
    fn letters_digits_and_the_graphics_the_sheet_names() {
        assert_eq!(screen_char(1, Charset::Upper), 'A');
        assert_eq!(screen_char(1, Charset::Lower), 'a');
        assert_eq!(screen_char(65, Charset::Lower), 'A');
        assert_eq!(screen_char(65, Charset::Upper), '♠');
        assert_eq!(screen_char(0x30, Charset::Upper), '0');
        assert_eq!(screen_char(0x5E, Charset::Upper), 'π');
        assert_eq!(screen_char(0x81, Charset::Upper), 'A');
        assert_eq!(screen_char(0x5B, Charset::Lower), '┼');
    }

    #[test]
    fn every_screen_code_of_both_sets_has_a_glyph_of_its_own_making() {
        for set in [Charset::Upper, Charset::Lower] {
            for code in 0..128u8 {
                let ch = screen_char(code, set);
                let g = glyph(ch);
                assert_ne!(g, FALLBACK, "{set:?} {code} {ch:?}");
                // The fallback stays drawable too.
                assert_ne!(glyph(fallback(ch)), FALLBACK, "{set:?} {code} {ch:?}");
                if code != 0x20 && code != 0x60 {
                    assert!(g.iter().any(|&r| r != 0), "{set:?} {code} {ch:?} is blank");
                }
            }
        }
    }

    #[test]
    fn fallbacks_leave_the_legacy_computing_block() {
        for set in [Charset::Upper, Charset::Lower] {
            for code in 0..128u8 {
                let f = fallback(screen_char(code, set)) as u32;
                assert!(!(0x1FB00..0x1FC00).contains(&f), "{code}");
            }
        }
    }
}
