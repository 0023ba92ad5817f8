//! Drawing a [`Frame`] into a ratatui buffer.
//!
//! Cell screens draw each cell as two terminal columns when they fit (a terminal character is
//! about twice as tall as wide, so two columns make a square cell), else one. Pixel screens are
//! drawn text cell by text cell: a one-colour cell is a coloured block, a cell holding a character
//! of the 8x8 font in two colours is that character (so text on a BBC graphics screen stays
//! readable), and any other cell is drawn with upper half-block characters, two pixels per
//! terminal cell, sampled at the centre of each pixel block.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use retro_machine::machine::RunState;
use retro_screen::colour::{ColourDepth, TermColour, to_terminal};
use retro_screen::font::glyph_for_pixels;
use retro_screen::{Frame, PixelBuffer, Screen};

/// Maps a logical colour of `frame` to a terminal colour at `depth`.
pub fn colour(frame: &Frame, index: u8, depth: ColourDepth) -> Color {
    term_colour(to_terminal(frame.palette.rgb(index, frame.flash_phase), depth))
}

fn term_colour(c: TermColour) -> Color {
    match c {
        TermColour::Rgb(r, g, b) => Color::Rgb(r, g, b),
        TermColour::Indexed(i) => Color::Indexed(i),
        // Named colours emit the classic SGR 30-37/90-97 codes that 16-colour terminals know,
        // where Indexed would emit 38;5;n.
        TermColour::Ansi(i) => [
            Color::Black,
            Color::Red,
            Color::Green,
            Color::Yellow,
            Color::Blue,
            Color::Magenta,
            Color::Cyan,
            Color::Gray,
            Color::DarkGray,
            Color::LightRed,
            Color::LightGreen,
            Color::LightYellow,
            Color::LightBlue,
            Color::LightMagenta,
            Color::LightCyan,
            Color::White,
        ][(i & 15) as usize],
    }
}

/// The smallest terminal area (columns, rows) that shows `frame` with square cells.
pub fn required_size(frame: &Frame) -> (u16, u16) {
    let (cols, rows) = frame.text_size();
    (sat16(cols * 2), sat16(rows))
}

fn sat16(n: usize) -> u16 {
    n.min(u16::MAX as usize) as u16
}

/// A widget showing a frame, centred in its area.
pub struct FrameView<'a> {
    pub frame: &'a Frame,
    pub depth: ColourDepth,
}

impl Widget for FrameView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (cols, rows) = self.frame.text_size();
        let (need_w, need_h) = required_size(self.frame);
        if area.width < need_w || area.height < need_h {
            // One column per cell still shows a cell screen, squashed; smaller than that we
            // say what is needed rather than draw a wrong picture.
            if matches!(self.frame.screen, Screen::Cells(_))
                && area.width as usize >= cols
                && area.height as usize >= rows
            {
                render_cells(self.frame, self.depth, area, 1, buf);
            } else {
                too_small(area, need_w, need_h, buf);
            }
            return;
        }
        // Machines with a border (C64, Spectrum) colour the whole area around the picture.
        if let Some(border) = self.frame.border {
            buf.set_style(area, Style::new().bg(colour(self.frame, border, self.depth)));
        }
        match &self.frame.screen {
            Screen::Cells(_) => render_cells(self.frame, self.depth, area, 2, buf),
            Screen::Pixels(p) => {
                // Scale n: each text cell becomes 2n columns by n rows.
                let n = ((area.width as usize / (cols * 2).max(1)).min(area.height as usize / rows.max(1)))
                    .max(1);
                render_pixels(self.frame, p, self.depth, area, n, buf);
            }
        }
    }
}

/// Where the terminal's own (flashing) cursor goes for a pixel screen's text cursor: the bottom
/// row of the cell's first column, where the BBC's flashing underline is. Cell screens draw
/// their cursor themselves.
pub fn text_cursor(frame: &Frame, area: Rect) -> Option<(u16, u16)> {
    let cur = frame.cursor.filter(|c| c.visible)?;
    let Screen::Pixels(p) = &frame.screen else {
        return None;
    };
    let (cols, rows) = p.text_size();
    let (need_w, need_h) = required_size(frame);
    if area.width < need_w || area.height < need_h || cur.x >= cols || cur.y >= rows {
        return None;
    }
    let n = ((area.width as usize / (cols * 2).max(1)).min(area.height as usize / rows.max(1))).max(1);
    let (x0, y0) = centred(area, cols * 2 * n, rows * n);
    Some((x0 + sat16(cur.x * 2 * n), y0 + sat16(cur.y * n + n - 1)))
}

fn centred(area: Rect, w: usize, h: usize) -> (u16, u16) {
    let x = area.x + (area.width.saturating_sub(sat16(w))) / 2;
    let y = area.y + (area.height.saturating_sub(sat16(h))) / 2;
    (x, y)
}

/// A cell's character across its two terminal columns. A block made of quarters (`▀ ▄ █ ▌ ▐`
/// and the quadrants) is split, each column showing its half of the block stretched (`▗` is
/// ` ▄`, `▐` is ` █`), so a small picture in quarter blocks (NES Tetris's NEXT box) keeps its
/// shape; repeating the character would draw `▗▗`, two corners. Other block elements continue
/// across; other glyphs get a blank beside them.
fn two_columns(ch: char) -> (char, char) {
    // The quarters (upper left, upper right, lower left, lower right) of U+2580-U+259F, where
    // the character is made of whole quarters.
    let quarters: Option<[bool; 4]> = match ch {
        '\u{2580}' => Some([true, true, false, false]),
        '\u{2584}' => Some([false, false, true, true]),
        '\u{2588}' => Some([true, true, true, true]),
        '\u{258C}' => Some([true, false, true, false]),
        '\u{2590}' => Some([false, true, false, true]),
        '\u{2596}' => Some([false, false, true, false]),
        '\u{2597}' => Some([false, false, false, true]),
        '\u{2598}' => Some([true, false, false, false]),
        '\u{2599}' => Some([true, false, true, true]),
        '\u{259A}' => Some([true, false, false, true]),
        '\u{259B}' => Some([true, true, true, false]),
        '\u{259C}' => Some([true, true, false, true]),
        '\u{259D}' => Some([false, true, false, false]),
        '\u{259E}' => Some([false, true, true, false]),
        '\u{259F}' => Some([false, true, true, true]),
        _ => None,
    };
    let column = |upper: bool, lower: bool| match (upper, lower) {
        (false, false) => ' ',
        (true, false) => '\u{2580}',
        (false, true) => '\u{2584}',
        (true, true) => '\u{2588}',
    };
    match quarters {
        Some([ul, ur, ll, lr]) => (column(ul, ll), column(ur, lr)),
        None if ('\u{2580}'..='\u{259F}').contains(&ch) => (ch, ch),
        None => (ch, ' '),
    }
}

fn render_cells(frame: &Frame, depth: ColourDepth, area: Rect, cw: usize, buf: &mut Buffer) {
    let Screen::Cells(grid) = &frame.screen else {
        return;
    };
    let (x0, y0) = centred(area, grid.width() * cw, grid.height());
    for y in 0..grid.height() {
        for (x, cell) in grid.row(y).iter().enumerate() {
            let style = Style::new()
                .fg(colour(frame, cell.fg, depth))
                .bg(colour(frame, cell.bg, depth));
            let tx = x0 + sat16(x * cw);
            let ty = y0 + sat16(y);
            let (left, right) = if cw == 2 {
                two_columns(cell.ch)
            } else {
                (cell.ch, ' ')
            };
            if let Some(c) = buf.cell_mut((tx, ty)) {
                c.set_char(left).set_style(style);
            }
            if cw == 2
                && let Some(c) = buf.cell_mut((tx + 1, ty))
            {
                c.set_char(right).set_style(style);
            }
        }
    }
    // The cursor is the whole cell reversed, both its columns: a block in the cell's colour (the
    // C64's cursor colour), not half a cell.
    if let Some(cur) = frame.cursor.filter(|c| c.visible) {
        for i in 0..cw {
            if let Some(c) = buf.cell_mut((x0 + sat16(cur.x * cw + i), y0 + sat16(cur.y))) {
                c.modifier.insert(Modifier::REVERSED);
            }
        }
    }
}

/// How one text cell of a pixel screen looks.
enum CellLook {
    Solid(u8),
    Char { ch: char, fg: u8, bg: u8 },
    Pixels,
}

fn classify(p: &PixelBuffer, cx: usize, cy: usize) -> CellLook {
    let (cw, chh) = p.char_size;
    let (px, py) = (cx * cw, cy * chh);
    let first = p.get(px, py).unwrap_or(0);
    let mut ink: Option<u8> = None;
    for y in 0..chh {
        for x in 0..cw {
            let c = p.get(px + x, py + y).unwrap_or(0);
            if c != first && ink.is_some_and(|i| i != c) {
                return CellLook::Pixels;
            }
            if c != first {
                ink = Some(c);
            }
        }
    }
    let Some(ink) = ink else {
        return CellLook::Solid(first);
    };
    if (cw, chh) != (8, 8) {
        return CellLook::Pixels;
    }
    // Two colours: try both as the background, as either could be the paper.
    for (fg, bg) in [(ink, first), (first, ink)] {
        let mut rows = [0u8; 8];
        for (y, row) in rows.iter_mut().enumerate() {
            for x in 0..8 {
                if p.get(px + x, py + y) == Some(fg) {
                    *row |= 0x80 >> x;
                }
            }
        }
        if let Some(ch) = glyph_for_pixels(&rows).filter(|&c| c != ' ') {
            return CellLook::Char { ch, fg, bg };
        }
    }
    CellLook::Pixels
}

fn render_pixels(frame: &Frame, p: &PixelBuffer, depth: ColourDepth, area: Rect, n: usize, buf: &mut Buffer) {
    let (cols, rows) = p.text_size();
    let (x0, y0) = centred(area, cols * 2 * n, rows * n);
    let (cw, chh) = p.char_size;
    // Sample grid per text cell: 2n columns by 2n half-rows.
    let sx = cw as f64 / (2 * n) as f64;
    let sy = chh as f64 / (2 * n) as f64;
    for cy in 0..rows {
        for cx in 0..cols {
            let tx0 = x0 + sat16(cx * 2 * n);
            let ty0 = y0 + sat16(cy * n);
            let look = classify(p, cx, cy);
            for j in 0..n {
                for i in 0..2 * n {
                    let Some(cell) = buf.cell_mut((tx0 + sat16(i), ty0 + sat16(j))) else {
                        continue;
                    };
                    match look {
                        CellLook::Solid(c) => {
                            cell.set_char(' ')
                                .set_style(Style::new().bg(colour(frame, c, depth)));
                        }
                        CellLook::Char { ch, fg, bg } => {
                            let shown = if i == 0 && j == n / 2 { ch } else { ' ' };
                            cell.set_char(shown).set_style(
                                Style::new()
                                    .fg(colour(frame, fg, depth))
                                    .bg(colour(frame, bg, depth)),
                            );
                        }
                        CellLook::Pixels => {
                            let x = cx * cw + ((i as f64 + 0.5) * sx) as usize;
                            let top = p
                                .get(x, cy * chh + (((2 * j) as f64 + 0.5) * sy) as usize)
                                .unwrap_or(0);
                            let bottom = p
                                .get(x, cy * chh + (((2 * j + 1) as f64 + 0.5) * sy) as usize)
                                .unwrap_or(0);
                            let style = Style::new()
                                .fg(colour(frame, top, depth))
                                .bg(colour(frame, bottom, depth));
                            cell.set_char(if top == bottom { ' ' } else { '\u{2580}' })
                                .set_style(style);
                        }
                    }
                }
            }
        }
    }
}

fn too_small(area: Rect, need_w: u16, need_h: u16, buf: &mut Buffer) {
    let text = format!(
        "This screen needs a terminal of at least {need_w}x{need_h}; this one is {}x{}. \
         The machine is paused until then. Enlarge the window, or press Ctrl-Q to quit.",
        area.width, area.height
    );
    Paragraph::new(text).wrap(Wrap { trim: true }).render(area, buf);
}

/// What the machine is doing, for the status line: running, waiting for a key, ended, stopped
/// with its error; or, for a second after a Ctrl-C, how to quit.
pub fn state_note(state: &RunState, ctrl_c_pending: bool) -> String {
    if ctrl_c_pending && matches!(state, RunState::Running | RunState::WaitingForKey) {
        return "Escape sent: Ctrl-C again to quit".to_string();
    }
    match state {
        RunState::Running => "running".to_string(),
        RunState::WaitingForKey => "waiting for a key".to_string(),
        RunState::Ended => "program ended: press a key to leave".to_string(),
        RunState::Failed(msg) => format!("stopped: {msg}: press a key to leave"),
    }
}

/// The status text: the machine, its state, the speed, and the keys that always work, most
/// important first, so a narrow terminal cuts off the least useful part.
pub fn status_text(machine: &str, note: &str, speed_percent: Option<u32>) -> String {
    // Below real time the machine cannot keep up (a fill loop, a slow host): say so, as the
    // program's timing on screen is then slower than the real machine's.
    let speed = speed_percent
        .map(|s| match s {
            0..95 => format!(" │ slow: speed {s}%"),
            _ => format!(" │ speed {s}%"),
        })
        .unwrap_or_default();
    format!(" {machine} │ {note}{speed} │ Ctrl-Q quit │ F12 help ")
}

/// The status line widget for [`status_text`].
pub fn status_line(text: &str) -> Line<'static> {
    Line::styled(
        retro_diag::escape(text).into_owned(),
        Style::new().fg(Color::Black).bg(Color::Gray),
    )
}

/// The help overlay, centred over `area`.
pub fn render_help(area: Rect, machine_help: &[(&str, &str)], buf: &mut Buffer) {
    let mut lines: Vec<Line<'_>> = vec![
        Line::from("Ctrl-Q   quit (always works)"),
        Line::from("Ctrl-C   Escape; twice within a second: quit"),
        Line::from("F12      show or hide this help"),
        Line::from(""),
    ];
    lines.extend(
        machine_help
            .iter()
            .map(|(k, v)| Line::from(format!("{k:<8} {v}"))),
    );
    let w = 50.min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .block(Block::default().borders(Borders::ALL).title(" help "))
        .render(rect, buf);
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use retro_screen::font::glyph;
    use retro_screen::{Cell, CellGrid, Palette};

    use super::*;

    /// A buffer as text that keeps colours (TestBackend's Display drops them): the characters,
    /// then one letter per cell naming its (fg, bg) style, then the legend.
    fn serialise(buf: &Buffer) -> String {
        let area = buf.area;
        let mut styles: BTreeMap<String, char> = BTreeMap::new();
        let mut chars = String::new();
        let mut grid = String::new();
        for y in 0..area.height {
            for x in 0..area.width {
                let c = &buf[(x, y)];
                chars.push_str(c.symbol());
                let key = format!(
                    "fg={:?} bg={:?}{}",
                    c.fg,
                    c.bg,
                    if c.modifier.is_empty() { "" } else { " reversed" }
                );
                let n = styles.len();
                let letter = *styles.entry(key).or_insert((b'a' + n as u8) as char);
                grid.push(letter);
            }
            chars.push('\n');
            grid.push('\n');
        }
        let mut legend: Vec<(char, String)> = styles.into_iter().map(|(k, v)| (v, k)).collect();
        legend.sort();
        let mut out = format!("{chars}--\n{grid}--\n");
        for (letter, style) in legend {
            let _ = writeln!(out, "{letter}: {style}");
        }
        out
    }

    fn draw(frame: &Frame, depth: ColourDepth, w: u16, h: u16) -> String {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| f.render_widget(FrameView { frame, depth }, f.area()))
            .unwrap();
        serialise(term.backend().buffer())
    }

    fn cell_frame() -> Frame {
        let mut g = CellGrid::new(3, 2, Cell::new(' ', 1, 6));
        g.set(0, 0, Cell::new('R', 2, 0));
        g.set(1, 0, Cell::new('\u{2588}', 5, 6));
        g.set(2, 1, Cell::new('.', 7, 11));
        Frame::cells(g, Palette::c64())
    }

    /// Two 8x8 text cells: an 'A' in white on blue, then a three-colour pixel pattern.
    fn pixel_frame() -> Frame {
        let mut p = PixelBuffer::new(16, 8, (8, 8), 4);
        for (y, bits) in glyph('A').iter().enumerate() {
            for x in 0..8 {
                if bits & (0x80 >> x) != 0 {
                    p.set(x, y, 7);
                }
            }
        }
        for y in 0..8 {
            for x in 8..16 {
                p.set(
                    x,
                    y,
                    if y < 4 {
                        1
                    } else if x < 12 {
                        2
                    } else {
                        3
                    },
                );
            }
        }
        Frame::pixels(p, Palette::acorn16())
    }

    #[test]
    fn the_c64_cursor_is_a_whole_reversed_cell_and_the_bbc_one_the_terminals() {
        let mut f = cell_frame();
        f.cursor = Some(retro_screen::Cursor {
            x: 1,
            y: 1,
            visible: true,
        });
        let area = Rect::new(0, 0, 6, 2);
        let mut buf = Buffer::empty(area);
        FrameView {
            frame: &f,
            depth: ColourDepth::Ansi16,
        }
        .render(area, &mut buf);
        // Cell (1, 1) is terminal columns 2 and 3: both reversed (it was the first only).
        for x in 0..6 {
            let reversed = buf[(x, 1)].modifier.contains(Modifier::REVERSED);
            assert_eq!(reversed, x == 2 || x == 3, "column {x}");
        }
        assert_eq!(text_cursor(&f, area), None, "cell screens draw their own");
        let mut p = pixel_frame();
        p.cursor = Some(retro_screen::Cursor {
            x: 1,
            y: 0,
            visible: true,
        });
        // Two 8x8 cells at 4x1: the second cell starts at column 2, its bottom row is row 0.
        assert_eq!(text_cursor(&p, Rect::new(0, 0, 4, 1)), Some((2, 0)));
        p.cursor = p.cursor.map(|c| retro_screen::Cursor { visible: false, ..c });
        assert_eq!(text_cursor(&p, Rect::new(0, 0, 4, 1)), None);
    }

    #[test]
    fn quarter_blocks_keep_their_shape_across_a_cells_two_columns() {
        // NES Tetris's NEXT box corner and sides: `▗▄▖` over `▐ ▌` is ` ▄▄▄▄ ` over ` █  █ `.
        let mut g = CellGrid::new(3, 2, Cell::new(' ', 7, 0));
        for (i, ch) in "\u{2597}\u{2584}\u{2596}\u{2590} \u{258C}".chars().enumerate() {
            g.set(i % 3, i / 3, Cell::new(ch, 7, 0));
        }
        let f = Frame::cells(g, Palette::c64());
        let area = Rect::new(0, 0, 6, 2);
        let mut buf = Buffer::empty(area);
        FrameView {
            frame: &f,
            depth: ColourDepth::Ansi16,
        }
        .render(area, &mut buf);
        let row = |y: u16| (0..6).map(|x| buf[(x, y)].symbol()).collect::<String>();
        assert_eq!(row(0), " \u{2584}\u{2584}\u{2584}\u{2584} ");
        assert_eq!(row(1), " \u{2588}  \u{2588} ");
        // Half blocks continue; a text glyph gets a blank beside it; a shade repeats.
        assert_eq!(two_columns('\u{2580}'), ('\u{2580}', '\u{2580}'));
        assert_eq!(two_columns('A'), ('A', ' '));
        assert_eq!(two_columns('\u{2592}'), ('\u{2592}', '\u{2592}'));
    }

    #[test]
    fn cell_frames_in_three_colour_depths() {
        for (name, depth) in [
            ("true", ColourDepth::TrueColour),
            ("256", ColourDepth::Ansi256),
            ("16", ColourDepth::Ansi16),
        ] {
            insta::assert_snapshot!(format!("cells_{name}"), draw(&cell_frame(), depth, 8, 3));
        }
    }

    #[test]
    fn pixel_frames_in_three_colour_depths() {
        for (name, depth) in [
            ("true", ColourDepth::TrueColour),
            ("256", ColourDepth::Ansi256),
            ("16", ColourDepth::Ansi16),
        ] {
            insta::assert_snapshot!(format!("pixels_{name}"), draw(&pixel_frame(), depth, 4, 1));
        }
    }

    #[test]
    fn pixel_frames_scale_up_in_big_terminals() {
        // 8x2 terminal cells for 2x1 text cells: scale 2, so the pattern cell gets 4x4 samples.
        insta::assert_snapshot!(draw(&pixel_frame(), ColourDepth::TrueColour, 8, 2));
    }

    #[test]
    fn a_too_small_terminal_says_what_it_needs() {
        let text = draw(&pixel_frame(), ColourDepth::TrueColour, 3, 4);
        // 16x8 pixels = 2x1 text cells: 4x1 terminal cells.
        assert!(text.starts_with("Thi\ns  \nscr\neen\n"), "{text}");
        let mut term = Terminal::new(TestBackend::new(60, 3)).unwrap();
        let mut big = PixelBuffer::new(320, 256, (8, 8), 0);
        big.set(0, 0, 1);
        let frame = Frame::pixels(big, Palette::acorn16());
        term.draw(|f| {
            f.render_widget(
                FrameView {
                    frame: &frame,
                    depth: ColourDepth::TrueColour,
                },
                f.area(),
            )
        })
        .unwrap();
        let shown = format!("{:?}", term.backend());
        assert!(shown.contains("at least 80x32"), "{shown}");
        assert!(shown.contains("60x3"), "{shown}");
    }

    #[test]
    fn a_cell_screen_squeezes_to_one_column_per_cell() {
        let text = draw(&cell_frame(), ColourDepth::TrueColour, 4, 2);
        assert!(text.starts_with("R\u{2588}  \n  . \n"), "{text}");
    }

    #[test]
    fn the_border_colours_the_area_around_the_picture() {
        let mut f = cell_frame();
        f.border = Some(14);
        let text = draw(&f, ColourDepth::TrueColour, 10, 4);
        // Light blue (C64 colour 14) around the 6x2 picture, which sits centred at (2, 1).
        assert!(text.contains("fg=Reset bg=Rgb(108, 94, 181)"), "{text}");
        let grid: Vec<&str> = text.split("--\n").nth(1).unwrap().lines().collect();
        let border = grid[0].chars().next().unwrap();
        assert!(
            grid[0].chars().all(|c| c == border) && grid[3].chars().all(|c| c == border),
            "{text}"
        );
        assert_ne!(grid[1].chars().nth(2), Some(border), "{text}");
    }

    #[test]
    fn any_terminal_size_is_safe() {
        // Resizing can hand the view any area, down to nothing: it must never panic, whatever
        // the frame (cells with a border and cursor, small and MODE 9-sized pixel screens).
        let mut bordered = cell_frame();
        bordered.border = Some(3);
        bordered.cursor = Some(retro_screen::Cursor {
            x: 2,
            y: 1,
            visible: true,
        });
        let mode9 = Frame::pixels(PixelBuffer::new(320, 256, (8, 8), 0), Palette::acorn16());
        for frame in [&bordered, &pixel_frame(), &mode9] {
            for w in 0..=90u16 {
                for h in (0..=40u16).step_by(3) {
                    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
                    FrameView {
                        frame,
                        depth: ColourDepth::Ansi256,
                    }
                    .render(buf.area, &mut buf);
                }
            }
        }
    }

    #[test]
    fn the_status_line_shows_over_a_board_that_fills_the_terminal() {
        // Rheolism at 80x32: MODE 9 needs every row, so the status goes over the bottom row.
        let frame = Frame::pixels(PixelBuffer::new(320, 256, (8, 8), 0), Palette::acorn16());
        let mut term = Terminal::new(TestBackend::new(80, 32)).unwrap();
        let status = status_text("BBC BASIC V", &state_note(&RunState::Ended, false), None);
        term.draw(|f| {
            let area = f.area();
            f.render_widget(
                FrameView {
                    frame: &frame,
                    depth: ColourDepth::TrueColour,
                },
                area,
            );
            f.render_widget(
                status_line(&status),
                Rect {
                    y: 31,
                    height: 1,
                    ..area
                },
            );
        })
        .unwrap();
        let buf = term.backend().buffer();
        let bottom: String = (0..80).map(|x| buf[(x, 31)].symbol().to_string()).collect();
        assert!(
            bottom.starts_with(" BBC BASIC V │ program ended: press a key to leave"),
            "{bottom}"
        );
    }

    #[test]
    fn the_state_comes_before_speed_and_keys() {
        assert_eq!(
            status_text("BBC BASIC V", &state_note(&RunState::Running, false), Some(100)),
            " BBC BASIC V │ running │ speed 100% │ Ctrl-Q quit │ F12 help "
        );
        // A machine that cannot keep up says so.
        assert_eq!(
            status_text("C64", "running", Some(40)),
            " C64 │ running │ slow: speed 40% │ Ctrl-Q quit │ F12 help "
        );
        assert_eq!(state_note(&RunState::WaitingForKey, false), "waiting for a key");
        assert_eq!(
            state_note(&RunState::Failed("Escape".into()), true),
            "stopped: Escape: press a key to leave"
        );
        assert_eq!(
            state_note(&RunState::Running, true),
            "Escape sent: Ctrl-C again to quit"
        );
    }

    #[test]
    fn the_help_names_ctrl_c() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 12));
        render_help(buf.area, &[], &mut buf);
        let text: String = buf.content().iter().map(|c| c.symbol()).collect();
        assert!(
            text.contains("Ctrl-C   Escape; twice within a second: quit"),
            "{text}"
        );
    }

    #[test]
    fn flashing_colours_follow_the_flash_phase() {
        let mut f = Frame::cells(CellGrid::new(1, 1, Cell::new(' ', 0, 9)), Palette::acorn16());
        assert_eq!(colour(&f, 9, ColourDepth::TrueColour), Color::Rgb(255, 0, 0));
        f.flash_phase = true;
        assert_eq!(colour(&f, 9, ColourDepth::TrueColour), Color::Rgb(0, 255, 255));
    }
}
