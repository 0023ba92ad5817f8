//! Property tests: text -> tokens -> text round-trips exactly, and no input makes the tokenizer,
//! the detokenizer, the file reader or the inspector panic. CI runs them with
//! PROPTEST_CASES=100000.

use proptest::prelude::*;
use retro_bbc::detokenize::{detokenize_line, latin1_to_string};
use retro_bbc::tokens::KEYWORDS;
use retro_bbc::{Line, Mode, Program, inspect, list, tokenize_line, tokenize_program};

/// Keywords as a user types them, minus COLOR (LIST spells it COLOUR, so it cannot round-trip).
fn keyword() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = KEYWORDS
        .iter()
        .map(|k| k.name)
        .filter(|&n| n != "COLOR")
        .collect();
    proptest::sample::select(names).prop_map(str::to_owned)
}

/// Names: a first character that never starts a keyword search (lowercase, X-Z, `_`, backquote),
/// then any word characters, uppercase included (keywords inside names stay text).
fn name() -> impl Strategy<Value = String> {
    ("[a-zXYZ_`]", "[A-Za-z0-9_`]{0,6}", "[%$]?").prop_map(|(a, b, c)| format!("{a}{b}{c}"))
}

/// Numbers without leading zeros (`GOTO 010` lists as `GOTO 10`), never starting with `.` (a `.`
/// after a keyword's letters would be an abbreviation, which LIST spells out).
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_owned()),
        "[1-9][0-9]{0,5}",
        "[1-9][0-9]{0,2}\\.[0-9]{1,3}",
        "[1-9]E[0-9]",
        "&[0-9A-Fa-f]{1,8}",
    ]
}

/// Any Latin-1 character but the quote: strings hold whatever the user types.
fn string_literal() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![0x20u8..0x22, 0x23u8..0x7F, 0x80u8..=0xFF], 0..8)
        .prop_map(|bytes| format!("\"{}\"", latin1_to_string(&bytes)))
}

fn operator() -> impl Strategy<Value = String> {
    proptest::sample::select(vec![
        "", " ", "  ", ":", ",", ";", "=", "+", "-", "*", "/", "(", ")", "<", ">", "<<", ">=", "#", "!", "?",
        "'", "~", "^", "@", "[", "]", "{", "}", "|", "\\",
    ])
    .prop_map(str::to_owned)
}

#[derive(Clone, Debug)]
enum Piece {
    Keyword(String),
    Name(String),
    Number(String),
    Str(String),
    Op(String),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => keyword().prop_map(Piece::Keyword),
        2 => name().prop_map(Piece::Name),
        2 => number().prop_map(Piece::Number),
        1 => string_literal().prop_map(Piece::Str),
        3 => operator().prop_map(Piece::Op),
    ]
}

/// How a generated line may end: nothing, an unclosed string, or a REM with any Latin-1 text.
fn tail() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "\"[ -~]{0,6}"
            .prop_map(|s| s.replace('"', ""))
            .prop_map(|s| format!("\"{s}")),
        proptest::collection::vec(prop_oneof![0x20u8..0x7F, 0x80u8..=0xFF], 0..10)
            .prop_map(|b| format!("REM{}", latin1_to_string(&b))),
    ]
}

/// A line body as a user might type it, in the alphabet where LIST reproduces it exactly.
fn body() -> impl Strategy<Value = String> {
    (proptest::collection::vec(piece(), 0..40), tail()).prop_map(|(pieces, tail)| {
        let mut s = String::new();
        for p in pieces {
            let text = match p {
                Piece::Keyword(t) | Piece::Name(t) | Piece::Number(t) | Piece::Str(t) | Piece::Op(t) => t,
            };
            // Two numbers glued would make one with possibly a leading zero (`0` `5` -> `05`).
            if s.ends_with(|c: char| c.is_ascii_digit()) && text.starts_with(|c: char| c.is_ascii_digit()) {
                s.push(' ');
            }
            s.push_str(&text);
        }
        if let Some(rem) = tail.strip_prefix("REM") {
            // A REM glued to a word is part of the word (PROCREM, BGETREM), and after DATA, EDIT or
            // a star command it is not a REM at all: there LIST would expand a byte >= &7F.
            s.push(':');
            let raw_before = s.contains("DATA") || s.contains("EDIT") || s.contains('*');
            s.push_str("REM");
            if raw_before {
                s.extend(rem.chars().filter(char::is_ascii));
            } else {
                s.push_str(rem);
            }
        } else {
            s.push_str(&tail);
        }
        s
    })
}

fn to_latin1(s: &str) -> Vec<u8> {
    s.chars().map(|c| u8::try_from(u32::from(c)).unwrap()).collect()
}

proptest! {
    #[test]
    fn detokenize_of_tokenize_is_the_text(text in body(), crunch in any::<bool>()) {
        let mode = if crunch { Mode::Crunch } else { Mode::Strict };
        let bytes = to_latin1(&text);
        let tokens = tokenize_line(&bytes, mode);
        prop_assert_eq!(latin1_to_string(&detokenize_line(&tokens)), text);
    }

    #[test]
    fn a_listing_tokenizes_and_lists_back_to_itself(
        bodies in proptest::collection::vec(body(), 1..6),
        first in 0u16..1000,
        steps in proptest::collection::vec(1u16..500, 6),
    ) {
        let mut number = first;
        let mut text = String::new();
        for (i, b) in bodies.iter().enumerate() {
            // A body starting with a digit would read as part of the line number.
            let b = if b.starts_with(|c: char| c.is_ascii_digit()) { format!(" {b}") } else { b.clone() };
            if b.is_empty() && i == 0 {
                continue;
            }
            text.push_str(&format!("{number:5}{b}\n"));
            number += steps[i];
        }
        match tokenize_program(&text, Mode::Strict) {
            Ok(program) => {
                prop_assert_eq!(list(&program), text);
                prop_assert_eq!(Program::from_bytes(&program.to_bytes()).unwrap(), program);
            }
            // Only a line over 251 bytes may fail.
            Err(diags) => prop_assert!(diags.iter().all(|d| d.message == "Line too long"), "{:?}", diags),
        }
    }

    #[test]
    fn tokenizer_never_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300), crunch in any::<bool>()) {
        let mode = if crunch { Mode::Crunch } else { Mode::Strict };
        let tokens = tokenize_line(&bytes, mode);
        // The interpreter finds the end of a line by its CR: a body never holds one.
        prop_assert!(!tokens.contains(&b'\r'));
        let _ = detokenize_line(&tokens);
        let _ = detokenize_line(&bytes);
    }

    #[test]
    fn listing_reader_never_panics_on_any_text(
        chars in proptest::collection::vec(prop_oneof![any::<char>(), proptest::sample::select(vec!['\r', '\n', ' ', '1', 'P', 'R', 'I', 'N', 'T', 'x', '"'])], 0..120),
        crunch in any::<bool>(),
    ) {
        let text: String = chars.into_iter().collect();
        let mode = if crunch { Mode::Crunch } else { Mode::Strict };
        if let Err(diags) = tokenize_program(&text, mode) {
            prop_assert!(!diags.is_empty());
            // A few reports show that any span the reader makes is one the renderer can draw
            // (rendering is linear; tests/loader_fuzz.rs checks big inputs).
            let _ = retro_bbc::render_diagnostics("t.bbc", &text, &diags[..diags.len().min(2)], false);
        }
    }

    #[test]
    fn file_reader_never_panics_and_views_any_program(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(program) = Program::from_bytes(&bytes) {
            // What it read is what it writes, up to the end marker.
            let written = program.to_bytes();
            prop_assert_eq!(&bytes[..written.len()], &written[..]);
            let _ = list(&program);
            let _ = inspect::render(&inspect::inspect(&program), true);
        }
    }

    #[test]
    fn any_program_survives_the_file_format(
        lines in proptest::collection::vec((0u16..=65279, proptest::collection::vec(any::<u8>(), 0..=251)), 0..8)
    ) {
        let program = Program::new(lines.into_iter().map(|(number, body)| Line { number, body }).collect());
        prop_assert_eq!(Program::from_bytes(&program.to_bytes()).unwrap(), program);
    }
}

#[test]
fn file_reader_reads_a_file_starting_with_a_valid_header() {
    // Guards the property above against vacuity: arbitrary bytes rarely form a program, so check
    // that the reader does accept well-formed ones built by hand.
    let bytes = [0x0D, 0x00, 0x0A, 0x05, 0xF1, 0x0D, 0xFF];
    let p = Program::from_bytes(&bytes).unwrap();
    assert_eq!(p.lines()[0].body, [0xF1]);
}
