//! End-to-end runs of BBC BASIC programs through `retro run` (headless): output on stdout, errors
//! on stderr in RISC OS's words with exit status 1, stdin for INPUT and GET, scripted keys,
//! Escape, virtual time, --seed, and Rheolism itself.

use std::path::Path;
use std::process::Output;

mod common;

/// `retro ARGS` with `stdin` piped in.
fn retro(args: &[&str], stdin: &[u8]) -> Output {
    common::retro_in(Path::new("."), args, stdin)
}

fn write_prog(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("write program");
    p
}

fn run_text(text: &str, extra: &[&str], stdin: &[u8]) -> Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = write_prog(&dir, "prog.bbc", text);
    let mut args = vec!["run", "--headless"];
    args.extend_from_slice(extra);
    let path = p.to_string_lossy().into_owned();
    args.push(&path);
    retro(&args, stdin)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn printed_text_streams_to_stdout_and_a_normal_end_exits_0() {
    let o = run_text("10 PRINT \"Hello\";\n20 PRINT 6*7\n30 END\n", &[], b"");
    assert_eq!(out(&o), "Hello        42\n");
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
}

#[test]
fn an_uncaught_error_goes_to_stderr_as_risc_os_prints_it_with_status_1() {
    let o = run_text("10 PRINT \"before\"\n20 PRINT nosuch\n", &[], b"");
    assert_eq!(out(&o), "before\n");
    assert_eq!(err(&o).trim_end(), "Unknown or missing variable at line 20");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn input_and_get_read_stdin() {
    let o = run_text(
        "10 INPUT \"Name\";n$\n20 INPUT a,b\n30 k=GET\n40 PRINT n$;\" \";a*b;\" \";CHR$k\n",
        &[],
        b"Ada\n6,7\nz",
    );
    // `INPUT "Name";n$` shows `Name?` (only a prompt followed directly by the variable has no `?`).
    assert_eq!(out(&o), "Name?Ada\n?6,7\nAda 42 z\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn get_takes_scripted_keys() {
    let o = run_text("10 A$=GET$+GET$:PRINT A$\n", &["--keys", "=h i"], b"");
    assert_eq!(out(&o), "hi\n");
}

#[test]
fn escape_interrupts_a_running_program() {
    let o = run_text("10 REPEAT:UNTIL FALSE\n", &["--keys", "=+500 ESCAPE"], b"");
    assert_eq!(err(&o).trim_end(), "Escape at line 10");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn inkey_waits_in_virtual_time() {
    // INKEY(100) with no key waits one virtual second and returns -1; TIME counts centiseconds.
    let o = run_text(
        "10 T=TIME:K=INKEY(100):D=TIME-T\n20 PRINT K;\" \";D>=100 AND D<=104\n",
        &[],
        b"",
    );
    assert_eq!(out(&o), "        -1 -1\n");
}

#[test]
fn seed_makes_rnd_repeat_the_reference_sequence() {
    // --seed N seeds as X=RND(-N) does: the reference sheet's sequence for 12345.
    let o = run_text("10 PRINT RND;\" \";RND;\" \";RND\n", &["--seed", "12345"], b"");
    assert_eq!(out(&o), "-2.09691448E9 -126029714 859347716\n");
    let again = run_text("10 PRINT RND;\" \";RND;\" \";RND\n", &["--seed", "12345"], b"");
    assert_eq!(out(&o), out(&again));
}

#[test]
fn the_screen_dump_shows_the_text_screen() {
    let o = run_text(
        "10 CLS:PRINT TAB(3,2);\"here\"\n",
        &["--dump-screen", "text"],
        b"",
    );
    let text = out(&o);
    assert!(text.lines().any(|l| l.trim_end() == "   here"), "{text}");
}

#[test]
fn unreadable_files_and_bad_listings_exit_2() {
    let o = retro(&["run", "--headless", "/nonexistent/prog.bbc"], b"");
    assert_eq!(o.status.code(), Some(2));
    let dir = tempfile::tempdir().expect("temp dir");
    let p = write_prog(&dir, "bad.bbc", "20 PRINT 1\n10 PRINT 2\n");
    let o = retro(&["run", "--headless", &p.to_string_lossy()], b"");
    assert_eq!(o.status.code(), Some(2), "stderr: {}", err(&o));
    assert!(!err(&o).is_empty());
}

#[test]
fn tokenized_files_run_too() {
    // 10 PRINT "ok" in RISC OS format.
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("tok.bbc");
    std::fs::write(&p, b"\x0d\x00\x0a\x0a\xf1 \"ok\"\x0d\xff").expect("write");
    let o = retro(&["run", "--headless", &p.to_string_lossy()], b"");
    assert_eq!(out(&o), "ok\n");
}

#[test]
fn rheolism_plays_to_game_over_without_keys() {
    // With no keys every brick falls straight down the middle until the well is full.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/rheolism/rheolism.bbc");
    let o = retro(
        &[
            "run",
            "--headless",
            "--time",
            "120",
            "--dump-screen",
            "colours",
            path,
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    let text = out(&o);
    let rows: Vec<&str> = text
        .lines()
        .rev()
        .take(32)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    assert_eq!(rows.len(), 32);
    // The white surround and the well: columns 15-24 of rows 0-24 hold bricks or black.
    assert_eq!(rows[31], "7".repeat(40));
    assert!(rows[0].starts_with(&"7".repeat(15)) && rows[0].ends_with(&"7".repeat(15)));
    let well: String = rows[..25].iter().map(|r| &r[15..25]).collect();
    assert!(
        well.chars().any(|c| c != '0' && c != '7'),
        "no bricks landed:\n{}",
        rows.join("\n")
    );
}
