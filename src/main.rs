//! `retro`: the command line of the retro workbench. Each subcommand lives in `cmd/`; the machines
//! they run, one file each and one table, in `machines/`; the terminal front end (the only code
//! that knows about crossterm) in `tui/` (ARCHITECTURE.md).

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod addr;
mod cmd;
mod files;
mod machines;
mod session;
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
    /// Run a program in the terminal or headless, on the machine its file is for (FILE below
    /// lists them; --machine chooses).
    ///
    /// In the terminal: Ctrl-C is the machine's Escape (twice within a second quits), Ctrl-Q
    /// quits, F12 shows the help.
    Run(Box<machines::options::RunArgs>),
    /// BBC BASIC's `>` prompt (immediate mode); --headless reads the typed lines from stdin.
    Bbc(machines::bbc::PromptArgs),
    /// The Commodore 64's READY. prompt, with its screen editor; headless, stdin's lines are
    /// typed at it.
    C64(machines::cbm::C64Args),
    /// Tokenize a BASIC text listing (BBC BASIC under any name; a C64 .bas listing into a .prg),
    /// or convert a tokenized BBC program between formats.
    Tok(machines::options::TokArgs),
    /// Detokenize a BASIC program (LIST): BBC BASIC (.bbc, any name), C64 (.prg, .bas); or show
    /// each line's bytes with --tokens.
    List(machines::options::ListArgs),
    /// Assemble Z80 source into a binary.
    Asm(cmd::asm::AsmArgs),
    /// Disassemble a Z80 binary.
    Dis(cmd::asm::DisArgs),
    /// Debug a program on any machine with a debugger (FILE below lists them): breakpoints,
    /// stepping, reverse steps (terminal UI, or --script).
    Debug(machines::options::DebugArgs),
    /// Run conformance suites (Z80: Fuse, SingleStepTests, ZEXDOC/ZEXALL).
    Conformance(cmd::conformance::ConformanceArgs),
    /// Show a test card (palettes, font, pixels, held keys) to check the terminal.
    Testcard(cmd::testcard::TestcardArgs),
    /// The Tetris Printer Algorithm: turn a sprite into Tetris drops that print it.
    Tpa(cmd::tpa::TpaArgs),
}

/// The subcommands that take a program file, whose `--machine` takes the table's names, and
/// which of those their help lists: `tok` and `list` only the machines with a BASIC.
type Shown = fn(&dyn machines::MachineKind) -> bool;
const MACHINE_OPTION_COMMANDS: [(&str, Shown); 4] = [
    ("run", |_| true),
    ("debug", |m| m.debugger().is_some()),
    ("tok", |m| m.basic().is_some()),
    ("list", |m| m.basic().is_some()),
];

fn main() -> ExitCode {
    // `--machine` takes the machine table's names (the argument structs declare a string).
    let command = MACHINE_OPTION_COMMANDS
        .iter()
        .fold(Cli::command(), |c, &(sub, shown)| {
            c.mut_subcommand(sub, |s| {
                s.mut_arg("machine", |a| a.value_parser(machines::name_parser(shown)))
            })
        });
    let parsed = command.try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with status 0, and usage errors to stderr;
            // docs/cli.md's exit statuses make every usage error exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Run(args) => cmd::run::run(*args),
        Command::Bbc(args) => machines::bbc::prompt(&args),
        Command::C64(args) => machines::cbm::c64(&args),
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
