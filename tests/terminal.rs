//! The terminal front end gives the terminal back, even when retro panics: raw mode off, the
//! alternate screen left, and the panic message printed on the restored screen.

use std::process::Command;
use std::time::Duration;

#[path = "common/pty.rs"]
mod pty;

#[test]
#[cfg(unix)]
fn a_panic_restores_the_terminal() {
    // In a pseudo-terminal: note the terminal's settings, run the test card and make it panic after
    // three frames, then compare the settings with what they were before.
    let mut session = pty::spawn_retro(100, 40, "testcard --panic-for-test 3");
    let out = pty::finish(&mut session, "the run finishes");

    let entered = out
        .find("\x1b[?1049h")
        .expect("retro entered the alternate screen");
    let left = entered
        + out[entered..]
            .find("\x1b[?1049l")
            .expect("retro left the alternate screen");
    let message = out.find("deliberate panic").expect("the panic message is shown");
    assert!(
        message > left,
        "the panic message must come after the terminal is restored:\n{out:?}"
    );
    assert!(
        out.contains("RC=101"),
        "a panic exits with Rust's panic status 101:\n{out}"
    );
    // Every terminal setting (raw mode, echo, ...) is back as it was before the run.
    assert!(
        out.contains("SETTINGS-RESTORED"),
        "terminal settings changed:\n{out}"
    );
    let settings = &out[out.find("RC=101").unwrap()..];
    assert!(
        settings.contains(" icanon") && !settings.contains("-icanon"),
        "raw mode left on:\n{settings}"
    );
}

/// A panic on another thread (BBC BASIC's interpreter runs on one: `DELETE 20,10` at the `>`
/// prompt panicked there) ended with status 0 after the UI went on drawing over the panic
/// message on the restored terminal, in cooked mode. It ends the run as a panic of the UI does.
#[test]
#[cfg(unix)]
fn a_panic_on_a_worker_thread_restores_the_terminal_and_ends_the_run() {
    let mut session = pty::spawn_retro(100, 40, "testcard --panic-thread-for-test 3");
    let out = pty::finish(&mut session, "the run finishes");
    let left = out.rfind("\x1b[?1049l").expect("retro left the alternate screen");
    let message = out
        .find("deliberate panic on a worker thread")
        .expect("the panic message is shown");
    assert!(
        message > left,
        "the panic message must come after the terminal is restored:\n{out:?}"
    );
    assert!(out.contains("RC=101"), "a panic exits with status 101:\n{out}");
    assert!(
        out.contains("SETTINGS-RESTORED"),
        "terminal settings changed:\n{out}"
    );
    // Nothing is drawn after the message (the UI thread stopped).
    assert!(
        !out[message..].contains("\x1b[?1049h"),
        "drawing went on:\n{out:?}"
    );
}

/// SIGTERM, SIGHUP and SIGINT (sent from outside: in raw mode Ctrl-C is a key, not a signal) end an
/// interactive run with the terminal given back: the alternate screen left, the cursor shown,
/// every setting as before, and the process killed by that signal as the default action would.
#[test]
#[cfg(unix)]
fn terminating_signals_restore_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("loop.bbc");
    std::fs::write(&program, "10 REPEAT\n20 UNTIL FALSE\n").unwrap();
    let program = program.display();
    for (signal, status) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let mut session = pty::spawn_shell(
            100,
            40,
            &format!(
                "'{}' run '{program}' < /dev/tty & pid=$!; sleep 2; kill -{signal} $pid; wait $pid",
                pty::RETRO
            ),
            Duration::from_secs(60),
        );
        let out = pty::finish(&mut session, "the run finishes");
        let entered = out
            .find("\x1b[?1049h")
            .unwrap_or_else(|| panic!("SIG{signal}: retro never entered the alternate screen:\n{out:?}"));
        let rest = &out[entered..];
        assert!(
            rest.contains("\x1b[?1049l"),
            "SIG{signal}: the alternate screen was not left:\n{out:?}"
        );
        let hidden = rest.rfind("\x1b[?25l").expect("the cursor was hidden");
        assert!(
            rest[hidden..].contains("\x1b[?25h"),
            "SIG{signal}: the cursor was left hidden:\n{out:?}"
        );
        assert!(
            out.contains(&format!("RC={status}")),
            "SIG{signal}: retro should die of the signal (status {status}):\n{out}"
        );
        assert!(
            out.contains("SETTINGS-RESTORED"),
            "SIG{signal}: terminal settings changed:\n{out}"
        );
    }
}

/// `--keys` and `--time` work in the terminal too: the script's ESCAPE stops the program (BBC
/// `Escape`, status 1) and the time limit then ends the run without anyone pressing a key.
#[test]
#[cfg(unix)]
fn key_scripts_and_time_limits_work_interactively() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("loop.bbc");
    std::fs::write(&program, "10 REPEAT\n20 UNTIL FALSE\n").unwrap();
    let program = program.display();
    let run = |args: &str| {
        let mut session = pty::spawn_retro(100, 40, &format!("run '{program}' {args}"));
        pty::finish(&mut session, "the run finishes by itself")
    };
    let out = run("--time 1");
    assert!(out.contains("\x1b[?1049h"), "an interactive run:\n{out:?}");
    assert!(out.contains("RC=0"), "the time limit ends the run:\n{out}");
    let out = run("--keys '=+300 ESCAPE' --time 2");
    let after = &out[out.rfind("\x1b[?1049l").expect("the screen is restored")..];
    assert!(
        after.contains("Escape"),
        "the scripted Escape stopped the program:\n{out}"
    );
    assert!(
        out.contains("RC=1"),
        "a program stopped by an error exits 1:\n{out}"
    );
}

/// A terminal that goes away (its window closed; here `tmux kill-session`) ends retro, even while
/// it holds a finished program's last screen: the terminal then reads as end of file for ever,
/// and retro must neither spin on it nor outlive it (crossterm's reader alone would, issue #793).
#[test]
#[cfg(target_os = "linux")]
fn a_vanished_terminal_ends_the_run() {
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("hello.bbc");
    std::fs::write(&program, "10 PRINT \"hello\"\n").unwrap();
    let pidfile = dir.path().join("pid");
    let cmd = format!(
        "echo $$ > '{}'; exec '{}' run '{}'",
        pidfile.display(),
        pty::RETRO,
        program.display()
    );
    let Some(tmux) = pty::Tmux::start_shell("vanish", 80, 30, &cmd, None) else {
        return;
    };
    tmux.wait_for("press a key to leave");
    let pid = std::fs::read_to_string(&pidfile).expect("the pid was written");
    let stat = format!("/proc/{}/stat", pid.trim());
    drop(tmux); // the server killed: the terminal is gone
    // Gone, or a zombie waiting to be reaped: either way it has exited.
    let exited = || {
        std::fs::read_to_string(&stat).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'))
        })
    };
    let start = Instant::now();
    while !exited() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = Command::new("kill").args(["-9", pid.trim()]).status();
            panic!("retro outlived its terminal by 10 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Issue 32, finding 7: Ctrl-Z (a key in raw mode) gives the terminal back before the process
/// stops, so the shell's own prompt works with every setting as before; `fg` enters game mode
/// again and draws the whole screen, not just what changed while it was stopped.
#[test]
#[cfg(unix)]
fn ctrl_z_and_fg_leave_and_restore_the_screen() {
    let mut session = pty::spawn_shell(
        100,
        40,
        &format!(
            "set -m; '{}' bbc; if [ \"$before\" = \"$(stty -g)\" ]; then echo STOPPED-RESTORED; fi; fg",
            pty::RETRO
        ),
        Duration::from_secs(60),
    );
    // The status line is drawn once the machine is up (the picture's banner may come in pieces
    // over the first frames, so it is looked for only after `fg`, when all is drawn at once).
    session.expect("BBC BASIC V").expect("retro bbc starts");
    std::thread::sleep(Duration::from_secs(1));
    session.send("\x1a").unwrap(); // Ctrl-Z
    let stopped = session
        .expect("STOPPED-RESTORED")
        .expect("Ctrl-Z stops retro with the terminal restored");
    let before = String::from_utf8_lossy(stopped.before()).into_owned();
    let left = before
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left");
    assert!(
        before[left..].contains("\x1b[?25h") || before[..left].contains("\x1b[?25h"),
        "cursor shown:\n{before:?}"
    );
    // `fg`: back in the alternate screen, the banner drawn again from scratch (an unchanged
    // picture would otherwise not be drawn at all).
    let resumed = session.expect("B A S I C").expect("fg redraws the screen");
    let again = String::from_utf8_lossy(resumed.before()).into_owned();
    assert!(
        again.contains("\x1b[?1049h"),
        "fg re-enters the alternate screen:\n{again:?}"
    );
    std::thread::sleep(Duration::from_millis(300));
    pty::quit_and_check_restored(session);
}

/// Issue 32, finding 11: `retro list` on a terminal shows a REM's or a string's control bytes
/// escaped instead of sending them (here: clear the screen, set the window title).
#[test]
#[cfg(unix)]
fn a_listing_on_a_terminal_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("esc.bbc");
    std::fs::write(&program, "10 REM \x1b[2J\n20 PRINT \"\x1b]0;title\x07\"\n").unwrap();
    let mut session = pty::spawn_retro(100, 40, &format!("list '{}'", program.display()));
    let out = pty::finish(&mut session, "the listing ends");
    assert!(out.contains("10 REM \\x1b[2J"), "{out:?}");
    assert!(out.contains("\\x1b]0;title\\x07"), "{out:?}");
    assert!(!out.contains("\x1b[2J") && !out.contains('\x07'), "{out:?}");
}
