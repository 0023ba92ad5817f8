//! The terminal's keys as the C64's: the PETSCII a key types into the keyboard buffer, and where
//! it sits in the keyboard matrix (the code PEEK(197) shows while it is held, 64 for none) with
//! the SHIFT or Commodore key it needs (PEEK(653): 1 SHIFT, 2 Commodore, 4 CTRL).
//!
//! | terminal | C64 |
//! |---|---|
//! | a-z | the letters (upper case on the power-on screen) |
//! | A-Z (with Shift) | SHIFT + letter: the graphics of the upper case set, capitals in the lower case set |
//! | digits, punctuation | the same characters (`!` is SHIFT+1, `[` SHIFT+: ...); `\` is £, `^` is ↑, `_` is ←, `~` is π |
//! | Return | RETURN |
//! | arrows | CRSR up, down, left, right |
//! | Backspace | INST/DEL (DEL) |
//! | Delete | SHIFT+INST/DEL (INST) |
//! | Home / End | CLR/HOME (HOME) / SHIFT+CLR/HOME (CLR) |
//! | F1-F8 | F1-F8 (PETSCII 133-140) |
//! | Alt + a letter, `+ - @ * \ £` | Commodore + that key: the graphics on the keys' fronts (left side) |
//! | Alt + 1-8 | Commodore + 1-8: the colours orange to light grey (PETSCII 129, 149-155) |
//! | Escape | RUN/STOP |
//! | Page Up | RUN/STOP + RESTORE (the machine handles it; RESTORE alone does nothing to BASIC) |

use retro_machine::Key;

use crate::petcat;

/// No key held (LSTX after the keyboard scan found nothing).
pub const NO_KEY: u8 = 64;
/// The RUN/STOP key's matrix code.
pub const RUN_STOP: u8 = 63;

/// The PETSCII byte `key` types, or None for keys the C64 has no equivalent of.
pub fn typed(key: Key) -> Option<u8> {
    Some(match key {
        Key::Char(c @ 'a'..='z') => c as u8 - 0x20,
        Key::Char(c @ 'A'..='Z') => c as u8 + 0x80,
        Key::Char('\\' | '£') => 0x5C,
        Key::Char('^' | '↑') => 0x5E,
        Key::Char('_' | '←') => 0x5F,
        Key::Char('~' | 'π') => 0xFF,
        Key::Char(c @ ' '..='@') => c as u8,
        Key::Char(c @ ('[' | ']')) => c as u8,
        Key::Return => 13,
        Key::Left => 157,
        Key::Right => 29,
        Key::Up => 145,
        Key::Down => 17,
        Key::Backspace => 20,
        Key::Delete => 148,
        Key::Home => 19,
        Key::End => 147,
        Key::F(n @ 1..=8) => [133, 137, 134, 138, 135, 139, 136, 140][n as usize - 1],
        Key::Alt(c) => return commodore(c),
        _ => return None,
    })
}

/// What the Commodore key with `c` types: the left-hand graphic on the key's front (the
/// KERNAL's Commodore decode table, which petcat's `{CBM-x}` names follow), or for 1-8 the
/// colours 8-15 (reference sheet 4.6: orange 129, brown 149 ... light grey 155).
fn commodore(c: char) -> Option<u8> {
    let name = match c {
        '1'..='8' => return Some([129, 149, 150, 151, 152, 153, 154, 155][c as usize - '1' as usize]),
        '\\' | '£' => "POUND".to_string(),
        c if c.is_ascii_alphabetic() || "+-@*".contains(c) => c.to_ascii_uppercase().to_string(),
        _ => return None,
    };
    petcat::escape_byte(&format!("CBM-{name}"))
}

/// Matrix codes of the letters A-Z.
const LETTERS: [u8; 26] = [
    10, 28, 20, 18, 14, 21, 26, 29, 33, 34, 37, 42, 36, 39, 38, 41, 62, 17, 13, 22, 30, 31, 9, 23, 25, 12,
];
/// Matrix codes of the digits 0-9.
const DIGITS: [u8; 10] = [35, 56, 59, 8, 11, 16, 19, 24, 27, 32];

/// SHFLAG's bits for the SHIFT and Commodore keys.
const SHIFT: u8 = 1;
const COMMODORE: u8 = 2;

/// Where `key` is in the keyboard matrix, and the SHIFT and Commodore keys held with it
/// (SHFLAG's bits).
pub fn matrix(key: Key) -> Option<(u8, u8)> {
    if let Key::Alt(c) = key {
        let (code, _) = matrix(Key::Char(c.to_ascii_lowercase()))?;
        return Some((code, COMMODORE));
    }
    let (code, shifted) = match key {
        Key::Char(c @ 'a'..='z') => (LETTERS[(c as u8 - b'a') as usize], false),
        Key::Char(c @ 'A'..='Z') => (LETTERS[(c as u8 - b'A') as usize], true),
        Key::Char(c @ '0'..='9') => (DIGITS[(c as u8 - b'0') as usize], false),
        Key::Char(c @ '!'..=')') => (DIGITS[(c as u8 - b'!' + 1) as usize], true),
        Key::Char('+') => (40, false),
        Key::Char('-') => (43, false),
        Key::Char('.') => (44, false),
        Key::Char('>') => (44, true),
        Key::Char(':') => (45, false),
        Key::Char('[') => (45, true),
        Key::Char('@') => (46, false),
        Key::Char(',') => (47, false),
        Key::Char('<') => (47, true),
        Key::Char('\\' | '£') => (48, false),
        Key::Char('*') => (49, false),
        Key::Char(';') => (50, false),
        Key::Char(']') => (50, true),
        Key::Char('=') => (53, false),
        Key::Char('^' | '↑') => (54, false),
        Key::Char('~' | 'π') => (54, true),
        Key::Char('/') => (55, false),
        Key::Char('?') => (55, true),
        Key::Char('_' | '←') => (57, false),
        Key::Char(' ') => (60, false),
        Key::Backspace => (0, false),
        Key::Delete => (0, true),
        Key::Return => (1, false),
        Key::Right => (2, false),
        Key::Left => (2, true),
        Key::Down => (7, false),
        Key::Up => (7, true),
        Key::F(1) => (4, false),
        Key::F(2) => (4, true),
        Key::F(3) => (5, false),
        Key::F(4) => (5, true),
        Key::F(5) => (6, false),
        Key::F(6) => (6, true),
        Key::F(7) => (3, false),
        Key::F(8) => (3, true),
        Key::Home => (51, false),
        Key::End => (51, true),
        Key::Escape => (RUN_STOP, false),
        _ => return None,
    };
    Some((code, if shifted { SHIFT } else { 0 }))
}

/// PEEK(197) and PEEK(653) for the keys held now: the matrix code of one held key (the last
/// in key order, as the KERNAL's scan keeps the last it finds) and the SHIFT flag.
pub fn scan(held: &[Key]) -> (u8, u8) {
    let mut code = NO_KEY;
    let mut shift = 0;
    for &k in held {
        if let Some((c, s)) = matrix(k) {
            code = c;
            shift |= s;
        }
    }
    (code, shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_type_petscii() {
        assert_eq!(typed(Key::Char('a')), Some(65));
        assert_eq!(typed(Key::Char('A')), Some(193));
        assert_eq!(typed(Key::Char('1')), Some(49));
        assert_eq!(typed(Key::Char('"')), Some(34));
        assert_eq!(typed(Key::Char('~')), Some(255));
        assert_eq!(typed(Key::Char('{')), None);
        // Reference sheet 4.6: F1=133, F3=134, F5=135, F7=136, F2=137, F4=138, F6=139, F8=140.
        let f: Vec<_> = (1..=8).map(|n| typed(Key::F(n)).unwrap()).collect();
        assert_eq!(f, vec![133, 137, 134, 138, 135, 139, 136, 140]);
        // Cursor keys as GET returns them: right 29, left 157, down 17, up 145; DEL 20, HOME 19.
        assert_eq!(typed(Key::Right), Some(29));
        assert_eq!(typed(Key::Left), Some(157));
        assert_eq!(typed(Key::Down), Some(17));
        assert_eq!(typed(Key::Up), Some(145));
        assert_eq!(typed(Key::Backspace), Some(20));
        assert_eq!(typed(Key::Home), Some(19));
        assert_eq!(typed(Key::End), Some(147));
        assert_eq!(typed(Key::Escape), None);
    }

    #[test]
    fn the_commodore_key_types_the_graphics_on_the_keys_fronts() {
        // The pairs petcat's listing of baba.bas and the reference sheet name: {CBM-B} 191,
        // {CBM-D} 172, {CBM-E} 177, {CBM-F} 187, {CBM-R} 178, {CBM-U} 184, {CBM-Y} 183.
        for (c, b) in [
            ('b', 191),
            ('d', 172),
            ('e', 177),
            ('f', 187),
            ('r', 178),
            ('u', 184),
            ('y', 183),
        ] {
            assert_eq!(typed(Key::Alt(c)), Some(b), "{c}");
            assert_eq!(typed(Key::Alt(c.to_ascii_uppercase())), Some(b), "{c}");
        }
        assert_eq!(typed(Key::Alt('a')), Some(176));
        assert_eq!(typed(Key::Alt('+')), Some(166));
        assert_eq!(typed(Key::Alt('-')), Some(220));
        assert_eq!(typed(Key::Alt('*')), Some(223));
        assert_eq!(typed(Key::Alt('@')), Some(164));
        assert_eq!(typed(Key::Alt('£')), Some(168));
        assert_eq!(typed(Key::Alt('1')), Some(129));
        assert_eq!(typed(Key::Alt('8')), Some(155));
        assert_eq!(typed(Key::Alt('9')), None);
        assert_eq!(typed(Key::Alt('{')), None);
        // Held, the Commodore key sets bit 2 of SHFLAG.
        assert_eq!(scan(&[Key::Alt('a')]), (10, 2));
    }

    #[test]
    fn held_keys_scan_to_matrix_codes() {
        assert_eq!(scan(&[]), (64, 0));
        assert_eq!(scan(&[Key::Char('a')]), (10, 0));
        assert_eq!(scan(&[Key::Char('A')]), (10, 1));
        assert_eq!(scan(&[Key::Char(' ')]), (60, 0));
        assert_eq!(scan(&[Key::F(1)]), (4, 0));
        assert_eq!(scan(&[Key::Escape]), (63, 0));
        assert_eq!(scan(&[Key::Char('!')]), (56, 1));
        // Every letter and digit has its own code.
        let mut codes: Vec<u8> = LETTERS.iter().chain(DIGITS.iter()).copied().collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 36);
    }
}
