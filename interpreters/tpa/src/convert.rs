//! The image converter: a sprite -> a drop sequence that prints it.
//!
//! The sprite's bottom row is printed first, on the floor; each later row on the row below it.
//! A row is printed in passes (the seed's "Durchläufe"): each pass goes left to right and takes
//! every pixel whose emitter (J, T or L by its colour, pointing down so one square hangs below
//! its three-cell top) fits beside the ones already taken and rests on something: the square
//! below it, or a square printed by an earlier pass under its top. The pass's tops are then
//! filled into a block of full rows by a stored emitter pattern, or by a search made there and
//! then when the pass has extra support (fewer rows) or the table has no pattern; a pass that
//! neither finds is printed one emitter at a time (every single top has a stored pattern).
//! Before each such pass a realtime pass with flipped emitters is tried (J, T or L pointing up, its
//! flat side on three pixels of its colour, its fourth cell in the block): it packs those first,
//! adds emitters pointing down beside them, and searches its block on the spot.
//!
//! A pixel with nothing below it cannot rest on the previous row; then the whole row is printed
//! on a flat platform (a stored one on a square of the row below, or one searched for), and the
//! platform's closing piece drops the new row onto the old.
//!
//! Every drop is played on a [`Field`] as it is chosen, so a sequence that comes out is one that
//! plays legally, and every row is checked against the sprite before the next one starts.

use crate::field::{Field, HEIGHT, IllegalDrop, WIDTH};
use crate::image::Image;
use crate::pattern::{self, Kind, Library, Side};
use crate::piece::{Orientation, Piece};
use crate::search::{self, Drop, Outcome};
use crate::sequence::{Sequence, emitter_orientation};

/// Why a sprite cannot be printed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error("the image has no opaque pixels: there is nothing to print")]
    Empty,
    #[error(
        "row {0} of the image (counting from 0 at the top) is empty, with pixels above and below it: \
         printed rows always rest on the row below (a line clear moves everything above it down), \
         so an empty row cannot be left between printed ones"
    )]
    GapRow(usize),
    #[error("row {row} of the image (counting from 0 at the top) does not fit in the field: {why}")]
    TooTall { row: usize, why: IllegalDrop },
    #[error("no way found to print row {row} of the image (counting from 0 at the top): {why}")]
    NoPattern { row: usize, why: String },
}

/// Field colours of the pieces: J, T and L carry the sprite's colours 1-3; the others have fixed
/// colours of their own, which never remain in the picture.
pub fn piece_colour(p: Piece) -> u8 {
    match p {
        Piece::J => 1,
        Piece::T => 2,
        Piece::L => 3,
        Piece::I => 4,
        Piece::O => 5,
        Piece::S => 6,
        Piece::Z => 7,
    }
}

/// Where a sprite lands in the field: its pixel (x, y) (y = 0 at the top) is printed at field
/// column `x + left`, field row `bottom_row - y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub left: usize,
    /// The image row that lands on the floor (its lowest non-empty row).
    pub bottom_row: usize,
    /// The image's topmost non-empty row.
    pub top_row: usize,
}

impl Placement {
    /// Field (column, row) of image pixel (x, y), if that row is printed.
    pub fn field_cell(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        (y >= self.top_row && y <= self.bottom_row).then(|| (x + self.left, self.bottom_row - y))
    }
}

/// Figures about a conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub pixels: usize,
    pub drops: usize,
    pub passes: usize,
    pub platforms: usize,
    /// Passes and platforms whose drops came from a search made during the conversion.
    pub searched: usize,
    /// Flipped (pointing up) J, T and L emitters: three pixels each.
    pub flipped: usize,
    /// Stack profiles visited by the realtime searches (at most [`Effort::total`]).
    pub nodes: u64,
    /// Rows printed again with the lowest blocks because their first blocks stood too tall.
    pub low_rows: usize,
}

/// A converted sprite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    pub sequence: Sequence,
    pub placement: Placement,
    pub stats: Stats,
    /// The field after the last drop.
    pub field: Field,
}

/// Search effort: profiles visited before giving up. A realtime search for an emitter block (to
/// beat a stored pattern, or stand in for a missing one) gets `quick`; one for a platform that
/// the table lacks gets `full`; one with flipped emitters `flipped` per height tried.
#[derive(Debug, Clone, Copy)]
pub struct Effort {
    pub quick: u64,
    pub full: u64,
    /// A pass with flipped emitters: its least rows, then 4 more (as the seed does).
    pub flipped: u64,
    /// All the realtime searches of one sprite together. Once it is spent, the rest of the
    /// sprite is printed from the stored patterns alone (every row can be: a single-square
    /// emitter for every top, a platform for every column), so the time a sprite takes is
    /// bounded by a count of profiles, not by the clock, and the same sprite always gives the
    /// same sequence.
    pub total: u64,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            quick: 2_000,
            full: 200_000,
            flipped: 20_000,
            total: 100_000,
        }
    }
}

/// Where the sprite goes: centred on the 17 printable columns, lowest non-empty row on the floor.
pub fn placement(image: &Image) -> Result<Placement, ConvertError> {
    let empty_row = |y: usize| (0..image.width()).all(|x| image.get(x, y) == 0);
    let rows: Vec<usize> = (0..image.height()).filter(|&y| !empty_row(y)).collect();
    let (Some(&top_row), Some(&bottom_row)) = (rows.first(), rows.last()) else {
        return Err(ConvertError::Empty);
    };
    if let Some(gap) = (top_row..bottom_row).find(|&y| empty_row(y)) {
        return Err(ConvertError::GapRow(gap));
    }
    Ok(Placement {
        left: (WIDTH - image.width()) / 2,
        bottom_row,
        top_row,
    })
}

/// One emitter of a pass: the pixel's column, its colour, the leftmost column of its top.
#[derive(Debug, Clone, Copy)]
struct Emitter {
    column: usize,
    colour: u8,
    top: usize,
}

/// A flipped emitter: a J, T or L pointing up, its three-cell flat side on three pixels of its
/// colour (leftmost at `left`) in the emission row, its fourth cell (J over the left end, T the
/// middle, L the right end) in the block's bottom row, cleared with the block.
#[derive(Debug, Clone, Copy)]
struct Flipped {
    left: usize,
    colour: u8,
}

impl Flipped {
    fn drop(self) -> Drop {
        let orientation = Orientation(match self.colour {
            1 => 0x05,
            2 => 0x00,
            _ => 0x10,
        });
        Drop {
            orientation,
            x: self.left as i32 + 1,
        }
    }
    /// The column of its cell in the block's bottom row.
    fn nub(self) -> usize {
        self.left + usize::from(self.colour - 1)
    }
}

/// The flipped emitters a realtime pass may try first (the seed: "eagerly packing the flipped J, T
/// and L"): left to right, each run of three pending pixels of one colour whose flat side rests on
/// the row below.
fn plan_flipped(pending: &[(usize, u8)], below: u32) -> Vec<Flipped> {
    let colour_at = |c: usize| pending.iter().find(|p| p.0 == c).map(|p| p.1);
    let mut out: Vec<Flipped> = Vec::new();
    let mut taken = 0u32;
    for &(c, colour) in pending {
        let cells = 0b111u32 << c;
        if c + 2 < WIDTH
            && taken & cells == 0
            && below & cells != 0
            && colour_at(c + 1) == Some(colour)
            && colour_at(c + 2) == Some(colour)
        {
            taken |= cells;
            out.push(Flipped { left: c, colour });
        }
    }
    out
}

/// One pass of emitters pointing down over the pending pixels, greedy left to right, beside the
/// block cells already `occupied` (by flipped emitters' fourth cells); `emitted`: squares in the
/// emission row (earlier passes, and this pass's flipped emitters, which drop first).
fn plan_pass(pending: &[(usize, u8)], below: u32, emitted: u32, mut occupied: u32) -> Vec<Emitter> {
    let mut pass = Vec::new();
    for &(c, colour) in pending {
        let top = c - emitter_orientation(colour).1 as usize;
        let cells = 0b111u32 << top;
        let rests = below & (1 << c) != 0 || emitted & cells != 0;
        if occupied & cells == 0 && rests {
            occupied |= cells;
            pass.push(Emitter {
                column: c,
                colour,
                top,
            });
        }
    }
    pass
}

/// Splits a row's pixels into passes. `below`: columns with a square under the emission row.
/// `None` if some pixel can never rest on anything.
fn plan_passes(pixels: &[(usize, u8)], below: u32) -> Option<Vec<Vec<Emitter>>> {
    let mut pending: Vec<(usize, u8)> = pixels.to_vec();
    let mut emitted = 0u32;
    let mut passes = Vec::new();
    while !pending.is_empty() {
        let pass = plan_pass(&pending, below, emitted, 0);
        if pass.is_empty() {
            return None;
        }
        for e in &pass {
            emitted |= 1 << e.column;
        }
        pending.retain(|p| emitted & (1 << p.0) == 0);
        passes.push(pass);
    }
    Some(passes)
}

struct Printer<'a> {
    library: &'a Library,
    effort: Effort,
    field: Field,
    drops: Vec<Drop>,
    stats: Stats,
    /// Image row being printed, for messages.
    row: usize,
    /// Print with the lowest blocks only (single-square emitters from the table, no flipped
    /// emitters, no searched blocks): a row near the top of the field is tried again this way
    /// when its cheaper blocks would stand too tall.
    low: bool,
}

impl Printer<'_> {
    fn play(&mut self, d: Drop) -> Result<(), ConvertError> {
        let colour = piece_colour(d.orientation.piece());
        self.field
            .drop(d.orientation, d.x, colour)
            .map_err(|why| ConvertError::TooTall { row: self.row, why })?;
        self.drops.push(d);
        Ok(())
    }

    fn searched(&mut self, problem: &search::Problem, budget: u64) -> Option<Vec<Drop>> {
        let budget = budget.min(self.effort.total.saturating_sub(self.stats.nodes));
        if budget == 0 {
            return None;
        }
        let (outcome, nodes) = search::search_counted(problem, budget, 0x7E7_5157 ^ self.drops.len() as u64);
        self.stats.nodes += nodes;
        match outcome {
            Outcome::Found(d) => {
                self.stats.searched += 1;
                Some(d)
            }
            _ => None,
        }
    }

    /// Builds a platform on the squares of field row `below_row`; returns the closing drop.
    fn platform(&mut self, below: u32) -> Result<Drop, ConvertError> {
        self.stats.platforms += 1;
        let stored = (0..WIDTH as u8)
            .filter(|&c| below & (1 << c) != 0)
            .flat_map(|c| [Side::Left, Side::Right].map(|s| (c, s)))
            .find_map(|(c, s)| self.library.platform(c, s).map(|p| (p.drops.clone(), s)));
        let (drops, side) = match stored {
            Some(found) => found,
            None => {
                let mut found = None;
                for side in [Side::Left, Side::Right] {
                    let problem = pattern::platform_problem(below, side);
                    if let Some(d) = self.searched(&problem, self.effort.full) {
                        found = Some((d, side));
                        break;
                    }
                }
                found.ok_or_else(|| ConvertError::NoPattern {
                    row: self.row,
                    why: "no platform fits on the row below".into(),
                })?
            }
        };
        for d in drops {
            self.play(d)?;
        }
        Ok(side.closing_drop())
    }

    /// The drops that complete a pass's block, or `None` when the pass must be split.
    fn block(&mut self, tops: &[u8], support: u32) -> Option<Vec<Drop>> {
        if self.low {
            return (tops.len() == 1)
                .then(|| self.library.emitter(tops).map(|p| p.drops.clone()))
                .flatten();
        }
        let least = pattern::min_rows(tops.len());
        // A stored block that costs more pieces than printing its squares one at a time is left
        // out (some 2-square emitters need 10 rows, 53 pieces, where two singles take 32).
        let singles: Option<usize> = (tops.len() > 1)
            .then(|| {
                tops.iter()
                    .map(|&t| self.library.emitter(&[t]).map(|p| p.drops.len() + 1))
                    .sum()
            })
            .flatten();
        let stored = self
            .library
            .emitter(tops)
            .filter(|p| singles.is_none_or(|s| p.drops.len() + tops.len() <= s))
            .map(|p| (p.rows, p.drops.clone()));
        // With squares from earlier passes under the block, a shorter block may do; and a
        // quick search stands in for a pattern the table lacks.
        if (support != 0 || stored.is_none()) && stored.as_ref().is_none_or(|(rows, _)| *rows > least) {
            let problem = pattern::emitter_problem(tops, least, support);
            if let Some(d) = self.searched(&problem, self.effort.quick) {
                return Some(d);
            }
        }
        stored.map(|(_, drops)| drops)
    }

    /// Prints one pass: its J/T/L emitters, then the block. A pass with no block found is
    /// printed one emitter at a time (every single top has a stored pattern).
    fn print_pass(&mut self, pass: &[Emitter], emission_row: usize) -> Result<(), ConvertError> {
        let tops: Vec<u8> = pass.iter().map(|e| e.top as u8).collect();
        let support = self.field.row(emission_row);
        let drops = match self.block(&tops, support) {
            Some(d) => d,
            None if pass.len() > 1 => {
                for e in pass {
                    self.print_pass(std::slice::from_ref(e), emission_row)?;
                }
                return Ok(());
            }
            None => {
                return Err(ConvertError::NoPattern {
                    row: self.row,
                    why: format!("no emitter for a top at column {}", pass[0].top),
                });
            }
        };
        self.stats.passes += 1;
        for e in pass {
            let (orientation, _) = emitter_orientation(e.colour);
            self.play(Drop {
                orientation,
                x: e.top as i32 + 1,
            })?;
        }
        for d in drops {
            self.play(d)?;
        }
        Ok(())
    }

    /// A realtime pass with flipped emitters (and down-pointing ones beside them): the block is
    /// searched for there and then (no table holds such blocks), `flip_rows` rows over the least.
    /// Returns the emission-row squares it printed, or `None` (nothing played) when there is no
    /// flipped emitter to place or no block was found.
    fn print_flipped_pass(
        &mut self,
        pending: &[(usize, u8)],
        below: u32,
        emitted: u32,
        emission_row: usize,
    ) -> Result<Option<u32>, ConvertError> {
        let flipped = plan_flipped(pending, below);
        if flipped.is_empty() || self.low {
            return Ok(None);
        }
        let nubs: u32 = flipped.iter().map(|f| 1u32 << f.nub()).sum();
        let flats: u32 = flipped.iter().map(|f| 0b111u32 << f.left).sum();
        let rest: Vec<(usize, u8)> = pending
            .iter()
            .copied()
            .filter(|p| flats & (1 << p.0) == 0)
            .collect();
        let downs = plan_pass(&rest, below, emitted | flats, nubs);
        let mut heights = [0u8; WIDTH];
        for c in (0..WIDTH).filter(|&c| nubs & (1 << c) != 0) {
            heights[c] = 1;
        }
        for e in &downs {
            for h in &mut heights[e.top..e.top + 3] {
                *h = 1;
            }
        }
        let cells = flipped.len() + 3 * downs.len();
        let least = (1..=4)
            .find(|r| (WIDTH * r - cells).is_multiple_of(4))
            .unwrap_or(4);
        let support = self.field.row(emission_row) | flats;
        let found = [least, least + 4].into_iter().find_map(|rows| {
            let problem = search::Problem::rectangle(rows, heights, support);
            self.searched(&problem, self.effort.flipped)
        });
        let Some(block) = found else {
            return Ok(None);
        };
        self.stats.passes += 1;
        self.stats.flipped += flipped.len();
        let mut taken = flats;
        for f in &flipped {
            self.play(f.drop())?;
        }
        for e in &downs {
            let (orientation, _) = emitter_orientation(e.colour);
            self.play(Drop {
                orientation,
                x: e.top as i32 + 1,
            })?;
            taken |= 1 << e.column;
        }
        for d in block {
            self.play(d)?;
        }
        Ok(Some(taken))
    }

    fn print_row(&mut self, field_row: usize, pixels: &[(usize, u8)]) -> Result<(), ConvertError> {
        let below = if field_row == 0 {
            (1u32 << WIDTH) - 1
        } else {
            self.field.row(field_row - 1)
        };
        let (closing, emission_row) = match plan_passes(pixels, below) {
            Some(_) => (None, field_row),
            None => {
                let closing = self.platform(below)?;
                let top = self.field.row(field_row + pattern::PLATFORM_ROWS_LEFT - 1);
                plan_passes(pixels, top).ok_or_else(|| ConvertError::NoPattern {
                    row: self.row,
                    why: "the platform does not hold up every pixel".into(),
                })?;
                (Some(closing), field_row + pattern::PLATFORM_ROWS_LEFT)
            }
        };
        // Whether every pixel can be printed was settled above with emitters pointing down;
        // now pass by pass, a realtime pass with flipped emitters first where one is found.
        let support_below = if closing.is_some() {
            self.field.row(emission_row - 1)
        } else {
            below
        };
        let mut pending = pixels.to_vec();
        let mut emitted = 0u32;
        while !pending.is_empty() {
            if let Some(taken) = self.print_flipped_pass(&pending, support_below, emitted, emission_row)? {
                emitted |= taken;
                pending.retain(|p| taken & (1 << p.0) == 0);
                continue;
            }
            let pass = plan_pass(&pending, support_below, emitted, 0);
            if pass.is_empty() {
                return Err(ConvertError::NoPattern {
                    row: self.row,
                    why: "a pixel has nothing to rest on (a defect in the converter)".into(),
                });
            }
            self.print_pass(&pass, emission_row)?;
            for e in &pass {
                emitted |= 1 << e.column;
            }
            pending.retain(|p| emitted & (1 << p.0) == 0);
        }
        if let Some(d) = closing {
            self.play(d)?;
        }
        // The row must now be exactly the sprite's, with nothing above it.
        let ok = (0..WIDTH).all(|x| {
            let want = pixels.iter().find(|p| p.0 == x).map_or(0, |p| p.1);
            self.field.colour(x, field_row) == want
        }) && self.field.stack_height() == field_row + 1;
        if !ok {
            return Err(ConvertError::NoPattern {
                row: self.row,
                why: "the drops did not leave the row as drawn (a defect in the converter)".into(),
            });
        }
        Ok(())
    }
}

/// Converts a sprite with the stored patterns and the default search effort.
pub fn convert(image: &Image) -> Result<Conversion, ConvertError> {
    convert_with(image, &Library::stored(), Effort::default())
}

/// Converts a sprite with the given patterns and search effort.
pub fn convert_with(image: &Image, library: &Library, effort: Effort) -> Result<Conversion, ConvertError> {
    let placement = placement(image)?;
    let mut printer = Printer {
        library,
        effort,
        field: Field::new(),
        drops: Vec::new(),
        stats: Stats::default(),
        row: placement.bottom_row,
        low: false,
    };
    for y in (placement.top_row..=placement.bottom_row).rev() {
        printer.row = y;
        let pixels: Vec<(usize, u8)> = (0..image.width())
            .filter(|&x| image.get(x, y) != 0)
            .map(|x| (x + placement.left, image.get(x, y)))
            .collect();
        printer.stats.pixels += pixels.len();
        let field_row = placement.bottom_row - y;
        if field_row >= HEIGHT {
            return Err(ConvertError::TooTall {
                row: y,
                why: IllegalDrop::ToppedOut,
            });
        }
        // A row whose blocks reach the spawn point (the top rows of a tall sprite) is printed
        // again from where it started with the lowest blocks.
        let (field, drops, stats) = (printer.field.clone(), printer.drops.len(), printer.stats);
        match printer.print_row(field_row, &pixels) {
            Err(ConvertError::TooTall { .. }) => {
                printer.field = field;
                printer.drops.truncate(drops);
                // The searches made stay spent: the budget bounds the work, not the result.
                printer.stats = Stats {
                    nodes: printer.stats.nodes,
                    ..stats
                };
                printer.low = true;
                printer.stats.low_rows += 1;
                let again = printer.print_row(field_row, &pixels);
                printer.low = false;
                again?;
            }
            other => other?,
        }
    }
    printer.stats.drops = printer.drops.len();
    Ok(Conversion {
        sequence: Sequence {
            palette: image.palette,
            drops: printer.drops,
        },
        placement,
        stats: printer.stats,
        field: printer.field,
    })
}

/// Checks that a pattern does what it says: replayed on an empty field (emitters with T, J or L
/// tops over the floor, platforms on a single square), it leaves exactly its squares. Returns
/// the squares left, as (column, row, colour).
pub fn replay_pattern(p: &pattern::Pattern, colour: u8) -> Result<Vec<(usize, usize, u8)>, String> {
    let mut field = Field::new();
    let play = |f: &mut Field, d: Drop| {
        f.drop(d.orientation, d.x, piece_colour(d.orientation.piece()))
            .map(|_| ())
            .map_err(|e| format!("{}: {e}", pattern::format_drop(d)))
    };
    match &p.kind {
        Kind::Emit(tops) => {
            for &a in tops {
                let (orientation, _): (Orientation, i32) = emitter_orientation(colour);
                play(
                    &mut field,
                    Drop {
                        orientation,
                        x: a as i32 + 1,
                    },
                )?;
            }
            for &d in &p.drops {
                play(&mut field, d)?;
            }
        }
        Kind::Platform(c, side) => {
            field.set(*c as usize, 0, 2);
            for &d in &p.drops {
                play(&mut field, d)?;
            }
            // Standing now: the square, and the platform's three rows above it.
            if field.stack_height() != 1 + pattern::PLATFORM_ROWS_LEFT {
                return Err(format!("platform stands {} rows high", field.stack_height()));
            }
            play(&mut field, side.closing_drop())?;
        }
    }
    let mut left = Vec::new();
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            if field.colour(x, y) != 0 {
                left.push((x, y, field.colour(x, y)));
            }
        }
    }
    Ok(left)
}
