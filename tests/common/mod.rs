//! What the end-to-end tests share.

use std::path::{Path, PathBuf};

/// A path inside the oracles (`$RETRO_ORACLES`, default ../shared/oracles beside the repository),
/// when `probe` exists under it. Missing data skips the test with a message, except under
/// RETRO_REQUIRE_CONFORMANCE (CI), where it fails.
#[allow(dead_code)] // not every test file that shares this module reads the oracles
pub fn oracle(sub: &str, probe: &str) -> Option<PathBuf> {
    let oracles = std::env::var_os("RETRO_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/oracles"));
    let dir = oracles.join(sub);
    if dir.join(probe).exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
        "{} is missing and RETRO_REQUIRE_CONFORMANCE is set",
        dir.display()
    );
    eprintln!("SKIPPED: {} not found (set RETRO_ORACLES)", dir.display());
    None
}
