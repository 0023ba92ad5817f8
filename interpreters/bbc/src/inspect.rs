//! The token inspector (`retro list --tokens`): each line's header, then its bytes grouped into
//! statements, each group of bytes with what it means (keyword, line number, text, string).
//!
//! [`inspect`] builds the view as data (for tests and for a TUI), [`render`] prints it.

use crate::detokenize::{Element, elements};
use crate::program::Program;
use crate::tokens;

/// Text runs are cut into rows of at most this many bytes so the hex column stays narrow.
const ROW_BYTES: usize = 8;

/// What a group of bytes is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A keyword token (one or two bytes); `note` says which form when it matters.
    Keyword {
        /// The LIST spelling.
        name: &'static str,
        /// "statement form" for &CF-&D3, "block ELSE" for &CC.
        note: Option<&'static str>,
    },
    /// `&8D` + 3 bytes and the line number they hold.
    LineNumber(u16),
    /// Plain characters: names, numbers, operators.
    Text,
    /// Characters of a string, with its quotes.
    Str,
    /// The verbatim tail after REM or DATA, or a star command.
    Verbatim,
    /// `:`, which ends a statement.
    Colon,
    /// A byte >= &7F that LIST cannot expand.
    Unknown,
}

/// A group of bytes in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Offset of the first byte from PAGE.
    pub offset: usize,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// What they are.
    pub kind: ItemKind,
}

/// One line of the program, its bytes grouped into statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineView {
    /// The line number.
    pub number: u16,
    /// Offset of the line's CR from PAGE.
    pub offset: usize,
    /// The length byte as it is written to the file.
    pub len_byte: u8,
    /// The 4 header bytes: CR, number high, number low, length.
    pub header: [u8; 4],
    /// Statements: split after `:`, THEN and ELSE, where the interpreter starts a new statement.
    pub statements: Vec<Vec<Item>>,
}

/// The whole view: lines, then where the end marker `&0D &FF` sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramView {
    /// The lines.
    pub lines: Vec<LineView>,
    /// Offset of the end marker from PAGE (TOP is 2 bytes later).
    pub end_offset: usize,
}

/// Builds the inspector's view of a program.
pub fn inspect(program: &Program) -> ProgramView {
    let mut lines = Vec::with_capacity(program.lines().len());
    let mut at = 0;
    for line in program.lines() {
        let header = crate::program::header_bytes(line);
        let mut statements: Vec<Vec<Item>> = vec![Vec::new()];
        let mut pos = at + 4;
        let mut verbatim = false;
        for e in elements(&line.body) {
            let len = e.len();
            let bytes = line.body[pos - at - 4..pos - at - 4 + len].to_vec();
            let current = statements.last_mut().expect("never empty");
            let (kind, ends_statement) = match e {
                Element::Keyword { name, bytes: b } => {
                    let note = match b[0] {
                        tokens::PTR_LEFT..=tokens::HIMEM_LEFT => Some("statement form"),
                        tokens::ELSE_BLOCK => Some("block ELSE"),
                        _ => None,
                    };
                    if matches!(b[0], tokens::REM | tokens::DATA)
                        || (b.len() == 2 && b[1] == tokens::cmd::EDIT)
                    {
                        verbatim = true;
                    }
                    let ends =
                        matches!(b[0], tokens::THEN | tokens::ELSE | tokens::ELSE_BLOCK) && b.len() == 1;
                    (ItemKind::Keyword { name, note }, ends)
                }
                Element::LineNumber { number, .. } => (ItemKind::LineNumber(number), false),
                Element::Unknown { .. } => (ItemKind::Unknown, false),
                Element::Char {
                    byte,
                    in_string,
                    in_rem,
                } => {
                    if in_rem || verbatim {
                        (ItemKind::Verbatim, false)
                    } else if in_string {
                        (ItemKind::Str, false)
                    } else if byte == b':' {
                        (ItemKind::Colon, true)
                    } else if byte == b'*'
                        && current
                            .iter()
                            .all(|i| i.kind == ItemKind::Text && i.bytes.iter().all(|&b| b == b' '))
                    {
                        // A star command at the start of a statement: the rest goes to the OS.
                        verbatim = true;
                        (ItemKind::Verbatim, false)
                    } else {
                        (ItemKind::Text, false)
                    }
                }
            };
            // Runs of characters of one kind share a row, up to ROW_BYTES.
            let mergeable = matches!(kind, ItemKind::Text | ItemKind::Str | ItemKind::Verbatim);
            match current.last_mut() {
                Some(prev) if mergeable && prev.kind == kind && prev.bytes.len() < ROW_BYTES => {
                    prev.bytes.extend_from_slice(&bytes);
                }
                _ => current.push(Item {
                    offset: pos,
                    bytes,
                    kind,
                }),
            }
            if ends_statement {
                statements.push(Vec::new());
            }
            pos += len;
        }
        if statements.len() > 1 && statements.last().is_some_and(Vec::is_empty) {
            statements.pop();
        }
        lines.push(LineView {
            number: line.number,
            offset: at,
            len_byte: header[3],
            header,
            statements,
        });
        at += line.len_byte();
    }
    ProgramView {
        lines,
        end_offset: at,
    }
}

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Shows bytes as characters, with control characters and bytes >= &7F as `<NN>` so every byte
/// is visible.
pub(crate) fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if (0x20..0x7F).contains(&b) {
                char::from(b).to_string()
            } else if b >= 0xA0 {
                // Latin-1 letters and symbols display as themselves.
                char::from(b).to_string()
            } else {
                format!("<{b:02X}>")
            }
        })
        .collect()
}

/// Renders the view for a terminal (`colour`: ANSI colours) or a pipe (plain text).
pub fn render(view: &ProgramView, colour: bool) -> String {
    let s = Style { on: colour };
    let hex_width = ROW_BYTES * 3 - 1;
    let mut out = String::new();
    for (i, line) in view.lines.iter().enumerate() {
        if i > 0 {
            // A blank line between program lines keeps each one's rows together on screen.
            out.push('\n');
        }
        out.push_str(&s.paint(
            "1",
            &format!(
                "Line {} at PAGE+&{:04X}, length &{:02X} ({} = 4 header + {} body)",
                line.number,
                line.offset,
                line.len_byte,
                line.len_byte,
                usize::from(line.len_byte).saturating_sub(4)
            ),
        ));
        out.push('\n');
        let row = |offset: usize, bytes: &[u8], what: String| {
            format!(
                "  {}  {:<hex_width$}  {}\n",
                s.paint("2", &format!("+{offset:04X}")),
                hex(bytes),
                what
            )
        };
        out.push_str(&row(
            line.offset,
            &line.header,
            s.paint(
                "2",
                &format!(
                    "CR, line number {} (&{:04X}), length &{:02X}",
                    line.number, line.number, line.len_byte
                ),
            ),
        ));
        let many = line.statements.len() > 1;
        for (n, statement) in line.statements.iter().enumerate() {
            if many {
                out.push_str(&s.paint("35", &format!("  -- statement {} --", n + 1)));
                out.push('\n');
            }
            for item in statement {
                let what = match &item.kind {
                    ItemKind::Keyword { name, note } => {
                        let mut w = s.paint("1;36", name);
                        if let Some(note) = note {
                            w.push_str(&s.paint("2", &format!(" ({note})")));
                        }
                        w
                    }
                    ItemKind::LineNumber(n) => s.paint("1;33", &format!("line number {n}")),
                    ItemKind::Text => format!("`{}`", printable(&item.bytes)),
                    ItemKind::Str => s.paint("32", &printable(&item.bytes)),
                    ItemKind::Verbatim => s.paint("2;32", &printable(&item.bytes)),
                    ItemKind::Colon => s.paint("35", ": end of statement"),
                    ItemKind::Unknown => s.paint("31", "not a token LIST knows"),
                };
                out.push_str(&row(item.offset, &item.bytes, what));
            }
        }
    }
    out.push_str(&format!(
        "  {}  {:<hex_width$}  {}\n",
        s.paint("2", &format!("+{:04X}", view.end_offset)),
        "0D FF",
        s.paint(
            "2",
            &format!("end of program (TOP = PAGE+&{:04X})", view.end_offset + 2)
        )
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Mode, tokenize_program};

    #[test]
    fn statements_split_at_colons_and_else_with_line_numbers_decoded() {
        let p = tokenize_program("10 IF x THEN 20 ELSE PRINT \"a:b\": REM c:d\n", Mode::Strict).unwrap();
        let view = inspect(&p);
        let line = &view.lines[0];
        assert_eq!(line.len_byte as usize, p.lines()[0].len_byte());
        // IF x THEN | 20 ELSE | PRINT "a:b": | REM c:d
        assert_eq!(line.statements.len(), 4);
        assert!(
            line.statements[1]
                .iter()
                .any(|i| i.kind == ItemKind::LineNumber(20))
        );
        assert!(
            line.statements[2]
                .iter()
                .any(|i| i.kind == ItemKind::Str && i.bytes.contains(&b':'))
        );
        assert!(line.statements[3].iter().any(|i| i.kind == ItemKind::Verbatim));
        let text = render(&view, false);
        assert!(text.contains("8D 54 54 40"), "{text}");
        assert!(text.contains("line number 20"));
        assert!(!text.contains('\x1b'));
        assert!(render(&view, true).contains("\x1b[1;36mPRINT"));
    }
}
