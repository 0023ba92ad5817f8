//! `retro conformance z80 [--fuse DIR] [--singlestep DIR] [--zex FILE.com]`: runs the Z80
//! conformance suites and prints per-group results and a final `N passed, M failed` line. With no
//! suite flag it runs Fuse and SingleStepTests from the conformance directory ($RETRO_CONFORMANCE,
//! else ../shared/conformance). Exit status 0 only when every test passed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use retro_z80_conformance::{self as conformance, GroupResult, fuse, singlestep, zex};

#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    /// The machine whose suites to run (only `z80` has suites).
    pub machine: String,
    /// Run the Fuse core tests from DIR (tests.in, tests.expected).
    #[arg(long, value_name = "DIR")]
    pub fuse: Option<PathBuf>,
    /// Run the SingleStepTests subset from DIR (base.jsonl.gz, cb.jsonl.gz, ...).
    #[arg(long, value_name = "DIR")]
    pub singlestep: Option<PathBuf>,
    /// Run ZEXDOC or ZEXALL (a CP/M .COM file) and show its console output.
    #[arg(long, value_name = "FILE.com")]
    pub zex: Option<PathBuf>,
}

/// $RETRO_CONFORMANCE, else the first of ../shared/conformance (from the current directory) and
/// the source tree's ../shared/conformance that exists.
fn default_conformance_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RETRO_CONFORMANCE") {
        return PathBuf::from(dir);
    }
    let candidates = [
        PathBuf::from("../shared/conformance"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    ];
    candidates
        .iter()
        .find(|d| d.is_dir())
        .cloned()
        .unwrap_or_else(|| candidates[0].clone())
}

fn print_groups(suite: &str, groups: &[GroupResult]) {
    for g in groups {
        println!("{suite} {}: {} passed, {} failed", g.name, g.passed, g.failed);
        for f in &g.failures {
            println!("    {f}");
        }
    }
}

pub fn conformance(args: ConformanceArgs) -> ExitCode {
    if !args.machine.eq_ignore_ascii_case("z80") {
        eprintln!("retro conformance: no suites for `{}` (only z80)", args.machine);
        return ExitCode::from(2);
    }
    let (fuse_dir, singlestep_dir) = if args.fuse.is_none() && args.singlestep.is_none() && args.zex.is_none()
    {
        let base = default_conformance_dir().join("z80");
        (Some(base.join("fuse")), Some(base.join("singlestep")))
    } else {
        (args.fuse, args.singlestep)
    };

    let mut passed = 0;
    let mut failed = 0;
    let mut tally = |groups: &[GroupResult]| {
        let (p, f) = conformance::totals(groups);
        passed += p;
        failed += f;
    };
    if let Some(dir) = fuse_dir {
        match fuse::run(&dir) {
            Ok(groups) => {
                print_groups("fuse", &groups);
                tally(&groups);
            }
            Err(e) => {
                eprintln!("retro conformance: Fuse: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(dir) = singlestep_dir {
        match singlestep::run(&dir) {
            Ok(groups) => {
                print_groups("singlestep", &groups);
                tally(&groups);
            }
            Err(e) => {
                eprintln!("retro conformance: SingleStepTests: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(path) = args.zex {
        let program = match zex::load(&path) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("retro conformance: {e}");
                return ExitCode::from(2);
            }
        };
        // The exerciser's own console output is the per-group report.
        let stdout = std::io::stdout();
        let run = zex::run(&program, &mut stdout.lock());
        println!();
        match run {
            Ok(run) => {
                let mut groups = run.groups;
                // Byte-for-byte comparison with the published output, when it is at hand.
                let expected = default_conformance_dir().join("z80/zex/zexdoc.expected.txt");
                if let Ok(want) = std::fs::read(&expected) {
                    let mut g = GroupResult {
                        name: "output".into(),
                        ..GroupResult::default()
                    };
                    if want == run.output {
                        g.passed = 1;
                    } else {
                        g.failed = 1;
                        g.failures
                            .push(format!("console output differs from {}", expected.display()));
                    }
                    groups.push(g);
                }
                let (p, f) = conformance::totals(&groups);
                println!(
                    "zex: {p} passed, {f} failed ({} instructions, {} T-states)",
                    run.exit.instructions, run.exit.tstates
                );
                for g in groups.iter().filter(|g| g.failed > 0) {
                    for f in &g.failures {
                        println!("    {}: {f}", g.name);
                    }
                }
                tally(&groups);
            }
            Err(e) => {
                eprintln!("retro conformance: {}: {e}", path.display());
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    let _ = std::io::stdout().flush();
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
