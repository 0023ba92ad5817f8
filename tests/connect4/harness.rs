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

/// TEMPORARY, like the rest of this file: a headless game on a bare stand-in for the workbench
/// machine (docs/z80-machine.md on branch z80-debug: keyboard half-rows on IN (FEh) selected by
/// A8-A15, the debug console on OUT (0Fh), the exit port OUT (0Dh), a frame interrupt every
/// 69,888 T-states, EI / RET at 0038h for IM 1), with the keys of a key script (the shared
/// parser and timing of docs/key-scripts.md) mapped as that machine maps them. `retro run
/// --headless --keys` replaces it when that machine is merged.
pub struct Played {
    /// The debug console's text.
    pub console: String,
    /// The exit port's status, if the program wrote one.
    pub exit: Option<u8>,
    /// The 768 attribute bytes at the end.
    pub attrs: Vec<u8>,
}

struct GameBus {
    mem: Box<[u8; 0x10000]>,
    rows: [u8; 8],
    console: Vec<u8>,
    exit: Option<u8>,
}

impl retro_z80::Bus for GameBus {
    fn read(&mut self, a: u16) -> u8 {
        self.mem[a as usize]
    }
    fn write(&mut self, a: u16, v: u8) {
        self.mem[a as usize] = v;
    }
    fn input(&mut self, port: u16) -> u8 {
        if port & 1 != 0 {
            return 0xFF;
        }
        let high = (port >> 8) as u8;
        let down = (0..8)
            .filter(|r| high & (1 << r) == 0)
            .fold(0, |d, r| d | self.rows[r]);
        0xE0 | (!down & 0x1F)
    }
    fn output(&mut self, port: u16, v: u8) {
        match port as u8 {
            0x0F => self.console.push(v),
            0x0D => self.exit = Some(v),
            _ => {}
        }
    }
    fn peek(&self, a: u16) -> u8 {
        self.mem[a as usize]
    }
}

/// The Spectrum keys (half-row, bit) a terminal key holds down, as the workbench maps them.
fn spectrum_keys(key: retro_screen::Key) -> Vec<(usize, u8)> {
    use retro_screen::Key;
    const ROWS: [&str; 8] = [
        "*ZXCV", "ASDFG", "QWERT", "12345", "09876", "POIUY", "\nLKJH", " !MNB",
    ];
    let at = |c: char| {
        let c = c.to_ascii_uppercase();
        ROWS.iter()
            .enumerate()
            .find_map(|(r, row)| row.find(c).map(|b| (r, b as u8)))
    };
    let caps = (0, 0);
    match key {
        Key::Char(c) if c.is_ascii_alphanumeric() || c == ' ' => at(c).into_iter().collect(),
        Key::Return => vec![at('\n').unwrap()],
        Key::Left => vec![at('5').unwrap(), caps],
        Key::Down => vec![at('6').unwrap(), caps],
        Key::Up => vec![at('7').unwrap(), caps],
        Key::Right => vec![at('8').unwrap(), caps],
        Key::Escape => vec![at(' ').unwrap(), caps],
        _ => vec![],
    }
}

/// Plays connect4.asm (classic size) with `keys` until it writes the exit port or `seconds` of
/// virtual time have passed.
pub fn play_game(keys: &str, seconds: u64) -> Played {
    use retro_screen::{HeldKeys, HoldMode, VirtualTime};
    const FRAME_T: u64 = 69_888;
    let script = retro_screen::script::parse(keys).expect("key script");
    let asm = assemble(CLASSIC);
    let mut bus = GameBus {
        mem: Box::new([0; 0x10000]),
        rows: [0; 8],
        console: vec![],
        exit: None,
    };
    bus.mem[0x38] = 0xFB; // EI
    bus.mem[0x39] = 0xC9; // RET
    for (addr, bytes) in &asm.blocks {
        bus.mem[*addr as usize..*addr as usize + bytes.len()].copy_from_slice(bytes);
    }
    let mut cpu = Cpu::new();
    cpu.set_pc(asm.blocks[0].0);
    let mut held = HeldKeys::new(HoldMode::ReleaseEvents);
    let mut next_event = 0;
    for frame in 0..seconds * 50 {
        let now = VirtualTime::from_micros(frame * 20_000);
        while next_event < script.events.len() && script.events[next_event].at <= now {
            held.apply(script.events[next_event]);
            next_event += 1;
        }
        bus.rows = [0; 8];
        for k in held.held(now) {
            for (r, b) in spectrum_keys(k) {
                bus.rows[r] |= 1 << b;
            }
        }
        // INT is held for the frame's first 32 T-states, as the ULA does.
        let start = frame * FRAME_T;
        cpu.set_int_line(true);
        while cpu.tstates() < start + FRAME_T && bus.exit.is_none() {
            if cpu.tstates() >= start + 32 {
                cpu.set_int_line(false);
            }
            cpu.step(&mut bus);
        }
        if bus.exit.is_some() {
            break;
        }
    }
    Played {
        console: String::from_utf8_lossy(&bus.console).into_owned(),
        exit: bus.exit,
        attrs: bus.mem[0x5800..0x5B00].to_vec(),
    }
}
