//! The terminal front end gives the terminal back, even when retro panics: raw mode off, the
//! alternate screen left, and the panic message printed on the restored screen.

use std::process::Command;
use std::time::Duration;

#[test]
#[cfg(unix)]
fn a_panic_restores_the_terminal() {
    let retro = env!("CARGO_BIN_EXE_retro");
    // In a pseudo-terminal: run the test card, make it panic after three frames, then report the
    // exit status and the terminal's settings as the shell sees them afterwards.
    let script = format!(
        "stty cols 100 rows 40; '{retro}' testcard --panic-for-test 3; echo \"RC=$?\"; stty -a; echo END-OF-TEST"
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script);
    let mut session = expectrl::Session::spawn(cmd).expect("spawn a pseudo-terminal");
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    let captured = session.expect("END-OF-TEST").expect("the run finishes");
    let out = String::from_utf8_lossy(captured.before()).into_owned();

    let entered = out
        .find("\x1b[?1049h")
        .expect("retro entered the alternate screen");
    let left = out.rfind("\x1b[?1049l").expect("retro left the alternate screen");
    assert!(left > entered);
    let message = out.find("deliberate panic").expect("the panic message is shown");
    assert!(
        message > left,
        "the panic message must come after the terminal is restored:\n{out:?}"
    );
    assert!(
        out.contains("RC=101"),
        "a panic exits with Rust's panic status 101:\n{out}"
    );
    // After the run, the terminal is back in cooked mode: canonical input and echo on.
    let settings = &out[out.find("RC=101").unwrap()..];
    assert!(
        settings.contains(" icanon") && !settings.contains("-icanon"),
        "raw mode left on:\n{settings}"
    );
    assert!(
        settings.contains(" echo ") || settings.contains(" echo\r"),
        "echo left off:\n{settings}"
    );
}
