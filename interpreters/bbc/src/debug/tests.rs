//! The debugger's commands on small programs.

use retro_machine::debug::basic::conformance::{self, shows};
use retro_machine::debug::{Console, Debuggable};

use super::*;

fn debugger(src: &str) -> BbcDebugger {
    let program = crate::program::tokenize_program(src, crate::tokenize::Mode::Strict).expect("tokenizes");
    BbcDebugger::new(&program.to_bytes(), DebugOptions::default()).expect("loads")
}

/// The batch transcript of `;`-separated commands, as `retro debug --script` prints it.
fn run(dbg: &mut BbcDebugger, cmds: &str) -> String {
    Console::new().run_script(dbg, &cmds.replace(';', "\n")).0
}

fn exec(dbg: &mut BbcDebugger, cmd: &str) -> String {
    Console::new().execute(dbg, cmd).text
}

#[test]
fn step_shows_the_statement_and_the_byte() {
    let mut d = debugger("10 A=1:B=2\n20 PRINT A+B\n");
    let t = run(&mut d, "step;step;step");
    assert_eq!(
        t,
        "(bbc) step\nline 10:2 +9  B=2\n(bbc) step\nline 20:1 +5  PRINT A+B\n(bbc) step\n         3\nProgram exited with status 0.\n"
    );
}

#[test]
fn a_false_if_moves_the_pointer_past_else() {
    let mut d = debugger("10 IF 0 PRINT \"yes\" ELSE PRINT \"no\"\n20 END\n");
    let t = run(&mut d, "step;tokens");
    // From the IF the pointer goes straight to the PRINT after ELSE: statement 2.
    assert!(t.starts_with("(bbc) step\nline 10:2 +"), "{t}");
    shows(&t, &["PRINT \"no\""]);
    assert!(
        t.contains("=>") && t.contains("[F1]"),
        "the pointer is on PRINT's token: {t}"
    );
}

#[test]
fn next_with_a_comma_closes_two_loops() {
    let mut d = debugger("10 FOR I=1 TO 2:FOR J=1 TO 2:NEXT,:PRINT I;J\n");
    // FOR I, FOR J, then NEXT, three times (J's second pass; J done and I's second pass; J's
    // second pass): the 7th statement is NEXT, on the last pass of both loops.
    let t = run(&mut d, "step 6;info stack;step;info stack;print I;print J");
    shows(
        &t,
        &[
            "(bbc) step 6\nline 10:3 +25  NEXT,:\n(bbc) info stack\n#0 FOR J TO 2 STEP 1, loops back to 10:2 +24\n#1 FOR I TO 2 STEP 1, loops back to 10:1 +14\n",
        ],
    );
    // One step: NEXT, ends both loops, their frames are gone and the pointer is after it.
    shows(
        &t,
        &["(bbc) step\nline 10:4 +28  PRINT I;J\n(bbc) info stack\nThe control stack is empty.\n"],
    );
    assert!(t.ends_with("I = 3\n(bbc) print J\nJ = 3\n"), "{t}");
}

#[test]
fn until_a_line_runs_to_it() {
    let mut d = debugger("10 A=1\n20 B=2\n30 C=3\n40 D=4\n");
    let t = run(&mut d, "until 30;print A+B;print C;info frame");
    assert!(
        t.starts_with("(bbc) until 30\nline 30:1 +5  C=3\n(bbc) print A+B\nA+B = 3\n"),
        "{t}"
    );
    // Stopped before line 30's statement: C does not exist yet.
    shows(
        &t,
        &[
            "(bbc) print C\nerror: Unknown or missing variable\n",
            "statements run: 2\n",
        ],
    );
}

/// A FN of three statements called from the middle of line 10's first statement.
const FN_PROGRAM: &str =
    "10 X=FNsq(3)+1:Y=2\n20 PRINT X\n30 END\n40 DEF FNsq(n)\n50 LOCAL t\n60 t=n*n\n70 =t\n";

#[test]
fn break_on_a_fn_stops_in_its_body_and_finish_returns_into_the_caller() {
    let mut d = debugger(FN_PROGRAM);
    let t = run(&mut d, "break FNsq;continue;print n;finish;print X;info stack");
    shows(
        &t,
        &[
            "Breakpoint 1 at FNsq: LOCAL t\n",
            "Breakpoint 1, line 50:1 +5\nline 50:1 +5  LOCAL t\n(bbc) print n\nn = 3\n",
        ],
    );
    // finish runs the body to its `=` and the calling statement on with the value: the stop is
    // the statement after the call, with the FN's frame and its LOCALs gone.
    shows(&t, &["(bbc) finish\nline 10:2 +16  Y=2\n(bbc) print X\nX = 10\n"]);
    assert!(
        t.ends_with("The control stack is empty.\nno ON ERROR handler (errors stop the program)\n"),
        "{t}"
    );
    // From the `=` itself, finish goes to the same place.
    let mut d = debugger(FN_PROGRAM);
    let t = run(&mut d, "break 70;continue;finish");
    shows(&t, &["line 70:1 +5  =t\n(bbc) finish\nline 10:2 +16  Y=2\n"]);
}

#[test]
fn next_steps_over_a_line_calling_a_fn() {
    let mut d = debugger(FN_PROGRAM);
    let t = run(&mut d, "next;print X;next");
    // The FN's three statements run without a stop.
    shows(&t, &["(bbc) next\nline 10:2 +16  Y=2\n(bbc) print X\nX = 10\n"]);
    assert!(t.ends_with("(bbc) next\nline 20:1 +5  PRINT X\n"), "{t}");
    assert!(exec(&mut d, "info frame").contains("statements run: 5\n"));
}

#[test]
fn info_stack_shows_while_and_fn_entries() {
    let src = "10 I%=0:WHILE I%<3:I%=I%+1:PRINT FNd(I%):ENDWHILE\n20 END\n30 DEF FNd(n)\n40 =n*2\n";
    let mut d = debugger(src);
    let t = run(&mut d, "step 3;info stack;break 40;continue;info stack");
    shows(
        &t,
        &[
            "(bbc) info stack\n#0 WHILE, ENDWHILE tests again at 10:2 +12\nno ON ERROR handler",
            "#0 LOCAL n (restores 0)\n#1 FN, = returns into the calling expression at 10:4 +34\n#2 WHILE, ENDWHILE tests again at 10:2 +12\n",
        ],
    );
    // The return is the byte after the call's `)`, where PRINT goes on: the `:` before ENDWHILE.
    assert!(
        run(&mut d, "tokens 10").contains("     34  3A                           : (end of statement)"),
        "line 10's byte +34 is the `:` after FNd(I%)"
    );
    assert!(
        run(&mut d, "backtrace").contains("#1 FN returns into an expression at 10:4 +34\n"),
        "the backtrace gives the same place"
    );
    // A FN that EVAL calls returns into EVAL's string, which has no line.
    let mut d = debugger("10 X=EVAL(\"FNd(2)+1\")\n20 END\n30 DEF FNd(n)\n40 =n*2\n");
    let t = run(&mut d, "break 40;continue;backtrace;finish;print X");
    shows(&t, &["#1 FN returns into an expression at EVAL's string\n"]);
    assert!(t.ends_with("X = 5\n"), "{t}");
}

#[test]
fn info_error_gives_err_erl_and_the_byte() {
    let mut d = debugger("10 A=1\n20 B=A/0\n");
    let t = run(&mut d, "info error;continue;info error;print ERR;print ERL");
    assert!(
        t.starts_with("(bbc) info error\nNo error has been raised.\n"),
        "{t}"
    );
    // " B=A/0" from +4: the division is done with the pointer past the 0, on the line end.
    shows(
        &t,
        &["(bbc) info error\nDivision by zero (ERR=18, ERL=20, raised at 20:1 +10)\n"],
    );
    assert!(t.ends_with("ERR = 18\n(bbc) print ERL\nERL = 20\n"), "{t}");
}

#[test]
fn variables_appear_when_assigned_d_equals_d() {
    let mut d = debugger("10 d=d:e=1\n");
    let t = run(&mut d, "watch d;continue;info variables");
    shows(
        &t,
        &[
            "Watchpoint 1: d\nOld value = (no such variable)\nNew value = 0\nline 10:2 +",
            "d = 0 (real)",
        ],
    );
}

#[test]
fn breakpoints_on_lines_statements_and_procs_with_conditions() {
    let src = "10 FOR I%=1 TO 5\n20 PROCp(I%):NEXT\n30 END\n40 DEF PROCp(n)\n50 PRINT n\n60 ENDPROC\n";
    let mut d = debugger(src);
    let t = run(
        &mut d,
        "break PROCp if n>3;continue;print n;backtrace;info locals;finish;info breakpoints",
    );
    shows(
        &t,
        &[
            "Breakpoint 1 at PROCp: PRINT n if n>3\n",
            "Breakpoint 1, line 50:1 +5\nline 50:1 +5  PRINT n\n",
            "(bbc) print n\nn = 4\n",
            "#1 PROC returns to 20:",
            "n = 4 (the caller's value 0)",
            "(bbc) finish\n         4\nline 20:2",
            "1    breakpoint       y    1     PROCp (50:1 +5) PRINT n if n>3",
        ],
    );
    let mut d = debugger(src);
    let t = run(&mut d, "break 20:2;c;c;print I%");
    shows(&t, &["Breakpoint 1, line 20:2 +"]);
    assert!(t.ends_with("I% = 2\n"), "{t}");
}

#[test]
fn next_steps_over_gosub_and_proc() {
    let src = "10 GOSUB 100:PROCa:A%=1\n20 END\n100 B%=2:RETURN\n110 DEF PROCa:C%=3:ENDPROC\n";
    let mut d = debugger(src);
    let t = run(&mut d, "next;next;print B%+C%;step;step");
    shows(
        &t,
        &["(bbc) next\nline 10:2 +", "(bbc) next\nline 10:3 +", "B%+C% = 5"],
    );
    let mut d = debugger(src);
    let t = run(&mut d, "step;step;finish");
    shows(&t, &["(bbc) step\nline 100:1 +", "(bbc) finish\nline 10:2"]);
}

#[test]
fn an_error_in_a_proc_stops_at_its_on_error_local_handler() {
    let src = "10 PROCp\n20 PRINT \"back\"\n30 END\n40 DEF PROCp\n50 ON ERROR LOCAL PRINT \"caught\":ENDPROC\n60 X=1/0\n70 ENDPROC\n";
    let mut d = debugger(src);
    let t = run(&mut d, "continue;info stack;info error;continue");
    shows(
        &t,
        &[
            "Program stopped: Division by zero (ERR=18, ERL=60, raised at 60:1 +",
            "ON ERROR goes on here\nline 50:",
            "ON ERROR LOCAL handler at 50:",
            "caught\nback\nProgram exited with status 0.",
        ],
    );
}

#[test]
fn an_uncaught_error_ends_the_run_with_the_byte_it_was_raised_at() {
    let mut d = debugger("10 A=1\n20 PRINT B\n");
    let t = run(&mut d, "continue;print A;step");
    shows(
        &t,
        &[
            "Unknown or missing variable at line 20 (ERR=26, ERL=20, raised at 20:1 +",
            "A = 1",
        ],
    );
    // Stepping an ended program says again how it ended.
    assert!(t.ends_with("(bbc) step\nProgram stopped: Unknown or missing variable at line 20 (ERR=26, ERL=20, raised at 20:1 +7)\nthe program has ended  (run starts it again)\n"), "{t}");
}

#[test]
fn print_has_no_side_effects_and_set_assigns() {
    let mut d = debugger("10 A%=1\n20 PRINT A%\n");
    let t = run(
        &mut d,
        "step;print A%*10;print/x 255;print undefined;set A%=41+1;set s$=\"hi\";continue;print s$",
    );
    shows(
        &t,
        &[
            "A%*10 = 10",
            "255 = &FF",
            "error: Unknown or missing variable",
            "        42\nProgram exited with status 0.",
        ],
    );
    assert!(t.ends_with("s$ = \"hi\"\n"), "{t}");
}

/// The numbers a program printed (right-aligned in @%'s field), in order.
fn printed_numbers(t: &str) -> Vec<&str> {
    t.lines()
        .filter(|l| l.starts_with("   ") && l.trim().parse::<i64>().is_ok())
        .map(str::trim)
        .collect()
}

#[test]
fn print_display_and_conditions_leave_rnd_as_it_was() {
    let src = "10 A=RND(-7)\n20 FOR I%=1 TO 4\n30 PRINT RND(100000)\n40 NEXT\n50 DEF FNr=RND(6)\n";
    let plain = run(&mut debugger(src), "continue");
    assert_eq!(printed_numbers(&plain).len(), 4, "{plain}");
    // Each probe draws from RND: the program must still draw the same numbers after them.
    let probed = run(
        &mut debugger(src),
        "break 30 if RND(1)>0;display RND;continue;print RND;print RND(-3);set x=RND(6);continue;\
         reverse-step 3;step 3;delete;continue",
    );
    shows(&probed, &["Breakpoint 1, line 30:1"]);
    assert_eq!(printed_numbers(&probed), printed_numbers(&plain), "{probed}");
    // A FN's effects stand, RND's included: the program then draws on from where it left it.
    let called = run(&mut debugger(src), "break 30;continue;print FNr;delete;continue");
    assert_ne!(printed_numbers(&called), printed_numbers(&plain), "{called}");
    // Keys the program is to read are not taken; testing a key held down is no read.
    let keys = run(&mut debugger(src), "print INKEY(0);print GET;print INKEY(-256)");
    shows(
        &keys,
        &[
            "(bbc) print INKEY(0)\nerror: INKEY would take a key the program is to read: a debugger expression leaves the program as it was",
            "(bbc) print GET\nerror: GET would take",
        ],
    );
    assert!(keys.ends_with("INKEY(-256) = 165\n"), "{keys}");
    // Nor is a file opened (OPENOUT would empty it).
    let files = exec(&mut debugger(src), "print OPENOUT(\"out\")");
    assert!(
        files.starts_with("error: OPENIN, OPENOUT and OPENUP would open a file: a debugger expression"),
        "{files}"
    );
}

/// The listing panel's rows, and which of them are highlighted as the current statement.
fn source_panel(d: &mut BbcDebugger, rows: usize) -> Vec<(String, bool)> {
    let panel = d
        .panel(retro_machine::debug::PanelKind::Source, rows)
        .expect("the BBC debugger has a listing panel");
    panel.lines.into_iter().map(|l| (l.text, l.current)).collect()
}

#[test]
fn the_listing_panel_highlights_the_current_statement_not_its_line() {
    let mut d = debugger("10 A=1:B=2:C=3\n20 D=4\n");
    run(&mut d, "step;break 10:3");
    let rows = source_panel(&mut d, 10);
    let text: Vec<&str> = rows.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(text, ["   10 A=1:", "      B=2:", "      C=3", "   20 D=4"]);
    let current: Vec<&str> = rows.iter().filter(|r| r.1).map(|r| r.0.as_str()).collect();
    assert_eq!(current, ["      B=2:"], "only statement 2 of line 10: {rows:?}");
    let panel = d.panel(retro_machine::debug::PanelKind::Source, 10).unwrap();
    let marked: Vec<&str> = panel
        .lines
        .iter()
        .filter(|l| l.breakpoint)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(
        marked,
        ["      C=3"],
        "the breakpoint's statement alone is marked"
    );

    // Rheolism is one line of 251 bytes: the rows of the statement the pointer is on are
    // highlighted, and they are the statement `step` shows.
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../programs/rheolism/rheolism.bbc"
    ))
    .expect("Rheolism is in programs/");
    let mut d = BbcDebugger::new(&bytes, DebugOptions::default()).expect("loads");
    let t = exec(&mut d, "step 4");
    let stmt = t
        .lines()
        .next()
        .and_then(|l| l.split("  ").nth(1))
        .expect("the statement");
    let rows = source_panel(&mut d, 40);
    let current: String = rows.iter().filter(|r| r.1).map(|r| r.0.trim_start()).collect();
    assert_eq!(current, stmt, "{rows:?}");
    assert!(
        rows.iter().filter(|r| !r.1).count() > 5,
        "the rest of the line is not highlighted: {rows:?}"
    );
}

#[test]
fn the_vdu_queue_shows_pending_bytes_and_decoded_commands() {
    let mut d = debugger("10 VDU 31,3\n20 VDU 4:VDU 17,1\n");
    let t = run(&mut d, "step;info vdu 3;step 2;info vdu 2");
    shows(
        &t,
        &[
            "queue: VDU 31,3 waiting for 1 more byte(s)",
            "VDU 31,3,4: move the text cursor to (3,4)",
            "VDU 17,1: text foreground colour 1",
            "MODE 7",
        ],
    );
}

#[test]
fn list_tokens_memory_and_errors_in_commands() {
    let mut d = debugger("10 A=1\n20 B=2\n");
    let t = run(
        &mut d,
        "list;tokens 20;x 0;frobnicate;break 99;step;info frame;info foo",
    );
    shows(
        &t,
        &[
            "=>    10 A=1\n      20 B=2\n",
            "line 20 at PAGE+&",
            "&08F00 PAGE+0  0D 00 0A",
            "error: unknown command `frobnicate`",
            "error: No such line 99",
            "statements run: 1",
        ],
    );
    assert!(
        t.ends_with("(bbc) info foo\nerror: info what? locals, variables, stack, frame, vdu, error, record, breakpoints, display (not `foo`)\n"),
        "{t}"
    );
}

#[test]
fn reverse_step_and_reverse_continue_go_back_exactly() {
    let src = "10 FOR I%=1 TO 50\n20 A%=A%+I%:PRINT I%;\n30 NEXT\n";
    let mut d = debugger(src);
    let t = run(
        &mut d,
        "break 20:2;continue;continue;continue;print A%;reverse-continue;print A%;reverse-step 2;print A%;info frame",
    );
    shows(
        &t,
        &[
            "A% = 6\n(bbc) reverse-continue\nBreakpoint 1, line 20:2",
            "A% = 3\n(bbc) reverse-step 2",
            "(bbc) print A%\nA% = 1\n",
        ],
    );
}

#[test]
fn reverse_execution_keeps_the_users_assignment_and_the_program_then_prints_it() {
    let src = "10 v=0\n20 a=1\n30 b=2\n40 c=3\n50 d=4\n60 e=5\n70 PRINT v\n";
    let mut d = debugger(src);
    let t = run(
        &mut d,
        "break 20;continue;set v=5;step 5;reverse-step 2;print v;reverse-step 3;print v;continue",
    );
    assert!(
        t.contains("(bbc) reverse-step 2\nline 50:1 +"),
        "went back two statements: {t}"
    );
    shows(&t, &["(bbc) print v\nv = 5\n(bbc) reverse-step 3"]);
    // Back to the very statement the assignment was made before: it is made again.
    shows(&t, &["(bbc) reverse-step 3\nline 20:1 +"]);
    assert!(
        t.ends_with("(bbc) print v\nv = 5\n(bbc) continue\n         5\nProgram exited with status 0.\n"),
        "{t}"
    );
}

#[test]
fn a_step_into_an_error_caught_by_on_error_reports_it_and_stops_once_at_the_handler() {
    let src = "10 ON ERROR PRINT \"caught\":END\n20 A=1/0\n30 PRINT \"no\"\n";
    let mut d = debugger(src);
    let t = run(&mut d, "break 20;continue;step;continue");
    assert!(
        t.contains("(bbc) step\nProgram stopped: Division by zero (ERR=18, ERL=20, raised at 20:1 +"),
        "the step says why it is at the handler: {t}"
    );
    shows(&t, &["ON ERROR goes on here\nline 10:1 +9  ON ERROR PRINT"]);
    assert!(
        t.ends_with("(bbc) continue\ncaught\nProgram exited with status 0.\n"),
        "no second stop with the old report: {t}"
    );
}

#[test]
fn reverse_next_goes_back_over_a_proc_and_reverse_finish_to_its_call() {
    let src = "10 A=1\n20 PROCp\n30 B=2\n40 END\n50 DEF PROCp\n60 C=3\n70 ENDPROC\n";
    let mut d = debugger(src);
    let t = run(&mut d, "break 30;continue;reverse-next;print C;reverse-next");
    shows(
        &t,
        &["(bbc) reverse-next\nline 20:1 +5  PROCp\n(bbc) print C\nerror: Unknown or missing variable\n"],
    );
    assert!(t.ends_with("(bbc) reverse-next\nline 10:1 +5  A=1\n"), "{t}");
    let mut d = debugger(src);
    let t = run(&mut d, "break 70;continue;reverse-finish;reverse-finish");
    shows(&t, &["(bbc) reverse-finish\nline 20:1 +5  PROCp\n"]);
    assert!(
        t.ends_with("error: \"reverse-finish\" not meaningful in the outermost frame.\n"),
        "{t}"
    );
}

#[test]
fn run_forgets_the_assignments_of_the_run_before() {
    let mut d = debugger("10 v=0\n20 PRINT v\n");
    let t = run(&mut d, "break 20;continue;set v=7;run;continue");
    assert!(t.ends_with("         0\nProgram exited with status 0.\n"), "{t}");
}

/// The state a user sees at a stop: variables, stacks, where the pointer is, and the screen.
fn snapshot(d: &mut BbcDebugger) -> String {
    let mut s = String::new();
    for c in [
        "info variables",
        "info stack",
        "info frame",
        "info vdu 64",
        "tokens",
    ] {
        s.push_str(&exec(d, c));
    }
    s.push_str(&retro_screen::dump::text(&d.screen()));
    s
}

#[test]
fn reverse_step_n_after_step_n_gives_back_the_same_state() {
    use proptest::test_runner::{Config, TestRunner};
    // Each case restarts and replays a program: 64 cases keep this well under a second (the
    // proptest! macro would let PROPTEST_CASES=100000 override the count).
    let src = "10 MODE 9:DIM a%(3)\n20 FOR I%=0 TO 40\n30 a%(I% MOD 4)=I%:s$=s$+\"x\":VDU 31,I% MOD 20,I% MOD 10:PRINT \"*\";\n40 GOSUB 100:NEXT\n50 END\n100 REPEAT J%=J%+1:UNTIL J% MOD 3=0:RETURN\n";
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    runner
        .run(&(0u64..200, 1u64..300), |(a, n)| {
            let mut d = debugger(src);
            exec(&mut d, &format!("step {}", a.max(1)));
            let before = snapshot(&mut d);
            exec(&mut d, &format!("step {n}"));
            exec(&mut d, &format!("reverse-step {n}"));
            let after = snapshot(&mut d);
            proptest::prop_assert_eq!(before, after);
            Ok(())
        })
        .expect("reverse-step restores the state");
}

#[test]
fn reverse_step_10000_gives_back_the_colour_screen_and_state_exactly() {
    // The "at least the last 10,000 statements": a program drawing in colour (graphics
    // and text, palette changes, RND) runs 5,000 statements, then 10,000 more; going back the
    // 10,000 must give the same variables, stacks, pointer, VDU state and every pixel.
    let src = "10 MODE 9:VDU 19,3,4,0,0,0:A=RND(-42)\n\
               20 FOR I%=1 TO 4000\n\
               30 GCOL 0,I% MOD 16:MOVE I% MOD 1280,0:DRAW RND(1280),I% MOD 1024\n\
               40 COLOUR I% MOD 8:PRINT TAB(I% MOD 40,I% MOD 32);CHR$(65+I% MOD 26);\n\
               50 a$=STR$(I%):x=RND(1):NEXT\n";
    let mut d = debugger(src);
    exec(&mut d, "step 5000");
    let (state, frame) = (snapshot(&mut d), d.screen());
    let t = exec(&mut d, "step 10000");
    assert!(t.contains("line "), "still running after 15,000 statements: {t}");
    assert!(d.screen() != frame, "the 10,000 statements changed the screen");
    exec(&mut d, "reverse-step 10000");
    assert_eq!(snapshot(&mut d), state);
    let back = d.screen();
    assert!(back.palette == frame.palette, "the palette (VDU 19) is restored");
    assert!(back == frame, "every pixel and colour is restored");
    assert!(exec(&mut d, "info frame").contains("statements run: 5000"));
}

#[test]
fn a_breakpoint_on_an_empty_loops_next_stops_at_every_pass() {
    // NEXT is quickened on its second visit and then runs its passes in place; each pass must
    // still come to the debugger.
    let mut d = debugger("10 FOR I%=1 TO 3000:NEXT I%\n20 PRINT I%\n");
    let t = run(
        &mut d,
        "break 10:2;continue;continue;continue;continue;continue;print I%",
    );
    assert!(t.ends_with("(bbc) print I%\nI% = 5\n"), "{t}");
}

#[test]
fn a_fn_that_fails_in_print_leaves_the_program_as_it_was() {
    // FNe makes `a` LOCAL, changes it, then fails: the FN's frame and LOCAL must be undone, or
    // the program would go on with a=5 and a stale FN frame on its stack.
    let mut d = debugger("10 a=1\n20 PRINT a\n30 END\n40 DEF FNe\n50 LOCAL a\n60 a=5\n70 =1/0\n");
    let t = run(&mut d, "step;print FNe;print a;info stack;continue");
    shows(
        &t,
        &[
            "(bbc) print FNe\nerror: Division by zero\n",
            "(bbc) print a\na = 1\n",
        ],
    );
    assert!(!t.contains("LOCAL a"), "the FN's LOCAL is gone: {t}");
    assert!(t.ends_with("         1\nProgram exited with status 0.\n"), "{t}");
}

#[test]
fn a_fn_that_never_returns_is_stopped_not_waited_for() {
    // In a script there is no Escape; the terminal waits for the answer. Both forms: a plain
    // endless loop, and one whose ON ERROR LOCAL would catch an Escape error and loop on.
    let src = "10 a=1\n20 PRINT a\n30 END\n40 DEF FNf\n50 LOCAL a:a=7\n60 REPEAT UNTIL FALSE\n70 =1\n\
               80 DEF FNg\n90 ON ERROR LOCAL GOTO 100\n100 REPEAT UNTIL FALSE\n110 =2\n";
    let mut d = debugger(src);
    let t = run(
        &mut d,
        "step;print FNf;print FNg;set b=FNf;print a;print 6*7;continue",
    );
    assert_eq!(
        t.matches("error: Escape: a FN ran 1000000 statements").count(),
        3,
        "{t}"
    );
    shows(&t, &["(bbc) print a\na = 1\n(bbc) print 6*7\n6*7 = 42\n"]);
    assert!(t.ends_with("         1\nProgram exited with status 0.\n"), "{t}");
}

#[test]
fn a_watch_calling_an_endless_fn_uses_up_the_budget_not_for_ever() {
    // Each statement's watch ran its FN for 1,000,000 statements, and `continue`'s budget of
    // 100,000,000 counted only the program's: the script ran for days. The FNs' statements are
    // charged to the budget, so it runs out after about 100 of them.
    let src = "10 REPEAT\n20 UNTIL FALSE\n50 DEF FNf\n60 REPEAT UNTIL FALSE\n70 =1\n";
    let mut d = debugger(src);
    let started = std::time::Instant::now();
    let t = run(&mut d, "watch FNf;continue;info frame");
    shows(&t, &["(bbc) continue\nStopped: the step budget ran out.\n"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{t}");
    // A FN that a command ran while the program was stopped is not charged to the next run.
    let t = run(&mut d, "delete;print FNf;step");
    assert!(
        t.ends_with("(bbc) step\nline 20:1 +5  UNTIL FALSE\n")
            || t.ends_with("(bbc) step\nline 10:1 +5  REPEAT\n"),
        "{t}"
    );
}

#[test]
fn a_frame_with_an_endless_fn_in_a_watch_ends_so_escape_is_seen() {
    // The terminal runs a frame of virtual time between looks at the keyboard; the watch's FN
    // does not move virtual time, so a frame never ended and Escape was never read.
    let src = "10 REPEAT\n20 UNTIL FALSE\n50 DEF FNf\n60 REPEAT UNTIL FALSE\n70 =1\n";
    let mut d = debugger(src);
    exec(&mut d, "watch FNf");
    let started = std::time::Instant::now();
    assert_eq!(
        Debuggable::run(&mut d, retro_machine::debug::RunLimit::FRAMES),
        retro_machine::debug::StopReason::Limit
    );
    assert!(d.under_way());
    assert_eq!(d.resume(), retro_machine::debug::StopReason::Limit);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn going_back_past_the_start_says_so_once() {
    // Landing on statement 0 lost the HistoryStart note (the start's own reason won), so
    // `reverse-step 5` from statement 2 said nothing, and the next `reverse-step 1`, which
    // stays inside the history, said "No more reverse-execution history".
    let mut d = debugger("10 A=1\n20 A=2\n30 A=3\n");
    let t = run(
        &mut d,
        "step 2;reverse-step 5;step 2;reverse-step 1;reverse-continue",
    );
    assert_eq!(
        t,
        "(bbc) step 2\nline 30:1 +5  A=3\n\
         (bbc) reverse-step 5\nNo more reverse-execution history.\nline 10:1 +5  A=1\n\
         (bbc) step 2\nline 30:1 +5  A=3\n\
         (bbc) reverse-step 1\nline 20:1 +5  A=2\n\
         (bbc) reverse-continue\nNo more reverse-execution history.\nline 10:1 +5  A=1\n"
    );
}

#[test]
fn until_a_line_that_does_not_exist_is_an_error_every_time() {
    // The error came back on a second channel read with try_recv, racing the worker thread:
    // one time in three `until 9999` said "the debugger's interpreter thread has gone".
    let mut d = debugger("10 A=1\n20 A=2\n");
    for _ in 0..40 {
        assert_eq!(
            d.run_to("9999", retro_machine::debug::RunLimit::Steps(1000)),
            Err("No such line 9999".to_string())
        );
    }
    assert_eq!(exec(&mut d, "step"), "line 20:1 +5  A=2\n");
}

#[test]
fn a_condition_calling_an_endless_fn_does_not_hang_the_run() {
    let src = "10 FOR I%=1 TO 3\n20 PRINT I%\n30 NEXT\n40 END\n50 DEF FNf\n60 REPEAT UNTIL FALSE\n70 =1\n";
    let mut d = debugger(src);
    // The condition fails each time (the FN is stopped), which counts as false: the loop runs
    // through and the program ends.
    let t = run(&mut d, "break 20 if FNf;continue;print I%");
    shows(
        &t,
        &["(bbc) continue\n         1\n         2\n         3\nProgram exited with status 0.\n"],
    );
}

mod fuzz {
    //! The command language on a BBC program: any line, made of the debugger's words with
    //! random arguments or of random text, gets an answer and never a panic or a hang.
    use proptest::prelude::*;
    use retro_machine::debug::fuzz;

    const PROGRAM: &str = "10 DIM a%(3),s$(2)\n20 FOR I%=0 TO 3:a%(I%)=I%*2:NEXT\n\
        30 REPEAT J%=J%+1:PROCp(J%):UNTIL J%>2\n40 GOSUB 100:b=FNsq(3)\n50 VDU 31,1,2:PRINT b\n\
        60 END\n100 s$(1)=\"x\":RETURN\n200 DEF PROCp(n):LOCAL k:k=n:ENDPROC\n\
        210 DEF FNsq(x)=x*x\n";

    /// The machine's own words (the console's and the shared ones come from
    /// `retro_machine::debug::fuzz`).
    #[rustfmt::skip]
    const WORDS: &[&str] = &["print/x", "x/4", "x", "list", "tokens"];
    /// Its own arguments (`fuzz::BASIC_ARGS` has those every dialect tries).
    const ARGS: &[&str] = &[
        "PROCp",
        "FNsq",
        "FNsq(2)",
        "a%(1)",
        "a%()",
        "s$(1)",
        "I%",
        "J%",
        "k",
        "b",
        "a%(9)",
        "&FFFF",
        "vdu",
        "b=FNsq(4)",
        "PAGE",
        "TOP",
    ];

    proptest! {
        #[test]
        fn any_command_line_gets_an_answer_not_a_panic(lines in fuzz::basic_session(WORDS, ARGS)) {
            fuzz::run(&mut super::debugger(PROGRAM), &lines);
        }
    }
}

/// The kit's program for its scenarios ([`conformance::WATCHED`]) in BBC BASIC's words.
const WATCHED: &str =
    "10 x=0:y=0\n20 FOR i=1 TO 3\n30 x=x+i:y=y+1\n40 NEXT i\n50 DIM a(3):a(2)=7:a(2)=a(2)+1\n60 END\n";

#[test]
fn the_basic_kits_scenarios_pass() {
    conformance::Dialect {
        debugger: || debugger(WATCHED),
        shown: str::to_string,
    }
    .check_all();
}
