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

/// The transcript of tests/z80/NAME.cmds on tests/z80/PROGRAM.asm.
fn transcript_on(program: &str, name: &str) -> (String, Option<i32>) {
    let dir = Path::new("tests/z80");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retro"));
    cmd.arg("debug")
        .arg(dir.join(format!("{program}.asm")))
        .arg("--script")
        .arg(dir.join(format!("{name}.cmds")));
    let keys = dir.join(format!("{program}.keys"));
    if keys.exists() {
        cmd.arg("--keys").arg(keys);
    }
    let o = cmd.output().expect("run retro debug");
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status.code())
}

fn golden(name: &str) -> String {
    golden_on(name, name)
}

/// [`golden`] for a script on another test's program.
fn golden_on(program: &str, name: &str) -> String {
    let (out, code) = transcript_on(program, name);
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
        out.contains("Watchpoint 1: write $5821 ($5821) = 16 (was 0)\n"),
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

/// The commands that had no test of their result (tests/z80/commands.cmds on commands.asm).
#[test]
fn each_command_gives_what_it_says() {
    let out = golden("commands");
    // A temporary breakpoint stops once and is gone.
    assert!(out.contains("(z80) tbreak onrst\nTemporary breakpoint 1 at $8006 onrst (commands.asm:7)\n"));
    assert!(out.contains("1    tbreakpoint      y    0     onrst"));
    assert!(out.contains("(z80) run\nBreakpoint 1, $8006 onrst"));
    assert!(out.contains("(z80) info breakpoints\nNo breakpoints or watchpoints.\n(z80) next\n"));
    // `next` runs the RST 08h routine as one step: the next instruction, count already 1.
    assert!(out.contains("(z80) next\n$8007 onrst+1 (commands.asm:8)  ld a,(count)\n"));
    assert!(out.contains("byte[count] = 1 ($01)"));
    // `awatch` stops after the read, then after the write.
    assert!(out.contains("(z80) continue\nWatchpoint 2: read $801E (count)\n$800A onrst+4"));
    assert!(out.contains("(z80) continue\nWatchpoint 2: write $801E (count) = 11 (was 1)\n$800F"));
    // `disable` (all) shows `n` in the table and the disabled points do not stop `advance`.
    assert!(out.contains("2    acc watchpoint   n    2     count\n3    breakpoint       n    0     inner"));
    assert!(out.contains("(z80) advance outer\n$8017 outer (commands.asm:14)  call inner\n"));
    // `info stack`: the return address into the caller, by label.
    assert!(out.contains("SP+0   $EFFE: 8012  return to $8012 done (commands.asm:12) (after call at $800F)"));
    // `enable 3` makes the breakpoint stop again; then two return addresses.
    assert!(out.contains("(z80) enable 3\n(z80) continue\nBreakpoint 3, $801B inner"));
    assert!(out.contains("SP+0   $EFFC: 801A  return to $801A outer+3 (commands.asm:15) (after call at $8017)\nSP+2   $EFFE: 8012"));
    // `until LOC` runs out of both routines to LOC.
    assert!(out.contains("(z80) until done\n$8012 done (commands.asm:12)  ld a,(count)\n"));
    // `x LABEL`: the memory at the symbol (count is 11, then the message).
    assert!(out.contains("(z80) x count\n$801E count           0B 5A 38 30 21"));
    assert!(out.contains("$801F msg             5A 38 30 21                                      Z80!\n"));
    // `list LOC`: the source around LOC, with its breakpoint marked; `=>` only where the PC is
    // (at `done`, line 12, not at `inner`).
    assert!(
        out.contains("(z80) list inner\n=>    12  done:   ld a,(count)\n"),
        "{out}"
    );
    assert!(out.contains("\n  *   16  inner:  ld b,2\n"));
    assert!(out.contains("Program exited with status 11."));
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

/// docs/debugger.md's worked example is tests/z80/example.cmds on calls.asm: the document
/// quotes the program, the script and the transcript exactly as they are, so it stays true.
#[test]
fn the_worked_example_of_the_document_is_the_golden_transcript() {
    let out = golden_on("calls", "example");
    assert!(out.contains("#2  $8009 main+9 (calls.asm:5)  [SP+2]\n"));
    assert!(
        out.contains("byte[$9000] = 2 ($02)\n"),
        "inc2 and inc1 have each added one"
    );
    let doc = std::fs::read_to_string("docs/debugger.md").unwrap();
    let example = doc
        .split("## A worked example")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/debugger.md has a worked example");
    let blocks: Vec<&str> = example.split("```\n").skip(1).step_by(2).collect();
    let read = |f: &str| std::fs::read_to_string(Path::new("tests/z80").join(f)).unwrap();
    assert_eq!(blocks.len(), 3, "the program, the script, the transcript");
    assert_eq!(blocks[0], read("calls.asm"));
    assert_eq!(blocks[1], read("example.cmds"));
    assert_eq!(
        blocks[2],
        format!("$ retro debug tests/z80/calls.asm --script tests/z80/example.cmds\n{out}")
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

/// The transcript of tests/z80/NAME.cmds on Connect-4 with the key script `keys`, and the exit
/// status.
fn connect4_transcript(name: &str, keys: &str) -> (String, Option<i32>) {
    let o = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["debug", "programs/connect4/connect4.asm", "--keys", keys])
        .arg("--script")
        .arg(Path::new("tests/z80").join(format!("{name}.cmds")))
        .output()
        .expect("run retro debug");
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status.code())
}

/// Connect-4's stack starts at 0000h (`STACKTOP EQU 0`): `finish` from checkWIN must stop right
/// after the CALL, though the RET takes SP from FFFEh round to 0000h.
#[test]
fn finish_from_checkwin_stops_after_the_call_when_sp_wraps() {
    let (out, code) = connect4_transcript("c4_finish", "programs/connect4/walkthrough.keys");
    assert_eq!(code, Some(0), "the script's assertion holds:\n{out}");
    common::golden(Path::new("tests/z80/c4_finish.expect"), &out);
    assert!(out.contains("(z80) finish\n$8297 turn.drop+39"), "{out}");
    assert!(out.contains("SP = $0\n"), "{out}");
    assert!(out.contains("   $8294  CDDF80    call checkWIN"), "{out}");
}

/// VICE's memory commands on Connect-4 (issue 26): find by text and by bytes, a multi-byte set,
/// compare, move, fill (kept by reverse-stepi) and the one-line assembler.
#[test]
fn vices_memory_commands_on_connect4() {
    let (out, code) = connect4_transcript("c4_monitor", "programs/connect4/walkthrough.keys");
    assert_eq!(code, Some(0), "the script's assertion holds:\n{out}");
    common::golden(Path::new("tests/z80/c4_monitor.expect"), &out);
    assert!(
        out.contains("(z80) find $8000 $FFFF \"YOU\"\n$876E TxtYourMove\n"),
        "{out}"
    );
    assert!(out.contains("$8127 02  $814A 01\n"), "{out}");
    assert!(
        out.contains("(z80) compare Board Board+2 Board+7\nThe same.\n"),
        "{out}"
    );
    assert!(out.contains("   2   1  2  1  2  1  2  1\n"), "{out}");
    assert!(out.contains("$F000  3E 02  ld a,$02\n"), "{out}");
}

/// The reverse history is sized in virtual time: with 6 s between human moves, reverse-continue
/// from the third checkWIN reaches the second and the first.
#[test]
fn reverse_continue_reaches_the_previous_checkwin_over_6_second_pauses() {
    let (out, code) = connect4_transcript("c4_pauses", "tests/z80/c4_pauses.keys");
    assert_eq!(code, Some(0), "every assertion holds:\n{out}");
    common::golden(Path::new("tests/z80/c4_pauses.expect"), &out);
    assert!(
        out.contains("(z80) reverse-continue\nBreakpoint 1, $80DF checkWIN"),
        "{out}"
    );
    assert_eq!(
        out.matches("(z80) reverse-continue\nBreakpoint 1, $80DF checkWIN")
            .count(),
        2,
        "{out}"
    );
    assert!(out.contains("frames = 13.8 s of virtual time"), "{out}");
}

/// A script whose assertion is false exits 1 and names the line.
#[test]
fn a_false_assertion_fails_the_script_naming_its_line() {
    let (out, code) = transcript_on("calls", "assert_fails");
    assert_eq!(code, Some(1), "{out}");
    common::golden(Path::new("tests/z80/assert_fails.expect"), &out);
    assert!(
        out.ends_with("Assertion failed at line 5: HL is the counter's address (HL == 0 = 0 ($00))\n"),
        "{out}"
    );
}

/// `retro debug programs/tetris/tetris.asm --ai` (docs/tetris-ai.md): the AI's game replayed,
/// a breakpoint where a piece spawns, and `info ai` there: the decision for the piece in play,
/// its best five placements with their values and terms.
#[test]
fn the_tetris_ai_explains_its_decision_where_a_piece_spawns() {
    let o = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args([
            "debug",
            "programs/tetris/tetris.asm",
            "--ai",
            "--ai-lines",
            "4",
            "--seed",
            "1",
        ])
        .arg("--script")
        .arg("tests/z80/tetris_ai.cmds")
        .output()
        .expect("run retro debug");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "every command succeeds:\n{out}");
    common::golden(Path::new("tests/z80/tetris_ai.expect"), &out);
    assert!(out.contains("Breakpoint 1, "), "{out}");
    let info = &out[out.find("(z80) info ai\n").expect("info ai ran")..];
    assert!(info.contains("to place,") && info.contains("level 19"), "{out}");
    for rank in 1..=5 {
        assert!(info.contains(&format!("\n{rank}. ")), "placement {rank}:\n{out}");
    }
}
