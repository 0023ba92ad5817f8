//! The assembler's lexer (logos). Numbers are lexed as one word and interpreted afterwards, because
//! Z80 syntaxes overlap: `0bh` is hex, `0b101` and `101b` are binary, `0FFh` is hex.
use logos::Logos;
use std::rc::Rc;

#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(skip r"[ \t\r\f]+")]
#[logos(skip(r";[^\n]*", allow_greedy = true))]
pub enum Tk {
    #[token("\n")]
    Newline,
    /// A name; sjasmplus's global labels start with `@`.
    #[regex(r"[A-Za-z_.@][A-Za-z0-9_.?@]*", |l| Rc::<str>::from(l.slice()))]
    Ident(Rc<str>),
    /// `af'` (the alternate register set in `ex af,af'`).
    #[regex(r"[aA][fF]'")]
    AfAlt,
    /// A decimal, hex (`0FFh`, `0xFF`), binary (`0b101`, `101b`) or octal (`17o`, `17q`) number.
    #[regex(r"[0-9][0-9A-Za-z_]*", |l| parse_number(l.slice()))]
    Number(Option<i64>),
    /// `$FF`
    #[regex(r"\$[0-9A-Fa-f]+", |l| i64::from_str_radix(&l.slice()[1..], 16).ok())]
    DollarHex(Option<i64>),
    #[token("$")]
    Dollar,
    /// A string. In double quotes backslash escapes work as in pasmo (the sjasmplus dialect
    /// re-reads them by its own rules, [`unescape_sjasmplus`]); single quotes take every character
    /// literally, as pasmo and sjasmplus do (`'\n'` is 5C 6E). In both, a doubled quote stands
    /// for one (`'It''s'`, `cp ''''`).
    #[regex(r#""([^"\\\n]|\\[^\n]|"")*""#, |l| unescape(l.slice()))]
    #[regex(r"'([^'\n]|'')*'", |l| literal(l.slice()))]
    Str(Rc<[u8]>),
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("#")]
    Hash,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("=")]
    Eq,
    #[token("!=")]
    #[token("<>")]
    Ne,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("?")]
    Question,
    #[token("\\")]
    Backslash,
}

/// Interprets one number word. Returns None for a malformed number (reported by the parser).
pub fn parse_number(s: &str) -> Option<i64> {
    let t: String = s
        .chars()
        .filter(|&c| c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x") {
        (h, 16)
    } else if let Some(h) = t.strip_suffix('h') {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b") {
        (b, 2)
    } else if let Some(b) = t.strip_suffix('b') {
        (b, 2)
    } else if let Some(o) = t.strip_suffix('o').or_else(|| t.strip_suffix('q')) {
        (o, 8)
    } else if let Some(d) = t.strip_suffix('d') {
        (d, 10)
    } else {
        (t.as_str(), 10)
    };
    if digits.is_empty() {
        return None;
    }
    i64::from_str_radix(digits, radix)
        .ok()
        .filter(|v| *v <= 0xFFFF_FFFF)
}

/// Strips single quotes; a doubled quote inside stands for one.
fn literal(s: &str) -> Rc<[u8]> {
    s[1..s.len() - 1].replace("''", "'").into_bytes().into()
}

/// Strips double quotes and resolves doubled quotes and backslash escapes as pasmo 0.5.3 does
/// (checked against it): `\n \r \t \a`, octal `\0`..`\377` (up to three digits, modulo 256),
/// `\xHH` (up to two hex digits); any other character after a backslash stands for itself.
fn unescape(s: &str) -> Rc<[u8]> {
    let inner = &s.as_bytes()[1..s.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        if c == b'"' && inner.get(i + 1) == Some(&b'"') {
            out.push(b'"');
            i += 1;
        } else if c == b'\\' && i + 1 < inner.len() {
            i += 1;
            let e = inner[i];
            match e {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'a' => out.push(7),
                b'0'..=b'7' => {
                    let digits = inner[i..]
                        .iter()
                        .take(3)
                        .take_while(|d| (b'0'..=b'7').contains(d))
                        .count();
                    let value = inner[i..i + digits]
                        .iter()
                        .fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
                    out.push(value as u8);
                    i += digits - 1;
                }
                b'x' | b'X' => {
                    let hex: Vec<u8> = inner[i + 1..]
                        .iter()
                        .copied()
                        .take(2)
                        .take_while(u8::is_ascii_hexdigit)
                        .collect();
                    let text = std::str::from_utf8(&hex).unwrap_or("0");
                    out.push(u8::from_str_radix(text, 16).unwrap_or(0));
                    i += hex.len();
                }
                other => out.push(other),
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out.into()
}

/// A double-quoted string read by sjasmplus's rules (its `GetCharConstInDoubleQuotes`): `\0`,
/// `\n \t \v \b \r \f \a \e \d` in either case, `\\ \' \" \?`; an unknown escape keeps its
/// backslash (sjasmplus warns). There are no octal or hex escapes.
pub fn unescape_sjasmplus(s: &str) -> Rc<[u8]> {
    let inner = &s.as_bytes()[1..s.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        if c == b'"' && inner.get(i + 1) == Some(&b'"') {
            out.push(b'"');
            i += 2;
            continue;
        }
        if c != b'\\' || i + 1 == inner.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = inner[i + 1];
        let value = match e.to_ascii_lowercase() {
            b'\\' | b'\'' | b'"' | b'?' => Some(e),
            b'0' => Some(0),
            b'n' => Some(10),
            b't' => Some(9),
            b'v' => Some(11),
            b'b' => Some(8),
            b'r' => Some(13),
            b'f' => Some(12),
            b'a' => Some(7),
            b'e' => Some(27),
            b'd' => Some(127),
            _ => None,
        };
        match value {
            Some(v) => {
                out.push(v);
                i += 2;
            }
            None => {
                out.push(b'\\');
                i += 1;
            }
        }
    }
    out.into()
}

/// A token with its byte span in its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    pub kind: Tk,
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

impl Tok {
    pub fn span(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One source line: its tokens (without the newline), its file, 0-based line number and the byte
/// range of the whole line (for listings and "at end of line" diagnostics).
#[derive(Debug, Clone)]
pub struct Line {
    pub toks: Rc<[Tok]>,
    pub file: u32,
    pub line: u32,
    pub start: u32,
    pub end: u32,
    /// A token the lexer could not read, reported when the line is assembled.
    pub bad: Option<(u32, u32)>,
}

/// Splits a file into lines of tokens.
pub fn lex_lines(src: &str, file: u32) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut toks = Vec::new();
    let mut bad = None;
    let mut line_start = 0u32;
    let mut lex = Tk::lexer(src);
    let mut line_no = 0u32;
    while let Some(res) = lex.next() {
        let span = lex.span();
        match res {
            Ok(Tk::Newline) => {
                lines.push(Line {
                    toks: std::mem::take(&mut toks).into(),
                    file,
                    line: line_no,
                    start: line_start,
                    end: span.start as u32,
                    bad: bad.take(),
                });
                line_no += 1;
                line_start = span.end as u32;
            }
            Ok(kind) => toks.push(Tok {
                kind,
                file,
                start: span.start as u32,
                end: span.end as u32,
            }),
            Err(()) => {
                if bad.is_none() {
                    bad = Some((span.start as u32, span.end as u32));
                }
            }
        }
    }
    if !toks.is_empty() || bad.is_some() || (line_start as usize) < src.len() {
        lines.push(Line {
            toks: toks.into(),
            file,
            line: line_no,
            start: line_start,
            end: src.len() as u32,
            bad,
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_forms() {
        assert_eq!(parse_number("0FFh"), Some(255));
        assert_eq!(parse_number("0xff"), Some(255));
        assert_eq!(parse_number("0b1010"), Some(10));
        assert_eq!(parse_number("1010b"), Some(10));
        assert_eq!(parse_number("0bh"), Some(11));
        assert_eq!(parse_number("17o"), Some(15));
        assert_eq!(parse_number("123"), Some(123));
        assert_eq!(parse_number("12g"), None);
    }

    #[test]
    fn lines_and_af_alt() {
        let lines = lex_lines("ex af,af' ; swap\n ld a,\"x\\n\"", 0);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].toks[3].kind, Tk::AfAlt);
        assert_eq!(lines[1].toks[3].kind, Tk::Str(Rc::from(&b"x\n"[..])));
    }

    /// Each escape as the installed pasmo 0.5.3 assembles `db "<\E>"`, and as sjasmplus 1.23.1's
    /// reader decodes it.
    #[test]
    fn escapes_as_pasmo_and_sjasmplus() {
        for (src, pasmo, sjasm) in [
            (r#""\n""#, &b"\n"[..], &b"\n"[..]),
            (r#""\a""#, b"\x07", b"\x07"),
            (r#""\101""#, b"A", b"\\101"),
            (r#""\1234""#, b"S4", b"\\1234"),
            (r#""\400""#, b"\0", b"\\400"),
            (r#""\x414""#, b"A4", b"\\x414"),
            (r#""\e\b""#, b"eb", b"\x1b\x08"),
            (r#""\q""#, b"q", b"\\q"),
        ] {
            assert_eq!(&*unescape(src), pasmo, "pasmo {src}");
            assert_eq!(&*unescape_sjasmplus(src), sjasm, "sjasmplus {src}");
        }
    }
}
