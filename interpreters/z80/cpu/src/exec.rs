//! Decode and execute. Opcodes are matched on their byte, following the x/y/z/p/q structure of
//! z80.info's "Decoding Z80 opcodes" (x = bits 7-6, y = 5-3, z = 2-0, p = y >> 1, q = y & 1).
//! Each arm's comment gives the mnemonic and the T-states. `XH` is a const generic, the pair base
//! of HL: 4 for unprefixed code, 8 (IX) after DD, 10 (IY) after FD, so each prefix gets its own
//! monomorphised copy of the main table with the H/L substitutions folded in.
//!
//! T-states returned by `exec` exclude the prefix bytes (the caller adds 4 per prefix).

use crate::bus::Bus;
use crate::cpu::{A, B, BC, C, Core, D, DE, E, F, H, HL, IX, IY, L};
use crate::flags::{CF, HF, NF, PF, SF, SZ53, SZ53P, XF, YF, ZF};

/// The `Cpu::reg` index of opcode register number `r` (B C D E H L (HL) A), with H and L replaced
/// by the halves of IX or IY when `XH` is their pair base.
#[inline(always)]
const fn m<const XH: usize>(r: usize) -> usize {
    match r {
        0 => B,
        1 => C,
        2 => D,
        3 => E,
        4 => {
            if XH == HL {
                H
            } else {
                XH + 1
            }
        }
        5 => {
            if XH == HL {
                L
            } else {
                XH
            }
        }
        6 => F,
        _ => A,
    }
}

impl Core<'_> {
    #[inline(always)]
    fn setf(&mut self, f: u8) {
        self.h.f = f;
        self.x.q = f;
    }

    /// The end of LDI/LDD/CPI/CPD and their repeating forms: when the instruction repeats, PC
    /// steps back onto it, MEMPTR follows, and (on the real chip) PC's high byte lands in flags 3
    /// and 5. Returns the T-states after the ED prefix: 17 repeating, 12 not.
    #[inline(always)]
    fn finish_ld_cp_block(&mut self, mut f: u8, repeat: bool) -> u32 {
        if repeat {
            self.h.pc = self.h.pc.wrapping_sub(2);
            self.x.wz = self.h.pc.wrapping_add(1);
            if !self.x.fuse_block_flags {
                f = (f & !(XF | YF)) | ((self.h.pc >> 8) as u8 & (XF | YF));
            }
        }
        self.setf(f);
        if repeat { 17 } else { 12 }
    }

    /// Condition code `y` (NZ Z NC C PO PE P M).
    #[inline(always)]
    fn cond(&self, y: u8) -> bool {
        const MASK: [u8; 4] = [ZF, CF, PF, SF];
        ((self.h.f & MASK[(y >> 1) as usize]) != 0) == (y & 1 != 0)
    }

    /// HL, IX or IY.
    #[inline(always)]
    fn xy<const XH: usize>(&self) -> u16 {
        self.h.get16(XH)
    }

    /// Register pair `p` of the BC/DE/HL/SP table.
    #[inline(always)]
    fn rp<const XH: usize>(&self, p: u8) -> u16 {
        match p {
            0 => self.h.get16(BC),
            1 => self.h.get16(DE),
            2 => self.h.get16(XH),
            _ => self.h.sp,
        }
    }
    #[inline(always)]
    fn set_rp<const XH: usize>(&mut self, p: u8, v: u16) {
        match p {
            0 => self.h.set16(BC, v),
            1 => self.h.set16(DE, v),
            2 => self.h.set16(XH, v),
            _ => self.h.sp = v,
        }
    }
    /// Register pair `p` of the BC/DE/HL/AF table (PUSH/POP).
    #[inline(always)]
    fn rp2<const XH: usize>(&self, p: u8) -> u16 {
        match p {
            0 => self.h.get16(BC),
            1 => self.h.get16(DE),
            2 => self.h.get16(XH),
            _ => self.h.af(),
        }
    }
    #[inline(always)]
    fn set_rp2<const XH: usize>(&mut self, p: u8, v: u16) {
        match p {
            0 => self.h.set16(BC, v),
            1 => self.h.set16(DE, v),
            2 => self.h.set16(XH, v),
            _ => self.h.set_af(v),
        }
    }

    /// The address of the `(HL)` operand: HL, or IX/IY plus a displacement fetched now (which also
    /// sets MEMPTR).
    #[inline(always)]
    fn mem_addr<const XH: usize, BUS: Bus>(&mut self, bus: &mut BUS) -> u16 {
        if XH == HL {
            self.h.get16(HL)
        } else {
            let d = self.imm8(bus) as i8;
            let addr = self.h.get16(XH).wrapping_add(d as u16);
            self.x.wz = addr;
            addr
        }
    }

    /// Extra T-states of an `(IX+d)` operand over `(HL)`.
    const fn idx_extra<const XH: usize>() -> u32 {
        if XH == HL { 0 } else { 8 }
    }

    // ----- 8-bit arithmetic and logic -----

    #[inline(always)]
    fn add8(&mut self, v: u8, carry: u8) {
        let a = self.h.a;
        let res = a as u16 + v as u16 + carry as u16;
        let r = res as u8;
        let f = SZ53[r as usize]
            | ((res >> 8) as u8 & CF)
            | ((a ^ v ^ r) & HF)
            | ((((a ^ !v) & (a ^ r)) & 0x80) >> 5);
        self.h.a = r;
        self.setf(f);
    }
    #[inline(always)]
    fn sub8(&mut self, v: u8, carry: u8) -> u8 {
        let a = self.h.a;
        let res = (a as u16).wrapping_sub(v as u16).wrapping_sub(carry as u16);
        let r = res as u8;
        let f = SZ53[r as usize]
            | NF
            | ((res >> 8) as u8 & CF)
            | ((a ^ v ^ r) & HF)
            | ((((a ^ v) & (a ^ r)) & 0x80) >> 5);
        self.setf(f);
        r
    }
    #[inline(always)]
    fn alu(&mut self, y: u8, v: u8) {
        match y {
            0 => self.add8(v, 0),
            1 => self.add8(v, self.h.f & CF),
            2 => self.h.a = self.sub8(v, 0),
            3 => self.h.a = self.sub8(v, self.h.f & CF),
            4 => {
                let r = self.h.a & v;
                self.h.a = r;
                self.setf(SZ53P[r as usize] | HF);
            }
            5 => {
                let r = self.h.a ^ v;
                self.h.a = r;
                self.setf(SZ53P[r as usize]);
            }
            6 => {
                let r = self.h.a | v;
                self.h.a = r;
                self.setf(SZ53P[r as usize]);
            }
            _ => self.cp(v),
        }
    }
    #[inline(always)]
    fn cp(&mut self, v: u8) {
        self.sub8(v, 0);
        // CP takes flags 3 and 5 from the operand, not the result.
        let f = (self.h.f & !(XF | YF)) | (v & (XF | YF));
        self.setf(f);
    }
    #[inline(always)]
    fn inc8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        let f = (self.h.f & CF)
            | SZ53[r as usize]
            | if r & 0x0F == 0 { HF } else { 0 }
            | if r == 0x80 { PF } else { 0 };
        self.setf(f);
        r
    }
    #[inline(always)]
    fn dec8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        let f = (self.h.f & CF)
            | NF
            | SZ53[r as usize]
            | if r & 0x0F == 0x0F { HF } else { 0 }
            | if r == 0x7F { PF } else { 0 };
        self.setf(f);
        r
    }

    // ----- 16-bit arithmetic -----

    #[inline(always)]
    fn add16(&mut self, a: u16, v: u16) -> u16 {
        let res = a as u32 + v as u32;
        let r = res as u16;
        self.x.wz = a.wrapping_add(1);
        let f = (self.h.f & (SF | ZF | PF))
            | ((r >> 8) as u8 & (XF | YF))
            | ((((a ^ v ^ r) >> 8) as u8) & HF)
            | (res >> 16) as u8;
        self.setf(f);
        r
    }
    #[inline(always)]
    fn adc16(&mut self, v: u16) {
        let a = self.h.get16(HL);
        let res = a as u32 + v as u32 + (self.h.f & CF) as u32;
        let r = res as u16;
        self.x.wz = a.wrapping_add(1);
        let f = ((r >> 8) as u8 & (SF | XF | YF))
            | if r == 0 { ZF } else { 0 }
            | ((((a ^ v ^ r) >> 8) as u8) & HF)
            | (((((a ^ !v) & (a ^ r)) >> 15) as u8) << 2)
            | (res >> 16) as u8;
        self.h.set16(HL, r);
        self.setf(f);
    }
    #[inline(always)]
    fn sbc16(&mut self, v: u16) {
        let a = self.h.get16(HL);
        let res = (a as u32)
            .wrapping_sub(v as u32)
            .wrapping_sub((self.h.f & CF) as u32);
        let r = res as u16;
        self.x.wz = a.wrapping_add(1);
        let f = ((r >> 8) as u8 & (SF | XF | YF))
            | NF
            | if r == 0 { ZF } else { 0 }
            | ((((a ^ v ^ r) >> 8) as u8) & HF)
            | (((((a ^ v) & (a ^ r)) >> 15) as u8) << 2)
            | ((res >> 16) as u8 & CF);
        self.h.set16(HL, r);
        self.setf(f);
    }

    // ----- rotates and shifts (CB page) -----

    /// Rotate/shift `y` of the CB page (RLC RRC RL RR SLA SRA SLL SRL) with full flags.
    #[inline(always)]
    fn rot(&mut self, y: u8, v: u8) -> u8 {
        let c = self.h.f & CF;
        let (r, carry) = match y {
            0 => (v.rotate_left(1), v >> 7),
            1 => (v.rotate_right(1), v & 1),
            2 => ((v << 1) | c, v >> 7),
            3 => ((v >> 1) | (c << 7), v & 1),
            4 => (v << 1, v >> 7),
            5 => ((v >> 1) | (v & 0x80), v & 1),
            6 => ((v << 1) | 1, v >> 7),
            _ => (v >> 1, v & 1),
        };
        self.setf(SZ53P[r as usize] | carry);
        r
    }

    /// BIT n: `xy_src` supplies flags 3 and 5 (the operand for registers, MEMPTR's high byte for
    /// memory operands).
    #[inline(always)]
    fn bit(&mut self, n: u8, v: u8, xy_src: u8) {
        let b = v & (1 << n);
        let mut f = (self.h.f & CF) | HF | (xy_src & (XF | YF));
        if b == 0 {
            f |= ZF | PF;
        }
        if b & 0x80 != 0 {
            f |= SF;
        }
        self.setf(f);
    }

    #[inline(always)]
    fn ret<BUS: Bus>(&mut self, bus: &mut BUS) {
        self.h.pc = self.pop(bus);
        self.x.wz = self.h.pc;
    }

    // ----- the main table -----

    /// Executes unprefixed opcode `op` (or, with `XH` = IX/IY, the opcode after DD/FD).
    ///
    /// Dispatches to [`Cpu::exec_op`] instantiated for each opcode value, so that the opcode
    /// fields (register numbers, conditions, ALU operation) are constants in every arm and each
    /// opcode compiles to straight-line code with no second dispatch.
    #[inline(always)]
    pub(crate) fn exec<BUS: Bus, const XH: usize, const INL: bool>(
        &mut self,
        bus: &mut BUS,
        op: u8,
        prev_q: u8,
    ) -> u32 {
        macro_rules! dispatch {
            ($($n:literal)*) => {
                match op { $($n => self.exec_op::<BUS, XH, INL, $n>(bus, prev_q),)* }
            };
        }
        dispatch!(
            0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F
            0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F
            0x20 0x21 0x22 0x23 0x24 0x25 0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F
            0x30 0x31 0x32 0x33 0x34 0x35 0x36 0x37 0x38 0x39 0x3A 0x3B 0x3C 0x3D 0x3E 0x3F
            0x40 0x41 0x42 0x43 0x44 0x45 0x46 0x47 0x48 0x49 0x4A 0x4B 0x4C 0x4D 0x4E 0x4F
            0x50 0x51 0x52 0x53 0x54 0x55 0x56 0x57 0x58 0x59 0x5A 0x5B 0x5C 0x5D 0x5E 0x5F
            0x60 0x61 0x62 0x63 0x64 0x65 0x66 0x67 0x68 0x69 0x6A 0x6B 0x6C 0x6D 0x6E 0x6F
            0x70 0x71 0x72 0x73 0x74 0x75 0x76 0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D 0x7E 0x7F
            0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87 0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F
            0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98 0x99 0x9A 0x9B 0x9C 0x9D 0x9E 0x9F
            0xA0 0xA1 0xA2 0xA3 0xA4 0xA5 0xA6 0xA7 0xA8 0xA9 0xAA 0xAB 0xAC 0xAD 0xAE 0xAF
            0xB0 0xB1 0xB2 0xB3 0xB4 0xB5 0xB6 0xB7 0xB8 0xB9 0xBA 0xBB 0xBC 0xBD 0xBE 0xBF
            0xC0 0xC1 0xC2 0xC3 0xC4 0xC5 0xC6 0xC7 0xC8 0xC9 0xCA 0xCB 0xCC 0xCD 0xCE 0xCF
            0xD0 0xD1 0xD2 0xD3 0xD4 0xD5 0xD6 0xD7 0xD8 0xD9 0xDA 0xDB 0xDC 0xDD 0xDE 0xDF
            0xE0 0xE1 0xE2 0xE3 0xE4 0xE5 0xE6 0xE7 0xE8 0xE9 0xEA 0xEB 0xEC 0xED 0xEE 0xEF
            0xF0 0xF1 0xF2 0xF3 0xF4 0xF5 0xF6 0xF7 0xF8 0xF9 0xFA 0xFB 0xFC 0xFD 0xFE 0xFF
        )
    }

    /// The main table, for one opcode `OP` known at compile time.
    #[inline(always)]
    fn exec_op<BUS: Bus, const XH: usize, const INL: bool, const OP: u8>(
        &mut self,
        bus: &mut BUS,
        prev_q: u8,
    ) -> u32 {
        let op = OP;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let p = y >> 1;
        match op {
            // NOP, 4
            0x00 => 4,
            // LD rp,nn, 10
            0x01 | 0x11 | 0x21 | 0x31 => {
                let v = self.imm16(bus);
                self.set_rp::<XH>(p, v);
                10
            }
            // LD (BC),A / LD (DE),A, 7
            0x02 | 0x12 => {
                let addr = self.rp::<XH>(p);
                bus.write(addr, self.h.a);
                self.x.wz = u16::from_be_bytes([self.h.a, addr.wrapping_add(1) as u8]);
                7
            }
            // INC rp, 6
            0x03 | 0x13 | 0x23 | 0x33 => {
                let v = self.rp::<XH>(p).wrapping_add(1);
                self.set_rp::<XH>(p, v);
                6
            }
            // DEC rp, 6
            0x0B | 0x1B | 0x2B | 0x3B => {
                let v = self.rp::<XH>(p).wrapping_sub(1);
                self.set_rp::<XH>(p, v);
                6
            }
            // INC (HL), 11; INC (IX+d), 19 after the prefix
            0x34 => {
                let addr = self.mem_addr::<XH, BUS>(bus);
                let v = bus.read(addr);
                let r = self.inc8(v);
                bus.write(addr, r);
                11 + Self::idx_extra::<XH>()
            }
            // DEC (HL), 11
            0x35 => {
                let addr = self.mem_addr::<XH, BUS>(bus);
                let v = bus.read(addr);
                let r = self.dec8(v);
                bus.write(addr, r);
                11 + Self::idx_extra::<XH>()
            }
            // INC r, 4
            0x04 | 0x0C | 0x14 | 0x1C | 0x24 | 0x2C | 0x3C => {
                let i = m::<XH>(y as usize);
                let r = self.inc8(self.h.r8(i));
                self.h.w8(i, r);
                4
            }
            // DEC r, 4
            0x05 | 0x0D | 0x15 | 0x1D | 0x25 | 0x2D | 0x3D => {
                let i = m::<XH>(y as usize);
                let r = self.dec8(self.h.r8(i));
                self.h.w8(i, r);
                4
            }
            // LD (HL),n, 10; LD (IX+d),n, 15 after the prefix (d and n overlap the internal cycles)
            0x36 => {
                let addr = self.mem_addr::<XH, BUS>(bus);
                let v = self.imm8(bus);
                bus.write(addr, v);
                if XH == HL { 10 } else { 15 }
            }
            // LD r,n, 7
            0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x3E => {
                let v = self.imm8(bus);
                self.h.w8(m::<XH>(y as usize), v);
                7
            }
            // RLCA, 4
            0x07 => {
                let a = self.h.a.rotate_left(1);
                self.h.a = a;
                self.setf((self.h.f & (SF | ZF | PF)) | (a & (XF | YF | CF)));
                4
            }
            // RRCA, 4
            0x0F => {
                let old = self.h.a;
                let a = old.rotate_right(1);
                self.h.a = a;
                self.setf((self.h.f & (SF | ZF | PF)) | (a & (XF | YF)) | (old & CF));
                4
            }
            // RLA, 4
            0x17 => {
                let old = self.h.a;
                let a = (old << 1) | (self.h.f & CF);
                self.h.a = a;
                self.setf((self.h.f & (SF | ZF | PF)) | (a & (XF | YF)) | (old >> 7));
                4
            }
            // RRA, 4
            0x1F => {
                let old = self.h.a;
                let a = (old >> 1) | ((self.h.f & CF) << 7);
                self.h.a = a;
                self.setf((self.h.f & (SF | ZF | PF)) | (a & (XF | YF)) | (old & CF));
                4
            }
            // EX AF,AF', 4
            0x08 => {
                let af = self.h.af();
                self.h.set_af(self.x.af_alt);
                self.x.af_alt = af;
                4
            }
            // ADD HL,rp, 11
            0x09 | 0x19 | 0x29 | 0x39 => {
                let a = self.xy::<XH>();
                let v = self.rp::<XH>(p);
                let r = self.add16(a, v);
                self.h.set16(XH, r);
                11
            }
            // LD A,(BC) / LD A,(DE), 7
            0x0A | 0x1A => {
                let addr = self.rp::<XH>(p);
                self.h.a = bus.read(addr);
                self.x.wz = addr.wrapping_add(1);
                7
            }
            // DJNZ e, 13 taken / 8
            // (Not taken, the displacement's read cycle is not reported to the bus, as in Fuse.)
            0x10 => {
                let b = self.h.r8(B).wrapping_sub(1);
                self.h.w8(B, b);
                if b != 0 {
                    let d = self.imm8(bus) as i8;
                    self.h.pc = self.h.pc.wrapping_add(d as u16);
                    self.x.wz = self.h.pc;
                    13
                } else {
                    self.h.pc = self.h.pc.wrapping_add(1);
                    8
                }
            }
            // JR e, 12
            0x18 => {
                let d = self.imm8(bus) as i8;
                self.h.pc = self.h.pc.wrapping_add(d as u16);
                self.x.wz = self.h.pc;
                12
            }
            // JR cc,e, 12 taken / 7
            0x20 | 0x28 | 0x30 | 0x38 => {
                if self.cond(y - 4) {
                    let d = self.imm8(bus) as i8;
                    self.h.pc = self.h.pc.wrapping_add(d as u16);
                    self.x.wz = self.h.pc;
                    12
                } else {
                    self.h.pc = self.h.pc.wrapping_add(1);
                    7
                }
            }
            // LD (nn),HL, 16
            0x22 => {
                let addr = self.imm16(bus);
                self.write16(bus, addr, self.xy::<XH>());
                self.x.wz = addr.wrapping_add(1);
                16
            }
            // LD HL,(nn), 16
            0x2A => {
                let addr = self.imm16(bus);
                let v = self.read16(bus, addr);
                self.h.set16(XH, v);
                self.x.wz = addr.wrapping_add(1);
                16
            }
            // LD (nn),A, 13
            0x32 => {
                let addr = self.imm16(bus);
                bus.write(addr, self.h.a);
                self.x.wz = u16::from_be_bytes([self.h.a, addr.wrapping_add(1) as u8]);
                13
            }
            // LD A,(nn), 13
            0x3A => {
                let addr = self.imm16(bus);
                self.h.a = bus.read(addr);
                self.x.wz = addr.wrapping_add(1);
                13
            }
            // DAA, 4
            0x27 => {
                let a = self.h.a;
                let f = self.h.f;
                let mut diff = 0u8;
                let mut carry = f & CF;
                if f & HF != 0 || a & 0x0F > 9 {
                    diff = 0x06;
                }
                if carry != 0 || a > 0x99 {
                    diff |= 0x60;
                    carry = CF;
                }
                let (r, half) = if f & NF != 0 {
                    (a.wrapping_sub(diff), f & HF != 0 && a & 0x0F < 6)
                } else {
                    (a.wrapping_add(diff), a & 0x0F > 9)
                };
                self.h.a = r;
                self.setf(SZ53P[r as usize] | carry | (f & NF) | if half { HF } else { 0 });
                4
            }
            // CPL, 4
            0x2F => {
                let a = !self.h.a;
                self.h.a = a;
                self.setf((self.h.f & (SF | ZF | PF | CF)) | HF | NF | (a & (XF | YF)));
                4
            }
            // SCF, 4 (flags 3, 5 from A | (F ^ Q): Patrik Rak's Q model)
            0x37 => {
                let f = self.h.f;
                let xy = (self.h.a | (f ^ prev_q)) & (XF | YF);
                self.setf((f & (SF | ZF | PF)) | CF | xy);
                4
            }
            // CCF, 4
            0x3F => {
                let f = self.h.f;
                let xy = (self.h.a | (f ^ prev_q)) & (XF | YF);
                let h = if f & CF != 0 { HF } else { 0 };
                self.setf((f & (SF | ZF | PF)) | h | ((f & CF) ^ CF) | xy);
                4
            }
            // HALT, 4: PC stays after the HALT while the CPU idles
            0x76 => {
                self.x.halted = true;
                self.update_attention();
                4
            }
            // LD r,r' / LD r,(HL) / LD (HL),r, 4 / 7
            0x40..=0x7F => {
                if z == 6 {
                    // The register side is never substituted: LD H,(IX+d) loads H.
                    let addr = self.mem_addr::<XH, BUS>(bus);
                    self.h.set_r8(y as usize, bus.read(addr));
                    7 + Self::idx_extra::<XH>()
                } else if y == 6 {
                    let addr = self.mem_addr::<XH, BUS>(bus);
                    bus.write(addr, self.h.get_r8(z as usize));
                    7 + Self::idx_extra::<XH>()
                } else {
                    self.h.w8(m::<XH>(y as usize), self.h.r8(m::<XH>(z as usize)));
                    4
                }
            }
            // ALU A,r / ALU A,(HL), 4 / 7
            0x80..=0xBF => {
                if z == 6 {
                    let addr = self.mem_addr::<XH, BUS>(bus);
                    let v = bus.read(addr);
                    self.alu(y, v);
                    7 + Self::idx_extra::<XH>()
                } else {
                    let v = self.h.r8(m::<XH>(z as usize));
                    self.alu(y, v);
                    4
                }
            }
            // RET cc, 11 taken / 5
            0xC0 | 0xC8 | 0xD0 | 0xD8 | 0xE0 | 0xE8 | 0xF0 | 0xF8 => {
                if self.cond(y) {
                    self.ret(bus);
                    11
                } else {
                    5
                }
            }
            // POP rp2, 10
            0xC1 | 0xD1 | 0xE1 | 0xF1 => {
                let v = self.pop(bus);
                self.set_rp2::<XH>(p, v);
                10
            }
            // RET, 10
            0xC9 => {
                self.ret(bus);
                10
            }
            // EXX, 4
            0xD9 => {
                let (bc, de, hl) = (self.h.get16(BC), self.h.get16(DE), self.h.get16(HL));
                self.h.set16(BC, self.x.bc_alt);
                self.h.set16(DE, self.x.de_alt);
                self.h.set16(HL, self.x.hl_alt);
                self.x.bc_alt = bc;
                self.x.de_alt = de;
                self.x.hl_alt = hl;
                4
            }
            // JP (HL), 4
            0xE9 => {
                self.h.pc = self.xy::<XH>();
                4
            }
            // LD SP,HL, 6
            0xF9 => {
                self.h.sp = self.xy::<XH>();
                6
            }
            // JP cc,nn, 10 either way (MEMPTR = nn either way)
            0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => {
                let nn = self.imm16(bus);
                self.x.wz = nn;
                if self.cond(y) {
                    self.h.pc = nn;
                }
                10
            }
            // JP nn, 10
            0xC3 => {
                let nn = self.imm16(bus);
                self.x.wz = nn;
                self.h.pc = nn;
                10
            }
            // OUT (n),A, 11
            0xD3 => {
                let n = self.imm8(bus);
                let a = self.h.a;
                bus.output(u16::from_be_bytes([a, n]), a);
                self.x.wz = u16::from_be_bytes([a, n.wrapping_add(1)]);
                11
            }
            // IN A,(n), 11 (flags unaffected)
            0xDB => {
                let n = self.imm8(bus);
                let port = u16::from_be_bytes([self.h.a, n]);
                self.h.a = bus.input(port);
                self.x.wz = port.wrapping_add(1);
                11
            }
            // EX (SP),HL, 19
            0xE3 => {
                let v = self.read16(bus, self.h.sp);
                let [lo, hi] = self.xy::<XH>().to_le_bytes();
                bus.write(self.h.sp.wrapping_add(1), hi);
                bus.write(self.h.sp, lo);
                self.h.set16(XH, v);
                self.x.wz = v;
                19
            }
            // EX DE,HL, 4 (never IX/IY)
            0xEB => {
                let de = self.h.get16(DE);
                self.h.set16(DE, self.h.get16(HL));
                self.h.set16(HL, de);
                4
            }
            // DI, 4
            0xF3 => {
                self.x.iff1 = false;
                self.x.iff2 = false;
                4
            }
            // EI, 4 (takes effect after the next instruction)
            0xFB => {
                self.x.iff1 = true;
                self.x.iff2 = true;
                self.x.ei_last = true;
                self.raise_attention();
                4
            }
            // CALL cc,nn, 17 taken / 10
            0xC4 | 0xCC | 0xD4 | 0xDC | 0xE4 | 0xEC | 0xF4 | 0xFC => {
                let nn = self.imm16(bus);
                self.x.wz = nn;
                if self.cond(y) {
                    self.push(bus, self.h.pc);
                    self.h.pc = nn;
                    17
                } else {
                    10
                }
            }
            // PUSH rp2, 11
            0xC5 | 0xD5 | 0xE5 | 0xF5 => {
                let v = self.rp2::<XH>(p);
                self.push(bus, v);
                11
            }
            // CALL nn, 17
            0xCD => {
                let nn = self.imm16(bus);
                self.x.wz = nn;
                self.push(bus, self.h.pc);
                self.h.pc = nn;
                17
            }
            // ALU A,n, 7
            0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => {
                let v = self.imm8(bus);
                self.alu(y, v);
                7
            }
            // RST y*8, 11
            0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => {
                self.push(bus, self.h.pc);
                self.h.pc = (y as u16) * 8;
                self.x.wz = self.h.pc;
                11
            }
            // CB prefix: 8 (registers) / 12 BIT (HL) / 15 (HL); DD CB d op: 16 BIT / 19 after DD
            0xCB => {
                if XH == HL {
                    let op2 = self.fetch_op(bus);
                    4 + self.exec_cb(bus, op2)
                } else {
                    if INL {
                        self.exec_xy_cb_body::<XH, BUS>(bus)
                    } else {
                        self.exec_xy_cb::<XH, BUS>(bus)
                    }
                }
            }
            // ED prefix (a DD/FD before it is ignored)
            0xED => {
                let op2 = self.fetch_op(bus);
                4 + if INL {
                    self.exec_ed_body(bus, op2)
                } else {
                    self.exec_ed(bus, op2)
                }
            }
            // DD / FD prefixes
            0xDD => {
                if XH != HL {
                    // Not reached: a prefix chain consumes its own DD/FD bytes (and inlining
                    // the chain here would recurse).
                    debug_assert!(false, "prefix after prefix reached exec");
                    4
                } else if INL {
                    self.prefix_chain_body::<BUS, true>(bus, IX, prev_q)
                } else {
                    self.prefix_chain(bus, IX, prev_q)
                }
            }
            0xFD => {
                if XH != HL {
                    // Not reached: a prefix chain consumes its own DD/FD bytes (and inlining
                    // the chain here would recurse).
                    debug_assert!(false, "prefix after prefix reached exec");
                    4
                } else if INL {
                    self.prefix_chain_body::<BUS, true>(bus, IY, prev_q)
                } else {
                    self.prefix_chain(bus, IY, prev_q)
                }
            }
        }
    }

    /// The CB page after its opcode fetch; returns T-states after the CB prefix.
    #[inline(always)]
    fn exec_cb<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) -> u32 {
        let y = (op >> 3) & 7;
        let z = (op & 7) as usize;
        if z == 6 {
            let addr = self.h.get16(HL);
            let v = bus.read(addr);
            match op >> 6 {
                // rot (HL), 15
                0 => {
                    let r = self.rot(y, v);
                    bus.write(addr, r);
                    11
                }
                // BIT y,(HL), 12: flags 3, 5 from MEMPTR's high byte
                1 => {
                    self.bit(y, v, (self.x.wz >> 8) as u8);
                    8
                }
                // RES y,(HL), 15
                2 => {
                    bus.write(addr, v & !(1 << y));
                    11
                }
                // SET y,(HL), 15
                _ => {
                    bus.write(addr, v | (1 << y));
                    11
                }
            }
        } else {
            let v = self.h.get_r8(z);
            match op >> 6 {
                // rot r, 8
                0 => {
                    let r = self.rot(y, v);
                    self.h.set_r8(z, r)
                }
                // BIT y,r, 8
                1 => self.bit(y, v, v),
                // RES y,r, 8
                2 => self.h.set_r8(z, v & !(1 << y)),
                // SET y,r, 8
                _ => self.h.set_r8(z, v | (1 << y)),
            }
            4
        }
    }

    /// DD CB d op / FD CB d op (the prefix is already counted). d comes before the opcode, and the
    /// opcode fetch is not an M1 cycle (R is not incremented). Non-BIT forms with a register field
    /// other than 6 also store the result in that register (never substituted). 16 / 19.
    #[inline(never)]
    fn exec_xy_cb<const XH: usize, BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        self.exec_xy_cb_body::<XH, BUS>(bus)
    }

    #[inline(always)]
    fn exec_xy_cb_body<const XH: usize, BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        let d = self.imm8(bus) as i8;
        let addr = self.h.get16(XH).wrapping_add(d as u16);
        self.x.wz = addr;
        let op = self.imm8(bus);
        let y = (op >> 3) & 7;
        let z = (op & 7) as usize;
        let v = bus.read(addr);
        let r = match op >> 6 {
            0 => self.rot(y, v),
            1 => {
                self.bit(y, v, (addr >> 8) as u8);
                return 16;
            }
            2 => v & !(1 << y),
            _ => v | (1 << y),
        };
        bus.write(addr, r);
        if z != 6 {
            self.h.set_r8(z, r);
        }
        19
    }

    /// The ED page after its opcode fetch; returns T-states after the ED prefix.
    #[inline(never)]
    fn exec_ed<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) -> u32 {
        self.exec_ed_body(bus, op)
    }

    #[inline(always)]
    fn exec_ed_body<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) -> u32 {
        let y = (op >> 3) & 7;
        let p = y >> 1;
        match op {
            // IN r,(C), 12 (y = 6: IN F,(C), flags only)
            0x40 | 0x48 | 0x50 | 0x58 | 0x60 | 0x68 | 0x70 | 0x78 => {
                let port = self.h.get16(BC);
                let v = bus.input(port);
                self.x.wz = port.wrapping_add(1);
                if y != 6 {
                    self.h.set_r8(y as usize, v);
                }
                self.setf((self.h.f & CF) | SZ53P[v as usize]);
                8
            }
            // OUT (C),r, 12 (y = 6: OUT (C),0 on NMOS)
            0x41 | 0x49 | 0x51 | 0x59 | 0x61 | 0x69 | 0x71 | 0x79 => {
                let port = self.h.get16(BC);
                let v = if y == 6 { 0 } else { self.h.get_r8(y as usize) };
                bus.output(port, v);
                self.x.wz = port.wrapping_add(1);
                8
            }
            // SBC HL,rp, 15
            0x42 | 0x52 | 0x62 | 0x72 => {
                let v = self.rp::<HL>(p);
                self.sbc16(v);
                11
            }
            // ADC HL,rp, 15
            0x4A | 0x5A | 0x6A | 0x7A => {
                let v = self.rp::<HL>(p);
                self.adc16(v);
                11
            }
            // LD (nn),rp, 20
            0x43 | 0x53 | 0x63 | 0x73 => {
                let addr = self.imm16(bus);
                let v = self.rp::<HL>(p);
                self.write16(bus, addr, v);
                self.x.wz = addr.wrapping_add(1);
                16
            }
            // LD rp,(nn), 20
            0x4B | 0x5B | 0x6B | 0x7B => {
                let addr = self.imm16(bus);
                let v = self.read16(bus, addr);
                self.set_rp::<HL>(p, v);
                self.x.wz = addr.wrapping_add(1);
                16
            }
            // NEG, 8
            0x44 | 0x4C | 0x54 | 0x5C | 0x64 | 0x6C | 0x74 | 0x7C => {
                let v = self.h.a;
                self.h.a = 0;
                let r = self.sub8(v, 0);
                self.h.a = r;
                4
            }
            // RETN / RETI, 14 (both copy IFF2 to IFF1)
            0x45 | 0x4D | 0x55 | 0x5D | 0x65 | 0x6D | 0x75 | 0x7D => {
                self.x.iff1 = self.x.iff2;
                self.ret(bus);
                if op == 0x4D {
                    bus.reti();
                }
                10
            }
            // IM 0/1/2, 8
            0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x76 | 0x7E => {
                self.x.im = [0, 0, 1, 2][(y & 3) as usize];
                4
            }
            // LD I,A, 9
            0x47 => {
                self.x.i = self.h.a;
                5
            }
            // LD R,A, 9
            0x4F => {
                self.set_r(self.h.a);
                5
            }
            // LD A,I / LD A,R, 9
            0x57 | 0x5F => {
                let v = if op == 0x57 { self.x.i } else { self.r() };
                self.h.a = v;
                self.setf((self.h.f & CF) | SZ53[v as usize] | if self.x.iff2 { PF } else { 0 });
                self.x.p = true;
                self.raise_attention();
                5
            }
            // RRD, 18
            0x67 => {
                let addr = self.h.get16(HL);
                let v = bus.read(addr);
                let a = self.h.a;
                bus.write(addr, (a << 4) | (v >> 4));
                let a = (a & 0xF0) | (v & 0x0F);
                self.h.a = a;
                self.setf((self.h.f & CF) | SZ53P[a as usize]);
                self.x.wz = addr.wrapping_add(1);
                14
            }
            // RLD, 18
            0x6F => {
                let addr = self.h.get16(HL);
                let v = bus.read(addr);
                let a = self.h.a;
                bus.write(addr, (v << 4) | (a & 0x0F));
                let a = (a & 0xF0) | (v >> 4);
                self.h.a = a;
                self.setf((self.h.f & CF) | SZ53P[a as usize]);
                self.x.wz = addr.wrapping_add(1);
                14
            }
            // LDI 16 / LDD 16 / LDIR LDDR 21 repeating, 16 done
            0xA0 | 0xA8 | 0xB0 | 0xB8 => {
                let hl = self.h.get16(HL);
                let de = self.h.get16(DE);
                let v = bus.read(hl);
                bus.write(de, v);
                let step = if op & 0x08 == 0 { 1u16 } else { 0xFFFF };
                self.h.set16(HL, hl.wrapping_add(step));
                self.h.set16(DE, de.wrapping_add(step));
                let bc = self.h.get16(BC).wrapping_sub(1);
                self.h.set16(BC, bc);
                let n = v.wrapping_add(self.h.a);
                let mut f = (self.h.f & (SF | ZF | CF)) | (n & XF) | ((n & 0x02) << 4);
                if bc != 0 {
                    f |= PF;
                }
                self.finish_ld_cp_block(f, op >= 0xB0 && bc != 0)
            }
            // CPI / CPD 16, CPIR / CPDR 21 repeating
            0xA1 | 0xA9 | 0xB1 | 0xB9 => {
                let hl = self.h.get16(HL);
                let v = bus.read(hl);
                let a = self.h.a;
                let r = a.wrapping_sub(v);
                let half = (a ^ v ^ r) & HF;
                let n = r.wrapping_sub(if half != 0 { 1 } else { 0 });
                let (step, wstep) = if op & 0x08 == 0 {
                    (1u16, 1u16)
                } else {
                    (0xFFFF, 0xFFFF)
                };
                self.h.set16(HL, hl.wrapping_add(step));
                self.x.wz = self.x.wz.wrapping_add(wstep);
                let bc = self.h.get16(BC).wrapping_sub(1);
                self.h.set16(BC, bc);
                let mut f = (self.h.f & CF)
                    | NF
                    | (SZ53[r as usize] & (SF | ZF))
                    | half
                    | (n & XF)
                    | ((n & 0x02) << 4);
                if bc != 0 {
                    f |= PF;
                }
                self.finish_ld_cp_block(f, op >= 0xB0 && bc != 0 && r != 0)
            }
            // INI / IND 16, INIR / INDR 21 repeating
            0xA2 | 0xAA | 0xB2 | 0xBA => {
                let bc = self.h.get16(BC);
                let v = bus.input(bc);
                let hl = self.h.get16(HL);
                bus.write(hl, v);
                let dec = op & 0x08 != 0;
                self.x.wz = if dec {
                    bc.wrapping_sub(1)
                } else {
                    bc.wrapping_add(1)
                };
                self.h.set16(
                    HL,
                    if dec {
                        hl.wrapping_sub(1)
                    } else {
                        hl.wrapping_add(1)
                    },
                );
                let b = self.h.r8(B).wrapping_sub(1);
                self.h.w8(B, b);
                let c = if dec {
                    self.h.r8(C).wrapping_sub(1)
                } else {
                    self.h.r8(C).wrapping_add(1)
                };
                let k = v as u16 + c as u16;
                self.block_io_flags(op, v, k, b)
            }
            // OUTI / OUTD 16, OTIR / OTDR 21 repeating
            0xA3 | 0xAB | 0xB3 | 0xBB => {
                let hl = self.h.get16(HL);
                let v = bus.read(hl);
                let b = self.h.r8(B).wrapping_sub(1);
                self.h.w8(B, b);
                let bc = self.h.get16(BC);
                bus.output(bc, v);
                let dec = op & 0x08 != 0;
                self.x.wz = if dec {
                    bc.wrapping_sub(1)
                } else {
                    bc.wrapping_add(1)
                };
                let hl = if dec {
                    hl.wrapping_sub(1)
                } else {
                    hl.wrapping_add(1)
                };
                self.h.set16(HL, hl);
                let k = v as u16 + self.h.r8(L) as u16;
                self.block_io_flags(op, v, k, b)
            }
            // Everything else on the ED page is an 8 T-state NOP.
            _ => 4,
        }
    }

    /// Flags of INI/IND/OUTI/OUTD and their repeats (David Banks' and others' analysis of the
    /// undocumented behaviour): `v` is the byte transferred, `k` the sum that drives H, C and P,
    /// `b` the decremented B. Returns T-states after the ED prefix.
    #[inline(always)]
    fn block_io_flags(&mut self, op: u8, v: u8, k: u16, b: u8) -> u32 {
        let mut f = SZ53[b as usize]
            | if v & 0x80 != 0 { NF } else { 0 }
            | if k > 0xFF { HF | CF } else { 0 }
            | (SZ53P[((k as u8) & 7 ^ b) as usize] & PF);
        if op >= 0xB0 && b != 0 {
            self.h.pc = self.h.pc.wrapping_sub(2);
            if self.x.fuse_block_flags {
                self.setf(f);
                return 17;
            }
            self.x.wz = self.h.pc.wrapping_add(1);
            f = (f & !(XF | YF)) | ((self.h.pc >> 8) as u8 & (XF | YF));
            if f & CF != 0 {
                f &= !HF;
                if v & 0x80 != 0 {
                    f ^= (SZ53P[(b.wrapping_sub(1) & 7) as usize] ^ PF) & PF;
                    if b & 0x0F == 0 {
                        f |= HF;
                    }
                } else {
                    f ^= (SZ53P[(b.wrapping_add(1) & 7) as usize] ^ PF) & PF;
                    if b & 0x0F == 0x0F {
                        f |= HF;
                    }
                }
            } else {
                f ^= (SZ53P[(b & 7) as usize] ^ PF) & PF;
            }
            self.setf(f);
            17
        } else {
            self.setf(f);
            12
        }
    }
}
