//! Reports as text: the message, the location, the excerpt with its underline, the help.

use std::fmt::Write as _;
use std::ops::Range;

use crate::escape::{escape, escape_keeping_newlines};
use crate::excerpt::Excerpt;
use crate::lines::LineIndex;

/// At most this many reports are shown; the rest are counted ("and 39,980 more").
pub const MAX_SHOWN: usize = 20;

/// One mistake to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Byte range in the text.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// Said under the underline.
    pub label: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Anything else worth knowing.
    pub note: Option<String>,
}

struct Style {
    colour: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// Renders `reports` about `text` (read from `file_name`): the first [`MAX_SHOWN`] in full, then
/// a [`summary`] line for the rest when there are more than `reports.len()` mistakes in all
/// (`total` counts mistakes not even collected). `first_line` is the number of the text's first
/// line (1 for a whole file; more when `text` is an extract, like a hex dump's window).
pub fn render(
    file_name: &str,
    text: &str,
    first_line: usize,
    reports: &[Report],
    total: usize,
    colour: bool,
) -> String {
    let style = Style { colour };
    let index = LineIndex::new(text);
    let name = escape(file_name);
    let mut out = String::new();
    for r in reports.iter().take(MAX_SHOWN) {
        let line = index.line_of(r.span.start);
        let start = index.line_start(line);
        let line_text = index.line_text(text, line);
        let rel = r.span.start.saturating_sub(start)..r.span.end.saturating_sub(start);
        let ex = Excerpt::new(line_text, rel);
        let number = (line + first_line).to_string();
        let pad = " ".repeat(number.len());
        let bar = style.paint("34", "|");
        let _ = writeln!(
            out,
            "{}: {}",
            style.paint("1;31", "error"),
            style.paint("1", &escape(&r.message))
        );
        let _ = writeln!(
            out,
            "{pad}{} {name}:{number}:{}",
            style.paint("34", "-->"),
            ex.column
        );
        let _ = writeln!(out, "{pad} {bar}");
        let _ = writeln!(out, "{} {bar} {}", style.paint("34", &number), ex.text);
        let underline = format!(
            "{}{} {}",
            " ".repeat(ex.caret),
            "^".repeat(ex.width),
            escape(&r.label)
        );
        let _ = writeln!(out, "{pad} {bar} {}", style.paint("31", underline.trim_end()));
        for (what, t) in [("help", &r.help), ("note", &r.note)] {
            if let Some(t) = t {
                let _ = writeln!(
                    out,
                    "{pad} {} {what}: {}",
                    style.paint("34", "="),
                    escape_keeping_newlines(t)
                );
            }
        }
        out.push('\n');
    }
    let shown = reports.len().min(MAX_SHOWN);
    if total > shown {
        let _ = writeln!(out, "{}", summary(total - shown));
    }
    out
}

/// `39980` as `39,980`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "and 39,980 more mistakes (not shown)".
pub fn summary(more: usize) -> String {
    let grouped = grouped(more);
    let s = if more == 1 { "" } else { "s" };
    format!("and {grouped} more mistake{s} (not shown)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(span: Range<usize>, message: &str) -> Report {
        Report {
            span,
            message: message.into(),
            label: "here".into(),
            help: Some("do this".into()),
            note: None,
        }
    }

    #[test]
    fn a_report_names_the_place_and_underlines_it() {
        let text = "10 PRINT\n20 GOTO 5\n";
        let out = render("p.bbc", text, 1, &[report(12..16, "Bad GOTO")], 1, false);
        assert_eq!(
            out,
            "error: Bad GOTO\n \
             --> p.bbc:2:4\n  \
             |\n\
             2 | 20 GOTO 5\n  \
             |    ^^^^ here\n  \
             = help: do this\n\n"
        );
    }

    #[test]
    fn extracts_number_their_lines_from_first_line() {
        let out = render("f", "a\nbc", 41, &[report(3..4, "m")], 1, false);
        assert!(out.contains("--> f:42:2"), "{out}");
        assert!(out.contains("42 | bc"), "{out}");
    }

    #[test]
    fn nothing_raw_reaches_the_terminal() {
        let text = "\x1b]0;pwned\x07\n";
        let r = Report {
            span: 0..1,
            message: "bad \x1b[2J".into(),
            label: "\u{9b}".into(),
            help: Some("\x07".into()),
            note: None,
        };
        let out = render("a\x1bb", text, 1, &[r], 1, false);
        assert!(
            !out.chars().any(|c| c != '\n' && crate::escape::is_unsafe(c)),
            "{out:?}"
        );
        assert!(out.contains("\\x1b]0;pwned\\x07"), "{out}");
    }

    #[test]
    fn many_reports_are_capped_and_counted() {
        let text = "x\n".repeat(40_000);
        let reports: Vec<Report> = (0..40_000).map(|i| report(2 * i..2 * i + 1, "m")).collect();
        let out = render("f", &text, 1, &reports, reports.len(), false);
        assert_eq!(out.matches("error:").count(), MAX_SHOWN);
        assert!(out.ends_with("and 39,980 more mistakes (not shown)\n"), "{out}");
        assert_eq!(summary(1), "and 1 more mistake (not shown)");
        assert_eq!(summary(999), "and 999 more mistakes (not shown)");
        assert_eq!(summary(1000), "and 1,000 more mistakes (not shown)");
    }

    #[test]
    fn colour_is_optional() {
        let out = render("f", "x", 1, &[report(0..1, "m")], 1, true);
        assert!(out.contains("\x1b[1;31merror"), "{out}");
        let plain = render("f", "x", 1, &[report(0..1, "m")], 1, false);
        assert!(!plain.contains('\x1b'));
    }
}
