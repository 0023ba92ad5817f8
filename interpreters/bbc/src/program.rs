//! Programs: the RISC OS tokenized format (as a file and as program memory from PAGE), text
//! listings, and telling the two apart.
//!
//! The tokenized format is a sequence of lines `&0D hi lo len body...`, where `len` counts the whole
//! line (CR, both number bytes, the length byte and the body, so at most 255), followed by the end
//! marker `&0D &FF`. A file holds exactly the bytes that sit in memory from PAGE to TOP.

use std::ops::Range;

use crate::detokenize::{latin1_to_string, list_line};
use crate::tokenize::{MAX_BODY_LEN, Mode, tokenize_line_mapped};
use crate::tokens::{self, CR, MAX_LINE_NUMBER};

/// One program line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line number, 0..=65279.
    pub number: u16,
    /// The tokenized body: the bytes after the 4-byte header, without the next line's CR.
    pub body: Vec<u8>,
}

impl Line {
    /// The line's length byte: body + CR, two number bytes and the length byte itself.
    pub fn len_byte(&self) -> usize {
        self.body.len() + 4
    }
}

/// A tokenized BBC BASIC V program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    lines: Vec<Line>,
}

/// Why bytes are not a tokenized program (RISC OS says "Bad program").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The file is empty.
    #[error("Bad program: the file is empty")]
    Empty,
    /// A line does not start with &0D.
    #[error("Bad program: expected &0D at offset &{offset:04X}, found &{found:02X}")]
    MissingCr {
        /// Offset in the file.
        offset: usize,
        /// The byte found there.
        found: u8,
    },
    /// A line's length byte is below 4 (RISC OS's own check) or runs past the end of the file.
    #[error("Bad program: line {number} at offset &{offset:04X} has length &{len:02X}{why}")]
    BadLength {
        /// Offset of the line's CR.
        offset: usize,
        /// The line number.
        number: u16,
        /// The length byte.
        len: u8,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The file ends before the end marker (`&0D &FF`; a zero length byte in the BBC BASIC for
    /// Windows format).
    #[error("Bad program: no end marker before the end of the file at offset &{offset:04X}")]
    NoEnd {
        /// The file length.
        offset: usize,
    },
    /// BBC BASIC for Windows format: a line does not end with &0D where its length byte says.
    #[error("Bad program: line {number} should end with &0D at offset &{offset:04X}, found &{found:02X}")]
    NoLineEnd {
        /// Offset of the byte that should be the CR.
        offset: usize,
        /// The line number.
        number: u16,
        /// The byte found there.
        found: u8,
    },
    /// BBC BASIC for Windows format: a line number above 65279, which RISC OS cannot hold.
    #[error("Bad program: line number {number} at offset &{offset:04X} is above 65279")]
    LineNumberTooBig {
        /// Offset of the line's length byte.
        offset: usize,
        /// The line number.
        number: u16,
    },
    /// BBC BASIC for Windows format: a line that grows past 251 bytes in RISC OS's tokens (its
    /// keywords SUM, WHILE, CASE... take two bytes there).
    #[error(
        "Line too long: line {number} at offset &{offset:04X} is {len} bytes in RISC OS's tokens, where a line holds at most 251"
    )]
    TooLongForRiscOs {
        /// Offset of the line's length byte.
        offset: usize,
        /// The line number.
        number: u16,
        /// The converted body's length.
        len: usize,
    },
}

impl ProgramError {
    /// The file offset the error is about.
    pub fn offset(&self) -> usize {
        match *self {
            ProgramError::Empty => 0,
            ProgramError::MissingCr { offset, .. }
            | ProgramError::BadLength { offset, .. }
            | ProgramError::NoEnd { offset }
            | ProgramError::NoLineEnd { offset, .. }
            | ProgramError::LineNumberTooBig { offset, .. }
            | ProgramError::TooLongForRiscOs { offset, .. } => offset,
        }
    }
}

/// Renders a "Bad program" error over a hex dump of the file (16 bytes a row, so `file:row:col`
/// locates the byte), pointing at the offending bytes. Only the rows around the error are dumped,
/// so a huge file costs no more than a small one.
pub fn render_bad_program(file_name: &str, bytes: &[u8], err: &ProgramError, colour: bool) -> String {
    /// Rows shown before and after the offending one.
    const CONTEXT_ROWS: usize = 2;
    let rows = bytes.len().div_ceil(16);
    // At the end of the file, point at the last byte.
    let at = err.offset().min(bytes.len().saturating_sub(1));
    let row = at / 16;
    let first_row = row.saturating_sub(CONTEXT_ROWS);
    let last_row = (row + CONTEXT_ROWS).min(rows.saturating_sub(1));
    let mut dump = String::new();
    let mut spans = Vec::new(); // (file offset, span in dump)
    for r in first_row..=last_row {
        if r >= rows {
            break;
        }
        dump.push_str(&format!("{:04X}:", r * 16));
        for (i, b) in bytes[r * 16..((r + 1) * 16).min(bytes.len())].iter().enumerate() {
            dump.push(' ');
            spans.push((r * 16 + i, dump.len()..dump.len() + 2));
            dump.push_str(&format!("{b:02x}"));
        }
        dump.push('\n');
    }
    if dump.is_empty() {
        dump.push_str("(empty file)\n");
    }
    let span_of = |offset: usize| spans.iter().find(|(o, _)| *o == offset).map(|(_, s)| s.clone());
    let span = span_of(at).unwrap_or(0..dump.len() - 1);
    let span = match err {
        // The header is 4 bytes: CR, number high, number low, length (on the row of its CR).
        ProgramError::BadLength { offset, .. } => {
            let last = (offset + 3).min(bytes.len().saturating_sub(1)).min(row * 16 + 15);
            span.start..span_of(last).map_or(span.end, |s| s.end)
        }
        _ => span,
    };
    let what = match err {
        ProgramError::Empty => "no bytes at all",
        ProgramError::MissingCr { .. } => "a line must start with &0D here",
        ProgramError::BadLength { .. } => "this line's header",
        ProgramError::NoEnd { .. } => "the file ends here, without an end marker",
        ProgramError::NoLineEnd { .. } => "the line should end with &0D here",
        ProgramError::LineNumberTooBig { .. } => "this line's length byte",
        ProgramError::TooLongForRiscOs { .. } => "this line",
    };
    let report = retro_diag::Report {
        span,
        message: err.to_string(),
        label: what.into(),
        help: None,
        note: Some("the file is shown as a hex dump: row = offset / 16 + 1".into()),
    };
    retro_diag::render(file_name, &dump, first_row + 1, &[report], 1, colour)
}

impl Program {
    /// A program from lines (in the order given; the caller keeps them sorted).
    pub fn new(lines: Vec<Line>) -> Self {
        Program { lines }
    }

    /// The lines, in program order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Consumes the program, giving its lines.
    pub fn into_lines(self) -> Vec<Line> {
        self.lines
    }

    /// The line with this number, if any.
    pub fn line(&self, number: u16) -> Option<&Line> {
        self.lines.iter().find(|l| l.number == number)
    }

    /// Where line `number` is, or where it would go: `Ok(index)` if the program has it, `Err(index)`
    /// of the first line after it otherwise (what GOTO and RESTORE need). The lines must be in
    /// ascending order, as programs are.
    pub fn line_index(&self, number: u16) -> Result<usize, usize> {
        self.lines.binary_search_by_key(&number, |l| l.number)
    }

    /// Each line's offset from PAGE (where its CR sits), in order.
    pub fn line_offsets(&self) -> Vec<usize> {
        let mut at = 0;
        self.lines
            .iter()
            .map(|l| {
                let here = at;
                at += l.len_byte();
                here
            })
            .collect()
    }

    /// The program as it sits in memory from PAGE to TOP, which is also the file format.
    /// A body longer than 251 bytes cannot be represented; such lines are truncated here, and
    /// [`crate::tokenize_program`] never produces them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.lines.iter().map(Line::len_byte).sum::<usize>() + 2);
        for line in &self.lines {
            let body = &line.body[..line.body.len().min(MAX_BODY_LEN)];
            out.push(CR);
            out.extend_from_slice(&line.number.to_be_bytes());
            out.push((body.len() + 4) as u8);
            out.extend_from_slice(body);
        }
        out.extend_from_slice(&[CR, 0xFF]);
        out
    }

    /// Reads a tokenized program. Follows the chain of length bytes as RISC OS does (each line must
    /// start with &0D and have a length of at least 4) up to the `&0D &FF` end marker; bytes after
    /// the marker are ignored, as RISC OS ignores them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Program, ProgramError> {
        if bytes.is_empty() {
            return Err(ProgramError::Empty);
        }
        let mut lines = Vec::new();
        let mut at = 0;
        loop {
            match bytes.get(at) {
                Some(&CR) => {}
                Some(&found) => return Err(ProgramError::MissingCr { offset: at, found }),
                None => return Err(ProgramError::NoEnd { offset: bytes.len() }),
            }
            let Some(&hi) = bytes.get(at + 1) else {
                return Err(ProgramError::NoEnd { offset: bytes.len() });
            };
            if hi == 0xFF {
                return Ok(Program { lines });
            }
            let (Some(&lo), Some(&len)) = (bytes.get(at + 2), bytes.get(at + 3)) else {
                return Err(ProgramError::NoEnd { offset: bytes.len() });
            };
            let number = u16::from_be_bytes([hi, lo]);
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
            lines.push(Line {
                number,
                body: bytes[at + 4..end].to_vec(),
            });
            at = end;
        }
    }

    /// LIST of the whole program: one line per program line, each ended by `\n`, as text (Latin-1
    /// decoded).
    pub fn list(&self) -> String {
        list(self)
    }
}

/// LIST of a whole program (see [`Program::list`]).
pub fn list(program: &Program) -> String {
    let mut out = String::new();
    for line in program.lines() {
        out.push_str(&latin1_to_string(&list_line(line.number, &line.body)));
        out.push('\n');
    }
    out
}

/// What kind of mistake a diagnostic reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticKind {
    /// The tokenized line is over 251 bytes (RISC OS: "Line too long").
    LineTooLong,
    /// A line number above 65279.
    LineNumberOutOfRange,
    /// Line numbers that do not increase.
    LineOrder,
    /// Some lines numbered and some not.
    MixedNumbering,
    /// A character RISC OS cannot hold (outside Latin-1).
    BadCharacter,
    /// Stands for this many further mistakes, found but not kept (always last in the list).
    Omitted(usize),
}

/// The most diagnostics [`tokenize_program`] keeps; later ones are only counted (in a final
/// [`DiagnosticKind::Omitted`]), so a listing of garbage costs bounded memory.
pub const MAX_DIAGNOSTICS: usize = 1000;

/// Diagnostics as they are found: the first [`MAX_DIAGNOSTICS`] kept, the rest counted.
#[derive(Default)]
struct Collected {
    kept: Vec<Diagnostic>,
    omitted: usize,
}

impl Collected {
    fn push(&mut self, d: Diagnostic) {
        self.push_with(|| d);
    }

    /// Like `push`, building the diagnostic only if it is kept (for one-per-character ones).
    fn push_with(&mut self, d: impl FnOnce() -> Diagnostic) {
        if self.kept.len() < MAX_DIAGNOSTICS {
            self.kept.push(d());
        } else {
            self.omitted += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        if self.omitted > 0 {
            self.kept.push(Diagnostic {
                kind: DiagnosticKind::Omitted(self.omitted),
                span: 0..0,
                text_line: 0,
                message: format!("{} more mistakes", self.omitted),
                help: None,
            });
        }
        self.kept
    }
}

/// A mistake in a text listing, located in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The kind of mistake.
    pub kind: DiagnosticKind,
    /// Byte range in the text (a `&str` index range).
    pub span: Range<usize>,
    /// 1-based line in the text file.
    pub text_line: usize,
    /// The message, in RISC OS's words where RISC OS has them.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

/// Tokenizes a text listing into a program.
///
/// Lines may carry numbers (`10 PRINT`: the body is everything after the digits, spaces included,
/// as RISC OS keeps it) or none at all, in which case they are numbered 1, 2, 3... as Brandy does.
/// Blank lines are skipped in numbered listings and kept as empty lines in unnumbered ones (Brandy
/// again). Line ends may be LF, CRLF or CR. All mistakes are reported, not just the first.
pub fn tokenize_program(text: &str, mode: Mode) -> Result<Program, Vec<Diagnostic>> {
    let mut diags = Collected::default();
    let mut raw_lines = Vec::new();
    let mut text_line = 0;
    let mut rest = text;
    let mut base = 0;
    while !rest.is_empty() {
        text_line += 1;
        let (line, used) = match rest.find(['\n', '\r']) {
            Some(p) => {
                let used = if rest[p..].starts_with("\r\n") {
                    p + 2
                } else {
                    p + 1
                };
                (&rest[..p], used)
            }
            None => (rest, rest.len()),
        };
        raw_lines.push((text_line, base, line));
        base += used;
        rest = &rest[used..];
    }
    // Numbered or not: decided by the non-blank lines.
    let is_numbered = |l: &str| {
        l.trim_start_matches(' ')
            .starts_with(|c: char| c.is_ascii_digit())
    };
    let non_blank: Vec<_> = raw_lines
        .iter()
        .filter(|(_, _, l)| !l.trim().is_empty())
        .collect();
    let numbered = non_blank.iter().filter(|(_, _, l)| is_numbered(l)).count();
    let all_numbered = numbered > 0;
    if numbered > 0 && numbered < non_blank.len() {
        let first_numbered = non_blank.iter().find(|(_, _, l)| is_numbered(l)).unwrap();
        for (tl, start, l) in non_blank.iter().filter(|(_, _, l)| !is_numbered(l)) {
            diags.push(Diagnostic {
                kind: DiagnosticKind::MixedNumbering,
                span: *start..*start + l.len(),
                text_line: *tl,
                message: "This line has no line number, but other lines have one".into(),
                help: Some(format!(
                    "number every line, or none (line {} of the file is numbered)",
                    first_numbered.0
                )),
            });
        }
        return Err(diags.finish());
    }

    let mut lines: Vec<Line> = Vec::new();
    let mut previous: Option<(u16, usize)> = None;
    let mut next_unnumbered: u32 = 1;
    for (tl, start, l) in raw_lines {
        let (number, body_start, number_span) = if all_numbered {
            if l.trim().is_empty() {
                continue;
            }
            let lead = l.len() - l.trim_start_matches(' ').len();
            let digits = l[lead..].bytes().take_while(u8::is_ascii_digit).count();
            let value: u64 = l[lead..lead + digits].bytes().fold(0u64, |v, d| {
                (v * 10 + u64::from(d - b'0')).min(u64::from(u32::MAX))
            });
            let span = start + lead..start + lead + digits;
            if value > u64::from(MAX_LINE_NUMBER) {
                diags.push(Diagnostic {
                    kind: DiagnosticKind::LineNumberOutOfRange,
                    span,
                    text_line: tl,
                    message: "Line number out of range".into(),
                    help: Some(format!("line numbers go from 0 to {MAX_LINE_NUMBER}")),
                });
                continue;
            }
            (value as u16, lead + digits, span)
        } else {
            let n = next_unnumbered;
            next_unnumbered += 1;
            if n > u32::from(MAX_LINE_NUMBER) {
                diags.push(Diagnostic {
                    kind: DiagnosticKind::LineNumberOutOfRange,
                    span: start..start + l.len(),
                    text_line: tl,
                    message: "Line number out of range".into(),
                    help: Some(format!(
                        "an unnumbered listing is numbered from 1, and {MAX_LINE_NUMBER} is the last line number"
                    )),
                });
                break;
            }
            (n as u16, 0, start..start)
        };
        if let Some((prev, prev_line)) = previous
            && number <= prev
        {
            diags.push(Diagnostic {
                kind: DiagnosticKind::LineOrder,
                span: number_span.clone(),
                text_line: tl,
                message: format!("Line {number} comes after line {prev}"),
                help: Some(format!(
                    "line numbers must increase (line {prev} is on line {prev_line} of the file); RISC OS would silently reorder or replace lines"
                )),
            });
        }
        previous = Some((number, tl));

        // The body as Latin-1 bytes, remembering where each byte sits in the text.
        let body_text = &l[body_start..];
        let mut bytes = Vec::with_capacity(body_text.len());
        let mut offsets = Vec::with_capacity(body_text.len() + 1);
        for (off, ch) in body_text.char_indices() {
            let at = start + body_start + off;
            match u8::try_from(u32::from(ch)) {
                Ok(b) => {
                    bytes.push(b);
                    offsets.push(at);
                }
                Err(_) => diags.push_with(|| Diagnostic {
                    kind: DiagnosticKind::BadCharacter,
                    span: at..at + ch.len_utf8(),
                    text_line: tl,
                    message: format!("'{ch}' (U+{:04X}) is not a RISC OS character", u32::from(ch)),
                    help: Some("RISC OS text is Latin-1: characters up to U+00FF".into()),
                }),
            }
        }
        let t = tokenize_line_mapped(&bytes, mode);
        if t.bytes.len() > MAX_BODY_LEN {
            let first_over = offsets.get(t.source[MAX_BODY_LEN]).copied().unwrap_or(start);
            let line_end = start + l.len();
            diags.push(Diagnostic {
                kind: DiagnosticKind::LineTooLong,
                span: first_over..line_end.max(first_over + 1),
                text_line: tl,
                message: "Line too long".into(),
                help: Some(format!(
                    "line {number} tokenizes to {} bytes; a line holds at most {MAX_BODY_LEN} (length byte {} > 255){}",
                    t.bytes.len(),
                    t.bytes.len() + 4,
                    if mode == Mode::Strict {
                        "; a listing made by poking spaces out of a program (like Rheolism) must be tokenized with `retro tok --crunch FILE -o OUT`, then run"
                    } else {
                        ""
                    }
                )),
            });
            continue;
        }
        lines.push(Line {
            number,
            body: t.bytes,
        });
    }
    if diags.is_empty() {
        Ok(Program::new(lines))
    } else {
        Err(diags.finish())
    }
}

/// Renders diagnostics (`file:line:col`, the source line and an underline): the first
/// [`retro_diag::MAX_SHOWN`] in full, then how many more there are. Linear in the text, whatever
/// the number of diagnostics; control characters in the listing are shown escaped.
pub fn render_diagnostics(file_name: &str, text: &str, diags: &[Diagnostic], colour: bool) -> String {
    let total = diags
        .iter()
        .map(|d| match d.kind {
            DiagnosticKind::Omitted(n) => n,
            _ => 1,
        })
        .sum();
    let reports: Vec<retro_diag::Report> = diags
        .iter()
        .filter(|d| !matches!(d.kind, DiagnosticKind::Omitted(_)))
        .take(retro_diag::MAX_SHOWN)
        .map(|d| retro_diag::Report {
            span: d.span.clone(),
            message: d.message.clone(),
            label: label_text(d.kind).into(),
            help: d.help.clone(),
            note: None,
        })
        .collect();
    retro_diag::render(file_name, text, 1, &reports, total, colour)
}

fn label_text(kind: DiagnosticKind) -> &'static str {
    match kind {
        DiagnosticKind::LineTooLong => "the tokenized line is over 255 bytes from here",
        DiagnosticKind::LineNumberOutOfRange => "this line number",
        DiagnosticKind::LineOrder => "this line number is not above the one before",
        DiagnosticKind::MixedNumbering => "no line number here",
        DiagnosticKind::BadCharacter => "this character",
        DiagnosticKind::Omitted(_) => "",
    }
}

/// The memory offset (from PAGE) and the length byte a line would have: helpers for views.
pub fn header_bytes(line: &Line) -> [u8; 4] {
    let [hi, lo] = line.number.to_be_bytes();
    [tokens::CR, hi, lo, line.len_byte().min(255) as u8]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, decode_text, detect};

    #[test]
    fn file_round_trip_and_offsets() {
        let p = tokenize_program("10 PRINT \"hi\"\n20 GOTO 10\n", Mode::Strict).unwrap();
        let bytes = p.to_bytes();
        assert_eq!(&bytes[..4], &[0x0D, 0x00, 0x0A, 4 + 7]);
        assert_eq!(&bytes[bytes.len() - 2..], &[0x0D, 0xFF]);
        assert_eq!(Program::from_bytes(&bytes).unwrap(), p);
        assert_eq!(p.line_offsets(), vec![0, 11]);
        assert_eq!(p.line_index(20), Ok(1));
        assert_eq!(p.line_index(15), Err(1));
        assert_eq!(p.line(10).unwrap().body[1], crate::tokens::PRINT);
        assert_eq!(p.list(), "   10 PRINT \"hi\"\n   20 GOTO 10\n");
    }

    #[test]
    fn bad_files_are_reported_not_panicked_on() {
        assert_eq!(Program::from_bytes(&[]), Err(ProgramError::Empty));
        assert!(matches!(
            Program::from_bytes(b"\x0d\x00\x0a\x03"),
            Err(ProgramError::BadLength { .. })
        ));
        assert!(matches!(
            Program::from_bytes(b"\x0d\x00\x0a\x09ab"),
            Err(ProgramError::BadLength { .. })
        ));
        assert!(matches!(
            Program::from_bytes(b"\x0d\x00\x0a\x04"),
            Err(ProgramError::NoEnd { .. })
        ));
        assert!(matches!(
            Program::from_bytes(b"\x0d\x00\x0a\x04X"),
            Err(ProgramError::MissingCr { .. })
        ));
    }

    #[test]
    fn text_files_decode_as_utf8_or_latin1_without_a_bom() {
        assert_eq!(decode_text("\u{FEFF}10 PRINT \"£\"".as_bytes()), "10 PRINT \"£\"");
        assert_eq!(decode_text(b"10 PRINT \"\xA3\""), "10 PRINT \"£\"");
        assert_eq!(detect(b"\x0d\x00"), Format::Tokenized);
        assert_eq!(detect(b"10 PRINT"), Format::Text);
    }

    #[test]
    fn unnumbered_listings_are_numbered_from_one() {
        let p = tokenize_program("PRINT 1\n\n  PRINT 2\n", Mode::Strict).unwrap();
        let numbers: Vec<u16> = p.lines().iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 2, 3]);
        assert_eq!(p.lines()[2].body, b"  \xF1 2");
    }
}
