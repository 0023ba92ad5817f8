//! `retro conformance` (Z80 CPU issue).
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {
    /// The machine whose suites to run.
    pub machine: String,
}

pub fn conformance(_args: ConformanceArgs) -> ExitCode {
    eprintln!("retro conformance: not built yet");
    ExitCode::from(2)
}
