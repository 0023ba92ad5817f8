//! The BASIC debugger's own commands (every word `retro_machine::debug::Console` hands to the
//! machine: `print`, `set`, `watch`, `list`, `tokens`, `x`, `backtrace`, `info ...`) and its
//! panels for the terminal front end.

use std::fmt::Write as _;

use retro_machine::debug::basic::changes::Change;
use retro_machine::debug::basic::{panels, print_assignment};
use retro_machine::debug::{Panel, PanelKind, PanelLine};
use retro_machine::debug::{memcmd, memfile};

use crate::interp::Interp;
use crate::interp::debug::control::{Control, expr_bytes};
use crate::interp::debug::views::show_val;
use crate::interp::value::Val;

/// The machine's part of `help`.
pub const HELP: &str = "\
BBC BASIC (docs/debugging-basic.md): LOC is LINE, LINE:STATEMENT, PROCname or FNname;
           conditions and expressions are BASIC (break 20 if a<>0)
           watch EXPR [if COND]  print[/x] EXPR|VAR = EXPR  set VAR=EXPR  backtrace (bt)
           list [LINE]
           tokens [LINE]  x[/N] ADDR (below PAGE: from PAGE)
           save \"FILE\" START END  load \"FILE\" ADDR (as *SAVE and *LOAD)
           find START END BYTES|\"TEXT\" (hunt)  fill START END BYTES
           compare START END DEST  move START END DEST  set byte[ADDR] = BYTES
           (START, END, ADDR, BYTES: BASIC expressions without spaces: blk%+3)
           info variables|locals|stack|frame|vdu [N]|error|record
           set record limit SECONDS|unlimited  trace [N] (the last N statements)
           trace on|off (show [LINE] for each line runs enter, as TRACE ON)
";

/// Columns of a listing line in the terminal's code panel (the narrowest it gets at 80x24).
const LISTING_WIDTH: usize = 36;

fn line_arg(rest: &str) -> Result<Option<u32>, String> {
    if rest.is_empty() {
        return Ok(None);
    }
    rest.parse()
        .map(Some)
        .map_err(|_| format!("`{rest}` is not a line number"))
}

impl Control {
    /// A command line whose first word the console does not know; `None` if this does not
    /// know it either.
    pub(crate) fn command(
        &mut self,
        it: &mut Interp,
        line: &str,
        running: bool,
    ) -> Option<Result<String, String>> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let (word, modifier) = word.split_once('/').unwrap_or((word, ""));
        let rest = rest.trim();
        let here = it.pc_at_statement();
        Some(match word {
            "watch" if rest.is_empty() => Err("watch needs a variable or expression".into()),
            "watch" => Ok(self.watch(it, rest)),
            "print" | "p" | "output" | "inspect" => {
                if rest.is_empty() {
                    return Some(Err("print needs an expression".into()));
                }
                // gdb's `print X = V` assigns (as `set X=V`), then shows X; `print (X=V)`
                // compares, as BASIC's `=` does in an expression.
                let (shown, assigned) = match print_assignment(rest) {
                    Some((target, value)) => (target, Some(format!("{target}={value}"))),
                    None => (rest, None),
                };
                if let Some(a) = assigned
                    && let Err(e) = self.assign(it, &a)
                {
                    return Some(Err(e));
                }
                it.debug_eval(&expr_bytes(shown)).map(|v| match (modifier, &v) {
                    ("x", Val::Int(i)) => format!("{shown} = &{:X}\n", *i as u32),
                    // A whole number kept as a float (`v=0`) in hex too.
                    ("x", Val::Float(f)) if f.fract() == 0.0 && (-2147483648.0..4294967296.0).contains(f) => {
                        format!("{shown} = &{:X}\n", *f as i64 as u32)
                    }
                    _ => format!("{shown} = {}\n", show_val(&v)),
                })
            }
            "set" if rest.starts_with("record limit") => self.set_record_limit(&rest["record limit".len()..]),
            "set" if rest.starts_with("byte[") => self.set_bytes(it, rest),
            "set" => self
                .assign(it, rest.strip_prefix("var ").unwrap_or(rest).trim())
                .map(|_| String::new()),
            "backtrace" | "bt" | "where" => Ok(it.backtrace_text()),
            "list" | "l" => line_arg(rest).and_then(|l| {
                // A bare `list` goes on after the last one while the program has not moved.
                let at = here.to_string();
                let from = l.is_none().then(|| self.listed.next(&at)).flatten();
                let (text, next) = it.listing_window(l, from.map(|n| n as u32), here);
                match next {
                    Some(n) => self.listed.shown(&at, u64::from(n)),
                    None => return Err("Line number out of range: the program ends before it.".into()),
                }
                Ok(text)
            }),
            "tokens" => line_arg(rest).and_then(|l| it.tokens_text(l, here)),
            "x" => self.examine(it, modifier, rest, here),
            "save" => save(it, rest),
            "load" => self.load(it, rest),
            "find" | "hunt" => find(it, rest),
            "compare" => compare(it, rest),
            "fill" => self.fill(it, rest),
            "move" => self.move_bytes(it, rest),
            "info" | "i" => return self.info(it, rest, running),
            _ => return None,
        })
    }

    /// `x[/N] ADDR`: memory; below PAGE an offset into the program.
    /// Without ADDR it goes on after the last `x` (while the program has not moved), else from
    /// PAGE.
    fn examine(
        &mut self,
        it: &mut Interp,
        modifier: &str,
        rest: &str,
        here: usize,
    ) -> Result<String, String> {
        let n: usize = match modifier.trim_end_matches('b') {
            "" => 16,
            m => m.parse().map_err(|_| format!("`{m}` is not a count"))?,
        };
        let n = n.min(4096);
        let at = here.to_string();
        let (page, _) = it.program_span();
        let a = match self.examined.next(&at) {
            Some(next) if rest.is_empty() => next as usize,
            _ => {
                let a = if rest.is_empty() { 0 } else { address(it, rest)? };
                if a < page { page + a } else { a }
            }
        };
        let text = it.memory_text(a, n)?;
        self.examined.shown(&at, (a + n) as u64);
        Ok(text)
    }

    /// `set VAR=EXPR` (and `print VAR = EXPR`): the assignment, as LET makes it, and an event
    /// of the run.
    fn assign(&mut self, it: &mut Interp, text: &str) -> Result<(), String> {
        if !text.contains('=') {
            return Err("set needs VARIABLE=EXPRESSION".into());
        }
        let bytes = crate::tokenize::tokenize_line(text.as_bytes(), crate::tokenize::Mode::Strict);
        it.debug_assign(&bytes)?;
        self.record_change(Change::Assign(bytes));
        self.refresh_watches(it);
        Ok(())
    }

    /// `load "FILE" ADDR` (as `*LOAD`): the file's bytes into memory from ADDR, as `?` writes
    /// them; a file that would run past the end of memory is refused whole. An event of the run,
    /// as `set` is: going back and forth keeps it.
    fn load(&mut self, it: &mut Interp, args: &str) -> Result<String, String> {
        const USAGE: &str = "load \"FILE\" ADDR (load \"blk.bin\" blk%)";
        let (path, rest) = memfile::file_arg(args, USAGE)?;
        if rest.is_empty() {
            return Err(format!("usage: {USAGE}"));
        }
        let at = address(it, rest)?;
        let room = it.memory_end().saturating_sub(at);
        if room == 0 {
            return Err(format!("&{at:X} is at or past HIMEM (&{:X})", it.memory_end()));
        }
        let bytes = memfile::read(&path, room, &format!("&{at:05X}"))?;
        it.debug_poke(at, &bytes);
        let last = at + bytes.len() - 1;
        let n = bytes.len();
        self.record_change(Change::Memory(at, bytes));
        self.refresh_watches(it);
        Ok(memfile::loaded(
            &path,
            n,
            &format!("&{at:05X}"),
            &format!("&{last:05X}"),
        ))
    }

    /// Bytes written from `at` by `fill`, `move` or `set byte[A]`, as `?` writes them: an event
    /// of the run, as `load`'s are, so going back and forth keeps them.
    fn write(&mut self, it: &mut Interp, at: usize, bytes: Vec<u8>) {
        it.debug_poke(at, &bytes);
        self.record_change(Change::Memory(at, bytes));
        self.refresh_watches(it);
    }

    /// `fill START END BYTES`: the range with the bytes over and over.
    fn fill(&mut self, it: &mut Interp, args: &str) -> Result<String, String> {
        let (first, last, rest) = range(it, args, "fill START END BYTES... (fill blk% blk%+9 0)")?;
        let pattern = byte_list(it, rest)?;
        self.write(it, first, memcmd::filled(last - first + 1, &pattern));
        Ok(String::new())
    }

    /// `move START END DEST`: copies the range to DEST (as memmove: overlapping is fine).
    fn move_bytes(&mut self, it: &mut Interp, args: &str) -> Result<String, String> {
        let (first, last, rest) = range(it, args, "move START END DEST (move blk% blk%+9 blk%+1)")?;
        let dest = room_for(it, rest, last - first + 1)?;
        let bytes = memcmd::read(&Mem(it), first, last);
        self.write(it, dest, bytes);
        Ok(String::new())
    }

    /// `set byte[ADDR] = 1 2 3` (the Z80's form; VICE's `>`): bytes from ADDR on. BBC BASIC's
    /// own `set ?A=V` writes one byte, as LET does.
    fn set_bytes(&mut self, it: &mut Interp, text: &str) -> Result<String, String> {
        const USAGE: &str = "set byte[ADDR] = BYTES... (set byte[blk%] = 1 2 3)";
        let inner = &text["byte[".len()..];
        let (at, values) = inner
            .rsplit_once(']')
            .and_then(|(a, v)| Some((a, v.trim().strip_prefix('=')?)))
            .ok_or_else(|| format!("usage: {USAGE}"))?;
        let bytes = byte_list(it, values)?;
        let at = room_for(it, at.trim(), bytes.len())?;
        self.write(it, at, bytes);
        Ok(String::new())
    }

    fn info(&mut self, it: &mut Interp, what: &str, running: bool) -> Option<Result<String, String>> {
        let (what, arg) = what.split_once(char::is_whitespace).unwrap_or((what, ""));
        Some(Ok(match what {
            "locals" => it.locals_text(),
            "variables" | "vars" => it.variables_text(),
            "stack" => it.stack_text(),
            "frame" | "program" => self.frame_text(it, running),
            "record" | "rec" => self.record_info(it),
            "vdu" => {
                let n = if arg.is_empty() {
                    10
                } else {
                    match arg.trim().parse() {
                        Ok(n) => n,
                        Err(_) => return Some(Err(format!("`{arg}` is not a count"))),
                    }
                };
                it.vdu_text(n)
            }
            "error" => match &self.last_error {
                Some(r) => format!("{} ({})\n", r.error.message, r.where_words(it)),
                None => "No error has been raised.\n".into(),
            },
            _ => {
                return Some(Err(format!(
                    "info what? locals, variables, stack, frame, vdu, error, record, breakpoints, display (not `{what}`)"
                )));
            }
        }))
    }

    /// `info frame`: where, how far, ERR/ERL, how deep.
    fn frame_text(&self, it: &Interp, running: bool) -> String {
        let mut out = String::new();
        if running {
            let p = it.pc_at_statement();
            let _ = writeln!(out, "at {}  {}", it.position(p), it.statement_text(p));
        } else {
            out.push_str("The program is not running.\n");
        }
        let (err, erl, report) = it.last_error();
        let _ = writeln!(out, "statements run: {}", self.count());
        let _ = writeln!(out, "ERR={err} ERL={erl} REPORT$=\"{report}\"");
        let _ = writeln!(
            out,
            "call depth {} (GOSUB, PROC and FN), control stack {} entries",
            it.call_depth(),
            it.stack_depth()
        );
        out
    }

    /// The terminal's panels: the listing, the current line's tokens, the interpreter's state
    /// with the VDU queue, the control stack and the variables.
    pub(crate) fn panel(&self, it: &Interp, kind: PanelKind, rows: usize, running: bool) -> Option<Panel> {
        let here = it.pc_at_statement();
        let bp_statements: Vec<(u32, usize)> = self
            .points
            .breaks
            .iter()
            .filter(|b| b.id != 0 && b.enabled)
            .map(|b| it.position(b.addr))
            .map(|p| (p.line, p.statement))
            .collect();
        let plain = |title: &str, text: String| Panel {
            title: title.into(),
            lines: text.lines().map(PanelLine::plain).collect(),
        };
        Some(match kind {
            PanelKind::Source => {
                let cur = it.position(here);
                let mut lines = Vec::new();
                for (n, statements) in it.listing_lines(cur.line, rows) {
                    // A statement a row (wrapped if long: Rheolism is one line of 251 bytes), so
                    // the current statement alone is highlighted, as the issue asks.
                    for (k, text) in statements.iter().enumerate() {
                        let current = running && cur.in_program && n == cur.line && k + 1 == cur.statement;
                        let breakpoint = bp_statements.contains(&(n, k + 1));
                        for row in statement_rows(text, k == 0) {
                            lines.push(PanelLine {
                                current,
                                breakpoint,
                                text: row,
                                changed: false,
                            });
                        }
                    }
                }
                // The rows around the current statement, which may be far down a long line.
                if let Some(at) = lines.iter().position(|l| l.current) {
                    let from = at.saturating_sub(rows / 3).min(lines.len().saturating_sub(rows));
                    lines.drain(..from);
                }
                Panel {
                    title: "listing".into(),
                    lines,
                }
            }
            PanelKind::Disassembly => {
                let text = it.tokens_text(None, here).unwrap_or_else(|e| e + "\n");
                let mut lines: Vec<PanelLine> = text
                    .lines()
                    .map(|l| PanelLine {
                        current: running && l.starts_with("=>"),
                        text: l.to_string(),
                        ..PanelLine::default()
                    })
                    .collect();
                // The rows around the pointer's byte, which may be far down a long line.
                if let Some(at) = lines.iter().position(|l| l.current) {
                    let from = at.saturating_sub(rows / 3).min(lines.len().saturating_sub(rows));
                    lines.drain(..from);
                }
                Panel {
                    title: "tokens".into(),
                    lines,
                }
            }
            PanelKind::Registers => plain("interpreter", self.state_text(it, running)),
            PanelKind::Stack => plain("control stack", it.stack_text()),
            PanelKind::Memory => panels::variables("variables", it.variable_lines(), &self.vars_before),
        })
    }

    /// The interpreter panel: the pointer, the count, ERR/ERL and the VDU state.
    fn state_text(&self, it: &Interp, running: bool) -> String {
        let mut out = String::new();
        if running {
            let p = it.pc_at_statement();
            let _ = writeln!(out, "PC {} &{p:X}", it.position(p));
        } else {
            out.push_str("not running (run starts it)\n");
        }
        let (err, erl, _) = it.last_error();
        let _ = writeln!(out, "statements {}  ERR {err} ERL {erl}", self.count());
        // The queue and the last commands; the driver's state in full is `info vdu`.
        for l in it.vdu_text(3).lines().take(6) {
            let _ = writeln!(out, "{l}");
        }
        out
    }
}

/// An address given as a BASIC expression (a whole number: `blk%`, `&1900`, `PAGE+4`).
fn address(it: &mut Interp, text: &str) -> Result<usize, String> {
    match it.debug_eval(&expr_bytes(text))? {
        Val::Int(i) => Ok(i as u32 as usize),
        Val::Float(f) if (0.0..4294967296.0).contains(&f) => Ok(f as usize),
        _ => Err(format!("Type mismatch: `{text}` is not an address")),
    }
}

/// BBC memory below HIMEM as the kit's memory commands see it: `&01900` addresses, each with
/// its offset from PAGE after `find`'s, as `x` shows them.
struct Mem<'a>(&'a Interp);

impl memcmd::Memory for Mem<'_> {
    fn peek(&self, at: usize) -> u8 {
        self.0.mem[at]
    }
    fn size(&self) -> usize {
        self.0.memory_end()
    }
    fn show(&self, at: usize) -> String {
        format!("&{at:05X}")
    }
    fn label(&self, at: usize) -> String {
        format!("PAGE{:+}", at as i64 - self.0.program_span().0 as i64)
    }
}

/// A range `START END` of memory below HIMEM (BASIC expressions without spaces) and the rest.
fn range<'a>(it: &mut Interp, args: &'a str, usage: &str) -> Result<(usize, usize, &'a str), String> {
    let (a, b, rest) = memcmd::range_words(args, usage)?;
    let (first, last) = (address(it, a)?, address(it, b)?);
    memcmd::check_range(&Mem(it), first, last)?;
    if last >= it.memory_end() {
        return Err(format!("&{last:X} is at or past HIMEM (&{:X})", it.memory_end()));
    }
    Ok((first, last, rest))
}

/// The address `text` says, where `len` bytes fit below HIMEM.
fn room_for(it: &mut Interp, text: &str, len: usize) -> Result<usize, String> {
    let at = address(it, text)?;
    if at + len > it.memory_end() {
        return Err(format!(
            "{len} bytes from &{at:X} run past HIMEM (&{:X})",
            it.memory_end()
        ));
    }
    Ok(at)
}

/// Bytes as BASIC expressions without spaces (`1 2 &FF n%+1`), or a quoted text (its
/// characters' ASCII codes, as `$blk%="TEXT"` stores them).
fn byte_list(it: &mut Interp, text: &str) -> Result<Vec<u8>, String> {
    memcmd::byte_list(
        text,
        |w| match it.debug_eval(&expr_bytes(w))? {
            Val::Int(i) => Ok(i64::from(i)),
            Val::Float(f) if f.fract() == 0.0 && f.abs() < 1e18 => Ok(f as i64),
            _ => Err(format!("Type mismatch: `{w}` is not a byte")),
        },
        |c| u8::try_from(c).unwrap_or(b'?'),
    )
}

/// `find START END BYTES|"TEXT"` (VICE's `hunt`): every address in the range where they start.
fn find(it: &mut Interp, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(it, args, "find START END BYTES... or find START END \"TEXT\"")?;
    let pattern = byte_list(it, rest)?;
    Ok(memcmd::find(&Mem(it), first, last, &pattern))
}

/// `compare START END DEST`: where the range and the bytes at DEST differ.
fn compare(it: &mut Interp, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(it, args, "compare START END DEST (compare blk% blk%+9 buf%)")?;
    let dest = room_for(it, rest, last - first + 1)?;
    Ok(memcmd::compare(&Mem(it), first, last, dest))
}

/// `save "FILE" START END` (as `*SAVE`): the bytes of START..END (inclusive) to FILE; START
/// and END are BASIC expressions without spaces (`save "blk.bin" blk% blk%+9`).
fn save(it: &mut Interp, args: &str) -> Result<String, String> {
    const USAGE: &str = "save \"FILE\" START END (save \"blk.bin\" blk% blk%+9)";
    let (path, rest) = memfile::file_arg(args, USAGE)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [first, last] = words[..] else {
        return Err(format!("usage: {USAGE}"));
    };
    let (first, last) = (address(it, first)?, address(it, last)?);
    if last < first {
        return Err(format!("the range &{first:X} &{last:X} is backwards"));
    }
    if last >= it.memory_end() {
        return Err(format!("&{last:X} is at or past HIMEM (&{:X})", it.memory_end()));
    }
    memfile::save(
        &path,
        &it.mem[first..=last],
        &format!("&{first:05X}"),
        &format!("&{last:05X}"),
    )
}

/// A statement's rows in the listing panel: at most [`LISTING_WIDTH`] characters each, every
/// row but a line's first indented to where the line's text begins after its number.
fn statement_rows(text: &str, line_start: bool) -> Vec<String> {
    const INDENT: &str = "      ";
    let chars: Vec<char> = text.chars().collect();
    let mut rows = Vec::new();
    let mut rest = &chars[..];
    let mut first = line_start;
    while !rest.is_empty() {
        let width = if first {
            LISTING_WIDTH
        } else {
            LISTING_WIDTH - INDENT.len()
        };
        let (row, more) = rest.split_at(width.min(rest.len()));
        let indent = if first { "" } else { INDENT };
        rows.push(format!("{indent}{}", row.iter().collect::<String>()));
        rest = more;
        first = false;
    }
    rows
}
