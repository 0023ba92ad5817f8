//! `retro debug prog.bas`: a C64 BASIC program under the debugger ([`CbmDebugger`]), offered to
//! the front end as a [`Debuggable`] machine with the Z80 debugger's command language in BASIC's
//! words (docs/debugging-basic.md).
//!
//! The interpreter already runs statement by statement (`run_slice`), and a statement never
//! nests on the Rust stack (DEF FN is an expression), so the debugger drives it one statement at
//! a time on the caller's thread and looks at the next statement between two. Virtual time is
//! the machine's: a jiffy is [`STATEMENTS_PER_JIFFY`] statements (fewer when GET polls an empty
//! buffer, or none when INPUT waits), and each jiffy the keyboard interrupt takes one key into
//! the buffer at 631. Keys (scripted, or typed in the terminal while the program runs) are kept
//! with the jiffy they arrive at, so going back replays them exactly.
//!
//! Going back: a checkpoint of the whole state every [`CHECKPOINT_EVERY`] statements
//! (the kit's history); `reverse-step N` restores the one before the target and runs forward quietly.

mod commands;
mod views;

#[cfg(test)]
mod tests;

use retro_machine::basic_machine::BasicMachine;
use retro_machine::debug::basic::changes::{Change, Changes};
use retro_machine::debug::basic::history::{self, Checkpoint, History, MAX_BYTES, Reach};
use retro_machine::debug::basic::linetrace::LineTrace;
use retro_machine::debug::basic::location::resolve;
use retro_machine::debug::basic::points::Points;
use retro_machine::debug::{
    BreakpointInfo, Debuggable, Here, LastStop, Panel, PanelKind, RunLimit, StepKind, StopReason,
    watch_changed,
};
use retro_machine::{Key, KeyEvent, KeyEventKind};
use retro_screen::Frame;

use crate::c64::{self, keyboard};
use crate::interp::debug::{DebugValue, Snapshot};
use crate::interp::{BasicError, InputSource, Interp, Slice, Stop};
use crate::machine::{CbmMachine, ControlCodes, Options, STATEMENTS_PER_JIFFY, petscii_to_text};
use crate::program::Program;

/// A checkpoint every this many statements: going back runs at most this many forward again.
/// (Each copies 64 KiB: one every 20,000 statements costs the tightest loop, an empty FOR, a few
/// percent of its speed; going back replays at most 20,000, about a millisecond.)
pub const CHECKPOINT_EVERY: u64 = 20_000;
/// In the key list, RUN/STOP (Escape in a key script): PETSCII's STOP code, which no key types.
const RUN_STOP: u8 = 3;
/// What a GET that finds no key costs of the jiffy's budget, as in [`crate::machine`].
const POLL_COST: i64 = 1_000;

/// How the debugged program runs: what `retro run --headless` would give it.
#[derive(Clone, Debug, Default)]
pub struct DebugOptions {
    /// RND's seed, as `--seed`.
    pub seed: Option<i64>,
    /// Scripted key presses.
    pub keys: Vec<KeyEvent>,
    /// The directory device 8 reads and writes.
    pub disk: Option<std::path::PathBuf>,
}

/// What a run goes until.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// One statement.
    Step,
    /// Until a statement begins with at most this many GOSUBs waiting (over a GOSUB).
    Next(usize),
    /// Until a statement begins with fewer than this many GOSUBs waiting (to the RETURN).
    Finish(usize),
    /// Until a breakpoint, a watch, an error or the end.
    Run,
}

/// A command that runs the program, stopped at a jiffy's end in the terminal.
#[derive(Clone, Copy, Debug)]
struct UnderWay {
    mode: Mode,
    limit: RunLimit,
    /// The statement count when the command began.
    from: u64,
}

/// What a watch looks at.
#[derive(Clone, Debug)]
enum Watched {
    /// A simple variable's two name bytes: looked up in memory at each statement.
    Simple(u8, u8),
    /// An array element with whole-number subscripts: read from the array in memory.
    Element((u8, u8), Vec<usize>),
    /// Any other expression: evaluated (on a copy of the machine) at each statement.
    Expr,
}

/// How a watch looks at its variable or expression.
#[derive(Clone, Debug)]
struct Looks {
    what: Watched,
    /// A variable's or element's bytes when the watch's value was taken (None: it did not exist).
    bytes: Option<Vec<u8>>,
}

/// A condition is evaluated from its text: nothing more is kept.
type Points64 = Points<(), Looks>;

/// The machine's own state besides the interpreter's, kept in checkpoints.
#[derive(Clone, Debug, Default)]
struct Clock {
    /// Statements finished since RUN.
    count: u64,
    jiffies: u64,
    /// What is left of the jiffy's statements.
    budget: i64,
    /// The next key of [`CbmDebugger::keys`] the keyboard interrupt takes.
    key_next: usize,
    /// How the program ended, once it has.
    finished: Option<StopReason>,
}

/// A checkpoint: the clock, the interpreter's state, and whether the console was reading INPUT.
#[derive(Clone)]
struct Point {
    clock: Clock,
    snap: Snapshot,
    reading: bool,
}

impl Checkpoint for Point {
    fn count(&self) -> u64 {
        self.clock.count
    }
}

/// A C64 BASIC program under the debugger.
pub struct CbmDebugger {
    machine: CbmMachine,
    program: Program,
    options: DebugOptions,
    clock: Clock,
    /// Every key the program gets: the jiffy it arrives at, its PETSCII.
    keys: Vec<(u64, u8)>,
    points: Points64,
    history: History<Point>,
    /// Seconds of virtual time the history keeps (`set record limit`; None: only the memory bound).
    record_limit: Option<u64>,
    /// The user's assignments (`set`). Checkpoints after one are forgotten when the run goes
    /// back, so each is made again when a run reaches its statement: going back and forth
    /// keeps them.
    changes: Changes<Change<String>>,
    under_way: Option<UnderWay>,
    /// Where the last error was raised (TXTPTR when it stopped).
    error_at: Option<usize>,
    /// The variables view at the last command, to mark what changed.
    vars_before: Vec<String>,
    /// Text printed since the last `take_output`, as plain text.
    printed: String,
    /// `trace on`: the lines runs enter, with the program's text between them.
    line_trace: LineTrace,
    /// Where a bare `list` and a bare `x` go on from.
    listed: retro_machine::debug::GoOn,
    examined: retro_machine::debug::GoOn,
}

impl CbmDebugger {
    /// The program, stopped before its first statement.
    pub fn new(program: &Program, options: DebugOptions) -> Result<CbmDebugger, BasicError> {
        let machine = Self::power_on(program, &options)?;
        let keys = options
            .keys
            .iter()
            .filter(|e| e.kind == KeyEventKind::Press)
            .filter_map(|e| {
                let jiffy = e.at.as_micros() * 60 / 1_000_000;
                let code = match e.key {
                    Key::Escape => RUN_STOP,
                    k => keyboard::typed(k)?,
                };
                Some((jiffy, code))
            })
            .collect();
        let mut d = CbmDebugger {
            machine,
            program: program.clone(),
            options,
            clock: Clock {
                budget: i64::from(STATEMENTS_PER_JIFFY),
                ..Clock::default()
            },
            keys,
            points: Points::default(),
            history: History::new(usize::MAX),
            record_limit: Some(history::DEFAULT_LIMIT_SECONDS),
            changes: Changes::default(),
            under_way: None,
            error_at: None,
            vars_before: Vec::new(),
            printed: String::new(),
            line_trace: LineTrace::default(),
            listed: Default::default(),
            examined: Default::default(),
        };
        d.checkpoint();
        Ok(d)
    }

    fn power_on(program: &Program, options: &DebugOptions) -> Result<CbmMachine, BasicError> {
        let opts = Options {
            seed: options.seed,
            disk: options.disk.clone(),
            codes: ControlCodes::Omit,
            ready_after: false,
            glyphs: c64::Glyphs::Unicode,
            syntax_hint: None,
        };
        CbmMachine::new(program, InputSource::Keys, opts)
    }

    fn it(&self) -> &Interp {
        self.machine.interp_ref()
    }

    fn it_mut(&mut self) -> &mut Interp {
        self.machine.interp()
    }

    /// Statements finished since RUN.
    pub fn count(&self) -> u64 {
        self.clock.count
    }

    /// Up to `max` statements, stopping early before one that starts at an address of `stops`
    /// (never before the first), after a GET that found no key, at a wait for input (which
    /// ends the jiffy) and at the jiffy's end.
    fn advance(&mut self, max: u64, stops: &[usize]) -> Slice {
        let mut max = max;
        self.make_changes_due();
        if let Some(at) = self.changes.next_at() {
            // Stop before the statement of the next assignment, to make it there.
            max = max.min(at - self.clock.count);
        }
        let left = self.clock.budget.max(1) as u64;
        let max = max.min(left).min(u64::from(u32::MAX)) as u32;
        let it = self.machine.interp();
        it.idle_polls = 0;
        let (slice, done) = it.run_watched(max, stops);
        let polls = i64::from(it.idle_polls);
        self.clock.count += u64::from(done);
        self.clock.budget -= i64::from(done) + polls * POLL_COST;
        if slice == Slice::Waiting || self.clock.budget <= 0 {
            self.next_jiffy();
        }
        slice
    }

    /// The jiffy's interrupt: the clock moves, and one key goes into the buffer.
    fn next_jiffy(&mut self) {
        self.clock.jiffies += 1;
        self.clock.budget = i64::from(STATEMENTS_PER_JIFFY);
        let jiffies = self.clock.jiffies;
        let key = self
            .keys
            .get(self.clock.key_next)
            .filter(|&&(at, _)| at <= jiffies)
            .map(|&(_, k)| k);
        let it = self.machine.interp();
        it.set_jiffies(jiffies);
        match key {
            // The KERNAL's interrupt sees RUN/STOP held: BASIC stops at its next statement.
            Some(RUN_STOP) => {
                it.press_stop();
                self.clock.key_next += 1;
            }
            Some(k) if (it.mem[c64::mem::NDX] as usize) < 10 => {
                it.type_key(k);
                self.clock.key_next += 1;
            }
            _ => {}
        }
    }

    /// No key can come any more: the script's are all in the buffer and taken.
    fn keys_exhausted(&self) -> bool {
        self.clock.key_next >= self.keys.len() && self.it().mem[c64::mem::NDX] == 0
    }

    /// How a stop of the interpreter ends the run, in the C64's words (the screen shows them
    /// too, then READY.).
    fn stopped(&mut self, stop: Stop) -> StopReason {
        let reason = match &stop {
            Stop::End => StopReason::Exited(0),
            Stop::Break(_) => StopReason::Failed(stop.message()),
            other => {
                let at = self.it().txtptr();
                self.error_at = Some(at);
                StopReason::Failed(format!("{} (raised at ${at:04X})", other.message()))
            }
        };
        if let Stop::Break(_) = stop {
            // RUN/STOP: CONT carries on from here, so the debugger does.
            let _ = self.it_mut().cont();
            return reason;
        }
        let mut words = Vec::new();
        if stop != Stop::End {
            words.push(13);
            words.extend_from_slice(stop.message().as_bytes());
        }
        words.extend_from_slice(b"\rREADY.\r");
        let it = self.machine.interp();
        for b in words {
            it.console.chrout(&mut it.mem, b);
        }
        self.clock.finished = Some(reason.clone());
        reason
    }

    /// Whether the program may stop before its next statement (in `mode`, for a command that
    /// began at statement `from`), and why.
    fn stop_before(&mut self, mode: Mode, from: u64) -> Option<StopReason> {
        let done = match mode {
            Mode::Step => self.clock.count > from,
            Mode::Next(depth) => self.clock.count > from && self.it().gosub_depth() <= depth,
            Mode::Finish(depth) => self.it().gosub_depth() < depth,
            Mode::Run => false,
        };
        if let Some(stop) = self.check_breaks() {
            // A change on this statement is part of this stop, not reported at the next.
            self.refresh_watches();
            return Some(stop);
        }
        if let Some(stop) = self.check_watches(true) {
            return Some(stop);
        }
        done.then_some(StopReason::Done)
    }

    /// The breakpoints on the next statement whose conditions hold (their hits counted;
    /// temporary ones go).
    fn check_breaks(&mut self) -> Option<StopReason> {
        let (addr, holding) = self.breaks_holding()?;
        for &i in &holding {
            self.points.breaks[i].hits += 1;
        }
        // An ignore count passes the hit (counted) without a stop.
        let holding: Vec<usize> = holding.into_iter().filter(|&i| !self.points.passes(i)).collect();
        if holding.is_empty() {
            return None;
        }
        let breaks = &mut self.points.breaks;
        let hit: Vec<u32> = holding
            .iter()
            .map(|&i| breaks[i].id)
            .filter(|&id| id != 0)
            .collect();
        breaks.retain(|b| !(b.temporary && b.addr == addr));
        Some(if hit.is_empty() {
            StopReason::Done
        } else {
            StopReason::Breakpoint(hit)
        })
    }

    /// The next statement's address and the enabled breakpoints there whose conditions hold
    /// (`until`'s included), if there are any.
    fn breaks_holding(&mut self) -> Option<(usize, Vec<usize>)> {
        if self.points.breaks.is_empty() {
            return None;
        }
        let addr = self.it().next_statement()?.addr;
        let mut holding = Vec::new();
        for i in 0..self.points.breaks.len() {
            let b = &self.points.breaks[i];
            if !b.enabled || b.addr != addr {
                continue;
            }
            if let Some((c, ())) = b.cond.clone()
                && !self.condition_holds(&c)
            {
                continue;
            }
            holding.push(i);
        }
        (!holding.is_empty()).then_some((addr, holding))
    }

    /// A condition holds when its value is not 0 (an error stops, so the user sees it).
    fn condition_holds(&mut self, cond: &str) -> bool {
        match self.it_mut().debug_eval(cond) {
            Ok(DebugValue::Num(f)) => !f.is_zero(),
            Ok(DebugValue::Str(_)) | Err(_) => true,
        }
    }

    /// The watches whose values changed since the last statement (each takes its new value):
    /// the stop they make, their hits counted when `counting` (a forward run; not a replay).
    fn check_watches(&mut self, counting: bool) -> Option<StopReason> {
        if self.points.watches.is_empty() {
            return None;
        }
        let mut hit = Vec::new();
        let mut what = String::new();
        for i in 0..self.points.watches.len() {
            if !self.points.watches[i].enabled {
                continue;
            }
            if self.same_bytes(i) {
                continue;
            }
            let now = self.watch_value(i);
            let w = &mut self.points.watches[i];
            if let Some(report) = watch_changed(&w.expr, &mut w.last, now) {
                // `watch EXPR if COND`: the change is seen (the value taken), but stops only
                // when COND holds.
                if let Some(c) = w.cond.clone()
                    && !self.condition_holds(&c)
                {
                    continue;
                }
                let w = &mut self.points.watches[i];
                if !what.is_empty() {
                    what.push('\n');
                }
                what += &report;
                if counting {
                    w.hits += 1;
                }
                hit.push(w.id);
            }
        }
        (!hit.is_empty()).then_some(StopReason::Watchpoint(hit, what))
    }

    /// Where a variable or element watch's value is now (None: it does not exist).
    fn watch_place(&self, i: usize) -> Option<views::Place> {
        match &self.points.watches[i].how.what {
            Watched::Simple(n1, n2) => views::simple_place(self.it(), *n1, *n2),
            Watched::Element(name, subs) => views::element_place(self.it(), *name, subs),
            Watched::Expr => None,
        }
    }

    /// Whether a variable or element watch's bytes are those its value was taken from (then
    /// the value is too, and is not formatted again).
    fn same_bytes(&self, i: usize) -> bool {
        let w = &self.points.watches[i].how;
        if matches!(w.what, Watched::Expr) {
            return false;
        }
        match (self.watch_place(i), &w.bytes) {
            (None, None) => true,
            (Some(p), Some(seen)) => {
                let (value, text) = p.bytes(self.it());
                seen.len() == value.len() + text.len()
                    && seen[..value.len()] == *value
                    && seen[value.len()..] == *text
            }
            _ => false,
        }
    }

    /// A watch's value now (None: the variable does not exist, or the expression fails); a
    /// variable's or element's bytes are kept with it.
    fn watch_value(&mut self, i: usize) -> Option<String> {
        if matches!(self.points.watches[i].how.what, Watched::Expr) {
            let e = self.points.watches[i].expr.clone();
            return self.it_mut().debug_eval(&e).ok().map(|v| views::show_value(&v));
        }
        let place = self.watch_place(i);
        let bytes = place.map(|p| {
            let (value, text) = p.bytes(self.it());
            [value, text].concat()
        });
        self.points.watches[i].how.bytes = bytes;
        place.map(|p| p.value(self.it()))
    }

    /// Every watch takes the value it has now (after a jump in time, or a stop that did not
    /// look at them).
    fn refresh_watches(&mut self) {
        for i in 0..self.points.watches.len() {
            self.points.watches[i].last = self.watch_value(i);
        }
    }

    /// Runs in `mode` until it stops, or the limit (the statements since `from`, or the jiffy's
    /// end) is reached. `fresh`: a new command, which first steps off where it stands.
    fn go(&mut self, mode: Mode, limit: RunLimit, from: u64, fresh: bool) -> StopReason {
        self.under_way = None;
        if let Some(f) = &self.clock.finished {
            return f.clone();
        }
        let jiffy = self.clock.jiffies;
        let mut first = fresh;
        loop {
            // A stop at the statement the user changed something before shows the change (and
            // a watch sees it), as going back to it does.
            self.make_changes_due();
            if !first && let Some(stop) = self.stop_before(mode, from) {
                return stop;
            }
            first = false;
            match limit {
                RunLimit::Steps(n) if self.clock.count - from >= n => return StopReason::Limit,
                RunLimit::Frame(n) if self.clock.jiffies != jiffy || self.clock.count - from >= n => {
                    self.under_way = Some(UnderWay { mode, limit, from });
                    return StopReason::Limit;
                }
                _ => {}
            }
            // With nothing to look at between statements but breakpoints, the interpreter runs
            // on to the next breakpoint's statement, the next checkpoint, the jiffy's end or
            // the limit; otherwise one statement at a time.
            if self.line_trace.on() {
                self.trace_line();
            }
            let max = if mode == Mode::Run && self.points.watches.is_empty() && !self.line_trace.on() {
                let mut max = CHECKPOINT_EVERY - self.clock.count % CHECKPOINT_EVERY;
                let (RunLimit::Steps(n) | RunLimit::Frame(n)) = limit;
                max = max.min(n.saturating_sub(self.clock.count - from).max(1));
                max
            } else {
                1
            };
            let stops: Vec<usize> = self
                .points
                .breaks
                .iter()
                .filter(|b| b.enabled)
                .map(|b| b.addr)
                .collect();
            let before = self.clock.count;
            let slice = self.advance(max, &stops);
            let polled = self.it().idle_polls > 0;
            match slice {
                Slice::Stopped(stop) => return self.stopped(stop),
                _ if (slice == Slice::Waiting || polled)
                    && matches!(limit, RunLimit::Steps(_))
                    && self.keys_exhausted() =>
                {
                    // A batch run: the key script has no more for the INPUT waiting or the
                    // GET that found none (in the terminal the user may still type one).
                    return StopReason::Failed(
                        "the program waits for a key and the key script has no more".into(),
                    );
                }
                _ => {}
            }
            if self.clock.count != before && self.clock.count.is_multiple_of(CHECKPOINT_EVERY) {
                self.checkpoint();
            }
        }
    }

    /// `trace on`: the next statement is about to run; if it begins a line, the line's entry
    /// goes after what the program printed so far (into the debugger's stream, never onto the
    /// C64's screen).
    fn trace_line(&mut self) {
        if let Some(n) = self
            .it()
            .next_statement()
            .filter(|s| s.starts_line)
            .and_then(|s| s.line)
        {
            let bytes = self.machine.take_petscii();
            let mut printed = String::new();
            petscii_to_text(&bytes, ControlCodes::Omit, &mut printed);
            self.line_trace.program(&printed);
            self.line_trace.entered(u32::from(n));
        }
    }

    fn checkpoint(&mut self) {
        let snap = match self.trim_history() {
            Some(Point { snap: mut old, .. }) => {
                self.it().snapshot_into(&mut old);
                old
            }
            None => self.it().snapshot(),
        };
        let reading = self.machine.console_reading();
        self.history.push(Point {
            clock: self.clock.clone(),
            snap,
            reading,
        });
    }

    /// `trace N`: the last N statements run (as many as the history reaches), each as a stop
    /// shows it: going back N statements, then forward again one at a time to here, quietly.
    pub(super) fn trace(&mut self, n: u64) -> String {
        let now = self.clock.count;
        let mut out = String::new();
        // Past the oldest checkpoint, from the oldest (travel_to goes there).
        self.travel_to(now.saturating_sub(n));
        while self.clock.count < now && self.clock.finished.is_none() {
            let here = self.here();
            out.push_str(&format!("{}  {}", here.describe, here.next));
            if let Slice::Stopped(stop) = self.advance(1, &[]) {
                self.stopped(stop);
            }
            if self.clock.count.is_multiple_of(CHECKPOINT_EVERY) {
                self.checkpoint();
            }
        }
        self.make_changes_due();
        self.machine.take_petscii();
        out
    }

    /// Drops the oldest checkpoints the history no longer needs before a new one is taken: while
    /// the one after the oldest is itself at least the record limit back (so the window always
    /// holds the limit's virtual time), or the checkpoints would take more than [`MAX_BYTES`].
    /// Gives the last one dropped, whose buffers the new checkpoint reuses.
    fn trim_history(&mut self) -> Option<Point> {
        let now = self.clock.jiffies;
        let mut spare = None;
        while self.history.len() > 1 {
            let second = self.history.get(1).map_or(now, |p| p.clock.jiffies);
            let old_enough = self
                .record_limit
                .is_some_and(|s| now.saturating_sub(second) >= s * u64::from(Self::FRAME_HZ));
            let too_big = (self.history.len() + 1) * self.point_bytes() > MAX_BYTES;
            if !old_enough && !too_big {
                break;
            }
            spare = self.history.pop_oldest();
        }
        spare
    }

    /// What a checkpoint takes: the 64 KiB (and the guard bytes past it) and the state beside.
    fn point_bytes(&self) -> usize {
        self.history.get(0).map_or(0x10000, |p| p.snap.mem().len()) + std::mem::size_of::<Point>()
    }

    /// `info record`: how far back `reverse-step` and `reverse-continue` reach.
    pub(super) fn record_info(&self) -> String {
        let Some(oldest) = self.history.get(0) else {
            return "Reverse history is empty.\n".into();
        };
        let frames = self.clock.jiffies - oldest.clock.jiffies;
        Reach {
            back: self.clock.count - oldest.clock.count,
            oldest: oldest.clock.count,
            unit: "statements",
            frames,
            seconds: frames as f64 / f64::from(Self::FRAME_HZ),
            checkpoints: self.history.len(),
            bytes: self.history.len() * self.point_bytes(),
            limit: self.record_limit,
        }
        .text()
    }

    /// `set record limit SECONDS`: the virtual time the history keeps (`unlimited`: only
    /// [`MAX_BYTES`]); a shorter limit drops what is older now.
    pub(super) fn set_record_limit(&mut self, arg: &str) -> Result<String, String> {
        self.record_limit = history::parse_limit(arg)?;
        self.trim_history();
        Ok(String::new())
    }

    /// Back to statement `to` (or the oldest one kept): restores the checkpoint before it and
    /// runs forward with no breakpoints or watches; what it prints is not shown again.
    fn travel_to(&mut self, to: u64) -> bool {
        let Some(point) = self.history.at_or_before(to) else {
            return false;
        };
        let reached = point.clock.count;
        self.clock = point.clock.clone();
        self.machine.interp().restore(&point.snap);
        let reading = point.reading;
        self.changes.rewind(self.clock.count);
        self.machine.set_console_reading(reading);
        while self.clock.count < to && self.clock.finished.is_none() {
            if let Slice::Stopped(stop) = self.advance(to - self.clock.count, &[]) {
                self.stopped(stop);
            }
        }
        // Arriving where the user assigned: as it was then, after the assignment.
        self.make_changes_due();
        self.machine.take_petscii();
        self.history.forget_after(self.clock.count);
        reached <= to
    }

    /// The latest statement before `to` where a forward run would have stopped at a user's
    /// breakpoint (its condition holding) or a watch, and what it would have reported: a replay
    /// from the oldest checkpoint, looking at every statement as `continue` does (with no
    /// watch set, running on to the next breakpoint's statement between looks).
    fn last_stop_before(&mut self, to: u64) -> Option<(u64, StopReason)> {
        let oldest = self.history.oldest()?;
        self.travel_to(oldest);
        self.refresh_watches();
        let watching = self.points.watching();
        let stops: Vec<usize> = self
            .points
            .breaks
            .iter()
            .filter(|b| b.enabled && b.id != 0)
            .map(|b| b.addr)
            .collect();
        let mut last = LastStop::default();
        while self.clock.count < to && self.clock.finished.is_none() {
            let count = self.clock.count;
            if let Some((_, holding)) = self.breaks_holding() {
                let ids: Vec<u32> = holding
                    .iter()
                    .map(|&i| self.points.breaks[i].id)
                    .filter(|&id| id != 0)
                    .collect();
                if !ids.is_empty() {
                    last.note(count, StopReason::Breakpoint(ids));
                }
            }
            if let Some(stop) = self.check_watches(false) {
                last.note(count, stop);
            }
            let max = if watching { 1 } else { to - count };
            if let Slice::Stopped(stop) = self.advance(max, &stops) {
                self.stopped(stop);
            }
        }
        self.machine.take_petscii();
        last.get().cloned()
    }

    /// Makes the user's assignments that were made before the current statement (and passes
    /// over any the clock is past).
    fn make_changes_due(&mut self) {
        let count = self.clock.count;
        if self.changes.next_at().is_none_or(|at| at > count) {
            return;
        }
        let due: Vec<Change<String>> = self.changes.due(count).into_iter().cloned().collect();
        for change in due {
            match change {
                // It worked the first time, on the same state.
                Change::Assign(a) => {
                    let _ = self.it_mut().debug_assign(&a);
                }
                Change::Memory(at, bytes) => self.poke(at, &bytes),
            }
        }
    }

    /// Bytes into C64 memory from `at` (the caller checked they fit).
    pub(super) fn poke(&mut self, at: usize, bytes: &[u8]) {
        if let Some(to) = self.it_mut().mem.get_mut(at..at + bytes.len()) {
            to.copy_from_slice(bytes);
        }
    }

    /// The user assigned (`set`) or loaded memory (`load`) before the current statement: an
    /// event of the run from now on. The future the checkpoints after now recorded is no longer
    /// this one: they are dropped, and replays make the change again at this statement.
    pub(super) fn record_change(&mut self, change: Change<String>) {
        self.history.forget_after(self.clock.count);
        self.changes.record(self.clock.count, change);
    }

    /// The latest statement before `to` run with at most `depth` GOSUBs under way (`fewer`:
    /// fewer than `depth`): where `reverse-next` (over a GOSUB that returned) and
    /// `reverse-finish` (to the GOSUB itself) go. A replay from the oldest checkpoint.
    fn last_at_depth_before(&mut self, to: u64, depth: usize, fewer: bool) -> Option<u64> {
        let oldest = self.history.oldest()?;
        self.travel_to(oldest);
        let mut last = None;
        while self.clock.count < to && self.clock.finished.is_none() {
            let d = self.it().gosub_depth();
            if d < depth || (!fewer && d == depth) {
                last = Some(self.clock.count);
            }
            if let Slice::Stopped(stop) = self.advance(1, &[]) {
                self.stopped(stop);
            }
        }
        self.machine.take_petscii();
        last
    }

    /// The screen as the VIC-II shows it.
    pub fn c64_screen(&self) -> Frame {
        c64::frame(&self.it().mem, true, c64::Glyphs::Unicode)
    }
}

impl Debuggable for CbmDebugger {
    fn prompt(&self) -> &str {
        "c64"
    }

    fn step(&mut self, kind: StepKind, limit: RunLimit) -> StopReason {
        let depth = self.it().gosub_depth();
        let mode = match kind {
            StepKind::Into => Mode::Step,
            StepKind::Over => Mode::Next(depth),
            // Outside any GOSUB there is nothing to return from: one statement, over.
            StepKind::Out if depth == 0 => Mode::Next(depth),
            StepKind::Out => Mode::Finish(depth),
        };
        let limit = match (mode, limit) {
            (Mode::Step, RunLimit::Steps(_)) => RunLimit::Steps(u64::MAX),
            (_, l) => l,
        };
        let from = self.clock.count;
        self.go(mode, limit, from, true)
    }

    fn run(&mut self, limit: RunLimit) -> StopReason {
        let from = self.clock.count;
        self.go(Mode::Run, limit, from, true)
    }

    fn run_to(&mut self, location: &str, limit: RunLimit) -> Result<StopReason, String> {
        let (addr, what) = resolve(self.it(), location)?;
        self.points.add_until(addr, what);
        let stop = self.run(limit);
        if self.under_way.is_none() {
            self.points.forget_until();
        }
        Ok(stop)
    }

    fn restart(&mut self) {
        match Self::power_on(&self.program, &self.options) {
            Ok(m) => self.machine = m,
            Err(_) => return,
        }
        self.clock = Clock {
            budget: i64::from(STATEMENTS_PER_JIFFY),
            ..Clock::default()
        };
        // Keys the user typed stay where they were typed; the script's are all still there.
        self.history.clear();
        // The user's assignments belonged to the run before.
        self.changes.clear();
        self.error_at = None;
        self.under_way = None;
        self.refresh_watches();
        self.checkpoint();
    }

    fn reverse_step(&mut self, count: u64) -> Result<StopReason, String> {
        self.under_way = None;
        let too_far = count > self.clock.count;
        let to = self.clock.count.saturating_sub(count);
        let exact = self.travel_to(to) && self.clock.count == to && !too_far;
        self.refresh_watches();
        Ok(if exact {
            StopReason::Done
        } else {
            StopReason::HistoryStart
        })
    }

    fn reverse(&mut self, kind: StepKind, count: u64) -> Result<StopReason, String> {
        let Some(fewer) = retro_machine::debug::reverse_by_depth(kind, count)? else {
            return self.reverse_step(count);
        };
        self.under_way = None;
        for _ in 0..count.max(1) {
            let depth = self.it().gosub_depth();
            if fewer && depth == 0 {
                return Err(retro_machine::debug::OUTERMOST_REVERSE_FINISH.into());
            }
            let now = self.clock.count;
            match self.last_at_depth_before(now, depth, fewer) {
                Some(at) => {
                    self.travel_to(at);
                }
                None => {
                    let oldest = self.history.oldest().unwrap_or(0);
                    self.travel_to(oldest);
                    self.refresh_watches();
                    return Ok(StopReason::HistoryStart);
                }
            }
        }
        self.refresh_watches();
        Ok(StopReason::Done)
    }

    fn reverse_continue(&mut self, _limit: RunLimit) -> Result<StopReason, String> {
        self.under_way = None;
        let now = self.clock.count;
        let stop = match self.last_stop_before(now) {
            Some((at, stop)) => {
                self.travel_to(at);
                self.points.count_hits(&stop);
                stop
            }
            None => {
                let oldest = self.history.oldest().unwrap_or(0);
                self.travel_to(oldest);
                StopReason::HistoryStart
            }
        };
        self.refresh_watches();
        Ok(stop)
    }

    fn under_way(&self) -> bool {
        self.under_way.is_some()
    }

    fn resume(&mut self) -> StopReason {
        match self.under_way.take() {
            Some(u) => self.go(u.mode, u.limit, u.from, false),
            None => StopReason::Done,
        }
    }

    fn interrupt(&mut self) {
        self.under_way = None;
        self.points.forget_until();
    }

    fn user_key(&mut self, key: Key, kind: KeyEventKind) {
        if kind != KeyEventKind::Press {
            return;
        }
        if let Some(p) = keyboard::typed(key) {
            // After the keys already due, at the jiffy the program is in.
            let at = self.clock.jiffies;
            let i = self
                .keys
                .partition_point(|&(t, _)| t <= at)
                .max(self.clock.key_next);
            self.keys.insert(i, (at, p));
        }
    }

    fn break_at(
        &mut self,
        location: &str,
        condition: Option<&str>,
        temporary: bool,
    ) -> Result<(u32, String), String> {
        let (addr, what) = resolve(self.it(), location)?;
        if let Some(c) = condition {
            // It must at least evaluate now.
            self.it_mut().debug_eval(c)?;
        }
        let at = format!("{what} ${addr:04X}: {}", views::statement_text(self.it(), addr));
        let cond = condition.map(|c| (c.trim().to_string(), ()));
        Ok((self.points.add_break(addr, what, cond, temporary), at))
    }

    fn delete_breakpoint(&mut self, id: Option<u32>) -> bool {
        self.points.delete(id)
    }

    fn enable_breakpoint(&mut self, id: Option<u32>, enabled: bool) -> bool {
        self.points.enable(id, enabled)
    }

    fn set_condition(&mut self, id: u32, condition: Option<&str>) -> Result<(), String> {
        self.points.break_mut(id)?.cond = condition.map(|c| (c.trim().to_string(), ()));
        Ok(())
    }

    fn set_ignore(&mut self, id: u32, count: u64) -> Result<(), String> {
        self.points.set_ignore(id, count)
    }

    fn display(&self, format: &str, expr: &str) -> Option<Result<String, String>> {
        // `display/FMT EXPR` shows what `print/FMT EXPR` does; a plain one, the value.
        (!format.is_empty()).then(|| commands::show(self, format, expr))
    }

    fn breakpoints(&self) -> Vec<BreakpointInfo> {
        self.points
            .info(|b| format!("${:04X} {}", b.addr, views::statement_text(self.it(), b.addr)))
    }

    fn breakpoints_here(&self) -> Vec<u32> {
        match self.it().next_statement() {
            Some(next) => self.points.ids_at(next.addr),
            None => Vec::new(),
        }
    }

    fn frame_rate(&self) -> u32 {
        Self::FRAME_HZ
    }

    fn here(&self) -> Here {
        views::here(self.it(), self.clock.finished.as_ref())
    }

    fn evaluate(&self, expr: &str) -> Result<String, String> {
        views::evaluate_on(self.it(), expr).map(|v| views::show_value(&v))
    }

    fn panel(&self, kind: PanelKind, rows: usize) -> Option<Panel> {
        Some(views::panel(self, kind, rows))
    }

    fn screen(&self) -> Frame {
        self.c64_screen()
    }

    fn take_output(&mut self, out: &mut String) {
        let bytes = self.machine.take_petscii();
        petscii_to_text(&bytes, ControlCodes::Omit, &mut self.printed);
        // With `trace on`, the lines entered come in order with the program's text.
        self.line_trace.program(&std::mem::take(&mut self.printed));
        self.line_trace.take(out, self.under_way.is_none());
    }

    fn command(&mut self, line: &str, _limit: RunLimit) -> Option<Result<String, String>> {
        commands::command(self, line)
    }

    fn help(&self) -> &str {
        commands::HELP
    }

    fn completion_names(&self) -> Vec<String> {
        views::names(self.it())
    }

    fn before_command(&mut self) {
        self.under_way = None;
        self.line_trace.new_command();
        self.vars_before = views::variable_lines(self.it());
    }
}

impl BasicMachine for CbmDebugger {
    const NAME: &'static str = "Commodore 64 BASIC V2 (debugger)";
    const FRAME_HZ: u32 = 60;

    fn machine_key(&mut self, event: KeyEvent) {
        self.user_key(event.key, event.kind);
    }
}
