//! The interpreter: BASIC V2 running its token bytes from an emulated 64 KiB memory laid out as
//! the ROM lays it out (program at $0801, then simple variables, arrays, free space and strings
//! growing down from $A000), with the ROM's zero-page pointers kept where PEEK and POKE find them.
//!
//! Everything the program prints goes through one path, `Interp::chrout`, as PETSCII bytes to
//! the current output channel; the screen side (a text stream now, the C64 screen later) lives
//! behind [`Console`].

pub mod debug;
mod direct;
mod error;
mod expr;
mod files;
mod stmt;
mod strings;
mod textcache;
mod vars;

pub use direct::Typed;
pub use error::{BasicError, Stop};
pub use files::HostDir;

use crate::float::{Fac, POWER_ON_SEED, Packed};
use crate::program::{BASIC_START, Program};
use error::Result;

/// Zero-page pointers, at the ROM's addresses.
pub mod zp {
    /// CHARAC, a scratch byte: INT leaves its integer's low byte here, the text scanners their
    /// delimiters, and `^` of a negative number takes its result's sign from it.
    pub const CHARAC: usize = 0x07;
    pub const TXTTAB: usize = 0x2B;
    pub const VARTAB: usize = 0x2D;
    pub const ARYTAB: usize = 0x2F;
    pub const STREND: usize = 0x31;
    pub const FRETOP: usize = 0x33;
    pub const FRESPC: usize = 0x35;
    pub const MEMSIZ: usize = 0x37;
    pub const CURLIN: usize = 0x39;
    pub const OLDLIN: usize = 0x3B;
    pub const OLDTXT: usize = 0x3D;
    pub const DATLIN: usize = 0x3F;
    pub const DATPTR: usize = 0x41;
    pub const TXTPTR: usize = 0x7A;
    pub const STATUS: usize = 0x90;
    /// The jiffy clock TIME, 3 bytes, most significant first.
    pub const TIME: usize = 0xA0;
    /// The number of keys in the keyboard buffer (NDX).
    pub const NDX: usize = 0xC6;
    /// The cursor column (PNTR).
    pub const PNTR: usize = 0xD3;
    /// The keyboard buffer.
    pub const KEYD: usize = 0x0277;
}

/// Statements per jiffy (the machine's budget, and the interpreter's CIA timer): far faster than
/// a real C64 (about 30), so programs feel instant, but a busy loop still lets the clock and keys
/// move.
pub const STATEMENTS_PER_JIFFY: u32 = 20_000;
/// The top of BASIC memory on a C64 (MEMSIZ after power-on).
pub const MEMTOP: u16 = 0xA000;
/// The input buffer (BUF), where direct-mode lines and INPUT's answers sit.
pub const BUF: usize = 0x0200;

/// The screen the interpreter prints to (device 3). Every byte a program shows arrives here,
/// in order, as PETSCII.
///
/// A console gets the machine's memory with every call, so a screen that lives in memory (the
/// C64's screen editor keeps its cursor, line links and colours in zero page, and its characters
/// in screen and colour RAM) is drawn where PEEK and POKE see it.
pub trait Console {
    /// Shows one PETSCII byte (CHROUT to the screen).
    fn chrout(&mut self, mem: &mut [u8], byte: u8);
    /// The cursor's column in its logical line (PNTR, 0-79), for TAB, commas and POS.
    fn column(&self, mem: &[u8]) -> u8;
    /// A POKE wrote `addr` (already stored in `mem`): hardware registers fix up what reads back.
    fn poked(&mut self, _mem: &mut [u8], _addr: u16) {}
    /// A key typed while INPUT (or the READY. prompt) waits for a line: the screen editor shows
    /// it, and returns the line when RETURN ends it.
    fn input_key(&mut self, mem: &mut [u8], key: u8) -> Option<Vec<u8>>;
}

/// Where INPUT and GET read from.
pub enum InputSource {
    /// The keyboard buffer at 631 (count at 198), filled by [`Interp::type_key`].
    Keys,
    /// A byte stream (headless runs read stdin, as a console BASIC does): INPUT reads a line,
    /// GET a byte, and the end of the stream ends the run where the program waits for more.
    Stream(Box<dyn std::io::BufRead + Send>),
}

/// A FOR or GOSUB entry on the ROM's stack. A debugger reads the interpreter's own entries
/// through [`Interp::stack_entries`], as they are: there is no second copy to keep in step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEntry {
    For {
        /// The loop variable's value address (the ROM keeps it in the frame).
        var: u16,
        step: Packed,
        limit: Packed,
        /// The line and TXTPTR NEXT loops back to (after the FOR statement).
        line: Option<u16>,
        pos: usize,
        /// `step` and `limit` read once, when FOR pushed them, for NEXT's whole-number path:
        /// the step as a whole number (0 when it is not a whole number 1 to 2^31-1 in
        /// magnitude, and that path is not taken) and the limit when it is one.
        whole_step: i64,
        whole_limit: Option<i64>,
    },
    Gosub {
        /// The line and TXTPTR RETURN goes back to (after GOSUB, before its line number).
        line: Option<u16>,
        pos: usize,
    },
}

/// The ROM has one 6502 stack for FOR and GOSUB entries and for expressions, and GETSTK's
/// ?OUT OF MEMORY when a push would leave less than its 62-byte margin. Here the stack is the
/// bytes FOR and GOSUB entries hold (`stack_bytes`: 18 a FOR, 7 a GOSUB with NEWSTT's return
/// address under its 5 bytes) plus what the expression being evaluated holds (`depth`, costed
/// in expr.rs); the room is counted from a program statement with nothing open, and the
/// figures are cbmbasic's, measured by the depth corpus programs (tests/corpus/depth_*):
/// a GOSUB fits while at most GOSUB_LIMIT bytes are held, a FOR while at most FOR_LIMIT (it
/// asks GETSTK for its 18 bytes before pushing them), and an expression level (each of
/// FRMEVL's GETSTK calls) while entries and expression together hold at most EXPR_ROOM.
const FOR_BYTES: usize = 18;
const GOSUB_BYTES: usize = 7;
const FOR_LIMIT: usize = 168;
const GOSUB_LIMIT: usize = 178;
const EXPR_ROOM: usize = 179;

/// What a statement asks of the run loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Carry on.
    Next,
    /// The statement must wait (INPUT with no line yet, WAIT not satisfied): it runs again later.
    Blocked,
}

/// How a run slice ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slice {
    /// The budget ran out; call again.
    Running,
    /// A statement waits for input: call again when some arrives.
    Waiting,
    /// Stopped.
    Stopped(Stop),
}

/// The interpreter: memory, the state a run changes (`State`), and what stands outside the
/// run (the console, the input, the files) or is rebuilt from memory (the text cache).
pub struct Interp {
    /// The 64 KiB the program sees. Write to it with [`Interp::poke`], or call
    /// [`Interp::memory_changed`] after writing directly, so that what the interpreter
    /// remembers of the program text and the variables is dropped when they change.
    pub mem: Box<[u8]>,
    /// Everything else a program's run changes: a debugger's snapshot is `mem` and a clone of it.
    state: State,
    /// A statement's nesting of expressions, bounded as the ROM's stack bounds it (0 between
    /// statements).
    depth: usize,
    pub console: Box<dyn Console>,
    input: InputSource,
    /// GETs that found no key since the machine last looked (a program polling the keyboard
    /// is idle: the machine gives the rest of the frame back).
    pub idle_polls: u32,
    files: files::Files,
    /// SYS or USR called machine code: what and where.
    machine_call: Option<(&'static str, u16)>,
    /// Numbers, names and GOTO targets already read from the program text (see textcache).
    cache: textcache::TextCache,
    /// The address of the name `parse_name` read last, when it is in the program (the key of
    /// its cache slot, where the variable it finds is remembered).
    name_at: Option<usize>,
    /// Statements the running slice may still run after the one running now (set by
    /// `run_slice`, 0 elsewhere): an empty FOR loop runs that many of its NEXTs in one go
    /// (`run_empty_loop`).
    spare: u32,
}

/// What a program's run changes besides memory, in one place so that going back in time
/// (`Interp::snapshot`, `Interp::restore`) takes all of it: a field added here is restored with
/// the rest, and one added to [`Interp`] instead must be argued for there.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// TXTPTR: the next byte to read.
    pos: usize,
    /// CURLIN: the line running, None in direct mode.
    line: Option<u16>,
    stack: Vec<StackEntry>,
    stack_bytes: usize,
    /// Temporary string descriptors (TEMPST): (length, address).
    temps: Vec<(u8, u16)>,
    /// Where CONT resumes (OLDTXT, OLDLIN), if it can.
    cont: Option<(usize, Option<u16>)>,
    /// The RND seed (RNDX).
    seed: Packed,
    /// Virtual jiffies since power-on, plus what TI$= added.
    jiffies: u64,
    /// Where a program's PRINT goes: the console, unless CMD or PRINT# picked a file.
    channel: u8,
    /// Set by RUN/STOP; the next statement boundary stops with BREAK.
    stop_key: bool,
    /// Statements begun, for the CIA timer RND(0) reads.
    ticks: u64,
    /// The input stream has ended.
    input_done: bool,
    /// The statement where a blocked statement starts, so it runs again.
    stmt_start: usize,
    /// END/STOP/NEW/LIST asked to stop: Some(true) for a BREAK, Some(false) for an end.
    pending_stop: Option<bool>,
    /// INPUT has printed its prompt and waits for its line.
    input_prompted: bool,
    /// INPUT printed `??` and waits for more: where the variable that asked is in the program.
    input_more: Option<usize>,
    /// Run the statement at `stmt_start` again (CONT in a program).
    again: bool,
    /// The statement count when the jiffy clock last moved (RND(0)'s timer counts from it).
    jiffy_tick: u64,
}

impl Interp {
    /// A machine after power-on with `program` loaded, ready to RUN.
    pub fn new(
        program: &Program,
        console: Box<dyn Console>,
        input: InputSource,
        dir: Option<HostDir>,
    ) -> Result<Interp> {
        let mut it = Interp {
            // 64 KiB, plus zeros past the end that nothing can write (addresses are 16 bits), so
            // a scan that runs off the top of memory (after POKEs into the program) meets a 0
            // that ends the line instead of the end of the slice.
            mem: vec![0u8; 0x10000 + 0x100].into_boxed_slice(),
            state: State {
                pos: 0,
                line: None,
                stack: Vec::new(),
                stack_bytes: 0,
                temps: Vec::new(),
                cont: None,
                seed: POWER_ON_SEED,
                jiffies: 0,
                channel: 0,
                stop_key: false,
                ticks: 0,
                input_done: false,
                stmt_start: 0,
                pending_stop: None,
                input_prompted: false,
                input_more: None,
                again: false,
                jiffy_tick: 0,
            },
            depth: 0,
            console,
            input,
            idle_polls: 0,
            files: files::Files::new(dir),
            machine_call: None,
            cache: textcache::TextCache::new(),
            name_at: None,
            spare: 0,
        };
        it.set_word(zp::TXTTAB, BASIC_START);
        it.set_word(zp::MEMSIZ, MEMTOP);
        it.load_program(program)?;
        it.run_from(None)?;
        Ok(it)
    }

    /// Puts a program into memory at $0801 and sets VARTAB after it (as LOAD does).
    pub fn load_program(&mut self, program: &Program) -> Result<()> {
        let bytes = program.to_memory(BASIC_START);
        let start = BASIC_START as usize;
        if start + bytes.len() + 2 > MEMTOP as usize {
            return Err(BasicError::OutOfMemory);
        }
        self.mem[start - 1] = 0;
        self.mem[start..start + bytes.len()].copy_from_slice(&bytes);
        self.set_word(zp::VARTAB, (start + bytes.len()) as u16);
        self.cache.text_changed();
        self.cache.vars_changed();
        Ok(())
    }

    /// The program in memory, read back from TXTTAB (for LIST and SAVE).
    pub fn program(&self) -> Program {
        let start = self.word(zp::TXTTAB) as usize;
        let end = (self.word(zp::VARTAB) as usize).max(start);
        Program::from_memory(&self.mem[start..end.min(0xFFFF)]).unwrap_or_default()
    }

    /// RUN: clears variables (CLR) and starts at `line` (the first line if None).
    pub fn run_from(&mut self, line: Option<u16>) -> Result<()> {
        self.clr();
        let start = self.word(zp::TXTTAB) as usize;
        match line {
            None => {
                // NEWSTT reads the "end of line" 0 before TXTTAB, then the first line's link.
                self.state.pos = start - 1;
            }
            Some(n) => {
                let at = self.find_line(n).ok_or(BasicError::UndefdStatement)?;
                self.state.pos = at - 1;
            }
        }
        self.state.line = Some(0);
        self.restore_data(None);
        Ok(())
    }

    /// CLR: forgets variables, arrays, strings, the stack, open files and CONT.
    pub fn clr(&mut self) {
        let vartab = self.word(zp::VARTAB);
        self.set_word(zp::ARYTAB, vartab);
        self.set_word(zp::STREND, vartab);
        let memsiz = self.word(zp::MEMSIZ);
        self.set_word(zp::FRETOP, memsiz);
        self.cache.vars_changed();
        self.state.stack.clear();
        self.state.stack_bytes = 0;
        self.state.temps.clear();
        self.state.cont = None;
        self.files.close_all();
        self.state.channel = 0;
    }

    // ---- memory -------------------------------------------------------------------------

    #[inline(always)]
    pub fn word(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.mem[at], self.mem[at + 1]])
    }

    #[inline]
    pub fn set_word(&mut self, at: usize, v: u16) {
        self.mem[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }

    /// PEEK: memory, with the registers this machine keeps elsewhere brought up to date.
    pub fn peek(&mut self, addr: u16) -> u8 {
        self.sync_zero_page();
        self.mem[addr as usize]
    }

    /// POKE.
    pub fn poke(&mut self, addr: u16, v: u8) {
        self.mem[addr as usize] = v;
        let a = addr as usize;
        if (zp::TXTTAB..zp::ARYTAB + 2).contains(&a) {
            // Where the program or the variables are.
            self.cache.text_changed();
            self.cache.vars_changed();
        } else if a >= self.word(zp::TXTTAB) as usize && a < self.word(zp::VARTAB) as usize {
            self.cache.text_changed();
        } else if a >= self.word(zp::VARTAB) as usize && a < self.word(zp::ARYTAB) as usize {
            self.cache.vars_changed();
        }
        self.console.poked(&mut self.mem, addr);
        if (zp::TIME..zp::TIME + 3).contains(&(addr as usize)) {
            let t = &self.mem[zp::TIME..zp::TIME + 3];
            self.state.jiffies = u64::from(t[0]) << 16 | u64::from(t[1]) << 8 | u64::from(t[2]);
        }
    }

    /// Forgets everything remembered about the program text and the variables (after writing
    /// [`Interp::mem`] directly).
    pub fn memory_changed(&mut self) {
        self.cache.text_changed();
        self.cache.vars_changed();
    }

    /// Writes TXTPTR, CURLIN and the clock into zero page, where the ROM keeps them.
    fn sync_zero_page(&mut self) {
        self.set_word(zp::TXTPTR, self.state.pos.saturating_sub(1) as u16);
        self.set_word(zp::CURLIN, self.state.line.unwrap_or(0xFF00));
        let t = self.ti();
        self.mem[zp::TIME] = (t >> 16) as u8;
        self.mem[zp::TIME + 1] = (t >> 8) as u8;
        self.mem[zp::TIME + 2] = t as u8;
        self.mem[zp::PNTR] = self.console.column(&self.mem);
    }

    /// TI: jiffies, wrapping at 24 hours as the KERNAL's clock does.
    pub fn ti(&self) -> u32 {
        (self.state.jiffies % 5_184_000) as u32
    }

    /// Sets the virtual clock (the machine's frame clock drives it).
    pub fn set_jiffies(&mut self, j: u64) {
        if j != self.state.jiffies {
            self.state.jiffy_tick = self.state.ticks;
        }
        self.state.jiffies = j;
    }

    pub fn jiffies(&self) -> u64 {
        self.state.jiffies
    }

    /// RUN/STOP was pressed.
    pub fn press_stop(&mut self) {
        self.state.stop_key = true;
    }

    /// A key typed on the keyboard: into the 10-byte buffer at 631 (dropped when it is full, as
    /// the KERNAL drops it).
    pub fn type_key(&mut self, petscii: u8) {
        let n = self.mem[zp::NDX] as usize;
        if n < 10 {
            self.mem[zp::KEYD + n] = petscii;
            self.mem[zp::NDX] = (n + 1) as u8;
        }
    }

    /// True when the input stream has ended (nothing more can ever be typed).
    pub fn input_ended(&self) -> bool {
        self.state.input_done
    }

    /// The next key in the keyboard buffer at 631 (count at 198), whatever the input source: a
    /// program that POKEs keys there has them typed at READY. when it ends.
    pub fn buffered_key(&mut self) -> Option<u8> {
        let n = (self.mem[zp::NDX] as usize).min(10);
        if n == 0 {
            return None;
        }
        let k = self.mem[zp::KEYD];
        self.mem.copy_within(zp::KEYD + 1..zp::KEYD + n, zp::KEYD);
        self.mem[zp::NDX] = (n - 1) as u8;
        Some(k)
    }

    /// GETIN: the next key from the keyboard buffer or the stream; None when there is none.
    fn next_key(&mut self) -> Option<u8> {
        match &mut self.input {
            InputSource::Keys => self.buffered_key(),
            InputSource::Stream(r) => {
                let mut b = [0u8];
                match r.read(&mut b) {
                    Ok(1) => Some(if b[0] == b'\n' { 13 } else { ascii_to_petscii(b[0]) }),
                    _ => {
                        self.state.input_done = true;
                        None
                    }
                }
            }
        }
    }

    /// The next line of the input stream (headless direct mode types it at READY.), as
    /// PETSCII; None at its end, or when input comes from the keyboard.
    pub fn stream_line(&mut self) -> Option<Vec<u8>> {
        self.read_stream_line(80)
    }

    /// One line of the input stream as PETSCII, at most `max` characters, without its line end;
    /// None (and the input marked done) at its end, or when input comes from the keyboard.
    fn read_stream_line(&mut self, max: usize) -> Option<Vec<u8>> {
        let InputSource::Stream(r) = &mut self.input else {
            return None;
        };
        let mut line = Vec::new();
        match r.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => {
                self.state.input_done = true;
                return None;
            }
            Ok(_) => {}
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        Some(line.into_iter().map(ascii_to_petscii).take(max).collect())
    }

    /// Whether input comes from a stream rather than the keyboard buffer.
    pub fn reads_stream(&self) -> bool {
        matches!(self.input, InputSource::Stream(_))
    }

    /// A line for INPUT: from the stream, or typed key by key (echoed, DEL rubs out) until
    /// RETURN. None while it is not complete.
    fn next_input_line(&mut self) -> Option<Vec<u8>> {
        if self.reads_stream() {
            let line = self.read_stream_line(88)?;
            // The screen shows what was typed.
            for &b in &line {
                self.console.chrout(&mut self.mem, b);
            }
            self.console.chrout(&mut self.mem, 13);
            return Some(line);
        }
        while let Some(k) = self.next_key() {
            if let Some(line) = self.console.input_key(&mut self.mem, k) {
                return Some(line);
            }
        }
        None
    }

    /// GETIN for the machine: the next key from the keyboard buffer (direct mode reads its
    /// lines with it).
    pub fn take_key(&mut self) -> Option<u8> {
        self.next_key()
    }

    // ---- reading the program text -------------------------------------------------------

    /// FIN at TXTPTR: a number in the program text, moving past it.
    #[inline]
    fn number_at_txtptr(&mut self) -> Result<Fac> {
        let at = self.state.pos;
        if let Some((v, len)) = self.cache.number(at) {
            self.state.pos += len as usize;
            return Ok(v);
        }
        self.number_from_text()
    }

    /// FIN on the text at TXTPTR, remembering the number when it is in the program.
    #[inline(never)]
    fn number_from_text(&mut self) -> Result<Fac> {
        let at = self.state.pos;
        let r = Fac::parse(&self.mem[at..])?;
        self.state.pos += r.len;
        if self.in_program(at) && r.len < 256 {
            self.cache.set_number(at, r.value, r.len as u8);
        }
        Ok(r.value)
    }

    /// True if `at` is in the program's text (TXTTAB up to VARTAB), where the text cache may
    /// remember what was read.
    #[inline]
    fn in_program(&self, at: usize) -> bool {
        at >= self.word(zp::TXTTAB) as usize && at < self.word(zp::VARTAB) as usize
    }

    /// CHRGOT: the byte at TXTPTR after skipping spaces.
    #[inline(always)]
    fn peekc(&mut self) -> u8 {
        while self.mem[self.state.pos] == b' ' {
            self.state.pos += 1;
        }
        self.mem[self.state.pos]
    }

    /// CHRGET: the byte at TXTPTR (spaces skipped), moving past it.
    #[inline(always)]
    fn getc(&mut self) -> u8 {
        let c = self.peekc();
        self.state.pos += 1;
        c
    }

    /// SYNCHR: the next byte must be `c`.
    #[inline(always)]
    fn expect(&mut self, c: u8) -> Result<()> {
        if self.getc() == c {
            Ok(())
        } else {
            Err(BasicError::Syntax)
        }
    }

    fn at_end_of_statement(&mut self) -> bool {
        matches!(self.peekc(), 0 | b':')
    }

    /// The address of line `n`'s link, searching from the start of the program.
    fn find_line(&self, n: u16) -> Option<usize> {
        self.find_line_from(self.word(zp::TXTTAB) as usize, n)
    }

    /// The address of line `n`'s link, following the links from the line at `at`.
    fn find_line_from(&self, mut at: usize, n: u16) -> Option<usize> {
        loop {
            if at >= 0xFFFC || self.mem[at + 1] == 0 {
                return None;
            }
            let num = self.word(at + 2);
            if num == n {
                return Some(at);
            }
            if num > n {
                return None;
            }
            at = self.word(at) as usize;
        }
    }

    /// LINGET: a line number at TXTPTR (0 if there are no digits); ?SYNTAX ERROR above 63999.
    fn linget(&mut self) -> Result<u16> {
        let mut n: u32 = 0;
        while self.peekc().is_ascii_digit() {
            let d = u32::from(self.getc() - b'0');
            // The ROM keeps each digit's value in CHARAC while it multiplies.
            self.mem[zp::CHARAC] = d as u8;
            n = n * 10 + d;
            if n > 63999 {
                return Err(BasicError::Syntax);
            }
        }
        Ok(n as u16)
    }

    // ---- the run loop -------------------------------------------------------------------

    /// Runs up to `budget` statements.
    pub fn run_slice(&mut self, budget: u32) -> Slice {
        let mut left = budget;
        let slice = loop {
            if left == 0 {
                break Slice::Running;
            }
            left -= 1;
            // A statement may run more of the budget itself (an empty FOR loop's NEXTs): it
            // takes them from `spare`.
            self.spare = left;
            match self.step() {
                Ok(Outcome::Next) => left = self.spare,
                Ok(Outcome::Blocked) => {
                    // The statement runs again from its start when input arrives.
                    self.state.pos = self.state.stmt_start;
                    self.state.again = true;
                    break Slice::Waiting;
                }
                Err(stop) => break Slice::Stopped(stop),
            }
        };
        self.spare = 0;
        slice
    }

    /// NEWSTT: moves to the next statement and executes it. The common case (no RUN/STOP, no
    /// statement to run again, the next statement after a `:` or at the start of the next
    /// line of a program) is kept short; everything else goes the long way, `step_rare`.
    #[inline(always)]
    fn step(&mut self) -> std::result::Result<Outcome, Stop> {
        self.state.ticks = self.state.ticks.wrapping_add(1);
        if self.state.stop_key || self.state.again {
            return self.step_rare();
        }
        self.state.temps.clear();
        self.depth = 0;
        let pos = self.state.pos;
        match self.mem[pos] {
            b':' => self.state.pos = pos + 1,
            // End of a program line: the next line's link (not the end of the program), then
            // its number.
            0 if self.state.line.is_some() && self.mem[pos + 2] != 0 => {
                self.state.line = Some(self.word(pos + 3));
                self.state.pos = pos + 5;
            }
            _ => return self.step_rare(),
        }
        self.statement_here()
    }

    /// Runs the statement that starts at the current position (just past a boundary).
    #[inline(always)]
    fn statement_here(&mut self) -> std::result::Result<Outcome, Stop> {
        self.state.stmt_start = self.state.pos;
        self.statement().map_err(|e| self.stop_for(e))
    }

    /// NEWSTT's other cases: RUN/STOP pressed, a statement to run again, the end of direct
    /// mode's line or of the program, or no statement boundary where one must be.
    #[cold]
    #[inline(never)]
    fn step_rare(&mut self) -> std::result::Result<Outcome, Stop> {
        if self.state.stop_key {
            self.state.stop_key = false;
            // An INPUT broken off prints its prompt again when it next runs (after CONT).
            self.state.input_prompted = false;
            self.state.input_more = None;
            self.state.cont = Some((self.state.pos, self.state.line));
            return Err(Stop::Break(self.state.line));
        }
        self.state.temps.clear();
        self.depth = 0;
        if self.state.again {
            self.state.again = false;
            self.state.pos = self.state.stmt_start;
            return self.statement().map_err(|e| self.stop_for(e));
        }
        let c = self.mem[self.state.pos];
        if c == 0 {
            // End of a line: the next line's link, then its number.
            if self.state.line.is_none() {
                return Err(Stop::End);
            }
            let link_hi = self.mem[self.state.pos + 2];
            if link_hi == 0 {
                self.state.cont = None;
                return Err(Stop::End);
            }
            self.state.line = Some(self.word(self.state.pos + 3));
            self.state.pos += 5;
        } else if c == b':' {
            self.state.pos += 1;
        } else {
            return Err(self.stop_for(BasicError::Syntax));
        }
        self.statement_here()
    }

    #[cold]
    #[inline(never)]
    fn stop_for(&mut self, e: BasicError) -> Stop {
        self.state.input_prompted = false;
        self.state.input_more = None;
        if let Some(is_break) = self.state.pending_stop.take() {
            // In direct mode END, STOP, NEW and LIST leave CONT's place alone (the ROM saves
            // OLDTXT only when CURLIN is a program line).
            if self.state.line.is_some() {
                self.state.cont = Some((self.state.pos, self.state.line));
            }
            return if is_break {
                Stop::Break(self.state.line)
            } else {
                Stop::End
            };
        }
        if let Some((what, addr)) = self.machine_call.take() {
            self.state.cont = None;
            return Stop::MachineCode(what, addr, self.state.line);
        }
        // After an error the program cannot CONTinue, and output goes back to the screen.
        self.state.cont = None;
        self.state.channel = 0;
        Stop::Error(e, self.state.line)
    }

    /// CONT: resumes after STOP or RUN/STOP.
    pub fn cont(&mut self) -> Result<()> {
        let (pos, line) = self.state.cont.ok_or(BasicError::CantContinue)?;
        self.state.pos = pos;
        self.state.line = line;
        // Broken off inside a statement that was waiting (WAIT, INPUT): it runs again.
        if !matches!(self.mem[pos], 0 | b':') {
            self.state.stmt_start = pos;
            self.state.again = true;
        }
        Ok(())
    }

    /// The statement at TXTPTR (after the `:` or line header). An empty statement (the line
    /// ends, or another `:` follows) does nothing: GONE3 returns at once when CHRGET's Z flag
    /// says end of statement, so `:PRINT`, `A: :B` and `PRINT "X":` run as on the C64.
    #[inline(always)]
    fn statement(&mut self) -> std::result::Result<Outcome, BasicError> {
        let c = self.getc();
        // NEXT, the commonest statement of a counted loop, and an assignment without LET,
        // the commonest of all, without the dispatcher's call.
        if c == crate::tokens::NEXT {
            return self.next_stmt();
        }
        if c.is_ascii_uppercase() {
            self.state.pos -= 1;
            return self.let_stmt();
        }
        stmt::dispatch(self, c)
    }

    // ---- output -------------------------------------------------------------------------

    /// CHROUT: one PETSCII byte to the current output channel.
    fn chrout(&mut self, b: u8) -> Result<()> {
        if self.state.channel == 0 {
            self.console.chrout(&mut self.mem, b);
            Ok(())
        } else {
            self.files
                .write(self.state.channel, b, &mut *self.console, &mut self.mem)
        }
    }

    /// STROUT: a message printed as a string made by STRLIT, which leaves CHARAC a quote.
    fn strout(&mut self, bytes: &[u8]) -> Result<()> {
        self.mem[zp::CHARAC] = b'"';
        self.chrout_all(bytes)
    }

    fn chrout_all(&mut self, bytes: &[u8]) -> Result<()> {
        for &b in bytes {
            self.chrout(b)?;
        }
        Ok(())
    }

    /// The output column TAB and commas count from: the screen's cursor (the ROM asks PLOT,
    /// also when printing to a file).
    fn column(&self) -> u8 {
        self.console.column(&self.mem)
    }

    /// The bytes RND(0) reads: CIA 1's timer A low, time-of-day tenths, timer A high and
    /// time-of-day seconds ($DC04, $DC08, $DC05, $DC09).
    ///
    /// On a C64 the KERNAL runs timer A from the latch $4025 (PAL: 16421 cycles, one jiffy) down
    /// to 0 and round again, and never starts the time-of-day clock, so its tenths and seconds
    /// read 0. Here timer A runs on the virtual clock: it counts down through one jiffy as
    /// the jiffy's statements run ([`STATEMENTS_PER_JIFFY`] of them; without a
    /// clock, as in `run_to_end`, every that many statements), so a run repeats exactly.
    fn cia_clock(&self) -> [u8; 4] {
        const LATCH: u64 = 0x4025;
        let per_jiffy = u64::from(STATEMENTS_PER_JIFFY);
        let into = self.state.ticks.wrapping_sub(self.state.jiffy_tick) % per_jiffy;
        let timer = (LATCH - 1 - into * LATCH / per_jiffy) as u16;
        let [hi, lo] = timer.to_be_bytes();
        [lo, 0, hi, 0]
    }

    /// Seeds RND as `--seed` asks: as RND(-seed) would.
    pub fn seed_rnd(&mut self, seed: i64) {
        let f = Fac::from_i32(-(seed.clamp(1, i64::from(i32::MAX)) as i32));
        let _ = crate::float::rnd(f, &mut self.state.seed, [0; 4]);
    }
}

/// A host character typed on a C64: ASCII letters are unshifted (upper case on the C64's
/// default screen) whatever their case, as typing on a C64 keyboard without SHIFT gives.
pub fn ascii_to_petscii(b: u8) -> u8 {
    match b {
        b'a'..=b'z' => b - 0x20,
        b'\n' => 13,
        _ => b,
    }
}

#[cfg(test)]
mod tests {
    use crate::Program;
    use crate::float::{Fac, POWER_ON_SEED, rnd};
    use crate::interp::InputSource;
    use crate::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};

    fn run(source: &str) -> String {
        let p = Program::from_text(source).unwrap();
        let input = InputSource::Stream(Box::new(std::io::empty()));
        let mut m = CbmMachine::new(&p, input, Options::default()).unwrap();
        m.run_to_end(1_000);
        let mut text = String::new();
        petscii_to_text(&m.take_petscii(), ControlCodes::Omit, &mut text);
        text
    }

    /// A program run in slices of `budget` statements to its end: its output, its memory and
    /// the statements counted.
    fn run_sliced(source: &str, budget: u32) -> (String, Vec<u8>, u64) {
        let p = Program::from_text(source).unwrap();
        let input = InputSource::Stream(Box::new(std::io::empty()));
        let mut m = CbmMachine::new(&p, input, Options::default()).unwrap();
        let mut slices = 0;
        while let crate::interp::Slice::Running = m.interp().run_slice(budget) {
            slices += 1;
            assert!(slices < 10_000_000, "{source} runs on");
        }
        let mut text = String::new();
        petscii_to_text(&m.take_petscii(), ControlCodes::Omit, &mut text);
        let it = m.interp();
        (text, it.mem.to_vec(), it.state.ticks)
    }

    /// An empty FOR loop's NEXTs run in one go when the slice has statements to spare: the
    /// output, every byte of memory and the statement count (which RND(0)'s timer reads) are
    /// those of running them one statement at a time, for loops that count up and down, cross
    /// zero, end at a fraction, reach 2^31, nest, and share a NEXT.
    #[test]
    fn an_empty_loop_run_in_one_go_is_the_loop_run_pass_by_pass() {
        let programs = [
            "10 for i=1 to 1000:next:print rnd(0);i\n",
            "10 for i=1 to 3000\n20 next i\n30 print i;rnd(0)\n",
            "10 for i=10 to -50 step -3:next\n20 print i;rnd(0)\n",
            "10 for i=-900 to -5 step 7:next i:print i;rnd(0)\n",
            "10 for i=1 to 5000.5:next:print i;rnd(0)\n",
            "10 for i=2147482000 to 2147483647+900:next:print i;rnd(0)\n",
            "10 for j=1 to 3:for i=1 to 700:next i,j:print i;j;rnd(0)\n",
            "10 for j=1 to 3:for i=1 to 700:next:next:print i;j;rnd(0)\n",
            "10 for i=1 to 9000: next  i :print i;rnd(0)\n",
            "10 i=5:for i=1 to 2000:next:print i;ti;rnd(0)\n",
        ];
        for source in programs {
            let one_by_one = run_sliced(source, 1);
            assert!(!one_by_one.0.is_empty(), "{source}");
            for budget in [7, 250, 20_000] {
                assert!(
                    run_sliced(source, budget) == one_by_one,
                    "{source} in slices of {budget}"
                );
            }
        }
    }

    /// RND(0) takes timer A's bytes (the C64's KERNAL runs it down from $4025 each jiffy) and
    /// the stopped time-of-day clock's tenths and seconds (0): statement 1 of a jiffy of 20,000
    /// finds the timer at $4024, statement 2 at $4023.
    #[test]
    fn rnd_0_reads_timer_a_on_the_virtual_clock() {
        let mut seed = POWER_ON_SEED;
        let first = rnd(Fac::ZERO, &mut seed, [0x24, 0, 0x40, 0]).unwrap();
        let second = rnd(Fac::ZERO, &mut seed, [0x23, 0, 0x40, 0]).unwrap();
        let want = format!("{} \n{} \n", first.fout().as_str(), second.fout().as_str());
        assert_eq!(run("10 print rnd(0)\n20 print rnd(0)\n"), want);
        // And RND(1) goes on from the seed RND(0) left.
        let third = rnd(Fac::ONE, &mut seed, [0; 4]).unwrap();
        let out = run("10 print rnd(0)\n20 print rnd(0)\n30 print rnd(1)\n");
        assert!(out.ends_with(&format!("{} \n", third.fout().as_str())), "{out}");
    }
}
