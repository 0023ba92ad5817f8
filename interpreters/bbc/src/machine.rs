//! [`BbcMachine`]: the interpreter as a [`Machine`] the front end (terminal or headless) drives.
//!
//! The interpreter runs on its own thread, with a big stack, and hands control back at frame
//! boundaries: after a budget of statements, or while BASIC waits (INKEY n, GET, INPUT, WAIT).
//! `run_frame` gives it the frame's keys and virtual time, then blocks until it yields, so a run
//! is exactly as repeatable as single-threaded code. At each yield the worker publishes the
//! screen and the text printed since the last one, and its reply says how the program stands
//! and how many frames it started (a batch of frames hands over once).

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, SendError, Sender, channel};
use std::sync::{Arc, Mutex};

use retro_machine::clock::{VirtualClock, VirtualTime};
use retro_machine::keys::{HeldKeys, HoldMode, Key, KeyEvent, KeyEventKind};
use retro_machine::machine::{HeadlessOptions, HeadlessRun, Machine, RunState};
use retro_screen::frame::Frame;

use crate::format::SaveFormat;
use crate::interp::host::{Host, KeyRead, LineRead, PIXELS_PER_TICK, Signal, TICK_STATEMENTS};
use crate::interp::lineedit::{History, LineEdit};
use crate::interp::prompt::{Prompt, PromptEnd};
use crate::interp::{Interp, LoadError, Outcome};
use crate::vdu::Vdu;
use crate::worker::{self, Worker};

/// Statements per 50 Hz frame (one million a second of virtual time).
pub const STATEMENTS_PER_FRAME: u32 = 20_000;

/// Where INPUT and GET read from.
pub enum InputSource {
    /// Only keys (the terminal): INPUT edits a line from key presses, echoing it.
    Keys,
    /// Keys first, then these bytes (headless runs: stdin), line by line for INPUT.
    Stream(Box<dyn BufRead + Send>),
}

/// Text collected in a batch of frames beyond which the worker hands over anyway, so a program
/// printing without pause holds a bounded amount.
const BATCH_TEXT: usize = 1 << 20;

/// Frames a headless run on the calling thread runs before it writes out the text printed,
/// as `retro_machine::machine::run_headless` hands over at most this many at once.
const INLINE_BATCH: u32 = 250;

enum ToWorker {
    Frame {
        now: VirtualTime,
        keys: Vec<KeyEvent>,
        held: HeldKeys,
    },
    /// Up to `frames` frames with no keys (see `Machine::run_frames`): the worker ticks its copy
    /// of the clock at each and hands over only when the batch is done or the program stops
    /// running (ends, fails, waits for a key).
    Frames {
        clock: VirtualClock,
        frames: u32,
        held: HeldKeys,
    },
}

/// The worker's answer to a hand-over, when it yields.
struct Reply {
    state: RunState,
    /// The frames it started since its last reply: 1 for a frame, up to the batch's count for a
    /// batch (fewer when the program stopped running inside it).
    frames: u32,
}

struct Shared {
    /// The screen the worker last published (`None`: none yet, the first screen).
    frame: Option<Frame>,
    /// Whether the worker publishes the screen (see [`BbcMachine::without_screen`]).
    screen: bool,
    text: String,
    /// QUIT's value, once the program (or the prompt) has obeyed QUIT.
    quit: Option<i32>,
}

/// BBC BASIC V as a machine.
pub struct BbcMachine {
    worker: Worker<ToWorker>,
    from_worker: Receiver<Reply>,
    shared: Arc<Mutex<Shared>>,
    keys: Vec<KeyEvent>,
    key_map: Vec<(Key, char)>,
    finished: Option<RunState>,
}

impl BbcMachine {
    /// A machine that will run `program` (tokenized bytes) from its first frame.
    pub fn new(program: &[u8], seed: Option<i64>, input: InputSource) -> Result<BbcMachine, LoadError> {
        Self::with_files(program, seed, input, None, false)
    }

    /// [`BbcMachine::new`] with the program's files (OPENIN, `*CAT`...) in `dir` and below;
    /// `strict` refuses the whole-array extensions RISC OS refuses (`--strict`).
    pub fn with_files(
        program: &[u8],
        seed: Option<i64>,
        input: InputSource,
        dir: Option<std::path::PathBuf>,
        strict: bool,
    ) -> Result<BbcMachine, LoadError> {
        Self::start(program, seed, input, dir, None, strict)
    }

    /// BBC BASIC's `>` prompt (immediate mode) as a machine, with no program yet: lines are
    /// typed (or read from `input`'s stream) and obeyed as [`Prompt`] does; QUIT ends it.
    pub fn prompt(
        seed: Option<i64>,
        input: InputSource,
        dir: Option<std::path::PathBuf>,
    ) -> Result<BbcMachine, LoadError> {
        Self::prompt_saving_as(seed, input, dir, SaveFormat::default())
    }

    /// [`BbcMachine::prompt`] with SAVE writing `format`.
    pub fn prompt_saving_as(
        seed: Option<i64>,
        input: InputSource,
        dir: Option<std::path::PathBuf>,
        format: SaveFormat,
    ) -> Result<BbcMachine, LoadError> {
        Self::start(&[0x0D, 0xFF], seed, input, dir, Some(format), false)
    }

    fn start(
        program: &[u8],
        seed: Option<i64>,
        input: InputSource,
        dir: Option<std::path::PathBuf>,
        prompt: Option<SaveFormat>,
        strict: bool,
    ) -> Result<BbcMachine, LoadError> {
        let (to_worker, worker_rx) = channel();
        let (worker_tx, from_worker) = channel();
        let shared = Arc::new(Mutex::new(Shared {
            frame: None,
            screen: true,
            text: String::new(),
            quit: None,
        }));
        let link = Link::Worker {
            rx: worker_rx,
            tx: worker_tx,
            shared: shared.clone(),
        };
        let host = MachineHost::new(link, input);
        let mut interp = worker::interp(program, Box::new(host), seed, dir)?;
        interp.strict = strict;
        let shared2 = shared.clone();
        let worker = Worker::spawn("bbc-basic", to_worker, move || {
            if let Some(format) = prompt {
                prompt_main(interp, shared2, format)
            } else {
                worker_main(interp, shared2)
            }
        })?;
        Ok(BbcMachine {
            worker,
            from_worker,
            shared,
            keys: Vec::new(),
            key_map: Vec::new(),
            finished: None,
        })
    }

    /// A machine whose screen nobody looks at (`retro`'s own headless runs with no final screen
    /// need no machine: [`BbcMachine::run_headless_inline`]): the
    /// worker still draws, but no longer copies the screen out at every yield, and `frame`
    /// shows the first screen. Copying the pixels out costs page faults and time at every
    /// start and yield.
    pub fn without_screen(&mut self) {
        match self.shared.lock() {
            Ok(mut s) => s.screen = false,
            Err(p) => p.into_inner().screen = false,
        }
    }

    /// Runs `program` headless as [`run_headless`](retro_machine::machine::run_headless) runs
    /// the machine [`BbcMachine::with_files`] makes, with no screen to show at the end, but on
    /// the calling thread: the interpreter drives the run itself, starting each frame (and
    /// giving it the script's keys, `setup.key_map` applied) where the machine's thread would
    /// wait for it, and writing the text printed to `out` as it goes. A short run is mostly
    /// start-up, which a thread (its creation, its memory arena, and a wake-up each way at
    /// every hand-over) made a third longer. Gives the state the run ended in and QUIT's value.
    pub fn run_headless_inline(
        program: &[u8],
        setup: InlineSetup,
        options: &HeadlessOptions,
        out: Box<dyn Write + Send>,
    ) -> Result<io::Result<(RunState, Option<i32>)>, LoadError> {
        let end = Arc::new(Mutex::new(InlineEnd::default()));
        let driver = Inline {
            run: HeadlessRun::new(50, options.limit, options.script.events.clone()),
            key_map: setup.key_map,
            out,
            unwritten: 0,
            end: end.clone(),
        };
        let host = MachineHost::new(Link::Inline(Box::new(driver)), setup.input);
        let mut interp = worker::interp(program, Box::new(host), setup.seed, setup.dir)?;
        interp.strict = setup.strict;
        Ok(worker::on_big_stack(move || {
            if !interp.host_first_frame() {
                return Ok((RunState::Running, None));
            }
            let outcome = interp.run();
            let state = end_state(&mut interp, &outcome);
            let quit = match outcome {
                Outcome::Quit(n) => Some(n),
                _ => None,
            };
            interp.host_finish(state.clone());
            let mut end = match end.lock() {
                Ok(e) => e,
                Err(p) => p.into_inner(),
            };
            if let Some(e) = end.error.take() {
                return Err(e);
            }
            // Stopped by the limit or by a key wait with no keys left: the state it stood in.
            Ok((end.stopped.take().unwrap_or(state), quit))
        }))
    }

    /// Makes key `from` type the character `to` instead (Rheolism's run maps the arrow keys to
    /// its 7, 9 and 8). Held-key scans (INKEY -k) still see the real key.
    pub fn map_key(&mut self, from: Key, to: char) {
        self.key_map.retain(|&(k, _)| k != from);
        self.key_map.push((from, to));
    }
}

fn worker_main(mut interp: Interp, shared: Arc<Mutex<Shared>>) {
    // Wait for the first frame: time starts with it.
    if !interp.host_first_frame() {
        return;
    }
    let outcome = interp.run();
    let state = end_state(&mut interp, &outcome);
    if let Outcome::Quit(n) = outcome {
        set_quit(&shared, n);
    }
    interp.host_finish(state);
}

/// How a run that ended with `outcome` stands; an error's message goes on the screen.
fn end_state(interp: &mut Interp, outcome: &Outcome) -> RunState {
    match outcome {
        Outcome::Ended | Outcome::Quit(_) => RunState::Ended,
        Outcome::Aborted => RunState::Ended,
        Outcome::Error { .. } => {
            let msg = outcome.message().unwrap_or_default();
            // The message shows on the screen as on the real machine; the text stream carries
            // it separately (headless runs print it on stderr), so it is not collected twice.
            interp.vdu.collect_text = false;
            interp.vdu.write_all(b"\r\n");
            interp.vdu.write_all(msg.as_bytes());
            interp.vdu.write_all(b"\r\n");
            RunState::Failed(msg)
        }
    }
}

fn set_quit(shared: &Mutex<Shared>, status: i32) {
    match shared.lock() {
        Ok(mut s) => s.quit = Some(status),
        Err(p) => p.into_inner().quit = Some(status),
    }
}

/// The worker of [`BbcMachine::prompt`]: the prompt runs until QUIT (or the machine goes).
fn prompt_main(mut interp: Interp, shared: Arc<Mutex<Shared>>, format: SaveFormat) {
    if !interp.host_first_frame() {
        return;
    }
    interp.out_all(b"BBC BASIC V (retro)");
    interp.newline();
    interp.newline();
    if let PromptEnd::Quit(n) = Prompt::default().saving_as(format).run(&mut interp) {
        set_quit(&shared, n);
    }
    interp.host_finish(RunState::Ended);
}

/// RISC OS flashes colours 8-15 with 25 frames (half a second) per phase (*FX 9 and *FX 10).
const FLASH_CS: u64 = 50;

fn publish(vdu: &mut Vdu, shared: &Mutex<Shared>, now: Option<VirtualTime>) {
    if let Ok(mut s) = shared.lock() {
        if s.screen {
            let phase = match now {
                Some(t) => (t.as_centis() / FLASH_CS) % 2 == 1,
                None => s.frame.as_ref().is_some_and(|f| f.flash_phase),
            };
            let frame = match &mut s.frame {
                Some(f) => {
                    vdu.frame_into(f);
                    f
                }
                none => none.insert(vdu.frame()),
            };
            frame.flash_phase = phase;
        }
        let mut t = std::mem::take(&mut s.text);
        vdu.take_text(&mut t);
        s.text = t;
    }
}

impl BbcMachine {
    /// Gives the worker its next frame (or batch of frames) and waits until it yields. A
    /// program that has finished (or a worker that is gone) starts no frame.
    fn hand_over(&mut self, msg: ToWorker) -> Reply {
        let no_frame = |state| Reply { state, frames: 0 };
        if let Some(s) = &self.finished {
            return no_frame(s.clone());
        }
        let sent = self.worker.send(msg);
        let reply = if sent {
            self.from_worker
                .recv()
                .unwrap_or_else(|_| no_frame(RunState::Ended))
        } else {
            no_frame(RunState::Ended)
        };
        if matches!(reply.state, RunState::Ended | RunState::Failed(_)) {
            self.finished = Some(reply.state.clone());
        }
        reply
    }
}

impl Machine for BbcMachine {
    fn name(&self) -> &str {
        "BBC BASIC V"
    }
    fn frame_hz(&self) -> u32 {
        50
    }
    fn key(&mut self, event: KeyEvent) {
        self.keys.push(mapped(&self.key_map, event));
    }
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        let keys = std::mem::take(&mut self.keys);
        self.hand_over(ToWorker::Frame {
            now,
            keys,
            held: held.clone(),
        })
        .state
    }
    fn run_frames(&mut self, clock: &mut VirtualClock, held: &HeldKeys, frames: u32) -> RunState {
        if frames == 0 {
            return RunState::Running;
        }
        let reply = self.hand_over(ToWorker::Frames {
            clock: clock.clone(),
            frames,
            held: held.clone(),
        });
        // The frames the worker started; a program that had already finished takes one, as a
        // `run_frame` call would.
        for _ in 0..reply.frames.clamp(1, frames) {
            clock.tick();
        }
        reply.state
    }
    fn quit_status(&self) -> Option<i32> {
        match self.shared.lock() {
            Ok(s) => s.quit,
            Err(p) => p.into_inner().quit,
        }
    }
    fn frame(&self) -> Frame {
        let last = match self.shared.lock() {
            Ok(s) => s.frame.clone(),
            Err(p) => p.into_inner().frame.clone(),
        };
        // Before the worker's first yield: the screen a machine starts with.
        last.unwrap_or_else(|| worker::screen().frame())
    }
    fn drain_text(&mut self, out: &mut String) {
        if let Ok(mut s) = self.shared.lock() {
            out.push_str(&s.text);
            s.text.clear();
        }
    }
}

/// `event` with the key it types as `key_map` says (see [`BbcMachine::map_key`]).
fn mapped(key_map: &[(Key, char)], mut event: KeyEvent) -> KeyEvent {
    if let Some(&(_, to)) = key_map.iter().find(|&&(k, _)| k == event.key) {
        event.key = Key::Char(to);
    }
    event
}

/// What a [`BbcMachine::run_headless_inline`] run needs for a run: what it is, and the keys to map.
pub struct InlineSetup {
    pub seed: Option<i64>,
    pub input: InputSource,
    /// Where the program's files are (see [`BbcMachine::with_files`]).
    pub dir: Option<std::path::PathBuf>,
    pub strict: bool,
    /// Keys that type another character (see [`BbcMachine::map_key`]).
    pub key_map: Vec<(Key, char)>,
}

/// Whoever starts the host's frames.
enum Link {
    /// The machine on another thread: frames come over `rx`, replies go over `tx`, the screen
    /// and text through `shared`.
    Worker {
        rx: Receiver<ToWorker>,
        tx: Sender<Reply>,
        shared: Arc<Mutex<Shared>>,
    },
    /// Nobody: a headless run on the interpreter's own thread, driven by the host itself.
    Inline(Box<Inline>),
}

/// The driver of a headless run on the interpreter's thread: `run_headless`'s loop, turned
/// inside out so that it runs between the interpreter's frames, by the same rules.
struct Inline {
    run: HeadlessRun<'static>,
    key_map: Vec<(Key, char)>,
    out: Box<dyn Write + Send>,
    /// Frames run since the text was last written out.
    unwritten: u32,
    /// How the run ended, for the caller once the interpreter (which owns this) returns.
    end: Arc<Mutex<InlineEnd>>,
}

#[derive(Default)]
struct InlineEnd {
    /// The state in which the driver stopped the run (a limit, a key wait with no keys left).
    stopped: Option<RunState>,
    /// Writing the text failed (the reader has gone): the run stopped there.
    error: Option<io::Error>,
}

impl Inline {
    fn end(&self) -> std::sync::MutexGuard<'_, InlineEnd> {
        match self.end.lock() {
            Ok(e) => e,
            Err(p) => p.into_inner(),
        }
    }

    /// Writes out the text printed so far; false when that failed.
    fn write_text(&mut self, vdu: &mut Vdu) -> bool {
        self.unwritten = 0;
        let mut text = String::new();
        vdu.take_text(&mut text);
        let written = self.out.write_all(text.as_bytes()).and_then(|_| self.out.flush());
        match written {
            Ok(()) => true,
            Err(e) => {
                self.end().error = Some(e);
                false
            }
        }
    }
}

/// The worker side: blocks between frames, turns key events into BBC key codes.
struct MachineHost {
    link: Link,
    now: VirtualTime,
    /// In a batch of frames without keys: the batch's clock and the frames still to run.
    batch: Option<(VirtualClock, u32)>,
    /// Frames started since the last reply, which carries the count to the main side (see
    /// [`BbcMachine::run_frames`]).
    frames: u32,
    held: HeldKeys,
    keybuf: VecDeque<u8>,
    escape: bool,
    ticks_left: u32,
    /// Drawing not yet charged: pixels short of a tick, and whole ticks still owed (a drawing
    /// longer than the rest of the frame carries into the next frames).
    drawn: u64,
    owed: u64,
    input: InputSource,
    stream_done: bool,
    /// Lines typed before, for Up and Down.
    history: History,
}

/// The byte a key press puts in the keyboard buffer (cursor keys as with *FX4,1).
pub(crate) fn key_code(k: Key) -> Option<u8> {
    Some(match k {
        Key::Char(c) if (c as u32) < 256 => c as u8,
        Key::Return => 13,
        Key::Backspace | Key::Delete => 127,
        Key::Tab => 9,
        Key::Left => 136,
        Key::Right => 137,
        Key::Down => 138,
        Key::Up => 139,
        Key::F(n) if n < 10 => 128 + n,
        Key::Home => 30,
        // Copy (End) as on the BBC Micro, whose cursor codes these are (line editing ends
        // the line with it).
        Key::End => 135,
        _ => return None,
    })
}

/// The key an INKEY(-n) internal key number means (RISC OS numbering, the keys people test).
fn internal_key(n: u8) -> Option<Key> {
    const LETTERS: [u8; 26] = [
        65, 100, 82, 50, 34, 67, 83, 84, 37, 69, 70, 86, 101, 85, 54, 55, 16, 51, 81, 35, 53, 99, 33, 66, 68,
        97,
    ];
    const DIGITS: [u8; 10] = [39, 48, 49, 17, 18, 19, 52, 36, 21, 38];
    Some(match n {
        98 => Key::Char(' '),
        25 => Key::Left,
        121 => Key::Right,
        57 => Key::Up,
        41 => Key::Down,
        73 => Key::Return,
        112 => Key::Escape,
        _ => {
            if let Some(i) = LETTERS.iter().position(|&k| k == n) {
                Key::Char((b'a' + i as u8) as char)
            } else if let Some(i) = DIGITS.iter().position(|&k| k == n) {
                Key::Char((b'0' + i as u8) as char)
            } else {
                return None;
            }
        }
    })
}

impl MachineHost {
    fn new(link: Link, input: InputSource) -> MachineHost {
        MachineHost {
            link,
            now: VirtualTime::ZERO,
            batch: None,
            frames: 0,
            held: HeldKeys::new(HoldMode::ReleaseEvents),
            keybuf: VecDeque::new(),
            escape: false,
            ticks_left: STATEMENTS_PER_FRAME / TICK_STATEMENTS,
            drawn: 0,
            owed: 0,
            input,
            stream_done: false,
            history: History::default(),
        }
    }

    /// Ends the current frame: publishes the screen, reports `state`, and blocks for the next
    /// frame. Abort when the machine is gone.
    fn yield_frame(&mut self, vdu: &mut Vdu, state: RunState) -> Signal {
        // Within a batch a running program goes straight on into its next frame.
        if state == RunState::Running
            && vdu.text_len() < BATCH_TEXT
            && let Some((clock, left @ 1..)) = &mut self.batch
        {
            *left -= 1;
            self.now = clock.tick();
            self.start_frame();
            return Signal::Continue;
        }
        self.batch = None;
        if let Link::Worker { shared, .. } = &self.link {
            publish(vdu, shared, Some(self.now));
        }
        if self.reply(vdu, state).is_err() {
            return Signal::Abort;
        }
        self.next_frame()
    }

    /// Hands control back to the main side with the frames started since the last reply; the
    /// driver of an inline run decides there, as `run_headless` does at a reply, whether the
    /// run goes on (`Err`: it stops).
    fn reply(&mut self, vdu: &mut Vdu, state: RunState) -> Result<(), ()> {
        let frames = std::mem::take(&mut self.frames);
        let d = match &mut self.link {
            Link::Worker { tx, .. } => return tx.send(Reply { state, frames }).map_err(|_: SendError<_>| ()),
            Link::Inline(d) => d,
        };
        let stop = d.run.is_over(&state);
        if (stop || d.unwritten >= INLINE_BATCH || vdu.text_len() >= BATCH_TEXT) && !d.write_text(vdu) {
            return Err(());
        }
        if stop {
            // The first stop is the one the run ended in: the interpreter then unwinds and
            // reports its end (which would read as Ended) through here once more.
            d.end().stopped.get_or_insert(state);
            return Err(());
        }
        Ok(())
    }

    /// The next frame of an inline run: its clock ticks, and the script's keys due by then
    /// arrive, as `run_headless` gives them to a frame.
    fn next_inline_frame(&mut self) -> Signal {
        let Link::Inline(d) = &mut self.link else {
            return Signal::Abort;
        };
        d.unwritten += 1;
        let (now, due) = d.run.next_frame(&mut self.held);
        self.now = now;
        let keys: Vec<KeyEvent> = due.iter().map(|&e| mapped(&d.key_map, e)).collect();
        self.start_frame();
        self.take_keys(keys);
        Signal::Continue
    }

    /// Key presses arriving with a frame: Escape raises the flag, the rest are typed.
    fn take_keys(&mut self, keys: Vec<KeyEvent>) {
        for k in keys {
            if k.kind != KeyEventKind::Press {
                continue;
            }
            if k.key == Key::Escape {
                self.escape = true;
            } else if let Some(c) = key_code(k.key) {
                self.keybuf.push_back(c);
            }
        }
    }

    fn next_frame(&mut self) -> Signal {
        let rx = match &self.link {
            Link::Worker { rx, .. } => rx,
            Link::Inline(_) => return self.next_inline_frame(),
        };
        match rx.recv() {
            Ok(ToWorker::Frames {
                mut clock,
                frames,
                held,
            }) => {
                self.now = clock.tick();
                self.batch = Some((clock, frames.saturating_sub(1)));
                self.held = held;
                self.start_frame();
                Signal::Continue
            }
            Ok(ToWorker::Frame { now, keys, held }) => {
                self.now = now;
                self.held = held;
                self.start_frame();
                self.take_keys(keys);
                Signal::Continue
            }
            Err(_) => Signal::Abort,
        }
    }

    /// A new frame's statement budget, counted for the main side.
    fn start_frame(&mut self) {
        self.ticks_left = STATEMENTS_PER_FRAME / TICK_STATEMENTS;
        self.frames += 1;
    }

    /// What this tick costs of the frame's budget, in ticks: one, or the drawing owed (the
    /// graphics drawn since the last tick, at [`PIXELS_PER_TICK`]) up to the rest of the frame;
    /// what the frame cannot hold stays owed to the next. A tick that a big drawing brought
    /// forward (see `Interp::plot`) counts toward the drawing rather than as statements.
    fn charge_drawing(&mut self, vdu: &mut Vdu) -> u32 {
        let drawn = self.drawn.saturating_add(vdu.take_work());
        self.owed = self.owed.saturating_add(drawn / PIXELS_PER_TICK);
        self.drawn = drawn % PIXELS_PER_TICK;
        let cost = self.owed.clamp(1, u64::from(self.ticks_left.max(1)));
        self.owed = self.owed.saturating_sub(cost);
        cost as u32
    }

    fn take_escape(&mut self) -> bool {
        std::mem::take(&mut self.escape)
    }

    /// A byte from the input stream, if there is one and it has not ended.
    fn stream_byte(&mut self) -> Option<u8> {
        let InputSource::Stream(r) = &mut self.input else {
            return None;
        };
        if self.stream_done {
            return None;
        }
        let mut b = [0u8];
        match r.read(&mut b) {
            Ok(1) => Some(b[0]),
            _ => {
                self.stream_done = true;
                None
            }
        }
    }
}

impl Host for MachineHost {
    fn tick(&mut self, vdu: &mut Vdu) -> Signal {
        if self.now == VirtualTime::ZERO {
            // The first call waits for the first frame.
            return self.next_frame();
        }
        let cost = self.charge_drawing(vdu);
        self.ticks_left = self.ticks_left.saturating_sub(cost);
        if self.ticks_left == 0 {
            let s = self.yield_frame(vdu, RunState::Running);
            if s != Signal::Continue {
                return s;
            }
        }
        if self.take_escape() {
            Signal::Escape
        } else {
            Signal::Continue
        }
    }

    fn charges_drawing(&self) -> bool {
        true
    }

    fn time_cs(&mut self) -> i64 {
        self.now.as_centis() as i64
    }

    fn read_key(&mut self, vdu: &mut Vdu, timeout_cs: Option<u32>) -> KeyRead {
        let deadline = timeout_cs.map(|t| self.now.as_centis() + t as u64);
        loop {
            if self.take_escape() {
                return KeyRead::Signal(Signal::Escape);
            }
            if let Some(k) = self.keybuf.pop_front() {
                return KeyRead::Key(k);
            }
            if deadline.is_none()
                && let Some(b) = self.stream_byte()
            {
                return KeyRead::Key(if b == b'\n' { 13 } else { b });
            }
            let state = match deadline {
                Some(d) if self.now.as_centis() >= d => return KeyRead::Timeout,
                Some(_) => RunState::Running,
                None => RunState::WaitingForKey,
            };
            let s = self.yield_frame(vdu, state);
            if s != Signal::Continue {
                return KeyRead::Signal(s);
            }
        }
    }

    fn read_line(&mut self, vdu: &mut Vdu) -> LineRead {
        if self.keybuf.is_empty() && matches!(self.input, InputSource::Stream(_)) && !self.stream_done {
            let mut line = Vec::new();
            while let Some(b) = self.stream_byte() {
                if b == b'\n' {
                    break;
                }
                if b != b'\r' {
                    line.push(b);
                }
            }
            if !line.is_empty() || !self.stream_done {
                vdu.write_all(&line);
                vdu.write_all(b"\r\n");
                return LineRead::Line(line);
            }
        }
        // Line editing from keys, echoed as typed (cursor keys, insertion, Up/Down history).
        let mut edit = LineEdit::default();
        loop {
            match self.read_key(vdu, None) {
                KeyRead::Key(k) => {
                    if let Some(line) = edit.key(k, vdu, &mut self.history) {
                        return LineRead::Line(line);
                    }
                }
                KeyRead::Timeout => {}
                KeyRead::Signal(s) => return LineRead::Signal(s),
            }
        }
    }

    fn key_down(&mut self, internal: u8) -> bool {
        internal_key(internal).is_some_and(|k| self.held.is_held(k, self.now))
    }

    fn finish(&mut self, vdu: &mut Vdu, state: RunState) {
        // The last screen keeps the flash phase it had.
        self.batch = None;
        if let Link::Worker { shared, .. } = &self.link {
            publish(vdu, shared, None);
        }
        let _ = self.reply(vdu, state);
    }

    fn wait(&mut self, vdu: &mut Vdu, cs: u32) -> Signal {
        let deadline = self.now.as_centis() + cs.max(1) as u64;
        loop {
            let s = self.yield_frame(vdu, RunState::Running);
            if s != Signal::Continue {
                return s;
            }
            if self.take_escape() {
                return Signal::Escape;
            }
            if self.now.as_centis() >= deadline {
                return Signal::Continue;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use retro_machine::keys::KeyEvent;
    use retro_machine::machine::{HeadlessOptions, run_headless};
    use retro_machine::script::KeyScript;

    use super::*;
    use crate::program::tokenize_program;
    use crate::tokenize::Mode;

    fn machine(src: &str) -> BbcMachine {
        let program = tokenize_program(src, Mode::Strict).expect("program tokenizes");
        BbcMachine::new(&program.to_bytes(), Some(1), InputSource::Keys).expect("program loads")
    }

    /// Text and virtual time of a headless run with these keys (batched between keys).
    fn headless(src: &str, keys: Vec<KeyEvent>) -> (String, u64, RunState) {
        let mut m = machine(src);
        let options = HeadlessOptions {
            limit: VirtualTime::from_millis(20_000),
            script: KeyScript {
                events: keys,
                end: VirtualTime::ZERO,
            },
        };
        let mut out = Vec::new();
        let r = run_headless(&mut m, &options, &mut out).expect("run");
        (String::from_utf8(out).expect("text"), r.frames, r.state)
    }

    /// The same run, one hand-over per frame.
    fn frame_by_frame(src: &str, keys: Vec<KeyEvent>) -> (String, u64, RunState) {
        let mut m = machine(src);
        let mut run = HeadlessRun::new(50, VirtualTime::from_millis(20_000), keys);
        let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
        let (mut text, mut state) = (String::new(), RunState::Running);
        while !run.is_over(&state) {
            let (now, due) = run.next_frame(&mut held);
            for &k in due {
                m.key(k);
            }
            state = m.run_frame(now, &held);
            m.drain_text(&mut text);
        }
        (text, run.clock().frames(), state)
    }

    /// Text written to a buffer both sides can read.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("buffer").extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The same run on the calling thread ([`BbcMachine::run_headless_inline`]): its text, and
    /// the state and QUIT value it ended with.
    fn inline(src: &str, keys: Vec<KeyEvent>, limit_ms: u64) -> (String, RunState, Option<i32>) {
        let program = tokenize_program(src, Mode::Strict).expect("program tokenizes");
        let options = HeadlessOptions {
            limit: VirtualTime::from_millis(limit_ms),
            script: KeyScript {
                events: keys,
                end: VirtualTime::ZERO,
            },
        };
        let setup = InlineSetup {
            seed: Some(1),
            input: InputSource::Keys,
            dir: None,
            strict: false,
            key_map: vec![(Key::Left, '7')],
        };
        let out = Buffer::default();
        let (state, quit) =
            BbcMachine::run_headless_inline(&program.to_bytes(), setup, &options, Box::new(out.clone()))
                .expect("program loads")
                .expect("text written");
        let text = String::from_utf8(out.0.lock().expect("buffer").clone()).expect("text");
        (text, state, quit)
    }

    /// The machine on its thread, driven by `run_headless`, with the same key map.
    fn threaded(src: &str, keys: Vec<KeyEvent>, limit_ms: u64) -> (String, RunState, Option<i32>) {
        let mut m = machine(src);
        m.map_key(Key::Left, '7');
        let options = HeadlessOptions {
            limit: VirtualTime::from_millis(limit_ms),
            script: KeyScript {
                events: keys,
                end: VirtualTime::ZERO,
            },
        };
        let mut out = Vec::new();
        let r = run_headless(&mut m, &options, &mut out).expect("run");
        (String::from_utf8(out).expect("text"), r.state, m.quit_status())
    }

    #[test]
    fn a_run_on_the_calling_thread_is_the_run_on_the_machines_thread() {
        let keys = vec![
            KeyEvent::press(VirtualTime::from_millis(3_130), Key::Char('a')),
            KeyEvent::press(VirtualTime::from_millis(5_000), Key::Left),
            KeyEvent::press(VirtualTime::from_millis(9_010), Key::Escape),
        ];
        let cases: [(&str, u64); 8] = [
            // Time, keys (one mapped), INKEY timeouts, a busy loop, then Escape while waiting.
            (
                "10 T%=TIME:REPEAT:N%=N%+1:UNTIL TIME>=T%+230\n20 PRINT TIME;\" \";N%\n\
                 30 K%=INKEY(150):PRINT TIME;\" \";K%\n40 FOR I%=1 TO 300000:NEXT:PRINT TIME\n\
                 50 K%=GET:PRINT TIME;\" \";K%\n60 K%=GET:PRINT TIME;\" \";K%\n70 K%=GET\n",
                20_000,
            ),
            // Waiting for a key when the script has none left: the run stops there.
            ("10 PRINT \"A\";:K%=GET:PRINT K%\n", 20_000),
            // The time limit stops a program that never ends, in the middle of its printing.
            ("10 REPEAT:PRINT TIME:UNTIL FALSE\n", 3_000),
            // QUIT's value, an error's message, and the end of the program.
            ("10 PRINT \"bye\":QUIT 3\n", 20_000),
            ("10 PRINT 1/0\n", 20_000),
            ("10 PRINT \"done\"\n", 20_000),
            // Nesting as deep as the worker's stack allows ends with the same error.
            ("10 PROCa(0)\n20 DEF PROCa(n%):PROCa(n%+1)\n", 20_000),
            ("10 PRINT FNf(1)\n20 DEF FNf(n%)=FNf(n%+1)+1\n", 20_000),
        ];
        for (src, limit) in cases {
            let on_thread = threaded(src, keys.clone(), limit);
            assert_eq!(inline(src, keys.clone(), limit), on_thread, "{src}");
        }
        // The cases show what they are meant to.
        assert_eq!(threaded(cases[1].0, vec![], 20_000).1, RunState::WaitingForKey);
        assert_eq!(threaded(cases[2].0, vec![], 3_000).1, RunState::Running);
        assert_eq!(threaded(cases[3].0, vec![], 20_000).2, Some(3));
        assert!(matches!(
            threaded(cases[6].0, vec![], 20_000).1,
            RunState::Failed(_)
        ));
    }

    #[test]
    fn batched_frames_keep_time_keys_and_text_as_frame_by_frame() {
        // Busy loops, TIME, WAIT-like INKEY timeouts, a key read mid-run and GET at the end.
        let src = "10 T%=TIME:REPEAT:N%=N%+1:UNTIL TIME>=T%+230\n\
                   20 PRINT TIME;\" \";N%\n\
                   30 K%=INKEY(150):PRINT TIME;\" \";K%\n\
                   40 FOR I%=1 TO 300000:NEXT:PRINT TIME\n\
                   50 K%=GET:PRINT TIME;\" \";K%\n\
                   60 K%=GET:PRINT TIME;\" \";K%\n";
        let keys = vec![
            KeyEvent::press(VirtualTime::from_millis(3_130), Key::Char('a')),
            KeyEvent::press(VirtualTime::from_millis(9_010), Key::Char('b')),
        ];
        let batched = headless(src, keys.clone());
        assert_eq!(batched, frame_by_frame(src, keys));
        assert!(batched.0.contains(" 98"), "{}", batched.0);
        assert_eq!(batched.2, RunState::WaitingForKey);
    }

    #[test]
    fn a_program_ending_inside_a_batch_stops_the_clock_there() {
        let src = "10 FOR I%=1 TO 70000:NEXT:PRINT TIME\n";
        let batched = headless(src, vec![]);
        assert_eq!(batched, frame_by_frame(src, vec![]));
        assert_eq!(batched.2, RunState::Ended);
        assert!(batched.1 > 1 && batched.1 < 50, "{batched:?}");
    }
}
