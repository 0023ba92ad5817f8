//! The Spectrum screen drawn into a [`Frame`]: the bitmap at 4000h in the ULA's interleaved row
//! order, and 32 x 24 attribute bytes at 5800h (bit 7 FLASH, 6 BRIGHT, 5-3 PAPER, 2-0 INK).
//!
//! Two views: attribute cells (one coloured cell per attribute; its character is the bitmap cell
//! read back through the shared 8x8 font when it matches a glyph, so text a program draws with
//! that font shows in text dumps), and pixels (256 x 192 with colours from the attributes).

use retro_screen::{Cell, CellGrid, Frame, Palette, PixelBuffer, font};

pub const BITMAP: u16 = 0x4000;
pub const ATTRIBUTES: u16 = 0x5800;
pub const COLUMNS: usize = 32;
pub const ROWS: usize = 24;

/// The address of the bitmap byte for pixel row `y` (0-191) and byte column `x` (0-31): the
/// thirds, then the character row, then the pixel line within it, as the ULA scans.
pub fn bitmap_address(x: usize, y: usize) -> u16 {
    let y = y as u16;
    BITMAP | ((y & 0xC0) << 5) | ((y & 0x07) << 8) | ((y & 0x38) << 2) | x as u16
}

/// Ink and paper as palette indices (8-15 when BRIGHT), swapped in the flash phase.
pub fn colours(attr: u8, flash_phase: bool) -> (u8, u8) {
    let bright = if attr & 0x40 != 0 { 8 } else { 0 };
    let ink = (attr & 7) + bright;
    let paper = ((attr >> 3) & 7) + bright;
    if attr & 0x80 != 0 && flash_phase {
        (paper, ink)
    } else {
        (ink, paper)
    }
}

fn cell_rows(mem: &[u8; 0x10000], col: usize, row: usize) -> [u8; 8] {
    let mut rows = [0u8; 8];
    for (i, r) in rows.iter_mut().enumerate() {
        *r = mem[bitmap_address(col, row * 8 + i) as usize];
    }
    rows
}

/// The character a bitmap cell shows: blank, a glyph of the shared font (ink on paper, or
/// inverted), a half block or quadrant block (so small pictures drawn in half cells, as NES
/// Tetris's statistics and title, show at one cell per attribute), or `#` for any other pattern.
fn cell_char(rows: [u8; 8]) -> char {
    if rows == [0; 8] {
        return ' ';
    }
    font::glyph_for_pixels(&rows)
        .or_else(|| font::glyph_for_pixels(&rows.map(|r| !r)))
        .or_else(|| BLOCKS.into_iter().find(|&c| font::glyph(c) == rows))
        .unwrap_or('#')
}

/// The half and quadrant blocks (U+2580 upper half, U+2584 lower half, U+258C left half, U+2590
/// right half, U+2596-U+259F the quadrants): the block elements made of whole 4 x 4 quadrants.
const BLOCKS: [char; 14] = [
    '\u{2580}', '\u{2584}', '\u{258C}', '\u{2590}', '\u{2596}', '\u{2597}', '\u{2598}', '\u{2599}',
    '\u{259A}', '\u{259B}', '\u{259C}', '\u{259D}', '\u{259E}', '\u{259F}',
];

fn attr(mem: &[u8; 0x10000], col: usize, row: usize) -> u8 {
    mem[ATTRIBUTES as usize + row * COLUMNS + col]
}

/// The attribute-cell view.
pub fn cells(mem: &[u8; 0x10000], border: u8, flash_phase: bool) -> Frame {
    let mut grid = CellGrid::new(COLUMNS, ROWS, Cell::default());
    for row in 0..ROWS {
        for col in 0..COLUMNS {
            let (ink, paper) = colours(attr(mem, col, row), flash_phase);
            grid.set(
                col,
                row,
                Cell::new(cell_char(cell_rows(mem, col, row)), ink, paper),
            );
        }
    }
    let mut f = Frame::cells(grid, Palette::z80_workbench());
    f.border = Some(border & 7);
    f
}

/// The pixel view.
pub fn pixels(mem: &[u8; 0x10000], border: u8, flash_phase: bool) -> Frame {
    let mut buf = PixelBuffer::new(COLUMNS * 8, ROWS * 8, (8, 8), 0);
    for y in 0..ROWS * 8 {
        for col in 0..COLUMNS {
            let (ink, paper) = colours(attr(mem, col, y / 8), flash_phase);
            let byte = mem[bitmap_address(col, y) as usize];
            for bit in 0..8 {
                let on = byte & (0x80 >> bit) != 0;
                buf.set(col * 8 + bit, y, if on { ink } else { paper });
            }
        }
    }
    let mut f = Frame::pixels(buf, Palette::z80_workbench());
    f.border = Some(border & 7);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmap_rows_interleave_as_on_the_spectrum() {
        assert_eq!(bitmap_address(0, 0), 0x4000);
        assert_eq!(bitmap_address(0, 1), 0x4100);
        assert_eq!(bitmap_address(0, 8), 0x4020);
        assert_eq!(bitmap_address(31, 63), 0x47FF);
        assert_eq!(bitmap_address(0, 64), 0x4800);
        assert_eq!(bitmap_address(31, 191), 0x57FF);
    }

    #[test]
    fn attributes_give_ink_paper_bright_and_flash() {
        assert_eq!(colours(0x38, false), (0, 7), "black on white");
        assert_eq!(colours(0x4A, false), (10, 9), "bright red on bright blue");
        assert_eq!(colours(0x8A, true), (1, 2), "flash swaps");
        let mut mem = Box::new([0u8; 0x10000]);
        mem[0x5800 + 32 + 3] = 0x10; // row 1, col 3: red paper
        let f = cells(&mem, 1, false);
        assert_eq!(
            retro_screen::dump::colours(&f)
                .lines()
                .nth(1)
                .unwrap()
                .chars()
                .nth(3),
            Some('2')
        );
        assert_eq!(f.border, Some(1));
    }

    #[test]
    fn text_drawn_with_the_font_reads_back() {
        let mut mem = Box::new([0u8; 0x10000]);
        mem[0x5800] = 0x38;
        for (i, r) in font::glyph('A').iter().enumerate() {
            mem[bitmap_address(0, i) as usize] = *r;
        }
        let f = cells(&mem, 0, false);
        assert!(retro_screen::dump::text(&f).starts_with('A'));
        // Half blocks read back as half blocks; other patterns as `#`.
        for (i, r) in [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0].iter().enumerate() {
            mem[bitmap_address(1, i) as usize] = *r;
        }
        mem[bitmap_address(2, 0) as usize] = 0x81;
        assert!(retro_screen::dump::text(&cells(&mem, 0, false)).starts_with("A\u{2580}#"));
        let p = pixels(&mem, 0, false);
        assert!(retro_screen::dump::text(&p).starts_with('A'));
    }
}
