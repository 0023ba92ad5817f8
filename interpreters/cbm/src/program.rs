//! A tokenized program: its lines, the .prg file format (load address $0801, link pointers, line
//! numbers, 0 terminators, a $0000 link at the end) and petcat text listings in both directions.

use crate::petcat::{self, Charset, PetcatError};
use crate::tokenize::crunch;
use crate::tokens;

/// Where BASIC programs start on the C64 (TXTTAB).
pub const BASIC_START: u16 = 0x0801;
/// The highest line number the ROM accepts (LINGET stops at 63999).
pub const MAX_LINE: u16 = 63999;

/// One program line: its number and tokenized body (without the 0 terminator).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub number: u16,
    pub body: Vec<u8>,
}

/// A program, its lines in ascending order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    lines: Vec<Line>,
}

/// Why a file is not a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("too short for a .prg file (it needs a 2-byte load address)")]
    NoLoadAddress,
    #[error("the program ends in the middle of the line at offset {0} (no 0 terminator or end link)")]
    Truncated(usize),
    #[error("the program is too long for BASIC memory ({0} bytes from $0801)")]
    TooLong(usize),
    #[error("line {line} of the listing: {error}")]
    Petcat { line: usize, error: PetcatError },
    #[error("line {0} of the listing has no line number")]
    NoLineNumber(usize),
    #[error("line {0} of the listing: the line number is above 63999")]
    LineNumberTooBig(usize),
}

impl Program {
    /// The lines, in order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Enters a line as typing it does: replaces a line with the same number, keeps order.
    pub fn insert(&mut self, line: Line) {
        match self.lines.binary_search_by_key(&line.number, |l| l.number) {
            Ok(i) => self.lines[i] = line,
            Err(i) => self.lines.insert(i, line),
        }
    }

    /// Deletes line `number` if there is one.
    pub fn remove(&mut self, number: u16) {
        self.lines.retain(|l| l.number != number);
    }

    /// The program as it sits in memory from `start`: each line's link, number, body and 0, then
    /// the $0000 end link.
    pub fn to_memory(&self, start: u16) -> Vec<u8> {
        let mut out = Vec::new();
        for line in &self.lines {
            let next = start as usize + out.len() + 4 + line.body.len() + 1;
            out.extend_from_slice(&(next as u16).to_le_bytes());
            out.extend_from_slice(&line.number.to_le_bytes());
            out.extend_from_slice(&line.body);
            out.push(0);
        }
        out.extend_from_slice(&[0, 0]);
        out
    }

    /// The .prg file: load address $0801, then the program as the C64 saves it.
    pub fn to_prg(&self) -> Vec<u8> {
        let mut out = BASIC_START.to_le_bytes().to_vec();
        out.extend(self.to_memory(BASIC_START));
        out
    }

    /// Reads the program bytes as LOAD leaves them in memory (the load address already removed).
    /// The links are recomputed as the ROM's relink does, so their stored values do not matter;
    /// a line is its 2-byte link (0 ends the program), 2-byte number and body up to a 0.
    pub fn from_memory(bytes: &[u8]) -> Result<Program, ProgramError> {
        let mut lines = Vec::new();
        let mut at = 0;
        loop {
            let Some(link) = bytes.get(at..at + 2) else {
                // The ROM's relink also stops at the end of what was loaded: a file that ends
                // exactly after a line (no end link) is accepted.
                if at == bytes.len() {
                    break;
                }
                return Err(ProgramError::Truncated(at));
            };
            if link[1] == 0 {
                // The relink ends at a link whose high byte is 0.
                break;
            }
            let Some(num) = bytes.get(at + 2..at + 4) else {
                return Err(ProgramError::Truncated(at));
            };
            let number = u16::from_le_bytes([num[0], num[1]]);
            let Some(len) = bytes[at + 4..].iter().position(|&b| b == 0) else {
                return Err(ProgramError::Truncated(at));
            };
            lines.push(Line {
                number,
                body: bytes[at + 4..at + 4 + len].to_vec(),
            });
            at += 4 + len + 1;
        }
        let program = Program { lines };
        let size = program.to_memory(BASIC_START).len();
        if size > 0xA000 - BASIC_START as usize {
            return Err(ProgramError::TooLong(size));
        }
        Ok(program)
    }

    /// Reads a .prg file (any load address: LOAD "x",8 puts BASIC programs at $0801).
    pub fn from_prg(bytes: &[u8]) -> Result<Program, ProgramError> {
        if bytes.len() < 2 {
            return Err(ProgramError::NoLoadAddress);
        }
        Program::from_memory(&bytes[2..])
    }

    /// Tokenizes a petcat listing: each non-blank line is a line number and the text the ROM
    /// would crunch; the `;name ==0801==` header and blank lines are skipped, as petcat does.
    pub fn from_text(text: &str) -> Result<Program, ProgramError> {
        Program::from_text_in(text, Charset::Petcat)
    }

    /// Tokenizes a listing written in the given convention (petcat's, or upper-case ASCII).
    pub fn from_text_in(text: &str, charset: Charset) -> Result<Program, ProgramError> {
        let mut program = Program::default();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            if raw.trim().is_empty() || raw.trim_start().starts_with(';') {
                continue;
            }
            let bytes = petcat::text_to_bytes_in(raw, charset)
                .map_err(|error| ProgramError::Petcat { line: n, error })?;
            let line = parse_line(&bytes).map_err(|e| match e {
                LineError::NoNumber => ProgramError::NoLineNumber(n),
                LineError::TooBig => ProgramError::LineNumberTooBig(n),
            })?;
            if line.body.is_empty() {
                // A number alone deletes the line, as typing it does.
                program.remove(line.number);
            } else {
                program.insert(line);
            }
        }
        Ok(program)
    }

    /// Reads either form: a .prg (load address $0801 first) or a petcat text listing.
    pub fn read(bytes: &[u8]) -> Result<Program, ProgramError> {
        Program::read_in(bytes, Charset::Petcat)
    }

    /// Reads either form, a text listing in the given convention.
    pub fn read_in(bytes: &[u8], charset: Charset) -> Result<Program, ProgramError> {
        if bytes.starts_with(&[0x01, 0x08]) {
            return Program::from_prg(bytes);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Program::from_text_in(text, charset),
            Err(_) => Program::from_prg(bytes),
        }
    }

    /// The petcat listing (`petcat -2 -nh`): lower-case keywords, escapes in strings.
    pub fn to_text(&self) -> String {
        self.to_text_in(Charset::Petcat)
    }

    /// The listing in the given convention: petcat's, or upper-case ASCII as a type-in
    /// listing prints it (keywords in capitals).
    pub fn to_text_in(&self, charset: Charset) -> String {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str(&line.number.to_string());
            out.push(' ');
            detokenize_body(&line.body, charset, &mut out);
            out.push('\n');
        }
        out
    }
}

/// Why a typed line cannot be entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineError {
    NoNumber,
    TooBig,
}

/// A typed line (PETSCII): its number, as LINGET reads it (spaces between digits and after the
/// number are skipped, as CHRGET skips them), then the crunched rest.
pub fn parse_line(bytes: &[u8]) -> Result<Line, LineError> {
    let mut at = 0;
    while bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
        return Err(LineError::NoNumber);
    }
    let mut number: u32 = 0;
    while let Some(&b) = bytes.get(at) {
        if b.is_ascii_digit() {
            number = number * 10 + u32::from(b - b'0');
            if number > u32::from(MAX_LINE) {
                return Err(LineError::TooBig);
            }
        } else if b != b' ' {
            break;
        }
        at += 1;
    }
    Ok(Line {
        number: number as u16,
        body: crunch(&bytes[at..]),
    })
}

/// Detokenizes a line body into listing text: keywords outside strings (lower case in petcat's
/// convention, capitals in ASCII's), and the text after REM and inside strings and DATA as
/// petcat escapes, so the text crunches back to the same bytes.
pub fn detokenize_body(body: &[u8], charset: Charset, out: &mut String) {
    let byte = |b: u8, out: &mut String| petcat::byte_to_text_in(b, charset, out);
    let mut quote = false;
    let mut verbatim = false;
    let mut data = false;
    for &b in body {
        if quote || verbatim {
            if b == b'"' && !verbatim {
                quote = false;
            }
            byte(b, out);
            continue;
        }
        if data && b != b':' && b != b'"' {
            byte(b, out);
            continue;
        }
        match b {
            b'"' => {
                quote = true;
                out.push('"');
            }
            b':' => {
                data = false;
                out.push(':');
            }
            0xFF => out.push('~'),
            _ => match tokens::keyword(b) {
                Some(k) => {
                    match charset {
                        Charset::Petcat => out.push_str(&k.to_ascii_lowercase()),
                        Charset::Ascii => out.push_str(k),
                    }
                    if b == tokens::REM {
                        verbatim = true;
                    } else if b == tokens::DATA {
                        data = true;
                    }
                }
                None => byte(b, out),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm7_saves_as_the_reference_bytes() {
        // reference/cbm-basic.md 4.2: BM7 starts `01 08 | 0a 08 2c 01 99 22 53 22 00 | 12 08 90
        // 01 4b b2 30 00`.
        let p = Program::from_text("300 print\"s\"\n400 k=0\n").unwrap();
        assert_eq!(
            p.to_prg(),
            vec![
                0x01, 0x08, 0x0a, 0x08, 0x2c, 0x01, 0x99, 0x22, 0x53, 0x22, 0x00, 0x12, 0x08, 0x90, 0x01,
                0x4b, 0xb2, 0x30, 0x00, 0x00, 0x00
            ]
        );
    }

    #[test]
    fn text_round_trips_and_lines_sort_like_typing() {
        let text = "20 print \"{clr}hi{CBM-B}~\";a$:rem {rvon} for\n10 data a,\"b\",for:poke 1,2\n";
        let p = Program::from_text(text).unwrap();
        assert_eq!(p.lines()[0].number, 10);
        let listed = p.to_text();
        assert_eq!(
            listed,
            "10 data a,\"b\",for:poke 1,2\n20 print \"{clr}hi{CBM-B}~\";a$:rem {rvon} for\n"
        );
        assert_eq!(Program::from_text(&listed).unwrap(), p);
        assert_eq!(Program::from_prg(&p.to_prg()).unwrap(), p);
    }

    #[test]
    fn petcat_headers_and_blank_lines_are_skipped_and_bad_lines_reported() {
        let p = Program::from_text("\n;baba.prg ==0801==\n    1 rem\n").unwrap();
        assert_eq!(p.lines().len(), 1);
        assert_eq!(
            Program::from_text("print 1\n"),
            Err(ProgramError::NoLineNumber(1))
        );
        assert_eq!(
            Program::from_text("64000 print\n"),
            Err(ProgramError::LineNumberTooBig(1))
        );
    }

    #[test]
    fn truncated_and_tiny_files_are_errors_not_panics() {
        assert_eq!(Program::from_prg(&[1]), Err(ProgramError::NoLoadAddress));
        assert_eq!(
            Program::from_prg(&[1, 8, 5, 8, 10, 0, 0x99]),
            Err(ProgramError::Truncated(0))
        );
        assert_eq!(Program::from_prg(&[1, 8]).unwrap().lines().len(), 0);
    }
}
