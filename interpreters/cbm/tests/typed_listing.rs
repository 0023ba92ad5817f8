//! Typing a listing at the READY. prompt key by key through the screen editor (one key a jiffy,
//! as the KERNAL's interrupt takes them) enters exactly the program `retro tok` makes of the same
//! listing, however the lines wrap and the screen scrolls (issue 27: a line that extended a
//! line on the bottom row while a two-row line was at the top used to be split).

use proptest::prelude::*;
use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, Options};
use retro_cbm::{Charset, Program};
use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, HoldMode, Key, KeyEvent, VirtualTime};

/// Types `lines` (upper-case ASCII, each ending with RETURN) at a fresh C64's READY. prompt and
/// returns the program it holds afterwards.
fn typed(lines: &[String]) -> Program {
    let mut m = CbmMachine::direct(InputSource::Keys, Options::default()).expect("powers on");
    let held = HeldKeys::new(HoldMode::ReleaseEvents);
    let mut jiffy = 0u64;
    let now = |j: u64| VirtualTime::from_micros(j * 1_000_000 / 60);
    for line in lines {
        for c in line.chars() {
            // A host key without shift types the unshifted letter (upper case on the C64).
            m.key(KeyEvent::press(now(jiffy), Key::Char(c.to_ascii_lowercase())));
        }
        m.key(KeyEvent::press(now(jiffy), Key::Return));
        // Run until every key is taken and the line is entered (a bounded number of jiffies).
        for _ in 0..4 * (line.len() + 8) {
            jiffy += 1;
            let state = m.run_frame(now(jiffy), &held);
            assert!(
                !matches!(state, RunState::Failed(_) | RunState::Ended),
                "{state:?}"
            );
            if state == RunState::WaitingForKey {
                break;
            }
        }
    }
    m.interp().program()
}

fn listing(lines: &[String]) -> Program {
    Program::from_text_in(&(lines.join("\n") + "\n"), Charset::Ascii).expect("tokenizes")
}

#[test]
fn thirteen_lines_of_fifty_characters_all_arrive() {
    let lines: Vec<String> = (1..=13)
        .map(|i| {
            format!(
                "{} PRINT \"{}\"",
                i * 10,
                "X".repeat(50 - 10 - (i * 10).to_string().len())
            )
        })
        .collect();
    assert!(lines.iter().all(|l| l.len() <= 50));
    let got = typed(&lines);
    assert_eq!(got.lines().len(), 13);
    assert_eq!(got.to_prg(), listing(&lines).to_prg());
}

#[test]
fn a_long_line_typed_on_the_bottom_row_under_a_two_row_line_stays_whole() {
    // A two-row line first, then enough one-row lines to bring it to the top, then a long one.
    let mut lines = vec![format!("1 REM {}", "A".repeat(60))];
    lines.extend((2..=30).map(|i| format!("{i} A={i}")));
    lines.push(format!("99 PRINT \"{}\"", "B".repeat(40)));
    let got = typed(&lines);
    assert_eq!(got.to_prg(), listing(&lines).to_prg());
}

/// A listing line as a typist would enter it: a line number, then keywords, names, numbers and
/// strings, at most 79 characters. (The 80th character fills the second screen row and the
/// editor moves the cursor on to the next line, as the C64's does, so RETURN there reads an
/// empty line: an 80-character line is entered by going back up to it.)
fn line_text() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("PRINT ".to_string()),
        Just("A=".to_string()),
        Just("FOR I=1 TO 9:".to_string()),
        Just("NEXT:".to_string()),
        Just("GOTO 10".to_string()),
        Just(":".to_string()),
        "[A-Z]{1,6}".prop_map(|s| s),
        "[0-9]{1,5}".prop_map(|s| s),
        "\"[A-Z ]{0,30}\"".prop_map(|s| s),
        Just("REM ".to_string()),
        Just("+".to_string()),
        Just(";".to_string()),
    ];
    (1u16..64000, prop::collection::vec(word, 1..12)).prop_map(|(n, words)| {
        let mut body = words.concat();
        if body.starts_with(|c: char| c.is_ascii_digit() || c == ' ') {
            // LINGET would read those digits as more of the line number.
            body.insert_str(0, "A=");
        }
        let mut s = format!("{n} {body}");
        s.truncate(79);
        // A line ending in a space would be trimmed by the screen editor: so would the typist's.
        while s.ends_with(' ') {
            s.pop();
        }
        s
    })
}

proptest! {
    // Each case types up to 30 lines key by key; 1,000 cases take about a second unoptimised,
    // so the count is capped there whatever PROPTEST_CASES asks (CI's 100,000 would take
    // minutes).
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).map_or(1000, |c: u32| c.min(1000))
    ))]

    #[test]
    fn any_typed_listing_is_the_program_tok_makes(lines in prop::collection::vec(line_text(), 1..30)) {
        let lines: Vec<String> = lines.into_iter().filter(|l| l.split_once(' ').is_some_and(|(_, b)| !b.trim().is_empty())).collect();
        let got = typed(&lines);
        prop_assert_eq!(got.to_prg(), listing(&lines).to_prg());
    }
}
