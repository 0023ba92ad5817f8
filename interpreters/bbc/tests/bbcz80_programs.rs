//! BBC BASIC (Z80)'s own test programs ($RETRO_ORACLES/bbcz80/tests/NAME.BBC, in the BBC BASIC for
//! Windows tokenized format) that use only BASIC V features, listed in tests/bbcz80/programs.txt,
//! run under our interpreter and must print what BBC BASIC (Z80) printed running them under our
//! CP/M machine (tests/bbcz80/NAME.expect, recorded by tests/bbcz80/record.sh and re-checked by
//! .ci/run). tests/bbcz80/README.md says which programs are left out and why.

use std::path::{Path, PathBuf};

use retro_bbc::interp::{Outcome, run_bytes};
use retro_bbc::{Format, Mode, detect, read_program};

const BUDGET: u64 = 50_000_000;

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bbcz80")
}

/// `$RETRO_ORACLES`, or ../shared/oracles beside the repository when that exists.
fn oracles() -> Option<PathBuf> {
    std::env::var_os("RETRO_ORACLES").map(PathBuf::from).or_else(|| {
        let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles");
        beside.is_dir().then_some(beside)
    })
}

#[test]
fn bbc_basic_z80_test_programs_print_what_bbc_basic_z80_prints() {
    let Some(oracles) = oracles() else {
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "RETRO_ORACLES not set and RETRO_REQUIRE_CONFORMANCE is set"
        );
        eprintln!("RETRO_ORACLES not set: BBC BASIC (Z80)'s test programs not run");
        return;
    };
    let tests = oracles.join("bbcz80/tests");
    let names = std::fs::read_to_string(here().join("programs.txt")).expect("programs.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for name in names.split_whitespace() {
        count += 1;
        let bytes = std::fs::read(tests.join(format!("{name}.BBC"))).expect("the test program");
        assert_eq!(detect(&bytes), Format::BbcWin, "{name}");
        let program = read_program(&bytes, Mode::Strict).expect("loads");
        let t = run_bytes(&program.to_bytes(), b"", Some(BUDGET)).expect("runs");
        let mut got = t.output.replace("\r\n", "\n");
        if let Outcome::Error { .. } | Outcome::Aborted = t.outcome {
            got.push_str(&format!("!! {}\n", t.outcome.message().unwrap_or_default()));
        }
        let want = std::fs::read_to_string(here().join(format!("{name}.expect"))).expect("expectation");
        if got != want {
            failures.push(format!("{name}:\n--- BBC BASIC (Z80)\n{want}--- ours\n{got}"));
        }
    }
    assert!(count >= 1);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
