//! Making text safe to print: characters a terminal would act on are shown as escapes.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` would do something to a terminal (or to the reading order) rather than show:
/// the C0 controls, DEL, the C1 controls (U+0080-U+009F, which some terminals treat as CSI and
/// friends), and the Unicode bidirectional embedding, override and isolate characters.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// How one character is shown: itself, or an escape (`\t`, `\x1b`, `\u{202e}`).
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if is_unsafe(c) && (c as u32) < 0x100 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if is_unsafe(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `s` with every unsafe character escaped (see [`is_unsafe`]); borrowed when nothing needs it.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Like [`escape`], but keeps line breaks: for multi-line messages.
pub fn escape_keeping_newlines(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            push_escaped(&mut out, c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn terminal_controls_are_shown_not_sent() {
        assert_eq!(escape("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(escape("bell\x07 del\x7f"), "bell\\x07 del\\x7f");
        assert_eq!(escape("tab\tcr\r"), "tab\\tcr\\r");
        assert_eq!(escape("csi\u{9b}31m"), "csi\\x9b31m");
        assert_eq!(escape("rtl\u{202e}txt"), "rtl\\u{202e}txt");
        assert_eq!(escape_keeping_newlines("a\nb\x1b"), "a\nb\\x1b");
    }

    #[test]
    fn printable_text_is_untouched_and_borrowed() {
        for s in ["PRINT \"£\"", "Ωmega ✓", ""] {
            assert!(matches!(escape(s), Cow::Borrowed(_)), "{s}");
        }
    }

    proptest! {
        #[test]
        fn escaped_text_has_no_unsafe_characters(s in ".*", raw in proptest::collection::vec(any::<u8>(), 0..64)) {
            let latin1: String = raw.iter().map(|&b| b as char).collect();
            for input in [s, latin1] {
                let e = escape(&input);
                prop_assert!(!e.chars().any(is_unsafe), "{:?}", e);
            }
        }
    }
}
