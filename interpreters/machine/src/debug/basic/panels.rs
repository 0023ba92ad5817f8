//! What the BASIC debuggers' panels share.

use crate::debug::{Panel, PanelLine};

/// Bytes as the panels show them: two hex digits each, a space between.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The variables panel: each line marked when it was not there when the last command began
/// (a new variable or a new value).
pub fn variables(title: &str, lines: Vec<String>, before: &[String]) -> Panel {
    Panel {
        title: title.into(),
        lines: changed_lines(lines, before),
    }
}

/// `lines` as panel lines, marked where `before` did not have them.
pub fn changed_lines(lines: Vec<String>, before: &[String]) -> Vec<PanelLine> {
    lines
        .into_iter()
        .map(|l| PanelLine {
            changed: !before.contains(&l),
            text: l,
            ..PanelLine::default()
        })
        .collect()
}
