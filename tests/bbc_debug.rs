//! `retro debug prog.bbc`: the BBC BASIC debugger end to end. The Rheolism walkthrough of
//! docs/debugging-basic.md is a golden transcript (tests/bbc/rheolism.script and .expect;
//! `UPDATE_GOLDEN=1` rewrites it), and every transcript excerpt the document quotes must be part
//! of it, so the walkthrough stays true.
//!
//! There is no oracle for a debugger transcript: the .expect was recorded by this tool and
//! checked by hand against the published listing (the token bytes are `retro list --tokens`'s)
//! and BBC BASIC's rules for IF/ELSE, GOSUB and VDU; the facts the walkthrough is about are also
//! asserted below, so rewriting the golden file cannot silently accept a wrong value.

use std::path::Path;
use std::time::Duration;

mod common;
use common::retro_text;

#[path = "common/pty.rs"]
mod pty;

fn walkthrough() -> String {
    let (out, err, code) = retro_text(&[
        "debug",
        "programs/rheolism/rheolism.bbc",
        "--seed",
        "13",
        "--script",
        "tests/bbc/rheolism.script",
    ]);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}{err}");
    common::golden(Path::new("tests/bbc/rheolism.expect"), &out);
    out
}

#[test]
fn rheolism_walkthrough_is_the_golden_transcript() {
    let t = walkthrough();
    // d=d creates d: it did not exist, and is 0 after the statement.
    assert!(
        t.contains("Watchpoint 1: d\nOld value = (no such variable)\nNew value = 0\nline 0:2 +8  IFdVDUd:\n")
    );
    // IF d (0 on the first pass) goes on after the ELSE at +31: MODE9 at +32.
    assert!(t.contains("(bbc) step\nline 0:5 +32  MODE9:\n"));
    // GOSUB FALSE is GOSUB 0: line 0 as a subroutine, returning after FALSE.
    assert!(t.contains(
        "(bbc) step\nline 0:1 +4  d=d:\n(bbc) backtrace\n#0 0:1 +4  d=d:\n#1 GOSUB returns to 0:11 +55\n"
    ));
    // Both UNTILs were reached, the second by the run-time ELSE scan.
    assert!(t.contains("3    breakpoint       y    1     0:15 (0:15 +87) UNTIL0ELSE\n"));
    assert!(t.contains("4    breakpoint       y    1     0:16 (0:16 +90) UNTILVPOS=25:\n"));
    // VDU 4895;3 sends 31,19,3 (4895 = &131F, low byte first).
    assert!(t.contains("  VDU 31,19,3: move the text cursor to (19,3)\n"));
    // VDU 2080*ABSr; with r=-1 sends &20 then &08: a space, then back over it.
    assert!(t.contains("  \" \": print 1 character(s) at the text cursor\n  VDU 8: text cursor left\n"));
}

#[test]
fn the_document_quotes_the_transcript() {
    let t = walkthrough();
    let doc = std::fs::read_to_string("docs/debugging-basic.md").unwrap();
    // The C64 section quotes its own transcript (tests/c64_debug.rs).
    let doc = doc.split("## C64 BASIC").next().unwrap();
    let mut quoted = 0;
    for block in doc.split("```transcript\n").skip(1) {
        let block = block.split("```").next().unwrap();
        assert!(
            t.contains(block),
            "docs/debugging-basic.md quotes what the transcript does not say:\n{block}"
        );
        quoted += 1;
    }
    assert!(
        quoted >= 5,
        "the walkthrough quotes the transcript ({quoted} excerpts)"
    );
}

#[test]
fn text_listings_breaks_from_the_command_line_and_bad_usage() {
    let dir = std::env::temp_dir().join(format!("retro-bbc-debug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("p.bbc");
    std::fs::write(&prog, "10 FOR I%=1 TO 3\n20 PRINT I%\n30 NEXT\n").unwrap();
    let p = prog.to_str().unwrap();
    let (out, _, code) = retro_text(&[
        "debug",
        p,
        "--break",
        "20 ",
        "--script",
        "=continue;continue;print I%;continue;quit",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out,
        "(bbc) continue\nBreakpoint 1, line 20:1 +5\nline 20:1 +5  PRINT I%\n(bbc) continue\n         1\nBreakpoint 1, line 20:1 +5\nline 20:1 +5  PRINT I%\n(bbc) print I%\nI% = 2\n(bbc) continue\n         2\nBreakpoint 1, line 20:1 +5\nline 20:1 +5  PRINT I%\n(bbc) quit\n"
    );
    let (_, err, code) = retro_text(&["debug", p, "--break", "99", "--script", "=quit"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--break 99: No such line 99"), "{err}");
    // A failing command makes the batch exit 1.
    let (out, _, code) = retro_text(&["debug", p, "--script", "=print nosuch"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("error: Unknown or missing variable"), "{out}");
    // C64 BASIC has its own debugger now (tests/c64_debug.rs): a .bas goes to it.
    let bas = dir.join("p.bas");
    std::fs::write(&bas, "10 print 1\n").unwrap();
    let (out, err, code) = retro_text(&["debug", bas.to_str().unwrap(), "--script", "=continue"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("(c64) continue\n 1 \n"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `continue 1s` runs one second of the BBC's virtual time (50 frames): TIME, which counts
/// centiseconds of that time, has gone up by 100 when it stops, and a frame budget likewise.
#[test]
fn continue_with_a_time_budget_runs_that_much_virtual_time() {
    let dir = std::env::temp_dir().join(format!("retro-bbc-debug-time-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("loop.bbc");
    std::fs::write(&prog, "10 A=A+1\n20 GOTO 10\n").unwrap();
    let (out, err, code) = retro_text(&[
        "debug",
        prog.to_str().unwrap(),
        "--script",
        "=continue 1s;print TIME;continue 30f;print TIME",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("(bbc) continue 1s\nStopped: 50 frames = 1s of virtual time ran out.\n"),
        "{out}"
    );
    assert!(out.contains("(bbc) print TIME\nTIME = 100\n"), "{out}");
    assert!(
        out.contains("Stopped: 30 frames = 600ms of virtual time ran out.\n"),
        "{out}"
    );
    assert!(out.contains("(bbc) print TIME\nTIME = 160\n"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The terminal UI at 80x24 on Rheolism: a breakpoint from the command line, F5 to it (the
/// interpreter panel counts the statements run), F11 one statement on, Ctrl-Q restores the
/// terminal.
#[test]
#[cfg(unix)]
fn the_terminal_ui_breaks_continues_steps_and_quits() {
    let mut s = pty::spawn_retro(80, 24, "debug programs/rheolism/rheolism.bbc --seed 13");
    // ratatui draws only the cells that change: the test looks for single words.
    s.expect("debug:").expect("the debugger starts");
    s.send("break 0:20\r").unwrap();
    s.expect("REPEATm=9-INKEY6MOD3:").expect("the breakpoint is set");
    s.send("\x1b[15~").unwrap(); // F5: continue
    s.expect("50572")
        .expect("the interpreter panel counts the statements run to the breakpoint");
    s.send("\x1b[23~").unwrap(); // F11: one statement
    // Only changed cells are redrawn, so ask for the count in a line of its own.
    s.send("info frame\r").unwrap();
    s.expect("50573").expect("one statement further");
    pty::quit_and_check_restored(s);
}

/// `continue` on a program that never ends runs it frame by frame; Escape stops it at the
/// statement it is on, and the program has run meanwhile.
#[test]
#[cfg(unix)]
fn escape_stops_a_running_program_at_its_statement() {
    let dir = std::env::temp_dir().join(format!("retro-bbc-debug-tui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("spin.bbc");
    std::fs::write(&prog, "10 REPEAT\n20 A%=A%+1\n30 UNTIL FALSE\n").unwrap();
    let mut s = pty::spawn_retro(80, 24, &format!("debug '{}'", prog.display()));
    s.expect("debug:").expect("the debugger starts");
    s.send("continue\r").unwrap();
    s.expect("RUNNING").expect("the footer shows the program running");
    std::thread::sleep(Duration::from_millis(700));
    s.send("\x1b").unwrap(); // Escape
    s.expect("Stopped.").expect("Escape stops the running program");
    s.send("print A%>10000\r").unwrap();
    s.expect("= -1").expect("the program ran many statements");
    pty::quit_and_check_restored(s);
    std::fs::remove_dir_all(&dir).ok();
}

/// In the terminal, `next` and `finish` run frame by frame like `continue`: Escape stops a `next`
/// over a PROC that waits for a key, and keys typed while the program runs reach its INKEY.
#[test]
#[cfg(unix)]
fn next_and_finish_run_frame_by_frame_and_typed_keys_reach_inkey() {
    let dir = std::env::temp_dir().join(format!("retro-bbc-debug-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("wait.bbc");
    std::fs::write(
        &prog,
        "10 PROCwait\n20 PRINT \"after\"\n30 END\n40 DEF PROCwait\n50 REPEAT A%=A%+1:K%=INKEY(0):UNTIL K%=113\n60 ENDPROC\n",
    )
    .unwrap();
    let mut s = pty::spawn_retro(80, 24, &format!("debug '{}'", prog.display()));
    s.expect("debug:").expect("the debugger starts");
    s.send("next\r").unwrap();
    s.expect("RUNNING").expect("next runs frame by frame");
    std::thread::sleep(Duration::from_millis(500));
    s.send("\x1b").unwrap(); // Escape
    s.expect("Stopped.").expect("Escape stops the next under way");
    // Only changed cells are redrawn: letters no earlier line has in their columns.
    s.send("print \"ZQXW\"+STRING$(2,CHR$(72-(A%>1000)*3))\r")
        .unwrap();
    s.expect("ZQXWKK").expect("the PROC's loop ran many statements");
    s.send("finish\r").unwrap();
    s.expect("RUNNING").expect("finish runs frame by frame");
    std::thread::sleep(Duration::from_millis(300));
    s.send("q").unwrap(); // for INKEY
    // INKEY takes it, the PROC returns and finish stops at line 20; then the command line is
    // the debugger's again.
    std::thread::sleep(Duration::from_millis(1000));
    s.send("print \"ZQXW\"+CHR$(K%)+CHR$(K%)\r").unwrap();
    s.expect("ZQXWqq")
        .expect("the key typed reached INKEY and finish stopped");
    pty::quit_and_check_restored(s);
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 26's build 1 on BBC BASIC (tests/bbc/gdb.script on tests/bbc/gdb.bbc): the user's `set`
/// survives going back and the program later prints it, `reverse-finish` and `reverse-next` go
/// back over PROCp, and a step into an error ON ERROR catches stops once at the handler.
#[test]
fn set_survives_reverse_execution_and_reverse_next_goes_over_a_proc() {
    let (out, err, code) = retro_text(&["debug", "tests/bbc/gdb.bbc", "--script", "tests/bbc/gdb.script"]);
    assert_eq!(
        code,
        Some(0),
        "every command succeeds and the assertion holds:\n{out}{err}"
    );
    common::golden(Path::new("tests/bbc/gdb.expect"), &out);
    assert!(
        out.contains("(bbc) reverse-finish\nline 30:1 +5  PROCp\n(bbc) print v\nv = 5\n"),
        "{out}"
    );
    assert!(out.contains("(bbc) reverse-next\nline 30:1 +5  PROCp\n"), "{out}");
    assert!(
        out.contains("(bbc) reverse-step 2\nline 50:1 +5  b=2\n(bbc) print v\nv = 5\n"),
        "{out}"
    );
    assert!(
        out.contains("         5\nTemporary breakpoint") || out.contains("         5\nBreakpoint"),
        "the program prints the user's 5: {out}"
    );
    assert!(
        out.contains("(bbc) step\nProgram stopped: Division by zero (ERR=18, ERL=80"),
        "{out}"
    );
    assert!(
        out.ends_with("(bbc) continue\ncaught 5\nProgram exited with status 0.\n"),
        "one stop at the handler: {out}"
    );
}

/// Issue 26 builds 3 and 5 on BBC BASIC (tests/bbc/commands.script on tests/bbc/gdb.bbc): a
/// breakpoint's `commands` run when it stops, and a bare `list` and `x` go on after the last.
#[test]
fn breakpoint_commands_and_list_and_x_going_on() {
    let (out, err, code) = retro_text(&[
        "debug",
        "tests/bbc/gdb.bbc",
        "--script",
        "tests/bbc/commands.script",
    ]);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}{err}");
    common::golden(Path::new("tests/bbc/commands.expect"), &out);
    assert!(
        out.contains("line 50:1 +5  b=2\nv = 0\na = 1\n"),
        "the commands ran: {out}"
    );
    assert!(out.contains("(bbc) list\n     110 e=5\n"), "list goes on: {out}");
    assert!(out.contains("(bbc) x/16\n&08F10 PAGE+16 "), "x goes on: {out}");
}
