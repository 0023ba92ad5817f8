//! The contract between a machine and whatever drives it (the terminal front end, or a headless
//! run), and the headless driver itself.
//!
//! A machine advances one frame of virtual time per [`Machine::run_frame`] call, reads key events
//! handed to it with [`Machine::key`] and the held-key state, and shows its screen as a [`Frame`].
//! Whoever drives it owns the clock, so a headless run with a key script is exactly repeatable.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::clock::{VirtualClock, VirtualTime};
use crate::keys::{HeldKeys, HoldMode, KeyEvent};
use crate::script::KeyScript;
use retro_screen::frame::Frame;

/// What a machine is doing after a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunState {
    /// Busy: call `run_frame` again when the next frame is due.
    Running,
    /// Idle until a key arrives (BBC GET, C64 GET loops, CP/M console input): the driver may sleep
    /// until input instead of pacing frames, and a headless run with no more keys to come ends.
    WaitingForKey,
    /// The program ended normally.
    Ended,
    /// The program stopped with an error, in the machine's own words (`No such variable at line 10`).
    Failed(String),
}

/// A machine the front end can run.
pub trait Machine {
    /// Short name for the status line ("BBC BASIC V", "Z80 workbench").
    fn name(&self) -> &str;
    /// Frames per second of virtual time (50 for the BBC, 60 for the C64).
    fn frame_hz(&self) -> u32;
    /// A key event, delivered at or before the frame in which it happens.
    fn key(&mut self, event: KeyEvent);
    /// Runs the machine up to virtual time `now` (the end of the current frame).
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState;
    /// Runs up to `frames` frames in which no key event arrives, ticking `clock` once per frame
    /// run, exactly as that many `run_frame` calls with the same `held` would; stops after a
    /// frame whose state is not `Running`. A machine on its own thread overrides it so it need
    /// not hand over at every frame (headless runs use it between scripted keys).
    fn run_frames(&mut self, clock: &mut VirtualClock, held: &HeldKeys, frames: u32) -> RunState {
        let mut state = RunState::Running;
        for _ in 0..frames {
            state = self.run_frame(clock.tick(), held);
            if state != RunState::Running {
                break;
            }
        }
        state
    }
    /// The screen as it is now.
    fn frame(&self) -> Frame;
    /// The screen as it is now, for a terminal area `cols` x `rows`: a machine with a finer view
    /// than [`Machine::frame`]'s (the Z80 workbench's pixels) gives it when the area is big
    /// enough to show it well. Dumps and screenshots keep to `frame`.
    fn frame_for(&self, _cols: u16, _rows: u16) -> Frame {
        self.frame()
    }
    /// Moves the text the program printed since the last call to `out` (headless runs stream it
    /// to stdout, docs/cli.md).
    fn drain_text(&mut self, out: &mut String);
    /// The machine's debugging capability, if it has one (`retro debug` drives it through the
    /// shared command language and terminal front end: [`crate::debug`]).
    fn as_debuggable(&mut self) -> Option<&mut dyn crate::debug::Debuggable> {
        None
    }
    /// Set once the program has asked to leave the machine altogether (BBC BASIC's QUIT), with
    /// the exit status it gave: the front end then leaves at once, as the real machine drops back
    /// to its host, instead of holding the final screen until a key is pressed.
    fn quit_status(&self) -> Option<i32> {
        None
    }
}

/// Limits and inputs of a headless run.
#[derive(Debug, Clone)]
pub struct HeadlessOptions {
    /// Stop after this much virtual time (10 virtual minutes by default; a front end gives its
    /// own, as `retro` does for every machine).
    pub limit: VirtualTime,
    /// Scripted keys.
    pub script: KeyScript,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        HeadlessOptions {
            limit: VirtualTime::from_millis(10 * 60 * 1000),
            script: KeyScript::default(),
        }
    }
}

/// How a headless run finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadlessOutcome {
    /// The last state the machine reported (`Running` or `WaitingForKey` when a limit stopped it).
    pub state: RunState,
    /// Virtual time at the end of the run.
    pub time: VirtualTime,
    /// Frames run.
    pub frames: u64,
}

/// The rules of a headless run, frame by frame: its virtual clock, the script's keys given to the
/// frame whose end they fall at or before, and when the run is over. [`run_headless`] drives a
/// [`Machine`] by them; a machine whose interpreter drives its own frames (the BBC's headless run
/// on the calling thread) follows the same rules through this, so the two cannot drift apart.
#[derive(Debug, Clone)]
pub struct HeadlessRun<'a> {
    clock: VirtualClock,
    limit: VirtualTime,
    events: Cow<'a, [KeyEvent]>,
    next_event: usize,
}

impl<'a> HeadlessRun<'a> {
    /// A run of a machine of `hz` frames a second, stopped at `limit`, given `events` (in time
    /// order, as a [`KeyScript`] holds them).
    pub fn new(hz: u32, limit: VirtualTime, events: impl Into<Cow<'a, [KeyEvent]>>) -> Self {
        HeadlessRun {
            clock: VirtualClock::new(hz),
            limit,
            events: events.into(),
            next_event: 0,
        }
    }

    /// The clock: the end of the last frame started.
    pub fn clock(&self) -> &VirtualClock {
        &self.clock
    }

    /// Starts the next frame: the clock ticks to its end, and the script's keys due by then are
    /// applied to `held` and given back, in order, for the machine to read.
    pub fn next_frame(&mut self, held: &mut HeldKeys) -> (VirtualTime, &[KeyEvent]) {
        let now = self.clock.tick();
        let first = self.next_event;
        while let Some(&e) = self.events.get(self.next_event)
            && e.at <= now
        {
            held.apply(e);
            self.next_event += 1;
        }
        (now, &self.events[first..self.next_event])
    }

    /// How many frames from now can run as one batch: those that end before the next scripted key
    /// is due and start before the limit (at most 250: five seconds of virtual time at 50 Hz).
    pub fn quiet_frames(&self) -> u32 {
        quiet_frames(
            &self.clock,
            self.events.get(self.next_event).map(|e| e.at),
            self.limit,
        )
    }

    /// Whether the run stops after a frame that left the machine in `state`: the program ended
    /// or failed, the time limit is reached, or the machine waits for a key and the script has
    /// none left (nothing could ever happen again).
    pub fn is_over(&self, state: &RunState) -> bool {
        let no_keys_left = self.next_event == self.events.len();
        self.clock.now() >= self.limit
            || match state {
                RunState::Ended | RunState::Failed(_) => true,
                RunState::WaitingForKey => no_keys_left,
                RunState::Running => false,
            }
    }
}

/// Runs `machine` without a terminal as fast as the host allows, feeding the script's keys at
/// their virtual times and streaming printed text to `text_out`, by the rules of a
/// [`HeadlessRun`].
pub fn run_headless(
    machine: &mut dyn Machine,
    options: &HeadlessOptions,
    text_out: &mut dyn Write,
) -> io::Result<HeadlessOutcome> {
    let mut run = HeadlessRun::new(machine.frame_hz(), options.limit, &options.script.events[..]);
    // Scripts carry their own releases, so held keys follow press/release exactly.
    let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
    let mut text = String::new();
    let mut state = RunState::Running;
    while !run.is_over(&state) {
        // The frames before the next scripted key (or the limit) run as one batch.
        let quiet = run.quiet_frames();
        if quiet > 0 {
            state = machine.run_frames(&mut run.clock, &held, quiet);
        } else {
            let (now, keys) = run.next_frame(&mut held);
            for &k in keys {
                machine.key(k);
            }
            state = machine.run_frame(now, &held);
        }
        machine.drain_text(&mut text);
        if !text.is_empty() {
            text_out.write_all(text.as_bytes())?;
            text.clear();
        }
    }
    text_out.flush()?;
    Ok(HeadlessOutcome {
        state,
        time: run.clock.now(),
        frames: run.clock.frames(),
    })
}

/// Frames in a headless batch at most: five seconds of virtual time (a small fraction of a
/// second of the host's), so printed text still streams out as the run goes while a machine on
/// its own thread is seldom woken (on a loaded host each wake-up can wait for milliseconds).
const MAX_BATCH: u32 = 250;

/// How many frames from `clock` on end before the key event at `next` is due and start before
/// `limit` (at most [`MAX_BATCH`]).
fn quiet_frames(clock: &VirtualClock, next: Option<VirtualTime>, limit: VirtualTime) -> u32 {
    let mut c = clock.clone();
    let mut n = 0;
    while n < MAX_BATCH && c.now() < limit {
        let end = c.tick();
        if next.is_some_and(|at| at <= end) {
            break;
        }
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{Key, KeyEventKind};
    use retro_screen::frame::{Cell, CellGrid};
    use retro_screen::palette::Palette;

    /// Prints each pressed character with the frame number it arrived in; ends on 'q'.
    struct Echo {
        out: String,
        seen: Vec<(char, u64)>,
        frames: u64,
        pending: Vec<char>,
        wait: bool,
    }

    impl Machine for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn frame_hz(&self) -> u32 {
            50
        }
        fn key(&mut self, event: KeyEvent) {
            if let (Key::Char(c), KeyEventKind::Press) = (event.key, event.kind) {
                self.pending.push(c);
            }
        }
        fn run_frame(&mut self, _now: VirtualTime, _held: &HeldKeys) -> RunState {
            self.frames += 1;
            for c in std::mem::take(&mut self.pending) {
                self.seen.push((c, self.frames));
                self.out.push(c);
                if c == 'q' {
                    return RunState::Ended;
                }
            }
            if self.wait {
                RunState::WaitingForKey
            } else {
                RunState::Running
            }
        }
        fn frame(&self) -> Frame {
            Frame::cells(CellGrid::new(1, 1, Cell::default()), Palette::acorn2())
        }
        fn drain_text(&mut self, out: &mut String) {
            out.push_str(&self.out);
            self.out.clear();
        }
    }

    fn echo(wait: bool) -> Echo {
        Echo {
            out: String::new(),
            seen: vec![],
            frames: 0,
            pending: vec![],
            wait,
        }
    }

    fn press(ms: u64, c: char) -> KeyEvent {
        KeyEvent::press(VirtualTime::from_millis(ms), Key::Char(c))
    }

    #[test]
    fn keys_arrive_in_the_frame_that_contains_them_and_text_streams_out() {
        let mut m = echo(false);
        let script = KeyScript {
            events: vec![press(0, 'a'), press(100, 'b'), press(101, 'q')],
            end: VirtualTime::ZERO,
        };
        let mut out = Vec::new();
        let r = run_headless(
            &mut m,
            &HeadlessOptions {
                script,
                ..Default::default()
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "abq");
        // 50 Hz: frame 1 ends at 20 ms, frame 5 at 100 ms, frame 6 at 120 ms.
        assert_eq!(m.seen, vec![('a', 1), ('b', 5), ('q', 6)]);
        assert_eq!(r.state, RunState::Ended);
        assert_eq!(r.time, VirtualTime::from_millis(120));
    }

    #[test]
    fn batches_end_before_the_frame_a_key_arrives_in_and_at_the_limit() {
        let clock = VirtualClock::new(50);
        let limit = VirtualTime::from_millis(10_000);
        // Frames end at 20, 40, 60 ms: a key at 50 ms belongs to the third.
        assert_eq!(quiet_frames(&clock, Some(VirtualTime::from_millis(50)), limit), 2);
        assert_eq!(quiet_frames(&clock, Some(VirtualTime::from_millis(20)), limit), 0);
        assert_eq!(quiet_frames(&clock, None, limit), MAX_BATCH);
        assert_eq!(quiet_frames(&clock, None, VirtualTime::from_millis(100)), 5);
        assert_eq!(quiet_frames(&clock, None, VirtualTime::from_millis(90)), 5);
    }

    #[test]
    fn a_frame_gets_the_keys_due_by_its_end_and_the_run_ends_by_the_rules() {
        let mut run = HeadlessRun::new(
            50,
            VirtualTime::from_millis(100),
            vec![press(0, 'a'), press(20, 'b'), press(30, 'c')],
        );
        let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
        // The first frame ends at 20 ms: the keys at 0 and at 20 ms are its own, and held.
        let (now, due) = run.next_frame(&mut held);
        assert_eq!(now, VirtualTime::from_millis(20));
        assert_eq!(due, &[press(0, 'a'), press(20, 'b')]);
        assert!(held.is_held(Key::Char('b'), now));
        // A key is still to come: waiting for one is not the end.
        assert!(!run.is_over(&RunState::WaitingForKey));
        assert!(run.is_over(&RunState::Ended));
        assert!(run.is_over(&RunState::Failed("Escape".into())));
        let (_, due) = run.next_frame(&mut held);
        assert_eq!(due, &[press(30, 'c')]);
        assert!(run.is_over(&RunState::WaitingForKey));
        assert!(!run.is_over(&RunState::Running));
        // Three more frames reach the limit at 100 ms, where even a busy machine stops.
        assert_eq!(run.quiet_frames(), 3);
        for _ in 0..3 {
            run.next_frame(&mut held);
        }
        assert!(run.is_over(&RunState::Running));
    }

    #[test]
    fn the_time_limit_stops_a_busy_machine() {
        let mut m = echo(false);
        let opts = HeadlessOptions {
            limit: VirtualTime::from_millis(1000),
            ..Default::default()
        };
        let r = run_headless(&mut m, &opts, &mut Vec::new()).unwrap();
        assert_eq!(r.state, RunState::Running);
        assert_eq!(r.frames, 50);
    }

    #[test]
    fn waiting_with_no_keys_left_ends_the_run_at_once() {
        let mut m = echo(true);
        let script = KeyScript {
            events: vec![press(500, 'x')],
            end: VirtualTime::ZERO,
        };
        let r = run_headless(
            &mut m,
            &HeadlessOptions {
                script,
                ..Default::default()
            },
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(r.state, RunState::WaitingForKey);
        // It waited for the scripted key at 500 ms, then stopped in that same frame.
        assert_eq!(r.time, VirtualTime::from_millis(500));
        assert_eq!(m.seen, vec![('x', 25)]);
    }
}
