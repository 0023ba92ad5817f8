//! `retro tpa`: sprite in, drop sequence out; headless replay with a colour dump; screenshots;
//! clear refusals for sprites that cannot be printed.

mod common;
use common::{HEART_FIELD, retro, stderr, stdout};

const HEART: &str = "interpreters/tpa/sprites/heart.txt";

#[test]
fn the_sequence_file_is_written_and_replays_to_the_sprite() {
    let dir = tempfile::tempdir().unwrap();
    let seq = dir.path().join("heart.tps");
    let o = retro(&["tpa", HEART, "-o", seq.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("pieces per pixel"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&seq).unwrap();
    assert!(text.contains("\npalette #D82800 #FCFCFC #2038EC\n"), "{text}");
    let parsed = retro_tpa::sequence::Sequence::parse(&text).unwrap();
    let mut replay = retro_tpa::replay::Replay::new(parsed, 1);
    let field = replay.run_to_end().unwrap();
    // The heart's bottom point: one red square in the middle of the floor row.
    assert_eq!(field.row(0), 1 << 10);
    assert_eq!(field.colour(10, 0), 1);
    assert_eq!(field.stack_height(), 8);
}

#[test]
fn a_bin_output_is_the_z80_printers_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (text, bin) = (dir.path().join("heart.tps"), dir.path().join("heart.bin"));
    for out in [&text, &bin] {
        let o = retro(&["tpa", HEART, "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let parsed = retro_tpa::sequence::Sequence::parse(&std::fs::read_to_string(&text).unwrap()).unwrap();
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes, parsed.to_bytes());
    // 9 colour bytes (J red), the drop count, two bytes a drop.
    assert_eq!(&bytes[..3], &[0xD8, 0x28, 0x00]);
    assert_eq!(
        usize::from(u16::from_le_bytes([bytes[9], bytes[10]])),
        parsed.drops.len()
    );
    assert_eq!(bytes.len(), 11 + 2 * parsed.drops.len());
}

#[test]
fn headless_replay_dumps_the_field_as_a_colour_grid() {
    let o = retro(&["tpa", HEART, "--headless", "--dump-screen", "colours"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 42, "{out}");
    assert!(lines.iter().all(|l| l.len() == 21));
    assert_eq!(&lines[34..], &HEART_FIELD[..], "{out}");
    assert!(
        lines[..34].iter().all(|l| *l == "0".repeat(21)),
        "nothing else is left: {out}"
    );
}

#[test]
fn a_screenshot_is_a_png_of_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("field.png");
    let o = retro(&["tpa", HEART, "--headless", "--screenshot", shot.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let picture = common::Picture::read(&shot);
    // 21x42 cells of 8x8 pixels, scaled 2x.
    assert_eq!((picture.width, picture.height), (21 * 16, 42 * 16));
    // Every pixel of every cell is that cell's colour: black where the field is empty, the
    // heart's red and white (its file's `colour` lines) where it was printed.
    let rgb = |digit: u8| match digit {
        b'0' => (0, 0, 0),
        b'1' => (0xD8, 0x28, 0x00),
        b'2' => (0xFC, 0xFC, 0xFC),
        other => panic!("the heart has no colour {}", other as char),
    };
    let empty = "0".repeat(21);
    let rows: Vec<&str> = std::iter::repeat_n(empty.as_str(), 34)
        .chain(HEART_FIELD)
        .collect();
    for (row, line) in rows.iter().enumerate() {
        for (column, digit) in line.bytes().enumerate() {
            let (x0, y0) = (column as u32 * 16, row as u32 * 16);
            for (x, y) in (x0..x0 + 16).flat_map(|x| (y0..y0 + 16).map(move |y| (x, y))) {
                assert_eq!(
                    picture.at(x, y),
                    rgb(digit),
                    "cell row {row} column {column}, pixel ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn without_an_output_the_sequence_goes_to_stdout() {
    let o = retro(&["tpa", HEART]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("# retro tpa sequence for heart.txt: "), "{out}");
    assert!(retro_tpa::sequence::Sequence::parse(&out).is_ok());
}

#[test]
fn sprites_that_cannot_be_printed_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "wide.txt",
            "x".repeat(18),
            "18 pixels wide; the printer prints at most 17",
        ),
        (
            "colours.txt",
            "abcd".to_string(),
            "4 opaque colours; the printer has three",
        ),
        (
            "gap.txt",
            "x\n.\nx\n".to_string(),
            "row 1 of the image (counting from 0 at the top) is empty",
        ),
        ("empty.txt", "...\n".to_string(), "no opaque pixels"),
    ];
    for (name, text, why) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let o = retro(&["tpa", path.to_str().unwrap(), "--headless"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(stderr(&o).contains(why), "{name}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{name}");
    }
    let o = retro(&["tpa", "no/such/sprite.png"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read no/such/sprite.png"));
}

/// `-o` writes through a symbolic link to its target (the link stays a link) and into a FIFO
/// (which stays a FIFO), as `cat >` would.
#[test]
#[cfg(unix)]
fn the_sequence_is_written_through_a_symlink_and_into_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let sequence = |to: &str| retro(&["tpa", HEART, "-o", to]);
    for (how, written) in [
        (
            "through a symlink",
            common::written_through_a_symlink(dir.path(), sequence),
        ),
        ("into a FIFO", common::written_into_a_fifo(dir.path(), sequence)),
    ] {
        assert!(
            written.starts_with(b"# retro tpa sequence"),
            "{how}: {}",
            common::text(&written)
        );
    }
}
