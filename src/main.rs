//! `retro`: the command line of the retro workbench. Each subcommand lives in `cmd/`; the machines
//! they run, one file each and one table, in `machines/`; the terminal front end (the only code
//! that knows about crossterm) in `tui/` (ARCHITECTURE.md).

use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

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
    Run(Deferred<Box<machines::options::RunArgs>>),
    /// BBC BASIC's `>` prompt (immediate mode); --headless reads the typed lines from stdin.
    Bbc(Deferred<machines::bbc::PromptArgs>),
    /// The Commodore 64's READY. prompt, with its screen editor; headless, stdin's lines are
    /// typed at it.
    C64(Deferred<machines::cbm::C64Args>),
    /// Tokenize a BASIC text listing (BBC BASIC under any name; a C64 .bas listing into a .prg),
    /// or convert a tokenized BBC program between formats.
    Tok(Deferred<machines::options::TokArgs>),
    /// Detokenize a BASIC program (LIST): BBC BASIC (.bbc, any name), C64 (.prg, .bas); or show
    /// each line's bytes with --tokens.
    List(Deferred<machines::options::ListArgs>),
    /// Assemble Z80 source into a binary.
    Asm(Deferred<cmd::asm::AsmArgs>),
    /// Disassemble a Z80 binary.
    Dis(Deferred<cmd::asm::DisArgs>),
    /// Debug a program on any machine with a debugger (FILE below lists them): breakpoints,
    /// stepping, reverse steps (terminal UI, or --script).
    Debug(Deferred<machines::options::DebugArgs>),
    /// Run conformance suites (Z80: Fuse, SingleStepTests, ZEXDOC/ZEXALL).
    Conformance(Deferred<cmd::conformance::ConformanceArgs>),
    /// Show a test card (palettes, font, pixels, held keys) to check the terminal.
    Testcard(Deferred<cmd::testcard::TestcardArgs>),
    /// The Tetris Printer Algorithm: turn a sprite into Tetris drops that print it.
    Tpa(Deferred<cmd::tpa::TpaArgs>),
}

/// A subcommand's arguments, added to its `Command` only when that subcommand is the one being
/// parsed (clap's `Command::defer`). Building every subcommand's arguments, with their help
/// texts, took about a third of a millisecond: half of a short run's start-up.
#[derive(Debug)]
struct Deferred<T>(T);

/// How a subcommand's arguments are added to its `Command`: as derived, plus, for those that
/// take a program file, `--machine` taking the machine table's names (shown: which of them its
/// help lists; `tok` and `list` only the machines with a BASIC).
trait Augment: Args {
    fn augment(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
    fn augment_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args_for_update(cmd)
    }
}

fn with_machine_names(cmd: clap::Command, shown: Shown) -> clap::Command {
    cmd.mut_arg("machine", |a| a.value_parser(machines::name_parser(shown)))
}

type Shown = fn(&dyn machines::MachineKind) -> bool;

macro_rules! augment_with_machine_names {
    ($t:ty, $shown:expr) => {
        impl Augment for $t {
            fn augment(cmd: clap::Command) -> clap::Command {
                with_machine_names(<$t>::augment_args(cmd), $shown)
            }
            fn augment_for_update(cmd: clap::Command) -> clap::Command {
                with_machine_names(<$t>::augment_args_for_update(cmd), $shown)
            }
        }
    };
}
augment_with_machine_names!(Box<machines::options::RunArgs>, |_| true);
augment_with_machine_names!(machines::options::DebugArgs, |m| m.debugger().is_some());
augment_with_machine_names!(machines::options::TokArgs, |m| m.basic().is_some());
augment_with_machine_names!(machines::options::ListArgs, |m| m.basic().is_some());
impl Augment for machines::bbc::PromptArgs {}
impl Augment for machines::cbm::C64Args {}
impl Augment for cmd::asm::AsmArgs {}
impl Augment for cmd::asm::DisArgs {}
impl Augment for cmd::conformance::ConformanceArgs {}
impl Augment for cmd::testcard::TestcardArgs {}
impl Augment for cmd::tpa::TpaArgs {}

impl<T: Augment> Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment_for_update))
    }
}

/// `augment` applied to `cmd`, which keeps its own about texts (the subcommand's doc comment):
/// deferred, a flattened struct's doc comment would otherwise replace them, where built at once
/// the subcommand's were set after its arguments'.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let cmd = augment(cmd);
    let cmd = match about {
        Some(a) => cmd.about(a),
        None => cmd,
    };
    match long_about {
        Some(a) => cmd.long_about(a),
        None => cmd,
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
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
        Command::Run(Deferred(args)) => cmd::run::run(*args),
        Command::Bbc(Deferred(args)) => machines::bbc::prompt(&args),
        Command::C64(Deferred(args)) => machines::cbm::c64(&args),
        Command::Tok(Deferred(args)) => cmd::tok::tok(args),
        Command::List(Deferred(args)) => cmd::tok::list(args),
        Command::Asm(Deferred(args)) => cmd::asm::asm(args),
        Command::Dis(Deferred(args)) => cmd::asm::dis(args),
        Command::Debug(Deferred(args)) => cmd::debug::debug(args),
        Command::Conformance(Deferred(args)) => cmd::conformance::conformance(args),
        Command::Testcard(Deferred(args)) => cmd::testcard::testcard(args),
        Command::Tpa(Deferred(args)) => cmd::tpa::tpa(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deferred or not, the command tree is valid, each subcommand keeps its own about text and
    /// the file-taking ones get the machine table's names.
    #[test]
    fn every_subcommand_builds_with_its_own_about_and_arguments() {
        let mut cli = Cli::command();
        cli.build();
        cli.clone().debug_assert();
        let run = cli.find_subcommand("run").expect("run");
        let about = run.get_about().map(|a| a.to_string()).unwrap_or_default();
        assert!(about.starts_with("Run a program"), "{about}");
        let machine = run.get_arguments().find(|a| a.get_id() == "machine");
        let names: Vec<String> = machine
            .expect("--machine")
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        assert!(names.contains(&"bbc".to_string()), "{names:?}");
        for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
            assert!(sub.get_about().is_some(), "{} has no about", sub.get_name());
            assert!(
                sub.get_arguments().next().is_some(),
                "{} has no arguments",
                sub.get_name()
            );
        }
    }
}
