//! The printer's playfield: 21 columns by 42 rows (Tetris' 1:2 shape, see the seed), each row a
//! bitmask, with a colour plane beside it. Rows count upwards from the floor (row 0). Pieces spawn
//! at the top centre, are rotated and shifted there, then fall straight down; full rows clear by
//! the normal (NES, "naive gravity") rule: everything above moves down, nothing else falls.

use crate::piece::{Orientation, rotations_from_spawn};

/// Columns of the field.
pub const WIDTH: usize = 21;
/// Visible rows.
pub const HEIGHT: usize = 42;
/// Rows above the visible field where a new piece may poke out while it is rotated and shifted,
/// as the NES's two hidden rows (an I turned upright reaches two rows above its pivot).
pub const HIDDEN: usize = 2;
/// Column of the spawn pivot (the NES spawns at x = 5 of 10; here the middle of 21).
pub const SPAWN_X: i32 = 10;
/// Row of the spawn pivot: the top visible row.
pub const SPAWN_ROW: i32 = HEIGHT as i32 - 1;

const FULL: u32 = (1 << WIDTH) - 1;

/// Why a drop is not a legal printer move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalDrop {
    #[error("column {0} is outside the field for this orientation")]
    OffField(i32),
    #[error("the piece is blocked at the spawn point")]
    SpawnBlocked,
    #[error("the piece cannot turn into orientation {0:02X} at the spawn point")]
    RotationBlocked(u8),
    #[error("the piece cannot move sideways to column {0}")]
    ShiftBlocked(i32),
    #[error("the piece comes to rest above the top of the field")]
    ToppedOut,
}

/// What one drop did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    /// Row of the pivot where the piece came to rest.
    pub row: i32,
    /// Rows (numbered before the clear) that the drop completed and cleared, lowest first.
    pub cleared: Vec<usize>,
}

/// The playfield.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    rows: [u32; HEIGHT + HIDDEN],
    colours: [[u8; WIDTH]; HEIGHT + HIDDEN],
}

impl Default for Field {
    fn default() -> Self {
        Field {
            rows: [0; HEIGHT + HIDDEN],
            colours: [[0; WIDTH]; HEIGHT + HIDDEN],
        }
    }
}

impl Field {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the cell at column `x`, row `y` is filled (outside the field: walls and floor are
    /// solid, the space above the hidden rows is open).
    pub fn filled(&self, x: i32, y: i32) -> bool {
        if x < 0 || x >= WIDTH as i32 || y < 0 {
            return true;
        }
        (y as usize) < HEIGHT + HIDDEN && self.rows[y as usize] & (1 << x) != 0
    }

    /// The colour of a visible cell (0 empty).
    pub fn colour(&self, x: usize, y: usize) -> u8 {
        if x < WIDTH && y < HEIGHT {
            self.colours[y][x]
        } else {
            0
        }
    }

    /// Row `y` as a bitmask, bit x for column x.
    pub fn row(&self, y: usize) -> u32 {
        self.rows.get(y).copied().unwrap_or(0)
    }

    /// Puts a square of `colour` at (x, y) directly (for tests and pictures).
    pub fn set(&mut self, x: usize, y: usize, colour: u8) {
        if x < WIDTH && y < HEIGHT + HIDDEN {
            if colour == 0 {
                self.rows[y] &= !(1 << x);
            } else {
                self.rows[y] |= 1 << x;
            }
            self.colours[y][x] = colour;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    fn fits(&self, o: Orientation, x: i32, y: i32) -> bool {
        o.cells_up()
            .iter()
            .all(|&(dx, dy)| !self.filled(x + dx as i32, y + dy as i32))
    }

    /// Plays one printer move: spawn the piece at the top centre, turn it the short way round to
    /// `o`, shift it to pivot column `x`, and let it fall. Each step must be free, as in the game.
    pub fn drop(&mut self, o: Orientation, x: i32, colour: u8) -> Result<Landing, IllegalDrop> {
        let (lo, hi) = o.x_span();
        if x + (lo as i32) < 0 || x + hi as i32 >= WIDTH as i32 {
            return Err(IllegalDrop::OffField(x));
        }
        let piece = o.piece();
        let mut cur = piece.spawn();
        if !self.fits(cur, SPAWN_X, SPAWN_ROW) {
            return Err(IllegalDrop::SpawnBlocked);
        }
        let turns = rotations_from_spawn(o);
        let cycle = piece.cycle();
        for _ in 0..turns.unsigned_abs() {
            let i = cycle.iter().position(|&c| c == cur.0).unwrap_or(0) as i32;
            let n = cycle.len() as i32;
            let next = Orientation(cycle[(i + turns.signum() as i32).rem_euclid(n) as usize]);
            if !self.fits(next, SPAWN_X, SPAWN_ROW) {
                return Err(IllegalDrop::RotationBlocked(next.0));
            }
            cur = next;
        }
        let mut px = SPAWN_X;
        while px != x {
            px += (x - px).signum();
            if !self.fits(o, px, SPAWN_ROW) {
                return Err(IllegalDrop::ShiftBlocked(px));
            }
        }
        let mut py = SPAWN_ROW;
        while self.fits(o, px, py - 1) {
            py -= 1;
        }
        let cells = o.cells_up();
        if cells.iter().any(|&(_, dy)| py + dy as i32 >= HEIGHT as i32) {
            return Err(IllegalDrop::ToppedOut);
        }
        for (dx, dy) in cells {
            self.set((px + dx as i32) as usize, (py + dy as i32) as usize, colour);
        }
        Ok(Landing {
            row: py,
            cleared: self.clear_full_rows(),
        })
    }

    /// Removes full rows; the rows above move down (NES line clears: no cascade).
    fn clear_full_rows(&mut self) -> Vec<usize> {
        let full: Vec<usize> = (0..HEIGHT).filter(|&y| self.rows[y] == FULL).collect();
        for &y in full.iter().rev() {
            self.rows.copy_within(y + 1.., y);
            self.colours.copy_within(y + 1.., y);
            self.rows[HEIGHT + HIDDEN - 1] = 0;
            self.colours[HEIGHT + HIDDEN - 1] = [0; WIDTH];
        }
        full
    }

    /// Number of rows from the floor up to the highest filled one.
    pub fn stack_height(&self) -> usize {
        (0..HEIGHT + HIDDEN)
            .rev()
            .find(|&y| self.rows[y] != 0)
            .map_or(0, |y| y + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_falls_to_the_floor_where_it_was_aimed() {
        let mut f = Field::new();
        // T down (02) with its pivot at column 3: flat side up, stem down.
        let l = f.drop(Orientation(0x02), 3, 2).unwrap();
        assert_eq!(l.row, 1);
        assert!(l.cleared.is_empty());
        assert_eq!(f.row(0), 1 << 3);
        assert_eq!(f.row(1), 0b111 << 2);
        assert_eq!(f.colour(3, 0), 2);
        // An I dropped on top rests on the T.
        let l = f.drop(Orientation(0x12), 4, 4).unwrap();
        assert_eq!(l.row, 2);
        assert_eq!(f.row(2), 0b1111 << 2);
    }

    #[test]
    fn full_rows_clear_and_the_rows_above_move_down() {
        let mut f = Field::new();
        for x in 0..WIDTH {
            if x != 7 {
                f.set(x, 0, 5);
            }
        }
        f.set(3, 2, 1);
        // An upright I in column 7 completes row 0 only.
        let l = f.drop(Orientation(0x11), 7, 4).unwrap();
        assert_eq!(l.cleared, vec![0]);
        assert_eq!(f.row(0), 1 << 7);
        assert_eq!(
            f.row(1),
            (1 << 7) | (1 << 3),
            "the lone square moved down one row and did not fall further"
        );
        assert_eq!(f.colour(3, 1), 1);
    }

    #[test]
    fn illegal_moves_are_refused_and_leave_the_field_alone() {
        let mut f = Field::new();
        assert_eq!(f.drop(Orientation(0x12), 1, 1), Err(IllegalDrop::OffField(1)));
        assert_eq!(f.drop(Orientation(0x12), 20, 1), Err(IllegalDrop::OffField(20)));
        // A wall in column 5 at the top blocks the way from the spawn column to column 2.
        f.set(5, SPAWN_ROW as usize, 1);
        let before = f.clone();
        assert_eq!(f.drop(Orientation(0x11), 2, 1), Err(IllegalDrop::ShiftBlocked(5)));
        assert_eq!(f, before);
        // A filled top row under the spawn point blocks the spawn itself.
        for x in 8..13 {
            f.set(x, SPAWN_ROW as usize, 1);
        }
        assert_eq!(f.drop(Orientation(0x02), 10, 1), Err(IllegalDrop::SpawnBlocked));
    }

    #[test]
    fn a_piece_resting_above_the_top_tops_out() {
        let mut f = Field::new();
        for y in 0..HEIGHT - 2 {
            f.set(0, y, 1);
        }
        // An upright I in column 0 rests on row 39 and would reach row 43, a hidden row.
        assert_eq!(f.drop(Orientation(0x11), 0, 1), Err(IllegalDrop::ToppedOut));
    }
}
