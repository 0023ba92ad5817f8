//! The harness of the `debugger_overhead` benches (retro-bbc's and retro-cbm's, issue #19), built
//! only with the `bench` feature, which those crates turn on for their benches alone.
//!
//! Each bench says how its machine loads, runs and debugs a program; the harness owns the rest,
//! so both machines are measured and reported the same way: the Rugg/Feldman benchmarks BM1-BM8
//! (interpreters/cbm/tests/rugg) run alone and under the debugger with a breakpoint on a line that
//! is never reached, so every statement passes the debugger's checks and none stops; then the
//! time a step in the terminal UI waits for. Times are wall-clock, best of [`RUNS`]; on a busy
//! machine the ratio is the figure to read.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::debug::{Debuggable, PanelKind, RunLimit, StepKind, StopReason};

/// How often each program runs each way; the best time counts, as the machine is shared.
pub const RUNS: usize = 3;

/// The line [`rugg_source`] adds to each program and the debugged run breaks on.
const NEVER_REACHED: &str = "900";

/// How many steps the step-latency figure is taken over.
const STEPS: usize = 2000;

/// ITERATIONS from the bench's command line (`cargo bench ... -- ITERATIONS`), else 200,000.
pub fn iterations() -> u64 {
    std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200_000)
}

/// Rugg/Feldman BMn (`dir/bmN.bas`, a C64 listing in lower case) with its loop of 1000 scaled to
/// `iterations`, and the line the debugged run breaks on added.
pub fn rugg_source(dir: &Path, n: usize, iterations: u64) -> String {
    let path = dir.join(format!("bm{n}.bas"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Rugg/Feldman programs ({}): {e}", path.display()));
    text.replace("1000", &iterations.to_string()) + NEVER_REACHED + " rem never reached\n"
}

/// Times BM1-BM8 from `rugg_dir` on `machine` and prints a table of both times and the speed
/// under the debugger, with their geometric mean and the worst. `load` makes a program from
/// [`rugg_source`]'s text; `alone` runs it to the end once and returns the time of the run itself
/// (not of setting up); `debugger` makes a fresh debugger for it.
pub fn rugg_overhead<P, D: Debuggable>(
    machine: &str,
    rugg_dir: &Path,
    iterations: u64,
    mut load: impl FnMut(&str) -> P,
    mut alone: impl FnMut(&P) -> Duration,
    mut debugger: impl FnMut(&P) -> D,
) {
    println!(
        "Rugg/Feldman at {iterations} iterations: {machine} alone vs under the debugger (best of {RUNS})"
    );
    println!("{:<5} {:>10} {:>10} {:>7}", "", "alone", "debugger", "speed");
    let mut speeds = Vec::new();
    for n in 1..=8 {
        let program = load(&rugg_source(rugg_dir, n, iterations));
        let a = best_of(|| alone(&program));
        let b = best_of(|| debugged(debugger(&program)));
        let speed = a.as_secs_f64() / b.as_secs_f64();
        speeds.push(speed);
        println!(
            "BM{n}   {:>9.3}s {:>9.3}s {:>6.0}%",
            a.as_secs_f64(),
            b.as_secs_f64(),
            speed * 100.0
        );
    }
    let (mean, worst) = summary(&speeds);
    println!(
        "geometric mean {:.0}% of the speed, worst {:.0}% (the issue asks at least 50%)",
        mean * 100.0,
        worst * 100.0
    );
}

/// What a step in the terminal UI waits for: [`STEPS`] single steps of `what`, each followed by
/// everything a redraw asks the machine for (where it is, every panel, the screen, its output);
/// prints the median, 99th percentile and worst.
pub fn step_latency(what: &str, d: &mut impl Debuggable) {
    let mut times = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
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
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    println!(
        "{what}, a step and everything its redraw asks for, {STEPS} steps: median {:.2} ms, 99th percentile {:.2} ms, worst {:.2} ms (the issue asks within 50 ms)",
        ms(times[STEPS / 2]),
        ms(times[STEPS * 99 / 100]),
        ms(times[STEPS - 1])
    );
}

fn best_of(mut run: impl FnMut() -> Duration) -> Duration {
    (0..RUNS).map(|_| run()).min().expect("RUNS is not 0")
}

/// One run to the end under `d`, with a breakpoint on the line that is never reached.
fn debugged(mut d: impl Debuggable) -> Duration {
    d.break_at(NEVER_REACHED, None, false)
        .expect("the never-reached line");
    let t = Instant::now();
    let stop = d.run(RunLimit::Steps(u64::MAX / 4));
    let elapsed = t.elapsed();
    assert_eq!(stop, StopReason::Exited(0), "the program ran to its end");
    elapsed
}

/// The geometric mean and the worst of the speeds.
fn summary(speeds: &[f64]) -> (f64, f64) {
    let mean = speeds.iter().product::<f64>().powf(1.0 / speeds.len() as f64);
    let worst = speeds.iter().copied().fold(f64::MAX, f64::min);
    (mean, worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_is_the_geometric_mean_and_the_slowest() {
        let (mean, worst) = summary(&[0.5, 2.0, 1.0, 1.0]);
        assert!((mean - 1.0).abs() < 1e-12, "{mean}");
        assert_eq!(worst, 0.5);
        let (mean, _) = summary(&[0.25, 1.0]);
        assert!((mean - 0.5).abs() < 1e-12, "{mean}");
    }

    #[test]
    fn rugg_programs_are_scaled_and_get_the_never_reached_line() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cbm/tests/rugg");
        let text = rugg_source(&dir, 7, 123_456);
        assert!(text.contains("k<123456"), "{text}");
        assert!(!text.contains("1000"), "{text}");
        assert!(text.ends_with("\n900 rem never reached\n"), "{text}");
        assert_eq!(text.matches("\n900 ").count(), 1, "{text}");
    }
}
