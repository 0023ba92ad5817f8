//! Typing a long listing at `retro c64` in a real terminal (a pseudo-terminal at 40x25 and at
//! 80x24): forty lines long enough to take two screen rows, typed one key a jiffy through the
//! screen editor, then SAVEd: the program's bytes are `retro tok`'s of the same listing (issue
//! 27: lines were lost or split when the screen scrolled under a two-row line).
//!
//! Each run types about 2,200 keys as the C64's keyboard scan takes them (about 170 s of real
//! time: the terminal's virtual time is real time), so the tests are ignored in the unoptimised
//! suite; run them with `cargo test --release --test c64_typing_pty -- --ignored`.

use std::time::Duration;

#[path = "common/pty.rs"]
mod pty;

fn listing() -> Vec<String> {
    (1..=40)
        .map(|i| format!("{} PRINT \"LINE {i} OF A LONG TYPE-IN LISTING\";{i}*{i}", i * 10))
        .collect()
}

/// The key script that types `lines` (upper-case ASCII) and then `SAVE"T",8`.
fn key_script(lines: &[String]) -> String {
    let mut s = String::new();
    for line in lines.iter().map(String::as_str).chain(["SAVE\"T\",8"]) {
        for c in line.chars() {
            match c {
                ' ' => s.push_str("SPACE "),
                '+' => s.push_str("PLUS "),
                '#' => s.push_str("HASH "),
                c => {
                    s.push(c.to_ascii_lowercase());
                    s.push(' ');
                }
            }
        }
        s.push_str("RETURN\n");
    }
    s
}

fn typed_in_a_terminal(cols: u16, rows: u16) {
    let dir = tempfile::tempdir().unwrap();
    let lines = listing();
    assert!(lines.iter().all(|l| l.len() > 40 && l.len() < 80));
    std::fs::write(dir.path().join("keys.txt"), key_script(&lines)).unwrap();
    std::fs::write(dir.path().join("t.bas"), lines.join("\n") + "\n").unwrap();
    let d = dir.path().display();
    let run = format!(
        "cd '{d}' && '{}' c64 --keys keys.txt --time 240 && '{}' tok --machine cbm t.bas -o want.prg",
        pty::RETRO,
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
#[ignore = "types 2,200 keys in real time (about 3 minutes); run in release mode"]
fn forty_long_lines_typed_at_40x25_are_the_program_tok_makes() {
    typed_in_a_terminal(40, 25);
}

#[test]
#[cfg(unix)]
#[ignore = "types 2,200 keys in real time (about 3 minutes); run in release mode"]
fn forty_long_lines_typed_at_80x24_are_the_program_tok_makes() {
    typed_in_a_terminal(80, 24);
}
