//! `retro run`.
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The program to run.
    pub file: PathBuf,
}

pub fn run(_args: RunArgs) -> ExitCode {
    eprintln!("retro run: not built yet");
    ExitCode::from(2)
}
