//! A CP/M 2.2 machine, enough for console programs and the ZEXDOC/ZEXALL exercisers.
//!
//! Memory map (64 KiB of RAM, all zero at start):
//! - 0000h: `JP FF03h` (BIOS warm boot). Reaching 0000h or the BIOS boot entries ends the run.
//! - 0005h: `JP FE00h`, the BDOS entry. The word at 0006h, FE00h, is the top of the TPA, which
//!   programs use as their stack top. Calls are trapped when PC reaches 0005h; FE00h holds
//!   `JP 0005h` for programs that jump through the word at 0006h.
//! - 005Ch: a blank default FCB; 0080h: an empty command tail.
//! - 0100h: the program. SP starts at FDFEh with 0000h pushed, so a plain `RET` from the program
//!   also warm-boots, as under the CCP.
//! - FF00h: a BIOS jump table (BOOT, WBOOT, CONST, CONIN, CONOUT, ...), trapped like the BDOS.
//!
//! Console BDOS functions: 0 (reset), 1 (input with echo), 2 (output), 6 (direct I/O), 9 (print
//! `$`-terminated string), 10 (read line), 11 (status), 12 (version: 2.2), plus the disk-selection
//! calls 13, 14, 25 and 32 answering "drive A, user 0". Other functions (files) return A = FFh.
//! Input newlines (LF) reach the program as CR, as a CP/M keyboard sends them.
//!
//! Instruction counting: each [`Cpu::step`] is one instruction (a prefix chain and its opcode count
//! once); a trapped BDOS or BIOS call is not an instruction, the `CALL 5` that reached it is.

use std::io::{BufRead, BufReader, Read, Write};

use crate::{Cpu, FlatBus};

/// Load address of .COM programs.
pub const TPA_START: u16 = 0x0100;
/// Top of the TPA, stored at 0006h.
pub const TPA_TOP: u16 = 0xFE00;
/// The BIOS jump table.
pub const BIOS: u16 = 0xFF00;
/// The largest .COM file that fits between 0100h and the stack.
pub const MAX_PROGRAM: usize = (TPA_TOP - TPA_START) as usize - 0x100;

/// Limits on a run, so tests and tools can stop programs that never end.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpmLimits {
    /// Stop with [`CpmError::InstructionLimit`] after this many instructions.
    pub max_instructions: Option<u64>,
}

/// Console options.
#[derive(Clone, Copy, Debug)]
pub struct CpmOptions {
    /// Echo characters read by BDOS 1 and 10 to the output, as CP/M does on a real terminal. Turn
    /// it off when the host terminal already echoes what the user types.
    pub echo_input: bool,
}

impl Default for CpmOptions {
    fn default() -> Self {
        CpmOptions { echo_input: true }
    }
}

/// How a CP/M program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpmExit {
    /// Instructions executed (see the module docs for what counts).
    pub instructions: u64,
    /// T-states executed.
    pub tstates: u64,
    /// BDOS calls made.
    pub bdos_calls: u64,
}

/// Why a CP/M run failed.
#[derive(Debug, thiserror::Error)]
pub enum CpmError {
    #[error("program is {len} bytes; at most {MAX_PROGRAM} fit in the TPA")]
    ProgramTooLarge { len: usize },
    #[error("the CPU halted at {pc:04X}h with no interrupt to wake it")]
    Halted { pc: u16 },
    #[error("stopped after {instructions} instructions (limit reached), PC={pc:04X}h")]
    InstructionLimit { instructions: u64, pc: u16 },
    #[error("console I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// A CP/M machine with a program loaded, ready to run. Use [`run`] for the common case; this type
/// lets a caller patch memory first (the ZEX group runner does) or inspect the CPU afterwards.
pub struct CpmMachine {
    pub cpu: Cpu,
    pub bus: Box<FlatBus>,
    pub options: CpmOptions,
    instructions: u64,
    bdos_calls: u64,
}

/// What a trapped call asked for.
enum Trap {
    Continue,
    Exit,
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
        // Default FCB: drive 0, blank name and type.
        mem[0x5C] = 0;
        mem[0x5D..0x68].fill(b' ');
        mem[0x80] = 0;
        // The BIOS jump table; every entry is trapped, the RETs are only what a disassembler sees.
        for k in 0..17 {
            mem[BIOS as usize + 3 * k] = 0xC9;
        }
        let mut cpu = Cpu::new();
        cpu.set_pc(TPA_START);
        cpu.set_sp(TPA_TOP - 2); // with 0000h on the stack, as the CCP leaves it
        Ok(CpmMachine {
            cpu,
            bus,
            options: CpmOptions::default(),
            instructions: 0,
            bdos_calls: 0,
        })
    }

    /// Instructions executed so far.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Runs until the program warm-boots, fails, or reaches a limit.
    pub fn run<R: Read, W: Write>(
        &mut self,
        input: R,
        mut output: W,
        limits: CpmLimits,
    ) -> Result<CpmExit, CpmError> {
        let mut input = BufReader::new(input);
        let result = self.run_inner(&mut input, &mut output, limits);
        output.flush()?;
        result
    }

    fn run_inner<R: BufRead, W: Write>(
        &mut self,
        input: &mut R,
        output: &mut W,
        limits: CpmLimits,
    ) -> Result<CpmExit, CpmError> {
        const CHUNK: u64 = 1 << 16;
        let max = limits.max_instructions.unwrap_or(u64::MAX);
        loop {
            // The hot loop: one compare per instruction catches PC in 0000h-0005h (warm boot,
            // BDOS) or FF00h-FFFFh (BIOS).
            let budget = CHUNK.min(max - self.instructions);
            let n = self
                .cpu
                .run_until(&mut *self.bus, budget, |pc| pc.wrapping_add(0x100) <= 0x105);
            // Fewer than `budget` only when it stopped at a trap.
            let trapped = n < budget;
            self.instructions += n;
            if trapped {
                if let Trap::Exit = self.trap(input, output)? {
                    return Ok(CpmExit {
                        instructions: self.instructions,
                        tstates: self.cpu.tstates(),
                        bdos_calls: self.bdos_calls,
                    });
                }
                continue;
            }
            if self.cpu.halted() {
                // Nothing in this machine raises an interrupt, so a HALT never ends.
                return Err(CpmError::Halted {
                    pc: self.cpu.pc().wrapping_sub(1),
                });
            }
            if self.instructions >= max {
                return Err(CpmError::InstructionLimit {
                    instructions: self.instructions,
                    pc: self.cpu.pc(),
                });
            }
        }
    }

    /// Handles PC at a trapped address.
    fn trap<R: BufRead, W: Write>(&mut self, input: &mut R, output: &mut W) -> Result<Trap, CpmError> {
        let pc = self.cpu.pc();
        let ret = match pc {
            0x0000 => return Ok(Trap::Exit),
            0x0005 => {
                self.bdos_calls += 1;
                self.bdos(input, output)?
            }
            0x0001..=0x0004 => {
                // Not an entry point: execute what is there (a program may have put code here).
                self.cpu.step(&mut *self.bus);
                self.instructions += 1;
                return Ok(Trap::Continue);
            }
            _ => {
                let off = pc - BIOS;
                if !off.is_multiple_of(3) || off / 3 > 16 {
                    self.cpu.step(&mut *self.bus);
                    self.instructions += 1;
                    return Ok(Trap::Continue);
                }
                self.bios(off / 3, input, output)?
            }
        };
        match ret {
            None => Ok(Trap::Exit),
            Some(()) => {
                // Return from the call, as the RET at the entry point would.
                let sp = self.cpu.sp();
                let lo = self.bus.mem[sp as usize];
                let hi = self.bus.mem[sp.wrapping_add(1) as usize];
                self.cpu.set_sp(sp.wrapping_add(2));
                self.cpu.set_pc(u16::from_le_bytes([lo, hi]));
                Ok(Trap::Continue)
            }
        }
    }

    /// Sets the BDOS return value: A = L = low byte, B = H = high byte.
    fn ret_value(&mut self, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.cpu.set_a(lo);
        self.cpu.set_l(lo);
        self.cpu.set_b(hi);
        self.cpu.set_h(hi);
    }

    fn read_char<R: BufRead, W: Write>(
        &mut self,
        input: &mut R,
        output: &mut W,
    ) -> Result<Option<u8>, CpmError> {
        output.flush()?;
        let mut byte = [0u8];
        match input.read(&mut byte)? {
            0 => Ok(None),
            _ => Ok(Some(if byte[0] == b'\n' { b'\r' } else { byte[0] })),
        }
    }

    fn input_ready<R: BufRead>(input: &mut R) -> Result<bool, CpmError> {
        Ok(!input.fill_buf()?.is_empty())
    }

    /// One BDOS call. `None` means the program asked to end.
    fn bdos<R: BufRead, W: Write>(&mut self, input: &mut R, output: &mut W) -> Result<Option<()>, CpmError> {
        let de = self.cpu.de();
        let e = self.cpu.e();
        match self.cpu.c() {
            0 => return Ok(None),
            1 => {
                // End of input reads as ^Z, CP/M's end-of-file character.
                let ch = self.read_char(input, output)?.unwrap_or(0x1A);
                if self.options.echo_input && ch != 0x1A {
                    output.write_all(if ch == b'\r' {
                        b"\r\n"
                    } else {
                        std::slice::from_ref(&ch)
                    })?;
                }
                self.ret_value(ch as u16);
            }
            2 => {
                output.write_all(&[e])?;
                self.ret_value(0);
            }
            6 => match e {
                0xFF => {
                    let ch = if Self::input_ready(input)? {
                        self.read_char(input, output)?.unwrap_or(0)
                    } else {
                        0
                    };
                    self.ret_value(ch as u16);
                }
                0xFE => {
                    let ready = Self::input_ready(input)?;
                    self.ret_value(if ready { 0xFF } else { 0 });
                }
                _ => {
                    output.write_all(&[e])?;
                    self.ret_value(0);
                }
            },
            9 => {
                // Print up to the '$', wrapping at the top of memory; give up after 64 KiB.
                let mut addr = de;
                for _ in 0..0x10000 {
                    let ch = self.bus.mem[addr as usize];
                    if ch == b'$' {
                        break;
                    }
                    output.write_all(&[ch])?;
                    addr = addr.wrapping_add(1);
                }
                self.ret_value(0);
            }
            10 => {
                let max = self.bus.mem[de as usize] as usize;
                let mut line = Vec::new();
                while line.len() < max {
                    match self.read_char(input, output)? {
                        None | Some(b'\r') => break,
                        Some(ch) => line.push(ch),
                    }
                }
                if self.options.echo_input {
                    output.write_all(&line)?;
                    output.write_all(b"\r\n")?;
                }
                self.bus.mem[de.wrapping_add(1) as usize] = line.len() as u8;
                for (i, &ch) in line.iter().enumerate() {
                    self.bus.mem[de.wrapping_add(2 + i as u16) as usize] = ch;
                }
                self.ret_value(0);
            }
            11 => {
                let ready = Self::input_ready(input)?;
                self.ret_value(if ready { 0xFF } else { 0 });
            }
            12 => self.ret_value(0x0022),
            13 | 14 | 25 | 32 => self.ret_value(0),
            _ => self.ret_value(0x00FF),
        }
        Ok(Some(()))
    }

    /// A BIOS entry (0 BOOT, 1 WBOOT, 2 CONST, 3 CONIN, 4 CONOUT; the rest do nothing).
    fn bios<R: BufRead, W: Write>(
        &mut self,
        entry: u16,
        input: &mut R,
        output: &mut W,
    ) -> Result<Option<()>, CpmError> {
        match entry {
            0 | 1 => return Ok(None),
            2 => {
                let ready = Self::input_ready(input)?;
                self.cpu.set_a(if ready { 0xFF } else { 0 });
            }
            3 => {
                let ch = self.read_char(input, output)?.unwrap_or(0x1A);
                self.cpu.set_a(ch);
            }
            4 => output.write_all(&[self.cpu.c()])?,
            _ => self.cpu.set_a(0),
        }
        Ok(Some(()))
    }
}

/// Runs a .COM program with console input from `input` and output to `output` until it jumps to
/// 0000h (or calls BDOS 0), with default options.
pub fn run<R: Read, W: Write>(
    program: &[u8],
    input: R,
    output: W,
    limits: CpmLimits,
) -> Result<CpmExit, CpmError> {
    CpmMachine::new(program)?.run(input, output, limits)
}
