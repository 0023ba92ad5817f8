//! `retro debug` in a pseudo-terminal at 80x24: set a breakpoint by label, continue (F5), step
//! (F11), quit with Ctrl-Q; the screen shows the current source line, and the terminal settings
//! are restored afterwards.

use std::time::Duration;

#[path = "common/pty.rs"]
mod pty;

#[test]
#[cfg(unix)]
fn breakpoint_continue_step_quit_in_a_terminal() {
    let mut s = debug_in_a_terminal("tests/z80/calls.asm");
    // ratatui only draws cells that change, so the spaces between words are not in the output:
    // the test looks for single words.
    s.send("break inc1\r").unwrap();
    s.expect("(calls.asm:11)")
        .expect("the breakpoint is set by label");
    s.send("\x1b[15~").unwrap(); // F5: continue
    // (The stop report's "Breakpoint 1," may be partly skipped by the diff; its address is not.)
    let redraw = s
        .expect("$8014")
        .expect("continue stops at the breakpoint on inc1");
    // The source panel (drawn before the output lines) shows the current line, marked.
    let redraw = String::from_utf8_lossy(redraw.before()).into_owned();
    assert!(redraw.contains("=>") && redraw.contains("inc1:"), "{redraw:?}");
    s.send("\x1b[23~").unwrap(); // F11: step into
    // Only changed cells are redrawn, so ask for the PC in a form that appears nowhere else.
    s.send("print PC\r").unwrap();
    s.expect("32789").expect("one instruction further: PC = 8015h");
    s.send("\x1bOP").unwrap(); // F1: the keys
    s.expect("scroll")
        .expect("F1 shows the help overlay (PgUp / PgDn: scroll the output)");
    let out = pty::quit_and_check_restored(s);
    assert!(out.contains("\x1b[?1049l"), "the alternate screen is left");
}

/// `continue` on a program that never stops: the UI stays live (the footer says RUNNING), Escape
/// stops the program where it is, the program has run many frames meanwhile, and the panels the
/// keys switch to (memory with Tab, the disassembly with F3) show up; Ctrl-Q restores the terminal.
#[test]
#[cfg(unix)]
fn continue_runs_frame_by_frame_and_escape_stops_it() {
    let mut s = debug_in_a_terminal("tests/z80/spin.asm");
    s.send("continue\r").unwrap();
    s.expect("RUNNING").expect("the footer shows the program running");
    // Half a second of wall time is about 25 frames at 50 Hz.
    std::thread::sleep(Duration::from_millis(700));
    s.send("\x1b").unwrap(); // Escape
    s.expect("Stopped.").expect("Escape stops the running program");
    s.send("print word[count] > 5\r").unwrap();
    s.expect("($01)").expect("the program ran for several frames");
    s.send("\t").unwrap(); // Tab: stack -> memory
    s.expect("MEMORY").expect("Tab shows the memory panel");
    s.send("\x1bOR").unwrap(); // F3: the disassembly
    s.expect("source")
        .expect("F3 shows the disassembly (its title offers the source back)");
    pty::quit_and_check_restored(s);
}

/// `retro debug FILE` in an 80x24 pseudo-terminal, once the debugger is up.
#[cfg(unix)]
fn debug_in_a_terminal(file: &str) -> expectrl::Session {
    let mut s = pty::spawn_retro(80, 24, &format!("debug {file}"));
    s.expect("debug:").expect("the debugger starts");
    s
}

/// While the program runs, the keys typed go to its keyboard, not to the command line:
/// tests/z80/keys.asm waits for Q, then for P, and exits; afterwards the command line is empty
/// (a command typed then runs as typed).
#[test]
#[cfg(unix)]
fn keys_typed_while_the_program_runs_reach_its_keyboard() {
    let mut s = debug_in_a_terminal("tests/z80/keys.asm");
    s.send("continue\r").unwrap();
    s.expect("RUNNING").expect("the footer shows the program running");
    std::thread::sleep(Duration::from_millis(300));
    s.send("q").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    s.send("p").unwrap();
    s.expect("exited").expect("the program saw Q, then P, and exited");
    s.send("print 6*7\r").unwrap();
    s.expect("42")
        .expect("the command line got none of the program's keys");
    pty::quit_and_check_restored(s);
}

/// `next` (F10), `finish` and `call` run frame by frame like `continue`: the footer says
/// RUNNING, Escape stops them, and a key typed meanwhile lets the routine they wait on return
/// (tests/z80/waitkey.asm waits for Q).
#[test]
#[cfg(unix)]
fn next_finish_and_call_run_frame_by_frame_and_stop_with_escape() {
    let mut s = debug_in_a_terminal("tests/z80/waitkey.asm");
    s.send("\x1b[23~").unwrap(); // F11: step into (ei)
    s.expect("$8001").expect("one step: at the call");
    s.send("\x1b[21~").unwrap(); // F10: next, over the call that waits for a key
    s.expect("RUNNING").expect("next runs frame by frame");
    std::thread::sleep(Duration::from_millis(300));
    s.send("\x1b").unwrap(); // Escape
    s.expect("Stopped.")
        .expect("Escape stops next inside the routine");
    s.send("finish\r").unwrap();
    s.expect("RUNNING").expect("finish runs frame by frame");
    std::thread::sleep(Duration::from_millis(300));
    s.send("q").unwrap();
    // The footer goes back to the keys when the command stops (only changed cells are redrawn,
    // so the test looks for words that appear nowhere else).
    s.expect("S-F11")
        .expect("with Q down the routine returns and finish stops");
    s.send("print PC+1\r").unwrap();
    s.expect("32773").expect("finish stopped at `back` ($8004)");
    // `call` runs frame by frame too, with no step budget: a routine waiting in HALT spends
    // 17,500 steps a frame, so the batch budget (1,000,000 steps, 57 frames) would have ended it
    // before this Q, typed after 1.5 s. Its report is longer than the five output lines at
    // 80x24: the first says so, and PgUp scrolls back to where it starts.
    s.send("call waitkey\r").unwrap();
    s.expect("RUNNING").expect("call runs frame by frame");
    std::thread::sleep(Duration::from_millis(1500));
    s.send("q").unwrap();
    s.expect("(PgUp)")
        .expect("the routine returns, and the output says its report goes further up");
    s.send("\x1b[5~").unwrap(); // PgUp
    // Its first line is `waitkey returned after N steps (N T-states)`; the diff leaves out cells
    // that did not change (the `n` of `returned` is where `unchanged` had one), so the test
    // looks for its end.
    s.expect("T-states)").expect("PgUp shows the call's report");
    pty::quit_and_check_restored(s);
}

/// The UI follows the terminal's size (docs/debugger.md, "The terminal UI"): at 80x24 there is no
/// room for the machine's screen; widened to 150x40 the screen panel appears as a third column on
/// the right, and the command line still works; narrowed back to 80x24 the panel goes again.
/// Nothing panics on the way and Ctrl-Q gives the terminal back.
#[test]
#[cfg(unix)]
fn the_layout_follows_a_resized_terminal() {
    const SCREEN_TITLE: &str = "screen (F2: full size)";
    let here = std::env::current_dir().expect("the current directory");
    let Some(tmux) = pty::Tmux::start("z80-resize", 80, 24, &here, "debug tests/z80/attrs.asm") else {
        return;
    };
    let resize = |cols: &str, rows: &str| {
        tmux.run(&["resize-window", "-x", cols, "-y", rows]);
    };
    let s = tmux.wait_for("debug:");
    assert!(!s.contains(SCREEN_TITLE), "no room at 80x24:\n{s}");
    tmux.line("continue");
    tmux.wait_for("exited");

    resize("150", "40");
    let s = tmux.wait_until("the screen panel at 150x40", |s| {
        s.lines().count() == 40 && s.contains(SCREEN_TITLE)
    });
    let row = s.lines().find(|l| l.contains(SCREEN_TITLE)).unwrap();
    let column = row[..row.find(SCREEN_TITLE).unwrap()].chars().count();
    assert!(
        column >= 80,
        "the screen panel is a third column on the right (its title at column {column}):\n{s}"
    );
    // 32 cells of two terminal columns each, and the panel's two borders.
    let left = row.chars().take(column).collect::<String>().rfind('┌');
    let left = row[..left.expect("the panel's corner")].chars().count();
    let width = row.chars().count() - left;
    assert_eq!(width, 2 * 32 + 2, "square cells at 150x40:\n{s}");
    tmux.line("print 6*7");
    tmux.wait_for("$2A");

    resize("80", "24");
    let s = tmux.wait_until("the 80x24 layout again", |s| {
        s.lines().count() == 24 && !s.contains(SCREEN_TITLE)
    });
    assert!(s.contains("debug:"), "the command line is still there:\n{s}");
    tmux.send(&["C-q"]);
    let s = tmux.finish();
    assert!(s.contains("RC=0"), "no panic, a clean exit:\n{s}");
}
