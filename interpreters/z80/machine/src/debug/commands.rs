//! The Z80's words of the command language (docs/debugger.md): `print`, `x`, `set`, `watch`,
//! `call`, `info registers`... The words every machine shares (`break`, `continue`, `step`,
//! `display`...) are [`retro_machine::debug::Console`]'s; [`Session`] puts the two together for
//! `retro debug --script`, the TUI's command line and tests. Output is plain text,
//! deterministically.

use std::fmt::Write as _;

use retro_machine::debug::{Console, Debuggable};
pub use retro_machine::debug::{DEFAULT_BUDGET, Flow, Output};

use super::breakpoints::{Access, Kind};
use super::views::{self, MachineEnv};
use super::{CallResult, Event, Z80Debugger, expr, structs};
use crate::host::Z80Host;
use crate::workbench::Workbench;
use retro_machine::debug::{RunLimit, StopReason};
use retro_z80::Registers;

/// Steps a `call` may run.
pub const CALL_BUDGET: u64 = 1_000_000;

/// A debugging session: the debugger and the shared command language's state (displays, the
/// last command).
pub struct Session<M: Z80Host = Workbench> {
    pub dbg: Z80Debugger<M>,
    pub console: Console,
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

impl<M: Z80Host> Session<M> {
    pub fn new(dbg: Z80Debugger<M>) -> Session<M> {
        Session {
            dbg,
            console: Console::new(),
        }
    }

    /// Runs one command line. Blank lines and `#` comments do nothing.
    pub fn execute(&mut self, line: &str) -> Output {
        self.console.execute(&mut self.dbg, line)
    }

    /// `$8012 checkWIN+2 (prog.asm:13)  ld b,a`, then the source line.
    pub fn where_line(&self) -> String {
        let here = self.dbg.here();
        format!("{}  {}", here.describe, here.next)
    }
}

/// The Z80's own commands (see the module comment); `None` for a word it does not know.
/// `call` keeps to `limit` (frame by frame in the terminal).
pub fn machine_command<M: Z80Host>(
    d: &mut Z80Debugger<M>,
    line: &str,
    limit: RunLimit,
) -> Option<Result<String, String>> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let (word, modifier) = word.split_once('/').unwrap_or((word, ""));
    let rest = rest.trim();
    let mut z = Z80Commands { dbg: d, limit };
    z.dispatch(word, modifier, rest)
}

/// The Z80 commands' working state: the debugger, and how long a `call` may run.
struct Z80Commands<'a, M: Z80Host> {
    dbg: &'a mut Z80Debugger<M>,
    limit: RunLimit,
}

impl<M: Z80Host> Z80Commands<'_, M> {
    fn dispatch(&mut self, word: &str, modifier: &str, rest: &str) -> Option<Result<String, String>> {
        let d = &mut *self.dbg;
        Some(match word {
            "watch" | "rwatch" | "awatch" => {
                let access = match word {
                    "watch" => Access::Write,
                    "rwatch" => Access::Read,
                    _ => Access::Both,
                };
                self.watch(rest, access)
            }
            "print" | "p" | "output" | "inspect" => self.print(modifier, rest),
            "set" => self.set(rest),
            "x" => self.examine(modifier, rest),
            "info" | "i" => self.info(rest),
            "backtrace" | "bt" | "where" => number_arg(rest, 16).map(|n| views::backtrace(d, n as usize)),
            "disassemble" | "disas" => (|| {
                let mut args = rest.split_whitespace();
                let addr = match args.next() {
                    Some(a) => d.location(a)?,
                    None => d.machine.cpu().pc(),
                };
                let n = number_arg(args.next().unwrap_or(""), 10)?.min(1000) as usize;
                ok(views::disassemble(d, addr, n))
            })(),
            "list" | "l" => (|| {
                // A bare `list` goes on after the last one while the PC has not moved (Enter
                // repeats it): the file's index and the next line, packed in the cursor.
                let here = d.machine.cpu().pc().to_string();
                let (file, first) = match d.listed.next(&here) {
                    Some(next) if rest.is_empty() => {
                        let file = d.program.files.get((next >> 32) as usize).map(|f| f.0.clone());
                        (file.ok_or("no source to list")?, next as u32)
                    }
                    _ => {
                        let addr = if rest.is_empty() {
                            d.machine.cpu().pc()
                        } else {
                            d.location(d.source_line_location(rest).as_deref().unwrap_or(rest))?
                        };
                        let (file, line) = views::source_of(d, addr)
                            .ok_or_else(|| format!("no source for {}", views::describe(d, addr)))?;
                        (file, line.saturating_sub(4).max(1))
                    }
                };
                let text = views::source_lines(d, &file, first, 10).unwrap_or_default();
                if text.is_empty() {
                    return Err(format!(
                        "Line number {first} out of range; \"{}\" has fewer lines.",
                        file.display()
                    ));
                }
                let index = d.program.files.iter().position(|f| f.0 == file).unwrap_or(0);
                d.listed
                    .shown(&here, ((index as u64) << 32) | u64::from(first + 10));
                Ok(text)
            })(),
            "call" => self.call(rest),
            "find" | "hunt" => super::monitor::find(d, rest),
            "fill" => super::monitor::fill(d, rest),
            "compare" => super::monitor::compare(d, rest),
            "move" => super::monitor::move_bytes(d, rest),
            "asm" => super::monitor::assemble(d, rest),
            "save" => super::monitor::save(d, rest),
            "load" => super::monitor::load(d, rest),
            "grid" => (|| {
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
            })(),
            "trace" => number_arg(rest, 20).map(|n| trace(d, n)),
            "struct" => structs::parse_declaration(rest).map(|(name, fields)| {
                let n = fields.len();
                d.structs.declare(name.clone(), fields);
                format!("struct {name}: {n} fields\n")
            }),
            _ => return None,
        })
    }

    fn watch(&mut self, rest: &str, access: Access) -> Result<String, String> {
        let d = &mut *self.dbg;
        // gdb's `watch EXPR if COND`: the watch stops only when COND holds after the access.
        let (rest, cond) = retro_machine::debug::split_condition(rest);
        let condition = match cond {
            Some(c) => Some((c.trim().to_string(), expr::parse(c).map_err(|e| e.to_string())?)),
            None => None,
        };
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
        let id = d.breakpoints.add(kind, what.clone(), condition, false);
        let name = match access {
            Access::Write => "Watchpoint",
            Access::Read => "Read watchpoint",
            Access::Both => "Access watchpoint",
        };
        ok(format!("{name} {id}: {what}\n"))
    }

    fn print(&mut self, modifier: &str, rest: &str) -> Result<String, String> {
        if let Some((target, _)) = split_assignment(rest) {
            // gdb's `print X = V` assigns, then shows the new value.
            self.set(rest)?;
            let d = &*self.dbg;
            let v = expr::eval_str(target, &MachineEnv::new(d)).map_err(|e| e.to_string())?;
            return ok(format!("{} = {}\n", target.trim(), value_text(v)));
        }
        Self::show(self.dbg, modifier, rest)
    }

    /// What `print/MODIFIER REST` shows (an assignment aside): `display` shows the same.
    pub(crate) fn show(d: &Z80Debugger<M>, modifier: &str, rest: &str) -> Result<String, String> {
        let peek = |a: u16| d.machine.peek(a);
        if let Some(s) = Self::print_struct_at(d, rest)? {
            return ok(s);
        }
        if let Some(s) = d.structs.show_struct(&d.program, rest, &peek) {
            return ok(s);
        }
        if d.structs.declared.contains(rest) && d.program.symbols.get(rest).is_none() {
            return Err(format!(
                "{rest} is a declared structure with no label: print {rest} @ ADDR, or print ADDR as {rest}"
            ));
        }
        if let Some(s) = d.structs.show_grid(&d.program, rest, &peek) {
            return ok(s);
        }
        if rest.is_empty() {
            return Err("print needs an expression".into());
        }
        let v = expr::eval_str(rest, &MachineEnv::new(d)).map_err(|e| e.to_string())?;
        // A 16-bit machine: a negative value in /x and /t is its 16-bit two's complement.
        let bits = if (-0x8000..0).contains(&v) { v & 0xFFFF } else { v };
        ok(match modifier {
            "x" => format!("{rest} = ${bits:X}\n"),
            "d" => format!("{rest} = {v}\n"),
            "c" => format!("{rest} = '{}'\n", (v as u8) as char),
            "t" => format!("{rest} = %{bits:b}\n"),
            _ => format!("{rest} = {}\n", value_text(v)),
        })
    }

    /// `print STRUCT @ ADDR` and `print ADDR as STRUCT` (`print (IY) as GAMESTRUCT`: the
    /// structure IY points at, fields shown as `(IY+n)`); `None` if `rest` is neither form.
    fn print_struct_at(d: &Z80Debugger<M>, rest: &str) -> Result<Option<String>, String> {
        let lower = rest.to_ascii_lowercase();
        let (name, at) = if let Some((name, at)) = rest.split_once('@') {
            (name.trim(), at.trim())
        } else if let Some(i) = lower.find(" as ") {
            (rest[i + 4..].trim(), rest[..i].trim())
        } else {
            return Ok(None);
        };
        let Some(name) = d.structs.find(name) else {
            return Err(format!(
                "no structure `{}` (from `field EQU label-BASE` lines, `; @struct` comments or the struct command)",
                name.trim()
            ));
        };
        // `(IY)` and `IY` both mean the structure at IY.
        let inner = at
            .strip_prefix('(')
            .and_then(|a| a.strip_suffix(')'))
            .unwrap_or(at)
            .trim();
        let addr = expr::eval_str(inner, &MachineEnv::new(d)).map_err(|e| e.to_string())? as u16;
        let upper = inner.to_ascii_uppercase();
        let via = views::register(&d.machine.cpu().registers(), &upper)
            .filter(|_| matches!(upper.as_str(), "IX" | "IY" | "HL" | "DE" | "BC" | "SP"))
            .map(|_| upper.clone());
        let peek = |a: u16| d.machine.peek(a);
        Ok(d.structs
            .show_struct_at(&d.program, name, addr, via.as_deref(), &peek))
    }

    fn set(&mut self, rest: &str) -> Result<String, String> {
        if let Some(limit) = rest.strip_prefix("record limit") {
            return self.dbg.set_record_limit(limit.trim());
        }
        let rest = rest.strip_prefix("var ").unwrap_or(rest);
        let Some((target, value)) = split_assignment(rest) else {
            return Err(
                "usage: set TARGET = VALUE (a register, flag, byte[ADDR], word[ADDR] or (HL))".into(),
            );
        };
        let d = &mut *self.dbg;
        // VICE's `>`: `set byte[Board] = 1 2 3` (or a quoted text) writes bytes from there on.
        let many = value.split_whitespace().nth(1).is_some() || value.trim().starts_with('"');
        if let (true, Ok(expr::Expr::Byte(a))) = (many, expr::parse(target.trim())) {
            let a = a.eval(&MachineEnv::new(d)).map_err(|e| e.to_string())? as u16;
            return super::monitor::set_bytes(d, a, value);
        }
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
        let d = &mut *self.dbg;
        let digits: String = modifier.chars().take_while(char::is_ascii_digit).collect();
        // gdb's letters: a format (x hex, i instructions, s string) and a size (b byte, h or w a
        // 16-bit word), in either order.
        let letters = &modifier[digits.len()..];
        if !letters.chars().all(|c| "xbhwis".contains(c)) || letters.len() > 2 {
            return Err(format!(
                "x/{modifier}: the forms are x/N, x/Nxb (bytes), x/Nw or x/Nh (words), x/Ni (instructions), x/s (a string)"
            ));
        }
        let count = if digits.is_empty() {
            if letters.contains('i') { 8 } else { 16 }
        } else {
            number_arg(&digits, 16)?.min(4096) as usize
        };
        let words = letters.contains('w') || letters.contains('h');
        // With no address, `x` goes on from where the last one stopped (gdb's habit), else PC.
        let addr = if rest.is_empty() {
            d.examine_next.unwrap_or(d.machine.cpu().pc())
        } else {
            d.location(rest)?
        };
        d.memory_at = Some(addr);
        if letters.contains('i') {
            let text = views::disassemble(d, addr, count.min(1000));
            let mut a = addr;
            for _ in 0..count.min(1000) {
                a = a.wrapping_add(views::step_over_info(&d.machine, a).0);
            }
            d.examine_next = Some(a);
            return ok(text);
        }
        if letters.contains('s') {
            let bytes: Vec<u8> = (0..256u16)
                .map(|i| d.machine.peek(addr.wrapping_add(i)))
                .take_while(|&b| b != 0)
                .collect();
            d.examine_next = Some(addr.wrapping_add(bytes.len() as u16 + 1));
            let text: String = bytes
                .iter()
                .map(|&b| match b {
                    b'"' => "\\\"".to_string(),
                    0x20..=0x7E => (b as char).to_string(),
                    _ => format!("\\x{b:02X}"),
                })
                .collect();
            return ok(format!(
                "${addr:04X} {}  \"{text}\"\n",
                views::label_offset(d, addr)
            ));
        }
        let size = if words { 2 } else { 1 };
        d.examine_next = Some(addr.wrapping_add((count * size) as u16));
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
        let d = &mut *self.dbg;
        let (what, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match what {
            "registers" | "reg" | "r" | "all-registers" if !arg.trim().is_empty() => {
                // gdb's `info registers A HL`: just those.
                let regs = d.machine.cpu().registers();
                let mut s = String::new();
                for name in arg.split_whitespace() {
                    let upper = name.trim_start_matches('$').to_ascii_uppercase();
                    let v = views::register(&regs, &upper)
                        .ok_or_else(|| format!("no register named `{name}`"))?;
                    let width = if upper.len() == 1 || upper == "I" || upper == "R" {
                        2
                    } else {
                        4
                    };
                    let _ = writeln!(s, "{upper:<4} ${v:0width$X}  {v}");
                }
                ok(s)
            }
            "record" | "rec" => ok(d.record_info()),
            "registers" | "reg" | "r" | "all-registers" => ok(views::registers(
                &d.machine.cpu().registers(),
                &d.previous,
                d.machine.cpu().tstates(),
            )),
            "stack" | "s" => ok(views::stack(d, number_arg(arg, 8)? as usize)),
            "frame" | "f" | "line" | "program" => {
                let here = d.here();
                ok(format!("step {}\n{}  {}", d.count(), here.describe, here.next))
            }
            "trace" => ok(trace(d, number_arg(arg, 20)?)),
            "symbol" => {
                let a = d.location(arg)?;
                ok(format!("{}\n", views::describe(d, a)))
            }
            "machine" => ok(d.machine.info()),
            _ => match d.added_info(what) {
                Some(said) => ok(said),
                None => Err(format!(
                    "info what? registers, breakpoints, stack, frame, display, trace, symbol, machine (not `{what}`)"
                )),
            },
        }
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
            let v = expr::eval_str(v, &MachineEnv::new(self.dbg)).map_err(|e| e.to_string())?;
            regs.push((r.to_string(), v as u16));
        }
        let regs: Vec<(&str, u16)> = regs.iter().map(|(r, v)| (r.as_str(), *v)).collect();
        if let RunLimit::Frame(budget) = self.limit {
            // Frame by frame (the terminal): the call runs on as a command under way, its report
            // comes with the program's output when it returns. Like `continue` there, it has no
            // step budget (the user stops it with Escape): a routine that waits for a key spends
            // 17,500 steps a frame in HALT, so a budget would end it about a second later.
            let ev = self
                .dbg
                .call_frames(routine, &regs, budget)
                .map_err(|e| e.to_string())?;
            return ok(match ev {
                Event::Breakpoint(_) | Event::Watchpoint(..) => stopped_inside(self.dbg, routine, ev),
                other => {
                    // Returned (its report joins the output) or failed (its error already did).
                    self.dbg.complete_call(other);
                    String::new()
                }
            });
        }
        let saved = self.dbg.machine.cpu().registers();
        match self
            .dbg
            .call_stopping(routine, &regs, CALL_BUDGET)
            .map_err(|e| e.to_string())?
        {
            Ok(r) => {
                // As gdb does, the registers go back to what they were; memory keeps the
                // routine's writes.
                self.dbg.machine.cpu_mut().set_registers(&saved);
                self.dbg.modified();
                ok(call_report(self.dbg, routine, &saved, &r))
            }
            Err(ev) => ok(stopped_inside(self.dbg, routine, ev)),
        }
    }
}

/// A call stopped inside its routine (at a breakpoint or watchpoint): reported as a stop, so
/// the user can step from here.
fn stopped_inside<M: Z80Host>(d: &Z80Debugger<M>, routine: &str, ev: Event) -> String {
    let stop = d.stop_reason(ev);
    let here = d.here();
    let mut s = match stop {
        StopReason::Breakpoint(ids) => {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            format!("Breakpoint {}, {}\n", ids.join(", "), here.describe)
        }
        StopReason::Watchpoint(ids, what) => {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            format!("Watchpoint {}: {what}\n", ids.join(", "))
        }
        _ => String::new(),
    };
    let _ = write!(s, "{}  {}", here.describe, here.next);
    let _ = writeln!(
        s,
        "(inside call {routine}: it completes when the routine returns, e.g. after finish)"
    );
    s
}

/// What `call` reports when the routine returns: steps, registers (changes marked against the
/// caller's), and the bytes it changed.
pub(crate) fn call_report<M: Z80Host>(
    d: &Z80Debugger<M>,
    routine: &str,
    saved: &Registers,
    r: &CallResult,
) -> String {
    let mut s = format!(
        "{routine} returned after {} steps ({} T-states)\n",
        r.steps, r.tstates
    );
    s.push_str(&views::registers(&r.regs, saved, r.tstates));
    if r.changed.is_empty() {
        s.push_str("memory: unchanged\n");
    } else {
        s.push_str("memory changed:\n");
        for (a, old, new) in r.changed.iter().take(64) {
            let _ = writeln!(
                s,
                "  ${a:04X} {:<16} {old:02X} -> {new:02X}",
                views::label_offset(d, *a)
            );
        }
        if r.changed.len() > 64 {
            let _ = writeln!(s, "  ... and {} more", r.changed.len() - 64);
        }
    }
    s
}

/// The last `n` instructions run, oldest first.
fn trace<M: Z80Host>(d: &mut Z80Debugger<M>, n: u64) -> String {
    let pcs = d.trace(n.min(100_000));
    let mut s = String::new();
    for pc in pcs {
        let (text, _) = views::instruction(d, pc);
        let _ = writeln!(s, "{}  {text}", views::describe(d, pc));
    }
    s
}

/// `42 ($2A)`, or `-1 ($FFFF)` for small negatives.
pub(crate) fn value_text(v: i64) -> String {
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

/// What `print/FORMAT EXPR` shows, for `display` (no assignment: displays never change anything).
pub(crate) fn show<M: Z80Host>(d: &Z80Debugger<M>, format: &str, e: &str) -> Result<String, String> {
    if split_assignment(e).is_some() {
        return Err("display shows a value; it does not assign".into());
    }
    Z80Commands::show(d, format, e)
}

/// Runs a whole script: each command is echoed after `(z80) ` and followed by its output.
/// Returns the transcript and whether any command failed.
pub fn run_script<M: Z80Host>(session: &mut Session<M>, script: &str) -> (String, bool) {
    session.console.run_script(&mut session.dbg, script)
}

/// Console bytes as text: 13 and 10 end lines, other bytes are Latin-1 characters.
pub fn console_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b == 13 || b == 10 { '\n' } else { b as char })
        .collect()
}

/// The Z80's part of `help` (the shared words come first).
pub const HELP: &str = "\
Z80:       watch/rwatch/awatch ADDR[..END] | port P   print (p)[/x/d/c/t] EXPR|STRUCT|GRID
           x[/N[b|w]] ADDR  info registers|stack|frame|trace N|symbol ADDR|machine
           backtrace (bt)  disassemble [LOC [N]]  list [LOC]  trace [N]  grid LABEL COLS ROWS
           struct NAME FIELD[:SIZE] ...  set REG|FLAG|byte[A]|word[A]|(HL) = EXPR
           call LABEL [REG=VALUE ...]
Memory:    find fill compare move asm  save \"FILE\" START END  load \"FILE\" ADDR
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
    }
}
