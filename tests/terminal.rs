//! The terminal front end gives the terminal back, even when retro panics: raw mode off, the
//! alternate screen left, and the panic message printed on the restored screen.

use std::process::Command;
use std::time::Duration;

#[test]
#[cfg(unix)]
fn a_panic_restores_the_terminal() {
    let retro = env!("CARGO_BIN_EXE_retro");
    // In a pseudo-terminal: note the terminal's settings, run the test card and make it panic after
    // three frames, then compare the settings with what they were before.
    let script = format!(
        "stty cols 100 rows 40; before=$(stty -g); '{retro}' testcard --panic-for-test 3; rc=$?; \
         after=$(stty -g); echo \"RC=$rc\"; \
         if [ \"$before\" = \"$after\" ]; then echo SETTINGS-RESTORED; else echo SETTINGS-CHANGED; fi; \
         stty -a; echo END-OF-TEST"
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script).env_remove("RUST_BACKTRACE");
    let mut session = expectrl::Session::spawn(cmd).expect("spawn a pseudo-terminal");
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    let captured = session.expect("END-OF-TEST").expect("the run finishes");
    let out = String::from_utf8_lossy(captured.before()).into_owned();

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
