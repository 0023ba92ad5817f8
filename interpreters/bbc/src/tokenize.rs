//! The line tokenizer ("cruncher"): text to RISC OS BASIC V token bytes.
//!
//! This is a state machine that follows the RISC OS BASIC V lexical routine step by step, driven by
//! the keyword table in [`crate::tokens`]. It is not a longest-match lexer: a keyword is found only
//! where a word starts, the first table entry that matches wins (`PRINTER` is `PRINT` + `ER`), and
//! conditional keywords are refused before a word character (`TRUEx` is a variable).
//!
//! State, as in the ROM:
//! - *left/right mode*: at the start of a statement (left) the pseudo-variables PTR, PAGE, TIME,
//!   LOMEM and HIMEM take their statement form (token + &40);
//! - *constants allowed*: after GOTO, GOSUB, THEN, ELSE, RESTORE... a decimal number < 65280
//!   becomes `&8D` + 3 bytes;
//! - *in a string* and *raw* (after REM, DATA, or `*` at a statement start: copy to the end).
//!
//! [`Mode::Crunch`] is how the authors of Rheolism made their line: they typed it with spaces and
//! poked the spaces out of the tokenized bytes, so their listing has keywords glued to variables
//! (`rEORm`) and to each other (`RETURNELSEMODE9`). Crunch mode finds a keyword at any uppercase
//! letter, also inside a variable name, and ignores the conditional flag.

use crate::tokens::{self, F_LEFT, F_LINE_NUMBERS, F_PSEUDO, F_RIGHT, F_VERBATIM, Keyword};

/// How keywords are recognised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Exactly as RISC OS BASIC V tokenizes a typed or loaded line.
    #[default]
    Strict,
    /// Keywords anywhere (also glued after a variable name) and conditional keywords accepted before
    /// a word character: what poking the spaces out of a spaced program gives.
    Crunch,
}

/// The maximum length of a line's tokenized body: the length byte (at most 255) also counts the
/// CR, the two line-number bytes and itself.
pub const MAX_BODY_LEN: usize = 251;

/// A tokenized line body with, for each output byte, the offset in the source text of the
/// character it came from (used to point diagnostics at the right column).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokenized {
    /// The token bytes (no CR, no line header).
    pub bytes: Vec<u8>,
    /// `source[i]` is the source offset that produced `bytes[i]`.
    pub source: Vec<usize>,
}

/// Tokenizes one line body (the text after the line number, without the line end).
///
/// The line starts in left mode with line-number constants allowed, as RISC OS leaves its state after
/// reading a line number. A CR or LF ends the line, as in the ROM: nothing after it is read.
/// Any byte sequence is accepted: the result may be longer than
/// [`MAX_BODY_LEN`]; checking that is the caller's business (see [`crate::tokenize_program`]).
pub fn tokenize_line(src: &[u8], mode: Mode) -> Vec<u8> {
    tokenize_line_mapped(src, mode).bytes
}

/// [`tokenize_line`], also returning where each output byte came from.
pub fn tokenize_line_mapped(src: &[u8], mode: Mode) -> Tokenized {
    let mut t = Tokenizer {
        src,
        crunch: mode == Mode::Crunch,
        out: Tokenized {
            bytes: Vec::with_capacity(src.len()),
            source: Vec::with_capacity(src.len()),
        },
        left: true,
        constants: true,
        in_string: false,
        raw: false,
    };
    t.run();
    t.out
}

/// Tokenizes the string given to EVAL, as RISC OS does: in expression (right) mode with no
/// line-number constants, so `EVAL "TIME"` reads TIME's expression token (&91).
pub fn tokenize_eval(src: &[u8]) -> Vec<u8> {
    let mut t = Tokenizer {
        src,
        crunch: false,
        out: Tokenized::default(),
        left: false,
        constants: false,
        in_string: false,
        raw: false,
    };
    t.run();
    t.out.bytes
}

/// Finds the keyword the ROM would match at `src[at]` (which must be an uppercase letter): the first
/// table entry whose spelling the source starts with, or that the source abbreviates with a `.`.
/// Returns the keyword and the number of source bytes it covers. The conditional flag is not checked.
pub fn match_keyword(src: &[u8], at: usize) -> Option<(&'static Keyword, usize)> {
    let first = *src.get(at)?;
    'entries: for kw in tokens::keywords_starting_with(first) {
        let name = kw.name.as_bytes();
        for (j, &want) in name.iter().enumerate().skip(1) {
            match src.get(at + j) {
                Some(&got) if got == want => {}
                // An abbreviation: the `.` stands for the rest of this (first matching) entry.
                Some(b'.') => return Some((kw, j + 1)),
                _ => continue 'entries,
            }
        }
        return Some((kw, name.len()));
    }
    None
}

struct Tokenizer<'a> {
    src: &'a [u8],
    crunch: bool,
    out: Tokenized,
    /// Left (statement start) mode, where pseudo-variables take their statement tokens.
    left: bool,
    /// Whether a number here is a line-number constant.
    constants: bool,
    in_string: bool,
    /// Copying verbatim to the end of the line (REM, DATA, star command).
    raw: bool,
}

impl Tokenizer<'_> {
    fn emit(&mut self, byte: u8, from: usize) {
        self.out.bytes.push(byte);
        self.out.source.push(from);
    }

    fn right(&mut self) {
        self.left = false;
        self.constants = false;
    }

    fn run(&mut self) {
        // The ROM ends a line at CR or LF wherever it is (even in a string): a body never holds
        // one, which the interpreter and the file format rely on.
        let end = self
            .src
            .iter()
            .position(|&c| c == b'\r' || c == b'\n')
            .unwrap_or(self.src.len());
        self.src = &self.src[..end];
        let src = self.src;
        let mut i = 0;
        while i < src.len() {
            let c = src[i];
            if c == b'"' {
                self.in_string = !self.in_string;
                self.emit(c, i);
                i += 1;
                if !self.in_string && !self.raw {
                    // The closing quote is an ordinary non-word character to the ROM: right mode.
                    self.right();
                }
                continue;
            }
            if c == b' ' || self.in_string || self.raw {
                // Spaces change nothing; strings and raw tails are copied.
                self.emit(c, i);
                i += 1;
                continue;
            }
            match c {
                b'&' => {
                    // Hex digits are copied; the mode is left as it was. The character after them is
                    // examined afresh.
                    self.emit(c, i);
                    i += 1;
                    while i < src.len() && src[i].is_ascii_hexdigit() {
                        self.emit(src[i], i);
                        i += 1;
                    }
                }
                b':' => {
                    self.emit(c, i);
                    self.left = true;
                    self.constants = false;
                    i += 1;
                }
                b',' => {
                    // `ON x GOTO 10,20`: a comma keeps constants allowed.
                    self.emit(c, i);
                    i += 1;
                }
                b'*' => {
                    self.emit(c, i);
                    if self.left {
                        // A star command: the rest of the line is for the OS.
                        self.raw = true;
                    } else {
                        self.right();
                    }
                    i += 1;
                }
                b'0'..=b'9' if self.constants => i = self.line_number_or_number(i),
                b'0'..=b'9' | b'.' => i = self.number(i),
                b'A'..=b'W' => i = self.keyword_or_name(i),
                _ if tokens::is_word_char(c) => i = self.name(i, i + 1),
                _ => {
                    // Any other character ends the statement start and any constants.
                    self.emit(c, i);
                    self.right();
                    i += 1;
                }
            }
        }
    }

    /// A number where line numbers may appear: < 65280 becomes `&8D` + 3 bytes and leaves the state
    /// as it was (so `ON x GOTO 10,20 ...` encodes both); anything larger is an ordinary number.
    fn line_number_or_number(&mut self, start: usize) -> usize {
        let src = self.src;
        let mut value: u32 = 0;
        let mut i = start;
        while i < src.len() && src[i].is_ascii_digit() {
            value = value * 10 + u32::from(src[i] - b'0');
            if value > u32::from(tokens::MAX_LINE_NUMBER) {
                return self.number(start);
            }
            i += 1;
        }
        self.emit(tokens::LINE_NUMBER, start);
        for b in tokens::encode_line_number(value as u16) {
            self.emit(b, start);
        }
        i
    }

    /// A number (digits and dots) copied as ASCII; then right mode.
    fn number(&mut self, start: usize) -> usize {
        let src = self.src;
        let mut i = start;
        while i < src.len() && (src[i].is_ascii_digit() || src[i] == b'.') {
            self.emit(src[i], i);
            i += 1;
        }
        self.right();
        i
    }

    /// Copies the rest of a name that began at `start`, up to `from`; then right mode. In crunch
    /// mode a keyword may begin inside the name.
    fn name(&mut self, start: usize, from: usize) -> usize {
        let src = self.src;
        for (j, &c) in src.iter().enumerate().take(from).skip(start) {
            self.emit(c, j);
        }
        let mut i = from;
        while i < src.len() && tokens::is_word_char(src[i]) {
            if self.crunch && (b'A'..=b'W').contains(&src[i]) && match_keyword(src, i).is_some() {
                break;
            }
            self.emit(src[i], i);
            i += 1;
        }
        self.right();
        i
    }

    fn keyword_or_name(&mut self, start: usize) -> usize {
        let src = self.src;
        let Some((kw, len)) = match_keyword(src, start) else {
            return self.name(start, start + 1);
        };
        let end = start + len;
        if kw.is_conditional() && !self.crunch && src.get(end).is_some_and(|&c| tokens::is_word_char(c)) {
            // A conditional keyword glued to a word: the whole word is a name (`TRUEx`, `ENDPROCx`).
            return self.name(start, start + 1);
        }
        let mut flags = kw.flags;
        match kw.escape() {
            Some(esc) => {
                // The F_LEFT bit of a two-byte keyword only chose the &C6 escape.
                if esc == tokens::ESC_FN {
                    flags &= !F_LEFT;
                }
                self.emit(esc, start);
                self.emit(kw.byte, start);
            }
            None => {
                let byte = if flags & F_PSEUDO != 0 && self.left {
                    kw.byte + tokens::LEFT_OFFSET
                } else {
                    kw.byte
                };
                self.emit(byte, start);
            }
        }
        if flags & F_RIGHT != 0 {
            self.right();
        }
        if flags & F_LEFT != 0 {
            self.left = true;
            self.constants = false;
        }
        let mut i = end;
        if kw.escape().is_none() && (kw.byte == tokens::FN || kw.byte == tokens::PROC) {
            // FN and PROC names are never tokenized: PROCPRINT calls a procedure named PRINT.
            while i < src.len() && tokens::is_word_char(src[i]) {
                self.emit(src[i], i);
                i += 1;
            }
        }
        if flags & F_LINE_NUMBERS != 0 {
            self.constants = true;
        }
        if flags & F_VERBATIM != 0 {
            self.raw = true;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::*;

    fn strict(s: &str) -> Vec<u8> {
        tokenize_line(s.as_bytes(), Mode::Strict)
    }

    #[test]
    fn first_match_in_table_order_wins() {
        assert_eq!(strict("PRINTER"), [PRINT, b'E', b'R']);
        assert_eq!(strict("TOTAL"), [TO, b'T', b'A', b'L']);
        assert_eq!(strict("ENDPROC"), [ENDPROC]);
        assert_eq!(strict("OFF"), [OFF]);
    }

    #[test]
    fn keywords_only_at_the_start_of_a_word() {
        assert_eq!(strict("rEORm"), b"rEORm");
        assert_eq!(strict("ABCPRINT"), b"ABCPRINT");
        assert_eq!(strict("X1AND"), b"X1AND");
    }

    #[test]
    fn conditional_keywords_and_pseudo_variables() {
        assert_eq!(strict("TRUEx"), b"TRUEx");
        assert_eq!(strict("x=TRUE"), [b'x', b'=', TRUE]);
        assert_eq!(strict("TIME=0"), [TIME_LEFT, b'=', b'0']);
        assert_eq!(strict("x=TIME"), [b'x', b'=', TIME]);
    }

    #[test]
    fn line_numbers_after_goto_and_in_lists() {
        assert_eq!(strict("GOTO10"), [GOTO, 0x8D, 0x54, 0x4A, 0x40]);
        let on = strict("ON x GOTO 10,20");
        assert_eq!(on.iter().filter(|&&b| b == LINE_NUMBER).count(), 2);
        assert_eq!(strict("GOTO 65280"), b"\xE5 65280");
    }

    #[test]
    fn eval_strings_are_expressions() {
        assert_eq!(tokenize_eval(b"TIME"), [TIME]);
        assert_eq!(strict("TIME"), [TIME_LEFT]);
        assert_eq!(tokenize_eval(b"10"), b"10");
    }

    #[test]
    fn a_line_ends_at_cr_or_lf() {
        assert_eq!(strict("PRINT \"a\rPRINT"), [PRINT, b' ', b'"', b'a']);
        assert_eq!(strict("x\ny"), b"x");
    }

    #[test]
    fn crunch_finds_keywords_inside_names() {
        assert_eq!(tokenize_line(b"rEORm", Mode::Crunch), [b'r', EOR, b'm']);
        assert_eq!(
            tokenize_line(b"x=TRUETO1", Mode::Crunch),
            [b'x', b'=', TRUE, TO, b'1']
        );
    }
}
