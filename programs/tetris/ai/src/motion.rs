//! One frame of a falling piece, exactly as play.asm's `move_piece` runs it (nes-tetris.md
//! sections 4 and 5): `fall` counts, then shift (DAS), rotate (no kicks), drop (the first
//! piece's hang, soft drop, gravity; a failed drop locks). The search plans with it, and
//! `tests/rules_model.rs` checks it frame by frame against the oracle's traces.

use crate::rules::{Board, DOWN, LEFT, RIGHT, ROT_CCW, ROT_CW, UP, speed};

/// The falling piece's state: the game's `piece`, `piece_x`, `piece_y`, `fall`, `shift_ar`,
/// `drop_ar`, `hold_down`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Motion {
    pub o: u8,
    pub x: i8,
    pub y: i8,
    pub fall: u8,
    pub shift_ar: u8,
    pub drop_ar: i8,
    pub hold_down: u8,
}

impl Motion {
    /// A piece as `spawn_piece` leaves it (the DAS counter carries over).
    pub fn spawn(o: u8, shift_ar: u8) -> Motion {
        Motion {
            o,
            x: 5,
            y: 0,
            fall: 0,
            shift_ar,
            drop_ar: 0,
            hold_down: 0,
        }
    }

    /// One frame with buttons `pad` (and `prev`, the previous frame's). True when the piece
    /// locked (its place is then where it stays).
    pub fn step(&mut self, board: &Board, level: u8, pad: u8, prev: u8) -> bool {
        let pressed = pad & !prev;
        self.fall = self.fall.wrapping_add(1);
        self.shift(board, pad, pressed);
        self.rotate(board, pressed);
        self.drop(board, level, pad, pressed)
    }

    fn shift(&mut self, board: &Board, pad: u8, pressed: u8) {
        if pad & DOWN != 0 || pad & (LEFT | RIGHT) == 0 {
            return;
        }
        if pressed & (LEFT | RIGHT) != 0 {
            self.shift_ar = 15;
        } else if self.shift_ar != 0 {
            self.shift_ar -= 1;
            return;
        } else {
            self.shift_ar = 5;
        }
        let x = if pad & RIGHT != 0 { self.x + 1 } else { self.x - 1 };
        if board.fits(self.o, x, self.y) {
            self.x = x;
        } else {
            self.shift_ar = 0; // charged: a blocked move is retried on every held frame
        }
    }

    fn rotate(&mut self, board: &Board, pressed: u8) {
        let o = if pressed & crate::rules::A != 0 {
            ROT_CW[usize::from(self.o)]
        } else if pressed & crate::rules::B != 0 {
            ROT_CCW[usize::from(self.o)]
        } else {
            return;
        };
        if board.fits(o, self.x, self.y) {
            self.o = o;
        }
    }

    fn drop(&mut self, board: &Board, level: u8, pad: u8, pressed: u8) -> bool {
        if self.drop_ar < 0 {
            if pressed & DOWN == 0 {
                self.drop_ar += 1;
                return false;
            }
            self.drop_ar = 0;
        }
        if self.drop_ar == 0 {
            if pressed & (DOWN | UP) == DOWN && pad & (LEFT | RIGHT) == 0 {
                self.drop_ar = 1;
            }
        } else if pad & (DOWN | UP | LEFT | RIGHT) == DOWN {
            self.drop_ar += 1;
            if self.drop_ar >= 3 {
                self.drop_ar = 1;
                self.hold_down = self.hold_down.wrapping_add(1);
                return self.fall_one(board);
            }
        } else {
            self.drop_ar = 0;
            self.hold_down = 0;
        }
        if self.fall < speed(level) {
            return false;
        }
        self.fall_one(board)
    }

    fn fall_one(&mut self, board: &Board) -> bool {
        self.fall = 0;
        if board.fits(self.o, self.x, self.y + 1) {
            self.y += 1;
            false
        } else {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_direction_moves_on_the_press_then_after_16_frames_then_every_6() {
        let board = Board::default();
        let mut m = Motion::spawn(17, 0); // I vertical, column 5
        m.drop_ar = -96; // hanging: no gravity to get in the way
        let mut moves = vec![];
        let mut prev = 0;
        for f in 0..30 {
            let x = m.x;
            m.step(&board, 0, RIGHT, prev);
            prev = RIGHT;
            if m.x != x {
                moves.push(f);
            }
        }
        assert_eq!(moves, [0, 16, 22, 28]);
    }

    #[test]
    fn gravity_at_level_19_drops_every_other_frame_and_29_every_frame() {
        let board = Board::default();
        for (level, rows) in [(19, 5), (29, 10)] {
            let mut m = Motion::spawn(18, 0);
            for _ in 0..10 {
                assert!(!m.step(&board, level, 0, 0));
            }
            assert_eq!(m.y, rows, "level {level}");
        }
    }

    #[test]
    fn soft_drop_is_a_row_every_two_frames_counted_in_hold_down() {
        let board = Board::default();
        let mut m = Motion::spawn(18, 0);
        let mut prev = 0;
        for _ in 0..9 {
            m.step(&board, 0, DOWN, prev);
            prev = DOWN;
        }
        assert_eq!((m.y, m.hold_down), (4, 4));
    }
}
