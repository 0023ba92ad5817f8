//! The BBC BASIC V interpreter: it executes the tokenized program in an emulated memory byte by
//! byte, as the RISC OS interpreter does. There is no parse tree: a statement pointer walks the
//! token bytes, IF scans forward for the first ELSE, loops and calls push byte positions on one
//! control stack, and variables come to life when first assigned. Caches (variable slots per
//! program position, the line table, PROC/FN addresses) only save repeated work; `forget` is the
//! one place they are invalidated.
//!
//! Output goes byte by byte into the [`crate::vdu::Vdu`] queue; input, time and Escape come from a
//! [`host::Host`].

mod arrays;
pub mod debug;
pub mod error;
mod expr;
mod fastexpr;
pub mod files;
pub mod host;
pub mod lineedit;
pub mod number;
pub mod prompt;
mod quick;
pub mod rnd;
mod stmt;
mod strings;
mod trace;

pub mod value;

use std::collections::HashMap;

use crate::tokens as tok;
use crate::vdu::Vdu;
pub use error::BasicError;
use host::{Host, Signal};
use number::Num;
use rnd::Rnd;
use value::Val;

/// Where a line typed at the prompt goes, above HIMEM (after EVAL's area).
const IMMEDIATE: usize = 512;

/// Where programs load: RISC OS BASIC's usual PAGE.
pub const PAGE: usize = 0x8F00;
/// Bytes of memory from PAGE to HIMEM available to a program and its variables.
pub const DEFAULT_MEMORY: usize = 0x80000;
/// Control stack entries (loops, calls, LOCALs) before "too deep" errors.
pub const MAX_STACK: usize = 100_000;
/// Default limit on nested FN calls and brackets (each uses host stack; see [`Interp::max_depth`]).
pub const DEFAULT_MAX_DEPTH: u32 = 400;
/// Longest string BASIC holds.
pub const MAX_STRING: usize = 255;

/// A variable or memory location that can be read and assigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarRef {
    Int(u32),
    Float(u32),
    Str(u32),
    /// A%-Z% (1-26) and @% (0).
    Resident(u8),
    IntEl(u32, u32),
    FloatEl(u32, u32),
    StrEl(u32, u32),
    /// `?addr`
    Byte(u32),
    /// `!addr`
    Word(u32),
    /// `$addr`
    MemStr(u32),
    /// `|addr` (8-byte float)
    MemFloat(u32),
}

/// An array: dimensions (each the highest subscript + 1) and elements.
#[derive(Debug, Clone)]
pub struct Array {
    /// Empty for a name that has no DIM yet (a LOCAL array, or a parameter's placeholder).
    pub dims: Vec<u32>,
    pub data: ArrayData,
    /// Made by LOCAL: its DIM takes no space from the heap (RISC OS puts it on the stack).
    pub local: bool,
    /// While a routine runs with this array bound to an array parameter, the slot the array
    /// moved to: this name still means that array (RISC OS passes the array block itself).
    pub alias: Option<u32>,
}

#[derive(Debug, Clone)]
pub enum ArrayData {
    Int(Vec<i32>),
    Float(Vec<f64>),
    Str(Vec<Vec<u8>>),
}

/// One entry of the control stack.
#[derive(Debug, Clone)]
enum Frame {
    /// `skip` in the loop and GOSUB entries: the separator at the position they return to (see
    /// `quick`), found once when the entry is pushed.
    ForInt {
        var: VarRef,
        limit: i32,
        step: i32,
        body: usize,
        skip: u8,
    },
    ForFloat {
        var: VarRef,
        limit: f64,
        step: f64,
        body: usize,
        skip: u8,
    },
    Repeat {
        body: usize,
        skip: u8,
    },
    While {
        cond: usize,
        /// The quickened WHILE statement that pushed this entry (`u32::MAX`: none).
        quick: u32,
    },
    Gosub {
        ret: usize,
        skip: u8,
    },
    Proc {
        ret: usize,
        returns: Vec<(VarRef, VarRef)>,
    },
    Fn {
        /// Where the calling expression goes on (past the call's arguments).
        ret: usize,
        returns: Vec<(VarRef, VarRef)>,
    },
    Local {
        var: VarRef,
        old: Val,
    },
    /// Restores the error handler that ON ERROR LOCAL replaced.
    Handler {
        old: Option<Handler>,
    },
    /// LOCAL DATA: the data pointer to restore (and whether it was inside a DATA statement).
    Data {
        ptr: usize,
        inside: bool,
    },
    /// A LOCAL array (`back` None) or an array parameter (`back`: the caller's slot, whose
    /// array moved into `slot`): `old` goes back into `slot` (see `arrays`).
    ArraySave {
        slot: u32,
        old: Array,
        back: Option<u32>,
    },
}

/// A DEF's formal parameter list, parsed once (see `Interp::routines`).
#[derive(Debug, Clone, Copy)]
struct Routine {
    /// Where the DEF's name ends (what `find_routine` returns).
    def: usize,
    /// Where the body starts, after the formal parameters.
    body: usize,
    /// The formals are `formals[first..first + count]`.
    first: u32,
    count: u32,
}

/// One formal parameter of a [`Routine`].
#[derive(Debug, Clone, Copy)]
struct Formal {
    /// Where its name is in the program.
    at: usize,
    /// `RETURN name`: the value is copied back to the actual variable on exit.
    ret: bool,
    /// `name()`: an array, bound by reference.
    arr: bool,
    /// The variable the name resolved to when first bound (variables only go away with CLEAR,
    /// which forgets these).
    var: Option<VarRef>,
}

/// An ON ERROR handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Handler {
    pc: usize,
    /// ON ERROR LOCAL: the control stack depth and FN nesting to return to.
    local: Option<(usize, u32)>,
}

/// Why execution stopped unwinding (errors and END travel up the Rust stack; a FN result does
/// not: `exec` returns `Ok` with the value in `Interp::fn_result`, which costs no allocation).
#[derive(Debug, Clone)]
enum Stop {
    Error(BasicError),
    End,
    Quit(i32),
    Abort,
    /// CHAIN: these program bytes replace the running program, which starts again.
    Chain(Vec<u8>),
}

impl From<BasicError> for Stop {
    fn from(e: BasicError) -> Self {
        Stop::Error(e)
    }
}

/// Results carry a boxed `Stop`, so the common `Ok` path moves a small value.
type R<T> = Result<T, Box<Stop>>;

impl From<BasicError> for Box<Stop> {
    fn from(e: BasicError) -> Self {
        Box::new(Stop::Error(e))
    }
}

/// How a run finished.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// END, STOP-free end of program.
    Ended,
    /// An error no ON ERROR caught: the error and the line it happened in.
    Error { error: BasicError, line: u32 },
    /// QUIT, with its exit value.
    Quit(i32),
    /// The host stopped the run (budget spent, input exhausted, machine gone).
    Aborted,
}

impl Outcome {
    /// The message RISC OS prints for an uncaught error ("Unknown or missing variable at line 10").
    pub fn message(&self) -> Option<String> {
        match self {
            Outcome::Error { error, line } => Some(format!("{} at line {}", error.message, line)),
            _ => None,
        }
    }
}

/// A problem with the program bytes themselves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("the program does not start with a line (&0D)")]
    NoStart,
    #[error("the program has no end marker (&0D &FF)")]
    NoEnd,
    #[error("the program is too big for memory")]
    TooBig,
}

/// The interpreter: memory, variables, stacks, VDU queue and host.
pub struct Interp {
    pub mem: Vec<u8>,
    page: usize,
    top: usize,
    lomem: usize,
    himem: usize,
    /// Next free byte for DIM (blocks and arrays both use it up, as on the real machine).
    vartop: usize,
    /// (line number, offset of the line's &0D) in program order.
    lines: Vec<(u16, usize)>,
    pc: usize,
    resident: [i32; 27],
    names: HashMap<Box<[u8]>, VarRef>,
    ints: Vec<i32>,
    floats: Vec<f64>,
    strs: Vec<Vec<u8>>,
    arrays: Vec<Array>,
    /// Array names to their index in `arrays`.
    array_names: HashMap<Box<[u8]>, u32>,
    /// What is cached per program byte (see [`PosCaches`]).
    pos: PosCaches,
    /// Empty strings with room for the longest, reused for temporary strings (see `strings`).
    spare_strs: Vec<Vec<u8>>,
    quicks: Vec<quick::Quick>,
    /// Cached expressions and their shared code.
    compiled: Vec<fastexpr::Compiled>,
    ifns: Vec<fastexpr::IFn>,
    ffns: Vec<fastexpr::FFn>,
    /// Parsed DEF headers, so a call binds its arguments without rescanning the DEF. They
    /// depend only on the program bytes: a write into the program forgets them (with `calls`).
    routines: Vec<Routine>,
    /// The formal parameters of all `routines`.
    formals: Vec<Formal>,
    /// Changes whenever `routines` or the variables their formals resolved to are forgotten, so
    /// a call whose arguments ran CLEAR or wrote the program does not trust what it copied.
    routines_gen: u32,
    /// The formals and evaluated actuals (with, for RETURN parameters, the actual variable) of
    /// the calls being set up: stacks shared by nested calls (an argument can call a FN),
    /// reused so a call allocates nothing.
    arg_formals: Vec<Formal>,
    args: Vec<(Val, Option<VarRef>)>,
    /// The value of the `=` that just left a FN (see `fn_return`).
    fn_result: Val,
    stack: Vec<Frame>,
    procs: Option<HashMap<Box<[u8]>, usize>>,
    data_ptr: usize,
    /// Whether `data_ptr` is inside a DATA statement.
    data_in: bool,
    handler: Option<Handler>,
    err: i32,
    erl: u32,
    report: Vec<u8>,
    pub rnd: Rnd,
    pub vdu: Vdu,
    host: Box<dyn Host>,
    /// Characters printed since the last newline (COUNT, and PRINT's tab stops).
    count: usize,
    time_offset: i64,
    ticks_left: u32,
    /// While a debugger's expression runs (`print FNx`, a breakpoint's condition): the host ticks
    /// its FNs may still take. The host itself is not ticked meanwhile (virtual time stands
    /// still), and a FN that runs out is stopped (see `debug::EVAL_STATEMENTS`).
    eval_ticks: Option<u32>,
    /// Statements run by the FNs of debugger expressions since the debugger last took the
    /// count (`Interp::take_eval_statements`): a run charges them to its budget.
    eval_statements: u64,
    /// While a debugger's expression runs: the FN nesting it runs at (a key read or file
    /// access there is refused, not done; see `debug::no_side_effect`), and whether it has
    /// called a FN (whose effects, RND's included, then stand).
    eval_level: u32,
    eval_called_fn: bool,
    depth: u32,
    /// FN calls in progress (ON ERROR LOCAL handlers belong to one of these levels).
    fn_level: u32,
    /// Deepest nesting of FN calls and brackets; deeper raises an error instead of overflowing
    /// the host stack. Raise it only when running on a thread with a bigger stack.
    pub max_depth: u32,
    /// `--strict`: refuse the whole-array forms RISC OS BASIC V refuses and we otherwise accept
    /// as extensions (`a()=2+3`, arrays of different types, DIV and MOD with arrays).
    pub strict: bool,
    /// Whether statements are quickened and expressions compiled (see [`Interp::set_caching`]).
    caching: bool,
    /// Scratch area for EVAL (above HIMEM).
    eval_area: usize,
    /// Open files and where they are found (see `files`).
    files: files::Files,
    /// What TRACE shows (lines, calls, returns) and where (see `trace`).
    trace: trace::Trace,
    /// Statements run since the host's last tick while tracing or debugging (see `tick`).
    trace_count: u32,
    /// The debugger, when one is attached: it sees every statement (see `debug`).
    debug: Option<Box<debug::Control>>,
}

/// The caches kept per program byte (indexed by the offset from PAGE): each only saves work
/// the byte path would repeat, and [`PosCaches::forget`] (through `Interp::forget`) is the one
/// way they are invalidated.
struct PosCaches {
    /// The variable a name there resolved to (0: not cached).
    site: Vec<u32>,
    /// A number constant that starts there and its length (0: not cached).
    numbers: Vec<(u8, Num)>,
    /// The routine a PROC/FN name there calls, as 1 + its index in `routines` in the low 24
    /// bits and the name's length above (0: not cached).
    calls: Vec<u32>,
    /// 1 + the array a name there resolved to (0: not cached).
    arr_site: Vec<u32>,
    /// 1 + the distance from a false IF's condition to its ELSE or line end.
    else_scan: Vec<u32>,
    /// Whether the expression bytes from there can call a FN (see `strings`).
    str_scan: Vec<u8>,
    /// The state of the cached expression starting there (see `fastexpr`).
    expr_cache: Vec<u32>,
    /// The state of the quickened statement starting there (see `quick`).
    quick_cache: Vec<u32>,
}

impl PosCaches {
    fn new(len: usize) -> PosCaches {
        PosCaches {
            site: vec![0; len],
            numbers: vec![(0, Num::Int(0)); len],
            calls: vec![0; len],
            arr_site: vec![0; len],
            else_scan: vec![0; len],
            str_scan: vec![0; len],
            expr_cache: vec![0; len],
            quick_cache: vec![0; len],
        }
    }

    /// Forgets what `what` makes stale (see `Interp::forget`).
    fn forget(&mut self, what: Forget) {
        self.quick_cache.fill(0);
        self.expr_cache.fill(0);
        if what == Forget::Compiled {
            return;
        }
        self.site.fill(0);
        self.arr_site.fill(0);
        if what == Forget::Variables {
            return;
        }
        self.numbers.iter_mut().for_each(|n| n.0 = 0);
        self.calls.fill(0);
        self.else_scan.fill(0);
        self.str_scan.fill(0);
    }
}

/// What a change makes the per-position caches forget (see `Interp::forget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forget {
    /// Compiled expressions and quickened statements (caching switched on or off).
    Compiled,
    /// Also everything that refers to variables (RUN, CLEAR).
    Variables,
    /// Also everything that depends on the program bytes (a write into the program).
    Program,
}

/// Site cache entries: kind in bits 30-31, the name's length in bits 22-29, the slot below.
const SITE_INT: u32 = 1 << 30;
const SITE_FLOAT: u32 = 2 << 30;
const SITE_STR: u32 = 3 << 30;
const SITE_IDX: u32 = (1 << 22) - 1;

#[inline(always)]
pub(super) fn site_decode(s: u32) -> (VarRef, usize) {
    let idx = s & SITE_IDX;
    let len = ((s >> 22) & 0xFF) as usize;
    let v = match s & (3 << 30) {
        0 => VarRef::Resident(idx as u8),
        SITE_INT => VarRef::Int(idx),
        SITE_FLOAT => VarRef::Float(idx),
        _ => VarRef::Str(idx),
    };
    (v, len)
}

impl Interp {
    /// Loads a tokenized program (RISC OS format: lines `0D hi lo len body`, ending `0D FF`).
    pub fn new(program: &[u8], host: Box<dyn Host>) -> Result<Interp, LoadError> {
        Self::with_memory(program, host, DEFAULT_MEMORY)
    }

    pub fn with_memory(program: &[u8], host: Box<dyn Host>, memory: usize) -> Result<Interp, LoadError> {
        if program.first() != Some(&0x0D) {
            return Err(LoadError::NoStart);
        }
        // The program runs up to its end marker; anything after it is ignored, as LOAD does.
        let mut p = 0;
        loop {
            match (program.get(p), program.get(p + 1)) {
                (Some(0x0D), Some(0xFF)) => break,
                (Some(0x0D), Some(_)) => {
                    let len = *program.get(p + 3).ok_or(LoadError::NoEnd)? as usize;
                    if len < 4 {
                        return Err(LoadError::NoEnd);
                    }
                    p += len;
                }
                _ => return Err(LoadError::NoEnd),
            }
        }
        let prog_len = p + 2;
        if prog_len + 1024 > memory {
            return Err(LoadError::TooBig);
        }
        let himem = PAGE + memory;
        // Above HIMEM: EVAL's scratch area, then the line typed at the prompt (`IMMEDIATE`).
        let mut mem = vec![0u8; himem + IMMEDIATE + 256 + 2];
        mem[PAGE..PAGE + prog_len].copy_from_slice(&program[..prog_len]);
        let top = PAGE + prog_len;
        let mut it = Interp {
            mem,
            page: PAGE,
            top,
            lomem: top,
            himem,
            vartop: top,
            lines: Vec::new(),
            pc: PAGE,
            resident: [0; 27],
            names: HashMap::new(),
            ints: Vec::new(),
            floats: Vec::new(),
            strs: Vec::new(),
            arrays: Vec::new(),
            array_names: HashMap::new(),
            pos: PosCaches::new(prog_len),
            spare_strs: Vec::new(),
            quicks: Vec::new(),
            compiled: Vec::new(),
            ifns: Vec::new(),
            ffns: Vec::new(),
            routines: Vec::new(),
            formals: Vec::new(),
            routines_gen: 0,
            arg_formals: Vec::new(),
            args: Vec::new(),
            fn_result: Val::Int(0),
            stack: Vec::new(),
            procs: None,
            data_ptr: PAGE,
            data_in: false,
            handler: None,
            err: 0,
            erl: 0,
            report: Vec::new(),
            rnd: Rnd::default(),
            vdu: Vdu::default(),
            host,
            count: 0,
            time_offset: 0,
            ticks_left: host::TICK_STATEMENTS,
            eval_ticks: None,
            eval_statements: 0,
            eval_level: 0,
            eval_called_fn: false,
            depth: 0,
            fn_level: 0,
            max_depth: DEFAULT_MAX_DEPTH,
            strict: false,
            caching: true,
            eval_area: himem,
            files: files::Files::default(),
            trace: trace::Trace::default(),
            trace_count: 0,
            debug: None,
        };
        it.resident[0] = 0x90A;
        it.index_lines();
        Ok(it)
    }

    /// Rebuilds the line table from program memory (after loading, or a write into the program).
    fn index_lines(&mut self) {
        self.lines.clear();
        let mut p = self.page;
        while p + 3 < self.mem.len() && self.mem[p] == 0x0D && self.mem[p + 1] != 0xFF {
            let n = u16::from_be_bytes([self.mem[p + 1], self.mem[p + 2]]);
            self.lines.push((n, p));
            let len = self.mem[p + 3] as usize;
            if len < 4 {
                break;
            }
            p += len;
        }
    }

    /// Replaces the host (input, time and escape source).
    pub fn set_host(&mut self, host: Box<dyn Host>) {
        self.host = host;
    }

    /// With `false`, no statement is quickened and no expression compiled: everything runs
    /// from its bytes. The results must be the same either way; tests compare the two.
    pub fn set_caching(&mut self, on: bool) {
        self.caching = on;
        self.forget(Forget::Compiled);
    }

    /// Seeds RND as `RND(-seed)` would.
    pub fn seed(&mut self, seed: i64) {
        self.rnd.seed((seed as i32).wrapping_neg());
    }

    /// Runs the program from its first line until it ends, fails or the host stops it.
    pub fn run(&mut self) -> Outcome {
        let outcome = self.run_program();
        // Files still open are written back when the program ended normally; a run stopped by
        // an error, Escape or the host writes none of them, so each keeps its old contents
        // (issue 32: an Escape replaced a file with half of the new one).
        match outcome {
            Outcome::Ended | Outcome::Quit(_) => {
                let _ = self.files.close_all();
            }
            Outcome::Error { .. } | Outcome::Aborted => self.files.discard_all(),
        }
        outcome
    }

    fn run_program(&mut self) -> Outcome {
        self.pc = self.page;
        self.clear_state();
        self.run_loop()
    }

    /// Runs one line of statements typed at the prompt (its tokenized `body`), with the
    /// variables, stacks and files as the last line left them.
    pub fn run_immediate(&mut self, body: &[u8]) -> Outcome {
        let area = self.himem + IMMEDIATE;
        let body = &body[..body.len().min(251)];
        self.mem[area..area + 4].copy_from_slice(&[0x0D, 0, 0, body.len() as u8 + 4]);
        self.mem[area + 4..area + 4 + body.len()].copy_from_slice(body);
        self.mem[area + 4 + body.len()..area + 6 + body.len()].copy_from_slice(&[0x0D, 0xFF]);
        self.pc = area + 4;
        self.drop_stack();
        self.depth = 0;
        self.fn_level = 0;
        self.run_loop()
    }

    /// What survives a change to the program at the prompt: the host's clock aside, the screen,
    /// files, RND, A%-Z% and @%, and the settings.
    fn host_restore_from(&mut self, old: &mut Interp) {
        self.vdu = std::mem::take(&mut old.vdu);
        self.files = std::mem::take(&mut old.files);
        self.resident = old.resident;
        self.rnd = old.rnd;
        self.count = old.count;
        self.time_offset = old.time_offset;
        self.max_depth = old.max_depth;
        self.caching = old.caching;
        self.set_trace(old.trace);
    }

    /// Puts `program` in place of the running one and starts it, as CHAIN does: what survives
    /// is what survives a change of program at the prompt (screen, files, RND, A%-Z%, @%), and
    /// the debugger stays attached.
    fn chain(&mut self, program: &[u8]) -> Result<(), BasicError> {
        let memory = self.himem - PAGE;
        let placeholder = Box::new(host::ScriptHost::new(b""));
        let mut fresh = Interp::with_memory(program, placeholder, memory).map_err(|e| match e {
            LoadError::TooBig => error::NO_ROOM,
            _ => files::BAD_PROGRAM,
        })?;
        fresh.host = std::mem::replace(&mut self.host, Box::new(host::ScriptHost::new(b"")));
        fresh.host_restore_from(self);
        fresh.debug = self.debug.take();
        *self = fresh;
        self.pc = self.page;
        self.clear_state();
        Ok(())
    }

    fn run_loop(&mut self) -> Outcome {
        loop {
            let r = self.exec_level(0);
            let stop = match r {
                // `=` left a FN frame that no FN call on the Rust stack owns (possible only
                // when an error handler left a stale frame behind).
                Ok(()) => Stop::Error(error::NO_FN),
                Err(s) => *s,
            };
            match stop {
                Stop::End => return Outcome::Ended,
                Stop::Quit(n) => return Outcome::Quit(n),
                Stop::Abort => return Outcome::Aborted,
                Stop::Chain(program) => {
                    if let Err(e) = self.chain(&program) {
                        if self.take_error(e.clone()) {
                            continue;
                        }
                        return Outcome::Error {
                            error: e,
                            line: self.line_of(self.pc),
                        };
                    }
                }
                Stop::Error(e) => {
                    let line = self.line_of(self.pc);
                    if self.take_error(e.clone()) {
                        continue;
                    }
                    return Outcome::Error { error: e, line };
                }
            }
        }
    }

    /// Records an error for ERR/ERL/REPORT$ and, if a (global) ON ERROR handler exists, jumps to
    /// it with the stack reset. Returns whether a handler took it.
    fn take_error(&mut self, e: BasicError) -> bool {
        self.note_error(&e);
        match self.handler {
            Some(h) if h.local.is_none() => {
                // Global handlers restart with an empty stack; LOCAL variables keep the values
                // they had, as on the real machine.
                self.drop_stack();
                self.depth = 0;
                self.fn_level = 0;
                self.pc = h.pc;
                true
            }
            _ => {
                self.trace_off_for_error();
                false
            }
        }
    }

    /// Empties the control stack without restoring LOCAL variables (what a global error
    /// handler and a new line at the prompt do), except that arrays lent to routines go back to
    /// their names: the caller's array is the same array on the real machine.
    fn drop_stack(&mut self) {
        while let Some(f) = self.stack.pop() {
            if let Frame::ArraySave { slot, old, back } = f {
                self.restore_array(slot, old, back);
            }
        }
    }

    fn note_error(&mut self, e: &BasicError) {
        if self.debug.is_some() {
            self.debug_error(e);
        }
        self.err = e.number;
        self.erl = self.line_of(self.pc);
        self.report = e.message.as_bytes().to_vec();
    }

    /// Runs statements at FN nesting `level`, handling ON ERROR LOCAL handlers that belong to it.
    fn exec_level(&mut self, level: u32) -> R<()> {
        loop {
            match self.exec() {
                Err(s) if matches!(*s, Stop::Error(_)) => self.catch_local(level, s)?,
                other => return other,
            }
        }
    }

    /// A stop at FN nesting `level`: an error that an ON ERROR LOCAL handler of that level can
    /// take unwinds the stack to the handler's depth and moves pc to it; anything else goes on.
    fn catch_local(&mut self, level: u32, s: Box<Stop>) -> R<()> {
        let Some(Handler {
            pc,
            local: Some((depth, hl)),
        }) = self.handler
        else {
            return Err(s);
        };
        if hl != level || depth > self.stack.len() {
            return Err(s);
        }
        let Stop::Error(e) = &*s else {
            return Err(s);
        };
        self.note_error(e);
        self.unwind_to(depth);
        self.pc = pc;
        Ok(())
    }

    /// Pops the control stack down to `depth` entries, restoring LOCAL variables on the way.
    fn unwind_to(&mut self, depth: usize) {
        while self.stack.len() > depth {
            if let Some(f) = self.stack.pop() {
                self.undo_frame(f);
            }
        }
    }

    fn undo_frame(&mut self, f: Frame) {
        match f {
            Frame::Local { var, old } => {
                let _ = self.assign(var, old);
            }
            Frame::Handler { old } => self.handler = old,
            Frame::Data { ptr, inside } => {
                self.data_ptr = ptr;
                self.data_in = inside;
            }
            Frame::ArraySave { slot, old, back } => self.restore_array(slot, old, back),
            _ => {}
        }
    }

    /// Forgets variables, stacks and handlers (RUN and CLEAR).
    fn clear_state(&mut self) {
        self.names.clear();
        self.ints.clear();
        self.floats.clear();
        self.strs.clear();
        self.arrays.clear();
        self.array_names.clear();
        self.forget(Forget::Variables);
        self.stack.clear();
        self.handler = None;
        self.vartop = self.lomem;
        self.data_ptr = self.page;
        self.data_in = false;
        self.procs = None;
    }

    /// The number of the line containing `pc` (0 outside the program, as in immediate mode).
    pub fn line_of(&self, pc: usize) -> u32 {
        if pc < self.page || pc >= self.top {
            return 0;
        }
        // A line's record starts with the CR that ends the line before, so a pointer at that CR
        // (where a statement ending the line stops) belongs to the earlier line.
        let i = self.lines.partition_point(|&(_, off)| off < pc);
        if i == 0 { 0 } else { self.lines[i - 1].0 as u32 }
    }

    /// The offset of line `n`'s first body byte.
    fn find_line(&self, n: i32) -> R<usize> {
        if !(0..=65279).contains(&n) {
            return Err(error::NO_SUCH_LINE.into());
        }
        // Lines are normally in order; fall back to a scan for hand-made programs that are not.
        match self.lines.binary_search_by_key(&(n as u16), |&(l, _)| l) {
            Ok(i) => Ok(self.lines[i].1 + 4),
            Err(_) => self
                .lines
                .iter()
                .find(|&&(l, _)| l as i32 == n)
                .map(|&(_, off)| off + 4)
                .ok_or_else(|| error::NO_SUCH_LINE.into()),
        }
    }

    /// The byte at `i` (a CR past the end of memory, so scans always stop).
    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        match self.mem.get(i) {
            Some(&b) => b,
            None => 0x0D,
        }
    }

    #[inline(always)]
    fn skip_spaces(&mut self) -> u8 {
        loop {
            let b = self.at(self.pc);
            if b != b' ' {
                return b;
            }
            self.pc += 1;
        }
    }

    /// Consumes `b` (after spaces) if it is next.
    #[inline]
    fn eat(&mut self, b: u8) -> bool {
        if self.skip_spaces() == b {
            self.pc += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8, e: BasicError) -> R<()> {
        if self.eat(b) { Ok(()) } else { Err(e.into()) }
    }

    /// Whether the statement ends here (`:`, end of line, or ELSE).
    #[inline]
    fn at_stmt_end(&mut self) -> bool {
        matches!(self.skip_spaces(), b':' | 0x0D | tok::ELSE)
    }

    fn end_stmt(&mut self) -> R<()> {
        if self.at_stmt_end() {
            Ok(())
        } else {
            Err(error::SYNTAX.into())
        }
    }

    /// The pointer at the end of the current line (its terminating CR).
    fn line_end(&self, mut p: usize) -> usize {
        let mut quote = false;
        loop {
            let b = self.at(p);
            if b == 0x0D {
                return p;
            }
            if b == b'"' {
                quote = !quote;
            }
            p += 1;
        }
    }

    /// Host check point: escape, abort, frame ends.
    #[cold]
    fn tick(&mut self) -> R<()> {
        if let Some(left) = self.eval_ticks.as_mut() {
            // Abort, not an error: an ON ERROR LOCAL in the FN must not catch it and go on.
            *left = left.checked_sub(1).ok_or_else(|| Box::new(Stop::Abort))?;
            self.ticks_left = host::TICK_STATEMENTS;
            return Ok(());
        }
        if self.trace.lines.is_some() {
            return self.trace_tick();
        }
        self.ticks_left = host::TICK_STATEMENTS;
        let s = self.host.tick(&mut self.vdu);
        self.signal(s)
    }

    /// What TRACE shows from now on.
    fn set_trace(&mut self, t: trace::Trace) {
        self.trace = t;
        // While tracing lines, every statement comes to `tick` (the statement loop itself
        // stays as it is); the host's own ticks still come every TICK_STATEMENTS statements.
        self.ticks_left = if t.lines.is_some() {
            1
        } else {
            host::TICK_STATEMENTS
        };
        self.trace_count = 0;
    }

    /// The line whose text begins at `pc` (just after its header), if one does.
    fn line_starting(&self, pc: usize) -> Option<u16> {
        let i = self.lines.partition_point(|&(_, off)| off + 4 < pc);
        let &(n, off) = self.lines.get(i)?;
        (off + 4 == pc).then_some(n)
    }

    /// The line a statement at `p` (past spaces) enters, if it is the line's first: only
    /// spaces and colons come before it on the line. The debugger's `trace on` asks this where
    /// TRACE asks [`Interp::line_starting`] (it sees statements, TRACE the pointer at the
    /// line's start), so both print a line's entry once, as it is entered.
    pub(crate) fn line_entered_at(&self, p: usize) -> Option<u16> {
        let i = self.lines.partition_point(|&(_, off)| off < p);
        let &(n, off) = self.lines.get(i.checked_sub(1)?)?;
        let text = off + 4;
        (p >= text && (text..p).all(|q| matches!(self.at(q), b' ' | b':'))).then_some(n)
    }

    /// `tick` while tracing: before each statement. A statement that starts a line (reached in
    /// order or by a jump) shows the line's number as BBC BASIC does, `[20] `.
    #[cold]
    fn trace_tick(&mut self) -> R<()> {
        self.ticks_left = 1;
        if let Some(limit) = self.trace.lines {
            let mut p = self.pc;
            while self.at(p) == b' ' {
                p += 1;
            }
            if let Some(n) = self.line_starting(self.pc)
                && (n as u32) < limit
                && self.at(p) != 0x0D
            {
                self.trace_line(n)?;
            }
        }
        self.trace_count += 1;
        if self.trace_count >= host::TICK_STATEMENTS {
            self.trace_count = 0;
            let s = self.host.tick(&mut self.vdu);
            self.ticks_left = 1;
            self.signal(s)?;
        }
        Ok(())
    }

    fn signal(&mut self, s: Signal) -> R<()> {
        match s {
            Signal::Continue => Ok(()),
            Signal::Escape => Err(error::ESCAPE.into()),
            Signal::Abort => Err(Box::new(Stop::Abort)),
        }
    }

    // ---- output ----

    /// One byte of program output into the VDU queue, keeping COUNT.
    #[inline]
    fn out(&mut self, b: u8) {
        self.vdu.write(b);
        match b {
            13 => self.count = 0,
            32..=126 | 128..=255 => self.count += 1,
            _ => {}
        }
    }

    pub(crate) fn out_all(&mut self, s: &[u8]) {
        for &b in s {
            self.out(b);
        }
    }

    pub(crate) fn newline(&mut self) {
        self.out(13);
        self.out(10);
    }

    // ---- variables ----

    /// Scans a variable name at `p`: returns the end of the key (name, suffix, and `(` for
    /// arrays), whether it is an array, and its type (b'%', b'$' or 0).
    #[inline]
    fn scan_name(&self, p: usize) -> (usize, bool, u8) {
        let mut e = p;
        while tok::is_word_char(self.at(e)) {
            e += 1;
        }
        let mut ty = 0;
        let s = self.at(e);
        if s == b'%' || s == b'$' {
            ty = s;
            e += 1;
        }
        let arr = self.at(e) == b'(';
        if arr {
            e += 1;
        }
        (e, arr, ty)
    }

    /// Resolves a simple (non-array) variable name at pc, advancing past it. With `create` an
    /// unknown name becomes a new variable (assignment); otherwise it is "Unknown or missing variable".
    fn simple_var(&mut self, create: bool) -> R<VarRef> {
        let start = self.pc;
        let first = self.at(start);
        // Resident integers: one capital or @ then %, not an array.
        if (first.is_ascii_uppercase() || first == b'@')
            && self.at(start + 1) == b'%'
            && self.at(start + 2) != b'('
        {
            self.pc = start + 2;
            let i = if first == b'@' { 0 } else { first - b'A' + 1 };
            if let Some(s) = self.pos.site.get_mut(start.wrapping_sub(self.page)) {
                *s = 2 << 22 | i as u32;
            }
            return Ok(VarRef::Resident(i));
        }
        let (end, arr, ty) = self.scan_name(start);
        if arr || end == start || !tok::is_word_char(first) || first.is_ascii_digit() {
            return Err(error::SYNTAX.into());
        }
        let off = start.wrapping_sub(self.page);
        let key = &self.mem[start..end];
        let v = match self.names.get(key) {
            Some(&v) => v,
            None => {
                if !create {
                    return Err(error::NO_SUCH_VARIABLE.into());
                }
                let key: Box<[u8]> = key.into();
                let v = match ty {
                    b'%' => {
                        self.ints.push(0);
                        VarRef::Int(self.ints.len() as u32 - 1)
                    }
                    b'$' => {
                        self.strs.push(Vec::new());
                        VarRef::Str(self.strs.len() as u32 - 1)
                    }
                    _ => {
                        self.floats.push(0.0);
                        VarRef::Float(self.floats.len() as u32 - 1)
                    }
                };
                self.names.insert(key, v);
                v
            }
        };
        let len = (end - start) as u32;
        if let Some(s) = self.pos.site.get_mut(off) {
            *s = match v {
                _ if len > 0xFF => 0,
                VarRef::Int(i) if i <= SITE_IDX => SITE_INT | len << 22 | i,
                VarRef::Float(i) if i <= SITE_IDX => SITE_FLOAT | len << 22 | i,
                VarRef::Str(i) if i <= SITE_IDX => SITE_STR | len << 22 | i,
                _ => 0,
            };
        }
        self.pc = end;
        Ok(v)
    }

    /// A variable reference at pc: simple, array element, or a name followed by `?`/`!`
    /// indirection; or a unary indirection operator.
    fn var_ref(&mut self, create: bool) -> R<VarRef> {
        let b = self.skip_spaces();
        // Fast path: a simple variable already resolved at this program position.
        if let Some(&s) = self.pos.site.get(self.pc.wrapping_sub(self.page))
            && s != 0
        {
            let (v, len) = site_decode(s);
            let end = self.pc + len;
            if !self.is_binary_indirection(end) {
                self.pc = end;
                return Ok(v);
            }
        }
        match b {
            b'?' | b'!' | b'$' | b'|' => {
                self.pc += 1;
                let a = self.factor()?;
                let a = self.to_int(a)? as u32;
                return Ok(match b {
                    b'?' => VarRef::Byte(a),
                    b'!' => VarRef::Word(a),
                    b'$' => VarRef::MemStr(a),
                    _ => VarRef::MemFloat(a),
                });
            }
            _ => {}
        }
        let start = self.pc;
        if b == b'@' {
            return self.simple_var(create);
        }
        let (end, arr, _) = self.scan_name(start);
        if end == start {
            return Err(error::SYNTAX.into());
        }
        let v = if arr {
            self.array_el()?
        } else {
            self.simple_var(create && !self.is_binary_indirection(end))?
        };
        // Binary indirection: name?expr, name!expr.
        let b = self.at(self.pc);
        if b == b'?' || b == b'!' {
            self.pc += 1;
            let base = self.read(v)?;
            let base = self.to_int(base)?;
            let off = self.factor()?;
            let off = self.to_int(off)?;
            let a = base.wrapping_add(off) as u32;
            return Ok(if b == b'?' {
                VarRef::Byte(a)
            } else {
                VarRef::Word(a)
            });
        }
        Ok(v)
    }

    fn is_binary_indirection(&self, end: usize) -> bool {
        matches!(self.at(end), b'?' | b'!')
    }

    /// An array element: pc is at the name; reads subscripts up to `)`.
    fn array_el(&mut self) -> R<VarRef> {
        let start = self.pc;
        let off = start.wrapping_sub(self.page);
        // Cached: 1 + the array in the low 24 bits, the name's length (with `(`) above.
        let (ai, end) = match self.pos.arr_site.get(off) {
            Some(&a) if a != 0 && (((a & 0xFF_FFFF) - 1) as usize) < self.arrays.len() => {
                ((a & 0xFF_FFFF) - 1, start + (a >> 24) as usize)
            }
            _ => {
                let (end, _, _) = self.scan_name(start);
                let key = &self.mem[start..end];
                let Some(&ai) = self.array_names.get(key) else {
                    return Err(error::ARRAY.into());
                };
                if let Some(slot) = self.pos.arr_site.get_mut(off)
                    && end - start < 256
                    && ai < 0xFF_FFFF
                {
                    *slot = (ai + 1) | ((end - start) as u32) << 24;
                }
                (ai, end)
            }
        };
        // The element type is the character before the bracket.
        let ty = match self.at(end - 2) {
            b'%' => b'%',
            b'$' => b'$',
            _ => 0,
        };
        self.pc = end;
        // A caller's name for an array that is bound to a parameter means the same array.
        let ai = self.array_home(ai);
        let ndims = self.arrays[ai as usize].dims.len();
        if ndims == 0 {
            return Err(error::UNDIMENSIONED.into());
        }
        let mut off: u64 = 0;
        for d in 0..ndims {
            let i = self.expr()?;
            let i = self.to_int(i)?;
            let dim = self.arrays[ai as usize].dims[d];
            if i < 0 || i as u32 >= dim {
                return Err(error::SUBSCRIPT.into());
            }
            off = off * dim as u64 + i as u64;
            if d + 1 < ndims {
                self.expect(b',', error::SUBSCRIPT_COUNT)?;
            }
        }
        self.expect(b')', error::MISSING_BRACKET)?;
        let off = off as u32;
        Ok(match ty {
            b'%' => VarRef::IntEl(ai, off),
            b'$' => VarRef::StrEl(ai, off),
            _ => VarRef::FloatEl(ai, off),
        })
    }

    fn check_addr(&self, a: u32, len: usize) -> R<usize> {
        let a = a as usize;
        if a + len <= self.mem.len() {
            Ok(a)
        } else {
            Err(error::ADDRESS.into())
        }
    }

    /// The value of a variable or memory location.
    #[inline(never)]
    fn read(&self, v: VarRef) -> R<Val> {
        // Slots are looked up with `get`: CLEAR inside a FN can remove a variable an
        // expression has already resolved.
        let gone = || Stop::Error(error::NO_SUCH_VARIABLE);
        Ok(match v {
            VarRef::Int(i) => Val::Int(*self.ints.get(i as usize).ok_or_else(gone)?),
            VarRef::Float(i) => Val::Float(*self.floats.get(i as usize).ok_or_else(gone)?),
            VarRef::Str(i) => {
                // Room for the longest string, so `a$=a$+b$` appends without reallocating.
                let s = self.strs.get(i as usize).ok_or_else(gone)?;
                let mut v = Vec::with_capacity(MAX_STRING + 1);
                v.extend_from_slice(s);
                Val::Str(v)
            }
            VarRef::Resident(i) => Val::Int(self.resident[i as usize % 27]),
            VarRef::IntEl(a, o) | VarRef::FloatEl(a, o) | VarRef::StrEl(a, o) => {
                match &self.arrays.get(a as usize).ok_or(Stop::Error(error::ARRAY))?.data {
                    ArrayData::Int(d) => Val::Int(*d.get(o as usize).ok_or(Stop::Error(error::SUBSCRIPT))?),
                    ArrayData::Float(d) => {
                        Val::Float(*d.get(o as usize).ok_or(Stop::Error(error::SUBSCRIPT))?)
                    }
                    ArrayData::Str(d) => {
                        Val::Str(d.get(o as usize).ok_or(Stop::Error(error::SUBSCRIPT))?.clone())
                    }
                }
            }
            VarRef::Byte(a) => Val::Int(self.mem[self.check_addr(a, 1)?] as i32),
            VarRef::Word(a) => {
                let a = self.check_addr(a, 4)?;
                Val::Int(i32::from_le_bytes([
                    self.mem[a],
                    self.mem[a + 1],
                    self.mem[a + 2],
                    self.mem[a + 3],
                ]))
            }
            VarRef::MemStr(a) => {
                let a = self.check_addr(a, 0)?;
                let mut s = Vec::new();
                let mut p = a;
                while p < self.mem.len() && self.mem[p] != 0x0D && s.len() < MAX_STRING {
                    s.push(self.mem[p]);
                    p += 1;
                }
                Val::Str(s)
            }
            VarRef::MemFloat(a) => {
                let a = self.check_addr(a, 8)?;
                let mut b = [0u8; 8];
                b.copy_from_slice(&self.mem[a..a + 8]);
                Val::Float(f64::from_le_bytes(b))
            }
        })
    }

    /// Assigns `val` to `v`, converting numbers as BASIC does (float to integer truncates).
    #[inline]
    fn assign(&mut self, v: VarRef, val: Val) -> R<()> {
        // The common cases first, without the general conversions.
        match (v, &val) {
            (VarRef::Int(i), Val::Int(x)) if (i as usize) < self.ints.len() => {
                self.ints[i as usize] = *x;
                return Ok(());
            }
            (VarRef::Resident(i), Val::Int(x)) if (i as usize) < 27 => {
                self.resident[i as usize] = *x;
                return Ok(());
            }
            (VarRef::Float(i), Val::Float(x)) if (i as usize) < self.floats.len() => {
                self.floats[i as usize] = *x;
                return Ok(());
            }
            (VarRef::IntEl(a, o), Val::Int(x)) => {
                if let Some(ArrayData::Int(d)) = self.arrays.get_mut(a as usize).map(|arr| &mut arr.data)
                    && let Some(e) = d.get_mut(o as usize)
                {
                    *e = *x;
                    return Ok(());
                }
            }
            _ => {}
        }
        self.assign_general(v, val)
    }

    #[inline(never)]
    fn assign_general(&mut self, v: VarRef, val: Val) -> R<()> {
        let gone = || Stop::Error(error::NO_SUCH_VARIABLE);
        match v {
            VarRef::Int(i) => {
                let x = self.to_int(val)?;
                *self.ints.get_mut(i as usize).ok_or_else(gone)? = x;
            }
            VarRef::Resident(0) if matches!(val, Val::Str(_)) => {
                let Val::Str(s) = val else {
                    unreachable!("matched a string")
                };
                self.resident[0] = number::at_from_string(self.resident[0], &s)?;
            }
            VarRef::Resident(i) => self.resident[i as usize % 27] = self.to_int(val)?,
            VarRef::Float(i) => {
                let x = self.to_f64(val)?;
                *self.floats.get_mut(i as usize).ok_or_else(gone)? = x;
            }
            VarRef::Str(i) => {
                let x = self.to_str(val)?;
                *self.strs.get_mut(i as usize).ok_or_else(gone)? = x;
            }
            VarRef::IntEl(a, o) | VarRef::FloatEl(a, o) | VarRef::StrEl(a, o) => {
                let data = match self.arrays.get(a as usize) {
                    Some(arr) => &arr.data,
                    None => return Err(error::ARRAY.into()),
                };
                let val = match data {
                    ArrayData::Int(_) => Val::Int(self.to_int(val)?),
                    ArrayData::Float(_) => Val::Float(self.to_f64(val)?),
                    ArrayData::Str(_) => Val::Str(self.to_str(val)?),
                };
                let o = o as usize;
                let ok = match (&mut self.arrays[a as usize].data, val) {
                    (ArrayData::Int(d), Val::Int(x)) => d.get_mut(o).map(|e| *e = x).is_some(),
                    (ArrayData::Float(d), Val::Float(x)) => d.get_mut(o).map(|e| *e = x).is_some(),
                    (ArrayData::Str(d), Val::Str(x)) => d.get_mut(o).map(|e| *e = x).is_some(),
                    _ => false,
                };
                if !ok {
                    return Err(error::SUBSCRIPT.into());
                }
            }
            VarRef::Byte(a) => {
                let x = self.to_int(val)?;
                let a = self.check_addr(a, 1)?;
                self.poke(a, &[x as u8]);
            }
            VarRef::Word(a) => {
                let x = self.to_int(val)?;
                let a = self.check_addr(a, 4)?;
                self.poke(a, &x.to_le_bytes());
            }
            VarRef::MemStr(a) => {
                let mut s = self.to_str(val)?;
                s.push(0x0D);
                let a = self.check_addr(a, s.len())?;
                self.poke(a, &s);
            }
            VarRef::MemFloat(a) => {
                let x = self.to_f64(val)?;
                let a = self.check_addr(a, 8)?;
                self.poke(a, &x.to_le_bytes());
            }
        }
        Ok(())
    }

    /// Writes memory; a write into the program invalidates what was cached about it.
    fn poke(&mut self, a: usize, bytes: &[u8]) {
        self.mem[a..a + bytes.len()].copy_from_slice(bytes);
        if a < self.top && a + bytes.len() > self.page {
            self.forget(Forget::Program);
        }
    }

    /// The one way the caches kept per program position (and what they refer to) are
    /// invalidated: each kind of change forgets what it makes stale.
    fn forget(&mut self, what: Forget) {
        self.pos.forget(what);
        // Compiled expressions and quickened statements hold variable slots and program bytes:
        // every change drops them.
        self.quicks.clear();
        self.compiled.clear();
        self.ifns.clear();
        self.ffns.clear();
        if what == Forget::Compiled {
            return;
        }
        // The variables formal parameters were bound to (CLEAR and RUN remove variables); the
        // generation tells a call in progress.
        self.formals.iter_mut().for_each(|f| f.var = None);
        self.routines_gen = self.routines_gen.wrapping_add(1);
        if what == Forget::Variables {
            return;
        }
        // What depends only on the program bytes: parsed DEFs, the line table and the PROC/FN
        // index.
        self.routines.clear();
        self.formals.clear();
        self.index_lines();
        self.procs = None;
    }

    fn to_int(&self, v: Val) -> R<i32> {
        match v {
            Val::Int(i) => Ok(i),
            Val::Float(f) => Ok(number::f64_to_i32(f)?),
            Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
        }
    }

    fn to_f64(&self, v: Val) -> R<f64> {
        match v {
            Val::Int(i) => Ok(i as f64),
            Val::Float(f) => Ok(f),
            Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
        }
    }

    fn to_num(&self, v: Val) -> R<Num> {
        match v {
            Val::Int(i) => Ok(Num::Int(i)),
            Val::Float(f) => Ok(Num::Float(f)),
            Val::Str(_) => Err(error::TYPE_MISMATCH.into()),
        }
    }

    fn to_str(&self, v: Val) -> R<Vec<u8>> {
        match v {
            Val::Str(s) => Ok(s),
            _ => Err(error::TYPE_MISMATCH.into()),
        }
    }

    /// Pushes a control stack entry, refusing when the stack is full.
    #[inline(always)]
    fn push(&mut self, f: Frame, too_deep: BasicError) -> R<()> {
        if self.stack.len() >= MAX_STACK {
            return Err(too_deep.into());
        }
        // Inlined, with room certain, and through `extend` (which writes the frame in place):
        // `push` built it on the stack and copied it, a store-forwarding stall on every call.
        if self.stack.len() == self.stack.capacity() {
            self.stack.reserve(64);
        }
        self.stack.extend(std::iter::once(f));
        Ok(())
    }

    /// Saves `v` in a LOCAL frame (its value comes back when the frame is popped), then assigns
    /// `new` to it: PROC/FN parameters and LOCAL.
    #[inline(always)]
    fn push_local(&mut self, v: VarRef, new: Val) -> R<()> {
        // Numbers go straight between their slot and the frame (what read, push and assign
        // below do for them, without the conversions and checks they cannot need). Inlined, and
        // the frame built from the parts matched, so no value goes through memory on the way.
        if self.stack.len() < MAX_STACK {
            let frame = match (v, &new) {
                (VarRef::Float(i), &Val::Float(x)) if (i as usize) < self.floats.len() => {
                    let old = std::mem::replace(&mut self.floats[i as usize], x);
                    Frame::Local {
                        var: VarRef::Float(i),
                        old: Val::Float(old),
                    }
                }
                (VarRef::Float(i), &Val::Int(x)) if (i as usize) < self.floats.len() => {
                    let old = std::mem::replace(&mut self.floats[i as usize], x as f64);
                    Frame::Local {
                        var: VarRef::Float(i),
                        old: Val::Float(old),
                    }
                }
                (VarRef::Int(i), &Val::Int(x)) if (i as usize) < self.ints.len() => {
                    let old = std::mem::replace(&mut self.ints[i as usize], x);
                    Frame::Local {
                        var: VarRef::Int(i),
                        old: Val::Int(old),
                    }
                }
                (VarRef::Resident(i), &Val::Int(x)) if (i as usize) < 27 => {
                    let old = std::mem::replace(&mut self.resident[i as usize], x);
                    Frame::Local {
                        var: VarRef::Resident(i),
                        old: Val::Int(old),
                    }
                }
                _ => return self.push_local_general(v, new),
            };
            // As in `push`.
            if self.stack.len() == self.stack.capacity() {
                self.stack.reserve(64);
            }
            self.stack.extend(std::iter::once(frame));
            return Ok(());
        }
        self.push_local_general(v, new)
    }

    #[inline(never)]
    fn push_local_general(&mut self, v: VarRef, new: Val) -> R<()> {
        let old = match (v, &new) {
            // A string moves into the frame instead of being copied: `new` replaces it anyway,
            // and the assignment of a string to it cannot fail. The push below cannot fail
            // either, so the value is never lost.
            (VarRef::Str(i), Val::Str(_))
                if (i as usize) < self.strs.len() && self.stack.len() < MAX_STACK =>
            {
                Val::Str(std::mem::take(&mut self.strs[i as usize]))
            }
            _ => self.read(v)?,
        };
        self.push(Frame::Local { var: v, old }, error::DEEP_CALL)?;
        self.assign(v, new)
    }

    /// The value of ERR, ERL and REPORT$ for tests and debuggers.
    pub fn last_error(&self) -> (i32, u32, String) {
        (
            self.err,
            self.erl,
            String::from_utf8_lossy(&self.report).into_owned(),
        )
    }

    /// A variable's value by name as a program writes it (`x`, `n%`, `a$`, `A%`), if it exists.
    pub fn variable(&self, name: &str) -> Option<Val> {
        let b = name.as_bytes();
        if b.len() == 2 && b[1] == b'%' && (b[0].is_ascii_uppercase() || b[0] == b'@') {
            let i = if b[0] == b'@' { 0 } else { b[0] - b'A' + 1 };
            return Some(Val::Int(self.resident[i as usize]));
        }
        let v = *self.names.get(b)?;
        self.read(v).ok()
    }

    /// The statement pointer (an address in [`Interp::mem`]).
    pub fn pc(&self) -> usize {
        self.pc
    }

    /// Depth of the control stack (FOR/REPEAT/WHILE/GOSUB/PROC/FN/LOCAL entries).
    pub fn stack_depth(&self) -> usize {
        self.stack.len()
    }
}

/// The bytes EVAL evaluates: the string tokenized as the right-hand side of an expression.
fn eval_tokens(s: &[u8]) -> Vec<u8> {
    crate::tokenize::tokenize_line(s, crate::tokenize::Mode::Strict)
}

/// The result of [`run_text`]: the printable output and how the run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    pub output: String,
    pub outcome: Outcome,
}

/// Tokenizes a text listing, runs it with `input` as its keyboard/stdin and at most `budget`
/// statements, and returns what it printed. For tests, examples and embedding.
pub fn run_text(source: &str, input: &[u8], budget: Option<u64>) -> Result<Transcript, String> {
    run_text_in(source, input, budget, None)
}

/// [`run_text`] for a tokenized program.
pub fn run_bytes(program: &[u8], input: &[u8], budget: Option<u64>) -> Result<Transcript, String> {
    run_bytes_in(program, input, budget, None, false)
}

/// [`run_text`] with files (OPENIN, `*CAT`...) in `dir`.
pub fn run_text_in(
    source: &str,
    input: &[u8],
    budget: Option<u64>,
    dir: Option<&std::path::Path>,
) -> Result<Transcript, String> {
    run_text_with(source, input, budget, dir, false)
}

/// [`run_text_in`], and with `strict` the whole-array forms RISC OS refuses are refused
/// (`retro run --strict`).
pub fn run_text_with(
    source: &str,
    input: &[u8],
    budget: Option<u64>,
    dir: Option<&std::path::Path>,
    strict: bool,
) -> Result<Transcript, String> {
    let program = crate::program::tokenize_program(source, crate::tokenize::Mode::Strict)
        .map_err(|d| d.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join("\n"))?;
    run_bytes_in(&program.to_bytes(), input, budget, dir, strict)
}

fn run_bytes_in(
    program: &[u8],
    input: &[u8],
    budget: Option<u64>,
    dir: Option<&std::path::Path>,
    strict: bool,
) -> Result<Transcript, String> {
    let mut host = host::ScriptHost::new(input);
    host.budget = budget;
    let mut it = Interp::new(program, Box::new(host)).map_err(|e| e.to_string())?;
    it.strict = strict;
    it.set_file_root(dir.map(std::path::Path::to_path_buf));
    let outcome = it.run();
    let mut output = String::new();
    it.vdu.take_text(&mut output);
    Ok(Transcript { output, outcome })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> Transcript {
        run_text(src, b"", Some(1_000_000)).expect("tokenizes")
    }

    #[test]
    fn a_program_that_rewrites_itself_sees_its_new_bytes() {
        // The number constant in line 20 is cached after the first PRINT; poking a new digit into
        // the program must show on the second pass.
        let t = run(
            "10 FOR I=1 TO 2\n20 PRINT 5\n30 P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"5\":?P%=ASC\"7\"\n40 NEXT\n",
        );
        assert_eq!(t.output, "         5\n         7\n");
        assert_eq!(t.outcome, Outcome::Ended);
    }

    #[test]
    fn cached_expressions_behave_like_the_bytes() {
        // Run often enough to be cached; the third pass divides by zero and must raise the
        // error the byte evaluator raises, from the same line.
        let t = run("10 FOR I%=3 TO 1 STEP -1\n20 PRINT 6 DIV (I%-1)+I%*2\n30 NEXT\n");
        assert_eq!(t.output, "         9\n        10\n");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("Division by zero at line 20")
        );
        // A constant inside a cached expression rewritten by the program shows its new value.
        let t = run(
            "10 FOR I=1 TO 3\n20 PRINT I*10+5\n30 P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"5\":?P%=ASC\"7\"\n40 NEXT\n",
        );
        assert_eq!(t.output, "        15\n        27\n        37\n");
        // CLEAR forgets variables: a cached expression must not read the old slots.
        let t = run("10 A=2:B=3\n20 FOR I%=1 TO 3:PRINT A*B+1:NEXT\n30 CLEAR\n40 B=4:A=5\n50 PRINT A*B+1\n");
        assert_eq!(t.output, "         7\n         7\n         7\n        21\n");
        // Array elements and functions in cached expressions; an out-of-range subscript raises
        // the byte evaluator's error.
        let t = run("10 DIM F%(3)\n20 FOR I%=0 TO 4:F%(I%MOD4)=I%:PRINT F%(I%)*2+SQR(4);:NEXT\n");
        assert_eq!(t.output, "         2         4         6         8");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("Subscript out of range at line 20")
        );
    }

    #[test]
    fn errors_report_the_line_they_happened_in() {
        let t = run("10 PRINT 1\n20 GOSUB 100\n30 END\n100 X=1/0\n");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("Division by zero at line 100")
        );
        // A statement that stops at the end of its line still belongs to that line.
        let t = run("10 A=1\n20 NEXT\n30 PRINT 2\n");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("Not in a FOR loop at line 20")
        );
    }

    #[test]
    fn variables_are_created_before_the_right_hand_side_is_read() {
        let t = run("10 d=d:e=e+1:PRINT d;e\n20 PRINT f\n");
        assert_eq!(t.output, "         01\n");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("Unknown or missing variable at line 20")
        );
    }

    #[test]
    fn vdu_statements_queue_their_bytes() {
        // VDU 31,2,1 moves the cursor; the parameters never show as text.
        let t = run("10 VDU 65,31,2,1,66:PRINT POS;\",\";VPOS\n");
        assert_eq!(t.output, "AB         3,1\n");
    }
}
