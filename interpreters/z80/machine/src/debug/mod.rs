//! The Z80 debugger core: a program on the workbench machine, breakpoints and watchpoints,
//! stepping (into, over, out, to a location), reverse execution, expressions, views, and calling
//! a routine with chosen registers. No terminal: the batch mode ([`commands`]) and the TUI both
//! drive it.
//!
//! # Calling a routine from a test
//!
//! ```
//! use retro_z80_machine::debug::Z80Debugger;
//!
//! let asm = retro_z80_asm::assemble_str("t.asm", "
//!         org $8000
//! double: ld a,(hl)
//!         add a,a
//!         ld (hl),a
//!         ret
//! ").unwrap();
//! let mut dbg = Z80Debugger::from_assembly(&asm);
//! dbg.machine.poke(0x9000, 21);
//! let r = dbg.call("double", &[("HL", 0x9000)], 1000).unwrap();
//! assert_eq!(r.reg("A"), Some(42));
//! assert_eq!(r.changed, vec![(0x9000, 21, 42)]);
//! ```
//!
//! A routine that does not return within the budget is an error that says where it was
//! ([`CallError::Budget`]'s message names the label, offset and source line).

pub mod breakpoints;
pub mod commands;
mod debuggable;
pub mod expr;
pub mod history;
mod monitor;
pub mod structs;
pub mod views;

use std::fmt;

use retro_machine::script::KeyScript;
use retro_machine::{Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_z80::Registers;
use retro_z80_asm::Assembly;

use crate::host::{NoProbe, Saved, Stop, Z80Host};
use crate::program::Program;
use crate::workbench::{FrameRate, Workbench};
use breakpoints::{Breakpoints, Kind, WatchHit, WritesOnly};
use history::History;

/// Why the program stopped after a run command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The step or run finished where it was meant to.
    Done,
    /// Breakpoints (their numbers) at the PC.
    Breakpoint(Vec<u32>),
    /// Watchpoints (their numbers) hit by the last instruction.
    Watchpoint(Vec<u32>, WatchHit),
    /// The program wrote this exit status (or returned to 0000h: status 0).
    Exited(u8),
    /// The instruction budget ran out.
    Budget,
    /// Reverse execution reached the oldest recorded step.
    HistoryStart,
}

/// A `call` that did not come back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The routine's name is not a label or expression.
    Target(String),
    /// A register assignment named no register.
    Register(String),
    /// The budget ran out; `at` is where the routine was (`label+offset (file:line)`).
    Budget {
        routine: String,
        budget: u64,
        at: String,
    },
    /// The routine returned with the stack not where it started (`sp` is what it was).
    Unbalanced { routine: String, sp: u16, expected: u16 },
    /// The program wrote its exit status inside the routine.
    Exited { routine: String, status: u8, at: String },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Target(e) => write!(f, "cannot call {e}"),
            CallError::Register(r) => write!(f, "no register named `{r}`"),
            CallError::Budget { routine, budget, at } => {
                write!(
                    f,
                    "{routine} did not return within {budget} instructions: it was at {at}"
                )
            }
            CallError::Unbalanced {
                routine,
                sp,
                expected,
            } => write!(
                f,
                "{routine} returned with SP={sp:04X}, not {expected:04X} (the stack is unbalanced)"
            ),
            CallError::Exited { routine, status, at } => {
                write!(
                    f,
                    "the program exited with status {status} inside {routine}, at {at}"
                )
            }
        }
    }
}

impl std::error::Error for CallError {}

/// What a successful `call` gives back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    /// The registers when the routine returned (PC is the caller's again).
    pub regs: Registers,
    /// Every byte the routine changed: (address, before, after), in address order.
    pub changed: Vec<(u16, u8, u8)>,
    /// CPU steps and T-states it took.
    pub steps: u64,
    pub tstates: u64,
}

impl CallResult {
    /// A register or pair by name (`A`, `HL`, `IX`...), as [`views::register`] reads them.
    pub fn reg(&self, name: &str) -> Option<u16> {
        views::register(&self.regs, &name.to_ascii_uppercase()).map(|v| v as u16)
    }
}

/// The debugger: a program loaded on a Z80 machine (the workbench unless said otherwise), with
/// everything the commands need.
pub struct Z80Debugger<M: Z80Host = Workbench> {
    pub program: Program,
    pub machine: M,
    /// The machine as the program started: what `run` restarts from.
    initial: Saved<M::Devices>,
    pub breakpoints: Breakpoints,
    history: History<M::Devices>,
    /// Whether reverse history is recorded (on by default).
    pub record: bool,
    /// CPU steps since the program started: the clock of reverse execution.
    count: u64,
    keys: KeyScript,
    /// The registers at the previous stop, to mark what changed.
    pub previous: Registers,
    pub structs: structs::Structs,
    /// The last run stopped at its limit: the next run continues it without stepping off the PC.
    resuming: bool,
    /// Runs stop at the end of the current frame ([`retro_machine::debug::RunLimit::Frame`]).
    frame_limit: bool,
    /// The registers when the current command started (to mark what it changed).
    before_command: Option<Registers>,
    /// Where the memory panel starts (the last `x` address; HL until then).
    pub memory_at: Option<u16>,
    /// Where the next `x` with no address starts: just after what the last one showed.
    pub examine_next: Option<u16>,
    /// Where the next bare `list` goes on from.
    pub listed: retro_machine::debug::GoOn,
    /// The byte a watched write replaced (the watch report's old value), from the history.
    watch_old: Option<u8>,
    /// The `call`s stopped inside their routines, innermost last: each is completed when its
    /// routine returns to the end trap with the SP it started with (a `call` made while stopped
    /// inside another one stacks on it, as gdb's calls do).
    pending_calls: Vec<PendingCall>,
    /// The report of a call completed by a step or run, shown with the program's output.
    call_output: String,
    /// A command stopped at the end of a frame before it was done (the terminal runs commands
    /// frame by frame): what it was doing and the steps its budget has left.
    under_way: Option<(Motion, u64)>,
    /// The keys the user typed while the program ran in the terminal, at the machine's virtual
    /// time (in time order): part of the run, so reverse execution replays them.
    live_keys: Vec<KeyEvent>,
    /// `info TOPIC`s a tool outside the debugger adds (the Tetris AI's `info ai`): each topic's
    /// name and what it says about the machine as it stands.
    info_topics: Vec<(&'static str, InfoTopic<M>)>,
}

/// What an added `info` topic says about the machine.
pub type InfoTopic<M> = Box<dyn FnMut(&M) -> String>;

/// What a command that runs the program does until it stops (kept while it is under way).
#[derive(Clone, Debug)]
enum Motion {
    Continue,
    /// `next` over the instruction ending at `target`, with SP back at `sp0` or above.
    Next {
        target: u16,
        sp0: u16,
    },
    /// `finish`: until a return takes SP above `sp0`.
    Finish {
        sp0: u16,
    },
    Until {
        addr: u16,
    },
    /// Until the pending call returns (within `budget` steps in all).
    Call {
        budget: u64,
    },
    ReverseContinue(ReverseSearch),
}

/// `reverse-continue`'s search: the history segments not yet replayed, newest first.
#[derive(Clone, Debug)]
struct ReverseSearch {
    /// The step count the search started from (the end of the newest segment).
    end: u64,
    /// Checkpoint counts still to search, oldest first (popped from the back).
    starts: Vec<u64>,
}

/// How far above SP `finish` looks for the current routine's return address (as the backtrace
/// does).
const FRAME_SEARCH: u16 = 512;

/// Whether stack address `sp` is above `sp0` (closer to the stack's top), counting in the
/// 16-bit ring: a stack set at 0000h pushes to FFFEh, and its RET takes SP back to 0000h.
fn stack_above(sp: u16, sp0: u16) -> bool {
    (sp.wrapping_sub(sp0) as i16) > 0
}

/// Steps of history `reverse-continue` replays per frame in the terminal.
const REVERSE_SLICE: u64 = 8 * history::INTERVAL;

impl Z80Debugger<Workbench> {
    /// A debugger on a fresh workbench machine running `program` (50 Hz unless the program
    /// defines `WORKBENCH_HZ EQU 60`).
    pub fn new(program: Program) -> Z80Debugger {
        let rate = match program.symbols.get("WORKBENCH_HZ") {
            Some(60) => FrameRate::Hz60,
            _ => FrameRate::Hz50,
        };
        let mut machine = Workbench::new(rate);
        program.load_into(&mut machine);
        Z80Debugger::with_machine(program, machine)
    }

    /// A debugger for an assembled program.
    pub fn from_assembly(asm: &Assembly) -> Z80Debugger {
        Z80Debugger::new(Program::from_assembly(asm))
    }

    /// Feeds the controller from an input movie (one button byte per frame) and restarts the
    /// program with it. The tape is part of the machine's starting state, so every restart plays
    /// it from the first frame again.
    pub fn set_pad_tape(&mut self, frames: std::sync::Arc<[u8]>) {
        self.machine.load_all(self.initial.clone());
        self.machine.set_pad_tape(frames);
        self.initial = self.machine.save_all();
        self.restart();
    }
}

impl<M: Z80Host> Z80Debugger<M> {
    /// Adds `info TOPIC`, answered by `say` from the machine as it stands (a tool that knows
    /// the program, like the Tetris AI, explains it where the debugger stopped).
    pub fn add_info(&mut self, topic: &'static str, say: InfoTopic<M>) {
        self.info_topics.push((topic, say));
    }

    /// What the added `info` topic `topic` says now (`None`: no such topic).
    pub(crate) fn added_info(&mut self, topic: &str) -> Option<String> {
        let machine = &self.machine;
        let (_, say) = self.info_topics.iter_mut().find(|(t, _)| *t == topic)?;
        Some(say(machine))
    }

    /// A debugger on `machine`, which has `program` loaded and is about to run it.
    pub fn with_machine(program: Program, machine: M) -> Z80Debugger<M> {
        let structs = structs::Structs::from_program(&program);
        let mut d = Z80Debugger {
            previous: machine.cpu().registers(),
            initial: machine.save_all(),
            program,
            machine,
            breakpoints: Breakpoints::new(),
            history: History::default(),
            record: true,
            count: 0,
            keys: KeyScript::default(),
            structs,
            resuming: false,
            frame_limit: false,
            before_command: None,
            memory_at: None,
            examine_next: None,
            listed: Default::default(),
            watch_old: None,
            pending_calls: vec![],
            call_output: String::new(),
            under_way: None,
            live_keys: vec![],
            info_topics: vec![],
        };
        d.history.set_limit(d.t_per_second() * history::DEFAULT_SECONDS);
        d.modified();
        d
    }

    /// `info record`: how far back reverse execution can go, in steps, frames and seconds.
    pub fn record_info(&self) -> String {
        let Some(span) = self.history.span().filter(|_| self.record) else {
            return "Reverse history is off.\n".into();
        };
        let tps = self.t_per_second().max(1);
        retro_machine::debug::basic::history::Reach {
            back: self.count - span.oldest.min(self.count),
            oldest: span.oldest,
            unit: "steps",
            frames: span.frames,
            seconds: span.tstates as f64 / tps as f64,
            checkpoints: span.checkpoints,
            bytes: span.bytes,
            limit: match self.history.limit() {
                u64::MAX => None,
                t => Some(t / tps),
            },
        }
        .text()
    }

    /// `set record limit SECONDS` (`10`, `10s`, `unlimited`: only the memory bound).
    pub fn set_record_limit(&mut self, arg: &str) -> Result<String, String> {
        let limit = retro_machine::debug::basic::history::parse_limit(arg)?;
        self.history
            .set_limit(limit.map_or(u64::MAX, |s| s * self.t_per_second()));
        Ok(String::new())
    }

    /// T-states in a second of virtual time.
    pub fn t_per_second(&self) -> u64 {
        self.machine.clock().frame_t * u64::from(self.machine.frame_hz())
    }

    /// Reloads the program: the machine as it started (breakpoints and the key script stay; keys
    /// typed in the terminal belonged to the previous run).
    pub fn restart(&mut self) {
        self.machine.load_all(self.initial.clone());
        self.machine.set_replaying(false);
        // Output the previous run left undrained is not this run's.
        self.machine.drain_text(&mut String::new());
        self.pending_calls.clear();
        self.under_way = None;
        self.live_keys.clear();
        // The limit the user set stays.
        self.history = History::new(self.history.limit());
        self.count = 0;
        self.previous = self.machine.cpu().registers();
        self.apply_keys();
        self.modified();
    }

    /// Scripted keys, fed to the machine by virtual time (so reverse execution replays them).
    pub fn set_keys(&mut self, keys: KeyScript) {
        self.keys = keys;
        self.apply_keys();
        self.modified();
    }

    /// CPU steps since the start.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The machine's virtual time.
    pub fn now(&self) -> VirtualTime {
        let hz = self.machine.frame_hz() as u64;
        let t = self.machine.cpu().tstates() as u128;
        VirtualTime::from_micros((t * 1_000_000 / (self.machine.clock().frame_t as u128 * hz as u128)) as u64)
    }

    /// Applies the key script's held keys for the frame now starting. A headless `retro run`
    /// calls `run_frame` for frame k+1 with the time at that frame's end, so the keys of a frame
    /// are those held at its end: the same here, so that `run` and `debug` behave the same.
    fn apply_keys(&mut self) {
        if self.keys.events.is_empty() && self.live_keys.is_empty() {
            return;
        }
        let now = self.key_time();
        let script = self.keys.events.iter().take_while(|e| e.at <= now);
        let live = self.live_keys.iter().take_while(|e| e.at <= now);
        let mut events: Vec<&KeyEvent> = script.chain(live).collect();
        // Stable: at the same time, the script's keys come first.
        events.sort_by_key(|e| e.at);
        self.machine.feed_keys(&events, now);
    }

    /// The virtual time whose keys the current frame sees (see [`Z80Debugger::apply_keys`]).
    fn key_time(&self) -> VirtualTime {
        let hz = self.machine.frame_hz() as u64;
        VirtualTime((self.machine.clock().frame + 1) * 1_000_000 / hz)
    }

    /// A key the user pressed or let go of while the program runs (in the terminal, between
    /// frames): the frame now starting sees it, and so does any replay of this frame. Keys typed
    /// after this point in an earlier pass (before a reverse step) are forgotten.
    pub fn user_key(&mut self, key: Key, kind: KeyEventKind) {
        let at = self.key_time();
        self.live_keys.retain(|e| e.at <= at);
        self.live_keys.push(KeyEvent { at, key, kind });
        self.apply_keys();
        // A checkpoint taken at this very step has the keys from before.
        if self.history.has(self.count) {
            self.modified();
        }
    }

    /// Runs at most `max` steps; `stop_at(pc)` and the enabled breakpoints (when `breaks`) stop
    /// before an instruction, watchpoints after one. Records checkpoints on the way.
    fn advance(&mut self, max: u64, breaks: bool, stop_at: impl FnMut(u16) -> bool) -> (u64, Stop) {
        self.advance_with(max, breaks, breaks, stop_at)
    }

    /// [`Z80Debugger::advance`] with exec breakpoints (`exec`) and watchpoints (`watch`) chosen apart.
    fn advance_with(
        &mut self,
        max: u64,
        exec: bool,
        watch: bool,
        mut stop_at: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        let mut done = 0;
        self.breakpoints.probe().hit.set(None);
        loop {
            let mut chunk = max - done;
            if self.record {
                chunk = chunk.min(history::INTERVAL - self.count % history::INTERVAL);
            }
            let bps = &self.breakpoints;
            // A call stopped inside its routine ends where the routine returns to the end trap.
            let trap = !self.pending_calls.is_empty();
            let end_trap = self.machine.end_trap();
            // `stop_at` is a type of its own per caller and the probe is chosen here, so the
            // run loop is compiled for each and its per-instruction test is inlined (a dynamic
            // call there cost several percent of attached speed).
            let probe = bps.probe();
            let brk = |pc| bps.at(pc) || stop_at(pc) || (trap && pc == end_trap);
            let (n, stop) = match (exec, watch, probe.sees_reads()) {
                (true, _, true) => self.machine.run(probe, chunk, u64::MAX, brk),
                (true, _, false) => self.machine.run(&WritesOnly(probe), chunk, u64::MAX, brk),
                (false, true, true) => self.machine.run(probe, chunk, u64::MAX, &mut stop_at),
                (false, true, false) => self
                    .machine
                    .run(&WritesOnly(probe), chunk, u64::MAX, &mut stop_at),
                (false, false, _) => self.machine.run(&NoProbe, chunk, u64::MAX, &mut stop_at),
            };
            self.count += n;
            done += n;
            if self.record && self.count.is_multiple_of(history::INTERVAL) && n > 0 {
                self.history
                    .record(self.count, self.machine.snapshot(), self.machine.memory());
            }
            match stop {
                Stop::Frame if self.frame_limit => {
                    self.apply_keys();
                    return (done, Stop::Frame);
                }
                Stop::Frame => self.apply_keys(),
                Stop::Budget if done < max => {}
                other => return (done, other),
            }
        }
    }

    /// Continues until a breakpoint whose condition holds, a watchpoint, the exit port or the
    /// budget. `extra` adds a stop location (the temporary one of next/until), checked with `accept`.
    fn resume(&mut self, budget: u64, extra: Option<u16>, accept: &mut dyn FnMut(&Self) -> bool) -> Event {
        let mut used = 0;
        // A breakpoint at the starting PC must not stop us again: step off it first (unless this
        // continues a run that its limit interrupted: then a breakpoint here was not yet reported).
        let mut first = !std::mem::take(&mut self.resuming);
        while used < budget {
            let (n, stop) = if first {
                first = false;
                // The step off is one whole instruction, even where a frame ends.
                let frames = std::mem::replace(&mut self.frame_limit, false);
                let r = self.advance_with(1, false, true, |_| false);
                self.frame_limit = frames;
                r
            } else {
                match extra {
                    None => self.advance(budget - used, true, |_| false),
                    Some(at) => self.advance(budget - used, true, move |pc| pc == at),
                }
            };
            used += n;
            match stop {
                Stop::Exit(s) => return Event::Exited(s),
                Stop::Probe => {
                    if let Some(hit) = self.breakpoints.probe().hit.get() {
                        let ids = self.watch_conditions_holding(self.breakpoints.matching(&hit));
                        if ids.is_empty() {
                            // Every watch touched has a condition that does not hold: run on.
                            continue;
                        }
                        for &id in &ids {
                            if let Some(b) = self.breakpoints.get_mut(id) {
                                b.hits += 1;
                            }
                        }
                        self.watch_old = (hit.write && !hit.io).then_some(hit.old);
                        return Event::Watchpoint(ids, hit);
                    }
                }
                Stop::Break(pc) => {
                    if extra == Some(pc) && accept(self) {
                        return Event::Done;
                    }
                    if pc == self.machine.end_trap()
                        && self
                            .pending_calls
                            .last()
                            .is_some_and(|c| c.sp0 == self.machine.cpu().sp())
                    {
                        return Event::Done;
                    }
                    let ids = self.breakpoints_hit(pc);
                    if !ids.is_empty() {
                        return Event::Breakpoint(ids);
                    }
                    // A false condition (or a location not accepted): step on.
                    let (n, stop) = self.advance_with(1, false, true, |_| false);
                    used += n;
                    if let Stop::Exit(s) = stop {
                        return Event::Exited(s);
                    }
                }
                Stop::Frame if self.frame_limit => return Event::Budget,
                Stop::Budget | Stop::Time | Stop::Frame => {}
            }
        }
        Event::Budget
    }

    /// The watchpoints of `ids` whose conditions (`watch A if COND`) hold now.
    fn watch_conditions_holding(&self, ids: Vec<u32>) -> Vec<u32> {
        ids.into_iter()
            .filter(|&id| {
                let b = self.breakpoints.list().iter().find(|b| b.id == id);
                b.and_then(|b| b.condition.as_ref())
                    .is_none_or(|c| c.1.eval(&views::MachineEnv::new(self)).is_ok_and(|v| v != 0))
            })
            .collect()
    }

    /// The breakpoints at `pc` whose conditions hold; counts their hits and deletes temporary ones.
    fn breakpoints_hit(&mut self, pc: u16) -> Vec<u32> {
        let candidates: Vec<(u32, Option<expr::Expr>)> = self
            .breakpoints
            .exec_at(pc)
            .map(|b| (b.id, b.condition.as_ref().map(|c| c.1.clone())))
            .collect();
        let mut ids = vec![];
        for (id, cond) in candidates {
            let holds = cond.is_none_or(|c| c.eval(&views::MachineEnv::new(self)).is_ok_and(|v| v != 0));
            // gdb's `ignore`: a hit counts, but passes while the count lasts.
            let passes = self.breakpoints.get_mut(id).is_some_and(|b| {
                let pass = holds && b.ignore > 0;
                if pass {
                    b.ignore -= 1;
                    b.hits += 1;
                }
                pass
            });
            if holds && !passes {
                ids.push(id);
            }
        }
        for &id in &ids {
            let temporary = match self.breakpoints.get_mut(id) {
                Some(b) => {
                    b.hits += 1;
                    b.temporary
                }
                None => false,
            };
            if temporary {
                self.breakpoints.delete(Some(id));
            }
        }
        ids
    }

    /// Marks the current registers as the ones later views compare against.
    pub fn mark_stop(&mut self, before: Registers) {
        self.previous = before;
    }

    /// `continue`: runs until something stops it (budget: steps).
    pub fn cont(&mut self, budget: u64) -> Event {
        self.drive(Motion::Continue, budget)
    }

    /// Runs `motion` for at most `budget` steps. If the run stops at the end of a frame
    /// (`frame_limit`) before it is done, it is kept under way for [`Z80Debugger::go_on`].
    fn drive(&mut self, mut motion: Motion, budget: u64) -> Event {
        let count0 = self.count;
        let ev = match &mut motion {
            Motion::Continue | Motion::Call { .. } => self.resume(budget, None, &mut |_| false),
            &mut Motion::Next { target, sp0 } => self.resume(budget, Some(target), &mut |d| {
                !stack_above(sp0, d.machine.cpu().sp())
            }),
            &mut Motion::Finish { sp0 } => self.finish_from(sp0, budget),
            &mut Motion::Until { addr } => self.resume(budget, Some(addr), &mut |_| true),
            Motion::ReverseContinue(search) => self.reverse_search(search),
        };
        let reverse = matches!(motion, Motion::ReverseContinue(_));
        let used = self.count.saturating_sub(count0);
        if ev == Event::Budget && self.frame_limit && (reverse || used < budget) {
            // Stopped at a frame's end, not by the budget: a breakpoint here is still to report.
            self.resuming = !reverse;
            self.under_way = Some((motion, budget - used.min(budget)));
            return ev;
        }
        if let Motion::Call { budget } = motion {
            self.call_ended(&ev, budget);
        }
        ev
    }

    /// A call running frame by frame stopped for good without returning: it is over, with the
    /// error a `call` gives (the output shows it).
    fn call_ended(&mut self, ev: &Event, budget: u64) {
        let stop = match ev {
            Event::Exited(s) => Stop::Exit(*s),
            Event::Budget => Stop::Budget,
            _ => return,
        };
        if let Some(call) = self.pending_calls.pop() {
            let e = self.call_failed(&call, stop, budget);
            self.call_output.push_str(&format!("error: {e}\n"));
        }
    }

    /// Goes on with the command under way (see `Z80Debugger::drive`) until the end of the frame.
    pub fn go_on(&mut self) -> Event {
        let Some((motion, budget)) = self.under_way.take() else {
            return Event::Done;
        };
        self.frame_limit = true;
        let ev = self.drive(motion, budget);
        self.frame_limit = false;
        ev
    }

    /// Whether a command is under way (see `Z80Debugger::drive`).
    pub fn is_under_way(&self) -> bool {
        self.under_way.is_some()
    }

    /// Forgets the command under way (the user stopped it).
    pub fn stop_under_way(&mut self) {
        self.under_way = None;
        self.resuming = false;
    }

    /// Runs `motion` within `limit`: a budget of steps, or frame by frame.
    fn drive_within(&mut self, motion: Motion, limit: retro_machine::debug::RunLimit) -> Event {
        use retro_machine::debug::RunLimit;
        self.under_way = None;
        let budget = match limit {
            RunLimit::Steps(n) => n,
            RunLimit::Frame(n) => {
                self.frame_limit = true;
                n
            }
        };
        let ev = self.drive(motion, budget);
        self.frame_limit = false;
        ev
    }

    /// `stepi`: one instruction (one CPU step: an interrupt acceptance is a step of its own).
    pub fn stepi(&mut self) -> Event {
        let (_, stop) = self.advance_with(1, false, true, |_| false);
        self.event_of(stop)
    }

    fn event_of(&mut self, stop: Stop) -> Event {
        match stop {
            Stop::Exit(s) => Event::Exited(s),
            Stop::Probe => match self.breakpoints.probe().hit.get() {
                Some(hit) => Event::Watchpoint(self.breakpoints.matching(&hit), hit),
                None => Event::Done,
            },
            _ => Event::Done,
        }
    }

    /// `next`: over a CALL, RST, DJNZ or repeating block instruction (to the instruction after it,
    /// with SP back where it was), otherwise one step.
    pub fn next(&mut self, budget: u64) -> Event {
        match self.next_motion() {
            Some(m) => self.drive(m, budget),
            None => self.stepi(),
        }
    }

    /// What `next` runs, or `None` when it is one step.
    fn next_motion(&self) -> Option<Motion> {
        let pc = self.machine.cpu().pc();
        let (len, over) = views::step_over_info(&self.machine, pc);
        over.then(|| Motion::Next {
            target: pc.wrapping_add(len),
            sp0: self.machine.cpu().sp(),
        })
    }

    /// `finish`: until the current routine returns: a RET, RETI or RETN that takes SP above
    /// where it was when `finish` started (nested calls' returns leave SP at or below it).
    /// Refused in the outermost frame, as gdb refuses it.
    pub fn finish(&mut self, budget: u64) -> Result<Event, String> {
        let sp0 = self.finish_start()?;
        Ok(self.drive(Motion::Finish { sp0 }, budget))
    }

    /// Where `finish` starts from (SP now), or gdb's refusal when no frame on the stack returns
    /// anywhere: no return address (a word just after a CALL or RST) and no pending `call`'s
    /// return to the end trap within `FRAME_SEARCH` bytes above SP. The program's own return
    /// to the end trap (the word 0000h the machine starts with) is the outermost frame's.
    pub fn finish_start(&self) -> Result<u16, String> {
        let sp0 = self.machine.cpu().sp();
        match self.return_frame() {
            Some(_) => Ok(sp0),
            None => Err("\"finish\" not meaningful in the outermost frame.".into()),
        }
    }

    /// The current routine's return: the stack slot holding its return address, and that
    /// address (see [`Z80Debugger::finish_start`]).
    pub fn return_frame(&self) -> Option<(u16, u16)> {
        let sp = self.machine.cpu().sp();
        (0..FRAME_SEARCH / 2).find_map(|i| {
            let slot = sp.wrapping_add(2 * i);
            let w = self.machine.peek_word(slot);
            if w == self.machine.end_trap() {
                let pending = self.pending_calls.iter().any(|c| c.sp0 == slot.wrapping_add(2));
                // The end trap ends the search: above it is no frame of this run.
                return Some(pending.then_some((slot, w)));
            }
            views::return_site(&self.machine, w).map(|_| Some((slot, w)))
        })?
    }

    /// `finish` with SP `sp0` when it started.
    fn finish_from(&mut self, sp0: u16, budget: u64) -> Event {
        let mut used = 0;
        while used < budget {
            let frame = self.machine.clock().frame;
            let pc = self.machine.cpu().pc();
            let is_ret = views::is_return(&self.machine, pc);
            let ev = self.stepi();
            used += 1;
            if ev != Event::Done {
                return ev;
            }
            // Above, wrapping: a stack at the top of memory (`ld sp,0`) returns to SP 0000h.
            if is_ret && stack_above(self.machine.cpu().sp(), sp0) {
                return Event::Done;
            }
            if self.breakpoints.at(self.machine.cpu().pc()) {
                let ids = self.breakpoints_hit(self.machine.cpu().pc());
                if !ids.is_empty() {
                    return Event::Breakpoint(ids);
                }
            }
            if self.frame_limit && self.machine.clock().frame != frame {
                // A frame (and its keys) has just started: give control back.
                return Event::Budget;
            }
        }
        Event::Budget
    }

    /// `until ADDR` / `advance`: runs to an address (or a breakpoint before it).
    pub fn until(&mut self, addr: u16, budget: u64) -> Event {
        self.drive(Motion::Until { addr }, budget)
    }

    /// Goes back to step `target` by restoring the checkpoint before it and replaying.
    pub fn goto_count(&mut self, target: u64) -> Result<(), String> {
        let Some((c, state)) = self.history.at_or_before(target) else {
            return Err(format!(
                "no reverse history that far back (it starts at step {})",
                self.history.oldest().unwrap_or(self.count)
            ));
        };
        self.machine.load_all(state);
        self.count = c;
        self.machine.set_replaying(true);
        let frames = std::mem::replace(&mut self.frame_limit, false);
        let (_, _) = self.advance(target - c, false, |_| false);
        self.frame_limit = frames;
        self.machine.set_replaying(false);
        Ok(())
    }

    /// `reverse-stepi N`.
    pub fn reverse_step(&mut self, n: u64) -> Event {
        let oldest = self.history.oldest().unwrap_or(self.count);
        let target = self.count.saturating_sub(n).max(oldest);
        let short = self.count - target < n;
        if self.goto_count(target).is_err() || short {
            return Event::HistoryStart;
        }
        Event::Done
    }

    /// `reverse-next`: one instruction back, but a routine that returned to here is gone back
    /// over whole, to its CALL (the instruction before was a return that took SP up to where it
    /// is now: the latest step before it with SP there or above is the call).
    pub fn reverse_next(&mut self) -> Event {
        let sp_now = self.machine.cpu().sp();
        let Some(prev) = self.count.checked_sub(1) else {
            return Event::HistoryStart;
        };
        let mut returned = false;
        let target = self.scan_back(&mut |c, sp, is_ret| {
            if c == prev {
                returned = is_ret && stack_above(sp_now, sp);
                return !returned;
            }
            !stack_above(sp_now, sp)
        });
        self.back_to(target)
    }

    /// `reverse-finish`: back to the CALL that entered the current routine (the latest step with
    /// SP above the slot of the routine's return address). Refused in the outermost frame.
    pub fn reverse_finish(&mut self) -> Result<Event, String> {
        self.finish_start()?;
        let (slot, _) = self.return_frame().expect("finish_start found the frame");
        let caller_sp = slot.wrapping_add(2);
        let target = self.scan_back(&mut |_, sp, _| !stack_above(caller_sp, sp));
        Ok(self.back_to(target))
    }

    /// Goes to the step a backward scan found, or to the oldest step of the history.
    fn back_to(&mut self, target: Option<u64>) -> Event {
        match target {
            Some(c) => {
                let _ = self.goto_count(c);
                Event::Done
            }
            None => {
                let oldest = self.history.oldest().unwrap_or(self.count);
                let _ = self.goto_count(oldest);
                Event::HistoryStart
            }
        }
    }

    /// The latest step before now for which `want(count, SP, is a return)` holds (SP and the
    /// instruction as they were before that step ran), replaying the history segment by
    /// segment, newest first. The machine is left where it was.
    fn scan_back(&mut self, want: &mut dyn FnMut(u64, u16, bool) -> bool) -> Option<u64> {
        let now = self.count;
        let saved = self.machine.save_all();
        let saved_record = std::mem::replace(&mut self.record, false);
        let frames = std::mem::replace(&mut self.frame_limit, false);
        let mut end = now;
        let mut found = None;
        for start in self.history.counts_newest_first() {
            if start >= end {
                continue;
            }
            if self.goto_count(start).is_err() {
                break;
            }
            self.machine.set_replaying(true);
            let mut steps = Vec::with_capacity((end - start) as usize);
            while self.count < end {
                let pc = self.machine.cpu().pc();
                steps.push((self.machine.cpu().sp(), views::is_return(&self.machine, pc)));
                self.advance(1, false, |_| false);
            }
            self.machine.set_replaying(false);
            found = steps
                .into_iter()
                .enumerate()
                .rev()
                .map(|(i, step)| (start + i as u64, step))
                .find(|&(c, (sp, ret))| want(c, sp, ret))
                .map(|(c, _)| c);
            if found.is_some() {
                break;
            }
            end = start;
        }
        self.frame_limit = frames;
        self.record = saved_record;
        self.machine.load_all(saved);
        self.count = now;
        found
    }

    /// `reverse-continue`: back to the most recent earlier stop at an enabled breakpoint whose
    /// condition holds, or to the start of the history.
    pub fn reverse_continue(&mut self) -> Event {
        let search = self.reverse_search_from_here();
        self.drive(Motion::ReverseContinue(search), u64::MAX)
    }

    fn reverse_search_from_here(&self) -> ReverseSearch {
        let mut starts = self.history.counts_newest_first();
        starts.reverse();
        ReverseSearch {
            end: self.count,
            starts,
        }
    }

    /// Searches the history segment by segment, newest first (each is replayed once). Frame by
    /// frame, it gives control back after [`REVERSE_SLICE`] steps of replay with the machine at
    /// the earliest step searched so far (where an interrupted search leaves it).
    fn reverse_search(&mut self, s: &mut ReverseSearch) -> Event {
        let saved_record = self.record;
        self.record = false;
        // Replays run whole segments; the frame limit only decides when to give control back.
        let frames = std::mem::replace(&mut self.frame_limit, false);
        let ev = self.reverse_search_segments(s, frames);
        self.frame_limit = frames;
        self.record = saved_record;
        ev
    }

    fn reverse_search_segments(&mut self, s: &mut ReverseSearch, frames: bool) -> Event {
        let mut replayed = 0;
        while let Some(start) = s.starts.pop() {
            let end = s.end;
            if start >= end {
                continue;
            }
            if frames && replayed >= REVERSE_SLICE {
                s.starts.push(start);
                let _ = self.goto_count(end);
                return Event::Budget;
            }
            let _ = self.goto_count(start);
            let mut last = None;
            self.machine.set_replaying(true);
            while self.count < end {
                let (_, stop) = self.advance(end - self.count, true, |_| false);
                match stop {
                    Stop::Break(pc) => {
                        let env_holds = self.breakpoints.exec_at(pc).any(|b| {
                            b.condition
                                .as_ref()
                                .is_none_or(|c| c.1.eval(&views::MachineEnv::new(self)).is_ok_and(|v| v != 0))
                        });
                        if env_holds {
                            last = Some(self.count);
                        }
                        self.advance(1, false, |_| false);
                    }
                    // A watch stops after the instruction: one that ends at `end` is the stop
                    // the search started from, not an earlier one.
                    Stop::Probe if self.count < end => {
                        let holds = self.breakpoints.probe().hit.get().is_some_and(|hit| {
                            !self
                                .watch_conditions_holding(self.breakpoints.matching(&hit))
                                .is_empty()
                        });
                        if holds {
                            last = Some(self.count);
                        }
                    }
                    Stop::Probe => {}
                    _ => break,
                }
            }
            self.machine.set_replaying(false);
            replayed += end - start;
            s.end = start;
            if let Some(at) = last {
                let _ = self.goto_count(at);
                let pc = self.machine.cpu().pc();
                let ids: Vec<u32> = self.breakpoints.exec_at(pc).map(|b| b.id).collect();
                return if ids.is_empty() {
                    Event::Done
                } else {
                    Event::Breakpoint(ids)
                };
            }
        }
        let oldest = self.history.oldest().unwrap_or(0);
        let _ = self.goto_count(oldest);
        Event::HistoryStart
    }

    /// Records that the machine was changed from outside (registers or memory set by the user),
    /// so that reverse execution replays from the changed state, not from before the change.
    pub fn modified(&mut self) {
        self.history
            .record(self.count, self.machine.snapshot(), self.machine.memory());
    }

    /// The PCs of the last `n` steps, oldest first (replayed from the history, so tracing costs
    /// nothing while running).
    pub fn trace(&mut self, n: u64) -> Vec<u16> {
        let now = self.count;
        let from = now.saturating_sub(n).max(self.history.oldest().unwrap_or(now));
        let saved = self.machine.save_all();
        let saved_record = self.record;
        let mut pcs = vec![];
        if self.goto_count(from).is_ok() {
            self.record = false;
            self.machine.set_replaying(true);
            while self.count < now {
                pcs.push(self.machine.cpu().pc());
                self.advance(1, false, |_| false);
            }
            self.machine.set_replaying(false);
        }
        self.record = saved_record;
        self.machine.load_all(saved);
        self.count = now;
        pcs
    }

    /// Resolves a location: a label, `file:line`, or an expression. Returns the address.
    pub fn location(&self, text: &str) -> Result<u16, String> {
        let t = text.trim();
        if let Some((file, line)) = t.rsplit_once(':')
            && let Ok(line) = line.parse::<u32>()
            && !file.is_empty()
        {
            // As gdb's: a line with no code (a label alone, a comment) slides to the next one
            // that has some, in the same file.
            let map = &self.program.source_map;
            return map
                .entries
                .iter()
                .filter(|&&(_, len, f, l)| {
                    len > 0 && l + 1 >= line && map.files[f as usize].to_string_lossy().ends_with(file)
                })
                .min_by_key(|&&(a, _, _, l)| (l, a))
                .map(|e| e.0)
                .ok_or_else(|| format!("no code at or after {file}:{line}"));
        }
        let v = expr::eval_str(t, &views::MachineEnv::new(self)).map_err(|e| e.to_string())?;
        u16::try_from(v).map_err(|_| format!("{t} = {v} is not an address ($0000-$FFFF)"))
    }

    /// A bare number where a program has source is a line of its main file, as gdb takes it
    /// (`break 271`): that line as `file:line`; `None` for anything else (`$10F`, `0x10F`, a
    /// label, an expression; a binary's numbers stay addresses).
    pub fn source_line_location(&self, text: &str) -> Option<String> {
        let t = text.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let main = self.program.source_map.files.first()?;
        let name = main.file_name()?.to_string_lossy();
        Some(format!("{name}:{t}"))
    }

    /// Adds an exec breakpoint at a location, with an optional condition.
    pub fn break_at(
        &mut self,
        location: &str,
        condition: Option<&str>,
        temporary: bool,
    ) -> Result<u32, String> {
        let addr = self.location(location)?;
        let condition = match condition {
            Some(c) => Some((c.trim().to_string(), expr::parse(c).map_err(|e| e.to_string())?)),
            None => None,
        };
        Ok(self.breakpoints.add(
            Kind::Exec(addr),
            location.trim().to_string(),
            condition,
            temporary,
        ))
    }

    /// Calls `routine` (a label or an expression) with registers set (`("HL", 0x9000)`, 8-bit
    /// names set one byte), until it returns to its caller, within `budget` steps. Memory set
    /// beforehand (through [`Z80Host::poke`]) stays; breakpoints are not checked. Afterwards the
    /// machine is as the routine left it, except that PC is back where it was.
    pub fn call(
        &mut self,
        routine: &str,
        regs: &[(&str, u16)],
        budget: u64,
    ) -> Result<CallResult, CallError> {
        let call = self.start_call(routine, regs)?;
        let end_trap = self.machine.end_trap();
        let (_, stop) = self.advance(budget, false, |pc| pc == end_trap);
        match stop {
            Stop::Break(_) => self.end_call(call),
            other => Err(self.call_failed(&call, other, budget)),
        }
    }

    /// [`Z80Debugger::call`] that stops at breakpoints and watchpoints inside the routine
    /// (`Err(event)`, with the call pending: stepping or continuing until it returns to the caller
    /// completes it, see [`Z80Debugger::take_returned_call`]).
    pub fn call_stopping(
        &mut self,
        routine: &str,
        regs: &[(&str, u16)],
        budget: u64,
    ) -> Result<Result<CallResult, Event>, CallError> {
        let call = self.start_call(routine, regs)?;
        self.pending_calls.push(call);
        // The routine's first instruction counts: a breakpoint on it stops the call there.
        self.resuming = true;
        let ev = self.resume(budget, None, &mut |_| false);
        let call = self.pending_calls.pop().expect("the pending call");
        let at_return =
            self.machine.cpu().pc() == self.machine.end_trap() && self.machine.cpu().sp() == call.sp0;
        match ev {
            Event::Done if at_return => self.end_call(call).map(Ok),
            Event::Breakpoint(_) | Event::Watchpoint(..) => {
                self.pending_calls.push(call);
                Ok(Err(ev))
            }
            Event::Exited(s) => Err(self.call_failed(&call, Stop::Exit(s), budget)),
            _ => Err(self.call_failed(&call, Stop::Budget, budget)),
        }
    }

    /// [`Z80Debugger::call_stopping`] frame by frame (the terminal): starts the call and runs it to
    /// the end of the frame, where it stays under way ([`Z80Debugger::go_on`] runs on). Its event
    /// so far; a call that returned is completed by [`Z80Debugger::take_returned_call`], one that
    /// failed leaves its error in the output.
    pub fn call_frames(
        &mut self,
        routine: &str,
        regs: &[(&str, u16)],
        budget: u64,
    ) -> Result<Event, CallError> {
        let call = self.start_call(routine, regs)?;
        self.pending_calls.push(call);
        self.under_way = None;
        // The routine's first instruction counts: a breakpoint on it stops the call there.
        self.resuming = true;
        self.frame_limit = true;
        let ev = self.drive(Motion::Call { budget }, budget);
        self.frame_limit = false;
        Ok(ev)
    }

    /// If a call stopped inside its routine has now returned to the caller, completes it (PC and
    /// the registers back as before the call, as after a `call` that ran through): its name and
    /// result.
    pub fn take_returned_call(&mut self) -> Option<(String, Registers, Result<CallResult, CallError>)> {
        let call = self.pending_calls.last()?;
        if self.machine.cpu().pc() != self.machine.end_trap() || self.machine.cpu().sp() != call.sp0 {
            return None;
        }
        let call = self.pending_calls.pop()?;
        let (routine, saved) = (call.routine.clone(), call.saved);
        let r = self.end_call(call);
        self.machine.cpu_mut().set_registers(&saved);
        self.modified();
        Some((routine, saved, r))
    }

    /// Sets the registers, pushes a return to the end trap and jumps to the routine.
    fn start_call(&mut self, routine: &str, regs: &[(&str, u16)]) -> Result<PendingCall, CallError> {
        let target = self
            .location(routine)
            .map_err(|e| CallError::Target(format!("{routine}: {e}")))?;
        let saved = self.machine.cpu().registers();
        for (name, value) in regs {
            views::set_register(self.machine.cpu_mut(), name, *value)
                .map_err(|_| CallError::Register(name.to_string()))?;
        }
        let before = crate::host::copy_memory(self.machine.memory());
        let pc0 = self.machine.cpu().pc();
        // Return to a sentinel: the built-in end trap at 0000h, recognised with the SP it had.
        let sp0 = self.machine.cpu().sp();
        let sp = sp0.wrapping_sub(2);
        self.machine.poke(sp, 0);
        self.machine.poke(sp.wrapping_add(1), 0);
        self.machine.cpu_mut().set_sp(sp);
        self.machine.cpu_mut().set_pc(target);
        self.modified();
        Ok(PendingCall {
            routine: routine.to_string(),
            saved,
            before,
            pc0,
            sp0,
            t0: self.machine.cpu().tstates(),
            count0: self.count,
        })
    }

    fn call_failed(&self, call: &PendingCall, stop: Stop, budget: u64) -> CallError {
        let here = views::describe(self, self.machine.cpu().pc());
        match stop {
            Stop::Exit(status) => CallError::Exited {
                routine: call.routine.clone(),
                status,
                at: here,
            },
            _ => CallError::Budget {
                routine: call.routine.clone(),
                budget,
                at: here,
            },
        }
    }

    /// The routine returned to the end trap: checks the stack, puts back what the call itself
    /// changed, and lists what the routine changed.
    fn end_call(&mut self, call: PendingCall) -> Result<CallResult, CallError> {
        let PendingCall {
            routine,
            before,
            pc0,
            sp0,
            t0,
            count0,
            ..
        } = call;
        let sp_now = self.machine.cpu().sp();
        if sp_now != sp0 {
            return Err(CallError::Unbalanced {
                routine,
                sp: sp_now,
                expected: sp0,
            });
        }
        let sp = sp0.wrapping_sub(2);
        // The return address slot below the stack is not the routine's doing.
        self.machine.poke(sp, before[sp as usize]);
        self.machine
            .poke(sp.wrapping_add(1), before[sp.wrapping_add(1) as usize]);
        self.machine.cpu_mut().set_pc(pc0);
        // The routine's own stack frames (up to 256 bytes below the caller's SP) are scratch space,
        // not results.
        let frames = |a: u16| sp0.wrapping_sub(a).wrapping_sub(1) < 256;
        let changed = (0..=0xFFFFu16)
            .filter(|&a| before[a as usize] != self.machine.peek(a) && !frames(a))
            .map(|a| (a, before[a as usize], self.machine.peek(a)))
            .collect();
        Ok(CallResult {
            regs: self.machine.cpu().registers(),
            changed,
            steps: self.count - count0,
            tstates: self.machine.cpu().tstates() - t0,
        })
    }
}

/// A `call` under way: what to restore and compare when the routine returns.
#[derive(Clone)]
struct PendingCall {
    routine: String,
    saved: Registers,
    before: Box<[u8; 0x10000]>,
    pc0: u16,
    sp0: u16,
    t0: u64,
    count0: u64,
}

#[cfg(test)]
mod tests;
