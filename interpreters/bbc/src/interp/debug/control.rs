//! [`Control`]: the debugger inside the interpreter's thread. It decides at each statement
//! whether to stop (a step count reached, a breakpoint, a watch that changed, an error, the end
//! of a routine, the end of a frame of virtual time), and while stopped it runs the jobs the
//! [`super::session::BbcDebugger`] sends it (each one call of the `Debuggable` trait).
//!
//! Going backwards replays: the interpreter is deterministic (virtual time, scripted keys, the
//! RND seed), so the state after statement N is rebuilt by running the program again from the
//! start to statement N with the debugger quiet. The session thread does the restarting;
//! `Control` says where to go.

use std::fmt::Write as _;
use std::sync::mpsc::{Receiver, Sender};

use retro_machine::debug::basic::changes::{Change, Changes};
use retro_machine::debug::basic::history::{MAX_BYTES, Reach, parse_limit};
use retro_machine::debug::basic::linetrace::LineTrace;
use retro_machine::debug::basic::location::{self, Locate};
use retro_machine::debug::basic::points::{Points, watch_set_words};
use retro_machine::debug::{BreakpointInfo, LastStop, StopReason, watch_changed};

use super::super::error::BasicError;
use super::super::value::Val;
use super::super::{Interp, Outcome, R, Stop, tok};
use super::views::show_val;

/// What runs the program between stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One statement at a time (`step`): the limit is the point.
    Step,
    /// Until a breakpoint, watch, error or the statement limit.
    Run,
    /// Until the call depth is at most `depth` (step over GOSUB, PROC and FN).
    Next { depth: usize },
    /// Until the call depth is below `depth` (the current routine has returned).
    Finish { depth: usize },
    /// To the statement limit, quietly (going backwards).
    Replay,
    /// To the statement limit, quietly, noting where breakpoints and watches would stop.
    Scan,
}

/// How the session thread should start the program again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Restart {
    /// Quietly to statement N (0: stopped before the first statement).
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
    Watch { id: u32, what: String },
    Error,
    Back,
}

/// Breakpoints (their conditions tokenized) and watches (their expressions tokenized).
pub(crate) type BbcPoints = Points<Vec<u8>, Vec<u8>>;

/// An error as it was raised.
#[derive(Clone)]
pub(crate) struct Raised {
    pub(crate) error: BasicError,
    pub(crate) at: usize,
}

impl Raised {
    /// What the program would see (ERR, ERL) and the byte it was raised at: the one wording of
    /// stops, the end of a run and `info error`.
    pub(crate) fn where_words(&self, it: &Interp) -> String {
        format!(
            "ERR={}, ERL={}, raised at {}",
            self.error.number,
            it.line_of(self.at),
            it.position(self.at)
        )
    }
}

/// What a job asks of the session after it ran.
pub(crate) enum Act {
    /// Stay stopped and take the next job.
    Stay,
    /// Run the program (its answer comes at the next stop).
    Go,
    /// Start the program again (its answer comes at the stop the restart goes to).
    Restart(Restart),
}

/// A call from the debugger's side, run on the interpreter's thread while the program is
/// stopped. `bool`: whether the program is still running (false once it has ended).
pub(crate) type Job = Box<dyn FnOnce(&mut Control, &mut Interp, bool) -> Act + Send>;

/// What the session thread learns from a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Served {
    Resume,
    Stop,
}

/// The debugger's state inside the interpreter thread.
pub struct Control {
    /// Statements begun since the program started.
    count: u64,
    /// Stop before statement number `stop_at`.
    stop_at: u64,
    mode: Mode,
    /// A frame's run (the terminal's `continue`): stop when the virtual clock reaches this.
    until_cs: Option<i64>,
    /// Statements the FNs of conditions and watches ran in this run: charged to its budget,
    /// and a frame's run ends when they reach [`super::EVAL_STATEMENTS`], so `watch FNslow`
    /// cannot make `continue` run for ever (batch) or a frame outlast Escape (terminal).
    eval_charge: u64,
    page: usize,
    pub(crate) points: BbcPoints,
    /// Per program byte from PAGE: enabled breakpoints there.
    bp_map: Vec<u16>,
    /// The error raised since the last statement, and the last error of the run.
    raised: Option<Raised>,
    pub(crate) last_error: Option<Raised>,
    /// The last place a scan met a breakpoint or watch, and what it would have reported.
    last_stop: LastStop,
    /// Where a bare `list` and a bare `x` go on from.
    pub(crate) listed: retro_machine::debug::GoOn,
    pub(crate) examined: retro_machine::debug::GoOn,
    /// What the stop a `reverse-continue` goes back to reports.
    back_reason: Option<StopReason>,
    /// Program text up to this statement count has been shown (replays do not show it again).
    shown_to: u64,
    /// Who waits for the next stop.
    pending: Option<Sender<StopReason>>,
    /// Nothing but breakpoints and the statement limit can stop this run (a plain `continue`
    /// with no watch): statements take [`Control::quiet_at`]'s short way.
    quiet: bool,
    /// How the finished run ended, once it has.
    pub(crate) finished: Option<StopReason>,
    /// The variables panel's lines when the last command began (to mark what changed).
    pub(crate) vars_before: Vec<String>,
    pub(crate) restart: Option<Restart>,
    pub(crate) quit: bool,
    /// The user's assignments (`set`) as events of the run: (the statement count it was made
    /// before, the tokenized assignment). Reverse execution replays the program from its start,
    /// so each is made again when the replay reaches its statement: going back keeps them.
    changes: Changes<Change<Vec<u8>>>,
    /// A scan for `reverse-next` / `reverse-finish`: the statement to go back to is the latest
    /// with at most this many calls (GOSUB, PROC, FN) under way (`true`: fewer than it).
    depth_scan: Option<(usize, bool)>,
    /// Seconds of virtual time going back may reach (`set record limit`; None: all the run).
    record_limit: Option<u64>,
    /// A reverse command's window: the virtual time (centiseconds) it may not go back before,
    /// and the first statement a replay met at or after it.
    cutoff_cs: Option<i64>,
    window_start: Option<u64>,
    /// `trace N`: a replay notes each statement from this count on, in `traced`.
    trace_from: Option<u64>,
    pub(crate) traced: String,
    /// `trace on`: the lines the run enters, with the program's text between them.
    pub(crate) line_trace: LineTrace,
    rx: Receiver<Job>,
}

pub(crate) fn expr_bytes(text: &str) -> Vec<u8> {
    crate::tokenize::tokenize_eval(text.as_bytes())
}

fn truthy(v: &Val) -> bool {
    match v {
        Val::Int(i) => *i != 0,
        Val::Float(f) => *f != 0.0,
        Val::Str(_) => false,
    }
}

impl Control {
    pub(crate) fn new(rx: Receiver<Job>) -> Control {
        Control {
            count: 0,
            stop_at: 0,
            mode: Mode::Run,
            until_cs: None,
            eval_charge: 0,
            page: 0,
            points: Points::default(),
            bp_map: Vec::new(),
            raised: None,
            last_error: None,
            last_stop: LastStop::default(),
            listed: Default::default(),
            examined: Default::default(),
            back_reason: None,
            shown_to: 0,
            pending: None,
            quiet: false,
            finished: None,
            vars_before: Vec::new(),
            restart: None,
            quit: false,
            changes: Changes::default(),
            depth_scan: None,
            record_limit: Some(retro_machine::debug::basic::history::DEFAULT_LIMIT_SECONDS),
            cutoff_cs: None,
            window_start: None,
            trace_from: None,
            traced: String::new(),
            line_trace: LineTrace::default(),
            rx,
        }
    }

    /// A new run begins: where it should go first.
    pub(crate) fn begin(&mut self, how: Option<Restart>) {
        self.count = 0;
        self.raised = None;
        self.last_error = None;
        self.finished = None;
        self.last_stop.clear();
        self.until_cs = None;
        self.quiet = false;
        (self.mode, self.stop_at) = match how {
            None => (Mode::Run, 0),
            Some(Restart::ReplayTo(n)) => (Mode::Replay, n),
            Some(Restart::ScanTo(n)) => (Mode::Scan, n),
        };
    }

    /// The interpreter it watches has this program.
    pub(crate) fn attached(&mut self, it: &mut Interp) {
        self.page = it.page;
        self.rebuild_map(it);
        self.refresh_watches(it);
    }

    pub(crate) fn rebuild_map(&mut self, it: &Interp) {
        self.bp_map = vec![0; it.top.saturating_sub(it.page)];
        for b in self.points.breaks.iter().filter(|b| b.enabled) {
            if let Some(n) = self.bp_map.get_mut(b.addr.wrapping_sub(self.page)) {
                *n += 1;
            }
        }
    }

    pub(crate) fn error_raised(&mut self, error: &BasicError, at: usize) {
        let r = Raised {
            error: error.clone(),
            at,
        };
        self.raised = Some(r.clone());
        self.last_error = Some(r);
        self.quiet = false;
    }

    /// The short way for a statement at `rel` bytes from PAGE while the run is quiet: true if
    /// nothing can stop here (and the statement is counted), false to take [`Control::at_statement`].
    #[inline(always)]
    pub(crate) fn quiet_at(&mut self, rel: usize) -> bool {
        if !self.quiet
            || self.count + 1 >= self.stop_at
            || self.count < self.shown_to
            || self.bp_map.get(rel).is_some_and(|&n| n > 0)
        {
            return false;
        }
        self.count += 1;
        true
    }

    fn update_quiet(&mut self) {
        self.quiet = self.mode == Mode::Run
            && self.until_cs.is_none()
            && self.raised.is_none()
            && !self.line_trace.on()
            && self.points.watches.iter().all(|w| !w.enabled);
    }

    /// Statements begun since the program started.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// At the statement starting at `p`: stop there if something says so, then count it.
    pub(super) fn at_statement(&mut self, it: &mut Interp, p: usize) -> R<()> {
        if self.count < self.shown_to {
            // A replay: what the program prints here was shown the first time round.
            let mut old = String::new();
            it.vdu.take_text(&mut old);
        }
        if !self.changes.is_empty() {
            self.make_changes_again(it);
        }
        let mut reason = self.check(it, p);
        while let Some(r) = reason {
            if matches!(r, Reason::Back) && self.mode == Mode::Scan {
                // A scan has reached where it was going: now back to the last stop before.
                let (to, why) = self
                    .last_stop
                    .get()
                    .cloned()
                    .unwrap_or((self.window_start.unwrap_or(0), StopReason::HistoryStart));
                self.depth_scan = None;
                self.back_reason = Some(why);
                self.restart = Some(Restart::ReplayTo(to));
                return Err(Box::new(Stop::Abort));
            }
            // After a frame's or a budget's end, the same statement is checked again when the
            // run goes on (a breakpoint here is still reported).
            let again = matches!(r, Reason::Limit);
            if self.serve(it, r) == Served::Stop {
                return Err(Box::new(Stop::Abort));
            }
            reason = if again { self.check(it, p) } else { None };
        }
        if self.line_trace.on() && !matches!(self.mode, Mode::Replay | Mode::Scan) {
            self.trace_line(it, p);
        }
        self.count += 1;
        self.shown_to = self.shown_to.max(self.count.saturating_sub(1));
        Ok(())
    }

    /// `trace on`: the statement at `p` is about to run; if it is the first of its line, the
    /// line's entry goes after what the program printed so far (into the debugger's stream,
    /// not onto the screen).
    #[cold]
    fn trace_line(&mut self, it: &mut Interp, p: usize) {
        if let Some(n) = it.line_entered_at(p) {
            let mut printed = String::new();
            it.vdu.take_text(&mut printed);
            self.line_trace.program(&printed);
            self.line_trace.entered(u32::from(n));
        }
    }

    /// What the program printed and the trace's entries since the last call, in order;
    /// `stopped`: the command is over (the entries left out are counted).
    pub(crate) fn take_output(&mut self, it: &mut Interp, stopped: bool) -> String {
        let mut printed = String::new();
        it.vdu.take_text(&mut printed);
        self.line_trace.program(&printed);
        let mut out = String::new();
        self.line_trace.take(&mut out, stopped);
        out
    }

    /// A replay reached the statement before which the user assigned or loaded memory: the
    /// same changes again.
    fn make_changes_again(&mut self, it: &mut Interp) {
        for change in self.changes.at(self.count) {
            match change {
                // It worked the first time, on the same state.
                Change::Assign(bytes) => {
                    let _ = it.debug_assign(bytes);
                }
                Change::Memory(at, bytes) => it.debug_poke(*at, bytes),
            }
        }
    }

    /// The user assigned (`set`) or loaded memory (`load`) before statement `count`: an event of
    /// this run from now on. Changes recorded after it belonged to a future that no longer
    /// happens.
    pub(crate) fn record_change(&mut self, change: Change<Vec<u8>>) {
        let count = self.count;
        self.changes.record(count, change);
        // Statements up to this one are replays from now on: never quiet, so that the statement
        // of the assignment is seen (and makes it) whenever a run passes it again.
        self.shown_to = self.shown_to.max(count + 1);
    }

    fn check(&mut self, it: &mut Interp, p: usize) -> Option<Reason> {
        if matches!(self.mode, Mode::Replay | Mode::Scan)
            && let Some(cut) = self.cutoff_cs
        {
            // Going back: a statement older than the record limit is not one to stop at (a
            // replay aimed before the window stops at its first statement instead).
            if it.time_cs() < cut {
                self.raised = None;
                return None;
            }
            self.window_start.get_or_insert(self.count);
        }
        if !matches!(self.mode, Mode::Replay | Mode::Scan) {
            self.eval_charge = self.eval_charge.saturating_add(it.take_eval_statements());
            let frame_full = self.until_cs.is_some() && self.eval_charge >= u64::from(super::EVAL_STATEMENTS);
            if frame_full
                || self.count.saturating_add(self.eval_charge) >= self.stop_at && self.count < self.stop_at
            {
                // The next frame (or `continue`) starts a new charge.
                self.eval_charge = 0;
                return Some(if self.mode == Mode::Step {
                    Reason::Step
                } else {
                    Reason::Limit
                });
            }
        }
        if self.count >= self.stop_at {
            return Some(match self.mode {
                // Going back to statement 0 is still going back: its note (HistoryStart) is
                // taken here, not left for the next reverse command. An error the replay
                // raised was reported the first time round.
                Mode::Replay | Mode::Scan => {
                    self.raised = None;
                    self.trace_from = None;
                    if self.count > self.stop_at {
                        // Aimed before the record limit's window: at its start instead.
                        self.back_reason = Some(StopReason::HistoryStart);
                    }
                    Reason::Back
                }
                _ if self.count == 0 => Reason::Start,
                // A step into an error stops once, at the handler, and says why it is there
                // (no stale report at the next stop).
                Mode::Step if self.raised.take().is_some() => Reason::Error,
                Mode::Step => Reason::Step,
                // The run goes on from here: the error is still to report.
                _ => Reason::Limit,
            });
        }
        if self.mode == Mode::Replay {
            if let Some(from) = self.trace_from
                && self.count >= from
            {
                let pos = it.position(p);
                let _ = writeln!(self.traced, "line {pos}  {}", it.statement_text(p));
            }
            self.raised = None;
            return None;
        }
        if let (Mode::Scan, Some((depth, fewer))) = (self.mode, self.depth_scan) {
            let d = it.call_depth();
            if d < depth || (!fewer && d == depth) {
                self.last_stop.note(self.count, StopReason::Done);
            }
            self.raised = None;
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
            // `until`'s own breakpoint (0) is not one to go back to.
            if id != 0 {
                self.last_stop.note(self.count, StopReason::Breakpoint(vec![id]));
            }
        }
        if !self.points.watches.is_empty()
            && let Some(reason) = self.check_watches(it, !scan)
        {
            if !scan {
                return Some(reason);
            }
            if let Reason::Watch { id, what } = reason {
                self.last_stop
                    .note(self.count, StopReason::Watchpoint(vec![id], what));
            }
        }
        if let Some(until) = self.until_cs
            && it.host.time_cs() >= until
        {
            return Some(Reason::Limit);
        }
        match self.mode {
            Mode::Next { depth } if it.call_depth() <= depth => Some(Reason::Step),
            Mode::Finish { depth } if it.call_depth() < depth => Some(Reason::Step),
            _ => None,
        }
    }

    /// The first enabled breakpoint at `p` whose condition holds.
    fn hit_break(&mut self, it: &mut Interp, p: usize) -> Option<u32> {
        let mut hit = None;
        for i in 0..self.points.breaks.len() {
            let b = &self.points.breaks[i];
            if !b.enabled || b.addr != p {
                continue;
            }
            let holds = match &b.cond {
                None => true,
                Some((_, bytes)) => {
                    let bytes = bytes.clone();
                    matches!(it.debug_eval(&bytes), Ok(v) if truthy(&v))
                }
            };
            if holds {
                // A scan's hits are not stops; the one it goes back to is counted then.
                if self.mode != Mode::Scan {
                    self.points.breaks[i].hits += 1;
                    if self.points.passes(i) {
                        continue;
                    }
                }
                hit = Some(i);
                break;
            }
        }
        let i = hit?;
        let id = self.points.breaks[i].id;
        if self.points.breaks[i].temporary && self.mode != Mode::Scan {
            self.points.breaks.remove(i);
            self.rebuild_map(it);
        }
        Some(id)
    }

    fn watch_value(it: &mut Interp, bytes: &[u8]) -> Option<String> {
        it.debug_eval(bytes).ok().map(|v| show_val(&v))
    }

    /// The first watch whose value changed since the last statement (each takes its new
    /// value), its hit counted when `counting` (a forward run; not a scan).
    fn check_watches(&mut self, it: &mut Interp, counting: bool) -> Option<Reason> {
        let mut reason = None;
        for w in self.points.watches.iter_mut().filter(|w| w.enabled) {
            let now = Self::watch_value(it, &w.how);
            if let Some(what) = watch_changed(&w.expr, &mut w.last, now) {
                // `watch EXPR if COND`: the change is seen (the value taken), but stops only
                // when COND holds.
                if let Some(c) = &w.cond
                    && !matches!(it.debug_eval(&expr_bytes(c)), Ok(v) if truthy(&v))
                {
                    continue;
                }
                if counting {
                    w.hits += 1;
                }
                if reason.is_none() {
                    reason = Some(Reason::Watch { id: w.id, what });
                }
            }
        }
        reason
    }

    /// Every watch takes its value now (after the user changed one: gdb's watches do not
    /// report the debugger's own assignments).
    pub(crate) fn refresh_watches(&mut self, it: &mut Interp) {
        for w in &mut self.points.watches {
            w.last = Self::watch_value(it, &w.how);
        }
    }

    fn stop_reason(&mut self, it: &Interp, reason: Reason) -> StopReason {
        match reason {
            Reason::Start | Reason::Step => StopReason::Done,
            Reason::Back => {
                let back = self.back_reason.take().unwrap_or(StopReason::Done);
                self.points.count_hits(&back);
                back
            }
            Reason::Limit => StopReason::Limit,
            // `until`'s own breakpoint: reaching the place is reported as a step's stop is
            // (gdb's `until LOCATION`), not as a "Breakpoint 0" the user never set.
            Reason::Break(0) => StopReason::Done,
            Reason::Break(id) => StopReason::Breakpoint(vec![id]),
            Reason::Watch { id, what } => StopReason::Watchpoint(vec![id], what),
            Reason::Error => match &self.last_error {
                Some(r) => StopReason::Failed(format!(
                    "{} ({}); ON ERROR goes on here",
                    r.error.message,
                    r.where_words(it)
                )),
                None => StopReason::Done,
            },
        }
    }

    /// How a finished run ended, as a stop.
    pub(crate) fn finished_reason(&self, it: &Interp, outcome: &Outcome) -> StopReason {
        match outcome {
            Outcome::Ended => StopReason::Exited(0),
            Outcome::Quit(n) => StopReason::Exited(*n as u8),
            Outcome::Aborted => {
                StopReason::Failed("the program waits for a key and the key script has no more".into())
            }
            Outcome::Error { error, line } => {
                let mut s = format!("{} at line {line}", error.message);
                if let Some(r) = &self.last_error {
                    s += &format!(" ({})", r.where_words(it));
                }
                StopReason::Failed(s)
            }
        }
    }

    /// Stopped: tells whoever waits why, then runs jobs until one sets the program going
    /// (`Resume`) or asks for a restart or quit (`Stop`).
    fn serve(&mut self, it: &mut Interp, reason: Reason) -> Served {
        self.refresh_watches(it);
        self.until_cs = None;
        self.quiet = false;
        // The quiet way does not keep this up to date: the text so far is shown at this stop.
        self.shown_to = self.shown_to.max(self.count);
        let stop = self.stop_reason(it, reason);
        if let Some(tx) = self.pending.take() {
            let _ = tx.send(stop);
        }
        self.serve_jobs(it, true)
    }

    /// The program has ended: jobs are served (views still work) until a restart or quit.
    pub(crate) fn serve_finished(&mut self, it: &mut Interp, outcome: &Outcome) -> Served {
        let stop = self.finished_reason(it, outcome);
        self.finished = Some(stop.clone());
        if let Some(tx) = self.pending.take() {
            let _ = tx.send(stop);
        }
        self.serve_jobs(it, false)
    }

    fn serve_jobs(&mut self, it: &mut Interp, running: bool) -> Served {
        loop {
            let Ok(job) = self.rx.recv() else {
                self.quit = true;
                return Served::Stop;
            };
            match job(self, it, running) {
                Act::Stay => {}
                Act::Go => {
                    // What the stopped program's commands ran (`print FNx`) is not the run's.
                    it.take_eval_statements();
                    return Served::Resume;
                }
                Act::Restart(how) => {
                    self.restart = Some(how);
                    return Served::Stop;
                }
            }
        }
    }

    /// Sets the program going until `mode` stops it or `limit` more statements have begun;
    /// `reply` hears of the stop. A program that has ended answers at once with how it ended.
    fn go(&mut self, mode: Mode, limit: u64, running: bool, reply: Sender<StopReason>) -> Act {
        if !running {
            let _ = reply.send(self.finished.clone().unwrap_or(StopReason::Exited(0)));
            return Act::Stay;
        }
        self.mode = mode;
        self.eval_charge = 0;
        self.stop_at = self.count.saturating_add(limit.max(1));
        self.pending = Some(reply);
        self.update_quiet();
        Act::Go
    }

    /// A step of `kind`: at most `budget` statements, and with `frame`, up to the end of the
    /// current 50 Hz frame of virtual time (the terminal runs `next`, `finish`... frame by frame).
    pub(crate) fn step(
        &mut self,
        it: &mut Interp,
        kind: retro_machine::debug::StepKind,
        budget: u64,
        frame: bool,
        running: bool,
        reply: Sender<StopReason>,
    ) -> Act {
        use retro_machine::debug::StepKind;
        if frame {
            self.until_frame_end(it);
        }
        let depth = it.call_depth();
        let mode = match kind {
            StepKind::Into => return self.go(Mode::Step, 1, running, reply),
            StepKind::Over => Mode::Next { depth },
            // Out of the outermost level there is nothing to return from: one step over.
            StepKind::Out if depth == 0 => Mode::Next { depth },
            StepKind::Out => Mode::Finish { depth },
        };
        self.go(mode, budget, running, reply)
    }

    /// `continue`: to a breakpoint, a watch, an error or the end; a frame's run stops at the
    /// end of the current 50 Hz frame of virtual time.
    pub(crate) fn run(
        &mut self,
        it: &mut Interp,
        limit: retro_machine::debug::RunLimit,
        running: bool,
        reply: Sender<StopReason>,
    ) -> Act {
        match limit {
            retro_machine::debug::RunLimit::Steps(n) => self.go(Mode::Run, n, running, reply),
            retro_machine::debug::RunLimit::Frame(_) => {
                self.until_frame_end(it);
                self.go(Mode::Run, u64::MAX / 2, running, reply)
            }
        }
    }

    /// The run stops at the end of the current 50 Hz frame of virtual time.
    fn until_frame_end(&mut self, it: &mut Interp) {
        let now = it.host.time_cs();
        self.until_cs = Some(now - now % 2 + 2);
    }

    /// A command stopped at a frame's end goes on, as it was (a step stays a step), for
    /// another frame.
    pub(crate) fn next_frame(&mut self, it: &mut Interp, running: bool, reply: Sender<StopReason>) -> Act {
        if !running {
            let _ = reply.send(self.finished.clone().unwrap_or(StopReason::Exited(0)));
            return Act::Stay;
        }
        self.until_frame_end(it);
        self.pending = Some(reply);
        self.update_quiet();
        Act::Go
    }

    /// The user stopped the command under way: `until`'s breakpoint goes.
    pub(crate) fn forget_until(&mut self, it: &Interp) {
        self.points.forget_until();
        self.rebuild_map(it);
    }

    /// `until LOC`, `advance LOC`: a temporary breakpoint no one sees, then run.
    pub(crate) fn run_to(
        &mut self,
        it: &mut Interp,
        loc: &str,
        budget: u64,
        frame: bool,
        running: bool,
        reply: Sender<StopReason>,
    ) -> Result<Act, String> {
        let (addr, what) = Self::resolve(it, loc)?;
        if frame {
            self.until_frame_end(it);
        }
        self.points.add_until(addr, what);
        self.rebuild_map(it);
        Ok(self.go(Mode::Run, budget, running, reply))
    }

    /// A reverse command begins: it may go back as far as the record limit's virtual time.
    fn open_window(&mut self, it: &mut Interp) {
        let now = it.time_cs();
        self.cutoff_cs = self.record_limit.map(|s| now - s as i64 * 100).filter(|&c| c > 0);
        self.window_start = None;
    }

    /// `info record`: how far back going back reaches.
    pub(crate) fn record_info(&self, it: &mut Interp) -> String {
        let now = it.time_cs().max(0) as u64;
        let limited = self.record_limit.filter(|&s| now > s * 100);
        let reach = Reach {
            back: self.count,
            oldest: 0,
            unit: "statements",
            frames: now / 2,
            seconds: now as f64 / 100.0,
            checkpoints: 0,
            bytes: 0,
            limit: self.record_limit,
        };
        match limited {
            None => format!(
                "{}Going back replays the program from its start (it keeps no checkpoints).\n",
                reach.text()
            ),
            Some(s) => format!(
                "Reverse history: back {s} s = {} frames of virtual time (the limit), to the first \
                 statement run at {:.2} s or later\n0 checkpoints in 0.0 MiB; limit {s} s (set record \
                 limit SECONDS), at most {} MiB\nGoing back replays the program from its start (it \
                 keeps no checkpoints).\n",
                s * 50,
                (now - s * 100) as f64 / 100.0,
                MAX_BYTES >> 20
            ),
        }
    }

    /// `set record limit SECONDS`.
    pub(crate) fn set_record_limit(&mut self, arg: &str) -> Result<String, String> {
        self.record_limit = parse_limit(arg)?;
        Ok(String::new())
    }

    /// `reverse-step N`: N statements back (the start of the program, or of the record limit's
    /// window, at most).
    pub(crate) fn reverse_step(&mut self, it: &mut Interp, n: u64, reply: Sender<StopReason>) -> Act {
        self.open_window(it);
        let to = self.count.saturating_sub(n);
        if n > self.count {
            self.back_reason = Some(StopReason::HistoryStart);
        }
        self.pending = Some(reply);
        Act::Restart(Restart::ReplayTo(to))
    }

    /// `reverse-next` (`fewer` false: the latest statement before this one at this call depth or
    /// outside it, so a PROC that returned here is gone back over whole) and `reverse-finish`
    /// (`fewer`: the statement that called the current routine).
    pub(crate) fn reverse_over(
        &mut self,
        it: &mut Interp,
        depth: usize,
        fewer: bool,
        reply: Sender<StopReason>,
    ) -> Act {
        self.open_window(it);
        self.depth_scan = Some((depth, fewer));
        self.pending = Some(reply);
        Act::Restart(Restart::ScanTo(self.count))
    }

    /// `reverse-continue`: back to the last breakpoint or watch stop before this statement.
    pub(crate) fn reverse_continue(&mut self, it: &mut Interp, reply: Sender<StopReason>) -> Act {
        self.open_window(it);
        self.pending = Some(reply);
        Act::Restart(Restart::ScanTo(self.count))
    }

    /// `trace N`: the last N statements run (before the current one), noted by a replay from
    /// the start back to here, into `traced`.
    pub(crate) fn trace(&mut self, n: u64, reply: Sender<StopReason>) -> Act {
        self.trace_from = Some(self.count.saturating_sub(n));
        self.traced.clear();
        self.cutoff_cs = None;
        self.pending = Some(reply);
        Act::Restart(Restart::ReplayTo(self.count))
    }

    /// `run`: stopped before the first statement again.
    pub(crate) fn restart(&mut self, reply: Sender<StopReason>) -> Act {
        self.pending = Some(reply);
        // A new run: the user's changes belonged to the old one.
        self.changes.clear();
        self.cutoff_cs = None;
        Act::Restart(Restart::ReplayTo(0))
    }

    /// `break LOC [if COND]`, `tbreak`.
    pub(crate) fn break_at(
        &mut self,
        it: &Interp,
        loc: &str,
        cond: Option<&str>,
        temporary: bool,
    ) -> Result<(u32, String), String> {
        let (addr, what) = Self::resolve(it, loc)?;
        if let Some(c) = cond {
            // A condition must at least parse as an expression.
            crate::tokenize::tokenize_eval(c.as_bytes());
        }
        let at = format!("{what}: {}", it.statement_text(addr));
        let cond = cond.map(|c| (c.trim().to_string(), expr_bytes(c)));
        let id = self.points.add_break(addr, what, cond, temporary);
        self.rebuild_map(it);
        Ok((id, at))
    }

    /// `condition N [EXPR]`.
    pub(crate) fn set_condition(&mut self, id: u32, cond: Option<&str>) -> Result<(), String> {
        self.points.break_mut(id)?.cond = cond.map(|c| (c.trim().to_string(), expr_bytes(c)));
        Ok(())
    }

    /// `ignore N COUNT`.
    pub(crate) fn set_ignore(&mut self, id: u32, count: u64) -> Result<(), String> {
        self.points.set_ignore(id, count)
    }

    /// `watch EXPR [if COND]`.
    pub(crate) fn watch(&mut self, it: &mut Interp, text: &str) -> String {
        let (expr, cond) = retro_machine::debug::split_condition(text);
        let expr = expr.trim();
        let bytes = expr_bytes(expr);
        let last = Self::watch_value(it, &bytes);
        let now = last.clone();
        let id = self.points.add_watch(expr.to_string(), bytes, last);
        if let Some(w) = self.points.watches.last_mut() {
            w.cond = cond.map(|c| c.trim().to_string());
        }
        watch_set_words(id, expr, now.as_deref())
    }

    pub(crate) fn delete(&mut self, it: &Interp, id: Option<u32>) -> bool {
        let found = self.points.delete(id);
        self.rebuild_map(it);
        found
    }

    pub(crate) fn enable(&mut self, it: &Interp, id: Option<u32>, enabled: bool) -> bool {
        let found = self.points.enable(id, enabled);
        self.rebuild_map(it);
        found
    }

    pub(crate) fn breakpoints(&self, it: &Interp) -> Vec<BreakpointInfo> {
        self.points
            .info(|b| format!("({}) {}", it.position(b.addr), it.statement_text(b.addr)))
    }

    /// A breakpoint location: `LINE`, `LINE:STATEMENT`, `PROCname` or `FNname`.
    pub(crate) fn resolve(it: &Interp, loc: &str) -> Result<(usize, String), String> {
        location::resolve(it, loc)
    }
}

/// Breakpoint locations: `LINE`, `LINE:STATEMENT`, `PROCname` or `FNname`.
impl Locate for Interp {
    const MAX_LINE: u32 = u32::MAX;
    const FORMS: &'static str = "a line, LINE:STATEMENT, PROCname or FNname";

    fn statement_at(&self, line: u32, st: usize) -> Result<usize, String> {
        self.statement_addr(line, st)
    }

    fn named_place(&self, loc: &str) -> Option<Result<(usize, String), String>> {
        let upper = loc.to_ascii_uppercase();
        let (kind, word, name) = if upper.starts_with("PROC") {
            (tok::PROC, "PROC", &loc[4..])
        } else if upper.starts_with("FN") {
            (tok::FN, "FN", &loc[2..])
        } else {
            return None;
        };
        Some(
            self.routine_body(kind, name.as_bytes())
                .map(|a| (a, format!("{word}{name}")))
                .ok_or_else(|| format!("No such {loc}")),
        )
    }
}

impl Interp {
    /// The statement pointer where the current statement starts (after spaces).
    pub(crate) fn pc_at_statement(&self) -> usize {
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
            while tok::is_word_char(self.at(e)) {
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
