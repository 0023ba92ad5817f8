//! `retro tpa IMAGE --show` in a pseudo-terminal at 100x50 (the field needs 42 rows): the replay draws the field in the
//! terminal, Ctrl-Q ends it, and the terminal is given back as it was.

#[path = "common/pty.rs"]
mod pty;

#[test]
#[cfg(unix)]
fn show_replays_in_a_terminal_and_restores_it() {
    let mut s = pty::spawn_retro(
        100,
        50,
        "tpa interpreters/tpa/sprites/robot.txt --show --replay-time 30",
    );
    // The alternate screen is entered and the status line names the machine.
    s.expect("\x1b[?1049h").expect("the replay takes the screen");
    s.expect("printer")
        .expect("the status line names the Tetris printer");
    // Field cells are drawn as cells of one colour (foreground = background): wait for cells in
    // the colours of the sprite's pieces (palette entries other than black and grey) to appear,
    // in the 16-colour codes 41-47 and 100-107: any but black (the pty's terminal has 16 colours).
    for _ in 0..3 {
        s.expect(expectrl::Regex("[;\\[](4[1-7]|10[0-7])m"))
            .expect("coloured cells of the field are drawn");
    }
    // Ctrl-Q, long before the 30 s replay ends.
    let out = pty::quit_and_check_restored(s);
    assert!(out.contains("\x1b[?1049l"), "the alternate screen is left");
}
