//! `trace on`: while a command runs the program, the number of each line it enters, printed as
//! BBC BASIC's own `TRACE ON` prints them (`[10] [20] `), in the debugger's output stream with
//! what the program printed in between, never on the program's screen. One home for the
//! format: the BBC interpreter's TRACE statement prints [`entry`] too.
//!
//! A tight loop enters millions of lines a second, so what one command shows is bounded: the
//! first [`MAX_PER_COMMAND`] entries, then one line saying how many more there were
//! (`trace N` lists the last N statements, for the end of a long run).

use std::fmt::Write;

/// The most line numbers one command (one `continue`, one `step`...) shows.
pub const MAX_PER_COMMAND: u64 = 100;

/// The output's width: a trace entry that would go past it starts a new line, as the
/// machine's screen would wrap it (the terminal's output lines and a transcript do not).
const WIDTH: usize = 80;

/// BBC BASIC's TRACE output for entering line `n`: `[20] ` (BBC BASIC II's form, which BBC
/// BASIC (Z80) prints too; docs/bbc-basic.md).
pub fn entry(n: u32) -> String {
    bracketed(&n.to_string())
}

/// A TRACE entry as BBC BASIC prints it on the screen: a line number, or BASIC V's
/// `PROCname` and `ENDPROC` under TRACE PROC and TRACE ENDPROC, in brackets and a space.
pub fn bracketed(what: &str) -> String {
    format!("[{what}] ")
}

/// The state of `trace on` in a debugger, and the stream it writes: the program's own text
/// and the trace entries in the order they happened.
#[derive(Clone, Debug, Default)]
pub struct LineTrace {
    on: bool,
    /// What the program printed and the entries, not yet taken.
    text: String,
    /// Characters on the stream's current line (for the wrap).
    column: usize,
    /// Entries shown since the command began, and those left out past the bound.
    shown: u64,
    more: u64,
}

impl LineTrace {
    /// Whether the debugger traces lines (it must then look at every statement).
    pub fn on(&self) -> bool {
        self.on
    }

    /// `trace on` / `trace off`: the confirmation, or `None` when `arg` is neither (the
    /// caller's `trace N` then).
    pub fn command(&mut self, arg: &str) -> Option<String> {
        match arg.trim().to_ascii_lowercase().as_str() {
            "on" => {
                self.on = true;
                Some("Line trace on: each line a run enters is shown as [LINE].\n".into())
            }
            "off" => {
                self.on = false;
                Some("Line trace off.\n".into())
            }
            _ => None,
        }
    }

    /// A new command: its runs show up to [`MAX_PER_COMMAND`] entries again.
    pub fn new_command(&mut self) {
        self.shown = 0;
        self.more = 0;
    }

    /// Text the program printed (plain text, lines ended by `\n`), before what comes next.
    pub fn program(&mut self, printed: &str) {
        if printed.is_empty() {
            return;
        }
        self.column = match printed.rfind('\n') {
            Some(i) => printed[i + 1..].chars().count(),
            None => self.column + printed.chars().count(),
        };
        self.text.push_str(printed);
    }

    /// The run enters line `n` (the caller has given [`LineTrace::program`] what the program
    /// printed before it).
    pub fn entered(&mut self, n: u32) {
        if !self.on {
            return;
        }
        if self.shown >= MAX_PER_COMMAND {
            self.more += 1;
            return;
        }
        self.shown += 1;
        let e = entry(n);
        if self.column > 0 && self.column + e.len() > WIDTH {
            self.text.push('\n');
            self.column = 0;
        }
        self.column += e.len();
        self.text.push_str(&e);
    }

    /// Moves the stream into `out`. When the command is over (`stopped`), the entries left
    /// out are counted on a line of their own.
    pub fn take(&mut self, out: &mut String, stopped: bool) {
        if !self.text.is_empty() {
            // What takes the stream starts a new line after it (a transcript's next command,
            // the terminal's next output line), so the next entries start a line too.
            self.column = 0;
        }
        out.push_str(&std::mem::take(&mut self.text));
        if stopped && self.more > 0 {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            let s = if self.more == 1 { "" } else { "s" };
            let _ = writeln!(
                out,
                "... {} more line{s} entered (trace shows the last statements)",
                self.more
            );
            self.more = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_follow_the_program_text_and_wrap_at_80_columns() {
        let mut t = LineTrace::default();
        assert!(t.command("on").is_some());
        t.entered(10);
        t.program("hi\n");
        t.entered(20);
        let mut out = String::new();
        t.take(&mut out, false);
        assert_eq!(out, "[10] hi\n[20] ");
        for _ in 0..20 {
            t.entered(1000);
        }
        let mut out = String::new();
        t.take(&mut out, true);
        assert!(out.lines().all(|l| l.len() <= 80), "{out}");
        assert!(out.starts_with("[1000] "), "{out}");
    }

    #[test]
    fn a_command_shows_at_most_the_bound_then_counts_the_rest_once() {
        let mut t = LineTrace::default();
        t.command("ON");
        for _ in 0..1_000_000 {
            t.entered(10);
        }
        let mut out = String::new();
        t.take(&mut out, true);
        assert_eq!(out.matches("[10]").count(), MAX_PER_COMMAND as usize);
        assert!(out.ends_with(&format!(
            "\n... {} more lines entered (trace shows the last statements)\n",
            1_000_000 - MAX_PER_COMMAND
        )));
        // Said once; the next command starts a new count.
        let mut again = String::new();
        t.take(&mut again, true);
        assert_eq!(again, "");
        t.new_command();
        t.entered(20);
        t.take(&mut again, true);
        assert_eq!(again, "[20] ");
        assert_eq!(t.command("off").as_deref(), Some("Line trace off.\n"));
        t.entered(30);
        assert!(t.text.is_empty());
        assert_eq!(t.command("5"), None);
    }
}
