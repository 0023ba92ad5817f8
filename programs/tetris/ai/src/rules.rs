//! The NES Tetris rules the AI plans with (docs/tetris.md, ../shared/reference/nes-tetris.md):
//! the 19 orientations, rotation, the playfield with its two hidden rows, line clears, gravity,
//! lines, level-ups (with the BCD bug) and points (with the 999,999 cap). The same tables as
//! programs/tetris/pieces.asm; `tests/rules_model.rs` checks this model against the meta_nestris
//! oracle's traces.

/// Buttons in the NES's order (programs/tetris/tetris.asm's `BTN_*`).
pub const A: u8 = 0x80;
pub const B: u8 = 0x40;
pub const SELECT: u8 = 0x20;
pub const START: u8 = 0x10;
pub const UP: u8 = 0x08;
pub const DOWN: u8 = 0x04;
pub const LEFT: u8 = 0x02;
pub const RIGHT: u8 = 0x01;

/// Each orientation's four minos (dx, dy) from the pivot, y down (nes-tetris.md section 2).
pub const MINOS: [[(i8, i8); 4]; 19] = [
    [(-1, 0), (0, 0), (1, 0), (0, -1)],
    [(0, -1), (0, 0), (1, 0), (0, 1)],
    [(-1, 0), (0, 0), (1, 0), (0, 1)],
    [(0, -1), (-1, 0), (0, 0), (0, 1)],
    [(0, -1), (0, 0), (-1, 1), (0, 1)],
    [(-1, -1), (-1, 0), (0, 0), (1, 0)],
    [(0, -1), (1, -1), (0, 0), (0, 1)],
    [(-1, 0), (0, 0), (1, 0), (1, 1)],
    [(-1, 0), (0, 0), (0, 1), (1, 1)],
    [(1, -1), (0, 0), (1, 0), (0, 1)],
    [(-1, 0), (0, 0), (-1, 1), (0, 1)],
    [(0, 0), (1, 0), (-1, 1), (0, 1)],
    [(0, -1), (0, 0), (1, 0), (1, 1)],
    [(0, -1), (0, 0), (0, 1), (1, 1)],
    [(-1, 0), (0, 0), (1, 0), (-1, 1)],
    [(-1, -1), (0, -1), (0, 0), (0, 1)],
    [(1, -1), (-1, 0), (0, 0), (1, 0)],
    [(0, -2), (0, -1), (0, 0), (0, 1)],
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],
];

/// A turns clockwise, B counter-clockwise; no wall kicks.
pub const ROT_CW: [u8; 19] = [1, 2, 3, 0, 5, 6, 7, 4, 9, 8, 10, 12, 11, 14, 15, 16, 13, 18, 17];
pub const ROT_CCW: [u8; 19] = [3, 0, 1, 2, 7, 4, 5, 6, 9, 8, 10, 12, 11, 16, 13, 14, 15, 18, 17];

/// The spawn orientation of T, J, Z, O, S, L, I.
pub const SPAWN: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];

/// framesPerDropTable for levels 0-28; 29 and up drop every frame.
const SPEED: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Frames per row at `level`.
pub fn speed(level: u8) -> u8 {
    SPEED.get(usize::from(level)).copied().unwrap_or(1)
}

/// Which of T, J, Z, O, S, L, I an orientation belongs to.
pub fn piece_of(o: u8) -> usize {
    const TYPE: [u8; 19] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6];
    usize::from(TYPE[usize::from(o) % 19])
}

/// The field: 22 rows of 10 bits (bit c = column c), index 0 = row -2. The two hidden rows above
/// the top are real storage (the NES's page wrap): a lock writes into them and line clears do
/// not move them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    pub rows: [u16; 22],
}

pub const FULL: u16 = 0x3FF;

impl Board {
    /// Row `r` (-2..=19), or a full row outside.
    #[inline]
    pub fn row(&self, r: i8) -> u16 {
        if (-2..20).contains(&r) {
            self.rows[(r + 2) as usize]
        } else {
            FULL
        }
    }

    #[inline]
    pub fn filled(&self, col: i8, row: i8) -> bool {
        !(0..10).contains(&col) || self.row(row) & (1 << col) != 0
    }

    /// Is orientation `o` with its pivot at (x, y) free (inside the walls, above the floor,
    /// rows -2 and below)?
    #[inline]
    pub fn fits(&self, o: u8, x: i8, y: i8) -> bool {
        MINOS[usize::from(o)]
            .iter()
            .all(|&(dx, dy)| !self.filled(x + dx, y + dy))
    }

    /// Writes the piece into the field and removes full rows (0-19); returns the rows cleared.
    pub fn lock(&mut self, o: u8, x: i8, y: i8) -> u8 {
        for &(dx, dy) in &MINOS[usize::from(o)] {
            let (c, r) = (x + dx, y + dy);
            if (0..10).contains(&c) && (-2..20).contains(&r) {
                self.rows[(r + 2) as usize] |= 1 << c;
            }
        }
        self.clear_rows()
    }

    /// Removes the full rows among rows 0-19: the rows above move down, row 0 empties.
    pub fn clear_rows(&mut self) -> u8 {
        let mut n = 0;
        let mut dst = 21;
        for src in (2..22).rev() {
            if self.rows[src] == FULL {
                n += 1;
            } else {
                self.rows[dst] = self.rows[src];
                dst -= 1;
            }
        }
        for r in 2..=dst {
            self.rows[r] = 0;
        }
        n
    }

    /// Reads the game's 256-byte playfield page (cell (r, c) at r*10+c; rows -2 and -1 at 236
    /// and 246; non-zero = filled).
    pub fn from_page(page: &[u8]) -> Board {
        let mut b = Board::default();
        for r in -2i16..20 {
            let base = if r < 0 { 256 + r * 10 } else { r * 10 } as usize;
            let mut bits = 0;
            for c in 0..10 {
                if page[base + c] != 0 {
                    bits |= 1 << c;
                }
            }
            b.rows[(r + 2) as usize] = bits;
        }
        b
    }

    /// Column heights (rows 0-19 only: 0 = empty column, 20 = full).
    pub fn heights(&self) -> [u8; 10] {
        let mut h = [0u8; 10];
        for (c, hc) in h.iter_mut().enumerate() {
            for r in 0..20 {
                if self.rows[r + 2] & (1 << c) != 0 {
                    *hc = 20 - r as u8;
                    break;
                }
            }
        }
        h
    }
}

/// Lines, level and score as the game counts them (score.asm): one line at a time with a level-up
/// test after each (the BCD bug: lines/10 in BCD read as binary), then (level + 1) times the
/// points of the clear, capped at 999,999.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    pub lines: u32,
    pub level: u8,
    pub score: u32,
}

pub const POINTS: [u32; 5] = [0, 40, 100, 300, 1200];
pub const MAX_SCORE: u32 = 999_999;

impl Tally {
    pub fn new(level: u8) -> Tally {
        Tally {
            lines: 0,
            level,
            score: 0,
        }
    }

    /// Counts a lock that cleared `cleared` rows after `hold_down` soft-drop rows were counted.
    pub fn add(&mut self, cleared: u8, hold_down: u8) {
        for _ in 0..cleared {
            self.lines += 1;
            if self.lines.is_multiple_of(10) {
                // The BCD value of lines / 10 read as a binary byte (score.asm: the hundreds
                // digit shifted up four bits, the tens digit below it).
                let t = (self.lines / 10 % 10) | ((self.lines / 100 % 10) << 4);
                if u32::from(self.level) < t {
                    self.level = self.level.wrapping_add(1);
                }
            }
        }
        self.add_hold_down(hold_down);
        self.score =
            (self.score + POINTS[usize::from(cleared.min(4))] * (u32::from(self.level) + 1)).min(MAX_SCORE);
    }

    /// The soft-drop points with the game's BCD bug on the low byte (score.asm `add_hold_down`).
    fn add_hold_down(&mut self, hold_down: u8) {
        if hold_down < 2 || self.score >= MAX_SCORE {
            return;
        }
        let low = self.score % 100;
        let mut byte = (((low / 10) << 4) | (low % 10)) + u32::from(hold_down - 1);
        if byte & 0x0F >= 0x0A {
            byte += 6;
        }
        let mut carry = 0;
        if byte >= 0xA0 {
            byte = (byte & 0xF0) + 0x60;
            carry = 1;
        }
        let byte = byte & 0xFF;
        let digits = (byte >> 4) * 10 + (byte & 0x0F);
        self.score = (self.score / 100 + carry) * 100 + digits;
        self.score = self.score.min(MAX_SCORE);
    }
}

/// The game's random number generator and piece selection (rng.asm): the 16-bit LFSR and
/// `pick`, with its reroll.
#[derive(Clone, Copy, Debug)]
pub struct Rng {
    pub seed: u16,
    pub spawn_count: u8,
    pub spawn_id: u8,
}

impl Rng {
    pub fn step(&mut self) {
        let s = self.seed;
        let fb = ((s >> 9) ^ (s >> 1)) & 1;
        self.seed = (fb << 15) | (s >> 1);
    }

    /// The next piece's spawn orientation.
    pub fn pick(&mut self) -> u8 {
        self.spawn_count = (self.spawn_count + 1) & 7;
        let i = ((self.seed >> 8) as u8).wrapping_add(self.spawn_count) & 7;
        if i != 7 && SPAWN[usize::from(i)] != self.spawn_id {
            self.spawn_id = SPAWN[usize::from(i)];
            return self.spawn_id;
        }
        self.step();
        let i = (usize::from((self.seed >> 8) as u8 & 7) + usize::from(self.spawn_id)) % 7;
        self.spawn_id = SPAWN[i];
        self.spawn_id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_tables_are_inverse_and_keep_the_piece() {
        for o in 0..19u8 {
            assert_eq!(ROT_CCW[usize::from(ROT_CW[usize::from(o)])], o);
            assert_eq!(piece_of(ROT_CW[usize::from(o)]), piece_of(o));
        }
    }

    #[test]
    fn clears_move_rows_down_and_leave_the_hidden_rows() {
        let mut b = Board::default();
        b.rows[21] = FULL & !0b11;
        b.rows[20] = 0b100;
        b.rows[0] = 1;
        // The O at pivot (1, 18) fills columns 0-1 of rows 18 and 19.
        assert_eq!(b.lock(10, 1, 18), 1);
        assert_eq!(b.rows[21], 0b111);
        assert_eq!(b.rows[0], 1, "row -2 stays");
        assert_eq!(b.rows[2], 0);
    }

    #[test]
    fn level_ups_follow_the_bcd_bug_and_points_cap() {
        let mut t = Tally::new(19);
        for _ in 0..130 {
            t.add(1, 0);
        }
        assert_eq!(t.level, 19, "lines 130 read as $13 = 19: no level-up yet");
        for _ in 0..10 {
            t.add(1, 0);
        }
        assert_eq!((t.lines, t.level), (140, 20));
        let mut t = Tally::new(0);
        t.add(0, 15);
        assert_eq!(t.score, 14);
        t.score = 19;
        t.add(0, 15);
        assert_eq!(t.score, 27, "the nes-tetris.md example: $19 + 14 gives $27");
        let mut t = Tally::new(29);
        t.score = 990_000;
        t.add(4, 0);
        assert_eq!(t.score, MAX_SCORE);
    }

    #[test]
    fn rng_starts_as_the_sheet_says() {
        let mut r = Rng {
            seed: 0x8988,
            spawn_count: 0,
            spawn_id: 0,
        };
        let mut seen = vec![];
        for _ in 0..8 {
            seen.push(r.seed);
            r.step();
        }
        assert_eq!(
            seen,
            [0x8988, 0x44C4, 0x2262, 0x1131, 0x0898, 0x044C, 0x0226, 0x0113]
        );
    }
}
