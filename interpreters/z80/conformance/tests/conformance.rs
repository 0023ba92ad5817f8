//! The Fuse and SingleStepTests suites from `shared/conformance` (RETRO_CONFORMANCE overrides the
//! location). Without the data the tests print a notice and pass, unless
//! RETRO_REQUIRE_CONFORMANCE=1 (CI) makes its absence a failure.

use std::path::PathBuf;

use retro_z80_conformance::{self as conformance, GroupResult};

fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("RETRO_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/conformance"));
    if dir.join("z80").is_dir() {
        return Some(dir.join("z80"));
    }
    if std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_some() {
        panic!(
            "conformance data not found at {} and RETRO_REQUIRE_CONFORMANCE=1",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED: conformance data not found at {} (set RETRO_CONFORMANCE)",
        dir.display()
    );
    None
}

fn assert_all_pass(suite: &str, groups: &[GroupResult]) {
    let mut report = String::new();
    for g in groups {
        report.push_str(&format!(
            "{suite} {}: {} passed, {} failed\n",
            g.name, g.passed, g.failed
        ));
        for f in &g.failures {
            report.push_str(&format!("    {f}\n"));
        }
    }
    let (passed, failed) = conformance::totals(groups);
    eprintln!("{report}{suite}: {passed} passed, {failed} failed");
    assert!(passed > 0, "{suite}: no tests ran");
    assert_eq!(failed, 0, "{suite} failures:\n{report}");
}

#[test]
fn fuse_suite_passes() {
    let Some(dir) = conformance_dir() else { return };
    let groups = conformance::fuse::run(&dir.join("fuse")).expect("fuse suite readable");
    assert_eq!(
        conformance::totals(&groups).0 + conformance::totals(&groups).1,
        1356
    );
    assert_all_pass("fuse", &groups);
}

#[test]
fn singlestep_suite_passes() {
    let Some(dir) = conformance_dir() else { return };
    let groups = conformance::singlestep::run(&dir.join("singlestep")).expect("singlestep suite readable");
    assert_all_pass("singlestep", &groups);
}
