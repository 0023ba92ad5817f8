//! `retro bbc --headless`: BBC BASIC's `>` prompt fed through stdin, as a user types at it: a
//! program entered, listed and run, saved, cleared, loaded and run again, with files in the
//! directory retro started in.

use std::process::{Command, Output};

mod common;

/// BBC BASIC's prompt (`retro bbc --headless`) in `dir`, with `stdin` typed at it.
fn prompt(dir: &std::path::Path, stdin: &str) -> Output {
    common::retro_in(dir, &["bbc", "--headless"], stdin.as_bytes())
}

#[path = "common/pty.rs"]
mod pty;

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

/// `retro run --machine bbc` with no file is the same prompt (headless: stdout is not a terminal).
#[test]
fn retro_run_machine_bbc_without_a_file_starts_the_prompt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = common::retro_in(dir.path(), &["run", "--machine", "bbc"], b"10 PRINT 6*7\nRUN\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text, ">10 PRINT 6*7\n>RUN\n        42\n>");
    assert_eq!(out.status.code(), Some(0));
}

/// LOAD takes a text listing (tokenizing it: LIST shows `P.` as PRINT), and CHAIN replaces the
/// program and runs it, keeping the resident integers.
#[test]
fn load_of_a_text_listing_and_chain_at_the_prompt() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("listing"), "10 A%=6\n20 P.A%*7\n").unwrap();
    std::fs::write(dir.path().join("next.bas"), "10 PRINT \"chained \";B%+1\n").unwrap();
    let out = prompt(
        dir.path(),
        "LOAD \"listing\"\nLIST\nRUN\nB%=41\nCHAIN \"next/bas\"\nLIST\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let want = concat!(
        ">LOAD \"listing\"\n>LIST\n   10 A%=6\n   20 PRINTA%*7\n>RUN\n        42\n",
        ">B%=41\n>CHAIN \"next/bas\"\nchained 42\n>LIST\n   10 PRINT \"chained \";B%+1\n>",
    );
    assert_eq!(text, want);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn errors_return_to_the_prompt_and_quit_sets_the_exit_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = prompt(dir.path(), "PRINT 1/0\nx=7\nPRINT x\nQUIT 4\nPRINT \"not run\"\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        ">PRINT 1/0\n\nDivision by zero\n>x=7\n>PRINT x\n         7\n>QUIT 4\n"
    );
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn a_programs_quit_sets_the_exit_status_of_retro_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let prog = dir.path().join("leave.bbc");
    std::fs::write(&prog, "10 PRINT \"bye\"\n20 QUIT 5\n30 PRINT \"not run\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["run", "--headless"])
        .arg(&prog)
        .output()
        .expect("run retro");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "bye");
    assert_eq!(out.status.code(), Some(5));
}

#[test]
fn auto_numbers_lines_and_trace_shows_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A line holding only the Escape character (byte 27) is Escape, which ends AUTO.
    let out = prompt(
        dir.path(),
        "AUTO 100,5\nA%=1\nPRINT A%\n\u{1b}\nLIST\nTRACE ON\nRUN\nTRACE OFF\nRUN\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let want = concat!(
        ">AUTO 100,5\n  100 A%=1\n  105 PRINT A%\n  110 \nEscape\n>LIST\n  100 A%=1\n  105 PRINT A%\n",
        ">TRACE ON\n>RUN\n[100] [105]          1\n>TRACE OFF\n>RUN\n         1\n>",
    );
    assert_eq!(text, want);
}

/// `retro bbc` in a pseudo-terminal, as a user types at it: a program entered and listed, run,
/// a loop stopped with Escape, saved, cleared, loaded and run again; lines edited with the
/// cursor keys and recalled with Up; QUIT leaves at once and gives the terminal back as it was.
#[test]
#[cfg(unix)]
fn the_prompt_in_a_pseudo_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = pty::Tmux::start("bbc-prompt", 100, 40, dir.path(), "bbc") else {
        return;
    };
    let (send, line, wait_for) = (
        |keys: &[&str]| tmux.send(keys),
        |text: &str| tmux.line(text),
        |text: &str| tmux.wait_for(text),
    );
    // MODE 7 shows each character two terminal cells wide.
    let spaced = |s: &str| s.chars().map(String::from).collect::<Vec<_>>().join(" ");
    wait_for(&spaced("BBC BASIC V"));
    // A typing mistake mended with the cursor keys: "PRNT" becomes "PRINT". (The line does not
    // end in ';', which tmux would take as its own command separator.)
    // Each listed line fits MODE 7's 40 columns, so LIST shows it on one row. `G.` is typed
    // where LIST shows GOTO, so what LIST prints cannot be mistaken for the typed lines.
    line("10 I%+=1:IF I% MOD 3000 G.10");
    let typed = "15 PRNT \"tick \";:REM";
    send(&["-l", typed]);
    for _ in 0..typed.len() - typed.find("NT \"").unwrap() {
        send(&["Left"]);
    }
    send(&["-l", "I"]);
    send(&["Enter"]);
    line("20 G.10");
    line("LIST");
    wait_for(&spaced("10 I%+=1:IF I% MOD 3000 GOTO10"));
    wait_for(&spaced("20 GOTO10"));
    line("RUN");
    wait_for(&spaced("tick tick tick"));
    send(&["Escape"]);
    wait_for(&spaced("Escape at line"));
    line("SAVE \"ticker\"");
    line("NEW");
    line("LIST");
    line("LOAD \"ticker\"");
    // Line 20 now prints a value no typed line holds: 21000 only if LOAD brought back line 10
    // (which takes I% from 2999 to 3000) and line 15.
    line("20 PRINT I%*7");
    // Up recalls the last line typed; it is edited and run again.
    line("PRINT 6*7");
    wait_for(&spaced("42"));
    send(&["Up"]);
    send(&["BSpace"]);
    send(&["-l", "8"]);
    send(&["Enter"]);
    wait_for(&spaced("48"));
    // Ctrl-U clears the line (it typed a `u`: "PRINT 6*8uPRINT 5" was Unknown or missing variable).
    send(&["Up"]);
    send(&["C-u"]);
    line("PRINT 5*11");
    wait_for(&spaced("55"));
    line("I%=2999:RUN");
    // Line 20's PRINT starts a new statement, so the number takes its field of 10.
    wait_for(&spaced("tick      21000"));
    // QUIT leaves at once (no "press a key" hold), with its value as the exit status.
    line("QUIT 3");
    let s = tmux.finish();
    assert!(s.contains("RC=3"), "{s}");
    let saved = std::fs::read(dir.path().join("ticker")).expect("SAVE wrote the program");
    assert!(saved.ends_with(&[0x0D, 0xFF]));
}

/// SAVE writes through a symbolic link to its target (the link stays a link), as `cat >` would.
#[test]
#[cfg(unix)]
fn save_writes_through_a_symbolic_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("real"), b"old").unwrap();
    std::os::unix::fs::symlink("real", dir.path().join("prog")).unwrap();
    let out = prompt(dir.path(), "10 PRINT 1\nSAVE \"prog\"\n");
    assert_eq!(out.status.code(), Some(0));
    let saved = std::fs::read(dir.path().join("real")).expect("the link's target");
    assert!(saved.ends_with(&[0x0D, 0xFF]), "the tokenized program: {saved:?}");
    let link = std::fs::symlink_metadata(dir.path().join("prog")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
}
