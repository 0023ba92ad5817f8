//! The command line contract: help, usage errors with status 2, headless test-card runs and their
//! screen dumps.

mod common;
use common::{retro, stderr, stdout};

#[test]
fn help_lists_every_subcommand() {
    let o = retro(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for sub in ["run", "tok", "list", "asm", "dis", "conformance", "testcard"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(sub)),
            "--help lacks {sub}:\n{text}"
        );
    }
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["run", "tok", "list", "asm", "dis", "conformance", "testcard"] {
        let o = retro(&[sub, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{sub} --help");
        assert!(
            stdout(&o).contains("Usage: retro"),
            "{sub} --help:\n{}",
            stdout(&o)
        );
    }
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    let o = retro(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unrecognized subcommand"), "{}", stderr(&o));

    let o = retro(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("FILE"));

    let o = retro(&["run", "no-such-file.bbc", "--headless"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-file.bbc"), "{}", stderr(&o));

    let o = retro(&["run", "README.md", "--headless"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--machine"), "{}", stderr(&o));
}

#[test]
fn key_script_errors_name_the_line_and_column() {
    let o = retro(&[
        "testcard",
        "--headless",
        "--time",
        "0.1",
        "--keys",
        "=a b\n  LEFTT",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("line 2, column 3"), "{err}");
    assert!(err.contains("LEFTT"), "{err}");
}

#[test]
fn bad_time_and_colour_are_usage_errors() {
    let o = retro(&["testcard", "--headless", "--time", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    let o = retro(&["testcard", "--headless", "--time", "0.1", "--colour", "mauve"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("mauve"));
}

#[test]
fn headless_testcard_dumps_its_screen() {
    let o = retro(&["testcard", "--headless", "--time", "0.2", "--dump-screen", "text"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 32, "MODE 9-sized card: 32 rows");
    assert!(lines.iter().all(|l| l.chars().count() == 40), "40 columns");
    assert!(lines[0].contains("retro test card"), "{text}");
    assert!(lines[8].starts_with(" !\"#$%&'()*+,-./0123456789"), "{text}");

    let o = retro(&[
        "testcard",
        "--headless",
        "--time",
        "0.2",
        "--dump-screen",
        "colours",
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    // The title row is white text on blue: each cell's centre pixel is paper (4) or ink (7).
    assert!(lines[0].chars().all(|c| c == '4' || c == '7'), "{text}");
    assert!(lines[0].contains('4') && lines[0].contains('7'), "{text}");
    // Row 2 holds the 16 colour bars, 20 pixels each: cell k's centre pixel x = 8k + 4 lies in
    // bar (8k + 4) / 20.
    let bars: String = (0..40).map(|k| format!("{:x}", (8 * k + 4) / 20)).collect();
    assert_eq!(lines[2], bars, "{text}");
}

#[test]
fn scripted_keys_reach_the_machine() {
    // SPACE switches the card to its C64-style cell page.
    let o = retro(&[
        "testcard",
        "--headless",
        "--time",
        "0.5",
        "--keys",
        "=SPACE",
        "--dump-screen",
        "text",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 25, "{text}");
    assert!(text.contains("RETRO TEST CARD: CELLS"), "{text}");
}

#[test]
fn screenshot_writes_a_png() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("card.png");
    let o = retro(&[
        "testcard",
        "--headless",
        "--time",
        "0.1",
        "--screenshot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
