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

/// The options NAME.args gave pasmo (`--alocal`, `--equ NAME[=VALUE]`), as retro's options.
fn pasmo_options(src: &Path) -> retro_z80_asm::Options {
    let mut options = retro_z80_asm::Options::default();
    let Ok(args) = std::fs::read_to_string(src.with_extension("args")) else {
        return options;
    };
    let mut words = args.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "--alocal" => options.alocal = true,
            "--equ" => {
                let d = words.next().expect("--equ takes NAME[=VALUE]");
                options.defines.push(match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.to_string(), None),
                });
            }
            other => panic!("{}: unknown pasmo option {other} in .args", src.display()),
        }
    }
    options
}

#[test]
fn every_case_assembles_to_its_expected_bytes() {
    let cases = cases();
    assert!(cases.len() >= 15, "the corpus shrank to {} files", cases.len());
    let mut failures = vec![];
    for src in &cases {
        let expect = data(&src.with_extension("expect"));
        match retro_z80_asm::assemble_file_with(src, &pasmo_options(src)) {
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
/// was recorded; without them there is nothing to re-check, which is a skip locally and a
/// failure under RETRO_REQUIRE_CONFORMANCE (CI), as for the other oracles.
#[test]
fn recorded_oracle_outputs_are_current() {
    let missing: Vec<&str> = ["pasmo", "z80asm", "z80dasm"]
        .into_iter()
        .filter(|t| !on_path(t))
        .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "{} not installed and RETRO_REQUIRE_CONFORMANCE is set: the goldens cannot be re-checked",
            missing.join(", ")
        );
        eprintln!(
            "SKIPPED: {} not installed: oracle re-check skipped",
            missing.join(", ")
        );
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

/// Syntax-neutral form of an instruction: lower case, no blanks, every number (`$85`, `085h`,
/// `133`) replaced by `#` and its decimal value, `$-121` (relative) kept apart from `$85` (hex).
fn normalize(text: &str) -> String {
    let t: Vec<char> = text
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        if c == '$' && t.get(i + 1).is_some_and(|d| d.is_ascii_hexdigit()) {
            let run: String = t[i + 1..].iter().take_while(|d| d.is_ascii_hexdigit()).collect();
            out += &format!("#{}", i64::from_str_radix(&run, 16).unwrap());
            i += 1 + run.len();
        } else if c.is_ascii_digit() {
            let run: String = t[i..].iter().take_while(|d| d.is_ascii_alphanumeric()).collect();
            let v = match run.strip_suffix('h') {
                Some(h) => i64::from_str_radix(h, 16).unwrap(),
                None => run.parse().unwrap(),
            };
            out += &format!("#{v}");
            i += run.len();
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

#[test]
fn disassembly_matches_z80dasm_for_documented_instructions() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let reference = std::fs::read_to_string(base.join("z80dasm/op_documented.txt")).expect("z80dasm output");
    let theirs: Vec<String> = reference
        .lines()
        .filter(|l| l.starts_with('\t') && !l.trim_start().starts_with("org"))
        .map(|l| normalize(l.split(';').next().unwrap_or("")))
        .collect();
    let bin = retro_z80_asm::assemble_file(&base.join("cases/op_documented.asm"))
        .expect("assembles")
        .bytes;
    let mut ours = vec![];
    let mut i = 0;
    while i < bin.len() {
        let (insn, len) = retro_z80_asm::decode(&bin[i..]).expect("decodes");
        ours.push(normalize(&insn.to_string()));
        i += len;
    }
    assert_eq!(ours.len(), theirs.len(), "instruction counts differ");
    let diffs: Vec<String> = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("ours {a:<24} z80dasm {b}"))
        .collect();
    assert!(
        diffs.is_empty(),
        "{} of {} differ:\n{}",
        diffs.len(),
        ours.len(),
        diffs.join("\n")
    );
}
