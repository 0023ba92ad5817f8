//! Fuzzing the key-script parser beyond its unit tests' property tests (which run PROPTEST_CASES
//! cases, 100000 in CI): byte soup decoded as text, and big inputs, `#[ignore]`d here and run in
//! release mode by .ci/run, each within [`BIG_INPUT_SECONDS`] (the bound that catches superlinear
//! parsing), with any error message kept short and free of control characters.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use retro_machine::script::{MAX_EVENTS, parse};

/// What a big input may take in release mode (issue 11: "a 1 MB random input finishes in under
/// 2 s").
const BIG_INPUT_SECONDS: u64 = 2;

fn check(src: &str) {
    match parse(src) {
        Ok(s) => {
            assert!(s.events.len() <= MAX_EVENTS);
            assert!(s.events.windows(2).all(|w| w[0].at <= w[1].at));
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(
                shown.chars().count() < 400,
                "a long message: {} chars",
                shown.len()
            );
            assert!(
                !shown.chars().any(retro_diag::escape::is_unsafe),
                "raw control character in {shown:?}"
            );
        }
    }
}

proptest! {
    #[test]
    fn any_bytes_as_text_parse_or_fail_cleanly(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes));
    }
}

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

fn timed(what: &str, src: &str) {
    let start = Instant::now();
    check(src);
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(BIG_INPUT_SECONDS),
        "{what}: {} bytes took {took:?}",
        src.len()
    );
}

#[test]
#[ignore = "big inputs: run in release mode by .ci/run"]
fn a_megabyte_of_anything_parses_quickly() {
    for seed in 1..=3 {
        timed("random bytes", &String::from_utf8_lossy(&noise(1 << 20, seed)));
    }
    // Script-like noise: items, counts, waits, holds, comments.
    let alphabet = b"a7 LEFT+*#\nhold 500 RETURN*3 +20 ";
    let text: String = noise(1 << 20, 9)
        .into_iter()
        .map(|b| alphabet[b as usize % alphabet.len()] as char)
        .collect();
    timed("script-like noise", &text);
    timed("one huge item", &"Q".repeat(1 << 20));
    timed("one huge control item", &"\x1b".repeat(1 << 20));
    timed("many taps", &"a ".repeat(1 << 19));
    timed("many waits", &"+1 ".repeat(350_000));
    timed("many comments", &"# x\n".repeat(250_000));
}
