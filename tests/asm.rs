//! End-to-end tests of `retro asm` and `retro dis`: files written (or not), exit statuses, and
//! diagnostics as the user sees them.
use std::path::Path;
use std::process::{Command, Output};

mod common;

fn retro(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run retro")
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write source");
}

const PROGRAM: &str = "\torg 8000h\nstart:\tld b,3\n.loop:\tdjnz .loop\n\tcall sub\n\tjr start\nsub:\tld a,(ix+2)\n\tret\ntable:\tdb 1,2,3\n";

#[test]
fn asm_writes_binary_listing_symbols_and_map() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.asm", PROGRAM);
    let out = retro(
        &[
            "asm",
            "p.asm",
            "-o",
            "p.bin",
            "--listing",
            "p.lst",
            "--symbols",
            "p.sym",
            "--map",
            "p.map",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bin = std::fs::read(dir.path().join("p.bin")).unwrap();
    assert_eq!(
        bin,
        [
            0x06, 0x03, 0x10, 0xFE, 0xCD, 0x09, 0x80, 0x18, 0xF7, 0xDD, 0x7E, 0x02, 0xC9, 1, 2, 3
        ]
    );
    let sym = std::fs::read_to_string(dir.path().join("p.sym")).unwrap();
    assert!(sym.contains("start: equ $8000 ; label"), "{sym}");
    assert!(sym.contains("start.loop: equ $8002 ; label"), "{sym}");
    assert!(sym.contains("sub: equ $8009 ; label"), "{sym}");
    let lst = std::fs::read_to_string(dir.path().join("p.lst")).unwrap();
    assert!(
        lst.contains("8009  DD 7E 02         6    sub:\tld a,(ix+2)"),
        "{lst}"
    );
    let map = std::fs::read_to_string(dir.path().join("p.map")).unwrap();
    assert!(map.lines().any(|l| l == "8009 3 p.asm:6"), "{map}");
}

#[test]
fn asm_intel_hex_output() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "h.asm", "\torg 100h\n\tld a,1\n\tret\n");
    let out = retro(&["asm", "h.asm", "--format", "hex"], dir.path());
    assert!(out.status.success());
    let hex = std::fs::read_to_string(dir.path().join("h.hex")).unwrap();
    assert_eq!(hex, ":030100003E01C9F4\n:00000001FF\n");
}

#[test]
fn asm_errors_exit_1_report_every_error_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "bad.asm",
        "\tnop\n\tcall strat\nstart:\tld (hl),(hl)\n\tjr far\n\tds 200\nfar:\tret\n",
    );
    std::fs::write(dir.path().join("bad.bin"), b"old").unwrap();
    let out = retro(
        &["asm", "bad.asm", "-o", "bad.bin", "--symbols", "bad.sym"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("undefined symbol `strat` (bad.asm:2:7)"), "{err}");
    assert!(err.contains("did you mean `start`?"), "{err}");
    assert!(
        err.contains("invalid operands for `ld`: ld (hl),(hl) (bad.asm:3:11)"),
        "{err}"
    );
    assert!(err.contains("jr target is 200 bytes ahead"), "{err}");
    assert!(err.contains("3 errors"), "{err}");
    // The old output is untouched and no other file appeared.
    assert_eq!(std::fs::read(dir.path().join("bad.bin")).unwrap(), b"old");
    assert!(!dir.path().join("bad.sym").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");
}

#[test]
fn asm_unreadable_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = retro(&["asm", "missing.asm", "-o", "x.bin"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.asm"));
    assert!(!dir.path().join("x.bin").exists());
}

#[test]
fn asm_on_a_directory_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src.asm")).unwrap();
    let out = retro(&["asm", "src.asm", "-o", "x.bin"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("src.asm: is a directory"), "{err}");
}

#[test]
fn dis_is_symbolic_and_reassembles_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.asm", PROGRAM);
    assert!(
        retro(&["asm", "p.asm", "-o", "p.bin", "--symbols", "p.sym"], dir.path())
            .status
            .success()
    );
    let out = retro(
        &[
            "dis",
            "p.bin",
            "--org",
            "0x8000",
            "--symbols",
            "p.sym",
            "-o",
            "back.asm",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.path().join("back.asm")).unwrap();
    assert!(text.contains("start:\n"), "{text}");
    assert!(text.contains("\tcall sub"), "{text}");
    assert!(text.contains("\tdjnz start.loop"), "{text}");
    assert!(text.contains("\tjr start"), "{text}");
    assert!(
        retro(&["asm", "back.asm", "-o", "back.bin"], dir.path())
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(dir.path().join("back.bin")).unwrap(),
        std::fs::read(dir.path().join("p.bin")).unwrap()
    );
}

#[test]
fn dis_undocumented_and_stdout() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("u.bin"),
        [0xCB, 0x30, 0xDD, 0x44, 0xED, 0x70, 0xED, 0x4C, 0xDD, 0x00],
    )
    .unwrap();
    let out = retro(&["dis", "u.bin"], dir.path());
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "sll b",
        "ld b,ixh",
        "in f,(c)",
        "defb $ED,$4C",
        "neg (undocumented encoding)",
        "defb $DD",
        "nop",
    ] {
        assert!(text.contains(want), "missing {want}:\n{text}");
    }
    let bad = retro(&["dis", "nothing.bin"], dir.path());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn outputs_are_written_through_symlinks_and_into_fifos() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "p.asm", " nop\n halt\n");
    // -o through a symlink: the target gets the bytes, the link stays a link.
    std::fs::create_dir(d.join("out")).unwrap();
    std::fs::write(d.join("out/real.bin"), b"old").unwrap();
    std::os::unix::fs::symlink("out/real.bin", d.join("link.bin")).unwrap();
    std::os::unix::fs::symlink("out/listing.txt", d.join("lst")).unwrap();
    let out = retro(&["asm", "p.asm", "-o", "link.bin", "--listing", "lst"], d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(d.join("out/real.bin")).unwrap(), [0x00, 0x76]);
    assert!(
        std::fs::symlink_metadata(d.join("link.bin"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(d.join("out/listing.txt"))
            .unwrap()
            .contains("halt")
    );
    // dis -o through the same link.
    std::fs::write(d.join("code.bin"), [0x3E, 0x07]).unwrap();
    let out = retro(&["dis", "code.bin", "-o", "link.bin"], d);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        std::fs::read_to_string(d.join("out/real.bin"))
            .unwrap()
            .contains("ld a,$07")
    );
    // -o into a FIFO: a reader gets the bytes and the FIFO is still a FIFO.
    let piped = common::written_into_a_fifo(d, |to| retro(&["asm", "p.asm", "-o", to], d));
    assert_eq!(piped, [0x00, 0x76]);
}

/// The Connect-4 course template style (`DEVICE ZXSPECTRUM48` ... `SAVESNA`): `retro asm`
/// recognises the sjasmplus dialect and writes the snapshot and binary the source names, in the
/// current directory, byte for byte what sjasmplus wrote (the asm crate's golden files).
#[test]
fn asm_writes_the_files_an_sjasmplus_source_saves() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("interpreters/z80/asm/tests/sjasmplus/cases");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(cases.join("course_template.asm"), dir.path().join("c.asm")).unwrap();
    let out = retro(&["asm", "c.asm", "-o", "c.bin"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for file in ["course.sna", "course.bin"] {
        let ours = std::fs::read(dir.path().join(file)).unwrap();
        let theirs = std::fs::read(cases.join("course_template.files").join(file)).unwrap();
        assert!(ours == theirs, "{file} differs from sjasmplus's");
    }
    // Forced to the pasmo dialect, the same source is rejected at its first sjasmplus directive.
    let out = retro(&["asm", "c.asm", "-o", "p.bin", "--dialect", "pasmo"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("DEVICE"));
}

/// `--symbols` writes the symbol file through a symbolic link (the link stays a link) and into a
/// FIFO, as `cat >` would (#21: every user file).
#[test]
#[cfg(unix)]
fn the_symbol_file_is_written_through_a_symlink_and_into_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "p.asm", "start: nop\nfinish: halt\n");
    let symbols = |to: &str| retro(&["asm", "p.asm", "-o", "p.bin", "--symbols", to], d);
    for (how, table) in [
        ("through a symlink", common::written_through_a_symlink(d, symbols)),
        ("into a FIFO", common::written_into_a_fifo(d, symbols)),
    ] {
        let table = String::from_utf8(table).expect("a text symbol table");
        assert!(
            table.contains("start") && table.contains("finish"),
            "{how}: the labels:\n{table}"
        );
    }
}

#[test]
fn asm_warns_where_it_differs_from_pasmo_and_still_builds() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "w.asm",
        "fill:\tnop\n.loop:\tjr .loop\nnext:\n.loop:\tjr .loop\n",
    );
    let out = retro(&["asm", "w.asm", "-o", "w.bin"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("[W001] Warning: `.loop` is a new local label here; pasmo would report it defined twice (w.asm:4:1)"),
        "{err}"
    );
    assert!(err.contains("local to `next`"), "{err}");
    assert_eq!(
        std::fs::read(dir.path().join("w.bin")).unwrap(),
        [0x00, 0x18, 0xFE, 0x18, 0xFE]
    );
}

#[test]
fn asm_dialect_sjasmplus_from_the_command_line() {
    // No DEVICE line, so only the option selects the dialect: `ld bc,de` and DUP are sjasmplus's.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "s.asm",
        "\torg 8000h\n\tld bc,de\n\tdup 2\n\tnop\n\tedup\n",
    );
    let out = retro(
        &["asm", "s.asm", "--dialect", "sjasmplus", "-o", "s.bin"],
        dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("s.bin")).unwrap(),
        [0x42, 0x4B, 0x00, 0x00]
    );
    // The same source in the default dialect is refused, so the option did the work.
    let out = retro(&["asm", "s.asm", "-o", "p.bin"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    // And `--dialect pasmo` overrides a DEVICE line.
    write(dir.path(), "d.asm", "\tdevice zxspectrum48\n\torg 8000h\n\tnop\n");
    let out = retro(&["asm", "d.asm", "--dialect", "pasmo", "-o", "d.bin"], dir.path());
    assert_eq!(out.status.code(), Some(1), "DEVICE is no pasmo directive");
}

/// sjasmplus's command line as projects' build scripts use it: INCLUDE found in the directory
/// the assembler started in and in `-I` directories, `-DNAME=VALUE` / `-DNAME`, and DISPLAY's
/// lines on stderr as sjasmplus prints them (`> ...`), values checked against sjasmplus 1.23.1.
#[test]
fn asm_sjasmplus_include_search_defines_and_display() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("lib")).unwrap();
    write(
        dir.path(),
        "src/main.asm",
        "\tdevice zxspectrum48\n\torg 8000h\n\tinclude \"consts.inc\"\n\tinclude \"util.inc\"\n\
         \tdb LIVES, SPEED\n\tifdef DEBUG\n\tdb 0DDh\n\tendif\n\
         \tdisplay \"end: \",/a,$,\" lives \",/d,LIVES\n",
    );
    // consts.inc is beside no source: sjasmplus finds it in the directory it was started in.
    write(dir.path(), "consts.inc", "SPEED equ 7\n");
    write(dir.path(), "lib/util.inc", "\tnop\n");
    let out = retro(
        &[
            "asm",
            "src/main.asm",
            "-I",
            "lib",
            "-DLIVES=3",
            "-DDEBUG",
            "-o",
            "m.bin",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("m.bin")).unwrap(),
        [0x00, 3, 7, 0xDD]
    );
    assert!(stderr.contains("> end: 0x8004, 32772 lives 3\n"), "{stderr}");
    // Without -I the include is not found, and the message says where it looked and how to add a
    // directory.
    let out = retro(&["asm", "src/main.asm", "-DLIVES=3", "-o", "m.bin"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot read `util.inc`"), "{stderr}");
    assert!(stderr.contains("-I DIR"), "{stderr}");
}

/// pasmo's options: `--alocal` makes `_names` local to the previous label, `--equ NAME=VALUE`
/// defines NAME; a source that needs `--alocal` and lacks it is told so.
#[test]
fn asm_pasmo_alocal_and_equ() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "e.asm",
        "\torg 8000h\nfa:\tld b,SPEED\n_w:\tdjnz _w\nfb:\tld b,2\n_w:\tdjnz _w\n\tret\n",
    );
    let out = retro(
        &["asm", "e.asm", "--alocal", "--equ", "SPEED=5", "-o", "e.bin"],
        dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The bytes pasmo 0.5.3 gives with `pasmo --alocal --equ SPEED=5`.
    assert_eq!(
        std::fs::read(dir.path().join("e.bin")).unwrap(),
        [0x06, 0x05, 0x10, 0xFE, 0x06, 0x02, 0x10, 0xFE, 0xC9]
    );
    let out = retro(&["asm", "e.asm", "--equ", "SPEED=5", "-o", "e.bin"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("--alocal"), "{stderr}");
    let out = retro(&["asm", "e.asm", "--alocal", "-o", "e.bin"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("--equ SPEED=VALUE"), "{stderr}");
}

/// Issue 32: the assembler never writes over its input, whatever path names it (`-o` onto the
/// source or an INCLUDE, `--listing` onto an INCBIN), says every file the source saves, and
/// keeps the source's saves inside the current directory or its own unless `--allow-outside`.
#[test]
fn asm_never_overwrites_its_input_and_says_what_the_source_saves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    let source = "\tdevice zxspectrum48\n\torg 8000h\nstart:\tjr start\n\tinclude \"inc.asm\"\n\
                  \tincbin \"data.bin\"\n\tsavesna \"game.sna\",start\n";
    write(dir.path(), "src/g.asm", source);
    write(dir.path(), "src/inc.asm", "\tnop\n");
    write(dir.path(), "src/data.bin", "\x01\x02");
    for args in [
        &["-o", "src/g.asm"][..],
        &["-o", "src/../src/inc.asm"],
        &["--listing", "src/data.bin"],
    ] {
        let mut all = vec!["asm", "src/g.asm"];
        all.extend_from_slice(args);
        let out = retro(&all, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("would overwrite the input"), "{stderr}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/g.asm")).unwrap(),
        source
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/inc.asm")).unwrap(),
        "\tnop\n"
    );
    assert!(
        !dir.path().join("game.sna").exists(),
        "nothing is written after a refusal"
    );
    let out = retro(&["asm", "src/g.asm", "-o", "g.bin"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("wrote game.sna (49,179 bytes)"), "{stderr}");
    assert_eq!(
        std::fs::metadata(dir.path().join("game.sna")).unwrap().len(),
        49_179
    );
    // A save that climbs out of both directories needs --allow-outside.
    let inner = dir.path().join("work");
    std::fs::create_dir_all(&inner).unwrap();
    write(
        &inner,
        "o.asm",
        "\tdevice zxspectrum48\n\torg 8000h\n\tnop\n\tsavebin \"../escaped.bin\",8000h,1\n",
    );
    let out = retro(&["asm", "o.asm", "-o", "o.bin"], &inner);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--allow-outside"), "{stderr}");
    assert!(!dir.path().join("escaped.bin").exists());
    let out = retro(&["asm", "o.asm", "-o", "o.bin", "--allow-outside"], &inner);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(dir.path().join("escaped.bin")).unwrap(), [0]);
}
