//! `retro run TETRIS --ai`: the Tetris AI (the `retro_tetris_ai` crate, issue #30) at
//! the controller, from the title screen. Headless it plays as fast as it can and prints one
//! line, `ai: score S lines L level V frames F`; in the terminal it plays at 60 frames a second
//! with a panel under the screen (the planned placement drawn as a ghost in the playfield, the
//! decision's value, pieces per second); Escape hands the controller back to the keyboard.

use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::{Machine, RunState};
use retro_machine::movie::write_fm2;
use retro_machine::{HeldKeys, Key, KeyEvent, VirtualTime};
use retro_screen::{Cell, CellGrid, Frame, Screen};
use retro_tetris_ai::explain::info_at;
use retro_tetris_ai::plan::Planner;
use retro_tetris_ai::player::{Config, Player, controller, period_of, play};
use retro_tetris_ai::rules::MINOS;
use retro_z80_machine::debug::Z80Debugger;
use retro_z80_machine::{NoProbe, Program, Stop, Workbench};

use crate::machines::options::AiArgs;
use crate::session::{Session, drive, usage_error};

/// The player's configuration from `--ai`'s options (`seed`: `--seed`, the title-screen wait).
fn config(ai: &AiArgs, seed: Option<i64>) -> Result<Config, ExitCode> {
    if ai.level > 19 {
        return Err(usage_error(format!(
            "--ai-level {}: the game starts at levels 0-19",
            ai.level
        )));
    }
    if !(1..=30).contains(&ai.tap) {
        return Err(usage_error(format!(
            "--ai-tap {}: 1 to 30 presses a second (30 is the NES's limit: a button must be released for a frame)",
            ai.tap
        )));
    }
    Ok(Config {
        level: ai.level,
        tap_hz: ai.tap,
        seed: seed.map_or(0, |s| s.clamp(0, i64::from(u32::MAX)) as u32),
        stop_lines: ai.lines,
        ..Config::default()
    })
}

/// Plays a game with the AI; `record` writes its controller input as a movie.
pub fn run_ai(
    machine: &mut Workbench,
    program: &Program,
    session: &Session,
    ai: &AiArgs,
    seed: Option<i64>,
    record: Option<&Path>,
) -> ExitCode {
    let cfg = match config(ai, seed) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut player = match Player::new(&program.symbols, cfg) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    let pads = if session.headless {
        // --time bounds the game in virtual time (default: ten hours, far past any game).
        let frames = session
            .args
            .time
            .map_or(60 * 3600 * 10, |t| (t.max(0.0) * 60.0) as u64);
        let out = play(machine, &mut player, frames);
        println!(
            "ai: score {} lines {} level {} frames {}",
            out.score, out.lines, out.level, out.frames
        );
        let ms = |pick: fn(&(std::time::Duration, std::time::Duration)) -> std::time::Duration| {
            let mut v: Vec<f64> = player
                .times
                .iter()
                .map(|t| pick(t).as_secs_f64() * 1000.0)
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let (wall, cpu) = (ms(|t| t.0), ms(|t| t.1));
        if let (Some(w), Some(c)) = (wall.last(), cpu.last()) {
            eprintln!(
                "ai: {} decisions: CPU median {:.2} ms, worst {:.2} ms; wall median {:.2} ms, worst {:.2} ms; frames the game did not follow the plan: {}",
                wall.len(),
                cpu[cpu.len() / 2],
                c,
                wall[wall.len() / 2],
                w,
                player.surprises
            );
        }
        out.pads
    } else {
        let mut watch = Watch {
            machine,
            player,
            active: true,
            pads: vec![],
            spawned: vec![],
        };
        let help = vec![
            ("Escape", "take the controller from the AI"),
            ("arrows, X, Z, Enter", "the controller, once it is yours"),
        ];
        let code = drive(&mut watch, session, help);
        if code != ExitCode::SUCCESS {
            return code;
        }
        watch.pads
    };
    if let Some(path) = record
        && let Err(e) =
            crate::files::write_output(path, write_fm2(&pads, "played by retro run --ai").as_bytes())
    {
        return usage_error(format!("cannot write {}: {e}", path.display()));
    }
    ExitCode::SUCCESS
}

/// The machine with the AI at its controller, to watch in the terminal.
struct Watch<'a> {
    machine: &'a mut Workbench,
    player: Player,
    /// The AI has the controller (until Escape).
    active: bool,
    pads: Vec<u8>,
    /// The frames at which the AI decided (for pieces per second).
    spawned: Vec<u64>,
}

impl Machine for Watch<'_> {
    fn name(&self) -> &str {
        self.machine.name()
    }
    fn frame_hz(&self) -> u32 {
        self.machine.frame_hz()
    }
    fn key(&mut self, event: KeyEvent) {
        if event.key == Key::Escape {
            self.active = false;
        }
    }
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        if self.machine.exit_status().is_some() {
            return RunState::Ended;
        }
        let frame = self.machine.state.clock.frame;
        self.machine.set_keys(&held.held(now));
        if self.active && frame >= 1 {
            let decided = self.player.times.len();
            let pad = self.player.frame(self.machine.mem());
            if self.player.times.len() > decided {
                self.spawned.push(frame);
            }
            self.machine.state.dev.pad = controller(pad);
        }
        if frame >= 1 {
            self.pads.push(self.machine.devices().pad);
        }
        loop {
            match self.machine.run(&NoProbe, u64::MAX, u64::MAX, |_| false).1 {
                Stop::Frame => return RunState::Running,
                Stop::Exit(_) => return RunState::Ended,
                _ => {}
            }
        }
    }
    fn frame(&self) -> Frame {
        let mut f = self.machine.cell_frame();
        if let Screen::Cells(grid) = &f.screen {
            f.screen = Screen::Cells(self.panel(grid));
        }
        f
    }
    fn drain_text(&mut self, out: &mut String) {
        self.machine.drain_text(out)
    }
}

impl Watch<'_> {
    /// The screen with the ghost of the planned placement and three rows of panel below.
    fn panel(&self, screen: &CellGrid) -> CellGrid {
        let (w, h) = (screen.width(), screen.height());
        let mut grid = CellGrid::new(w, h + 3, Cell::new(' ', 7, 0));
        for y in 0..h {
            for x in 0..w {
                if let Some(c) = screen.get(x, y) {
                    grid.set(x, y, *c);
                }
            }
        }
        let best = self.player.last.as_ref().and_then(|d| d.best().copied());
        if let (Some(b), true) = (best, self.active) {
            // The playfield is drawn at columns 11-20, rows 2-21 (docs/tetris.md).
            for &(dx, dy) in &MINOS[usize::from(b.o) % 19] {
                let (c, r) = (i32::from(b.x + dx), i32::from(b.y + dy));
                if (0..10).contains(&c) && (0..20).contains(&r) {
                    let (x, y) = (11 + c as usize, 2 + r as usize);
                    if let Some(cell) = screen.get(x, y) {
                        grid.set(x, y, Cell::new('+', 7, cell.bg));
                    }
                }
            }
        }
        let frame = self.machine.state.clock.frame;
        let recent = self.spawned.iter().filter(|&&f| f + 600 > frame).count();
        let pps = recent as f64 / (frame.clamp(1, 600) as f64 / 60.0);
        let lines = if self.active {
            [
                format!("AI  {:.1} pieces/s", pps),
                match best {
                    Some(b) => format!("plan o{:02} x{} y{} value {:.0}", b.o, b.x, b.y, b.value),
                    None => "plan: none".to_string(),
                },
                "Esc: the controller is yours".to_string(),
            ]
        } else {
            ["AI off: you play".to_string(), String::new(), String::new()]
        };
        for (i, text) in lines.iter().enumerate() {
            for (x, ch) in text.chars().take(w).enumerate() {
                grid.set(x, h + i, Cell::new(ch, 7, 0));
            }
        }
        grid
    }
}

/// `retro debug TETRIS --ai`: the AI plays its game first (headless, on a machine of its own,
/// to the top-out, `--ai-lines` or `DEBUG_FRAMES`), then the debugger replays that game's buttons
/// as a movie (so restarts and reverse execution replay it too) and answers `info ai` with the
/// decision made for the piece in play where it stopped: the best five placements, their values
/// and the terms that make them (`retro_tetris_ai::explain::info_at`).
pub fn debug_ai(dbg: &mut Z80Debugger, ai: &AiArgs, seed: Option<i64>) -> Result<(), ExitCode> {
    let program = &dbg.program;
    let cfg = config(ai, seed)?;
    let weights = cfg.weights;
    let period = period_of(cfg.tap_hz);
    let mut player = Player::new(&program.symbols, cfg).map_err(usage_error)?;
    let mut machine = super::machine_for(program);
    let game = play(&mut machine, &mut player, DEBUG_FRAMES);
    dbg.set_pad_tape(game.pads.iter().copied().collect());
    let mut planner = Planner::new(weights, period);
    dbg.add_info(
        "ai",
        Box::new(move |m: &Workbench| info_at(&mut planner, &game, m.state.clock.frame, 5)),
    );
    Ok(())
}

/// The longest game `retro debug --ai` plays before the debugger starts: ten minutes of the
/// game (a max-out from level 19 takes 8-15 minutes; `--ai-lines` stops sooner).
const DEBUG_FRAMES: u64 = 60 * 60 * 10;
