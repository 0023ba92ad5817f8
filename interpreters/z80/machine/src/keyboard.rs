//! The Spectrum keyboard: 40 keys in eight half-rows of five, and the map from the terminal's keys
//! (docs/z80-machine.md has the same table for users).

use retro_machine::Key;

/// The half-rows, in the order of the address line that selects them (A8 first); each lists its
/// keys from bit 0 to bit 4. `CS` is CAPS SHIFT, `SS` SYMBOL SHIFT, `EN` ENTER, `SP` SPACE.
pub const HALF_ROWS: [[&str; 5]; 8] = [
    ["CS", "Z", "X", "C", "V"],
    ["A", "S", "D", "F", "G"],
    ["Q", "W", "E", "R", "T"],
    ["1", "2", "3", "4", "5"],
    ["0", "9", "8", "7", "6"],
    ["P", "O", "I", "U", "Y"],
    ["EN", "L", "K", "J", "H"],
    ["SP", "SS", "M", "N", "B"],
];

const CAPS_SHIFT: (usize, u8) = (0, 0);
const SYMBOL_SHIFT: (usize, u8) = (7, 1);

/// The keys held down: bit n of row r set when the key at bit n of half-row r is down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Matrix {
    pub rows: [u8; 8],
}

impl Matrix {
    /// What `IN` reads with `high` on A8-A15: the half-rows whose address line is 0 are wired
    /// together, so a key down in any selected row pulls its bit to 0.
    pub fn read(&self, high: u8) -> u8 {
        let mut down = 0;
        for (r, row) in self.rows.iter().enumerate() {
            if high & (1 << r) == 0 {
                down |= row;
            }
        }
        !down & 0x1F
    }

    /// The matrix with every key of `keys` held.
    pub fn from_keys(keys: &[Key]) -> Matrix {
        let mut m = Matrix::default();
        for &k in keys {
            for (row, bit) in spectrum_keys(k) {
                m.rows[row] |= 1 << bit;
            }
        }
        m
    }
}

fn position(name: &str) -> Option<(usize, u8)> {
    HALF_ROWS.iter().enumerate().find_map(|(r, row)| {
        row.iter()
            .position(|k| k.eq_ignore_ascii_case(name))
            .map(|b| (r, b as u8))
    })
}

/// The Spectrum keys a terminal key holds down. Letters of either case and digits are their own
/// key; RETURN is ENTER, SPACE is SPACE; the arrows are the Spectrum's cursor keys (CAPS SHIFT
/// with 5, 6, 7, 8), BACKSPACE is DELETE (CAPS SHIFT 0) and ESCAPE is BREAK (CAPS SHIFT SPACE);
/// TAB is SYMBOL SHIFT. Other keys hold nothing.
pub fn spectrum_keys(key: Key) -> Vec<(usize, u8)> {
    let with_caps = |name: &str| position(name).into_iter().chain([CAPS_SHIFT]).collect();
    match key {
        Key::Char(' ') => position("SP").into_iter().collect(),
        Key::Char(c) if c.is_ascii_alphanumeric() => position(&c.to_string()).into_iter().collect(),
        Key::Return => position("EN").into_iter().collect(),
        Key::Left => with_caps("5"),
        Key::Down => with_caps("6"),
        Key::Up => with_caps("7"),
        Key::Right => with_caps("8"),
        Key::Backspace | Key::Delete => with_caps("0"),
        Key::Escape => with_caps("SP"),
        Key::Tab => vec![SYMBOL_SHIFT],
        _ => vec![],
    }
}

/// The controller byte (ports::PAD_PARALLEL's bit order) for the held keys: the PAD-A/PAD-B/
/// START/SELECT script keys and the arrow keys.
pub fn pad_byte(keys: &[Key]) -> u8 {
    keys.iter().fold(0, |b, k| {
        b | match k {
            Key::PadA => 1,
            Key::PadB => 2,
            Key::PadSelect => 4,
            Key::PadStart => 8,
            Key::Up => 16,
            Key::Down => 32,
            Key::Left => 64,
            Key::Right => 128,
            _ => 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rows_select_by_zero_address_bits() {
        let m = Matrix::from_keys(&[Key::Char('q'), Key::Char('T')]);
        assert_eq!(m.read(0xFB), 0b0_1110, "Q is bit 0 of the QWERT row");
        assert_eq!(m.read(0xFB) & 0x10, 0, "T is bit 4");
        assert_eq!(m.read(0xFD), 0x1F, "ASDFG row: nothing down");
        assert_eq!(m.read(0x00), 0b0_1110, "all rows selected");
    }

    #[test]
    fn arrows_are_caps_shift_digits() {
        let m = Matrix::from_keys(&[Key::Left]);
        assert_eq!(m.read(0xFE), 0x1E, "CAPS SHIFT");
        assert_eq!(m.read(0xF7), 0x0F, "5 is bit 4 of 1-5");
        assert_eq!(pad_byte(&[Key::Left, Key::PadA]), 0x41);
    }
}
