//! The player: from the title screen to the top-out, one controller byte a frame. It reads the
//! game's state from memory at the program's labels (ram.asm) and never writes it: [`Player::frame`]
//! takes the memory by shared reference, and [`play`] only ever sets the controller.

use std::time::{Duration, Instant};

use retro_z80_asm::output::SymbolTable;
use retro_z80_machine::{NoProbe, Stop, Workbench};

use crate::eval::{TUNER_SEED4, Weights};
use crate::motion::Motion;
use crate::plan::{Decision, Explained, Planner, Situation};
use crate::rules::{A, Board, DOWN, LEFT, RIGHT, START, Tally, UP, speed};

/// How the AI plays.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The level it starts at (0-19; 10 and up with A held on Start, as on the NES).
    pub level: u8,
    /// New presses per second at most (30: the NES's limit of every other frame).
    pub tap_hz: u8,
    /// Frames it waits on the title screen first (which picks the pieces, as a player's timing
    /// does).
    pub seed: u32,
    /// Stop playing (release the controller) once this many lines are made.
    pub stop_lines: Option<u32>,
    pub weights: Weights,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            level: 19,
            tap_hz: 30,
            seed: 0,
            stop_lines: None,
            weights: TUNER_SEED4,
        }
    }
}

/// Frames between new presses for `hz` taps a second (60 Hz frames; at least 2).
pub fn period_of(hz: u8) -> u8 {
    (60u16.div_ceil(u16::from(hz.clamp(1, 30)))) as u8
}

/// The game's RAM by label (programs/tetris/ram.asm).
#[derive(Clone, Copy, Debug)]
pub struct Labels {
    in_game: u16,
    menu_mode: u16,
    delay: u16,
    game_type: u16,
    sel_level: u16,
    sel_on_height: u16,
    dead: u16,
    paused: u16,
    play_state: u16,
    playfield: u16,
    piece: u16,
    piece_x: u16,
    piece_y: u16,
    next: u16,
    fall: u16,
    shift_ar: u16,
    drop_ar: u16,
    hold_down: u16,
    score: u16,
    lines: u16,
    level: u16,
}

impl Labels {
    pub fn find(symbols: &SymbolTable) -> Result<Labels, String> {
        let get = |name: &str| {
            symbols.get(name).ok_or_else(|| {
                format!("--ai: the program has no label `{name}` (the AI plays programs/tetris/tetris.asm)")
            })
        };
        Ok(Labels {
            in_game: get("in_game")?,
            menu_mode: get("menu_mode")?,
            delay: get("delay")?,
            game_type: get("game_type")?,
            sel_level: get("sel_level")?,
            sel_on_height: get("sel_on_height")?,
            dead: get("dead")?,
            paused: get("paused")?,
            play_state: get("play_state")?,
            playfield: get("playfield")?,
            piece: get("piece")?,
            piece_x: get("piece_x")?,
            piece_y: get("piece_y")?,
            next: get("next")?,
            fall: get("fall")?,
            shift_ar: get("shift_ar")?,
            drop_ar: get("drop_ar")?,
            hold_down: get("hold_down")?,
            score: get("score")?,
            lines: get("lines")?,
            level: get("level")?,
        })
    }
}

/// BCD bytes, least significant first, as a number.
fn bcd(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .rev()
        .fold(0, |n, &b| n * 100 + u32::from(b >> 4) * 10 + u32::from(b & 15))
}

/// The game as the AI sees it after a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub in_game: bool,
    pub dead: bool,
    pub moving: bool,
    pub board: Board,
    pub motion: Motion,
    pub next: u8,
    pub score: u32,
    pub lines: u32,
    pub level: u8,
}

impl View {
    pub fn read(l: &Labels, mem: &[u8; 0x10000]) -> View {
        let b = |a: u16| mem[usize::from(a)];
        let at = usize::from(l.playfield);
        View {
            in_game: b(l.in_game) != 0,
            dead: b(l.dead) != 0,
            moving: b(l.play_state) == 0 && b(l.paused) == 0,
            board: Board::from_page(&mem[at..at + 256]),
            motion: Motion {
                o: b(l.piece),
                x: b(l.piece_x) as i8,
                y: b(l.piece_y) as i8,
                fall: b(l.fall),
                shift_ar: b(l.shift_ar),
                drop_ar: b(l.drop_ar) as i8,
                hold_down: b(l.hold_down),
            },
            next: b(l.next),
            score: bcd(&mem[usize::from(l.score)..usize::from(l.score) + 3]),
            lines: bcd(&mem[usize::from(l.lines)..usize::from(l.lines) + 2]),
            level: b(l.level),
        }
    }
}

/// The AI at the controller.
pub struct Player {
    labels: Labels,
    cfg: Config,
    planner: Planner,
    /// The rest of the current piece's plan: each frame's buttons and the piece's state the
    /// frame should leave.
    plan: std::collections::VecDeque<(u8, Motion)>,
    expect: Option<Motion>,
    prev: u8,
    cool: u8,
    title_frames: u32,
    /// The last decision (for the terminal's panel and the debugger's `info ai`).
    pub last: Option<Decision>,
    /// What the last decision was made from (for [`Player::explain`]).
    asked: Option<Situation>,
    /// How long each decision took: (wall time, this thread's CPU time).
    pub times: Vec<(Duration, Duration)>,
    /// Frames where the game did not do what the plan expected (the model and the game
    /// disagreeing; 0 in every game so far).
    pub surprises: u32,
    /// Pieces placed.
    pub pieces: u32,
}

impl Player {
    pub fn new(symbols: &SymbolTable, cfg: Config) -> Result<Player, String> {
        Ok(Player {
            labels: Labels::find(symbols)?,
            planner: Planner::new(cfg.weights, period_of(cfg.tap_hz)),
            cfg,
            plan: Default::default(),
            expect: None,
            prev: 0,
            cool: 0,
            title_frames: 0,
            last: None,
            asked: None,
            times: vec![],
            surprises: 0,
            pieces: 0,
        })
    }

    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The buttons for the next frame, from the memory as the last frame left it.
    pub fn frame(&mut self, mem: &[u8; 0x10000]) -> u8 {
        let pad = self.choose(mem);
        let pressed = pad & !self.prev;
        self.cool = if pressed != 0 {
            self.planner.period() - 1
        } else {
            self.cool.saturating_sub(1)
        };
        self.prev = pad;
        pad
    }

    /// A new press of `buttons` when the timeline allows it, else nothing (a release).
    fn tap(&self, buttons: u8) -> u8 {
        if self.prev == 0 && self.cool == 0 {
            buttons
        } else {
            0
        }
    }

    fn choose(&mut self, mem: &[u8; 0x10000]) -> u8 {
        let l = self.labels;
        let b = |a: u16| mem[usize::from(a)];
        if b(l.in_game) == 0 {
            self.plan.clear();
            self.expect = None;
            if mem[usize::from(l.delay)] != 0 || mem[usize::from(l.delay) + 1] != 0 {
                return 0; // a screen being drawn: input is not read
            }
            return match b(l.menu_mode) {
                1 if self.title_frames < self.cfg.seed => {
                    self.title_frames += 1;
                    0
                }
                3 => self.level_menu(mem),
                2 if b(l.game_type) != 0 => self.tap(LEFT),
                _ => self.tap(START),
            };
        }
        let view = View::read(&l, mem);
        if view.dead || !view.moving {
            self.plan.clear();
            self.expect = None;
            return 0;
        }
        if self.cfg.stop_lines.is_some_and(|n| view.lines >= n) {
            return 0;
        }
        let m = view.motion;
        if self.expect.is_some_and(|e| e != m) {
            self.surprises += 1;
            self.plan.clear();
        }
        self.expect = None;
        if self.plan.is_empty() {
            if m.drop_ar < 0 {
                // The first piece hangs: Down ends the hang (and starts nothing: released next).
                return self.tap(DOWN);
            }
            if m.drop_ar > 0 {
                return 0; // a soft drop of ours cut short: releasing Down ends it
            }
            self.plan_piece(&view);
        }
        match self.plan.pop_front() {
            Some((pad, after)) => {
                self.expect = Some(after);
                pad
            }
            None => 0,
        }
    }

    fn level_menu(&mut self, mem: &[u8; 0x10000]) -> u8 {
        let l = self.labels;
        let b = |a: u16| mem[usize::from(a)];
        let target = self.cfg.level % 10;
        let at = b(l.sel_level);
        if b(l.sel_on_height) != 0 {
            return self.tap(A); // (B-type only) back to the level
        }
        if at != target {
            let (r, c) = (at / 5, at % 5);
            let (tr, tc) = (target / 5, target % 5);
            let dir = if tr > r {
                DOWN
            } else if tr < r {
                UP
            } else if tc > c {
                RIGHT
            } else {
                LEFT
            };
            return self.tap(dir);
        }
        if self.cfg.level >= 10 {
            // A held while Start is pressed: ten levels more.
            return if self.prev == A { A | START } else { self.tap(A) };
        }
        self.tap(START)
    }

    /// The last decision taken apart: its best `n` placements, best first, each with the next
    /// piece's placement that makes its value and the terms of that value (empty before the
    /// first decision). The search is run again from what the decision saw: the same answer.
    pub fn explain(&mut self, n: usize) -> Vec<Explained> {
        match self.asked {
            Some(at) => self.planner.explain(&at, n),
            None => vec![],
        }
    }

    /// What the last decision was made from.
    pub fn asked(&self) -> Option<&Situation> {
        self.asked.as_ref()
    }

    fn plan_piece(&mut self, view: &View) {
        let tally = Tally {
            lines: view.lines,
            level: view.level,
            score: view.score,
        };
        let at = Situation {
            board: view.board,
            tally,
            start: view.motion,
            cool: self.cool,
            next: Some(view.next),
        };
        self.asked = Some(at);
        let (t0, c0) = (Instant::now(), thread_cpu());
        let decision = self.planner.decide(&at);
        self.times.push((t0.elapsed(), thread_cpu().saturating_sub(c0)));
        self.pieces += 1;
        let mut path = decision.path.clone();
        if speed(view.level) > 2 {
            self.soft_drop(view, &mut path);
        }
        let mut m = view.motion;
        let mut prev = self.prev;
        for &pad in &path {
            m.step(&view.board, view.level, pad, prev);
            prev = pad;
            self.plan.push_back((pad, m));
        }
        // The lock frame leaves the piece where it locked; the next frame is the game's.
        if let Some(last) = self.plan.back_mut() {
            last.1 = m;
        }
        self.last = Some(decision);
    }

    /// Where gravity is slower than a soft drop, Down is held from the first frame the timeline
    /// allows a press after the plan's last one, if the piece then locks in the same place.
    fn soft_drop(&self, view: &View, path: &mut Vec<u8>) {
        let period = usize::from(self.planner.period());
        let last = path.iter().rposition(|&p| p != 0);
        let from = last.map_or(usize::from(self.cool), |i| i + period);
        if from >= path.len() {
            return;
        }
        let target = {
            let mut m = view.motion;
            let mut prev = self.prev;
            for &pad in path.iter() {
                m.step(&view.board, view.level, pad, prev);
                prev = pad;
            }
            (m.o, m.x, m.y)
        };
        let mut m = view.motion;
        let mut prev = self.prev;
        let mut pads = vec![];
        for f in 0..2000 {
            let pad = if f < from { path[f] } else { DOWN };
            pads.push(pad);
            if m.step(&view.board, view.level, pad, prev) {
                if (m.o, m.x, m.y) == target {
                    *path = pads;
                }
                return;
            }
            prev = pad;
        }
    }
}

/// This thread's CPU time so far (zero where there is no such clock).
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(t.tv_sec.max(0) as u64, t.tv_nsec.clamp(0, 999_999_999) as u32)
    }
    #[cfg(not(unix))]
    Duration::ZERO
}

/// A game the AI played.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub score: u32,
    pub lines: u32,
    pub level: u8,
    /// Frames from power-on to the top-out (or to where play stopped).
    pub frames: u64,
    pub dead: bool,
    /// The controller's byte of every frame ([`controller`]'s order: an FCEUX movie's input).
    pub pads: Vec<u8>,
    /// Each decision: the machine's frame counter when it was made (the frame that showed the
    /// new piece had just ended) and what it was made from (for [`crate::explain::info_at`]).
    pub decisions: Vec<(u64, Situation)>,
}

/// The controller's byte (the workbench's `pad`, an FCEUX movie's order: A in bit 0) for the
/// game's button byte (the order the NES's serial read builds: A in bit 7).
pub fn controller(buttons: u8) -> u8 {
    buttons.reverse_bits()
}

/// Runs the machine to the next frame's start; false if the program ended.
pub fn run_to_frame(m: &mut Workbench) -> bool {
    loop {
        match m.run(&NoProbe, u64::MAX, u64::MAX, |_| false).1 {
            Stop::Frame => return true,
            Stop::Exit(_) => return false,
            _ => {}
        }
    }
}

/// Plays on `m` (a machine fresh from power-on) until the top-out, the player's line goal, or
/// `max_frames`. Each frame: the player reads the memory, the controller takes its buttons, the
/// frame runs.
pub fn play(m: &mut Workbench, player: &mut Player, max_frames: u64) -> Outcome {
    let mut out = Outcome::default();
    if !run_to_frame(m) {
        return out;
    }
    let l = *player.labels();
    loop {
        let view = View::read(&l, m.mem());
        if view.in_game {
            (out.score, out.lines, out.level) = (view.score, view.lines, view.level);
            out.dead = view.dead;
        }
        let done = out.dead
            || player
                .cfg
                .stop_lines
                .is_some_and(|n| view.in_game && view.lines >= n);
        if done || out.pads.len() as u64 >= max_frames {
            break;
        }
        let decided = player.pieces;
        let pad = controller(player.frame(m.mem()));
        if player.pieces > decided
            && let Some(at) = player.asked()
        {
            out.decisions.push((m.state.clock.frame, *at));
        }
        m.state.dev.pad = pad;
        out.pads.push(pad);
        if !run_to_frame(m) {
            break;
        }
    }
    out.frames = out.pads.len() as u64;
    out
}
