//! The toy machine (src/machines/toy.rs), ARCHITECTURE.md's worked example of adding a machine
//! in one file and one row: `retro run` finds it by the `.toy` extension (or `--machine toy`) and
//! prints its screen, and `retro debug` drives it with the Z80 debugger: a breakpoint on a label,
//! steps, a reverse step and `call` (the transcript is the golden tests/toy/hello.expect,
//! `UPDATE_GOLDEN=1` rewrites it).

mod common;

use std::path::Path;

use common::{retro_in, text};

const PROGRAM: &str = "tests/toy/hello.toy";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `retro ARGS` in the repository: (status, stdout, stderr).
fn retro(args: &[&str]) -> (Option<i32>, String, String) {
    let o = retro_in(root(), args, b"");
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

#[test]
fn a_toy_program_runs_headless_and_its_screen_is_printed() {
    let (code, out, err) = retro(&[
        "run",
        PROGRAM,
        "--headless",
        "--keys",
        "=+100 X",
        "--dump-screen",
        "text",
    ]);
    // The exit status is the count the program reached; the key it read is on the second row.
    assert_eq!(code, Some(3), "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(lines.len(), 24, "32x24: {out:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= 32), "{out:?}");
    assert_eq!(lines[0], "HELLO FROM THE TOY");
    assert_eq!(lines[1], "X");
    assert!(lines[2..].iter().all(|l| l.is_empty()), "{out:?}");
}

/// A program waiting for a key the script does not have ends the headless run (status 0, as
/// every machine's), its screen as far as it got.
#[test]
fn a_headless_run_ends_when_the_program_waits_for_a_key_that_will_not_come() {
    let (code, out, err) = retro(&["run", PROGRAM, "--headless", "--dump-screen", "text"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(lines.first(), Some(&"HELLO FROM THE TOY"), "{out}");
    assert_eq!(lines.get(1), Some(&""), "no key was read: {out}");
}

#[test]
fn the_toy_is_chosen_by_name_and_by_machine() {
    // Under another name only --machine toy says whose the source is.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("hello.asm");
    std::fs::copy(root().join(PROGRAM), &src).unwrap();
    let src = src.to_str().unwrap();
    let (code, out, err) = retro(&[
        "run",
        "--machine",
        "toy",
        src,
        "--headless",
        "--keys",
        "=Y",
        "--dump-screen",
        "text",
    ]);
    assert_eq!(code, Some(3), "{err}");
    assert!(out.starts_with("HELLO FROM THE TOY"), "{out}");
    // An option only the workbench takes is refused, naming the toy.
    let (code, _, err) = retro(&["run", PROGRAM, "--headless", "--org", "100"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("it does not apply to the toy machine"), "{err}");
    // The help lists it among the machines, from the table.
    let (_, help, _) = retro(&["run", "--help"]);
    assert!(help.contains(".toy sources"), "{help}");
    let (_, help, _) = retro(&["debug", "--help"]);
    assert!(help.contains(".toy sources"), "{help}");
}

#[test]
fn a_toy_program_is_debugged_break_on_a_label_step_reverse_step_and_call() {
    let (code, out, err) = retro(&[
        "debug",
        PROGRAM,
        "--keys",
        "=X",
        "--script",
        "tests/toy/hello.cmds",
    ]);
    assert_eq!(code, Some(0), "every command succeeds: {err}\n{out}");
    common::golden(&root().join("tests/toy/hello.expect"), &out);
    // The greeting is on the screen before the first call of bump, where the breakpoint stops.
    assert!(out.contains("Breakpoint 1, $"), "{out}");
    assert!(out.contains(" bump\n"), "{out}");
    // Two steps run bump's `ld hl,count` and `inc (hl)`; one back undoes the increment.
    assert!(
        out.contains("(z80) print byte[count]\nbyte[count] = 1 ($01)\n(z80) reverse-stepi\n"),
        "{out}"
    );
    assert!(
        out.contains("(z80) print byte[count]\nbyte[count] = 0 ($00)\n(z80) delete\n"),
        "{out}"
    );
    // `call bump` runs the routine and comes back: the count goes up by one.
    assert!(out.contains("(z80) call bump\n"), "{out}");
    assert!(
        out.contains("byte[count] = 1 ($01)\n(z80) info machine\n"),
        "{out}"
    );
    // The program runs to its end: the key typed, the exit status the count, 3 of its own
    // bumps and the one `call bump` made.
    assert!(out.contains("Program exited with status 4."), "{out}");
}
