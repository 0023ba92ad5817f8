//! What the debugger shows, as text: where the statement pointer is (line, statement, byte),
//! the token bytes under it, the listing, variables, the control stack and the VDU queue.

use std::fmt::Write as _;

use retro_machine::debug::Here;
use retro_machine::debug::basic::panels::hex;

use super::super::number::{Format, Num, num_to_string};
use super::super::value::Val;
use super::super::{ArrayData, Frame, Interp, VarRef};
use super::vdulog;
use crate::inspect::{self, ItemKind, LineView, ProgramView};
use crate::program::Program;

/// Where a program position is: its line, which statement of the line, and the byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The line number (0 outside the program: a line typed at the prompt, EVAL's area).
    pub line: u32,
    /// 1 for the line's first statement; statements start after `:`, THEN and ELSE.
    pub statement: usize,
    /// The byte's offset in its line: 0 is the line's &0D, 4 its first body byte.
    pub offset: usize,
    /// The address.
    pub addr: usize,
    /// Whether it is in the program at all.
    pub in_program: bool,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.in_program {
            write!(f, "{}:{} +{}", self.line, self.statement, self.offset)
        } else {
            write!(f, "&{:X} (outside the program)", self.addr)
        }
    }
}

/// A value as a debugger prints it: numbers as STR$ would, strings quoted.
pub fn show_val(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        Val::Float(f) => num_to_string(Num::Float(*f), Format::for_str(0)),
        Val::Str(s) => format!("\"{}\"", crate::detokenize::latin1_to_string(s)),
    }
}

fn kind_name(v: &Val) -> &'static str {
    match v {
        Val::Int(_) => "integer",
        Val::Float(_) => "real",
        Val::Str(_) => "string",
    }
}

/// What an inspector item is, in a word or two.
fn item_meaning(kind: &ItemKind, bytes: &[u8]) -> String {
    match kind {
        ItemKind::Keyword { name, note } => match note {
            Some(n) => format!("{name} ({n})"),
            None => name.to_string(),
        },
        ItemKind::LineNumber(n) => format!("line number {n}"),
        ItemKind::Colon => ": (end of statement)".into(),
        ItemKind::Unknown => "unknown token".into(),
        _ => format!("\"{}\"", crate::detokenize::latin1_to_string(bytes)),
    }
}

impl Interp {
    /// The program's current bytes as the inspector's view (the program may have written to
    /// itself, so it is read from memory each time).
    pub(crate) fn program_view(&self) -> Option<ProgramView> {
        let bytes = self.mem.get(self.page..self.top)?;
        Program::from_bytes(bytes).ok().map(|p| inspect::inspect(&p))
    }

    /// Where `addr` is.
    pub fn position(&self, addr: usize) -> Position {
        let outside = Position {
            line: 0,
            statement: 0,
            offset: 0,
            addr,
            in_program: false,
        };
        if addr < self.page || addr >= self.top {
            return outside;
        }
        let i = self.lines.partition_point(|&(_, off)| off < addr);
        if i == 0 {
            return outside;
        }
        let (number, start) = self.lines[i - 1];
        let rel = addr - self.page;
        let mut statement = 1;
        if let Some(view) = self.program_view()
            && let Some(line) = view.lines.iter().find(|l| l.offset == start - self.page)
        {
            for (k, s) in line.statements.iter().enumerate() {
                if s.first().is_some_and(|it| it.offset <= rel) {
                    statement = k + 1;
                }
            }
        }
        Position {
            line: number as u32,
            statement,
            offset: addr - start,
            addr,
            in_program: true,
        }
    }

    /// The address of statement `statement` (1 = first) of line `line`: its first byte that is
    /// not a space, where the statement pointer stands when the statement starts.
    pub fn statement_addr(&self, line: u32, statement: usize) -> Result<usize, String> {
        let view = self.program_view().ok_or("the program is damaged")?;
        let l = view
            .lines
            .iter()
            .find(|l| l.number as u32 == line)
            .ok_or_else(|| format!("No such line {line}"))?;
        let s = statement
            .checked_sub(1)
            .and_then(|k| l.statements.get(k))
            .ok_or_else(|| format!("line {line} has {} statement(s)", l.statements.len()))?;
        let first = s.first().ok_or("empty statement")?;
        let mut a = self.page + first.offset;
        while self.at(a) == b' ' {
            a += 1;
        }
        Ok(a)
    }

    /// The statement at `addr` as LIST would show it.
    pub fn statement_text(&self, addr: usize) -> String {
        let pos = self.position(addr);
        let Some(view) = self.program_view().filter(|_| pos.in_program) else {
            return String::new();
        };
        let Some(line) = view.lines.iter().find(|l| l.number as u32 == pos.line) else {
            return String::new();
        };
        let Some(st) = line.statements.get(pos.statement - 1) else {
            return String::new();
        };
        let bytes: Vec<u8> = st.iter().flat_map(|i| i.bytes.iter().copied()).collect();
        crate::detokenize::latin1_to_string(&crate::detokenize::detokenize_line(&bytes))
            .trim()
            .to_string()
    }

    /// One line's token bytes, statement by statement, with `=>` on the row holding `pc` and
    /// the byte it points at in brackets.
    pub fn tokens_text(&self, line: Option<u32>, pc: usize) -> Result<String, String> {
        let view = self.program_view().ok_or("the program is damaged")?;
        let want = line.unwrap_or_else(|| self.position(pc).line);
        let l: &LineView = view
            .lines
            .iter()
            .find(|l| l.number as u32 == want)
            .ok_or_else(|| format!("No such line {want}"))?;
        let rel = pc.wrapping_sub(self.page);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "line {} at PAGE+&{:X}: {} (number {}, length {})",
            l.number,
            l.offset,
            hex(&l.header),
            l.number,
            l.len_byte
        );
        for (k, st) in l.statements.iter().enumerate() {
            let _ = writeln!(out, "  statement {}", k + 1);
            for item in st {
                let here = rel >= item.offset && rel < item.offset + item.bytes.len();
                let bytes: Vec<String> = item
                    .bytes
                    .iter()
                    .enumerate()
                    .map(|(j, b)| {
                        if here && item.offset + j == rel {
                            format!("[{b:02X}]")
                        } else {
                            format!("{b:02X}")
                        }
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "{} {:>4}  {:<28} {}",
                    if here { "=>" } else { "  " },
                    item.offset - l.offset,
                    bytes.join(" "),
                    item_meaning(&item.kind, &item.bytes)
                );
            }
        }
        if rel == l.offset + l.len_byte as usize {
            let _ = writeln!(
                out,
                "=> {:>4}  [0D]                         end of line",
                l.len_byte
            );
        }
        Ok(out)
    }

    /// The listing around `line` (or all of it), `=>` on the line holding `pc`.
    pub fn listing_text(&self, around: Option<u32>, pc: usize) -> String {
        self.listing_window(around, None, pc).0
    }

    /// Ten lines of the listing: from the first numbered `from` or more (a bare `list` going on
    /// after the last), else around line `around` or the current one. Also the number after
    /// the last line listed (None when none was).
    pub fn listing_window(&self, around: Option<u32>, from: Option<u32>, pc: usize) -> (String, Option<u32>) {
        let cur = self.position(pc);
        let from = match from {
            Some(first) => match self.lines.iter().position(|&(n, _)| n as u32 >= first) {
                Some(i) => i,
                None => return (String::new(), None),
            },
            None => {
                let centre = around.unwrap_or(cur.line);
                let idx = self
                    .lines
                    .iter()
                    .position(|&(n, _)| n as u32 >= centre)
                    .unwrap_or(0);
                idx.saturating_sub(4)
            }
        };
        let mut out = String::new();
        let mut next = None;
        for &(n, off) in self.lines.iter().skip(from).take(10) {
            next = Some(n as u32 + 1);
            let len = self.mem[off + 3] as usize;
            let body = &self.mem[off + 4..off + len.max(4)];
            let text = crate::detokenize::latin1_to_string(&crate::list_line(n, body));
            let mark = if cur.in_program && cur.line == n as u32 {
                "=>"
            } else {
                "  "
            };
            let _ = writeln!(out, "{mark} {text}");
        }
        (out, next)
    }

    /// What Tab completes on the debugger's command line: `PROCname` and `FNname` of every
    /// `DEF` in the program (before it runs too), then the variables and arrays that exist
    /// (arrays with their `(`).
    pub fn completion_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for &(_, start) in &self.lines {
            let end = (start + self.mem[start + 3] as usize).min(self.mem.len());
            let mut p = start + 4;
            // A DEF may follow other statements on its line: look at every DEF token (a name
            // is plain ASCII, a token is not, so a byte of a name is never taken for one).
            while p + 1 < end {
                if self.mem[p] != super::super::tok::DEF {
                    p += 1;
                    continue;
                }
                p += 1;
                while p < end && self.mem[p] == b' ' {
                    p += 1;
                }
                let word = match self.mem.get(p) {
                    Some(&super::super::tok::PROC) => "PROC",
                    Some(&super::super::tok::FN) => "FN",
                    _ => continue,
                };
                let from = p + 1;
                let mut e = from;
                while e < end && crate::tokens::is_word_char(self.mem[e]) {
                    e += 1;
                }
                out.push(format!(
                    "{word}{}",
                    crate::detokenize::latin1_to_string(&self.mem[from..e])
                ));
                p = e;
            }
        }
        out.extend(self.names.keys().map(|k| crate::detokenize::latin1_to_string(k)));
        out.extend(
            self.array_names
                .keys()
                .map(|k| crate::detokenize::latin1_to_string(k)),
        );
        out
    }

    /// Every variable that exists, sorted by name, then the resident integers.
    pub fn variables_text(&self) -> String {
        let mut out = String::new();
        let mut names: Vec<(&[u8], VarRef)> = self.names.iter().map(|(k, v)| (&k[..], *v)).collect();
        names.sort_by(|a, b| a.0.cmp(b.0));
        for (name, v) in names {
            let name = crate::detokenize::latin1_to_string(name);
            if let Ok(val) = self.read(v) {
                let _ = writeln!(out, "{name} = {} ({})", show_val(&val), kind_name(&val));
            }
        }
        let mut arrays: Vec<(&[u8], u32)> = self.array_names.iter().map(|(k, v)| (&k[..], *v)).collect();
        arrays.sort();
        for (name, i) in arrays {
            let name = crate::detokenize::latin1_to_string(name);
            let Some(a) = self.arrays.get(i as usize) else {
                continue;
            };
            if a.dims.is_empty() {
                let _ = writeln!(out, "{name}) not DIMmed yet");
                continue;
            }
            let dims: Vec<String> = a.dims.iter().map(|d| (d - 1).to_string()).collect();
            let vals: Vec<String> = match &a.data {
                ArrayData::Int(d) => d.iter().take(16).map(|x| x.to_string()).collect(),
                ArrayData::Float(d) => d.iter().take(16).map(|&x| show_val(&Val::Float(x))).collect(),
                ArrayData::Str(d) => d
                    .iter()
                    .take(16)
                    .map(|x| show_val(&Val::Str(x.clone())))
                    .collect(),
            };
            let total: usize = a.dims.iter().map(|&d| d as usize).product();
            let more = if total > 16 {
                format!(" ... ({total} elements)")
            } else {
                String::new()
            };
            let _ = writeln!(out, "{name}{}) = {}{more}", dims.join(","), vals.join(" "));
        }
        let _ = write!(out, "@% = &{:X}", self.resident[0]);
        for i in 1..27 {
            if (i - 1) % 9 == 0 {
                out.push('\n');
            } else {
                out.push_str("  ");
            }
            let _ = write!(out, "{}% = {}", (b'A' + i as u8 - 1) as char, self.resident[i]);
        }
        out.push('\n');
        out
    }

    /// The name a variable reference goes by (for LOCAL and FOR entries).
    fn var_name(&self, v: VarRef) -> String {
        if let VarRef::Resident(i) = v {
            return if i == 0 {
                "@%".into()
            } else {
                format!("{}%", (b'A' + i - 1) as char)
            };
        }
        if let Some((k, _)) = self.names.iter().find(|&(_, &r)| r == v) {
            return crate::detokenize::latin1_to_string(k);
        }
        match v {
            VarRef::IntEl(a, o) | VarRef::FloatEl(a, o) | VarRef::StrEl(a, o) => {
                match self.array_names.iter().find(|&(_, &i)| i == a) {
                    Some((k, _)) => format!("{}[element {o}])", crate::detokenize::latin1_to_string(k)),
                    None => format!("array {a} element {o}"),
                }
            }
            VarRef::Byte(a) => format!("?&{a:X}"),
            VarRef::Word(a) => format!("!&{a:X}"),
            VarRef::MemStr(a) => format!("$&{a:X}"),
            VarRef::MemFloat(a) => format!("|&{a:X}"),
            _ => "?".into(),
        }
    }

    /// One control stack entry, as `info stack` shows it.
    fn frame_text(&self, f: &Frame) -> String {
        let at = |p: usize| self.position(p).to_string();
        match f {
            Frame::ForInt {
                var,
                limit,
                step,
                body,
                ..
            } => format!(
                "FOR {} TO {limit} STEP {step}, loops back to {}",
                self.var_name(*var),
                at(*body)
            ),
            Frame::ForFloat {
                var,
                limit,
                step,
                body,
                ..
            } => format!(
                "FOR {} TO {} STEP {}, loops back to {}",
                self.var_name(*var),
                show_val(&Val::Float(*limit)),
                show_val(&Val::Float(*step)),
                at(*body)
            ),
            Frame::Repeat { body, .. } => format!("REPEAT, UNTIL goes back to {}", at(*body)),
            Frame::While { cond, .. } => format!("WHILE, ENDWHILE tests again at {}", at(*cond)),
            Frame::Gosub { ret, .. } => format!("GOSUB, RETURN goes to {}", at(*ret)),
            Frame::Proc { ret, .. } => format!("PROC, ENDPROC returns to {}", at(*ret)),
            Frame::Fn { ret, .. } => format!(
                "FN, = returns into the calling expression at {}",
                self.return_place(*ret)
            ),
            Frame::Local { var, old } => {
                format!("LOCAL {} (restores {})", self.var_name(*var), show_val(old))
            }
            Frame::Handler { old } => match old {
                Some(h) => format!("ON ERROR LOCAL (restores the handler at {})", at(h.pc)),
                None => "ON ERROR LOCAL (restores no handler)".into(),
            },
            Frame::Data { ptr, .. } => format!("LOCAL DATA (restores the data pointer {})", at(*ptr)),
            Frame::ArraySave { slot, .. } => format!("LOCAL array (slot {slot})"),
        }
    }

    /// Where a FN returns to: a place in the program, or the string an EVAL is evaluating
    /// (tokenized into a scratch area above HIMEM, so it has no line). The debugger's own
    /// expressions use that area too, but never stop inside the FNs they call.
    fn return_place(&self, ret: usize) -> String {
        if (self.eval_area..self.eval_area + crate::interp::IMMEDIATE).contains(&ret) {
            "EVAL's string".into()
        } else {
            self.position(ret).to_string()
        }
    }

    /// The control stack, innermost first, then the error handler.
    pub fn stack_text(&self) -> String {
        let mut out = String::new();
        if self.stack.is_empty() {
            out.push_str("The control stack is empty.\n");
        }
        for (i, f) in self.stack.iter().rev().enumerate() {
            let _ = writeln!(out, "#{i} {}", self.frame_text(f));
        }
        match self.handler {
            Some(h) => {
                let kind = if h.local.is_some() {
                    "ON ERROR LOCAL"
                } else {
                    "ON ERROR"
                };
                let _ = writeln!(out, "{kind} handler at {}", self.position(h.pc));
            }
            None => out.push_str("no ON ERROR handler (errors stop the program)\n"),
        }
        out
    }

    /// LOCAL variables and parameters of the innermost PROC or FN (what LOCAL saved sits
    /// above the PROC/FN entry).
    pub fn locals_text(&self) -> String {
        let start = self
            .stack
            .iter()
            .rposition(|f| matches!(f, Frame::Proc { .. } | Frame::Fn { .. }));
        let Some(start) = start else {
            return "No PROC or FN is running: every variable is global (info variables).\n".into();
        };
        let mut out = String::new();
        for f in &self.stack[start + 1..] {
            if let Frame::Local { var, old } = f {
                let now = self.read(*var).map(|v| show_val(&v)).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{} = {now} (the caller's value {})",
                    self.var_name(*var),
                    show_val(old)
                );
            }
        }
        if out.is_empty() {
            out.push_str("No locals.\n");
        }
        out
    }

    /// The statement now, then where each GOSUB, PROC and FN returns to.
    pub fn backtrace_text(&self) -> String {
        let mut out = String::new();
        let here = self.position(self.pc);
        let _ = writeln!(out, "#0 {here}  {}", self.statement_text(self.pc));
        let mut n = 1;
        for f in self.stack.iter().rev() {
            let line = match f {
                Frame::Gosub { ret, .. } => format!("GOSUB returns to {}", self.position(*ret)),
                Frame::Proc { ret, .. } => format!("PROC returns to {}", self.position(*ret)),
                Frame::Fn { ret, .. } => {
                    format!("FN returns into an expression at {}", self.return_place(*ret))
                }
                _ => continue,
            };
            let _ = writeln!(out, "#{n} {line}");
            n += 1;
        }
        out
    }

    /// The VDU queue: bytes waiting, the last `n` sequences run, and the driver's state.
    pub fn vdu_text(&self, n: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "queue: {}", vdulog::describe_pending(self.vdu.pending()));
        if let Some(log) = &self.vdu.log {
            let _ = writeln!(out, "last commands (of {} since the start):", log.total);
            for seq in log.last(n) {
                let _ = writeln!(out, "  {}", vdulog::describe(seq));
            }
        }
        for fact in self.vdu.driver().describe() {
            let _ = writeln!(out, "{fact}");
        }
        out
    }

    /// `n` bytes of memory from `addr`, 16 a row, with the offset from PAGE.
    pub fn memory_text(&self, addr: usize, n: usize) -> Result<String, String> {
        let end = addr
            .checked_add(n)
            .filter(|&e| e <= self.mem.len())
            .ok_or("Address out of range")?;
        let mut out = String::new();
        for row in (addr..end).step_by(16) {
            let bytes = &self.mem[row..(row + 16).min(end)];
            let chars: String = bytes
                .iter()
                .map(|&b| if (32..127).contains(&b) { b as char } else { '.' })
                .collect();
            let rel = row as i64 - self.page as i64;
            let _ = writeln!(out, "&{row:05X} PAGE{rel:+}  {:<47}  {chars}", hex(bytes));
        }
        Ok(out)
    }
}

impl Interp {
    /// Where the program is, for stop reports and the terminal's title.
    pub(crate) fn here(&self, running: bool) -> Here {
        if !running {
            return Here {
                describe: "the program has ended".into(),
                location: String::new(),
                next: "(run starts it again)\n".into(),
            };
        }
        let p = self.pc_at_statement();
        let pos = self.position(p);
        Here {
            describe: format!("line {pos}"),
            location: if pos.in_program {
                format!("{}:{}", pos.line, pos.statement)
            } else {
                String::new()
            },
            next: format!("{}\n", self.statement_text(p)),
        }
    }

    /// Every variable's line of `info variables` (the panel marks those that changed).
    pub(crate) fn variable_lines(&self) -> Vec<String> {
        self.variables_text().lines().map(String::from).collect()
    }

    /// `rows` lines of the listing around line `centre`: each one's number and its statements
    /// as LIST shows them (statement k+1 at index k, the first with the line number, each
    /// ending with the `:` that ends it), split where [`Interp::position`] numbers them.
    pub(crate) fn listing_lines(&self, centre: u32, rows: usize) -> Vec<(u32, Vec<String>)> {
        let view = self.program_view();
        let idx = self
            .lines
            .iter()
            .position(|&(n, _)| n as u32 >= centre)
            .unwrap_or(0);
        let from = idx.saturating_sub(rows / 3);
        self.lines
            .iter()
            .skip(from)
            .take(rows.max(1))
            .map(|&(n, off)| {
                let len = self.mem[off + 3] as usize;
                let body = &self.mem[off + 4..off + len.max(4)];
                let full = crate::list_line(n, body);
                let rel = off - self.page;
                let starts: Vec<Option<usize>> = view
                    .as_ref()
                    .and_then(|v| v.lines.iter().find(|l| l.offset == rel))
                    .map(|l| {
                        l.statements
                            .iter()
                            .map(|s| {
                                s.first()
                                    .map(|i| i.offset.saturating_sub(rel + 4).min(body.len()))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                // Where each statement's text begins in the listing: the listing of the bytes
                // before it (keywords expand, so bytes and characters differ). An empty
                // statement begins where the one before it ended.
                let mut cuts = vec![0];
                for start in starts.iter().skip(1) {
                    let last = *cuts.last().unwrap_or(&0);
                    let cut = start.map_or(last, |s| crate::list_line(n, &body[..s]).len());
                    cuts.push(cut.clamp(last, full.len()));
                }
                cuts.push(full.len());
                let statements = cuts
                    .windows(2)
                    .map(|w| crate::detokenize::latin1_to_string(&full[w[0]..w[1]]))
                    .collect();
                (n as u32, statements)
            })
            .collect()
    }
}
