//! What the C64 debugger costs (issue #19): the Rugg/Feldman benchmarks BM1-BM8
//! (tests/rugg/bmN.bas, scaled to ITERATIONS) run by the machine alone and under the debugger
//! with a breakpoint on a line that is never reached, so every statement passes the debugger's
//! checks (and its checkpoints for reverse execution) and none stops. The issue asks for at
//! least 50% of the speed.
//!
//! Then what a step in the terminal UI waits for: one `step` of a busy program plus everything a
//! redraw asks the machine for (every panel, where it is, the screen), best and worst of many.
//! The harness, shared with retro-bbc's bench, is retro_screen::debug_bench.
//!
//! `cargo bench -p retro-cbm --bench debugger_overhead [-- ITERATIONS]` (default 200,000).
//! Times are wall-clock, best of three runs; on a busy machine the ratio is the figure to read.

use std::path::Path;
use std::time::Instant;

use retro_cbm::Program;
use retro_cbm::debug::{CbmDebugger, DebugOptions};
use retro_cbm::interp::{InputSource, Stop};
use retro_cbm::machine::{CbmMachine, Options};
use retro_screen::debug_bench::{iterations, rugg_overhead, step_latency};

fn main() {
    rugg_overhead(
        "C64",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rugg"),
        iterations(),
        |text| Program::from_text(text).expect("tokenizes"),
        |p| {
            let input = InputSource::Stream(Box::new(std::io::empty()));
            let mut m = CbmMachine::new(p, input, Options::default()).expect("loads");
            let t = Instant::now();
            assert_eq!(m.run_to_end(u64::MAX), Some(Stop::End));
            t.elapsed()
        },
        |p| CbmDebugger::new(p, DebugOptions::default()).expect("loads"),
    );

    let busy = Program::from_text(
        "10 dim a(20):c=0\n20 for i=0 to 20:a(i)=i*i:next\n30 gosub 100:c=c+1:goto 20\n\
         100 print c;:for k=1 to 2:poke 55296+c,k:next k:x$=str$(c)+\"!\":return\n",
    )
    .expect("tokenizes");
    let mut d = CbmDebugger::new(&busy, DebugOptions::default()).expect("loads");
    step_latency("A busy loop", &mut d);
}
