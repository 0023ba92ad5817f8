//! Plays a sequence on the field, drop by drop, checking each move (spawn at the top centre,
//! turn, shift, straight fall), and shows the field as a [`Frame`] so the front end can animate
//! it, dump it or take a picture of it.

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, KeyEvent, VirtualTime};
use retro_screen::{Cell, CellGrid, Frame, Palette, PaletteEntry, PixelBuffer, Rgb};

use crate::convert::piece_colour;
use crate::field::{Field, HEIGHT, IllegalDrop, WIDTH};
use crate::pattern::format_drop;
use crate::sequence::Sequence;

/// Colours of the pieces that never stay in the picture (I, O, S, Z): greys, so the picture's own
/// colours stand out while it is printed.
const OTHER_PIECES: [Rgb; 4] = [
    Rgb(0x9C, 0x9C, 0x9C),
    Rgb(0xC8, 0xC8, 0xC8),
    Rgb(0x74, 0x74, 0x74),
    Rgb(0x5A, 0x5A, 0x5A),
];

/// The field's palette: 0 the empty background (black), 1-3 J, T and L in the sprite's colours,
/// 4-7 I, O, S and Z in greys.
pub fn palette(sequence: &Sequence) -> Palette {
    let mut entries = vec![PaletteEntry::Solid(Rgb(0, 0, 0))];
    entries.extend(sequence.palette.iter().map(|&c| PaletteEntry::Solid(c)));
    entries.extend(OTHER_PIECES.iter().map(|&c| PaletteEntry::Solid(c)));
    Palette { entries }
}

/// The field as a frame: one character cell per square, its background the square's colour.
pub fn field_frame(field: &Field, palette: &Palette) -> Frame {
    let mut grid = CellGrid::new(WIDTH, HEIGHT, Cell::new(' ', 7, 0));
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let c = field.colour(x, y);
            grid.set(x, HEIGHT - 1 - y, Cell::new(' ', c, c));
        }
    }
    Frame::cells(grid, palette.clone())
}

/// The field as half-block pixels, one pixel a square, for terminals too short for one row a
/// square (the 42 rows do not fit 80x24): the terminal draws two squares a row, a text cell of
/// 2x2 squares as two columns (a column a square, so the squares stay square). A column of
/// background pads the odd width.
pub fn field_frame_half_blocks(field: &Field, palette: &Palette) -> Frame {
    let mut p = PixelBuffer::new(WIDTH + 1, HEIGHT, (2, 2), 0);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            p.set(x, HEIGHT - 1 - y, field.colour(x, y));
        }
    }
    Frame::pixels(p, palette.clone())
}

/// A drop that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("drop {number} ({drop}): {why}")]
pub struct ReplayError {
    /// 1-based position in the sequence.
    pub number: usize,
    pub drop: String,
    pub why: IllegalDrop,
}

/// A sequence being played.
#[derive(Debug, Clone)]
pub struct Replay {
    sequence: Sequence,
    palette: Palette,
    field: Field,
    next: usize,
    drops_per_frame: usize,
    failed: Option<ReplayError>,
}

/// Frames per second of the replay's virtual clock (the NES's rate, as the Z80 Tetris runs).
pub const FRAME_HZ: u32 = 60;

impl Replay {
    /// A replay that plays `drops_per_frame` drops each frame (at least one).
    pub fn new(sequence: Sequence, drops_per_frame: usize) -> Replay {
        Replay {
            palette: palette(&sequence),
            sequence,
            field: Field::new(),
            next: 0,
            drops_per_frame: drops_per_frame.max(1),
            failed: None,
        }
    }

    /// A replay paced so the whole sequence takes about `seconds` (at least one drop a frame).
    pub fn paced(sequence: Sequence, seconds: u32) -> Replay {
        let frames = (seconds * FRAME_HZ).max(1) as usize;
        let per = sequence.drops.len().div_ceil(frames);
        Replay::new(sequence, per)
    }

    pub fn field(&self) -> &Field {
        &self.field
    }

    pub fn done(&self) -> bool {
        self.next >= self.sequence.drops.len() || self.failed.is_some()
    }

    /// Plays the next drop; `Ok(false)` when there is none left.
    pub fn step(&mut self) -> Result<bool, ReplayError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Some(&d) = self.sequence.drops.get(self.next) else {
            return Ok(false);
        };
        self.next += 1;
        match self
            .field
            .drop(d.orientation, d.x, piece_colour(d.orientation.piece()))
        {
            Ok(_) => Ok(true),
            Err(why) => {
                let e = ReplayError {
                    number: self.next,
                    drop: format_drop(d),
                    why,
                };
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Plays every remaining drop.
    pub fn run_to_end(&mut self) -> Result<&Field, ReplayError> {
        while self.step()? {}
        Ok(&self.field)
    }
}

impl Machine for Replay {
    fn name(&self) -> &str {
        "Tetris printer"
    }
    fn frame_hz(&self) -> u32 {
        FRAME_HZ
    }
    fn key(&mut self, _event: KeyEvent) {}
    fn run_frame(&mut self, _now: VirtualTime, _held: &HeldKeys) -> RunState {
        for _ in 0..self.drops_per_frame {
            match self.step() {
                Ok(true) => {}
                Ok(false) => return RunState::Ended,
                Err(e) => return RunState::Failed(format!("Illegal move: {e}")),
            }
        }
        if self.done() {
            RunState::Ended
        } else {
            RunState::Running
        }
    }
    fn frame(&self) -> Frame {
        field_frame(&self.field, &self.palette)
    }
    fn frame_for(&self, cols: u16, rows: u16) -> Frame {
        // A row a square, with a row left for the status line, when the terminal has them.
        if usize::from(rows) > HEIGHT && usize::from(cols) >= 2 * WIDTH {
            self.frame()
        } else {
            field_frame_half_blocks(&self.field, &self.palette)
        }
    }
    fn drain_text(&mut self, _out: &mut String) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Orientation;
    use crate::search::Drop;

    fn seq(drops: &[(u8, i32)]) -> Sequence {
        Sequence {
            palette: [Rgb(255, 0, 0), Rgb(0, 255, 0), Rgb(0, 0, 255)],
            drops: drops
                .iter()
                .map(|&(o, x)| Drop {
                    orientation: Orientation(o),
                    x,
                })
                .collect(),
        }
    }

    #[test]
    fn the_frame_shows_the_field_bottom_row_last() {
        let mut r = Replay::new(seq(&[(0x02, 3)]), 1);
        assert_eq!(
            r.run_frame(
                VirtualTime::ZERO,
                &HeldKeys::new(retro_machine::HoldMode::ReleaseEvents)
            ),
            RunState::Ended
        );
        let dump = retro_screen::dump::colours(&r.frame());
        let lines: Vec<&str> = dump.lines().collect();
        assert_eq!(lines.len(), HEIGHT);
        assert_eq!(lines[HEIGHT - 1], "000200000000000000000");
        assert_eq!(lines[HEIGHT - 2], "002220000000000000000");
        assert!(lines[..HEIGHT - 2].iter().all(|l| *l == "0".repeat(WIDTH)));
    }

    #[test]
    fn an_illegal_drop_stops_the_replay_with_its_number() {
        // Eleven upright Is in column 10 reach the top; the twelfth cannot spawn.
        let mut r = Replay::new(seq(&[(0x11, 10); 12]), 100);
        match r.run_frame(
            VirtualTime::ZERO,
            &HeldKeys::new(retro_machine::HoldMode::ReleaseEvents),
        ) {
            RunState::Failed(msg) => assert!(msg.starts_with("Illegal move: drop 11 (I11@10): "), "{msg}"),
            other => panic!("{other:?}"),
        }
        assert!(r.done());
    }

    #[test]
    fn pacing_spreads_the_drops_over_the_time_asked() {
        let r = Replay::paced(seq(&[(0x02, 3); 1300]), 10);
        assert_eq!(r.drops_per_frame, 3);
        let r = Replay::paced(seq(&[(0x02, 3); 5]), 10);
        assert_eq!(r.drops_per_frame, 1);
    }
}
