//! What the debugger costs (issue #19): the Rugg/Feldman benchmarks BM1-BM8
//! (interpreters/cbm/tests/rugg, the same programs the C64 interpreter is timed with, keywords in
//! capitals for BBC BASIC, scaled to ITERATIONS) run by the interpreter alone and under the
//! debugger with a breakpoint on a line that is never reached, so every statement passes the
//! debugger's checks and none stops. The issue asks for at least 50% of the speed.
//!
//! Then what a step in the terminal UI waits for: one `step` of Rheolism plus everything a
//! redraw asks the machine for (every panel, where it is, the screen), best and worst of many.
//! The harness, shared with retro-cbm's bench, is retro_machine::debug_bench.
//!
//! `cargo bench -p retro-bbc --bench debugger_overhead [-- ITERATIONS]` (default 200,000).
//! Times are wall-clock, best of three runs; on a busy machine the ratio is the figure to read.

use std::path::Path;
use std::time::Instant;

use retro_bbc::debug::{BbcDebugger, DebugOptions};
use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};
use retro_machine::debug_bench::{iterations, rugg_overhead, step_latency};

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    rugg_overhead(
        "interpreter",
        &here.join("../cbm/tests/rugg"),
        iterations(),
        |text| {
            tokenize_program(&text.to_uppercase(), Mode::Strict)
                .expect("tokenizes")
                .to_bytes()
        },
        |bytes| {
            let mut it = Interp::new(bytes, Box::new(ScriptHost::new(b""))).expect("loads");
            let t = Instant::now();
            assert_eq!(it.run(), Outcome::Ended);
            t.elapsed()
        },
        |bytes| BbcDebugger::new(bytes, DebugOptions::default()).expect("loads"),
    );

    let rheolism =
        std::fs::read(here.join("../../programs/rheolism/rheolism.bbc")).expect("programs/rheolism");
    let program = retro_bbc::read_program(&rheolism, Mode::Strict)
        .expect("loads")
        .to_bytes();
    let options = DebugOptions {
        seed: Some(13),
        ..DebugOptions::default()
    };
    let mut d = BbcDebugger::new(&program, options).expect("loads");
    step_latency("Rheolism", &mut d);
}
