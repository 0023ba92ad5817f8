//! ZEXDOC and ZEXALL (Frank D. Cringle's instruction exercisers), run as CP/M programs on
//! `retro_z80_cpm`. A group passes when the program prints `  OK` after its name.
//!
//! The .COM files are not part of this project (GPL-2.0); the crates.io packages `ez80` (both) and
//! `rustzx-z80` (zexall.com) ship them, and [`locate`] finds them in cargo's registry.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::GroupResult;
use retro_z80_cpm::{CpmError, CpmExit, CpmLimits, CpmMachine};

/// Number of test groups in both programs.
pub const GROUPS: usize = 67;
/// Where the programs keep their table of test pointers (67 words, then 0000h).
const TABLE: usize = 0x013A;

/// The result of a run: the console text, the per-group verdicts and the run's size.
#[derive(Clone, Debug)]
pub struct ZexRun {
    /// Everything the program printed.
    pub output: Vec<u8>,
    pub groups: Vec<GroupResult>,
    pub exit: CpmExit,
}

/// Why ZEX could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ZexError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("group {0} does not exist (there are {GROUPS})")]
    NoSuchGroup(usize),
    #[error("not a ZEX program: no test table at 013Ah")]
    NotZex,
    #[error(transparent)]
    Cpm(#[from] CpmError),
}

/// Finds `zexdoc.com` or `zexall.com` (any case): in `$RETRO_ZEX_DIR` if set, otherwise in the
/// sources of the `ez80` or `rustzx-z80` crates under `$CARGO_HOME/registry/src` (default
/// `~/.cargo`), which `cargo fetch` in this workspace downloads.
pub fn locate(name: &str) -> Option<PathBuf> {
    let find_in = |dir: &Path| -> Option<PathBuf> {
        std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
            })
    };
    if let Some(dir) = std::env::var_os("RETRO_ZEX_DIR") {
        return find_in(Path::new(&dir));
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let mut candidates = Vec::new();
    for registry in std::fs::read_dir(cargo_home.join("registry/src")).ok()?.flatten() {
        for krate in std::fs::read_dir(registry.path()).ok()?.flatten() {
            let fname = krate.file_name();
            let fname = fname.to_string_lossy();
            if fname.starts_with("ez80-") {
                candidates.push(krate.path().join("tests/res"));
            } else if fname.starts_with("rustzx-z80-") {
                candidates.push(krate.path().join("tests/integration/assets"));
            }
        }
    }
    candidates.sort();
    candidates.iter().rev().find_map(|d| find_in(d))
}

/// Reads a .COM file.
pub fn load(path: &Path) -> Result<Vec<u8>, ZexError> {
    std::fs::read(path).map_err(|source| ZexError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Splits ZEX console output into per-group verdicts: each line naming a group ends in `OK` or
/// carries an `ERROR` with the CRCs.
pub fn parse_groups(output: &[u8]) -> Vec<GroupResult> {
    let text = String::from_utf8_lossy(output);
    let mut groups = Vec::new();
    for line in text.split(['\n', '\r']) {
        let Some(dots) = line.find("..") else { continue };
        let name = line[..dots].trim().to_string();
        let mut g = GroupResult::new(&name);
        if line.trim_end().ends_with("  OK") {
            g.passed = 1;
        } else {
            g.failed = 1;
            g.failures
                .push(line[dots..].trim_start_matches('.').trim().to_string());
        }
        groups.push(g);
    }
    groups
}

/// A `Write` that keeps a copy of everything and forwards it to another writer.
struct Tee<'a> {
    copy: Vec<u8>,
    out: &'a mut dyn Write,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.copy.extend_from_slice(buf);
        self.out.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn run_machine(mut m: CpmMachine, echo: &mut dyn Write) -> Result<ZexRun, ZexError> {
    let mut tee = Tee {
        copy: Vec::new(),
        out: echo,
    };
    let exit = m.run(&mut tee, CpmLimits::default())?;
    let groups = parse_groups(&tee.copy);
    Ok(ZexRun {
        output: tee.copy,
        groups,
        exit,
    })
}

/// Runs the whole program, copying its console output to `echo` as it goes (pass
/// `&mut std::io::sink()` to keep it quiet).
pub fn run(program: &[u8], echo: &mut dyn Write) -> Result<ZexRun, ZexError> {
    run_machine(CpmMachine::new(program)?, echo)
}

/// Runs only group `index` (0-based, in the programs' order) by cutting the test table down to
/// that one entry.
pub fn run_group(program: &[u8], index: usize) -> Result<ZexRun, ZexError> {
    if index >= GROUPS {
        return Err(ZexError::NoSuchGroup(index));
    }
    let mut m = CpmMachine::new(program)?;
    let base = 0x0100;
    let table = &mut m.bus.mem[TABLE..TABLE + 2 * GROUPS + 2];
    if program.len() < TABLE + 2 * GROUPS + 2 - base || table[2 * GROUPS..] != [0, 0] {
        return Err(ZexError::NotZex);
    }
    let entry = [table[2 * index], table[2 * index + 1]];
    table[..4].copy_from_slice(&[entry[0], entry[1], 0, 0]);
    run_machine(m, &mut std::io::sink())
}
