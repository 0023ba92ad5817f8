//! Runners for the public Z80 conformance suites. Each returns per-group results; printing them is
//! the caller's business (`retro conformance z80`, the tests).
//!
//! - [`fuse`]: the Fuse emulator's core tests (`tests.in` / `tests.expected`).
//! - [`singlestep`]: SingleStepTests z80 in the gzip'd JSON-lines layout of `shared/conformance`.
//! - [`zex`]: ZEXDOC/ZEXALL run as CP/M programs, per group or whole.

pub mod fuse;
pub mod singlestep;
pub mod zex;

use std::path::PathBuf;

/// How a group of tests went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupResult {
    /// The group's name (a prefix group such as `ddcb`, or a ZEX test name).
    pub name: String,
    pub passed: usize,
    pub failed: usize,
    /// A description of each failure (test name and the first differences), at most
    /// [`MAX_REPORTED_FAILURES`] per group.
    pub failures: Vec<String>,
}

/// Failures described per group; the rest are only counted.
pub const MAX_REPORTED_FAILURES: usize = 20;

impl GroupResult {
    pub(crate) fn new(name: &str) -> GroupResult {
        GroupResult {
            name: name.to_string(),
            ..GroupResult::default()
        }
    }
    pub(crate) fn record(&mut self, test: &str, diffs: Vec<String>) {
        if diffs.is_empty() {
            self.passed += 1;
        } else {
            self.failed += 1;
            if self.failures.len() < MAX_REPORTED_FAILURES {
                self.failures.push(format!("{test}: {}", diffs.join(", ")));
            }
        }
    }
}

/// Totals over groups: (passed, failed).
pub fn totals(groups: &[GroupResult]) -> (usize, usize) {
    groups
        .iter()
        .fold((0, 0), |(p, f), g| (p + g.passed, f + g.failed))
}

/// Why a suite could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum ConformanceError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: line {line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

pub(crate) fn read_to_string(path: &std::path::Path) -> Result<String, ConformanceError> {
    std::fs::read_to_string(path).map_err(|source| ConformanceError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Appends "what: got X, want Y" to `diffs` when they differ.
pub(crate) fn check<T: PartialEq + std::fmt::UpperHex>(diffs: &mut Vec<String>, what: &str, got: T, want: T) {
    if got != want {
        diffs.push(format!("{what}: got {got:04X}, want {want:04X}"));
    }
}
