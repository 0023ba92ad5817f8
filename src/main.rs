//! `retro`: the command line of the retro workbench. Each subcommand lives in `cmd/`; the terminal
//! front end (the only code that knows about crossterm) lives in `tui/`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod files;
mod tui;

/// A terminal workbench for BBC BASIC V, Commodore 64 BASIC V2 and the Z80.
#[derive(Parser, Debug)]
#[command(name = "retro", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a program in the terminal or headless: BBC BASIC (.bbc), C64 BASIC (.bas, .prg), the Z80
    /// workbench machine (.asm, .z80, .bin) or CP/M (.com).
    ///
    /// In the terminal: Ctrl-C is the machine's Escape (twice within a second quits), Ctrl-Q
    /// quits, F12 shows the help.
    Run(cmd::run::RunArgs),
    /// BBC BASIC's `>` prompt (immediate mode); --headless reads the typed lines from stdin.
    Bbc(cmd::bbc::PromptArgs),
    /// The Commodore 64's READY. prompt, with its screen editor; headless, stdin's lines are
    /// typed at it.
    C64(cmd::cbm::C64Args),
    /// Tokenize a BASIC text listing (BBC .bbc; C64 .bas petcat listing into a .prg), or convert a
    /// tokenized BBC program between formats.
    Tok(cmd::tok::TokArgs),
    /// Detokenize a BASIC program (LIST), or show each line's bytes with --tokens.
    List(cmd::tok::ListArgs),
    /// Assemble Z80 source into a binary.
    Asm(cmd::asm::AsmArgs),
    /// Disassemble a Z80 binary.
    Dis(cmd::asm::DisArgs),
    /// Debug a program: Z80 (.asm, .z80, .bin), BBC BASIC (.bbc) or C64 BASIC (.bas, .prg):
    /// breakpoints, stepping, reverse steps (terminal UI, or --script).
    Debug(cmd::debug::DebugArgs),
    /// Run conformance suites (Z80: Fuse, SingleStepTests, ZEXDOC/ZEXALL).
    Conformance(cmd::conformance::ConformanceArgs),
    /// Show a test card (palettes, font, pixels, held keys) to check the terminal.
    Testcard(cmd::testcard::TestcardArgs),
    /// The Tetris Printer Algorithm: turn a sprite into Tetris drops that print it.
    Tpa(cmd::tpa::TpaArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with status 0, and usage errors to stderr;
            // DESIGN.md's contract makes every usage error exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Run(args) => cmd::run::run(args),
        Command::Bbc(args) => cmd::bbc::prompt(&args),
        Command::C64(args) => cmd::cbm::direct(
            args.seed,
            &args.session,
            cmd::cbm::Look::new(args.petcat, args.fallback_glyphs),
        ),
        Command::Tok(args) => cmd::tok::tok(args),
        Command::List(args) => cmd::tok::list(args),
        Command::Asm(args) => cmd::asm::asm(args),
        Command::Dis(args) => cmd::asm::dis(args),
        Command::Debug(args) => cmd::debug::debug(args),
        Command::Conformance(args) => cmd::conformance::conformance(args),
        Command::Testcard(args) => cmd::testcard::testcard(args),
        Command::Tpa(args) => cmd::tpa::tpa(args),
    }
}
