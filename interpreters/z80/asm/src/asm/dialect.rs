//! Dialects: which assembler's syntax a source is written for, how it is recognised, and the
//! sjasmplus line forms that are settled when a file is read (`:` between statements, temporary
//! label references).

use super::mnemonics::is_mnemonic;
use crate::lexer::{Line, Tk, Tok};
use std::path::PathBuf;
use std::rc::Rc;

/// The syntax a source follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// pasmo / z80asm (Debian's assemblers): the default.
    #[default]
    Pasmo,
    /// sjasmplus, the assembler most ZX Spectrum projects use: `DEVICE`, `SAVESNA`, `MODULE`,
    /// `STRUCT`, `DUP`, temporary labels, `:` between statements, fake instructions.
    Sjasmplus,
}

/// How to assemble: the dialect (None: recognised from the source) and the command-line settings
/// of the assembler the dialect comes from.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub dialect: Option<Dialect>,
    /// Names defined before the first line, with their value's text: sjasmplus's `-D NAME[=VALUE]`
    /// (a DEFINE; without a value it stands for nothing, as in sjasmplus) and pasmo's
    /// `--equ NAME[=VALUE]` (an EQU; FFFFh without a value, as in pasmo).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR`: directories INCLUDE and INCBIN search after the including file's own directory
    /// (and, in the sjasmplus dialect, after the directory the assembler was started in).
    pub include_dirs: Vec<PathBuf>,
    /// pasmo's `--alocal`: names starting with `_` are local to the previous label without one.
    pub alocal: bool,
}

impl Dialect {
    /// The dialect a source is written in: sjasmplus when an indented line starts with `DEVICE`
    /// (sjasmplus's virtual-machine directive, which no pasmo or z80asm source has), else pasmo.
    pub fn detect(text: &str) -> Dialect {
        let device = text.lines().any(|l| {
            l.starts_with([' ', '\t'])
                && l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.eq_ignore_ascii_case("device"))
        });
        if device {
            Dialect::Sjasmplus
        } else {
            Dialect::Pasmo
        }
    }
}

/// The name a temporary-label reference is given (`1B`, `1_b` -> `1_B`), or None.
fn temp_ref(text: &str, bare: bool) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let (digits, dir) = match lower.strip_suffix("_b").or_else(|| lower.strip_suffix("_f")) {
        Some(d) => (d, &lower[lower.len() - 1..]),
        None if bare => {
            let d = lower.strip_suffix('b').or_else(|| lower.strip_suffix('f'))?;
            (d, &lower[lower.len() - 1..])
        }
        None => return None,
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{digits}_{}", dir.to_ascii_uppercase()))
}

/// Splits a temporary-label reference name (`1_B`) into its number and direction (true =
/// forward).
pub(super) fn parse_temp_ref(name: &str) -> Option<(i64, bool)> {
    let (n, dir) = name.split_once('_')?;
    let forward = match dir {
        "F" => true,
        "B" => false,
        _ => return None,
    };
    Some((n.parse().ok()?, forward))
}

/// The sjasmplus forms of a file's lines: each `:`-separated statement becomes a line of its own
/// (a colon right after a label in column 0 stays the label's), and temporary-label references become
/// names (`1_B`, `1_F` anywhere; the older `1B`, `1F` in jumps and calls, where `1B` is otherwise
/// the binary number 1).
pub(super) fn sjasmplus_lines(lines: Vec<Line>, text: &str) -> Vec<Line> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let toks = &line.toks[..];
        let mut start = 0;
        let mut pieces: Vec<Vec<Tok>> = vec![];
        for (i, t) in toks.iter().enumerate() {
            // Labels start in column 0 (an indented `ldi : ldd` is two instructions).
            let col0 = toks[0].start == 0 || text.as_bytes().get(toks[0].start as usize - 1) == Some(&b'\n');
            let label_colon = i == 1 && col0 && matches!(toks[0].kind, Tk::Ident(_) | Tk::Number(_));
            if t.kind == Tk::Colon && !label_colon {
                pieces.push(toks[start..i].to_vec());
                start = i + 1;
            }
        }
        pieces.push(toks[start..].to_vec());
        let several = pieces.len() > 1;
        for piece in pieces {
            if several && piece.is_empty() {
                continue;
            }
            let mut piece = join_marked_names(piece, text);
            // The operation word: after a leading label (a name or number, with or without colon).
            let op = piece
                .iter()
                .position(|t| matches!(&t.kind, Tk::Ident(s) if is_mnemonic(s)))
                .map(|k| text[piece[k].span()].to_ascii_lowercase());
            let branch = matches!(op.as_deref(), Some("jr" | "jp" | "djnz" | "call"));
            for (k, t) in piece.iter_mut().enumerate() {
                // Double-quoted strings take sjasmplus's escapes, not pasmo's the lexer applied.
                if let Tk::Str(_) = t.kind
                    && text.as_bytes()[t.start as usize] == b'"'
                {
                    t.kind = Tk::Str(crate::lexer::unescape_sjasmplus(&text[t.span()]));
                }
                if let Tk::Number(_) = t.kind
                    && k > 0
                    && let Some(name) = temp_ref(&text[t.span()], branch)
                {
                    t.kind = Tk::Ident(Rc::from(name));
                }
            }
            out.push(Line {
                toks: piece.into(),
                ..line.clone()
            });
        }
    }
    out
}

/// sjasmplus names may hold `!` and `#` (`lab!`, `lab#2`): a name with one of them right after
/// it (no space) is joined with it and the name characters that follow into one name.
fn join_marked_names(toks: Vec<Tok>, text: &str) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    for t in toks {
        let joins = match out.last() {
            Some(prev) if prev.end == t.start && prev.file == t.file => {
                let marked = text[prev.span()].contains(['!', '#']);
                match t.kind {
                    Tk::Bang | Tk::Hash => matches!(prev.kind, Tk::Ident(_)),
                    Tk::Ident(_) | Tk::Number(_) => marked && matches!(prev.kind, Tk::Ident(_)),
                    _ => false,
                }
            }
            _ => false,
        };
        match out.last_mut() {
            Some(prev) if joins => {
                prev.end = t.end;
                prev.kind = Tk::Ident(Rc::from(&text[prev.span()]));
            }
            _ => out.push(t),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_line_means_sjasmplus() {
        assert_eq!(
            Dialect::detect("  DEVICE ZXSPECTRUM48\n org 8000h\n"),
            Dialect::Sjasmplus
        );
        assert_eq!(Dialect::detect("device equ 5\n ld a,device\n"), Dialect::Pasmo);
        assert_eq!(Dialect::detect(" org 8000h\n"), Dialect::Pasmo);
    }

    #[test]
    fn temporary_label_references() {
        assert_eq!(temp_ref("1_b", false).as_deref(), Some("1_B"));
        assert_eq!(temp_ref("12_F", false).as_deref(), Some("12_F"));
        assert_eq!(temp_ref("1B", false), None);
        assert_eq!(temp_ref("1B", true).as_deref(), Some("1_B"));
        assert_eq!(temp_ref("0FFh", true), None);
        assert_eq!(parse_temp_ref("3_F"), Some((3, true)));
    }
}
