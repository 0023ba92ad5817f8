//! ZEXDOC under retro-z80 and under the other Rust Z80 cores, in one run:
//! `cargo bench -p retro-z80-peers` (env: RETRO_ZEX_DIR to point at zexdoc.com, RETRO_BENCH_CORES
//! = comma-separated subset of `retro,z80,rustzx-z80,z80emu,iz80`, RETRO_BENCH_PROGRAM=zexall.com to
//! run the other exerciser, RETRO_BENCH_GROUP=k to run only group k (0-66) for a quick comparison;
//! the workload is then retro-z80's own count).
//!
//! Every core gets the same kind of bus: a boxed struct holding the 64 KiB inline (so that
//! memory writes provably cannot alias the CPU state), and runs the same CP/M set-up (the memory image of `retro_z80_cpm::CpmMachine`), with
//! the BDOS trapped by the harness when PC reaches 0005h, except the `z80` crate whose registers
//! are private: there the BDOS entry jumps to an `OUT (C),D / OUT (C),E / RET` stub and the port
//! handler does the call. Each core's console output is checked against retro-z80's.
//!
//! Instructions per second: a full ZEXDOC run is 5,764,169,474 instructions when a prefix chain
//! and its opcode count as one instruction (retro-z80 counts that way and the figure is checked),
//! so every core is credited with that workload, divided by its own time; each core's own step
//! count is printed beside it (z80emu counts every prefix, rustzx-z80 chained prefixes, and the
//! stub adds 4 steps per BDOS call on `z80`). Times are the thread's CPU time when Linux reports
//! it (`/proc/thread-self/schedstat`), so that other load on a shared machine does not count;
//! wall time is printed too.
//!
//! Last measured (all five in one run, 2-core shared Xeon VM; docs/z80.md has the table):
//! retro-z80 9.30 s (620 M instructions/s), z80 20.26 s (2.18x), z80emu 29.47 s (3.17x),
//! rustzx-z80 35.22 s (3.79x), iz80 60.38 s (6.50x).

use std::time::Instant;

use retro_z80_conformance::zex;
use retro_z80_cpm::{CpmLimits, CpmMachine};

/// ZEXDOC's and ZEXALL's instruction count (prefix chain + opcode = one), excluding BDOS bodies.
const ZEX_INSTRUCTIONS: u64 = 5_764_169_474;

fn cpu_time_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

struct Timing {
    cpu: Option<f64>,
    wall: f64,
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Timing) {
    let c0 = cpu_time_ns();
    let w0 = Instant::now();
    let r = f();
    let wall = w0.elapsed().as_secs_f64();
    let cpu = match (c0, cpu_time_ns()) {
        (Some(a), Some(b)) => Some((b - a) as f64 / 1e9),
        _ => None,
    };
    (r, Timing { cpu, wall })
}

/// The BDOS calls ZEX makes: 2 (print E) and 9 (print the `$`-terminated string at DE).
fn bdos(mem: &[u8], c: u8, de: u16, out: &mut Vec<u8>) {
    match c {
        2 => out.push(de as u8),
        9 => {
            let mut a = de as usize;
            while mem[a & 0xFFFF] != b'$' {
                out.push(mem[a & 0xFFFF]);
                a += 1;
            }
        }
        _ => {}
    }
}

fn pop(mem: &[u8], sp: u16) -> u16 {
    u16::from_le_bytes([mem[sp as usize], mem[sp.wrapping_add(1) as usize]])
}

// ----- the z80 crate (kirjavascript), 2.0.0 -----
mod peer_z80 {
    use super::*;
    pub struct Io {
        pub mem: [u8; 0x10000],
        pub d: u8,
        pub outs: u8,
        pub out: Vec<u8>,
    }
    impl z80::Z80_io for Io {
        fn read_byte(&self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn write_byte(&mut self, addr: u16, value: u8) {
            self.mem[addr as usize] = value;
        }
        fn port_out(&mut self, port: u16, value: u8) {
            // The stub sends D, then E, on port BC.
            if self.outs == 0 {
                self.d = value;
                self.outs = 1;
            } else {
                self.outs = 0;
                let de = u16::from_be_bytes([self.d, value]);
                let mut out = std::mem::take(&mut self.out);
                bdos(&self.mem[..], port as u8, de, &mut out);
                self.out = out;
            }
        }
    }
    pub fn run(image: &[u8; 0x10000]) -> (Vec<u8>, u64) {
        let mut io = Box::new(Io {
            mem: *image,
            d: 0,
            outs: 0,
            out: Vec::new(),
        });
        // BDOS body at the top of the TPA, where 0005h jumps: OUT (C),D; OUT (C),E; RET.
        let bdos = retro_z80_cpm::TPA_TOP as usize;
        io.mem[bdos..bdos + 5].copy_from_slice(&[0xED, 0x51, 0xED, 0x59, 0xC9]);
        let mut cpu = z80::Z80::new();
        cpu.pc = 0x0100;
        cpu.sp = retro_z80_cpm::TPA_TOP - 2;
        let mut steps = 0u64;
        while cpu.pc != 0 {
            cpu.step(&mut *io);
            steps += 1;
        }
        (io.out, steps)
    }
}

// ----- rustzx-z80 0.16.0 -----
mod peer_rustzx {
    use rustzx_z80::{RegName8, RegName16, Z80, Z80Bus};
    pub struct Bus {
        pub mem: [u8; 0x10000],
    }
    impl Z80Bus for Bus {
        fn read_internal(&mut self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn write_internal(&mut self, addr: u16, data: u8) {
            self.mem[addr as usize] = data;
        }
        fn wait_mreq(&mut self, _addr: u16, _clk: usize) {}
        fn wait_no_mreq(&mut self, _addr: u16, _clk: usize) {}
        fn wait_internal(&mut self, _clk: usize) {}
        fn read_io(&mut self, _port: u16) -> u8 {
            0xFF
        }
        fn write_io(&mut self, _port: u16, _data: u8) {}
        fn read_interrupt(&mut self) -> u8 {
            0xFF
        }
        fn reti(&mut self) {}
        fn halt(&mut self, _halted: bool) {}
        fn int_active(&self) -> bool {
            false
        }
        fn nmi_active(&self) -> bool {
            false
        }
        fn pc_callback(&mut self, _addr: u16) {}
    }
    pub fn run(image: &[u8; 0x10000]) -> (Vec<u8>, u64) {
        let mut bus = Box::new(Bus { mem: *image });
        let mut cpu = Z80::default();
        cpu.regs.set_pc(0x0100);
        cpu.regs.set_reg_16(RegName16::SP, retro_z80_cpm::TPA_TOP - 2);
        let mut out = Vec::new();
        let mut steps = 0u64;
        loop {
            let pc = cpu.regs.get_pc();
            if pc.wrapping_add(0x100) <= 0x105 {
                if pc == 0 {
                    break;
                }
                if pc == 5 {
                    let c = cpu.regs.get_reg_8(RegName8::C);
                    super::bdos(&bus.mem[..], c, cpu.regs.get_reg_16(RegName16::DE), &mut out);
                    let sp = cpu.regs.get_reg_16(RegName16::SP);
                    cpu.regs.set_pc(super::pop(&bus.mem[..], sp));
                    cpu.regs.set_reg_16(RegName16::SP, sp.wrapping_add(2));
                    continue;
                }
            }
            cpu.emulate(&mut *bus);
            steps += 1;
        }
        (out, steps)
    }
}

// ----- z80emu 0.11.0 -----
mod peer_z80emu {
    use z80emu::{Cpu, CpuDebug, Io, Memory, Reg8, StkReg16, Z80NMOS, host::TsCounter};
    pub struct Bus {
        pub mem: [u8; 0x10000],
    }
    impl Io for Bus {
        type Timestamp = i64;
        type WrIoBreak = ();
        type RetiBreak = ();
    }
    impl Memory for Bus {
        type Timestamp = i64;
        fn read_debug(&self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn read_mem(&self, addr: u16, _ts: i64) -> u8 {
            self.mem[addr as usize]
        }
        fn read_mem16(&self, addr: u16, _ts: i64) -> u16 {
            u16::from_le_bytes([self.mem[addr as usize], self.mem[addr.wrapping_add(1) as usize]])
        }
        fn read_opcode(&mut self, pc: u16, _ir: u16, _ts: i64) -> u8 {
            self.mem[pc as usize]
        }
        fn write_mem(&mut self, addr: u16, value: u8, _ts: i64) {
            self.mem[addr as usize] = value;
        }
    }
    pub fn run(image: &[u8; 0x10000]) -> (Vec<u8>, u64) {
        let mut bus = Box::new(Bus { mem: *image });
        let mut cpu = Z80NMOS::default();
        cpu.reset();
        cpu.set_pc(0x0100);
        cpu.set_sp(retro_z80_cpm::TPA_TOP - 2);
        let mut tsc = TsCounter::<i64>::default();
        let mut out = Vec::new();
        let mut steps = 0u64;
        loop {
            let pc = cpu.get_pc();
            if pc.wrapping_add(0x100) <= 0x105 {
                if pc == 0 {
                    break;
                }
                if pc == 5 {
                    let c = cpu.get_reg(Reg8::C, None);
                    super::bdos(&bus.mem[..], c, cpu.get_reg16(StkReg16::DE), &mut out);
                    let sp = cpu.get_sp();
                    cpu.set_pc(super::pop(&bus.mem[..], sp));
                    cpu.set_sp(sp.wrapping_add(2));
                    continue;
                }
            }
            let _ = cpu.execute_next(&mut *bus, &mut tsc, None::<fn(CpuDebug)>);
            steps += 1;
        }
        (out, steps)
    }
}

// ----- iz80 0.5.1 -----
mod peer_iz80 {
    use iz80::{Cpu, Machine, Reg8, Reg16};
    pub struct M {
        pub mem: [u8; 0x10000],
    }
    impl Machine for M {
        fn peek(&mut self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn poke(&mut self, addr: u16, value: u8) {
            self.mem[addr as usize] = value;
        }
        fn port_in(&mut self, _port: u16) -> u8 {
            0xFF
        }
        fn port_out(&mut self, _port: u16, _value: u8) {}
    }
    pub fn run(image: &[u8; 0x10000]) -> (Vec<u8>, u64) {
        let mut m = Box::new(M { mem: *image });
        let mut cpu = Cpu::new_z80();
        cpu.registers().set_pc(0x0100);
        cpu.registers().set16(Reg16::SP, retro_z80_cpm::TPA_TOP - 2);
        let mut out = Vec::new();
        let mut steps = 0u64;
        loop {
            let pc = cpu.registers().pc();
            if pc.wrapping_add(0x100) <= 0x105 {
                if pc == 0 {
                    break;
                }
                if pc == 5 {
                    let regs = cpu.registers();
                    let c = regs.get8(Reg8::C);
                    let de = regs.get16(Reg16::DE);
                    super::bdos(&m.mem[..], c, de, &mut out);
                    let sp = regs.get16(Reg16::SP);
                    regs.set_pc(super::pop(&m.mem[..], sp));
                    regs.set16(Reg16::SP, sp.wrapping_add(2));
                    continue;
                }
            }
            cpu.execute_instruction(&mut *m);
            steps += 1;
        }
        (out, steps)
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters nothing here.
    let program_name = std::env::var("RETRO_BENCH_PROGRAM").unwrap_or_else(|_| "zexdoc.com".to_string());
    let Some(path) = zex::locate(&program_name) else {
        println!(
            "SKIPPED: {program_name} not found (set RETRO_ZEX_DIR, or run `cargo fetch` so the ez80 crate's copy is in cargo's registry)"
        );
        return;
    };
    let program = std::fs::read(&path).expect("readable ZEX program");
    let cores: Vec<String> = std::env::var("RETRO_BENCH_CORES")
        .unwrap_or_else(|_| "retro,z80,rustzx-z80,z80emu,iz80".to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    println!("{program_name} from {}", path.display());

    let mut image = CpmMachine::new(&program).expect("program fits").bus.mem;
    let group: Option<usize> = std::env::var("RETRO_BENCH_GROUP")
        .ok()
        .and_then(|g| g.parse().ok());
    if let Some(k) = group {
        // Cut the test table (67 words at 013Ah) down to entry k.
        let entry = [image[0x13A + 2 * k], image[0x13B + 2 * k]];
        image[0x13A..0x13E].copy_from_slice(&[entry[0], entry[1], 0, 0]);
        println!("only group {k}");
    }
    let mut workload = ZEX_INSTRUCTIONS;
    println!("credited workload: retro-z80's count (full run: {ZEX_INSTRUCTIONS} instructions)\n");
    let mut reference: Option<Vec<u8>> = None;
    let mut results: Vec<(String, f64)> = Vec::new();
    for core in &cores {
        let ((out, steps), t) = match core.as_str() {
            "retro" => {
                let r = timed(|| {
                    let mut m = CpmMachine::new(&program).expect("program fits");
                    m.bus.mem = image;
                    let mut out = Vec::new();
                    let exit = m
                        .run(&mut out, CpmLimits::default())
                        .expect("ZEX runs to the end");
                    (out, exit.instructions)
                });
                if group.is_none() {
                    assert_eq!(r.0.1, ZEX_INSTRUCTIONS, "retro-z80's instruction count");
                }
                workload = r.0.1;
                r
            }
            "z80" => timed(|| peer_z80::run(&image)),
            "rustzx-z80" => timed(|| peer_rustzx::run(&image)),
            "z80emu" => timed(|| peer_z80emu::run(&image)),
            "iz80" => timed(|| peer_iz80::run(&image)),
            other => {
                println!("unknown core `{other}`, skipped");
                continue;
            }
        };
        let ok = match &reference {
            None => {
                reference = Some(out.clone());
                let groups = zex::parse_groups(&out);
                let passed = groups.iter().filter(|g| g.passed == 1).count();
                format!("{passed}/{} groups OK", groups.len())
            }
            Some(r) if *r == out => "output identical".to_string(),
            Some(_) => "OUTPUT DIFFERS".to_string(),
        };
        let secs = t.cpu.unwrap_or(t.wall);
        let ips = workload as f64 / secs;
        println!(
            "{core:<11} {secs:7.2} s CPU ({:7.2} s wall)  {:7.1} M instructions/s  ({steps} own steps; {ok})",
            t.wall,
            ips / 1e6
        );
        results.push((core.clone(), secs));
    }
    if let Some((_, ours)) = results.iter().find(|(c, _)| c == "retro") {
        println!();
        for (core, secs) in results.iter().filter(|(c, _)| c != "retro") {
            println!("retro-z80 vs {core:<11}: {:.2}x faster", secs / ours);
        }
    }
}
