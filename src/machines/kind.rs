//! What a machine is to the command line: the [`MachineKind`] trait every row of the machine table
//! implements, and the capabilities a machine may have besides running a file (a prompt, a
//! debugger, a BASIC's tokenizer).

use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;

use super::options::{DebugArgs, FormatArg, ListArgs, RunArgs, TokArgs};
use crate::session::Session;

/// One machine: what files it takes, and how it runs, debugs, tokenizes and lists them.
pub trait MachineKind: Sync {
    /// The name `--machine` takes.
    fn name(&self) -> &'static str;
    /// Other names `--machine` takes (`c64` for the CBM machine).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }
    /// The machine as a message names it: "BBC BASIC", "the C64".
    fn title(&self) -> &'static str;
    /// One line for `--machine`'s help: the machine and its files.
    fn about(&self) -> &'static str;
    /// File name extensions (lower case, no dot) of this machine's programs.
    fn extensions(&self) -> &'static [&'static str];
    /// Whether a file with one of [`MachineKind::extensions`] is this machine's. A machine that
    /// shares an extension with a later one (`.bas`) decides from the bytes; the default is yes.
    fn claims(&self, _path: &Path) -> bool {
        true
    }
    /// Whether `bytes` are plainly this machine's program whatever the file is called: when
    /// another machine refuses the file, the message says to use `--machine` with this one.
    fn recognises(&self, _bytes: &[u8]) -> bool {
        false
    }
    /// The `retro run` options (long names) that apply to this machine; any other given is a
    /// usage error naming the machines it is for.
    fn run_options(&self) -> &'static [&'static str];
    /// The keys the terminal's help (F12) lists for this machine.
    fn key_help(&self) -> Vec<(&'static str, &'static str)>;
    /// Loads `file` and runs it in the session (headless or in the terminal, as decided there).
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode;
    /// The machine with no program, at its prompt (`None`: it has no prompt).
    fn prompt(&self) -> Option<&dyn Prompts> {
        None
    }
    /// Building the machine for `retro debug` (`None`: this machine has no debugger).
    fn debugger(&self) -> Option<&dyn Debugs> {
        None
    }
    /// Tokenizing and listing, for a machine with a BASIC.
    fn basic(&self) -> Option<&dyn Basic> {
        None
    }
}

/// A machine that starts at a prompt with no program (`retro run --machine M` with no file).
pub trait Prompts {
    fn start(&self, prompt: &Prompt, session: &Session) -> ExitCode;
}

/// A machine under its debugger, for `retro debug`.
pub trait Debugs {
    /// The machine with `file` loaded, its debugger attached (`Machine::as_debuggable`), the key
    /// script `keys` typed into the program. `Err`: the file was refused, the exit status already
    /// reported.
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode>;
}

/// A BASIC's programs as files: `retro tok` and `retro list`.
pub trait Basic {
    /// Whether a file no machine claims by name is still read as this BASIC's listing (BBC
    /// BASIC: RISC OS files have no extension).
    fn takes_any_name(&self) -> bool {
        false
    }
    fn tok(&self, args: &TokArgs) -> ExitCode;
    fn list(&self, args: &ListArgs) -> ExitCode;
}

/// A prompt's options, from `retro run --machine M` with no file or the machine's own command
/// (`retro bbc`, `retro c64`).
#[derive(Debug, Clone, Default)]
pub struct Prompt {
    pub seed: Option<i64>,
    /// BBC BASIC: the format SAVE writes.
    pub format: FormatArg,
    /// C64: control codes in petcat's notation, PETSCII in older fonts' characters.
    pub petcat: bool,
    pub fallback_glyphs: bool,
}
