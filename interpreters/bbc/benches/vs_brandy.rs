//! Interpreter benchmarks in the classic style, each run on our interpreter (in process, the
//! tokenized program loaded once per run) and on Debian's brandy (a process, `brandy -quit` with
//! the SDL dummy driver) in the same run. Brandy's time is its wall time minus the wall time of
//! an empty program (its start-up and shut-down), so both sides count only running BASIC.
//!
//! `cargo bench -p retro-bbc --bench vs_brandy` prints one line per program and the overall
//! ratio (geometric mean of brandy/ours). Each side's time is the best of several runs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};

const RUNS: usize = 5;

fn ours(bytes: &[u8]) -> (Duration, String) {
    let mut best = Duration::MAX;
    let mut out = String::new();
    for _ in 0..RUNS {
        let mut it = Interp::new(bytes, Box::new(ScriptHost::new(b""))).expect("program loads");
        let t = Instant::now();
        let outcome = it.run();
        let d = t.elapsed();
        assert_eq!(outcome, Outcome::Ended, "benchmark program failed");
        best = best.min(d);
        out.clear();
        it.vdu.take_text(&mut out);
    }
    (best, out)
}

fn brandy_once(path: &Path) -> Option<Duration> {
    let t = Instant::now();
    let status = Command::new("brandy")
        .arg("-quit")
        .arg(path)
        .env("SDL_VIDEODRIVER", "dummy")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status.success().then(|| t.elapsed())
}

fn brandy(path: &Path) -> Option<Duration> {
    (0..RUNS)
        .map(|_| brandy_once(path))
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .min()
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/programs");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("benches/programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bbc"))
        .collect();
    names.sort();
    let tmp = std::env::temp_dir().join(format!("retro-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    let empty = tmp.join("empty.bas");
    let _ = std::fs::write(&empty, "10 END\n");
    let startup = brandy(&empty);
    if startup.is_none() {
        println!("brandy not available: timing our interpreter only");
    }
    let mut log_sum = 0.0;
    let mut n = 0;
    println!(
        "{:<20} {:>10} {:>10} {:>8}",
        "program", "ours ms", "brandy ms", "ratio"
    );
    for p in &names {
        let src = std::fs::read_to_string(p).expect("readable");
        let prog = tokenize_program(&src, Mode::Strict)
            .expect("tokenizes")
            .to_bytes();
        let (t, _) = ours(&prog);
        let name = p.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let theirs = startup.and_then(|s| {
            let copy = tmp.join(format!("{name}.bas"));
            std::fs::write(&copy, &src).ok()?;
            brandy(&copy).map(|b| b.saturating_sub(s))
        });
        match theirs {
            Some(b) => {
                let ratio = b.as_secs_f64() / t.as_secs_f64().max(1e-9);
                log_sum += ratio.ln();
                n += 1;
                println!(
                    "{:<20} {:>10.1} {:>10.1} {:>7.2}x",
                    name,
                    t.as_secs_f64() * 1e3,
                    b.as_secs_f64() * 1e3,
                    ratio
                );
            }
            None => println!(
                "{:<20} {:>10.1} {:>10} {:>8}",
                name,
                t.as_secs_f64() * 1e3,
                "-",
                "-"
            ),
        }
    }
    if n > 0 {
        println!(
            "overall (geometric mean of brandy/ours): {:.2}x",
            (log_sum / n as f64).exp()
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
