//! [`BbcDebugger`]: a BBC BASIC program under the debugger, offered to `retro debug` as a
//! [`Debuggable`] machine.
//!
//! The interpreter runs on a thread of its own with a [`Control`] attached (a FN call nests on
//! the Rust stack, so a stop inside a FN cannot return to the caller). While the program is
//! stopped the thread runs jobs, each a call of the trait; a call that runs the program (step,
//! continue...) is answered when the program stops again. Going backwards starts a fresh
//! interpreter and replays quietly (see `control`).

use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};

use retro_machine::basic_machine::BasicMachine;
use retro_machine::debug::basic::runlimit::{budget, goes_on};
use retro_machine::debug::{
    BreakpointInfo, Debuggable, Here, Panel, PanelKind, RunLimit, StepKind, StopReason,
};
use retro_machine::keys::{Key, KeyEvent, KeyEventKind};
use retro_screen::frame::Frame;

use crate::interp::debug::control::{Act, Control, Job, Served, expr_bytes};
use crate::interp::debug::views::show_val;
use crate::interp::host::{Host, KeyRead, LineRead, Signal, TICK_STATEMENTS};
use crate::interp::{Interp, LoadError};
use crate::vdu::Vdu;
use crate::worker::{self, Worker};

/// How the debugged program runs: what `retro run --headless` would give it.
#[derive(Clone, Debug, Default)]
pub struct DebugOptions {
    /// RND's seed, as `--seed`.
    pub seed: Option<i64>,
    /// Scripted key presses (only presses matter: BASIC reads typed keys).
    pub keys: Vec<KeyEvent>,
    /// Where the program's files are.
    pub dir: Option<std::path::PathBuf>,
}

/// Statements per virtual centisecond: the machine's million a second (see `machine`).
const STATEMENTS_PER_CS: u64 = 10_000;

/// Every key the program gets: the centisecond it arrives at, and its code. The script's keys,
/// then those the user types in the terminal while the program runs (at the time they were
/// typed), so that going back (a fresh interpreter replaying) sees them all again.
type Keys = Arc<Mutex<Vec<(u64, u8)>>>;

/// The debugged program's host: virtual time from statement counts, keys at their times.
struct DebugHost {
    keys: Keys,
    /// The next key of `keys` to read.
    next: usize,
    statements: u64,
    waited_cs: u64,
}

impl DebugHost {
    fn now(&self) -> u64 {
        self.statements / STATEMENTS_PER_CS + self.waited_cs
    }
}

impl Host for DebugHost {
    fn tick(&mut self, _vdu: &mut Vdu) -> Signal {
        self.statements += TICK_STATEMENTS as u64;
        Signal::Continue
    }
    fn time_cs(&mut self) -> i64 {
        self.now() as i64
    }
    fn read_key(&mut self, _vdu: &mut Vdu, timeout_cs: Option<u32>) -> KeyRead {
        let now = self.now();
        let front = self.keys.lock().ok().and_then(|k| k.get(self.next).copied());
        match (front, timeout_cs) {
            (Some((at, k)), _) if at <= now => {
                self.next += 1;
                KeyRead::Key(k)
            }
            (Some((at, k)), t) if t.is_none_or(|t| at <= now + t as u64) => {
                self.waited_cs += at - now;
                self.next += 1;
                KeyRead::Key(k)
            }
            (_, Some(t)) => {
                self.waited_cs += t as u64;
                KeyRead::Timeout
            }
            (_, None) => KeyRead::Signal(Signal::Abort),
        }
    }
    fn read_line(&mut self, vdu: &mut Vdu) -> LineRead {
        let mut line = Vec::new();
        loop {
            match self.read_key(vdu, None) {
                KeyRead::Key(13) => break,
                KeyRead::Key(127) => {
                    line.pop();
                }
                KeyRead::Key(k) => line.push(k),
                _ if line.is_empty() => return LineRead::Signal(Signal::Abort),
                _ => break,
            }
        }
        vdu.write_all(&line);
        vdu.write_all(b"\r\n");
        LineRead::Line(line)
    }
    fn wait(&mut self, _vdu: &mut Vdu, cs: u32) -> Signal {
        self.waited_cs += cs.max(2) as u64;
        Signal::Continue
    }
}

type Factory = Arc<dyn Fn() -> Interp + Send + Sync>;

/// A BBC BASIC program under the debugger.
pub struct BbcDebugger {
    worker: Worker<Job>,
    /// What the worker answered when it went away (it never should).
    gone: StopReason,
    /// A command the terminal runs frame by frame, stopped at a frame's end.
    under_way: Option<UnderWay>,
    keys: Keys,
}

/// What goes on at the next frame.
#[derive(Clone, Copy, Debug)]
enum UnderWay {
    /// A `continue` (its limit).
    Run(RunLimit),
    /// A step, `next`, `finish` or `until`: the control goes on as it was.
    Step,
}

impl BbcDebugger {
    /// The program (tokenized bytes), stopped before its first statement.
    pub fn new(program: &[u8], options: DebugOptions) -> Result<BbcDebugger, LoadError> {
        // Checked here, so the worker's interpreters always load.
        Interp::new(program, Box::new(crate::interp::host::ScriptHost::new(b"")))?;
        let keys: Keys = Arc::new(Mutex::new(
            options
                .keys
                .iter()
                .filter(|e| e.kind == retro_machine::keys::KeyEventKind::Press)
                .filter_map(|e| Some((e.at.as_centis(), crate::machine::key_code(e.key)?)))
                .collect(),
        ));
        let shared = keys.clone();
        let program = program.to_vec();
        let factory: Factory = Arc::new(move || {
            let host = DebugHost {
                keys: shared.clone(),
                next: 0,
                statements: 0,
                waited_cs: 0,
            };
            let host = Box::new(host);
            worker::interp(&program, host, options.seed, options.dir.clone())
                .expect("checked when the debugger started")
        });
        let (to_worker, rx) = channel();
        let worker = Worker::spawn("bbc-debug", to_worker, move || {
            worker_main(factory, Box::new(Control::new(rx)))
        })?;
        let mut d = BbcDebugger {
            worker,
            gone: StopReason::Failed("the debugger's interpreter thread has gone".into()),
            under_way: None,
            keys,
        };
        // The worker stops before the first statement: wait for that.
        d.go(|c, _, _, tx| c.restart(tx));
        Ok(d)
    }

    /// Runs `f` on the interpreter's thread while the program is stopped.
    fn call<T: Send + 'static>(
        &self,
        fallback: T,
        f: impl FnOnce(&mut Control, &mut Interp, bool) -> T + Send + 'static,
    ) -> T {
        let (tx, rx) = channel();
        let job: Job = Box::new(move |c, it, running| {
            let _ = tx.send(f(c, it, running));
            Act::Stay
        });
        if self.worker.send(job) {
            rx.recv().unwrap_or(fallback)
        } else {
            fallback
        }
    }

    /// Runs `f`, which may set the program going; waits for the stop it leads to.
    fn go(
        &mut self,
        f: impl FnOnce(&mut Control, &mut Interp, bool, Sender<StopReason>) -> Act + Send + 'static,
    ) -> StopReason {
        let (tx, rx) = channel();
        let job: Job = Box::new(move |c, it, running| f(c, it, running, tx));
        if self.worker.send(job) {
            rx.recv().unwrap_or_else(|_| self.gone.clone())
        } else {
            self.gone.clone()
        }
    }
}

fn worker_main(factory: Factory, mut control: Box<Control>) {
    let mut how = None;
    loop {
        let mut it = factory();
        control.begin(how.take());
        it.attach(control);
        let outcome = it.run();
        control = it.detach().expect("attached above");
        if control.quit {
            return;
        }
        if let Some(r) = control.restart.take() {
            how = Some(r);
            continue;
        }
        match control.serve_finished(&mut it, &outcome) {
            Served::Stop if !control.quit => how = control.restart.take(),
            _ => return,
        }
    }
}

impl BbcDebugger {
    /// A step or `until` stopped at a frame's end is under way.
    fn stepped(&mut self, stop: StopReason, limit: RunLimit) -> StopReason {
        self.under_way = goes_on(&stop, limit).then_some(UnderWay::Step);
        stop
    }
}

impl Debuggable for BbcDebugger {
    fn prompt(&self) -> &str {
        "bbc"
    }

    fn step(&mut self, kind: StepKind, limit: RunLimit) -> StopReason {
        let (budget, frame) = budget(limit);
        let stop = self.go(move |c, it, running, tx| c.step(it, kind, budget, frame, running, tx));
        self.stepped(stop, limit)
    }

    fn run(&mut self, limit: RunLimit) -> StopReason {
        let stop = self.go(move |c, it, running, tx| c.run(it, limit, running, tx));
        // Running again after a Limit goes on with the same run.
        self.under_way = goes_on(&stop, limit).then_some(UnderWay::Run(limit));
        stop
    }

    fn under_way(&self) -> bool {
        self.under_way.is_some()
    }

    fn resume(&mut self) -> StopReason {
        match self.under_way {
            Some(UnderWay::Run(limit)) => Debuggable::run(self, limit),
            Some(UnderWay::Step) => {
                let stop = self.go(|c, it, running, tx| c.next_frame(it, running, tx));
                self.stepped(stop, RunLimit::FRAMES)
            }
            None => StopReason::Done,
        }
    }

    fn interrupt(&mut self) {
        self.under_way = None;
        self.call((), |c, it, _| c.forget_until(it));
    }

    fn user_key(&mut self, key: Key, kind: KeyEventKind) {
        // Presses only: BASIC reads typed keys (INKEY, GET), at the program's time now.
        let Some(code) = (kind == KeyEventKind::Press)
            .then(|| crate::machine::key_code(key))
            .flatten()
        else {
            return;
        };
        let now = self.call(0, |_, it, _| it.time_cs().max(0) as u64);
        if let Ok(mut keys) = self.keys.lock() {
            let at = keys.partition_point(|&(t, _)| t <= now);
            keys.insert(at, (now, code));
        }
    }

    fn run_to(&mut self, location: &str, limit: RunLimit) -> Result<StopReason, String> {
        let (budget, frame) = budget(limit);
        let location = location.to_string();
        let (etx, erx) = channel();
        let stop =
            self.go(
                move |c, it, running, tx| match c.run_to(it, &location, budget, frame, running, tx) {
                    Ok(act) => act,
                    Err(e) => {
                        let _ = etx.send(e);
                        Act::Stay
                    }
                },
            );
        // `run_to` drops `tx` before the job sends its error, so `go` can return first:
        // wait for the job's end (it drops `etx`), never try_recv.
        match erx.recv() {
            Ok(e) => Err(e),
            Err(_) => Ok(self.stepped(stop, limit)),
        }
    }

    fn restart(&mut self) {
        self.go(|c, _, _, tx| c.restart(tx));
    }

    fn reverse_step(&mut self, count: u64) -> Result<StopReason, String> {
        Ok(self.go(move |c, it, _, tx| c.reverse_step(it, count, tx)))
    }

    fn reverse(&mut self, kind: StepKind, count: u64) -> Result<StopReason, String> {
        let Some(fewer) = retro_machine::debug::reverse_by_depth(kind, count)? else {
            return self.reverse_step(count);
        };
        let mut stop = StopReason::Done;
        for _ in 0..count.max(1) {
            let depth = self.call(None, |_, it, _| Some(it.call_depth())).unwrap_or(0);
            if fewer && depth == 0 {
                return Err(retro_machine::debug::OUTERMOST_REVERSE_FINISH.into());
            }
            stop = self.go(move |c, it, _, tx| c.reverse_over(it, depth, fewer, tx));
            if stop != StopReason::Done {
                break;
            }
        }
        Ok(stop)
    }

    fn reverse_continue(&mut self, _limit: RunLimit) -> Result<StopReason, String> {
        Ok(self.go(|c, it, _, tx| c.reverse_continue(it, tx)))
    }

    fn break_at(&mut self, loc: &str, cond: Option<&str>, temporary: bool) -> Result<(u32, String), String> {
        let (loc, cond) = (loc.to_string(), cond.map(str::to_string));
        self.call(Err("the debugger has gone".into()), move |c, it, _| {
            c.break_at(it, &loc, cond.as_deref(), temporary)
        })
    }

    fn delete_breakpoint(&mut self, id: Option<u32>) -> bool {
        self.call(false, move |c, it, _| c.delete(it, id))
    }

    fn enable_breakpoint(&mut self, id: Option<u32>, enabled: bool) -> bool {
        self.call(false, move |c, it, _| c.enable(it, id, enabled))
    }

    fn set_condition(&mut self, id: u32, condition: Option<&str>) -> Result<(), String> {
        let condition = condition.map(str::to_string);
        self.call(Err("the debugger has gone".into()), move |c, _, _| {
            c.set_condition(id, condition.as_deref())
        })
    }

    fn set_ignore(&mut self, id: u32, count: u64) -> Result<(), String> {
        self.call(Err("the debugger has gone".into()), move |c, _, _| {
            c.set_ignore(id, count)
        })
    }

    fn display(&self, format: &str, expr: &str) -> Option<Result<String, String>> {
        // `display/FMT EXPR` shows what `print/FMT EXPR` does; a plain one, the value.
        if format.is_empty() {
            return None;
        }
        let line = format!("print/{format} {expr}");
        self.call(None, move |c, it, running| c.command(it, &line, running))
    }

    fn breakpoints(&self) -> Vec<BreakpointInfo> {
        self.call(Vec::new(), |c, it, _| c.breakpoints(it))
    }

    fn breakpoints_here(&self) -> Vec<u32> {
        self.call(Vec::new(), |c, it, running| {
            if running {
                c.points.ids_at(it.pc_at_statement())
            } else {
                Vec::new()
            }
        })
    }

    fn frame_rate(&self) -> u32 {
        Self::FRAME_HZ
    }

    fn here(&self) -> Here {
        let fallback = Here {
            describe: "(the debugger has gone)".into(),
            location: String::new(),
            next: "\n".into(),
        };
        self.call(fallback, |_, it, running| it.here(running))
    }

    fn evaluate(&self, expr: &str) -> Result<String, String> {
        let bytes = expr_bytes(expr);
        self.call(Err("the debugger has gone".into()), move |_, it, _| {
            it.debug_eval(&bytes).map(|v| show_val(&v))
        })
    }

    fn panel(&self, kind: PanelKind, rows: usize) -> Option<Panel> {
        self.call(None, move |c, it, running| c.panel(it, kind, rows, running))
    }

    fn completion_names(&self) -> Vec<String> {
        self.call(Vec::new(), |_, it, _| it.completion_names())
    }

    fn screen(&self) -> Frame {
        self.call(None, |_, it, _| Some(it.vdu.frame()))
            .unwrap_or_else(|| {
                let blank = retro_screen::frame::PixelBuffer::new(8, 8, (8, 8), 0);
                Frame::pixels(blank, retro_screen::palette::Palette::acorn2())
            })
    }

    fn take_output(&mut self, out: &mut String) {
        // With `trace on`, the lines entered come in order with the program's text.
        let stopped = self.under_way.is_none();
        out.push_str(&self.call(String::new(), move |c, it, _| c.take_output(it, stopped)));
    }

    fn command(&mut self, line: &str, _limit: RunLimit) -> Option<Result<String, String>> {
        if let Some(n) = line
            .strip_prefix("trace")
            .filter(|r| r.is_empty() || r.starts_with(' '))
        {
            // `trace on` / `trace off`: the lines entered while commands run.
            let arg = n.to_string();
            if let Some(said) = self.call(None, move |c, _, _| c.line_trace.command(&arg)) {
                return Some(Ok(said));
            }
            // A replay notes the statements: it restarts the interpreter, as going back does.
            let n = match retro_machine::debug::number_arg(n, 20) {
                Ok(n) => n.min(100_000),
                Err(e) => return Some(Err(e)),
            };
            if self.call(false, |_, _, running| running) {
                self.go(move |c, _, _, tx| c.trace(n, tx));
            }
            return Some(Ok(
                self.call(String::new(), |c, _, _| std::mem::take(&mut c.traced))
            ));
        }
        let line = line.to_string();
        self.call(None, move |c, it, running| c.command(it, &line, running))
    }

    fn help(&self) -> &str {
        super::commands::HELP
    }

    fn before_command(&mut self) {
        // A new command ends any run still under way.
        self.under_way = None;
        self.call((), |c, it, _| {
            c.vars_before = it.variable_lines();
            c.line_trace.new_command();
        });
    }
}

impl BasicMachine for BbcDebugger {
    const NAME: &'static str = "BBC BASIC V (debugger)";
    const FRAME_HZ: u32 = 50;
}
