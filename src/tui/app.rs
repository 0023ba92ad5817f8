//! The interactive loop: frames paced to the wall clock, keys from the terminal, no busy-waiting.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::crossterm::event::{self, Event};
use ratatui::layout::Rect;
use retro_screen::colour::ColourDepth;
use retro_screen::keys::HoldMode;
use retro_screen::machine::{Machine, RunState};
use retro_screen::{HeldKeys, KeyEvent, VirtualClock};

use super::input::{self, Action};
use super::terminal::Session;
use super::view::{self, FrameView};

/// Settings of an interactive run.
#[derive(Debug, Clone)]
pub struct InteractiveOptions {
    pub depth: ColourDepth,
    /// Machine-specific keys for the help overlay: (key, what it does).
    pub machine_help: Vec<(&'static str, &'static str)>,
    /// Test-only: panic after this many frames, to check the terminal is restored.
    pub panic_after_frames: Option<u64>,
}

/// Runs `machine` in the terminal until its program ends and a key is pressed, or Ctrl-Q.
/// Returns the machine's last state (`Running` when the user quit).
pub fn run_interactive(machine: &mut dyn Machine, options: &InteractiveOptions) -> Result<RunState> {
    let mut session = Session::start()?;
    let hz = machine.frame_hz().max(1);
    let frame_time = Duration::from_nanos(1_000_000_000 / hz as u64);
    let mut clock = VirtualClock::new(hz);
    let mut held = HeldKeys::new(if session.key_releases {
        HoldMode::ReleaseEvents
    } else {
        HoldMode::AutoRepeat
    });
    let started = Instant::now();
    let mut next_frame = started + frame_time;
    let mut show_help = false;
    let mut state = RunState::Running;
    let mut discard = String::new();
    let help: Vec<(&str, &str)> = options.machine_help.clone();
    // What was last drawn, so an unchanged screen costs no drawing (a program waiting for a key
    // should cost next to nothing).
    let mut drawn: Option<(retro_screen::Frame, String, bool)> = None;

    loop {
        let frame = machine.frame();
        let speed = {
            let wall = started.elapsed().as_micros() as u64;
            (wall > 500_000).then(|| (clock.now().as_micros() * 100 / wall) as u32)
        };
        let note = match &state {
            RunState::Ended => "program ended: press a key to leave".to_string(),
            RunState::Failed(msg) => format!("{msg}: press a key to leave"),
            _ => String::new(),
        };
        let speed_shown = speed.map(|s| s / 5 * 5).unwrap_or(0);
        let key = (frame, format!("{note}{speed_shown}"), show_help);
        if drawn.as_ref() != Some(&key) {
            let frame = &key.0;
            session.terminal.draw(|f| {
                let area = f.area();
                let (_, need_h) = view::required_size(frame);
                // The status line takes the bottom row when the picture leaves room for it.
                let (picture, status) = if area.height > need_h {
                    let pic = Rect {
                        height: area.height - 1,
                        ..area
                    };
                    (
                        pic,
                        Some(Rect {
                            y: area.y + area.height - 1,
                            height: 1,
                            ..area
                        }),
                    )
                } else {
                    (area, None)
                };
                f.render_widget(
                    FrameView {
                        frame,
                        depth: options.depth,
                    },
                    picture,
                );
                if let Some(s) = status {
                    f.render_widget(
                        view::status_line(machine.name(), speed.map(|_| speed_shown), &note),
                        s,
                    );
                }
                if show_help {
                    view::render_help(area, &help, f.buffer_mut());
                }
            })?;
            drawn = Some(key);
        }

        // Sleep in poll() until a key arrives or the next frame is due.
        let finished = matches!(state, RunState::Ended | RunState::Failed(_));
        loop {
            let now = Instant::now();
            if !finished && now >= next_frame {
                break;
            }
            let wait = if finished {
                Duration::from_secs(3600)
            } else {
                next_frame - now
            };
            if !event::poll(wait)? {
                continue;
            }
            match event::read()? {
                Event::Key(k) => match input::map(&k) {
                    Action::Quit => return Ok(state),
                    Action::ToggleHelp => {
                        show_help = !show_help;
                        break;
                    }
                    Action::Machine(..) if finished => return Ok(state),
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
                    break;
                }
                _ => {}
            }
        }
        if finished {
            continue;
        }

        // After a stall (a suspended process, a slow frame) catch up by at most a few frames
        // rather than racing to make up all the lost time.
        let now = Instant::now();
        if now > next_frame + frame_time * 5 {
            next_frame = now;
        }
        next_frame += frame_time;
        let t = clock.tick();
        state = machine.run_frame(t, &held);
        machine.drain_text(&mut discard);
        // The program's text is on the screen already; only its bell (BEL, e.g. BBC VDU 7)
        // needs the real terminal.
        if discard.contains('\u{7}') {
            let _ = session.terminal.backend_mut().write_all(b"\x07");
        }
        discard.clear();
        if options.panic_after_frames.is_some_and(|n| clock.frames() >= n) {
            panic!("deliberate panic (--panic-for-test): checking that the terminal is restored");
        }
    }
}
