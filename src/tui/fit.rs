//! Fitting a machine's screen into the terminal: where the picture and the status line go, and
//! which rows show when the screen is a little taller than the terminal.
//!
//! The status line takes the bottom row only when the picture leaves it free: it never covers a
//! row the program uses (a prompt's typing line, Connect-4's key hints, the test card's legend).
//! When there is no room it steps aside, and F12 (the help) brings it back over the picture. A
//! screen a few rows taller than the terminal (a 40x25 C64 or BBC MODE 7 screen at 80x24) shows
//! the rows around its cursor, with a marker at the right edge saying rows are hidden above or
//! below; one too big for that is not shown at all, and the machine pauses until it can be.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use retro_screen::{CellGrid, Frame, PixelBuffer, Screen};

use super::view::required_size;

/// Where things go for one frame in one terminal area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The area the picture is drawn in.
    pub picture: Rect,
    /// The rows shown, when not all of them fit: (first, count).
    pub rows: Option<(usize, usize)>,
    /// Whether the bottom row is free for the status line.
    pub status_room: bool,
    /// Whether the screen shows at all (else the machine pauses).
    pub shown: bool,
}

/// The layout of `frame` in `area`.
pub fn layout(frame: &Frame, area: Rect) -> Layout {
    let (need_w, need_h) = required_size(frame);
    let (cols, rows) = frame.text_size();
    let one_column = matches!(frame.screen, Screen::Cells(_)) && area.width as usize >= cols;
    let wide_enough = area.width >= need_w || one_column;
    let whole = Layout {
        picture: area,
        rows: None,
        status_room: false,
        shown: true,
    };
    if !wide_enough || area.height == 0 {
        return Layout {
            shown: false,
            status_room: true,
            ..whole
        };
    }
    if area.height > need_h {
        return Layout {
            picture: Rect {
                height: area.height - 1,
                ..area
            },
            status_room: true,
            ..whole
        };
    }
    if area.height >= need_h {
        return whole;
    }
    let shown = area.height as usize;
    // A quarter of the screen may be hidden; more would not be the program's screen any more.
    if rows - shown > rows / 4 {
        return Layout {
            shown: false,
            status_room: true,
            ..whole
        };
    }
    Layout {
        rows: Some((first_row(frame, shown), shown)),
        ..whole
    }
}

/// The first of `shown` rows: the top ones, or those ending at the cursor's row when it is below
/// them (where a prompt types, once the screen has scrolled).
fn first_row(frame: &Frame, shown: usize) -> usize {
    let (_, rows) = frame.text_size();
    let cursor = frame.cursor.map_or(0, |c| c.y);
    (cursor + 1).saturating_sub(shown).min(rows - shown)
}

/// `frame` with only text rows `first..first + count`.
pub fn crop(frame: &Frame, first: usize, count: usize) -> Frame {
    let screen = match &frame.screen {
        Screen::Cells(grid) => {
            let mut out = CellGrid::new(grid.width(), count, Default::default());
            for y in 0..count {
                for (x, cell) in grid.row(first + y).iter().enumerate() {
                    out.set(x, y, *cell);
                }
            }
            Screen::Cells(out)
        }
        Screen::Pixels(p) => {
            let ch = p.char_size.1;
            let mut out = PixelBuffer::new(p.width(), count * ch, p.char_size, 0);
            out.pixel_aspect = p.pixel_aspect;
            let w = p.width();
            out.pixels_mut()
                .copy_from_slice(&p.pixels()[first * ch * w..(first + count) * ch * w]);
            Screen::Pixels(out)
        }
    };
    Frame {
        screen,
        cursor: frame
            .cursor
            .filter(|c| (first..first + count).contains(&c.y))
            .map(|c| retro_screen::frame::Cursor { y: c.y - first, ..c }),
        ..frame.clone()
    }
}

/// The one-character markers that rows are hidden: an up arrow at the top right of the picture
/// when rows are hidden above, a down arrow at the bottom right when rows are hidden below.
pub fn mark_hidden_rows(frame: &Frame, (first, count): (usize, usize), area: Rect, buf: &mut Buffer) {
    let (cols, rows) = frame.text_size();
    let (need_w, _) = required_size(frame);
    let width = if area.width >= need_w { need_w } else { cols as u16 };
    let x0 = area.x + (area.width - width) / 2;
    // Just right of the picture when there is room, else its last column.
    let x = (x0 + width).min(area.right() - 1);
    let marks = [
        (first > 0, area.y, '▲'),
        (first + count < rows, area.bottom() - 1, '▼'),
    ];
    for (hidden, y, mark) in marks {
        if hidden && let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_char(mark);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_screen::frame::{Cell, Cursor};
    use retro_screen::palette::Palette;

    fn c64_like(cursor_row: usize) -> Frame {
        let mut grid = CellGrid::new(40, 25, Cell::default());
        for y in 0..25 {
            grid.set(0, y, Cell::new(char::from(b'A' + y as u8), 1, 0));
        }
        let mut f = Frame::cells(grid, Palette::c64());
        f.cursor = Some(Cursor {
            x: 3,
            y: cursor_row,
            visible: true,
        });
        f
    }

    fn area(w: u16, h: u16) -> Rect {
        Rect::new(0, 0, w, h)
    }

    #[test]
    fn the_status_line_takes_only_a_free_row() {
        let f = c64_like(0);
        let roomy = layout(&f, area(80, 26));
        assert!(roomy.status_room && roomy.shown);
        assert_eq!(roomy.picture.height, 25);
        let exact = layout(&f, area(80, 25));
        assert!(!exact.status_room && exact.shown && exact.rows.is_none());
    }

    #[test]
    fn a_40x25_screen_at_80x24_shows_the_rows_around_the_cursor() {
        // The cursor at the top: rows 0-23, row 24 hidden.
        assert_eq!(layout(&c64_like(3), area(80, 24)).rows, Some((0, 24)));
        // The cursor on the bottom row (a prompt after scrolling): rows 1-24.
        assert_eq!(layout(&c64_like(24), area(80, 24)).rows, Some((1, 24)));
        let cropped = crop(&c64_like(24), 1, 24);
        let Screen::Cells(g) = &cropped.screen else {
            unreachable!()
        };
        assert_eq!((g.width(), g.height()), (40, 24));
        assert_eq!(g.get(0, 0).map(|c| c.ch), Some('B'));
        assert_eq!(cropped.cursor.map(|c| c.y), Some(23));
    }

    #[test]
    fn a_much_smaller_terminal_does_not_show_the_screen() {
        let l = layout(&c64_like(0), area(80, 12));
        assert!(!l.shown && l.status_room);
        assert!(!layout(&c64_like(0), area(30, 30)).shown);
    }

    #[test]
    fn pixel_screens_crop_by_text_rows() {
        let mut p = PixelBuffer::new(16, 32, (8, 8), 0);
        p.set(0, 8, 5);
        let f = Frame::pixels(p, Palette::acorn16());
        let cropped = crop(&f, 1, 3);
        let Screen::Pixels(q) = &cropped.screen else {
            unreachable!()
        };
        assert_eq!((q.width(), q.height()), (16, 24));
        assert_eq!(q.get(0, 0), Some(5));
    }

    #[test]
    fn markers_show_which_side_rows_are_hidden() {
        let f = c64_like(24);
        let mut buf = Buffer::empty(area(80, 24));
        mark_hidden_rows(&f, (1, 24), area(80, 24), &mut buf);
        assert_eq!(buf[(79, 0)].symbol(), "▲");
        assert_eq!(buf[(79, 23)].symbol(), " ");
        let mut buf = Buffer::empty(area(82, 24));
        mark_hidden_rows(&f, (0, 24), area(82, 24), &mut buf);
        assert_eq!(buf[(81, 23)].symbol(), "▼");
    }
}
