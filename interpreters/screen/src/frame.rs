//! The frame: what a machine shows, as data.

use crate::palette::Palette;

/// One character cell: a glyph and its logical foreground and background colours (indexes into the
/// frame's palette).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    pub ch: char,
    pub fg: u8,
    pub bg: u8,
}

impl Cell {
    pub const fn new(ch: char, fg: u8, bg: u8) -> Self {
        Cell { ch, fg, bg }
    }
}

impl Default for Cell {
    fn default() -> Self {
        Cell::new(' ', 7, 0)
    }
}

/// A grid of character cells, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellGrid {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}

impl CellGrid {
    /// A `width` x `height` grid filled with `fill`.
    pub fn new(width: usize, height: usize, fill: Cell) -> Self {
        CellGrid {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }
    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    /// The cell at column `x`, row `y`, or `None` outside the grid.
    pub fn get(&self, x: usize, y: usize) -> Option<&Cell> {
        (x < self.width && y < self.height).then(|| &self.cells[y * self.width + x])
    }
    /// Sets the cell at column `x`, row `y`; writes outside the grid are ignored (a machine clips).
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        if x < self.width && y < self.height {
            self.cells[y * self.width + x] = cell;
        }
    }
    pub fn fill(&mut self, cell: Cell) {
        self.cells.fill(cell);
    }
    /// One row of cells.
    pub fn row(&self, y: usize) -> &[Cell] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}

/// A buffer of logical colours, row-major, one byte per pixel, with the size of a text character
/// cell in pixels (so a MODE 9 screen, 320x256 with 8x8 characters, is 40x32 text cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixelBuffer {
    width: usize,
    height: usize,
    /// Width and height of one text character cell, in pixels.
    pub char_size: (usize, usize),
    /// Shape of one pixel on the original display, as (width, height) in arbitrary units: (1, 1) for
    /// square pixels, (1, 2) for MODE 0's tall ones. Renderers use it to keep the picture's shape.
    pub pixel_aspect: (u8, u8),
    pixels: Vec<u8>,
}

impl PixelBuffer {
    pub fn new(width: usize, height: usize, char_size: (usize, usize), fill: u8) -> Self {
        PixelBuffer {
            width,
            height,
            char_size,
            pixel_aspect: (1, 1),
            pixels: vec![fill; width * height],
        }
    }
    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    /// The logical colour at (`x`, `y`) with y = 0 at the top, or `None` off the buffer.
    pub fn get(&self, x: usize, y: usize) -> Option<u8> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }
    /// Sets one pixel; writes off the buffer are ignored.
    pub fn set(&mut self, x: usize, y: usize, colour: u8) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = colour;
        }
    }
    pub fn fill(&mut self, colour: u8) {
        self.pixels.fill(colour);
    }
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }
    /// The size of the screen in text cells.
    pub fn text_size(&self) -> (usize, usize) {
        (
            self.width / self.char_size.0.max(1),
            self.height / self.char_size.1.max(1),
        )
    }
}

/// The picture part of a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    Cells(CellGrid),
    Pixels(PixelBuffer),
}

/// The text cursor, in text-cell coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cursor {
    pub x: usize,
    pub y: usize,
    pub visible: bool,
}

/// Everything a renderer needs to show one moment of a machine's display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub screen: Screen,
    pub palette: Palette,
    pub cursor: Option<Cursor>,
    /// Logical colour of the border around the picture, for machines that have one.
    pub border: Option<u8>,
    /// Which half of the flash cycle flashing palette entries show (RISC OS colours 8-15).
    pub flash_phase: bool,
    /// The one background colour of a cell screen whose characters each have their own colour
    /// (the C64's colour RAM): colour dumps then show each cell's other colour, its foreground,
    /// or its background where reverse video swapped them.
    pub paper: Option<u8>,
}

impl Frame {
    /// A frame of character cells.
    pub fn cells(grid: CellGrid, palette: Palette) -> Self {
        Frame {
            screen: Screen::Cells(grid),
            palette,
            cursor: None,
            border: None,
            flash_phase: false,
            paper: None,
        }
    }
    /// A frame of pixels.
    pub fn pixels(buffer: PixelBuffer, palette: Palette) -> Self {
        Frame {
            screen: Screen::Pixels(buffer),
            palette,
            cursor: None,
            border: None,
            flash_phase: false,
            paper: None,
        }
    }
    /// The size in text cells (columns, rows).
    pub fn text_size(&self) -> (usize, usize) {
        match &self.screen {
            Screen::Cells(g) => (g.width(), g.height()),
            Screen::Pixels(p) => p.text_size(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_grid_get_and_set_clip_at_the_edges() {
        let mut g = CellGrid::new(40, 25, Cell::default());
        g.set(39, 24, Cell::new('Z', 1, 6));
        assert_eq!(g.get(39, 24), Some(&Cell::new('Z', 1, 6)));
        // Off-grid writes are ignored rather than wrapping onto the next row or panicking.
        g.set(40, 0, Cell::new('X', 1, 0));
        g.set(0, 25, Cell::new('X', 1, 0));
        assert_eq!(g.get(40, 0), None);
        assert_eq!(g.get(0, 25), None);
        assert_eq!(g.get(0, 1), Some(&Cell::default()));
        assert!(g.cells().iter().all(|c| c.ch != 'X'));
        assert_eq!(g.row(24)[39].ch, 'Z');
        g.fill(Cell::new('.', 2, 3));
        assert!(g.cells().iter().all(|&c| c == Cell::new('.', 2, 3)));
    }

    #[test]
    fn pixel_buffer_get_and_set_clip_at_the_edges() {
        let mut p = PixelBuffer::new(320, 256, (8, 8), 0);
        p.set(319, 255, 9);
        assert_eq!(p.get(319, 255), Some(9));
        p.set(320, 0, 5);
        p.set(0, 256, 5);
        assert_eq!(p.get(320, 0), None);
        assert_eq!(p.get(0, 256), None);
        assert!(!p.pixels().contains(&5));
        // Row-major with y = 0 at the top.
        p.set(1, 2, 7);
        assert_eq!(p.pixels()[2 * 320 + 1], 7);
        p.pixels_mut()[320] = 4;
        assert_eq!(p.get(0, 1), Some(4));
    }

    #[test]
    fn text_size_of_cells_and_pixels() {
        let cells = Frame::cells(CellGrid::new(40, 25, Cell::default()), Palette::c64());
        assert_eq!(cells.text_size(), (40, 25));
        // MODE 9 is 40x32 characters, MODE 0 (640x256, 8x8 characters) 80x32.
        let mode9 = Frame::pixels(PixelBuffer::new(320, 256, (8, 8), 0), Palette::acorn16());
        assert_eq!(mode9.text_size(), (40, 32));
        let mode0 = Frame::pixels(PixelBuffer::new(640, 256, (8, 8), 0), Palette::acorn2());
        assert_eq!(mode0.text_size(), (80, 32));
        // Partial cells at the right and bottom do not count; a zero char size does not divide by 0.
        assert_eq!(PixelBuffer::new(100, 20, (8, 8), 0).text_size(), (12, 2));
        assert_eq!(PixelBuffer::new(10, 10, (0, 0), 0).text_size(), (10, 10));
    }
}
