//! The tokenized format of BBC BASIC for Windows, BBC BASIC for SDL 2.0 and BBC BASIC (Z80) (here
//! "the Windows format"), the format most BBC BASIC programs are shared in today, and its
//! conversion to and from RISC OS's, which is the one the interpreter runs.
//!
//! Layout: each line is `len lo hi body... &0D`, where `len` counts the whole line (itself, the two
//! line-number bytes, the body and the CR), so a body holds at most 251 bytes as in RISC OS; a
//! length byte of 0 ends the program (those BASICs write `&00 &FF &FF`). Bytes after the end are
//! ignored: CP/M pads files to a multiple of 128 bytes, and BBC BASIC (Z80) saves whatever follows.
//!
//! Tokens: the one-byte tokens &80-&FF are the BBC Micro's, and RISC OS kept most of them. The
//! keywords BASIC V added sit elsewhere: RISC OS uses the escapes &C6-&C8 with a second byte, the
//! Windows format one byte each, in &C6-&CC and in &01-&10 (bytes below &20 never start a
//! keyword in text). The table [`DIFFERENT`] holds every keyword whose bytes differ. It was written
//! from R. T. Russell's sources: the token values in BBC BASIC for SDL 2.0's `include/BBC.h` and
//! its keyword table in `src/bbmain.c`, checked against BBC BASIC (Z80) v5's `KEYWDS` table in
//! `src/MAIN.Z80` (github.com/rtrussell/BBCSDL and github.com/rtrussell/BBCZ80). The two agree
//! except for &0E, which is PRIVATE in BBC BASIC for Windows and SDL and PUT in BBC BASIC (Z80):
//! we read it as PRIVATE, the more common dialect's word. Neither RISC OS nor we have PRIVATE, BY,
//! EXIT or PUT, so those come across as text (RISC OS keeps `BY` of `MOVE BY` as text itself).
//!
//! Converting keeps everything that is not a keyword byte for byte: strings, REM and DATA tails and
//! star commands are copied, and names stay names even where RISC OS's tokenizer would have found a
//! keyword in them. Towards the Windows format, the words PRIVATE, BY and EXIT in program text
//! become tokens where that BASIC's tokenizer makes them (at the start of a word; BY and EXIT only as
//! whole words), and RISC OS keywords it lacks (LIBRARY, TEMPO, the POINT statement...) are written
//! as text. A program without such keywords converts both ways without a byte changing.

use crate::program::{Line, Program, ProgramError};
use crate::tokenize::MAX_BODY_LEN;
use crate::tokens::{self, CR, ESC_CMD, ESC_FN, ESC_STMT, MAX_LINE_NUMBER, cmd, func, stmt};

/// Every keyword whose bytes differ between the formats: (Windows byte, RISC OS bytes). RISC OS
/// bytes that are letters are the keyword as text (RISC OS has no token for it).
pub const DIFFERENT: &[(u8, &[u8])] = &[
    (0x01, &[ESC_STMT, stmt::CIRCLE]),
    (0x02, &[ESC_STMT, stmt::ELLIPSE]),
    (0x03, &[ESC_STMT, stmt::FILL]),
    (0x04, &[ESC_STMT, stmt::MOUSE]),
    (0x05, &[ESC_STMT, stmt::ORIGIN]),
    (0x06, &[ESC_STMT, stmt::QUIT]),
    (0x07, &[ESC_STMT, stmt::RECTANGLE]),
    (0x08, &[ESC_STMT, stmt::SWAP]),
    (0x09, &[ESC_STMT, stmt::SYS]),
    (0x0A, &[ESC_STMT, stmt::TINT]),
    (0x0B, &[ESC_STMT, stmt::WAIT]),
    (0x0C, &[ESC_CMD, cmd::INSTALL]),
    (0x0E, b"PRIVATE"),
    (0x0F, b"BY"),
    (0x10, b"EXIT"),
    (0xC6, &[ESC_FN, func::SUM]),
    (0xC7, &[ESC_STMT, stmt::WHILE]),
    (0xC8, &[ESC_STMT, stmt::CASE]),
    (0xCC, &[tokens::OTHERWISE]),
];

/// The Windows-format keywords RISC OS keeps as text: (Windows byte, spelling, whole word only).
/// BY and EXIT are "conditional" in that BASIC's table (not a keyword before a name character).
const TEXT_KEYWORDS: &[(u8, &[u8], bool)] = &[
    (0x0E, b"PRIVATE", false),
    (0x0F, b"BY", true),
    (0x10, b"EXIT", true),
];

/// The RISC OS bytes of a Windows-format token byte, if it is one that differs.
fn to_riscos(byte: u8) -> Option<&'static [u8]> {
    DIFFERENT.iter().find(|(w, _)| *w == byte).map(|(_, r)| *r)
}

/// The Windows byte of a RISC OS two-byte token, if that BASIC has the keyword.
fn two_byte_to_windows(escape: u8, second: u8) -> Option<u8> {
    if escape == ESC_STMT && second == stmt::INSTALL {
        // The old statement form of INSTALL is the same keyword.
        return Some(0x0C);
    }
    DIFFERENT
        .iter()
        .find(|(_, r)| *r == [escape, second])
        .map(|(w, _)| *w)
}

/// Whether a byte is part of a name in the Windows format's tokenizer (its `range1`: digits, `@`,
/// `A-Z`, `_`, backquote, `a-z`), so a conditional keyword does not end before it.
fn is_name_char(b: u8) -> bool {
    b.is_ascii_digit() || (b'@'..=b'Z').contains(&b) || (b'_'..=b'z').contains(&b)
}

/// Where a byte sits in a line, as both tokenizers see it: the same for the two formats, because
/// REM, DATA, THEN, ELSE and the quote are the same bytes in both.
#[derive(Default)]
struct Context {
    in_string: bool,
    /// After REM or DATA, or in a star command: the rest of the line is text.
    verbatim: bool,
    /// At the start of a statement (a star command may start here).
    statement_start: bool,
}

impl Context {
    fn new() -> Context {
        Context {
            statement_start: true,
            ..Context::default()
        }
    }

    /// Whether the byte at hand is program text that may hold keywords.
    fn is_code(&self) -> bool {
        !self.in_string && !self.verbatim
    }

    /// Steps past a byte of text (not a keyword).
    fn text(&mut self, b: u8) {
        if self.verbatim {
            return;
        }
        if b == b'"' {
            self.in_string = !self.in_string;
        } else if !self.in_string {
            if b == b'*' && self.statement_start {
                self.verbatim = true;
            }
            if b == b':' {
                self.statement_start = true;
                return;
            }
        }
        if b != b' ' {
            self.statement_start = false;
        }
    }

    /// Steps past a keyword, given by its RISC OS bytes: as RISC OS's tokenizer, a keyword that
    /// starts a statement (THEN, ELSE, ERROR...) leaves it at a statement start, one followed by an
    /// expression does not, and the rest (REPEAT, TO...) leave it as it was.
    fn keyword(&mut self, riscos: &[u8]) {
        let Some(&first) = riscos.first() else { return };
        if first == tokens::REM || first == tokens::DATA {
            self.verbatim = true;
        }
        if first == tokens::ELSE_BLOCK {
            self.statement_start = true;
            return;
        }
        let second = riscos.get(1).copied();
        let flags = tokens::KEYWORDS
            .iter()
            .find(|k| match k.escape() {
                None => {
                    k.byte == first
                        || (k.flags & tokens::F_PSEUDO != 0 && k.byte + tokens::LEFT_OFFSET == first)
                }
                Some(e) => e == first && Some(k.byte) == second,
            })
            .map_or(tokens::F_RIGHT, |k| k.flags);
        if flags & tokens::F_LEFT != 0 && flags & tokens::F_TWO_BYTE == 0 {
            self.statement_start = true;
        } else if flags & tokens::F_RIGHT != 0 {
            self.statement_start = false;
        }
    }
}

/// A line body in the Windows format, in RISC OS's.
pub fn body_to_riscos(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 8);
    let mut cx = Context::new();
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if !cx.is_code() {
            out.push(b);
            cx.text(b);
            i += 1;
        } else if b == tokens::LINE_NUMBER {
            // The three bytes of a line number are never tokens (they may be &7F).
            let end = (i + 4).min(body.len());
            out.extend_from_slice(&body[i..end]);
            i = end;
        } else if let Some(riscos) = to_riscos(b) {
            out.extend_from_slice(riscos);
            cx.keyword(riscos);
            i += 1;
        } else if b >= 0x80 {
            out.push(b);
            cx.keyword(&[b]);
            i += 1;
        } else {
            out.push(b);
            cx.text(b);
            i += 1;
        }
    }
    out
}

/// A line body in RISC OS's format, in the Windows format.
pub fn body_to_windows(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut cx = Context::new();
    // In a name (or a hex number), where the Windows tokenizer looks for no keyword.
    let mut in_name = false;
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if !cx.is_code() {
            out.push(b);
            cx.text(b);
            i += 1;
            continue;
        }
        if b == tokens::LINE_NUMBER {
            let end = (i + 4).min(body.len());
            out.extend_from_slice(&body[i..end]);
            in_name = false;
            i = end;
            continue;
        }
        if b >= 0x7F {
            let (bytes, used): (Vec<u8>, usize) = if tokens::is_escape(b) {
                match body.get(i + 1) {
                    Some(&second) => match two_byte_to_windows(b, second) {
                        Some(w) => (vec![w], 2),
                        None => match tokens::two_byte_name(b, second) {
                            Some(name) => (name.as_bytes().to_vec(), 2),
                            None => (body[i..i + 2].to_vec(), 2),
                        },
                    },
                    None => (vec![b], 1),
                }
            } else if b == tokens::OTHERWISE {
                (vec![0xCC], 1)
            } else if b == tokens::ELSE_BLOCK {
                (vec![tokens::ELSE], 1)
            } else {
                (vec![b], 1)
            };
            out.extend_from_slice(&bytes);
            cx.keyword(&body[i..i + used]);
            // A PROC or FN name follows its keyword.
            in_name = b == tokens::PROC || b == tokens::FN;
            i += used;
            continue;
        }
        if !in_name && let Some((token, len)) = text_keyword(&body[i..]) {
            out.push(token);
            // RISC OS keeps these words as text: a name, as far as its tokenizer goes.
            cx.text(b'x');
            i += len;
            continue;
        }
        out.push(b);
        cx.text(b);
        // Hex digits after & are a number, not a word (the Windows tokenizer's hex mode).
        in_name = is_name_char(b) && (in_name || !b.is_ascii_digit()) || b == b'&';
        i += 1;
    }
    out
}

/// A Windows-format keyword RISC OS keeps as text, at the start of `rest`: its byte and length.
fn text_keyword(rest: &[u8]) -> Option<(u8, usize)> {
    TEXT_KEYWORDS.iter().find_map(|&(token, word, whole)| {
        let after = rest.strip_prefix(word)?;
        if whole && after.first().is_some_and(|&c| is_name_char(c)) {
            return None;
        }
        Some((token, word.len()))
    })
}

/// Whether `bytes` are a program in the Windows format: every line's length byte leads to a CR at
/// the line's end, up to a zero length byte. A text file never passes (it holds no NUL).
pub fn is_windows_program(bytes: &[u8]) -> bool {
    scan(bytes).is_ok()
}

/// A line of a Windows-format file, unconverted: (offset of its length byte, number, body).
type RawLine<'a> = (usize, u16, &'a [u8]);

/// The lines of a Windows-format file, unconverted.
fn scan(bytes: &[u8]) -> Result<Vec<RawLine<'_>>, ProgramError> {
    if bytes.is_empty() {
        return Err(ProgramError::Empty);
    }
    let mut lines = Vec::new();
    let mut at = 0;
    loop {
        let Some(&len) = bytes.get(at) else {
            return Err(ProgramError::NoEnd { offset: bytes.len() });
        };
        if len == 0 {
            return Ok(lines);
        }
        let number = match bytes.get(at + 1..at + 3) {
            Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
            _ => return Err(ProgramError::NoEnd { offset: bytes.len() }),
        };
        let bad = |why| ProgramError::BadLength {
            offset: at,
            number,
            len,
            why,
        };
        if len < 4 {
            return Err(bad(" (below 4)"));
        }
        let end = at + len as usize;
        if end > bytes.len() {
            return Err(bad(", past the end of the file"));
        }
        if bytes[end - 1] != CR {
            return Err(ProgramError::NoLineEnd {
                offset: end - 1,
                number,
                found: bytes[end - 1],
            });
        }
        if number > MAX_LINE_NUMBER {
            return Err(ProgramError::LineNumberTooBig { offset: at, number });
        }
        lines.push((at, number, &bytes[at + 3..end - 1]));
        at = end;
    }
}

/// Reads a Windows-format program, converting its lines to RISC OS's tokens.
pub fn from_bytes(bytes: &[u8]) -> Result<Program, ProgramError> {
    let mut lines = Vec::new();
    for (offset, number, body) in scan(bytes)? {
        let body = body_to_riscos(body);
        if body.len() > MAX_BODY_LEN {
            return Err(ProgramError::TooLongForRiscOs {
                offset,
                number,
                len: body.len(),
            });
        }
        lines.push(Line { number, body });
    }
    Ok(Program::new(lines))
}

/// `retro list --tokens` for a Windows-format file: each line's header and its bytes as they are
/// in the file, grouped and annotated (keywords by their names, line numbers decoded, text,
/// strings and REM/DATA tails), then the end marker.
pub fn render_tokens(bytes: &[u8]) -> Result<String, ProgramError> {
    use crate::inspect::{hex, printable};
    /// Text is cut into rows of at most this many bytes, as in RISC OS's view.
    const ROW: usize = 8;
    let lines = scan(bytes)?;
    let mut out = String::new();
    let row = |out: &mut String, offset: usize, b: &[u8], what: &str| {
        out.push_str(&format!("  +{offset:04X}  {:<23}  {what}\n", hex(b)));
    };
    for (n, &(at, number, body)) in lines.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let len = bytes[at];
        out.push_str(&format!(
            "Line {number} at +&{at:04X}, length &{len:02X} ({len} = 3 header + {} body + CR)\n",
            body.len()
        ));
        row(
            &mut out,
            at,
            &bytes[at..at + 3],
            &format!("length &{len:02X}, line number {number} (&{number:04X}, low byte first)"),
        );
        let base = at + 3;
        let mut cx = Context::new();
        let mut i = 0;
        while i < body.len() {
            let b = body[i];
            if cx.is_code() && b == tokens::LINE_NUMBER && i + 4 <= body.len() {
                let n = tokens::decode_line_number([body[i + 1], body[i + 2], body[i + 3]]);
                row(&mut out, base + i, &body[i..i + 4], &format!("line number {n}"));
                i += 4;
                continue;
            }
            let riscos = to_riscos(b);
            if cx.is_code() && (riscos.is_some() || b >= 0x80) {
                let name = match riscos {
                    Some(r) if r[0].is_ascii_alphabetic() => String::from_utf8_lossy(r).into_owned(),
                    Some(r) if tokens::is_escape(r[0]) => {
                        tokens::two_byte_name(r[0], r[1]).unwrap_or("?").to_string()
                    }
                    Some(r) => tokens::one_byte_name(r[0]).unwrap_or("?").to_string(),
                    None => {
                        tokens::one_byte_name(b).map_or_else(|| "not a keyword".to_string(), str::to_string)
                    }
                };
                row(&mut out, base + i, &[b], &name);
                cx.keyword(riscos.unwrap_or(&[b]));
                i += 1;
                continue;
            }
            // A string (quotes included), a REM/DATA/star tail, or program text up to the next
            // keyword or string: in rows of at most ROW bytes.
            let start = i;
            let kind = if b == b'"' && cx.is_code() || cx.in_string {
                "string"
            } else if !cx.is_code() {
                "text (REM, DATA or * command)"
            } else {
                ""
            };
            while i < body.len() && i - start < ROW {
                let c = body[i];
                let code = cx.is_code();
                if i > start && code && (c >= 0x80 || to_riscos(c).is_some() || c == b'"') {
                    break;
                }
                cx.text(c);
                i += 1;
                if kind == "string" && i > start + 1 && c == b'"' {
                    break;
                }
            }
            let shown = printable(&body[start..i]);
            let what = if kind.is_empty() {
                format!("`{shown}`")
            } else {
                format!("{shown}  ({kind})")
            };
            row(&mut out, base + start, &body[start..i], &what);
        }
        row(&mut out, base + body.len(), &[CR], "CR, end of line");
    }
    let end = lines.last().map_or(0, |&(at, _, _)| at + bytes[at] as usize);
    row(
        &mut out,
        end,
        &bytes[end..(end + 3).min(bytes.len())],
        "end of program (length 0)",
    );
    Ok(out)
}

/// A line that does not fit in the Windows format once converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "Line too long: line {number} is {len} bytes in the BBC BASIC for Windows format, where a line holds at most {MAX_BODY_LEN}"
)]
pub struct LineTooLong {
    /// The line number.
    pub number: u16,
    /// The converted body's length.
    pub len: usize,
}

/// The program in the Windows format, ending `&00 &FF &FF` as those BASICs write it.
pub fn to_bytes(program: &Program) -> Result<Vec<u8>, LineTooLong> {
    let mut out = Vec::new();
    for line in program.lines() {
        let body = body_to_windows(&line.body);
        if body.len() > MAX_BODY_LEN {
            return Err(LineTooLong {
                number: line.number,
                len: body.len(),
            });
        }
        out.push((body.len() + 4) as u8);
        out.extend_from_slice(&line.number.to_le_bytes());
        out.extend_from_slice(&body);
        out.push(CR);
    }
    out.extend_from_slice(&[0, 0xFF, 0xFF]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::*;
    use crate::{Mode, tokenize_program};

    fn riscos(text: &str) -> Program {
        tokenize_program(text, Mode::Strict).unwrap()
    }

    #[test]
    fn keywords_basic_v_added_change_bytes_and_the_rest_stays() {
        let p = riscos(
            "10 WHILE x:SWAP a,b:x=SUM(a()):ENDWHILE\n20 CASE x OF:OTHERWISE:PRINT \"WHILE\":ENDCASE\n",
        );
        let win = to_bytes(&p).unwrap();
        assert_eq!(&win[..5], &[win[0], 10, 0, b' ', 0xC7]);
        assert!(win.contains(&0x08) && win.contains(&0xC6) && win.contains(&0xC8) && win.contains(&0xCC));
        assert_eq!(&win[win.len() - 3..], &[0, 0xFF, 0xFF]);
        assert_eq!(from_bytes(&win).unwrap(), p);
    }

    #[test]
    fn words_riscos_keeps_as_text_become_tokens_only_where_that_basic_makes_them() {
        let text = "1MOVE BY 4,4:EXIT:BYTE=1:aBY=2:PRIVATEx:PRINT\"BY\":REM BY\n";
        let body = riscos(text).lines()[0].body.clone();
        let w = body_to_windows(&body);
        let expect: &[u8] = &[
            MOVE, b' ', 0x0F, b' ', b'4', b',', b'4', b':', 0x10, b':', b'B', b'Y', b'T', b'E', b'=', b'1',
            b':', b'a', b'B', b'Y', b'=', b'2', b':', 0x0E, b'x', b':', PRINT, b'"', b'B', b'Y', b'"', b':',
            REM, b' ', b'B', b'Y',
        ];
        assert_eq!(w, expect);
        assert_eq!(body_to_riscos(&w), body);
    }

    #[test]
    fn riscos_only_keywords_are_written_as_text_and_else_block_as_else() {
        assert_eq!(
            body_to_windows(&[ESC_STMT, stmt::LIBRARY, b' ', b'"', b'x', b'"']),
            b"LIBRARY \"x\""
        );
        assert_eq!(body_to_windows(&[ELSE_BLOCK]), [ELSE]);
        // A line number's bytes may be &7F, which is not OTHERWISE there.
        let n = encode_line_number(63);
        assert_eq!(
            body_to_windows(&[GOTO, LINE_NUMBER, n[0], n[1], n[2]]),
            [GOTO, LINE_NUMBER, n[0], n[1], n[2]]
        );
    }

    #[test]
    fn strings_rem_data_and_star_commands_are_copied() {
        let win = [
            tokens::PRINT,
            b'"',
            0xC7,
            b'"',
            b':',
            tokens::DATA,
            0xC7,
            0x08,
            b':',
            b'*',
            0x01,
        ];
        assert_eq!(
            body_to_riscos(&win),
            [
                tokens::PRINT,
                b'"',
                0xC7,
                b'"',
                b':',
                tokens::DATA,
                0xC7,
                0x08,
                b':',
                b'*',
                0x01
            ]
        );
        assert_eq!(body_to_riscos(&[b'*', 0x08]), [b'*', 0x08]);
        assert_eq!(
            body_to_riscos(&[b' ', b'x', b'*', 0x08]),
            [b' ', b'x', b'*', ESC_STMT, stmt::SWAP]
        );
    }

    #[test]
    fn the_token_view_shows_the_file_as_it_is() {
        let p = riscos("10 WHILE x:PRINT \"hi\":GOTO 10\n20 REM SWAP\n");
        let win = to_bytes(&p).unwrap();
        let view = render_tokens(&win).unwrap();
        assert!(view.contains("Line 10 at +&0000"), "{view}");
        assert!(view.contains("C7                       WHILE"), "{view}");
        assert!(view.contains("line number 10"), "{view}");
        assert!(
            view.contains("\"hi\"  (string)") || view.contains("\"hi\""),
            "{view}"
        );
        assert!(view.contains("SWAP  (text (REM, DATA or * command))"), "{view}");
        assert!(view.contains("end of program (length 0)"), "{view}");
        assert!(render_tokens(b"junk").is_err());
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        assert_eq!(from_bytes(&[]), Err(ProgramError::Empty));
        assert!(matches!(
            from_bytes(&[5, 10, 0, b'x', b'y']),
            Err(ProgramError::NoLineEnd { .. })
        ));
        assert!(matches!(
            from_bytes(&[9, 10, 0, CR]),
            Err(ProgramError::BadLength { .. })
        ));
        assert!(matches!(
            from_bytes(&[4, 10, 0, CR]),
            Err(ProgramError::NoEnd { .. })
        ));
        assert!(matches!(
            from_bytes(&[4, 0, 0xFF, CR, 0]),
            Err(ProgramError::LineNumberTooBig { .. })
        ));
        assert_eq!(from_bytes(&[0, 0xFF, 0xFF]), Ok(Program::default()));
        assert!(is_windows_program(&[5, 10, 0, b'x', CR, 0, 0xFF, 0xFF, 0x1A]));
        assert!(!is_windows_program(b"10 PRINT\n"));
    }
}
