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
        }
    }
}

/// A source location: file index (into [`crate::asm::Files`]) and byte range.
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

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

/// Renders diagnostics rustc-style. `files` gives each file's display name and text.
pub fn render(diags: &[Diagnostic], files: &[(String, String)], color: bool) -> String {
    let mut out = Vec::new();
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(color);
    let name = |f: u32| {
        files
            .get(f as usize)
            .map_or_else(|| "?".to_string(), |f| f.0.clone())
    };
    // One cache for all reports: building it copies every file's text.
    let mut cache = ariadne::sources(files.iter().map(|(n, t)| (n.clone(), t.clone())));
    for d in diags {
        let (line, col) = files
            .get(d.loc.file as usize)
            .map_or((0, 0), |f| line_col(&f.1, d.loc.span.start));
        let mut b = Report::build(ReportKind::Error, (name(d.loc.file), d.loc.span.clone()))
            .with_config(config)
            .with_code(d.kind.code())
            .with_message(format!("{} ({}:{line}:{col})", d.message, name(d.loc.file)))
            .with_label(
                Label::new((name(d.loc.file), d.loc.span.clone()))
                    .with_message(&d.label)
                    .with_color(Color::Red),
            );
        for (loc, msg) in &d.others {
            b = b.with_label(
                Label::new((name(loc.file), loc.span.clone()))
                    .with_message(msg)
                    .with_color(Color::Blue),
            );
        }
        if let Some(h) = &d.help {
            b = b.with_help(h);
        }
        if let Some(n) = &d.note {
            b = b.with_note(n);
        }
        // Writing into a Vec cannot fail for I/O reasons; a missing source only loses the snippet.
        let _ = b.finish().write(&mut cache, &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(cb));
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate within a distance that scales with the name's length.
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count().div_ceil(3)).max(1);
    candidates
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, c.len()))
        .map(|(_, c)| c)
}
