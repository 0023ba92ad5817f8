//! End-to-end tests of `retro` on Commodore 64 BASIC programs: tok, list, run (headless), exit
//! statuses, RUN/STOP by key script, INPUT from stdin and files on device 8.

use std::path::Path;
use std::process::Output;

mod common;
use common::text;

/// `retro ARGS` in `dir` with `stdin` typed in.
fn retro(args: &[&str], stdin: &str, dir: &Path) -> Output {
    common::retro_in(dir, args, stdin.as_bytes())
}

fn rugg(n: u8, ext: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("interpreters/cbm/tests/rugg/bm{n}.{ext}"))
}

#[test]
fn tok_writes_the_bytes_the_rom_saves_and_list_reads_them_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bm7.prg");
    let r = retro(
        &[
            "tok",
            rugg(7, "bas").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "",
        dir.path(),
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(rugg(7, "prg")).unwrap()
    );
    let r = retro(&["list", out.to_str().unwrap()], "", dir.path());
    assert_eq!(text(&r.stdout), std::fs::read_to_string(rugg(7, "bas")).unwrap());
    let r = retro(&["list", "--tokens", out.to_str().unwrap()], "", dir.path());
    let view = text(&r.stdout);
    assert!(view.contains("$0801  link $080A  line 300"), "{view}");
    assert!(view.contains("keyword GOSUB"), "{view}");
}

#[test]
fn a_run_prints_the_programs_text_and_errors_go_to_stderr_with_status_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.bas"), "10 print 1/3;\"x\"\n20 print 5/0\n").unwrap();
    let r = retro(&["run", "--headless", "p.bas"], "", dir.path());
    // Unshifted letters show upper case, as on the C64's screen.
    assert_eq!(text(&r.stdout), " .333333333 X\n");
    assert_eq!(text(&r.stderr), "?DIVISION BY ZERO  ERROR IN 20\n");
    assert_eq!(r.status.code(), Some(1));
}

#[test]
fn a_program_that_ends_exits_0_and_prints_no_ready() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.bas"),
        "10 for i=1 to 3:print i;:next\n20 end\n30 print \"no\"\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "p.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), " 1  2  3 ");
    assert_eq!(r.status.code(), Some(0));
}

/// The text stream keeps what the upper-case screen keeps apart: CHR$(201), a shifted I, is a
/// graphic there, not the letter I.
#[test]
fn shifted_letters_are_graphics_in_the_text_stream() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.bas"),
        "10 print chr$(201)chr$(73)chr$(81)chr$(209)chr$(255)\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "p.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "{SHIFT-I}IQ{SHIFT-Q}π\n");
}

#[test]
fn run_stop_breaks_a_runaway_program() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("loop.bas"), "10 goto 10\n").unwrap();
    let r = retro(
        &["run", "--headless", "--keys", "=+500 ESCAPE", "loop.bas"],
        "",
        dir.path(),
    );
    assert_eq!(text(&r.stderr), "BREAK IN 10\n");
    assert_eq!(r.status.code(), Some(1));
}

#[test]
fn input_reads_stdin_lines_and_redoes_bad_numbers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("in.bas"),
        "10 input \"name\";n$\n20 input a,b\n30 print n$;a+b\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "in.bas"], "ada\nx\n1,2\n", dir.path());
    assert_eq!(
        text(&r.stdout),
        "NAME? ADA\n? X\n?REDO FROM START\n? 1,2\nADA 3 \n"
    );
    assert_eq!(r.status.code(), Some(0));
}

#[test]
fn files_on_device_8_live_in_the_programs_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("f.bas"),
        "10 open 2,8,2,\"data,s,w\":print#2,\"hello\";\",\";42:close 2\n\
         20 open 3,8,3,\"data,s,r\":input#3,a$,b:close 3:print a$;b\n\
         30 open 4,8,4,\"../escape,s,w\"\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "f.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "HELLO 42 \n");
    assert_eq!(std::fs::read(dir.path().join("data")).unwrap(), b"HELLO, 42 \r");
    // A name that would leave the directory is refused.
    assert_eq!(text(&r.stderr), "?FILE NOT FOUND  ERROR IN 30\n");
    assert!(!dir.path().parent().unwrap().join("escape").exists());
}

#[test]
fn sys_names_the_machine_code_address() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.bas"), "10 sys 49152\n").unwrap();
    let r = retro(&["run", "--headless", "s.bas"], "", dir.path());
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("SYS 49152 ($C000)"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn bad_files_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.bas"), "print 1\n").unwrap();
    let r = retro(&["run", "--headless", "bad.bas"], "", dir.path());
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("no line number"), "{}", text(&r.stderr));
    let r = retro(&["list", "missing.prg"], "", dir.path());
    assert_eq!(r.status.code(), Some(2));
}
