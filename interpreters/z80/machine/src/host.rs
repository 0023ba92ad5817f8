//! What the Z80 debugger needs of the machine it runs a program on: [`Z80Host`]. The workbench
//! ([`crate::workbench`]) and the CP/M machine (the `retro-z80-cpm` crate) implement it, so one
//! debugger ([`crate::debug::Z80Debugger`]) serves both.
//!
//! The trait lives here, beside the debugger, and the CP/M crate depends on this crate to
//! implement it (not the other way round): what a host must do is the debugger's business, and
//! only the CP/M crate can reach its own BDOS traps and console to do it. The workbench imports
//! this module, never the debugger, so neither side has a cycle.

use std::cell::Cell;

use retro_machine::machine::Machine;
use retro_machine::{KeyEvent, VirtualTime};
use retro_z80::{Bus, Cpu};

/// The frame clock: when the next frame starts and how long INT stays asserted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameClock {
    /// T-states per frame.
    pub frame_t: u64,
    /// Frames started so far (the first frame boundary starts frame 1).
    pub frame: u64,
    /// T-state at which the next frame starts.
    pub next_frame: u64,
    /// INT is released at this T-state if the CPU has not accepted it.
    pub int_until: u64,
}

impl FrameClock {
    /// A clock at T-state 0 with frames of `frame_t` T-states.
    pub fn new(frame_t: u64) -> FrameClock {
        FrameClock {
            frame_t,
            frame: 0,
            next_frame: frame_t,
            int_until: 0,
        }
    }
}

impl FrameClock {
    /// What stops a [`Z80Host::run`] before its next step, checked in this order by every host:
    /// a frame due at T-state `t` (the clock moves on to it: the driver feeds the frame's keys),
    /// the program's end (`exit`, its status), the budget (`n` of `max` steps run), the T-state
    /// limit `t_end`. `None`: step on.
    #[inline(always)]
    pub fn stop_before_step(
        &mut self,
        t: u64,
        exit: Option<u8>,
        n: u64,
        max: u64,
        t_end: u64,
    ) -> Option<Stop> {
        if t >= self.next_frame {
            self.frame += 1;
            self.next_frame += self.frame_t;
            Some(Stop::Frame)
        } else if let Some(status) = exit {
            Some(Stop::Exit(status))
        } else if n >= max {
            Some(Stop::Budget)
        } else if t >= t_end {
            Some(Stop::Time)
        } else {
            None
        }
    }
}

/// Steps a run may take from T-state `t` without passing `horizon` (the next frame or the time
/// limit), `left` of its budget: at least one. The longest instruction takes 23 T-states.
#[inline(always)]
pub fn steps_before(t: u64, horizon: u64, left: u64) -> u64 {
    (horizon.saturating_sub(t) / 23).clamp(1, left)
}

/// Steps of HALT's NOPs (4 T-states each) from T-state `t` to `horizon`, `left` of the budget: at
/// least one. A host with nothing to wake the CPU idles them in one go, which is what keeps an
/// idle program from costing host CPU.
#[inline(always)]
pub fn halt_steps(t: u64, horizon: u64, left: u64) -> u64 {
    horizon.saturating_sub(t).div_ceil(4).clamp(1, left)
}

/// Sees every data access of a run (not opcode fetches) before it happens; returning `true` stops
/// the run after the current instruction.
pub trait Probe {
    #[inline(always)]
    fn read(&self, _addr: u16) -> bool {
        false
    }
    #[inline(always)]
    /// A write of `value` over `old` (the byte there before the store).
    fn write(&self, _addr: u16, _value: u8, _old: u8) -> bool {
        false
    }
    #[inline(always)]
    fn port(&self, _port: u16, _write: bool) -> bool {
        false
    }
}

/// The probe of a plain run.
pub struct NoProbe;
impl Probe for NoProbe {}

/// A machine's I/O ports, as a [`ProbeBus`] reaches them.
pub trait Ports {
    fn input(&mut self, port: u16) -> u8;
    /// An `OUT`; `true` stops the run after the instruction (an exit port was written).
    fn output(&mut self, port: u16, value: u8) -> bool;
    /// The byte on the data bus when the CPU acknowledges an interrupt.
    fn int_ack(&mut self) -> u8 {
        0xFF
    }
}

/// No devices: ports read FFh and writes go nowhere.
pub struct NoPorts;
impl Ports for NoPorts {
    fn input(&mut self, _port: u16) -> u8 {
        0xFF
    }
    fn output(&mut self, _port: u16, _value: u8) -> bool {
        false
    }
}

/// The bus of one run: 64 KiB of memory, the machine's ports, and the probe, which sees every
/// data access and port (not opcode fetches); `stop` is set when it asks to stop.
pub struct ProbeBus<'a, P: Probe, IO: Ports> {
    pub mem: &'a mut [u8; 0x10000],
    pub io: IO,
    pub probe: &'a P,
    pub stop: &'a Cell<bool>,
}

impl<P: Probe, IO: Ports> Bus for ProbeBus<'_, P, IO> {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        if self.probe.read(addr) {
            self.stop.set(true);
        }
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        if self.probe.write(addr, value, self.mem[addr as usize]) {
            self.stop.set(true);
        }
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn fetch(&mut self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    fn input(&mut self, port: u16) -> u8 {
        if self.probe.port(port, false) {
            self.stop.set(true);
        }
        self.io.input(port)
    }
    fn output(&mut self, port: u16, value: u8) {
        if self.probe.port(port, true) | self.io.output(port, value) {
            self.stop.set(true);
        }
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    fn int_ack(&mut self) -> u8 {
        self.io.int_ack()
    }
}

/// Why [`Z80Host::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A new frame started: the driver may update the keys and go on.
    Frame,
    /// The breakpoint test was true before the instruction at this PC.
    Break(u16),
    /// The probe asked to stop (after the instruction that made the access).
    Probe,
    /// The program ended with this exit status.
    Exit(u8),
    /// The instruction budget ran out.
    Budget,
    /// The T-state limit was reached.
    Time,
}

/// A machine's state apart from its memory: what a checkpoint keeps besides the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot<D> {
    pub cpu: Cpu,
    /// Everything else that decides what the machine does next (see [`Z80Host::Devices`]).
    pub dev: D,
    pub clock: FrameClock,
}

/// A whole machine at one instant: its snapshot and its 64 KiB of memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved<D> {
    pub snapshot: Snapshot<D>,
    pub mem: Box<[u8; 0x10000]>,
}

/// A copy of 64 KiB of memory on the heap.
pub fn copy_memory(mem: &[u8; 0x10000]) -> Box<[u8; 0x10000]> {
    mem.to_vec().into_boxed_slice().try_into().expect("64 KiB")
}

/// A Z80 machine the debugger can drive. Runs must be deterministic given the snapshot, the
/// memory and the keys fed at frame starts ([`Z80Host::feed_keys`]): reverse execution restores
/// a checkpoint and replays.
///
/// The rest comes from [`Machine`]: the name, the frame rate, the screen, and the program's
/// console text (`drain_text`, which must not collect while replaying).
pub trait Z80Host: Machine {
    /// The machine's state besides the CPU, memory and frame clock (devices, console, keys).
    type Devices: Clone;

    fn cpu(&self) -> &Cpu;
    fn cpu_mut(&mut self) -> &mut Cpu;
    fn memory(&self) -> &[u8; 0x10000];
    fn memory_mut(&mut self) -> &mut [u8; 0x10000];
    fn clock(&self) -> &FrameClock;
    /// Everything but the memory, as of now.
    fn snapshot(&self) -> Snapshot<Self::Devices>;
    fn restore(&mut self, snapshot: Snapshot<Self::Devices>);

    /// Runs until a stop (see [`Stop`]): at most `max` steps and until T-state `t_end`. `brk(pc)`
    /// is asked before each step; the probe sees each access. Returns the steps run and why it
    /// stopped. A breakpoint at the PC it starts on stops at once (step over it first).
    fn run<P: Probe>(&mut self, probe: &P, max: u64, t_end: u64, brk: impl FnMut(u16) -> bool)
    -> (u64, Stop);

    /// While set, the program's console output is not collected (the debugger replaying).
    fn set_replaying(&mut self, replaying: bool);

    /// The keys for the frame now starting: every key event of the run up to `now`, in time
    /// order (the machine takes what it needs: the keys held, or the ones newly typed).
    fn feed_keys(&mut self, events: &[&KeyEvent], now: VirtualTime);

    /// `info machine`: the machine's own devices, one line.
    fn info(&self) -> String;

    /// Where returning from the program's outermost routine lands: the debugger's `call` pushes
    /// it as the routine's return address and stops there.
    fn end_trap(&self) -> u16 {
        0x0000
    }

    fn peek(&self, addr: u16) -> u8 {
        self.memory()[addr as usize]
    }
    fn peek_word(&self, addr: u16) -> u16 {
        self.peek(addr) as u16 | (self.peek(addr.wrapping_add(1)) as u16) << 8
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.memory_mut()[addr as usize] = value;
    }

    /// The whole machine, memory included.
    fn save_all(&self) -> Saved<Self::Devices> {
        Saved {
            snapshot: self.snapshot(),
            mem: copy_memory(self.memory()),
        }
    }
    /// Puts back what [`Z80Host::save_all`] took.
    fn load_all(&mut self, saved: Saved<Self::Devices>) {
        self.restore(saved.snapshot);
        self.memory_mut().copy_from_slice(&saved.mem[..]);
    }
}
