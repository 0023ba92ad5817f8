//! The detokenizer: token bytes back to text, as RISC OS BASIC V's LIST prints them (LISTO 0).
//!
//! LIST's rules: keywords are expanded except inside strings and after REM (DATA is *not*
//! protected: LIST expands a byte >= &7F after DATA as a keyword); `&8D` + 3 bytes prints the
//! line number in decimal; the line number is printed right-aligned in five columns with nothing
//! after it, so the spaces a user typed after the number are the ones that show.
//!
//! Bytes are Latin-1 (RISC OS's alphabet); [`latin1_to_string`] turns them into text.

use crate::tokens;

/// One element of a tokenized line body, as LIST sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element<'a> {
    /// A one- or two-byte keyword token and its spelling.
    Keyword {
        /// The token bytes (1 or 2).
        bytes: &'a [u8],
        /// The LIST spelling.
        name: &'static str,
    },
    /// `&8D` + 3 bytes: a line number.
    LineNumber {
        /// The 4 bytes.
        bytes: &'a [u8],
        /// The decoded number.
        number: u16,
    },
    /// A byte copied as a character: in a string, a name, a number, an operator, or after REM.
    Char {
        /// The byte.
        byte: u8,
        /// Whether it is inside a string (including the quotes themselves).
        in_string: bool,
        /// Whether it is in a REM tail (never expanded).
        in_rem: bool,
    },
    /// A byte >= &7F that is not a known token (an escape without a known second byte, a
    /// truncated `&8D`): LIST prints it as a character.
    Unknown {
        /// The byte.
        byte: u8,
    },
}

impl Element<'_> {
    /// The bytes this element covers.
    pub fn len(&self) -> usize {
        match self {
            Element::Keyword { bytes, .. } | Element::LineNumber { bytes, .. } => bytes.len(),
            Element::Char { .. } | Element::Unknown { .. } => 1,
        }
    }
    /// Never true: every element covers at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Splits a line body into the elements LIST prints, in order. Total: every byte of `body` is in
/// exactly one element, whatever the bytes are.
pub fn elements(body: &[u8]) -> Vec<Element<'_>> {
    let mut out = Vec::with_capacity(body.len());
    let mut in_string = false;
    let mut in_rem = false;
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if b == b'"' {
            in_string = !in_string;
            out.push(Element::Char {
                byte: b,
                in_string: true,
                in_rem,
            });
            i += 1;
            continue;
        }
        if in_string || in_rem || b < 0x7F {
            out.push(Element::Char {
                byte: b,
                in_string,
                in_rem,
            });
            i += 1;
            continue;
        }
        if b == tokens::LINE_NUMBER {
            if let Some(rest) = body.get(i + 1..i + 4) {
                let number = tokens::decode_line_number([rest[0], rest[1], rest[2]]);
                out.push(Element::LineNumber {
                    bytes: &body[i..i + 4],
                    number,
                });
                i += 4;
            } else {
                out.push(Element::Unknown { byte: b });
                i += 1;
            }
            continue;
        }
        if tokens::is_escape(b) {
            match body.get(i + 1).and_then(|&s| tokens::two_byte_name(b, s)) {
                Some(name) => {
                    out.push(Element::Keyword {
                        bytes: &body[i..i + 2],
                        name,
                    });
                    i += 2;
                }
                None => {
                    out.push(Element::Unknown { byte: b });
                    i += 1;
                }
            }
            continue;
        }
        match tokens::one_byte_name(b) {
            Some(name) => {
                if b == tokens::REM {
                    in_rem = true;
                }
                out.push(Element::Keyword {
                    bytes: &body[i..i + 1],
                    name,
                });
            }
            None => out.push(Element::Unknown { byte: b }),
        }
        i += 1;
    }
    out
}

/// LIST's text of a line body (Latin-1 bytes), without the line number.
pub fn detokenize_line(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() * 2);
    for e in elements(body) {
        match e {
            Element::Keyword { name, .. } => out.extend_from_slice(name.as_bytes()),
            Element::LineNumber { number, .. } => out.extend_from_slice(number.to_string().as_bytes()),
            Element::Char { byte, .. } | Element::Unknown { byte } => out.push(byte),
        }
    }
    out
}

/// One LISTed line: the number right-aligned in five columns, then the body's text.
pub fn list_line(number: u16, body: &[u8]) -> Vec<u8> {
    let mut out = format!("{number:5}").into_bytes();
    out.extend_from_slice(&detokenize_line(body));
    out
}

/// Latin-1 bytes as a string (each byte is the code point of the same value).
pub fn latin1_to_string(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::*;

    #[test]
    fn keywords_expand_outside_strings_and_rem_only() {
        assert_eq!(detokenize_line(&[PRINT, b'"', PRINT, b'"']), b"PRINT\"\xF1\"");
        assert_eq!(detokenize_line(&[REM, b' ', PRINT]), b"REM \xF1");
        assert_eq!(detokenize_line(&[DATA, b' ', PRINT]), b"DATA PRINT");
        assert_eq!(detokenize_line(&[GOTO, 0x8D, 0x54, 0x4A, 0x40]), b"GOTO10");
    }

    #[test]
    fn truncated_and_unknown_bytes_print_as_themselves() {
        assert_eq!(detokenize_line(&[0x8D, 0x54]), [0x8D, 0x54]);
        assert_eq!(detokenize_line(&[ESC_STMT, 0x20]), [ESC_STMT, 0x20]);
        assert_eq!(list_line(7, b"x"), b"    7x");
    }
}
