//! `retro run` with CP/M .COM programs (hand-assembled here): console output, piped input with the
//! BDOS echo, exit statuses.

use std::path::{Path, PathBuf};

mod common;

/// `retro ARGS` with `stdin` piped in.
fn retro(args: &[&str], stdin: &[u8]) -> Output {
    common::retro_in(Path::new("."), args, stdin)
}
use std::process::Output;

#[path = "common/pty.rs"]
mod pty;

/// BBC BASIC (Z80) for CP/M and its test programs, from the oracles.
fn bbcz80() -> Option<PathBuf> {
    common::oracle("bbcz80", "bin/cpm/BBCBASIC.COM")
}

/// A scratch copy of BBC BASIC (Z80)'s test programs, as drive A:.
fn scratch_drive(bbcz80: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(bbcz80.join("tests")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// LD DE,msg; LD C,9; CALL 5; RET  msg: "Hello, CP/M!\r\n$"
const HELLO: &[u8] = &[
    0x11, 0x09, 0x01, 0x0E, 0x09, 0xCD, 0x05, 0x00, 0xC9, b'H', b'e', b'l', b'l', b'o', b',', b' ', b'C',
    b'P', b'/', b'M', b'!', b'\r', b'\n', b'$',
];

#[test]
fn com_file_runs_prints_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "HELLO.COM", HELLO);
    let out = retro(&["run", &file], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, b"Hello, CP/M!\r\n");
}

#[test]
fn machine_flag_runs_any_file_as_cp_m_with_piped_input() {
    // Reads a line with BDOS 10 at 0130h and prints it backwards with BDOS 2.
    let mut prog = vec![
        0x11, 0x30, 0x01, 0x0E, 0x0A, 0xCD, 0x05, 0x00, 0x21, 0x31, 0x01, 0x46, 0x78, 0xB7, 0xC8, 0x5F, 0x16,
        0x00, 0x19, 0x5E, 0xE5, 0xC5, 0x0E, 0x02, 0xCD, 0x05, 0x00, 0xC1, 0xE1, 0x2B, 0x10, 0xF3, 0xC9,
    ];
    prog.resize(0x30, 0);
    prog.push(0x20);
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "reverse.bin", &prog);
    let out = retro(&["run", "--machine", "cpm", &file], b"workbench\n");
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Piped input is echoed as a CP/M console would (BDOS 10 returns the carriage only), then the
    // program's output follows.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "workbench\rhcnebkrow");
}

#[test]
fn a_halt_that_can_never_end_exits_1_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "STUCK.COM", &[0xF3, 0x76]); // DI; HALT
    let out = retro(&["run", &file], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("halted at 0101h"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn missing_or_oversized_files_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("NOPE.COM");
    let out = retro(&["run", missing.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    // docs/z80.md: at most 64,000 bytes (0100h-FAFFh, 256 bytes of stack below FC00h).
    let big = write(dir.path(), "BIG.COM", &vec![0u8; 64_001]);
    let out = retro(&["run", &big], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 64000 fit in the TPA"));
    // The largest that fits loads and runs (NOPs up to FC00h, where `JP 0005h` makes BDOS call 0).
    let fits = write(dir.path(), "FITS.COM", &vec![0u8; 64_000]);
    let out = retro(&["run", "--headless", "--time", "0.1", &fits], b"");
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// ZEXDOC through `retro run`, byte for byte against the published output. Slow in a debug build:
/// `cargo test --release --test cpm -- --ignored`.
#[test]
#[ignore = "slow: ZEXDOC runs 5.8 billion instructions"]
fn zexdoc_runs_under_retro_run() {
    let Some(zexdoc) = retro_z80_conformance::zex::locate("zexdoc.com") else {
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "zexdoc.com not found (cargo fetch, or set RETRO_ZEX_DIR) and RETRO_REQUIRE_CONFORMANCE is set"
        );
        eprintln!("SKIPPED: zexdoc.com not found (cargo fetch, or set RETRO_ZEX_DIR)");
        return;
    };
    let out = retro(&["run", zexdoc.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    let conformance = std::env::var_os("RETRO_CONFORMANCE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"));
    let expected = conformance.join("z80/zex/zexdoc.expected.txt");
    match std::fs::read(&expected) {
        Ok(want) => assert!(out.stdout == want, "output differs from {}", expected.display()),
        Err(_) => assert_eq!(String::from_utf8_lossy(&out.stdout).matches("  OK").count(), 67),
    }
}

/// BBC BASIC (Z80)'s own test suite: ALLTESTS.BBC writes an EXEC file that CHAINs the others, which
/// read and write files through the BDOS. Run from a pipe with the program named on the command
/// line (BBC BASIC CHAINs its command tail), it must run to the end exactly as recorded: each test
/// program STOPs at the first check that fails, so the golden file's "completed" lines are passes.
#[test]
fn bbc_basic_z80_runs_its_own_test_suite_from_files() {
    let Some(bbcz80) = bbcz80() else { return };
    let drive = scratch_drive(&bbcz80);
    let basic = bbcz80.join("bin/cpm/BBCBASIC.COM");
    let out = retro(
        &[
            "run",
            "--headless",
            "--dir",
            drive.path().to_str().unwrap(),
            basic.to_str().unwrap(),
            "ALLTESTS",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cpm/bbcbasic-alltests.txt");
    if std::env::var_os("RETRO_BLESS").is_some() {
        std::fs::write(&golden, &out.stdout).unwrap();
    }
    let want = std::fs::read(&golden).unwrap();
    assert!(
        out.stdout == want,
        "output differs from {}:\n{}",
        golden.display(),
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        drive.path().join("EXEC.$$$").is_file(),
        "ALLTESTS wrote its EXEC file on drive A:"
    );
}

/// Lines typed ahead through a pipe reach BBC BASIC whole, although it polls the console for
/// Escape between the characters it prints; a program entered that way runs, and the run ends
/// when BASIC waits for input that can no longer come.
#[test]
fn piped_lines_reach_bbc_basic_without_losing_characters() {
    let Some(bbcz80) = bbcz80() else { return };
    let basic = bbcz80.join("bin/cpm/BBCBASIC.COM");
    let program = b"10 FOR I%=1 TO 3\n20 PRINT \"line \";I%\n30 NEXT\nRUN\nPRINT 6*7\n";
    let out = retro(&["run", "--headless", basic.to_str().unwrap()], program);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(text.starts_with("BBC BASIC (Z80) Version 5.00"), "{text}");
    for want in [
        ">10 FOR I%=1 TO 3\n",
        ">RUN\nline 1\nline 2\nline 3\n",
        ">PRINT 6*7\n        42\n>",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

/// Key scripts type into the console at their times, Escape interrupts a running program at once,
/// and `--time` ends a run that would go on for ever; `--dump-screen` shows the console screen.
#[test]
fn keys_escape_time_limit_and_screen_dump_work_for_com_files() {
    let Some(bbcz80) = bbcz80() else { return };
    let basic = bbcz80.join("bin/cpm/BBCBASIC.COM");
    let out = retro(
        &[
            "run",
            "--headless",
            "--time",
            "3",
            "--keys",
            "=+1000 ESCAPE +200 P R I N T SPACE 6 * 7 RETURN",
            "--dump-screen",
            "text",
            basic.to_str().unwrap(),
        ],
        b"10 PRINT \"X\";\n20 GOTO 10\nRUN\n",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(
        text.contains("XXXX\nEscape at line 10\n>PRINT 6*7\n        42\n>"),
        "{text}"
    );
    // The dump is the 80x24 console: the last lines of the session, then the prompt.
    let dump: Vec<&str> = text.lines().rev().take(24).collect();
    assert!(dump.iter().any(|l| l.trim_end() == "Escape at line 10"), "{text}");
}

/// The terminal front end: BBC BASIC's banner appears at once, a typed program runs, Escape
/// interrupts it, Ctrl-Q quits and the terminal is given back.
#[test]
#[cfg(unix)]
fn bbc_basic_z80_in_a_pseudo_terminal() {
    let Some(bbcz80) = bbcz80() else { return };
    let args = format!("run '{}'", bbcz80.join("bin/cpm/BBCBASIC.COM").display());
    let here = std::env::current_dir().expect("the current directory");
    let Some(tmux) = pty::Tmux::start("cpm", 100, 30, &here, &args) else {
        return;
    };
    let (send, wait_for) = (|keys: &[&str]| tmux.send(keys), |text: &str| tmux.wait_for(text));
    wait_for("BBC BASIC (Z80) Version 5.00");
    // (tmux reads a trailing ';' as its own command separator, so the line does not end in one.)
    send(&["-l", "10 PRINT \"tick \";:GOTO 10"]);
    send(&["Enter"]);
    send(&["-l", "RUN"]);
    send(&["Enter"]);
    wait_for("tick tick tick");
    send(&["Escape"]);
    wait_for("Escape at line 10");
    send(&["-l", "PRINT 6*7"]);
    send(&["Enter"]);
    wait_for("42");
    send(&["C-q"]);
    let s = tmux.finish();
    assert!(s.contains("RC=0"), "{s}");
}

/// A quiet pipe (`sleep 60 | retro run --headless --time 1 BBCBASIC.COM`) must not stop the
/// virtual clock: BBC BASIC polls the console, the read of stdin waits on its own thread, and the
/// run ends at its second of virtual time (about a second of the host's) with the banner shown.
#[test]
fn a_quiet_stdin_does_not_stop_the_clock() {
    let Some(bbcz80) = bbcz80() else { return };
    let basic = bbcz80.join("bin/cpm/BBCBASIC.COM");
    let started = std::time::Instant::now();
    // stdin is a pipe whose writer stays open (and silent) until the run is over.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["run", "--headless", "--time", "1", basic.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run retro");
    let stdin = child.stdin.take();
    let out = loop {
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("retro run --time 1 was still running after 20 s with a quiet stdin");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    drop(stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(text.starts_with("BBC BASIC (Z80) Version 5.00"), "{text}");
}

/// Drive A: is the .COM file's own directory unless `--dir` says otherwise, never the directory
/// the command is typed in; what the program deleted or renamed there is listed on stderr.
#[test]
fn drive_a_is_the_programs_directory_and_changes_are_listed() {
    // REN KEEP.TXT to KEPT.TXT (BDOS 23), ERA *.BAK (BDOS 19), warm boot.
    let mut prog = vec![
        0x11, 0x13, 0x01, 0x0E, 0x17, 0xCD, 0x05, 0x00, // LD DE,0113h; LD C,23; CALL 5
        0x11, 0x37, 0x01, 0x0E, 0x13, 0xCD, 0x05, 0x00, // LD DE,0137h; LD C,19; CALL 5
        0xC3, 0x00, 0x00, // JP 0
    ];
    let fcb = |name: &[u8; 11]| {
        let mut f = vec![0u8];
        f.extend_from_slice(name);
        f.extend_from_slice(&[0; 4]);
        f
    };
    prog.extend(fcb(b"KEEP    TXT"));
    prog.extend(fcb(b"KEPT    TXT"));
    prog.extend([0; 4]);
    prog.extend(fcb(b"????????BAK"));
    prog.extend([0; 20]);
    assert_eq!(prog.len(), 0x37 + 36);
    let progdir = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let file = write(progdir.path(), "TIDY.COM", &prog);
    write(progdir.path(), "KEEP.TXT", b"keep");
    write(progdir.path(), "OLD.BAK", b"old");
    write(cwd.path(), "Makefile", b"all:");
    write(cwd.path(), "keep.txt", b"mine");
    write(cwd.path(), "work.bak", b"mine too");
    let out = common::retro_in(cwd.path(), &["run", "--headless", &file], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(progdir.path().join("KEPT.TXT").is_file());
    assert!(!progdir.path().join("KEEP.TXT").exists() && !progdir.path().join("OLD.BAK").exists());
    for untouched in ["Makefile", "keep.txt", "work.bak"] {
        assert!(
            cwd.path().join(untouched).is_file(),
            "{untouched} in the current directory"
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let want = format!(
        "files changed on drive A: ({}):\n  renamed KEEP.TXT to KEPT.TXT\n  deleted OLD.BAK\n",
        progdir.path().display()
    );
    assert_eq!(stderr, want);
    // With --dir, that directory is drive A: and the program's own is left alone.
    write(progdir.path(), "AGAIN.BAK", b"x");
    let out = common::retro_in(
        progdir.path(),
        &["run", "--headless", "--dir", cwd.path().to_str().unwrap(), &file],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!cwd.path().join("work.bak").exists() && progdir.path().join("AGAIN.BAK").is_file());
    assert!(String::from_utf8_lossy(&out.stderr).contains("  deleted work.bak\n"));
}
