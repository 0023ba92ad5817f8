//! `retro testcard`: a screen for checking a terminal before playing. It shows the Acorn palette
//! (with the flashing colours), the 8x8 font, pixel graphics and the keys the front end sees as
//! held, and with SPACE a C64-style character-cell page.

use std::process::ExitCode;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::font::glyph;
use retro_screen::{Cell, CellGrid, Frame, Palette, PixelBuffer};

use crate::session::{Session, SessionArgs, drive};

#[derive(clap::Args, Debug)]
pub struct TestcardArgs {
    #[command(flatten)]
    pub session: SessionArgs,
}

pub fn testcard(args: TestcardArgs) -> ExitCode {
    let session = match Session::new(&args.session) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut card = TestCard::default();
    drive(
        &mut card,
        &session,
        vec![("SPACE", "switch between the pixel and the cell page")],
    )
}

/// The test card machine.
#[derive(Debug, Default)]
pub struct TestCard {
    frames: u64,
    cell_page: bool,
    held: Vec<Key>,
    last: Option<Key>,
}

fn key_name(k: Key) -> String {
    match k {
        Key::Char(' ') => "SPACE".into(),
        Key::Char(c) => c.to_string(),
        Key::F(n) => format!("F{n}"),
        other => format!("{other:?}").to_uppercase(),
    }
}

/// Draws `text` with the 8x8 font at text cell (`col`, `row`).
fn print(p: &mut PixelBuffer, col: usize, row: usize, text: &str, fg: u8, bg: u8) {
    for (i, ch) in text.chars().enumerate() {
        let rows = glyph(ch);
        for (y, bits) in rows.iter().enumerate() {
            for x in 0..8 {
                let c = if bits & (0x80 >> x) != 0 { fg } else { bg };
                p.set((col + i) * 8 + x, row * 8 + y, c);
            }
        }
    }
}

impl TestCard {
    fn pixel_page(&self) -> Frame {
        let mut p = PixelBuffer::new(320, 256, (8, 8), 0);
        print(&mut p, 0, 0, &format!("{:^40}", "retro test card"), 7, 4);
        for c in 0..16u8 {
            for y in 16..40 {
                for x in 0..20 {
                    p.set(c as usize * 20 + x, y, c);
                }
            }
            print(&mut p, (c as usize * 20 + 6) / 8, 5, &format!("{c:X}"), 7, 0);
        }
        print(&mut p, 0, 7, "Font:", 3, 0);
        let ascii: String = (32u8..127).map(char::from).collect();
        for (i, chunk) in ascii.as_bytes().chunks(40).enumerate() {
            print(&mut p, 0, 8 + i, std::str::from_utf8(chunk).unwrap_or(""), 7, 0);
        }
        // Pixel graphics: a circle and a diagonal, which only the half-block mode can show.
        for t in 0..720 {
            let a = t as f64 * std::f64::consts::PI / 360.0;
            p.set(
                (80.0 + 40.0 * a.cos()) as usize,
                (176.0 + 40.0 * a.sin()) as usize,
                2,
            );
        }
        for i in 0..96 {
            p.set(200 + i, 128 + i, 1);
        }
        let held: Vec<String> = self.held.iter().map(|&k| key_name(k)).collect();
        print(
            &mut p,
            0,
            28,
            &format!("{:<40}", format!("held: {}", held.join(" "))),
            6,
            0,
        );
        let last = self.last.map(key_name).unwrap_or_default();
        print(
            &mut p,
            0,
            29,
            &format!("{:<40}", format!("last key: {last}")),
            6,
            0,
        );
        print(&mut p, 0, 31, "SPACE: cells  F12: help  Ctrl-Q: quit   ", 0, 7);
        let mut f = Frame::pixels(p, Palette::acorn16());
        // RISC OS flashes colours 8-15 every 25 fiftieths of a second by default.
        f.flash_phase = (self.frames / 25) % 2 == 1;
        f
    }

    fn cell_page(&self) -> Frame {
        let mut g = CellGrid::new(40, 25, Cell::new(' ', 14, 6));
        let put = |g: &mut CellGrid, x: usize, y: usize, s: &str, fg: u8, bg: u8| {
            for (i, ch) in s.chars().enumerate() {
                g.set(x + i, y, Cell::new(ch, fg, bg));
            }
        };
        put(
            &mut g,
            0,
            0,
            &format!("{:^40}", "**** RETRO TEST CARD: CELLS ****"),
            14,
            6,
        );
        for c in 0..16u8 {
            for y in 3..6 {
                put(&mut g, c as usize * 2 + 4, y, "\u{2588}\u{2588}", c, 6);
            }
            put(&mut g, c as usize * 2 + 4, 6, &format!("{c:X}"), 1, 6);
        }
        put(&mut g, 0, 9, "READY.", 14, 6);
        put(&mut g, 0, 24, "SPACE: PIXEL PAGE", 1, 6);
        let mut f = Frame::cells(g, Palette::c64());
        f.border = Some(14);
        f.cursor = Some(retro_screen::Cursor {
            x: 0,
            y: 10,
            visible: (self.frames / 20).is_multiple_of(2),
        });
        f
    }
}

impl Machine for TestCard {
    fn name(&self) -> &str {
        "test card"
    }
    fn frame_hz(&self) -> u32 {
        50
    }
    fn key(&mut self, event: KeyEvent) {
        if event.kind == KeyEventKind::Press {
            self.last = Some(event.key);
            if event.key == Key::Char(' ') {
                self.cell_page = !self.cell_page;
            }
        }
    }
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        self.frames += 1;
        self.held = held.held(now);
        RunState::Running
    }
    fn frame(&self) -> Frame {
        if self.cell_page {
            self.cell_page()
        } else {
            self.pixel_page()
        }
    }
    fn drain_text(&mut self, _out: &mut String) {}
}
