//! The CP/M machine under the Z80 debugger: [`CpmHost`] is a [`Z80Host`], so
//! [`retro_z80_machine::debug::Z80Debugger`] debugs .COM programs with every command it has on
//! the workbench (breakpoints, watchpoints, reverse execution, `call`). [`debugger`] builds one
//! for a .COM file and its symbols.
//!
//! What the debugger sees of CP/M:
//! - A step is one instruction, as on the workbench. A BDOS or BIOS call is a step of its own:
//!   `stepi` into `CALL 5` stops at 0005h, and the next step is the whole call (the BDOS is the
//!   machine's, not code to step through). A breakpoint at 0005h stops before every BDOS call.
//! - Time passes in 50 Hz frames of the 4 MHz Z80 (80,000 T-states), as for `retro run`. A call
//!   that waits for a key idles to the end of the frame, a step per 4 T-states as HALT's NOPs,
//!   and asks again when the next frame's keys have been typed.
//! - The program ends (status 0) when it reaches 0000h, calls BDOS 0 or the BIOS boot entries.
//! - Reverse execution restores the CPU, memory, console (keys not yet read, the line being
//!   typed, the screen) and BDOS state; files the program wrote on drive A: stay written, and
//!   memory the BDOS itself reads or writes (a string printed, a record read) is not seen by
//!   watchpoints.

use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;

use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::Frame;
use retro_z80::Cpu;
use retro_z80_asm::SymbolTable;
use retro_z80_machine::Program;
use retro_z80_machine::debug::Z80Debugger;
use retro_z80_machine::host::{
    FrameClock, NoPorts, NoProbe, Probe, ProbeBus, Snapshot, Stop, Z80Host, halt_steps, steps_before,
};

use crate::console::ConsoleState;
use crate::machine::{BIOS_ENTRIES, BIOS_ROUTINES, CpmMachine, Search, Trap};
use crate::screen::{Terminal, key_bytes};
use crate::{CLOCK_HZ, CpmError, TPA_START};

/// Frames per second of virtual time, as `retro run` gives a CP/M program.
const FRAME_HZ: u32 = 50;

/// A CP/M machine the debugger drives.
pub struct CpmHost {
    pub machine: CpmMachine,
    clock: FrameClock,
    /// The console screen, shared with checkpoints until the program writes to it.
    terminal: Arc<Terminal>,
    /// A console call waits for a key: the machine idles until the next frame.
    waiting: bool,
    exited: bool,
    /// Key events up to this time have been typed.
    typed_to: VirtualTime,
    /// Console text not yet drained.
    text: String,
    replaying: bool,
}

/// Everything of a [`CpmHost`] besides the CPU, memory and clock that decides what it does next.
/// The directory as last read is not kept: it is the host directory's, read again when needed.
#[derive(Clone, Debug)]
pub struct CpmDevices {
    console: ConsoleState,
    dma: u16,
    search: Option<Search>,
    instructions: u64,
    bdos_calls: u64,
    idle_polls: u32,
    last_poll: u64,
    terminal: Arc<Terminal>,
    waiting: bool,
    exited: bool,
    typed_to: VirtualTime,
}

/// Where the run loop hands over to the machine: warm boot, the BDOS entry, the BIOS (its jump
/// table and routines), and the bytes between 0000h and 0005h.
#[inline(always)]
fn trapped(pc: u16) -> bool {
    pc.wrapping_add(0x100) <= 0x105
}

/// An entry the machine itself answers (rather than code it executes).
fn is_entry(pc: u16) -> bool {
    pc == 0x0000 || pc == 0x0005 || (BIOS_ROUTINES..BIOS_ROUTINES + BIOS_ENTRIES).contains(&pc)
}

impl CpmHost {
    pub fn new(machine: CpmMachine) -> CpmHost {
        let frame_t = CLOCK_HZ / u64::from(FRAME_HZ);
        let mut clock = FrameClock::new(frame_t);
        clock.next_frame = machine.cpu.tstates() + frame_t;
        CpmHost {
            machine,
            clock,
            terminal: Arc::new(Terminal::new()),
            waiting: false,
            exited: false,
            typed_to: VirtualTime::ZERO,
            text: String::new(),
            replaying: false,
        }
    }

    /// The console output so far onto the screen (always: the screen is state) and into the
    /// text stream (not while replaying).
    fn collect_output(&mut self) {
        let out = self.machine.console.take_output();
        if out.is_empty() {
            return;
        }
        let terminal = Arc::make_mut(&mut self.terminal);
        for &b in &out {
            terminal.write(b);
        }
        if !self.replaying {
            // CR LF ends a line; other bytes are Latin-1 characters.
            self.text
                .extend(out.iter().filter(|&&b| b != b'\r').map(|&b| b as char));
        }
    }

    fn run_loop<P: Probe>(
        &mut self,
        probe: &P,
        max: u64,
        t_end: u64,
        mut brk: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        let mut n = 0u64;
        loop {
            let t = self.machine.cpu.tstates();
            let exit = self.exited.then_some(0);
            if let Some(why) = self.clock.stop_before_step(t, exit, n, max, t_end) {
                if why == Stop::Frame {
                    // A call waiting for a key asks again: the frame's keys may have come.
                    self.waiting = false;
                }
                return (n, why);
            }
            let horizon = self.clock.next_frame.min(t_end);
            let cpu = &mut self.machine.cpu;
            if self.waiting || cpu.halted() {
                // Idle to the frame's end as HALT's NOPs would (nothing interrupts a CP/M
                // machine, so a HALT idles for good).
                let k = halt_steps(t, horizon, max - n);
                cpu.set_tstates(t + 4 * k);
                n += k;
                continue;
            }
            let pc = cpu.pc();
            let stop = Cell::new(false);
            // I/O ports read FFh and ignore writes, as on the plain machine.
            let mut bus = ProbeBus {
                mem: &mut self.machine.bus.mem,
                io: NoPorts,
                probe,
                stop: &stop,
            };
            if trapped(pc) {
                if brk(pc) {
                    return (n, Stop::Break(pc));
                }
                if !is_entry(pc) {
                    // The BIOS jump table's JPs, or code a program put there: executed.
                    cpu.step(&mut bus);
                    self.machine.instructions += 1;
                    n += 1;
                    if stop.get() {
                        return (n, Stop::Probe);
                    }
                    continue;
                }
                match self.machine.trap() {
                    Ok(Trap::Return | Trap::Poll) => n += 1,
                    Ok(Trap::Wait) => self.waiting = true,
                    Ok(Trap::Exit) | Err(CpmError::Halted { .. } | CpmError::InstructionLimit { .. }) => {
                        self.exited = true;
                        return (n, Stop::Exit(0));
                    }
                    Err(_) => {
                        self.exited = true;
                        return (n, Stop::Exit(1));
                    }
                }
                continue;
            }
            let chunk = steps_before(t, horizon, max - n);
            let mut hit = false;
            let ran = cpu.run_until(&mut bus, chunk, |pc| {
                if stop.get() || trapped(pc) {
                    return true;
                }
                hit = brk(pc);
                hit
            });
            self.machine.instructions += ran;
            n += ran;
            if stop.get() {
                return (n, Stop::Probe);
            }
            if hit {
                return (n, Stop::Break(cpu.pc()));
            }
        }
    }
}

impl Machine for CpmHost {
    fn name(&self) -> &str {
        "CP/M 2.2"
    }
    fn frame_hz(&self) -> u32 {
        FRAME_HZ
    }
    fn key(&mut self, event: KeyEvent) {
        if event.kind == KeyEventKind::Press
            && let Some(b) = key_bytes(event.key)
        {
            self.machine.console.push(b);
        }
    }
    fn run_frame(&mut self, _now: VirtualTime, _held: &HeldKeys) -> RunState {
        loop {
            match Z80Host::run(self, &NoProbe, u64::MAX, u64::MAX, |_| false).1 {
                Stop::Frame => return RunState::Running,
                Stop::Exit(_) => return RunState::Ended,
                _ => {}
            }
        }
    }
    fn frame(&self) -> Frame {
        self.terminal.frame()
    }
    fn drain_text(&mut self, out: &mut String) {
        out.push_str(&std::mem::take(&mut self.text));
    }
}

impl Z80Host for CpmHost {
    type Devices = CpmDevices;

    fn cpu(&self) -> &Cpu {
        &self.machine.cpu
    }
    fn cpu_mut(&mut self) -> &mut Cpu {
        &mut self.machine.cpu
    }
    fn memory(&self) -> &[u8; 0x10000] {
        &self.machine.bus.mem
    }
    fn memory_mut(&mut self) -> &mut [u8; 0x10000] {
        &mut self.machine.bus.mem
    }
    fn clock(&self) -> &FrameClock {
        &self.clock
    }
    fn snapshot(&self) -> Snapshot<CpmDevices> {
        let m = &self.machine;
        Snapshot {
            cpu: m.cpu.clone(),
            dev: CpmDevices {
                console: m.console.state(),
                dma: m.dma,
                search: m.search,
                instructions: m.instructions,
                bdos_calls: m.bdos_calls,
                idle_polls: m.idle_polls,
                last_poll: m.last_poll,
                terminal: self.terminal.clone(),
                waiting: self.waiting,
                exited: self.exited,
                typed_to: self.typed_to,
            },
            clock: self.clock,
        }
    }
    fn restore(&mut self, s: Snapshot<CpmDevices>) {
        let m = &mut self.machine;
        m.cpu = s.cpu;
        m.console.set_state(s.dev.console);
        m.console.take_output();
        m.dma = s.dev.dma;
        m.search = s.dev.search;
        m.directory = None;
        m.instructions = s.dev.instructions;
        m.bdos_calls = s.dev.bdos_calls;
        m.idle_polls = s.dev.idle_polls;
        m.last_poll = s.dev.last_poll;
        self.terminal = s.dev.terminal;
        self.waiting = s.dev.waiting;
        self.exited = s.dev.exited;
        self.typed_to = s.dev.typed_to;
        self.clock = s.clock;
    }
    fn run<P: Probe>(
        &mut self,
        probe: &P,
        max: u64,
        t_end: u64,
        brk: impl FnMut(u16) -> bool,
    ) -> (u64, Stop) {
        let r = self.run_loop(probe, max, t_end, brk);
        self.collect_output();
        r
    }
    fn set_replaying(&mut self, replaying: bool) {
        self.replaying = replaying;
    }
    /// Presses since the last frame are typed on the console (releases type nothing).
    fn feed_keys(&mut self, events: &[&KeyEvent], now: VirtualTime) {
        let from = self.typed_to;
        for e in events.iter().filter(|e| e.at > from && e.at <= now) {
            self.key(**e);
        }
        self.typed_to = now;
    }
    fn info(&self) -> String {
        let m = &self.machine;
        format!(
            "frame {}  DMA ${:04X}  BDOS calls {}  instructions {}  {}\n",
            self.clock.frame,
            m.dma,
            m.bdos_calls,
            m.instructions,
            if self.exited {
                "ended"
            } else if self.waiting {
                "waiting for a key"
            } else {
                "running"
            }
        )
    }
}

/// A debugger on `machine` (a .COM program loaded, its drive and command line set), with the
/// program's symbols (and source, when it was assembled here: its source map and files).
pub fn debugger(machine: CpmMachine, mut program: Program) -> Z80Debugger<CpmHost> {
    let image = machine.bus.mem[TPA_START as usize..].to_vec();
    program.blocks = vec![(TPA_START, image)];
    program.entry = TPA_START;
    Z80Debugger::with_machine(program, CpmHost::new(machine))
}

/// Reads a symbol file: ours (`retro asm --symbols`: `name: equ $XXXX`), z80asm's `-L` labels,
/// pasmo's `name EQU 0XXXXH`, or the `ADDR NAME` pairs of M80/L80 and z80asm-style `.sym` files
/// (several pairs to a line allowed, addresses in hex).
pub fn read_symbols(path: &Path, text: &str) -> Result<SymbolTable, String> {
    if let Ok(t) = SymbolTable::parse(text) {
        return Ok(t);
    }
    let mut t = SymbolTable::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words.len().is_multiple_of(2) {
            return Err(format!(
                "{}:{}: expected ADDR NAME pairs or `name: equ $ADDR`",
                path.display(),
                i + 1
            ));
        }
        for pair in words.chunks(2) {
            let addr = pair[0].trim_end_matches(['H', 'h']);
            let value = u16::from_str_radix(addr, 16)
                .map_err(|_| format!("{}:{}: `{}` is not a hex address", path.display(), i + 1, pair[0]))?;
            t.insert(pair[1].to_string(), value, retro_z80_asm::SymbolKind::Label);
        }
    }
    Ok(t)
}

/// The program's symbols, found beside the .COM file: `PROG.sym` (see [`read_symbols`]), else
/// the source `PROG.asm`, assembled here, when it assembles to the very bytes of the .COM (then
/// the debugger also has its source lines). With neither, the program has no symbols. The note
/// says why a source beside it was not used.
pub fn program_beside(com: &Path, machine: &CpmMachine) -> Result<(Program, Option<String>), String> {
    let beside = |ext: &str| {
        [ext.to_string(), ext.to_ascii_uppercase()]
            .into_iter()
            .map(|e| com.with_extension(e))
            .find(|p| p.is_file())
    };
    if let Some(sym) = beside("sym") {
        let text = std::fs::read_to_string(&sym).map_err(|e| format!("{}: {e}", sym.display()))?;
        let symbols = read_symbols(&sym, &text)?;
        return Ok((
            Program {
                symbols,
                ..Program::default()
            },
            None,
        ));
    }
    let Some(src) = beside("asm") else {
        return Ok((Program::default(), None));
    };
    let unused = |why: &str| {
        format!(
            "{}: {why}; the program is debugged without its symbols",
            src.display()
        )
    };
    let Ok(asm) = retro_z80_asm::assemble_file(&src) else {
        return Ok((Program::default(), Some(unused("it does not assemble"))));
    };
    let mem = &machine.bus.mem;
    let same = asm.blocks.iter().all(|(at, bytes)| {
        let at = *at as usize;
        at >= TPA_START as usize && mem.get(at..at + bytes.len()) == Some(&bytes[..])
    });
    if !same {
        return Ok((
            Program::default(),
            Some(unused(&format!("it does not assemble to {}", com.display()))),
        ));
    }
    Ok((Program::from_assembly(&asm), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_z80_machine::debug::Event;

    /// The debugger on `src` (assembled at 0100h) with its symbols.
    fn debugger_on(src: &str) -> Z80Debugger<CpmHost> {
        let asm = retro_z80_asm::assemble_str("t.asm", src).expect("assembles");
        let com = asm
            .blocks
            .iter()
            .flat_map(|b| b.1.iter().copied())
            .collect::<Vec<u8>>();
        debugger(CpmMachine::new(&com).unwrap(), Program::from_assembly(&asm))
    }

    fn text(d: &mut Z80Debugger<CpmHost>) -> String {
        let mut s = String::new();
        d.machine.drain_text(&mut s);
        s
    }

    const HELLO: &str = "
        org $100
        ld de,msg
        ld c,9
        call 5
printed: ld e,'!'
        ld c,2
        call 5
        ret
msg:    db 'Hi',13,10,'$'
";

    #[test]
    fn a_program_prints_and_ends_as_under_retro_run() {
        let mut d = debugger_on(HELLO);
        assert_eq!(d.cont(10_000), Event::Exited(0));
        assert_eq!(text(&mut d), "Hi\n!");
        let mut plain = Vec::new();
        let com: Vec<u8> = d.machine.memory()[0x100..0x100 + 24].to_vec();
        crate::run(&com, &b""[..], &mut plain, crate::CpmLimits::default()).unwrap();
        assert_eq!(plain, b"Hi\r\n!", "the same output as the plain machine");
        assert_eq!(
            retro_screen::dump::text(&d.machine.frame())
                .lines()
                .next()
                .map(str::trim_end),
            Some("Hi")
        );
    }

    /// A BDOS call is a step of its own: into `CALL 5` stops at 0005h, the next step is the call.
    #[test]
    fn stepping_into_the_bdos_stops_at_its_entry_and_the_call_is_one_step() {
        let mut d = debugger_on(HELLO);
        for _ in 0..3 {
            d.stepi();
        }
        assert_eq!(d.machine.cpu().pc(), 0x0005);
        assert_eq!(text(&mut d), "");
        d.stepi();
        assert_eq!(d.machine.cpu().pc(), 0x0108, "back after the CALL");
        assert_eq!(text(&mut d), "Hi\n");
        assert_eq!(d.count(), 4);
    }

    /// Reverse execution puts the console back: the screen loses what was printed after the
    /// step gone back to, and replaying does not print it again.
    #[test]
    fn reverse_steps_take_the_screen_back_and_replays_print_nothing() {
        let mut d = debugger_on(HELLO);
        d.break_at("printed", None, false).unwrap();
        assert!(matches!(d.cont(10_000), Event::Breakpoint(_)));
        assert_eq!(text(&mut d), "Hi\n");
        let row0 = |d: &Z80Debugger<CpmHost>| {
            retro_screen::dump::text(&d.machine.frame())
                .lines()
                .next()
                .unwrap_or("")
                .trim_end()
                .to_string()
        };
        assert_eq!(row0(&d), "Hi");
        assert_eq!(d.reverse_step(1), Event::Done);
        assert_eq!(d.machine.cpu().pc(), 0x0005);
        assert_eq!(row0(&d), "", "the screen as it was before the BDOS call");
        assert_eq!(text(&mut d), "", "a replay prints nothing");
        assert_eq!(d.cont(10_000), Event::Breakpoint(vec![1]));
        assert_eq!((row0(&d), text(&mut d)), ("Hi".to_string(), "Hi\n".to_string()));
    }

    /// Keys of a key script are typed at their virtual time; a read waiting for one idles frame
    /// by frame until it comes, and a replay from before it reads the same key at the same step.
    #[test]
    fn a_read_waits_for_the_key_script_and_replays_the_same() {
        let mut d = debugger_on(
            "
        org $100
        ld c,1
        call 5
        ld (key),a
        ret
key:    db 0
",
        );
        d.set_keys(retro_machine::script::parse("+200 x").unwrap());
        assert_eq!(d.cont(1_000_000), Event::Exited(0));
        assert_eq!(d.machine.peek(d.location("key").unwrap()), b'x');
        assert_eq!(text(&mut d), "x", "BDOS 1 echoes");
        let end = d.count();
        let frames = d.machine.clock().frame;
        // The keys at 200 ms are typed as frame 10 starts (after 9 frames of 20 ms).
        assert_eq!(frames, 9, "it waited for the key");
        d.goto_count(3).unwrap();
        assert_eq!(d.machine.peek(d.location("key").unwrap()), 0);
        assert_eq!(d.cont(1_000_000), Event::Exited(0));
        assert_eq!(
            (d.count(), d.machine.peek(d.location("key").unwrap())),
            (end, b'x')
        );
    }

    #[test]
    fn symbol_files_in_both_styles() {
        let ours = read_symbols(Path::new("a.sym"), "start: equ $0100 ; label\n").unwrap();
        assert_eq!(ours.get("start"), Some(0x100));
        let pairs = read_symbols(Path::new("b.sym"), "0100 START    0103 LOOP\n01A0H MSG\n").unwrap();
        assert_eq!(
            (pairs.get("START"), pairs.get("LOOP"), pairs.get("MSG")),
            (Some(0x100), Some(0x103), Some(0x1A0))
        );
        let bad = read_symbols(Path::new("c.sym"), "0100\n").unwrap_err();
        assert!(bad.starts_with("c.sym:1:"), "{bad}");
    }
}
