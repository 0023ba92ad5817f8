//! `retro run PROG --movie FILE.fm2`: feeds the workbench's controller from an FCEUX movie, one
//! input per frame, headless and as fast as possible; with `--trace-state` it prints the
//! program's state after every frame in the fields its trace description names (`super::trace`;
//! NES Tetris's gives the meta_nestris oracle's `trace` lines, docs/tetris.md), so the two can be
//! compared with `diff`. `--record` writes the controller of a run as a movie.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::{Machine, RunState};
use retro_machine::movie::{Movie, parse_fm2, write_fm2};
use retro_machine::{HeldKeys, Key, KeyEvent, VirtualTime};
use retro_screen::Frame;
use retro_z80_machine::{Program, Stop, Workbench};

use super::trace::Trace;

/// Reads and parses a movie. Errors name the file and line.
pub fn load_movie(path: &Path) -> Result<Movie, String> {
    let bytes = crate::files::read_limited(path, crate::files::MOVIE)
        .map_err(|e| format!("cannot read movie {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("movie {}: not UTF-8 text", path.display()))?;
    parse_fm2(&text).map_err(|e| format!("movie {}: line {}: {}", path.display(), e.line, e.message))
}

/// `LABEL=VALUE` pokes, applied before the run (e.g. `uncapped=1`).
pub fn apply_pokes(m: &mut Workbench, program: &Program, pokes: &[String]) -> Result<(), String> {
    for p in pokes {
        let (label, value) = p
            .split_once('=')
            .ok_or_else(|| format!("--poke {p}: expected LABEL=VALUE"))?;
        let addr = program
            .symbols
            .get(label)
            .ok_or_else(|| format!("--poke {p}: no label `{label}` in the program"))?;
        let value = crate::addr::parse_addr(value).map_err(|e| format!("--poke {p}: {e}"))?;
        m.poke(addr, value as u8);
    }
    Ok(())
}

/// The movie's first gamepad, one button byte per frame, for [`Workbench::set_pad_tape`].
pub fn pad_tape(movie: &Movie) -> std::sync::Arc<[u8]> {
    movie.frames.iter().map(|f| f.pad.0).collect()
}

/// Replays `movie` headless: at each frame's start the controller takes the frame's buttons (the
/// machine's pad tape). Prints the trace when asked; returns the exit status.
pub fn replay(m: &mut Workbench, movie: &Movie, trace: Option<&Trace>, stats: bool) -> ExitCode {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut out = String::new();
    // --frame-stats: the busiest frame, measured from the frame's start to the program's next HALT.
    let mut worst = (0u64, 0usize);
    let mut overruns = 0usize;
    m.set_pad_tape(pad_tape(movie));
    // Up to the first frame interrupt: the program's start-up.
    if let Some(code) = run_to_frame(m) {
        return code;
    }
    for i in 0..movie.frames.len() {
        if stats {
            let (busy, halted) = busy_until_halt(m);
            // Still busy when the next frame's interrupt came: the program then waits in HALT
            // for the frame after it, and a frame passes without its game logic (a lag frame).
            if !halted {
                overruns += 1;
            }
            if busy > worst.0 {
                worst = (busy, i + 1);
            }
        }
        if let Some(code) = run_to_frame(m) {
            let _ = lock.write_all(out.as_bytes());
            return code;
        }
        if let Some(t) = trace {
            t.line(m.mem(), i + 1, &mut out);
            if out.len() > 1 << 16 {
                if lock.write_all(out.as_bytes()).is_err() {
                    return ExitCode::SUCCESS; // a closed pipe (`| head`)
                }
                out.clear();
            }
        }
    }
    let _ = lock.write_all(out.as_bytes());
    if stats {
        eprintln!(
            "worst frame: {} T-states at frame {} (a frame is {} T-states); frames overrun (still busy at the next frame's interrupt): {overruns}",
            worst.0, worst.1, m.state.clock.frame_t
        );
    }
    ExitCode::SUCCESS
}

/// Runs from a frame's start until the CPU halts (or the frame ends); returns the T-states taken
/// and whether it halted within the frame.
fn busy_until_halt(m: &mut Workbench) -> (u64, bool) {
    let start = m.cpu().tstates();
    let end = m.state.clock.next_frame;
    while !m.cpu().halted() || m.cpu().tstates() == start {
        if m.cpu().tstates() >= end || m.exit_status().is_some() {
            break;
        }
        if let (_, Stop::Frame) = m.step(&retro_z80_machine::NoProbe) {
            break;
        }
    }
    let done = (m.cpu().halted() && m.cpu().tstates() < end) || m.exit_status().is_some();
    (m.cpu().tstates() - start, done)
}

/// Runs to the next frame start; `Some(status)` when the program ended instead.
fn run_to_frame(m: &mut Workbench) -> Option<ExitCode> {
    loop {
        match m
            .run(&retro_z80_machine::NoProbe, u64::MAX, u64::MAX, |_| false)
            .1
        {
            Stop::Frame => return None,
            Stop::Exit(s) => return Some(ExitCode::from(s)),
            _ => {}
        }
    }
}

/// `--record FILE.fm2`: the machine with every frame's controller buttons written down, so a game
/// played from the keyboard or a key script becomes a movie that any FCEUX-style player replays.
pub struct Recorder<'a> {
    pub machine: &'a mut Workbench,
    pub pads: Vec<u8>,
    /// The program reads the keyboard's X, Z, Enter and Space as A, B, Start and Select (it
    /// says so with `PAD_KEYS EQU 1`, as NES Tetris does): record them as those buttons, so a
    /// game played at the keyboard replays the same from the movie.
    pub keys_are_buttons: bool,
}

/// The buttons that keys stand for in a program that reads them so (see
/// [`Recorder::keys_are_buttons`]).
fn key_buttons(held: &[Key]) -> u8 {
    let buttons: Vec<Key> = held
        .iter()
        .filter_map(|k| match k {
            Key::Char('x' | 'X') => Some(Key::PadA),
            Key::Char('z' | 'Z') => Some(Key::PadB),
            Key::Return => Some(Key::PadStart),
            Key::Char(' ') => Some(Key::PadSelect),
            _ => None,
        })
        .collect();
    retro_z80_machine::keyboard::pad_byte(&buttons)
}

impl Recorder<'_> {
    /// The recording as `.fm2` text.
    pub fn fm2(&self) -> String {
        write_fm2(&self.pads, "recorded by retro run --record")
    }
}

impl Machine for Recorder<'_> {
    fn name(&self) -> &str {
        self.machine.name()
    }
    fn frame_hz(&self) -> u32 {
        self.machine.frame_hz()
    }
    fn key(&mut self, event: KeyEvent) {
        self.machine.key(event)
    }
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        // The call runs frame `frame` (0: the start-up, before the first frame interrupt) with
        // the buttons it sets first.
        let frame = self.machine.state.clock.frame;
        let state = self.machine.run_frame(now, held);
        if frame >= 1 {
            let keys = if self.keys_are_buttons {
                key_buttons(&held.held(now))
            } else {
                0
            };
            self.pads.push(self.machine.devices().pad | keys);
        }
        state
    }
    fn frame(&self) -> Frame {
        self.machine.frame()
    }
    fn drain_text(&mut self, out: &mut String) {
        self.machine.drain_text(out)
    }
}
