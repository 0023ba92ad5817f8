//! `retro conformance z80`: the suites pass, results are reported per group with a final
//! `N passed, M failed` line, and a wrong expectation makes the command fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .output()
        .expect("retro runs")
}

/// The conformance data, or None (with a notice) when it is absent and not required.
fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("RETRO_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"));
    if dir.join("z80/fuse/tests.in").is_file() {
        return Some(dir);
    }
    if std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_some() {
        panic!("conformance data missing at {}", dir.display());
    }
    eprintln!(
        "SKIPPED: no conformance data at {} (set RETRO_CONFORMANCE)",
        dir.display()
    );
    None
}

fn last_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn all_fuse_and_singlestep_tests_pass() {
    let Some(dir) = conformance_dir() else { return };
    let out = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["conformance", "z80"])
        .env("RETRO_CONFORMANCE", &dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("fuse ddcb: 256 passed, 0 failed"), "{stdout}");
    assert!(
        stdout.contains("singlestep ed: 2000 passed, 0 failed"),
        "{stdout}"
    );
    assert_eq!(last_line(&out), format!("{} passed, 0 failed", 1356 + 40100));
}

#[test]
fn suites_can_be_chosen_by_flag() {
    let Some(dir) = conformance_dir() else { return };
    let fuse = dir.join("z80/fuse");
    let out = retro(&["conformance", "z80", "--fuse", fuse.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(last_line(&out), "1356 passed, 0 failed");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("singlestep"));
}

#[test]
fn a_wrong_expectation_fails_the_run() {
    let Some(dir) = conformance_dir() else { return };
    // The real Fuse data with one expected register value altered: test `00` (NOP) now claims
    // that PC ends at 0002.
    let tmp = tempfile::tempdir().unwrap();
    let fuse = dir.join("z80/fuse");
    std::fs::copy(fuse.join("tests.in"), tmp.path().join("tests.in")).unwrap();
    let expected = std::fs::read_to_string(fuse.join("tests.expected")).unwrap();
    let altered = expected.replacen(
        "0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0001 0000",
        "0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0002 0000",
        1,
    );
    assert_ne!(altered, expected);
    std::fs::write(tmp.path().join("tests.expected"), altered).unwrap();
    let out = retro(&["conformance", "z80", "--fuse", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(last_line(&out), "1355 passed, 1 failed");
    assert!(String::from_utf8_lossy(&out.stdout).contains("00: PC: got 0001, want 0002"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(retro(&["conformance", "c64"]).status.code(), Some(2));
    assert_eq!(
        retro(&["conformance", "z80", "--fuse", "/nonexistent/fuse"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        retro(&["conformance", "z80", "--zex", "/nonexistent/zexdoc.com"])
            .status
            .code(),
        Some(2)
    );
}

/// `--zex` prints the exerciser's exact output, then the tally (67 groups and the byte-for-byte
/// comparison). Slow in a debug build: `cargo test --release --test z80_conformance -- --ignored`.
#[test]
#[ignore = "slow: ZEXDOC runs 5.8 billion instructions"]
fn zex_prints_the_published_output() {
    let Some(dir) = conformance_dir() else { return };
    let Some(zexdoc) = retro_z80_conformance::zex::locate("zexdoc.com") else {
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "zexdoc.com not found and RETRO_REQUIRE_CONFORMANCE is set"
        );
        eprintln!("SKIPPED: zexdoc.com not found");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["conformance", "z80", "--zex", zexdoc.to_str().unwrap()])
        .env("RETRO_CONFORMANCE", &dir)
        .output()
        .unwrap();
    let want = std::fs::read(dir.join("z80/zex/zexdoc.expected.txt")).unwrap();
    assert!(out.stdout.starts_with(&want));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(last_line(&out), "68 passed, 0 failed");
}
