//! The debugging capability a machine can offer ([`Debuggable`], reached through
//! [`Machine::as_debuggable`](crate::machine::Machine::as_debuggable), as moa's devices offer
//! theirs), and the machine-independent half of `retro debug`'s command language ([`Console`]).
//!
//! A machine says what one step is (a Z80 instruction, a BASIC statement), runs with a stop
//! budget, keeps breakpoints on locations in its own words (a label or `file:line`, a line
//! number), goes back in time if it records history, and shows its state as text panels. The
//! console turns gdb-style command lines into those calls (`break`, `continue`, `step`, `next`,
//! `finish`, `until`, `reverse-step`, `info breakpoints`, `display`...) and hands every other word
//! to the machine ([`Debuggable::command`]: `print`, `x`, `set`, `call`...). The terminal front
//! end and the batch mode (`--script`) both drive a console, so every machine gets the same
//! language, keys and panels. docs/debugger.md ("For machine authors") says how to add one.

pub mod basic;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod memcmd;
pub mod memfile;

use std::fmt::Write as _;

use crate::keys::{Key, KeyEventKind};
use retro_screen::frame::Frame;

/// How far a single step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// One unit (a Z80 instruction, a BASIC statement), into any call.
    Into,
    /// One unit, running a call (CALL, GOSUB, PROC) or a repeating instruction as one.
    Over,
    /// Until the current routine returns to its caller.
    Out,
}

/// How long a run may go before it gives control back with [`StopReason::Limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunLimit {
    /// At most this many units.
    Steps(u64),
    /// Until the end of the machine's current frame of virtual time, and at most this many units
    /// in all (`u64::MAX`: no limit). The terminal front end runs every command that runs the
    /// program this way, so that it stays responsive: a command stopped at a frame's end with
    /// [`StopReason::Limit`] is still under way ([`Debuggable::under_way`]), and
    /// [`Debuggable::resume`] goes on with it for another frame.
    Frame(u64),
}

impl RunLimit {
    /// Frame by frame, with no limit on the units (the user stops it).
    pub const FRAMES: RunLimit = RunLimit::Frame(u64::MAX);
}

/// Why a step or run gave control back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// It finished where it was meant to (one step done, the `until` location reached).
    Done,
    /// Breakpoints (their numbers) at the current location.
    Breakpoint(Vec<u32>),
    /// Watchpoints (their numbers) and what touched them (`write $9000 (Board) = 2`).
    Watchpoint(Vec<u32>, String),
    /// The program ended, with this exit status.
    Exited(u8),
    /// The program stopped with an error, in the machine's own words.
    Failed(String),
    /// The run's limit was reached; running again continues the same run.
    Limit,
    /// Reverse execution reached the oldest recorded step.
    HistoryStart,
}

/// A breakpoint or watchpoint that `delete`, `enable` and `disable` find by its number. Number 0
/// is one a debugger sets for itself (`until`, `finish`): the user's commands never name it.
pub trait Numbered {
    fn id(&self) -> u32;
    fn set_enabled(&mut self, on: bool);
    /// Counts one more stop it made.
    fn count_hit(&mut self);
}

/// Whether `x` is a point that `id` (`None`: every user's point) names.
fn named(id: Option<u32>, x: u32) -> bool {
    x != 0 && id.is_none_or(|id| id == x)
}

/// Whether `id` names one of the points (`None`, meaning all of them, always does).
fn names_any<B: Numbered, W: Numbered>(breaks: &[B], watches: &[W], id: Option<u32>) -> bool {
    id.is_none()
        || breaks
            .iter()
            .map(B::id)
            .chain(watches.iter().map(W::id))
            .any(|x| named(id, x))
}

/// A stop that `reverse-continue` went back to is a hit of the points it names, as the same stop
/// reached going forward is.
pub fn count_stop_hits<B: Numbered, W: Numbered>(breaks: &mut [B], watches: &mut [W], stop: &StopReason) {
    let ids = match stop {
        StopReason::Breakpoint(ids) | StopReason::Watchpoint(ids, _) => ids,
        _ => return,
    };
    let named = |x: u32| x != 0 && ids.contains(&x);
    breaks.iter_mut().filter(|b| named(b.id())).for_each(B::count_hit);
    watches
        .iter_mut()
        .filter(|w| named(w.id()))
        .for_each(W::count_hit);
}

/// `delete [N]` over a debugger's breakpoints and watchpoints: `false` when N names none.
pub fn delete_numbered<B: Numbered, W: Numbered>(
    breaks: &mut Vec<B>,
    watches: &mut Vec<W>,
    id: Option<u32>,
) -> bool {
    if !names_any(breaks, watches, id) {
        return false;
    }
    breaks.retain(|b| !named(id, b.id()));
    watches.retain(|w| !named(id, w.id()));
    true
}

/// `enable [N]` / `disable [N]` over a debugger's breakpoints and watchpoints: `false` when N
/// names none.
pub fn enable_numbered<B: Numbered, W: Numbered>(
    breaks: &mut [B],
    watches: &mut [W],
    id: Option<u32>,
    on: bool,
) -> bool {
    if !names_any(breaks, watches, id) {
        return false;
    }
    breaks
        .iter_mut()
        .filter(|b| named(id, b.id()))
        .for_each(|b| b.set_enabled(on));
    watches
        .iter_mut()
        .filter(|w| named(id, w.id()))
        .for_each(|w| w.set_enabled(on));
    true
}

/// The most `reverse-next N` goes back at a time (each is a replay of the history).
pub const MAX_REVERSE_OVER: u64 = 100;

/// gdb's refusal of `reverse-finish` where no routine is under way.
pub const OUTERMOST_REVERSE_FINISH: &str = "\"reverse-finish\" not meaningful in the outermost frame.";

/// A BASIC debugger's reading of [`Debuggable::reverse`] by call depth: `Ok(None)` for
/// [`StepKind::Into`] (a plain reverse step), else whether the statement to go back to is the
/// latest with fewer calls under way than now (`reverse-finish`) rather than at most as many
/// (`reverse-next`). Counts above [`MAX_REVERSE_OVER`] are refused.
pub fn reverse_by_depth(kind: StepKind, count: u64) -> Result<Option<bool>, String> {
    let fewer = match kind {
        StepKind::Into => return Ok(None),
        StepKind::Over => false,
        StepKind::Out => true,
    };
    if count > MAX_REVERSE_OVER {
        return Err(format!(
            "reverse-next goes back at most {MAX_REVERSE_OVER} at a time"
        ));
    }
    Ok(Some(fewer))
}

/// What a BASIC debugger's watch shows while its value does not exist (a variable not yet
/// created, an expression that fails).
pub const NO_VALUE: &str = "(no such variable)";

/// A watch's value seen again: when it differs from `last`, `last` takes it and the report a
/// stop gives comes back (gdb's words: `EXPR`, `Old value = ...`, `New value = ...`).
pub fn watch_changed(expr: &str, last: &mut Option<String>, now: Option<String>) -> Option<String> {
    if *last == now {
        return None;
    }
    let old = std::mem::replace(last, now);
    Some(format!(
        "{expr}\nOld value = {}\nNew value = {}",
        old.as_deref().unwrap_or(NO_VALUE),
        last.as_deref().unwrap_or(NO_VALUE)
    ))
}

/// Where `reverse-continue` goes back to, found by replaying history toward the present: the
/// latest statement (by count) before it where a forward run would have stopped. A forward run
/// reports a breakpoint before a watch on the same statement, so a replay does too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastStop(Option<(u64, StopReason)>);

impl LastStop {
    /// A forward run would stop at `count` for `why`.
    pub fn note(&mut self, count: u64, why: StopReason) {
        let breakpoint_here = matches!(&self.0, Some((c, StopReason::Breakpoint(_))) if *c == count);
        if !breakpoint_here {
            self.0 = Some((count, why));
        }
    }

    /// The latest stop noted: its count and what it reports.
    pub fn get(&self) -> Option<&(u64, StopReason)> {
        self.0.as_ref()
    }

    pub fn clear(&mut self) {
        self.0 = None;
    }
}

/// Where a bare `list` or `x` goes on from (gdb's habit: a second `list` shows the lines after
/// the first's, and Enter repeats it), for every machine: where the program was when it
/// showed them, and the line (or address) after the last one shown. Once the program has moved,
/// a bare `list` shows the lines around it again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoOn(Option<(String, u64)>);

impl GoOn {
    /// The line or address to go on from while the program is still at `here`.
    pub fn next(&self, here: &str) -> Option<u64> {
        self.0.as_ref().filter(|(at, _)| at == here).map(|&(_, n)| n)
    }

    /// The last shown ended before `next`, the program being at `here`.
    pub fn shown(&mut self, here: &str, next: u64) {
        self.0 = Some((here.to_string(), next));
    }
}

/// One breakpoint or watchpoint, as `info breakpoints` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakpointInfo {
    pub id: u32,
    /// `breakpoint`, `tbreakpoint`, `watchpoint`, `read watchpoint`...
    pub kind: String,
    pub enabled: bool,
    pub hits: u64,
    /// Where or what (`checkWIN $8012 checkWIN (c4.asm:40)`, `Board..Board+41`).
    pub what: String,
    pub condition: Option<String>,
}

/// Where the program is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Here {
    /// The location as a stop report names it (`$8012 checkWIN+2 (c4.asm:13)`, `line 20`).
    pub describe: String,
    /// The location as `break` takes it, so a front end can toggle a breakpoint here (`$8012`).
    pub location: String,
    /// The next thing to run, one or two lines (the instruction, then its source line).
    pub next: String,
}

/// The panels a front end may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelKind {
    /// The source (or listing) around the current location.
    Source,
    /// The machine code (or tokens) around the current location.
    Disassembly,
    /// Registers and flags (or the interpreter's current state).
    Registers,
    /// The stack (or the interpreter's control stack).
    Stack,
    /// Memory (or the variables).
    Memory,
}

/// A line of a panel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PanelLine {
    pub text: String,
    /// The current location's line.
    pub current: bool,
    /// A line with a breakpoint.
    pub breakpoint: bool,
    /// A value that changed since the last stop.
    pub changed: bool,
}

impl PanelLine {
    pub fn plain(text: impl Into<String>) -> PanelLine {
        PanelLine {
            text: text.into(),
            ..PanelLine::default()
        }
    }
}

/// A view of the machine as lines of text, for a panel `rows` high.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<PanelLine>,
}

/// What a machine offers a debugger front end. Steps, runs and locations are in the machine's own
/// units and words; everything a method returns is plain text, so the front ends need no
/// knowledge of the machine.
pub trait Debuggable {
    /// The command prompt's name (`z80`, `bbc`): the batch transcript echoes `(z80) COMMAND`.
    fn prompt(&self) -> &str;
    /// Steps once ([`StepKind::Over`] and [`StepKind::Out`] may run many units, within `limit`).
    fn step(&mut self, kind: StepKind, limit: RunLimit) -> StopReason;
    /// Whether `finish` means anything here: gdb's refusal in the outermost frame, where there
    /// is no caller to return to.
    fn can_finish(&self) -> Result<(), String> {
        Ok(())
    }
    /// Runs until a breakpoint, a watchpoint, the end, or the limit. After a
    /// [`StopReason::Limit`], calling it again continues that run (a breakpoint at the place the
    /// previous run stopped is still reported); otherwise it first steps off the current location.
    fn run(&mut self, limit: RunLimit) -> StopReason;
    /// Runs to a location (as `break` takes it), stopping earlier at a breakpoint.
    fn run_to(&mut self, location: &str, limit: RunLimit) -> Result<StopReason, String>;
    /// Starts the program again from its beginning (breakpoints stay).
    fn restart(&mut self);
    /// Steps back `count` units, if the machine records history.
    fn reverse_step(&mut self, _count: u64) -> Result<StopReason, String> {
        Err("this machine does not record history for reverse execution".into())
    }
    /// `reverse-next` ([`StepKind::Over`]: back over a whole call that returned to here) and
    /// `reverse-finish` ([`StepKind::Out`]: back to the call of the current routine);
    /// [`StepKind::Into`] is [`Debuggable::reverse_step`].
    fn reverse(&mut self, kind: StepKind, count: u64) -> Result<StopReason, String> {
        match kind {
            StepKind::Into => self.reverse_step(count),
            _ => Err("this machine cannot go back over calls".into()),
        }
    }
    /// Runs back to the previous breakpoint hit, if the machine records history.
    fn reverse_continue(&mut self, _limit: RunLimit) -> Result<StopReason, String> {
        Err("this machine does not record history for reverse execution".into())
    }
    /// Whether a command stopped at the end of a frame ([`RunLimit::Frame`]) before it was done.
    fn under_way(&self) -> bool {
        false
    }
    /// Goes on with the command under way for another frame (as its limit says).
    fn resume(&mut self) -> StopReason {
        StopReason::Done
    }
    /// The user stopped the command under way: it is over, the program stays where it is.
    fn interrupt(&mut self) {}
    /// A key the user pressed or let go of while the program runs in the terminal: the machine
    /// takes it as its own keyboard's (at its own virtual time, so that reverse execution and
    /// replays see it too).
    fn user_key(&mut self, _key: Key, _kind: KeyEventKind) {}

    /// Adds a breakpoint at a location in the machine's words, with an optional condition (an
    /// expression of [`Debuggable::evaluate`]'s language). Returns its number and its location as
    /// stop reports describe it.
    fn break_at(
        &mut self,
        location: &str,
        condition: Option<&str>,
        temporary: bool,
    ) -> Result<(u32, String), String>;
    /// Deletes one breakpoint or watchpoint, or all of them (`None`); false if there is no such number.
    fn delete_breakpoint(&mut self, id: Option<u32>) -> bool;
    /// Enables or disables one, or all; false if there is no such number.
    fn enable_breakpoint(&mut self, id: Option<u32>, enabled: bool) -> bool;
    /// All breakpoints and watchpoints, in number order.
    fn breakpoints(&self) -> Vec<BreakpointInfo>;
    /// `condition N [EXPR]`: gives breakpoint N a condition, or takes it away.
    fn set_condition(&mut self, _id: u32, _condition: Option<&str>) -> Result<(), String> {
        Err("this machine's breakpoints take their condition when they are set (break LOC if COND)".into())
    }
    /// `ignore N COUNT`: breakpoint N passes its next COUNT hits.
    fn set_ignore(&mut self, _id: u32, _count: u64) -> Result<(), String> {
        Err("this machine has no ignore counts".into())
    }
    /// The breakpoints at the current location (the terminal's F9 toggles them).
    fn breakpoints_here(&self) -> Vec<u32>;

    /// Frames of virtual time a second (the Z80's 50 or 60, the BBC's 50, the C64's 60 jiffies):
    /// `continue 2s` runs to the end of this many frames times two ([`RunLimit::Frame`]).
    fn frame_rate(&self) -> u32;

    /// Where the program is.
    fn here(&self) -> Here;
    /// An expression's value as text (`42 ($2A)`), for `display` and the watches panel.
    fn evaluate(&self, expr: &str) -> Result<String, String>;
    /// Whether an expression holds (`assert`, `if` in scripts): by default, whether
    /// [`Debuggable::evaluate`]'s value starts with a number that is not zero (`TRUE` is -1 in
    /// BASIC, a Z80 comparison gives 1).
    fn holds(&self, expr: &str) -> Result<bool, String> {
        let v = self.evaluate(expr)?;
        let number = v.split_whitespace().next().unwrap_or("");
        number
            .parse::<f64>()
            .map(|n| n != 0.0)
            .map_err(|_| format!("`{expr}` = {v} is not a number (true is not zero)"))
    }
    /// What `display/FMT EXPR` shows at a stop, as `print/FMT EXPR` shows it (a structure, a grid,
    /// a format), or `None` to show [`Debuggable::evaluate`]'s value.
    fn display(&self, _format: &str, _expr: &str) -> Option<Result<String, String>> {
        None
    }
    /// Whether `display` may keep an expression (its syntax); by default, whether it evaluates now.
    fn check_expression(&self, expr: &str) -> Result<(), String> {
        self.evaluate(expr).map(|_| ())
    }
    /// A panel `rows` lines high, or `None` if the machine has no such view.
    fn panel(&self, kind: PanelKind, rows: usize) -> Option<Panel>;
    /// The machine's screen.
    fn screen(&self) -> Frame;
    /// The machine's screen for a terminal area `cols` x `rows` (see
    /// [`Machine::frame_for`](crate::machine::Machine::frame_for)).
    fn screen_for(&self, _cols: u16, _rows: u16) -> Frame {
        self.screen()
    }
    /// Moves the text the program printed since the last call into `out`.
    fn take_output(&mut self, out: &mut String);

    /// A command of the machine's own (`print`, `x`, `set`, `call`, `info registers`...): the
    /// whole line, whose first word the console does not know; one that runs the program (`call`)
    /// keeps to `limit`. `None`: the machine has no such command either.
    fn command(&mut self, line: &str, limit: RunLimit) -> Option<Result<String, String>>;
    /// The machine's part of `help`.
    fn help(&self) -> &str;
    /// The names the terminal's command line completes with Tab after a command word: labels
    /// and symbols, PROC/FN names, variables (docs/debugger.md, "The command line").
    fn completion_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Called before each command (the Z80 remembers the registers, to mark what changed).
    fn before_command(&mut self) {}
    /// Called after each command.
    fn after_command(&mut self) {}
}

/// Steps `continue`, `next`, `finish` and `until` may run before giving up (for the Z80 about 40
/// virtual seconds of a busy program).
pub const DEFAULT_BUDGET: u64 = 100_000_000;

/// The largest repeat count (`step N`, `next N`...) a script may give.
pub const MAX_SCRIPT_REPEAT: u64 = 1_000_000;

/// How long the terminal runs the steps of a repeated command (`stepi N`) before it looks at
/// the keyboard and redraws.
const REPEAT_LOOK: std::time::Duration = std::time::Duration::from_millis(20);

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

impl Output {
    fn text(text: String) -> Output {
        Output {
            text,
            flow: Flow::Continue,
            error: false,
        }
    }
}

/// Where a command run with [`Console::start`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// It is over: its output.
    Done(Output),
    /// It runs the program and stopped at the end of a frame: call [`Console::go_on`] for the
    /// next one (or [`Console::interrupt`]).
    Running,
}

/// A command that runs the program, under way in the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Running {
    /// `step N`, `next N`: the kind and how many steps are left after the current one.
    repeat: Option<(StepKind, u64)>,
    /// `continue 2s`: the frame ends still to run through, and the whole budget.
    time: Option<(u64, TimeBudget)>,
}

/// A run's budget of virtual time (`continue 2s`, `continue 500ms`, `continue 100f`), counted
/// in the machine's frames: the run stops at the end of the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TimeBudget {
    frames: u64,
    hz: u32,
}

impl TimeBudget {
    /// `2s`, `500ms`, `100f`: `None` for a plain count. Time rounds up to whole frames (at least
    /// one), since a machine stops only at a frame's end.
    fn parse(arg: &str, hz: u32) -> Option<Result<TimeBudget, String>> {
        let a = arg.trim();
        let (digits, unit) = if let Some(d) = a.strip_suffix("ms") {
            (d, 1000)
        } else if let Some(d) = a.strip_suffix('s') {
            (d, 1)
        } else if let Some(d) = a.strip_suffix('f') {
            (d, 0)
        } else {
            return None;
        };
        // `$1f` and `0x1f` are hex counts of steps.
        if a.starts_with('$') || a.starts_with("0x") {
            return None;
        }
        let n: u64 = match digits.trim().parse() {
            Ok(n) if n > 0 => n,
            _ => {
                return Some(Err(format!(
                    "`{a}` is not a time (`2s`, `500ms`, `100f` for frames)"
                )));
            }
        };
        let hz64 = u64::from(hz.max(1));
        let frames = match unit {
            0 => n,
            1 => n.saturating_mul(hz64),
            _ => n.saturating_mul(hz64).div_ceil(1000),
        };
        Some(Ok(TimeBudget {
            frames,
            hz: hz.max(1),
        }))
    }

    /// `100 frames = 2s`, as the stop report says it.
    fn describe(self) -> String {
        let ms = self.frames.saturating_mul(1000) / u64::from(self.hz);
        let time = if ms.is_multiple_of(1000) {
            format!("{}s", ms / 1000)
        } else {
            format!("{ms}ms")
        };
        let s = if self.frames == 1 { "" } else { "s" };
        format!("{} frame{s} = {time}", self.frames)
    }
}

/// The machine-independent command language: the displays, the last command (an empty line
/// in the terminal repeats it), and the command under way in the terminal.
#[derive(Clone, Debug, Default)]
pub struct Console {
    /// Expressions shown at every stop (`display`).
    pub displays: Vec<String>,
    pub last: Option<String>,
    running: Option<Running>,
    /// Commands run frame by frame ([`Console::start`]) rather than to the end.
    frames: bool,
    /// Steps a run may take in batch mode: [`DEFAULT_BUDGET`] unless [`Console::set_budget`].
    budget: Option<u64>,
    /// `commands N ... end`: the command lines each breakpoint or watchpoint runs when it stops
    /// the program, by its number.
    point_commands: std::collections::BTreeMap<u32, Vec<String>>,
    /// The `commands` list being typed: its breakpoint's number and the lines so far.
    defining: Option<(u32, Vec<String>)>,
    /// The number `break`, `tbreak` or `watch` gave last (`commands` without a number).
    last_point: Option<u32>,
    /// The points the last stop report named, whose commands are still to run (a report is
    /// made where the console is not mutable, so it leaves them here).
    stopped_by: std::cell::RefCell<Vec<u32>>,
    /// Inside a breakpoint's commands: a stop there runs its own commands afterwards, not
    /// nested inside the command that stopped.
    in_point_commands: bool,
    /// The most stops in a row whose commands run: [`MAX_COMMAND_STOPS`] unless
    /// [`Console::set_command_stops`] (the fuzz tests keep it small: each chained stop may run a
    /// whole budget).
    command_stops: Option<usize>,
}

/// The most stops whose `commands` one command line runs in a row (`commands 1` / `continue`
/// / `end` on a breakpoint in a loop runs until the loop ends or this many stops).
pub const MAX_COMMAND_STOPS: usize = 1000;

/// A count argument (`20`, `$14`), or `default` when there is none: every machine's `trace N`
/// and the console's own counts.
pub fn number_arg(arg: &str, default: u64) -> Result<u64, String> {
    let a = arg.trim();
    if a.is_empty() {
        return Ok(default);
    }
    let parsed = match a.strip_prefix('$').or_else(|| a.strip_prefix("0x")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => a.parse().ok(),
    };
    parsed.ok_or_else(|| format!("`{a}` is not a count"))
}

/// Splits `LOCATION if CONDITION`.
pub fn split_condition(arg: &str) -> (&str, Option<&str>) {
    let lower = arg.to_ascii_lowercase();
    match lower.find(" if ") {
        Some(i) => (&arg[..i], Some(&arg[i + 4..])),
        None => (arg, None),
    }
}

/// `help COMMAND`: the lines of the help that name the command, and what its entry says.
fn help_on(word: &str, machine: &str) -> Result<String, String> {
    let w = word.trim();
    if let Some((_, text)) = COMMAND_HELP
        .iter()
        .find(|(names, _)| names.split(' ').any(|n| n == w))
    {
        return Ok(format!("{text}\n"));
    }
    // Otherwise the help lines that mention it as a word.
    let lines: Vec<&str> = HELP
        .lines()
        .chain(machine.lines())
        .filter(|l| {
            l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '/'))
                .any(|t| t == w || t.split('/').next() == Some(w))
        })
        .collect();
    if lines.is_empty() {
        return Err(format!("no command `{w}` (try `help`)"));
    }
    Ok(lines.iter().map(|l| format!("{}\n", l.trim())).collect())
}

/// What an empty command line runs again (gdb's habit): a command that steps or runs, and `x`
/// and `list` going on from where they stopped (a bare `x` or `list` goes on: every machine's
/// `x` and `list` without an argument continue); never `run`, `set` or anything else.
pub fn repeat_line(last: &str) -> Option<String> {
    let last = last.trim();
    let word = last.split_whitespace().next()?;
    let base = word.split('/').next().unwrap_or(word);
    match base {
        "step" | "s" | "stepi" | "si" | "next" | "n" | "nexti" | "ni" | "continue" | "c" | "cont"
        | "finish" | "fin" | "until" | "u" | "reverse-step" | "rs" | "reverse-stepi" | "rsi"
        | "reverse-next" | "rn" | "reverse-nexti" | "rni" | "reverse-continue" | "rc" | "reverse-finish" => {
            Some(last.to_string())
        }
        // `x/8xb` with no address goes on after what the last one showed, `list` after the
        // last line it listed.
        "x" => Some(word.to_string()),
        "list" | "l" => Some("list".to_string()),
        _ => None,
    }
}

/// `help COMMAND` for the console's own words: (the names, what it does with an example).
const COMMAND_HELP: &[(&str, &str)] = &[
    (
        "run r",
        "run: starts the program again from its beginning (breakpoints stay).  e.g. run",
    ),
    (
        "continue c cont",
        "continue [N | Ns | Nms | Nf]: runs until a breakpoint, a watch or the end; N steps at most, or that much virtual time.  e.g. continue 2s",
    ),
    (
        "step s stepi si",
        "step [N]: one step (an instruction, a statement), into calls.  e.g. step 5",
    ),
    ("next n nexti ni", "next [N]: one step, over calls.  e.g. next"),
    (
        "finish fin",
        "finish: runs until the current routine returns to its caller (refused in the outermost frame).  e.g. finish",
    ),
    (
        "until u advance",
        "until [LOC]: runs to LOC (or over a loop's end).  e.g. until checkWIN",
    ),
    (
        "reverse-step rs reverse-stepi rsi",
        "reverse-step [N]: N steps back in time.  e.g. reverse-step 2",
    ),
    (
        "reverse-next rn",
        "reverse-next [N]: back one step, over a whole call that returned here.  e.g. reverse-next",
    ),
    (
        "reverse-finish",
        "reverse-finish: back to the call of the current routine.  e.g. reverse-finish",
    ),
    (
        "reverse-continue rc",
        "reverse-continue: back to the previous stop at a breakpoint or watch.  e.g. reverse-continue",
    ),
    (
        "break b br tbreak",
        "break LOC [if COND]: stops before LOC when COND holds; tbreak stops once.  e.g. break checkWIN if A == 0",
    ),
    (
        "delete d",
        "delete [N]: deletes breakpoint or watch N, or all.  e.g. delete 2",
    ),
    (
        "enable disable",
        "enable [N] / disable [N]: turns breakpoint N (or all) on or off.  e.g. disable 1",
    ),
    (
        "condition",
        "condition N [EXPR]: gives breakpoint N a condition, or makes it unconditional.  e.g. condition 1 A == 0",
    ),
    (
        "ignore",
        "ignore N COUNT: breakpoint N passes its next COUNT hits.  e.g. ignore 1 3",
    ),
    (
        "display undisplay",
        "display EXPR: shows EXPR at every stop; undisplay [N] stops that.  e.g. display A",
    ),
    (
        "commands",
        "commands [N] ... end: the command lines (one a line, up to `end`) that run each time breakpoint or watch N (or the last breakpoint set) stops the program; an empty list removes them.  e.g. commands 1",
    ),
    (
        "trace",
        "trace [N]: the last N instructions run (on the BBC and the C64, statements).  trace on / trace off (BBC, C64): while a command runs the program, each line it enters is shown as BBC BASIC's TRACE ON shows it, [10] [20], with the program's output (100 a command at most, then how many more).  e.g. trace on",
    ),
    ("echo", "echo TEXT: prints TEXT.  e.g. echo checking the win"),
    (
        "assert",
        "assert EXPR [; MESSAGE] (scripts): ends the script with status 1, naming the line, when EXPR is false.  e.g. assert A == 0 ; nobody won",
    ),
    (
        "if else end",
        "if EXPR / else / end (scripts): runs the commands between only when EXPR holds.  e.g. if A == 0",
    ),
    (
        "help h",
        "help [COMMAND]: the commands, or one of them.  e.g. help break",
    ),
    ("quit q exit", "quit: leaves the debugger.  e.g. quit"),
];

/// The words the console itself handles, for `help`.
pub const HELP: &str = "\
Running:   run (r)  continue (c) [N | Ns | Nms | Nf]  step/stepi (s) [N]  next (n) [N]  finish (fin)
           until (u) [LOC]  advance LOC  reverse-step (rs) [N]  reverse-next (rn) [N]
           reverse-finish  reverse-continue (rc)
Breaking:  break (b) LOC [if COND]  tbreak LOC  delete (d) [N]  enable [N]  disable [N]
           condition N [EXPR]  ignore N COUNT  commands [N] ... end  info breakpoints
Showing:   display[/FMT] EXPR  undisplay [N]  info display
Other:     echo TEXT  help [COMMAND]  quit (q)
Scripts:   assert EXPR [; MESSAGE]  if EXPR ... else ... end
continue N runs at most N steps; continue 2s, 500ms or 100f (frames) runs that much virtual time.
";

impl Console {
    pub fn new() -> Console {
        Console::default()
    }

    /// Sets how many stops in a row run their breakpoints' `commands` ([`MAX_COMMAND_STOPS`]
    /// unless set).
    pub fn set_command_stops(&mut self, stops: usize) {
        self.command_stops = Some(stops);
    }

    /// Sets how many steps `continue`, `finish`, `next`, `until` and reverse runs may take in batch
    /// mode (the fuzz tests keep each command short; users get [`DEFAULT_BUDGET`]).
    pub fn set_budget(&mut self, steps: u64) {
        self.budget = Some(steps);
    }

    /// Runs one command line to its end (batch mode: runs have step budgets). Blank lines and
    /// `#` comments do nothing.
    pub fn execute(&mut self, d: &mut dyn Debuggable, line: &str) -> Output {
        self.frames = false;
        match self.begin(d, line) {
            Progress::Done(out) => out,
            // Budgets of steps never stop at a frame's end.
            Progress::Running => {
                self.running = None;
                d.interrupt();
                Output::text(String::new())
            }
        }
    }

    /// Starts one command line in the terminal: a command that runs the program (`continue`,
    /// `next`, `finish`, `until`, `call`, `reverse-continue`...) runs frame by frame, without a
    /// step budget (the user stops it): [`Progress::Running`] until it stops.
    pub fn start(&mut self, d: &mut dyn Debuggable, line: &str) -> Progress {
        self.frames = true;
        self.begin(d, line)
    }

    /// Whether a command started with [`Console::start`] is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Runs the command under way for another frame.
    pub fn go_on(&mut self, d: &mut dyn Debuggable) -> Progress {
        let Some(run) = self.running.take() else {
            return Progress::Done(Output::text(String::new()));
        };
        let mut stop = d.resume();
        if let Some((left, budget)) = run.time {
            let text = self.timed(d, stop, left, budget);
            if self.running.is_some() {
                return Progress::Running;
            }
            d.after_command();
            let mut out = Output::text(text);
            self.run_point_commands(d, &mut out);
            return Progress::Done(out);
        }
        if let (StopReason::Done, Some((kind, left))) = (&stop, run.repeat) {
            stop = match self.repeat_steps(d, kind, left) {
                Ok(stop) => stop,
                Err(()) => return Progress::Running,
            };
        } else if stop == StopReason::Limit && d.under_way() {
            self.running = Some(run);
            return Progress::Running;
        }
        d.after_command();
        let mut out = Output::text(self.report(d, &stop));
        self.run_point_commands(d, &mut out);
        Progress::Done(out)
    }

    /// Stops the command under way (the user pressed Escape): the program stays where it is.
    pub fn interrupt(&mut self, d: &mut dyn Debuggable) -> Output {
        self.running = None;
        d.interrupt();
        d.after_command();
        Output::text(format!("Stopped.\n{}", self.report(d, &StopReason::Done)))
    }

    /// The run limit of a command that runs the program: `budget` steps in batch mode, frame by
    /// frame in the terminal (with `count` steps in all when the user gave one).
    fn limit(&self, budget: u64, count: Option<u64>) -> RunLimit {
        let budget = self.budget.unwrap_or(budget);
        match (self.frames, count) {
            (false, Some(n)) => RunLimit::Steps(n),
            (false, None) => RunLimit::Steps(budget),
            (true, Some(n)) => RunLimit::Frame(n),
            (true, None) => RunLimit::FRAMES,
        }
    }

    fn begin(&mut self, d: &mut dyn Debuggable, line: &str) -> Progress {
        self.running = None;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Progress::Done(Output::text(String::new()));
        }
        if let Some((id, lines)) = &mut self.defining {
            // gdb's `commands`: every line up to `end` is kept, not run.
            if line == "end" {
                let id = *id;
                let lines = std::mem::take(lines);
                self.defining = None;
                if lines.is_empty() {
                    self.point_commands.remove(&id);
                } else {
                    self.point_commands.insert(id, lines);
                }
            } else {
                lines.push(line.to_string());
            }
            return Progress::Done(Output::text(String::new()));
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if matches!(word, "quit" | "q" | "exit") {
            return Progress::Done(Output {
                text: String::new(),
                flow: Flow::Quit,
                error: false,
            });
        }
        d.before_command();
        let result = self.dispatch(d, word, rest.trim(), line);
        if result.is_ok() && self.running.is_some() {
            return Progress::Running;
        }
        self.running = None;
        d.after_command();
        let mut out = match result {
            Ok(text) => Output::text(text),
            Err(e) => Output {
                text: format!("error: {e}\n"),
                flow: Flow::Continue,
                error: true,
            },
        };
        self.run_point_commands(d, &mut out);
        Progress::Done(out)
    }

    /// Runs the `commands` of the breakpoints and watchpoints the last stop named, after its
    /// report, as gdb does: each list in order, stopping at its first error, and at a command
    /// that ran the program into another stop (whose own commands then run). They run as in a
    /// script (with the step budget), also in the terminal.
    fn run_point_commands(&mut self, d: &mut dyn Debuggable, out: &mut Output) {
        if self.in_point_commands {
            return;
        }
        let frames = self.frames;
        self.in_point_commands = true;
        let most = self.command_stops.unwrap_or(MAX_COMMAND_STOPS);
        for _ in 0..most {
            let ids = std::mem::take(&mut *self.stopped_by.borrow_mut());
            let lines: Vec<String> = ids
                .iter()
                .filter_map(|id| self.point_commands.get(id))
                .flatten()
                .cloned()
                .collect();
            if lines.is_empty() {
                break;
            }
            for line in lines {
                let o = self.execute(d, &line);
                out.text.push_str(&o.text);
                out.error |= o.error;
                if o.error || !self.stopped_by.borrow().is_empty() {
                    break;
                }
            }
        }
        if !self.stopped_by.borrow().is_empty() {
            self.stopped_by.borrow_mut().clear();
            let _ = writeln!(
                out.text,
                "(breakpoint commands: stopped after {most} stops in a row)"
            );
        }
        self.in_point_commands = false;
        self.frames = frames;
    }

    /// The report of a command that ran the program, or nothing yet if it is still under way.
    fn ran(&mut self, d: &mut dyn Debuggable, stop: StopReason) -> String {
        if self.frames && stop == StopReason::Limit && d.under_way() {
            self.running = Some(Running {
                repeat: None,
                time: None,
            });
            return String::new();
        }
        self.report(d, &stop)
    }

    /// A run with a time budget that stopped (`stop`) with `left` frame ends still to go:
    /// runs on frame by frame (in the terminal, one frame per [`Console::go_on`]) until the
    /// budget is spent, then ends the run where it is and says so.
    fn timed(
        &mut self,
        d: &mut dyn Debuggable,
        mut stop: StopReason,
        mut left: u64,
        budget: TimeBudget,
    ) -> String {
        loop {
            // Anything but a frame's end (a breakpoint, the exit, the step budget) ends the run.
            if stop != StopReason::Limit || !d.under_way() {
                return self.report(d, &stop);
            }
            left = left.saturating_sub(1);
            if left == 0 {
                d.interrupt();
                return self.report_limit(
                    d,
                    &StopReason::Limit,
                    &format!("{} of virtual time", budget.describe()),
                );
            }
            if self.frames {
                self.running = Some(Running {
                    repeat: None,
                    time: Some((left, budget)),
                });
                return String::new();
            }
            stop = d.resume();
        }
    }

    fn dispatch(
        &mut self,
        d: &mut dyn Debuggable,
        word: &str,
        rest: &str,
        line: &str,
    ) -> Result<String, String> {
        match word {
            "break" | "b" | "br" | "tbreak" => {
                if rest.is_empty() {
                    return Err("break needs a location (see help)".into());
                }
                let (loc, cond) = split_condition(rest);
                let temporary = word == "tbreak";
                let (id, at) = d.break_at(loc, cond, temporary)?;
                self.last_point = Some(id);
                let kind = if temporary {
                    "Temporary breakpoint"
                } else {
                    "Breakpoint"
                };
                let cond = cond.map(|c| format!(" if {}", c.trim())).unwrap_or_default();
                Ok(format!("{kind} {id} at {at}{cond}\n"))
            }
            "delete" | "d" | "enable" | "disable" => {
                let id = if rest.is_empty() {
                    None
                } else {
                    Some(number_arg(rest, 0)? as u32)
                };
                let found = match word {
                    "enable" | "disable" => d.enable_breakpoint(id, word == "enable"),
                    _ => d.delete_breakpoint(id),
                };
                if found && matches!(word, "delete" | "d") {
                    match id {
                        Some(id) => self.point_commands.retain(|&n, _| n != id),
                        None => self.point_commands.clear(),
                    }
                }
                if found {
                    Ok(String::new())
                } else {
                    Err(format!("no breakpoint number {rest}"))
                }
            }
            "run" | "r" => {
                d.restart();
                let stop = d.run(self.limit(DEFAULT_BUDGET, None));
                Ok(self.ran(d, stop))
            }
            "continue" | "c" | "cont" => {
                if let Some(budget) = TimeBudget::parse(rest, d.frame_rate()) {
                    let budget = budget?;
                    let steps = self.budget.unwrap_or(DEFAULT_BUDGET);
                    let stop = d.run(RunLimit::Frame(steps));
                    return Ok(self.timed(d, stop, budget.frames, budget));
                }
                let count = if rest.is_empty() {
                    None
                } else {
                    Some(number_arg(rest, 0)?)
                };
                let stop = d.run(self.limit(DEFAULT_BUDGET, count));
                Ok(self.ran(d, stop))
            }
            "stepi" | "si" | "step" | "s" => self.repeat(d, rest, StepKind::Into),
            "next" | "n" | "nexti" | "ni" => self.repeat(d, rest, StepKind::Over),
            "finish" | "fin" => {
                d.can_finish()?;
                let stop = d.step(StepKind::Out, self.limit(DEFAULT_BUDGET, None));
                Ok(self.ran(d, stop))
            }
            "until" | "u" | "advance" => {
                let limit = self.limit(DEFAULT_BUDGET, None);
                let stop = if rest.is_empty() {
                    d.step(StepKind::Over, limit)
                } else {
                    d.run_to(rest, limit)?
                };
                Ok(self.ran(d, stop))
            }
            "reverse-step" | "rs" | "reverse-stepi" | "rsi" => {
                let n = number_arg(rest, 1)?;
                let stop = d.reverse_step(n)?;
                Ok(self.report(d, &stop))
            }
            "reverse-next" | "rn" | "reverse-nexti" | "rni" => {
                let n = number_arg(rest, 1)?;
                let stop = d.reverse(StepKind::Over, n)?;
                Ok(self.report(d, &stop))
            }
            "reverse-finish" => {
                let stop = d.reverse(StepKind::Out, 1)?;
                Ok(self.report(d, &stop))
            }
            "reverse-continue" | "rc" => {
                let stop = d.reverse_continue(self.limit(DEFAULT_BUDGET, None))?;
                Ok(self.ran(d, stop))
            }
            "display" => {
                if rest.is_empty() {
                    return Ok(self.displays(d));
                }
                if d.display("", rest).is_none() {
                    d.check_expression(rest)?;
                } else if let Some(Err(e)) = d.display("", rest) {
                    return Err(e);
                }
                self.displays.push(rest.to_string());
                Ok(self.display_one(d, self.displays.len() - 1))
            }
            w if w.starts_with("display/") => {
                // gdb's `display/x EXPR`: kept as `/x EXPR`, shown as `print/x` shows it.
                let format = &w["display/".len()..];
                if rest.is_empty() {
                    return Err("display/FMT needs an expression".into());
                }
                match d.display(format, rest) {
                    None => return Err(format!("display/{format} is not offered on this machine")),
                    Some(Err(e)) => return Err(e),
                    Some(Ok(_)) => {}
                }
                self.displays.push(format!("/{format} {rest}"));
                Ok(self.display_one(d, self.displays.len() - 1))
            }
            "undisplay" if rest.is_empty() => {
                // As gdb's `undisplay` with no number (without its question).
                self.displays.clear();
                Ok("Deleted all displays.\n".into())
            }
            "undisplay" => {
                let n = number_arg(rest, 0)? as usize;
                if n == 0 || n > self.displays.len() {
                    return Err(format!("no display number {rest}"));
                }
                self.displays.remove(n - 1);
                Ok(String::new())
            }
            "info" | "i" if matches!(rest, "breakpoints" | "break" | "b" | "watchpoints") => {
                Ok(breakpoint_table(&d.breakpoints()))
            }
            "info" | "i" if rest == "display" => Ok(self.displays(d)),
            "condition" => {
                let (n, cond) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if n.is_empty() {
                    return Err("usage: condition N [EXPR]".into());
                }
                let id = number_arg(n, 0)? as u32;
                let cond = cond.trim();
                d.set_condition(id, (!cond.is_empty()).then_some(cond))?;
                Ok(if cond.is_empty() {
                    format!("Breakpoint {id} now unconditional.\n")
                } else {
                    String::new()
                })
            }
            "ignore" => {
                let (n, count) = rest
                    .split_once(char::is_whitespace)
                    .ok_or("usage: ignore N COUNT")?;
                let id = number_arg(n, 0)? as u32;
                let count = number_arg(count, 0)?;
                d.set_ignore(id, count)?;
                Ok(match count {
                    0 => format!("Will stop next time breakpoint {id} is reached.\n"),
                    1 => format!("Will ignore next crossing of breakpoint {id}.\n"),
                    n => format!("Will ignore next {n} crossings of breakpoint {id}.\n"),
                })
            }
            "commands" => {
                let id = match rest {
                    "" => self.last_point.ok_or("No breakpoints specified (commands N)")?,
                    n => number_arg(n, 0)? as u32,
                };
                if !d.breakpoints().iter().any(|b| b.id == id) {
                    return Err(format!("no breakpoint number {id}"));
                }
                self.defining = Some((id, Vec::new()));
                Ok(format!(
                    "Type commands for breakpoint {id}, one per line.\nEnd with a line saying just \"end\".\n"
                ))
            }
            "echo" => Ok(format!("{rest}\n")),
            "help" | "h" if !rest.is_empty() => help_on(rest, d.help()),
            "help" | "h" => Ok(format!("{HELP}{}", d.help())),
            _ => match d.command(line, self.limit(DEFAULT_BUDGET, None)) {
                Some(Ok(text)) => {
                    if self.frames && d.under_way() {
                        // A command of the machine's that runs the program (`call`).
                        self.running = Some(Running {
                            repeat: None,
                            time: None,
                        });
                    }
                    Ok(text)
                }
                Some(Err(e)) => Err(e),
                None => Err(format!("unknown command `{word}` (try `help`)")),
            },
        }
    }

    fn repeat(&mut self, d: &mut dyn Debuggable, count: &str, kind: StepKind) -> Result<String, String> {
        let n = number_arg(count, 1)?;
        // A script has no Escape: a count that could run for hours is refused, not started (the
        // terminal runs any count frame by frame, and Escape stops it).
        if !self.frames && n > MAX_SCRIPT_REPEAT {
            return Err(format!(
                "a count of at most {MAX_SCRIPT_REPEAT} in a script (`{}`)",
                count.trim()
            ));
        }
        match self.repeat_steps(d, kind, n.max(1)) {
            Ok(stop) => Ok(self.report(d, &stop)),
            Err(()) => Ok(String::new()),
        }
    }

    /// Takes `n` steps of `kind`, stopping early at anything but a plain finish. `Err(())`: one
    /// of them is under way at a frame's end (the rest are kept for [`Console::go_on`]).
    fn repeat_steps(&mut self, d: &mut dyn Debuggable, kind: StepKind, n: u64) -> Result<StopReason, ()> {
        let mut stop = StopReason::Done;
        let started = std::time::Instant::now();
        for i in 0..n {
            // In the terminal the steps of `stepi 100000000` go on at the next look, so the
            // screen follows and Escape is read (they all ran before the UI looked again).
            if self.frames && i > 0 && i % 256 == 0 && started.elapsed() >= REPEAT_LOOK {
                self.running = Some(Running {
                    repeat: Some((kind, n - i)),
                    time: None,
                });
                return Err(());
            }
            stop = d.step(kind, self.limit(DEFAULT_BUDGET, None));
            if self.frames && stop == StopReason::Limit && d.under_way() {
                self.running = Some(Running {
                    repeat: Some((kind, n - i - 1)),
                    time: None,
                });
                return Err(());
            }
            if stop != StopReason::Done {
                break;
            }
        }
        Ok(stop)
    }

    /// The stop report: why it stopped, where, and the displays.
    pub fn report(&self, d: &dyn Debuggable, stop: &StopReason) -> String {
        self.report_limit(d, stop, "the step budget")
    }

    /// [`Console::report`], naming what ran out at a [`StopReason::Limit`].
    fn report_limit(&self, d: &dyn Debuggable, stop: &StopReason, limit: &str) -> String {
        let mut s = String::new();
        match stop {
            StopReason::Done => {}
            StopReason::Breakpoint(ids) => {
                let _ = writeln!(s, "Breakpoint {}, {}", list(ids), d.here().describe);
                self.stopped_by.replace(ids.clone());
            }
            StopReason::Watchpoint(ids, what) => {
                let _ = writeln!(s, "Watchpoint {}: {what}", list(ids));
                self.stopped_by.replace(ids.clone());
            }
            StopReason::Exited(status) => {
                let _ = writeln!(s, "Program exited with status {status}.");
                return s;
            }
            StopReason::Failed(e) => {
                let _ = writeln!(s, "Program stopped: {e}");
            }
            StopReason::Limit => {
                let _ = writeln!(s, "Stopped: {limit} ran out.");
            }
            StopReason::HistoryStart => {
                let _ = writeln!(s, "No more reverse-execution history.");
            }
        }
        let here = d.here();
        let _ = write!(s, "{}  {}", here.describe, here.next);
        s.push_str(&self.displays(d));
        s
    }

    fn display_one(&self, d: &dyn Debuggable, i: usize) -> String {
        let e = &self.displays[i];
        let (format, expr) = match e.strip_prefix('/') {
            Some(f) => f.split_once(' ').unwrap_or((f, "")),
            None => ("", e.as_str()),
        };
        match d.display(format, expr) {
            Some(Ok(text)) => return format!("{}: {text}", i + 1),
            Some(Err(err)) => return format!("{}: {e} = <{err}>\n", i + 1),
            None => {}
        }
        match d.evaluate(e) {
            Ok(v) => format!("{}: {e} = {v}\n", i + 1),
            Err(err) => format!("{}: {e} = <{err}>\n", i + 1),
        }
    }

    /// Every display with its value now.
    pub fn displays(&self, d: &dyn Debuggable) -> String {
        (0..self.displays.len()).map(|i| self.display_one(d, i)).collect()
    }

    /// Runs a whole script: each command is echoed after `(PROMPT) `, then what the program
    /// printed meanwhile, then the command's output. Returns the transcript and whether any
    /// command failed or any assertion was false. Scripts check as well as drive: `assert EXPR
    /// [; MESSAGE]` ends the script when EXPR is false (naming its line), and `if EXPR` /
    /// `else` / `end` run a part of it only when EXPR holds (commands skipped are not echoed).
    pub fn run_script(&mut self, d: &mut dyn Debuggable, script: &str) -> (String, bool) {
        let (out, failed) = self.run_script_raw(d, script);
        // The echoes, the program's output and the answers (listings, string values, errors
        // quoting the command) may hold control bytes from the program or the script: a
        // transcript shows them escaped (`\x1b`), so printing it never drives the terminal.
        (
            retro_diag::escape::escape_keeping_newlines(&out).into_owned(),
            failed,
        )
    }

    /// [`Console::run_script`] before its transcript is escaped.
    fn run_script_raw(&mut self, d: &mut dyn Debuggable, script: &str) -> (String, bool) {
        let mut out = String::new();
        let mut failed = false;
        let mut blocks = ScriptBlocks::default();
        for (number, line) in script.lines().enumerate() {
            let number = number + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // The lines of a `commands` list are kept for later, `end` included.
            let control = if self.defining.is_some() {
                Ok(Control::Run)
            } else {
                blocks.control(d, line)
            };
            match control {
                Ok(Control::Skip) => continue,
                Ok(Control::Echo) => {
                    let _ = writeln!(out, "({}) {line}", d.prompt());
                    continue;
                }
                Ok(Control::Run) => {}
                Err(e) => {
                    let _ = writeln!(out, "({}) {line}\nerror: line {number}: {e}", d.prompt());
                    return (out, true);
                }
            }
            let _ = writeln!(out, "({}) {line}", d.prompt());
            let kept = self.defining.is_some();
            if let Some(cond) = line
                .strip_prefix("assert ")
                .or((line == "assert").then_some(""))
                .filter(|_| !kept)
            {
                match assertion(d, cond) {
                    Ok(()) => continue,
                    Err(e) => {
                        let _ = writeln!(out, "Assertion failed at line {number}: {e}");
                        return (out, true);
                    }
                }
            }
            let o = self.execute(d, line);
            // What the program printed comes first, as a terminal would show it.
            let mut printed = String::new();
            d.take_output(&mut printed);
            out.push_str(&printed);
            if !printed.is_empty() && !printed.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&o.text);
            failed |= o.error;
            if o.flow == Flow::Quit {
                return (out, failed);
            }
        }
        if !blocks.0.is_empty() {
            out.push_str("error: an `if` without its `end`\n");
            failed = true;
        }
        if let Some((id, _)) = self.defining.take() {
            let _ = writeln!(out, "error: `commands {id}` without its `end`");
            failed = true;
        }
        (out, failed)
    }
}

/// What a script does with a line, given its `if` blocks.
#[derive(Debug, PartialEq, Eq)]
enum Control {
    /// A command to run.
    Run,
    /// `if`, `else` or `end`: shown in the transcript, nothing to run.
    Echo,
    /// In a branch not taken.
    Skip,
}

/// The `if` blocks a script is inside: for each, whether its current branch runs and whether an
/// earlier branch already ran.
#[derive(Default)]
struct ScriptBlocks(Vec<(bool, bool)>);

/// The deepest `if` nesting a script may use (a bound on the stack, not a limit anyone meets).
const MAX_IF_DEPTH: usize = 64;

impl ScriptBlocks {
    fn running(&self) -> bool {
        self.0.iter().all(|&(on, _)| on)
    }

    fn control(&mut self, d: &dyn Debuggable, line: &str) -> Result<Control, String> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word {
            "if" => {
                if self.0.len() >= MAX_IF_DEPTH {
                    return Err(format!("more than {MAX_IF_DEPTH} nested `if`s"));
                }
                let outer = self.running();
                if rest.trim().is_empty() {
                    return Err("if needs an expression".into());
                }
                // Inside a branch not taken, the condition is not even evaluated.
                let on = outer && d.holds(rest.trim())?;
                self.0.push((on, on));
                Ok(if outer { Control::Echo } else { Control::Skip })
            }
            "else" => {
                let Some(&(_, taken)) = self.0.last() else {
                    return Err("`else` without `if`".into());
                };
                let n = self.0.len();
                self.0[n - 1] = (!taken, true);
                let outer = self.0[..n - 1].iter().all(|&(on, _)| on);
                Ok(if outer { Control::Echo } else { Control::Skip })
            }
            "end" if !self.0.is_empty() => {
                self.0.pop();
                Ok(if self.running() {
                    Control::Echo
                } else {
                    Control::Skip
                })
            }
            _ if self.running() => Ok(Control::Run),
            _ => Ok(Control::Skip),
        }
    }
}

/// `assert EXPR [; MESSAGE]`: `Err` says what was false.
fn assertion(d: &dyn Debuggable, arg: &str) -> Result<(), String> {
    let (cond, message) = match arg.split_once(';') {
        Some((c, m)) => (c.trim(), Some(m.trim())),
        None => (arg.trim(), None),
    };
    if cond.is_empty() {
        return Err("assert needs an expression".into());
    }
    let holds = d.holds(cond)?;
    if holds {
        return Ok(());
    }
    let value = d.evaluate(cond).unwrap_or_default();
    Err(match message {
        Some(m) if !m.is_empty() => format!("{m} ({cond} = {value})"),
        _ => format!("{cond} = {value}"),
    })
}

fn list(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// `info breakpoints`.
pub fn breakpoint_table(list: &[BreakpointInfo]) -> String {
    if list.is_empty() {
        return "No breakpoints or watchpoints.\n".into();
    }
    let mut s = String::from("Num  Type             Enb  Hits  What\n");
    for b in list {
        let cond = b
            .condition
            .as_ref()
            .map(|c| format!(" if {c}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{:<4} {:<16} {:<4} {:<5} {}{cond}",
            b.id,
            b.kind,
            if b.enabled { "y" } else { "n" },
            b.hits,
            b.what
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_reports_only_a_change_and_keeps_the_new_value() {
        let mut last = None;
        assert_eq!(
            watch_changed("X", &mut last, Some("0".into())).as_deref(),
            Some("X\nOld value = (no such variable)\nNew value = 0")
        );
        assert_eq!(last.as_deref(), Some("0"));
        assert_eq!(watch_changed("X", &mut last, Some("0".into())), None);
        assert_eq!(
            watch_changed("X", &mut last, None).as_deref(),
            Some("X\nOld value = 0\nNew value = (no such variable)")
        );
    }

    #[test]
    fn the_last_stop_is_the_latest_and_a_breakpoint_wins_its_statement() {
        let mut s = LastStop::default();
        assert_eq!(s.get(), None);
        s.note(3, StopReason::Watchpoint(vec![2], "w".into()));
        s.note(7, StopReason::Breakpoint(vec![1]));
        s.note(7, StopReason::Watchpoint(vec![2], "w".into()));
        assert_eq!(s.get(), Some(&(7, StopReason::Breakpoint(vec![1]))));
        s.note(9, StopReason::Watchpoint(vec![2], "v".into()));
        assert_eq!(s.get(), Some(&(9, StopReason::Watchpoint(vec![2], "v".into()))));
        s.clear();
        assert_eq!(s.get(), None);
    }
}
