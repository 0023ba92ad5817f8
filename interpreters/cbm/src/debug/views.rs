//! What the debugger shows of a C64 BASIC program, as text: where it is (line, statement,
//! address), the listing, the token bytes with TXTPTR, the variables and arrays as they sit in
//! memory between VARTAB, ARYTAB and STREND (with their raw bytes), the FOR/GOSUB stack.

use std::fmt::Write as _;

use retro_machine::debug::basic::location::Locate;
use retro_machine::debug::basic::panels::{self, hex};
use retro_machine::debug::{Debuggable as _, Here, Panel, PanelKind, PanelLine, StopReason};

use super::CbmDebugger;
use crate::float::{Fac, Packed};
use crate::interp::debug::{DebugValue, Quiet};
use crate::interp::{InputSource, Interp, StackEntry, zp};
use crate::list::list_body;
use crate::machine::{ControlCodes, petscii_to_text};
use crate::program::Program;

/// PETSCII as the debugger's text shows it.
pub(super) fn text(petscii: &[u8]) -> String {
    let mut s = String::new();
    petscii_to_text(petscii, ControlCodes::Petcat, &mut s);
    s
}

/// A number as PRINT shows it, without PRINT's leading space.
pub(super) fn show_num(f: Fac) -> String {
    f.fout().as_str().trim_start().to_string()
}

pub(super) fn show_value(v: &DebugValue) -> String {
    match v {
        DebugValue::Num(f) => show_num(*f),
        DebugValue::Str(s) => format!("\"{}\"", text(s)),
    }
}

/// Evaluates an expression on a copy of the interpreter: the program sees no difference.
pub(super) fn evaluate_on(it: &Interp, expr: &str) -> Result<DebugValue, String> {
    let mut copy = Interp::new(&Program::default(), Box::new(Quiet), InputSource::Keys, None)
        .map_err(|e| format!("?{}  ERROR", e.name()))?;
    copy.restore(&it.snapshot());
    copy.debug_eval(expr)
}

/// The lines of the program in memory: (address of the link, number, body span).
pub(super) fn lines(it: &Interp) -> Vec<(usize, u16, usize, usize)> {
    let mut out = Vec::new();
    let mut at = it.word(zp::TXTTAB) as usize;
    while at < 0xFFFA && it.mem[at + 1] != 0 && out.len() < 65536 {
        let number = it.word(at + 2);
        let body = at + 4;
        let end = body + it.mem[body..0x10000].iter().position(|&b| b == 0).unwrap_or(0);
        out.push((at, number, body, end));
        let next = it.word(at) as usize;
        if next <= at {
            break;
        }
        at = next;
    }
    out
}

/// The starts of a line body's statements (a `:` outside quotes ends one; REM's text is one).
fn statement_starts(mem: &[u8], body: usize, end: usize) -> Vec<usize> {
    let mut starts = vec![body];
    let mut quote = false;
    let mut p = body;
    while p < end {
        match mem[p] {
            b'"' => quote = !quote,
            b':' if !quote => starts.push(p + 1),
            crate::tokens::REM if !quote => break,
            _ => {}
        }
        p += 1;
    }
    starts
}

/// Where a statement is: its line and its number in the line (1 for the first).
pub(super) fn position(it: &Interp, addr: usize) -> Option<(u16, usize)> {
    for (_, number, body, end) in lines(it) {
        if (body..=end).contains(&addr) {
            let starts = statement_starts(&it.mem, body, end);
            let n = starts.iter().rposition(|&s| s <= addr).unwrap_or(0);
            return Some((number, n + 1));
        }
    }
    None
}

/// A statement's text as LIST shows it.
pub(super) fn statement_text(it: &Interp, addr: usize) -> String {
    let mut quote = false;
    let mut end = addr;
    while end < 0x10000 && it.mem[end] != 0 {
        match it.mem[end] {
            b'"' => quote = !quote,
            b':' if !quote => break,
            _ => {}
        }
        end += 1;
    }
    let mut out = Vec::new();
    list_body(&it.mem[addr..end], &mut out);
    text(&out)
}

/// Breakpoint locations: `LINE` or `LINE:STATEMENT`.
impl Locate for Interp {
    const MAX_LINE: u32 = u16::MAX as u32;
    const FORMS: &'static str = "a LINE or LINE:STATEMENT";

    fn statement_at(&self, n: u32, st: usize) -> Result<usize, String> {
        let (_, _, body, end) = lines(self)
            .into_iter()
            .find(|l| u32::from(l.1) == n)
            .ok_or_else(|| format!("no line {n}"))?;
        let starts = statement_starts(&self.mem, body, end);
        starts
            .get(st.wrapping_sub(1))
            .copied()
            .ok_or_else(|| format!("line {n} has {} statement(s)", starts.len()))
    }
}

pub(super) fn here(it: &Interp, finished: Option<&StopReason>) -> Here {
    let ended = |why: &str| Here {
        describe: why.to_string(),
        location: String::new(),
        next: "\n".into(),
    };
    match finished {
        // An error (or a machine-code call) stops in its statement: show it.
        Some(StopReason::Failed(_)) => {
            let at = it.statement_start();
            let (line, st) = position(it, at).unwrap_or((it.current_line().unwrap_or(0), 1));
            return Here {
                describe: format!("line {line}:{st} ${at:04X} (stopped here)"),
                location: format!("{line}:{st}"),
                next: format!("{}\n", statement_text(it, at)),
            };
        }
        Some(_) => return ended("the program has ended"),
        None => {}
    }
    let Some(next) = it.next_statement() else {
        return ended("at the end of the program");
    };
    let (line, st) = position(it, next.addr).unwrap_or((next.line.unwrap_or(0), 1));
    Here {
        describe: format!("line {line}:{st} ${:04X}", next.addr),
        location: format!("{line}:{st}"),
        next: format!("{}\n", statement_text(it, next.addr)),
    }
}

/// A simple variable's name as the program writes it, from its two name bytes.
pub(super) fn var_name(n1: u8, n2: u8) -> (String, &'static str) {
    let mut s = String::new();
    s.push((n1 & 0x7F) as char);
    if n2 & 0x7F != 0 {
        s.push((n2 & 0x7F) as char);
    }
    let kind = match (n1 & 0x80 != 0, n2 & 0x80 != 0) {
        (true, true) => {
            s.push('%');
            "integer"
        }
        (false, true) => {
            s.push('$');
            "string"
        }
        (true, false) => "FN",
        (false, false) => "float",
    };
    (s, kind)
}

/// The name bytes of a simple variable written `name` (`I`, `AB$`, `N%`), if it is one.
pub(super) fn name_bytes(name: &str) -> Option<(u8, u8)> {
    let up = name.trim().to_ascii_uppercase();
    let (stem, kind) = match up.as_bytes().last()? {
        b'$' => (&up[..up.len() - 1], 1),
        b'%' => (&up[..up.len() - 1], 2),
        _ => (&up[..], 0),
    };
    let b = stem.as_bytes();
    if b.is_empty() || !b[0].is_ascii_uppercase() || !b.iter().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let n1 = b[0];
    let n2 = b.get(1).copied().unwrap_or(0);
    Some(match kind {
        1 => (n1, n2 | 0x80),
        2 => (n1 | 0x80, n2 | 0x80),
        _ => (n1, n2),
    })
}

/// Bytes an array element of `kind` takes: two an integer, a string's three of descriptor,
/// five a float.
fn width(kind: &str) -> usize {
    match kind {
        "integer" => 2,
        "string" => 3,
        _ => 5,
    }
}

/// The value at a simple variable's or element's 5, 2 or 3 bytes.
fn value_at(it: &Interp, addr: usize, kind: &str) -> String {
    let m = &it.mem;
    match kind {
        "integer" => i16::from_be_bytes([m[addr], m[addr + 1]]).to_string(),
        "string" => {
            let len = m[addr] as usize;
            let at = u16::from_le_bytes([m[addr + 1], m[addr + 2]]) as usize;
            format!("\"{}\"", text(&m[at..(at + len).min(0x10000)]))
        }
        _ => {
            let mut b = [0u8; 5];
            b.copy_from_slice(&m[addr..addr + 5]);
            show_num(Fac::from_packed(Packed(b)))
        }
    }
}

/// Where a variable's or an element's value is in memory: its address and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    addr: usize,
    kind: &'static str,
}

impl Place {
    /// The value as the views show it.
    pub(super) fn value(self, it: &Interp) -> String {
        value_at(it, self.addr, self.kind)
    }

    /// The bytes the value is made of: its 5 (float), 2 (integer) or 3 (a string's descriptor)
    /// and a string's text. The same bytes, the same value: a watch formats a value only when
    /// they change.
    pub(super) fn bytes(self, it: &Interp) -> (&[u8], &[u8]) {
        let m = &it.mem;
        match self.kind {
            "integer" => (&m[self.addr..self.addr + 2], &[]),
            "string" => {
                let len = m[self.addr] as usize;
                let at = u16::from_le_bytes([m[self.addr + 1], m[self.addr + 2]]) as usize;
                (&m[self.addr..self.addr + 3], &m[at..(at + len).min(0x10000)])
            }
            _ => (&m[self.addr..self.addr + 5], &[]),
        }
    }
}

/// Where a simple variable's value is, if it exists.
pub(super) fn simple_place(it: &Interp, n1: u8, n2: u8) -> Option<Place> {
    let (vartab, arytab, _) = it.variable_span();
    let mut at = vartab;
    while at + 7 <= arytab {
        if it.mem[at] == n1 && it.mem[at + 1] == n2 {
            let (_, kind) = var_name(n1, n2);
            return Some(Place { addr: at + 2, kind });
        }
        at += 7;
    }
    None
}

/// Every simple variable, in memory order: name, type, value, address and its 7 raw bytes
/// (and a string's text address).
pub(super) fn variable_lines(it: &Interp) -> Vec<String> {
    let (vartab, arytab, _) = it.variable_span();
    let mut out = Vec::new();
    let mut at = vartab;
    while at + 7 <= arytab {
        let (n1, n2) = (it.mem[at], it.mem[at + 1]);
        let (name, kind) = var_name(n1, n2);
        let value = if kind == "FN" {
            let def = u16::from_le_bytes([it.mem[at + 2], it.mem[at + 3]]);
            format!("DEF FN at ${def:04X}")
        } else {
            value_at(it, at + 2, kind)
        };
        let mut line = format!(
            "{name:<4} {kind:<7} {value:<14} ${at:04X}: {}",
            hex(&it.mem[at..at + 7])
        );
        if kind == "string" {
            let len = it.mem[at + 2];
            let s = u16::from_le_bytes([it.mem[at + 3], it.mem[at + 4]]);
            let _ = write!(line, "  (len {len}, text at ${s:04X})");
        }
        out.push(line);
        at += 7;
    }
    out
}

/// An array as its header in memory says: between ARYTAB and STREND, one after another.
#[derive(Clone, Copy)]
struct ArrayAt {
    /// The header's address.
    at: usize,
    name: (u8, u8),
    /// The header and elements, in bytes.
    size: usize,
    ndims: usize,
}

impl ArrayAt {
    fn kind(&self) -> &'static str {
        var_name(self.name.0, self.name.1).1
    }

    /// Bytes an element takes: two an integer, a string's three of descriptor, five a float.
    fn width(&self) -> usize {
        width(self.kind())
    }

    /// The first element's address.
    fn first(&self) -> usize {
        self.at + 5 + 2 * self.ndims
    }

    fn count(&self) -> usize {
        (self.size - (self.first() - self.at)) / self.width()
    }

    /// Subscript `k`'s count (its DIM bound plus one), `k` 0 the first subscript: the header
    /// holds the last subscript's first.
    fn dim(&self, it: &Interp, k: usize) -> usize {
        let h = self.at + 5 + 2 * (self.ndims - 1 - k);
        u16::from_be_bytes([it.mem[h], it.mem[h + 1]]) as usize
    }

    /// Where element `subs` is: None when the subscripts do not fit the dimensions.
    fn element(&self, it: &Interp, subs: &[usize]) -> Option<Place> {
        if subs.len() != self.ndims {
            return None;
        }
        // The first subscript varies fastest.
        let mut index = 0;
        for (k, &s) in subs.iter().enumerate().rev() {
            let d = self.dim(it, k);
            if s >= d {
                return None;
            }
            index = index * d + s;
        }
        let width = self.width();
        let addr = self.first() + index * width;
        (addr + width <= self.at + self.size).then_some(Place {
            addr,
            kind: self.kind(),
        })
    }
}

/// The arrays in memory, in order (the walk ends at a header that cannot be one). Nothing is
/// allocated: a watch on an element walks them at every statement.
fn arrays(it: &Interp) -> impl Iterator<Item = ArrayAt> + '_ {
    let (_, arytab, strend) = it.variable_span();
    let mut at = arytab;
    std::iter::from_fn(move || {
        if at + 5 > strend {
            return None;
        }
        let size = it.word(at + 2) as usize;
        let ndims = it.mem[at + 4] as usize;
        if size < 5 + 2 * ndims || at + size > strend {
            return None;
        }
        let a = ArrayAt {
            at,
            name: (it.mem[at], it.mem[at + 1]),
            size,
            ndims,
        };
        at += size;
        Some(a)
    })
}

/// `NAME(S1,S2...)` with whole-number subscripts (`A(3)`, `B%(1,2)`, `N$(0)`): the array's name
/// bytes and the subscripts, if `expr` is one element.
pub(super) fn element_ref(expr: &str) -> Option<((u8, u8), Vec<usize>)> {
    let (name, rest) = expr.trim().split_once('(')?;
    let subs = rest.trim_end().strip_suffix(')')?;
    let subs: Option<Vec<usize>> = subs.split(',').map(|s| s.trim().parse().ok()).collect();
    Some((name_bytes(name)?, subs?))
}

/// Where an array element's value is: None while its array does not exist or the subscripts
/// are outside its dimensions. Found from the headers in memory, as a simple variable is (no
/// evaluation, nothing allocated: a watch looks at every statement).
pub(super) fn element_place(it: &Interp, name: (u8, u8), subs: &[usize]) -> Option<Place> {
    arrays(it).find(|a| a.name == name)?.element(it, subs)
}

/// Every array: its header's address and bytes, dimensions, then its elements (at most
/// `max` of each).
/// The variables and arrays that exist (arrays with their `(`), for Tab on the command line;
/// a `DEF FN` entry is `FNX`.
pub(super) fn names(it: &Interp) -> Vec<String> {
    let (vartab, arytab, _) = it.variable_span();
    let mut out = Vec::new();
    let mut at = vartab;
    while at + 7 <= arytab {
        let (name, kind) = var_name(it.mem[at], it.mem[at + 1]);
        out.push(if kind == "FN" { format!("FN{name}") } else { name });
        at += 7;
    }
    out.extend(arrays(it).map(|a| format!("{}(", var_name(a.name.0, a.name.1).0)));
    out
}

pub(super) fn array_lines(it: &Interp, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for a in arrays(it) {
        let (name, kind) = var_name(a.name.0, a.name.1);
        let dims: Vec<usize> = (0..a.ndims).map(|k| a.dim(it, k)).collect();
        let bounds: Vec<String> = dims.iter().map(|d| (d.saturating_sub(1)).to_string()).collect();
        out.push(format!(
            "{name}({}) {kind}, {} bytes at ${:04X}: {}",
            bounds.join(","),
            a.size,
            a.at,
            hex(&it.mem[a.at..a.first()])
        ));
        let width = a.width();
        let count = a.count();
        for e in 0..count.min(max) {
            // The first subscript varies fastest.
            let mut rest = e;
            let subs: Vec<String> = dims
                .iter()
                .map(|&d| {
                    let s = rest % d.max(1);
                    rest /= d.max(1);
                    s.to_string()
                })
                .collect();
            let at = a.first() + e * width;
            out.push(format!(
                "  {name}({}) = {}  ${at:04X}: {}",
                subs.join(","),
                value_at(it, at, kind),
                hex(&it.mem[at..at + width])
            ));
        }
        if count > max {
            out.push(format!("  ... {} more", count - max));
        }
    }
    out
}

/// A FOR frame's variable, from its value's address.
fn for_var(it: &Interp, var: u16) -> String {
    let at = var as usize - 2;
    var_name(it.mem[at], it.mem[at + 1]).0
}

fn place(it: &Interp, line: Option<u16>, pos: usize) -> String {
    match line {
        Some(l) => match position(it, pos) {
            Some((_, st)) => format!("line {l}:{st} ${pos:04X}"),
            None => format!("line {l} ${pos:04X}"),
        },
        None => format!("direct mode ${pos:04X}"),
    }
}

/// The stack, newest first, as the ROM keeps it on the 6502 stack.
pub(super) fn stack_lines(it: &Interp) -> Vec<String> {
    let (entries, bytes) = it.stack_entries();
    let mut out = vec![format!(
        "{} frame(s), {bytes} bytes of the 6502 stack (FOR 18, GOSUB 7)",
        entries.len()
    )];
    for (i, e) in entries.iter().rev().enumerate() {
        out.push(match *e {
            StackEntry::For {
                var,
                step,
                limit,
                line,
                pos,
                ..
            } => format!(
                "#{i} FOR {} TO {} STEP {} (value at ${var:04X}), loops back to {}",
                for_var(it, var),
                show_num(Fac::from_packed(limit)),
                show_num(Fac::from_packed(step)),
                place(it, line, pos)
            ),
            StackEntry::Gosub { line, pos } => {
                format!("#{i} GOSUB, returns to {}", place(it, line, pos))
            }
        });
    }
    out
}

/// `backtrace`: where the program is, then each GOSUB it will return from.
pub(super) fn backtrace(d: &CbmDebugger) -> String {
    let it = d.it();
    let here = d.here();
    let mut s = format!("#0 {}  {}", here.describe, here.next);
    let (entries, _) = it.stack_entries();
    let mut n = 1;
    for e in entries.iter().rev() {
        if let StackEntry::Gosub { line, pos } = *e {
            let _ = writeln!(s, "#{n} GOSUB returns to {}", place(it, line, pos));
            n += 1;
        }
    }
    s
}

/// The line's token bytes, 8 to a row, with the byte TXTPTR reads next in brackets.
pub(super) fn token_lines(it: &Interp, line: (usize, u16, usize, usize), ptr: usize) -> Vec<String> {
    let (at, number, body, end) = line;
    let mut out = vec![format!(
        "line {number} at ${at:04X}: link ${:04X}, number {number} ({})",
        it.word(at),
        hex(&it.mem[at + 2..at + 4])
    )];
    let mut p = body;
    while p <= end {
        let row_end = (p + 8).min(end + 1);
        let mut row = format!("  ${p:04X} ");
        for a in p..row_end {
            if a == ptr {
                let _ = write!(row, "[{:02X}]", it.mem[a]);
            } else {
                let _ = write!(row, " {:02X} ", it.mem[a]);
            }
        }
        let mut listed = Vec::new();
        list_body(&it.mem[p..row_end.min(end)], &mut listed);
        let _ = write!(
            row,
            "{:>w$}{}",
            "",
            text(&listed),
            w = (8 - (row_end - p)) * 4 + 2
        );
        out.push(row);
        p = row_end;
    }
    out
}

/// The token view of the line TXTPTR is in (and of the next statement's line, when TXTPTR is
/// on the end of the line before it).
pub(super) fn tokens_here(it: &Interp, only: Option<u16>) -> Vec<String> {
    let ptr = it.txtptr();
    let all = lines(it);
    let mut out = vec![format!(
        "TXTPTR ${:04X}: the next byte read is ${ptr:04X} (${:02X}) [in brackets]",
        ptr.saturating_sub(1),
        it.mem[ptr]
    )];
    let next = it.next_statement().map(|n| n.addr);
    for l in all {
        let shown = match only {
            Some(n) => l.1 == n,
            None => (l.2..=l.3).contains(&ptr) || next.is_some_and(|a| (l.2..=l.3).contains(&a)),
        };
        if shown {
            out.extend(token_lines(it, l, ptr));
        }
    }
    out
}

/// The listing, with the current statement's line marked.
pub(super) fn listing(it: &Interp, around: Option<u16>, rows: usize) -> Vec<PanelLine> {
    listing_numbered(it, around, rows)
        .into_iter()
        .map(|(l, _)| l)
        .collect()
}

/// [`listing`], each line with its number.
pub(super) fn listing_numbered(it: &Interp, around: Option<u16>, rows: usize) -> Vec<(PanelLine, u16)> {
    let all = lines(it);
    let next = it.next_statement().map(|n| n.addr);
    let cur = all
        .iter()
        .position(|l| match around {
            Some(n) => l.1 >= n,
            None => next.is_some_and(|a| (l.2..=l.3).contains(&a)),
        })
        .unwrap_or(0);
    let first = cur.saturating_sub(rows / 3);
    // `=>` wherever the program's line is listed, as on the BBC and the Z80 (`list 40` too).
    let here = all
        .iter()
        .position(|l| next.is_some_and(|a| (l.2..=l.3).contains(&a)));
    listing_rows(it, &all, first, rows, here)
}

/// Lines `first..first + rows` of `all`, `=>` marking line `current` (where the program is).
fn listing_rows(
    it: &Interp,
    all: &[(usize, u16, usize, usize)],
    first: usize,
    rows: usize,
    current: Option<usize>,
) -> Vec<(PanelLine, u16)> {
    let next = it.next_statement().map(|n| n.addr);
    all.iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, &(_, number, body, end))| {
            let mut listed = Vec::new();
            list_body(&it.mem[body..end], &mut listed);
            let current = current == Some(i) && next.is_some();
            let line = PanelLine {
                // `=>` as the Z80's listing and gdb's disassembly mark where the program is.
                text: format!("{} {number} {}", if current { "=>" } else { "  " }, text(&listed)),
                current,
                ..PanelLine::default()
            };
            (line, number)
        })
        .collect()
}

/// `rows` lines of the listing from the first numbered `first` or more (a bare `list` going
/// on), each with its line number.
pub(super) fn listing_from(it: &Interp, first: u64, rows: usize) -> Vec<(PanelLine, u16)> {
    let around = u16::try_from(first).ok();
    let all = lines(it);
    let Some(start) = around.and_then(|f| all.iter().position(|l| l.1 >= f)) else {
        return Vec::new();
    };
    let next = it.next_statement().map(|n| n.addr);
    let cur = all
        .iter()
        .position(|l| next.is_some_and(|a| (l.2..=l.3).contains(&a)));
    listing_rows(it, &all, start, rows, cur)
}

pub(super) fn panel(d: &CbmDebugger, kind: PanelKind, rows: usize) -> Panel {
    let it = d.it();
    let plain = |v: Vec<String>| v.into_iter().map(PanelLine::plain).collect::<Vec<_>>();
    match kind {
        PanelKind::Source => Panel {
            title: "Program".into(),
            lines: listing(it, None, rows),
        },
        PanelKind::Disassembly => Panel {
            title: "Token bytes".into(),
            lines: plain(tokens_here(it, None)),
        },
        PanelKind::Registers => {
            let here = d.here();
            let line = it.current_line().map_or("direct".into(), |l| l.to_string());
            Panel {
                title: "Interpreter".into(),
                lines: plain(vec![
                    format!("{}  {}", here.describe, here.next.trim_end()),
                    format!(
                        "CURLIN {line}  TXTPTR ${:04X}  statements {}  TI {}",
                        it.txtptr().saturating_sub(1),
                        d.count(),
                        it.ti()
                    ),
                    format!(
                        "VARTAB ${:04X} ARYTAB ${:04X} STREND ${:04X} FRETOP ${:04X}",
                        it.word(zp::VARTAB),
                        it.word(zp::ARYTAB),
                        it.word(zp::STREND),
                        it.word(zp::FRETOP)
                    ),
                ]),
            }
        }
        PanelKind::Stack => Panel {
            title: "FOR/GOSUB stack".into(),
            lines: plain(stack_lines(it)),
        },
        PanelKind::Memory => {
            let mut panel = panels::variables("Variables", variable_lines(it), &d.vars_before);
            panel.lines.extend(plain(array_lines(it, 8)));
            panel
        }
    }
}
