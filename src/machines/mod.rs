//! The machines `retro` runs, debugs and tokenizes for: one [`MachineKind`] per machine, each in
//! a file of its own, and one table, [`MACHINES`], that `run`, `debug`, `tok`, `list`, the
//! prompts and the `.bas` sniff all read. A new machine is one file and one row
//! (ARCHITECTURE.md, "Adding a machine: the edits").

use std::path::Path;

use clap::builder::{PossibleValue, PossibleValuesParser};

pub mod bas;
pub mod bbc;
pub mod cbm;
pub mod cpm;
pub mod keymap;
pub mod kind;
pub mod options;
pub mod toy;
pub mod workbench;

pub use kind::{MachineKind, Prompt};

/// Every machine. Order matters where two claim one extension: the first that claims a file
/// takes it (BBC BASIC before the C64, since a `.bas` file is BBC BASIC only when its bytes say so).
pub static MACHINES: &[&dyn MachineKind] = &[&bbc::Bbc, &cbm::Cbm, &workbench::Z80, &cpm::Cpm, &toy::Toy];

/// `--machine`'s parser: the table's names and aliases, listed in `--help` with what each runs
/// when it passes `shown` (for `tok` and `list`, the machines with a BASIC). The others are still
/// accepted, hidden, so the command can say in its own words why they do not apply. (The
/// argument structs declare `--machine` as a string, so they need not know the table; the
/// command line gets the names from here.)
pub fn name_parser(shown: impl Fn(&dyn MachineKind) -> bool) -> PossibleValuesParser {
    PossibleValuesParser::new(MACHINES.iter().map(|m| {
        PossibleValue::new(m.name())
            .aliases(m.aliases().iter().copied())
            .help(m.about())
            .hide(!shown(*m))
    }))
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

/// The machines that pass `filter`, each as its `about` line, joined for a help text.
fn abouts(filter: impl Fn(&dyn MachineKind) -> bool) -> String {
    let lines: Vec<&str> = MACHINES
        .iter()
        .filter(|m| filter(**m))
        .map(|m| m.about())
        .collect();
    lines.join("; ")
}

/// `retro run`'s FILE help: every machine and its files, and the machines with a prompt.
pub fn run_file_help() -> String {
    let prompts: Vec<&str> = MACHINES
        .iter()
        .filter(|m| m.prompt().is_some())
        .map(|m| m.name())
        .collect();
    format!(
        "The program to run, on the machine its file is for: {}. None with --machine {}: that \
         machine's prompt",
        abouts(|_| true),
        prompts.join(" or ")
    )
}

/// `retro debug`'s FILE help: the machines with a debugger and their files.
pub fn debug_file_help() -> String {
    format!(
        "The program to debug, on the machine its file is for: {}",
        abouts(|m| m.debugger().is_some())
    )
}

/// For a file `refused_by` (chosen by the file's name) did not take: another machine that plainly
/// recognises its bytes where `refused_by` does not, and the option that picks it. Only a regular
/// file is read (a FIFO's bytes would be lost), up to the largest program any machine takes.
pub fn other_machine_hint(refused_by: &dyn MachineKind, path: &Path) -> Option<String> {
    if !path.is_file() {
        return None;
    }
    let bytes = crate::files::read_limited(path, crate::files::BASIC_PROGRAM).ok()?;
    if refused_by.recognises(&bytes) {
        return None;
    }
    let other = MACHINES
        .iter()
        .find(|m| m.name() != refused_by.name() && m.recognises(&bytes))?;
    Some(format!(
        "{}: its bytes are a program for {}: use --machine {}",
        path.display(),
        other.title(),
        other.name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::builder::TypedValueParser;

    /// The table's names are what `--machine` takes: each row's name and aliases lead to it and
    /// to no other, and each extension reaches a row.
    #[test]
    fn names_and_extensions_lead_to_their_rows() {
        let mut seen = std::collections::HashSet::new();
        for m in MACHINES {
            for name in std::iter::once(m.name()).chain(m.aliases().iter().copied()) {
                assert!(seen.insert(name), "{name} twice");
                assert_eq!(by_name(name).map(|k| k.name()), Some(m.name()));
                assert_eq!(by_name(&name.to_uppercase()).map(|k| k.name()), Some(m.name()));
            }
            for ext in m.extensions() {
                let file = format!("/nonexistent/x.{ext}");
                assert!(for_file(Path::new(&file)).is_some(), ".{ext}");
            }
            assert!(!m.run_options().is_empty(), "{}", m.name());
        }
        assert_eq!(by_name("c64").map(|m| m.name()), Some("cbm"));
        assert!(by_name("spectrum").is_none());
        assert_eq!(
            name_parser(|_| true).possible_values().unwrap().count(),
            MACHINES.len()
        );
    }

    #[test]
    fn the_lists_in_messages_come_from_the_table() {
        let debuggable = list(|m| m.debugger().is_some());
        assert_eq!(
            debuggable,
            "BBC BASIC (.bbc .bas, --machine bbc); the C64 (.bas .prg, --machine cbm); \
             the Z80 workbench machine (.asm .z80 .bin, --machine z80); CP/M (.com, --machine cpm); \
             the toy machine (.toy, --machine toy)"
        );
        assert!(list(|m| m.basic().is_some()).ends_with("--machine cbm)"));
    }

    fn name(path: &str) -> Option<&'static str> {
        for_file(Path::new(path)).map(|m| m.name())
    }

    #[test]
    fn extensions_choose_machines_case_insensitively() {
        assert_eq!(name("programs/rheolism/rheolism.bbc"), Some("bbc"));
        assert_eq!(name("BABA.PRG"), Some("cbm"));
        assert_eq!(name("game.bas"), Some("cbm"));
        assert_eq!(name("connect4.asm"), Some("z80"));
        assert_eq!(name("zexdoc.com"), Some("cpm"));
        assert_eq!(name("tests/toy/hello.toy"), Some("toy"));
        assert_eq!(name("notes.txt"), None);
        assert_eq!(name("Makefile"), None);
    }
}
