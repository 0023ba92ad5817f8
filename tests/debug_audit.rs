//! Issue 26's audit: every Z80 command word that makes sense on BASIC works on BBC BASIC and the
//! C64 with the same syntax (`ignore`, `condition`, `print/x`, `display/FMT`, `watch VAR if
//! COND`, `print X = V`, `x/N ADDR`, the listing's `=>`, `help COMMAND`). Golden transcripts
//! tests/audit/{bbc,c64}.expect of the scripts beside them (recorded by these tests with
//! UPDATE_GOLDEN=1); what each word must do is asserted here too.

use std::path::Path;

mod common;

fn transcript(program: &str, script: &str, golden: &str) -> String {
    let (out, _, code) = common::retro_text(&["debug", program, "--script", script]);
    assert_eq!(code, Some(0), "every command succeeds:\n{out}");
    common::golden(Path::new(golden), &out);
    out
}

#[test]
fn bbc_takes_the_z80_command_words() {
    let out = transcript(
        "tests/memfile/blk.bbc",
        "tests/audit/bbc.script",
        "tests/audit/bbc.expect",
    );
    // ignore 1 3: the loop's fourth pass (i% = 3) stops; condition stops at i% = 8.
    assert!(out.contains("(bbc) print i%\ni% = 3\n"), "{out}");
    assert!(out.contains("(bbc) print i%\ni% = 8\n"), "{out}");
    assert!(out.contains("(bbc) display/x i%\n1: i% = &8\n"), "{out}");
    // watch s% if s%>20: 0, 3, 9 and 18 pass; 30 stops.
    assert!(
        out.contains("Watchpoint 2: s%\nOld value = 18\nNew value = 30\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "(bbc) p s% = 100\ns% = 100\n(bbc) print s%\ns% = 100\n(bbc) print (s%=100)\n(s%=100) = -1\n"
        ),
        "{out}"
    );
    assert!(out.contains("=>    40 FOR i%=0 TO 9"), "{out}");
    assert!(
        out.contains("(bbc) help ignore\nignore N COUNT: breakpoint N passes its next COUNT hits."),
        "{out}"
    );
    // The user's assignment is not a change the watch reports (its next change, 100 to 115,
    // would be); without it, the program sums on from 100: 100 + 15 + 18 + 21 + 24 + 27.
    assert!(
        out.ends_with("(bbc) continue\n       205\nProgram exited with status 0.\n"),
        "{out}"
    );
}

#[test]
fn c64_takes_the_z80_command_words() {
    let out = transcript(
        "tests/c64dbg/loops.bas",
        "tests/audit/c64.script",
        "tests/audit/c64.expect",
    );
    // ignore 1 2: the third pass (J = 3) stops; condition stops when I = 2.
    assert!(
        out.contains("(c64) print j\nj = 3\n(c64) print/x s\ns = $3\n"),
        "{out}"
    );
    assert!(out.contains("(c64) print i\ni = 2\n"), "{out}");
    assert!(out.contains("(c64) display/x s\n1: s = $"), "{out}");
    // watch t if t>5: T=T+1 (1) passes, T=T*10 (10) stops.
    assert!(
        out.contains("Watchpoint 2: T\nOld value = 1\nNew value = 10\n"),
        "{out}"
    );
    assert!(
        out.contains("(c64) p s = 7\ns = 7\n(c64) print s\ns = 7\n(c64) print (s=7)\n(s=7) = -1\n"),
        "{out}"
    );
    assert!(out.contains("=> 200 T=T*10:RETURN"), "{out}");
    assert!(
        out.contains("(c64) help condition\ncondition N [EXPR]: gives breakpoint N a condition"),
        "{out}"
    );
    assert!(out.contains("S= 7 \n"), "the program prints the user's 7: {out}");
}
