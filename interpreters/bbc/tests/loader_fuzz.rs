//! Fuzzing the BBC program loader and tokenizer together with their error reports, which is what
//! `retro run`, `retro tok` and `retro list` do with any file they are given:
//!
//! - property tests (PROPTEST_CASES cases, 100000 in CI) of random bytes, random text and
//!   listing-like text: never a panic, and every report is safe to print (no raw control bytes);
//! - big inputs (1 MB of random bytes or text, 40,000 mistakes, a 200 KB line), `#[ignore]`d here
//!   and run in release mode by .ci/run, each finishing within [`BIG_INPUT_SECONDS`]: the bound that
//!   catches superlinear loading or rendering (before the fix a 1 MB file took 41 s to report).

use std::time::{Duration, Instant};

use proptest::prelude::*;
use retro_bbc::{Mode, ReadError, read_program, render_bad_program, render_diagnostics};

/// What a big input may take in release mode (issue 11: "a 1 MB random input finishes in under
/// 2 s").
const BIG_INPUT_SECONDS: u64 = 2;

/// Loads `bytes` as `retro list` does and renders whatever goes wrong: the text printed.
fn load_and_report(bytes: &[u8], mode: Mode) -> String {
    match read_program(bytes, mode) {
        Ok(p) => retro_bbc::list(&p),
        Err(ReadError::Bad(e)) => render_bad_program("f.bbc", bytes, &e, false),
        Err(ReadError::Text { text, diagnostics }) => {
            assert!(!diagnostics.is_empty());
            render_diagnostics("f.bbc", &text, &diagnostics, false)
        }
    }
}

/// Reports (not listings: a program may print anything) must carry no control characters but
/// line breaks.
fn assert_safe_report(bytes: &[u8], mode: Mode) -> String {
    let out = load_and_report(bytes, mode);
    if read_program(bytes, mode).is_err() {
        assert!(
            !out.chars().any(|c| c != '\n' && retro_diag::escape::is_unsafe(c)),
            "raw control character in {out:?}"
        );
    }
    out
}

fn listing_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::sample::select(vec!['\r', '\n', ' ', '1', '0', 'P', 'R', 'I', 'N', 'T', 'x', '"', ':']),
        2 => any::<char>(),
        1 => (0u8..32).prop_map(char::from),
    ]
}

proptest! {
    #[test]
    fn random_bytes_load_or_report_safely(bytes in proptest::collection::vec(any::<u8>(), 0..300), crunch in any::<bool>()) {
        let mode = if crunch { Mode::Crunch } else { Mode::Strict };
        assert_safe_report(&bytes, mode);
    }

    #[test]
    fn tokenized_looking_bytes_load_or_report_safely(
        lines in proptest::collection::vec((any::<u16>(), proptest::collection::vec(any::<u8>(), 0..20), any::<u8>()), 0..6),
        tail in proptest::collection::vec(any::<u8>(), 0..4),
    ) {
        // CR, line number, a length byte that may or may not match, a body: the shapes that
        // reach every branch of the reader.
        let mut bytes = Vec::new();
        for (n, body, len) in lines {
            bytes.push(0x0D);
            bytes.extend_from_slice(&n.to_be_bytes());
            bytes.push(if len % 4 == 0 { len } else { (body.len() + 4) as u8 });
            bytes.extend_from_slice(&body);
        }
        bytes.extend_from_slice(&tail);
        assert_safe_report(&bytes, Mode::Strict);
    }

    #[test]
    fn listing_like_text_loads_or_reports_safely(chars in proptest::collection::vec(listing_char(), 0..200), crunch in any::<bool>()) {
        let text: String = chars.into_iter().collect();
        let mode = if crunch { Mode::Crunch } else { Mode::Strict };
        assert_safe_report(text.as_bytes(), mode);
    }
}

/// A cheap deterministic generator for big inputs (xorshift), so the big tests need no seed files.
fn noise(len: usize, mut state: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn timed(what: &str, bytes: &[u8], mode: Mode) -> String {
    let start = Instant::now();
    let out = assert_safe_report(bytes, mode);
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(BIG_INPUT_SECONDS),
        "{what}: {} bytes took {took:?}",
        bytes.len()
    );
    out
}

#[test]
#[ignore = "big inputs: run in release mode by .ci/run"]
fn a_megabyte_of_random_bytes_reports_quickly() {
    for seed in 1..=4 {
        let mut bytes = noise(1 << 20, seed);
        timed("random text", &bytes, Mode::Strict);
        bytes[0] = 0x0D;
        let out = timed("random tokenized", &bytes, Mode::Strict);
        assert!(out.len() < 4096, "a short report: {}", out.len());
    }
}

#[test]
#[ignore = "big inputs: run in release mode by .ci/run"]
fn a_megabyte_of_random_text_reports_quickly() {
    // Random letters, digits, spaces and line ends: listing-like text.
    let alphabet = b"0123456789 PRINTGOTOxy\"\n\n\r:";
    let text: Vec<u8> = noise(1 << 20, 7)
        .into_iter()
        .map(|b| alphabet[b as usize % alphabet.len()])
        .collect();
    timed("random listing", &text, Mode::Strict);
    timed("random listing, crunched", &text, Mode::Crunch);
    // Characters outside Latin-1 everywhere: one mistake per character.
    let wide = "€".repeat(350_000);
    let out = timed("non-Latin-1 text", wide.as_bytes(), Mode::Strict);
    assert!(out.contains("more mistakes (not shown)"), "{out}");
}

#[test]
#[ignore = "big inputs: run in release mode by .ci/run"]
fn forty_thousand_mistakes_are_counted_not_printed() {
    // Line numbers that go down: every line after the first is a mistake.
    let text: String = (0..40_001).map(|i| format!("{} PRINT\n", 60_000 - i)).collect();
    let out = timed("40,000 mistakes", text.as_bytes(), Mode::Strict);
    assert_eq!(out.matches("error:").count(), retro_diag::MAX_SHOWN);
    assert!(out.ends_with("and 39,980 more mistakes (not shown)\n"), "{out}");
}

#[test]
#[ignore = "big inputs: run in release mode by .ci/run"]
fn a_long_line_is_shown_as_a_window() {
    let text = format!("10 PRINT \"{}\"\n", "x".repeat(200_000));
    let out = timed("a 200 KB line", text.as_bytes(), Mode::Strict);
    assert!(out.contains("Line too long"), "{out}");
    assert!(out.len() < 2000, "the report is {} bytes", out.len());
}
