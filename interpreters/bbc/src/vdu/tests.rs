//! One or more tests for every VDU code 0-31 and 127, with expectations from the reference sheet
//! (shared/reference/bbc-basic.md sections 4-6) and Rheolism's explanation (the seed document).

use super::*;
use retro_screen::Screen;

/// Feeds bytes through the real parameter counts, as the VDU queue does.
fn feed(s: &mut GraphicsScreen, bytes: &[u8]) {
    let mut i = 0;
    while i < bytes.len() {
        let n = if bytes[i] < 32 {
            1 + PARAMS[bytes[i] as usize] as usize
        } else {
            1
        };
        s.sequence(&bytes[i..i + n]);
        i += n;
    }
}

/// A MODE 9 screen after `bytes`.
fn mode9(bytes: &[u8]) -> GraphicsScreen {
    let mut s = GraphicsScreen::new(9);
    feed(&mut s, bytes);
    s
}

/// The colour at the centre of text cell (col, row), as `--dump-screen colours` samples it.
fn cell(s: &GraphicsScreen, col: usize, row: usize) -> u8 {
    let m = s.mode_info();
    s.pixel(col * m.char_w + m.char_w / 2, row * m.char_h + m.char_h / 2)
        .unwrap()
}

/// Every pixel of text cell (col, row) has colour `c`.
fn cell_is(s: &GraphicsScreen, col: usize, row: usize, c: u8) -> bool {
    (0..8).all(|y| (0..8).all(|x| s.pixel(col * 8 + x, row * 8 + y) == Some(c)))
}

fn cursor(s: &GraphicsScreen) -> (i32, i32) {
    (s.pos(), s.vpos())
}

/// A 16-bit little-endian VDU parameter.
fn w(v: i16) -> [u8; 2] {
    v.to_le_bytes()
}

fn plot(k: u8, x: i16, y: i16) -> Vec<u8> {
    let (x, y) = (w(x), w(y));
    vec![25, k, x[0], x[1], y[0], y[1]]
}

// ---- MODE 22 and the mode table ----

#[test]
fn mode_9_is_320x256_in_16_colours_with_40x32_square_characters() {
    // Reference section 5: 320x256 pixels, 1280x1024 units, 40x32 text, defaults fg 7 / bg 0.
    let s = mode9(&[22, 9]);
    let m = s.mode_info();
    assert_eq!(
        (m.width, m.height, m.colours, m.text_size()),
        (320, 256, 16, (40, 32))
    );
    assert_eq!(m.pixel_aspect(), (1, 1));
    assert_eq!(s.point(1279, 1023), 0);
    assert_eq!(s.point(1280, 0), -1);
    let f = s.frame();
    assert_eq!(f.text_size(), (40, 32));
    assert_eq!(f.palette, Palette::acorn16());
}

#[test]
fn other_modes_have_their_geometry_and_palettes() {
    for (mode, size, colours, aspect) in [
        (0, (80, 32), 2, (1, 2)),
        (1, (40, 32), 4, (1, 1)),
        (2, (20, 32), 16, (2, 1)),
        (3, (80, 25), 2, (1, 2)),
        (4, (40, 32), 2, (1, 1)),
        (5, (20, 32), 4, (2, 1)),
        (6, (40, 25), 2, (1, 1)),
        (7, (40, 25), 16, (1, 1)),
        (12, (80, 32), 16, (1, 2)),
        (13, (40, 32), 256, (1, 1)),
    ] {
        let s = mode9(&[22, mode]);
        let m = s.mode_info();
        assert_eq!(
            (m.text_size(), m.colours, m.pixel_aspect()),
            (size, colours, aspect),
            "MODE {mode}"
        );
        assert_eq!(s.frame().text_size(), size, "MODE {mode}");
        assert_eq!(s.mode(), mode);
    }
    // Two- and four-colour modes: white is colour 1 and 3; the text appears in it.
    let s = mode9(&[22, 0, b'X']);
    assert_eq!(s.frame().palette, Palette::acorn2());
    assert!((0..8).any(|x| s.pixel(x, 1) == Some(1)));
    let s = mode9(&[22, 1, b'X']);
    assert_eq!(s.frame().palette, Palette::acorn4());
    assert!((0..8).any(|x| s.pixel(x, 1) == Some(3)));
}

#[test]
fn mode_change_clears_the_screen_and_resets_the_vdu_state() {
    let s = mode9(&[
        17, 129, 12, 28, 5, 20, 30, 2, 29, 100, 0, 100, 0, 23, 1, 0, 0, 0, 0, 0, 0, 0, 0, 22, 9,
    ]);
    assert!(cell_is(&s, 0, 0, 0));
    assert_eq!(cursor(&s), (0, 0));
    assert_eq!(s.twin, (0, 31, 39, 0));
    assert_eq!(s.point(0, 0), 0); // origin back at 0,0 (a POINT off screen would be -1)
    assert_eq!(s.point(-1, 0), -1);
    assert!(s.frame().cursor.unwrap().visible);
    // An unknown mode is refused and the screen stays as it was.
    let s = mode9(&[b'A', 22, 99]);
    assert_eq!((s.mode(), cursor(&s)), (9, (1, 0)));
}

// ---- codes that do nothing visible: 0, 1, 2, 3, 6, 14, 15, 21, 27 ----

#[test]
fn null_printer_paging_and_escape_codes_leave_the_screen_alone() {
    let before = mode9(b"A");
    // VDU 1,66 sends 'B' to the printer only: nothing appears.
    let after = mode9(&[b'A', 0, 1, 66, 2, 3, 14, 15, 27]);
    assert_eq!(before.px, after.px);
    assert_eq!(cursor(&after), (1, 0));
}

#[test]
fn vdu_21_disables_output_until_vdu_6() {
    let mut v = Vdu::new(Box::new(GraphicsScreen::new(9)));
    v.write_all(&[21, b'A', b'B', 6, b'C']);
    // Only C was drawn, in the first cell.
    assert_eq!(v.pos(), 1);
    let f = v.frame();
    let Screen::Pixels(p) = &f.screen else {
        panic!("pixel screen")
    };
    assert!((0..8).any(|y| (0..8).any(|x| p.get(x, y) == Some(7))));
    assert!((8..16).all(|x| p.get(x, 3) == Some(0)));
}

// ---- 4, 5: where characters go ----

#[test]
fn vdu_5_draws_characters_at_the_graphics_cursor_in_the_graphics_colour() {
    // GCOL 2 (green), move to (64,1023): the character's top-left is the graphics cursor.
    let mut b = vec![18, 0, 2, 5];
    b.extend(plot(4, 64, 1023));
    b.extend([b'I', b'I']);
    let s = mode9(&b);
    // 'I' has ink in its middle columns: pixel column 16+3 of the top rows is green.
    let ink: Vec<_> = (16..24).filter(|&x| s.pixel(x, 1) == Some(2)).collect();
    assert!(!ink.is_empty());
    // The background shows through (no text background painted) and the text cursor is unmoved.
    assert_eq!(s.pixel(16, 1), Some(0));
    assert_eq!(cursor(&s), (0, 0));
    // The second I went one character (32 units = 8 pixels) further right.
    assert!((24..32).any(|x| s.pixel(x, 1) == Some(2)));
    assert_eq!(s.gcur, (64 + 64, 1023));
    // VDU 4 goes back to the text cursor.
    let mut b2 = b.clone();
    b2.extend([4, b'X']);
    assert_eq!(cursor(&mode9(&b2)), (1, 0));
    // In VDU 5 mode the cursor is hidden.
    assert!(!s.frame().cursor.unwrap().visible);
}

// ---- 7 ----

#[test]
fn vdu_7_rings_the_bell_without_touching_the_screen() {
    let mut s = mode9(&[b'A', 7, 7]);
    assert_eq!(s.take_bells(), 2);
    assert_eq!(s.take_bells(), 0);
    assert_eq!(s.px, mode9(b"A").px);
    assert_eq!(cursor(&s), (1, 0));
}

// ---- 8, 9, 10, 11: cursor movement and scrolling at every edge ----

/// A 3x3 window at columns 10-12, rows 5-7: its top row red, its bottom-left cell green, and a
/// blue cell just outside it.
fn windowed() -> GraphicsScreen {
    let mut s = mode9(&[31, 9, 5, 17, 132, b' ']);
    feed(&mut s, &[28, 10, 7, 12, 5]);
    feed(&mut s, &[17, 129, b' ', b' ', b' ']);
    feed(&mut s, &[31, 0, 2, 17, 130, b' ']);
    feed(&mut s, &[17, 128]); // scrolled-in rows are black
    s
}

#[test]
fn vdu_8_moves_left_wraps_up_and_scrolls_down_at_the_top_left() {
    let mut s = windowed();
    feed(&mut s, &[31, 1, 1, 8]);
    assert_eq!(cursor(&s), (0, 1));
    // At the left edge: the right edge of the row above.
    feed(&mut s, &[8]);
    assert_eq!(cursor(&s), (2, 0));
    // At the top-left corner: the window scrolls down and the cursor goes to the right edge.
    feed(&mut s, &[30, 8]);
    assert_eq!(cursor(&s), (2, 0));
    assert_eq!(cell(&s, 10, 5), 0, "new top row is the background colour");
    assert_eq!(cell(&s, 10, 6), 1, "old top row moved down");
    assert!(cell_is(&s, 9, 5, 4), "outside the window is untouched");
    assert!(cell_is(&s, 10, 7, 0), "the green cell scrolled out of the bottom");
}

#[test]
fn vdu_9_moves_right_wraps_down_and_scrolls_up_at_the_bottom_right() {
    let mut s = windowed();
    feed(&mut s, &[30, 9]);
    assert_eq!(cursor(&s), (1, 0));
    feed(&mut s, &[9, 9]);
    assert_eq!(cursor(&s), (0, 1), "right edge wraps to the next row's start");
    feed(&mut s, &[31, 2, 2]);
    assert_eq!(cell(&s, 10, 5), 1);
    feed(&mut s, &[9]);
    assert_eq!(
        cursor(&s),
        (0, 2),
        "bottom-right: scroll up, start of the bottom row"
    );
    assert_eq!(cell(&s, 10, 7), 0, "new bottom row is background");
    assert_eq!(cell(&s, 10, 6), 2, "the green row moved up");
    assert!(cell_is(&s, 9, 5, 4), "outside the window is untouched");
}

#[test]
fn vdu_10_moves_down_and_scrolls_up_on_the_bottom_row() {
    let mut s = windowed();
    feed(&mut s, &[31, 1, 0, 10]);
    assert_eq!(cursor(&s), (1, 1));
    feed(&mut s, &[10, 10]);
    assert_eq!(cursor(&s), (1, 2));
    assert_eq!(cell(&s, 10, 5), 0, "the red row scrolled out of the top");
    assert_eq!(cell(&s, 10, 6), 2, "the green row moved up one");
    assert_eq!(cell(&s, 10, 7), 0);
}

#[test]
fn vdu_11_on_the_top_row_scrolls_down_as_rheolism_removes_a_line() {
    // The seed's line removal: with rows 0-24 of columns 15-24 as the board, a full row 24 is
    // removed by VDU 28,15,24,24,0 (window down to the full row), 11 (scroll down), 26.
    let mut s = mode9(&[18, 0, 128 + 7, 16]); // GCOL -9: CLG makes the screen white
    feed(&mut s, &[31, 15, 23, 17, 129, b' ', 17, 128]); // a red square in row 23
    feed(&mut s, &[31, 20, 24, 17, 130, b' ', 17, 128]); // a green square in the full row 24
    feed(&mut s, &[28, 15, 24, 24, 0]);
    assert_eq!(
        cursor(&s),
        (0, 0),
        "VDU 28 homes the cursor to the window's top-left"
    );
    feed(&mut s, &[11, 26]);
    assert_eq!(cell(&s, 15, 24), 1, "row 23 moved down into row 24");
    assert_eq!(
        cell(&s, 20, 24),
        7,
        "row 24's contents are gone (row 23 was white there)"
    );
    assert_eq!(
        cell(&s, 15, 0),
        0,
        "the new top row is the text background, black"
    );
    assert_eq!(cell(&s, 14, 0), 7, "outside the window stays white");
    assert_eq!(cell(&s, 25, 24), 7);
    assert_eq!(cursor(&s), (0, 0), "VDU 26 homes the cursor");
    // VDU 11 below the top just moves up.
    let mut s = mode9(&[31, 3, 3, 11]);
    assert_eq!(cursor(&s), (3, 2));
    feed(&mut s, &[11, 11, 11]);
    assert_eq!(cursor(&s), (3, 0));
}

#[test]
fn printing_in_the_last_column_waits_past_the_edge_before_wrapping() {
    // Scroll protection (reference section 4): POS = width after the last column.
    let mut s = mode9(&[31, 39, 31, b'A']);
    assert_eq!(cursor(&s), (40, 31));
    assert_eq!(cell(&s, 0, 30), 0);
    feed(&mut s, b"B");
    assert_eq!(
        cursor(&s),
        (1, 31),
        "the wrap and the scroll happen with the next character"
    );
    assert!(
        (0..8).any(|y| (0..8).any(|x| s.pixel(39 * 8 + x, 30 * 8 + y) == Some(7))),
        "A moved up"
    );
    // VDU 8 from past the edge goes back onto the last column.
    let mut s = mode9(&[31, 39, 0, b'A', 8]);
    assert_eq!(cursor(&s), (39, 0));
    feed(&mut s, &[31, 40, 3]);
    assert_eq!(
        cursor(&s),
        (40, 3),
        "VDU 31 may put the cursor just past the edge"
    );
}

// ---- 12, 13, 16, 30, 31 ----

#[test]
fn vdu_12_clears_only_the_text_window_in_the_text_background() {
    let s = mode9(&[b'A', 28, 2, 4, 5, 3, 17, 132, 12]);
    for (col, row, c) in [(2, 3, 4), (5, 4, 4), (1, 3, 0), (6, 4, 0), (2, 5, 0), (2, 2, 0)] {
        assert!(cell_is(&s, col, row, c), "cell {col},{row}");
    }
    assert!(
        (0..8).any(|x| s.pixel(x, 2) == Some(7)),
        "'A' outside the window survives"
    );
    assert_eq!(cursor(&s), (0, 0));
}

#[test]
fn vdu_13_returns_to_the_window_left_edge() {
    let s = mode9(&[28, 5, 9, 20, 2, b'a', b'b', 13]);
    assert_eq!(cursor(&s), (0, 0));
    let s = mode9(&[28, 5, 9, 20, 2, 31, 4, 3, 13]);
    assert_eq!(cursor(&s), (0, 3));
}

#[test]
fn vdu_16_clears_the_graphics_window_in_the_graphics_background() {
    // The seed: GCOL -9 sends 18,0,247: background colour 7; CLG paints the screen white.
    let s = mode9(&[18, 0, 247, 16]);
    assert!(s.px.iter().all(|&p| p == 7));
    assert_eq!(cursor(&s), (0, 0));
    // Inside a graphics window only: 24, left; bottom; right; top (units).
    let mut b = vec![24];
    for v in [64i16, 64, 127, 127] {
        b.extend(w(v));
    }
    b.extend([18, 0, 131, 16]);
    let s = mode9(&b);
    assert_eq!(s.point(64, 64), 3);
    assert_eq!(s.point(127, 127), 3);
    assert_eq!(s.point(60, 64), 0);
    assert_eq!(s.point(128, 100), 0);
}

#[test]
fn vdu_30_homes_and_vdu_31_tabs_within_the_window() {
    let s = mode9(&[28, 10, 20, 30, 10, 31, 19, 3, 30]);
    assert_eq!(cursor(&s), (0, 0));
    // The seed's VDU 4895;3 is 31,19,3: column 19, row 3.
    let s = mode9(&[31, 19, 3]);
    assert_eq!(cursor(&s), (19, 3));
    let s = mode9(&[28, 10, 20, 30, 10, 31, 5, 6]);
    assert_eq!(cursor(&s), (5, 6));
    assert_eq!((s.tx, s.ty), (15, 16));
    // Outside the window: ignored.
    let s = mode9(&[31, 2, 2, 28, 10, 20, 30, 10, 31, 22, 0]);
    assert_eq!(cursor(&s), (0, 0));
    let s = mode9(&[31, 5, 32]);
    assert_eq!(cursor(&s), (0, 0));
}

// ---- 17, 18, 19, 20: colours ----

#[test]
fn vdu_17_sets_text_colours_with_bit_7_for_the_background() {
    // COLOUR v-15 for v = 0..6 sends 241..247: backgrounds 1..7 (the seed's brick colours).
    for v in 0..7u8 {
        let s = mode9(&[17, 241 + v, b' ']);
        assert!(cell_is(&s, 0, 0, v + 1));
    }
    // COLOUR 17 in 16 colours is colour 1 (n AND 15); the foreground inks the letter.
    let s = mode9(&[17, 17, b'H']);
    let g = retro_screen::font::glyph('H');
    for x in 0..8 {
        let want = if g[1] & (0x80 >> x) != 0 { 1 } else { 0 };
        assert_eq!(s.pixel(x, 1), Some(want));
    }
    // In two-colour MODE 0, COLOUR 129 is background 1.
    let s = mode9(&[22, 0, 17, 129, b' ']);
    assert!((0..8).all(|x| s.pixel(x, 4) == Some(1)));
}

#[test]
fn vdu_18_sets_graphics_colours_and_actions() {
    let pt = |k| plot(k, 100, 100);
    let at = |s: &GraphicsScreen| s.point(100, 100);
    // Plain set, then OR, AND, EOR, invert and no change over colour 5.
    for (action, expect) in [
        (0u8, 3),
        (1, 5 | 3),
        (2, 5 & 3),
        (3, 5 ^ 3),
        (4, 5 ^ 15),
        (5, 5),
        (6, 5 & !3),
        (7, (5 | !3) & 15),
    ] {
        let mut b = vec![18, 0, 5];
        b.extend(pt(69));
        b.extend([18, action, 3]);
        b.extend(pt(69));
        assert_eq!(at(&mode9(&b)), expect, "GCOL {action},3");
    }
    // Bit 7 selects the background, which PLOT 71 (point in background colour) uses.
    let mut b = vec![18, 0, 128 + 6];
    b.extend(pt(71));
    assert_eq!(at(&mode9(&b)), 6);
}

#[test]
fn vdu_19_changes_what_a_logical_colour_looks_like() {
    // 19, logical 1, physical 4 (blue).
    let s = mode9(&[19, 1, 4, 0, 0, 0]);
    assert_eq!(s.frame().palette.rgb(1, false), Rgb(0, 0, 255));
    // 16 means the next three bytes are red, green and blue.
    let s = mode9(&[19, 2, 16, 10, 20, 30]);
    assert_eq!(s.frame().palette.rgb(2, false), Rgb(10, 20, 30));
    // Physical 9 is the red/cyan flashing pair; the pixels themselves are unchanged.
    let s = mode9(&[17, 129, b' ', 19, 1, 9, 0, 0, 0]);
    let p = s.frame().palette;
    assert_eq!(
        (p.rgb(1, false), p.rgb(1, true)),
        (Rgb(255, 0, 0), Rgb(0, 255, 255))
    );
    assert_eq!(s.point(0, 1023), 1);
}

#[test]
fn vdu_20_restores_default_colours_and_palette() {
    let s = mode9(&[17, 3, 17, 129, 18, 3, 4, 18, 0, 133, 19, 7, 1, 0, 0, 0, 20, b' ']);
    assert!(cell_is(&s, 0, 0, 0), "text background back to black");
    assert_eq!(s.frame().palette, Palette::acorn16());
    assert_eq!((s.gfg, s.gbg, s.gfg_act, s.gbg_act), (7, 0, 0, 0));
    let s = mode9(&[17, 2, 20, b'H']);
    assert!((0..8).any(|x| s.pixel(x, 1) == Some(7)), "foreground white");
}

#[test]
fn flashing_colours_8_to_15_are_the_risc_os_pairs() {
    let p = mode9(&[]).frame().palette;
    for (c, a, b) in [
        (8, Rgb(0, 0, 0), Rgb(255, 255, 255)),
        (9, Rgb(255, 0, 0), Rgb(0, 255, 255)),
    ] {
        assert_eq!((p.rgb(c, false), p.rgb(c, true)), (a, b));
    }
}

// ---- 23 ----

#[test]
fn vdu_23_turns_the_cursor_off_and_on_and_defines_characters() {
    let s = mode9(&[23, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert!(!s.frame().cursor.unwrap().visible);
    let s = mode9(&[23, 1, 0, 0, 0, 0, 0, 0, 0, 0, 23, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
    assert!(s.frame().cursor.unwrap().visible);
    // Character 240 as a checkerboard, then printed.
    let s = mode9(&[23, 240, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 240]);
    assert_eq!(
        (s.pixel(0, 0), s.pixel(1, 0), s.pixel(0, 1)),
        (Some(7), Some(0), Some(0))
    );
    assert_eq!(cursor(&s), (1, 0));
}

// ---- 24, 25, 29: graphics window, PLOT, origin ----

#[test]
fn vdu_24_refuses_inside_out_or_off_screen_windows() {
    let mut b = vec![24];
    for v in [100i16, 100, 50, 200] {
        b.extend(w(v));
    }
    b.extend([18, 0, 129, 16]);
    assert!(
        mode9(&b).px.iter().all(|&p| p == 1),
        "ignored: the whole screen cleared"
    );
    let mut b = vec![24];
    for v in [0i16, 0, 1280, 100] {
        b.extend(w(v));
    }
    b.extend([18, 0, 129, 16]);
    assert!(mode9(&b).px.iter().all(|&p| p == 1));
}

#[test]
fn plot_draws_points_and_lines_with_both_ends() {
    let mut b = plot(69, 0, 0);
    b.extend(plot(69, 1279, 1023));
    let s = mode9(&b);
    assert_eq!((s.pixel(0, 255), s.pixel(319, 0)), (Some(7), Some(7)));
    // MOVE 0,0: DRAW 1276,0 lights the whole bottom row; a 45-degree line lights the diagonal.
    let mut b = plot(4, 0, 0);
    b.extend(plot(5, 1276, 0));
    b.extend(plot(4, 0, 0));
    b.extend(plot(5, 400, 400));
    let s = mode9(&b);
    assert!((0..320).all(|x| s.pixel(x, 255) == Some(7)));
    assert!((0..=100).all(|i| s.pixel(i, 255 - i) == Some(7)));
    assert_eq!(s.pixel(101, 154), Some(0));
    // PLOT 13 omits the last point; relative PLOT 1 draws from the cursor.
    let mut b = plot(4, 0, 512);
    b.extend(plot(13, 40, 512));
    let s = mode9(&b);
    assert_eq!((s.pixel(9, 127), s.pixel(10, 127)), (Some(7), Some(0)));
    let mut b = plot(4, 100, 100);
    b.extend(plot(1, 40, 0));
    let s = mode9(&b);
    assert_eq!(
        (s.pixel(25, 230), s.pixel(35, 230), s.pixel(36, 230)),
        (Some(7), Some(7), Some(0))
    );
    assert_eq!(s.gcur, (140, 100));
}

#[test]
fn plot_fills_triangles_rectangles_and_circles() {
    // Triangle (PLOT 85) over the last two points and this one.
    let mut b = plot(4, 0, 0);
    b.extend(plot(4, 400, 0));
    b.extend(plot(85, 0, 400));
    let s = mode9(&b);
    assert_eq!(s.point(40, 40), 7);
    assert_eq!(s.point(300, 300), 0, "beyond the hypotenuse");
    assert_eq!(s.point(196, 196), 7, "on it");
    // Rectangle fill (PLOT 101) from the cursor to the point, corners included.
    let mut b = plot(4, 200, 200);
    b.extend([18, 0, 2]);
    b.extend(plot(101, 300, 260));
    let s = mode9(&b);
    for (x, y, c) in [
        (200, 200, 2),
        (300, 260, 2),
        (250, 230, 2),
        (196, 230, 0),
        (304, 230, 0),
        (250, 264, 0),
    ] {
        assert_eq!(s.point(x, y), c, "point {x},{y}");
    }
    // Circle fill (PLOT 157): centre at the cursor, radius to the point.
    let mut b = plot(4, 640, 512);
    b.extend(plot(157, 740, 512));
    let s = mode9(&b);
    assert_eq!(s.point(640, 512), 7);
    assert_eq!(s.point(736, 512), 7);
    assert_eq!(s.point(640, 608), 7);
    assert_eq!(s.point(712, 584), 0, "outside at 45 degrees (radius 101)");
    assert_eq!(s.point(780, 512), 0);
    // Circle outline (PLOT 149): the rim is lit, the centre is not.
    let mut b = plot(4, 640, 512);
    b.extend(plot(149, 740, 512));
    let s = mode9(&b);
    assert_eq!(
        (s.point(640, 512), s.point(740, 512), s.point(540, 512)),
        (0, 7, 7)
    );
    assert_eq!((s.point(640, 612), s.point(640, 412)), (7, 7));
}

#[test]
fn plot_flood_fills_up_to_a_boundary() {
    // A rectangle outline, then FILL (PLOT 133) inside it: the inside takes the colour, the
    // outside stays background.
    let mut b = plot(4, 100, 100);
    for (x, y) in [(300, 100), (300, 300), (100, 300), (100, 100)] {
        b.extend(plot(5, x, y));
    }
    b.extend([18, 0, 4]);
    b.extend(plot(133, 200, 200));
    let s = mode9(&b);
    assert_eq!(
        (
            s.point(200, 200),
            s.point(104, 104),
            s.point(100, 200),
            s.point(400, 400)
        ),
        (4, 4, 7, 0)
    );
}

#[test]
fn plots_are_clipped_to_the_graphics_window_and_shifted_by_the_origin() {
    let mut b = vec![24];
    for v in [0i16, 0, 639, 511] {
        b.extend(w(v));
    }
    b.extend(plot(4, 0, 0));
    b.extend(plot(101, 1279, 1023));
    let s = mode9(&b);
    assert_eq!(
        (s.point(600, 500), s.point(700, 500), s.point(600, 600)),
        (7, 0, 0)
    );
    // VDU 29: the origin moves plots and POINT alike.
    let mut b = vec![29];
    b.extend(w(640));
    b.extend(w(512));
    b.extend(plot(69, 0, 0));
    let s = mode9(&b);
    assert_eq!(s.point(0, 0), 7);
    assert_eq!(s.pixel(160, 127), Some(7));
    assert_eq!(s.point(-640, -512), 0);
    assert_eq!(s.point(-641, 0), -1);
}

#[test]
fn point_is_minus_one_just_off_each_edge() {
    // Reference section 6: POINT off screen is -1; (0,0) and (1279,1023) are the corner pixels.
    let s = mode9(&[18, 0, 133, 16]);
    for (x, y) in [(0, 0), (1279, 0), (0, 1023), (1279, 1023), (3, 3)] {
        assert_eq!(s.point(x, y), 5, "{x},{y}");
    }
    for (x, y) in [(-1, 0), (0, -1), (1280, 0), (0, 1024), (-1, -1), (i32::MAX, 0)] {
        assert_eq!(s.point(x, y), -1, "{x},{y}");
    }
}

#[test]
fn point_reads_text_cells_as_the_seed_subroutine_does() {
    // a=POINT(32*POS,31-VPOS<<5): the bottom-left of the cursor's cell.
    let s = mode9(&[31, 19, 3, 17, 131, b' ', 8]);
    let (pos, vpos) = cursor(&s);
    assert_eq!((pos, vpos), (19, 3));
    assert_eq!(s.point(32 * pos, (31 - vpos) << 5), 3);
    assert_eq!(
        s.point(32 * pos + 31, ((31 - vpos) << 5) + 31),
        3,
        "the whole cell is one colour"
    );
    assert_eq!(s.point(32 * pos + 32, (31 - vpos) << 5), 0);
}

// ---- 26, 28 ----

#[test]
fn vdu_28_sets_the_text_window_and_pos_vpos_are_relative_to_it() {
    let s = mode9(&[28, 15, 24, 24, 0]);
    assert_eq!(s.twin, (15, 24, 24, 0));
    assert_eq!(cursor(&s), (0, 0));
    assert_eq!((s.tx, s.ty), (15, 0));
    // Swapped corners are put right; off-screen windows are ignored.
    let s = mode9(&[28, 24, 0, 15, 24]);
    assert_eq!(s.twin, (15, 24, 24, 0));
    let s = mode9(&[31, 3, 3, 28, 0, 32, 10, 0]);
    assert_eq!((s.twin, cursor(&s)), ((0, 31, 39, 0), (3, 3)));
    // Text stays inside: the 11th character of a 10-wide window starts the next row.
    let s = mode9(&[
        28, 15, 24, 24, 0, 17, 129, b' ', b' ', b' ', b' ', b' ', b' ', b' ', b' ', b' ', b' ', b'X',
    ]);
    assert_eq!(cell(&s, 15, 0), 1);
    assert_eq!(cell(&s, 25, 0), 0);
    assert_eq!(cursor(&s), (1, 1));
}

#[test]
fn vdu_26_restores_the_windows_origin_and_cursors() {
    let mut b = vec![28, 15, 24, 24, 0, 29];
    b.extend(w(100));
    b.extend(w(100));
    b.extend(plot(4, 10, 10));
    b.extend([31, 3, 3, 26]);
    let s = mode9(&b);
    assert_eq!((s.twin, cursor(&s)), ((0, 31, 39, 0), (0, 0)));
    assert_eq!(s.gcur, (0, 0));
    assert_eq!(s.point(0, 0), 0);
    assert_eq!(
        s.gwin,
        PixRect {
            x0: 0,
            y0: 0,
            x1: 319,
            y1: 255
        }
    );
}

// ---- 127 ----

#[test]
fn vdu_127_deletes_the_character_before_the_cursor() {
    let s = mode9(&[17, 130, b'A', b'B', 127]);
    assert_eq!(cursor(&s), (1, 0));
    assert!(
        cell_is(&s, 1, 0, 2),
        "B replaced by a space in the background colour"
    );
    assert!(!cell_is(&s, 0, 0, 2), "A is still there");
    // At the start of a row it deletes the last character of the row above.
    let s = mode9(&[31, 39, 0, 17, 130, b'A', 13, 10, 127]);
    assert_eq!(cursor(&s), (39, 0));
    assert!(cell_is(&s, 39, 0, 2));
}

// ---- text drawn into pixels ----

#[test]
fn characters_are_drawn_with_the_font_in_the_text_colours() {
    let s = mode9(&[17, 2, 17, 132, b'A']);
    let g = retro_screen::font::glyph('A');
    for (y, bits) in g.iter().enumerate() {
        for x in 0..8 {
            let want = if bits & (0x80 >> x) != 0 { 2 } else { 4 };
            assert_eq!(s.pixel(x, y), Some(want));
        }
    }
    // The text read-back of the frame finds the letter.
    let t = retro_screen::dump::text(&s.frame());
    assert!(t.starts_with('A'));
}

#[test]
fn random_vdu_streams_never_panic_or_hang() {
    // Any byte stream a program can send must leave a usable screen: a few hundred pseudo-random
    // streams, biased towards control codes and extreme coordinates, in every mode.
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut v = Vdu::new(Box::new(GraphicsScreen::new((next() % 16) as u8)));
        for _ in 0..3000 {
            let r = next();
            let b = match r % 4 {
                0 => (r >> 8) as u8 % 32,
                1 => [0x00, 0x80, 0xFF, 0x7F][(r >> 8) as usize % 4],
                _ => (r >> 8) as u8,
            };
            v.write(b);
        }
        let f = v.frame();
        let (cols, rows) = f.text_size();
        assert!((0..=cols as i32).contains(&v.pos()) && (0..rows as i32).contains(&v.vpos()));
    }
}

#[test]
fn a_line_from_far_off_screen_draws_its_visible_part() {
    // Relative moves wander 327670 units right (81917 pixels); a DRAW back to (0,512) lights the
    // whole visible row, and a line wholly off screen lights nothing.
    let mut b = plot(4, 0, 512);
    for _ in 0..10 {
        b.extend(plot(0, 32767, 0));
    }
    b.extend(plot(5, 0, 512));
    let s = mode9(&b);
    assert!((0..320).all(|x| s.pixel(x, 127) == Some(7)));
    assert_eq!(s.px.iter().filter(|&&p| p != 0).count(), 320);
    let mut b = plot(4, 0, 2000);
    for _ in 0..10 {
        b.extend(plot(1, 32767, 0));
    }
    assert!(mode9(&b).px.iter().all(|&p| p == 0));
}

#[test]
fn plot_fills_parallelograms_and_horizontal_lines() {
    // PLOT 117: the parallelogram with corners at the last two points and this one; its fourth
    // corner is opposite the middle point: (0,0), (400,0), (500,200) -> (100,200).
    let mut b = plot(4, 0, 0);
    b.extend(plot(4, 400, 0));
    b.extend(plot(117, 500, 200));
    let s = mode9(&b);
    for (x, y, c) in [
        (20, 8, 7),
        (480, 180, 7),
        (120, 196, 7),
        (20, 180, 0),
        (480, 8, 0),
        (600, 100, 0),
    ] {
        assert_eq!(s.point(x, y), c, "point {x},{y}");
    }
    // PLOT 77: fill left and right from the point while the pixels are background, stopping at
    // the two vertical lines at x = 100 and x = 300.
    let mut b = plot(4, 100, 0);
    b.extend(plot(5, 100, 1023));
    b.extend(plot(4, 300, 0));
    b.extend(plot(5, 300, 1023));
    b.extend([18, 0, 6]);
    b.extend(plot(77, 200, 500));
    let s = mode9(&b);
    assert_eq!(
        (s.point(104, 500), s.point(296, 500), s.point(200, 504)),
        (6, 6, 0)
    );
    assert_eq!(
        (s.point(100, 500), s.point(96, 500), s.point(304, 500)),
        (7, 0, 0)
    );
}

#[test]
fn a_frame_written_over_the_last_one_is_the_frame() {
    // Over a frame of the same mode (its buffer reused), of another mode, and of cells: each
    // time what `frame` gives, pixels, palette and cursor.
    let mut s = mode9(b"A\x11\x02B\x13\x01\x04\x00\x00\x00");
    let mut over = s.frame();
    feed(&mut s, b"\x1f\x03\x04C\x11\x03D");
    s.frame_into(&mut over);
    assert_eq!(over, s.frame());
    let mut other = GraphicsScreen::new(1).frame();
    s.frame_into(&mut other);
    assert_eq!(other, s.frame());
    feed(&mut s, b"\x16\x01E");
    s.frame_into(&mut over);
    assert_eq!(over, s.frame());
    let mut cells = Frame::cells(
        retro_screen::CellGrid::new(2, 2, Default::default()),
        Palette { entries: vec![] },
    );
    s.frame_into(&mut cells);
    assert_eq!(cells, s.frame());
}
