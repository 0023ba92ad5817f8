//! The golden corpus: every tests/golden/cases/*.asm must assemble to the bytes in its .expect file,
//! and every .expect must agree with what pasmo and z80asm produced (recorded by record.sh in
//! .pasmo/.z80asm) unless it carries a "# hand-verified:" reason.
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cases");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("cases dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    v.sort();
    v
}

fn hex_rows(bytes: &[u8]) -> String {
    bytes
        .chunks(16)
        .map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

/// The data lines of a recorded file (comments dropped).
fn data(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}

#[test]
fn every_case_assembles_to_its_expected_bytes() {
    let cases = cases();
    assert!(cases.len() >= 15, "the corpus shrank to {} files", cases.len());
    let mut failures = vec![];
    for src in &cases {
        let expect = data(&src.with_extension("expect"));
        match retro_z80_asm::assemble_file(src) {
            Ok(a) if hex_rows(&a.bytes) == expect => {}
            Ok(a) => failures.push(format!(
                "{}:\n  got    {}\n  expect {}",
                src.display(),
                hex_rows(&a.bytes),
                expect
            )),
            Err(f) => failures.push(format!("{}: {}", src.display(), f.render(false))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn expectations_follow_the_oracles_or_say_why_not() {
    for src in cases() {
        let expect_path = src.with_extension("expect");
        let expect_text = std::fs::read_to_string(&expect_path).expect("expect file");
        let expect = data(&expect_path);
        let pasmo = data(&src.with_extension("pasmo"));
        let z80asm = data(&src.with_extension("z80asm"));
        let ok = |s: &str| !s.starts_with("error:");
        let hand = expect_text.starts_with("# hand-verified:");
        let name = src.display();
        if hand {
            continue;
        }
        match (ok(&pasmo), ok(&z80asm)) {
            (true, true) => {
                assert_eq!(
                    pasmo, z80asm,
                    "{name}: oracles differ, so the .expect must be hand-verified"
                );
                assert_eq!(expect, pasmo, "{name}: .expect differs from both oracles");
            }
            (true, false) => assert_eq!(expect, pasmo, "{name}: .expect differs from pasmo"),
            (false, true) => assert_eq!(expect, z80asm, "{name}: .expect differs from z80asm"),
            (false, false) => panic!("{name}: no oracle accepts it and the .expect is not hand-verified"),
        }
    }
}

fn on_path(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// With pasmo and z80asm installed (CI installs them), their current output must still be what
/// was recorded; without them there is nothing to re-check.
#[test]
fn recorded_oracle_outputs_are_current() {
    if !(on_path("pasmo") && on_path("z80asm")) {
        eprintln!("pasmo/z80asm not installed: oracle re-check skipped");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/record.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("run record.sh");
    assert!(
        out.status.success(),
        "record.sh --check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
