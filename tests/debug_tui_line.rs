//! The debugger's command line in a terminal (docs/debugger.md, "The command line"): history
//! recalled in a new session from the history file, readline's editing keys, Tab completing a
//! label of Connect-4, a PROC name and a variable of BBC BASIC and a variable of the C64, and the
//! output area at 80x24 (`help` wrapped, F4's full-height view, PgUp
//! stopping at the oldest line), and `trace on`'s lines in the output area. tmux shows the
//! screen as a user sees it.

use std::path::Path;

mod common;

#[path = "common/pty.rs"]
mod pty;

/// `retro debug FILE` in a tmux window of `cols` x `rows`, history in `data`, once it is up.
fn debugger(name: &str, cols: u16, rows: u16, data: &Path, file: &str) -> Option<pty::Tmux> {
    let here = std::env::current_dir().expect("the current directory");
    let data = data.to_str().expect("a UTF-8 temp path");
    let tmux = pty::Tmux::start_with_data(name, cols, rows, &here, data, &format!("debug {file}"))?;
    tmux.wait_for("debug:");
    Some(tmux)
}

/// The command line's row (the one above the footer) as shown.
fn command_row(screen: &str) -> String {
    prompt_row(screen, "(z80)")
}

/// The last row that starts with `prompt` (`(bbc)`, `(c64)`): the command line.
fn prompt_row(screen: &str, prompt: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    rows.iter()
        .rev()
        .find(|r| r.starts_with(prompt))
        .map(|r| r.trim_end().to_string())
        .unwrap_or_default()
}

fn quit(tmux: pty::Tmux) {
    tmux.send(&["C-q"]);
    let s = tmux.finish();
    assert!(s.contains("RC=0"), "a clean exit:\n{s}");
}

#[test]
#[cfg(unix)]
fn history_is_recalled_in_the_next_session_with_up_and_ctrl_r() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("hist1", 80, 24, data.path(), "tests/z80/calls.asm") else {
        return;
    };
    tmux.line("print 6*7");
    tmux.wait_for("($2A)");
    tmux.line("print 100+11");
    tmux.wait_for("($6F)");
    quit(tmux);
    let file = std::fs::read_to_string(data.path().join("z80.history")).expect("the history file");
    assert_eq!(file, "print 6*7\nprint 100+11\n");

    // A new session: Up twice recalls the first command, Enter runs it.
    let Some(tmux) = debugger("hist2", 80, 24, data.path(), "tests/z80/calls.asm") else {
        return;
    };
    tmux.send(&["Up", "Up"]);
    let s = tmux.wait_until("the first command recalled", |s| {
        command_row(s) == "(z80) print 6*7"
    });
    assert!(!s.contains("($2A)"), "not run yet:\n{s}");
    tmux.send(&["Enter"]);
    tmux.wait_for("($2A)");
    // Ctrl-R finds the newest command containing what is typed.
    tmux.send(&["C-r"]);
    tmux.send(&["-l", "100"]);
    tmux.wait_until("the reverse search", |s| {
        command_row(s) == "(z80) (reverse-i-search)'100': print 100+11"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("($6F)");
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn the_cursor_keys_edit_the_line() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("edit", 80, 24, data.path(), "tests/z80/calls.asm") else {
        return;
    };
    // Home and End, then Left and Ctrl-K: `print 5*5+1000` loses `+1000`.
    tmux.send(&["-l", "rint 5*5+1000"]);
    tmux.send(&["Home"]);
    tmux.send(&["-l", "p"]);
    tmux.send(&["End"]);
    tmux.send(&["Left", "Left", "Left", "Left", "Left", "C-k"]);
    tmux.wait_until("the edited line", |s| command_row(s) == "(z80) print 5*5");
    tmux.send(&["Enter"]);
    tmux.wait_for("25 ($19)");
    // Ctrl-A and Ctrl-E, Ctrl-W deleting the word before the cursor, Ctrl-U the line.
    tmux.send(&["-l", "junk words"]);
    tmux.send(&["C-u"]);
    tmux.send(&["-l", "rint 7*7 oops"]);
    tmux.send(&["C-w", "C-a"]);
    tmux.send(&["-l", "p"]);
    tmux.send(&["C-e"]);
    tmux.wait_until("the edited line", |s| command_row(s) == "(z80) print 7*7");
    tmux.send(&["Enter"]);
    tmux.wait_for("49 ($31)");
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn tab_completes_a_label_of_connect4() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("complete", 80, 24, data.path(), "programs/connect4/connect4.asm") else {
        return;
    };
    // The command word, then the label: checkW is checkWIN or checkWINgeneral, so Tab goes as
    // far as they agree; a second Tab lists both.
    tmux.send(&["-l", "tbr"]);
    tmux.send(&["Tab"]);
    tmux.wait_until("the command completed", |s| command_row(s) == "(z80) tbreak");
    tmux.send(&["-l", "checkW"]);
    tmux.send(&["Tab"]);
    tmux.wait_until("the label completed", |s| {
        command_row(s) == "(z80) tbreak checkWIN"
    });
    tmux.send(&["Tab"]);
    tmux.wait_for("checkWIN  checkWINgeneral");
    tmux.send(&["Enter"]);
    tmux.wait_for("at $");
    let s = tmux.wait_for("checkWIN (connect4.asm:");
    assert!(s.contains("Temporary breakpoint 1"), "{s}");
    // On an empty line Tab still moves the panels.
    tmux.send(&["Tab"]);
    tmux.wait_for("MEMORY");
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn tab_completes_a_proc_name_and_a_variable_on_the_bbc() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("bbctab", 80, 24, data.path(), "tests/audit/complete.bbc") else {
        return;
    };
    // A PROC name from its DEF, before the program has run.
    tmux.send(&["-l", "b PROCd"]);
    tmux.send(&["Tab"]);
    tmux.wait_until("the PROC name completed", |s| {
        prompt_row(s, "(bbc)") == "(bbc) b PROCdrop"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("Breakpoint 1 at");
    tmux.line("c");
    tmux.wait_for("Breakpoint 1,");
    // A variable that exists now (total% and board%( do; tot is only total%).
    tmux.send(&["-l", "p tot"]);
    tmux.send(&["Tab"]);
    tmux.wait_until("the variable completed", |s| {
        prompt_row(s, "(bbc)") == "(bbc) p total%"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("total% = 0");
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn tab_completes_a_variable_on_the_c64() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("c64tab", 80, 24, data.path(), "tests/audit/complete.bas") else {
        return;
    };
    tmux.line("b 20");
    tmux.wait_for("Breakpoint 1 at");
    tmux.line("c");
    tmux.wait_for("Breakpoint 1,");
    // The C64 keeps two letters of a name: NA$ is the one that starts with n, in any case.
    tmux.send(&["-l", "p n"]);
    tmux.send(&["Tab"]);
    tmux.wait_until("the variable completed", |s| {
        prompt_row(s, "(c64)") == "(c64) p NA$"
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("NA$ = \"ADA\"");
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn help_wraps_at_80x24_and_f4_shows_it_whole() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("help", 80, 24, data.path(), "tests/z80/calls.asm") else {
        return;
    };
    tmux.line("help");
    let s = tmux.wait_for("(PgUp)");
    // The last line of help (the Z80's expression words) is wrapped, not cut at column 80.
    assert!(s.contains("! ~"), "the end of the last help line is shown:\n{s}");
    tmux.send(&["F4"]);
    let s = tmux.wait_for("OUTPUT");
    // The newest rows fill the terminal down to the command line; PgUp shows the first ones.
    for whole in ["virtual time.", "call LABEL [REG=VALUE ...]", "! ~"] {
        assert!(
            s.contains(whole),
            "{whole:?} in the full-height output at 80x24:\n{s}"
        );
    }
    tmux.send(&["PageUp"]);
    let s = tmux.wait_for("(z80) help");
    assert!(s.contains("Running:   run (r)"), "{s}");
    // Wrapped rows go on under the text after the section name.
    let rows: Vec<&str> = s.lines().collect();
    let running = rows
        .iter()
        .position(|r| r.starts_with("Running:"))
        .expect("Running:");
    assert!(
        rows[running + 1].starts_with("           ") && rows[running + 1].trim_start().len() > 3,
        "{s}"
    );
    for row in &rows {
        assert!(row.chars().count() <= 80, "{row:?}");
    }
    // Any other key goes back to the panels.
    tmux.send(&["Escape"]);
    tmux.wait_until("the panels back", |s| s.contains("F5 cont"));
    quit(tmux);
}

#[test]
#[cfg(unix)]
fn pgup_stops_with_the_oldest_line_at_the_top() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("pgup", 80, 24, data.path(), "tests/z80/calls.asm") else {
        return;
    };
    tmux.line("help");
    tmux.wait_for("(PgUp)");
    for _ in 0..20 {
        tmux.send(&["PageUp"]);
    }
    let s = tmux.wait_for("retro debug: type a command");
    let rows: Vec<&str> = s.lines().collect();
    let oldest = rows
        .iter()
        .position(|r| r.starts_with("retro debug: type a command"))
        .expect("the oldest line");
    // The output area is still full: the oldest line at its top, then `help`'s first lines.
    assert!(rows[oldest + 1].starts_with("(z80) help"), "{s}");
    assert!(rows[oldest + 2].starts_with("Running:"), "{s}");
    assert!(
        rows[oldest - 1].contains('─') || rows[oldest - 1].contains('┘'),
        "the panels above:\n{s}"
    );
    // PgDn goes forward again.
    tmux.send(&["PageDown"]);
    tmux.wait_until("scrolled forward", |s| !s.contains("retro debug: type a command"));
    quit(tmux);
}

/// `help COMMAND` is the console's, so every machine has it: the BBC and the C64 too.
#[test]
fn help_on_one_command_on_the_bbc_and_the_c64() {
    for program in ["tests/bbc/gdb.bbc", "tests/c64dbg/gdb.bas"] {
        let (out, err, code) = common::retro_text(&["debug", program, "--script", "=help break"]);
        assert_eq!(code, Some(0), "{program}: {out}{err}");
        assert!(
            out.contains("break LOC [if COND]: stops before LOC"),
            "{program}: {out}"
        );
        assert!(out.contains("e.g. break"), "{program}: {out}");
    }
}

#[test]
#[cfg(unix)]
fn trace_on_shows_the_lines_entered_in_the_output_area_at_80x24() {
    let data = tempfile::tempdir().expect("temp dir");
    let Some(tmux) = debugger("traceon", 80, 24, data.path(), "tests/record/traceon.bbc") else {
        return;
    };
    tmux.line("trace on");
    tmux.wait_for("Line trace on");
    tmux.line("break 50");
    tmux.wait_for("Breakpoint 1 at");
    tmux.line("c");
    let s = tmux.wait_for("Breakpoint 1,");
    // The newest output rows: the trace's last entries, then the stop.
    assert!(s.contains("[220] [40]"), "the trace in the output area:\n{s}");
    let intact = |s: &str| {
        let rows: Vec<&str> = s.lines().collect();
        rows.len() <= 24
            && rows.iter().all(|r| r.chars().count() <= 80)
            && prompt_row(s, "(bbc)").starts_with("(bbc)")
            && s.contains("F5 cont")
    };
    assert!(intact(&s), "the panels and the command line are whole:\n{s}");
    // F4: every line of it, in order with what the program printed.
    tmux.send(&["F4"]);
    let s = tmux.wait_for("OUTPUT");
    for line in [
        "[10] start",
        "[20] [30] [210]          1",
        "[220] [40] [30] [210]          4",
    ] {
        assert!(s.contains(line), "{line:?} in the full-height output:\n{s}");
    }
    tmux.send(&["Escape"]);
    tmux.wait_until("the panels back", |s| s.contains("F5 cont"));
    // A tight loop: 100 entries ([50], then [60]s) and a count, the screen still whole.
    tmux.line("break 70");
    tmux.wait_for("Breakpoint 2 at");
    tmux.line("c");
    let s = tmux.wait_for("Breakpoint 2,");
    assert!(
        s.contains("... 99901 more lines entered"),
        "the loop's entries counted:\n{s}"
    );
    assert!(intact(&s), "the panels and the command line are whole:\n{s}");
    quit(tmux);
}
