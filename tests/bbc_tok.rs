//! End-to-end tests of `retro tok` and `retro list` on BBC BASIC programs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::stderr;

fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .output()
        .expect("retro runs")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The reference bytes of Rheolism, from the hex dump copied out of the reference sheet.
fn rheolism_reference() -> Vec<u8> {
    std::fs::read_to_string(repo("interpreters/bbc/tests/golden/rheolism.hex"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(':'))
        .flat_map(|l| {
            l.split_once(':')
                .unwrap()
                .1
                .split_whitespace()
                .map(|h| u8::from_str_radix(h, 16).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn tok_crunch_makes_rheolism_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rheolism.bbc");
    let listing = repo("programs/rheolism/rheolism.txt");
    let o = retro(&[
        "tok",
        listing.to_str().unwrap(),
        "--crunch",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 257);
    assert_eq!(bytes, rheolism_reference());
    // The shipped program is that file.
    assert_eq!(
        std::fs::read(repo("programs/rheolism/rheolism.bbc")).unwrap(),
        bytes
    );
}

#[test]
fn tok_without_crunch_fails_like_risc_os_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rheolism.bbc");
    std::fs::write(&out, b"previous contents").unwrap();
    let listing = repo("programs/rheolism/rheolism.txt");
    let o = retro(&["tok", listing.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("Line too long"), "{err}");
    assert!(err.contains("rheolism.txt:1:"), "ariadne's file:line:col: {err}");
    assert!(err.contains("289"), "says how long the line is: {err}");
    assert!(err.contains("--crunch"), "suggests the fix: {err}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"previous contents",
        "the old file is untouched"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left behind"
    );
}

#[test]
fn list_prints_rheolism_as_published() {
    let o = retro(&["list", repo("programs/rheolism/rheolism.bbc").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let published = std::fs::read_to_string(repo("programs/rheolism/rheolism.txt")).unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), published);
}

#[test]
fn list_tokens_annotates_every_byte_plainly_when_piped() {
    let o = retro(&[
        "list",
        "--tokens",
        repo("programs/rheolism/rheolism.bbc").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\x1b'), "no colour codes in a pipe");
    assert!(
        out.contains("Line 0 at PAGE+&0000, length &FF (255 = 4 header + 251 body)"),
        "{out}"
    );
    assert!(out.contains("0D 00 00 FF"));
    // IF is &E7, at offset 8 of the line, in the second statement.
    let if_row = out.lines().find(|l| l.contains("+0008")).unwrap();
    assert!(if_row.contains("E7") && if_row.ends_with("IF"), "{if_row}");
    assert!(out.contains("-- statement 2 --"));
    assert!(out.contains("end of program (TOP = PAGE+&0101)"));
}

#[test]
fn list_tokens_decodes_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("goto.bbc");
    std::fs::write(&src, "   10PRINT \"hi\"\n   20GOTO 10\n").unwrap();
    let o = retro(&["list", "--tokens", src.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let row = out
        .lines()
        .find(|l| l.contains("8D 54 4A 40"))
        .expect("the &8D constant");
    assert!(row.contains("line number 10"), "{row}");
}

#[test]
fn text_round_trips_through_a_tokenized_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("prog.txt");
    let text = "   10REM demo\n   20FOR i%=1 TO 3:PRINT i%;\" \";:NEXT\n   30IF TIME>0 THEN 10 ELSE END\n";
    std::fs::write(&src, text).unwrap();
    let out = dir.path().join("prog.bbc");
    let o = retro(&["tok", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap()[0], 0x0D);
    let o = retro(&["list", out.to_str().unwrap()]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), text);
}

#[test]
fn unnumbered_listing_is_numbered_from_one() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("prog.txt");
    std::fs::write(&src, "PRINT 1\nPRINT 2\n").unwrap();
    let o = retro(&["list", src.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "    1PRINT 1\n    2PRINT 2\n"
    );
}

#[test]
fn bad_line_number_is_reported_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.txt");
    std::fs::write(&src, "   10PRINT\n65280 END\n").unwrap();
    let o = retro(&[
        "tok",
        src.to_str().unwrap(),
        "-o",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("Line number out of range") && err.contains("bad.txt:2:1"),
        "{err}"
    );
    assert!(!dir.path().join("out").exists());
}

#[test]
fn bad_tokenized_file_and_missing_file_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.bbc");
    std::fs::write(&bad, [0x0D, 0x00, 0x0A, 0x40, b'x']).unwrap();
    let o = retro(&["list", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("Bad program") && err.contains("past the end of the file"),
        "{err}"
    );
    // An ariadne report over a hex dump, pointing at the line header.
    assert!(
        err.contains("bad.bbc:1:7") && err.contains("0d 00 0a 40 78"),
        "{err}"
    );
    let o = retro(&["list", dir.path().join("nope.bbc").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"));
}
