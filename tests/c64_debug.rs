//! `retro debug prog.bas|prog.prg`: the C64 BASIC debugger end to end. The walkthrough of
//! docs/debugging-basic.md ("C64 BASIC") is a golden transcript (tests/c64dbg/walkthrough.script
//! and .expect on tests/c64dbg/loops.bas; `UPDATE_GOLDEN=1` rewrites it), and every transcript
//! excerpt the document quotes must be part of it, so the walkthrough stays true.
//!
//! There is no oracle for a debugger transcript: the .expect was recorded by this tool and
//! checked by hand against the ROM's memory layout (a line's link and number, the variables' 7
//! bytes from VARTAB, an array's header, the FOR and GOSUB frames' sizes) and BASIC V2's rules
//! for NEXT J,I, GOSUB and RETURN; the facts the walkthrough is about are also asserted below, so
//! rewriting the golden file cannot silently accept a wrong value.

use std::path::Path;
use std::time::Duration;

mod common;
use common::retro_text;

#[path = "common/pty.rs"]
mod pty;

fn walkthrough() -> String {
    let (out, err, code) = retro_text(&[
        "debug",
        "tests/c64dbg/loops.bas",
        "--script",
        "tests/c64dbg/walkthrough.script",
    ]);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}{err}");
    common::golden(Path::new("tests/c64dbg/walkthrough.expect"), &out);
    out
}

#[test]
fn the_c64_walkthrough_is_the_golden_transcript() {
    let t = walkthrough();
    // TXTPTR between FOR I and FOR J: on the `:` at $082E that NEWSTT reads next.
    assert!(t.contains("TXTPTR $082D: the next byte read is $082E ($3A) [in brackets]\n"));
    assert!(t.contains("  $082D  32 [3A] 81  20  4A  B2  31  20   2:FOR J=1 \n"));
    // I=1 as the ROM stores it: name 49 00, then 81 00 00 00 00.
    assert!(t.contains("I    float   1              $08C3: 49 00 81 00 00 00 00\n"));
    // Two FOR frames of 18 bytes, J on top, each looping back after its FOR.
    assert!(t.contains("2 frame(s), 36 bytes of the 6502 stack (FOR 18, GOSUB 7)\n#0 FOR J TO 3 STEP 1"));
    // NEXT J,I with J at its limit: J's loop ends, I's loops back to FOR J.
    assert!(t.contains("(c64) next\nline 20:2 $082F  FOR J=1 TO 3\n"));
    // A string's descriptor points into the program text; B%(3) is an integer array.
    assert!(
        t.contains("A$   string  \"HI\"           $08D8: 41 80 02 53 08 00 00  (len 2, text at $0853)\n")
    );
    assert!(t.contains("B%(3) integer, 15 bytes at $08DF: C2 80 0F 00 01 00 04\n"));
    assert!(t.contains("  B%(2) = 7  $08EA: 00 07\n"));
    // finish inside GOSUB 100 stops after its RETURN, at line 60.
    assert!(t.contains("(c64) finish\nline 60:1 $0875  PRINT \"S=\";S\n"));
    // The error stops where the ROM raised it.
    assert!(t.contains(
        "?DIVISION BY ZERO  ERROR IN 70\nREADY.\nProgram stopped: ?DIVISION BY ZERO  ERROR IN 70 (raised at $088C)\n"
    ));
}

#[test]
fn the_document_quotes_the_c64_transcript() {
    let t = walkthrough();
    let doc = std::fs::read_to_string("docs/debugging-basic.md").unwrap();
    let section = doc
        .split("## C64 BASIC")
        .nth(1)
        .expect("docs/debugging-basic.md has a C64 BASIC section");
    let mut quoted = 0;
    for block in section.split("```transcript\n").skip(1) {
        let block = block.split("```").next().unwrap();
        assert!(
            t.contains(block),
            "docs/debugging-basic.md quotes what the C64 transcript does not say:\n{block}"
        );
        quoted += 1;
    }
    assert!(quoted >= 4, "the C64 walkthrough quotes the transcript");
}

/// `continue 1s` runs one second of the C64's virtual time: 60 jiffies, which TI counts.
#[test]
fn continue_with_a_time_budget_runs_that_many_jiffies() {
    let dir = std::env::temp_dir().join(format!("retro-c64-debug-time-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("loop.bas");
    std::fs::write(&prog, "10 a=a+1\n20 goto 10\n").unwrap();
    let (out, err, code) = retro_text(&[
        "debug",
        prog.to_str().unwrap(),
        "--script",
        "=continue 1s;print ti;continue 3f;print ti",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("(c64) continue 1s\nStopped: 60 frames = 1s of virtual time ran out.\n"),
        "{out}"
    );
    assert!(out.contains("(c64) print ti\nti = 60\n"), "{out}");
    assert!(
        out.contains("Stopped: 3 frames = 50ms of virtual time ran out.\n"),
        "{out}"
    );
    assert!(out.contains("(c64) print ti\nti = 63\n"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scripted_keys_reach_get_and_a_prg_loads() {
    let (out, _, code) = retro_text(&[
        "debug",
        "tests/c64dbg/keys.bas",
        "--keys",
        "=+100 a +100 b c",
        "--script",
        "=break 20;continue;print k$;continue;continue;continue",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("(c64) print k$\nk$ = \"A\"\n(c64) continue\nGOT A\n"),
        "{out}"
    );
    assert!(
        out.contains("GOT C\n\nREADY.\nProgram exited with status 0.\n"),
        "{out}"
    );
    // With no keys left, GET's loop stops the batch run instead of spinning.
    let (out, _, code) = retro_text(&["debug", "tests/c64dbg/keys.bas", "--script", "=continue"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Program stopped: the program waits for a key and the key script has no more\n"));
    // A .prg: the same program, tokenized.
    let dir = std::env::temp_dir().join(format!("retro-c64-debug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prg = dir.join("loops.prg");
    let (_, err, code) = retro_text(&["tok", "tests/c64dbg/loops.bas", "-o", prg.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (out, _, code) = retro_text(&[
        "debug",
        prg.to_str().unwrap(),
        "--break",
        "50",
        "--script",
        "=continue;info stack",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Breakpoint 1, line 50:1 $086B\n"), "{out}");
    // Bad locations and failing commands: the batch exits 1, a bad --break 2.
    let (_, err, code) = retro_text(&[
        "debug",
        "tests/c64dbg/loops.bas",
        "--break",
        "99",
        "--script",
        "=quit",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--break 99: no line 99"), "{err}");
    let (out, _, code) = retro_text(&["debug", "tests/c64dbg/loops.bas", "--script", "=print 1+"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("error: ?SYNTAX  ERROR"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The terminal UI at 80x24: a breakpoint, F5 to it, F11 a statement on, keys typed while the
/// program runs reach its GET, Escape stops it, Ctrl-Q restores the terminal.
#[test]
#[cfg(unix)]
fn the_terminal_ui_breaks_continues_steps_takes_keys_and_quits() {
    let mut s = pty::spawn_retro(80, 24, "debug tests/c64dbg/keys.bas");
    s.expect("debug:").expect("the debugger starts");
    s.send("break 30\r").unwrap();
    s.expect("N=N+1").expect("the breakpoint is set");
    s.send("\x1b[15~").unwrap(); // F5: continue
    s.expect("RUNNING").expect("the program runs, polling GET");
    std::thread::sleep(Duration::from_millis(300));
    s.send("q").unwrap(); // a key for the program
    // Only changed cells are redrawn: look for words no earlier line had in their place.
    s.expect("GOT Q").expect("GET took the key");
    std::thread::sleep(Duration::from_millis(300));
    s.send("print k$\r").unwrap();
    s.expect("\"Q\"")
        .expect("the program stopped at line 30 with the key typed");
    s.send("\x1b[23~").unwrap(); // F11: one statement
    // Letters no other line has in their columns (ratatui skips unchanged cells).
    s.send("print \"ZQX\"+mid$(str$(n),2)\r").unwrap();
    s.expect("ZQX1").expect("one statement further: N=N+1 ran");
    s.send("continue\r").unwrap();
    s.expect("RUNNING").expect("running again");
    std::thread::sleep(Duration::from_millis(300));
    s.send("\x1b").unwrap(); // Escape: RUN/STOP
    s.expect("Stopped.").expect("Escape stops the running program");
    pty::quit_and_check_restored(s);
}

/// Issue 26 on C64 BASIC (tests/c64dbg/gdb.script on tests/c64dbg/gdb.bas): the user's `set`
/// survives going back and the program later prints it; `reverse-finish` and `reverse-next` go
/// back over the GOSUB.
#[test]
fn set_survives_reverse_execution_and_reverse_next_goes_over_a_gosub() {
    let (out, err, code) = retro_text(&[
        "debug",
        "tests/c64dbg/gdb.bas",
        "--script",
        "tests/c64dbg/gdb.script",
    ]);
    assert_eq!(
        code,
        Some(0),
        "every command succeeds and the assertion holds:\n{out}{err}"
    );
    common::golden(Path::new("tests/c64dbg/gdb.expect"), &out);
    assert!(out.contains("(c64) reverse-finish\nline 20"), "{out}");
    assert_eq!(
        out.matches("(c64) print v\nv = 5\n").count(),
        2,
        "after reverse-finish and reverse-step: {out}"
    );
    assert!(out.contains("(c64) reverse-next\nline 20"), "{out}");
    assert!(
        out.ends_with("(c64) continue\n 5 \n\nREADY.\nProgram exited with status 0.\n"),
        "{out}"
    );
}

/// Issue 26 builds 3-5 on C64 BASIC (tests/c64dbg/commands.script on tests/c64dbg/commands.bas):
/// a breakpoint's `commands` run at each of its stops, a bare `list` and `x` go on after the
/// last, and `x/s` shows the screen's text from its screen codes.
#[test]
fn breakpoint_commands_list_going_on_and_the_screen_as_text() {
    let (out, err, code) = retro_text(&[
        "debug",
        "tests/c64dbg/commands.bas",
        "--script",
        "tests/c64dbg/commands.script",
    ]);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}{err}");
    common::golden(Path::new("tests/c64dbg/commands.expect"), &out);
    assert!(
        out.contains("i = 2\ns = 1\n(c64) delete"),
        "the commands ran at the second stop: {out}"
    );
    assert!(out.contains("(c64) list\n   130 G=7\n"), "list goes on: {out}");
    assert!(out.contains("(c64) x\n$0811: "), "x goes on: {out}");
    assert!(
        out.contains("$0400: HELLO\n$0428: S= 6\n"),
        "the screen as text: {out}"
    );
}
