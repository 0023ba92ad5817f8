//! The 8x8 character font shared by every renderer.
//!
//! A glyph is 8 rows, top to bottom, one byte per row with bit 7 the leftmost pixel, the order the
//! Acorn and Commodore character ROMs use (and so the order VDU 23 character definitions use).
//!
//! - Printable ASCII (32-126) comes from the `font8x8` crate's basic set. That crate stores bit 0 as
//!   the leftmost pixel, so every row is bit-reversed on the way in.
//! - The Unicode block elements U+2580-U+259F are built here from their definitions (eighths, halves,
//!   quadrants, and the three shades as ordered-dither patterns of 25 %, 50 % and 75 % ink), so they
//!   tile seamlessly, as C64 PETSCII graphics and teletext-style mosaics need.
//! - The light box-drawing lines ─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼ are built from arms that meet at pixel
//!   (3, 3), so joined boxes line up.
//! - PETSCII's graphics and other home-computer symbols come from [`crate::symbols`].
//! - Anything else is drawn as a hollow box, so a character the font lacks is visible on screen
//!   rather than silently blank.

/// The glyph for characters the font has no picture for: a hollow box (no ASCII glyph looks like it,
/// so a text read-back never mistakes it for a letter).
pub const FALLBACK: [u8; 8] = [0x00, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x7E, 0x00];

/// The 8x8 picture of `ch`: 8 rows top to bottom, bit 7 the leftmost pixel.
pub fn glyph(ch: char) -> [u8; 8] {
    let code = ch as u32;
    match code {
        32..=126 => ascii(code as usize),
        0x2580..=0x259F => block_element(code),
        _ => box_drawing(code)
            .or_else(|| crate::symbols::glyph(ch))
            .unwrap_or(FALLBACK),
    }
}

/// The printable ASCII character whose glyph is exactly `rows`, or `None`. All-zero rows read as a
/// space. This is how text is read back from a pixel screen (RISC OS OSBYTE 135 does the same
/// against its own font); only ASCII is searched because block and box characters are graphics,
/// not text.
pub fn glyph_for_pixels(rows: &[u8; 8]) -> Option<char> {
    (32u8..=126).map(char::from).find(|&c| ascii(c as usize) == *rows)
}

fn ascii(code: usize) -> [u8; 8] {
    let mut rows = font8x8::legacy::BASIC_LEGACY[code];
    for r in &mut rows {
        *r = r.reverse_bits();
    }
    rows
}

/// Rows `from..to` set to `mask`, the rest empty.
fn rows(from: usize, to: usize, mask: u8) -> [u8; 8] {
    let mut g = [0u8; 8];
    g[from..to].fill(mask);
    g
}

/// A glyph from quadrants: bit 0 upper left, 1 upper right, 2 lower left, 3 lower right.
fn quadrants(q: u8) -> [u8; 8] {
    let half = |left: bool, right: bool| (if left { 0xF0 } else { 0 }) | (if right { 0x0F } else { 0 });
    let upper = half(q & 1 != 0, q & 2 != 0);
    let lower = half(q & 4 != 0, q & 8 != 0);
    [upper, upper, upper, upper, lower, lower, lower, lower]
}

/// Two alternating rows repeated down the cell.
fn dither(even: u8, odd: u8) -> [u8; 8] {
    [even, odd, even, odd, even, odd, even, odd]
}

fn block_element(code: u32) -> [u8; 8] {
    const UL: u8 = 1;
    const UR: u8 = 2;
    const LL: u8 = 4;
    const LR: u8 = 8;
    match code {
        0x2580 => rows(0, 4, 0xFF), // upper half
        // Lower one eighth .. lower seven eighths, then the full block.
        0x2581..=0x2588 => rows(8 - (code - 0x2580) as usize, 8, 0xFF),
        // Left seven eighths (0x2589) down to left one eighth (0x258F).
        0x2589..=0x258F => rows(0, 8, 0xFFu8 << (code - 0x2588)),
        0x2590 => rows(0, 8, 0x0F),   // right half
        0x2591 => dither(0x88, 0x22), // light shade, 25 %
        0x2592 => dither(0xAA, 0x55), // medium shade, 50 %
        0x2593 => dither(0x77, 0xDD), // dark shade, 75 % (the light shade inverted)
        0x2594 => rows(0, 1, 0xFF),   // upper one eighth
        0x2595 => rows(0, 8, 0x01),   // right one eighth
        0x2596 => quadrants(LL),
        0x2597 => quadrants(LR),
        0x2598 => quadrants(UL),
        0x2599 => quadrants(UL | LL | LR),
        0x259A => quadrants(UL | LR),
        0x259B => quadrants(UL | UR | LL),
        0x259C => quadrants(UL | UR | LR),
        0x259D => quadrants(UR),
        0x259E => quadrants(UR | LL),
        0x259F => quadrants(UR | LL | LR),
        _ => FALLBACK,
    }
}

/// The light box-drawing lines: which arms (up, down, left, right) leave the centre pixel (3, 3).
fn box_drawing(code: u32) -> Option<[u8; 8]> {
    let (up, down, left, right) = match code {
        0x2500 => (false, false, true, true),
        0x2502 => (true, true, false, false),
        0x250C => (false, true, false, true),
        0x2510 => (false, true, true, false),
        0x2514 => (true, false, false, true),
        0x2518 => (true, false, true, false),
        0x251C => (true, true, false, true),
        0x2524 => (true, true, true, false),
        0x252C => (false, true, true, true),
        0x2534 => (true, false, true, true),
        0x253C => (true, true, true, true),
        _ => return None,
    };
    const CENTRE_COL: u8 = 0x10; // column 3
    const CENTRE_ROW: usize = 3;
    let mut g = [0u8; 8];
    g[CENTRE_ROW] |= CENTRE_COL;
    if left {
        g[CENTRE_ROW] |= 0xF0; // columns 0..=3
    }
    if right {
        g[CENTRE_ROW] |= 0x1F; // columns 3..=7
    }
    for (y, row) in g.iter_mut().enumerate() {
        if (up && y <= CENTRE_ROW) || (down && y >= CENTRE_ROW) {
            *row |= CENTRE_COL;
        }
    }
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(g: &[u8; 8]) -> u32 {
        g.iter().map(|r| r.count_ones()).sum()
    }

    #[test]
    fn ascii_is_converted_to_bit7_leftmost() {
        // The vertical bar of 'L' is at the left edge of the cell, after a one-pixel gap at most:
        // with the wrong bit order it would be at the right.
        let l = glyph('L');
        assert!(l[0] & 0xF0 != 0 && l[0] & 0x0F == 0, "L row 0 = {:08b}", l[0]);
        // '!' is a centred stroke, '(' leans left at top and bottom.
        assert_eq!(glyph('!')[0], 0x18);
        assert_eq!(glyph(' '), [0; 8]);
    }

    #[test]
    fn every_printable_ascii_glyph_reads_back_as_itself() {
        for c in (32u8..=126).map(char::from) {
            assert_eq!(glyph_for_pixels(&glyph(c)), Some(c), "{c:?}");
        }
    }

    #[test]
    fn non_ascii_pictures_do_not_read_back_as_text() {
        assert_eq!(glyph_for_pixels(&FALLBACK), None);
        assert_eq!(glyph_for_pixels(&glyph('\u{2588}')), None);
        assert_eq!(glyph_for_pixels(&[0; 8]), Some(' '));
    }

    #[test]
    fn unknown_characters_are_a_visible_box() {
        assert_eq!(glyph('\u{1F600}'), FALLBACK);
        assert_eq!(glyph('\n'), FALLBACK);
        assert_eq!(glyph('\u{2501}'), FALLBACK); // heavy line: not in the set
        assert!(ink(&FALLBACK) > 0);
    }

    #[test]
    fn block_eighths_and_halves_fill_the_right_area() {
        assert_eq!(glyph('▀'), [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]);
        assert_eq!(glyph('▄'), [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
        assert_eq!(glyph('▁'), [0, 0, 0, 0, 0, 0, 0, 0xFF]);
        assert_eq!(glyph('▇'), [0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        assert_eq!(glyph('█'), [0xFF; 8]);
        assert_eq!(glyph('▉'), [0xFE; 8]);
        assert_eq!(glyph('▌'), [0xF0; 8]);
        assert_eq!(glyph('▏'), [0x80; 8]);
        assert_eq!(glyph('▐'), [0x0F; 8]);
        assert_eq!(glyph('▔'), [0xFF, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(glyph('▕'), [0x01; 8]);
    }

    #[test]
    fn shades_have_a_quarter_half_and_three_quarters_ink() {
        assert_eq!(ink(&glyph('░')), 16);
        assert_eq!(ink(&glyph('▒')), 32);
        assert_eq!(ink(&glyph('▓')), 48);
    }

    #[test]
    fn quadrants_combine() {
        assert_eq!(glyph('▘'), [0xF0, 0xF0, 0xF0, 0xF0, 0, 0, 0, 0]);
        assert_eq!(glyph('▗'), [0, 0, 0, 0, 0x0F, 0x0F, 0x0F, 0x0F]);
        assert_eq!(glyph('▚'), [0xF0, 0xF0, 0xF0, 0xF0, 0x0F, 0x0F, 0x0F, 0x0F]);
        assert_eq!(glyph('▟'), [0x0F, 0x0F, 0x0F, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF]);
        // Every quadrant glyph is whole quadrants: 16, 32 or 48 pixels.
        for c in '\u{2596}'..='\u{259F}' {
            assert_eq!(ink(&glyph(c)) % 16, 0, "{c}");
        }
    }

    #[test]
    fn box_lines_join_across_cells() {
        let h = glyph('─');
        let v = glyph('│');
        assert_eq!(h, [0, 0, 0, 0xFF, 0, 0, 0, 0]);
        assert_eq!(v, [0x10; 8]);
        // A corner's arms reach the cell edges on the row/column of the straight lines.
        let tl = glyph('┌');
        assert_eq!(tl[3], 0x1F);
        assert_eq!(tl[7], 0x10);
        assert_eq!(tl[0], 0);
        let cross = glyph('┼');
        assert_eq!(cross[3], 0xFF);
        assert!(cross.iter().all(|r| r & 0x10 != 0));
        let tee = glyph('┴');
        assert_eq!(tee[3], 0xFF);
        assert_eq!(tee[4], 0);
        assert_eq!(tee[0], 0x10);
    }
}
