//! Headless renderings of a [`Frame`]: plain text, a colour-index grid, ANSI and PNG.
//!
//! These are what golden tests compare and what `--dump-screen` and `--screenshot` print, so each
//! is deterministic and documented cell by cell. None of them draws the text cursor: a golden
//! screen should not change with the cursor's blink state.

use std::collections::HashMap;

use crate::colour::{ColourDepth, TermColour, to_terminal};
use crate::font::{glyph, glyph_for_pixels};
use crate::frame::{Frame, PixelBuffer, Screen};
use crate::palette::Rgb;

/// Why a PNG could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    #[error("the PNG scale must be at least 1 (got {0})")]
    BadScale(u32),
    #[error("the picture would be {width}x{height} pixels, too large for a PNG")]
    TooLarge { width: u64, height: u64 },
    #[error("the screen is empty: there is nothing to draw")]
    Empty,
    #[error("could not encode the PNG: {0}")]
    Encode(String),
}

/// The width of the border margin in a PNG, in unscaled pixels.
pub const BORDER: u32 = 16;

/// The largest picture [`png`] makes, in pixels (a 256-megabyte buffer): far beyond any screen at
/// any sensible scale, and a guard against a typo like `--scale 10000`.
pub const MAX_PNG_PIXELS: u64 = 1 << 26;

/// How text dumps show a cell character that would break the grid (a control character).
fn printable(c: char) -> char {
    if c.is_control() { '?' } else { c }
}

/// The cells of a pixel screen: the pixels of text cell (`col`, `row`) are
/// `col*cw .. (col+1)*cw` by `row*ch .. (row+1)*ch`.
fn cell_size(p: &PixelBuffer) -> (usize, usize) {
    (p.char_size.0.max(1), p.char_size.1.max(1))
}

/// Reads the character in one text cell of a pixel screen.
///
/// The cell's background is taken to be its most common colour and every other colour is ink. The
/// cell is sampled on an 8x8 grid (so 16x16 cells, for example, read every other pixel) and looked
/// up in the font. Some glyphs have more ink than paper (`M`, `0`, `#`, `N`, `W`, `@`, `B` in the
/// font used here), so when the most common colour reads as no character the other colours of the
/// cell are tried as background in turn, most common first; no glyph is the inverse of another, so
/// this never misreads. A cell of one colour is a space; a cell that still matches nothing is `?`.
fn read_cell(p: &PixelBuffer, col: usize, row: usize) -> char {
    let (cw, ch) = cell_size(p);
    let (x0, y0) = (col * cw, row * ch);
    let mut counts: HashMap<u8, usize> = HashMap::new();
    for y in y0..y0 + ch {
        for x in x0..x0 + cw {
            *counts.entry(p.get(x, y).unwrap_or(0)).or_default() += 1;
        }
    }
    if counts.len() <= 1 {
        return ' ';
    }
    let mut by_count: Vec<(u8, usize)> = counts.into_iter().collect();
    // Most common first; ties by colour number so the result never depends on hash order.
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for &(bg, _) in &by_count {
        let mut rows = [0u8; 8];
        for (gy, r) in rows.iter_mut().enumerate() {
            for gx in 0..8 {
                let c = p.get(x0 + gx * cw / 8, y0 + gy * ch / 8).unwrap_or(bg);
                if c != bg {
                    *r |= 0x80 >> gx;
                }
            }
        }
        if let Some(c) = glyph_for_pixels(&rows) {
            return c;
        }
    }
    '?'
}

/// Plain text: one character per text cell, each row ended by `'\n'`. Trailing spaces are kept so
/// every line has the same length. Cell screens give each cell's character (control characters as
/// `?`); pixel screens are read back through the font (see the rules on the private `read_cell`:
/// most common colour as background, other colours ink, `?` for a cell that is no character).
pub fn text(frame: &Frame) -> String {
    let (cols, rows) = frame.text_size();
    let mut out = String::with_capacity((cols + 1) * rows);
    for y in 0..rows {
        for x in 0..cols {
            out.push(match &frame.screen {
                Screen::Cells(g) => g.get(x, y).map_or(' ', |c| printable(c.ch)),
                Screen::Pixels(p) => read_cell(p, x, y),
            });
        }
        out.push('\n');
    }
    out
}

/// A colour-index grid: one lower-case hex digit per text cell, rows ended by `'\n'`. For cell
/// screens the digit is the cell's logical background colour; for pixel screens it is the logical
/// colour of the pixel at the cell's centre (`char_size / 2` into the cell). Only the low four bits
/// of the colour number are printed (`colour & 0xF`), so colour 17 shows as `1`; every palette in
/// this crate has at most 16 entries.
pub fn colours(frame: &Frame) -> String {
    let (cols, rows) = frame.text_size();
    let mut out = String::with_capacity((cols + 1) * rows);
    for y in 0..rows {
        for x in 0..cols {
            let colour = match &frame.screen {
                Screen::Cells(g) => g.get(x, y).map_or(0, |c| c.bg),
                Screen::Pixels(p) => {
                    let (cw, ch) = cell_size(p);
                    p.get(x * cw + cw / 2, y * ch + ch / 2).unwrap_or(0)
                }
            };
            out.push(char::from_digit((colour & 0xF) as u32, 16).unwrap_or('0'));
        }
        out.push('\n');
    }
    out
}

/// Writes the SGR sequence that switches to `fg`/`bg` if they differ from the current ones.
fn set_colours(
    out: &mut String,
    current: &mut Option<(TermColour, TermColour)>,
    fg: TermColour,
    bg: TermColour,
) {
    if *current != Some((fg, bg)) {
        out.push_str(&format!("\x1b[{};{}m", fg.fg_sgr(), bg.bg_sgr()));
        *current = Some((fg, bg));
    }
}

/// ANSI text for a terminal of the given colour depth.
///
/// Cell screens are one character per cell with its foreground and background colours (colour
/// changes only where the colours change). Pixel screens go through [`ansi_pixels`] with steps
/// chosen so the picture is at most 80 columns wide and keeps its shape: `step_x` is the smallest
/// that fits 80 columns, `step_y` is chosen so one output pixel (half a terminal cell, about
/// square) covers a square of the original display according to `pixel_aspect`. A 320x256
/// MODE 9 screen becomes 80 columns by 32 lines. Each line ends with a reset (`ESC[0m`) and `'\n'`.
pub fn ansi(frame: &Frame, depth: ColourDepth) -> String {
    match &frame.screen {
        Screen::Cells(g) => {
            let mut out = String::new();
            for y in 0..g.height() {
                let mut current = None;
                for cell in g.row(y) {
                    let fg = to_terminal(frame.palette.rgb(cell.fg, frame.flash_phase), depth);
                    let bg = to_terminal(frame.palette.rgb(cell.bg, frame.flash_phase), depth);
                    set_colours(&mut out, &mut current, fg, bg);
                    out.push(printable(cell.ch));
                }
                out.push_str("\x1b[0m\n");
            }
            out
        }
        Screen::Pixels(p) => {
            let step_x = p.width().div_ceil(80).max(1);
            let (aw, ah) = (p.pixel_aspect.0.max(1) as usize, p.pixel_aspect.1.max(1) as usize);
            // Output pixel height in display units should match its width: step_y * ah = step_x * aw.
            let step_y = ((step_x * aw + ah / 2) / ah).max(1);
            ansi_pixels(frame, depth, step_x, step_y)
        }
    }
}

/// The frame drawn at one pixel per pixel (cell screens through the 8x8 font), ignoring
/// `pixel_aspect`: (width, height, row-major RGB).
fn raster(frame: &Frame) -> (usize, usize, Vec<Rgb>) {
    let phase = frame.flash_phase;
    match &frame.screen {
        Screen::Cells(g) => {
            let (w, h) = (g.width() * 8, g.height() * 8);
            let mut px = vec![Rgb(0, 0, 0); w * h];
            for cy in 0..g.height() {
                for (cx, cell) in g.row(cy).iter().enumerate() {
                    let fg = frame.palette.rgb(cell.fg, phase);
                    let bg = frame.palette.rgb(cell.bg, phase);
                    for (gy, bits) in glyph(cell.ch).iter().enumerate() {
                        for gx in 0..8 {
                            let ink = bits & (0x80 >> gx) != 0;
                            px[(cy * 8 + gy) * w + cx * 8 + gx] = if ink { fg } else { bg };
                        }
                    }
                }
            }
            (w, h, px)
        }
        Screen::Pixels(p) => {
            // Map each logical colour once, not once per pixel.
            let lut: Vec<Rgb> = (0..=255u8).map(|c| frame.palette.rgb(c, phase)).collect();
            (
                p.width(),
                p.height(),
                p.pixels().iter().map(|&c| lut[c as usize]).collect(),
            )
        }
    }
}

/// A pixel picture of the frame in upper-half-block characters (U+2580), two pixel rows per
/// terminal line: the foreground is the upper pixel, the background the lower. Every `step_x`th
/// pixel of every `step_y`th row is sampled (steps of 0 count as 1). A picture with an odd number
/// of sampled rows ends with a line whose lower half is the terminal's default background. Cell
/// screens are drawn through the 8x8 font first. Each line ends with `ESC[0m` and `'\n'`.
pub fn ansi_pixels(frame: &Frame, depth: ColourDepth, step_x: usize, step_y: usize) -> String {
    let (step_x, step_y) = (step_x.max(1), step_y.max(1));
    let (w, h, px) = raster(frame);
    let xs: Vec<usize> = (0..w).step_by(step_x).collect();
    let ys: Vec<usize> = (0..h).step_by(step_y).collect();
    let mut out = String::new();
    for pair in ys.chunks(2) {
        let mut current: Option<(TermColour, Option<TermColour>)> = None;
        for &x in &xs {
            let top = to_terminal(px[pair[0] * w + x], depth);
            let bottom = pair.get(1).map(|&y| to_terminal(px[y * w + x], depth));
            if current != Some((top, bottom)) {
                match bottom {
                    Some(b) => out.push_str(&format!("\x1b[{};{}m", top.fg_sgr(), b.bg_sgr())),
                    None => out.push_str(&format!("\x1b[{};49m", top.fg_sgr())),
                }
                current = Some((top, bottom));
            }
            out.push('\u{2580}');
        }
        out.push_str("\x1b[0m\n");
    }
    out
}

/// A PNG (8-bit RGB) of the frame at an integer `scale` (at least 1).
///
/// Cell screens are drawn with the 8x8 font, foreground on background, each font pixel a
/// `scale`x`scale` square. Pixel screens are drawn pixel by pixel, each pixel
/// `scale * pixel_aspect.0` wide and `scale * pixel_aspect.1` high, so MODE 0's tall pixels stay
/// tall. Colours come from the frame's palette in its current `flash_phase`. If the frame has a
/// border colour, a margin of `16 * scale` pixels of it surrounds the picture.
pub fn png(frame: &Frame, scale: u32) -> Result<Vec<u8>, DumpError> {
    if scale == 0 {
        return Err(DumpError::BadScale(scale));
    }
    let (w, h, px) = raster(frame);
    let (sx, sy) = match &frame.screen {
        Screen::Cells(_) => (scale as u64, scale as u64),
        Screen::Pixels(p) => (
            scale as u64 * p.pixel_aspect.0.max(1) as u64,
            scale as u64 * p.pixel_aspect.1.max(1) as u64,
        ),
    };
    let margin = if frame.border.is_some() {
        BORDER as u64 * scale as u64
    } else {
        0
    };
    let out_w = w as u64 * sx + 2 * margin;
    let out_h = h as u64 * sy + 2 * margin;
    if out_w == 0 || out_h == 0 {
        return Err(DumpError::Empty);
    }
    if out_w.saturating_mul(out_h) > MAX_PNG_PIXELS {
        return Err(DumpError::TooLarge {
            width: out_w,
            height: out_h,
        });
    }
    let (out_w, out_h, sx, sy, margin) = (
        out_w as usize,
        out_h as usize,
        sx as usize,
        sy as usize,
        margin as usize,
    );
    let border = frame
        .border
        .map_or(Rgb(0, 0, 0), |b| frame.palette.rgb(b, frame.flash_phase));
    let mut data = Vec::with_capacity(out_w * out_h * 3);
    for oy in 0..out_h {
        for ox in 0..out_w {
            let inside = ox >= margin && ox < out_w - margin && oy >= margin && oy < out_h - margin;
            let Rgb(r, g, b) = if inside {
                px[(oy - margin) / sy * w + (ox - margin) / sx]
            } else {
                border
            };
            data.extend_from_slice(&[r, g, b]);
        }
    }
    let mut bytes = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut bytes, out_w as u32, out_h as u32);
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        let encode = |e: ::png::EncodingError| DumpError::Encode(e.to_string());
        let mut writer = enc.write_header().map_err(encode)?;
        writer.write_image_data(&data).map_err(encode)?;
        writer.finish().map_err(encode)?;
    }
    Ok(bytes)
}
