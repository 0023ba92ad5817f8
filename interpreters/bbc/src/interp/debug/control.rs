//! [`Control`]: the debugger inside the interpreter's thread. It decides at each statement
//! whether to stop (a step count reached, a breakpoint, a watch that changed, an error, the end
//! of a routine), and while stopped it runs the command language of docs/debugging-basic.md.
//!
//! Going backwards replays: the interpreter is deterministic (virtual time, scripted keys, the
//! RND seed), so the state after statement N is rebuilt by running the program again from the
//! start to statement N with the debugger quiet. The [`super::session`] thread does the
//! restarting; `Control` says where to go.

use std::fmt::Write as _;
use std::sync::mpsc::{Receiver, Sender};

use super::super::error::BasicError;
use super::super::{Interp, Outcome, R, Stop, tok};
use super::session::{Flow, Output};
use super::views::show_val;

/// Statements `continue`, `next`, `finish` and `until` run at most before stopping (about 400
/// virtual seconds at the machine's million statements a second).
pub const DEFAULT_BUDGET: u64 = 400_000_000;

/// What runs the program between stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Until a breakpoint, watch, error or the statement limit.
    Run,
    /// Until the call depth is at most `depth` (step over GOSUB, PROC and FN).
    Next { depth: usize },
    /// Until the call depth is below `depth` (the current routine has returned).
    Finish { depth: usize },
    /// Until a statement after `after` at call depth at most `depth` (out of a loop).
    Until { depth: usize, after: usize },
    /// To the statement limit, quietly (going backwards).
    Replay,
    /// To the statement limit, quietly, noting where breakpoints and watches would stop.
    Scan,
}

/// How the session thread should start the program again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Restart {
    /// From the start, running (`run`).
    Run,
    /// Quietly to statement N.
    ReplayTo(u64),
    /// Quietly to statement N, then back to the last stop before it (`reverse-continue`).
    ScanTo(u64),
}

/// Why the program stopped.
enum Reason {
    Start,
    Step,
    Limit,
    Break(u32),
    Watch {
        id: u32,
        expr: String,
        old: String,
        new: String,
    },
    Error,
    Finish,
    Back,
}

struct Break {
    id: u32,
    addr: usize,
    what: String,
    cond: Option<(String, Vec<u8>)>,
    temporary: bool,
    enabled: bool,
    hits: u64,
}

struct Watch {
    id: u32,
    expr: String,
    bytes: Vec<u8>,
    /// The value at the last statement (None: it does not exist / has no value yet).
    last: Option<String>,
    hits: u64,
}

/// An error as it was raised.
#[derive(Clone)]
struct Raised {
    error: BasicError,
    at: usize,
}

/// What a command asks of the session.
enum Reply {
    Now(Result<String, String>),
    Resume(String),
    Restart(String, Restart),
    Quit,
}

/// What the session thread learns from a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Served {
    Resume,
    Stop,
}

/// The debugger's state inside the interpreter thread.
pub struct Control {
    /// Statements begun since the program started.
    count: u64,
    /// Stop before statement number `stop_at` (u64::MAX: no limit).
    stop_at: u64,
    mode: Mode,
    page: usize,
    breaks: Vec<Break>,
    watches: Vec<Watch>,
    displays: Vec<(u32, String, Vec<u8>)>,
    next_id: u32,
    /// Per program byte from PAGE: enabled breakpoints there.
    bp_map: Vec<u16>,
    /// The error raised since the last statement, and the last error of the run.
    raised: Option<Raised>,
    last_error: Option<Raised>,
    /// Statement counts where a scan met a breakpoint or watch.
    hits: Vec<u64>,
    /// Program text up to this statement count has been shown (replays do not show it again).
    shown_to: u64,
    /// Output of the command that set the program running, sent at the next stop.
    pending: Option<String>,
    pub(super) restart: Option<Restart>,
    pub(super) quit: bool,
    rx: Receiver<String>,
    tx: Sender<Output>,
}

fn count_arg(arg: &str) -> Result<u64, String> {
    let a = arg.trim();
    if a.is_empty() {
        return Ok(1);
    }
    a.parse().map_err(|_| format!("`{a}` is not a count"))
}

/// Splits `LOCATION if CONDITION`.
fn split_condition(arg: &str) -> (&str, Option<&str>) {
    let lower = arg.to_ascii_lowercase();
    match lower.find(" if ") {
        Some(i) => (arg[..i].trim(), Some(arg[i + 4..].trim())),
        None => (arg.trim(), None),
    }
}

fn expr_bytes(text: &str) -> Vec<u8> {
    crate::tokenize::tokenize_eval(text.as_bytes())
}

impl Control {
    pub(super) fn new(rx: Receiver<String>, tx: Sender<Output>) -> Control {
        Control {
            count: 0,
            stop_at: 0,
            mode: Mode::Run,
            page: 0,
            breaks: Vec::new(),
            watches: Vec::new(),
            displays: Vec::new(),
            next_id: 1,
            bp_map: Vec::new(),
            raised: None,
            last_error: None,
            hits: Vec::new(),
            shown_to: 0,
            pending: None,
            restart: None,
            quit: false,
            rx,
            tx,
        }
    }

    /// A new run begins: where it should go first.
    pub(super) fn begin(&mut self, how: Option<Restart>) {
        self.count = 0;
        self.raised = None;
        self.last_error = None;
        self.hits.clear();
        (self.mode, self.stop_at) = match how {
            None => (Mode::Run, 0),
            Some(Restart::Run) => (Mode::Run, DEFAULT_BUDGET),
            Some(Restart::ReplayTo(n)) => (Mode::Replay, n),
            Some(Restart::ScanTo(n)) => (Mode::Scan, n),
        };
    }

    /// The interpreter it watches has this program.
    pub(super) fn attached(&mut self, it: &Interp) {
        self.page = it.page;
        self.rebuild_map(it);
    }

    fn rebuild_map(&mut self, it: &Interp) {
        self.bp_map = vec![0; it.top.saturating_sub(it.page)];
        for b in self.breaks.iter().filter(|b| b.enabled) {
            if let Some(n) = self.bp_map.get_mut(b.addr.wrapping_sub(self.page)) {
                *n += 1;
            }
        }
    }

    pub(super) fn error_raised(&mut self, error: &BasicError, at: usize) {
        let r = Raised {
            error: error.clone(),
            at,
        };
        self.raised = Some(r.clone());
        self.last_error = Some(r);
    }

    /// At the statement starting at `p`: stop there if something says so, then count it.
    pub(super) fn at_statement(&mut self, it: &mut Interp, p: usize) -> R<()> {
        if let Some(reason) = self.check(it, p) {
            match reason {
                // A scan has reached where it was going: now back to the last stop before.
                Reason::Back if self.mode == Mode::Scan => {
                    let to = self.hits.last().copied().unwrap_or(0);
                    self.restart = Some(Restart::ReplayTo(to));
                    return Err(Box::new(Stop::Abort));
                }
                _ => {
                    if self.serve(it, reason, true) == Served::Stop {
                        return Err(Box::new(Stop::Abort));
                    }
                }
            }
        }
        self.count += 1;
        Ok(())
    }

    fn check(&mut self, it: &mut Interp, p: usize) -> Option<Reason> {
        if self.count >= self.stop_at {
            return Some(match self.mode {
                _ if self.count == 0 => Reason::Start,
                Mode::Replay | Mode::Scan => Reason::Back,
                Mode::Run | Mode::Next { .. } | Mode::Finish { .. } | Mode::Until { .. } => {
                    if self.stop_at == self.count && self.stepping() {
                        Reason::Step
                    } else {
                        Reason::Limit
                    }
                }
            });
        }
        if self.mode == Mode::Replay {
            return None;
        }
        let scan = self.mode == Mode::Scan;
        if self.raised.take().is_some() && !scan {
            return Some(Reason::Error);
        }
        if self.bp_map.get(p.wrapping_sub(self.page)).is_some_and(|&n| n > 0)
            && let Some(id) = self.hit_break(it, p)
        {
            if !scan {
                return Some(Reason::Break(id));
            }
            self.hits.push(self.count);
        }
        if !self.watches.is_empty()
            && let Some(reason) = self.check_watches(it)
        {
            if !scan {
                return Some(reason);
            }
            self.hits.push(self.count);
        }
        match self.mode {
            Mode::Next { depth } if it.call_depth() <= depth => Some(Reason::Step),
            Mode::Finish { depth } if it.call_depth() < depth => Some(Reason::Finish),
            Mode::Until { depth, after } if it.call_depth() <= depth && p > after => Some(Reason::Step),
            _ => None,
        }
    }

    /// Whether the run in progress is a `step` (a statement limit that is the point).
    fn stepping(&self) -> bool {
        self.mode == Mode::Run && self.stop_at != u64::MAX && self.stop_at < DEFAULT_BUDGET
    }

    /// The first enabled breakpoint at `p` whose condition holds.
    fn hit_break(&mut self, it: &mut Interp, p: usize) -> Option<u32> {
        let mut hit = None;
        for i in 0..self.breaks.len() {
            let b = &self.breaks[i];
            if !b.enabled || b.addr != p {
                continue;
            }
            let holds = match &b.cond {
                None => true,
                Some((_, bytes)) => {
                    let bytes = bytes.clone();
                    matches!(it.debug_eval(&bytes), Ok(v) if v != super::super::value::Val::Int(0) && v != super::super::value::Val::Float(0.0))
                }
            };
            if holds {
                self.breaks[i].hits += 1;
                hit = Some(i);
                break;
            }
        }
        let i = hit?;
        let id = self.breaks[i].id;
        if self.breaks[i].temporary && self.mode != Mode::Scan {
            self.breaks.remove(i);
            self.rebuild_map(it);
        }
        Some(id)
    }

    fn watch_value(it: &mut Interp, bytes: &[u8]) -> Option<String> {
        it.debug_eval(bytes).ok().map(|v| show_val(&v))
    }

    fn check_watches(&mut self, it: &mut Interp) -> Option<Reason> {
        let mut reason = None;
        for w in &mut self.watches {
            let now = Self::watch_value(it, &w.bytes);
            if now != w.last {
                let old = std::mem::replace(&mut w.last, now.clone());
                w.hits += 1;
                if reason.is_none() {
                    reason = Some(Reason::Watch {
                        id: w.id,
                        expr: w.expr.clone(),
                        old: old.unwrap_or_else(|| "(no such variable)".into()),
                        new: now.unwrap_or_else(|| "(no such variable)".into()),
                    });
                }
            }
        }
        reason
    }

    fn refresh_watches(&mut self, it: &mut Interp) {
        for w in &mut self.watches {
            w.last = Self::watch_value(it, &w.bytes);
        }
    }

    /// Where the program is, as stops report it: `=> 0:3 +25  IF d ELSE ...`.
    fn location(it: &Interp, p: usize) -> String {
        format!("=> {}  {}\n", it.position(p), it.statement_text(p))
    }

    fn stop_report(&mut self, it: &mut Interp, reason: Reason, running: bool) -> String {
        let mut out = String::new();
        let mut text = String::new();
        it.vdu.take_text(&mut text);
        if self.count > self.shown_to || !running {
            out.push_str(&text);
            if !text.is_empty() && !text.ends_with('\n') {
                out.push('\n');
            }
            self.shown_to = self.count;
        }
        match reason {
            Reason::Start => out.push_str("Stopped at the program's first statement.\n"),
            Reason::Step | Reason::Back | Reason::Finish => {}
            Reason::Limit => {
                let _ = writeln!(
                    out,
                    "Stopped after the statement limit ({} statements).",
                    self.count
                );
            }
            Reason::Break(id) => {
                let _ = write!(out, "Breakpoint {id}, ");
            }
            Reason::Watch { id, expr, old, new } => {
                let _ = writeln!(
                    out,
                    "Watchpoint {id}: {expr}\nOld value = {old}\nNew value = {new}"
                );
            }
            Reason::Error => {
                if let Some(r) = &self.last_error {
                    let _ = writeln!(
                        out,
                        "Error {}: {} (raised at {}); ON ERROR goes on at:",
                        r.error.number,
                        r.error.message,
                        it.position(r.at)
                    );
                }
            }
        }
        if running {
            out.push_str(&Self::location(it, it.pc_at_statement()));
        }
        out.push_str(&self.displays_text(it));
        out
    }

    fn displays_text(&self, it: &mut Interp) -> String {
        let mut out = String::new();
        for (id, text, bytes) in &self.displays {
            let v = match it.debug_eval(bytes) {
                Ok(v) => show_val(&v),
                Err(e) => format!("<{e}>"),
            };
            let _ = writeln!(out, "{id}: {text} = {v}");
        }
        out
    }

    /// The program ended: what the session says about it.
    pub(super) fn finished_report(&mut self, it: &mut Interp, outcome: &Outcome) -> String {
        let mut out = self.stop_report(it, Reason::Step, false);
        match outcome {
            Outcome::Ended => out.push_str("The program ended.\n"),
            Outcome::Quit(n) => {
                let _ = writeln!(out, "The program quit with {n}.");
            }
            Outcome::Aborted => out.push_str("The program stopped (no more input).\n"),
            Outcome::Error { error, line } => {
                let _ = write!(out, "{} at line {line}", error.message);
                if let Some(r) = &self.last_error {
                    let _ = write!(out, " (ERR={}, raised at {})", r.error.number, it.position(r.at));
                }
                out.push('\n');
            }
        }
        out
    }

    fn send(&self, text: String, error: bool) {
        let _ = self.tx.send(Output {
            text,
            flow: Flow::Continue,
            error,
        });
    }

    /// Stopped: reports why to the command waiting for it, then runs commands until one sets
    /// the program going (`Resume`) or asks for a restart or quit (`Stop`). `running`: false
    /// once the program has ended (commands that run it then say so).
    fn serve(&mut self, it: &mut Interp, reason: Reason, running: bool) -> Served {
        self.refresh_watches(it);
        let report = self.stop_report(it, reason, running);
        if let Some(prefix) = self.pending.take() {
            self.send(prefix + &report, false);
        }
        self.serve_commands(it, running)
    }

    pub(super) fn serve_finished(&mut self, it: &mut Interp, outcome: &Outcome) -> Served {
        let report = self.finished_report(it, outcome);
        if let Some(prefix) = self.pending.take() {
            self.send(prefix + &report, false);
        }
        self.serve_commands(it, false)
    }

    fn serve_commands(&mut self, it: &mut Interp, running: bool) -> Served {
        loop {
            let Ok(line) = self.rx.recv() else {
                self.quit = true;
                return Served::Stop;
            };
            match self.command(it, &line, running) {
                Reply::Now(Ok(text)) => self.send(text, false),
                Reply::Now(Err(e)) => self.send(format!("error: {e}\n"), true),
                Reply::Resume(prefix) => {
                    self.pending = Some(prefix);
                    return Served::Resume;
                }
                Reply::Restart(prefix, how) => {
                    self.pending = Some(prefix);
                    self.restart = Some(how);
                    return Served::Stop;
                }
                Reply::Quit => {
                    let _ = self.tx.send(Output {
                        text: String::new(),
                        flow: Flow::Quit,
                        error: false,
                    });
                    self.quit = true;
                    return Served::Stop;
                }
            }
        }
    }

    /// Sets the program going until `mode` stops it or `limit` more statements have begun.
    fn go(&mut self, mode: Mode, limit: u64, running: bool, prefix: String) -> Reply {
        if !running {
            return Reply::Now(Err("The program is not being run (use run).".into()));
        }
        self.mode = mode;
        self.stop_at = self.count.saturating_add(limit.max(1));
        Reply::Resume(prefix)
    }

    /// A breakpoint location: `LINE`, `LINE:STATEMENT`, `PROCname` or `FNname`.
    fn resolve(it: &Interp, loc: &str) -> Result<(usize, String), String> {
        let loc = loc.trim();
        let upper = loc.to_ascii_uppercase();
        if upper.starts_with("PROC") || upper.starts_with("FN") {
            let (kind, name) = if upper.starts_with("PROC") {
                (tok::PROC, &loc[4..])
            } else {
                (tok::FN, &loc[2..])
            };
            return it
                .routine_body(kind, name.as_bytes())
                .map(|a| {
                    (
                        a,
                        format!("{}{name}", if kind == tok::PROC { "PROC" } else { "FN" }),
                    )
                })
                .ok_or_else(|| format!("No such {loc}"));
        }
        let (line, st) = match loc.split_once(':') {
            Some((l, s)) => (
                l,
                s.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("`{s}` is not a statement number"))?,
            ),
            None => (loc, 1),
        };
        let line: u32 = line
            .trim()
            .parse()
            .map_err(|_| format!("`{loc}` is not a line, LINE:STATEMENT, PROCname or FNname"))?;
        let addr = it.statement_addr(line, st)?;
        Ok((addr, format!("{line}:{st}")))
    }

    fn command(&mut self, it: &mut Interp, line: &str, running: bool) -> Reply {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Reply::Now(Ok(String::new()));
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let (word, modifier) = word.split_once('/').unwrap_or((word, ""));
        let rest = rest.trim();
        let depth = it.call_depth();
        let here = it.pc_at_statement();
        match word {
            "quit" | "q" | "exit" => Reply::Quit,
            "step" | "s" | "stepi" | "si" => match count_arg(rest) {
                Ok(n) => self.go(Mode::Run, n, running, String::new()),
                Err(e) => Reply::Now(Err(e)),
            },
            "next" | "n" => match count_arg(rest) {
                // `next N`: N times over; the common N is 1.
                Ok(1) => self.go(Mode::Next { depth }, DEFAULT_BUDGET, running, String::new()),
                Ok(n) => Reply::Now(Err(format!("next takes no count here ({n}): repeat it"))),
                Err(e) => Reply::Now(Err(e)),
            },
            "finish" | "fin" => {
                if depth == 0 {
                    return Reply::Now(Err(
                        "\"finish\" not meaningful in the outermost level (no GOSUB, PROC or FN).".into(),
                    ));
                }
                self.go(
                    Mode::Finish { depth },
                    DEFAULT_BUDGET,
                    running,
                    "Run till exit from the routine\n".into(),
                )
            }
            "until" | "u" | "advance" if !rest.is_empty() => match Self::resolve(it, rest) {
                Ok((addr, what)) => {
                    self.breaks.push(Break {
                        id: 0,
                        addr,
                        what,
                        cond: None,
                        temporary: true,
                        enabled: true,
                        hits: 0,
                    });
                    self.rebuild_map(it);
                    self.go(Mode::Run, DEFAULT_BUDGET, running, String::new())
                }
                Err(e) => Reply::Now(Err(e)),
            },
            "until" | "u" => self.go(
                Mode::Until { depth, after: here },
                DEFAULT_BUDGET,
                running,
                String::new(),
            ),
            "continue" | "c" | "cont" => {
                let limit = if rest.is_empty() {
                    Ok(DEFAULT_BUDGET)
                } else {
                    count_arg(rest)
                };
                match limit {
                    Ok(n) => self.go(Mode::Run, n, running, String::new()),
                    Err(e) => Reply::Now(Err(e)),
                }
            }
            "run" | "r" => Reply::Restart("Starting the program again.\n".into(), Restart::Run),
            "reverse-step" | "rs" | "reverse-next" | "rn" => match count_arg(rest) {
                Ok(n) => Reply::Restart(String::new(), Restart::ReplayTo(self.count.saturating_sub(n))),
                Err(e) => Reply::Now(Err(e)),
            },
            "reverse-continue" | "rc" => Reply::Restart(String::new(), Restart::ScanTo(self.count)),
            _ => Reply::Now(self.query(it, word, modifier, rest, running)),
        }
    }

    /// Commands that look and change without running the program.
    fn query(
        &mut self,
        it: &mut Interp,
        word: &str,
        modifier: &str,
        rest: &str,
        running: bool,
    ) -> Result<String, String> {
        let here = it.pc_at_statement();
        match word {
            "break" | "b" | "br" | "tbreak" => {
                if rest.is_empty() {
                    return Err("break needs a location: LINE, LINE:STATEMENT, PROCname or FNname".into());
                }
                let (loc, cond) = split_condition(rest);
                let (addr, what) = Self::resolve(it, loc)?;
                let id = self.next_id;
                self.next_id += 1;
                let temporary = word == "tbreak";
                self.breaks.push(Break {
                    id,
                    addr,
                    what,
                    cond: cond.map(|c| (c.to_string(), expr_bytes(c))),
                    temporary,
                    enabled: true,
                    hits: 0,
                });
                self.rebuild_map(it);
                let kind = if temporary {
                    "Temporary breakpoint"
                } else {
                    "Breakpoint"
                };
                let cond = cond.map(|c| format!(" if {c}")).unwrap_or_default();
                Ok(format!(
                    "{kind} {id} at {}{cond}: {}\n",
                    it.position(addr),
                    it.statement_text(addr)
                ))
            }
            "watch" => {
                if rest.is_empty() {
                    return Err("watch needs a variable or expression".into());
                }
                let id = self.next_id;
                self.next_id += 1;
                let bytes = expr_bytes(rest);
                let last = Self::watch_value(it, &bytes);
                let now = last.clone().unwrap_or_else(|| "(no such variable)".into());
                self.watches.push(Watch {
                    id,
                    expr: rest.to_string(),
                    bytes,
                    last,
                    hits: 0,
                });
                Ok(format!("Watchpoint {id}: {rest} (now {now})\n"))
            }
            "delete" | "d" | "enable" | "disable" => {
                let ids: Vec<u32> = if rest.is_empty() {
                    self.breaks
                        .iter()
                        .map(|b| b.id)
                        .chain(self.watches.iter().map(|w| w.id))
                        .collect()
                } else {
                    vec![
                        rest.parse()
                            .map_err(|_| format!("`{rest}` is not a breakpoint number"))?,
                    ]
                };
                let known = |c: &Control, id: u32| {
                    c.breaks.iter().any(|b| b.id == id) || c.watches.iter().any(|w| w.id == id)
                };
                if let Some(&bad) = ids.iter().find(|&&id| !known(self, id)) {
                    return Err(format!("No breakpoint number {bad}."));
                }
                match word {
                    "delete" | "d" => {
                        self.breaks.retain(|b| !ids.contains(&b.id));
                        self.watches.retain(|w| !ids.contains(&w.id));
                    }
                    w => {
                        for b in self.breaks.iter_mut().filter(|b| ids.contains(&b.id)) {
                            b.enabled = w == "enable";
                        }
                    }
                }
                self.rebuild_map(it);
                Ok(String::new())
            }
            "print" | "p" | "output" => {
                if rest.is_empty() {
                    return Err("print needs an expression".into());
                }
                let v = it.debug_eval(&expr_bytes(rest))?;
                Ok(match (modifier, &v) {
                    ("x", super::super::value::Val::Int(i)) => format!("{rest} = &{:X}\n", *i as u32),
                    _ => format!("{rest} = {}\n", show_val(&v)),
                })
            }
            "set" => {
                let text = rest.strip_prefix("var ").unwrap_or(rest).trim();
                if !text.contains('=') {
                    return Err("set needs VARIABLE=EXPRESSION".into());
                }
                it.debug_assign(&crate::tokenize::tokenize_line(
                    text.as_bytes(),
                    crate::tokenize::Mode::Strict,
                ))?;
                Ok(String::new())
            }
            "display" => {
                if rest.is_empty() {
                    return Ok(self.displays_text(it));
                }
                let id = self.next_id;
                self.next_id += 1;
                self.displays.push((id, rest.to_string(), expr_bytes(rest)));
                let last = self.displays.len() - 1;
                let (id, text, bytes) = self.displays[last].clone();
                let v = it
                    .debug_eval(&bytes)
                    .map(|v| show_val(&v))
                    .unwrap_or_else(|e| format!("<{e}>"));
                Ok(format!("{id}: {text} = {v}\n"))
            }
            "undisplay" => {
                let id: u32 = rest
                    .parse()
                    .map_err(|_| format!("`{rest}` is not a display number"))?;
                let before = self.displays.len();
                self.displays.retain(|d| d.0 != id);
                if self.displays.len() == before {
                    return Err(format!("No display number {id}."));
                }
                Ok(String::new())
            }
            "backtrace" | "bt" | "where" => Ok(it.backtrace_text()),
            "list" | "l" => {
                let line = if rest.is_empty() {
                    None
                } else {
                    Some(
                        rest.parse()
                            .map_err(|_| format!("`{rest}` is not a line number"))?,
                    )
                };
                Ok(it.listing_text(line, here))
            }
            "tokens" => {
                let line = if rest.is_empty() {
                    None
                } else {
                    Some(
                        rest.parse()
                            .map_err(|_| format!("`{rest}` is not a line number"))?,
                    )
                };
                it.tokens_text(line, here)
            }
            "x" => {
                let n: usize = match modifier.trim_end_matches('b') {
                    "" => 16,
                    m => m.parse().map_err(|_| format!("`{m}` is not a count"))?,
                };
                let v = if rest.is_empty() {
                    Ok(super::super::value::Val::Int(0))
                } else {
                    it.debug_eval(&expr_bytes(rest))
                }?;
                let a = match v {
                    super::super::value::Val::Int(i) => i as u32 as usize,
                    super::super::value::Val::Float(f) if f >= 0.0 => f as usize,
                    _ => return Err("Type mismatch: x needs an address".into()),
                };
                // Below PAGE is an offset into the program (PAGE+0 is its first byte).
                let a = if a < self.page { self.page + a } else { a };
                it.memory_text(a, n.min(4096))
            }
            "info" | "i" => self.info(it, rest, running),
            "echo" => Ok(format!("{rest}\n")),
            "help" | "h" => Ok(HELP.to_string()),
            _ => Err(format!("Undefined command: \"{word}\".  Try \"help\".")),
        }
    }

    fn info(&mut self, it: &mut Interp, what: &str, running: bool) -> Result<String, String> {
        let (what, arg) = what.split_once(char::is_whitespace).unwrap_or((what, ""));
        match what {
            "breakpoints" | "break" | "b" | "watchpoints" => {
                let mut out = String::new();
                if self.breaks.iter().all(|b| b.id == 0) && self.watches.is_empty() {
                    return Ok("No breakpoints or watchpoints.\n".into());
                }
                for b in self.breaks.iter().filter(|b| b.id != 0) {
                    let cond = b
                        .cond
                        .as_ref()
                        .map(|c| format!(" if {}", c.0))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "{} {}breakpoint at {} ({}){cond}, {}, hit {} time(s)",
                        b.id,
                        if b.temporary { "temporary " } else { "" },
                        b.what,
                        it.position(b.addr),
                        if b.enabled { "enabled" } else { "disabled" },
                        b.hits
                    );
                }
                for w in &self.watches {
                    let _ = writeln!(
                        out,
                        "{} watchpoint on {}, changed {} time(s)",
                        w.id, w.expr, w.hits
                    );
                }
                Ok(out)
            }
            "locals" => Ok(it.locals_text()),
            "variables" | "vars" => Ok(it.variables_text()),
            "stack" => Ok(it.stack_text()),
            "frame" | "program" => {
                let mut out = String::new();
                if running {
                    out.push_str(&Self::location(it, it.pc_at_statement()));
                } else {
                    out.push_str("The program is not running.\n");
                }
                let (err, erl, report) = it.last_error();
                let _ = writeln!(out, "statements run: {}", self.count);
                let _ = writeln!(out, "ERR={err} ERL={erl} REPORT$=\"{report}\"");
                let _ = writeln!(
                    out,
                    "call depth {} (GOSUB, PROC and FN), control stack {} entries",
                    it.call_depth(),
                    it.stack_depth()
                );
                Ok(out)
            }
            "vdu" => {
                let n = if arg.is_empty() {
                    10
                } else {
                    arg.trim()
                        .parse()
                        .map_err(|_| format!("`{arg}` is not a count"))?
                };
                Ok(it.vdu_text(n))
            }
            "display" => Ok(self.displays_text(it)),
            "error" => Ok(match &self.last_error {
                Some(r) => format!(
                    "{} (ERR={}) raised at {}\n",
                    r.error.message,
                    r.error.number,
                    it.position(r.at)
                ),
                None => "No error has been raised.\n".into(),
            }),
            _ => Err(format!("Undefined info command: \"{what}\".  Try \"help\".")),
        }
    }

    /// Statements begun since the program started.
    pub fn count(&self) -> u64 {
        self.count
    }
}

impl Interp {
    /// The statement pointer where the current statement starts (after spaces).
    pub(super) fn pc_at_statement(&self) -> usize {
        let mut p = self.pc;
        while self.at(p) == b' ' {
            p += 1;
        }
        p
    }

    /// The first statement of `DEF PROCname`/`DEF FNname`'s body (for a one-line FN, its `=`).
    fn routine_body(&self, kind: u8, name: &[u8]) -> Option<usize> {
        for &(_, start) in &self.lines {
            let end = start + self.mem[start + 3] as usize;
            let mut p = start + 4;
            while p < end && self.mem[p] == b' ' {
                p += 1;
            }
            if self.mem.get(p) != Some(&tok::DEF) {
                continue;
            }
            p += 1;
            while self.at(p) == b' ' {
                p += 1;
            }
            if self.at(p) != kind {
                continue;
            }
            p += 1;
            let mut e = p;
            while tok::is_word(self.at(e)) {
                e += 1;
            }
            if &self.mem[p..e] != name {
                continue;
            }
            // Past the formal parameters.
            if self.at(e) == b'(' {
                while !matches!(self.at(e), b')' | 0x0D) {
                    e += 1;
                }
                if self.at(e) == b')' {
                    e += 1;
                }
            }
            loop {
                match self.at(e) {
                    b' ' | b':' => e += 1,
                    0x0D if e + 4 < self.top && self.at(e + 1) != 0xFF => e += 4,
                    _ => break,
                }
            }
            return Some(e);
        }
        None
    }
}

const HELP: &str = "\
Commands (gdb's names; docs/debugging-basic.md):
  break LINE[:STATEMENT] | PROCname | FNname [if CONDITION]   tbreak, delete [N], enable, disable
  watch EXPRESSION          stop when its value changes (or the variable appears)
  run, continue [N], step [N], next, finish, until [LINE], advance LINE
  reverse-step [N], reverse-continue
  print[/x] EXPRESSION, set VARIABLE=EXPRESSION, display EXPRESSION, undisplay N
  backtrace, list [LINE], tokens [LINE], x[/N] ADDRESS (below PAGE: from PAGE)
  info variables|locals|stack|frame|vdu [N]|breakpoints|display|error
  echo TEXT, help, quit
";
