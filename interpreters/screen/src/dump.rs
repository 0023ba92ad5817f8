//! Headless renderings of a [`Frame`]: plain text, a colour-index grid, ANSI and PNG.
//!
//! These are what golden tests compare and what `--dump-screen` and `--screenshot` print, so each
//! is deterministic and documented cell by cell. None of them draws the text cursor: a golden
//! screen should not change with the cursor's blink state.

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

/// The largest picture [`png()`] makes, in pixels (a 256-megabyte buffer): far beyond any screen at
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
    let mut counts = [0usize; 256];
    for y in y0..y0 + ch {
        for x in x0..x0 + cw {
            counts[p.get(x, y).unwrap_or(0) as usize] += 1;
        }
    }
    let mut by_count: Vec<(u8, usize)> = (0..=255u8)
        .map(|c| (c, counts[c as usize]))
        .filter(|&(_, n)| n > 0)
        .collect();
    if by_count.len() <= 1 {
        return ' ';
    }
    // Most common first; ties go to the lower colour number (the sort is stable).
    by_count.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
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
/// screens the digit is the cell's logical background colour (when the frame has a `paper`
/// colour, the cell's colour that is not the paper: its foreground, or its background when
/// reverse video swapped them); for pixel screens it is the logical
/// colour of the pixel at the cell's centre (`char_size / 2` into the cell). Only the low four bits
/// of the colour number are printed (`colour & 0xF`), so colour 17 shows as `1`; every palette in
/// this crate has at most 16 entries.
pub fn colours(frame: &Frame) -> String {
    let (cols, rows) = frame.text_size();
    let mut out = String::with_capacity((cols + 1) * rows);
    for y in 0..rows {
        for x in 0..cols {
            let colour = match &frame.screen {
                Screen::Cells(g) => g.get(x, y).map_or(0, |c| match frame.paper {
                    Some(p) if c.fg == p && c.bg != p => c.bg,
                    Some(_) => c.fg,
                    None => c.bg,
                }),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Cell, CellGrid};
    use crate::palette::Palette;
    use proptest::prelude::*;

    const BLUE: Rgb = Rgb(0, 0, 255);
    const WHITE: Rgb = Rgb(255, 255, 255);
    const RED: Rgb = Rgb(255, 0, 0);
    const CYAN: Rgb = Rgb(0, 255, 255);

    /// Draws `s` with the font at text cell (`col`, `row`) of an 8x8-cell pixel buffer, ink only.
    fn draw_text(p: &mut PixelBuffer, col: usize, row: usize, s: &str, ink: u8) {
        for (i, ch) in s.chars().enumerate() {
            for (gy, bits) in glyph(ch).iter().enumerate() {
                for gx in 0..8 {
                    if bits & (0x80 >> gx) != 0 {
                        p.set((col + i) * 8 + gx, row * 8 + gy, ink);
                    }
                }
            }
        }
    }

    fn cells(rows: &[&[(char, u8, u8)]]) -> Frame {
        let mut g = CellGrid::new(rows[0].len(), rows.len(), Cell::default());
        for (y, row) in rows.iter().enumerate() {
            for (x, &(ch, fg, bg)) in row.iter().enumerate() {
                g.set(x, y, Cell::new(ch, fg, bg));
            }
        }
        Frame::cells(g, Palette::acorn16())
    }

    /// Decodes a PNG into (width, height, RGB bytes).
    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("PNG header");
        let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
        let info = reader.next_frame(&mut buf).expect("PNG data");
        assert_eq!(info.color_type, ::png::ColorType::Rgb);
        assert_eq!(info.bit_depth, ::png::BitDepth::Eight);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    fn at(png: &(u32, u32, Vec<u8>), x: u32, y: u32) -> Rgb {
        let i = ((y * png.0 + x) * 3) as usize;
        Rgb(png.2[i], png.2[i + 1], png.2[i + 2])
    }

    #[test]
    fn text_of_cells_keeps_trailing_spaces_and_hides_control_characters() {
        let f = cells(&[
            &[('H', 7, 0), ('i', 7, 0), (' ', 7, 0)],
            &[('\u{7}', 7, 0), ('£', 7, 0), (' ', 7, 0)],
        ]);
        assert_eq!(text(&f), "Hi \n?£ \n");
    }

    #[test]
    fn text_reads_pixel_screens_back_through_the_font() {
        let mut p = PixelBuffer::new(6 * 8, 2 * 8, (8, 8), 4);
        draw_text(&mut p, 0, 0, "HELLO", 7);
        draw_text(&mut p, 1, 1, "M0@", 3); // more ink than paper in the font used
        assert_eq!(text(&Frame::pixels(p, Palette::acorn16())), "HELLO \n M0@  \n");
    }

    #[test]
    fn text_read_back_treats_every_other_colour_as_ink() {
        let mut p = PixelBuffer::new(3 * 8, 8, (8, 8), 0);
        draw_text(&mut p, 0, 0, "AB", 1);
        // Recolour the lower half of 'A' and all of 'B' in a second ink: still the same letters.
        for y in 4..8 {
            for x in 0..8 {
                if p.get(x, y) == Some(1) {
                    p.set(x, y, 2);
                }
            }
        }
        // A cell of one colour (not the screen's usual background) is a space.
        for y in 0..8 {
            for x in 16..24 {
                p.set(x, y, 5);
            }
        }
        assert_eq!(text(&Frame::pixels(p, Palette::acorn16())), "AB \n");
    }

    #[test]
    fn text_read_back_marks_graphics_as_unknown() {
        let mut p = PixelBuffer::new(16, 8, (8, 8), 0);
        for i in 0..8 {
            p.set(i, i, 7); // a diagonal line is no character
        }
        draw_text(&mut p, 1, 0, "\u{2592}", 7); // nor is a shade
        assert_eq!(text(&Frame::pixels(p, Palette::acorn16())), "??\n");
    }

    #[test]
    fn text_read_back_samples_large_character_cells() {
        // 16x16 character cells, each font pixel a 2x2 block (as in a double-size screen).
        let mut small = PixelBuffer::new(16, 8, (8, 8), 0);
        draw_text(&mut small, 0, 0, "Ok", 1);
        let mut big = PixelBuffer::new(32, 16, (16, 16), 0);
        for y in 0..16 {
            for x in 0..32 {
                big.set(x, y, small.get(x / 2, y / 2).unwrap());
            }
        }
        assert_eq!(text(&Frame::pixels(big, Palette::acorn16())), "Ok\n");
    }

    #[test]
    fn colours_of_cells_are_background_digits() {
        let f = cells(&[
            &[('a', 7, 0), ('b', 0, 12), ('c', 1, 17)],
            &[('d', 7, 255), ('e', 7, 10), (' ', 3, 3)],
        ]);
        // 17 and 255 print their low four bits.
        assert_eq!(colours(&f), "0c1\nfa3\n");
    }

    #[test]
    fn colours_of_pixels_sample_the_cell_centre() {
        let mut p = PixelBuffer::new(16, 16, (8, 8), 2);
        p.set(4, 4, 9); // centre of cell (0, 0)
        p.set(8, 8, 14); // a corner of cell (1, 1), not its centre
        p.set(12, 12, 11); // centre of cell (1, 1)
        assert_eq!(colours(&Frame::pixels(p, Palette::acorn16())), "92\n2b\n");
    }

    #[test]
    fn ansi_cells_change_colour_only_when_needed() {
        let f = cells(&[
            &[('H', 7, 4), ('i', 7, 4), ('!', 1, 0)],
            &[('x', 9, 0), (' ', 9, 0), (' ', 9, 0)],
        ]);
        assert_eq!(
            ansi(&f, ColourDepth::Ansi16),
            "\x1b[97;104mHi\x1b[91;40m!\x1b[0m\n\x1b[91;40mx  \x1b[0m\n"
        );
        assert_eq!(
            ansi(&f, ColourDepth::TrueColour).lines().next().unwrap(),
            "\x1b[38;2;255;255;255;48;2;0;0;255mHi\x1b[38;2;255;0;0;48;2;0;0;0m!\x1b[0m"
        );
    }

    #[test]
    fn ansi_cells_show_the_current_flash_phase() {
        let mut f = cells(&[&[('x', 9, 0)]]);
        assert!(ansi(&f, ColourDepth::Ansi256).starts_with("\x1b[38;5;196;"));
        f.flash_phase = true;
        assert!(ansi(&f, ColourDepth::Ansi256).starts_with("\x1b[38;5;51;"));
    }

    #[test]
    fn ansi_pixels_are_upper_half_blocks() {
        // 2x3 pixels: two lines, the second with only an upper pixel.
        let mut p = PixelBuffer::new(2, 3, (8, 8), 0);
        p.set(0, 0, 1);
        p.set(1, 1, 4);
        p.set(0, 2, 7);
        p.set(1, 2, 7);
        let f = Frame::pixels(p, Palette::acorn16());
        assert_eq!(
            ansi_pixels(&f, ColourDepth::Ansi16, 1, 1),
            "\x1b[91;40m▀\x1b[30;104m▀\x1b[0m\n\x1b[97;49m▀▀\x1b[0m\n"
        );
        // Stepping by 2 in both directions keeps pixels (0, 0) and (0, 2) only.
        assert_eq!(
            ansi_pixels(&f, ColourDepth::Ansi16, 2, 2),
            "\x1b[91;107m▀\x1b[0m\n"
        );
    }

    fn shape(s: &str) -> (usize, usize) {
        let widths: Vec<usize> = s.lines().map(|l| l.matches('▀').count()).collect();
        assert!(widths.windows(2).all(|w| w[0] == w[1]), "ragged output");
        (widths[0], widths.len())
    }

    #[test]
    fn ansi_fits_bbc_modes_into_80_columns_keeping_their_shape() {
        let mode = |w, h, aspect| {
            let mut p = PixelBuffer::new(w, h, (8, 8), 0);
            p.pixel_aspect = aspect;
            shape(&ansi(&Frame::pixels(p, Palette::acorn16()), ColourDepth::Ansi16))
        };
        // All of them cover the same 4:3-ish display, so all come out 80 columns by 32 lines.
        assert_eq!(mode(320, 256, (1, 1)), (80, 32)); // MODE 9
        assert_eq!(mode(640, 256, (1, 2)), (80, 32)); // MODE 0, tall pixels
        assert_eq!(mode(160, 256, (2, 1)), (80, 32)); // MODE 2, wide pixels
        // A small screen is not blown up.
        assert_eq!(mode(40, 20, (1, 1)), (40, 10));
    }

    #[test]
    fn png_of_cells_uses_the_font_and_palette() {
        let f = cells(&[&[('H', 7, 4), (' ', 7, 1)]]);
        let img = decode(&png(&f, 2).unwrap());
        assert_eq!((img.0, img.1), (2 * 8 * 2, 8 * 2));
        // 'H' has its left stroke in font columns 0-1 and paper in column 2; row 7 is empty.
        assert_eq!(at(&img, 0, 0), WHITE);
        assert_eq!(at(&img, 3, 1), WHITE);
        assert_eq!(at(&img, 4, 0), BLUE);
        assert_eq!(at(&img, 1, 15), BLUE);
        // The second cell is a red space.
        assert_eq!(at(&img, 16, 0), RED);
        assert_eq!(at(&img, 31, 15), RED);
    }

    #[test]
    fn png_of_pixels_scales_by_aspect_and_adds_the_border() {
        let mut p = PixelBuffer::new(4, 2, (8, 8), 0);
        p.pixel_aspect = (1, 2);
        p.set(0, 0, 9);
        p.set(3, 1, 7);
        let mut f = Frame::pixels(p, Palette::acorn16());
        f.border = Some(4);
        let img = decode(&png(&f, 3).unwrap());
        let m = 16 * 3;
        assert_eq!((img.0, img.1), (4 * 3 + 2 * m, 2 * 6 + 2 * m));
        assert_eq!(at(&img, 0, 0), BLUE);
        assert_eq!(at(&img, m - 1, m), BLUE);
        assert_eq!(at(&img, img.0 - 1, img.1 - 1), BLUE);
        // Pixel (0, 0) is 3 wide and 6 high, flashing colour 9 in its first phase.
        assert_eq!(at(&img, m, m), RED);
        assert_eq!(at(&img, m + 2, m + 5), RED);
        assert_eq!(at(&img, m + 3, m), Rgb(0, 0, 0));
        assert_eq!(at(&img, m, m + 6), Rgb(0, 0, 0));
        assert_eq!(at(&img, m + 9, m + 6), WHITE);
        assert_eq!(at(&img, m + 11, m + 11), WHITE);
        f.flash_phase = true;
        let img = decode(&png(&f, 1).unwrap());
        assert_eq!(at(&img, 16, 16), CYAN);
    }

    #[test]
    fn png_refuses_bad_sizes() {
        let f = cells(&[&[('a', 7, 0)]]);
        assert_eq!(png(&f, 0), Err(DumpError::BadScale(0)));
        assert_eq!(
            png(&f, 100_000).unwrap_err().to_string(),
            "the picture would be 800000x800000 pixels, too large for a PNG"
        );
        let empty = Frame::pixels(PixelBuffer::new(0, 0, (8, 8), 0), Palette::acorn2());
        assert_eq!(png(&empty, 1), Err(DumpError::Empty));
    }

    proptest! {
        #[test]
        fn pixel_text_reads_back(s in "[ -~]{1,12}", fg in 0u8..16, offset in 1u8..16) {
            // Any two different colours; a rejection filter would hit proptest's reject limit.
            let bg = (fg + offset) % 16;
            let mut p = PixelBuffer::new(s.len() * 8, 8, (8, 8), bg);
            draw_text(&mut p, 0, 0, &s, fg);
            prop_assert_eq!(text(&Frame::pixels(p, Palette::acorn16())), format!("{s}\n"));
        }
    }
}
