//! `retro debug FILE --script CMDS` golden transcripts: for each tests/z80/NAME.cmds, the debugger
//! runs tests/z80/NAME.asm (with tests/z80/NAME.keys as its key script when there is one) and its
//! plain-text transcript must equal tests/z80/NAME.expect. `UPDATE_GOLDEN=1` rewrites the files.
//!
//! There is no oracle for a debugger transcript: each .expect was recorded by this tool and then
//! checked by hand against the program's comments and docs/z80-machine.md (which colour a cell
//! has, which frame a key arrives in, what the IM 2 handler counts, the console text, the exit
//! status). The facts that matter are also asserted below without the golden files, so that
//! rewriting a golden file cannot silently accept a wrong value.

use std::path::Path;
use std::process::Command;

mod common;

fn transcript(name: &str) -> (String, Option<i32>) {
    let dir = Path::new("tests/z80");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retro"));
    cmd.arg("debug")
        .arg(dir.join(format!("{name}.asm")))
        .arg("--script")
        .arg(dir.join(format!("{name}.cmds")));
    let keys = dir.join(format!("{name}.keys"));
    if keys.exists() {
        cmd.arg("--keys").arg(keys);
    }
    let o = cmd.output().expect("run retro debug");
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status.code())
}

fn golden(name: &str) -> String {
    let (out, code) = transcript(name);
    assert_eq!(
        code,
        Some(0),
        "{name}: every command of the script succeeds:\n{out}"
    );
    common::golden(&Path::new("tests/z80").join(format!("{name}.expect")), &out);
    out
}

#[test]
fn attribute_ram_cells() {
    let out = golden("attrs");
    assert!(
        out.contains("Watchpoint 1: write $5821 ($5821) = 16\n"),
        "paper 2 reaches row 1, column 1"
    );
    assert!(out.contains("$5820 $5820           00 10 00"));
    assert!(out.contains("border 2"));
}

#[test]
fn keyboard_through_port_fe_with_a_key_script() {
    let out = golden("keys");
    // Q is held from 200 ms: the read in frame 10 (the frame ending at 200 ms) sees it.
    // Bit 0 (Q) low, bits 1-4 (W E R T) high, bits 5-7 read 1.
    assert!(out.contains("print/x A\nA = $FE\n"), "{out}");
    assert!(
        out.contains("Program exited with status 28."),
        "the same count as `retro run`"
    );
    assert!(out.contains("QP\n"));
}

#[test]
fn im2_interrupt_routine_counting_frames() {
    let out = golden("im2");
    assert!(out.contains("Breakpoint 1, $9191 handler"));
    assert!(out.contains("IM=2"));
    assert!(out.contains("Program exited with status 50."));
}

#[test]
fn console_text_and_exit_port_status() {
    let out = golden("console");
    // The first character is printed before the watchpoint stops; the rest after `continue`.
    assert!(out.contains("continue\nH\nWatchpoint"), "{out}");
    assert!(out.contains("ello from the Z80\nsecond line\n"));
    assert!(
        out.contains("Watchpoint 1: OUT to port $480F"),
        "the first console write, 'H' (48h) in A"
    );
    assert!(out.contains("Program exited with status 7."));
}

#[test]
fn breakpoints_stepping_reverse_and_call() {
    let out = golden("calls");
    assert!(out.contains("#2  $8009 main+9 (calls.asm:5)"));
    assert!(out.contains("inc1 returned after 2 steps"));
}

/// `continue 2s` / `500ms` / `Nf` run that much virtual time (frames of 50 Hz here) and stop at
/// the last frame's end, before that frame's interrupt is taken: spin.asm counts one per
/// interrupt, so after the 100th frame end it has counted 99. A breakpoint still stops the run
/// first; a budget of no time is refused.
#[test]
fn continue_with_a_virtual_time_budget() {
    let (out, _, code) = common::retro_text(&[
        "debug",
        "tests/z80/spin.asm",
        "--script",
        "=continue 2s;print word[count];continue 500ms;print word[count];continue 1f;print word[count];\
         break loop if word[count]==200;continue 10s;print word[count];continue 0s",
    ]);
    assert_eq!(code, Some(1), "the last command fails:\n{out}");
    assert!(
        out.starts_with(
            "(z80) continue 2s\nStopped: 100 frames = 2s of virtual time ran out.\n\
             $8002 loop+1 (spin.asm:6)  ld hl,(count)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("(z80) print word[count]\nword[count] = 99 ($63)\n"),
        "{out}"
    );
    assert!(out.contains("Stopped: 25 frames = 500ms of virtual time ran out.\n"));
    assert!(out.contains("word[count] = 124 ($7C)\n"), "{out}");
    assert!(out.contains("Stopped: 1 frame = 20ms of virtual time ran out.\n"));
    assert!(out.contains("word[count] = 125 ($7D)\n"), "{out}");
    assert!(
        out.contains("(z80) continue 10s\nBreakpoint 1, $8001 loop (spin.asm:5)\n"),
        "{out}"
    );
    assert!(out.contains("word[count] = 200 ($C8)\n"), "{out}");
    assert!(
        out.ends_with("(z80) continue 0s\nerror: `0s` is not a time (`2s`, `500ms`, `100f` for frames)\n")
    );
}

#[test]
fn bad_commands_fail_the_script() {
    let o = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args([
            "debug",
            "tests/z80/calls.asm",
            "--script",
            "=break nowhere;frobnicate;p 1+",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out.contains("error: no register, flag or symbol named `nowhere`"),
        "{out}"
    );
    assert!(out.contains("error: unknown command `frobnicate`"));
}
