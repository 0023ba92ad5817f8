//! What a text listing is: which letter convention it is written in (petcat's lower case, or
//! the upper-case ASCII of type-in listings and cbmbasic), and whether an upper-case listing
//! that BBC BASIC could also read uses words or forms only a C64 has (docs/cli.md).

use crate::petcat::Charset;
use crate::program::parse_line;

/// The parts of a listing line outside strings, `{...}` codes and a REM's tail: the bytes
/// where letters are keywords and variable names.
fn code_parts(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_string = false;
    let mut in_braces = false;
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' if !in_braces => in_string = !in_string,
            b'{' if !in_string => in_braces = true,
            b'}' if !in_string && in_braces => {
                in_braces = false;
                i += 1;
                continue;
            }
            _ => {}
        }
        if !in_string && !in_braces && c != b'"' {
            if b[i..].starts_with(b"REM") || b[i..].starts_with(b"rem") {
                out.push_str(&line[i..i + 3]);
                break;
            }
            out.push(c as char);
        }
        i += 1;
    }
    out
}

/// The convention a text listing is written in: upper-case ASCII when, outside strings, `{...}`
/// codes and REMs, it has no lower-case letter and some line crunches a keyword from capitals;
/// petcat's otherwise (also for a listing with no letters, which reads the same either way).
pub fn charset_of(text: &str) -> Charset {
    let mut keyword = false;
    for line in text.lines() {
        let code = code_parts(line);
        if code.bytes().any(|c| c.is_ascii_lowercase()) {
            return Charset::Petcat;
        }
        if !keyword && code.bytes().any(|c| c.is_ascii_uppercase()) {
            keyword = crunches_a_keyword(line, Charset::Ascii);
        }
    }
    if keyword { Charset::Ascii } else { Charset::Petcat }
}

/// Whether a listing line, read in `charset`, has a keyword token in its crunched body.
pub fn crunches_a_keyword(line: &str, charset: Charset) -> bool {
    let Ok(bytes) = crate::petcat::text_to_bytes_in(line, charset) else {
        return false;
    };
    parse_line(&bytes).is_ok_and(|l| {
        let mut quote = false;
        l.body.iter().any(|&b| {
            if b == b'"' {
                quote = !quote;
            }
            !quote && (0x80..0xFF).contains(&b)
        })
    })
}

/// BBC BASIC keywords no C64 listing has at the start of a word (C64 names are two letters,
/// and these are not C64 keywords).
const BBC_ONLY: [&str; 28] = [
    "REPEAT",
    "UNTIL",
    "PROC",
    "ENDPROC",
    "LOCAL",
    "ELSE",
    "ENDIF",
    "WHILE",
    "ENDWHILE",
    "CASE",
    "ENDCASE",
    "OTHERWISE",
    "MODE",
    "VDU",
    "GCOL",
    "MOVE",
    "DRAW",
    "PLOT",
    "COLOUR",
    "CLS",
    "SOUND",
    "ENVELOPE",
    "DIV",
    "MOD",
    "EOR",
    "TRUE",
    "FALSE",
    "INKEY",
];

/// Whether a listing has something only BBC BASIC reads: a line without a number, or a
/// BBC-only keyword at the start of a word outside strings and REMs.
pub fn bbc_only(text: &str) -> bool {
    text.lines().any(|line| {
        let t = line.trim();
        if t.is_empty() {
            return false;
        }
        if !t.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
        let code = code_parts(line);
        let b = code.as_bytes();
        (0..b.len()).any(|i| {
            let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
            word_start && BBC_ONLY.iter().any(|k| b[i..].starts_with(k.as_bytes()))
        })
    })
}

/// Why an upper-case listing is a C64 program and not BBC BASIC: the first C64-only word or form
/// outside strings (POKE, PEEK, FRE, CLR, SYS n, GET A$, TI$, a `{...}` code, `?"` for
/// PRINT). None when
/// it has none, has something only BBC BASIC reads, or is not an upper-case C64 listing.
pub fn c64_reason(text: &str) -> Option<String> {
    if charset_of(text) != Charset::Ascii || bbc_only(text) {
        return None;
    }
    text.lines().find_map(|line| c64_form(line, &code_parts(line)))
}

/// The first C64-only word or form in one line (`code` is its code parts).
fn c64_form(line: &str, code: &str) -> Option<String> {
    for word in ["POKE", "PEEK", "TI$", "FRE(", "CLR"] {
        if code.contains(word) {
            return Some(format!("it uses {word}"));
        }
    }
    let after = |word: &str| {
        code.match_indices(word)
            .map(|(i, _)| code[i + word.len()..].trim_start())
            .collect::<Vec<_>>()
    };
    if after("SYS")
        .iter()
        .any(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    {
        return Some("it uses SYS with an address".into());
    }
    if after("GET")
        .iter()
        .any(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
    {
        return Some("it uses GET as a statement".into());
    }
    if has_brace_code(line) {
        return Some("it has {...} control codes".into());
    }
    if line.contains("?\"") || line.contains("? \"") {
        return Some("it uses ? for PRINT".into());
    }
    None
}

/// Whether a `{...}` control code (petcat's notation) appears in a string.
fn has_brace_code(line: &str) -> bool {
    line.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .any(|(name, _)| crate::petcat::escape_byte(name).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_convention_is_decided_by_letters_outside_strings_and_rems() {
        assert_eq!(charset_of("10 PRINT \"HELLO\"\n20 GOTO 10\n"), Charset::Ascii);
        assert_eq!(charset_of("10 print \"HELLO\"\n20 goto 10\n"), Charset::Petcat);
        // Lower case in strings and REMs does not count.
        assert_eq!(charset_of("10 PRINT \"Hi\":REM a note\n"), Charset::Ascii);
        assert_eq!(charset_of("10 print \"{clr}\"\n"), Charset::Petcat);
        // No letters at all: either reads the same.
        assert_eq!(charset_of("10 ?1\n"), Charset::Petcat);
        // Capitals with no keyword are petcat's shifted graphics.
        assert_eq!(charset_of("10 ?\"X\"\n"), Charset::Petcat);
    }

    #[test]
    fn c64_only_forms_are_named_and_bbc_only_keywords_win() {
        let r = |t: &str| c64_reason(t);
        assert_eq!(r("10 POKE 53280,0\n").as_deref(), Some("it uses POKE"));
        assert_eq!(
            r("10 GET A$:IF A$=\"\" THEN 10\n").as_deref(),
            Some("it uses GET as a statement")
        );
        assert_eq!(
            r("10 PRINT \"{CLR}HI\"\n").as_deref(),
            Some("it has {...} control codes")
        );
        assert_eq!(
            r("10 SYS 64738\n").as_deref(),
            Some("it uses SYS with an address")
        );
        assert_eq!(r("10 PRINT TI$\n").as_deref(), Some("it uses TI$"));
        assert_eq!(r("10 PRINT \"HI\"\n20 GOTO 10\n"), None);
        assert_eq!(r("10 POKE 1,2:REPEAT\n"), None);
        assert_eq!(r("POKE 1,2\n"), None);
        assert_eq!(r("10 poke 1,2\n"), None);
    }
}
