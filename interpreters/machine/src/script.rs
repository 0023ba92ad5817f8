//! Key scripts: scripted key presses on the virtual clock, for headless runs and tests.
//!
//! A script is whitespace-separated items (see also `docs/key-scripts.md`):
//!
//! | item | meaning |
//! |---|---|
//! | `a`, `A`, `7`, `;`, `£` | a single character types that character (case-sensitive) |
//! | `LEFT` `RIGHT` `UP` `DOWN` | cursor keys |
//! | `RETURN` (`ENTER`), `SPACE`, `ESCAPE` (`ESC`), `TAB`, `BACKSPACE`, `DELETE`, `HOME`, `END` | named keys |
//! | `F1` .. `F12` | function keys |
//! | `PAD-A` `PAD-B` `START` `SELECT` | the Z80 workbench machine's controller buttons |
//! | `HASH`, `PLUS` | the characters `#` and `+`, which a single-character item cannot spell |
//! | `KEY*N` | N taps of KEY, 1 <= N <= 100000 (`a*3`, `LEFT*10`, `**2` is two `*`) |
//! | `+MS` | let MS milliseconds of virtual time pass, 0 <= MS <= 86400000 (24 h) |
//! | `hold KEY MS` | hold KEY down for MS milliseconds, 1 <= MS <= 86400000 |
//! | `press KEY`, `release KEY` | KEY goes down (or up) now and stays so; the time does not move on |
//! | `# ...` | an item starting with `#` begins a comment to the end of the line |
//!
//! Named keys and `hold` are case-insensitive (`left`, `Left`, `LEFT`); single characters are
//! case-sensitive, so `a` and `A` type different letters. A single `A` or `B` is therefore always
//! the typed letter, never a controller button: the buttons are spelled `PAD-A` and `PAD-B`.
//!
//! # Timing
//!
//! The script keeps a clock starting at 0:
//! - a tap presses at the current script time, releases 40 ms later, and moves the script time on
//!   by 80 ms, so consecutive taps are distinct presses even to a machine that scans held keys;
//! - `hold KEY MS` presses at the current time, releases MS later, and moves the time on by
//!   MS + 40 ms (the same 40 ms gap a tap leaves after its release);
//! - `+MS` moves the time on by MS.
//!
//! [`KeyScript::end`] is the script time after the last item. To keep scripts from asking for
//! absurd amounts of memory a whole script may produce at most [`MAX_EVENTS`] events.

use crate::clock::VirtualTime;
use crate::keys::{Key, KeyEvent};

/// How long a tap holds its key down.
pub const TAP_DOWN_MS: u64 = 40;
/// How far a tap moves the script time on.
pub const TAP_STEP_MS: u64 = 80;
/// The gap after a `hold`'s release before the next item.
pub const HOLD_GAP_MS: u64 = 40;
/// The largest repeat count in `KEY*N`.
pub const MAX_COUNT: u64 = 100_000;
/// The longest time in `+MS` and `hold KEY MS`: 24 hours.
pub const MAX_MS: u64 = 24 * 60 * 60 * 1000;
/// The most events (presses plus releases) a script may produce.
pub const MAX_EVENTS: usize = 1_000_000;

/// A parsed key script: its events in time order and the script time after the last item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyScript {
    /// Every press and release, sorted by time (stably, so a press stays before a release at the
    /// same time).
    pub events: Vec<KeyEvent>,
    /// The script time after the last item.
    pub end: VirtualTime,
}

/// A mistake in a key script, located at the start of the offending item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ScriptError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// The item as written.
    pub item: String,
    /// What is wrong, mentioning the item.
    pub message: String,
}

/// One whitespace-separated item and where it starts.
struct Item<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl Item<'_> {
    fn error(&self, message: impl Into<String>) -> ScriptError {
        ScriptError {
            line: self.line,
            column: self.column,
            item: self.text.to_string(),
            message: tidy(&message.into()),
        }
    }
}

/// The longest message a script error prints, in characters.
const MAX_MESSAGE: usize = 240;

/// A message safe to print: control characters escaped (an item may hold any byte but
/// whitespace), and the middle of an over-long one (a megabyte-long item quoted in it) cut out,
/// keeping the start (what is wrong) and the end (how to fix it).
fn tidy(message: &str) -> String {
    let escaped = retro_diag::escape(message);
    let n = escaped.chars().count();
    if n <= MAX_MESSAGE {
        return escaped.into_owned();
    }
    let head: String = escaped.chars().take(MAX_MESSAGE / 2).collect();
    let tail: String = escaped.chars().skip(n - MAX_MESSAGE / 3).collect();
    format!("{head}…{tail}")
}

/// Splits the source into items, dropping comments.
fn items(src: &str) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    for (line_no, line) in src.split('\n').enumerate() {
        let mut start: Option<(usize, usize)> = None; // (byte offset, column)
        for (column, (offset, c)) in line.char_indices().enumerate() {
            if c.is_whitespace() {
                if let Some((s, col)) = start.take() {
                    out.push(Item {
                        text: &line[s..offset],
                        line: line_no + 1,
                        column: col + 1,
                    });
                }
            } else if start.is_none() {
                if c == '#' {
                    break; // a comment runs to the end of the line
                }
                start = Some((offset, column));
            }
        }
        if let Some((s, col)) = start {
            out.push(Item {
                text: &line[s..],
                line: line_no + 1,
                column: col + 1,
            });
        }
    }
    out
}

const NAMED: &[(&str, Key)] = &[
    ("LEFT", Key::Left),
    ("RIGHT", Key::Right),
    ("UP", Key::Up),
    ("DOWN", Key::Down),
    ("RETURN", Key::Return),
    ("ENTER", Key::Return),
    ("SPACE", Key::Char(' ')),
    ("ESCAPE", Key::Escape),
    ("ESC", Key::Escape),
    ("TAB", Key::Tab),
    ("BACKSPACE", Key::Backspace),
    ("DELETE", Key::Delete),
    ("HOME", Key::Home),
    ("END", Key::End),
    ("PAGEUP", Key::PageUp),
    ("PAGEDOWN", Key::PageDown),
    ("PAD-A", Key::PadA),
    ("PAD-B", Key::PadB),
    ("START", Key::PadStart),
    ("SELECT", Key::PadSelect),
    ("HASH", Key::Char('#')),
    ("PLUS", Key::Char('+')),
];

/// Parses a key name (no count, no time).
fn parse_key(text: &str) -> Result<Key, String> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_control() {
            return Err(format!("control character U+{:04X} is not a key", c as u32));
        }
        return Ok(Key::Char(c));
    }
    let upper = text.to_ascii_uppercase();
    if let Some(&(_, key)) = NAMED.iter().find(|(name, _)| *name == upper) {
        return Ok(key);
    }
    // ALT-x: the character x typed with Alt held (case-sensitive, as single characters are).
    if let Some(rest) = text
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("ALT-"))
        .map(|_| &text[4..])
    {
        let mut chars = rest.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => Ok(Key::Alt(c)),
            _ => Err(format!(
                "unknown key '{text}' (ALT- takes one character, as in ALT-a)"
            )),
        };
    }
    if let Some(digits) = upper.strip_prefix('F')
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return match digits.parse::<u8>() {
            Ok(n @ 1..=12) => Ok(Key::F(n)),
            _ => Err(format!("unknown key '{text}' (function keys are F1 to F12)")),
        };
    }
    Err(match suggestion(&upper) {
        Some(name) => format!("unknown key '{text}' (did you mean {name}?)"),
        None if text.chars().all(|c| c.is_alphanumeric()) && text.chars().count() <= 8 => format!(
            "unknown key '{text}' (type characters as separate items, as in '{}')",
            text.chars().map(String::from).collect::<Vec<_>>().join(" ")
        ),
        None => format!("unknown key '{text}'"),
    })
}

/// The key name closest to `upper`, if it is within two edits (a typo rather than another word).
fn suggestion(upper: &str) -> Option<String> {
    let fkeys = (1..=12).map(|n| format!("F{n}"));
    let names = NAMED.iter().map(|(n, _)| n.to_string()).chain(fkeys);
    names
        .map(|n| (edit_distance(upper, &n), n))
        .filter(|(d, n)| *d <= 2 && *d < n.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// Levenshtein distance over chars. Item lengths are bounded by the caller's input; names are
/// short, so the quadratic table is tiny.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // A long item is never a typo of a short name; stop early so huge items stay cheap.
    let a: Vec<char> = a.chars().take(b.len() + 3).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

enum NumberError {
    NotANumber,
    TooLarge,
}

/// Parses a whole decimal number of at most `max`.
fn parse_number(digits: &str, max: u64) -> Result<u64, NumberError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::NotANumber);
    }
    // Leading zeros are fine; a number too long for u64 is certainly too large.
    match digits.trim_start_matches('0') {
        "" => Ok(0),
        significant => match significant.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(NumberError::TooLarge),
        },
    }
}

/// Parses a time in milliseconds (`digits` is the item without any `+`); `describe` names it in
/// messages and `example` shows the right spelling.
fn parse_ms(
    item: &Item<'_>,
    digits: &str,
    min: u64,
    describe: &str,
    example: &str,
) -> Result<u64, ScriptError> {
    let text = item.text;
    match parse_number(digits, MAX_MS) {
        Err(NumberError::NotANumber) => Err(item.error(format!(
            "bad {describe} '{text}': write a whole number of milliseconds, as in '{example}'"
        ))),
        Err(NumberError::TooLarge) => {
            Err(item.error(format!("bad {describe} '{text}': at most {MAX_MS} ms (24 hours)")))
        }
        Ok(ms) if ms < min => Err(item.error(format!("bad {describe} '{text}': at least {min} ms"))),
        Ok(ms) => Ok(ms),
    }
}

struct Builder {
    events: Vec<KeyEvent>,
    /// Script time in microseconds.
    now: u64,
}

impl Builder {
    fn advance(&mut self, item: &Item<'_>, ms: u64) -> Result<(), ScriptError> {
        self.now = ms
            .checked_mul(1000)
            .and_then(|us| self.now.checked_add(us))
            .ok_or_else(|| item.error("the script runs too long for the virtual clock"))?;
        Ok(())
    }

    fn room_for(&self, item: &Item<'_>, presses: u64) -> Result<(), ScriptError> {
        if self.events.len() as u64 + 2 * presses > MAX_EVENTS as u64 {
            return Err(item.error(format!(
                "'{}' takes the script past {} key presses in all; split the run",
                item.text,
                MAX_EVENTS / 2
            )));
        }
        Ok(())
    }

    fn press(&mut self, item: &Item<'_>, key: Key, down_ms: u64, step_ms: u64) -> Result<(), ScriptError> {
        let at = VirtualTime(self.now);
        self.events.push(KeyEvent::press(at, key));
        self.events.push(KeyEvent::release(at + down_ms * 1000, key));
        self.advance(item, step_ms)
    }
}

/// Parses a key script. Pure: no files, no environment.
pub fn parse(src: &str) -> Result<KeyScript, ScriptError> {
    let items = items(src);
    let mut b = Builder {
        events: Vec::new(),
        now: 0,
    };
    let mut i = 0;
    while i < items.len() {
        let item = &items[i];
        i += 1;
        let text = item.text;
        if let Some(digits) = text.strip_prefix('+') {
            let ms = parse_ms(item, digits, 0, "time", "+500")?;
            b.advance(item, ms)?;
        } else if text.eq_ignore_ascii_case("press") || text.eq_ignore_ascii_case("release") {
            // Overlapping keys (hold A, then tap Start): the key stays down until its release.
            let usage = format!("'{text}' needs a key, as in '{text} PAD-A'");
            let Some(key_item) = items.get(i) else {
                return Err(item.error(usage));
            };
            if key_item.text.starts_with('+') {
                return Err(key_item.error(format!("{usage}; '{}' is not a key", key_item.text)));
            }
            let key = parse_key(key_item.text).map_err(|m| key_item.error(m))?;
            i += 1;
            b.room_for(item, 1)?;
            let at = VirtualTime(b.now);
            b.events.push(if text.eq_ignore_ascii_case("press") {
                KeyEvent::press(at, key)
            } else {
                KeyEvent::release(at, key)
            });
        } else if text.eq_ignore_ascii_case("hold") {
            const USAGE: &str = "'hold' needs a key and a time in milliseconds, as in 'hold LEFT 500'";
            let Some(key_item) = items.get(i) else {
                return Err(item.error(USAGE));
            };
            if key_item.text.starts_with('+') {
                return Err(key_item.error(format!("{USAGE}; '{}' is not a key", key_item.text)));
            }
            let key = parse_key(key_item.text).map_err(|m| key_item.error(m))?;
            let Some(ms_item) = items.get(i + 1) else {
                return Err(item.error(USAGE));
            };
            let ms = parse_ms(ms_item, ms_item.text, 1, "hold time", "hold LEFT 500")?;
            i += 2;
            b.room_for(item, 1)?;
            b.press(item, key, ms, ms + HOLD_GAP_MS)?;
        } else {
            // KEY*N: the '*' that splits is the first one after the first character (of ALT-x,
            // after the x), so `*`, `**3` and `ALT-*` still mean the star key.
            let alt = text.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("ALT-"));
            let star = text
                .char_indices()
                .skip(if alt { 5 } else { 1 })
                .find(|&(_, c)| c == '*')
                .map(|(o, _)| o);
            let (key_text, count) = match star {
                Some(o) => {
                    let digits = &text[o + 1..];
                    let bad = |why: String| item.error(format!("bad count '{digits}' in '{text}': {why}"));
                    let n = match parse_number(digits, MAX_COUNT) {
                        Err(NumberError::NotANumber) => {
                            return Err(bad(format!("a count is a whole number from 1 to {MAX_COUNT}")));
                        }
                        Err(NumberError::TooLarge) => {
                            return Err(bad(format!("at most {MAX_COUNT} presses")));
                        }
                        Ok(0) => return Err(bad("at least 1 press".to_string())),
                        Ok(n) => n,
                    };
                    (&text[..o], n)
                }
                None => (text, 1),
            };
            let key = parse_key(key_text).map_err(|m| item.error(m))?;
            b.room_for(item, count)?;
            for _ in 0..count {
                b.press(item, key, TAP_DOWN_MS, TAP_STEP_MS)?;
            }
        }
    }
    // Built in order already (every release comes before the next item's press), but the contract
    // is "sorted by time", so make it so; the sort is stable.
    b.events.sort_by_key(|e| e.at);
    Ok(KeyScript {
        events: b.events,
        end: VirtualTime(b.now),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::KeyEventKind;
    use proptest::prelude::*;

    fn ms(n: u64) -> VirtualTime {
        VirtualTime::from_millis(n)
    }

    /// (time in ms, key, pressed?) for compact expectations.
    fn compact(s: &KeyScript) -> Vec<(u64, Key, bool)> {
        s.events
            .iter()
            .map(|e| (e.at.as_millis(), e.key, e.kind == KeyEventKind::Press))
            .collect()
    }

    /// The keys pressed, in order.
    fn presses(s: &KeyScript) -> Vec<Key> {
        s.events
            .iter()
            .filter(|e| e.kind == KeyEventKind::Press)
            .map(|e| e.key)
            .collect()
    }

    fn err(src: &str) -> ScriptError {
        parse(src).expect_err(src)
    }

    #[test]
    fn empty_and_comment_only_scripts_have_no_events() {
        for src in ["", "   \n\t ", "# just a comment", "  # a\n# b\n"] {
            let s = parse(src).unwrap();
            assert!(s.events.is_empty(), "{src:?}");
            assert_eq!(s.end, VirtualTime::ZERO);
        }
    }

    #[test]
    fn press_and_release_overlap_other_keys() {
        let s = parse("press PAD-A +50 START +100 release pad-a").unwrap();
        let at = |ms: u64| VirtualTime(ms * 1000);
        assert_eq!(
            s.events,
            vec![
                KeyEvent::press(at(0), Key::PadA),
                KeyEvent::press(at(50), Key::PadStart),
                KeyEvent::release(at(90), Key::PadStart),
                KeyEvent::release(at(230), Key::PadA),
            ]
        );
        assert_eq!(s.end, at(230), "press and release take no time");
        assert!(parse("press").is_err());
        assert!(parse("release +5").is_err());
    }

    #[test]
    fn taps_press_for_40ms_every_80ms() {
        let s = parse("7 a LEFT").unwrap();
        assert_eq!(
            compact(&s),
            vec![
                (0, Key::Char('7'), true),
                (40, Key::Char('7'), false),
                (80, Key::Char('a'), true),
                (120, Key::Char('a'), false),
                (160, Key::Left, true),
                (200, Key::Left, false),
            ]
        );
        assert_eq!(s.end, ms(240));
    }

    #[test]
    fn single_characters_are_case_sensitive_and_names_are_not() {
        let s = parse("a A b B left Left LEFT").unwrap();
        assert_eq!(
            presses(&s),
            vec![
                Key::Char('a'),
                Key::Char('A'),
                Key::Char('b'),
                Key::Char('B'),
                Key::Left,
                Key::Left,
                Key::Left
            ]
        );
    }

    #[test]
    fn every_named_key() {
        let src = "RIGHT UP DOWN RETURN enter SPACE ESCAPE esc TAB BACKSPACE DELETE HOME END \
                   PAGEUP pagedown F1 f8 F12 PAD-A pad-b START select HASH plus ALT-a alt-A ALT-+ ALT-* ALT-**2";
        let s = parse(src).unwrap();
        assert_eq!(
            presses(&s),
            vec![
                Key::Right,
                Key::Up,
                Key::Down,
                Key::Return,
                Key::Return,
                Key::Char(' '),
                Key::Escape,
                Key::Escape,
                Key::Tab,
                Key::Backspace,
                Key::Delete,
                Key::Home,
                Key::End,
                Key::PageUp,
                Key::PageDown,
                Key::F(1),
                Key::F(8),
                Key::F(12),
                Key::PadA,
                Key::PadB,
                Key::PadStart,
                Key::PadSelect,
                Key::Char('#'),
                Key::Char('+'),
                Key::Alt('a'),
                Key::Alt('A'),
                Key::Alt('+'),
                Key::Alt('*'),
                Key::Alt('*'),
                Key::Alt('*'),
            ]
        );
    }

    #[test]
    fn punctuation_and_non_ascii_characters_are_keys() {
        let s = parse("* ; £ \" - =").unwrap();
        assert_eq!(
            presses(&s),
            [
                Key::Char('*'),
                Key::Char(';'),
                Key::Char('£'),
                Key::Char('"'),
                Key::Char('-'),
                Key::Char('=')
            ]
        );
    }

    #[test]
    fn counts_repeat_taps() {
        let s = parse("x*3 **2").unwrap();
        assert_eq!(
            compact(&s),
            vec![
                (0, Key::Char('x'), true),
                (40, Key::Char('x'), false),
                (80, Key::Char('x'), true),
                (120, Key::Char('x'), false),
                (160, Key::Char('x'), true),
                (200, Key::Char('x'), false),
                (240, Key::Char('*'), true),
                (280, Key::Char('*'), false),
                (320, Key::Char('*'), true),
                (360, Key::Char('*'), false),
            ]
        );
        assert_eq!(s.end, ms(400));
        assert_eq!(parse("LEFT*10").unwrap().events.len(), 20);
        assert_eq!(parse("a*100000").unwrap().end, ms(8_000_000));
    }

    #[test]
    fn waits_move_the_clock() {
        let s = parse("+1000 a +0 +250 RETURN").unwrap();
        assert_eq!(
            compact(&s),
            vec![
                (1000, Key::Char('a'), true),
                (1040, Key::Char('a'), false),
                (1330, Key::Return, true),
                (1370, Key::Return, false),
            ]
        );
        assert_eq!(s.end, ms(1410));
        assert_eq!(parse("+86400000").unwrap().end, ms(86_400_000));
    }

    #[test]
    fn hold_presses_for_its_time_then_leaves_a_gap() {
        let s = parse("hold LEFT 500 a HOLD z 100").unwrap();
        assert_eq!(
            compact(&s),
            vec![
                (0, Key::Left, true),
                (500, Key::Left, false),
                (540, Key::Char('a'), true),
                (580, Key::Char('a'), false),
                (620, Key::Char('z'), true),
                (720, Key::Char('z'), false),
            ]
        );
        assert_eq!(s.end, ms(760));
    }

    #[test]
    fn hold_may_span_lines_and_comments() {
        let s = parse("hold # the key follows\n  PAD-A\n  250").unwrap();
        assert_eq!(compact(&s), vec![(0, Key::PadA, true), (250, Key::PadA, false)]);
    }

    #[test]
    fn comments_run_to_the_end_of_the_line_only() {
        let s = parse("a # b c\nd").unwrap();
        assert_eq!(presses(&s), [Key::Char('a'), Key::Char('d')]);
        // Windows line endings are whitespace.
        assert_eq!(parse("a\r\nb\r\n").unwrap().events.len(), 4);
    }

    #[test]
    fn events_are_sorted_by_time() {
        let s = parse("hold a 10 b*5 +3 hold UP 1 c").unwrap();
        assert!(s.events.windows(2).all(|w| w[0].at <= w[1].at));
    }

    #[test]
    fn the_example_in_docs_key_scripts_md() {
        let src = "# Start Rheolism, then drop the first piece two columns left.\n\
                   +3000          # wait for the title screen\n\
                   SPACE          # press at 3.000 s, release at 3.040 s\n\
                   LEFT*2         # presses at 3.080 s and 3.160 s\n\
                   hold DOWN 600  # down from 3.240 s to 3.840 s\n\
                   +1000 ESCAPE   # press at 4.880 s\n";
        let s = parse(src).unwrap();
        assert_eq!(
            compact(&s),
            vec![
                (3000, Key::Char(' '), true),
                (3040, Key::Char(' '), false),
                (3080, Key::Left, true),
                (3120, Key::Left, false),
                (3160, Key::Left, true),
                (3200, Key::Left, false),
                (3240, Key::Down, true),
                (3840, Key::Down, false),
                (4880, Key::Escape, true),
                (4920, Key::Escape, false),
            ]
        );
        assert_eq!(s.end, ms(4960));
    }

    fn assert_err(src: &str, line: usize, column: usize, item: &str, message: &str) {
        let e = err(src);
        assert_eq!(
            (e.line, e.column, e.item.as_str()),
            (line, column, item),
            "{src:?}: {e}"
        );
        assert_eq!(e.message, message, "{src:?}");
    }

    #[test]
    fn unknown_names_are_located_and_get_suggestions() {
        let e = err("a b\n\n  x LEFTT");
        assert_eq!(
            e.to_string(),
            "line 3, column 5: unknown key 'LEFTT' (did you mean LEFT?)"
        );
        assert_err("PADA", 1, 1, "PADA", "unknown key 'PADA' (did you mean PAD-A?)");
        assert_err(
            "retrun",
            1,
            1,
            "retrun",
            "unknown key 'retrun' (did you mean RETURN?)",
        );
        assert_err(
            "F13",
            1,
            1,
            "F13",
            "unknown key 'F13' (function keys are F1 to F12)",
        );
        assert_err("F0", 1, 1, "F0", "unknown key 'F0' (function keys are F1 to F12)");
        assert_err(
            "run",
            1,
            1,
            "run",
            "unknown key 'run' (type characters as separate items, as in 'r u n')",
        );
        assert_err("<>!?", 1, 1, "<>!?", "unknown key '<>!?'");
        assert_err(
            "ALT-ab",
            1,
            1,
            "ALT-ab",
            "unknown key 'ALT-ab' (ALT- takes one character, as in ALT-a)",
        );
        assert_err("a \u{7}", 1, 3, "\u{7}", "control character U+0007 is not a key");
    }

    #[test]
    fn messages_escape_control_bytes_and_stay_short() {
        let e = err("\x1b[2J");
        assert_eq!(e.message, "unknown key '\\x1b[2J'");
        assert_eq!(e.item, "\x1b[2J");
        let long = "x".repeat(200_000) + "*y";
        let e = err(&long);
        assert!(
            e.message.chars().count() <= MAX_MESSAGE + 1,
            "{}",
            e.message.len()
        );
        assert!(e.message.starts_with("bad count 'y' in 'xxx"), "{}", e.message);
        assert!(
            e.message.ends_with("a count is a whole number from 1 to 100000"),
            "{}",
            e.message
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // '£' is two bytes in UTF-8 but one column.
        let e = err("£ £ NOPE");
        assert_eq!((e.line, e.column), (1, 5));
    }

    #[test]
    fn bad_counts() {
        assert_err("a*0", 1, 1, "a*0", "bad count '0' in 'a*0': at least 1 press");
        assert_err(
            "  a*x",
            1,
            3,
            "a*x",
            "bad count 'x' in 'a*x': a count is a whole number from 1 to 100000",
        );
        assert_err(
            "a*",
            1,
            1,
            "a*",
            "bad count '' in 'a*': a count is a whole number from 1 to 100000",
        );
        assert_err(
            "a*100001",
            1,
            1,
            "a*100001",
            "bad count '100001' in 'a*100001': at most 100000 presses",
        );
        let e = err("a*99999999999999999999999999");
        assert!(e.message.ends_with("at most 100000 presses"), "{e}");
        assert_err(
            "LEFTT*2",
            1,
            1,
            "LEFTT*2",
            "unknown key 'LEFTT' (did you mean LEFT?)",
        );
    }

    #[test]
    fn bad_times() {
        let whole = "write a whole number of milliseconds, as in '+500'";
        assert_err("a\n+x", 2, 1, "+x", &format!("bad time '+x': {whole}"));
        assert_err("+", 1, 1, "+", &format!("bad time '+': {whole}"));
        assert_err("+-5", 1, 1, "+-5", &format!("bad time '+-5': {whole}"));
        assert_err(
            "+86400001",
            1,
            1,
            "+86400001",
            "bad time '+86400001': at most 86400000 ms (24 hours)",
        );
        assert_err(
            "+99999999999999999999999",
            1,
            1,
            "+99999999999999999999999",
            "bad time \
             '+99999999999999999999999': at most 86400000 ms (24 hours)",
        );
    }

    #[test]
    fn bad_holds() {
        let usage = "'hold' needs a key and a time in milliseconds, as in 'hold LEFT 500'";
        assert_err("a hold", 1, 3, "hold", usage);
        assert_err("hold LEFT", 1, 1, "hold", usage);
        assert_err(
            "hold +500",
            1,
            6,
            "+500",
            &format!("{usage}; '+500' is not a key"),
        );
        assert_err(
            "hold LEFTT 5",
            1,
            6,
            "LEFTT",
            "unknown key 'LEFTT' (did you mean LEFT?)",
        );
        assert_err(
            "hold a x",
            1,
            8,
            "x",
            "bad hold time 'x': write a whole number of milliseconds, as in 'hold LEFT 500'",
        );
        assert_err("hold a 0", 1, 8, "0", "bad hold time '0': at least 1 ms");
        assert_err(
            "hold a 90000000",
            1,
            8,
            "90000000",
            "bad hold time '90000000': at most 86400000 ms (24 hours)",
        );
    }

    #[test]
    fn total_presses_are_capped() {
        let src = "a*100000 ".repeat(5) + "b";
        assert_err(
            &src,
            1,
            46,
            "b",
            "'b' takes the script past 500000 key presses in all; split the run",
        );
    }

    proptest! {
        #[test]
        fn parse_never_panics_on_arbitrary_text(chars in proptest::collection::vec(any::<char>(), 0..40)) {
            // Any chars, control characters and odd whitespace included (and cheaper to generate
            // than a Unicode-class regex, which matters at 100000 cases).
            let src: String = chars.into_iter().collect();
            let _ = parse(&src);
        }

        #[test]
        fn parse_never_panics_on_script_like_text(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("hold".to_string()),
                    Just("#".to_string()),
                    Just("\n".to_string()),
                    Just("*".to_string()),
                    Just("+".to_string()),
                    "[a-zA-Z]{1,6}",
                    "[0-9]{1,25}",
                    "[+*#a-z0-9-]{1,8}",
                ],
                0..12,
            )
        ) {
            let src = parts.join(" ");
            if let Ok(script) = parse(&src) {
                prop_assert!(script.events.windows(2).all(|w| w[0].at <= w[1].at));
                prop_assert!(script.events.iter().all(|e| e.at <= script.end));
            }
        }
    }
}
