//! The BBC BASIC for Windows / SDL 2.0 / (Z80) tokenized format: real programs (BBC BASIC (Z80)'s
//! own tests, from $RETRO_ORACLES/bbcz80/tests) load and save back byte for byte, conversion
//! round-trips for generated programs, and the loader never panics on any bytes.

use std::cell::Cell;
use std::path::PathBuf;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use retro_bbc::{
    Format, Mode, Program, ReadError, bbcwin, detect, read_program, render_bad_program, tokenize_program,
};

/// BBC BASIC (Z80)'s test programs, or `None` (a failure with RETRO_REQUIRE_CONFORMANCE set).
fn z80_tests() -> Option<Vec<PathBuf>> {
    // `$RETRO_ORACLES`, or ../shared/oracles beside the repository.
    let dir = std::env::var_os("RETRO_ORACLES")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles")))
        .map(|d| d.join("bbcz80/tests"));
    let found = dir.and_then(|d| std::fs::read_dir(d).ok()).map(|entries| {
        let mut v: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("bbc")))
            .collect();
        v.sort();
        v
    });
    if found.is_none() {
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "RETRO_ORACLES/bbcz80/tests not found and RETRO_REQUIRE_CONFORMANCE is set"
        );
        eprintln!("RETRO_ORACLES not set: BBC BASIC (Z80)'s test programs not checked");
    }
    found
}

/// The bytes of a Windows-format file up to and including its end marker's zero length byte.
fn up_to_end(bytes: &[u8]) -> &[u8] {
    let mut at = 0;
    while bytes[at] != 0 {
        at += bytes[at] as usize;
    }
    &bytes[..=at]
}

#[test]
fn bbc_basic_z80_test_programs_load_and_save_back_byte_for_byte() {
    let Some(files) = z80_tests() else { return };
    assert!(files.len() >= 9, "only {} test programs", files.len());
    for f in files {
        let bytes = std::fs::read(&f).expect("readable");
        assert_eq!(detect(&bytes), Format::BbcWin, "{}", f.display());
        let p = read_program(&bytes, Mode::Strict).unwrap_or_else(|e| panic!("{}: {e:?}", f.display()));
        assert!(!p.lines().is_empty());
        let back = bbcwin::to_bytes(&p).expect("fits");
        // Our end marker is &00 &FF &FF; what follows the zero byte in the file is not program.
        assert_eq!(up_to_end(&back), up_to_end(&bytes), "{}", f.display());
        // And through RISC OS's format, as `retro tok --format riscos` then `--format bbcwin` do.
        let riscos = Program::from_bytes(&p.to_bytes()).expect("RISC OS bytes read back");
        assert_eq!(riscos, p);
    }
}

#[test]
fn a_listing_reads_the_same_in_every_format() {
    let p = tokenize_program(
        "10 WHILE x<3:x+=1:SWAP a,b:ENDWHILE\n20 CASE x OF\n30 WHEN 3:PRINT SUM(a())\n40 OTHERWISE:MOVE BY 4,4\n50 ENDCASE:GOTO 10\n",
        Mode::Strict,
    )
    .unwrap();
    let win = bbcwin::to_bytes(&p).unwrap();
    assert_eq!(detect(&win), Format::BbcWin);
    assert_eq!(read_program(&win, Mode::Strict).unwrap(), p);
    let text = retro_bbc::SaveFormat::Text.encode(&p).unwrap();
    assert_eq!(detect(&text), Format::Text);
    assert_eq!(read_program(&text, Mode::Strict).unwrap(), p);
}

/// Program text from pieces that exercise the conversion: keywords of both tables (BASIC V's own,
/// the ones only RISC OS has, the words only BBC BASIC for Windows tokenizes), names that contain
/// them, strings, REM, DATA, star commands, line numbers.
fn piece() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "WHILE ",
        "ENDWHILE",
        "CASE x OF",
        "WHEN 1",
        "OTHERWISE",
        "ENDCASE",
        "SUM(a())",
        "SWAP a,b",
        "CIRCLE 1,2,3",
        "ELLIPSE ",
        "FILL ",
        "MOUSE x,y,z",
        "ORIGIN ",
        "QUIT",
        "RECTANGLE ",
        "SYS ",
        "TINT ",
        "WAIT",
        "INSTALL \"x\"",
        "BY",
        "EXIT",
        "PRIVATE",
        "BYTE",
        "xBY",
        "EXITs",
        "MOVE BY 1,2",
        "PRINT",
        "\"WHILE\"",
        "\"",
        "REM WHILE",
        "DATA SWAP,\"x\"",
        "*FX 0",
        ":",
        " ",
        "GOTO 100",
        "GOSUB 20",
        "RESTORE 1",
        "THEN",
        "ELSE",
        "x",
        "a%",
        "&FF",
        "2",
        "PROCBY",
        "FNEXIT",
        "IF",
        "=",
        "+",
        ",",
        "(",
        ")",
        "LET",
        "ENDIF",
        "REPEAT",
        "UNTIL",
        "£",
        "TIME",
        "PTR#",
        "\u{7f}",
    ])
}

fn program_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::collection::vec(piece(), 0..12), 1..6).prop_map(|lines| {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{} {}\n", (i + 1) * 10, l.concat()))
            .collect()
    })
}

/// Whether a RISC OS program uses only keywords BBC BASIC for Windows has (so it converts there
/// and back unchanged): no LIBRARY, TEMPO... and no raw control bytes in program text.
fn windows_can_hold(p: &Program) -> bool {
    p.lines().iter().all(|l| {
        let listed = retro_bbc::detokenize_line(&l.body);
        let riscos_only = [
            "LIBRARY", "BEAT", "TEMPO", "VOICE", "STEREO", "OVERLAY", "POINT ", "HELP",
        ];
        !riscos_only
            .iter()
            .any(|k| listed.windows(k.len()).any(|w| w == k.as_bytes()))
            && !l.body.contains(&retro_bbc::tokens::ELSE_BLOCK)
            && l.body.len() <= 200
    })
}

/// Of the 2000 generated programs, how many must tokenize and fit the Windows format (all of
/// them do today).
const ROUND_TRIPS_FLOOR: usize = 1800;

#[test]
fn riscos_programs_convert_to_windows_and_back_unchanged() {
    // A fixed case count: CI's PROPTEST_CASES=100000 would make this test slow.
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        ..Config::default()
    });
    let compared = Cell::new(0usize);
    runner
        .run(&program_text(), |text| {
            let Ok(p) = tokenize_program(&text, Mode::Strict) else {
                return Ok(());
            };
            prop_assume!(windows_can_hold(&p));
            compared.set(compared.get() + 1);
            let win = bbcwin::to_bytes(&p).expect("fits");
            let back = bbcwin::from_bytes(&win).expect("reads back");
            prop_assert_eq!(&back, &p, "{:?}", text);
            // And the Windows bytes are what that format's own conversion of them gives again.
            prop_assert_eq!(bbcwin::to_bytes(&back).unwrap(), win);
            Ok(())
        })
        .unwrap();
    // Programs that do not tokenize pass without a check: a generator drifting into those
    // would test nothing.
    assert!(
        compared.get() >= ROUND_TRIPS_FLOOR,
        "only {} of 2000 generated programs tokenized and were converted",
        compared.get()
    );
}

/// Bytes shaped like a Windows-format file: line headers with plausible lengths, bodies of any
/// bytes, sometimes an end marker, sometimes not.
fn windows_like() -> impl Strategy<Value = Vec<u8>> {
    let line = (
        0u8..=255,
        any::<u16>(),
        proptest::collection::vec(any::<u8>(), 0..40),
        any::<bool>(),
    )
        .prop_map(|(fudge, n, body, honest)| {
            let len = if honest { (body.len() + 4) as u8 } else { fudge };
            let mut v = vec![len];
            v.extend_from_slice(&n.to_le_bytes());
            v.extend_from_slice(&body);
            v.push(0x0D);
            v
        });
    (
        proptest::collection::vec(line, 0..6),
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(lines, end, tail)| {
            let mut v: Vec<u8> = lines.concat();
            if end {
                v.extend_from_slice(&[0, 0xFF, 0xFF]);
            }
            v.extend_from_slice(&tail);
            v
        })
}

#[test]
fn the_loader_never_panics_on_any_bytes() {
    let mut runner = TestRunner::new(Config {
        cases: 5000,
        ..Config::default()
    });
    let bytes = prop_oneof![windows_like(), proptest::collection::vec(any::<u8>(), 0..200)];
    runner
        .run(&bytes, |bytes| {
            match read_program(&bytes, Mode::Strict) {
                Ok(p) => {
                    // Whatever loads can be listed and saved in every format.
                    let _ = retro_bbc::list(&p);
                    let _ = bbcwin::to_bytes(&p);
                    // And `retro list --tokens` can show it.
                    if detect(&bytes) == Format::BbcWin {
                        prop_assert!(bbcwin::render_tokens(&bytes).is_ok());
                    }
                }
                Err(ReadError::Bad(e)) => {
                    let report = render_bad_program("f.bbc", &bytes, &e, false);
                    prop_assert!(
                        !report
                            .chars()
                            .any(|c| c != '\n' && retro_diag::escape::is_unsafe(c))
                    );
                }
                Err(ReadError::Text { .. }) => {}
            }
            Ok(())
        })
        .unwrap();
}
