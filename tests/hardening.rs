//! Issue 11, end to end: whatever file, device, path or pipe the `retro` binary is given, it
//! answers with a clear message and the right status, quickly, and never writes raw control bytes
//! from the input to the terminal. (Signals are in tests/terminal.rs, graphics text streams in
//! tests/rheolism.rs, the parsers' own fuzzing beside each crate.)

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{retro, stderr};

/// No terminal control characters but line breaks.
fn assert_printable(what: &str, text: &str) {
    let bad = text
        .chars()
        .find(|&c| c != '\n' && retro_diag::escape::is_unsafe(c));
    assert!(bad.is_none(), "{what}: raw {bad:?} in {text:?}");
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

/// A megabyte of random bytes as a listing and as a tokenized file: a short, safe report.
fn megabyte_of_garbage(dir: &std::path::Path) -> Duration {
    let mut slowest = Duration::ZERO;
    for (name, first) in [("garbage.bbc", b'x'), ("garbage-tokenized.bbc", 0x0D)] {
        let path = dir.join(name);
        let mut bytes = noise(1 << 20, 3);
        bytes[0] = first;
        std::fs::write(&path, &bytes).unwrap();
        for cmd in ["list", "run"] {
            let start = Instant::now();
            let o = retro(&[cmd, path.to_str().unwrap(), "--headless"][..if cmd == "list" { 2 } else { 3 }]);
            slowest = slowest.max(start.elapsed());
            assert!(
                matches!(o.status.code(), Some(1 | 2)),
                "{cmd} {name}: {:?}",
                o.status
            );
            let err = stderr(&o);
            assert_printable(name, &err);
            assert!(err.len() < 40_000, "{cmd} {name}: a {} byte report", err.len());
        }
    }
    slowest
}

#[test]
fn garbage_files_get_short_safe_reports() {
    let dir = tempfile::tempdir().unwrap();
    megabyte_of_garbage(dir.path());
}

#[test]
#[ignore = "timing: run in release mode by .ci/run"]
fn garbage_files_are_reported_within_two_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let slowest = megabyte_of_garbage(dir.path());
    assert!(slowest < Duration::from_secs(2), "slowest: {slowest:?}");
}

#[test]
fn escape_sequences_in_a_file_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("esc.bbc");
    // A tokenized header with a bad length, followed by a screen-clearing escape sequence.
    std::fs::write(&path, b"\x0d\x00\x0a\x40\x1b[2J\x1b]0;title\x07").unwrap();
    let o = retro(&["list", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_printable("hex dump", &stderr(&o));
    // The same bytes in a listing: shown as \x1b, not sent.
    std::fs::write(&path, "10 PRINT\n5 PRINT \"\x1b[2J\x1b]0;title\x07\"\n").unwrap();
    let o = retro(&["list", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_printable("listing", &err);
    assert!(err.contains("\\x1b[2J"), "{err}");
}

#[test]
fn a_long_line_is_reported_briefly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.bbc");
    std::fs::write(&path, format!("10 PRINT \"{}\"\n", "x".repeat(200_000))).unwrap();
    let o = retro(&["list", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("Line too long") && err.contains("long.bbc:1:"),
        "{err}"
    );
    assert!(err.len() < 2_000, "a {} byte report", err.len());
}

#[test]
fn many_mistakes_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.bbc");
    let text: String = (0..40_000).map(|i| format!("{} PRINT\n", 60_000 - i)).collect();
    std::fs::write(&path, text).unwrap();
    let o = retro(&["list", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.matches("error:").count(), 20, "{err}");
    assert!(err.ends_with("and 39,979 more mistakes (not shown)\n"), "{err}");
}

#[test]
#[cfg(unix)]
fn devices_are_read_only_up_to_a_limit() {
    for args in [
        &["list", "/dev/zero"][..],
        &["tok", "/dev/zero", "-o", "/dev/null"],
        &["run", "--machine", "bbc", "--headless", "/dev/zero"],
    ] {
        let o = retro(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("cannot read /dev/zero: a BASIC program is at most 16777216 bytes (16 MiB)"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = retro(&["testcard", "--headless", "--keys", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a key script is at most"), "{}", stderr(&o));
}

#[test]
fn paths_that_are_not_files_say_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for args in [&["run", d][..], &["run", "--machine", "bbc", d], &["list", d]] {
        let o = retro(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).ends_with(": it is a directory\n"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = retro(&["list", "no-such-file.bbc"]);
    assert!(stderr(&o).ends_with(": no such file\n"), "{}", stderr(&o));
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chatty.bbc");
    std::fs::write(&path, "10 REPEAT PRINT \"line\"\n20 UNTIL FALSE\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["run", "--headless", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read two lines, then close the pipe, as `| head -2` does.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert_eq!(line, "line\n");
    }
    drop(out);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no message for a closed pipe");
}

#[test]
fn help_and_hints_describe_only_what_exists() {
    // Rheolism's published listing needs the crunching tokenizer, which `run` does not have: the
    // hint names the command that does.
    let o = retro(&[
        "run",
        "--machine",
        "bbc",
        "--headless",
        "programs/rheolism/rheolism.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("retro tok --crunch"), "{err}");
    // Every machine `run` offers exists, and the help says nothing is missing.
    let help = String::from_utf8_lossy(&retro(&["--help"]).stdout).into_owned();
    assert!(!help.contains("not built"), "{help}");
    let help = String::from_utf8_lossy(&retro(&["run", "--help"]).stdout).into_owned();
    assert!(help.contains("Ctrl-C"), "{help}");
    assert!(!help.contains("not built"), "{help}");
    let dir = tempfile::tempdir().unwrap();
    let prg = dir.path().join("x.prg");
    std::fs::write(&prg, b"\x01\x08").unwrap();
    let o = retro(&["run", prg.to_str().unwrap(), "--headless"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "an empty C64 program runs: {}",
        stderr(&o)
    );
}
