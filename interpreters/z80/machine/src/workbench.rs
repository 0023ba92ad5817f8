//! The workbench machine: a Z80 at 3.5 MHz of virtual time, 64 KiB of RAM with a few bytes of
//! built-in code instead of a ROM, the Spectrum's screen, keyboard and border, a frame interrupt,
//! an NES-style controller, a debug console and an exit port (docs/z80-machine.md).
//!
//! The machine's whole state ([`State`]: CPU, memory, devices, frame clock) is plain data, so the
//! debugger snapshots it for reverse execution. Runs go through [`Workbench::run`], which the plain
//! `retro run` and the debugger share: it runs the CPU's fast loop in chunks that never overshoot
//! the next frame boundary, and a [`Probe`] sees every memory and I/O access (a no-op for plain
//! runs, watchpoints for the debugger; it is a type parameter, so a plain run pays nothing).

use std::cell::Cell;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, HoldMode, KeyEvent, VirtualTime};
use retro_screen::Frame;
use retro_z80::Cpu;

use crate::display;
use crate::host::{FrameClock, NoProbe, Ports, Probe, ProbeBus, Stop};
use crate::host::{Snapshot, Z80Host};
use crate::keyboard::{Matrix, pad_byte};
use crate::ports::{self, Devices};

/// T-states per frame at 50 Hz, as on the Spectrum 48K (224 T x 312 lines).
pub const FRAME_T_50HZ: u64 = 69_888;
/// T-states per frame at 60 Hz: 3.5 MHz / 60.
pub const FRAME_T_60HZ: u64 = 58_333;
/// How long the ULA holds INT low at the start of a frame; an interrupt not accepted by then is lost.
pub const INT_LENGTH: u64 = 32;
/// The smallest terminal that shows the pixels rather than the attribute cells: two pixels a
/// column, four a row (half-blocks), and a row for the status line beyond `PIXEL_ROWS`.
pub const PIXEL_COLS: u16 = 128;
pub const PIXEL_ROWS: u16 = 48;

/// Where returning from the program lands: `XOR A / OUT (EXIT),A` ends the run with status 0.
pub const END_TRAP: u16 = 0x0000;
/// The IM 1 handler (`EI / RET`), where RST 38h and IM 1 interrupts go.
pub const IM1_HANDLER: u16 = 0x0038;
/// The NMI handler (`RETN`).
pub const NMI_HANDLER: u16 = 0x0066;
/// The built-in IM 2 vector table (257 bytes of 3Fh): with I = 3Eh every vector reads 3F3Fh.
pub const IM2_TABLE: u16 = 0x3E00;
/// The built-in IM 2 handler (`EI / RETI`).
pub const IM2_HANDLER: u16 = 0x3F3F;
/// The byte on the data bus when the CPU acknowledges the frame interrupt (nothing drives it).
pub const INT_DATA_BUS: u8 = 0xFF;

/// The frame rate: 50 Hz as the Spectrum, or 60 Hz (the NES-style Tetris runs at NTSC rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRate {
    Hz50,
    Hz60,
}

impl FrameRate {
    pub fn hz(self) -> u32 {
        match self {
            FrameRate::Hz50 => 50,
            FrameRate::Hz60 => 60,
        }
    }
    pub fn tstates(self) -> u64 {
        match self {
            FrameRate::Hz50 => FRAME_T_50HZ,
            FrameRate::Hz60 => FRAME_T_60HZ,
        }
    }
}

/// Everything that makes up the machine at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub cpu: Cpu,
    pub mem: Box<[u8; 0x10000]>,
    pub dev: Devices,
    pub clock: FrameClock,
}

/// The workbench's ports on the bus of one run: its devices, and the console output (none while
/// the debugger replays).
struct WorkbenchPorts<'a> {
    dev: &'a mut Devices,
    console: Option<&'a mut Vec<u8>>,
}

impl Ports for WorkbenchPorts<'_> {
    fn input(&mut self, port: u16) -> u8 {
        self.dev.input(port)
    }
    fn output(&mut self, port: u16, value: u8) -> bool {
        self.dev.output(port, value, self.console.as_deref_mut());
        self.dev.exit.is_some()
    }
    fn int_ack(&mut self) -> u8 {
        self.dev.int_acked = true;
        INT_DATA_BUS
    }
}

/// The workbench machine.
pub struct Workbench {
    pub state: State,
    rate: FrameRate,
    /// Console text not yet drained.
    console: Vec<u8>,
    /// While set, console output is not collected (the debugger replaying history).
    pub replaying: bool,
}

fn zeroed_memory() -> Box<[u8; 0x10000]> {
    vec![0u8; 0x10000].into_boxed_slice().try_into().expect("64 KiB")
}

impl Workbench {
    /// A machine with the built-in code in low memory, everything else zero, the CPU at 0000h.
    pub fn new(rate: FrameRate) -> Workbench {
        let mut mem = zeroed_memory();
        let mut put = |addr: u16, bytes: &[u8]| {
            mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
        };
        put(END_TRAP, &[0xAF, 0xD3, ports::EXIT]); // XOR A / OUT (EXIT),A
        put(IM1_HANDLER, &[0xFB, 0xC9]); // EI / RET
        put(NMI_HANDLER, &[0xED, 0x45]); // RETN
        put(IM2_TABLE, &[(IM2_HANDLER >> 8) as u8; 257]);
        put(IM2_HANDLER, &[0xFB, 0xED, 0x4D]); // EI / RETI
        let mut cpu = Cpu::new();
        cpu.set_im(1);
        Workbench {
            state: State {
                cpu,
                mem,
                dev: Devices::new(),
                clock: FrameClock::new(rate.tstates()),
            },
            rate,
            console: vec![],
            replaying: false,
        }
    }

    pub fn rate(&self) -> FrameRate {
        self.rate
    }

    /// Copies `bytes` into memory at `addr` (wrapping at the top).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.state.mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }

    /// Starts the program at `entry`: SP at the top of memory with a return address of 0000h
    /// pushed, so that a program whose main routine returns ends the run with status 0.
    pub fn start(&mut self, entry: u16) {
        let cpu = &mut self.state.cpu;
        cpu.set_pc(entry);
        cpu.set_sp(0xFFFE);
        self.state.mem[0xFFFE] = (END_TRAP & 0xFF) as u8;
        self.state.mem[0xFFFF] = (END_TRAP >> 8) as u8;
    }

    pub fn cpu(&self) -> &Cpu {
        &self.state.cpu
    }
    pub fn cpu_mut(&mut self) -> &mut Cpu {
        &mut self.state.cpu
    }
    pub fn mem(&self) -> &[u8; 0x10000] {
        &self.state.mem
    }
    pub fn peek(&self, addr: u16) -> u8 {
        self.state.mem[addr as usize]
    }
    pub fn peek_word(&self, addr: u16) -> u16 {
        self.peek(addr) as u16 | (self.peek(addr.wrapping_add(1)) as u16) << 8
    }
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.state.mem[addr as usize] = value;
    }
    pub fn devices(&self) -> &Devices {
        &self.state.dev
    }
    /// The exit status the program wrote, if it has.
    pub fn exit_status(&self) -> Option<u8> {
        self.state.dev.exit
    }
    /// Sets the held keys (keyboard half-rows and controller) from terminal keys.
    pub fn set_keys(&mut self, keys: &[retro_machine::Key]) {
        self.state.dev.keys = Matrix::from_keys(keys);
        if self.state.dev.tape.is_none() {
            self.state.dev.pad = pad_byte(keys);
        }
    }
    /// Plays an input movie into the controller: frame k (counting from 1) of the machine gets
    /// `frames[k - 1]`, and released buttons after the movie's end; the keys no longer press the
    /// controller.
    pub fn set_pad_tape(&mut self, frames: std::sync::Arc<[u8]>) {
        let next = self.state.clock.frame as usize;
        self.state.dev.tape = Some(crate::ports::PadTape { frames, next });
    }
    /// Takes the console output collected so far.
    pub fn take_console(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.console)
    }

    /// Begins a frame: asserts INT for [`INT_LENGTH`] T-states.
    fn start_frame(&mut self) {
        let c = &mut self.state.clock;
        c.frame += 1;
        c.int_until = c.next_frame + INT_LENGTH;
        c.next_frame += c.frame_t;
        self.state.cpu.set_int_line(true);
        let dev = &mut self.state.dev;
        dev.int_acked = false;
        if let Some(tape) = dev.tape.as_mut() {
            dev.pad = tape.frames.get(tape.next).copied().unwrap_or(0);
            tape.next += 1;
        }
    }

    /// Runs until a stop (see [`Stop`]): at most `max` CPU steps (instructions, interrupt
    /// acceptances and HALT's internal NOPs all count one) and until T-state `t_end`. `brk(pc)` is
    /// asked before each instruction; the probe sees each access. Returns the steps run and why
    /// it stopped. A breakpoint at the PC it starts on stops at once (step over it first).
    pub fn run<P: Probe>(
        &mut self,
        probe: &P,
        max: u64,
        t_end: u64,
        mut brk: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        let mut n = 0u64;
        loop {
            let t = self.state.cpu.tstates();
            if t >= self.state.clock.next_frame {
                self.start_frame();
                return (n, Stop::Frame);
            }
            if let Some(s) = self.state.dev.exit {
                return (n, Stop::Exit(s));
            }
            if n >= max {
                return (n, Stop::Budget);
            }
            if t >= t_end {
                return (n, Stop::Time);
            }
            let cpu = &mut self.state.cpu;
            let mut horizon = self.state.clock.next_frame.min(t_end);
            if cpu.int_line() {
                horizon = horizon.min(self.state.clock.int_until);
            }
            if cpu.halted() && !cpu.int_line() {
                // HALT executes NOPs until the interrupt: skip them in one go (this is what keeps
                // an idle program from costing host CPU).
                let k = (horizon.saturating_sub(t)).div_ceil(4).clamp(1, max - n);
                cpu.set_tstates(t + 4 * k);
                let r = cpu.r();
                cpu.set_r((r & 0x80) | (r as u64).wrapping_add(k) as u8 & 0x7F);
                n += k;
                continue;
            }
            // The longest instruction takes 23 T-states, so this many cannot pass the horizon.
            let chunk = (horizon.saturating_sub(t) / 23).clamp(1, max - n);
            let stop = Cell::new(false);
            let console = if self.replaying {
                None
            } else {
                Some(&mut self.console)
            };
            let mut bus = ProbeBus {
                mem: &mut self.state.mem,
                io: WorkbenchPorts {
                    dev: &mut self.state.dev,
                    console,
                },
                probe,
                stop: &stop,
            };
            let ran = cpu.run_until(&mut bus, chunk, |pc| stop.get() || brk(pc));
            n += ran;
            if self.state.dev.int_acked {
                self.state.dev.int_acked = false;
                cpu.set_int_line(false);
            } else if cpu.int_line() && cpu.tstates() >= self.state.clock.int_until {
                cpu.set_int_line(false);
            }
            if stop.get() {
                if let Some(s) = self.state.dev.exit {
                    return (n, Stop::Exit(s));
                }
                return (n, Stop::Probe);
            }
            if ran < chunk {
                return (n, Stop::Break(cpu.pc()));
            }
        }
    }

    /// Executes exactly one CPU step (or starts a frame first if one is due, which takes no
    /// step). Returns the stop, as [`Workbench::run`] with a budget of 1.
    pub fn step<P: Probe>(&mut self, probe: &P) -> (u64, Stop) {
        loop {
            match self.run(probe, 1, u64::MAX, |_| false) {
                (0, Stop::Frame) => continue,
                other => return other,
            }
        }
    }

    /// The screen as attribute cells (32 x 24, the default view).
    pub fn cell_frame(&self) -> Frame {
        display::cells(&self.state.mem, self.state.dev.border, self.flash_phase())
    }

    /// The screen as pixels (256 x 192, bitmap and attributes), for screenshots and big terminals.
    pub fn pixel_frame(&self) -> Frame {
        display::pixels(&self.state.mem, self.state.dev.border, self.flash_phase())
    }

    /// The view for a terminal area: the pixels (half-blocks) once the area shows them at two
    /// pixels a terminal column or better (128 x 48, and a status line), else the attribute cells.
    pub fn frame_sized(&self, cols: u16, rows: u16) -> Frame {
        if cols >= PIXEL_COLS && rows > PIXEL_ROWS {
            self.pixel_frame()
        } else {
            self.cell_frame()
        }
    }

    /// FLASH swaps ink and paper every 16 frames, as on the Spectrum.
    pub fn flash_phase(&self) -> bool {
        (self.state.clock.frame / 16) & 1 == 1
    }
}

impl Machine for Workbench {
    fn name(&self) -> &str {
        "Z80 workbench"
    }
    fn frame_hz(&self) -> u32 {
        self.rate.hz()
    }
    fn key(&mut self, _event: KeyEvent) {
        // The machine reads held keys only (half-rows and controller), at each frame's start.
    }
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        if self.state.dev.exit.is_some() {
            return RunState::Ended;
        }
        self.set_keys(&held.held(now));
        loop {
            match self.run(&NoProbe, u64::MAX, u64::MAX, |_| false).1 {
                Stop::Frame => return RunState::Running,
                Stop::Exit(_) => return RunState::Ended,
                _ => {}
            }
        }
    }
    fn frame(&self) -> Frame {
        self.cell_frame()
    }
    fn frame_for(&self, cols: u16, rows: u16) -> Frame {
        self.frame_sized(cols, rows)
    }
    fn drain_text(&mut self, out: &mut String) {
        out.push_str(&console_text(&self.take_console()));
    }
}

/// Console bytes as text: 13 and 10 end lines, other bytes are Latin-1 characters.
pub fn console_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b == 13 || b == 10 { '\n' } else { b as char })
        .collect()
}

impl Z80Host for Workbench {
    type Devices = Devices;

    fn cpu(&self) -> &Cpu {
        &self.state.cpu
    }
    fn cpu_mut(&mut self) -> &mut Cpu {
        &mut self.state.cpu
    }
    fn memory(&self) -> &[u8; 0x10000] {
        &self.state.mem
    }
    fn memory_mut(&mut self) -> &mut [u8; 0x10000] {
        &mut self.state.mem
    }
    fn clock(&self) -> &FrameClock {
        &self.state.clock
    }
    fn snapshot(&self) -> Snapshot<Devices> {
        Snapshot {
            cpu: self.state.cpu.clone(),
            dev: self.state.dev.clone(),
            clock: self.state.clock,
        }
    }
    fn restore(&mut self, s: Snapshot<Devices>) {
        self.state.cpu = s.cpu;
        self.state.dev = s.dev;
        self.state.clock = s.clock;
    }
    #[inline(always)]
    fn run<P: Probe>(
        &mut self,
        probe: &P,
        max: u64,
        t_end: u64,
        brk: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        Workbench::run(self, probe, max, t_end, brk)
    }
    fn set_replaying(&mut self, replaying: bool) {
        self.replaying = replaying;
    }
    /// The keys held at `now` press the half-rows and the controller.
    fn feed_keys(&mut self, events: &[&KeyEvent], now: VirtualTime) {
        let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
        for e in events {
            held.apply(**e);
        }
        self.set_keys(&held.held(now));
    }
    fn info(&self) -> String {
        let dev = &self.state.dev;
        format!(
            "frame {}  border {}  beeper {}  pad {:08b}  exit {}\n",
            self.state.clock.frame,
            dev.border,
            dev.beeper as u8,
            dev.pad,
            dev.exit.map_or("-".to_string(), |s| s.to_string())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_machine::{HoldMode, Key};

    fn machine(code: &[u8]) -> Workbench {
        let mut m = Workbench::new(FrameRate::Hz50);
        m.load(0x8000, code);
        m.start(0x8000);
        m
    }

    fn run_to_end(m: &mut Workbench, frames: u32) -> RunState {
        let held = HeldKeys::new(HoldMode::ReleaseEvents);
        for _ in 0..frames {
            let s = m.run_frame(VirtualTime::ZERO, &held);
            if s != RunState::Running {
                return s;
            }
        }
        RunState::Running
    }

    #[test]
    fn returning_from_the_program_ends_with_status_0() {
        let mut m = machine(&[0x3E, 0x05, 0xC9]); // LD A,5 / RET
        assert_eq!(run_to_end(&mut m, 2), RunState::Ended);
        assert_eq!(m.exit_status(), Some(0));
    }

    #[test]
    fn exit_port_stops_at_once_with_its_status() {
        // LD A,7 / OUT (EXIT),A / LD A,9 / LD (4000h),A
        let mut m = machine(&[0x3E, 7, 0xD3, ports::EXIT, 0x3E, 9, 0x32, 0x00, 0x40]);
        assert_eq!(run_to_end(&mut m, 2), RunState::Ended);
        assert_eq!(m.exit_status(), Some(7));
        assert_eq!(m.peek(0x4000), 0, "nothing runs after the exit port");
        assert_eq!(m.cpu().pc(), 0x8004);
    }

    #[test]
    fn im1_frame_interrupts_wake_halt_once_per_frame() {
        // EI / loop: HALT / INC (HL) with HL=9000h / JR loop
        let mut m = machine(&[0x21, 0x00, 0x90, 0xFB, 0x76, 0x34, 0x18, 0xFC]);
        run_to_end(&mut m, 10);
        // Each run_frame ends by raising the next frame's interrupt; the CPU takes it at the start
        // of the following call, so ten frames give nine wake-ups.
        assert_eq!(m.peek(0x9000), 9, "one wake-up per frame");
        assert_eq!(m.state.clock.frame, 10);
    }

    #[test]
    fn im2_uses_the_built_in_vector_table() {
        // LD A,3Eh / LD I,A / IM 2 / EI / HALT / LD A,1 / OUT (EXIT),A
        let mut m = machine(&[
            0x3E,
            0x3E,
            0xED,
            0x47,
            0xED,
            0x5E,
            0xFB,
            0x76,
            0x3E,
            1,
            0xD3,
            ports::EXIT,
        ]);
        assert_eq!(run_to_end(&mut m, 3), RunState::Ended);
        assert_eq!(m.exit_status(), Some(1));
    }

    #[test]
    fn keyboard_is_read_on_port_fe() {
        // LD BC,FBFEh / IN A,(C) / LD (9000h),A / JR $-6 (spin)
        let mut m = machine(&[0x01, 0xFE, 0xFB, 0xED, 0x78, 0x32, 0x00, 0x90, 0x18, 0xF9]);
        let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
        held.apply(KeyEvent::press(VirtualTime::ZERO, Key::Char('w')));
        m.run_frame(VirtualTime::ZERO, &held);
        assert_eq!(m.peek(0x9000), 0xE0 | 0x1D, "W is bit 1 of the Q-T half-row");
    }

    /// FLASH swaps ink and paper every 16 frames (0.32 s at 50 Hz), as the Spectrum's ULA does.
    #[test]
    fn flash_swaps_ink_and_paper_every_16_frames() {
        // HALT with interrupts off: frames pass, nothing else happens.
        let mut m = machine(&[0x76]);
        m.poke(0x5800, 0x80 | (2 << 3) | 6); // FLASH, red paper, yellow ink
        let paper = |m: &Workbench| retro_screen::dump::colours(&m.cell_frame()).chars().next();
        let mut seen = vec![];
        let mut pixels = vec![];
        for _ in 0..64 {
            seen.push(paper(&m));
            pixels.push(m.pixel_frame());
            run_to_end(&mut m, 1);
        }
        let expect: Vec<Option<char>> = (0..64u64)
            .map(|f| Some(if (f / 16) % 2 == 1 { '6' } else { '2' }))
            .collect();
        assert_eq!(seen, expect);
        // The pixel view flashes with the cells.
        assert_eq!(pixels[0], pixels[15]);
        assert_ne!(pixels[15], pixels[16]);
        assert_eq!(pixels[0], pixels[32]);
    }

    /// The terminal shows the attribute cells at 80x24 and the pixels once it is 128 x 49.
    #[test]
    fn big_terminals_get_the_pixels() {
        use retro_screen::Screen;
        let m = machine(&[0x76]);
        assert!(matches!(m.frame_for(80, 24).screen, Screen::Cells(_)));
        assert!(matches!(m.frame_for(127, 60).screen, Screen::Cells(_)));
        assert!(matches!(m.frame_for(128, 48).screen, Screen::Cells(_)));
        assert!(matches!(m.frame_for(128, 49).screen, Screen::Pixels(_)));
        assert!(
            matches!(m.frame().screen, Screen::Cells(_)),
            "dumps keep the cells"
        );
    }

    #[test]
    fn frames_take_their_t_states_and_halt_costs_no_steps_per_nop() {
        let mut m = machine(&[0x76]); // HALT with interrupts off: sleeps forever
        run_to_end(&mut m, 3);
        assert_eq!(m.state.clock.frame, 3);
        assert!(m.cpu().tstates() >= 3 * FRAME_T_50HZ);
        assert!(m.cpu().tstates() < 3 * FRAME_T_50HZ + 4);
    }
}
