//! What the debugger costs (issue #19): the Rugg/Feldman benchmarks BM1-BM8
//! (interpreters/cbm/tests/rugg, the same programs the C64 interpreter is timed with, keywords in
//! capitals for BBC BASIC, scaled to ITERATIONS) run by the interpreter alone and under the
//! debugger with a breakpoint on a line that is never reached, so every statement passes the
//! debugger's checks and none stops. The issue asks for at least 50% of the speed.
//!
//! Then what a step in the terminal UI waits for: one `step` of Rheolism plus everything a
//! redraw asks the machine for (every panel, where it is, the screen), best and worst of many.
//!
//! `cargo bench -p retro-bbc --bench debugger_overhead [-- ITERATIONS]` (default 200,000).
//! Times are wall-clock, best of three runs; on a busy machine the ratio is the figure to read.

use std::time::{Duration, Instant};

use retro_bbc::interp::debug::{BbcDebugger, DebugOptions};
use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};
use retro_screen::debug::{Debuggable, PanelKind, RunLimit, StepKind, StopReason};

const RUNS: usize = 3;

fn program(n: usize, iterations: u64) -> Vec<u8> {
    let path = format!("{}/../cbm/tests/rugg/bm{n}.bas", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the Rugg/Feldman programs");
    let text = text.to_uppercase().replace("1000", &iterations.to_string()) + "900 REM never reached\n";
    tokenize_program(&text, Mode::Strict)
        .expect("tokenizes")
        .to_bytes()
}

fn plain(bytes: &[u8]) -> Duration {
    (0..RUNS)
        .map(|_| {
            let mut it = Interp::new(bytes, Box::new(ScriptHost::new(b""))).expect("loads");
            let t = Instant::now();
            assert_eq!(it.run(), Outcome::Ended);
            t.elapsed()
        })
        .min()
        .unwrap()
}

fn debugged(bytes: &[u8]) -> Duration {
    (0..RUNS)
        .map(|_| {
            let mut d = BbcDebugger::new(bytes, DebugOptions::default()).expect("loads");
            d.break_at("900", None, false).expect("line 900");
            let t = Instant::now();
            let stop = d.run(RunLimit::Steps(u64::MAX / 4));
            let e = t.elapsed();
            assert_eq!(stop, StopReason::Exited(0));
            e
        })
        .min()
        .unwrap()
}

fn main() {
    let iterations: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200_000);
    println!(
        "Rugg/Feldman at {iterations} iterations: interpreter alone vs under the debugger (best of {RUNS})"
    );
    println!("{:<5} {:>10} {:>10} {:>7}", "", "alone", "debugger", "speed");
    let mut product = 1.0f64;
    let mut worst = f64::MAX;
    for n in 1..=8 {
        let bytes = program(n, iterations);
        let a = plain(&bytes);
        let b = debugged(&bytes);
        let speed = a.as_secs_f64() / b.as_secs_f64();
        product *= speed;
        worst = worst.min(speed);
        println!(
            "BM{n}   {:>9.3}s {:>9.3}s {:>6.0}%",
            a.as_secs_f64(),
            b.as_secs_f64(),
            speed * 100.0
        );
    }
    println!(
        "geometric mean {:.0}% of the speed, worst {:.0}% (the issue asks at least 50%)",
        product.powf(1.0 / 8.0) * 100.0,
        worst * 100.0
    );

    // A step in the terminal UI: the step, then what a redraw asks for.
    let rheolism = std::fs::read(format!(
        "{}/../../programs/rheolism/rheolism.bbc",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("programs/rheolism");
    let program = retro_bbc::read_program(&rheolism, Mode::Strict)
        .expect("loads")
        .to_bytes();
    let mut d = BbcDebugger::new(
        &program,
        DebugOptions {
            seed: Some(13),
            ..DebugOptions::default()
        },
    )
    .expect("loads");
    let mut times = Vec::new();
    for _ in 0..2000 {
        let t = Instant::now();
        d.step(StepKind::Into, RunLimit::Steps(1));
        let _ = d.here();
        for kind in [
            PanelKind::Source,
            PanelKind::Disassembly,
            PanelKind::Registers,
            PanelKind::Stack,
            PanelKind::Memory,
        ] {
            let _ = d.panel(kind, 20);
        }
        let _ = d.screen();
        let mut out = String::new();
        d.take_output(&mut out);
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "Rheolism, a step and everything its redraw asks for, 2000 steps: median {:.2} ms, 99th percentile {:.2} ms, worst {:.2} ms (the issue asks within 50 ms)",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() * 99 / 100].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
