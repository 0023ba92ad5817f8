//! The machines `retro` runs, debugs and tokenizes for: one [`MachineKind`] per machine, each in
//! a file of its own, and one table, [`MACHINES`], that `run`, `debug`, `tok`, `list`, the
//! prompts and the `.bas` sniff all read. A new machine is one file and one row
//! (ARCHITECTURE.md, "Adding a machine: the edits").

use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;

use crate::session::Session;

pub mod bbc;
pub mod cbm;
pub mod cpm;
pub mod keymap;
pub mod options;
pub mod workbench;

use options::{DebugArgs, ListArgs, RunArgs, TokArgs};

/// Every machine. Order matters where two claim one extension: the first that claims a file
/// takes it (BBC BASIC before the C64, since a `.bas` file is BBC BASIC only when its bytes say so).
pub static MACHINES: &[&dyn MachineKind] = &[&bbc::Bbc, &cbm::Cbm, &workbench::Z80, &cpm::Cpm];

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
    pub format: options::FormatArg,
    /// C64: control codes in petcat's notation, PETSCII in older fonts' characters.
    pub petcat: bool,
    pub fallback_glyphs: bool,
}

/// The machine `--machine` names (a name or an alias).
pub fn by_name(name: &str) -> Option<&'static dyn MachineKind> {
    MACHINES.iter().copied().find(|m| {
        m.name().eq_ignore_ascii_case(name) || m.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

/// The file's extension, lower case.
fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
}

/// The machine that takes `path`: the first in the table whose extensions include the file's and
/// that claims it (a `.bas` file's bytes decide between BBC BASIC and the C64).
pub fn for_file(path: &Path) -> Option<&'static dyn MachineKind> {
    let ext = extension(path)?;
    MACHINES
        .iter()
        .copied()
        .find(|m| m.extensions().contains(&ext.as_str()) && m.claims(path))
}

/// The same choice among the machines that pass `filter`: for `tok` and `list`, the BASICs.
pub fn for_file_among(
    path: &Path,
    filter: impl Fn(&dyn MachineKind) -> bool,
) -> Option<&'static dyn MachineKind> {
    let ext = extension(path)?;
    MACHINES
        .iter()
        .copied()
        .filter(|m| filter(*m))
        .find(|m| m.extensions().contains(&ext.as_str()) && m.claims(path))
}

/// The machines that pass `filter`, each as "title (.ext, .ext)", joined for a message.
pub fn list(filter: impl Fn(&dyn MachineKind) -> bool) -> String {
    let names: Vec<String> = MACHINES
        .iter()
        .filter(|m| filter(**m))
        .map(|m| {
            let exts: Vec<String> = m.extensions().iter().map(|e| format!(".{e}")).collect();
            format!("{} ({}, --machine {})", m.title(), exts.join(" "), m.name())
        })
        .collect();
    names.join("; ")
}

/// A hint for a file `refused_by` could not load: another machine that plainly recognises its
/// bytes, and the option that picks it (empty when none does).
pub fn other_machine_hint(refused_by: &dyn MachineKind, bytes: &[u8]) -> String {
    MACHINES
        .iter()
        .find(|m| m.name() != refused_by.name() && m.recognises(bytes))
        .map(|m| {
            format!(
                " (its bytes are a program for {}: use --machine {})",
                m.title(),
                m.name()
            )
        })
        .unwrap_or_default()
}
