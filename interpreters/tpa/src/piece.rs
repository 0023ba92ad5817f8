//! The seven tetrominoes and their 19 orientations, numbered as NES Tetris numbers them (so a Z80
//! printer that reuses the NES tables can play our sequences as they are).
//!
//! Offsets are NES-style (dx, dy) around the pivot cell with y pointing **down** (see
//! ../shared/reference/nes-tetris.md, section 2). The field in [`crate::field`] counts rows upwards,
//! so a mino at dy lies in field row `pivot_row - dy`.

/// A tetromino kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    T,
    J,
    Z,
    O,
    S,
    L,
    I,
}

impl Piece {
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// The letter used in files.
    pub fn letter(self) -> char {
        match self {
            Piece::T => 'T',
            Piece::J => 'J',
            Piece::Z => 'Z',
            Piece::O => 'O',
            Piece::S => 'S',
            Piece::L => 'L',
            Piece::I => 'I',
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    /// The orientation a new piece appears in (NES `spawnTable`).
    pub fn spawn(self) -> Orientation {
        Orientation(match self {
            Piece::T => 0x02,
            Piece::J => 0x07,
            Piece::Z => 0x08,
            Piece::O => 0x0A,
            Piece::S => 0x0B,
            Piece::L => 0x0E,
            Piece::I => 0x12,
        })
    }

    /// The piece's orientations in clockwise order (NES button A), starting anywhere in the cycle.
    pub fn cycle(self) -> &'static [u8] {
        match self {
            Piece::T => &[0x00, 0x01, 0x02, 0x03],
            Piece::J => &[0x04, 0x05, 0x06, 0x07],
            Piece::Z => &[0x08, 0x09],
            Piece::O => &[0x0A],
            Piece::S => &[0x0B, 0x0C],
            Piece::L => &[0x0D, 0x0E, 0x0F, 0x10],
            Piece::I => &[0x11, 0x12],
        }
    }

    /// The mirror-image piece (J and L swap, S and Z swap).
    pub fn mirror(self) -> Piece {
        match self {
            Piece::J => Piece::L,
            Piece::L => Piece::J,
            Piece::S => Piece::Z,
            Piece::Z => Piece::S,
            p => p,
        }
    }
}

/// One of the 19 orientations, by its NES id (0x00..=0x12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation(pub u8);

/// Minos (dx, dy) with y down, per orientation id (NES `orientationTable`, derived in nes-tetris.md).
const MINOS: [[(i8, i8); 4]; 19] = [
    [(-1, 0), (0, 0), (1, 0), (0, -1)],  // 00 T up
    [(0, -1), (0, 0), (1, 0), (0, 1)],   // 01 T right
    [(-1, 0), (0, 0), (1, 0), (0, 1)],   // 02 T down (spawn)
    [(0, -1), (-1, 0), (0, 0), (0, 1)],  // 03 T left
    [(0, -1), (0, 0), (-1, 1), (0, 1)],  // 04 J left
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // 05 J up
    [(0, -1), (1, -1), (0, 0), (0, 1)],  // 06 J right
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // 07 J down (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // 08 Z horizontal (spawn)
    [(1, -1), (0, 0), (1, 0), (0, 1)],   // 09 Z vertical
    [(-1, 0), (0, 0), (-1, 1), (0, 1)],  // 0A O (spawn)
    [(0, 0), (1, 0), (-1, 1), (0, 1)],   // 0B S horizontal (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // 0C S vertical
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // 0D L right
    [(-1, 0), (0, 0), (1, 0), (-1, 1)],  // 0E L down (spawn)
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // 0F L left
    [(1, -1), (-1, 0), (0, 0), (1, 0)],  // 10 L up
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // 11 I vertical
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // 12 I horizontal (spawn)
];

impl Orientation {
    pub const COUNT: usize = 19;

    pub fn all() -> impl Iterator<Item = Orientation> {
        (0..Self::COUNT as u8).map(Orientation)
    }

    pub fn new(id: u8) -> Option<Orientation> {
        ((id as usize) < Self::COUNT).then_some(Orientation(id))
    }

    pub fn piece(self) -> Piece {
        match self.0 {
            0x00..=0x03 => Piece::T,
            0x04..=0x07 => Piece::J,
            0x08 | 0x09 => Piece::Z,
            0x0A => Piece::O,
            0x0B | 0x0C => Piece::S,
            0x0D..=0x10 => Piece::L,
            _ => Piece::I,
        }
    }

    /// The four minos as (dx, dy) with y pointing down, as in the NES tables.
    pub fn minos(self) -> [(i8, i8); 4] {
        MINOS[self.0 as usize]
    }

    /// The minos as (dx, up) with y pointing up, as the field counts rows.
    pub fn cells_up(self) -> [(i8, i8); 4] {
        self.minos().map(|(dx, dy)| (dx, -dy))
    }

    /// Leftmost and rightmost dx.
    pub fn x_span(self) -> (i8, i8) {
        let m = self.minos();
        (
            m.iter().map(|c| c.0).min().unwrap_or(0),
            m.iter().map(|c| c.0).max().unwrap_or(0),
        )
    }

    /// The orientation that is this one's mirror image, and the pivot shift that goes with it:
    /// mirroring a drop at pivot column x in a field of width w gives `(mirror, w - 1 - x + shift)`.
    pub fn mirror(self) -> (Orientation, i8) {
        let mut want: Vec<(i8, i8)> = self.minos().iter().map(|&(dx, dy)| (-dx, dy)).collect();
        want.sort_unstable();
        for &id in self.piece().mirror().cycle() {
            let o = Orientation(id);
            for shift in -2..=2i8 {
                let mut got: Vec<(i8, i8)> = o.minos().iter().map(|&(dx, dy)| (dx + shift, dy)).collect();
                got.sort_unstable();
                if got == want {
                    return (o, shift);
                }
            }
        }
        unreachable!("every orientation has a mirror image among its mirror piece's orientations")
    }
}

/// The shortest way from a piece's spawn orientation to `target`: clockwise (A) presses if
/// positive, counter-clockwise (B) presses if negative; ties go clockwise.
pub fn rotations_from_spawn(target: Orientation) -> i8 {
    let cycle = target.piece().cycle();
    let n = cycle.len() as i8;
    let pos = |id: u8| cycle.iter().position(|&c| c == id).unwrap_or(0) as i8;
    let cw = (pos(target.0) - pos(target.piece().spawn().0)).rem_euclid(n);
    if cw * 2 > n { cw - n } else { cw }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_orientations_of_seven_pieces_with_four_distinct_minos() {
        let mut per_piece = [0; 7];
        for o in Orientation::all() {
            let m = o.minos();
            for i in 0..4 {
                for j in i + 1..4 {
                    assert_ne!(m[i], m[j], "{o:?}");
                }
            }
            assert!(m.contains(&(0, 0)), "{o:?}: the pivot is a mino");
            per_piece[Piece::ALL.iter().position(|&p| p == o.piece()).unwrap()] += 1;
        }
        assert_eq!(per_piece, [4, 4, 2, 1, 2, 4, 2]);
    }

    #[test]
    fn spawn_orientations_are_the_nes_ones() {
        let spawns: Vec<u8> = Piece::ALL.iter().map(|p| p.spawn().0).collect();
        assert_eq!(spawns, vec![0x02, 0x07, 0x08, 0x0A, 0x0B, 0x0E, 0x12]);
        for p in Piece::ALL {
            assert_eq!(p.spawn().piece(), p);
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
        }
    }

    #[test]
    fn mirrors_are_involutions_and_swap_j_with_l() {
        for o in Orientation::all() {
            let (m, s) = o.mirror();
            assert_eq!(m.piece(), o.piece().mirror());
            let (back, s2) = m.mirror();
            assert_eq!(back, o);
            assert_eq!(s, s2, "{o:?}: mirroring twice puts the pivot back");
        }
        // J down (07: hook at the right, below) mirrors to L down (0E: hook at the left).
        assert_eq!(Orientation(0x07).mirror(), (Orientation(0x0E), 0));
    }

    #[test]
    fn rotation_counts_take_the_short_way() {
        assert_eq!(rotations_from_spawn(Orientation(0x02)), 0);
        assert_eq!(rotations_from_spawn(Orientation(0x03)), 1);
        assert_eq!(rotations_from_spawn(Orientation(0x01)), -1);
        assert_eq!(rotations_from_spawn(Orientation(0x00)), 2);
        assert_eq!(rotations_from_spawn(Orientation(0x11)), 1);
        assert_eq!(rotations_from_spawn(Orientation(0x0A)), 0);
    }
}
