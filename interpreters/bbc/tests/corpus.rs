//! The differential corpus: every program in tests/corpus runs on our interpreter and its output
//! must equal what Debian's brandy printed for it (NAME.brandy, recorded by corpus/record.sh),
//! except where RISC OS and Brandy differ: NAME.error gives RISC OS's message for an uncaught
//! error (Brandy words its own), and NAME.expect the whole expected transcript (programs that read
//! input, and RISC OS number formats). Each such program says why in a REM or in its .expect.

use std::path::{Path, PathBuf};

use retro_bbc::interp::vdu::Vdu;
use retro_bbc::interp::{Outcome, run_text_in};

const BUDGET: u64 = 50_000_000;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// The printable text of a VDU byte stream, as our headless output shows it.
fn printable(bytes: &[u8]) -> String {
    let mut v = Vdu::default();
    v.write_all(bytes);
    let mut s = String::new();
    v.take_text(&mut s);
    s
}

/// One canonical form for both sides: the printed text, then the uncaught error if any.
fn transcript(text: &str, error: Option<&str>) -> String {
    match error {
        Some(e) => format!("{text}\n!! {e}\n"),
        None => text.to_string(),
    }
}

/// Brandy's spool: the VDU stream, then on an error `06 04 CR LF message CR LF`, then its `>`
/// prompt.
fn brandy_transcript(raw: &[u8]) -> (String, Option<String>) {
    let raw = raw.strip_suffix(b">").unwrap_or(raw);
    let marker = b"\x06\x04\r\n";
    if raw.ends_with(b"\r\n")
        && let Some(at) = raw.windows(marker.len()).rposition(|w| w == marker)
    {
        let msg = &raw[at + marker.len()..raw.len() - 2];
        return (
            printable(&raw[..at]),
            Some(String::from_utf8_lossy(msg).into_owned()),
        );
    }
    (printable(raw), None)
}

/// A fresh empty directory for one program's files (brandy's recording ran in one too).
fn scratch_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retro-corpus-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

fn ours(src: &str, input: &[u8]) -> String {
    let dir = scratch_dir("files");
    let t = run_text_in(src, input, Some(BUDGET), Some(&dir)).expect("corpus programs tokenize");
    let _ = std::fs::remove_dir_all(&dir);
    let err = match &t.outcome {
        Outcome::Error { .. } => t.outcome.message(),
        Outcome::Aborted => Some("(statement budget exhausted or input ran out)".to_string()),
        _ => None,
    };
    transcript(&t.output, err.as_deref())
}

fn expected(base: &Path) -> Result<String, String> {
    if let Ok(e) = std::fs::read_to_string(base.with_extension("expect")) {
        return Ok(e);
    }
    let raw = std::fs::read(base.with_extension("brandy"))
        .map_err(|_| "no golden file (.brandy or .expect): run tests/corpus/record.sh".to_string())?;
    let (text, brandy_err) = brandy_transcript(&raw);
    let err = match std::fs::read_to_string(base.with_extension("error")) {
        Ok(e) => {
            if brandy_err.is_none() {
                return Err("a .error file but brandy reported no error".into());
            }
            Some(e.trim_end().to_string())
        }
        Err(_) => brandy_err,
    };
    Ok(transcript(&text, err.as_deref()))
}

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bbc"))
        .collect();
    v.sort();
    v
}

/// The corpus's size when it was last counted: a program lost (deleted, or renamed off `.bbc`)
/// fails here. Raise it when adding programs.
const CORPUS_PROGRAMS: usize = 321;

#[test]
fn corpus_has_every_program_it_had() {
    assert!(
        programs().len() >= CORPUS_PROGRAMS,
        "only {} corpus programs, {CORPUS_PROGRAMS} expected",
        programs().len()
    );
}

#[test]
fn every_corpus_program_prints_what_the_golden_file_says() {
    let mut failures = Vec::new();
    let progs = programs();
    for prog in &progs {
        let src = std::fs::read_to_string(prog).expect("readable program");
        let input = std::fs::read(prog.with_extension("in")).unwrap_or_default();
        let got = ours(&src, &input);
        match expected(prog) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!(
                "{}:\n--- expected\n{want:?}\n--- got\n{got:?}",
                prog.file_name().unwrap_or_default().to_string_lossy()
            )),
            Err(e) => failures.push(format!("{}: {e}", prog.display())),
        }
    }
    if std::env::var_os("CORPUS_BLESS_EXPECT").is_some() {
        // Maintainer aid: print our transcripts for review, never written automatically.
        for prog in &progs {
            let src = std::fs::read_to_string(prog).unwrap_or_default();
            let input = std::fs::read(prog.with_extension("in")).unwrap_or_default();
            eprintln!("=== {}\n{}", prog.display(), ours(&src, &input));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus programs differ:\n\n{}",
        failures.len(),
        progs.len(),
        failures.join("\n\n")
    );
}

#[test]
fn brandy_spool_parsing_splits_text_from_the_error() {
    let (t, e) = brandy_transcript(b"hi\r\n\x06\x04\r\nDivision by zero at line 20\r\n>");
    assert_eq!(t, "hi\n");
    assert_eq!(e.as_deref(), Some("Division by zero at line 20"));
    let (t, e) = brandy_transcript(b"A\x1f\x02\x03B>");
    assert_eq!(t, "AB");
    assert_eq!(e, None);
}

/// The golden files must still be what brandy prints: when brandy is installed (CI installs it),
/// every recordable program is run again exactly as record.sh does and compared byte for byte.
#[test]
fn golden_files_match_a_fresh_brandy_recording() {
    use std::process::{Command, Stdio};
    let Ok(status) = Command::new("brandy")
        .arg("-help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    else {
        // CI installs brandy: there a missing brandy is a failure, not a silent pass.
        assert!(
            std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
            "brandy is not installed and RETRO_REQUIRE_CONFORMANCE is set"
        );
        eprintln!("brandy is not installed: golden files not re-checked");
        return;
    };
    let _ = status;
    let tmp = std::env::temp_dir().join(format!("retro-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary directory");
    let mut changed = Vec::new();
    for prog in programs() {
        if prog.with_extension("in").exists() || prog.with_extension("skip-brandy").exists() {
            continue;
        }
        let src = std::fs::read_to_string(&prog).expect("readable program");
        let golden = std::fs::read(prog.with_extension("brandy")).unwrap_or_default();
        // Brandy's SDL start-up occasionally fails on a busy machine (the reference sheet saw it
        // too), so a mismatch is retried before it counts.
        let mut fresh = Vec::new();
        for _ in 0..3 {
            let spool = tmp.join("spool.txt");
            let _ = std::fs::remove_file(&spool);
            let wrapped = tmp.join("prog.bas");
            std::fs::write(&wrapped, format!("0 *SPOOL {}\n{src}", spool.display())).expect("write");
            let work = scratch_dir("brandy-files");
            let _ = Command::new("timeout")
                .args(["20", "brandy", "-quit"])
                .arg(&wrapped)
                .current_dir(&work)
                .env("SDL_VIDEODRIVER", "dummy")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            fresh = std::fs::read(&spool).unwrap_or_default();
            if fresh == golden {
                break;
            }
        }
        if fresh != golden {
            changed.push(
                prog.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        changed.is_empty(),
        "brandy now prints something else for: {changed:?} (re-run tests/corpus/record.sh and review)"
    );
}
