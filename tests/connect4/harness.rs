//! Connect-4's routines called through the Z80 debugger core's `call` (retro-z80-machine): the
//! program is assembled at a chosen board size and loaded on a workbench machine, and each call
//! runs one routine with chosen registers until it returns, within an instruction budget.

use std::path::{Path, PathBuf};

use retro_z80::Registers;
use retro_z80_asm::{Assembly, assemble_with};
use retro_z80_machine::debug::{CallResult, Z80Debugger};

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
    let wrapper = program_dir().join("sized-for-test.asm");
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

/// The program on a workbench machine under the debugger, and the last call's result.
pub struct Z80 {
    pub dbg: Z80Debugger,
    pub size: Size,
    last: Option<CallResult>,
}

/// What a call cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub instructions: u64,
    pub tstates: u64,
}

impl Z80 {
    pub fn new(size: Size) -> Z80 {
        let mut dbg = Z80Debugger::from_assembly(&assemble(size));
        // Calls need no reverse execution; recording it would only slow the tests down.
        dbg.record = false;
        Z80 {
            dbg,
            size,
            last: None,
        }
    }

    pub fn sym(&self, name: &str) -> u16 {
        self.dbg
            .program
            .symbols
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }

    pub fn peek(&self, addr: u16) -> u8 {
        self.dbg.machine.peek(addr)
    }

    pub fn poke(&mut self, addr: u16, v: u8) {
        self.dbg.machine.poke(addr, v);
    }

    /// Calls `label` with registers set by name (A B C D E H L BC DE HL IX IY...) and returns what
    /// it cost; the registers it returned with are then read by [`Z80::a`] and the others.
    pub fn call(&mut self, label: &str, regs: &[(&str, u16)], budget: u64) -> Result<Cost, String> {
        let r = self.dbg.call(label, regs, budget).map_err(|e| e.to_string())?;
        let cost = Cost {
            instructions: r.steps,
            tstates: r.tstates,
        };
        self.last = Some(r);
        Ok(cost)
    }

    /// Every byte the last call changed: (address, before, after).
    pub fn changed(&self) -> &[(u16, u8, u8)] {
        &self.last.as_ref().expect("a call").changed
    }

    fn regs(&self) -> &Registers {
        &self.last.as_ref().expect("a call").regs
    }
    pub fn a(&self) -> u8 {
        (self.regs().af >> 8) as u8
    }
    pub fn carry(&self) -> bool {
        self.regs().af & 1 != 0
    }
    pub fn bc(&self) -> u16 {
        self.regs().bc
    }
    pub fn de(&self) -> u16 {
        self.regs().de
    }
    pub fn hl(&self) -> u16 {
        self.regs().hl
    }
}
