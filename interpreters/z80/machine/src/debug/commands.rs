//! The command language (gdb's names, docs/debugger.md), shared by `retro debug --script` and the
//! TUI's command line. [`Session::execute`] takes one line and returns its output as plain text,
//! deterministically.

use std::fmt::Write as _;

use super::breakpoints::{Access, Kind};
use super::views::{self, MachineEnv};
use super::{Debugger, Event, expr};

/// Steps `continue`, `next`, `finish` and `until` may run before giving up (about 40 virtual
/// seconds of a busy program).
pub const DEFAULT_BUDGET: u64 = 100_000_000;
/// Steps a `call` may run.
pub const CALL_BUDGET: u64 = 1_000_000;

/// What a command asks of the driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A command's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub text: String,
    pub flow: Flow,
    /// The command failed (batch mode exits 1 if any did).
    pub error: bool,
}

/// A debugging session: the debugger and the history of values printed.
pub struct Session {
    pub dbg: Debugger,
    /// The last command, repeated by an empty line in the TUI.
    pub last: Option<String>,
}

fn ok(text: String) -> Result<String, String> {
    Ok(text)
}

fn number_arg(arg: &str, default: u64) -> Result<u64, String> {
    let a = arg.trim();
    if a.is_empty() {
        return Ok(default);
    }
    expr::number(a)
        .filter(|&n| n >= 0)
        .map(|n| n as u64)
        .ok_or_else(|| format!("`{a}` is not a count"))
}

/// Splits `LOCATION if CONDITION`.
fn split_condition(arg: &str) -> (&str, Option<&str>) {
    let lower = arg.to_ascii_lowercase();
    match lower.find(" if ") {
        Some(i) => (&arg[..i], Some(&arg[i + 4..])),
        None => (arg, None),
    }
}

impl Session {
    pub fn new(dbg: Debugger) -> Session {
        Session { dbg, last: None }
    }

    /// Runs one command line. Blank lines and `#` comments do nothing.
    pub fn execute(&mut self, line: &str) -> Output {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Output {
                text: String::new(),
                flow: Flow::Continue,
                error: false,
            };
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let (word, modifier) = word.split_once('/').unwrap_or((word, ""));
        let rest = rest.trim();
        if matches!(word, "quit" | "q" | "exit") {
            return Output {
                text: String::new(),
                flow: Flow::Quit,
                error: false,
            };
        }
        let before = self.dbg.machine.cpu().registers();
        let result = self.dispatch(word, modifier, rest);
        let moved = self.dbg.machine.cpu().registers() != before;
        if moved {
            self.dbg.mark_stop(before);
        }
        match result {
            Ok(text) => Output {
                text,
                flow: Flow::Continue,
                error: false,
            },
            Err(e) => Output {
                text: format!("error: {e}\n"),
                flow: Flow::Continue,
                error: true,
            },
        }
    }

    fn dispatch(&mut self, word: &str, modifier: &str, rest: &str) -> Result<String, String> {
        let d = &mut self.dbg;
        match word {
            "break" | "b" | "br" | "tbreak" => {
                if rest.is_empty() {
                    return Err("break needs a location: an address, a label or file:line".into());
                }
                let (loc, cond) = split_condition(rest);
                let temporary = word == "tbreak";
                let id = d.break_at(loc, cond, temporary)?;
                let addr = d.location(loc)?;
                let kind = if temporary {
                    "Temporary breakpoint"
                } else {
                    "Breakpoint"
                };
                let cond = cond.map(|c| format!(" if {}", c.trim())).unwrap_or_default();
                ok(format!("{kind} {id} at {}{cond}\n", views::describe(d, addr)))
            }
            "delete" | "d" => {
                let id = if rest.is_empty() {
                    None
                } else {
                    Some(number_arg(rest, 0)? as u32)
                };
                if d.breakpoints.delete(id) {
                    ok(String::new())
                } else {
                    Err(format!("no breakpoint number {rest}"))
                }
            }
            "enable" | "disable" => {
                let id = if rest.is_empty() {
                    None
                } else {
                    Some(number_arg(rest, 0)? as u32)
                };
                if d.breakpoints.set_enabled(id, word == "enable") {
                    ok(String::new())
                } else {
                    Err(format!("no breakpoint number {rest}"))
                }
            }
            "watch" | "rwatch" | "awatch" => {
                let access = match word {
                    "watch" => Access::Write,
                    "rwatch" => Access::Read,
                    _ => Access::Both,
                };
                self.watch(rest, access)
            }
            "run" | "r" => {
                d.restart();
                let ev = d.cont(DEFAULT_BUDGET);
                ok(self.report(&ev))
            }
            "continue" | "c" | "cont" => {
                let budget = number_arg(rest, DEFAULT_BUDGET)?;
                let ev = d.cont(budget);
                ok(self.report(&ev))
            }
            "stepi" | "si" | "step" | "s" => {
                let n = number_arg(rest, 1)?;
                self.repeat(n, |d| d.stepi())
            }
            "next" | "n" | "nexti" | "ni" => {
                let n = number_arg(rest, 1)?;
                self.repeat(n, |d| d.next(DEFAULT_BUDGET))
            }
            "finish" | "fin" => {
                let ev = d.finish(DEFAULT_BUDGET);
                ok(self.report(&ev))
            }
            "until" | "u" | "advance" => {
                let ev = if rest.is_empty() {
                    d.next(DEFAULT_BUDGET)
                } else {
                    let addr = d.location(rest)?;
                    d.until(addr, DEFAULT_BUDGET)
                };
                ok(self.report(&ev))
            }
            "reverse-step" | "rs" | "reverse-stepi" | "rsi" | "reverse-next" | "rn" => {
                let n = number_arg(rest, 1)?;
                let ev = d.reverse_step(n);
                ok(self.report(&ev))
            }
            "reverse-continue" | "rc" => {
                let ev = d.reverse_continue();
                ok(self.report(&ev))
            }
            "print" | "p" | "output" | "inspect" => self.print(modifier, rest),
            "set" => self.set(rest),
            "x" => self.examine(modifier, rest),
            "info" | "i" => self.info(rest),
            "backtrace" | "bt" | "where" => ok(views::backtrace(d, number_arg(rest, 16)? as usize)),
            "disassemble" | "disas" => {
                let mut args = rest.split_whitespace();
                let addr = match args.next() {
                    Some(a) => d.location(a)?,
                    None => d.machine.cpu().pc(),
                };
                let n = number_arg(args.next().unwrap_or(""), 10)?.min(1000) as usize;
                ok(views::disassemble(d, addr, n))
            }
            "list" | "l" => {
                let addr = if rest.is_empty() {
                    d.machine.cpu().pc()
                } else {
                    d.location(rest)?
                };
                views::source_around(d, addr, 4, 5)
                    .ok_or_else(|| format!("no source for {}", views::describe(d, addr)))
            }
            "display" => {
                if rest.is_empty() {
                    return ok(self.displays());
                }
                expr::parse(rest).map_err(|e| e.to_string())?;
                d.displays.push(rest.to_string());
                let last = d.displays.len() - 1;
                ok(self.display_one(last))
            }
            "undisplay" => {
                let n = number_arg(rest, 0)? as usize;
                if n == 0 || n > d.displays.len() {
                    return Err(format!("no display number {rest}"));
                }
                d.displays.remove(n - 1);
                ok(String::new())
            }
            "call" => self.call(rest),
            "grid" => {
                let a: Vec<&str> = rest.split_whitespace().collect();
                let [label, cols, rows] = a[..] else {
                    return Err("usage: grid LABEL COLUMNS ROWS".into());
                };
                let cols = number_arg(cols, 0)? as u16;
                let rows = number_arg(rows, 0)? as u16;
                if cols == 0 || rows == 0 || cols as u32 * rows as u32 > 4096 {
                    return Err("a grid has 1 to 4096 cells".into());
                }
                views::symbol(d, label).ok_or_else(|| format!("no label `{label}`"))?;
                d.structs.grids.insert(label.to_string(), (cols, rows));
                ok(String::new())
            }
            "trace" => ok(self.trace(number_arg(rest, 20)?)),
            "echo" => ok(format!("{rest}\n")),
            "help" | "h" => ok(HELP.to_string()),
            _ => Err(format!("unknown command `{word}` (try `help`)")),
        }
    }

    fn repeat(&mut self, n: u64, mut f: impl FnMut(&mut Debugger) -> Event) -> Result<String, String> {
        let mut ev = Event::Done;
        for _ in 0..n.max(1) {
            ev = f(&mut self.dbg);
            if ev != Event::Done {
                break;
            }
        }
        Ok(self.report(&ev))
    }

    /// The stop report: why it stopped, where, and the displays.
    pub fn report(&self, ev: &Event) -> String {
        let d = &self.dbg;
        let pc = d.machine.cpu().pc();
        let mut s = String::new();
        match ev {
            Event::Done => {}
            Event::Breakpoint(ids) => {
                let which: Vec<String> = ids.iter().map(u32::to_string).collect();
                let _ = writeln!(s, "Breakpoint {}, {}", which.join(", "), views::describe(d, pc));
            }
            Event::Watchpoint(ids, hit) => {
                let which: Vec<String> = ids.iter().map(u32::to_string).collect();
                let what = if hit.io {
                    format!(
                        "{} port ${:04X}",
                        if hit.write { "OUT to" } else { "IN from" },
                        hit.addr
                    )
                } else if hit.write {
                    format!(
                        "write ${:04X} ({}) = {}",
                        hit.addr,
                        views::label_offset(d, hit.addr),
                        hit.value
                    )
                } else {
                    format!("read ${:04X} ({})", hit.addr, views::label_offset(d, hit.addr))
                };
                let _ = writeln!(s, "Watchpoint {}: {what}", which.join(", "));
            }
            Event::Exited(status) => {
                let _ = writeln!(s, "Program exited with status {status}.");
                return s;
            }
            Event::Budget => {
                let _ = writeln!(s, "Stopped: the step budget ran out.");
            }
            Event::HistoryStart => {
                let _ = writeln!(s, "No more reverse-execution history.");
            }
        }
        s.push_str(&self.where_line());
        s.push_str(&self.displays());
        s
    }

    /// `$8012 checkWIN+2 (prog.asm:13)  ld b,a`, then the source line.
    pub fn where_line(&self) -> String {
        let d = &self.dbg;
        let pc = d.machine.cpu().pc();
        let (text, _) = views::instruction(d, pc);
        let mut s = format!("{}  {text}\n", views::describe(d, pc));
        if let Some((f, l)) = views::source_of(d, pc)
            && let Some(src) = d.program.source_line(&f, l)
        {
            let _ = writeln!(s, "{l:>6}  {}", src.trim_end());
        }
        s
    }

    fn display_one(&self, i: usize) -> String {
        let e = &self.dbg.displays[i];
        match expr::eval_str(e, &MachineEnv::new(&self.dbg)) {
            Ok(v) => format!("{}: {e} = {}\n", i + 1, value_text(v)),
            Err(err) => format!("{}: {e} = <{err}>\n", i + 1),
        }
    }

    fn displays(&self) -> String {
        (0..self.dbg.displays.len())
            .map(|i| self.display_one(i))
            .collect()
    }

    fn watch(&mut self, rest: &str, access: Access) -> Result<String, String> {
        let d = &mut self.dbg;
        let (kind, what) = if let Some(port) = rest.strip_prefix("port ") {
            let p = expr::eval_str(port, &MachineEnv::new(d)).map_err(|e| e.to_string())?;
            (
                Kind::Port {
                    port: p as u8,
                    access,
                },
                format!("port ${:02X}", p as u8),
            )
        } else {
            let (a, b) = match rest.split_once("..") {
                Some((a, b)) => (a, Some(b)),
                None => (rest, None),
            };
            if a.trim().is_empty() {
                return Err("watch needs an address, a label or a range A..B".into());
            }
            let first = d.location(a)?;
            let last = match b {
                Some(b) => d.location(b)?,
                None => first,
            };
            if last < first {
                return Err(format!("the range ${first:04X}..${last:04X} is backwards"));
            }
            (Kind::Memory { first, last, access }, rest.trim().to_string())
        };
        let id = d.breakpoints.add(kind, what.clone(), None, false);
        let name = match access {
            Access::Write => "Watchpoint",
            Access::Read => "Read watchpoint",
            Access::Both => "Access watchpoint",
        };
        ok(format!("{name} {id}: {what}\n"))
    }

    fn print(&mut self, modifier: &str, rest: &str) -> Result<String, String> {
        let d = &self.dbg;
        let peek = |a: u16| d.machine.peek(a);
        if let Some(s) = d.structs.show_struct(&d.program, rest, &peek) {
            return ok(s);
        }
        if let Some(s) = d.structs.show_grid(&d.program, rest, &peek) {
            return ok(s);
        }
        if rest.is_empty() {
            return Err("print needs an expression".into());
        }
        let v = expr::eval_str(rest, &MachineEnv::new(d)).map_err(|e| e.to_string())?;
        ok(match modifier {
            "x" => format!("{rest} = ${:X}\n", v),
            "d" => format!("{rest} = {v}\n"),
            "c" => format!("{rest} = '{}'\n", (v as u8) as char),
            "t" => format!("{rest} = %{:b}\n", v),
            _ => format!("{rest} = {}\n", value_text(v)),
        })
    }

    fn set(&mut self, rest: &str) -> Result<String, String> {
        let rest = rest.strip_prefix("var ").unwrap_or(rest);
        let Some((target, value)) = split_assignment(rest) else {
            return Err(
                "usage: set TARGET = VALUE (a register, flag, byte[ADDR], word[ADDR] or (HL))".into(),
            );
        };
        let d = &mut self.dbg;
        let v = expr::eval_str(value, &MachineEnv::new(d)).map_err(|e| e.to_string())?;
        let target = target.trim();
        let lower = target.to_ascii_lowercase();
        match expr::parse(target).map_err(|e| e.to_string())? {
            expr::Expr::Byte(a) => {
                let a = a.eval(&MachineEnv::new(d)).map_err(|e| e.to_string())? as u16;
                d.machine.poke(a, v as u8);
            }
            expr::Expr::Word(a) => {
                let a = a.eval(&MachineEnv::new(d)).map_err(|e| e.to_string())? as u16;
                d.machine.poke(a, v as u8);
                d.machine.poke(a.wrapping_add(1), (v >> 8) as u8);
            }
            expr::Expr::Name(..) if views::set_register(d.machine.cpu_mut(), &lower, v as u16).is_ok() => {}
            _ => return Err(format!("cannot set `{target}`: not a register, flag or memory")),
        }
        d.modified();
        ok(String::new())
    }

    fn examine(&mut self, modifier: &str, rest: &str) -> Result<String, String> {
        let d = &self.dbg;
        let digits: String = modifier.chars().take_while(char::is_ascii_digit).collect();
        let count = if digits.is_empty() {
            16
        } else {
            number_arg(&digits, 16)?.min(4096) as usize
        };
        let words = modifier.ends_with('w');
        let addr = if rest.is_empty() {
            d.machine.cpu().pc()
        } else {
            d.location(rest)?
        };
        if words {
            let mut s = String::new();
            for row in (0..count).step_by(8) {
                let a = addr.wrapping_add(2 * row as u16);
                let ws: Vec<String> = (0..(count - row).min(8))
                    .map(|i| format!("{:04X}", d.machine.peek_word(a.wrapping_add(2 * i as u16))))
                    .collect();
                let _ = writeln!(s, "${a:04X} {:<14}  {}", views::label_offset(d, a), ws.join(" "));
            }
            return ok(s);
        }
        ok(views::hexdump(d, addr, count))
    }

    fn info(&mut self, rest: &str) -> Result<String, String> {
        let d = &mut self.dbg;
        let (what, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match what {
            "registers" | "reg" | "r" | "all-registers" => ok(views::registers(
                &d.machine.cpu().registers(),
                &d.previous,
                d.machine.cpu().tstates(),
            )),
            "breakpoints" | "break" | "b" | "watchpoints" => {
                let list = d.breakpoints.list();
                if list.is_empty() {
                    return ok("No breakpoints or watchpoints.\n".into());
                }
                let mut s = String::from("Num  Type             Enb  Hits  What\n");
                for b in list {
                    let (kind, what) = match &b.kind {
                        Kind::Exec(a) => (
                            if b.temporary { "tbreakpoint" } else { "breakpoint" },
                            format!("{} {}", b.location, views::describe(d, *a)),
                        ),
                        Kind::Memory { access, .. } => (access_word(*access), b.location.clone()),
                        Kind::Port { access, .. } => (access_word(*access), b.location.clone()),
                    };
                    let cond = b
                        .condition
                        .as_ref()
                        .map(|c| format!(" if {}", c.0))
                        .unwrap_or_default();
                    let _ = writeln!(
                        s,
                        "{:<4} {kind:<16} {:<4} {:<5} {what}{cond}",
                        b.id,
                        if b.enabled { "y" } else { "n" },
                        b.hits
                    );
                }
                ok(s)
            }
            "stack" | "s" => ok(views::stack(d, number_arg(arg, 8)? as usize)),
            "frame" | "f" | "line" | "program" => ok(format!("step {}\n{}", d.count(), self.where_line())),
            "display" => ok(self.displays()),
            "trace" => ok(self.trace(number_arg(arg, 20)?)),
            "symbol" => {
                let a = d.location(arg)?;
                ok(format!("{}\n", views::describe(d, a)))
            }
            "machine" => {
                let dev = d.machine.devices();
                ok(format!(
                    "frame {}  border {}  beeper {}  pad {:08b}  exit {}\n",
                    d.machine.state.clock.frame,
                    dev.border,
                    dev.beeper as u8,
                    dev.pad,
                    dev.exit.map_or("-".to_string(), |s| s.to_string())
                ))
            }
            _ => Err(format!(
                "info what? registers, breakpoints, stack, frame, display, trace, symbol, machine (not `{what}`)"
            )),
        }
    }

    fn trace(&mut self, n: u64) -> String {
        let pcs = self.dbg.trace(n.min(100_000));
        let mut s = String::new();
        for pc in pcs {
            let (text, _) = views::instruction(&self.dbg, pc);
            let _ = writeln!(s, "{}  {text}", views::describe(&self.dbg, pc));
        }
        s
    }

    fn call(&mut self, rest: &str) -> Result<String, String> {
        let mut words = rest.split_whitespace();
        let routine = words
            .next()
            .ok_or("call needs a routine: call LABEL [REG=VALUE ...]")?;
        let mut regs = vec![];
        for w in words {
            let (r, v) = w
                .split_once('=')
                .ok_or_else(|| format!("`{w}` is not REG=VALUE"))?;
            let v = expr::eval_str(v, &MachineEnv::new(&self.dbg)).map_err(|e| e.to_string())?;
            regs.push((r.to_string(), v as u16));
        }
        let regs: Vec<(&str, u16)> = regs.iter().map(|(r, v)| (r.as_str(), *v)).collect();
        let saved = self.dbg.machine.cpu().registers();
        let r = self
            .dbg
            .call(routine, &regs, CALL_BUDGET)
            .map_err(|e| e.to_string())?;
        let mut s = format!(
            "{routine} returned after {} steps ({} T-states)\n",
            r.steps, r.tstates
        );
        s.push_str(&views::registers(&r.regs, &saved, r.tstates));
        if r.changed.is_empty() {
            s.push_str("memory: unchanged\n");
        } else {
            s.push_str("memory changed:\n");
            for (a, old, new) in r.changed.iter().take(64) {
                let _ = writeln!(
                    s,
                    "  ${a:04X} {:<16} {old:02X} -> {new:02X}",
                    views::label_offset(&self.dbg, *a)
                );
            }
            if r.changed.len() > 64 {
                let _ = writeln!(s, "  ... and {} more", r.changed.len() - 64);
            }
        }
        // As gdb does, the registers go back to what they were; memory keeps the routine's writes.
        self.dbg.machine.cpu_mut().set_registers(&saved);
        self.dbg.modified();
        ok(s)
    }
}

fn access_word(a: Access) -> &'static str {
    match a {
        Access::Write => "watchpoint",
        Access::Read => "read watchpoint",
        Access::Both => "acc watchpoint",
    }
}

/// `42 ($2A)`, or `-1 ($FFFF)` for small negatives.
fn value_text(v: i64) -> String {
    if (-0x8000..0).contains(&v) {
        format!("{v} (${:04X})", v as u16)
    } else if v > 0xFF {
        format!("{v} (${v:04X})")
    } else if v >= 0 {
        format!("{v} (${v:02X})")
    } else {
        format!("{v}")
    }
}

/// Splits `TARGET = VALUE` at the first `=` that is not part of `==`, `!=`, `<=` or `>=`.
fn split_assignment(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    (0..b.len()).find_map(|i| {
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        (b[i] == b'=' && !b"=!<>".contains(&prev) && next != b'=').then(|| (&s[..i], &s[i + 1..]))
    })
}

/// Runs a whole script: each command is echoed after `(z80) ` and followed by its output.
/// Returns the transcript and whether any command failed.
pub fn run_script(session: &mut Session, script: &str) -> (String, bool) {
    let mut out = String::new();
    let mut failed = false;
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let _ = writeln!(out, "(z80) {line}");
        let o = session.execute(line);
        // What the program printed on the console port comes first, as a terminal would show it.
        let console = console_text(&session.dbg.machine.take_console());
        out.push_str(&console);
        if !console.is_empty() && !console.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&o.text);
        failed |= o.error;
        if o.flow == Flow::Quit {
            break;
        }
    }
    (out, failed)
}

/// Console bytes as text: 13 and 10 end lines, other bytes are Latin-1 characters.
pub fn console_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b == 13 || b == 10 { '\n' } else { b as char })
        .collect()
}

pub const HELP: &str = "\
Running:   run (r)  continue (c) [N]  step/stepi (s) [N]  next (n) [N]  finish (fin)
           until (u) [LOC]  advance LOC  reverse-step (rs) [N]  reverse-continue (rc)
Breaking:  break (b) LOC [if COND]  tbreak LOC  watch/rwatch/awatch ADDR[..END] | port P
           delete (d) [N]  enable [N]  disable [N]
Looking:   print (p)[/x/d/c/t] EXPR|STRUCT|GRID  x[/N[b|w]] ADDR  info registers|breakpoints|
           stack|frame|display|trace N|symbol ADDR|machine  backtrace (bt)  disassemble [LOC [N]]
           list [LOC]  display EXPR  undisplay N  trace [N]  grid LABEL COLS ROWS
Changing:  set REG|FLAG|byte[A]|word[A]|(HL) = EXPR   call LABEL [REG=VALUE ...]
Other:     echo TEXT  help  quit (q)
LOC: an address, a label, label+N or file:line.  EXPR: registers, flags (ZF, CF...), labels,
byte[A], word[A], (HL), (IX+d), + - * / % & | ^ << >> == != < <= > >= && || ! ~
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignment_splits_at_the_single_equals() {
        assert_eq!(split_assignment("A = 5"), Some(("A ", " 5")));
        assert_eq!(
            split_assignment("byte[HL] = A == 2"),
            Some(("byte[HL] ", " A == 2"))
        );
        assert_eq!(split_assignment("A == 5"), None);
        assert_eq!(
            split_condition("checkWIN if A == 2"),
            ("checkWIN", Some("A == 2"))
        );
    }
}
