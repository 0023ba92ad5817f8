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

/// `retro ARGS` in `dir` with at most 512 MiB of address space (`ulimit -v`), so a loader that
/// reads an endless device fails the test by running out of memory instead of passing slowly.
fn retro_bounded(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288 && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run retro")
}

/// Issue 32, finding 3: every file the binary loads is read through the bounded reader, whether
/// it is named as itself or through a symbolic link with the extension the loader expects.
#[test]
fn every_loader_stops_at_its_limit_on_an_endless_device() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["zero.prg", "zero.bas", "zero.bin", "zero.png", "zero.txt"] {
        std::os::unix::fs::symlink("/dev/zero", d.join(name)).unwrap();
    }
    std::fs::write(d.join("ok.bin"), [0xC9]).unwrap();
    let tetris = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/tetris/tetris.asm");
    let cases: &[(&[&str], &str)] = &[
        (&["run", "zero.prg", "--headless"], "a C64 program is at most"),
        (
            &["run", "--machine", "cbm", "zero.bas", "--headless"],
            "a C64 program is at most",
        ),
        (&["run", "zero.bin", "--headless"], "a Z80 binary is at most"),
        (&["tpa", "zero.png"], "a sprite image is at most"),
        (&["tpa", "/dev/zero"], "a sprite image is at most"),
        (&["dis", "/dev/zero"], "a Z80 binary is at most"),
        (
            &["dis", "ok.bin", "--symbols", "zero.txt"],
            "a text file is at most",
        ),
        (
            &["debug", "ok.bin", "--script", "/dev/zero"],
            "a text file is at most",
        ),
        (
            &["debug", "ok.bin", "--script", "=quit", "--keys", "zero.txt"],
            "a text file is at most",
        ),
        (
            &["run", tetris, "--headless", "--printer", "zero.txt"],
            "a text file is at most",
        ),
    ];
    for (args, want) in cases {
        let o = retro_bounded(d, args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// A BASIC program's own OPENIN, OPENUP and CHAIN refuse a device, a link to one and a FIFO
/// before opening them (a FIFO's open would wait for a writer): RISC OS's "Access violation".
#[test]
fn basic_programs_cannot_open_devices_or_fifos() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(d.join("pipe"))
            .status()
            .unwrap()
            .success()
    );
    for (stmt, name) in [
        ("X=OPENIN \"zero\"", "zero"),
        ("X=OPENUP \"zero\"", "zero"),
        ("X=OPENIN \"pipe\"", "pipe"),
        ("CHAIN \"pipe\"", "pipe"),
    ] {
        std::fs::write(
            d.join("p.bbc"),
            format!("ON ERROR PRINT REPORT$;\" \";ERR:END\n{stmt}\nPRINT \"opened\"\n"),
        )
        .unwrap();
        let o = retro_bounded(d, &["run", "p.bbc", "--headless"]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("Access violation 189"),
            "{stmt} ({name}): {out}{}",
            stderr(&o)
        );
    }
    // The C64's OPEN on device 8 opens a regular file and says a FIFO is not there.
    std::fs::write(
        d.join("c.bas"),
        "10 open 2,8,2,\"pipe,s,r\"\n20 print \"opened\"\n",
    )
    .unwrap();
    let c64 = |d| {
        let o = retro_bounded(d, &["run", "--machine", "cbm", "c.bas", "--headless"]);
        format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o))
    };
    let out = c64(d);
    assert!(out.contains("?FILE NOT FOUND  ERROR IN 10"), "{out}");
    std::fs::remove_file(d.join("pipe")).unwrap();
    std::fs::write(d.join("pipe"), "a regular file").unwrap();
    let out = c64(d);
    assert!(out.contains("OPENED"), "{out}");
}

/// Issue 32, finding 11: `retro debug` on a device or FIFO says what it is.
#[test]
fn debug_on_a_device_says_it_is_a_device() {
    let o = retro(&["debug", "/dev/null", "--script", "=quit"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /dev/null: it is a device, not a file"),
        "{}",
        stderr(&o)
    );
}

/// Issue 32, finding 11: a debugger transcript shows the program's control bytes escaped: its
/// listing, string values, what it printed and echoed commands.
#[test]
fn debugger_transcripts_escape_control_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("esc.bbc");
    std::fs::write(&path, "10 A$=\"\x1b[2J\"\n20 PRINT A$\n").unwrap();
    let script = "=list\nrun\nprint A$\nfoo\x1b[31m\n";
    let o = retro(&["debug", path.to_str().unwrap(), "--script", script]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_printable("transcript", &out);
    assert!(out.contains("10 A$=\"\\x1b[2J\""), "the listing: {out}");
    assert!(out.contains("A$ = \"\\x1b[2J\""), "the value: {out}");
    assert!(out.contains("foo\\x1b[31m"), "the echo: {out}");
    // The C64's debugger shares the transcript.
    let path = dir.path().join("esc.bas");
    std::fs::write(&path, "10 a$=\"{$1b}[2j\"\n").unwrap();
    let o = retro(&[
        "debug",
        path.to_str().unwrap(),
        "--script",
        "=run\nprint a$\nlist\nbar\x1b[1m",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_printable("C64 transcript", &out);
    assert!(out.contains("bar\\x1b[1m"), "{out}");
}

/// Into a pipe or a file `retro list` stays exact (so `retro tok` reads it back); on a terminal
/// the same bytes are escaped (tests/terminal.rs).
#[test]
fn a_listing_into_a_pipe_keeps_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("esc.bbc");
    std::fs::write(&path, "10 REM \x1b[2J\n").unwrap();
    let o = retro(&["list", path.to_str().unwrap()]);
    assert_eq!(o.stdout, b"   10 REM \x1b[2J\n");
}

/// Issue 32, finding 10: `-o` naming the input (itself, through `./`, a link or a hard link)
/// is refused before anything is read or written.
#[test]
fn output_onto_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("p.bbc"), "10 PRINT 1\n").unwrap();
    std::fs::write(d.join("c.bas"), "10 print 1\n").unwrap();
    std::fs::write(d.join("x.bin"), [0x3E, 0x01, 0xC9]).unwrap();
    std::fs::hard_link(d.join("p.bbc"), d.join("hard.bbc")).unwrap();
    std::os::unix::fs::symlink("x.bin", d.join("link.bin")).unwrap();
    for args in [
        &["tok", "p.bbc", "-o", "p.bbc"][..],
        &["tok", "p.bbc", "-o", "./hard.bbc"],
        &["tok", "c.bas", "-o", "c.bas"],
        &["dis", "x.bin", "-o", "link.bin"],
    ] {
        let o = common::retro_in(d, args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("is the input file"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert_eq!(std::fs::read(d.join("p.bbc")).unwrap(), b"10 PRINT 1\n");
    assert_eq!(std::fs::read(d.join("c.bas")).unwrap(), b"10 print 1\n");
    assert_eq!(std::fs::read(d.join("x.bin")).unwrap(), [0x3E, 0x01, 0xC9]);
}

/// Issue 32, findings 10 and 11: a C64 listing that is UTF-16 (or no listing at all) is refused
/// as what it is, and `retro tok` refuses a program too long for BASIC's memory, as `list` does.
#[test]
fn c64_listings_that_cannot_be_programs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let utf16: Vec<u8> = "10 print \"hi\"\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    std::fs::write(d.join("wide.bas"), &utf16).unwrap();
    let mut bom = vec![0xFF, 0xFE];
    bom.extend(&utf16);
    std::fs::write(d.join("bom.bas"), &bom).unwrap();
    for name in ["wide.bas", "bom.bas"] {
        let o = common::retro_in(d, &["run", "--machine", "cbm", name, "--headless"], b"");
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            stderr(&o).contains("it is UTF-16 text (little-endian)"),
            "{name}: {}",
            stderr(&o)
        );
    }
    let long: String = (0..64_000).map(|i| format!("{i} print\n")).collect();
    std::fs::write(d.join("long.bas"), long).unwrap();
    let o = common::retro_in(d, &["tok", "long.bas", "-o", "long.prg"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("too long for BASIC memory"), "{}", stderr(&o));
    assert!(!d.join("long.prg").exists());
}

/// The fastest of three runs of `retro ARGS` in `dir` (under the 512 MiB limit).
fn best_of_three(dir: &std::path::Path, args: &[&str]) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let o = retro_bounded(dir, args);
            // Any ending but a crash (the limit or a signal would show as no status).
            assert!(o.status.code().is_some(), "{args:?}: {o:?}");
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

/// Issue 32, "Speed and memory": every loader is linear in its input, so doubling the input at
/// most doubles the time (with room for the process's start and timing noise), and no run
/// needs more than 512 MiB. Each input is written at two sizes near what its loader accepts.
/// Release mode only (CI: `cargo test --release --test hardening -- --ignored loaders_are`).
#[test]
#[ignore = "timing: run in release mode by .ci/run"]
fn loaders_are_linear_in_their_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("one.bin"), [0xC9]).unwrap();
    type Make = fn(usize) -> String;
    let cases: &[(&str, Make, &[&str], usize)] = &[
        // BBC listing, unnumbered lines (numbered 1, 2, ... up to 65279).
        (
            "p.bbc",
            |n| "PRINT \"hello\";A%+B%*2:X=X+1\n".repeat(n),
            &["tok", "p.bbc", "-o", "/dev/null"],
            30_000,
        ),
        // C64 listing (tokenized whole, then refused as too long for memory).
        (
            "p.bas",
            |n| (0..n).map(|i| format!("{i} print \"hello\":a=a+1\n")).collect(),
            &["tok", "p.bas", "-o", "/dev/null"],
            30_000,
        ),
        // tpa text grid, far too tall: its height is counted to the end.
        ("tall.txt", |n| "x\n".repeat(n), &["tpa", "tall.txt"], 2_000_000),
        // Debugger script (comments: loading, not running).
        (
            "script.txt",
            |n| "# nothing\n".repeat(n) + "quit\n",
            &["debug", "one.bin", "--script", "script.txt"],
            600_000,
        ),
        // Symbol table for the disassembler.
        (
            "syms.txt",
            |n| {
                (0..n)
                    .map(|i| format!("l{i}: equ ${:04X}\n", i % 65536))
                    .collect()
            },
            &["dis", "one.bin", "--symbols", "syms.txt"],
            200_000,
        ),
        // Key script (at most 500,000 presses).
        (
            "keys.txt",
            |n| "a +10 ".repeat(n),
            &["testcard", "--headless", "--keys", "keys.txt", "--time", "1"],
            200_000,
        ),
    ];
    for &(file, make, args, n) in cases {
        std::fs::write(d.join(file), make(n)).unwrap();
        let small = best_of_three(d, args);
        std::fs::write(d.join(file), make(2 * n)).unwrap();
        let large = best_of_three(d, args);
        eprintln!("{args:?}: {small:?} at n, {large:?} at 2n");
        assert!(
            large <= small * 5 / 2 + Duration::from_millis(100),
            "{args:?}: {small:?} at n, {large:?} at 2n"
        );
    }
}
