//! Input movies: FCEUX's `.fm2` format, one controller state per frame, so a game can be fed
//! exactly the input another implementation saw (the NES Tetris oracle replays the same files).
//!
//! An `.fm2` file is text: header lines `key value` (`version 3`, `romFilename ...`, `port0 1`,
//! `comment ...`), then one line per frame, `|COMMANDS|PORT0|PORT1|PORT2|`. COMMANDS is a number
//! whose bits ask for a soft reset (1) or a hard reset (2) before the frame, among others. A gamepad
//! field is eight characters for the buttons Right, Left, Down, Up, Start, Select, B, A in that
//! order: `.` or a space is released, anything else pressed.
//!
//! [`Pad`] keeps a gamepad state as the NES reads it, one bit per button in the order the
//! controller's shift register sends them: A (bit 0), B, Select, Start, Up, Down, Left, Right
//! (bit 7).

use std::fmt;

/// The buttons of an NES-style controller, as bits in the order the NES reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pad(pub u8);

impl Pad {
    pub const A: u8 = 0x01;
    pub const B: u8 = 0x02;
    pub const SELECT: u8 = 0x04;
    pub const START: u8 = 0x08;
    pub const UP: u8 = 0x10;
    pub const DOWN: u8 = 0x20;
    pub const LEFT: u8 = 0x40;
    pub const RIGHT: u8 = 0x80;

    pub fn pressed(self, button: u8) -> bool {
        self.0 & button != 0
    }
}

/// One frame of a movie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MovieFrame {
    /// The first controller.
    pub pad: Pad,
    /// The COMMANDS field (1 soft reset, 2 hard reset, ...).
    pub commands: u8,
}

/// A parsed movie.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Movie {
    /// Header lines in file order.
    pub header: Vec<(String, String)>,
    pub frames: Vec<MovieFrame>,
}

impl Movie {
    /// A header value (`romFilename`, `version`...).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The buttons' letters in an `.fm2` gamepad field, left to right (bit 7 to bit 0 of [`Pad`]).
const FM2_BUTTONS: &[u8; 8] = b"RLDUTSBA";

/// A movie of the first gamepad's `pads` (one byte per frame, [`Pad`]'s bits) as `.fm2` text,
/// with `comment` in its header: an FCEUX text movie (version 3) that FCEUX-compatible players,
/// the NES Tetris oracle among them, and [`parse_fm2`] read.
pub fn write_fm2(pads: &[u8], comment: &str) -> String {
    let mut out = String::from(
        "version 3\nemuVersion 22020\nrerecordCount 0\npalFlag 0\nromFilename Tetris (USA)\nfourscore 0\nmicrophone 0\nport0 1\nport1 1\nport2 0\nFDS 0\nNewPPU 0\n",
    );
    for line in comment.lines() {
        out.push_str("comment ");
        out.push_str(line);
        out.push('\n');
    }
    for &pad in pads {
        out.push_str("|0|");
        for (i, &c) in FM2_BUTTONS.iter().enumerate() {
            out.push(if pad & (0x80 >> i) != 0 { c as char } else { '.' });
        }
        out.push_str("|........||\n");
    }
    out
}

/// Why a movie could not be read: the line (1-based) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovieError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for MovieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for MovieError {}

/// Parses an `.fm2` movie. Only the first controller is kept; the file must be an FM2 text movie
/// (a `version` header and input lines), with its first port a gamepad.
pub fn parse_fm2(text: &str) -> Result<Movie, MovieError> {
    let mut movie = Movie::default();
    let mut seen_version = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let err = |message: String| MovieError { line: n, message };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(rest) = line.strip_prefix('|') {
            if !seen_version {
                return Err(err("input before the header (not an FM2 movie)".into()));
            }
            movie.frames.push(parse_frame(rest).map_err(err)?);
        } else if line.trim().is_empty() {
            continue;
        } else {
            if !movie.frames.is_empty() {
                return Err(err("header line after the input lines".into()));
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            if key == "version" {
                seen_version = true;
            }
            if key == "binary" && value.trim() == "1" {
                return Err(err("binary FM2 movies are not supported (save it as text)".into()));
            }
            if key == "port0" && !matches!(value.trim(), "1") {
                return Err(err(format!("port0 is device {value}, not a gamepad (1)")));
            }
            movie.header.push((key.to_string(), value.to_string()));
        }
    }
    if !seen_version {
        return Err(MovieError {
            line: 1,
            message: "no `version` header (not an FM2 movie)".into(),
        });
    }
    Ok(movie)
}

/// `COMMANDS|PORT0|PORT1|PORT2|` (the leading `|` already gone).
fn parse_frame(rest: &str) -> Result<MovieFrame, String> {
    let mut fields = rest.split('|');
    let commands = fields.next().unwrap_or("");
    let commands: u8 = commands
        .trim()
        .parse()
        .map_err(|_| format!("commands field {commands:?} is not a number from 0 to 255"))?;
    let port0 = fields.next().ok_or("no controller field")?;
    let buttons: Vec<char> = port0.chars().collect();
    if buttons.len() != 8 {
        return Err(format!(
            "controller field {port0:?} has {} characters, not 8 (RLDUTSBA)",
            buttons.len()
        ));
    }
    let mut pad = 0u8;
    for (i, &c) in buttons.iter().enumerate() {
        if c != '.' && c != ' ' {
            pad |= 0x80 >> i;
        }
    }
    Ok(MovieFrame {
        pad: Pad(pad),
        commands,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "version 3\nemuVersion 20400\nromFilename Tetris (USA)\nport0 1\nport1 1\nport2 0\ncomment author me\n";

    #[test]
    fn frames_read_in_rldutsba_order_into_nes_bits() {
        let text = format!(
            "{HEADER}|0|........|........||\n|0|R......A|........||\n|0|.L.U.S..|........||\n|2|..D.T.B.|........||\n"
        );
        let m = parse_fm2(&text).unwrap();
        assert_eq!(m.get("romFilename"), Some("Tetris (USA)"));
        assert_eq!(m.get("comment"), Some("author me"));
        let pads: Vec<u8> = m.frames.iter().map(|f| f.pad.0).collect();
        assert_eq!(
            pads,
            [
                0,
                Pad::RIGHT | Pad::A,
                Pad::LEFT | Pad::UP | Pad::SELECT,
                Pad::DOWN | Pad::START | Pad::B
            ]
        );
        assert_eq!(m.frames[3].commands, 2);
        assert!(m.frames[1].pad.pressed(Pad::A) && !m.frames[1].pad.pressed(Pad::B));
    }

    #[test]
    fn written_movies_read_back_frame_for_frame() {
        let pads = [
            0x00,
            Pad::A,
            Pad::START | Pad::RIGHT,
            0xFF,
            Pad::SELECT | Pad::DOWN,
        ];
        let text = write_fm2(&pads, "recorded\nby a test");
        assert!(text.contains("|0|R...T...|........||\n"), "{text}");
        let movie = parse_fm2(&text).unwrap();
        assert_eq!(movie.get("comment"), Some("recorded"));
        let back: Vec<u8> = movie.frames.iter().map(|f| f.pad.0).collect();
        assert_eq!(back, pads);
    }

    #[test]
    fn crlf_files_and_spaces_for_released_buttons() {
        let text = format!("{HEADER}|0|   U   A|        ||\r\n").replace('\n', "\r\n");
        let m = parse_fm2(&text).unwrap();
        assert_eq!(m.frames[0].pad.0, Pad::UP | Pad::A);
    }

    #[test]
    fn bad_movies_say_which_line_and_why() {
        let cases = [
            ("|0|........|||\n", 1, "before the header"),
            ("hello\n", 1, "no `version`"),
            (&format!("{HEADER}|x|........|||\n"), 8, "commands field"),
            (&format!("{HEADER}|0|.......|||\n"), 8, "7 characters"),
            (&format!("{HEADER}|0\n"), 8, "no controller"),
            (
                &format!("{HEADER}|0|........|||\nversion 3\n"),
                9,
                "after the input",
            ),
            ("version 3\nbinary 1\n", 2, "binary"),
            ("version 3\nport0 2\n", 2, "not a gamepad"),
        ];
        for (text, line, words) in cases {
            let e = parse_fm2(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }
}
