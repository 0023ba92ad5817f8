//! Issue 32's fuzz targets, shared by the crates' property tests that run them (included with
//! `#[path = ".../tests/common/fuzz_cases.rs"] mod fuzz_cases;`): each target is a plain test
//! at a quick count for the unoptimised suite and an ignored one at CI's count, which .ci/run
//! runs in release mode. (The `proptest!` macro lets PROPTEST_CASES override any count it is
//! given, so the quick runs could not stay quick inside it.)

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};

/// `quick` for the unoptimised suite; for the full run, PROPTEST_CASES, else 100,000.
pub fn cases(quick: u32, full: bool) -> u32 {
    if !full {
        return quick;
    }
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100_000)
}

/// `cases` cases of `test` on `strategy`, after the seeds saved beside `source_file` (the
/// caller's `file!()`) in its proptest-regressions.
pub fn run_cases<S: Strategy>(
    source_file: &'static str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let config = Config {
        cases,
        source_file: Some(source_file),
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
            "proptest-regressions",
        ))),
        ..Config::default()
    };
    if let Err(e) = TestRunner::new(config).run(&strategy, test) {
        panic!("{e}");
    }
}
