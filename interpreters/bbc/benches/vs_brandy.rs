//! Interpreter benchmarks in the classic style, each run on our interpreter (in process, the
//! tokenized program loaded once per run) and on Debian's brandy (a process, `brandy -quit` with
//! the SDL dummy driver) in the same run. Brandy's time is its wall time minus the wall time of
//! an empty program (its start-up and shut-down), so both sides count only running BASIC.
//!
//! `cargo bench -p retro-bbc --bench vs_brandy` prints one line per program and the overall
//! ratio (geometric mean of brandy/ours). Each side's time is the best of several runs. On Linux
//! the CPU time of each side is measured as well (our thread's from /proc/thread-self/schedstat,
//! brandy's from the children's times in /proc/self/stat), which a busy machine disturbs far less
//! than wall time; the ratio uses CPU time when it is available.
//!
//! Each program's printed result is compared with what brandy prints (captured with `*SPOOL` in
//! one extra, untimed run), so both sides are seen to do the same work.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};

const RUNS: usize = 3;

/// CPU time of this thread, in seconds (Linux).
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// CPU time of reaped children (user + system), in seconds (Linux, 100 ticks a second).
fn children_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields after the command: state is index 0, so cutime and cstime (fields 16, 17) are 13, 14.
    let t: f64 = f.get(13)?.parse::<f64>().ok()? + f.get(14)?.parse::<f64>().ok()?;
    Some(t / 100.0)
}

/// Best (wall, cpu) of several runs.
fn ours(bytes: &[u8]) -> (Duration, Option<f64>) {
    let mut best = Duration::MAX;
    let mut best_cpu: Option<f64> = None;
    for _ in 0..RUNS {
        let mut it = Interp::new(bytes, Box::new(ScriptHost::new(b""))).expect("program loads");
        let c0 = thread_cpu();
        let t = Instant::now();
        let outcome = it.run();
        let d = t.elapsed();
        let cpu = thread_cpu().zip(c0).map(|(b, a)| b - a);
        assert_eq!(outcome, Outcome::Ended, "benchmark program failed");
        best = best.min(d);
        best_cpu = match (best_cpu, cpu) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    (best, best_cpu)
}

/// Runs a program under brandy (SDL dummy driver, no terminal I/O) to its end.
fn run_brandy(path: &Path) -> Option<std::process::ExitStatus> {
    Command::new("brandy")
        .arg("-quit")
        .arg(path)
        .env("SDL_VIDEODRIVER", "dummy")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()
}

fn brandy_once(path: &Path) -> Option<(Duration, Option<f64>)> {
    let c0 = children_cpu();
    let t = Instant::now();
    let status = run_brandy(path)?;
    let wall = t.elapsed();
    let cpu = children_cpu().zip(c0).map(|(b, a)| b - a);
    status.success().then_some((wall, cpu))
}

/// Best (wall, cpu) of several runs.
fn brandy(path: &Path) -> Option<(Duration, Option<f64>)> {
    let runs = (0..RUNS).map(|_| brandy_once(path)).collect::<Option<Vec<_>>>()?;
    let wall = runs.iter().map(|r| r.0).min()?;
    let cpu = runs.iter().filter_map(|r| r.1).reduce(f64::min);
    Some((wall, cpu))
}

/// What brandy prints for `src`, from `*SPOOL` (an untimed run), with line ends as `\n`.
fn brandy_output(src: &str, tmp: &Path) -> Option<String> {
    let spool = tmp.join("spool.txt");
    let prog = tmp.join("spooled.bas");
    let _ = std::fs::remove_file(&spool);
    std::fs::write(&prog, format!("0 *SPOOL {}\n{src}", spool.display())).ok()?;
    run_brandy(&prog)?;
    let bytes = std::fs::read(&spool).ok()?;
    // Brandy goes back to its `>` prompt after END; the spool catches that too.
    let out = normalise(&String::from_utf8_lossy(&bytes));
    Some(
        out.strip_suffix('>')
            .map_or(out.clone(), |s| s.trim_end().to_string()),
    )
}

fn normalise(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n").trim().to_string()
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
        "{:<18} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "program", "ours ms", "brandy ms", "ours cpu", "brandy cpu", "ratio"
    );
    for p in &names {
        let src = std::fs::read_to_string(p).expect("readable");
        let prog = tokenize_program(&src, Mode::Strict)
            .expect("tokenizes")
            .to_bytes();
        let (t, cpu) = ours(&prog);
        let name = p.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        if startup.is_some() {
            let mine = retro_bbc::interp::run_bytes(&prog, b"", None)
                .map(|t| normalise(&t.output))
                .unwrap_or_default();
            match brandy_output(&src, &tmp) {
                Some(b) if b == mine => {}
                Some(b) => println!("{name}: output differs: ours {mine:?}, brandy {b:?}"),
                None => println!("{name}: no output from brandy"),
            }
        }
        let theirs = startup.and_then(|(sw, sc)| {
            let copy = tmp.join(format!("{name}.bas"));
            std::fs::write(&copy, &src).ok()?;
            let (w, c) = brandy(&copy)?;
            Some((w.saturating_sub(sw), c.zip(sc).map(|(c, s)| (c - s).max(0.0))))
        });
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let cpu_ms = |c: Option<f64>| c.map_or("-".to_string(), |c| format!("{:.0}", c * 1e3));
        match theirs {
            Some((bw, bc)) => {
                // CPU time when both sides have it, wall time otherwise.
                let ratio = match (bc, cpu) {
                    (Some(b), Some(o)) if o > 0.0 => b / o,
                    _ => bw.as_secs_f64() / t.as_secs_f64().max(1e-9),
                };
                log_sum += ratio.max(1e-6).ln();
                n += 1;
                println!(
                    "{:<18} {:>9.1} {:>9.1} {:>9} {:>9} {:>6.2}x",
                    name,
                    ms(t),
                    ms(bw),
                    cpu_ms(cpu),
                    cpu_ms(bc),
                    ratio
                );
            }
            None => println!(
                "{:<18} {:>9.1} {:>9} {:>9} {:>9} {:>7}",
                name,
                ms(t),
                "-",
                cpu_ms(cpu),
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
