//! The C64 debugger's own commands: `print`, `set`, `watch`, `x`, `backtrace`, `info`, `list`,
//! `tokens`.

use std::fmt::Write as _;

use retro_machine::debug::Debuggable as _;
use retro_machine::debug::basic::changes::Change;
use retro_machine::debug::basic::points::watch_set_words;
use retro_machine::debug::basic::print_assignment;
use retro_machine::debug::{memcmd, memfile};

use super::{CbmDebugger, Looks, Watched, views};

pub(super) const HELP: &str = "\
C64 BASIC: locations are LINE or LINE:STATEMENT (break 20:2 if I>3); conditions and
expressions are BASIC (print A$+\"!\", print PEEK(53280)).
           print (p)[/x] EXPR|VAR = EXPR   set [var] VAR=EXPR   watch VAR|EXPR [if COND]
           x ADDR [N]   x/N ADDR
           x/s [ADDR [N]] (screen codes as characters, 40 a row: the screen at 1024)
           backtrace (bt)   info locals|variables|arrays|stack   list [LINE]
           info record   set record limit SECONDS|unlimited   tokens [LINE]   trace [N]
           trace on|off (show [LINE] for each line runs enter, as BBC BASIC's TRACE ON)
           save \"FILE\" START END   load \"FILE\" ADDR
           find START END BYTES|\"TEXT\" (hunt; text in PETSCII)   fill START END BYTES
           compare START END DEST   move START END DEST   set byte[ADDR] = BYTES
";

/// The commands that need more than the console gives; None for words no one knows.
pub(super) fn command(d: &mut CbmDebugger, line: &str) -> Option<Result<String, String>> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    // The Z80's and gdb's forms too: `print/x EXPR`, `x/N ADDR`.
    let (word, modifier) = word.split_once('/').unwrap_or((word, ""));
    Some(match word {
        "print" | "p" | "inspect" => {
            // gdb's `print X = V` assigns (as `set X=V`), then shows X; `print (X=V)`
            // compares, as BASIC's `=` does in an expression.
            let (rest, assigned) = match print_assignment(rest) {
                Some((target, value)) => (target, set(d, &format!("{target}={value}")).map(|_| ())),
                None => (rest, Ok(())),
            };
            match assigned {
                Err(e) => Err(e),
                Ok(()) => show(d, modifier, rest),
            }
        }
        "x" if modifier == "s" => screen_text(d, rest),
        "x" if !modifier.is_empty() => {
            let count: u32 = modifier
                .trim_end_matches(['x', 'b'])
                .parse()
                .map_err(|_| format!("x/{modifier}: the form is x/N ADDR"))
                .unwrap_or(0);
            if count == 0 {
                Err(format!("x/{modifier}: the form is x/N ADDR (N bytes)"))
            } else {
                examine(d, &format!("{rest} {count}"))
            }
        }
        "set" if rest.starts_with("byte[") => set_bytes(d, rest),
        "set" => match rest.strip_prefix("record limit") {
            Some(limit) => d.set_record_limit(limit),
            None => set(d, rest.strip_prefix("var ").unwrap_or(rest)),
        },
        "watch" => watch(d, rest),
        "x" => examine(d, rest),
        "trace" => match d.line_trace.command(rest) {
            // `trace on` / `trace off`: the lines entered while commands run.
            Some(said) => Ok(said),
            None => retro_machine::debug::number_arg(rest, 20).map(|n| d.trace(n.min(100_000))),
        },
        "save" => save(d, rest),
        "load" => load(d, rest),
        "find" | "hunt" => find(d, rest),
        "compare" => compare(d, rest),
        "fill" => fill(d, rest),
        "move" => move_bytes(d, rest),
        "backtrace" | "bt" | "where" => Ok(views::backtrace(d)),
        "info" | "i" => info(d, rest),
        "list" | "l" => {
            let around = match rest {
                "" => None,
                n => Some(
                    n.parse::<u16>()
                        .map_err(|_| format!("`{n}` is not a line number")),
                ),
            };
            match around.transpose() {
                Ok(a) => list(d, a),
                Err(e) => Err(e),
            }
        }
        "tokens" => {
            let only = match rest {
                "" => Ok(None),
                n => n
                    .parse::<u16>()
                    .map(Some)
                    .map_err(|_| format!("`{n}` is not a line number")),
            };
            only.map(|o| lines(views::tokens_here(d.it(), o)))
        }
        _ => return None,
    })
}

/// What `print[/FMT] EXPR` shows (an assignment aside): `display/FMT` shows the same.
pub(super) fn show(d: &CbmDebugger, modifier: &str, expr: &str) -> Result<String, String> {
    if expr.is_empty() {
        return Err("print needs an expression".into());
    }
    let text = views::show_value(&views::evaluate_on(d.it(), expr)?);
    match modifier {
        "" | "d" => Ok(format!("{expr} = {text}\n")),
        "x" => hex_of(&text).map(|h| format!("{expr} = {h}\n")),
        m => Err(format!("print/{m}: the forms are print/x and print/d")),
    }
}

fn lines(v: Vec<String>) -> String {
    v.into_iter().map(|l| l + "\n").collect()
}

/// `set VAR=EXPR`: the assignment, as LET does it; going back past it forgets it.
fn set(d: &mut CbmDebugger, assignment: &str) -> Result<String, String> {
    if !assignment.contains('=') {
        return Err("set needs VAR=EXPR".into());
    }
    d.it_mut().debug_assign(assignment)?;
    d.record_change(Change::Assign(assignment.to_string()));
    d.refresh_watches();
    Ok(String::new())
}

/// `save "FILE" START END` (VICE's `s`): the bytes of START..END (inclusive) to FILE.
fn save(d: &CbmDebugger, args: &str) -> Result<String, String> {
    const USAGE: &str = "save \"FILE\" START END (save \"screen.bin\" $0400 $07E7)";
    let (path, rest) = memfile::file_arg(args, USAGE)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [first, last] = words[..] else {
        return Err(format!("usage: {USAGE}"));
    };
    let (first, last) = (address(first)?, address(last)?);
    if last < first {
        return Err(format!("the range ${first:04X} ${last:04X} is backwards"));
    }
    memfile::save(
        &path,
        &d.it().mem[first..=last],
        &format!("${first:04X}"),
        &format!("${last:04X}"),
    )
}

/// `load "FILE" ADDR` (VICE's `l`): the file's bytes into memory from ADDR; one that would run
/// past $FFFF is refused whole. An event of the run, as `set` is: going back and forth keeps it.
fn load(d: &mut CbmDebugger, args: &str) -> Result<String, String> {
    const USAGE: &str = "load \"FILE\" ADDR (load \"screen.bin\" $0400)";
    let (path, rest) = memfile::file_arg(args, USAGE)?;
    let at = address(rest)?;
    let bytes = memfile::read(&path, 0x10000 - at, &format!("${at:04X}"))?;
    d.poke(at, &bytes);
    let last = at + bytes.len() - 1;
    let n = bytes.len();
    d.record_change(Change::Memory(at, bytes));
    d.refresh_watches();
    Ok(memfile::loaded(
        &path,
        n,
        &format!("${at:04X}"),
        &format!("${last:04X}"),
    ))
}

/// The C64's 64K as the kit's memory commands see it (`$0400` addresses).
struct Mem<'a>(&'a CbmDebugger);

impl memcmd::Memory for Mem<'_> {
    fn peek(&self, at: usize) -> u8 {
        self.0.it().mem[at]
    }
    fn size(&self) -> usize {
        0x10000
    }
    fn show(&self, at: usize) -> String {
        format!("${at:04X}")
    }
}

/// A range `START END` of C64 memory (`$0400 $07E7`, `1024 2023`) and the rest.
fn range<'a>(d: &CbmDebugger, args: &'a str, usage: &str) -> Result<(usize, usize, &'a str), String> {
    let (a, b, rest) = memcmd::range_words(args, usage)?;
    let (first, last) = (address(a)?, address(b)?);
    memcmd::check_range(&Mem(d), first, last)?;
    Ok((first, last, rest))
}

/// The address `text` says, where `len` bytes fit below $10000 (memory does not wrap under a
/// write, as under `load`).
fn room_for(text: &str, len: usize) -> Result<usize, String> {
    let at = address(text)?;
    if at + len > 0x10000 {
        return Err(format!("{len} bytes from ${at:04X} run past $FFFF"));
    }
    Ok(at)
}

/// Bytes as numbers (`1 2 $FF 0x20`; -128..-1 are 128..255), or a quoted text in PETSCII, as
/// VICE's `hunt` takes it: letters as the C64 types them unshifted ($41-$5A, as the program's
/// strings hold them). Screen memory holds screen codes: find those as bytes.
fn byte_list(text: &str) -> Result<Vec<u8>, String> {
    memcmd::byte_list(
        text,
        |w| {
            let (neg, n) = w.strip_prefix('-').map_or((false, w), |n| (true, n));
            let v = parse_number(n).ok_or_else(|| format!("`{w}` is not a number"))? as i64;
            Ok(if neg { -v } else { v })
        },
        |c| match c.to_ascii_uppercase() {
            c @ ' '..='_' => c as u8,
            _ => b'?',
        },
    )
}

/// Bytes written from `at` by `fill`, `move` or `set byte[A]`: an event of the run, as `load`'s
/// are, so going back and forth keeps them.
fn write(d: &mut CbmDebugger, at: usize, bytes: Vec<u8>) {
    d.poke(at, &bytes);
    d.record_change(Change::Memory(at, bytes));
    d.refresh_watches();
}

/// `find START END BYTES|"TEXT"` (VICE's `hunt`): every address in the range where they start.
fn find(d: &CbmDebugger, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "find START END BYTES... or find START END \"TEXT\"")?;
    let pattern = byte_list(rest)?;
    Ok(memcmd::find(&Mem(d), first, last, &pattern))
}

/// `compare START END DEST` (VICE's `c`): where the range and the bytes at DEST differ.
fn compare(d: &CbmDebugger, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "compare START END DEST (compare $0400 $0427 $0428)")?;
    let dest = room_for(rest, last - first + 1)?;
    Ok(memcmd::compare(&Mem(d), first, last, dest))
}

/// `fill START END BYTES` (VICE's `f`): the range with the bytes over and over.
fn fill(d: &mut CbmDebugger, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "fill START END BYTES... (fill $0400 $07E7 32)")?;
    let pattern = byte_list(rest)?;
    write(d, first, memcmd::filled(last - first + 1, &pattern));
    Ok(String::new())
}

/// `move START END DEST` (VICE's `t`): copies the range to DEST (overlapping is fine).
fn move_bytes(d: &mut CbmDebugger, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "move START END DEST (move $0400 $0427 $0428)")?;
    let dest = room_for(rest, last - first + 1)?;
    let bytes = memcmd::read(&Mem(d), first, last);
    write(d, dest, bytes);
    Ok(String::new())
}

/// `set byte[ADDR] = 1 2 3` (the Z80's form; VICE's `>`): bytes from ADDR on.
fn set_bytes(d: &mut CbmDebugger, text: &str) -> Result<String, String> {
    const USAGE: &str = "set byte[ADDR] = BYTES... (set byte[$0400] = 8 9)";
    let (at, values) = text["byte[".len()..]
        .split_once(']')
        .and_then(|(a, v)| Some((a, v.trim().strip_prefix('=')?)))
        .ok_or_else(|| format!("usage: {USAGE}"))?;
    let bytes = byte_list(values)?;
    let at = room_for(at.trim(), bytes.len())?;
    write(d, at, bytes);
    Ok(String::new())
}

/// An address of C64 memory: `$0400`, `0x400` or `1024`.
fn address(text: &str) -> Result<usize, String> {
    parse_number(text)
        .filter(|&a| a < 0x10000)
        .ok_or_else(|| format!("`{text}` is not an address ($0000 to $FFFF)"))
}

/// `watch VAR [if COND]`: stop when a simple variable, an array element (both read from
/// memory) or any other expression changes (and COND holds then).
fn watch(d: &mut CbmDebugger, text: &str) -> Result<String, String> {
    let (expr, cond) = retro_machine::debug::split_condition(text);
    let expr = expr.trim();
    if expr.is_empty() {
        return Err("watch needs a variable or an expression".into());
    }
    let what = match (views::name_bytes(expr), views::element_ref(expr)) {
        (Some((n1, n2)), _) => Watched::Simple(n1, n2),
        (None, Some((name, subs))) => Watched::Element(name, subs),
        (None, None) => {
            // It must at least evaluate now.
            views::evaluate_on(d.it(), expr)?;
            Watched::Expr
        }
    };
    let id = d
        .points
        .add_watch(expr.to_ascii_uppercase(), Looks { what, bytes: None }, None);
    let i = d.points.watches.len() - 1;
    d.points.watches[i].cond = cond.map(|c| c.trim().to_string());
    d.points.watches[i].last = d.watch_value(i);
    let w = &d.points.watches[i];
    Ok(watch_set_words(id, &w.expr, w.last.as_deref()))
}

fn parse_number(s: &str) -> Option<usize> {
    let s = s.trim();
    match s.strip_prefix('$').or_else(|| s.strip_prefix("0x")) {
        Some(h) => usize::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// `list [LINE]`: twelve lines around LINE or the current one; a bare `list` goes on after the
/// last while the program has not moved (Enter repeats it).
fn list(d: &mut CbmDebugger, around: Option<u16>) -> Result<String, String> {
    let here = d.here().location;
    let from = around.is_none().then(|| d.listed.next(&here)).flatten();
    let lines = match from {
        Some(first) => views::listing_from(d.it(), first, 12),
        None => views::listing_numbered(d.it(), around, 12),
    };
    let Some(last) = lines.last() else {
        return Err("Line number out of range: the program ends before it.".into());
    };
    let next = last.1 as u64 + 1;
    d.listed.shown(&here, next);
    Ok(lines.into_iter().map(|(l, _)| l.text + "\n").collect())
}

/// The C64's screen codes as the upper-case screen shows them, one character a cell: letters,
/// digits and punctuation as they are (a reversed one as the same character), graphics as `.`.
fn screen_char(code: u8) -> char {
    match super::super::c64::editor::screen_to_petscii(code & 0x7F, false) {
        0x5C => '£',
        0x5E => '↑',
        0x5F => '←',
        b @ 0x20..=0x5D => b as char,
        _ => '.',
    }
}

/// `x/s [ADDR [N]]`: memory as screen codes, 40 a row (the screen's width): by default the
/// whole screen at 1024.
fn screen_text(d: &CbmDebugger, args: &str) -> Result<String, String> {
    let mut words = args.split_whitespace();
    let addr = match words.next() {
        None => 1024,
        Some(w) => parse_number(w)
            .filter(|&a| a < 0x10000)
            .ok_or_else(|| format!("`{w}` is not an address: x/s 1024 [COUNT]"))?,
    };
    let n = match words.next() {
        Some(w) => parse_number(w).ok_or_else(|| format!("`{w}` is not a count"))?,
        None => 1000,
    }
    .clamp(1, 4096);
    let mem = &d.it().mem;
    let end = (addr + n).min(0x10000);
    let mut s = String::new();
    for row in (addr..end).step_by(40) {
        let text: String = mem[row..(row + 40).min(end)]
            .iter()
            .map(|&c| screen_char(c))
            .collect();
        let _ = writeln!(s, "{}", format!("${row:04X}: {text}").trim_end());
    }
    Ok(s)
}

/// `x ADDR [N]`: C64 memory, 8 bytes a row (N bytes, 64 at most 4096). A bare `x` goes on
/// after the last while the program has not moved.
fn examine(d: &mut CbmDebugger, args: &str) -> Result<String, String> {
    let here = d.here().location;
    let mut words = args.split_whitespace();
    let addr = match (words.next(), d.examined.next(&here)) {
        (None, Some(next)) => next as usize,
        (w, _) => w
            .and_then(parse_number)
            .filter(|&a| a < 0x10000)
            .ok_or("x needs an address: x $0801 [COUNT], x 1024")?,
    };
    let n = match words.next() {
        Some(w) => parse_number(w).ok_or_else(|| format!("`{w}` is not a count"))?,
        None => 64,
    }
    .clamp(1, 4096);
    let mem = &d.it().mem;
    let mut s = String::new();
    let end = (addr + n).min(0x10000);
    let mut a = addr;
    while a < end {
        let row = &mem[a..(a + 8).min(end)];
        let hex: Vec<String> = row.iter().map(|b| format!("{b:02X}")).collect();
        let _ = writeln!(s, "${a:04X}: {}", hex.join(" "));
        a += 8;
    }
    d.examined.shown(&here, end as u64);
    Ok(s)
}

/// A number's hex form as the C64 monitor shows it (`$FFFF` for -1: a 16-bit machine's word).
fn hex_of(value: &str) -> Result<String, String> {
    let n: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{} is not a number", value.trim()))?;
    if n.fract() != 0.0 || !(-32768.0..=65535.0).contains(&n) {
        return Err(format!("{} is not a 16-bit whole number", value.trim()));
    }
    Ok(format!("${:X}", (n as i32) & 0xFFFF))
}

fn info(d: &CbmDebugger, what: &str) -> Result<String, String> {
    let it = d.it();
    match what {
        // BASIC V2 has only global variables: they are the locals.
        "locals" | "variables" | "vars" => {
            let v = views::variable_lines(it);
            if v.is_empty() {
                Ok("No variables.\n".into())
            } else {
                Ok(lines(v))
            }
        }
        "arrays" => {
            let a = views::array_lines(it, 64);
            if a.is_empty() {
                Ok("No arrays.\n".into())
            } else {
                Ok(lines(a))
            }
        }
        "stack" | "frame" => Ok(lines(views::stack_lines(it))),
        "record" | "rec" => Ok(d.record_info()),
        "line" | "program" => Ok(format!("{}  {}", d.here().describe, d.here().next)),
        _ => Err(format!(
            "info {what}? (info breakpoints, display, locals, variables, arrays, stack, line, record)"
        )),
    }
}
