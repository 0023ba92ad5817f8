//! SingleStepTests z80 (one instruction per test), read from the gzip'd JSON-lines files of
//! `shared/conformance/z80/singlestep` (`base.jsonl.gz`, `cb.jsonl.gz`, ...).
//!
//! Checked per test: every register, MEMPTR (`wz`), the Q latch (`q`), the LD A,I/R marker (`p`),
//! the EI delay (`ei`), IFF1/2, IM, the final RAM entries, the T-state count (the length of
//! `cycles`), and the port writes. Port reads return the values the test lists.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::Deserialize;

use super::{ConformanceError, GroupResult, check};
use retro_z80::{Bus, Cpu};

/// The prefix groups, in the order they are run.
pub const GROUPS: [&str; 7] = ["base", "cb", "dd", "ddcb", "ed", "fd", "fdcb"];

#[derive(Deserialize)]
struct Test {
    name: String,
    initial: State,
    #[serde(rename = "final")]
    fin: State,
    cycles: Vec<serde_json::Value>,
    #[serde(default)]
    ports: Vec<(u16, u8, String)>,
}

#[derive(Deserialize)]
struct State {
    pc: u16,
    sp: u16,
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    h: u8,
    l: u8,
    i: u8,
    r: u8,
    ei: u8,
    wz: u16,
    ix: u16,
    iy: u16,
    af_: u16,
    bc_: u16,
    de_: u16,
    hl_: u16,
    im: u8,
    p: u8,
    q: u8,
    iff1: u8,
    iff2: u8,
    ram: Vec<(u16, u8)>,
}

struct TestBus {
    mem: Box<[u8; 0x10000]>,
    reads: Vec<u8>,
    writes: Vec<(u16, u8)>,
}

impl Bus for TestBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
    fn input(&mut self, _port: u16) -> u8 {
        if self.reads.is_empty() {
            0xFF
        } else {
            self.reads.remove(0)
        }
    }
    fn output(&mut self, port: u16, value: u8) {
        self.writes.push((port, value));
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

fn run_one(t: &Test) -> Vec<String> {
    let s = &t.initial;
    let mut bus = TestBus {
        mem: Box::new([0; 0x10000]),
        reads: t.ports.iter().filter(|p| p.2 == "r").map(|p| p.1).collect(),
        writes: Vec::new(),
    };
    for &(addr, v) in &s.ram {
        bus.mem[addr as usize] = v;
    }
    let mut cpu = Cpu::new();
    cpu.set_pc(s.pc);
    cpu.set_sp(s.sp);
    cpu.set_af(u16::from_be_bytes([s.a, s.f]));
    cpu.set_bc(u16::from_be_bytes([s.b, s.c]));
    cpu.set_de(u16::from_be_bytes([s.d, s.e]));
    cpu.set_hl(u16::from_be_bytes([s.h, s.l]));
    cpu.set_i(s.i);
    cpu.set_r(s.r);
    cpu.set_wz(s.wz);
    cpu.set_ix(s.ix);
    cpu.set_iy(s.iy);
    cpu.set_alt([s.af_, s.bc_, s.de_, s.hl_]);
    cpu.set_im(s.im);
    cpu.set_p(s.p != 0);
    cpu.set_q(s.q);
    cpu.set_ei_last(s.ei != 0);
    cpu.set_iff(s.iff1 != 0, s.iff2 != 0);
    cpu.set_tstates(0);
    cpu.step(&mut bus);

    let f = &t.fin;
    let mut d = Vec::new();
    check(&mut d, "PC", cpu.pc(), f.pc);
    check(&mut d, "SP", cpu.sp(), f.sp);
    check(&mut d, "AF", cpu.af(), u16::from_be_bytes([f.a, f.f]));
    check(&mut d, "BC", cpu.bc(), u16::from_be_bytes([f.b, f.c]));
    check(&mut d, "DE", cpu.de(), u16::from_be_bytes([f.d, f.e]));
    check(&mut d, "HL", cpu.hl(), u16::from_be_bytes([f.h, f.l]));
    check(&mut d, "IX", cpu.ix(), f.ix);
    check(&mut d, "IY", cpu.iy(), f.iy);
    let alt = cpu.alt();
    check(&mut d, "AF'", alt[0], f.af_);
    check(&mut d, "BC'", alt[1], f.bc_);
    check(&mut d, "DE'", alt[2], f.de_);
    check(&mut d, "HL'", alt[3], f.hl_);
    check(&mut d, "I", cpu.i(), f.i);
    check(&mut d, "R", cpu.r(), f.r);
    check(&mut d, "WZ", cpu.wz(), f.wz);
    check(&mut d, "IM", cpu.im(), f.im);
    check(&mut d, "Q", cpu.q(), f.q);
    check(&mut d, "P", cpu.p() as u8, f.p);
    check(&mut d, "EI", cpu.ei_last() as u8, f.ei);
    check(&mut d, "IFF1", cpu.iff().0 as u8, f.iff1);
    check(&mut d, "IFF2", cpu.iff().1 as u8, f.iff2);
    check(&mut d, "T-states", cpu.tstates(), t.cycles.len() as u64);
    for &(addr, v) in &f.ram {
        check(&mut d, &format!("mem[{addr:04X}]"), bus.mem[addr as usize], v);
    }
    let want_writes: Vec<(u16, u8)> = t
        .ports
        .iter()
        .filter(|p| p.2 == "w")
        .map(|p| (p.0, p.1))
        .collect();
    if bus.writes != want_writes {
        d.push(format!(
            "port writes: got {:X?}, want {:X?}",
            bus.writes, want_writes
        ));
    }
    d
}

/// Runs one group file (`<dir>/<group>.jsonl.gz`).
pub fn run_group(dir: &Path, group: &str) -> Result<GroupResult, ConformanceError> {
    let path = dir.join(format!("{group}.jsonl.gz"));
    let file = std::fs::File::open(&path).map_err(|source| ConformanceError::Io {
        path: path.clone(),
        source,
    })?;
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let mut result = GroupResult::new(group);
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|source| ConformanceError::Io {
            path: path.clone(),
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let test: Test = serde_json::from_str(&line).map_err(|e| ConformanceError::Parse {
            path: path.clone(),
            line: n + 1,
            message: e.to_string(),
        })?;
        let diffs = run_one(&test);
        result.record(&test.name, diffs);
    }
    Ok(result)
}

/// Runs every group found in `dir`.
pub fn run(dir: &Path) -> Result<Vec<GroupResult>, ConformanceError> {
    GROUPS.iter().map(|g| run_group(dir, g)).collect()
}
