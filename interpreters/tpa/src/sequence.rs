//! The printer's sequence file: what `retro tpa -o` writes and a printer (ours, or the Z80
//! Tetris's printer mode) plays.
//!
//! ```text
//! # retro tpa sequence: 412 drops for 180 pixels
//! palette #D82800 #00A800 #2038EC
//! T 02 10
//! J 06 0
//! ```
//! - `#` starts a comment; blank lines are ignored.
//! - `palette J T L`: the colours of the J, T and L pieces, the sprite's three colours, as
//!   `#RRGGBB`. It comes first, once.
//! - Then one drop per line: the piece letter, its orientation as the NES orientation id in two
//!   hex digits (00-12, see nes-tetris.md), and the pivot column (0-20, 0 at the left). A drop
//!   means: spawn the piece at the top centre (pivot column 10, top row) in its spawn
//!   orientation, turn it the short way round to the orientation (clockwise on a tie), shift it
//!   to the column, and let it fall. The letter is redundant with the id and must agree with it;
//!   it is there for people reading the file.
//!
//! A Z80 printer can load the drops as byte pairs (orientation id, pivot column) after the
//! three colours; `Sequence::to_bytes` writes exactly that.

use retro_screen::Rgb;

use crate::image::parse_hex;
use crate::pattern::drop_from_parts;
use crate::piece::Orientation;
use crate::search::Drop;

/// A printable sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    /// Colours of J, T and L.
    pub palette: [Rgb; 3],
    pub drops: Vec<Drop>,
}

impl Sequence {
    /// The file text.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        let hex = |c: Rgb| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        out.push_str(&format!(
            "palette {} {} {}\n",
            hex(self.palette[0]),
            hex(self.palette[1]),
            hex(self.palette[2])
        ));
        for d in &self.drops {
            out.push_str(&format!(
                "{} {:02X} {}\n",
                d.orientation.piece().letter(),
                d.orientation.0,
                d.x
            ));
        }
        out
    }

    /// The compact form for a Z80 printer: 9 bytes of colour (R, G, B for J, T, L), a 16-bit
    /// little-endian drop count, then (orientation id, pivot column) per drop.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(11 + 2 * self.drops.len());
        for c in self.palette {
            out.extend([c.0, c.1, c.2]);
        }
        out.extend((self.drops.len().min(u16::MAX as usize) as u16).to_le_bytes());
        for d in self.drops.iter().take(u16::MAX as usize) {
            out.extend([d.orientation.0, d.x as u8]);
        }
        out
    }

    /// Parses the file text; errors name the line.
    pub fn parse(text: &str) -> Result<Sequence, String> {
        let mut palette = None;
        let mut drops = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let at = |msg: String| format!("line {}: {msg}", n + 1);
            let line = raw.split('#').next().map(str::trim).unwrap_or("");
            // '#' also starts the colours, so cut comments only outside the palette line (the
            // line as read: finding it again by number made a long sequence quadratic, issue 32).
            let full = raw.trim();
            if let Some(rest) = full.strip_prefix("palette") {
                if palette.is_some() || !drops.is_empty() {
                    return Err(at("the palette comes once, before the drops".into()));
                }
                let cols: Vec<&str> = rest.split_whitespace().collect();
                if cols.len() != 3 {
                    return Err(at("want: palette #RRGGBB #RRGGBB #RRGGBB".into()));
                }
                let mut p = [Rgb(0, 0, 0); 3];
                for (slot, c) in p.iter_mut().zip(&cols) {
                    *slot = parse_hex(c).ok_or_else(|| at(format!("bad colour '{c}'")))?;
                }
                palette = Some(p);
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [piece, id, x] = words.as_slice() else {
                return Err(at(format!(
                    "want: PIECE ORIENTATION COLUMN, e.g. T 02 10; got '{line}'"
                )));
            };
            if palette.is_none() {
                return Err(at("the palette line comes before the drops".into()));
            }
            let hint = "a piece letter, two hex digits, a column: T 02 9";
            drops.push(drop_from_parts(piece, id, x, line, hint).map_err(at)?);
        }
        let palette = palette.ok_or("no palette line")?;
        Ok(Sequence { palette, drops })
    }
}

/// The orientations the J, T and L emitters use: pointing down, so the square under the
/// three-cell top is the one printed (L under its left end, T its middle, J its right end).
pub fn emitter_orientation(colour: u8) -> (Orientation, i32) {
    match colour {
        1 => (Orientation(0x07), 2),
        2 => (Orientation(0x02), 1),
        _ => (Orientation(0x0E), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        let s = Sequence {
            palette: [Rgb(1, 2, 3), Rgb(0xAA, 0xBB, 0xCC), Rgb(255, 255, 255)],
            drops: vec![
                Drop {
                    orientation: Orientation(0x02),
                    x: 10,
                },
                Drop {
                    orientation: Orientation(0x11),
                    x: 0,
                },
            ],
        };
        let text = s.to_text("two drops");
        assert!(text.starts_with("# two drops\npalette #010203 #AABBCC #FFFFFF\nT 02 10\nI 11 0\n"));
        assert_eq!(Sequence::parse(&text), Ok(s.clone()));
        assert_eq!(
            s.to_bytes(),
            vec![1, 2, 3, 0xAA, 0xBB, 0xCC, 255, 255, 255, 2, 0, 0x02, 10, 0x11, 0]
        );
    }

    #[test]
    fn bad_files_name_the_line() {
        assert_eq!(
            Sequence::parse("T 02 10\n"),
            Err("line 1: the palette line comes before the drops".into())
        );
        let p = "palette #000000 #000000 #000000\n";
        // The drop is quoted as the file has it, not in the pattern file's `J02@10`.
        assert_eq!(
            Sequence::parse(&format!("{p}J 02 10\n")),
            Err("line 2: drop 'J 02 10': orientation 02 is not a J".into())
        );
        assert_eq!(
            Sequence::parse(&format!("{p}Q 02 10\n")),
            Err("line 2: bad drop 'Q 02 10' (want a piece letter, two hex digits, a column: T 02 9)".into())
        );
        assert!(
            Sequence::parse(&format!("{p}I 12 0\n"))
                .unwrap_err()
                .contains("outside the field")
        );
        assert!(
            Sequence::parse(&format!("{p}T 02\n"))
                .unwrap_err()
                .starts_with("line 2: want")
        );
        assert!(Sequence::parse(&format!("{p}{p}")).unwrap_err().contains("once"));
        assert_eq!(Sequence::parse("# nothing\n"), Err("no palette line".into()));
    }
}
