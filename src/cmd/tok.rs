//! `retro tok` and `retro list`: the BBC BASIC V tokenizer, LIST and the token inspector.
//!
//! Exit status: 0 done, 1 the listing has mistakes (ariadne reports on stderr, nothing written),
//! 2 bad usage or a file that cannot be read or is not a program.
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::session::usage_error;
use crate::files::{BASIC_PROGRAM, is_broken_pipe, read_limited, write_output};
use retro_bbc::{Mode, Program, ReadError, inspect, render_diagnostics};

/// The formats a BBC BASIC program is written in (`retro tok --format`, `retro bbc --format`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FormatArg {
    /// RISC OS's tokenized format (filetype &FFB), as Brandy reads it.
    #[default]
    Riscos,
    /// The tokenized format of BBC BASIC for Windows, BBC BASIC for SDL 2.0 and BBC BASIC (Z80).
    Bbcwin,
    /// A text listing, as LIST prints it.
    Text,
}

impl FormatArg {
    pub fn save_format(self) -> retro_bbc::SaveFormat {
        match self {
            FormatArg::Riscos => retro_bbc::SaveFormat::RiscOs,
            FormatArg::Bbcwin => retro_bbc::SaveFormat::BbcWin,
            FormatArg::Text => retro_bbc::SaveFormat::Text,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct TokArgs {
    /// The program: a BBC BASIC text listing (with or without line numbers) or tokenized program
    /// in either format, to tokenize or convert; or a C64 petcat listing (.bas) to tokenize into
    /// a .prg (--format and --crunch are for BBC BASIC).
    pub file: PathBuf,
    /// Where to write the program.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// The format to write: riscos (RISC OS, filetype &FFB), bbcwin (BBC BASIC for Windows, for
    /// SDL 2.0 and (Z80)) or text (a listing).
    #[arg(long, value_enum, default_value_t = FormatArg::Riscos)]
    pub format: FormatArg,
    /// Find keywords anywhere, also glued to variable names (`rEORm` is r EOR m), as in listings
    /// made by poking the spaces out of a tokenized program, like Rheolism's.
    #[arg(long)]
    pub crunch: bool,
    /// The machine (default: from the file's extension and contents, as for `retro run`).
    #[arg(long, value_enum)]
    pub machine: Option<super::run::MachineKind>,
    /// C64: the letter convention of a .bas listing (default: decided from the listing).
    #[arg(long, value_enum)]
    pub charset: Option<super::cbm::CharsetArg>,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// The program to list (tokenized or text).
    pub file: PathBuf,
    /// Show each line's bytes, annotated: offsets, header, tokens, line numbers, statements.
    #[arg(long)]
    pub tokens: bool,
    /// Tokenize a text listing in crunch mode before listing it (see `retro tok --crunch`).
    #[arg(long)]
    pub crunch: bool,
    /// The machine (default: from the file's extension and contents, as for `retro run`).
    #[arg(long, value_enum)]
    pub machine: Option<super::run::MachineKind>,
    /// C64: the letter convention of a .bas listing (default: the listing's own); also the
    /// convention the listing is written in.
    #[arg(long, value_enum)]
    pub charset: Option<super::cbm::CharsetArg>,
}

/// Whether `tok` or `list` is for the C64: `--machine`, or the file's name and contents. Other
/// machines than BBC BASIC and the C64 have no tokenized form here.
fn for_cbm(file: &Path, machine: Option<super::run::MachineKind>) -> Result<bool, ExitCode> {
    use super::run::MachineKind;
    match machine {
        None => Ok(super::cbm::is_cbm(file)),
        Some(MachineKind::Cbm) => Ok(true),
        Some(MachineKind::Bbc) => Ok(false),
        Some(m) => Err(usage_error(format!(
            "--machine {m:?}: only BBC BASIC and the C64 have tokenized programs"
        ))),
    }
}

fn mode(crunch: bool) -> Mode {
    if crunch { Mode::Crunch } else { Mode::Strict }
}

/// Reads and tokenizes (if needed) a program, reporting failures; `Err` carries the exit code.
fn load(file: &Path, crunch: bool) -> Result<Program, ExitCode> {
    let bytes = read_limited(file, BASIC_PROGRAM).map_err(|e| {
        eprintln!("retro: {e}");
        ExitCode::from(2)
    })?;
    match retro_bbc::read_program(&bytes, mode(crunch)) {
        Ok(p) => Ok(p),
        Err(ReadError::Bad(e)) => {
            let name = file.display().to_string();
            let colour = std::io::stderr().is_terminal();
            eprint!("{}", retro_bbc::render_bad_program(&name, &bytes, &e, colour));
            Err(ExitCode::from(2))
        }
        Err(ReadError::Text { text, diagnostics }) => {
            let name = file.display().to_string();
            let colour = std::io::stderr().is_terminal();
            eprint!("{}", render_diagnostics(&name, &text, &diagnostics, colour));
            Err(ExitCode::from(1))
        }
    }
}

pub fn tok(args: TokArgs) -> ExitCode {
    if crate::files::same_file(&args.output, &args.file) {
        return usage_error(format!(
            "-o {} is the input file; write the program elsewhere",
            args.output.display()
        ));
    }
    match for_cbm(&args.file, args.machine) {
        Ok(true) => return super::cbm::tok(&args.file, &args.output, args.charset),
        Ok(false) => {}
        Err(code) => return code,
    }
    let program = match load(&args.file, args.crunch) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let bytes = match args.format.save_format().encode(&program) {
        Ok(b) => b,
        Err(e) => {
            eprintln!(
                "retro: {}",
                retro_diag::escape(&format!("{}: {e}", args.file.display()))
            );
            return ExitCode::from(1);
        }
    };
    match write_output(&args.output, &bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write {}: {e}", args.output.display())),
    }
}

pub fn list(args: ListArgs) -> ExitCode {
    match for_cbm(&args.file, args.machine) {
        Ok(true) => return super::cbm::list(&args.file, args.tokens, args.charset),
        Ok(false) => {}
        Err(code) => return code,
    }
    let program = match load(&args.file, args.crunch) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut stdout = std::io::stdout().lock();
    let text = if args.tokens {
        // A BBC BASIC for Windows file is shown as it is in the file, with that format's tokens.
        let windows = read_limited(&args.file, BASIC_PROGRAM)
            .ok()
            .filter(|b| retro_bbc::detect(b) == retro_bbc::Format::BbcWin)
            .and_then(|b| retro_bbc::bbcwin::render_tokens(&b).ok());
        windows
            .unwrap_or_else(|| inspect::render(&inspect::inspect(&program), std::io::stdout().is_terminal()))
    } else if std::io::stdout().is_terminal() {
        // Control bytes in strings and REMs (an ESC, teletext codes read as C1 controls) are
        // shown escaped (`\x1b`) on a terminal, never sent to it; into a file or a pipe the
        // listing stays exact, so `retro tok` reads it back.
        retro_diag::escape::escape_keeping_newlines(&retro_bbc::list(&program)).into_owned()
    } else {
        retro_bbc::list(&program)
    };
    match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`retro list x | head`) is not an error worth a message.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("writing output: {e}")),
    }
}
