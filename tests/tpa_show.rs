//! `retro tpa IMAGE --show` in a pseudo-terminal at 100x50 (the field needs 42 rows): the replay draws the field in the
//! terminal, Ctrl-Q ends it, and the terminal is given back as it was.

use std::process::Command;
use std::time::Duration;

#[test]
#[cfg(unix)]
fn show_replays_in_a_terminal_and_restores_it() {
    let retro = env!("CARGO_BIN_EXE_retro");
    let script = format!(
        "stty cols 100 rows 50; before=$(stty -g); '{retro}' tpa interpreters/tpa/sprites/robot.txt --show \
         --replay-time 30; rc=$?; after=$(stty -g); echo \"RC=$rc\"; \
         if [ \"$before\" = \"$after\" ]; then echo SETTINGS-RESTORED; else echo SETTINGS-CHANGED; fi; \
         echo END-OF-TEST"
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script);
    let mut s = expectrl::Session::spawn(cmd).expect("spawn a pseudo-terminal");
    s.set_expect_timeout(Some(Duration::from_secs(60)));
    // The alternate screen is entered and the status line names the machine.
    s.expect("\x1b[?1049h").expect("the replay takes the screen");
    s.expect("printer")
        .expect("the status line names the Tetris printer");
    // Field cells are drawn as cells of one colour (foreground = background): wait for cells in
    // the colours of the sprite's pieces (palette entries other than black and grey) to appear.
    for _ in 0..3 {
        s.expect(expectrl::Regex("48;5;(1[0-5]|[1-7])m"))
            .expect("coloured cells of the field are drawn");
    }
    s.send("\x11").unwrap(); // Ctrl-Q, long before the 30 s replay ends
    let captured = s.expect("END-OF-TEST").expect("the replay quits on Ctrl-Q");
    let out = String::from_utf8_lossy(captured.before()).into_owned();
    assert!(out.contains("RC=0"), "{out}");
    assert!(
        out.contains("SETTINGS-RESTORED"),
        "terminal settings changed:\n{out}"
    );
    assert!(out.contains("\x1b[?1049l"), "the alternate screen is left");
}
