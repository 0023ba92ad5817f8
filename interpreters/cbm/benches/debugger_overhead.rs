//! What the C64 debugger costs (issue #19): the Rugg/Feldman benchmarks BM1-BM8
//! (tests/rugg/bmN.bas, scaled to ITERATIONS) run by the machine alone and under the debugger
//! with a breakpoint on a line that is never reached, so every statement passes the debugger's
//! checks (and its checkpoints for reverse execution) and none stops. The issue asks for at
//! least 50% of the speed.
//!
//! Then what a watch costs (BM7 with no watch, a variable's, an array element's and an
//! expression's), and what a step in the terminal UI waits for: one `step` of a busy program plus
//! everything a redraw asks the machine for (every panel, where it is, the screen), best and worst
//! of many. The harness, shared with retro-bbc's bench, is retro_machine::debug_bench.
//!
//! `cargo bench -p retro-cbm --bench debugger_overhead [-- ITERATIONS]` (default 200,000).
//! Times are wall-clock, best of three runs; on a busy machine the ratio is the figure to read.

use std::path::Path;
use std::time::Instant;

use retro_cbm::Program;
use retro_cbm::debug::{CbmDebugger, DebugOptions};
use retro_cbm::interp::{InputSource, Stop};
use retro_cbm::machine::{CbmMachine, Options};
use retro_machine::debug::{Debuggable, RunLimit, StopReason};
use retro_machine::debug_bench::{iterations, rugg_overhead, rugg_source, step_latency};

const RUNS: usize = 3;

fn rugg_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rugg")
}

/// BM7 under the debugger with one watch that stops it once, when the variable or array is made
/// (Z, which line 405 sets once, and M(0), which the loop never writes), statements run per
/// second.
fn watched(p: &Program, watch: Option<&str>) -> f64 {
    (0..RUNS)
        .map(|_| {
            let mut d = CbmDebugger::new(p, DebugOptions::default()).expect("loads");
            d.break_at("900", None, false).expect("line 900");
            let mut stops = 0;
            if let Some(w) = watch {
                retro_machine::debug::Console::new().execute(&mut d, &format!("watch {w}"));
            }
            let t = Instant::now();
            loop {
                match d.run(RunLimit::Steps(u64::MAX / 4)) {
                    StopReason::Exited(0) => break,
                    StopReason::Watchpoint(..) => stops += 1,
                    other => panic!("{other:?}"),
                }
            }
            assert!(stops <= 1, "the watch stops only when Z or M(0) is made");
            d.count() as f64 / t.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

fn main() {
    let iterations = iterations();
    rugg_overhead(
        "C64",
        &rugg_dir(),
        iterations,
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

    // What a watch costs: BM7 (an array written in a loop) with no watch, a simple variable's,
    // an element's (both read from memory), and an expression's (evaluated on a copy of the
    // machine at each statement, which is what an element's cost before it was read directly).
    let small = (iterations / 100).max(100);
    let text = rugg_source(&rugg_dir(), 7, small) + "405 z=0\n";
    let p = Program::from_text(&text).expect("tokenizes");
    let none = watched(&p, None);
    println!("BM7 at {small} iterations under the debugger, statements a second (best of {RUNS}):");
    for (what, w) in [
        ("no watch", None),
        ("watch Z (simple)", Some("z")),
        ("watch M(0) (element)", Some("m(0)")),
        ("watch M(0)+0 (expression)", Some("m(0)+0")),
    ] {
        let rate = if w.is_none() { none } else { watched(&p, w) };
        println!(
            "  {what:<28} {:>12.0}/s  {:>5.1}% of no watch",
            rate,
            rate / none * 100.0
        );
    }

    let busy = Program::from_text(
        "10 dim a(20):c=0\n20 for i=0 to 20:a(i)=i*i:next\n30 gosub 100:c=c+1:goto 20\n\
         100 print c;:for k=1 to 2:poke 55296+c,k:next k:x$=str$(c)+\"!\":return\n",
    )
    .expect("tokenizes");
    let mut d = CbmDebugger::new(&busy, DebugOptions::default()).expect("loads");
    step_latency("A busy loop", &mut d);
}
