//! `retro run` with CP/M .COM programs (hand-assembled here): console output, piped input with the
//! BDOS echo, exit statuses.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn retro(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("retro starts");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
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
    // Piped input is echoed as a CP/M console would, then the program's output follows.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "workbench\r\nhcnebkrow");
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
    let big = write(dir.path(), "BIG.COM", &vec![0u8; 0xFE00]);
    let out = retro(&["run", &big], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("TPA"));
}

/// ZEXDOC through `retro run`, byte for byte against the published output. Slow in a debug build:
/// `cargo test --release --test cpm -- --ignored`.
#[test]
#[ignore = "slow: ZEXDOC runs 5.8 billion instructions"]
fn zexdoc_runs_under_retro_run() {
    let Some(zexdoc) = retro_z80_conformance::zex::locate("zexdoc.com") else {
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
