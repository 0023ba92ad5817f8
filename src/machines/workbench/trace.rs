//! `--trace-state`: a line of the program's state after every frame of a movie, in the fields a
//! trace description beside the program names (`PROGRAM.trace.txt`; NES Tetris's,
//! programs/tetris/tetris.trace.txt, gives the meta_nestris oracle's lines). The binary knows how
//! to read bytes (numbers, BCD, names, a field of cells); the program's file says which.
//!
//! The description is a list of views, each with its fields:
//!
//! ```text
//! view menu when in_game = 0      # the first view whose condition holds prints the line
//!   field menu_mode names CopyrightScreen TitleScreen
//! view play                       # no condition: always
//!   field score bcd 4             # 4 BCD bytes, most significant last
//!   field piece_x i8              # also u8 (the default); cells N: '#' or '.' per byte
//! ```
//!
//! A line is the frame number, the view's word and its fields, separated by spaces.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use retro_z80_machine::Program;

/// How a field's bytes are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    U8,
    I8,
    /// N BCD bytes, least significant first, as a decimal number.
    Bcd(usize),
    /// N bytes, each `#` when not zero and `.` when zero.
    Cells(u16),
    /// The byte as an index into these names (`?` past them).
    Names(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    addr: u16,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct View {
    word: String,
    /// Shown when the byte at the address has this value.
    when: Option<(u16, u8)>,
    fields: Vec<Field>,
}

/// A program's trace description, its labels resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    views: Vec<View>,
}

/// The description file for `program`: `NAME.trace.txt` in its directory.
pub fn file_for(program: &Path) -> PathBuf {
    let stem = program.file_stem().unwrap_or_default().to_string_lossy();
    program.with_file_name(format!("{stem}.trace.txt"))
}

impl Trace {
    /// The description beside the program file `path`, its labels looked up in `program`.
    pub fn beside(path: &Path, program: &Program) -> Result<Trace, String> {
        let file = file_for(path);
        let bytes = crate::files::read_limited(&file, crate::files::TEXT).map_err(|e| {
            format!(
                "--trace-state: the program has no trace description ({e}; docs/cli.md says what it holds)"
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
        Trace::parse(&text, |name| program.symbols.get(name))
            .map_err(|e| format!("--trace-state: {}: {e}", file.display()))
    }

    /// Parses a description; `label` gives a name's address.
    fn parse(text: &str, label: impl Fn(&str) -> Option<u16>) -> Result<Trace, String> {
        let addr = |name: &str| label(name).ok_or_else(|| format!("the program has no label `{name}`"));
        let mut views: Vec<View> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
            let at = |e: String| {
                // A missing label is the program's fault, not the line's: keep its words plain.
                if e.starts_with("the program") {
                    e
                } else {
                    format!("line {}: {e}", n + 1)
                }
            };
            match words.as_slice() {
                [] => {}
                ["view", word] => views.push(View {
                    word: word.to_string(),
                    when: None,
                    fields: vec![],
                }),
                ["view", word, "when", name, "=", value] => {
                    let value = value
                        .parse()
                        .map_err(|_| at(format!("`{value}` is not a byte value")))?;
                    views.push(View {
                        word: word.to_string(),
                        when: Some((addr(name).map_err(at)?, value)),
                        fields: vec![],
                    });
                }
                ["field", name, kind @ ..] => {
                    let view = views
                        .last_mut()
                        .ok_or_else(|| at("a field comes after its `view`".to_string()))?;
                    let count = |s: &str| s.parse::<u16>().map_err(|_| at(format!("`{s}` is not a count")));
                    let kind = match kind {
                        [] | ["u8"] => Kind::U8,
                        ["i8"] => Kind::I8,
                        ["bcd", n] => Kind::Bcd(usize::from(count(n)?)),
                        ["cells", n] => Kind::Cells(count(n)?),
                        ["names", names @ ..] if !names.is_empty() => {
                            Kind::Names(names.iter().map(|s| s.to_string()).collect())
                        }
                        _ => {
                            return Err(at(format!(
                                "`{}`: not u8, i8, bcd N, cells N or names A B ...",
                                kind.join(" ")
                            )));
                        }
                    };
                    view.fields.push(Field {
                        addr: addr(name).map_err(at)?,
                        kind,
                    });
                }
                _ => {
                    return Err(at(format!(
                        "`{}`: expected `view WORD [when LABEL = N]` or `field LABEL KIND`",
                        line.trim()
                    )));
                }
            }
        }
        if views.is_empty() {
            return Err("no `view` in it".to_string());
        }
        Ok(Trace { views })
    }

    /// The line for frame `frame` of memory `mem` (no line when no view's condition holds).
    pub fn line(&self, mem: &[u8], frame: usize, out: &mut String) {
        let byte = |a: u16| mem[usize::from(a)];
        let Some(view) = self
            .views
            .iter()
            .find(|v| v.when.is_none_or(|(a, value)| byte(a) == value))
        else {
            return;
        };
        let _ = write!(out, "{frame} {}", view.word);
        for f in &view.fields {
            out.push(' ');
            match &f.kind {
                Kind::U8 => {
                    let _ = write!(out, "{}", byte(f.addr));
                }
                Kind::I8 => {
                    let _ = write!(out, "{}", byte(f.addr) as i8);
                }
                Kind::Bcd(n) => {
                    let n = (0..*n as u16).rev().fold(0u64, |acc, i| {
                        let b = byte(f.addr.wrapping_add(i));
                        acc * 100 + u64::from(b >> 4) * 10 + u64::from(b & 15)
                    });
                    let _ = write!(out, "{n}");
                }
                Kind::Cells(n) => {
                    for i in 0..*n {
                        out.push(if byte(f.addr.wrapping_add(i)) != 0 {
                            '#'
                        } else {
                            '.'
                        });
                    }
                }
                Kind::Names(names) => {
                    out.push_str(names.get(usize::from(byte(f.addr))).map_or("?", |s| s.as_str()));
                }
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(name: &str) -> Option<u16> {
        ["mode", "score", "x", "field", "state"]
            .iter()
            .position(|&n| n == name)
            .map(|i| 0x100 * (i as u16 + 1))
    }

    const TEXT: &str = "# a test\nview menu when mode = 0\n  field state names A B\nview play\n  field score bcd 2\n  field x i8\n  field field cells 3\n";

    #[test]
    fn the_first_view_whose_condition_holds_prints_its_fields() {
        let t = Trace::parse(TEXT, labels).unwrap();
        let mut mem = vec![0u8; 0x10000];
        mem[0x500] = 1;
        let mut out = String::new();
        t.line(&mem, 7, &mut out);
        assert_eq!(out, "7 menu B\n");
        mem[0x100] = 1;
        mem[0x200] = 0x34;
        mem[0x201] = 0x12;
        mem[0x300] = 0xFE;
        mem[0x402] = 9;
        out.clear();
        t.line(&mem, 8, &mut out);
        assert_eq!(out, "8 play 1234 -2 ..#\n");
        mem[0x500] = 5;
        mem[0x100] = 0;
        out.clear();
        t.line(&mem, 9, &mut out);
        assert_eq!(out, "9 menu ?\n", "a byte past the names");
    }

    #[test]
    fn mistakes_name_the_line_and_missing_labels_the_label() {
        assert_eq!(
            Trace::parse("view a\n field nosuch\n", labels).unwrap_err(),
            "the program has no label `nosuch`"
        );
        assert!(
            Trace::parse("field x\n", labels)
                .unwrap_err()
                .starts_with("line 1:")
        );
        assert!(
            Trace::parse("view a\n field x bcd\n", labels)
                .unwrap_err()
                .starts_with("line 2:")
        );
        assert!(
            Trace::parse("# nothing\n", labels)
                .unwrap_err()
                .contains("no `view`")
        );
    }

    /// NES Tetris's description, beside its source, names only labels its RAM has and prints the
    /// oracle's two kinds of line.
    #[test]
    fn the_tetris_description_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(file_for(&root.join("programs/tetris/tetris.asm"))).unwrap();
        let t = Trace::parse(&text, |_| Some(0x4000)).unwrap();
        assert_eq!(t.views.len(), 2);
        assert_eq!(t.views[1].fields.len(), 13);
    }
}
