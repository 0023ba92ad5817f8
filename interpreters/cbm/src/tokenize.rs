//! The ROM's cruncher (CRUNCH at $A579), byte for byte: keywords anywhere outside strings, REM
//! and DATA, the first match in table order, `?` for PRINT, and abbreviations that end in a
//! shifted letter (`pO` is POKE) because a shifted letter "matches" any letter's bit-7 end mark.

use crate::tokens::{DATA, KEYWORDS, PRINT, REM};

/// The keyword table as the ROM stores it: each keyword's last byte has bit 7 set, and a zero
/// ends the table.
fn reslst() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::new();
        for k in KEYWORDS {
            let bytes = k.as_bytes();
            t.extend_from_slice(&bytes[..bytes.len() - 1]);
            t.push(bytes[bytes.len() - 1] | 0x80);
        }
        t.push(0);
        t
    })
}

/// Crunches one line's text (PETSCII, after the line number) into its tokenized body, as the
/// ROM does when a line is typed: bytes >= $80 outside strings other than pi are dropped, spaces
/// are kept, digits and `:;<` pass through.
pub fn crunch(input: &[u8]) -> Vec<u8> {
    let table = reslst();
    let mut out = Vec::with_capacity(input.len());
    let mut x = 0;
    // DATA mode: everything up to a ':' is copied as typed (GARBFL bit 6 in the ROM).
    let mut in_data = false;
    while x < input.len() {
        let c = input[x];
        if c >= 0x80 && c != 0xFF {
            x += 1;
            continue;
        }
        if c == b'"' {
            // Copy the string up to the closing quote (or the end of the line).
            out.push(c);
            x += 1;
            while x < input.len() {
                let s = input[x];
                out.push(s);
                x += 1;
                if s == b'"' {
                    break;
                }
            }
            continue;
        }
        let mut stored = c;
        let mut consumed = 1;
        if c != b' ' && c != 0xFF && !in_data {
            if c == b'?' {
                stored = PRINT;
            } else if !(b'0'..b'<').contains(&c)
                && let Some((token, len)) = match_keyword(table, &input[x..])
            {
                stored = token;
                consumed = len;
            }
        }
        out.push(stored);
        x += consumed;
        if stored == b':' {
            in_data = false;
        } else if stored == DATA {
            in_data = true;
        } else if stored == REM {
            // The rest of the line is copied as typed.
            out.extend_from_slice(&input[x..]);
            break;
        }
    }
    out
}

/// The ROM's table search at one position: the first keyword whose bytes match, where a
/// difference of exactly $80 (the end mark, or a shifted letter typed as an abbreviation) ends
/// the match. Returns the token and how many input bytes it used.
fn match_keyword(table: &[u8], input: &[u8]) -> Option<(u8, usize)> {
    let mut y = 0;
    let mut count: u8 = 0;
    loop {
        let mut x = 0;
        loop {
            let t = table[y];
            let c = input.get(x).copied().unwrap_or(0);
            let diff = c.wrapping_sub(t);
            if diff == 0 {
                x += 1;
                y += 1;
                continue;
            }
            if diff == 0x80 {
                return Some((0x80 | count, x + 1));
            }
            break;
        }
        // Skip to the start of the next keyword.
        while table[y] & 0x80 == 0 {
            y += 1;
        }
        y += 1;
        count += 1;
        if table[y] == 0 {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::*;

    fn c(s: &str) -> Vec<u8> {
        crunch(s.as_bytes())
    }

    #[test]
    fn keywords_are_found_inside_names_first_match_wins() {
        // reference 4.1: `RAND` is R AND; `FORT` is FOR T; `TOTAL` holds TO.
        assert_eq!(c("RAND"), vec![b'R', AND]);
        assert_eq!(c("FORT=1"), vec![FOR, b'T', EQUAL, b'1']);
        assert_eq!(c("TOTAL"), vec![TO, b'T', b'A', b'L']);
        assert_eq!(c("QAND7"), vec![b'Q', AND, b'7']);
        assert_eq!(c("IFQ=5THEN"), vec![IF, b'Q', EQUAL, b'5', THEN]);
        assert_eq!(c("INPUT#1"), vec![INPUT_HASH, b'1']);
        assert_eq!(c("PRINT#1"), vec![PRINT_HASH, b'1']);
        assert_eq!(c("GO TO 10"), vec![GO, b' ', TO, b' ', b'1', b'0']);
    }

    #[test]
    fn strings_rem_and_data_are_kept_as_typed() {
        assert_eq!(c("?\"PRINT\""), [&[PRINT][..], b"\"PRINT\""].concat());
        assert_eq!(c("REM FOR TO"), [&[REM][..], b" FOR TO"].concat());
        assert_eq!(
            c("DATA FOR,\"X\":PRINT"),
            [&[DATA][..], b" FOR,\"X\":", &[PRINT]].concat()
        );
    }

    #[test]
    fn shifted_letters_abbreviate_and_are_otherwise_dropped() {
        // pO = POKE, ?: PRINT, gO = GOTO? no: G then shifted O matches GOTO first (table order).
        assert_eq!(crunch(&[b'P', b'O' | 0x80]), vec![POKE]);
        assert_eq!(crunch(&[b'D', b'A' | 0x80]), vec![DATA]);
        assert_eq!(crunch(&[b'G', b'O' | 0x80]), vec![GOTO]);
        assert_eq!(crunch(&[b'A', 0xC1, b'1']), vec![b'A', b'1']);
        assert_eq!(crunch(&[b'A', 0xFF]), vec![b'A', 0xFF]);
    }

    #[test]
    fn spaces_digits_and_operators() {
        assert_eq!(
            c("A = 1+2*3"),
            vec![b'A', b' ', EQUAL, b' ', b'1', PLUS, b'2', TIMES, b'3']
        );
        assert_eq!(c("X<>Y"), vec![b'X', LESS, GREATER, b'Y']);
    }
}
