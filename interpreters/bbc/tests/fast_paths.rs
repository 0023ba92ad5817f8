//! The interpreter's fast paths (quickened statements, compiled expressions) against its byte
//! path: random numeric programs, whose statements run many times so that they are quickened,
//! must print the same and end the same (the same error at the same line, or the same point of
//! the statement budget) with caching on and off. PROPTEST_CASES sets the number of cases (CI
//! uses 100000).

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};

const BUDGET: u64 = 4_000;
/// The share of generated programs (in tenths) that must tokenize and be compared (about 96%
/// do).
const FLOOR_TENTHS: usize = 8;

fn run(program: &[u8], caching: bool) -> (String, Outcome) {
    let host = ScriptHost::new(b"").with_budget(BUDGET);
    let mut it = Interp::with_memory(program, Box::new(host), 0x10000).expect("program loads");
    it.set_caching(caching);
    let outcome = it.run();
    let mut out = String::new();
    it.vdu.take_text(&mut out);
    (out, outcome)
}

/// Numeric expressions over every operator and function the compiled form handles, with the
/// values that make them fail or change type: overflow, division by zero, huge floats, bad
/// subscripts, logs of negatives.
fn expr() -> impl Strategy<Value = String> {
    let safe = prop::sample::select(vec![
        "0",
        "1",
        "2",
        "7",
        "-3",
        "255",
        "0.5",
        "1.5",
        "-2.25",
        "A",
        "B",
        "C",
        "A%",
        "B%",
        "C%",
        "I%",
        "K",
        "Z%",
        "TRUE",
        "FALSE",
        "PI",
        "F%(2)",
        "G(1)",
        "F%(I% MOD 5)",
        "G(A% AND 3)",
        // S$ changes as the program runs; E$ stays empty (ASC gives -1).
        "LEN(S$)",
        "LEN S$",
        "ASC(S$)",
        "ASC( E$ )",
        "LEN E$",
    ]);
    let edgy = prop::sample::select(vec![
        "2147483647",
        "&7FFFFFFF",
        "&80000000",
        "1E10",
        "1E300",
        "3E-5",
    ]);
    // FN calls: pure, with side effects (on A and a second level of calls), and failing.
    let call = prop::sample::select(vec!["FNf(I%)", "FNg(B%)", "FNh(C%)", "FNf(FNg(1))"]);
    let leaf = prop_oneof![8 => safe, 1 => edgy, 1 => call].prop_map(str::to_string);
    leaf.prop_recursive(4, 24, 2, |inner| {
        let binop = prop::sample::select(vec![
            "+", "-", "*", "/", " DIV ", " MOD ", " AND ", " OR ", " EOR ", "^", "=", "<>", "<", ">", "<=",
            ">=", "<<", ">>", ">>>",
        ]);
        let func = prop::sample::select(vec![
            "-", "NOT ", "ABS", "SGN", "INT", "SQR", "LN", "LOG", "EXP", "SIN", "COS", "TAN", "ATN",
        ]);
        prop_oneof![
            3 => (inner.clone(), binop, inner.clone()).prop_map(|(a, o, b)| format!("{a}{o}{b}")),
            1 => (func, inner.clone()).prop_map(|(f, a)| format!("{f}({a})")),
            1 => inner.clone().prop_map(|a| format!("({a})")),
            1 => inner.clone().prop_map(|a| format!("F%(({a}) AND 3)")),
            1 => inner.prop_map(|a| format!("G(({a}) AND 3)")),
        ]
    })
}

/// Statements the fast paths quicken, and a few around them.
fn statement() -> impl Strategy<Value = String> {
    let target = prop::sample::select(vec![
        "A",
        "B",
        "C",
        "A%",
        "B%",
        "C%",
        "K",
        "F%(1)",
        "G(2)",
        "F%(I% MOD 6)",
        "G(C% AND 7)",
    ]);
    let op = prop::sample::select(vec!["=", "=", "=", "+=", "-=", "*=", "/="]);
    prop_oneof![
        6 => (target, op, expr()).prop_map(|(t, o, e)| format!("{t}{o}{e}")),
        2 => (expr(), expr(), expr()).prop_map(|(c, a, b)| format!("IF {c} THEN A={a} ELSE B%={b}")),
        1 => (expr(), expr()).prop_map(|(c, a)| format!("IF {c} C={a}")),
        1 => expr().prop_map(|e| format!("PRINT {e}")),
        1 => Just("GOSUB 1000".to_string()),
        1 => Just("S$=MID$(S$+CHR$(65+C% MOD 26),2,A% MOD 9)".to_string()),
    ]
}

/// A program: variables set up, then random statements inside nested loops of every kind, each
/// line printing the variables so that any difference shows.
fn program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(statement(), 1..6),
        prop::collection::vec(statement(), 0..4),
        expr(),
        0..10u8,
    )
        .prop_map(|(body, inner, cond, shape)| {
            let body = body.join(":");
            let inner = if inner.is_empty() {
                "C%=C%+1".to_string()
            } else {
                inner.join(":")
            };
            let mut p = String::from(
                "10 DIM F%(5),G(5):A=1.5:B=-2:C=0:A%=3:B%=7:C%=0:K=0.25:Z%=-5:F%(2)=9:G(1)=0.1:S$=\"xyz\":E$=\"\"\n",
            );
            match shape {
                0 => p += &format!("20 FOR I%=1 TO 5\n30 {body}\n40 NEXT I%\n"),
                1 => p += &format!("20 I%=0:REPEAT I%+=1\n30 {body}\n40 UNTIL I%>=5 OR ({cond})\n"),
                2 => p += &format!("20 FOR I%=5 TO 1 STEP -2:FOR J=0 TO 1 STEP 0.5:FOR Z%=J TO I%:{body}:NEXT:NEXT:NEXT\n"),
                3 => {
                    p += &format!("20 FOR I%=1 TO 4:{body}:IF I% MOD 2 THEN {inner} ELSE {inner}\n30 NEXT\n")
                }
                4 => {
                    p += &format!(
                        "20 I%=0:WHILE I%<5:I%+=1:{body}\n30 WHILE {cond}:{inner}:ENDWHILE:ENDWHILE\n"
                    )
                }
                5 => p += &format!("20 FOR I%=1 TO 3:Z%=0:WHILE Z%<I%:Z%+=1:{body}:ENDWHILE:NEXT\n"),
                6 => {
                    p += &format!(
                        "20 I%=0\n30 I%+=1:{body}:IF I%<5 THEN 30 ELSE 40\n40 IF {cond} GOTO 45\n45 {inner}\n"
                    )
                }
                7 => {
                    p += &format!(
                        "20 I%=0\n25 I%+=1:{body}\n27 IF I%>=4 THEN GOTO 40\n30 GOTO 25\n40 {inner}\n"
                    )
                }
                8 => p += &format!("20 FOR I%=1 TO 3:FOR K={cond} TO I%*2 STEP 0.75:{body}:NEXT:NEXT\n"),
                // Empty loops (run in place by NEXT), long enough to meet the statement budget.
                _ => {
                    p += &format!(
                        "20 FOR I%=1 TO 3:{body}:FOR K={cond} TO I%*9 STEP 0.25:NEXT:FOR Z%=I% TO 700\n30 NEXT Z%\n"
                    )
                }
            }
            p += "50 PRINT A;B;C;A%;B%;C%;K;F%(1);F%(2);G(1);G(2);S$\n60 END\n";
            p += &format!("1000 {inner}:RETURN\n");
            p += "2000 DEF FNf(x)=x*2+A\n2010 DEF FNg(x):A=A+1:=x-A+FNf(0)\n2020 DEF FNh(x)=10 DIV (x MOD 3)\n";
            p
        })
}

#[test]
fn fast_paths_match_the_byte_path() {
    // The proptest! macro's configuration (PROPTEST_CASES, this file's regressions), through a
    // runner of our own so the cases actually compared can be counted.
    let config = Config {
        source_file: Some(file!()),
        ..Config::default()
    };
    let cases = config.cases as usize;
    let compared = Cell::new(0usize);
    TestRunner::new(config)
        .run(&program(), |src| {
            let prog = match tokenize_program(&src, Mode::Strict) {
                Ok(p) => p.to_bytes(),
                Err(_) => return Ok(()),
            };
            let fast = run(&prog, true);
            let slow = run(&prog, false);
            prop_assert_eq!(&fast.0, &slow.0, "output differs for\n{}", src);
            prop_assert_eq!(&fast.1, &slow.1, "outcome differs for\n{}", src);
            compared.set(compared.get() + 1);
            Ok(())
        })
        .unwrap();
    // A generator whose programs stopped tokenizing would pass while comparing nothing.
    assert!(
        compared.get() * 10 >= cases * FLOOR_TENTHS,
        "only {} of {cases} generated programs tokenized and were compared",
        compared.get()
    );
}

/// Without any random input: programs whose fast paths must give up part way, checked exactly.
#[test]
fn fast_paths_give_way_to_the_byte_path_where_they_must() {
    let cases = [
        // Integer overflow turns the variable's value into a float mid-loop (A is a float).
        "10 A%=2147483640:FOR I%=1 TO 5:A=A%+I%*2:PRINT A:NEXT\n",
        // The assignment target's subscript goes out of range on the fourth pass.
        "10 DIM F%(3):FOR I%=0 TO 5:F%(I%)=I%*2:NEXT\n",
        // Division by zero on the third pass of a quickened IF.
        "10 FOR I%=3 TO 0 STEP -1:IF 6 DIV (I%-1) THEN PRINT I%\n20 NEXT\n",
        // `variable op constant` (evaluated in place): an integer sum overflowing into a float
        // (then too big for A%), a float product overflowing, every comparison both ways.
        "10 A%=2147483630:FOR I%=1 TO 9:B=A%+7:A%=A%+3:PRINT B;A%:NEXT\n",
        "10 X=1E300:FOR I%=1 TO 4:X=X*10:PRINT X:NEXT\n",
        "10 FOR I=1 TO 4:FOR J%=1 TO 3:PRINT I=2;I<2;I>2;I<=2;I>=2;I<>2;J%=2;J%<2;J%>2;J%<=2;J%>=2;J%<>2;I-0.5;J%-1;J%*-3;I*2:NEXT:NEXT\n",
        // A float too big for an integer variable.
        "10 X=1:FOR I%=1 TO 40:X=X*10:B%=X:NEXT\n",
        // UNTIL reached with a FOR open inside the REPEAT: the byte path finds the REPEAT.
        "10 N%=0:REPEAT:FOR I%=1 TO 2:N%+=1:UNTIL N%>5:PRINT N%\n",
        // LEN and ASC of a string variable that a FN called later in the loop removes (CLEAR).
        "10 A$=\"ab\":FOR I%=1 TO 4:PRINT LEN(A$)+ASC A$;:IF I%=3 THEN X=FNc\n20 NEXT:END\n30 DEF FNc:CLEAR:=0\n",
    ];
    for src in cases {
        let prog = tokenize_program(src, Mode::Strict).expect("tokenizes").to_bytes();
        assert_eq!(run(&prog, true), run(&prog, false), "{src}");
    }
}

/// Runs `src` with caching on or off under a statement budget: what it printed, how it ended,
/// and the loop variables where it stopped.
fn run_loops(src: &str, caching: bool, budget: u64) -> (String, Outcome, [Option<String>; 3]) {
    let prog = tokenize_program(src, Mode::Strict).expect("tokenizes").to_bytes();
    let host = ScriptHost::new(b"").with_budget(budget);
    let mut it = Interp::with_memory(&prog, Box::new(host), 0x10000).expect("program loads");
    it.set_caching(caching);
    let outcome = it.run();
    let mut out = String::new();
    it.vdu.take_text(&mut out);
    let vars = ["I%", "I", "A%"].map(|v| it.variable(v).map(|x| format!("{x:?}")));
    (out, outcome, vars)
}

/// Empty FOR loops, which a quickened NEXT runs round without going back to the statement
/// loop, count their statements exactly as the byte path does: TIME after each loop, and the
/// control variable where a statement budget stops a loop part way, are the same with caching
/// on and off (budgets from one short of a tick to many ticks).
#[test]
fn empty_loops_count_their_statements_like_the_byte_path() {
    let loops = [
        "FOR I%=1 TO 30000:NEXT",
        "FOR I=1 TO 30000:NEXT I",
        "FOR I=10 TO -9000 STEP -0.75:NEXT",
        "FOR I%=5 TO 5:NEXT:FOR I%=9 TO 1:NEXT",
        "FOR A%=2147000000 TO 2147483647 STEP 99:NEXT",
        "FOR A%=1 TO 3000 STEP 3: NEXT A%",
        "FOR I%=1 TO 9:FOR I=1 TO 999:NEXT:NEXT",
    ];
    for l in loops {
        let src = format!("10 PRINT TIME\n20 {l}\n30 PRINT TIME\n40 {l}\n50 PRINT TIME\n");
        for budget in [999, 1000, 1001, 2500, 7000, 30001, 61000, 200_000] {
            assert_eq!(
                run_loops(&src, true, budget),
                run_loops(&src, false, budget),
                "{src} budget {budget}"
            );
        }
    }
}

/// Loops of quickened statements, which run one after another without going back to the
/// statement loop and land past the spaces that start a line they jump to, count their
/// statements exactly as the byte path does: TIME, and the variables where a statement budget
/// stops the loop part way, are the same with caching on and off (lines with spaces at their
/// start and after colons, jumps by IF, GOTO and GOSUB, budgets around and across ticks).
#[test]
fn chained_statements_count_like_the_byte_path() {
    let loops = [
        "10 PRINT TIME:I=0\n20   I=I+1\n30  IF I<3000 THEN 20\n40 PRINT TIME;I\n",
        "10 PRINT TIME:I%=0\n20 I%=I%+1:  A%=I%*3-1 :   I=A%/2\n30 IF I%<2500 GOTO   20 ELSE PRINT TIME;I\n",
        "10 PRINT TIME:I=0:DIM M(5)\n20  I=I+1\n30  GOSUB 100\n40  FOR A%=1 TO 5:  M(A%)=I: NEXT A%\n50  IF I<900 THEN 20\n60 PRINT TIME;M(5)\n70 END\n100    RETURN\n",
        "10 PRINT TIME:I%=0\n20 REPEAT:  I%=I%+1: I=I%^2:  UNTIL I%>=4000\n30 PRINT TIME;I\n",
        "10 PRINT TIME:I%=0:A%=0\n20 WHILE I%<3000:  I%+=1:   A%=A%+I% MOD 7 : ENDWHILE\n30 PRINT TIME;A%\n",
        "10 PRINT TIME:I=0\n20    GOTO 40\n30 END\n40  I=I+0.5: IF I<2000 THEN 20 ELSE    30\n",
    ];
    for src in loops {
        for budget in [999, 1000, 1001, 1999, 2500, 7000, 10001, 30001, 200_000] {
            assert_eq!(
                run_loops(src, true, budget),
                run_loops(src, false, budget),
                "{src} budget {budget}"
            );
        }
    }
}

/// TRACE shows a line entered by a quickened jump (IF ... THEN line, GOTO, GOSUB) to a line
/// whose text starts with spaces, as the byte path does: the jump lands at the line's start
/// while tracing.
#[test]
fn trace_sees_lines_entered_by_quickened_jumps() {
    let src = "10 TRACE ON:I=0\n20   I=I+1\n30  IF I<4 THEN 20\n40 GOSUB 60:IF I<6 GOTO   20\n50 TRACE OFF:END\n60    I=I+0.5:RETURN\n";
    let fast = run_loops(src, true, 100_000);
    assert_eq!(fast, run_loops(src, false, 100_000));
    assert!(fast.0.contains("[20] [30] [20] [30]"), "{}", fast.0);
    // RETURN goes back into line 40, which is not entered again.
    assert!(fast.0.contains("[40] [60] [20]"), "{}", fast.0);
}
