//! `retro debug prog.com --script CMDS`: CP/M programs under the Z80 debugger. The program is
//! tests/z80/cpm_greet.asm, assembled by `retro asm` into a temporary directory for each test
//! (there is no public CP/M source to commit as a .com). The transcripts are goldens
//! (tests/z80/cpm_*.expect, `UPDATE_GOLDEN=1` rewrites them), recorded by this tool and checked by
//! hand against the program: the facts that matter are asserted here too.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

const SOURCE: &str = "tests/z80/cpm_greet.asm";

fn retro(args: &[&OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .output()
        .expect("run retro")
}

/// Assembles the program into `dir` as cpm_greet.com, with `extra` (`--symbols FILE`) if given.
fn assemble(dir: &Path, extra: &[&str]) -> PathBuf {
    let com = dir.join("cpm_greet.com");
    let mut args: Vec<&OsStr> = vec![
        OsStr::new("asm"),
        OsStr::new(SOURCE),
        OsStr::new("-o"),
        com.as_os_str(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    let o = retro(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    com
}

/// The transcript of tests/z80/NAME.cmds on `com`, its exit status and its stderr.
fn debug(com: &Path, name: &str) -> (String, Option<i32>, String) {
    let cmds = Path::new("tests/z80").join(format!("{name}.cmds"));
    let o = retro(&[
        OsStr::new("debug"),
        com.as_os_str(),
        OsStr::new("--script"),
        cmds.as_os_str(),
    ]);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn golden(com: &Path, name: &str) -> String {
    let (out, code, _) = debug(com, name);
    assert_eq!(
        code,
        Some(0),
        "{name}: every command of the script succeeds:\n{out}"
    );
    common::golden(&Path::new("tests/z80").join(format!("{name}.expect")), &out);
    out
}

/// The .sym file `retro asm --symbols` writes beside the .com is found and read: a breakpoint on
/// a label stops there, steps and reverse steps move by instructions, and `call` runs a routine.
#[test]
fn a_breakpoint_on_a_label_steps_reverse_steps_and_call() {
    let dir = tempfile::tempdir().unwrap();
    let sym = dir.path().join("cpm_greet.sym");
    let com = assemble(dir.path(), &["--symbols", sym.to_str().unwrap()]);
    let out = golden(&com, "cpm_greet");
    // The greeting is printed through BDOS 9 before the first call of bump.
    assert!(
        out.contains("(z80) run\nHello from CP/M\nBreakpoint 1, $011F bump\n"),
        "{out}"
    );
    assert!(out.contains("#1  $010B again+3  [SP+0]"), "{out}");
    // Two steps run bump's `ld hl,count` and `inc (hl)`; one back undoes the increment.
    assert!(out.contains(
        "(z80) print byte[count]\nbyte[count] = 1 ($01)\n(z80) reverse-stepi\n$0122 bump+3  inc (hl)\n\
         (z80) print byte[count]\nbyte[count] = 0 ($00)"
    ));
    // `reverse-next` from the DJNZ goes back over the whole routine, to its CALL.
    assert!(
        out.contains("(z80) reverse-next\n$0108 again  call bump\n"),
        "{out}"
    );
    assert!(out.contains("bump returned after 3 steps"), "{out}");
    assert!(out.contains("  $0136 count            00 -> 01\n"), "{out}");
    assert!(
        out.contains("Watchpoint 2: write $0136 (count) = 2 (was 1)"),
        "{out}"
    );
    // The end: the count (one by `call`, three in the loop) through BDOS 2, then the warm boot
    // at 0000h.
    assert!(
        out.contains("(z80) continue\n4\nProgram exited with status 0."),
        "{out}"
    );
}

/// The source beside the .com (and no .sym) gives the debugger its lines.
#[test]
fn the_source_beside_the_com_gives_lines() {
    let dir = tempfile::tempdir().unwrap();
    let com = assemble(dir.path(), &[]);
    std::fs::copy(SOURCE, dir.path().join("cpm_greet.asm")).unwrap();
    let out = golden(&com, "cpm_source");
    assert!(
        out.contains("Breakpoint 1 at $0122 bump+3 (cpm_greet.asm:24)"),
        "{out}"
    );
    assert!(out.contains("=>*   24          inc (hl)"), "{out}");
    assert!(
        out.contains("(z80) finish\n$010B again+3 (cpm_greet.asm:9)  djnz again\n"),
        "{out}"
    );
}

/// A source beside it that is not the .com's is named and left out: the program runs without
/// symbols.
#[test]
fn a_source_that_does_not_match_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let com = assemble(dir.path(), &[]);
    let src = std::fs::read_to_string(SOURCE)
        .unwrap()
        .replace("ld b,3", "ld b,4");
    std::fs::write(dir.path().join("cpm_greet.asm"), src).unwrap();
    let (out, code, err) = debug(&com, "cpm_source");
    assert!(err.contains("does not assemble to"), "{err}");
    assert_eq!(code, Some(1), "the breakpoint on a source line fails:\n{out}");
}
