//! The machine: memory image, the run loop and the traps that hand BDOS and BIOS calls to
//! [`crate::bdos`].

use std::io::Write;

use retro_z80::{Cpu, FlatBus};

use crate::console::Console;
use crate::directory::{self, Directory};
use crate::disk::Disk;
use crate::fcb::CommandLine;
use crate::{BIOS, CpmError, CpmExit, CpmLimits, MAX_PROGRAM, TPA_START, TPA_TOP};

/// The BIOS routines the jump table at [`BIOS`] leads to, one byte each (a `RET`): reaching one is
/// the trapped call.
pub(crate) const BIOS_ROUTINES: u16 = 0xFF40;
/// BIOS entries: BOOT, WBOOT, CONST, CONIN, CONOUT, LIST, PUNCH, READER, HOME, SELDSK, SETTRK,
/// SETSEC, SETDMA, READ, WRITE, LISTST, SECTRAN (CP/M 2.2 Operating System Manual, section 6.6).
pub(crate) const BIOS_ENTRIES: u16 = 17;
/// Drive A:'s disk parameter header (section 6.10: XLT, three scratch words, DIRBUF, DPB, CSV,
/// ALV), the block it points at, the directory buffer, and the allocation vector (BDOS 27), which
/// needs 512 bytes for 4,096 blocks and so sits below the BIOS.
pub(crate) const DPH: u16 = 0xFF60;
pub(crate) const DPB: u16 = 0xFF70;
pub(crate) const DIRBUF: u16 = 0xFF80;
pub(crate) const ALLOC: u16 = 0xFD00;

/// Polls closer together than this (in T-states) count as one waiting streak. BBC BASIC (Z80)'s
/// input loop polls about every 9,000 T-states; its Escape checks while running are 47,000 apart.
const POLL_NEAR: u64 = 20_000;
/// Polls in a streak before the program counts as waiting for input.
const WAITING_AFTER: u32 = 2;
/// Polls in a streak before the program counts as idle.
const IDLE_AFTER: u32 = 64;

/// Why [`CpmMachine::run_for`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The T-state budget is spent; call again to go on.
    Budget,
    /// The program warm-booted (jumped to 0000h, called BDOS 0 or BIOS WBOOT).
    Exit,
    /// A BDOS or BIOS call waits for a key; it completes when one is pushed.
    NeedInput,
    /// The program polls console status and nothing has been typed: it is idle until a key comes.
    Polling,
}

/// A CP/M machine with a program loaded.
pub struct CpmMachine {
    pub cpu: Cpu,
    pub bus: Box<FlatBus>,
    pub console: Console,
    /// Drive A:. Without one, file calls fail as on a drive with no files.
    pub disk: Option<Disk>,
    pub(crate) dma: u16,
    /// The directory as last read from drive A: (by a search, an open or BDOS 27); dropped when
    /// the program changes a file.
    pub(crate) directory: Option<Directory>,
    /// A search in progress (BDOS 17, continued by 18).
    pub(crate) search: Option<Search>,
    pub(crate) instructions: u64,
    pub(crate) bdos_calls: u64,
    /// Console status polls that found nothing, in a row, each within a short distance of the last
    /// (see [`CpmMachine::poll`]).
    pub(crate) idle_polls: u32,
    pub(crate) last_poll: u64,
}

/// A directory search: the FCB it matches against (read again on each BDOS 18, as the BDOS does),
/// how many of its bytes count (0 when the drive byte is `?`: every entry), and where to go on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Search {
    pub fcb: u16,
    pub len: usize,
    pub next: usize,
}

/// What a trapped call asked for.
pub(crate) enum Trap {
    /// Done: return to the caller.
    Return,
    /// The program ends.
    Exit,
    /// Waiting for input: leave PC at the entry point so the call is made again.
    Wait,
    /// Waiting, and the program is only polling.
    Poll,
}

impl CpmMachine {
    /// Loads a .COM image at 0100h and sets up the zero page, BDOS and BIOS.
    pub fn new(program: &[u8]) -> Result<CpmMachine, CpmError> {
        if program.len() > MAX_PROGRAM {
            return Err(CpmError::ProgramTooLarge { len: program.len() });
        }
        let mut bus = Box::new(FlatBus::new());
        let mem = &mut bus.mem;
        let start = TPA_START as usize;
        mem[start..start + program.len()].copy_from_slice(program);
        let [wb_lo, wb_hi] = (BIOS + 3).to_le_bytes();
        mem[0..3].copy_from_slice(&[0xC3, wb_lo, wb_hi]);
        let [top_lo, top_hi] = TPA_TOP.to_le_bytes();
        mem[5..8].copy_from_slice(&[0xC3, top_lo, top_hi]);
        mem[TPA_TOP as usize..TPA_TOP as usize + 3].copy_from_slice(&[0xC3, 0x05, 0x00]);
        // The BIOS jump table, real `JP`s as section 6.6 lays it out: programs such as Microsoft
        // BASIC-80 and TE take the addresses from it or copy it and call through their copies.
        for k in 0..BIOS_ENTRIES {
            let [lo, hi] = (BIOS_ROUTINES + k).to_le_bytes();
            let at = (BIOS + 3 * k) as usize;
            mem[at..at + 3].copy_from_slice(&[0xC3, lo, hi]);
            mem[(BIOS_ROUTINES + k) as usize] = 0xC9;
        }
        let dph: [u16; 8] = [0, 0, 0, 0, DIRBUF, DPB, 0, ALLOC];
        for (i, w) in dph.iter().enumerate() {
            let at = DPH as usize + 2 * i;
            mem[at..at + 2].copy_from_slice(&w.to_le_bytes());
        }
        mem[DPB as usize..DPB as usize + 15].copy_from_slice(&directory::DPB);
        let mut cpu = Cpu::new();
        cpu.set_pc(TPA_START);
        cpu.set_sp(TPA_TOP - 2); // with 0000h on the stack, as the CCP leaves it
        let mut machine = CpmMachine {
            cpu,
            bus,
            console: Console::default(),
            disk: None,
            dma: 0x0080,
            directory: None,
            search: None,
            instructions: 0,
            bdos_calls: 0,
            idle_polls: 0,
            last_poll: 0,
        };
        machine.set_command_line(&CommandLine::new(&[]));
        Ok(machine)
    }

    /// Puts the command tail at 0080h and the default FCBs at 005Ch and 006Ch.
    pub fn set_command_line(&mut self, line: &CommandLine) {
        let mem = &mut self.bus.mem;
        mem[0x5C..0x80].fill(0);
        mem[0x5C..0x6C].copy_from_slice(&line.fcb1);
        mem[0x6C..0x7C].copy_from_slice(&line.fcb2);
        mem[0x80..0x100].fill(0);
        mem[0x80..0x80 + line.tail.len()].copy_from_slice(&line.tail);
    }

    /// Instructions executed so far.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// What the run so far amounts to.
    pub fn exit(&self) -> CpmExit {
        CpmExit {
            instructions: self.instructions,
            tstates: self.cpu.tstates(),
            bdos_calls: self.bdos_calls,
        }
    }

    /// Runs for about `tstates` T-states (the last instruction may end a little past), or until
    /// the program ends, waits for input, or fails. Output collects in the console.
    pub fn run_for(&mut self, tstates: u64) -> Result<Stop, CpmError> {
        let end = self.cpu.tstates().saturating_add(tstates);
        self.run_to(end, u64::MAX)
    }

    /// The run loop: until T-state `end` or instruction count `max_instructions`.
    fn run_to(&mut self, end: u64, max_instructions: u64) -> Result<Stop, CpmError> {
        loop {
            let now = self.cpu.tstates();
            if now >= end {
                return Ok(Stop::Budget);
            }
            if self.instructions >= max_instructions {
                return Err(CpmError::InstructionLimit {
                    instructions: self.instructions,
                    pc: self.cpu.pc(),
                });
            }
            // No instruction takes more than 23 T-states, so this many cannot overshoot by more
            // than one instruction's worth; the loop comes back for the rest.
            let budget = ((end - now) / 23)
                .clamp(1, 1 << 16)
                .min(max_instructions - self.instructions);
            // The hot loop: one compare per instruction catches PC in 0000h-0005h (warm boot,
            // BDOS) or FF00h-FFFFh (BIOS).
            let n = self
                .cpu
                .run_until(&mut *self.bus, budget, |pc| pc.wrapping_add(0x100) <= 0x105);
            self.instructions += n;
            if n < budget {
                match self.trap()? {
                    Trap::Return => {}
                    Trap::Exit => return Ok(Stop::Exit),
                    Trap::Wait => return Ok(Stop::NeedInput),
                    Trap::Poll => return Ok(Stop::Polling),
                }
            } else if self.cpu.halted() {
                // Nothing in this machine raises an interrupt, so a HALT never ends.
                return Err(CpmError::Halted {
                    pc: self.cpu.pc().wrapping_sub(1),
                });
            }
        }
    }

    /// Runs to the end with the console's input stream, writing output to `output` as it comes:
    /// the way to run a console program from a library or a test. Waiting for input after the
    /// stream has ended is an error (nothing could ever arrive).
    pub fn run<W: Write>(&mut self, mut output: W, limits: CpmLimits) -> Result<CpmExit, CpmError> {
        let max = limits.max_instructions.unwrap_or(u64::MAX);
        let result = loop {
            let stop = self.run_to(self.cpu.tstates().saturating_add(1 << 22), max);
            output.write_all(&self.console.take_output())?;
            match stop {
                Ok(Stop::Budget) => {}
                Ok(Stop::Exit) => break Ok(self.exit()),
                Ok(Stop::NeedInput | Stop::Polling) => {
                    if self.console.input_exhausted() {
                        break Err(CpmError::InputEnded { pc: self.caller() });
                    }
                    // A background stream still open: sleep until it brings something.
                    self.console.wait_for_input(std::time::Duration::from_millis(20));
                }

                Err(e) => break Err(e),
            }
        };
        output.flush()?;
        result
    }

    /// The return address of the pending BDOS/BIOS call (where the program called from).
    pub fn caller(&self) -> u16 {
        let sp = self.cpu.sp();
        u16::from_le_bytes([
            self.bus.mem[sp as usize],
            self.bus.mem[sp.wrapping_add(1) as usize],
        ])
        .wrapping_sub(3)
    }

    /// Handles PC at a trapped address.
    pub(crate) fn trap(&mut self) -> Result<Trap, CpmError> {
        let pc = self.cpu.pc();
        let trap = match pc {
            0x0000 => return Ok(Trap::Exit),
            0x0005 => self.bdos()?,
            0x0001..=0x0004 => {
                // Not an entry point: execute what is there (a program may have put code here).
                self.step_one();
                return Ok(Trap::Return);
            }
            _ if (BIOS_ROUTINES..BIOS_ROUTINES + BIOS_ENTRIES).contains(&pc) => {
                self.bios(pc - BIOS_ROUTINES)?
            }
            _ => {
                // The jump table's JPs (executed, so they cost what they cost on the real
                // machine), or code a program put up here.
                self.step_one();
                return Ok(Trap::Return);
            }
        };
        if let Trap::Return | Trap::Poll = trap {
            // Return from the call, as the RET at the entry point would.
            let sp = self.cpu.sp();
            let lo = self.bus.mem[sp as usize];
            let hi = self.bus.mem[sp.wrapping_add(1) as usize];
            self.cpu.set_sp(sp.wrapping_add(2));
            self.cpu.set_pc(u16::from_le_bytes([lo, hi]));
        }
        Ok(trap)
    }

    fn step_one(&mut self) {
        self.cpu.step(&mut *self.bus);
        self.instructions += 1;
    }

    /// A console poll (status, or a read that may find nothing). Returns whether the program is
    /// waiting for input: it has polled again and again with nothing else on the console in
    /// between, each poll a short distance in T-states after the last. That is when typed-ahead
    /// stream input is handed over (see [`crate::console`]).
    pub(crate) fn poll(&mut self) -> bool {
        let now = self.cpu.tstates();
        if now.wrapping_sub(self.last_poll) < POLL_NEAR {
            self.idle_polls = self.idle_polls.saturating_add(1);
        } else {
            self.idle_polls = 0;
        }
        self.last_poll = now;
        self.idle_polls >= WAITING_AFTER
    }

    /// A poll found nothing. A program that does little else than poll is idle: after enough
    /// empty polls in a row the run loop stops, so the front end can sleep until the next frame
    /// instead of spinning a host core. A program that polls now and then while it computes (BBC
    /// BASIC checks for Escape every 20 statements or so, about 47,000 T-states apart) is not idle,
    /// because its polls are far apart.
    pub(crate) fn nothing_typed(&mut self) -> Trap {
        if self.idle_polls >= IDLE_AFTER {
            Trap::Poll
        } else {
            Trap::Return
        }
    }

    /// Any console activity other than an empty poll ends an idle streak.
    pub(crate) fn not_idle(&mut self) {
        self.idle_polls = 0;
    }

    /// Drive A:'s directory, read afresh from the host; its allocation vector goes where BDOS 27
    /// says it is.
    pub(crate) fn read_directory(&mut self) -> &Directory {
        let files = match &self.disk {
            Some(disk) => disk.list(&crate::FcbName([b'?'; 11])),
            None => Vec::new(),
        };
        let dir = Directory::build(&files);
        let at = ALLOC as usize;
        self.bus.mem[at..at + dir.alloc_vector().len()].copy_from_slice(dir.alloc_vector());
        self.directory.insert(dir)
    }

    /// The directory as last read, or read now.
    pub(crate) fn current_directory(&mut self) -> &Directory {
        if self.directory.is_none() {
            self.read_directory();
        }
        self.directory.get_or_insert_with(|| Directory::build(&[]))
    }

    /// Sets the BDOS return value: A = L = low byte, B = H = high byte.
    pub(crate) fn ret_value(&mut self, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.cpu.set_a(lo);
        self.cpu.set_l(lo);
        self.cpu.set_b(hi);
        self.cpu.set_h(hi);
    }
}
