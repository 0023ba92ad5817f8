//! [`BbcDebugger`]: a BBC BASIC program under the debugger, driven one command line at a time.
//!
//! The interpreter runs on a thread of its own with a [`Control`] attached. While the program is
//! stopped the thread waits for command lines and answers each with an [`Output`]; a command that
//! runs the program (step, continue...) is answered when the program stops again. Going
//! backwards starts a fresh interpreter and replays quietly (see [`super::control`]).

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use retro_screen::keys::KeyEvent;

use super::super::host::{Host, KeyRead, LineRead, Signal, TICK_STATEMENTS};
use super::super::vdu::Vdu;
use super::super::{Interp, LoadError};
use super::control::{Control, Served};

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
/// Stack for the interpreter thread, as the machine's.
const WORKER_STACK: usize = 256 << 20;
const WORKER_MAX_DEPTH: u32 = 20_000;

/// The debugged program's host: virtual time from statement counts, keys at their script times.
struct DebugHost {
    keys: VecDeque<(u64, u8)>,
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
        match (self.keys.front().copied(), timeout_cs) {
            (Some((at, k)), _) if at <= now => {
                self.keys.pop_front();
                KeyRead::Key(k)
            }
            (Some((at, k)), t) if t.is_none_or(|t| at <= now + t as u64) => {
                self.waited_cs += at - now;
                self.keys.pop_front();
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
    to_worker: Option<Sender<String>>,
    from_worker: Receiver<Output>,
    worker: Option<JoinHandle<()>>,
    /// The last command, repeated by an empty line in the TUI.
    pub last: Option<String>,
}

impl BbcDebugger {
    /// The program (tokenized bytes), stopped before its first statement.
    pub fn new(program: &[u8], options: DebugOptions) -> Result<BbcDebugger, LoadError> {
        // Checked here, so the worker's interpreters always load.
        Interp::new(program, Box::new(super::super::host::ScriptHost::new(b"")))?;
        let keys: VecDeque<(u64, u8)> = options
            .keys
            .iter()
            .filter(|e| e.kind == retro_screen::keys::KeyEventKind::Press)
            .filter_map(|e| Some((e.at.as_centis(), super::super::machine::key_code(e.key)?)))
            .collect();
        let program = program.to_vec();
        let factory: Factory = Arc::new(move || {
            let host = DebugHost {
                keys: keys.clone(),
                statements: 0,
                waited_cs: 0,
            };
            let mut it = Interp::new(&program, Box::new(host)).expect("checked when the debugger started");
            it.vdu = Vdu::new(Box::new(crate::vdu::GraphicsScreen::new(7)));
            it.max_depth = WORKER_MAX_DEPTH;
            it.set_file_root(options.dir.clone());
            if let Some(s) = options.seed {
                it.seed(s);
            }
            it
        });
        let (to_worker, rx) = channel();
        let (tx, from_worker) = channel();
        let worker = std::thread::Builder::new()
            .name("bbc-debug".into())
            .stack_size(WORKER_STACK)
            .spawn(move || worker_main(factory, rx, tx))
            .map_err(|_| LoadError::TooBig)?;
        Ok(BbcDebugger {
            to_worker: Some(to_worker),
            from_worker,
            worker: Some(worker),
            last: None,
        })
    }

    /// Runs one command line and returns what it printed.
    pub fn execute(&mut self, line: &str) -> Output {
        let gone = Output {
            text: String::new(),
            flow: Flow::Quit,
            error: false,
        };
        let Some(tx) = &self.to_worker else {
            return gone;
        };
        if tx.send(line.to_string()).is_err() {
            return gone;
        }
        self.from_worker.recv().unwrap_or(gone)
    }
}

impl Drop for BbcDebugger {
    fn drop(&mut self) {
        // Closing the channel makes the worker stop wherever it waits.
        self.to_worker = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

fn worker_main(factory: Factory, rx: Receiver<String>, tx: Sender<Output>) {
    let mut control = Box::new(Control::new(rx, tx));
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

/// Runs a script of commands (one a line, `#` comments) and returns the transcript: each
/// command echoed after `(bbc) ` and followed by its output. Also says whether any failed.
pub fn run_script(dbg: &mut BbcDebugger, script: &str) -> (String, bool) {
    let mut out = String::new();
    let mut failed = false;
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push_str("(bbc) ");
        out.push_str(line);
        out.push('\n');
        let o = dbg.execute(line);
        out.push_str(&o.text);
        failed |= o.error;
        if o.flow == Flow::Quit {
            break;
        }
    }
    (out, failed)
}
