//! Escape and Ctrl-Q reach a busy machine at once, in an ordinary terminal (tmux: no kitty
//! keyboard protocol), however much the program prints or draws (issue 31). They used to wait
//! for the next frame to fall due before any key was read, so a machine slower than real time
//! (the BBC filled-circles demo) never read a key again, and a printing loop took seconds.
//!
//! Each case measures, from the key sent to tmux to the screen showing its effect (the status
//! line no longer saying `running`; the shell's `RC=` after retro has gone), so the figure
//! includes tmux's own drawing. The ordinary suite tries each case once against a bound with room
//! for a loaded machine; the ignored release-mode test tries each 20 times against the 100 ms the
//! issue asks for and prints the worst:
//! `RETRO_STOP_TRIES=20 cargo test --release --test terminal_stop -- --ignored --nocapture`.

use std::path::Path;
use std::time::{Duration, Instant};

#[path = "common/pty.rs"]
mod pty;

/// A printing loop on the C64 (a petcat listing).
const C64_PRINT: (&str, &str) = ("loop.bas", "10 print \"hello world\":goto 10\n");
/// A printing loop in BBC BASIC.
const BBC_PRINT: (&str, &str) = ("loop.bbc", "10 PRINT \"HELLO WORLD\":GOTO 10\n");
/// The demo: random filled circles without pause, slower than real time before drawing
/// cost virtual time.
const BBC_CIRCLES: (&str, &str) = (
    "circles.bbc",
    "10 MODE 1\n20 REPEAT:GCOL RND(4):CIRCLE FILL RND(1280),RND(1024),RND(200):UNTIL FALSE\n",
);

/// The status line of a capture (its last non-blank row).
fn status(screen: &str) -> &str {
    screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// Starts `program` in a 100x40 tmux window, waits until it runs, sends `key` (tmux's name) and
/// returns how long until `done` holds for the screen.
fn latency(
    tag: &str,
    dir: &Path,
    program: (&str, &str),
    key: &str,
    done: fn(&str) -> bool,
) -> Option<Duration> {
    std::fs::write(dir.join(program.0), program.1).unwrap();
    let tmux = pty::Tmux::start(tag, 100, 40, dir, &format!("run {}", program.0))?;
    tmux.wait_until("the program running", |s| status(s).contains("running"));
    // Let it get busy (a full frame's drawing, the terminal's output queue filling).
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    tmux.send(&[key]);
    loop {
        let s = tmux.screen();
        if done(&s) {
            return Some(sent.elapsed());
        }
        assert!(
            sent.elapsed() < Duration::from_secs(20),
            "{tag}: {key} had no effect; the screen:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn stopped(s: &str) -> bool {
    let st = status(s);
    st.contains('│') && !st.contains("running")
}

fn quit(s: &str) -> bool {
    s.contains("RC=0")
}

/// Every case `tries` times; fails when any took longer than `bound`, and prints the worst.
fn check(tries: usize, bound: Duration) {
    let dir = tempfile::tempdir().unwrap();
    for (name, program) in [
        ("c64-print", C64_PRINT),
        ("bbc-print", BBC_PRINT),
        ("bbc-circles", BBC_CIRCLES),
    ] {
        if std::env::var("RETRO_STOP_ONLY").is_ok_and(|only| !name.contains(&only)) {
            continue;
        }
        for (what, key, done) in [
            ("Escape", "Escape", stopped as fn(&str) -> bool),
            ("Ctrl-Q", "C-q", quit),
        ] {
            let mut worst = Duration::ZERO;
            for i in 0..tries {
                let tag = format!("stop-{name}-{}-{i}", what.to_lowercase());
                let Some(t) = latency(&tag, dir.path(), program, key, done) else {
                    return;
                };
                worst = worst.max(t);
                if std::env::var_os("RETRO_STOP_VERBOSE").is_some() {
                    println!("{name}: {what} try {i}: {} ms", t.as_millis());
                }
            }
            println!("{name}: {what} worst of {tries}: {} ms", worst.as_millis());
            assert!(
                worst <= bound,
                "{name}: {what} took {} ms (at most {} ms)",
                worst.as_millis(),
                bound.as_millis()
            );
        }
    }
}

/// Once each, with room for a loaded machine running the whole suite (before the fix: seconds,
/// or never).
#[test]
#[cfg(unix)]
fn escape_and_ctrl_q_stop_busy_machines_at_once() {
    check(1, Duration::from_millis(500));
}

/// The measure: 20 tries of each, none over 100 ms (release mode, a quiet machine).
#[test]
#[cfg(unix)]
#[ignore = "timing: run in release mode (see the module documentation)"]
fn escape_and_ctrl_q_within_100_ms_twenty_times() {
    let tries = std::env::var("RETRO_STOP_TRIES")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(20);
    check(tries, Duration::from_millis(100));
}
