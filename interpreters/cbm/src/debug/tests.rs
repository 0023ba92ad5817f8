//! The C64 debugger on small programs, through the console as `--script` drives it, and going
//! back in time.

use proptest::test_runner::{Config, TestRunner};
use retro_machine::debug::basic::conformance::{self, shows};
use retro_machine::debug::{Console, Debuggable, RunLimit, StepKind, StopReason};

use super::{CbmDebugger, DebugOptions, views};
use crate::Program;

fn debugger(source: &str) -> CbmDebugger {
    let p = Program::from_text(source).unwrap();
    CbmDebugger::new(&p, DebugOptions::default()).unwrap()
}

fn script(source: &str, commands: &str) -> String {
    let mut d = debugger(source);
    let (out, _) = Console::new().run_script(&mut d, commands);
    out
}

/// Variables, arrays, stack (as the views show them, bytes included), TXTPTR, CURLIN, the screen
/// and colour RAM.
type State = (Vec<String>, Vec<String>, Vec<String>, usize, Option<u16>, Vec<u8>);

/// What reverse execution must give back.
fn state(d: &CbmDebugger) -> State {
    let it = d.it();
    let mut screen = it.mem[0x400..0x400 + 1000].to_vec();
    screen.extend_from_slice(&it.mem[0xD800..0xD800 + 1000]);
    (
        views::variable_lines(it),
        views::array_lines(it, 1000),
        views::stack_lines(it),
        it.txtptr(),
        it.current_line(),
        screen,
    )
}

const BUSY: &str = "10 dim a(20):c=0\n20 for i=0 to 20:a(i)=i*i:next\n\
30 gosub 100:c=c+1:if c<400 then 20\n40 end\n\
100 print c;:for k=1 to 2:poke 55296+c,k:next k:x$=str$(c)+\"!\":return\n";

#[test]
fn step_goes_one_statement_at_a_time() {
    let t = script("10 a=1:b=2\n20 print a+b\n", "step\nstep\nstep\ncontinue\n");
    assert_eq!(
        t,
        "(c64) step\nline 10:2 $0809  B=2\n(c64) step\nline 20:1 $0811  PRINT A+B\n\
         (c64) step\n 3 \nat the end of the program  \n(c64) continue\n\nREADY.\nProgram exited with status 0.\n"
    );
}

#[test]
fn next_i_j_ends_two_loops_in_one_statement() {
    let src = "10 for i=1 to 2:for j=1 to 2\n20 n=n+1:next j,i\n30 print n\n";
    let t = script(src, "break 30\ncontinue\nprint n\ninfo stack\n");
    shows(&t, &["Breakpoint 1, line 30:1", "n = 4\n", "0 frame(s), 0 bytes"]);
    // Inside, both FOR frames are on the stack, J on top.
    let t = script(src, "break 20:2\ncontinue\ninfo stack\n");
    shows(&t, &["#0 FOR J TO 2 STEP 1", "#1 FOR I TO 2 STEP 1"]);
}

#[test]
fn next_runs_a_gosub_and_finish_runs_to_its_return() {
    let src = "10 gosub 100:print \"back\"\n20 end\n100 a=1\n110 gosub 200:return\n200 a=a*5:return\n";
    let t = script(src, "next\nprint a\n");
    shows(&t, &["(c64) next\nline 10:2", "a = 5"]);
    let t = script(
        src,
        "step\nstep\nbacktrace\nstep\nstep\nbacktrace\nfinish\nbacktrace\nfinish\n",
    );
    shows(
        &t,
        &[
            "(c64) step\nline 100:1 $",
            "#1 GOSUB returns to line 10:1",
            "(c64) step\nline 200:1",
            "#2 GOSUB returns to line 10:1",
        ],
    );
    // finish from 200 stops after its RETURN: the RETURN at 110:2.
    shows(&t, &["(c64) finish\nline 110:2", "(c64) finish\nline 10:2"]);
}

#[test]
fn errors_stop_with_the_roms_words_and_where() {
    let t = script("10 a=1\n20 b=a/0\n", "continue\nbacktrace\n");
    shows(
        &t,
        &[
            "?DIVISION BY ZERO  ERROR IN 20\nREADY.\nProgram stopped: ?DIVISION BY ZERO  ERROR IN 20 (raised at $",
            "line 20:1 $080D (stopped here)  B=A/0\n",
        ],
    );
}

#[test]
fn print_has_no_side_effect_and_set_assigns() {
    let mut d = debugger("10 a=2:b$=\"x\"\n20 print a;b$\n");
    d.step(StepKind::Into, RunLimit::Steps(1));
    d.step(StepKind::Into, RunLimit::Steps(1));
    let before = state(&d);
    let seed_before = d.it().snapshot();
    // Creating a variable, RND and string garbage leave nothing behind.
    assert_eq!(d.evaluate("a*3+len(b$+\"yz\")+nosuch").unwrap(), "9");
    assert!(d.evaluate("rnd(1)").is_ok());
    assert!(state(&d) == before);
    assert_eq!(seed_before.mem(), d.it().snapshot().mem());
    assert_eq!(d.evaluate("1+").unwrap_err(), "?SYNTAX  ERROR");
    assert_eq!(d.evaluate("a$+1").unwrap_err(), "?TYPE MISMATCH  ERROR");
    let t = Console::new()
        .run_script(&mut d, "set a=a+40\nset b$=\"new\"\nset 5=1\ncontinue\n")
        .0;
    shows(&t, &["error: ?SYNTAX  ERROR", " 42 NEW\n"]);
}

#[test]
fn watch_stops_when_a_variable_appears_and_changes() {
    let t = script(
        "10 x=0:y=1\n20 x=x+1:goto 20\n",
        "watch x\ncontinue\ncontinue\ncontinue\n",
    );
    shows(
        &t,
        &[
            "Watchpoint 1: X (now (no such variable))",
            "Old value = (no such variable)\nNew value = 0\nline 10:2",
            "Old value = 0\nNew value = 1\nline 20:2",
            "Old value = 1\nNew value = 2\n",
        ],
    );
}

#[test]
fn tbreak_disable_enable_and_until() {
    let src = "10 for i=1 to 5\n20 print i;\n30 next\n40 print \"done\"\n";
    let t = script(
        src,
        "tbreak 20\ncontinue\nbreak 30\ndisable 2\nuntil 40\nenable 2\nrun\ninfo breakpoints\n",
    );
    shows(
        &t,
        &[
            "Temporary breakpoint 1 at 20:1",
            "(c64) continue\nBreakpoint 1, line 20:1",
            "(c64) until 40\n 1  2  3  4  5 \nline 40:1",
        ],
    );
    // The temporary breakpoint went at its hit; the other counts its hits.
    assert!(t.ends_with("(c64) info breakpoints\nNum  Type             Enb  Hits  What\n2    breakpoint       y    1     30:1 $081C NEXT\n"), "{t}");
    shows(&t, &["(c64) run\n 1 \nBreakpoint 2, line 30:1"]);
}

#[test]
fn reverse_step_over_ten_thousand_statements_restores_everything() {
    let mut d = debugger(BUSY);
    let mut at_2000 = None;
    for _ in 0..12_000 {
        assert_eq!(d.step(StepKind::Into, RunLimit::Steps(1)), StopReason::Done);
        if d.count() == 2_000 {
            at_2000 = Some(state(&d));
        }
    }
    assert!(d.count() == 12_000);
    let end = state(&d);
    assert_eq!(d.reverse_step(10_000), Ok(StopReason::Done));
    assert_eq!(d.count(), 2_000);
    assert!(Some(state(&d)) == at_2000, "the state 10,000 statements back");
    // And forward again to the same place.
    for _ in 0..10_000 {
        d.step(StepKind::Into, RunLimit::Steps(1));
    }
    assert!(state(&d) == end, "the state forward again");
    assert_eq!(d.reverse_step(20_000), Ok(StopReason::HistoryStart));
    assert_eq!(d.count(), 0);
}

#[test]
fn reverse_continue_goes_back_to_the_last_breakpoint() {
    let mut d = debugger(BUSY);
    let t = Console::new()
        .run_script(&mut d, "break 100\ncontinue\ncontinue\nprint c\nnext\nnext\nreverse-continue\nprint c\nreverse-continue\nprint c\n")
        .0;
    // Back to the hit where C was 1, then to the one where it was 0.
    shows(
        &t,
        &[
            "(c64) reverse-continue\nBreakpoint 1, line 100:1 $0852\nline 100:1 $0852  PRINT C;\n(c64) print c\nc = 1\n(c64) reverse-continue\nBreakpoint 1, line 100:1 $0852\nline 100:1 $0852  PRINT C;\n(c64) print c\nc = 0\n",
        ],
    );
}

#[test]
fn reverse_step_after_step_gives_the_same_state() {
    // Each case steps up to 3,000 statements of a busy program and back (tens of ms), so 24
    // cases rather than CI's 100,000.
    let mut runner = TestRunner::new(Config {
        cases: 24,
        ..Config::default()
    });
    runner
        .run(&(0u64..2_000, 1u64..3_000), |(skip, n)| {
            let mut d = debugger(BUSY);
            for _ in 0..skip {
                d.step(StepKind::Into, RunLimit::Steps(1));
            }
            let before = state(&d);
            for _ in 0..n {
                d.step(StepKind::Into, RunLimit::Steps(1));
            }
            assert_eq!(d.reverse_step(n), Ok(StopReason::Done));
            assert_eq!(d.count(), skip);
            assert!(state(&d) == before, "the state after {skip} statements");
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_scripted_run_stop_breaks_and_continue_goes_on() {
    let p = Program::from_text("10 n=n+1:goto 10\n").unwrap();
    let keys = retro_machine::script::parse("+500 ESCAPE").unwrap().events;
    let mut d = CbmDebugger::new(
        &p,
        DebugOptions {
            keys,
            ..DebugOptions::default()
        },
    )
    .unwrap();
    let t = Console::new()
        .run_script(&mut d, "continue\nprint n>1000\ncontinue 10\n")
        .0;
    assert!(
        t.starts_with("(c64) continue\nProgram stopped: BREAK IN 10\n"),
        "{t}"
    );
    shows(&t, &["n>1000 = -1\n"]);
    // CONT's way: the program goes on.
    shows(&t, &["(c64) continue 10\nStopped: the step budget ran out.\n"]);
}

#[test]
fn in_the_terminal_next_runs_a_long_gosub_frame_by_frame() {
    let mut d = debugger("10 gosub 100:print \"back\"\n20 end\n100 for i=1 to 50000:next:return\n");
    // One jiffy is 20,000 statements: the GOSUB takes three.
    let mut stop = d.step(StepKind::Over, RunLimit::FRAMES);
    let mut frames = 1;
    while stop == StopReason::Limit && d.under_way() {
        stop = d.resume();
        frames += 1;
    }
    assert_eq!(stop, StopReason::Done);
    // 50,000 NEXTs at 20,000 statements a jiffy.
    assert_eq!(frames, 3);
    assert_eq!(d.here().location, "10:2");
    // Interrupted, the program stays where the last frame left it.
    let mut d = debugger("10 gosub 100:print \"back\"\n20 end\n100 for i=1 to 50000:next:return\n");
    assert_eq!(d.step(StepKind::Over, RunLimit::FRAMES), StopReason::Limit);
    d.interrupt();
    assert!(!d.under_way());
    assert_eq!(d.here().location, "100:2");
}

mod fuzz {
    //! The command language on a C64 program: any line, made of the debugger's words with
    //! random arguments or of random text, gets an answer and never a panic or a hang.
    use proptest::prelude::*;
    use retro_machine::debug::fuzz;

    const PROGRAM: &str = "10 dim a(3),s$(2):def fna(x)=x*x\n20 for i=0 to 3:a(i)=i*2:next\n\
        30 gosub 100:b=fna(3)\n40 print b;s$(1)\n50 end\n100 s$(1)=\"x\":return\n";

    /// The machine's own words (the console's and the shared ones come from
    /// `retro_machine::debug::fuzz`).
    #[rustfmt::skip]
    const WORDS: &[&str] = &["list", "tokens", "l", "x", "x/s", "x/8", "print/x"];
    /// Its own arguments (`fuzz::BASIC_ARGS` has those every dialect tries).
    const ARGS: &[&str] = &[
        "a(1)", "a(9)", "s$(1)", "i", "b", "b%", "fna(2)", "$0801", "2049", "b=fna(4)", "s$=\"y\"",
    ];

    proptest! {
        #[test]
        fn any_command_line_gets_an_answer_not_a_panic(lines in fuzz::basic_session(WORDS, ARGS)) {
            fuzz::run(&mut super::debugger(PROGRAM), &lines);
        }
    }
}

#[test]
fn the_basic_kits_scenarios_pass() {
    // The kit's program is C64 BASIC as it stands; names show in capitals.
    conformance::Dialect {
        debugger: || debugger(conformance::WATCHED),
        shown: str::to_ascii_uppercase,
    }
    .check_all();
}

#[test]
fn reverse_continue_finds_a_watch_stop_checkpoints_back_after_the_end() {
    // Each FOR runs 30,001 statements: X changes between checkpoints far apart.
    let src = "10 for i=1 to 30000:next\n20 x=1\n30 for i=1 to 30000:next\n40 x=2\n50 end\n";
    let t = script(
        src,
        "watch x\ncontinue\ncontinue\ncontinue\nreverse-continue\nreverse-continue\n",
    );
    shows(
        &t,
        &[
            "(c64) continue\n\nREADY.\nProgram exited with status 0.\n",
            "(c64) reverse-continue\nWatchpoint 1: X\nOld value = 1\nNew value = 2\nline 50:1 $083D  END\n",
        ],
    );
    assert!(
        t.ends_with(
            "(c64) reverse-continue\nWatchpoint 1: X\nOld value = (no such variable)\nNew value = 1\nline 30:1 $0821  FOR I=1 TO 30000\n"
        ),
        "{t}"
    );
}

#[test]
fn an_element_watch_reads_the_array_in_memory_as_basic_does() {
    let element = |it, name, subs: &[usize]| views::element_place(it, name, subs).map(|p| p.value(it));
    let mut d = debugger(
        "10 dim b%(2,3),s$(2),f(4):for i=0 to 2:for j=0 to 3:b%(i,j)=i*10+j:next j,i\n\
         20 s$(1)=\"hi\":f(4)=-1.5\n30 end\n",
    );
    d.run(RunLimit::Steps(1_000));
    let it = d.it();
    for i in 0..3 {
        for j in 0..4 {
            let name = views::name_bytes("b%").unwrap();
            assert_eq!(
                element(it, name, &[i, j]),
                Some((i * 10 + j).to_string()),
                "B%({i},{j})"
            );
        }
    }
    let s = views::name_bytes("s$").unwrap();
    assert_eq!(element(it, s, &[1]).as_deref(), Some("\"HI\""));
    assert_eq!(element(it, s, &[0]).as_deref(), Some("\"\""));
    let f = views::name_bytes("f").unwrap();
    assert_eq!(element(it, f, &[4]).as_deref(), Some("-1.5"));
    // Outside the dimensions, the wrong number of subscripts, no such array: no value.
    assert_eq!(element(it, f, &[5]), None);
    assert_eq!(element(it, f, &[1, 1]), None);
    assert_eq!(element(it, views::name_bytes("g").unwrap(), &[0]), None);
    assert_eq!(
        views::element_ref(" B%( 1, 2 ) "),
        Some((views::name_bytes("b%").unwrap(), vec![1, 2]))
    );
    assert_eq!(views::element_ref("b%(i,2)"), None);
    assert_eq!(views::element_ref("b%(1)+1"), None);
}

#[test]
fn element_watches_stop_for_strings_and_integers_as_they_change() {
    let t = script(
        "10 dim s$(2),b%(1,2)\n20 s$(1)=\"ab\":b%(1,2)=-3:s$(1)=s$(1)+\"\":b%(1,2)=-3\n30 s$(1)=\"cd\":b%(0,2)=1:b%(1,2)=4\n40 end\n",
        "watch s$(1)\nwatch b%(1,2)\ncontinue\ncontinue\ncontinue\ncontinue\ncontinue\ncontinue\n",
    );
    shows(
        &t,
        &[
            "(c64) continue\nWatchpoint 1, 2: S$(1)\nOld value = (no such variable)\nNew value = \"\"\nB%(1,2)\nOld value = (no such variable)\nNew value = 0\nline 20:1",
            "Watchpoint 1: S$(1)\nOld value = \"\"\nNew value = \"AB\"\nline 20:2",
            "Watchpoint 2: B%(1,2)\nOld value = 0\nNew value = -3\nline 20:3",
        ],
    );
    // The same text copied to a new place and the same integer stored again are no change.
    shows(
        &t,
        &["Watchpoint 1: S$(1)\nOld value = \"AB\"\nNew value = \"CD\"\nline 30:2"],
    );
    // B%(0,2) is another element.
    shows(
        &t,
        &["Watchpoint 2: B%(1,2)\nOld value = -3\nNew value = 4\nline 40:1"],
    );
    assert!(t.ends_with("Program exited with status 0.\n"), "{t}");
    // Two watches set, five stops: none for line 20's last two statements.
    assert_eq!(
        t.lines().filter(|l| l.starts_with("Watchpoint ")).count(),
        7,
        "{t}"
    );
}

#[test]
fn reverse_next_goes_back_over_a_gosub_and_reverse_finish_to_it() {
    let src = "10 a=1\n20 gosub 100\n30 b=2\n40 end\n100 c=3\n110 return\n";
    let out = script(src, "break 30\ncontinue\nreverse-next\nprint c\nreverse-next\n");
    shows(&out, &["(c64) reverse-next\nline 20"]);
    assert!(
        out.contains("(c64) print c\nc = 0\n"),
        "before the GOSUB ran: {out}"
    );
    shows(&out, &["(c64) reverse-next\nline 10"]);
    let out = script(src, "break 110\ncontinue\nreverse-finish\nreverse-finish\n");
    shows(&out, &["(c64) reverse-finish\nline 20"]);
    assert!(
        out.ends_with("error: \"reverse-finish\" not meaningful in the outermost frame.\n"),
        "{out}"
    );
}

#[test]
fn the_users_set_survives_going_back_before_it_and_forward_again() {
    let src = "10 v=0\n20 gosub 100\n30 a=1\n40 print v\n50 end\n100 c=3\n110 return\n";
    let out = script(
        src,
        "break 20\ncontinue\nset v=v+5\nstep\nreverse-finish\nprint v\nreverse-step 1\nprint v\nnext\nnext\nprint v\ncontinue\n",
    );
    shows(&out, &["(c64) reverse-finish\nline 20"]);
    assert!(
        out.contains("(c64) reverse-finish\nline 20:1 $080D  GOSUB 100\n(c64) print v\nv = 5\n"),
        "made again, once: {out}"
    );
    shows(&out, &["(c64) reverse-step 1\nline 10"]);
    assert!(
        out.contains("(c64) reverse-step 1\nline 10:1 $0805  V=0\n(c64) print v\nv = 0\n"),
        "before the assignment: {out}"
    );
    shows(&out, &["(c64) print v\nv = 5\n(c64) continue\n 5 \n"]);
}

#[test]
fn the_z80s_words_print_x_and_x_n_work_here_too() {
    let out = script(
        "10 a=-1:b=255\n",
        "step\nstep\nprint/x a\nprint/x b\nprint/x 1.5\nx/8 $0801\nx $0801 8\n",
    );
    shows(
        &out,
        &[
            "(c64) print/x a\na = $FFFF\n",
            "(c64) print/x b\nb = $FF\n",
            "(c64) print/x 1.5\nerror: 1.5 is not a 16-bit whole number\n",
        ],
    );
    let (a, b) = out.split_once("(c64) x $0801 8\n").unwrap();
    assert!(a.ends_with(b), "x/8 ADDR is x ADDR 8: {out}");
}
