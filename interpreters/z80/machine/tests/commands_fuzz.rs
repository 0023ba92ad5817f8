//! The debugger's command language is a parser users and tests feed by hand: any line, made of
//! its own words with random arguments or of random text, gets an answer (a result or an error
//! message) and never a panic.

use retro_machine::debug::fuzz;
use retro_z80_machine::debug::Z80Debugger;
use retro_z80_machine::debug::commands::Session;

const PROGRAM: &str = "        org 8000h
start:  ld hl,table
        ld b,4
loop:   ld a,(hl)
        add a,b
        ld (hl),a
        inc hl
        call sub
        djnz loop
        ret
sub:    push bc
        pop bc
        ret
table:  db 1,2,3,4
Field   equ table+1-table
";

fn debugger() -> Z80Debugger {
    let asm = retro_z80_asm::assemble_str("fuzz.asm", PROGRAM).expect("assembles");
    Z80Debugger::from_assembly(&asm)
}

/// The Z80's own words (the console's and the shared ones come from `retro_machine::debug::fuzz`).
#[rustfmt::skip]
const WORDS: &[&str] = &["rwatch", "awatch", "disassemble", "call", "trace", "grid", "frame"];
const ARGS: &[&str] = &[
    "start",
    "loop",
    "sub",
    "table",
    "fuzz.asm:4",
    "$8000",
    "0",
    "-1",
    "65536",
    "A",
    "HL",
    "(HL)",
    "byte[table]",
    "word[$8000]",
    "A == 2",
    "if",
    "registers",
    "breakpoints",
    "Z",
    "C",
    "table..table+3",
    "A=7",
    "IY=table",
    "x/4",
    "/x",
    "..",
    "((((",
    "1/0",
    "$",
    "''",
    "\"",
    "9999999999999999999",
    "3f",
    "2s",
    "20ms",
    "0s",
    "99999999999999999999s",
];

#[path = "../../../../tests/common/fuzz_cases.rs"]
mod fuzz_cases;
use fuzz_cases::{cases, run_cases};

/// Any session of up to five lines gets answers, never a panic or a hang: 2,000 cases in the
/// unoptimised suite (about 2 s), CI's 100,000 in release mode (.ci/run; about 40 s on a busy
/// machine, where the unoptimised build takes 100 s).
fn any_session(full: bool) {
    run_cases(file!(), cases(2_000, full), fuzz::session(WORDS, ARGS), |lines| {
        fuzz::run(&mut debugger(), &lines);
        Ok(())
    });
}

#[test]
fn any_command_line_gets_an_answer_not_a_panic() {
    any_session(false);
}

#[test]
#[ignore = "100,000 cases: release mode in CI (.ci/run)"]
fn any_command_line_gets_an_answer_not_a_panic_at_full_count() {
    any_session(true);
}

/// A script cannot stop a runaway count with Escape: `step 9999999999999999999` on a program that
/// never ends (a jump to itself) is refused at once rather than stepping for ever; a count within
/// the limit runs.
#[test]
fn a_huge_step_count_in_a_script_is_refused_not_run() {
    let asm =
        retro_z80_asm::assemble_str("spin.asm", "        org 8000h\nspin:   jr spin\n").expect("assembles");
    let mut s = Session::new(Z80Debugger::from_assembly(&asm));
    let refused = s.execute("step 9999999999999999999");
    assert!(
        refused.error && refused.text.contains("at most"),
        "{}",
        refused.text
    );
    assert!(!s.execute("stepi 1000").error);
    let regs = s.execute("info registers");
    assert!(regs.text.contains("PC=8000"), "{}", regs.text);
}
