//! Files on the host: a program's files stay inside the directory it was given, and a file is
//! never left half written (it is written whole when closed or when the run ends, through a
//! temporary name). The corpus (tests/corpus/193-204) checks what programs read back against
//! brandy; these check what the host directory holds afterwards.

use std::path::{Path, PathBuf};

use retro_bbc::interp::{Outcome, run_text_in};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retro-files-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

fn run(src: &str, dir: &Path) -> (String, Option<String>) {
    let t = run_text_in(src, b"", Some(1_000_000), Some(dir)).expect("tokenizes");
    assert_ne!(t.outcome, Outcome::Aborted, "the program ran away");
    (t.output, t.outcome.message())
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_file_left_open_by_an_error_keeps_its_old_contents() {
    let d = scratch("open");
    std::fs::write(d.join("old.txt"), b"old").expect("write");
    let (_, err) = run(
        "10 c=OPENOUT \"out/txt\":BPUT#c,\"abc\":d=OPENOUT \"old/txt\":BPUT#d,\"new\":X=1/0\n",
        &d,
    );
    assert_eq!(err.as_deref(), Some("Division by zero at line 10"));
    // Issue 32: the run stopped, so neither the new file nor the half-written one is written.
    assert_eq!(std::fs::read(d.join("old.txt")).expect("kept"), b"old");
    assert_eq!(entries(&d), ["old.txt"]);
    // A file left open when the program ends normally is written whole.
    let (_, err) = run("10 c=OPENOUT \"out/txt\":BPUT#c,\"abc\"\n", &d);
    assert_eq!(err, None);
    assert_eq!(std::fs::read(d.join("out.txt")).expect("written"), b"abc\n");
    assert_eq!(entries(&d), ["old.txt", "out.txt"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_existing_file_keeps_its_old_contents_until_the_new_ones_are_complete() {
    let d = scratch("replace");
    std::fs::write(d.join("f.dat"), b"older").expect("write");
    // While the program writes, the host file is untouched; CLOSE# replaces it in one step.
    let (out, err) = run(
        "10 c=OPENOUT \"f/dat\":BPUT#c,\"new\";\n20 d=OPENIN \"f/dat\":PRINT EXT#d:CLOSE#d\n30 CLOSE#c\n",
        &d,
    );
    assert_eq!(err, None);
    assert_eq!(out, "         5\n");
    assert_eq!(std::fs::read(d.join("f.dat")).expect("written"), b"new");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn names_cannot_leave_the_directory() {
    let d = scratch("escape");
    let inner = d.join("inner");
    std::fs::create_dir_all(&inner).expect("inner");
    std::fs::write(d.join("secret"), b"x").expect("write");
    for name in [
        "../secret",
        "/etc/passwd",
        "sub/../../secret",
        "^.secret",
        "$.^.secret",
    ] {
        let (_, err) = run(&format!("10 c=OPENIN \"{name}\"\n"), &inner);
        assert_eq!(err.as_deref(), Some("Bad name at line 10"), "{name}");
        let (_, err) = run(&format!("10 c=OPENOUT \"{name}\"\n"), &inner);
        assert_eq!(err.as_deref(), Some("Bad name at line 10"), "{name}");
    }
    let (_, err) = run("10 *DELETE ../secret\n", &inner);
    assert_eq!(err.as_deref(), Some("Bad name at line 10"));
    assert!(d.join("secret").exists());
    // Inside the directory `^` is fine as long as it stays inside.
    std::fs::create_dir_all(inner.join("sub")).expect("sub");
    let (out, err) = run(
        "10 *DIR sub\n20 c=OPENOUT \"^.x\":CLOSE#c\n30 PRINT OPENIN \"^.x\"<>0\n",
        &inner,
    );
    assert_eq!((out.as_str(), err), ("        -1\n", None));
    assert!(inner.join("x").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_a_directory_there_are_no_files() {
    let t = retro_bbc::interp::run_text("10 PRINT OPENIN \"x\"\n", b"", Some(1000)).expect("tokenizes");
    assert_eq!(t.outcome.message().as_deref(), Some("Bad name at line 10"));
}

#[test]
fn star_cat_lists_the_directory() {
    let d = scratch("cat");
    std::fs::write(d.join("b.dat"), b"").expect("write");
    std::fs::write(d.join("a.dat"), b"").expect("write");
    std::fs::write(d.join(".hidden"), b"").expect("write");
    let (out, err) = run("10 *CAT\n20 OSCLI \".\"\n", &d);
    assert_eq!(err, None);
    // Host names as RISC OS shows them: `/` for the host's `.`; hidden files are not listed.
    assert_eq!(out, "a/dat\nb/dat\na/dat\nb/dat\n");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn any_channel_number_that_is_not_open_is_a_channel_error() {
    let d = scratch("channels");
    for n in ["0", "1", "-1", "254", "256", "-2147483648", "2147483647"] {
        let (_, err) = run(&format!("10 X=BGET#{n}\n"), &d);
        assert_eq!(err.as_deref(), Some("Channel at line 10"), "BGET#{n}");
        let (_, err) = run(&format!("10 PTR#({n})=0\n"), &d);
        assert_eq!(err.as_deref(), Some("Channel at line 10"), "PTR#{n}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// CHAIN inside a program, as RISC OS BASIC V does it: the named file (a text listing here, which
/// BASIC V tokenizes as it loads) replaces the running program, which starts from its first line
/// with its variables gone but A%-Z% kept (facts: the BBC BASIC V manual's CHAIN entry; the
/// statement after CHAIN never runs).
#[test]
fn chain_replaces_the_running_program_keeping_only_the_resident_integers() {
    let d = scratch("chain");
    std::fs::write(
        d.join("second"),
        "10 PRINT \"second \";A%\n20 ON ERROR PRINT REPORT$:END\n30 PRINT x\n",
    )
    .expect("write");
    let (out, err) = run(
        "10 PRINT \"first\"\n20 A%=42:x=7\n30 CHAIN \"sec\"+\"ond\"\n40 PRINT \"never\"\n",
        &d,
    );
    assert_eq!(err, None);
    assert_eq!(out, "first\nsecond 42\nUnknown or missing variable\n");
    let _ = std::fs::remove_dir_all(&d);
}

/// A program can write the program it chains; a missing file is RISC OS's "File not found",
/// which ON ERROR catches, and a file that is not a program is "Bad program".
#[test]
fn chain_errors_are_basic_errors_on_error_catches() {
    let d = scratch("chainerr");
    let (out, err) = run(
        "10 ON ERROR PRINT REPORT$;\" \";ERR:IF ERR=214 THEN 30 ELSE END\n\
         20 CHAIN \"nosuch\"\n\
         30 c=OPENOUT \"made\":BPUT#c,\"10 PRINT 6*7\":CLOSE#c\n\
         40 CHAIN \"made\"\n",
        &d,
    );
    assert_eq!(err, None);
    assert_eq!(out, "File not found 214\n        42\n");
    std::fs::write(d.join("junk"), [0x0D, 0x00, 0x0A, 0x02]).expect("write");
    let (_, err) = run("10 CHAIN \"junk\"\n", &d);
    assert_eq!(err.as_deref(), Some("Bad program at line 10"));
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 32: the open files together hold at most 64 MiB (they live in memory), so a program
/// cannot take 32 x 64 MiB by opening many files: the next growth is "Disc error".
#[test]
fn open_files_together_are_bounded() {
    let d = scratch("held");
    let (_, err) = run(
        "10 DIM c%(3)\n20 FOR i%=0 TO 3:c%(i%)=OPENOUT(\"f\"+STR$i%):EXT#c%(i%)=20*1024*1024:NEXT\n",
        &d,
    );
    assert_eq!(err.as_deref(), Some("Disc error at line 20"));
    let _ = std::fs::remove_dir_all(&d);
}

/// TRACE TO writes the trace to a file, an entry a line without brackets, and the file is
/// there even when the run fails (a trace is wanted most then); TRACE CLOSE sends the entries
/// back to the screen, and CLOSE#0 closes the trace file as it closes the others.
#[test]
fn trace_to_writes_the_trace_to_a_file_even_when_the_run_fails() {
    let d = scratch("trace");
    let (out, err) = run(
        "10 TRACE TO \"trace/txt\":TRACE ON:TRACE PROC:TRACE ENDPROC\n20 PROCa\n\
         30 TRACE CLOSE:PROCa\n40 X=1/0\n50 DEF PROCa:PRINT \"a\";:ENDPROC\n",
        &d,
    );
    assert_eq!(err.as_deref(), Some("Division by zero at line 40"));
    assert_eq!(out, "a[PROCa] a[ENDPROC] [40] ");
    let written = std::fs::read_to_string(d.join("trace.txt")).expect("written");
    assert_eq!(written, "20\nPROCa\nENDPROC\n30\n");
    // CLOSE#0 takes the trace file with it: the next entries are on the screen.
    let (out, err) = run(
        "10 TRACE TO \"t2/txt\":TRACE PROC:PROCa:CLOSE#0:PROCa\n20 END\n30 DEF PROCa:ENDPROC\n",
        &d,
    );
    assert_eq!(err, None);
    assert_eq!(out, "[PROCa] ");
    assert_eq!(
        std::fs::read_to_string(d.join("t2.txt")).expect("written"),
        "PROCa\n"
    );
    let _ = std::fs::remove_dir_all(&d);
}
