//! The toy machine: ARCHITECTURE.md's worked example of "Adding a machine: the edits", followed
//! to the letter: this file and its row in `MACHINES` are the whole of it. A Z80 at 3.5 MHz with
//! a 32x24 text screen at F000h (one ASCII byte per cell, row by row), the next typed key on port
//! 00h (0 when none), and `OUT (01h),A` ending the run with A as the exit status. Its programs
//! are Z80 sources (`.toy`), assembled as `retro asm` does; returning from the program ends it
//! with status 0 (a three-byte ROM at 0000h). It is debugged by the one Z80 debugger, as the
//! workbench and CP/M are, by implementing `Z80Host`.
//!
//! It is small on purpose: a machine made only of parts the kit already has (a Z80, a text
//! screen) fits in its file here; a machine with a ROM and devices of its own gets a crate under
//! `interpreters/` and this file only builds it (ARCHITECTURE.md).

use std::cell::Cell as StopFlag;
use std::collections::VecDeque;
use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::{Machine, RunState};
use retro_machine::script::KeyScript;
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::frame::{Cell, CellGrid, Frame};
use retro_screen::palette::Palette;
use retro_z80::Cpu;
use retro_z80_machine::Program;
use retro_z80_machine::debug::Z80Debugger;
use retro_z80_machine::host::{
    FrameClock, Ports, Probe, ProbeBus, Snapshot, Stop, Z80Host, halt_steps, steps_before,
};

use super::kind::{Debugs, MachineKind};
use super::options::{DebugArgs, RunArgs};
use crate::session::{Session, drive};

/// The screen: 32 x 24 bytes from F000h, one ASCII character per cell.
pub const SCREEN: u16 = 0xF000;
pub const COLS: usize = 32;
pub const ROWS: usize = 24;
/// `IN A,(00h)`: the next key typed, as ASCII (Return is 13), or 0 when none is waiting.
pub const KEY_PORT: u8 = 0x00;
/// `OUT (01h),A`: the program ends with A as its exit status.
pub const EXIT_PORT: u8 = 0x01;
/// Where returning from the program lands: `XOR A / OUT (01h),A`.
const END_TRAP: u16 = 0x0000;
const CLOCK_HZ: u64 = 3_500_000;
const FRAME_HZ: u32 = 50;

/// The toy's row of the machine table.
pub struct Toy;

impl MachineKind for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }
    fn title(&self) -> &'static str {
        "the toy machine"
    }
    fn about(&self) -> &'static str {
        "the toy machine (ARCHITECTURE.md's example): a Z80 with a 32x24 text screen, .toy sources"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["toy"]
    }
    fn run_options(&self) -> &'static [&'static str] {
        &["--entry"]
    }
    fn key_help(&self) -> Vec<(&'static str, &'static str)> {
        vec![("letters, digits, Enter", "typed on port 00h")]
    }
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode {
        match load(file, args.program.entry.as_deref()) {
            Ok(program) => drive(&mut ToyMachine::new(&program), session, self.key_help()),
            Err(code) => code,
        }
    }
    fn debugger(&self) -> Option<&dyn Debugs> {
        Some(self)
    }
}

impl Debugs for Toy {
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode> {
        let program = load(file, args.program.entry.as_deref())?;
        let machine = ToyMachine::new(&program);
        let mut dbg = Z80Debugger::with_machine(program, machine);
        if args.keys.is_some() {
            dbg.set_keys(keys);
        }
        Ok(Box::new(dbg))
    }
}

/// The program in `path`, assembled (its diagnostics on stderr, as `retro asm` gives them).
fn load(path: &Path, entry: Option<&str>) -> Result<Program, ExitCode> {
    let asm = retro_z80_asm::assemble_file(path).map_err(|failure| {
        eprint!("{}", failure.render(false));
        ExitCode::from(2)
    })?;
    let mut program = Program::from_assembly(&asm);
    if let Some(label) = entry {
        program
            .set_entry_label(label)
            .map_err(crate::session::usage_error)?;
    }
    Ok(program)
}

/// What the toy's devices hold: the keys typed and not yet read, and the exit status once given.
#[derive(Clone, Debug, Default)]
pub struct ToyDevices {
    keys: VecDeque<u8>,
    /// The program read the key port this frame and found no key: it waits for one.
    waited: bool,
    exit: Option<u8>,
    /// Key events up to this time have been typed (the debugger feeds them at frame starts);
    /// `None` before the first frame, so a key at time 0 is typed too.
    typed_to: Option<VirtualTime>,
}

/// The running toy.
pub struct ToyMachine {
    cpu: Cpu,
    mem: Box<[u8; 0x10000]>,
    clock: FrameClock,
    dev: ToyDevices,
}

struct ToyPorts<'a> {
    dev: &'a mut ToyDevices,
}

impl Ports for ToyPorts<'_> {
    fn input(&mut self, port: u16) -> u8 {
        match port as u8 {
            KEY_PORT => self.dev.keys.pop_front().unwrap_or_else(|| {
                self.dev.waited = true;
                0
            }),
            _ => 0xFF,
        }
    }
    fn output(&mut self, port: u16, value: u8) -> bool {
        if port as u8 == EXIT_PORT {
            self.dev.exit = Some(value);
        }
        self.dev.exit.is_some()
    }
}

impl ToyMachine {
    /// The toy with `program` loaded, about to run it from its entry with the end trap pushed.
    pub fn new(program: &Program) -> ToyMachine {
        let mut mem = retro_z80_machine::host::copy_memory(&[0; 0x10000]);
        mem[END_TRAP as usize..][..3].copy_from_slice(&[0xAF, 0xD3, EXIT_PORT]);
        for (at, bytes) in &program.blocks {
            for (i, b) in bytes.iter().enumerate() {
                mem[(*at as usize + i) & 0xFFFF] = *b;
            }
        }
        let mut cpu = Cpu::new();
        cpu.set_pc(program.entry);
        cpu.set_sp(0xFFFE);
        mem[0xFFFE..].copy_from_slice(&END_TRAP.to_le_bytes());
        ToyMachine {
            cpu,
            mem,
            clock: FrameClock::new(CLOCK_HZ / u64::from(FRAME_HZ)),
            dev: ToyDevices::default(),
        }
    }

    fn type_key(&mut self, key: Key) {
        let byte = match key {
            Key::Char(c) if c.is_ascii() => c as u8,
            Key::Return => 13,
            _ => return,
        };
        self.dev.keys.push_back(byte);
    }
}

impl Machine for ToyMachine {
    fn name(&self) -> &str {
        "toy"
    }
    fn frame_hz(&self) -> u32 {
        FRAME_HZ
    }
    fn key(&mut self, event: KeyEvent) {
        if event.kind == KeyEventKind::Press {
            self.type_key(event.key);
        }
    }
    /// A frame in which the program found no key waiting is `WaitingForKey`, so a headless run
    /// whose key script has run out ends rather than spin for its time limit.
    fn run_frame(&mut self, _now: VirtualTime, _held: &HeldKeys) -> RunState {
        self.dev.waited = false;
        loop {
            match Z80Host::run(self, &retro_z80_machine::NoProbe, u64::MAX, u64::MAX, |_| false).1 {
                Stop::Frame if self.dev.waited => return RunState::WaitingForKey,
                Stop::Frame => return RunState::Running,
                Stop::Exit(_) => return RunState::Ended,
                _ => {}
            }
        }
    }
    fn frame(&self) -> Frame {
        let mut grid = CellGrid::new(COLS, ROWS, Cell::default());
        let screen = &self.mem[SCREEN as usize..][..COLS * ROWS];
        for (i, &b) in screen.iter().enumerate() {
            let ch = if (0x20..0x7F).contains(&b) { b as char } else { ' ' };
            grid.set(i % COLS, i / COLS, Cell::new(ch, 7, 0));
        }
        Frame::cells(grid, Palette::z80_workbench())
    }
    fn drain_text(&mut self, _out: &mut String) {}
    fn quit_status(&self) -> Option<i32> {
        self.dev.exit.map(i32::from)
    }
}

impl Z80Host for ToyMachine {
    type Devices = ToyDevices;

    fn cpu(&self) -> &Cpu {
        &self.cpu
    }
    fn cpu_mut(&mut self) -> &mut Cpu {
        &mut self.cpu
    }
    fn memory(&self) -> &[u8; 0x10000] {
        &self.mem
    }
    fn memory_mut(&mut self) -> &mut [u8; 0x10000] {
        &mut self.mem
    }
    fn clock(&self) -> &FrameClock {
        &self.clock
    }
    fn snapshot(&self) -> Snapshot<ToyDevices> {
        Snapshot {
            cpu: self.cpu.clone(),
            dev: self.dev.clone(),
            clock: self.clock,
        }
    }
    fn restore(&mut self, s: Snapshot<ToyDevices>) {
        self.cpu = s.cpu;
        self.dev = s.dev;
        self.clock = s.clock;
    }
    fn run<P: Probe>(
        &mut self,
        probe: &P,
        max: u64,
        t_end: u64,
        mut brk: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        let mut n = 0u64;
        loop {
            let t = self.cpu.tstates();
            if let Some(why) = self.clock.stop_before_step(t, self.dev.exit, n, max, t_end) {
                return (n, why);
            }
            let horizon = self.clock.next_frame.min(t_end);
            if self.cpu.halted() {
                // Nothing interrupts the toy: HALT's NOPs run to the horizon in one go.
                let k = halt_steps(t, horizon, max - n);
                self.cpu.set_tstates(t + 4 * k);
                n += k;
                continue;
            }
            let chunk = steps_before(t, horizon, max - n);
            let stop = StopFlag::new(false);
            let mut bus = ProbeBus {
                mem: &mut self.mem,
                io: ToyPorts { dev: &mut self.dev },
                probe,
                stop: &stop,
            };
            let ran = self.cpu.run_until(&mut bus, chunk, |pc| stop.get() || brk(pc));
            n += ran;
            if stop.get() {
                return match self.dev.exit {
                    Some(status) => (n, Stop::Exit(status)),
                    None => (n, Stop::Probe),
                };
            }
            if ran < chunk {
                return (n, Stop::Break(self.cpu.pc()));
            }
        }
    }
    /// The toy writes nothing but its screen, so there is no console text to hold back.
    fn set_replaying(&mut self, _replaying: bool) {}
    /// Presses since the last frame are typed (releases type nothing).
    fn feed_keys(&mut self, events: &[&KeyEvent], now: VirtualTime) {
        let from = self.dev.typed_to;
        for e in events
            .iter()
            .filter(|e| from.is_none_or(|from| e.at > from) && e.at <= now)
        {
            self.key(**e);
        }
        self.dev.typed_to = Some(now);
    }
    fn info(&self) -> String {
        format!(
            "frame {}  keys waiting {}  exit {}\n",
            self.clock.frame,
            self.dev.keys.len(),
            self.dev.exit.map_or("-".to_string(), |s| s.to_string())
        )
    }
    fn end_trap(&self) -> u16 {
        END_TRAP
    }
}
