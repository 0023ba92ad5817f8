//! The BASIC debugging kit: what a statement-level BASIC debugger keeps whatever its dialect.
//! The BBC and C64 debuggers are dialect layers over it; a new dialect implements
//! [`location::Locate`] and [`crate::basic_machine::BasicMachine`] and keeps its points in a
//! [`points::Points`].
//!
//! - [`points`]: statement breakpoints (conditions, hit counts, `tbreak`, `until`'s own) and
//!   watches, numbered as `delete`/`enable` name them, listed as `info breakpoints` shows them.
//! - [`location`]: `LINE`, `LINE:STATEMENT` and a dialect's named places (PROCname) to a
//!   statement's position.
//! - [`changes`]: the user's assignments (`set`) as events of the run, made again when going
//!   back replays the statement they were made before.
//! - [`history`]: a ring of checkpoints by statement count, for going back.
//! - [`linetrace`]: `trace on`, the lines a run enters as BBC BASIC's TRACE ON prints them.
//! - [`runlimit`]: how a [`super::RunLimit`] bounds a run and when a command goes on at the
//!   next frame.
//! - [`panels`]: what the dialects' panels share (changed variables, bytes in hex).
//!
//! With the `conformance` feature, `conformance` holds the scenarios every dialect's debugger
//! passes (its tests run them on its own debugger).

pub mod changes;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod history;
pub mod linetrace;
pub mod location;
pub mod panels;
pub mod points;
pub mod runlimit;

#[cfg(test)]
mod tests;

/// gdb's `print X = V` in BASIC's words: when `text` is `TARGET=VALUE` and TARGET is a
/// variable (`v`, `a%`, `n$`), an array element (`b%(2)`) or an indirection (`blk%?3`, `!p%`),
/// the two sides, so that `print` assigns as gdb's does. Anything else (`(v=5)`, `v<=5`,
/// `v+1=5`) is an expression: BASIC's `=` compares there.
pub fn print_assignment(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let i = (0..b.len()).find(|&i| {
        b[i] == b'='
            && !matches!(i.checked_sub(1).map(|j| b[j]), Some(b'<' | b'>' | b'=' | b'!'))
            && b.get(i + 1) != Some(&b'=')
    })?;
    let (target, value) = (text[..i].trim(), text[i + 1..].trim());
    if value.is_empty() {
        return None;
    }
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '%' | '$' | '&' | '@');
    let is_name =
        |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '@') && s.chars().all(name_char);
    let element = target.strip_suffix(')').and_then(|t| t.split_once('('));
    let ok = is_name(target)
        || element.is_some_and(|(name, _)| is_name(name.trim()))
        || target.starts_with(['?', '!', '$']) && target.len() > 1
        || target
            .split_once(['?', '!'])
            .is_some_and(|(base, off)| is_name(base) && !off.is_empty() && off.chars().all(name_char));
    ok.then_some((target, value))
}
