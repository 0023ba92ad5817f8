//! End-to-end tests of the two C64 listing conventions (petcat's lower case and the upper-case
//! ASCII of type-in listings), `--charset`, `--machine` on debug/tok/list, and how a `.bas` file
//! finds its machine (docs/cli.md, docs/cbm-basic.md).

use std::path::Path;
use std::process::Output;

mod common;
use common::text;

fn retro(args: &[&str], stdin: &str, dir: &Path) -> Output {
    common::retro_in(dir, args, stdin.as_bytes())
}

const UPPER: &str = "10 POKE 53280,0:PRINT \"HELLO\";\n20 FOR I=1 TO 3:PRINT I;:NEXT\n";
const LOWER: &str = "10 poke 53280,0:print \"hello\";\n20 for i=1 to 3:print i;:next\n";

#[test]
fn an_upper_case_listing_with_c64_words_runs_on_the_c64_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("up.bas"), UPPER).unwrap();
    let r = retro(&["run", "--headless", "up.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "HELLO 1  2  3 ");
    assert_eq!(
        text(&r.stderr),
        "retro: up.bas: running on the Commodore 64 (an upper-case C64 listing: it uses POKE); --machine bbc for BBC BASIC\n"
    );
    assert_eq!(r.status.code(), Some(0));
    // With --machine the choice is not a guess: only the convention is said.
    let r = retro(
        &["run", "--headless", "--machine", "c64", "up.bas"],
        "",
        dir.path(),
    );
    assert_eq!(text(&r.stdout), "HELLO 1  2  3 ");
    assert!(
        text(&r.stderr).contains("read as an upper-case ASCII listing"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn an_upper_case_bbc_listing_still_goes_to_bbc_basic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.bas"), "10 PRINT \"HI\"\n20 END\n").unwrap();
    let r = retro(&["run", "--headless", "b.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "HI\n");
    assert!(
        text(&r.stderr).contains("running as BBC BASIC"),
        "{}",
        text(&r.stderr)
    );
    // A BBC-only keyword decides without a word on stderr.
    std::fs::write(dir.path().join("r.bas"), "10 REPEAT:PRINT \"HI\":UNTIL TRUE\n").unwrap();
    let r = retro(&["run", "--headless", "r.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "HI\n");
    assert_eq!(text(&r.stderr), "");
}

#[test]
fn the_wrong_charset_stops_at_line_one_with_a_hint_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("up.bas"), UPPER).unwrap();
    let r = retro(
        &[
            "run",
            "--headless",
            "--machine",
            "cbm",
            "--charset",
            "petcat",
            "up.bas",
        ],
        "",
        dir.path(),
    );
    assert_eq!(
        text(&r.stderr),
        "?SYNTAX  ERROR IN 10 (line 10 crunches as upper-case ASCII: try --charset ascii)\n"
    );
    assert_eq!(r.status.code(), Some(1));
    std::fs::write(dir.path().join("low.bas"), LOWER).unwrap();
    let r = retro(
        &["run", "--headless", "--charset", "ascii", "low.bas"],
        "",
        dir.path(),
    );
    assert_eq!(
        text(&r.stderr),
        "?SYNTAX  ERROR IN 10 (line 10 crunches as petcat's lower case: try --charset petcat)\n"
    );
}

#[test]
fn both_conventions_tokenize_to_the_same_bytes_and_list_writes_either() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("up.bas"), UPPER).unwrap();
    std::fs::write(dir.path().join("low.bas"), LOWER).unwrap();
    for (src, out) in [("up.bas", "up.prg"), ("low.bas", "low.prg")] {
        let r = retro(&["tok", "--machine", "c64", src, "-o", out], "", dir.path());
        assert!(r.status.success(), "{}", text(&r.stderr));
    }
    let up = std::fs::read(dir.path().join("up.prg")).unwrap();
    assert_eq!(up, std::fs::read(dir.path().join("low.prg")).unwrap());
    // list writes the convention it was given: the listing's own, or --charset's.
    let r = retro(&["list", "--machine", "cbm", "up.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), UPPER);
    let r = retro(&["list", "--charset", "petcat", "up.prg"], "", dir.path());
    assert_eq!(text(&r.stdout), LOWER);
    let r = retro(&["list", "--charset", "ascii", "low.prg"], "", dir.path());
    assert_eq!(text(&r.stdout), UPPER);
    let r = retro(&["list", "low.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), LOWER);
    let r = retro(&["list", "up.prg"], "", dir.path());
    assert_eq!(text(&r.stdout), LOWER);
}

#[test]
fn debug_takes_machine_and_charset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.bas"), "10 PRINT \"HI\"\n20 A=1\n").unwrap();
    let r = retro(
        &["debug", "--machine", "c64", "--script", "=run", "b.bas"],
        "",
        dir.path(),
    );
    let out = text(&r.stdout);
    assert!(out.contains("HI"), "{out}");
    assert!(r.status.success(), "{}{}", out, text(&r.stderr));
    let r = retro(
        &[
            "debug",
            "--machine",
            "cbm",
            "--charset",
            "petcat",
            "--script",
            "=run",
            "b.bas",
        ],
        "",
        dir.path(),
    );
    assert!(
        text(&r.stdout).contains("?SYNTAX  ERROR IN 10"),
        "{}",
        text(&r.stdout)
    );
}

#[test]
fn empty_statements_do_nothing_in_programs_and_at_the_prompt() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.bas"),
        "10 :print \"a\";:\n20 a=1: :b=2::print a;b;\n30 for i=1 to 2:next:\n40 if 1 then :print \"z\"\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "e.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), "A 1  2 Z\n");
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let r = retro(
        &["c64", "--headless"],
        ":print \"x\":\n::\nprint \"y\";::\n",
        dir.path(),
    );
    let out = text(&r.stdout);
    assert!(!out.contains("ERROR"), "{out}");
    assert!(out.contains("\nX\n"), "{out}");
    assert!(out.contains("Y\n"), "{out}");
}

/// Every upper-case corpus program typed at `retro c64`'s READY. prompt, then RUN, prints what
/// running the file prints (cbmbasic's output, tests/upper/NAME.out), then READY.
#[test]
fn typing_each_corpus_program_then_run_prints_what_running_the_file_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("interpreters/cbm/tests/upper");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "bas").then_some(p)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 120, "{}", names.len());
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for bas in &names {
        let listing = std::fs::read_to_string(bas).unwrap();
        let out = std::fs::read(bas.with_extension("out")).unwrap();
        let want = format!(
            "RUN\n{}\nREADY.\n",
            out.iter().map(|&c| c as char).collect::<String>()
        );
        let r = retro(&["c64", "--headless"], &format!("{listing}RUN\n"), work.path());
        let got = text(&r.stdout);
        if !got.ends_with(&want) {
            failures.push(format!("{}:\n{got}", bas.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The type-in trick of printing a command on the screen and POKEing HOME, DOWNs and RETURN
/// into the keyboard buffer (631, count at 198): the keys are typed at READY. when the program
/// ends, so the command runs, headless as in the terminal.
#[test]
fn keys_poked_into_the_keyboard_buffer_are_typed_at_ready() {
    let dir = tempfile::tempdir().unwrap();
    let r = retro(
        &["c64", "--headless"],
        "10 PRINT CHR$(147);:PRINT:PRINT:PRINT \"PRINT 6*7\"\n\
         20 POKE 631,19:POKE 632,17:POKE 633,17:POKE 634,13:POKE 198,4\nRUN\n",
        dir.path(),
    );
    let out = text(&r.stdout);
    assert!(out.ends_with("READY.\n\n 42 \n\nREADY.\n"), "{out}");
}

/// Issue 32.4: a 1541 disk holds 664 blocks of 254 bytes; a program writing more finds the disk
/// full on the command channel (72,DISK FULL) and the file holds what fitted: 663 blocks, as the
/// program's own file (full.bas) is on the disk too and takes one.
#[test]
fn a_file_stops_growing_when_the_disk_is_full() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("full.bas"),
        "10 open 2,8,2,\"big,s,w\"\n\
         20 for i=1 to 1800:print#2,\"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\";:next\n\
         30 close 2:open 15,8,15:input#15,a,b$:print a;b$:close 15\n",
    )
    .unwrap();
    let r = retro(&["run", "--headless", "full.bas"], "", dir.path());
    assert_eq!(text(&r.stdout), " 72 DISK FULL\n", "{}", text(&r.stderr));
    let size = std::fs::metadata(dir.path().join("big")).unwrap().len();
    assert_eq!(size, 663 * 254);
}

/// Issue 32.4: files already on the disk count toward its 664 blocks, each rounded up to whole
/// blocks of 254 bytes (an empty file takes one), as the 1541's BAM counts them; a file the C64
/// cannot name (hidden) is not on the disk. Replacing a file with `@0:` gives its blocks back.
#[test]
fn files_already_on_the_disk_take_their_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 600 blocks and one byte: 601 blocks; an empty file: 1; the program: 1. 61 are left.
    std::fs::write(d.join("old"), vec![b'x'; 600 * 254 + 1]).unwrap();
    std::fs::write(d.join("empty"), b"").unwrap();
    std::fs::write(d.join(".hidden"), vec![b'x'; 200_000]).unwrap();
    let fill = "10 open 2,8,2,\"@0:new,s,w\"\n\
         20 for i=1 to 200:print#2,\"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\";:next\n\
         30 close 2:open 15,8,15:input#15,a,b$:print a;b$:close 15\n";
    std::fs::write(d.join("full.bas"), fill).unwrap();
    let r = retro(&["run", "--headless", "full.bas"], "", d);
    assert_eq!(text(&r.stdout), " 72 DISK FULL\n", "{}", text(&r.stderr));
    assert_eq!(std::fs::metadata(d.join("new")).unwrap().len(), 61 * 254);
    // Run again: `new` (61 blocks) is replaced, and its blocks come back only after the close,
    // so the new one finds the disk full at once, then frees the old 61 blocks.
    let r = retro(&["run", "--headless", "full.bas"], "", d);
    assert_eq!(text(&r.stdout), " 72 DISK FULL\n", "{}", text(&r.stderr));
    assert_eq!(std::fs::metadata(d.join("new")).unwrap().len(), 0);
    // With the old file gone there is room for all 20,000 bytes (79 blocks).
    std::fs::remove_file(d.join("old")).unwrap();
    let r = retro(&["run", "--headless", "full.bas"], "", d);
    assert_eq!(text(&r.stdout), " 0 OK\n", "{}", text(&r.stderr));
    assert_eq!(std::fs::metadata(d.join("new")).unwrap().len(), 20_000);
}
