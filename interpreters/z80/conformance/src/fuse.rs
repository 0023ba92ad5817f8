//! The Fuse core tests. Harness rules follow Fuse's own `coretest.c`: RAM filled with DE AD BE EF,
//! port reads return the port's high byte, instructions run until the T-state budget is reached.
//!
//! Checked per test: every register including MEMPTR, I, R, IFF1/2, IM, the halted state, the
//! T-states used, all of memory (changed bytes must be exactly the expected ones), and the sequence
//! of memory and port reads and writes (MR/MW/PR/PW with address and data, in order). The event
//! times and the contention (MC/PC) lines are Spectrum timing details this core does not model.
//!
//! Fuse's expectations for a block instruction that repeats (flags 3, 5, H, P/V and MEMPTR) predate
//! the measurements of the real chip; the harness switches the CPU to that model with
//! [`Cpu::set_fuse_block_flags`], the only Fuse-specific behaviour.
//!
//! Fuse keeps PC on a HALT instruction, this core (like the silicon) moves it past; the harness
//! compares a halted CPU's PC minus one.

use std::path::Path;

use super::{ConformanceError, GroupResult, check, read_to_string};
use retro_z80::{Bus, Cpu, Registers};

#[derive(Clone, Debug, Default)]
struct State {
    regs: Registers,
    tstates: u64,
    mem: Vec<(u16, Vec<u8>)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Event {
    kind: String,
    addr: u16,
    data: u8,
}

#[derive(Clone, Debug)]
struct Expected {
    events: Vec<Event>,
    state: State,
}

struct FuseBus {
    mem: Box<[u8; 0x10000]>,
    events: Vec<Event>,
}

impl Bus for FuseBus {
    fn read(&mut self, addr: u16) -> u8 {
        let data = self.mem[addr as usize];
        self.events.push(Event {
            kind: "MR".into(),
            addr,
            data,
        });
        data
    }
    fn write(&mut self, addr: u16, data: u8) {
        self.mem[addr as usize] = data;
        self.events.push(Event {
            kind: "MW".into(),
            addr,
            data,
        });
    }
    fn input(&mut self, port: u16) -> u8 {
        let data = (port >> 8) as u8;
        self.events.push(Event {
            kind: "PR".into(),
            addr: port,
            data,
        });
        data
    }
    fn output(&mut self, port: u16, data: u8) {
        self.events.push(Event {
            kind: "PW".into(),
            addr: port,
            data,
        });
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

struct Lines<'a> {
    path: &'a Path,
    lines: Vec<&'a str>,
    pos: usize,
}

impl<'a> Lines<'a> {
    fn err(&self, message: impl Into<String>) -> ConformanceError {
        ConformanceError::Parse {
            path: self.path.to_path_buf(),
            line: self.pos,
            message: message.into(),
        }
    }
    fn next(&mut self) -> Option<&'a str> {
        let l = self.lines.get(self.pos).copied();
        self.pos += 1;
        l
    }
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.pos).copied()
    }
    fn skip_blank(&mut self) {
        while self.peek().is_some_and(|l| l.trim().is_empty()) {
            self.pos += 1;
        }
    }
    fn hex(&self, s: &str) -> Result<u16, ConformanceError> {
        u16::from_str_radix(s, 16).map_err(|_| self.err(format!("bad hex `{s}`")))
    }
    fn dec(&self, s: &str) -> Result<u64, ConformanceError> {
        s.parse().map_err(|_| self.err(format!("bad number `{s}`")))
    }

    /// The two register lines shared by both files.
    fn regs(&mut self) -> Result<(Registers, u64), ConformanceError> {
        let l1 = self.next().ok_or_else(|| self.err("missing register line"))?;
        let w: Vec<u16> = l1
            .split_whitespace()
            .map(|s| self.hex(s))
            .collect::<Result<_, _>>()?;
        if w.len() != 13 {
            return Err(self.err("register line needs 13 words"));
        }
        let l2 = self.next().ok_or_else(|| self.err("missing state line"))?;
        let s: Vec<&str> = l2.split_whitespace().collect();
        if s.len() != 7 {
            return Err(self.err("state line needs 7 fields"));
        }
        let regs = Registers {
            af: w[0],
            bc: w[1],
            de: w[2],
            hl: w[3],
            af_alt: w[4],
            bc_alt: w[5],
            de_alt: w[6],
            hl_alt: w[7],
            ix: w[8],
            iy: w[9],
            sp: w[10],
            pc: w[11],
            wz: w[12],
            i: self.hex(s[0])? as u8,
            r: self.hex(s[1])? as u8,
            iff1: self.dec(s[2])? != 0,
            iff2: self.dec(s[3])? != 0,
            im: self.dec(s[4])? as u8,
            halted: self.dec(s[5])? != 0,
            q: 0,
        };
        Ok((regs, self.dec(s[6])?))
    }

    /// One `addr b0 b1 ... -1` line.
    fn mem_line(&mut self, l: &str) -> Result<(u16, Vec<u8>), ConformanceError> {
        let mut it = l.split_whitespace();
        let addr = self.hex(it.next().unwrap_or_default())?;
        let mut bytes = Vec::new();
        for s in it {
            if s == "-1" {
                break;
            }
            bytes.push(self.hex(s)? as u8);
        }
        Ok((addr, bytes))
    }
}

fn parse_in(path: &Path, text: &str) -> Result<Vec<(String, State)>, ConformanceError> {
    let mut ls = Lines {
        path,
        lines: text.lines().collect(),
        pos: 0,
    };
    let mut tests = Vec::new();
    loop {
        ls.skip_blank();
        let Some(name) = ls.next() else { break };
        let (regs, tstates) = ls.regs()?;
        let mut mem = Vec::new();
        loop {
            let l = ls.next().ok_or_else(|| ls.err("unterminated test"))?;
            if l.trim() == "-1" {
                break;
            }
            mem.push(ls.mem_line(l)?);
        }
        tests.push((name.trim().to_string(), State { regs, tstates, mem }));
    }
    Ok(tests)
}

fn parse_expected(path: &Path, text: &str) -> Result<Vec<(String, Expected)>, ConformanceError> {
    let mut ls = Lines {
        path,
        lines: text.lines().collect(),
        pos: 0,
    };
    let mut tests = Vec::new();
    loop {
        ls.skip_blank();
        let Some(name) = ls.next() else { break };
        let mut events = Vec::new();
        while let Some(l) = ls.peek().filter(|l| l.starts_with(' ') || l.starts_with('\t')) {
            ls.pos += 1;
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() >= 3 && matches!(f[1], "MR" | "MW" | "PR" | "PW") {
                let data = f.get(3).map(|s| ls.hex(s)).transpose()?.unwrap_or(0) as u8;
                events.push(Event {
                    kind: f[1].to_string(),
                    addr: ls.hex(f[2])?,
                    data,
                });
            }
        }
        let (regs, tstates) = ls.regs()?;
        let mut mem = Vec::new();
        while let Some(l) = ls.peek().filter(|l| !l.trim().is_empty()) {
            ls.pos += 1;
            mem.push(ls.mem_line(l)?);
        }
        tests.push((
            name.trim().to_string(),
            Expected {
                events,
                state: State { regs, tstates, mem },
            },
        ));
    }
    Ok(tests)
}

/// The prefix group a Fuse test name belongs to.
fn group_of(name: &str) -> &'static str {
    ["ddcb", "fdcb", "cb", "dd", "ed", "fd"]
        .into_iter()
        .find(|p| name.starts_with(p))
        .unwrap_or("base")
}

/// Runs one test; returns the differences (empty when it passed).
fn run_one(input: &State, want: &Expected) -> Vec<String> {
    let mut bus = FuseBus {
        mem: Box::new([0; 0x10000]),
        events: Vec::new(),
    };
    for (i, b) in bus.mem.iter_mut().enumerate() {
        *b = [0xDE, 0xAD, 0xBE, 0xEF][i % 4];
    }
    for (addr, bytes) in &input.mem {
        for (i, &b) in bytes.iter().enumerate() {
            bus.mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }
    let initial_mem = bus.mem.clone();
    let mut cpu = Cpu::new();
    cpu.set_fuse_block_flags(true);
    let mut regs = input.regs;
    if regs.halted {
        // Fuse's PC sits on the HALT; ours after it.
        regs.pc = regs.pc.wrapping_add(1);
    }
    cpu.set_registers(&regs);
    cpu.set_tstates(0);
    while cpu.tstates() < input.tstates {
        cpu.step(&mut bus);
    }

    let mut d = Vec::new();
    let mut got = cpu.registers();
    if got.halted {
        got.pc = got.pc.wrapping_sub(1);
    }
    let w = &want.state.regs;
    check(&mut d, "AF", got.af, w.af);
    check(&mut d, "BC", got.bc, w.bc);
    check(&mut d, "DE", got.de, w.de);
    check(&mut d, "HL", got.hl, w.hl);
    check(&mut d, "AF'", got.af_alt, w.af_alt);
    check(&mut d, "BC'", got.bc_alt, w.bc_alt);
    check(&mut d, "DE'", got.de_alt, w.de_alt);
    check(&mut d, "HL'", got.hl_alt, w.hl_alt);
    check(&mut d, "IX", got.ix, w.ix);
    check(&mut d, "IY", got.iy, w.iy);
    check(&mut d, "SP", got.sp, w.sp);
    check(&mut d, "PC", got.pc, w.pc);
    check(&mut d, "MEMPTR", got.wz, w.wz);
    check(&mut d, "I", got.i, w.i);
    check(&mut d, "R", got.r, w.r);
    check(&mut d, "IFF1", got.iff1 as u8, w.iff1 as u8);
    check(&mut d, "IFF2", got.iff2 as u8, w.iff2 as u8);
    check(&mut d, "IM", got.im, w.im);
    check(&mut d, "halted", got.halted as u8, w.halted as u8);
    check(&mut d, "T-states", cpu.tstates(), want.state.tstates);

    // Memory: the expected blocks hold, and nothing else changed.
    let mut expected_mem = initial_mem;
    for (addr, bytes) in &want.state.mem {
        for (i, &b) in bytes.iter().enumerate() {
            expected_mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }
    if let Some(a) = (0..0x10000).find(|&a| bus.mem[a] != expected_mem[a]) {
        d.push(format!(
            "memory at {a:04X}: got {:02X}, want {:02X}",
            bus.mem[a], expected_mem[a]
        ));
    }

    if bus.events != want.events {
        let i = bus
            .events
            .iter()
            .zip(&want.events)
            .take_while(|(a, b)| a == b)
            .count();
        let show = |e: Option<&Event>| {
            e.map_or("nothing".to_string(), |e| {
                format!("{} {:04X} {:02X}", e.kind, e.addr, e.data)
            })
        };
        d.push(format!(
            "bus event {i}: got {}, want {}",
            show(bus.events.get(i)),
            show(want.events.get(i))
        ));
    }
    d
}

/// Runs every test of `tests.in` in `dir` against `tests.expected`, grouped by prefix (base, cb,
/// dd, ddcb, ed, fd, fdcb).
pub fn run(dir: &Path) -> Result<Vec<GroupResult>, ConformanceError> {
    let in_path = dir.join("tests.in");
    let exp_path = dir.join("tests.expected");
    let inputs = parse_in(&in_path, &read_to_string(&in_path)?)?;
    let expected = parse_expected(&exp_path, &read_to_string(&exp_path)?)?;
    let expected: std::collections::HashMap<_, _> = expected.into_iter().collect();
    let mut groups: Vec<GroupResult> = Vec::new();
    for (name, input) in &inputs {
        let g = group_of(name);
        let idx = match groups.iter().position(|r| r.name == g) {
            Some(i) => i,
            None => {
                groups.push(GroupResult::new(g));
                groups.len() - 1
            }
        };
        let diffs = match expected.get(name) {
            Some(want) => run_one(input, want),
            None => vec!["no expected result".to_string()],
        };
        groups[idx].record(name, diffs);
    }
    Ok(groups)
}
