//! Issue 26 on BBC BASIC and the C64: the reverse history sized in virtual time (`info record`,
//! `set record limit`), the statement trace (`trace N`) and the line trace while running
//! (`trace on`). Golden transcripts of the scripts in
//! tests/record/ (recorded by these tests with UPDATE_GOLDEN=1); the facts that matter are
//! asserted here too, so a rewritten golden cannot hide them.
//!
//! tests/record/wait.bbc and wait.bas wait for a key typed at 15 s, then one at 55 s, then run a
//! loop that never waits for 10 s (10,000,000 BBC statements; 12,600,000 C64 statements, 10.5 s).
//! tests/record/traceon.bbc and traceon.bas print from a loop that calls a PROC (a GOSUB), then
//! spin 100,000 times round line 60; the BBC one ends with TRACE ON of its own.

use std::path::Path;

mod common;

/// The keys of both programs: `a` at 15 s, `b` at 55 s.
const KEYS: &str = "=+15000 a +40000 b";

fn transcript(program: &str, script: &str, keys: Option<&str>) -> String {
    let mut args = vec!["debug", program, "--script", script];
    args.extend(keys.iter().flat_map(|k| ["--keys", k]));
    let (out, _, code) = common::retro_text(&args);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}");
    out
}

fn golden(name: &str, out: &str) {
    common::golden(&Path::new("tests/record").join(format!("{name}.expect")), out);
}

#[test]
fn bbc_reverse_continue_goes_back_over_50_seconds_of_waits_and_a_busy_loop() {
    let out = transcript("tests/record/wait.bbc", "tests/record/bbc.script", Some(KEYS));
    golden("bbc", &out);
    // Within the default 60 s: back from line 60 (65 s) to line 20 (15 s), over the 40-s wait
    // and the 10 s of statements.
    assert!(out.contains("(bbc) reverse-continue\nBreakpoint 1, line 20:1 +5\nline 20:1 +5  b%=GET\n(bbc) print TIME\nTIME = 1500\n"), "{out}");
    assert!(
        out.contains("Reverse history: back 60 s = 3000 frames of virtual time (the limit)"),
        "{out}"
    );
    // With 30 s, the stop at 15 s is out of reach: the window's first statement instead.
    assert!(out.contains("(bbc) reverse-continue\nNo more reverse-execution history.\nline 30:1 +5  PRINT a%,b%,TIME\n(bbc) print TIME\nTIME = 5508\n"), "{out}");
}

#[test]
fn c64_history_keeps_60_seconds_and_10_seconds_of_a_loop_that_never_waits() {
    let out = transcript("tests/record/wait.bas", "tests/record/c64.script", Some(KEYS));
    golden("c64", &out);
    // 65.6 s and 12.7 million statements back (before, 64 checkpoints reached 1.26 million).
    assert!(out.contains("Reverse history: back 12732167 statements to statement 0, 3934 frames = 65.6 s of virtual time\n637 checkpoints in 40.1 MiB; limit 60 s"), "{out}");
    assert!(out.contains("(c64) reverse-continue\nBreakpoint 1, line 20:1 $081B\nline 20:1 $081B  PRINT A$\n(c64) print TI\nTI = 900\n"), "{out}");
    // A 30-s limit keeps at least 30 s (the checkpoint just older than it), and no more.
    assert!(
        out.contains("frames = 32.2 s of virtual time\n633 checkpoints"),
        "{out}"
    );
    assert!(
        out.contains("(c64) reverse-continue\nNo more reverse-execution history.\n"),
        "{out}"
    );
}

#[test]
fn bbc_trace_lists_the_last_statements_through_a_proc() {
    let out = transcript("tests/bbc/gdb.bbc", "tests/record/trace_bbc.script", None);
    golden("trace_bbc", &out);
    assert!(out.contains("(bbc) trace 6\nline 10:1 +5  ON ERROR PRINT \"caught \";v:\nline 20:1 +5  v=0\nline 30:1 +5  PROCp\nline 110:1 +5  e=5\nline 120:1 +5  ENDPROC\nline 40:1 +5  a=1\n(bbc) print v\nv = 0\n"), "{out}");
    // The trace leaves the program where it was: the next step runs line 50.
    assert!(
        out.contains("(bbc) step\nline 60:1 +5  c=3\n(bbc) trace 2\nline 40:1 +5  a=1\nline 50:1 +5  b=2\n"),
        "{out}"
    );
}

#[test]
fn c64_trace_lists_the_last_statements_through_the_gosubs() {
    let out = transcript("tests/c64dbg/loops.bas", "tests/record/trace_c64.script", None);
    golden("trace_c64", &out);
    assert!(out.contains("line 110:1 $08AC  GOSUB 200\nline 200:1 $08B8  T=T*10\nline 200:2 $08BF  RETURN\nline 110:2 $08B2  RETURN\n(c64) step\nS= 18 \n"), "{out}");
    assert!(out.contains("(c64) reverse-step 3\nline 200:2 $08BF  RETURN\n(c64) trace 3\nline 100:2 $089D  PRINT \"IN SUB\"\nline 110:1 $08AC  GOSUB 200\nline 200:1 $08B8  T=T*10\n"), "{out}");
}

/// The part of a transcript from the `n`th (from 0) command `cmd` to the next command.
fn answer<'a>(out: &'a str, prompt: &str, cmd: &str, n: usize) -> &'a str {
    let head = format!("({prompt}) {cmd}\n");
    let from = out
        .match_indices(&head)
        .nth(n)
        .map(|(i, _)| i + head.len())
        .unwrap_or_else(|| panic!("no `{cmd}` #{n}:\n{out}"));
    let rest = &out[from..];
    &rest[..rest.find(&format!("({prompt}) ")).unwrap_or(rest.len())]
}

/// What a tight loop under `trace on` shows: at most 100 entries and one line counting the rest.
fn assert_bounded(loop_run: &str, entry: &str) {
    assert_eq!(loop_run.matches(entry).count(), 100, "{loop_run}");
    assert!(
        loop_run.contains("\n... 99900 more lines entered (trace shows the last statements)\n"),
        "{loop_run}"
    );
    assert!(
        loop_run.len() < 1000,
        "a loop of 100,000 lines shows {} bytes",
        loop_run.len()
    );
    assert!(loop_run.lines().all(|l| l.len() <= 80), "{loop_run}");
}

#[test]
fn bbc_trace_on_shows_the_lines_entered_in_order_with_the_output_and_stays_bounded() {
    let out = transcript(
        "tests/record/traceon.bbc",
        "tests/record/traceon_bbc.script",
        None,
    );
    golden("traceon_bbc", &out);
    // As the program's own TRACE ON would print them, between its PRINTs; the PROC's body
    // (line 210, after DEF PROCsq on line 200) is entered by the call.
    assert_eq!(
        answer(&out, "bbc", "continue", 0),
        "[10] start\n[20] [30] [210]          1\n[220] [40] [30] [210]          4\n[220] [40] \nBreakpoint 1, line 50:1 +5\nline 50:1 +5  n%=0\n"
    );
    // trace off: a step shows no entry.
    assert_eq!(answer(&out, "bbc", "step", 0), "line 60:1 +5  n%=n%+1:\n");
    assert_bounded(answer(&out, "bbc", "continue", 1), "[60] ");
    // The program's own TRACE ON prints on its screen (its output), the debugger's being off.
    assert_eq!(
        answer(&out, "bbc", "continue", 2),
        "[80] own\n[90] \nProgram exited with status 0.\n"
    );
}

#[test]
fn bbc_trace_on_in_the_program_still_prints_under_retro_run() {
    let (out, _, code) = common::retro_text(&["run", "--headless", "tests/record/traceon.bbc"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "start\n         1\n         4\n[80] own\n[90] ");
}

#[test]
fn c64_trace_on_shows_the_lines_entered_in_order_with_the_output_and_stays_bounded() {
    let out = transcript(
        "tests/record/traceon.bas",
        "tests/record/traceon_c64.script",
        None,
    );
    golden("traceon_c64", &out);
    assert_eq!(
        answer(&out, "c64", "continue", 0),
        "[10] START\n[20] [30] [200]  1 \n[210] [40] [30] [200]  4 \n[210] [40] \nBreakpoint 1, line 50:1 $0831\nline 50:1 $0831  N=0\n"
    );
    assert_eq!(answer(&out, "c64", "step", 0), "line 60:1 $0839  N=N+1\n");
    assert_bounded(answer(&out, "c64", "continue", 1), "[60] ");
    // A step's entry comes before what the line prints.
    assert_eq!(answer(&out, "c64", "step", 1), "[70] END\nline 80:1 $085F  END\n");
    assert_eq!(
        answer(&out, "c64", "continue", 2),
        "\nREADY.\nProgram exited with status 0.\n"
    );
}
