//! `retro asm` and `retro dis` (Z80 assembler issue).
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// The Z80 source file.
    pub file: PathBuf,
    /// Where to write the binary.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct DisArgs {
    /// The binary to disassemble.
    pub file: PathBuf,
}

pub fn asm(_args: AsmArgs) -> ExitCode {
    eprintln!("retro asm: not built yet");
    ExitCode::from(2)
}

pub fn dis(_args: DisArgs) -> ExitCode {
    eprintln!("retro dis: not built yet");
    ExitCode::from(2)
}
