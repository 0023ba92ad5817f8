//! Typing a long listing at `retro c64` in a real terminal (a pseudo-terminal at 40x25 and at
//! 80x24): forty lines long enough to take two screen rows, typed through the screen editor,
//! then SAVEd: the program's bytes are `retro tok`'s of the same listing (issue 27: lines were
//! lost or split when the screen scrolled under a two-row line).
//!
//! Each line's keys arrive at once, as a paste does, and the KERNAL's keyboard scan takes one
//! of them a jiffy, so the screen editor sees them at the fastest pace a C64 can type (about
//! 2,200 keys, 37 s of virtual time, which in a terminal is real time). The run's `--time` is
//! the script's length and a few seconds more; it ends the run, in virtual time, however slow
//! the host is. Run in release mode by .ci/run (about 40 s for both);
//! `cargo test --release --test c64_typing_pty -- --ignored`.

use std::time::Duration;

#[path = "common/pty.rs"]
mod pty;

fn listing() -> Vec<String> {
    (1..=40)
        .map(|i| format!("{} PRINT \"LINE {i} OF A LONG TYPE-IN LISTING\";{i}*{i}", i * 10))
        .collect()
}

/// Jiffies (1/60 s, the keyboard scan's period) in a millisecond count, rounded up.
const JIFFY_MS: usize = 17;

/// The key script that types `lines` (upper-case ASCII) and then `SAVE"T",8`: each line's keys
/// pressed at once, then time for the scan to take them, one a jiffy, and one jiffy more. Also
/// returns the script's length in milliseconds.
fn key_script(lines: &[String]) -> (String, usize) {
    let mut s = String::new();
    let mut ms = 0;
    for line in lines.iter().map(String::as_str).chain(["SAVE\"T\",8"]) {
        let mut keys: Vec<String> = line
            .chars()
            .map(|c| match c {
                ' ' => "SPACE".to_string(),
                '+' => "PLUS".to_string(),
                '#' => "HASH".to_string(),
                c => c.to_ascii_lowercase().to_string(),
            })
            .collect();
        keys.push("RETURN".to_string());
        for k in &keys {
            s.push_str(&format!("press {k} release {k} "));
        }
        let wait = (keys.len() + 1) * JIFFY_MS;
        s.push_str(&format!("+{wait}\n"));
        ms += wait;
    }
    (s, ms)
}

fn typed_in_a_terminal(cols: u16, rows: u16) {
    let dir = tempfile::tempdir().unwrap();
    let lines = listing();
    assert!(lines.iter().all(|l| l.len() > 40 && l.len() < 80));
    let (script, ms) = key_script(&lines);
    std::fs::write(dir.path().join("keys.txt"), script).unwrap();
    std::fs::write(dir.path().join("t.bas"), lines.join("\n") + "\n").unwrap();
    let d = dir.path().display();
    let run = format!(
        "cd '{d}' && '{}' c64 --keys keys.txt --time {} && '{}' tok --machine cbm t.bas -o want.prg",
        pty::RETRO,
        ms / 1000 + 3,
        pty::RETRO
    );
    let mut s = pty::spawn_shell(cols, rows, &run, Duration::from_secs(300));
    let out = pty::finish(&mut s, "the time limit ends the run");
    assert!(out.contains("RC=0"), "{out}");
    let got = std::fs::read(dir.path().join("t.prg")).expect("SAVE wrote t.prg");
    assert_eq!(got, std::fs::read(dir.path().join("want.prg")).unwrap());
}

#[test]
#[cfg(unix)]
#[ignore = "types 2,200 keys in real time (about 40 s); run in release mode by .ci/run"]
fn forty_long_lines_typed_at_40x25_are_the_program_tok_makes() {
    typed_in_a_terminal(40, 25);
}

#[test]
#[cfg(unix)]
#[ignore = "types 2,200 keys in real time (about 40 s); run in release mode by .ci/run"]
fn forty_long_lines_typed_at_80x24_are_the_program_tok_makes() {
    typed_in_a_terminal(80, 24);
}
