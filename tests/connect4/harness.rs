//! TEMPORARY: calls Connect-4's routines on a bare CPU until the workbench machine's debugger core
//! (`call LABEL REG=VALUE`, branch z80-debug) lands; then these tests move onto it and this file goes.
//!
//! A call loads the assembled program into 64 KiB of flat RAM, sets the registers it is given,
//! pushes a return address (0000h, where nothing else runs) and runs the CPU until PC comes back
//! there with the stack balanced, or the instruction budget runs out (an error naming where the
//! routine was).

use std::path::{Path, PathBuf};

use retro_z80::{Cpu, FlatBus, Registers};
use retro_z80_asm::{Assembly, assemble_with};

/// Board width, height and line length the program is assembled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub w: usize,
    pub h: usize,
    pub n: usize,
}

pub const CLASSIC: Size = Size { w: 7, h: 6, n: 4 };

pub fn program_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/connect4")
}

/// Assembles programs/connect4/connect4.asm with XSIZE, YSIZE and WINSIZE defined first (the file
/// only defines the ones that are not), through a wrapper that exists only in memory.
pub fn assemble(size: Size) -> Assembly {
    let dir = program_dir();
    let wrapper = dir.join("sized-for-test.asm");
    let text = format!(
        "XSIZE EQU {}\nYSIZE EQU {}\nWINSIZE EQU {}\n INCLUDE \"connect4.asm\"\n",
        size.w, size.h, size.n
    );
    let load = |p: &Path| {
        if p == wrapper {
            Ok(text.clone().into_bytes())
        } else {
            std::fs::read(p)
        }
    };
    match assemble_with(&wrapper, &load) {
        Ok(a) => a,
        Err(f) => panic!("connect4.asm does not assemble at {size:?}:\n{}", f.render(false)),
    }
}

/// Where a call returns to: nothing is assembled there.
const RETURN: u16 = 0x0000;
/// The stack the harness gives a routine.
const STACK: u16 = 0xFF00;

pub struct Z80 {
    pub cpu: Cpu,
    pub bus: Box<FlatBus>,
    pub asm: Assembly,
    pub size: Size,
}

/// What a call cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub instructions: u64,
    pub tstates: u64,
}

impl Z80 {
    pub fn new(size: Size) -> Z80 {
        let asm = assemble(size);
        let mut bus = Box::new(FlatBus::new());
        for (addr, bytes) in &asm.blocks {
            bus.load(*addr, bytes);
        }
        Z80 {
            cpu: Cpu::new(),
            bus,
            asm,
            size,
        }
    }

    pub fn sym(&self, name: &str) -> u16 {
        self.asm
            .symbols
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }

    pub fn peek(&self, addr: u16) -> u8 {
        self.bus.mem[addr as usize]
    }

    pub fn poke(&mut self, addr: u16, v: u8) {
        self.bus.mem[addr as usize] = v;
    }

    /// Calls `label` with registers set by name (A B C D E H L BC DE HL IX IY; 8-bit values for
    /// the single registers) and returns what it cost; the registers are then in `self.cpu`.
    pub fn call(&mut self, label: &str, regs: &[(&str, u16)], budget: u64) -> Result<Cost, String> {
        let entry = self.sym(label);
        let mut r: Registers = self.cpu.registers();
        for &(name, v) in regs {
            let lo = |w: u16| (w & 0xFF00) | (v & 0xFF);
            let hi = |w: u16| (w & 0x00FF) | ((v & 0xFF) << 8);
            match name {
                "A" => r.af = hi(r.af),
                "B" => r.bc = hi(r.bc),
                "C" => r.bc = lo(r.bc),
                "D" => r.de = hi(r.de),
                "E" => r.de = lo(r.de),
                "H" => r.hl = hi(r.hl),
                "L" => r.hl = lo(r.hl),
                "BC" => r.bc = v,
                "DE" => r.de = v,
                "HL" => r.hl = v,
                "IX" => r.ix = v,
                "IY" => r.iy = v,
                _ => panic!("unknown register {name}"),
            }
        }
        r.sp = STACK - 2;
        r.pc = entry;
        r.halted = false;
        self.bus.mem[(STACK - 2) as usize] = RETURN as u8;
        self.bus.mem[(STACK - 1) as usize] = (RETURN >> 8) as u8;
        self.cpu.set_registers(&r);
        let t0 = self.cpu.tstates();
        let n = self.cpu.run_until(&mut *self.bus, budget, |pc| pc == RETURN);
        if self.cpu.pc() != RETURN || self.cpu.sp() != STACK {
            let pc = self.cpu.pc();
            let at = self
                .asm
                .symbols
                .name_of(pc)
                .map(str::to_owned)
                .unwrap_or_default();
            return Err(format!(
                "{label} did not return within {budget} instructions: PC={pc:04X} {at} SP={:04X}",
                self.cpu.sp()
            ));
        }
        Ok(Cost {
            instructions: n,
            tstates: self.cpu.tstates() - t0,
        })
    }

    pub fn a(&self) -> u8 {
        (self.cpu.registers().af >> 8) as u8
    }
    pub fn carry(&self) -> bool {
        self.cpu.registers().af & 1 != 0
    }
    pub fn bc(&self) -> u16 {
        self.cpu.registers().bc
    }
    pub fn de(&self) -> u16 {
        self.cpu.registers().de
    }
    pub fn hl(&self) -> u16 {
        self.cpu.registers().hl
    }
}
