//! Assembler diagnostics and their rendering with ariadne.
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
use std::ops::Range;

/// What went wrong; tests and tools match on this rather than on the message text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagKind {
    Syntax,
    UndefinedSymbol,
    DuplicateLabel,
    OutOfRange,
    BadOperands,
    UnknownMnemonic,
    IncludeCycle,
    EquCycle,
    Io,
    Directive,
    /// A warning, not an error: the source assembles, but not to what pasmo would make of it
    /// (a deliberate difference; see docs/assembler.md).
    PasmoDifference,
    /// A warning: a `SAVESNA` had to put the start address over the screen's first two bytes.
    SnapshotStack,
    /// A warning: `DEVICE` after code, which sjasmplus would apply to that code too.
    DeviceAfterCode,
    /// A warning: a directive for a file retro does not write (sjasmplus's `SLDOPT`), ignored.
    Ignored,
}

impl DiagKind {
    /// A stable code shown in brackets, e.g. `[E003]`.
    pub fn code(self) -> &'static str {
        match self {
            DiagKind::Syntax => "E001",
            DiagKind::UndefinedSymbol => "E002",
            DiagKind::DuplicateLabel => "E003",
            DiagKind::OutOfRange => "E004",
            DiagKind::BadOperands => "E005",
            DiagKind::UnknownMnemonic => "E006",
            DiagKind::IncludeCycle => "E007",
            DiagKind::EquCycle => "E008",
            DiagKind::Io => "E009",
            DiagKind::Directive => "E010",
            DiagKind::PasmoDifference => "W001",
            DiagKind::SnapshotStack => "W002",
            DiagKind::DeviceAfterCode => "W003",
            DiagKind::Ignored => "W004",
        }
    }

    /// Warnings are reported but do not stop the assembly (exit status 0).
    pub fn is_warning(self) -> bool {
        matches!(
            self,
            DiagKind::PasmoDifference
                | DiagKind::SnapshotStack
                | DiagKind::DeviceAfterCode
                | DiagKind::Ignored
        )
    }
}

/// A source location: file index (into the run's files, [`crate::Failure::files`] and
/// [`crate::Assembly::files`]) and byte range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: u32,
    pub span: Range<usize>,
}

/// One error with its primary location, extra labelled locations, and optional help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub message: String,
    pub loc: Loc,
    /// Text under the caret at the primary location.
    pub label: String,
    pub others: Vec<(Loc, String)>,
    pub help: Option<String>,
    pub note: Option<String>,
}

impl Diagnostic {
    pub fn new(kind: DiagKind, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
            loc,
            label: String::new(),
            others: vec![],
            help: None,
            note: None,
        }
    }

    pub fn label(mut self, l: impl Into<String>) -> Self {
        self.label = l.into();
        self
    }

    pub fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }

    pub fn note(mut self, n: impl Into<String>) -> Self {
        self.note = Some(n.into());
        self
    }

    pub fn also(mut self, loc: Loc, l: impl Into<String>) -> Self {
        self.others.push((loc, l.into()));
        self
    }
}

/// 1-based line and column (in characters) of a byte offset. Lines end at `\n` only, as the
/// lexer's do (a form feed is white space, not a line break), so every message agrees.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How many diagnostics are rendered in full; the rest are counted ("and 39,000 more"), so that
/// rendering stays linear and a flood of errors stays readable.
pub const MAX_SHOWN: usize = 50;
/// Lines longer than this many characters are shown as a window around the error.
const LONG_LINE: usize = 160;
/// Characters shown either side of the column in a long line.
const WINDOW: usize = 60;
/// Messages, labels and notes longer than this many characters are cut (they quote source text).
const LONG_MESSAGE: usize = 200;

/// Escapes control characters (`\x1b` and the like) so a message cannot drive the terminal, and
/// cuts text quoted from a very long line.
pub fn escape_message(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(LONG_MESSAGE + 8));
    for (n, c) in s.chars().enumerate() {
        if n == LONG_MESSAGE {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                use std::fmt::Write;
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A control character's visible stand-in in a source snippet: one character for one, so that
/// carets and columns stay aligned (U+2400 block, "control pictures").
fn picture(c: char) -> char {
    match c as u32 {
        n @ 0..=0x1F => char::from_u32(0x2400 + n).unwrap_or('?'),
        0x7F => '\u{2421}',
        _ if c.is_control() => '\u{FFFD}',
        _ => c,
    }
}

/// Where lines start in one file, computed once per render (binary search per location).
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let mut v = vec![0];
        v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineStarts(v)
    }

    /// 0-based line of a byte offset and that line's byte range (without its line break).
    fn line(&self, text: &str, offset: usize) -> (usize, Range<usize>) {
        let n = self.0.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.0[n];
        let mut end = self.0.get(n + 1).map_or(text.len(), |&e| e - 1);
        if text.as_bytes().get(end.wrapping_sub(1)) == Some(&b'\r') && end > start {
            end -= 1;
        }
        (n, start..end)
    }
}

/// One snippet: a line (or a window of a long line) of one file, shown under its own line number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SnipId {
    name: String,
    file: u32,
    line: usize,
}

impl std::fmt::Display for SnipId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// A label's place: its snippet and the byte range in it.
type SnipSpan = (SnipId, Range<usize>);

struct Snips(std::collections::HashMap<SnipId, ariadne::Source<String>>);

impl ariadne::Cache<SnipId> for Snips {
    type Storage = String;

    fn fetch(&mut self, id: &SnipId) -> Result<&ariadne::Source<String>, impl std::fmt::Debug> {
        self.0.get(id).ok_or("no snippet")
    }

    fn display<'a>(&self, id: &'a SnipId) -> Option<impl std::fmt::Display + 'a> {
        Some(id)
    }
}

/// The snippet text for `line` of `text` and the span of `span` within it, in characters: the
/// whole line if it is short, else a window around the span's start; control characters made
/// visible. (Character offsets, because ariadne 0.6 mixes char and byte offsets for a report's
/// second source in byte mode.)
fn snippet(text: &str, line: Range<usize>, span: &Range<usize>) -> (String, Range<usize>) {
    let line_text = &text[line.clone()];
    let start = floor_char_boundary(text, span.start.clamp(line.start, line.end)) - line.start;
    let end = floor_char_boundary(text, span.end.clamp(span.start.max(line.start), line.end)) - line.start;
    let chars = line_text.chars().count();
    let (from, to) = if chars > LONG_LINE {
        let col = line_text[..start].chars().count();
        let from = col.saturating_sub(WINDOW);
        (from, (col + WINDOW).min(chars).max(from + 1))
    } else {
        (0, chars)
    };
    let mut out = String::new();
    let mut len = 0;
    let (mut s, mut e) = (None, None);
    if from > 0 {
        out.push('…');
        len += 1;
    }
    for (n, (i, c)) in line_text.char_indices().enumerate() {
        if n >= to {
            break;
        }
        if i >= start && s.is_none() {
            s = Some(len);
        }
        if i >= end && e.is_none() {
            e = Some(len);
        }
        if n >= from {
            out.push(picture(c));
            len += 1;
        }
    }
    let s = s.unwrap_or(len);
    let e = e.unwrap_or(len).max(s);
    if to < chars {
        out.push('…');
    }
    (out, s..e)
}

/// Renders diagnostics rustc-style. `files` gives each file's display name and text. At most
/// [`MAX_SHOWN`] are rendered; the work per shown diagnostic is bounded by its lines' windows, so
/// the whole render is linear in the input.
pub fn render(diags: &[Diagnostic], files: &[(String, String)], color: bool) -> String {
    let mut out = Vec::new();
    let config = Config::default()
        .with_index_type(IndexType::Char)
        .with_color(color);
    let mut starts: Vec<Option<LineStarts>> = (0..files.len()).map(|_| None).collect();
    for d in diags.iter().take(MAX_SHOWN) {
        let mut snips = Snips(Default::default());
        let mut place = |loc: &Loc| -> Option<(SnipSpan, (usize, usize))> {
            let (name, text) = files.get(loc.file as usize)?;
            let idx = starts[loc.file as usize].get_or_insert_with(|| LineStarts::new(text));
            let offset = loc.span.start.min(text.len());
            let (line, range) = idx.line(text, offset);
            let col = text[range.start..floor_char_boundary(text, offset.max(range.start))]
                .chars()
                .count()
                + 1;
            let id = SnipId {
                name: escape_message(name),
                file: loc.file,
                line,
            };
            let (snip, span) = snippet(text, range, &loc.span);
            // ariadne 0.6 numbers the gutter from the source's first line whatever its display
            // offset, so the snippet sits below `line` empty lines (cheap: one byte each).
            let span = span.start + line..span.end + line;
            snips
                .0
                .entry(id.clone())
                .or_insert_with(|| ariadne::Source::from("\n".repeat(line) + &snip));
            Some(((id, span), (line + 1, col)))
        };
        let file_name = files
            .get(d.loc.file as usize)
            .map_or_else(|| "?".to_string(), |f| escape_message(&f.0));
        let (kind, word, colour) = if d.kind.is_warning() {
            (ReportKind::Warning, "Warning", Color::Yellow)
        } else {
            (ReportKind::Error, "Error", Color::Red)
        };
        let Some((primary, (line, col))) = place(&d.loc) else {
            let _ = writeln_bytes(
                &mut out,
                &format!("[{}] {word}: {}", d.kind.code(), escape_message(&d.message)),
            );
            continue;
        };
        let mut b = Report::build(kind, primary.clone())
            .with_config(config)
            .with_code(d.kind.code())
            .with_message(format!(
                "{} ({file_name}:{line}:{col})",
                escape_message(&d.message)
            ))
            .with_label(
                Label::new(primary)
                    .with_message(escape_message(&d.label))
                    .with_color(colour),
            );
        for (loc, msg) in &d.others {
            if let Some((span, _)) = place(loc) {
                b = b.with_label(
                    Label::new(span)
                        .with_message(escape_message(msg))
                        .with_color(Color::Blue),
                );
            }
        }
        if let Some(h) = &d.help {
            b = b.with_help(escape_message(h));
        }
        if let Some(n) = &d.note {
            b = b.with_note(escape_message(n));
        }
        // Writing into a Vec cannot fail for I/O reasons; a missing source only loses the snippet.
        let _ = b.finish().write(&mut snips, &mut out);
    }
    if diags.len() > MAX_SHOWN {
        let more = diags.len() - MAX_SHOWN;
        let word = if diags.iter().all(|d| d.kind.is_warning()) {
            "warning"
        } else {
            "error"
        };
        let _ = writeln_bytes(
            &mut out,
            &format!("... and {more} more {word}{}", if more == 1 { "" } else { "s" }),
        );
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn writeln_bytes(out: &mut Vec<u8>, s: &str) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(out, "{s}")
}

/// The edit distance (case-insensitive) between `a` and `b` if it is at most `limit`, else None.
/// Only the diagonal band of width `2 * limit + 1` is computed, so the cost is linear in the
/// names' length (an 80,000-character name costs as much as 80,000 short ones, not 80,000^2).
pub fn bounded_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1;
    // prev[j] = distance(a[..i], b[..j]) for j in the band; outside it counts as "too far".
    let mut prev: Vec<usize> = (0..=b.len()).map(|j| j.min(far)).collect();
    let mut cur = vec![far; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        let lo = (i + 1).saturating_sub(limit);
        let hi = (i + 1 + limit).min(b.len());
        // Only the band's edges are reset, never the whole row (that would be quadratic).
        let mut best = far;
        if lo == 0 {
            cur[0] = (i + 1).min(far);
            best = cur[0];
        } else {
            cur[lo - 1] = far;
        }
        for j in lo.max(1)..=hi {
            let cost = usize::from(!ca.eq_ignore_ascii_case(&b[j - 1]));
            cur[j] = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1).min(far);
            best = best.min(cur[j]);
        }
        if hi < b.len() {
            cur[hi + 1] = far;
        }
        if best > limit {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[b.len()] <= limit).then_some(prev[b.len()])
}

/// A typo is a few characters: names further apart than this are never suggested, however long.
const MAX_TYPO: usize = 8;

/// The closest candidate within a distance that scales with the name's length (at most 8
/// edits).
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = name.chars().count().div_ceil(3).clamp(1, MAX_TYPO);
    candidates
        .filter(|c| *c != name)
        .filter_map(|c| bounded_distance(name, c, limit).map(|d| (d, c)))
        .min_by_key(|(d, c)| (*d, c.len()))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod distance_tests {
    #[test]
    fn bounded_distance_agrees_with_the_full_one_and_stays_linear() {
        use super::bounded_distance as d;
        assert_eq!(d("start", "strat", 2), Some(2));
        assert_eq!(d("kitten", "sitting", 3), Some(3));
        assert_eq!(d("kitten", "sitting", 2), None);
        assert_eq!(d("LOOP", "loop", 0), Some(0));
        assert_eq!(d("", "abc", 3), Some(3));
        assert_eq!(d("abc", "", 2), None);
        // Issue 32: an 80,000-character name against another of the same length is linear work.
        let long: String = "x".repeat(80_000);
        let other = format!("{}y", "x".repeat(79_999));
        let t = std::time::Instant::now();
        assert_eq!(d(&long, &other, 8), Some(1));
        assert!(t.elapsed().as_secs() < 2, "{:?}", t.elapsed());
    }
}
