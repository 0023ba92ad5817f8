//! The BASIC V2 keyword table in the ROM's order (RESLST at $A09E): token = $80 + index.
//!
//! Order matters twice: the cruncher takes the first keyword that matches (so `INPUT#` must come
//! before `INPUT`), and the token of each keyword is its position.

/// The keywords, token $80 first. `TAB(` and `SPC(` include their parenthesis.
pub const KEYWORDS: [&str; 76] = [
    "END", "FOR", "NEXT", "DATA", "INPUT#", "INPUT", "DIM", "READ", "LET", "GOTO", "RUN", "IF", "RESTORE",
    "GOSUB", "RETURN", "REM", "STOP", "ON", "WAIT", "LOAD", "SAVE", "VERIFY", "DEF", "POKE", "PRINT#",
    "PRINT", "CONT", "LIST", "CLR", "CMD", "SYS", "OPEN", "CLOSE", "GET", "NEW", "TAB(", "TO", "FN", "SPC(",
    "THEN", "NOT", "STEP", "+", "-", "*", "/", "^", "AND", "OR", ">", "=", "<", "SGN", "INT", "ABS", "USR",
    "FRE", "POS", "SQR", "RND", "LOG", "EXP", "COS", "SIN", "TAN", "ATN", "PEEK", "LEN", "STR$", "VAL",
    "ASC", "CHR$", "LEFT$", "RIGHT$", "MID$", "GO",
];

pub const END: u8 = 0x80;
pub const FOR: u8 = 0x81;
pub const NEXT: u8 = 0x82;
pub const DATA: u8 = 0x83;
pub const INPUT_HASH: u8 = 0x84;
pub const INPUT: u8 = 0x85;
pub const DIM: u8 = 0x86;
pub const READ: u8 = 0x87;
pub const LET: u8 = 0x88;
pub const GOTO: u8 = 0x89;
pub const RUN: u8 = 0x8A;
pub const IF: u8 = 0x8B;
pub const RESTORE: u8 = 0x8C;
pub const GOSUB: u8 = 0x8D;
pub const RETURN: u8 = 0x8E;
pub const REM: u8 = 0x8F;
pub const STOP: u8 = 0x90;
pub const ON: u8 = 0x91;
pub const WAIT: u8 = 0x92;
pub const LOAD: u8 = 0x93;
pub const SAVE: u8 = 0x94;
pub const VERIFY: u8 = 0x95;
pub const DEF: u8 = 0x96;
pub const POKE: u8 = 0x97;
pub const PRINT_HASH: u8 = 0x98;
pub const PRINT: u8 = 0x99;
pub const CONT: u8 = 0x9A;
pub const LIST: u8 = 0x9B;
pub const CLR: u8 = 0x9C;
pub const CMD: u8 = 0x9D;
pub const SYS: u8 = 0x9E;
pub const OPEN: u8 = 0x9F;
pub const CLOSE: u8 = 0xA0;
pub const GET: u8 = 0xA1;
pub const NEW: u8 = 0xA2;
pub const TAB: u8 = 0xA3;
pub const TO: u8 = 0xA4;
pub const FN: u8 = 0xA5;
pub const SPC: u8 = 0xA6;
pub const THEN: u8 = 0xA7;
pub const NOT: u8 = 0xA8;
pub const STEP: u8 = 0xA9;
pub const PLUS: u8 = 0xAA;
pub const MINUS: u8 = 0xAB;
pub const TIMES: u8 = 0xAC;
pub const DIVIDE: u8 = 0xAD;
pub const POWER: u8 = 0xAE;
pub const AND: u8 = 0xAF;
pub const OR: u8 = 0xB0;
pub const GREATER: u8 = 0xB1;
pub const EQUAL: u8 = 0xB2;
pub const LESS: u8 = 0xB3;
pub const SGN: u8 = 0xB4;
pub const PEEK: u8 = 0xC2;
pub const MID: u8 = 0xCA;
pub const GO: u8 = 0xCB;
/// Pi: a constant stored as one byte, not a keyword.
pub const PI: u8 = 0xFF;

/// The keyword for a token byte, if it is one.
pub fn keyword(byte: u8) -> Option<&'static str> {
    KEYWORDS.get(byte.checked_sub(0x80)? as usize).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_sit_where_the_reference_table_puts_them() {
        // reference/cbm-basic.md 4.1
        assert_eq!(keyword(0x80), Some("END"));
        assert_eq!(keyword(0x99), Some("PRINT"));
        assert_eq!(keyword(0xA3), Some("TAB("));
        assert_eq!(keyword(0xAE), Some("^"));
        assert_eq!(keyword(0xC7), Some("CHR$"));
        assert_eq!(keyword(0xCB), Some("GO"));
        assert_eq!(keyword(0xCC), None);
        assert_eq!(keyword(0x7F), None);
        assert_eq!(keyword(MID), Some("MID$"));
        assert_eq!(keyword(PEEK), Some("PEEK"));
        assert_eq!(keyword(SGN), Some("SGN"));
    }
}
