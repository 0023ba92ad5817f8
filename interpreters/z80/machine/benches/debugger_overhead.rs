//! The cost of the debugger, in one run: ZEXDOC on the workbench machine (a CP/M-style BDOS stub
//! at 0005h printing through the console port) plain, with the debugger attached and breakpoints
//! and watchpoints set that are never hit, and the same with reverse history recording.
//! `cargo bench -p retro-z80-machine` (env: RETRO_ZEX_DIR to point at zexdoc.com;
//! RETRO_BENCH_GROUPS=a..b for ZEX groups a to b-1, default 13..26, the
//! `<inc,dec>` groups, 78 M steps, to keep the run short).
//!
//! The targets (issue 26): attached >= 85% of plain speed, with history >= 75%. A
//! breakpoint with a condition is one of those set, at an address that is never executed:
//! conditions are evaluated only at their own address, so they cost nothing elsewhere. Figures:
//! docs/debugger.md, "What it costs".

use std::time::Instant;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, HoldMode, VirtualTime};
use retro_z80_conformance::zex;
use retro_z80_machine::debug::{Event, Z80Debugger};
use retro_z80_machine::{FrameRate, NoProbe, Program, Stop, Workbench};

/// BDOS at FE00h: C=2 prints E, C=9 prints the $-terminated string at DE, through port 0Fh.
const BDOS: [u8; 22] = [
    0x79, 0xFE, 0x02, 0x28, 0x05, // ld a,c / cp 2 / jr z,chr
    0xFE, 0x09, 0x28, 0x05, 0xC9, // cp 9 / jr z,str / ret
    0x7B, 0xD3, 0x0F, // chr: ld a,e / out ($0F),a
    0xC9, // ret
    0x1A, 0xFE, b'$', 0xC8, // str: ld a,(de) / cp '$' / ret z
    0xD3, 0x0F, 0x13, 0x18, // out ($0F),a / inc de / jr str
];

fn program(zex: &[u8], groups: (usize, usize)) -> Program {
    let mut com = zex.to_vec();
    // Keep groups a..b of the test table at 013Ah (entries are words), then a 0000 terminator.
    let table = 0x013A - 0x0100;
    let entries: Vec<u8> = com[table + 2 * groups.0..table + 2 * groups.1].to_vec();
    com[table..table + entries.len()].copy_from_slice(&entries);
    com[table + entries.len()] = 0;
    com[table + entries.len() + 1] = 0;
    let mut bdos = BDOS.to_vec();
    bdos.push((14 - (BDOS.len() as i32 + 1)) as i8 as u8); // jr str: back to offset 14
    let mut p = Program::from_binary(com, 0x0100);
    p.blocks.insert(0, (0x0005, vec![0xC3, 0x00, 0xFE])); // JP BDOS; (0006h) = FE00h, the stack top
    p.blocks.push((0xFE00, bdos));
    p
}

fn main() {
    let Some(path) = zex::locate("zexdoc.com") else {
        println!("SKIPPED: zexdoc.com not found (set RETRO_ZEX_DIR, or run `cargo fetch`)");
        return;
    };
    let zex = zex::load(&path).expect("read zexdoc.com");
    let groups = std::env::var("RETRO_BENCH_GROUPS")
        .ok()
        .and_then(|s| {
            let (a, b) = s.split_once("..")?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((13, 26));
    let p = program(&zex, groups);

    // The steps the program takes, counted once, untimed.
    let steps = {
        let mut m = Workbench::new(FrameRate::Hz50);
        p.load_into(&mut m);
        let mut steps = 0u64;
        loop {
            let (n, stop) = m.run(&NoProbe, u64::MAX, u64::MAX, |_| false);
            steps += n;
            if let Stop::Exit(_) = stop {
                break steps;
            }
        }
    };
    // Plain: frame by frame through the Machine contract, as `retro run` drives it (the run loop
    // compiled in the machine's crate, as the debugger's is). Each configuration runs twice and
    // the faster run counts (the first pays for page faults).
    let plain_run = || -> (f64, String) {
        let mut m = Workbench::new(FrameRate::Hz50);
        p.load_into(&mut m);
        let held = HeldKeys::new(HoldMode::ReleaseEvents);
        let start = Instant::now();
        while m.run_frame(VirtualTime::ZERO, &held) == RunState::Running {}
        (
            start.elapsed().as_secs_f64(),
            String::from_utf8_lossy(&m.take_console()).into_owned(),
        )
    };
    let (p1, text) = plain_run();
    let plain = p1.min(plain_run().0);
    assert!(
        text.contains("OK") && !text.contains("ERROR"),
        "ZEXDOC output:\n{text}"
    );

    let record_info = std::cell::RefCell::new(String::new());
    let attached = |record: bool| -> f64 {
        let mut d = Z80Debugger::new(p.clone());
        d.record = record;
        d.break_at("$FFF0", Some("A == 2 && byte[HL] != 0"), false)
            .unwrap();
        d.break_at("$FF00", None, false).unwrap();
        let mut s = retro_z80_machine::debug::commands::Session::new(d);
        assert!(!s.execute("watch $F000..$F0FF").error);
        assert!(!s.execute("awatch port $FE").error);
        let start = Instant::now();
        let ev = s.dbg.cont(u64::MAX);
        let t = start.elapsed().as_secs_f64();
        assert_eq!(ev, Event::Exited(0), "no breakpoint or watchpoint is hit");
        if record {
            // How far back the history reaches at the end of a program that never waits.
            *record_info.borrow_mut() = s.dbg.record_info();
            let started = Instant::now();
            assert_eq!(s.dbg.reverse_step(10_000), Event::Done);
            let back = started.elapsed().as_secs_f64();
            record_info
                .borrow_mut()
                .push_str(&format!("reverse-step 10000: {:.2} ms\n", back * 1e3));
        }
        t
    };
    let with_debugger = attached(false).min(attached(false));
    let with_history = attached(true).min(attached(true));
    println!(
        "ZEXDOC groups {}..{}: {steps} steps\n  plain              {plain:8.3} s  {:6.1} M steps/s\n  debugger attached  {with_debugger:8.3} s  {:5.1}% of plain\n  + reverse history  {with_history:8.3} s  {:5.1}% of plain",
        groups.0,
        groups.1,
        steps as f64 / plain / 1e6,
        100.0 * plain / with_debugger,
        100.0 * plain / with_history,
    );
    print!("{}", record_info.borrow());
}
