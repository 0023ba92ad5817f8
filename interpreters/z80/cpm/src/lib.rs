//! A CP/M 2.2 machine on the retro Z80 core: .COM programs with the BDOS's console and file calls,
//! drive A: on a host directory, the command tail and default FCBs, and a console that never
//! blocks the machine.
//!
//! Memory map (64 KiB of RAM, all zero at start):
//! - 0000h: `JP FF03h` (BIOS warm boot). Reaching 0000h or the BIOS boot entries ends the run.
//! - 0005h: `JP FC00h`, the BDOS entry. The word at 0006h, FC00h, is the top of the TPA, which
//!   programs use as their stack top. Calls are trapped when PC reaches 0005h; FC00h holds
//!   `JP 0005h` for programs that jump through the word at 0006h.
//! - 005Ch and 006Ch: the default FCBs made from the first two arguments; 0080h: the command tail
//!   (also the default DMA buffer).
//! - 0100h: the program. SP starts at FBFEh with 0000h pushed, so a plain `RET` from the program
//!   also warm-boots, as under the CCP.
//! - FD00h: drive A:'s allocation vector (BDOS 27), 512 bytes for its 4,096 blocks.
//! - FF00h: the BIOS jump table, 17 `JP`s (BOOT, WBOOT, CONST, CONIN, CONOUT, ...) to one-byte
//!   routines at FF40h-FF50h, which are trapped like the BDOS; FF60h: drive A:'s disk parameter
//!   header (BIOS SELDSK), FF70h: its parameter block (BDOS 31), FF80h: the directory buffer.
//!
//! BDOS functions: console 0-12 (1 and 10 echo as CP/M does; 2 and 9 expand tabs; 10 edits the
//! line with Backspace/DEL, ^U, ^X and ^R, and ^C at its start warm-boots), disk 13-40 on the host
//! directory ([`disk`]): open, close, search first/next, delete, sequential and random read and
//! write, make, rename, set DMA, file size, set random record; the vectors, attributes and user
//! number calls answer as a single drive A:, user 0 would. Others return A = FFh.
//!
//! [`debug`]: the machine under the Z80 debugger (`retro debug prog.com`).
//!
//! Instruction counting: each [`retro_z80::Cpu::step`] is one instruction (a prefix chain and its
//! opcode count once); a trapped BDOS or BIOS call is not an instruction, the `CALL 5` that
//! reached it is.

mod bdos;
pub mod console;
pub mod debug;
pub mod directory;
pub mod disk;
pub mod fcb;
mod machine;
pub mod screen;

use std::io::{Read, Write};

pub use console::{Console, InputStream};
pub use disk::Disk;
pub use fcb::{CommandLine, FcbName};
pub use machine::{CpmMachine, Stop};

/// Load address of .COM programs.
pub const TPA_START: u16 = 0x0100;
/// Top of the TPA, stored at 0006h.
pub const TPA_TOP: u16 = 0xFC00;
/// The BIOS jump table.
pub const BIOS: u16 = 0xFF00;
/// The largest .COM file that fits between 0100h and the stack (64,000 bytes: up to FAFFh, leaving
/// 256 bytes of stack below FC00h).
pub const MAX_PROGRAM: usize = (TPA_TOP - TPA_START) as usize - 0x100;
/// The Z80's clock in virtual time: 4 MHz, as in most CP/M machines of the 1980s.
pub const CLOCK_HZ: u64 = 4_000_000;

/// Limits on a run, so tests and tools can stop programs that never end.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpmLimits {
    /// Stop with [`CpmError::InstructionLimit`] after this many instructions.
    pub max_instructions: Option<u64>,
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
    #[error("the program waits for console input at {pc:04X}h and the input has ended")]
    InputEnded { pc: u16 },
    #[error("console I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs a .COM program with console input from `input` and output to `output` until it jumps to
/// 0000h (or calls BDOS 0), with no drive and no arguments.
pub fn run<R: Read + Send + 'static, W: Write>(
    program: &[u8],
    input: R,
    output: W,
    limits: CpmLimits,
) -> Result<CpmExit, CpmError> {
    let mut machine = CpmMachine::new(program)?;
    machine.console = Console::new(InputStream::Stream(Box::new(input)));
    machine.run(output, limits)
}
