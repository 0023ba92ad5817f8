//! The debugger's command line, as a gdb user types it (readline's keys): the editing itself is
//! `tui-input`'s (Left/Right, Home/End, Ctrl-A/E/K/W/Y, Backspace, Delete); on top of it, history
//! (Up/Down, and Ctrl-R's reverse search), Tab completion and the history file, one per machine
//! kind, kept across sessions in the user's data directory (docs/debugger.md, "The command line").

use std::path::{Path, PathBuf};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tui_input::backend::crossterm::to_input_request;
use tui_input::{Input, InputRequest};

/// Lines kept in a history file (the oldest go first).
pub const HISTORY_LINES: usize = 1000;

/// The longest line the command line takes (as before: a command is one line).
const MAX_LINE: usize = 200;

/// What a key did to the command line.
#[derive(Debug, PartialEq, Eq)]
pub enum LineKey {
    /// The line took it (edited, moved, recalled, completed).
    Edited,
    /// Enter: the line to run (empty: repeat the last command, as before).
    Submit(String),
    /// Tab completion found several names and could not extend the word: they are listed.
    Candidates(Vec<String>),
    /// Not a command-line key: the caller's (function keys, PgUp...).
    NotMine,
}

/// Ctrl-R's reverse search: the text searched for and the history entry it found.
struct Search {
    query: String,
    /// Index into the history of the match shown, `None` while nothing matches.
    found: Option<usize>,
    /// The line as it was before Ctrl-R (Escape gives it back).
    before: String,
}

pub struct CommandLine {
    input: Input,
    history: Vec<String>,
    /// The history entry Up/Down shows, `None` on the line being typed.
    recalled: Option<usize>,
    /// The line being typed when Up first recalled an entry.
    draft: String,
    search: Option<Search>,
    /// The history file, when there is a data directory.
    file: Option<PathBuf>,
}

impl CommandLine {
    /// An empty line with no history file (tests; a terminal with no data directory).
    pub fn new() -> CommandLine {
        CommandLine {
            input: Input::default(),
            history: Vec::new(),
            recalled: None,
            draft: String::new(),
            search: None,
            file: None,
        }
    }

    /// The line with the history of machine `kind` (`z80`, `bbc`, `c64`) loaded from `file`
    /// ([`history_file`]); a missing or unreadable file is an empty history.
    pub fn with_history(file: Option<PathBuf>) -> CommandLine {
        let mut line = CommandLine::new();
        if let Some(f) = &file
            && let Ok(text) = std::fs::read_to_string(f)
        {
            line.history = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            let excess = line.history.len().saturating_sub(HISTORY_LINES);
            line.history.drain(..excess);
        }
        line.file = file;
        line
    }

    #[cfg(test)]
    pub fn value(&self) -> &str {
        self.input.value()
    }

    pub fn is_empty(&self) -> bool {
        self.input.value().is_empty() && self.search.is_none()
    }

    /// Ctrl-R's search is under way (Escape cancels it rather than clearing the line).
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    pub fn clear(&mut self) {
        self.input.reset();
        self.recalled = None;
        self.search = None;
    }

    #[cfg(test)]
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// What the command line shows after the prompt, and where the cursor is in it (chars):
    /// the line, or Ctrl-R's `(reverse-i-search)'QUERY': MATCH`.
    pub fn shown(&self) -> (String, usize) {
        match &self.search {
            Some(s) => {
                let found = s.found.map(|i| self.history[i].as_str()).unwrap_or("");
                let failed = if s.found.is_none() && !s.query.is_empty() {
                    "failed "
                } else {
                    ""
                };
                let head = format!("({failed}reverse-i-search)'{}': ", s.query);
                let at = head.chars().count();
                (format!("{head}{found}"), at)
            }
            None => (self.input.value().to_string(), self.input.cursor()),
        }
    }

    /// Adds a command run to the history (not an immediate repeat of the last) and writes the
    /// file, bounded to [`HISTORY_LINES`]. An error writing it is returned for the output area;
    /// the history in memory is kept either way.
    pub fn remember(&mut self, command: &str) -> Result<(), String> {
        let command = command.trim();
        if command.is_empty() || self.history.last().map(String::as_str) == Some(command) {
            return Ok(());
        }
        self.history.push(command.to_string());
        let excess = self.history.len().saturating_sub(HISTORY_LINES);
        self.history.drain(..excess);
        let Some(file) = &self.file else {
            return Ok(());
        };
        save(file, &self.history).map_err(|e| format!("history not saved to {}: {e}", file.display()))
    }

    /// A key typed while the program is stopped. `names` gives what Tab completes (asked only on
    /// Tab, so that a key costs no more than the edit).
    pub fn key(&mut self, k: KeyEvent, names: impl FnOnce(&str, bool) -> Vec<String>) -> LineKey {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if self.search.is_some() {
            return self.search_key(k, ctrl);
        }
        match k.code {
            KeyCode::Enter => {
                let line = self.input.value_and_reset();
                self.recalled = None;
                return LineKey::Submit(line);
            }
            KeyCode::Char('r') if ctrl => {
                self.search = Some(Search {
                    query: String::new(),
                    found: None,
                    before: self.input.value().to_string(),
                });
                return LineKey::Edited;
            }
            KeyCode::Up | KeyCode::Char('p') if k.code == KeyCode::Up || ctrl => {
                self.recall(-1);
                return LineKey::Edited;
            }
            KeyCode::Down | KeyCode::Char('n') if k.code == KeyCode::Down || ctrl => {
                self.recall(1);
                return LineKey::Edited;
            }
            KeyCode::Tab => return self.complete(names),
            // readline's Ctrl-U deletes back to the start of the line (tui-input's whole line).
            KeyCode::Char('u') if ctrl => {
                self.input.handle(InputRequest::DeleteFromStart);
                return LineKey::Edited;
            }
            _ => {}
        }
        match to_input_request(&Event::Key(k)) {
            Some(InputRequest::InsertChar(_)) if self.input.value().chars().count() >= MAX_LINE => {
                LineKey::Edited
            }
            Some(req) => {
                self.input.handle(req);
                LineKey::Edited
            }
            None => LineKey::NotMine,
        }
    }

    /// Up (`step` -1) or Down (+1) through the history; Down past the newest gives back the line
    /// that was being typed.
    fn recall(&mut self, step: isize) {
        let n = self.history.len();
        let next = match (self.recalled, step < 0) {
            (None, true) if n > 0 => {
                self.draft = self.input.value().to_string();
                Some(n - 1)
            }
            (None, _) => return,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i + 1 < n => Some(i + 1),
            (Some(_), false) => None,
        };
        self.recalled = next;
        let text = match next {
            Some(i) => self.history[i].clone(),
            None => std::mem::take(&mut self.draft),
        };
        self.input = Input::new(text);
    }

    fn search_key(&mut self, k: KeyEvent, ctrl: bool) -> LineKey {
        let Some(s) = self.search.as_mut() else {
            return LineKey::NotMine;
        };
        match k.code {
            // Again: the next older match.
            KeyCode::Char('r') if ctrl => {
                let from = s.found.unwrap_or(self.history.len());
                s.found = find_back(&self.history, &s.query, from).or(s.found);
            }
            KeyCode::Char('g') if ctrl => {
                self.input = Input::new(std::mem::take(&mut s.before));
                self.search = None;
            }
            KeyCode::Esc => {
                self.input = Input::new(std::mem::take(&mut s.before));
                self.search = None;
            }
            KeyCode::Backspace => {
                s.query.pop();
                s.found = find_back(&self.history, &s.query, self.history.len());
            }
            KeyCode::Char(c) if !ctrl => {
                s.query.push(c);
                s.found = find_back(
                    &self.history,
                    &s.query,
                    s.found.map_or(self.history.len(), |i| i + 1),
                );
            }
            // Enter runs the match; any other key takes it onto the line and does its work there.
            _ => {
                let found = s.found.map(|i| self.history[i].clone());
                let before = std::mem::take(&mut s.before);
                self.search = None;
                self.input = Input::new(found.unwrap_or(before));
                return self.key(k, |_, _| Vec::new());
            }
        }
        LineKey::Edited
    }

    /// Tab: completes the word before the cursor from the command words (the first word, and
    /// after `help`) or from `names(prefix, is_command)`: a single match is put in whole (a
    /// command word with a space after it), several are extended to what they share, and when
    /// that adds nothing they are listed.
    fn complete(&mut self, names: impl FnOnce(&str, bool) -> Vec<String>) -> LineKey {
        let value = self.input.value().to_string();
        let cursor = byte_at(&value, self.input.cursor());
        let before = &value[..cursor];
        let start = before
            .rfind(|c: char| !is_name_char(c))
            .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
        let word = &before[start..];
        let first = before[..start].trim().is_empty();
        let command = first || before[..start].trim() == "help";
        let mut found: Vec<String> = names(word, command);
        found.sort();
        found.dedup();
        // Case-sensitive matches first (Z80 labels are), else any case (BASIC keywords, and
        // labels the expression language finds case-insensitively).
        let mut matches: Vec<&String> = found.iter().filter(|n| n.starts_with(word)).collect();
        if matches.is_empty() {
            let lower = word.to_lowercase();
            matches = found
                .iter()
                .filter(|n| n.to_lowercase().starts_with(&lower))
                .collect();
        }
        let insert = match matches.as_slice() {
            [] => return LineKey::Edited,
            [one] => {
                let space = if command { " " } else { "" };
                format!("{one}{space}")
            }
            many => {
                let common = common_prefix(many);
                if common.chars().count() <= word.chars().count() {
                    return LineKey::Candidates(many.iter().map(|s| s.to_string()).collect());
                }
                common
            }
        };
        let after = &value[cursor..];
        let text = format!("{}{insert}{after}", &value[..start]);
        let at = value[..start].chars().count() + insert.chars().count();
        if text.chars().count() <= MAX_LINE {
            self.input = Input::new(text).with_cursor(at);
        }
        LineKey::Edited
    }
}

/// The command words of a `help` text (the console's and the machine's): the first word of each
/// entry, entries being set apart by two spaces (`run (r)  continue (c) [N]`), with its
/// `/`-joined forms (`step/stepi`); section names (`Running:`) and sentences (three plain words
/// or more) are not commands.
pub fn command_words(help: &str) -> Vec<String> {
    let plain = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    let mut out = Vec::new();
    for line in help.lines() {
        for entry in line.split("  ").map(str::trim).filter(|e| !e.is_empty()) {
            let mut tokens = entry.split_whitespace();
            let Some(first) = tokens.next() else { continue };
            if entry.split_whitespace().filter(|t| plain(t)).count() >= 3
                || first.ends_with([':', ',', '.', ';'])
            {
                continue;
            }
            let head = first.split(['[', '(']).next().unwrap_or("");
            out.extend(head.split('/').filter(|w| plain(w)).map(str::to_string));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Characters of a name Tab completes: labels (`check_win`, `.won`), BASIC variables (`A%`,
/// `N$`), `reverse-step`, `file.asm`.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '%' | '$' | '.' | '-' | '@' | '`' | '\'')
}

fn byte_at(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)
}

fn common_prefix(words: &[&String]) -> String {
    let first = words[0];
    let mut len = first.len();
    for w in &words[1..] {
        len = first
            .char_indices()
            .zip(w.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(len);
    }
    first[..len].to_string()
}

/// The newest history entry before index `before` that contains `query`.
fn find_back(history: &[String], query: &str, before: usize) -> Option<usize> {
    history[..before.min(history.len())]
        .iter()
        .rposition(|h| h.contains(query))
}

/// Where the history of machine `kind` is kept: `KIND.history` in the user's data directory
/// ([`retro_machine::datadir::data_dir`]: `$RETRO_DATA_DIR` when set, as tests do). `None` when
/// there is no home to find.
pub fn history_file(kind: &str) -> Option<PathBuf> {
    let kind: String = kind.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    Some(retro_machine::datadir::data_dir()?.join(format!("{kind}.history")))
}

/// Writes the history file atomically (a crash or a full disk never leaves half of it),
/// creating its directory.
fn save(file: &Path, history: &[String]) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = history.join("\n");
    text.push('\n');
    retro_machine::outfile::write_atomic(file, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(line: &mut CommandLine, code: KeyCode, mods: KeyModifiers) -> LineKey {
        line.key(KeyEvent::new(code, mods), |_, command| {
            if command {
                vec!["break".into(), "backtrace".into(), "print".into()]
            } else {
                vec!["checkWIN".into(), "checkLINE".into(), "Board".into()]
            }
        })
    }

    fn typed(line: &mut CommandLine, text: &str) {
        for c in text.chars() {
            press(line, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    const NONE: KeyModifiers = KeyModifiers::NONE;
    const CTRL: KeyModifiers = KeyModifiers::CONTROL;

    #[test]
    fn up_and_down_recall_history_and_give_back_the_draft() {
        let mut l = CommandLine::new();
        l.remember("break checkWIN").unwrap();
        l.remember("run").unwrap();
        l.remember("run").unwrap();
        assert_eq!(
            l.history(),
            ["break checkWIN", "run"],
            "an immediate repeat is kept once"
        );
        typed(&mut l, "pri");
        press(&mut l, KeyCode::Up, NONE);
        assert_eq!(l.value(), "run");
        press(&mut l, KeyCode::Up, NONE);
        press(&mut l, KeyCode::Up, NONE);
        assert_eq!(l.value(), "break checkWIN", "Up stops at the oldest");
        press(&mut l, KeyCode::Down, NONE);
        press(&mut l, KeyCode::Down, NONE);
        assert_eq!(l.value(), "pri", "Down past the newest gives back what was typed");
    }

    #[test]
    fn readline_editing_keys() {
        let mut l = CommandLine::new();
        typed(&mut l, "rint 6*7");
        press(&mut l, KeyCode::Home, NONE);
        typed(&mut l, "p");
        press(&mut l, KeyCode::End, NONE);
        typed(&mut l, "+1");
        assert_eq!(l.value(), "print 6*7+1");
        press(&mut l, KeyCode::Char('a'), CTRL);
        press(&mut l, KeyCode::Right, NONE);
        press(&mut l, KeyCode::Char('k'), CTRL);
        assert_eq!(l.value(), "p", "Ctrl-K deletes to the end");
        typed(&mut l, " A + B");
        press(&mut l, KeyCode::Char('w'), CTRL);
        assert_eq!(l.value(), "p A + ", "Ctrl-W deletes the word before the cursor");
        press(&mut l, KeyCode::Left, NONE);
        press(&mut l, KeyCode::Left, NONE);
        press(&mut l, KeyCode::Char('u'), CTRL);
        assert_eq!(l.value(), "+ ", "Ctrl-U deletes back to the start, as readline's");
        press(&mut l, KeyCode::Char('e'), CTRL);
        typed(&mut l, "1");
        assert_eq!(l.value(), "+ 1");
    }

    #[test]
    fn ctrl_r_finds_the_newest_match_then_older_ones() {
        let mut l = CommandLine::new();
        for c in ["break checkWIN", "print A", "break checkLINE", "next"] {
            l.remember(c).unwrap();
        }
        press(&mut l, KeyCode::Char('r'), CTRL);
        typed(&mut l, "brea");
        assert_eq!(l.shown().0, "(reverse-i-search)'brea': break checkLINE");
        press(&mut l, KeyCode::Char('r'), CTRL);
        assert_eq!(l.shown().0, "(reverse-i-search)'brea': break checkWIN");
        assert_eq!(
            press(&mut l, KeyCode::Enter, NONE),
            LineKey::Submit("break checkWIN".into())
        );
        // Escape gives back the line as it was.
        typed(&mut l, "x");
        press(&mut l, KeyCode::Char('r'), CTRL);
        typed(&mut l, "zz");
        assert!(l.shown().0.starts_with("(failed reverse-i-search)"));
        press(&mut l, KeyCode::Esc, NONE);
        assert_eq!(l.value(), "x");
    }

    #[test]
    fn tab_completes_commands_then_names() {
        let mut l = CommandLine::new();
        typed(&mut l, "br");
        press(&mut l, KeyCode::Tab, NONE);
        assert_eq!(l.value(), "break ", "a command word, and a space after it");
        typed(&mut l, "ch");
        press(&mut l, KeyCode::Tab, NONE);
        assert_eq!(l.value(), "break check", "extended to what the matches share");
        assert_eq!(
            press(&mut l, KeyCode::Tab, NONE),
            LineKey::Candidates(vec!["checkLINE".into(), "checkWIN".into()])
        );
        typed(&mut l, "w");
        press(&mut l, KeyCode::Tab, NONE);
        assert_eq!(l.value(), "break checkWIN", "any case when no exact-case match");
        // In the middle of a line.
        let mut l = CommandLine::new();
        typed(&mut l, "print bo + 1");
        for _ in 0..4 {
            press(&mut l, KeyCode::Left, NONE);
        }
        press(&mut l, KeyCode::Tab, NONE);
        assert_eq!(l.value(), "print Board + 1");
    }

    #[test]
    fn command_words_come_from_the_help_entries() {
        let words = command_words(retro_machine::debug::HELP);
        for w in [
            "run",
            "continue",
            "step",
            "stepi",
            "reverse-step",
            "break",
            "tbreak",
            "display",
        ] {
            assert!(words.iter().any(|x| x == w), "{w} in {words:?}");
        }
        for w in ["runs", "most", "Running"] {
            assert!(!words.iter().any(|x| x == w), "{w} in {words:?}");
        }
    }

    #[test]
    fn the_history_file_is_bounded_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sub").join("z80.history");
        let mut l = CommandLine::with_history(Some(file.clone()));
        for i in 0..HISTORY_LINES + 5 {
            l.remember(&format!("print {i}")).unwrap();
        }
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.lines().count(), HISTORY_LINES);
        assert_eq!(text.lines().next(), Some("print 5"));
        let mut again = CommandLine::with_history(Some(file));
        press(&mut again, KeyCode::Up, NONE);
        assert_eq!(again.value(), format!("print {}", HISTORY_LINES + 4));
    }
}
