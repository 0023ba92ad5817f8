//! `retro bbc --headless`: BBC BASIC's `>` prompt fed through stdin, as a user types at it: a
//! program entered, listed and run, saved, cleared, loaded and run again, with files in the
//! directory retro started in.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn prompt(dir: &std::path::Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["bbc", "--headless"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run retro");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("retro finishes")
}

#[test]
fn enter_list_run_save_new_load_and_run_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = prompt(
        dir.path(),
        concat!(
            "10 FOR I%=1 TO 3\n20 PRINT I%*I%;\n30 NEXT\nLIST\nRUN\n",
            "SAVE \"squares\"\nNEW\nLIST\nLOAD \"squares\"\n20 PRINT I%+100;\nRUN\n",
        ),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let want = concat!(
        ">10 FOR I%=1 TO 3\n>20 PRINT I%*I%;\n>30 NEXT\n>LIST\n   10 FOR I%=1 TO 3\n",
        "   20 PRINT I%*I%;\n   30 NEXT\n>RUN\n         1         4         9>SAVE \"squares\"\n",
        ">NEW\n>LIST\n>LOAD \"squares\"\n>20 PRINT I%+100;\n>RUN\n       101       102       103>",
    );
    assert_eq!(text, want);
    assert_eq!(out.status.code(), Some(0));
    // SAVE wrote the RISC OS tokenized program.
    let saved = std::fs::read(dir.path().join("squares")).expect("saved");
    assert_eq!(saved.first(), Some(&0x0D));
    assert!(saved.ends_with(&[0x0D, 0xFF]));
}

#[test]
fn errors_return_to_the_prompt_and_quit_sets_the_exit_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = prompt(dir.path(), "PRINT 1/0\nx=7\nPRINT x\nQUIT 4\nPRINT \"not run\"\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        ">PRINT 1/0\nDivision by zero\n>x=7\n>PRINT x\n         7\n>QUIT 4\n"
    );
    assert_eq!(out.status.code(), Some(4));
}
