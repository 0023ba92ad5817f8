//! `retro run`'s exit statuses, a test for each row of docs/cli.md's table (128 + N, a signal
//! ending an interactive run: tests/terminal.rs, `terminating_signals_restore_the_terminal`), and
//! the usage errors issue 31 asked for: an option for another machine, a file that is no program.

use std::process::{Command, Output, Stdio};

#[path = "common/pty.rs"]
mod pty;

fn retro(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(pty::RETRO)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run retro")
}

fn program(dir: &std::path::Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// 0: the program ended normally, or a time limit or a closed output pipe stopped it.
#[test]
fn status_0_for_an_end_a_time_limit_and_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    program(d, "end.bbc", "10 PRINT \"HI\"\n");
    program(d, "loop.bbc", "10 PRINT \"HI\":GOTO 10\n");
    assert_eq!(retro(&["run", "end.bbc", "--headless"], d).status.code(), Some(0));
    assert_eq!(
        retro(&["run", "loop.bbc", "--headless", "--time", "0.2"], d)
            .status
            .code(),
        Some(0)
    );
    // The pipe's writer itself: its status, not head's.
    let mut child = Command::new(pty::RETRO)
        .args(["run", "loop.bbc", "--headless"])
        .current_dir(d)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_eq!(
        child.wait().unwrap().code(),
        Some(0),
        "a closed pipe ends quietly"
    );
}

/// 0: Ctrl-Q, and two Ctrl-Cs (the first stops a BBC program with Escape, which is no failure
/// of the program: the user quit; they exited 1).
#[test]
#[cfg(unix)]
fn status_0_for_ctrl_q_and_two_ctrl_cs() {
    let dir = tempfile::tempdir().unwrap();
    program(dir.path(), "loop.bbc", "10 PRINT \"HI\":GOTO 10\n");
    let file = dir.path().join("loop.bbc");
    for (keys, why) in [("\x11", "Ctrl-Q"), ("\x03\x03", "two Ctrl-Cs")] {
        let mut s = pty::spawn_retro(100, 40, &format!("run '{}'", file.display()));
        s.expect("running").expect("the program runs");
        s.send(keys).unwrap();
        let out = pty::finish(&mut s, why);
        pty::assert_exit_and_restored(&out, 0);
    }
}

/// 1: the program stopped with an error (in the machine's words on stderr).
#[test]
fn status_1_for_a_program_error() {
    let dir = tempfile::tempdir().unwrap();
    program(dir.path(), "err.bbc", "10 PRINT X\n");
    let o = retro(&["run", "err.bbc", "--headless"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("Unknown or missing variable"),
        "{}",
        stderr(&o)
    );
}

/// 2: bad usage (an unknown option, an option for another machine, a file no machine runs) or a
/// file that cannot be read.
#[test]
fn status_2_for_bad_usage_and_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    program(d, "end.bbc", "10 PRINT \"HI\"\n");
    program(d, "x.png", "not really");
    let cases: [(&[&str], &str); 6] = [
        (&["run", "end.bbc", "--no-such-option"], "--no-such-option"),
        (&["run", "missing.bbc"], "no such file"),
        (
            &["run", "end.bbc", "--headless", "--movie", "m.fm2"],
            "--movie is for the Z80 workbench machine; it does not apply to BBC BASIC",
        ),
        (
            &["run", "end.bbc", "--headless", "--printer", "p.tps"],
            "--printer is for the Z80 workbench machine",
        ),
        (
            &["run", "end.bbc", "--headless", "--poke", "100=1"],
            "--poke is for the Z80 workbench machine",
        ),
        (&["run", "x.png"], "`retro tpa x.png --show`"),
    ];
    for (args, says) in cases {
        let o = retro(args, d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

/// `retro tpa` names a missing file, a directory and an empty file for what they are, and says a
/// text file that is no picture was read as a text grid (it said "no opaque pixels", "4 colours"
/// or gave the system's raw words).
#[test]
fn tpa_names_what_is_wrong_with_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    program(d, "empty.txt", "");
    program(d, "notes.txt", &"some notes that are not a picture\n".repeat(5));
    for (file, says) in [
        ("missing.png", "no such file"),
        (".", "directory"),
        ("empty.txt", "is empty"),
        ("notes.txt", "not a PNG, so read as a text grid"),
    ] {
        let o = retro(&["tpa", file], d);
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{file}: {}", stderr(&o));
    }
}

/// Every file kind `retro run --help` lists is run: a small program of each, headless.
#[test]
fn every_file_kind_the_help_lists_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let help = String::from_utf8_lossy(&retro(&["run", "--help"], d).stdout).into_owned();
    // The file kinds are listed in FILE's help, from the machine table (clap wraps its lines).
    let about = help.replace('\n', " ");
    program(d, "p.bbc", "10 PRINT \"OK\"\n");
    program(d, "p.bas", "10 print \"ok\"\n");
    let o = retro(&["tok", "p.bas", "-o", "p.prg"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    program(d, "p.asm", "        org 8000h\n        ret\n");
    program(d, "p.z80", "        org 8000h\n        ret\n");
    std::fs::write(d.join("p.bin"), [0xC9]).unwrap(); // RET
    std::fs::write(d.join("p.com"), [0xC9]).unwrap(); // RET to CP/M
    let mut listed = 0;
    for ext in ["bbc", "bas", "prg", "asm", "z80", "bin", "com"] {
        if !about.contains(&format!(".{ext}")) {
            continue;
        }
        listed += 1;
        let file = format!("p.{ext}");
        let o = retro(&["run", &file, "--headless", "--time", "1"], d);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
    }
    assert_eq!(listed, 7, "the help lists every kind: {about}");
}

/// `--colour 16` draws with the classic SGR codes only (30-37, 40-47, 90-97, 100-107): the named
/// colours went out as 256-colour indexes (`38;5;9`), which a 16-colour terminal may not know.
#[test]
#[cfg(unix)]
fn colour_16_uses_only_the_classic_codes() {
    let mut s = pty::spawn_retro(100, 40, "testcard --colour 16 --time 1");
    let out = pty::finish(&mut s, "the time limit ends the run");
    pty::assert_exit_and_restored(&out, 0);
    let sgr = regex_lite_sgr(&out);
    assert!(!sgr.is_empty(), "colours were drawn");
    for params in &sgr {
        for p in params.split(';') {
            let n: u32 = p.parse().unwrap_or(0);
            // 59 resets the underline colour (crossterm's, with every style reset): no colour.
            let colour_ok = (30..=37).contains(&n)
                || (40..=47).contains(&n)
                || (90..=97).contains(&n)
                || (100..=107).contains(&n);
            assert!(
                n < 30 || matches!(n, 39 | 49 | 59) || colour_ok,
                "a code outside the 16 colours: \\e[{params}m"
            );
        }
    }
}

/// The parameters of every SGR sequence (`\x1b[...m`) in `out`.
fn regex_lite_sgr(out: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = out;
    while let Some(i) = rest.find("\x1b[") {
        let tail = &rest[i + 2..];
        let end = tail
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(tail.len());
        if tail[end..].starts_with('m') {
            found.push(tail[..end].to_string());
        }
        rest = &tail[end..];
    }
    found
}
