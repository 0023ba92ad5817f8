//! The CPU state, the step function, interrupts and the register accessors. The instruction
//! decoder and executor live in `exec.rs`.

use crate::bus::Bus;

// Register numbers, as `exec` uses them: each pair's low byte, then its high byte (C B, E D, L H,
// F A, IXL IXH, IYL IYH). The opcodes' 3-bit register numbers are mapped onto these at compile
// time (`exec::m`), and `Cpu::r8`/`Cpu::w8` turn a constant number into a field access. A DD/FD
// prefix only swaps the pair base of HL (4) for IX's (8) or IY's (10).
pub(crate) const C: usize = 0;
pub(crate) const B: usize = 1;
pub(crate) const E: usize = 2;
pub(crate) const D: usize = 3;
pub(crate) const L: usize = 4;
pub(crate) const H: usize = 5;
pub(crate) const F: usize = 6;
pub(crate) const A: usize = 7;
/// Pair bases (the number of the low byte).
pub(crate) const BC: usize = 0;
pub(crate) const DE: usize = 2;
pub(crate) const HL: usize = 4;
pub(crate) const IX: usize = 8;
pub(crate) const IY: usize = 10;

/// Longest chain of DD/FD prefixes executed in one [`Cpu::step`]. Real hardware accepts no
/// interrupt inside a chain, however long; memory filled with DD would otherwise make one step
/// run forever, so past this many prefixes the step returns with the prefix still pending.
const MAX_PREFIX_CHAIN: u32 = 64;

/// A Zilog Z80 (NMOS), exact to the documented and undocumented behaviour that the Fuse,
/// SingleStepTests and ZEXALL suites check.
///
/// Registers are read and written through the accessor methods; the state is plain data and
/// `Clone`, so a debugger can snapshot it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    pub(crate) h: Hot,
    pub(crate) x: Cold,
}

/// The state that most instructions read: the run loop copies it into a local, which the compiler
/// splits into host registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hot {
    // The pairs are whole 16-bit values (most Z80 code addresses memory through them), A and F
    // single bytes.
    pub(crate) bc: u16,
    pub(crate) de: u16,
    pub(crate) hl: u16,
    pub(crate) ix: u16,
    pub(crate) iy: u16,
    pub(crate) a: u8,
    pub(crate) f: u8,
    pub(crate) sp: u16,
    pub(crate) pc: u16,
    /// R counts M1 cycles in all 8 bits here; only the low 7 are R's, bit 7 lives in `Cold::r7`.
    pub(crate) r_count: u8,
    /// Instructions `run_until`'s loop may still execute, 0 outside it. The loop does not count R
    /// on each instruction's first opcode fetch; it adds its budget to `r_count` up front instead,
    /// so that R = `r_count` - `left` at any time.
    pub(crate) left: u64,
    /// What was left of `left` when an instruction in the loop raised `attention`: setting `left`
    /// to 0 ends the loop without a per-instruction test of `attention`.
    pub(crate) parked: u64,
    /// T-states executed since reset (or since the host last set it).
    pub(crate) t: u64,
}

/// The state that instructions rarely read, or write far more often than they read (MEMPTR, Q):
/// it stays in memory while the run loop works, so that it takes no host registers there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cold {
    pub(crate) wz: u16,
    /// The Q latch: F if the last instruction wrote the flags, else 0 (SCF/CCF read it).
    pub(crate) q: u8,
    pub(crate) af_alt: u16,
    pub(crate) bc_alt: u16,
    pub(crate) de_alt: u16,
    pub(crate) hl_alt: u16,
    pub(crate) i: u8,
    pub(crate) r7: u8,
    pub(crate) iff1: bool,
    pub(crate) iff2: bool,
    pub(crate) im: u8,
    pub(crate) halted: bool,
    /// The last instruction was EI: a maskable interrupt is not accepted before the next one.
    pub(crate) ei_last: bool,
    /// The last instruction was LD A,I or LD A,R.
    pub(crate) p: bool,
    pub(crate) int_line: bool,
    pub(crate) nmi_pending: bool,
    /// DD (IX's base, 8) or FD (IY's, 10) still in effect after an over-long prefix chain; 0 when none.
    pub(crate) pending_prefix: u8,
    /// Anything that needs the slow path at the start of a step: halted, a pending NMI, the INT
    /// line asserted, a pending prefix, or the EI / LD A,I/R markers. Recomputed whenever one of
    /// those changes.
    pub(crate) attention: bool,
    /// Flags and MEMPTR of repeating block instructions as Fuse computes them (see
    /// [`Cpu::set_fuse_block_flags`]).
    pub(crate) fuse_block_flags: bool,
}

impl Cold {
    #[inline(always)]
    fn needs_attention(&self) -> bool {
        self.halted || self.nmi_pending || self.int_line || self.pending_prefix != 0 || self.ei_last || self.p
    }
}

/// What the instructions execute on: the hot registers by value (a local of the run loop, or of
/// `step`) and the cold state where it lives, in the `Cpu`.
pub(crate) struct Core<'a> {
    pub(crate) h: Hot,
    pub(crate) x: &'a mut Cold,
}

impl Default for Cpu {
    fn default() -> Self {
        Cpu::new()
    }
}

/// A plain snapshot of every register, for debuggers, tests and conformance harnesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Registers {
    pub af: u16,
    pub bc: u16,
    pub de: u16,
    pub hl: u16,
    pub af_alt: u16,
    pub bc_alt: u16,
    pub de_alt: u16,
    pub hl_alt: u16,
    pub ix: u16,
    pub iy: u16,
    pub sp: u16,
    pub pc: u16,
    /// MEMPTR.
    pub wz: u16,
    pub i: u8,
    pub r: u8,
    pub iff1: bool,
    pub iff2: bool,
    pub im: u8,
    pub halted: bool,
    /// The Q latch (see [`Cpu::q`]).
    pub q: u8,
}

macro_rules! pair {
    ($get:ident, $set:ident, $base:expr, $name:literal) => {
        #[doc = concat!("The ", $name, " register pair.")]
        #[inline]
        pub fn $get(&self) -> u16 {
            self.h.get16($base)
        }
        #[doc = concat!("Sets the ", $name, " register pair.")]
        #[inline]
        pub fn $set(&mut self, v: u16) {
            self.h.set16($base, v)
        }
    };
}

macro_rules! reg8 {
    ($get:ident, $set:ident, $idx:expr, $name:literal) => {
        #[doc = concat!("Register ", $name, ".")]
        #[inline]
        pub fn $get(&self) -> u8 {
            self.h.r8($idx)
        }
        #[doc = concat!("Sets register ", $name, ".")]
        #[inline]
        pub fn $set(&mut self, v: u8) {
            self.h.w8($idx, v)
        }
    };
}

impl Cpu {
    /// The state after a RESET: PC, I, R, IM 0, interrupts disabled, and (as on most real chips)
    /// AF and SP at FFFF, the other registers 0.
    pub fn new() -> Cpu {
        let mut cpu = Cpu {
            h: Hot {
                bc: 0,
                de: 0,
                hl: 0,
                ix: 0,
                iy: 0,
                a: 0,
                f: 0,
                sp: 0xFFFF,
                pc: 0,
                r_count: 0,
                left: 0,
                parked: 0,
                t: 0,
            },
            x: Cold {
                wz: 0,
                q: 0,
                af_alt: 0xFFFF,
                bc_alt: 0,
                de_alt: 0,
                hl_alt: 0,
                i: 0,
                r7: 0,
                iff1: false,
                iff2: false,
                im: 0,
                halted: false,
                ei_last: false,
                p: false,
                int_line: false,
                nmi_pending: false,
                pending_prefix: 0,
                attention: false,
                fuse_block_flags: false,
            },
        };
        cpu.set_af(0xFFFF);
        cpu
    }

    /// RESET: PC, I and R cleared, IM 0, interrupts disabled, HALT left; other registers keep
    /// their values, as on the chip.
    pub fn reset(&mut self) {
        self.h.pc = 0;
        self.x.i = 0;
        self.set_r(0);
        self.x.im = 0;
        self.x.iff1 = false;
        self.x.iff2 = false;
        self.x.halted = false;
        self.x.ei_last = false;
        self.x.pending_prefix = 0;
        self.x.nmi_pending = false;
        self.update_attention();
    }

    reg8!(a, set_a, A, "A");
    reg8!(f, set_f, F, "F (the flags)");
    reg8!(b, set_b, B, "B");
    reg8!(c, set_c, C, "C");
    reg8!(d, set_d, D, "D");
    reg8!(e, set_e, E, "E");
    reg8!(h, set_h, H, "H");
    reg8!(l, set_l, L, "L");
    pair!(bc, set_bc, BC, "BC");
    pair!(de, set_de, DE, "DE");
    pair!(hl, set_hl, HL, "HL");
    pair!(ix, set_ix, IX, "IX");
    pair!(iy, set_iy, IY, "IY");

    /// The AF register pair.
    #[inline]
    pub fn af(&self) -> u16 {
        self.h.af()
    }
    /// Sets the AF register pair.
    #[inline]
    pub fn set_af(&mut self, v: u16) {
        self.h.set_af(v)
    }
    /// The alternate set: AF', BC', DE', HL'.
    pub fn alt(&self) -> [u16; 4] {
        [self.x.af_alt, self.x.bc_alt, self.x.de_alt, self.x.hl_alt]
    }
    /// Sets the alternate set AF', BC', DE', HL'.
    pub fn set_alt(&mut self, v: [u16; 4]) {
        [self.x.af_alt, self.x.bc_alt, self.x.de_alt, self.x.hl_alt] = v;
    }
    /// The stack pointer.
    #[inline]
    pub fn sp(&self) -> u16 {
        self.h.sp
    }
    /// Sets the stack pointer.
    #[inline]
    pub fn set_sp(&mut self, v: u16) {
        self.h.sp = v
    }
    /// The program counter. While halted it points after the HALT instruction.
    #[inline]
    pub fn pc(&self) -> u16 {
        self.h.pc
    }
    /// Sets the program counter.
    #[inline]
    pub fn set_pc(&mut self, v: u16) {
        self.h.pc = v
    }
    /// MEMPTR (also called WZ), the internal address latch that leaks into flags 3 and 5 of
    /// `BIT n,(HL)`.
    #[inline]
    pub fn wz(&self) -> u16 {
        self.x.wz
    }
    /// Sets MEMPTR.
    pub fn set_wz(&mut self, v: u16) {
        self.x.wz = v
    }
    /// The interrupt vector register.
    pub fn i(&self) -> u8 {
        self.x.i
    }
    /// Sets I.
    pub fn set_i(&mut self, v: u8) {
        self.x.i = v
    }
    /// The refresh register: bit 7 as last loaded, bits 0-6 counting M1 cycles.
    #[inline]
    pub fn r(&self) -> u8 {
        (self.h.r_count.wrapping_sub(self.h.left as u8) & 0x7F) | self.x.r7
    }
    /// Sets R.
    pub fn set_r(&mut self, v: u8) {
        self.h.r_count = v.wrapping_add(self.h.left as u8);
        self.x.r7 = v & 0x80;
    }
    /// IFF1 and IFF2.
    pub fn iff(&self) -> (bool, bool) {
        (self.x.iff1, self.x.iff2)
    }
    /// Sets IFF1 and IFF2.
    pub fn set_iff(&mut self, iff1: bool, iff2: bool) {
        self.x.iff1 = iff1;
        self.x.iff2 = iff2;
    }
    /// The interrupt mode, 0, 1 or 2.
    pub fn im(&self) -> u8 {
        self.x.im
    }
    /// Sets the interrupt mode (values above 2 are taken modulo 3's nearest: 3 and up mean 2).
    pub fn set_im(&mut self, mode: u8) {
        self.x.im = mode.min(2)
    }
    /// Whether the CPU is halted (executing internal NOPs until an interrupt).
    pub fn halted(&self) -> bool {
        self.x.halted
    }
    /// Sets or clears the halted state.
    pub fn set_halted(&mut self, halted: bool) {
        self.x.halted = halted;
        self.update_attention();
    }
    /// The Q latch: a copy of F if the last instruction wrote the flags, 0 otherwise. SCF and CCF
    /// take flags 3 and 5 from `(A | (F ^ Q))`.
    pub fn q(&self) -> u8 {
        self.x.q
    }
    /// Sets the Q latch.
    pub fn set_q(&mut self, q: u8) {
        self.x.q = q
    }
    /// Whether the last instruction was EI (a maskable interrupt waits one more instruction).
    pub fn ei_last(&self) -> bool {
        self.x.ei_last
    }
    /// Sets the EI-delay state.
    pub fn set_ei_last(&mut self, v: bool) {
        self.x.ei_last = v;
        self.update_attention();
    }
    /// Whether the last instruction was LD A,I or LD A,R.
    pub fn p(&self) -> bool {
        self.x.p
    }
    /// Sets the LD A,I / LD A,R marker.
    pub fn set_p(&mut self, v: bool) {
        self.x.p = v;
        self.update_attention();
    }
    /// T-states executed since creation (the host may reset it with [`Cpu::set_tstates`]).
    #[inline]
    pub fn tstates(&self) -> u64 {
        self.h.t
    }
    /// Sets the T-state counter.
    pub fn set_tstates(&mut self, t: u64) {
        self.h.t = t
    }

    /// Chooses how a block instruction that repeats (LDIR, CPIR, INIR, OTIR and their decrementing
    /// twins, when they jump back) sets flags 3, 5, H and P/V and MEMPTR. The default, `false`, is
    /// the silicon's behaviour as measured in 2018 and later (PC's high byte in flags 3 and 5, H and
    /// P/V adjusted for INIR/OTIR, MEMPTR = PC + 1), which SingleStepTests and ZEXALL agree with.
    /// `true` gives the older model in the Fuse test suite's expectations, where a repeating
    /// instruction sets the flags exactly as its single form. Only the Fuse harness needs it.
    pub fn set_fuse_block_flags(&mut self, fuse: bool) {
        self.x.fuse_block_flags = fuse;
    }

    /// All registers at once.
    pub fn registers(&self) -> Registers {
        Registers {
            af: self.af(),
            bc: self.bc(),
            de: self.de(),
            hl: self.hl(),
            af_alt: self.x.af_alt,
            bc_alt: self.x.bc_alt,
            de_alt: self.x.de_alt,
            hl_alt: self.x.hl_alt,
            ix: self.ix(),
            iy: self.iy(),
            sp: self.h.sp,
            pc: self.h.pc,
            wz: self.x.wz,
            i: self.x.i,
            r: self.r(),
            iff1: self.x.iff1,
            iff2: self.x.iff2,
            im: self.x.im,
            halted: self.x.halted,
            q: self.x.q,
        }
    }

    /// Sets every register from a snapshot.
    pub fn set_registers(&mut self, r: &Registers) {
        self.set_af(r.af);
        self.set_bc(r.bc);
        self.set_de(r.de);
        self.set_hl(r.hl);
        self.set_alt([r.af_alt, r.bc_alt, r.de_alt, r.hl_alt]);
        self.set_ix(r.ix);
        self.set_iy(r.iy);
        self.h.sp = r.sp;
        self.h.pc = r.pc;
        self.x.wz = r.wz;
        self.x.i = r.i;
        self.set_r(r.r);
        self.x.iff1 = r.iff1;
        self.x.iff2 = r.iff2;
        self.set_im(r.im);
        self.x.halted = r.halted;
        self.x.q = r.q;
        self.update_attention();
    }

    /// Drives the maskable interrupt line (level-triggered, as on the chip): while it is asserted
    /// and IFF1 is set, the CPU takes the interrupt at the next instruction boundary. The device
    /// usually releases it when acknowledged ([`Bus::int_ack`]).
    pub fn set_int_line(&mut self, asserted: bool) {
        self.x.int_line = asserted;
        self.update_attention();
    }
    /// Whether the INT line is asserted.
    pub fn int_line(&self) -> bool {
        self.x.int_line
    }
    /// A falling edge on NMI: the CPU takes the non-maskable interrupt at the next instruction
    /// boundary.
    pub fn trigger_nmi(&mut self) {
        self.x.nmi_pending = true;
        self.update_attention();
    }

    #[inline(always)]
    pub(crate) fn update_attention(&mut self) {
        self.x.attention = self.x.needs_attention();
    }

    /// Executes one instruction (a whole prefix chain and its opcode count as one), one internal
    /// NOP while halted, or the acceptance of an interrupt. Returns the T-states it took.
    #[inline(always)]
    pub fn step<BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        let mut c = Core {
            h: self.h,
            x: &mut self.x,
        };
        let t = c.step(bus);
        self.h = c.h;
        t
    }

    /// Runs until at least `tstates` more T-states have passed (the last instruction completes)
    /// and returns how many did.
    pub fn run<BUS: Bus>(&mut self, bus: &mut BUS, tstates: u64) -> u64 {
        let start = self.h.t;
        let end = start + tstates;
        while self.h.t < end {
            self.step(bus);
        }
        self.h.t - start
    }

    /// Executes instructions until `stop(pc)` is true before an instruction or `max` instructions
    /// have run; returns how many ran. The same as calling [`Cpu::step`] in a loop with that test,
    /// only faster: the common path runs on a `Core` whose hot registers are a local, which the
    /// compiler keeps in host registers (or stack slots no bus access can alias), while MEMPTR, Q
    /// and the rest of the cold state stay in the `Cpu`. Per instruction the loop only tests `stop`,
    /// counts down its budget (which also stands in for R's count of first opcode fetches, see
    /// `Hot::left`) and dispatches; an instruction that needs the slow path before the next one
    /// (EI, HALT, LD A,I/R, an over-long prefix chain) parks the budget, which ends the loop.
    #[inline(always)]
    pub fn run_until<BUS: Bus>(&mut self, bus: &mut BUS, max: u64, mut stop: impl FnMut(u16) -> bool) -> u64 {
        let mut n = 0;
        while n < max {
            if stop(self.h.pc) {
                break;
            }
            if self.x.attention {
                self.step_outlined(bus);
                n += 1;
                continue;
            }
            let mut c = Core {
                h: self.h,
                x: &mut self.x,
            };
            let mut stopped = false;
            c.h.left = max - n;
            c.h.r_count = c.h.r_count.wrapping_add(c.h.left as u8);
            while c.h.left != 0 {
                if stop(c.h.pc) {
                    stopped = true;
                    break;
                }
                c.h.left -= 1;
                let prev_q = c.x.q;
                c.x.q = 0;
                let op = bus.fetch(c.h.pc);
                c.h.pc = c.h.pc.wrapping_add(1);
                c.h.t += c.exec::<BUS, HL, true>(bus, op, prev_q) as u64;
            }
            c.h.r_count = c.h.r_count.wrapping_sub(c.h.left as u8);
            n = max - c.h.left - c.h.parked;
            c.h.left = 0;
            c.h.parked = 0;
            self.h = c.h;
            if stopped {
                break;
            }
        }
        n
    }

    #[inline(never)]
    fn step_outlined<BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        self.step(bus)
    }
}

impl Hot {
    /// Pair `base` (BC, DE, HL, IX or IY), a constant after inlining.
    #[inline(always)]
    pub(crate) fn get16(&self, base: usize) -> u16 {
        match base {
            BC => self.bc,
            DE => self.de,
            HL => self.hl,
            IX => self.ix,
            _ => self.iy,
        }
    }
    #[inline(always)]
    pub(crate) fn set16(&mut self, base: usize, v: u16) {
        match base {
            BC => self.bc = v,
            DE => self.de = v,
            HL => self.hl = v,
            IX => self.ix = v,
            _ => self.iy = v,
        }
    }
    /// Register number `i` (see the constants above), a constant after inlining.
    #[inline(always)]
    pub(crate) fn r8(&self, i: usize) -> u8 {
        match i {
            F => self.f,
            A => self.a,
            _ => {
                let pair = self.get16(i & !1);
                if i & 1 == 0 { pair as u8 } else { (pair >> 8) as u8 }
            }
        }
    }
    #[inline(always)]
    pub(crate) fn w8(&mut self, i: usize, v: u8) {
        match i {
            F => self.f = v,
            A => self.a = v,
            _ => {
                let pair = self.get16(i & !1);
                let pair = if i & 1 == 0 {
                    (pair & 0xFF00) | v as u16
                } else {
                    (pair & 0x00FF) | (v as u16) << 8
                };
                self.set16(i & !1, pair)
            }
        }
    }
    /// Register number `r` of an opcode field (B C D E H L F A, never substituted), through a match so
    /// that the registers of a local copy of the CPU can live in host registers.
    #[inline(always)]
    pub(crate) fn get_r8(&self, r: usize) -> u8 {
        match r & 7 {
            0 => self.r8(B),
            1 => self.r8(C),
            2 => self.r8(D),
            3 => self.r8(E),
            4 => self.r8(H),
            5 => self.r8(L),
            6 => self.f,
            _ => self.a,
        }
    }
    #[inline(always)]
    pub(crate) fn set_r8(&mut self, r: usize, v: u8) {
        match r & 7 {
            0 => self.w8(B, v),
            1 => self.w8(C, v),
            2 => self.w8(D, v),
            3 => self.w8(E, v),
            4 => self.w8(H, v),
            5 => self.w8(L, v),
            6 => self.f = v,
            _ => self.a = v,
        }
    }

    #[inline(always)]
    pub(crate) fn af(&self) -> u16 {
        u16::from_be_bytes([self.a, self.f])
    }
    #[inline(always)]
    pub(crate) fn set_af(&mut self, v: u16) {
        let [a, f] = v.to_be_bytes();
        self.a = a;
        self.f = f;
    }
}

impl Core<'_> {
    /// [`Cpu::step`] on the core.
    #[inline(always)]
    pub(crate) fn step<BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        if self.x.attention
            && let Some(t) = self.slow_step(bus)
        {
            self.h.t += t as u64;
            return t;
        }
        // (EI and LD A,I/R raise `attention`, so their markers are cleared on the slow path and
        // the common path does not have to.)
        let prev_q = self.x.q;
        self.x.q = 0;
        let op = self.fetch_op(bus);
        let t = self.exec::<BUS, HL, false>(bus, op, prev_q);
        self.h.t += t as u64;
        t
    }

    #[inline(always)]
    pub(crate) fn update_attention(&mut self) {
        self.x.attention = self.x.needs_attention();
        if self.x.attention {
            self.park_left();
        }
    }

    /// Raises `attention` (for EI and LD A,I/R).
    #[inline(always)]
    pub(crate) fn raise_attention(&mut self) {
        self.x.attention = true;
        self.park_left();
    }

    /// Ends `run_until`'s loop after this instruction (see `Hot::parked`).
    #[inline(always)]
    fn park_left(&mut self) {
        self.h.r_count = self.h.r_count.wrapping_sub(self.h.left as u8);
        self.h.parked += self.h.left;
        self.h.left = 0;
    }

    /// R (see [`Cpu::r`]).
    #[inline(always)]
    pub(crate) fn r(&self) -> u8 {
        (self.h.r_count.wrapping_sub(self.h.left as u8) & 0x7F) | self.x.r7
    }
    /// Sets R.
    #[inline(always)]
    pub(crate) fn set_r(&mut self, v: u8) {
        self.h.r_count = v.wrapping_add(self.h.left as u8);
        self.x.r7 = v & 0x80;
    }

    /// Interrupts, HALT and pending prefixes. Returns `Some(t)` when the step is done, `None` when
    /// a normal instruction should follow.
    #[cold]
    #[inline(never)]
    fn slow_step<BUS: Bus>(&mut self, bus: &mut BUS) -> Option<u32> {
        if self.x.pending_prefix != 0 {
            // Still inside a DD/FD chain: no interrupt can be taken here.
            let xh = self.x.pending_prefix as usize;
            self.x.pending_prefix = 0;
            let prev_q = self.x.q;
            self.x.q = 0;
            self.x.ei_last = false;
            self.x.p = false;
            self.update_attention();
            return Some(self.prefix_chain(bus, xh, prev_q) - 4);
        }
        if self.x.nmi_pending {
            self.x.nmi_pending = false;
            self.leave_halt();
            self.x.ei_last = false;
            self.x.p = false;
            self.x.q = 0;
            self.h.r_count = self.h.r_count.wrapping_add(1);
            self.x.iff1 = false;
            // M1 (5 T, opcode ignored) then the two pushes.
            self.push(bus, self.h.pc);
            self.h.pc = 0x0066;
            self.x.wz = 0x0066;
            self.update_attention();
            return Some(11);
        }
        if self.x.int_line && self.x.iff1 && !self.x.ei_last {
            self.leave_halt();
            self.x.iff1 = false;
            self.x.iff2 = false;
            self.x.q = 0;
            self.x.p = false;
            self.h.r_count = self.h.r_count.wrapping_add(1);
            let data = bus.int_ack();
            let t = match self.x.im {
                0 => {
                    // The device supplies an instruction; in practice always an RST. Anything
                    // else is treated as RST 38h (what a floating bus, FFh, gives).
                    let target = if data & 0xC7 == 0xC7 {
                        (data & 0x38) as u16
                    } else {
                        0x38
                    };
                    self.push(bus, self.h.pc);
                    self.h.pc = target;
                    self.x.wz = target;
                    13
                }
                1 => {
                    self.push(bus, self.h.pc);
                    self.h.pc = 0x0038;
                    self.x.wz = 0x0038;
                    13
                }
                _ => {
                    self.push(bus, self.h.pc);
                    let vector = u16::from_be_bytes([self.x.i, data]);
                    self.h.pc = self.read16(bus, vector);
                    self.x.wz = self.h.pc;
                    19
                }
            };
            self.update_attention();
            return Some(t);
        }
        if self.x.halted {
            // HALT executes NOPs: an M1 cycle each, so R keeps counting.
            self.h.r_count = self.h.r_count.wrapping_add(1);
            self.x.ei_last = false;
            self.x.p = false;
            self.x.q = 0;
            return Some(4);
        }
        // A normal instruction follows: the previous one's EI and LD A,I/R markers expire.
        self.x.ei_last = false;
        self.x.p = false;
        self.update_attention();
        None
    }

    fn leave_halt(&mut self) {
        self.x.halted = false;
    }

    /// DD/FD prefix handling: `xh` is the pair base of IX (8) or IY (10). Fetches the
    /// opcode after the prefix (and any further prefixes) and executes it. The returned T-states
    /// include the first prefix's 4.
    #[inline(never)]
    pub(crate) fn prefix_chain<BUS: Bus>(&mut self, bus: &mut BUS, xh: usize, prev_q: u8) -> u32 {
        self.prefix_chain_body::<BUS, false>(bus, xh, prev_q)
    }

    /// [`Cpu::prefix_chain`], inlined into the caller when `INL` (the run loop).
    #[inline(always)]
    pub(crate) fn prefix_chain_body<BUS: Bus, const INL: bool>(
        &mut self,
        bus: &mut BUS,
        mut xh: usize,
        prev_q: u8,
    ) -> u32 {
        let mut t = 4;
        for _ in 0..MAX_PREFIX_CHAIN {
            let op = self.fetch_op(bus);
            match op {
                0xDD => xh = IX,
                0xFD => xh = IY,
                _ => {
                    return t + if xh == IX {
                        self.exec::<BUS, IX, INL>(bus, op, prev_q)
                    } else {
                        self.exec::<BUS, IY, INL>(bus, op, prev_q)
                    };
                }
            }
            t += 4;
        }
        self.x.pending_prefix = xh as u8;
        self.update_attention();
        t
    }

    // ----- bus helpers -----

    #[inline(always)]
    pub(crate) fn fetch_op<BUS: Bus>(&mut self, bus: &mut BUS) -> u8 {
        let op = bus.fetch(self.h.pc);
        self.h.pc = self.h.pc.wrapping_add(1);
        self.h.r_count = self.h.r_count.wrapping_add(1);
        op
    }
    #[inline(always)]
    pub(crate) fn imm8<BUS: Bus>(&mut self, bus: &mut BUS) -> u8 {
        let v = bus.read(self.h.pc);
        self.h.pc = self.h.pc.wrapping_add(1);
        v
    }
    #[inline(always)]
    pub(crate) fn imm16<BUS: Bus>(&mut self, bus: &mut BUS) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        u16::from_le_bytes([lo, hi])
    }
    #[inline(always)]
    pub(crate) fn read16<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16) -> u16 {
        let lo = bus.read(addr);
        let hi = bus.read(addr.wrapping_add(1));
        u16::from_le_bytes([lo, hi])
    }
    #[inline(always)]
    pub(crate) fn write16<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        bus.write(addr, lo);
        bus.write(addr.wrapping_add(1), hi);
    }
    #[inline(always)]
    pub(crate) fn push<BUS: Bus>(&mut self, bus: &mut BUS, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        let sp = self.h.sp.wrapping_sub(2);
        self.h.sp = sp;
        bus.write(sp.wrapping_add(1), hi);
        bus.write(sp, lo);
    }
    #[inline(always)]
    pub(crate) fn pop<BUS: Bus>(&mut self, bus: &mut BUS) -> u16 {
        let sp = self.h.sp;
        self.h.sp = sp.wrapping_add(2);
        let lo = bus.read(sp);
        let hi = bus.read(sp.wrapping_add(1));
        u16::from_le_bytes([lo, hi])
    }
}
