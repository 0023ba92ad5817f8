//! One source line as a report shows it: escaped, and cut to a window around the mistake when
//! it is long.

use crate::escape::{is_unsafe, push_escaped};

/// The most characters of a line a report shows (escapes count by what they show).
pub const WIDTH: usize = 100;
/// How much of the line before the mistake a window keeps, when it has to cut.
const BEFORE: usize = 30;

/// A line ready to print, with the caret's place in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// What to print: escaped, `…` where the line was cut.
    pub text: String,
    /// Display column (0-based, in characters of `text`) where the underline starts.
    pub caret: usize,
    /// Underline length in characters (at least 1).
    pub width: usize,
    /// 1-based column of the mistake in the real line, counted in characters.
    pub column: usize,
}

impl Excerpt {
    /// `line` is the source line without its ending; `span` a byte range in it (clamped to the
    /// line and to character boundaries). Costs time proportional to [`WIDTH`] plus a scan of
    /// the line up to the span (no allocation per character), so reporting many mistakes on one
    /// huge line stays cheap.
    pub fn new(line: &str, span: std::ops::Range<usize>) -> Excerpt {
        let start = floor_boundary(line, span.start.min(line.len()));
        let end = floor_boundary(line, span.end.min(line.len())).max(start);
        let column = line[..start].chars().count() + 1;
        // The window: the whole line when it fits, else from a little before the mistake.
        let fits = line.len() <= 4 * WIDTH && line.chars().map(shown_width).sum::<usize>() <= WIDTH;
        let from = if fits {
            0
        } else {
            let mut from = start;
            let mut before = 0;
            for (off, c) in line[..start].char_indices().rev() {
                before += shown_width(c);
                if before > BEFORE {
                    break;
                }
                from = off;
            }
            from
        };
        let mut text = String::new();
        if from > 0 {
            text.push('…');
        }
        let mut shown = usize::from(from > 0);
        let mut caret = None;
        let mut width = 0;
        let mut used = 0;
        let mut cut = false;
        for (off, c) in line[from..].char_indices() {
            let off = from + off;
            let w = shown_width(c);
            if used + w > WIDTH && used > 0 {
                cut = true;
                break;
            }
            if off >= start && caret.is_none() {
                caret = Some(shown);
            }
            if off >= start && off < end {
                width += w;
            }
            push_escaped(&mut text, c);
            shown += w;
            used += w;
        }
        let caret = caret.unwrap_or(shown);
        if cut {
            text.push('…');
        }
        Excerpt {
            text,
            caret,
            width: width.max(1),
            column,
        }
    }
}

/// How many characters `c` takes once escaped.
fn shown_width(c: char) -> usize {
    match c {
        '\t' | '\n' | '\r' => 2,
        c if is_unsafe(c) && (c as u32) < 0x100 => 4,
        c if is_unsafe(c) => format!("{:x}", c as u32).len() + 4,
        _ => 1,
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn short_lines_are_shown_whole() {
        let e = Excerpt::new("10 PRINT x", 3..8);
        assert_eq!(e.text, "10 PRINT x");
        assert_eq!((e.caret, e.width, e.column), (3, 5, 4));
    }

    #[test]
    fn control_bytes_are_escaped_and_the_caret_follows() {
        let e = Excerpt::new("a\x1bbc", 2..3);
        assert_eq!(e.text, "a\\x1bbc");
        assert_eq!((e.caret, e.width, e.column), (5, 1, 3));
    }

    #[test]
    fn a_long_line_is_a_window_around_the_mistake() {
        let line = "x".repeat(200_000) + "ERR" + &"y".repeat(1000);
        let e = Excerpt::new(&line, 200_000..200_003);
        assert!(e.text.chars().count() <= WIDTH + 2, "{}", e.text.len());
        assert!(e.text.starts_with('…') && e.text.ends_with('…'));
        assert_eq!(&e.text.chars().skip(e.caret).take(3).collect::<String>(), "ERR");
        assert_eq!(e.column, 200_001);
    }

    #[test]
    fn a_span_at_the_end_of_the_line_points_just_past_it() {
        let e = Excerpt::new("abc", 3..3);
        assert_eq!((e.caret, e.width, e.column), (3, 1, 4));
        let e = Excerpt::new("abc", 99..120);
        assert_eq!((e.caret, e.width), (3, 1));
    }

    proptest! {
        #[test]
        fn excerpts_are_bounded_and_safe(line in ".{0,300}", a in 0usize..400, b in 0usize..400) {
            let e = Excerpt::new(&line, a.min(b)..a.max(b));
            prop_assert!(e.text.chars().count() <= WIDTH + 2 + 10);
            prop_assert!(!e.text.chars().any(crate::escape::is_unsafe));
            prop_assert!(e.caret <= e.text.chars().count());
        }
    }
}
