//! A Rust model of the rules the Z80 routines implement, written from the slides
//! (shared/seeds/003_9b04d42a44da3aa5.txt), for the tests to compare against.

use super::harness::Size;

/// A board: `cells[y * w + x]`, row 0 on top, 0 empty, 1 or 2 a player's piece (the Z80 layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub size: Size,
    pub cells: Vec<u8>,
}

impl Board {
    pub fn new(size: Size) -> Board {
        Board {
            size,
            cells: vec![0; size.w * size.h],
        }
    }

    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.size.w + x]
    }

    pub fn set(&mut self, x: usize, y: usize, v: u8) {
        self.cells[y * self.size.w + x] = v;
    }

    /// The row a piece dropped into column `x` lands in, if the column has room.
    pub fn landing_row(&self, x: usize) -> Option<usize> {
        (0..self.size.h).rev().find(|&y| self.get(x, y) == 0)
    }

    /// Drops `player`'s piece into column `x`; returns its row.
    pub fn drop(&mut self, x: usize, player: u8) -> Option<usize> {
        let y = self.landing_row(x)?;
        self.set(x, y, player);
        Some(y)
    }

    pub fn full(&self) -> bool {
        (0..self.size.w).all(|x| self.get(x, 0) != 0)
    }

    /// checkSemiDiagonal: the player's pieces after (x,y) in direction (dx,dy), up to the first
    /// slot that is off the board, empty or the other player's.
    pub fn semi(&self, x: usize, y: usize, dx: i32, dy: i32, player: u8) -> usize {
        let (mut x, mut y) = (x as i32, y as i32);
        let mut n = 0;
        loop {
            x += dx;
            y += dy;
            if x < 0 || y < 0 || x >= self.size.w as i32 || y >= self.size.h as i32 {
                return n;
            }
            if self.get(x as usize, y as usize) != player {
                return n;
            }
            n += 1;
        }
    }

    /// checkDiagonal: the length of the player's line through (x,y) along (dx,dy).
    pub fn line(&self, x: usize, y: usize, dx: i32, dy: i32, player: u8) -> usize {
        self.semi(x, y, dx, dy, player) + self.semi(x, y, -dx, -dy, player) + 1
    }

    /// checkHorizontalN as the slides define it: WINSIZE consecutive pieces anywhere in row y.
    pub fn horizontal(&self, y: usize, player: u8) -> bool {
        let mut run = 0;
        for x in 0..self.size.w {
            run = if self.get(x, y) == player { run + 1 } else { 0 };
            if run >= self.size.n {
                return true;
            }
        }
        false
    }

    /// checkVerticalN: (x,y) is the top of its column, so the line is the WINSIZE slots from y down.
    pub fn vertical(&self, x: usize, y: usize, player: u8) -> bool {
        y + self.size.n <= self.size.h && (y..y + self.size.n).all(|yy| self.get(x, yy) == player)
    }

    /// checkDiagonals: either diagonal through (x,y).
    pub fn diagonals(&self, x: usize, y: usize, player: u8) -> bool {
        self.line(x, y, 1, 1, player) >= self.size.n || self.line(x, y, 1, -1, player) >= self.size.n
    }

    /// The slots of the longest line of the player's pieces through (x,y), the piece at (x,y)
    /// included (the first of equals in the order horizontal, vertical, the two diagonals), if
    /// it has WINSIZE or more; empty if not. The game flashes these.
    pub fn line_cells(&self, x: usize, y: usize, player: u8) -> Vec<(usize, usize)> {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
        let len = |&(dx, dy): &(i32, i32)| self.line(x, y, dx, dy, player);
        let best = dirs.iter().rev().max_by_key(|d| len(d)).copied().unwrap();
        let n = len(&best);
        if n < self.size.n {
            return vec![];
        }
        let (dx, dy) = best;
        let back = self.semi(x, y, -dx, -dy, player) as i32;
        let (x0, y0) = (x as i32 - back * dx, y as i32 - back * dy);
        (0..n as i32)
            .map(|k| ((x0 + k * dx) as usize, (y0 + k * dy) as usize))
            .collect()
    }

    /// The rule of the game: WINSIZE in a row, in any direction, through the piece at (x,y).
    pub fn wins_through(&self, x: usize, y: usize, player: u8) -> bool {
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dx, dy)| self.line(x, y, dx, dy, player) >= self.size.n)
    }
}

/// Every winning line of a board: its WINSIZE cells, in order along the line.
pub fn winning_lines(size: Size) -> Vec<Vec<(usize, usize)>> {
    let mut lines = Vec::new();
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for y in 0..size.h as i32 {
            for x in 0..size.w as i32 {
                let cells: Vec<(i32, i32)> = (0..size.n as i32).map(|k| (x + k * dx, y + k * dy)).collect();
                if cells
                    .iter()
                    .all(|&(cx, cy)| cx >= 0 && cy >= 0 && cx < size.w as i32 && cy < size.h as i32)
                {
                    lines.push(cells.iter().map(|&(cx, cy)| (cx as usize, cy as usize)).collect());
                }
            }
        }
    }
    lines
}
