//! The debugger's commands on small programs.

use super::*;

fn debugger(src: &str) -> BbcDebugger {
    let program = crate::program::tokenize_program(src, crate::tokenize::Mode::Strict).expect("tokenizes");
    BbcDebugger::new(&program.to_bytes(), DebugOptions::default()).expect("loads")
}

fn run(dbg: &mut BbcDebugger, cmds: &str) -> String {
    run_script(dbg, &cmds.replace(';', "\n")).0
}

#[test]
fn step_shows_the_statement_and_the_byte() {
    let mut d = debugger("10 A=1:B=2\n20 PRINT A+B\n");
    let t = run(&mut d, "step;step;step");
    assert_eq!(
        t,
        "(bbc) step\n=> 10:2 +9  B=2\n(bbc) step\n=> 20:1 +5  PRINT A+B\n(bbc) step\n         3\nThe program ended.\n"
    );
}
