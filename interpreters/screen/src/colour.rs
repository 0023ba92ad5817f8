//! Terminal colour depths and the mapping of palette RGB to what a terminal can show.
//!
//! A truecolour terminal gets the palette's exact RGB. A 256-colour terminal gets the nearest entry
//! of xterm's 6x6x6 colour cube (levels 0, 95, 135, 175, 215, 255) or its 24-step grey ramp
//! (8, 18, .., 238); the 16 system colours 0-15 are never chosen there because every terminal theme
//! redefines them. A 16-colour terminal gets the nearest of the 16 ANSI colours, judged by xterm's
//! hue: a colour with a clear hue becomes the ANSI colour of that hue (bright at full intensity or
//! when pastel), a colour without one a grey by brightness (so pure red is bright red 9, and the
//! C64's muted red stays red rather than turning dark grey).
//!
//! In 256 colours "nearest" is the smallest squared Euclidean distance in RGB, ties going to the
//! earlier candidate (the colour cube before the grey ramp).

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
        ColourDepth::Ansi16 => TermColour::Ansi(ansi16(rgb)),
    }
}

/// The 16-colour choice keeps hue rather than RGB distance: by distance the C64's muted red,
/// green and blue all land on dark grey, and a whole palette turns grey. So a colour with a clear
/// hue becomes the ANSI colour of the nearest of the six primary and secondary hues, bright when
/// it is at full intensity or light (bright and pastel, like the C64's light red); a colour
/// without one becomes black, dark grey, grey or white by its brightness.
fn ansi16(rgb: Rgb) -> u8 {
    let (r, g, b) = (rgb.0 as f64, rgb.1 as f64, rgb.2 as f64);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = max - min;
    let sat = if max > 0.0 { chroma / max } else { 0.0 };
    if sat < 0.25 || chroma < 40.0 {
        let avg = (r + g + b) / 3.0;
        return match avg {
            a if a < 40.0 => 0,
            a if a < 128.0 => 8,
            a if a < 200.0 => 7,
            _ => 15,
        };
    }
    let hue = if max == r {
        60.0 * ((g - b) / chroma).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / chroma) + 120.0
    } else {
        60.0 * ((r - g) / chroma) + 240.0
    };
    // Hue sectors 0, 60, .. 300 degrees: red, yellow, green, cyan, blue, magenta.
    const BASE: [u8; 6] = [1, 3, 2, 6, 4, 5];
    let sector = ((hue / 60.0).round() as usize) % 6;
    let v = max / 255.0;
    let bright = v >= 0.9 || (v >= 0.55 && sat < 0.5);
    BASE[sector] + if bright { 8 } else { 0 }
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
    fn c64_colours_keep_their_hue_in_16_colours() {
        let p = Palette::c64();
        let map: Vec<u8> = (0..16)
            .map(|i| match to_terminal(p.rgb(i, false), ColourDepth::Ansi16) {
                TermColour::Ansi(n) => n,
                other => panic!("{other:?}"),
            })
            .collect();
        // black white red cyan purple green blue yellow orange brown lred dgrey grey lgreen lblue lgrey
        assert_eq!(map, vec![0, 15, 1, 14, 5, 2, 4, 11, 3, 3, 9, 8, 8, 10, 12, 7]);
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
