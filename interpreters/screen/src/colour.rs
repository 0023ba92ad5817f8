//! Terminal colour depths and the mapping of palette RGB to what a terminal can show.
//!
//! A truecolour terminal gets the palette's exact RGB. A 256-colour terminal gets the nearest entry
//! of xterm's 6x6x6 colour cube (levels 0, 95, 135, 175, 215, 255) or its 24-step grey ramp
//! (8, 18, .., 238); the 16 system colours 0-15 are never chosen there because every terminal theme
//! redefines them. A 16-colour terminal gets the nearest of the 16 ANSI colours, judged by xterm's
//! default RGB values for them (so pure red is bright red 9, and the C64's muted colours land on
//! the dim ones).
//!
//! "Nearest" is the smallest squared Euclidean distance in RGB, ties going to the earlier
//! candidate (the colour cube before the grey ramp, lower ANSI numbers first). It is simple,
//! predictable and good enough for the saturated 8-bit-era palettes drawn here.

use std::fmt;
use std::str::FromStr;

use crate::palette::Rgb;

/// How many colours the terminal can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColourDepth {
    /// 24-bit RGB (`ESC[38;2;r;g;bm`).
    TrueColour,
    /// The xterm 256-colour palette (`ESC[38;5;nm`).
    Ansi256,
    /// The 16 ANSI colours (`ESC[31m`, `ESC[91m`, ...).
    Ansi16,
}

/// Guesses the terminal's colour depth from the `COLORTERM` and `TERM` environment variables:
/// `COLORTERM` of `truecolor` or `24bit` means truecolour, a `TERM` containing `256color` means 256
/// colours, and anything else (including no variables at all) is treated as 16 colours, which every
/// colour terminal supports.
pub fn detect(colorterm: Option<&str>, term: Option<&str>) -> ColourDepth {
    let colorterm = colorterm.unwrap_or("").trim().to_ascii_lowercase();
    if colorterm == "truecolor" || colorterm == "24bit" {
        return ColourDepth::TrueColour;
    }
    if term.is_some_and(|t| t.to_ascii_lowercase().contains("256color")) {
        return ColourDepth::Ansi256;
    }
    ColourDepth::Ansi16
}

/// A `--colour` value that is not one of the known depths.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour depth '{0}' (use truecolour, 256 or 16)")]
pub struct ParseColourDepthError(pub String);

impl FromStr for ColourDepth {
    type Err = ParseColourDepthError;

    /// Parses a `--colour` override: `truecolour`, `truecolor` or `24bit`; `256`; `16`
    /// (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "truecolour" | "truecolor" | "24bit" => Ok(ColourDepth::TrueColour),
            "256" => Ok(ColourDepth::Ansi256),
            "16" => Ok(ColourDepth::Ansi16),
            _ => Err(ParseColourDepthError(s.to_string())),
        }
    }
}

impl fmt::Display for ColourDepth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ColourDepth::TrueColour => "truecolour",
            ColourDepth::Ansi256 => "256",
            ColourDepth::Ansi16 => "16",
        })
    }
}

/// A colour as a terminal takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermColour {
    /// 24-bit RGB.
    Rgb(u8, u8, u8),
    /// An index into the xterm 256-colour palette.
    Indexed(u8),
    /// One of the 16 ANSI colours, 0-15 (8-15 the bright ones).
    Ansi(u8),
}

impl TermColour {
    /// The SGR parameters that select this colour as the foreground (without `ESC[` and `m`).
    pub fn fg_sgr(self) -> String {
        match self {
            TermColour::Rgb(r, g, b) => format!("38;2;{r};{g};{b}"),
            TermColour::Indexed(n) => format!("38;5;{n}"),
            TermColour::Ansi(n) if n < 8 => format!("{}", 30 + n),
            TermColour::Ansi(n) => format!("{}", 90 + (n & 7)),
        }
    }

    /// The SGR parameters that select this colour as the background (without `ESC[` and `m`).
    pub fn bg_sgr(self) -> String {
        match self {
            TermColour::Rgb(r, g, b) => format!("48;2;{r};{g};{b}"),
            TermColour::Indexed(n) => format!("48;5;{n}"),
            TermColour::Ansi(n) if n < 8 => format!("{}", 40 + n),
            TermColour::Ansi(n) => format!("{}", 100 + (n & 7)),
        }
    }
}

/// xterm's default RGB values for the 16 ANSI colours.
pub const XTERM_ANSI16: [Rgb; 16] = [
    Rgb(0, 0, 0),
    Rgb(205, 0, 0),
    Rgb(0, 205, 0),
    Rgb(205, 205, 0),
    Rgb(0, 0, 238),
    Rgb(205, 0, 205),
    Rgb(0, 205, 205),
    Rgb(229, 229, 229),
    Rgb(127, 127, 127),
    Rgb(255, 0, 0),
    Rgb(0, 255, 0),
    Rgb(255, 255, 0),
    Rgb(92, 92, 255),
    Rgb(255, 0, 255),
    Rgb(0, 255, 255),
    Rgb(255, 255, 255),
];

/// The six levels of each channel of xterm's colour cube (indexes 16-231).
pub const XTERM_CUBE_LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The RGB that xterm shows for 256-colour index `n`.
pub fn xterm256_rgb(n: u8) -> Rgb {
    match n {
        0..=15 => XTERM_ANSI16[n as usize],
        16..=231 => {
            let i = n - 16;
            let l = |k: u8| XTERM_CUBE_LEVELS[k as usize];
            Rgb(l(i / 36), l((i / 6) % 6), l(i % 6))
        }
        _ => {
            let v = 8 + 10 * (n - 232);
            Rgb(v, v, v)
        }
    }
}

fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2) as u32;
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

/// The index of the nearest cube level to `v` (ties to the lower level).
fn nearest_level(v: u8) -> u8 {
    (0..6u8)
        .min_by_key(|&i| (XTERM_CUBE_LEVELS[i as usize] as i32 - v as i32).abs())
        .unwrap_or(0)
}

/// The colour to send a terminal of the given depth for `rgb` (nearest by squared RGB distance).
pub fn to_terminal(rgb: Rgb, depth: ColourDepth) -> TermColour {
    match depth {
        ColourDepth::TrueColour => TermColour::Rgb(rgb.0, rgb.1, rgb.2),
        ColourDepth::Ansi256 => {
            // The cube's distance is a sum over independent channels, so the per-channel nearest
            // level is the nearest cube colour.
            let cube = 16 + 36 * nearest_level(rgb.0) + 6 * nearest_level(rgb.1) + nearest_level(rgb.2);
            let grey = (232..=255u8)
                .min_by_key(|&n| distance(rgb, xterm256_rgb(n)))
                .unwrap_or(232);
            if distance(rgb, xterm256_rgb(grey)) < distance(rgb, xterm256_rgb(cube)) {
                TermColour::Indexed(grey)
            } else {
                TermColour::Indexed(cube)
            }
        }
        ColourDepth::Ansi16 => {
            let n = (0..16u8)
                .min_by_key(|&n| distance(rgb, XTERM_ANSI16[n as usize]))
                .unwrap_or(0);
            TermColour::Ansi(n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::Palette;

    #[test]
    fn detect_follows_colorterm_then_term() {
        assert_eq!(detect(Some("truecolor"), Some("xterm")), ColourDepth::TrueColour);
        assert_eq!(detect(Some("24bit"), None), ColourDepth::TrueColour);
        assert_eq!(detect(None, Some("xterm-256color")), ColourDepth::Ansi256);
        assert_eq!(detect(Some(""), Some("screen-256color")), ColourDepth::Ansi256);
        assert_eq!(detect(None, Some("xterm")), ColourDepth::Ansi16);
        assert_eq!(detect(None, Some("linux")), ColourDepth::Ansi16);
        assert_eq!(detect(None, None), ColourDepth::Ansi16);
    }

    #[test]
    fn colour_override_parses() {
        for s in ["truecolour", "truecolor", "24bit", "TrueColor"] {
            assert_eq!(s.parse::<ColourDepth>(), Ok(ColourDepth::TrueColour));
        }
        assert_eq!("256".parse::<ColourDepth>(), Ok(ColourDepth::Ansi256));
        assert_eq!("16".parse::<ColourDepth>(), Ok(ColourDepth::Ansi16));
        let err = "8".parse::<ColourDepth>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown colour depth '8' (use truecolour, 256 or 16)"
        );
    }

    #[test]
    fn truecolour_is_exact() {
        assert_eq!(
            to_terminal(Rgb(0x68, 0x37, 0x2B), ColourDepth::TrueColour),
            TermColour::Rgb(0x68, 0x37, 0x2B)
        );
    }

    #[test]
    fn ansi256_uses_exact_xterm_levels() {
        assert_eq!(
            to_terminal(Rgb(255, 0, 0), ColourDepth::Ansi256),
            TermColour::Indexed(196)
        );
        assert_eq!(
            to_terminal(Rgb(0, 0, 0), ColourDepth::Ansi256),
            TermColour::Indexed(16)
        );
        assert_eq!(
            to_terminal(Rgb(255, 255, 255), ColourDepth::Ansi256),
            TermColour::Indexed(231)
        );
        assert_eq!(
            to_terminal(Rgb(95, 135, 175), ColourDepth::Ansi256),
            TermColour::Indexed(16 + 36 + 12 + 3)
        );
        // Spectrum's 0xD7 is exactly the 215 level.
        assert_eq!(
            to_terminal(Rgb(0xD7, 0, 0xD7), ColourDepth::Ansi256),
            TermColour::Indexed(16 + 36 * 4 + 4)
        );
    }

    #[test]
    fn ansi256_uses_the_grey_ramp_for_greys_between_cube_levels() {
        // C64 dark grey 0x44 = 68 is far from the cube's 0 and 95 but close to ramp step 238 (68).
        assert_eq!(
            to_terminal(Rgb(0x44, 0x44, 0x44), ColourDepth::Ansi256),
            TermColour::Indexed(238)
        );
        assert_eq!(xterm256_rgb(238), Rgb(68, 68, 68));
    }

    #[test]
    fn ansi16_maps_pure_colours_to_the_bright_ones() {
        let map = |c| to_terminal(c, ColourDepth::Ansi16);
        assert_eq!(map(Rgb(255, 0, 0)), TermColour::Ansi(9));
        assert_eq!(map(Rgb(0, 255, 0)), TermColour::Ansi(10));
        assert_eq!(map(Rgb(255, 255, 0)), TermColour::Ansi(11));
        assert_eq!(map(Rgb(255, 255, 255)), TermColour::Ansi(15));
        assert_eq!(map(Rgb(0, 0, 0)), TermColour::Ansi(0));
        // Spectrum normal red (0xD7) is the dim red.
        assert_eq!(map(Rgb(0xD7, 0, 0)), TermColour::Ansi(1));
    }

    #[test]
    fn acorn16_colours_stay_distinct_in_16_colours() {
        // The eight steady Acorn colours must not collapse onto each other on a 16-colour terminal.
        let p = Palette::acorn16();
        let mut seen: Vec<TermColour> = (0..8)
            .map(|i| to_terminal(p.rgb(i, false), ColourDepth::Ansi16))
            .collect();
        seen.sort_by_key(|c| format!("{c:?}"));
        seen.dedup();
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn sgr_codes() {
        assert_eq!(TermColour::Ansi(1).fg_sgr(), "31");
        assert_eq!(TermColour::Ansi(9).fg_sgr(), "91");
        assert_eq!(TermColour::Ansi(9).bg_sgr(), "101");
        assert_eq!(TermColour::Ansi(4).bg_sgr(), "44");
        assert_eq!(TermColour::Indexed(196).fg_sgr(), "38;5;196");
        assert_eq!(TermColour::Rgb(1, 2, 3).bg_sgr(), "48;2;1;2;3");
    }
}
