//! The interactive loop: frames paced to the wall clock, keys from the terminal, no busy-waiting.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::crossterm::event::{self, Event};
use ratatui::layout::Rect;
use retro_machine::keys::HoldMode;
use retro_machine::machine::{Machine, RunState};
use retro_machine::script::KeyScript;
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualClock, VirtualTime};
use retro_screen::colour::ColourDepth;

use super::fit;
use super::input::{self, Action};
use super::speed::SpeedMeter;
use super::terminal::{HANGUP, Input, Session, is_suspend_key};
use super::view::{self, FrameView};

/// Settings of an interactive run.
#[derive(Debug, Clone)]
pub struct InteractiveOptions {
    pub depth: ColourDepth,
    /// Machine-specific keys for the help overlay: (key, what it does).
    pub machine_help: Vec<(&'static str, &'static str)>,
    /// Scripted keys (`--keys`), typed into the running program at their virtual times, as in a
    /// headless run; the user's own keys mix in.
    pub script: KeyScript,
    /// Stop after this much virtual time (`--time`), if set.
    pub limit: Option<VirtualTime>,
    /// Test-only: panic after this many frames, to check the terminal is restored.
    pub panic_after_frames: Option<u64>,
    /// Test-only: panic on another thread after this many frames, as a machine's worker thread
    /// would (BBC BASIC runs on one), while this one goes on drawing.
    pub thread_panic_after_frames: Option<u64>,
}

/// How an interactive run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The machine's last state (`Running` when the user quit or the time limit stopped it).
    pub state: RunState,
    /// The signal (SIGTERM, SIGHUP, SIGINT) that ended the run; the terminal is already restored,
    /// and the caller should now die of it as the default handler would.
    pub signal: Option<i32>,
}

/// Two Ctrl-Cs within this time quit; one is Escape for the machine.
const DOUBLE_CTRL_C: Duration = Duration::from_secs(1);
/// The longest sleep in poll(): how soon a signal is noticed while nothing else happens.
const MAX_WAIT: Duration = Duration::from_millis(100);
/// A pause this long (a suspended process) starts the speed figure afresh.
const STALL: Duration = Duration::from_secs(1);

/// Runs `machine` in the terminal until its program ends and a key is pressed, Ctrl-Q, two
/// Ctrl-Cs, the time limit, or a terminating signal.
pub fn run_interactive(machine: &mut dyn Machine, options: &InteractiveOptions) -> Result<Finished> {
    let mut session = Session::start()?;
    let hz = machine.frame_hz().max(1);
    let frame_time = Duration::from_nanos(1_000_000_000 / hz as u64);
    let mut clock = VirtualClock::new(hz);
    let mut held = HeldKeys::new(if session.key_releases {
        HoldMode::ReleaseEvents
    } else {
        HoldMode::AutoRepeat
    });
    let mut next_frame = Instant::now() + frame_time;
    let mut show_help = false;
    let mut state = RunState::Running;
    let mut discard = String::new();
    let help: Vec<(&str, &str)> = options.machine_help.clone();
    let events = &options.script.events;
    let mut next_event = 0;
    let mut speed = SpeedMeter::new();
    // When Ctrl-C last reached the machine as Escape: a second one within a second quits.
    let mut last_ctrl_c: Option<Instant> = None;
    // What was last drawn, so an unchanged screen costs no drawing (a program waiting for a key
    // should cost next to nothing).
    let mut drawn: Option<(retro_screen::Frame, String, bool)> = None;
    let mut draw_again_at = Instant::now();
    let finish = |state: RunState, signal: Option<i32>| Ok(Finished { state, signal });
    // After the program has ended the virtual clock stops, so the time limit is then kept by the
    // wall clock: the run still ends when `--time` says, with the final screen shown until then.
    let started = Instant::now();
    let wall_limit = options.limit.map(|l| Duration::from_micros(l.as_micros()));

    loop {
        if let Some(sig) = session.signal() {
            drop(session);
            return finish(state, Some(sig));
        }
        let size = session.terminal.size()?;
        // The machine's finest view that the terminal shows well (the workbench's pixels).
        let frame = machine.frame_for(size.width, size.height);
        let finished = matches!(state, RunState::Ended | RunState::Failed(_));
        // A machine whose screen cannot be shown stands still until it can.
        let paused = !finished && !fit::layout(&frame, Rect::new(0, 0, size.width, size.height)).shown;
        let ctrl_c_pending = last_ctrl_c.is_some_and(|t| t.elapsed() < DOUBLE_CTRL_C);
        let note = if paused {
            "paused: the terminal is too small".to_string()
        } else {
            view::state_note(&state, ctrl_c_pending)
        };
        // The speed means something only while the program runs, not while it waits for a key.
        let percent = if state == RunState::Running && !paused {
            speed.percent()
        } else {
            None
        };
        let status = view::status_text(machine.name(), &note, percent);
        let key = (frame, status, show_help);
        // A terminal slower than the screen changes (a printing loop scrolls the whole screen
        // every frame, and tmux takes longer to show it than a frame lasts) gets frames no faster
        // than it takes them: frames between are dropped, so its queue stays short and a key's
        // effect shows at once, rather than after everything queued before it.
        let changed = drawn.as_ref() != Some(&key);
        let draw_held = changed && Instant::now() < draw_again_at;
        if changed && !draw_held {
            let drawing = Instant::now();
            let (frame, status, _) = &key;
            session.terminal.draw(|f| {
                let area = f.area();
                let layout = fit::layout(frame, area);
                let shown = layout.rows.map(|(first, n)| fit::crop(frame, first, n));
                f.render_widget(
                    FrameView {
                        frame: shown.as_ref().unwrap_or(frame),
                        depth: options.depth,
                    },
                    layout.picture,
                );
                if let Some(rows) = layout.rows {
                    fit::mark_hidden_rows(frame, rows, layout.picture, f.buffer_mut());
                }
                if let Some(at) = view::text_cursor(shown.as_ref().unwrap_or(frame), layout.picture)
                    && !show_help
                {
                    f.set_cursor_position(at);
                }
                // The status line never covers a row the program uses: without a free row it
                // shows only with the help (F12).
                if area.height > 0 && (layout.status_room || show_help) {
                    let row = Rect {
                        y: area.y + area.height - 1,
                        height: 1,
                        ..area
                    };
                    f.render_widget(view::status_line(status), row);
                }
                if show_help {
                    view::render_help(area, &help, f.buffer_mut());
                }
            })?;
            drawn = Some(key);
            draw_again_at = Instant::now() + drawing.elapsed();
        }

        // Read every key that has arrived, then sleep in poll() until a key arrives, the next
        // frame is due, or it is time to look for a signal or to clear the Ctrl-C note. Keys are
        // read before the frame check, not after it: a machine whose frames take longer than
        // their time (a fill loop, a slow terminal) finds its next frame always due, and would
        // otherwise never read Ctrl-Q or Escape again.
        loop {
            if session.signal().is_some() {
                break;
            }
            if finished && wall_limit.is_some_and(|l| started.elapsed() >= l) {
                return finish(state, None);
            }
            let now = Instant::now();
            let due = !finished && !paused && now >= next_frame;
            if ctrl_c_pending && last_ctrl_c.is_some_and(|t| t.elapsed() >= DOUBLE_CTRL_C) {
                break;
            }
            // A screen held back from a slow terminal is drawn once it may be (the last one
            // before a wait for a key, too).
            let redraw = draw_held && now >= draw_again_at;
            let wait = if due || redraw {
                Duration::ZERO
            } else if finished || paused {
                MAX_WAIT
            } else {
                (next_frame - now).min(MAX_WAIT)
            };
            let wait = if draw_held {
                wait.min(draw_again_at.saturating_duration_since(now))
            } else {
                wait
            };
            match session.wait_input(wait)? {
                Input::Ready => {}
                Input::Timeout if due || redraw => break,
                Input::Timeout => continue,
                Input::Redraw => {
                    drawn = None;
                    break;
                }
                Input::HungUp => {
                    drop(session);
                    return finish(state, Some(HANGUP));
                }
            }
            let event = event::read()?;
            if is_suspend_key(&event) {
                session.suspend()?;
                drawn = None;
                break;
            }
            match event {
                Event::Key(k) => match input::map(&k) {
                    Action::Quit => return finish(state, None),
                    Action::ToggleHelp => {
                        show_help = !show_help;
                        break;
                    }
                    // Two Ctrl-Cs are the user quitting (status 0, docs/cli.md), though the
                    // first one's Escape stopped the program with an error in between.
                    Action::Interrupt if last_ctrl_c.is_some_and(|t| t.elapsed() < DOUBLE_CTRL_C) => {
                        return finish(RunState::Running, None);
                    }
                    Action::Interrupt if finished => return finish(state, None),
                    Action::Interrupt => {
                        last_ctrl_c = Some(Instant::now());
                        // Ctrl-C is the machine's Escape (BBC Escape, C64 RUN/STOP).
                        for kind in [KeyEventKind::Press, KeyEventKind::Release] {
                            let ev = KeyEvent {
                                at: clock.now(),
                                key: Key::Escape,
                                kind,
                            };
                            held.apply(ev);
                            machine.key(ev);
                        }
                        break;
                    }
                    Action::Machine(..) if finished => return finish(state, None),
                    Action::Machine(key, kind) => {
                        let ev = KeyEvent {
                            at: clock.now(),
                            key,
                            kind,
                        };
                        held.apply(ev);
                        machine.key(ev);
                    }
                    Action::Ignore => {}
                },
                Event::Resize(..) => {
                    drawn = None;
                    speed.reset();
                    break;
                }
                _ => {}
            }
        }
        if paused {
            // The clock stands still: no frames to catch up on afterwards.
            next_frame = Instant::now() + frame_time;
            speed.reset();
            continue;
        }
        if finished || Instant::now() < next_frame {
            continue;
        }

        // After a stall (a suspended process, a slow frame) catch up by at most a few frames
        // rather than racing to make up all the lost time.
        let now = Instant::now();
        if now > next_frame + frame_time * 5 {
            // A machine slower than real time lags a little every frame, and the speed figure
            // must go on measuring it; only a long stall (a suspended process) starts it afresh.
            if now > next_frame + STALL {
                speed.reset();
            }
            next_frame = now;
        }
        next_frame += frame_time;
        let t = clock.tick();
        while next_event < events.len() && events[next_event].at <= t {
            held.apply(events[next_event]);
            machine.key(events[next_event]);
            next_event += 1;
        }
        state = machine.run_frame(t, &held);
        // QUIT leaves at once, as the real machine returns to its host.
        if machine.quit_status().is_some() {
            return finish(state, None);
        }
        speed.sample(Instant::now(), t);
        machine.drain_text(&mut discard);
        // The program's text is on the screen already; only its bell (BEL, e.g. BBC VDU 7)
        // needs the real terminal.
        if discard.contains('\u{7}') {
            let backend = session.terminal.backend_mut();
            let _ = backend.write_all(b"\x07").and_then(|()| Write::flush(backend));
        }
        discard.clear();
        if options.limit.is_some_and(|limit| clock.now() >= limit) {
            return finish(state, None);
        }
        if options.panic_after_frames.is_some_and(|n| clock.frames() >= n) {
            panic!("deliberate panic (--panic-for-test): checking that the terminal is restored");
        }
        if options.thread_panic_after_frames == Some(clock.frames()) {
            std::thread::spawn(|| panic!("deliberate panic on a worker thread (--panic-thread-for-test)"));
        }
    }
}
