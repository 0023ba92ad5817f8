//! `retro tok` and `retro list` (BBC BASIC tokenizer issue).
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct TokArgs {
    /// The BBC BASIC text listing to tokenize.
    pub file: PathBuf,
    /// Where to write the tokenized program.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// The program to list (tokenized or text).
    pub file: PathBuf,
    /// Show each line's bytes, annotated.
    #[arg(long)]
    pub tokens: bool,
}

pub fn tok(_args: TokArgs) -> ExitCode {
    eprintln!("retro tok: not built yet");
    ExitCode::from(2)
}

pub fn list(_args: ListArgs) -> ExitCode {
    eprintln!("retro list: not built yet");
    ExitCode::from(2)
}
