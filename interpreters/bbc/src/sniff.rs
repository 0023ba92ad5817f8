//! Telling a BBC BASIC program from a Commodore 64 one when both could be named `.bas`
//! (`retro run`, `retro tok` and `retro list` take `.bas` as the C64's petcat listings).
//!
//! The rule (docs/cli.md): a `.bas` file is BBC BASIC when it is a tokenized BBC BASIC program (RISC
//! OS's format or BBC BASIC for Windows', which no C64 listing can be), or a text listing with a
//! BBC BASIC keyword in capitals outside strings and REMs. petcat writes the C64's keywords in
//! lower case, and
//! capitals outside strings are shifted graphics characters there, which no C64 program has where
//! a keyword could be; BBC BASIC only knows its keywords in capitals.

use crate::format::{Format, decode_text, detect};
use crate::program::Program;
use crate::tokens;

/// Whether `bytes` (a file named `.bas`) hold a BBC BASIC program rather than a C64 listing.
pub fn is_bbc_basic(bytes: &[u8]) -> bool {
    match detect(bytes) {
        Format::BbcWin => return true,
        Format::Tokenized if Program::from_bytes(bytes).is_ok() => return true,
        _ => {}
    }
    // Unnumbered lines alone do not decide: `print 1` is a C64 listing missing its number.
    decode_text(bytes).lines().any(has_capital_keyword)
}

/// Whether a line holds, outside strings, `{...}` control codes, C64 `data` statements and REM
/// tails, a BBC BASIC keyword of three letters or more in capitals at the start of a word.
fn has_capital_keyword(line: &str) -> bool {
    let b = line.as_bytes();
    let mut in_string = false;
    let mut in_braces = false;
    // In a C64 `data` statement, where capitals are shifted characters of the data.
    let mut in_data = false;
    for i in 0..b.len() {
        match b[i] {
            b'"' if !in_braces => in_string = !in_string,
            b'{' if !in_string => in_braces = true,
            b'}' if !in_string => in_braces = false,
            b':' if !in_string && !in_braces => in_data = false,
            _ => {}
        }
        if in_string || in_braces || in_data {
            continue;
        }
        if b[i..].starts_with(b"data") {
            in_data = true;
            continue;
        }
        if b[i..].starts_with(b"rem") || b[i..].starts_with(b"REM") {
            return b[i..].starts_with(b"REM");
        }
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if word_start && b[i].is_ascii_uppercase() {
            let found = tokens::keywords_starting_with(b[i])
                .iter()
                .any(|k| k.name.len() >= 3 && b[i..].starts_with(k.name.as_bytes()));
            if found {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bbc_listings_and_tokenized_files_are_told_from_petcat_listings() {
        assert!(is_bbc_basic(b"10 PRINT \"HI\"\n"));
        assert!(is_bbc_basic(b"PRINT 1\n"));
        assert!(is_bbc_basic(b"10 x=1:REPEAT:x+=1:UNTIL x>3\n"));
        assert!(is_bbc_basic(&[0x0D, 0, 10, 5, 0xF1, 0x0D, 0xFF]));
        assert!(is_bbc_basic(&[5, 10, 0, 0xF1, 0x0D, 0, 0xFF, 0xFF]));
        assert!(!is_bbc_basic(b"10 print \"HELLO WORLD\"\n20 goto 10\n"));
        assert!(!is_bbc_basic(b"10 print \"{CLR}GOTO\":rem PRINT\n"));
        assert!(!is_bbc_basic(b"10 a=1\n\n"));
        assert!(!is_bbc_basic(b"print 1\n"));
        assert!(!is_bbc_basic(b"10 data ABS,COS:print 1\n"));
        assert!(is_bbc_basic(b"10 data 1:PRINT 1\n"));
    }
}
