//! Instruction-group tests that need no outside data: each checks results, flags, MEMPTR and
//! T-states that the Zilog manual and the documented undocumented behaviour give.

use retro_z80::flags::{CF, HF, NF, PF, SF, XF, YF, ZF};
use retro_z80::{Bus, Cpu, FlatBus};

/// A bus that also records port traffic and answers port reads from a queue.
#[derive(Default)]
struct IoBus {
    ram: Vec<u8>,
    port_reads: Vec<u8>,
    outs: Vec<(u16, u8)>,
    ins: Vec<u16>,
    ack: u8,
}

impl IoBus {
    fn new() -> IoBus {
        IoBus {
            ram: vec![0; 0x10000],
            ack: 0xFF,
            ..IoBus::default()
        }
    }
}

impl Bus for IoBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.ram[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.ram[addr as usize] = value;
    }
    fn input(&mut self, port: u16) -> u8 {
        self.ins.push(port);
        if self.port_reads.is_empty() {
            0xFF
        } else {
            self.port_reads.remove(0)
        }
    }
    fn output(&mut self, port: u16, value: u8) {
        self.outs.push((port, value));
    }
    fn peek(&self, addr: u16) -> u8 {
        self.ram[addr as usize]
    }
    fn int_ack(&mut self) -> u8 {
        self.ack
    }
}

const ORG: u16 = 0x1000;

/// Loads `code` at 1000h and runs `steps` steps; returns the CPU, the bus and the T-states of
/// each step.
fn run(code: &[u8], steps: usize, setup: impl FnOnce(&mut Cpu, &mut FlatBus)) -> (Cpu, FlatBus, Vec<u32>) {
    let mut bus = FlatBus::new();
    bus.load(ORG, code);
    let mut cpu = Cpu::new();
    cpu.set_pc(ORG);
    cpu.set_sp(0xF000);
    setup(&mut cpu, &mut bus);
    let ts = (0..steps).map(|_| cpu.step(&mut bus)).collect();
    (cpu, bus, ts)
}

fn run1(code: &[u8], setup: impl FnOnce(&mut Cpu, &mut FlatBus)) -> (Cpu, FlatBus, u32) {
    let (cpu, bus, ts) = run(code, 1, setup);
    (cpu, bus, ts[0])
}

#[test]
fn eight_bit_loads() {
    // LD B,42h: 7 T
    let (cpu, _, t) = run1(&[0x06, 0x42], |_, _| {});
    assert_eq!((cpu.b(), t, cpu.pc()), (0x42, 7, ORG + 2));
    // LD A,(BC) sets MEMPTR to BC+1
    let (cpu, _, t) = run1(&[0x0A], |c, b| {
        c.set_bc(0x2000);
        b.mem[0x2000] = 0x99;
    });
    assert_eq!((cpu.a(), cpu.wz(), t), (0x99, 0x2001, 7));
    // LD (IX-2),77h: 19 T
    let (cpu, bus, t) = run1(&[0xDD, 0x36, 0xFE, 0x77], |c, _| c.set_ix(0x3002));
    assert_eq!((bus.mem[0x3000], t, cpu.wz()), (0x77, 19, 0x3000));
    // LD H,(IX+1) loads H itself, not IXH
    let (cpu, _, t) = run1(&[0xDD, 0x66, 0x01], |c, b| {
        c.set_ix(0x3000);
        b.mem[0x3001] = 0x5A;
    });
    assert_eq!((cpu.h(), cpu.ix(), t), (0x5A, 0x3000, 19));
    // LD (nn),A: MEMPTR = A in the high byte, (nn+1) low
    let (cpu, bus, t) = run1(&[0x32, 0xFF, 0x40], |c, _| c.set_a(0x12));
    assert_eq!((bus.mem[0x40FF], cpu.wz(), t), (0x12, 0x1200, 13));
}

#[test]
fn sixteen_bit_loads_and_stack() {
    let (cpu, _, t) = run1(&[0x2A, 0x00, 0x20], |_, b| b.load(0x2000, &[0x34, 0x12]));
    assert_eq!((cpu.hl(), cpu.wz(), t), (0x1234, 0x2001, 16));
    // LD (nn),SP (ED 73): 20 T
    let (_, bus, t) = run1(&[0xED, 0x73, 0x00, 0x20], |c, _| c.set_sp(0xBEEF));
    assert_eq!((bus.mem[0x2000], bus.mem[0x2001], t), (0xEF, 0xBE, 20));
    // PUSH BC puts B above C; POP DE takes them back
    let (cpu, bus, ts) = run(&[0xC5, 0xD1], 2, |c, _| c.set_bc(0xABCD));
    assert_eq!((bus.mem[0xEFFF], bus.mem[0xEFFE]), (0xAB, 0xCD));
    assert_eq!((cpu.de(), cpu.sp(), ts), (0xABCD, 0xF000, vec![11, 10]));
    // PUSH IX: 15 T
    let (_, bus, t) = run1(&[0xDD, 0xE5], |c, _| c.set_ix(0x1122));
    assert_eq!((bus.mem[0xEFFF], t), (0x11, 15));
}

#[test]
fn exchanges() {
    let (cpu, _, ts) = run(&[0x08, 0xD9, 0xEB], 3, |c, _| {
        c.set_af(0x1111);
        c.set_bc(0x2222);
        c.set_de(0x3333);
        c.set_hl(0x4444);
        c.set_alt([0xAAAA, 0xBBBB, 0xCCCC, 0xDDDD]);
    });
    assert_eq!(
        (cpu.af(), cpu.bc(), cpu.de(), cpu.hl()),
        (0xAAAA, 0xBBBB, 0xDDDD, 0xCCCC)
    );
    assert_eq!(cpu.alt(), [0x1111, 0x2222, 0x3333, 0x4444]);
    assert_eq!(ts, vec![4, 4, 4]);
    // EX (SP),HL: 19 T, MEMPTR = the new HL
    let (cpu, bus, t) = run1(&[0xE3], |c, b| {
        c.set_hl(0x1234);
        b.load(0xF000, &[0x78, 0x56]);
    });
    assert_eq!(
        (cpu.hl(), cpu.wz(), bus.mem[0xF000], bus.mem[0xF001], t),
        (0x5678, 0x5678, 0x34, 0x12, 19)
    );
}

#[test]
fn block_transfer_and_search() {
    // LDIR copying 4 bytes: 3 repeats of 21 T and a last 16 T
    let (cpu, bus, ts) = run(&[0xED, 0xB0], 4, |c, b| {
        c.set_hl(0x2000);
        c.set_de(0x3000);
        c.set_bc(4);
        b.load(0x2000, b"Z80!");
    });
    assert_eq!(&bus.mem[0x3000..0x3004], b"Z80!");
    assert_eq!(ts, vec![21, 21, 21, 16]);
    assert_eq!(
        (cpu.bc(), cpu.hl(), cpu.de(), cpu.pc()),
        (0, 0x2004, 0x3004, ORG + 2)
    );
    assert_eq!(cpu.f() & PF, 0, "P/V clear once BC reaches 0");
    // LDD with BC = 2 leaves P/V set
    let (cpu, _, _) = run1(&[0xED, 0xA8], |c, _| c.set_bc(2));
    assert_ne!(cpu.f() & PF, 0);
    // CPIR stops on the match: Z set, HL past it
    let (cpu, _, ts) = run(&[0xED, 0xB1], 3, |c, b| {
        c.set_a(b'c');
        c.set_hl(0x2000);
        c.set_bc(10);
        b.load(0x2000, b"abcd");
    });
    assert_eq!(ts, vec![21, 21, 16]);
    assert_eq!((cpu.hl(), cpu.bc(), cpu.f() & (ZF | NF)), (0x2003, 7, ZF | NF));
}

#[test]
fn eight_bit_arithmetic_flags() {
    // ADD A,1 on 7Fh: 80h, sign, half carry and overflow
    let (cpu, _, _) = run1(&[0xC6, 0x01], |c, _| c.set_a(0x7F));
    assert_eq!((cpu.a(), cpu.f()), (0x80, SF | HF | PF));
    // ADC A,B with carry in: FFh + 0 + 1 = 0 with carry out, zero, half carry
    let (cpu, _, _) = run1(&[0x88], |c, _| {
        c.set_a(0xFF);
        c.set_b(0);
        c.set_f(CF);
    });
    assert_eq!((cpu.a(), cpu.f()), (0x00, ZF | HF | CF));
    // SUB 1 on 80h: 7Fh, overflow, half borrow, N
    let (cpu, _, _) = run1(&[0xD6, 0x01], |c, _| c.set_a(0x80));
    assert_eq!((cpu.a(), cpu.f()), (0x7F, HF | PF | NF | XF | YF));
    // CP takes flags 3 and 5 from the operand
    let (cpu, _, _) = run1(&[0xFE, 0x28], |c, _| c.set_a(0x28));
    assert_eq!((cpu.a(), cpu.f()), (0x28, ZF | NF | XF | YF));
    // AND sets H and parity; XOR A clears A
    let (cpu, _, _) = run1(&[0xE6, 0x0F], |c, _| c.set_a(0x3C));
    assert_eq!((cpu.a(), cpu.f()), (0x0C, HF | PF | XF));
    let (cpu, _, _) = run1(&[0xAF], |c, _| c.set_a(0x3C));
    assert_eq!((cpu.a(), cpu.f()), (0, ZF | PF));
    // INC (HL): 11 T, carry untouched
    let (cpu, bus, t) = run1(&[0x34], |c, b| {
        c.set_hl(0x2000);
        c.set_f(CF);
        b.mem[0x2000] = 0x0F;
    });
    assert_eq!((bus.mem[0x2000], cpu.f(), t), (0x10, HF | CF, 11));
    // DEC B from 80h overflows to 7Fh
    let (cpu, _, _) = run1(&[0x05], |c, _| {
        c.set_b(0x80);
        c.set_f(0);
    });
    assert_eq!((cpu.b(), cpu.f()), (0x7F, HF | PF | NF | XF | YF));
}

#[test]
fn daa_neg_cpl_and_the_q_latch() {
    // 15h + 27h = 3Ch, DAA makes BCD 42
    let (cpu, _, _) = run(&[0xC6, 0x27, 0x27], 2, |c, _| c.set_a(0x15));
    assert_eq!(cpu.a(), 0x42);
    // 42h - 15h = 2Dh, DAA after a subtraction makes 27
    let (cpu, _, _) = run(&[0xD6, 0x15, 0x27], 2, |c, _| c.set_a(0x42));
    assert_eq!((cpu.a(), cpu.f() & NF), (0x27, NF));
    // NEG of 80h is 80h with overflow and carry; 8 T
    let (cpu, _, t) = run1(&[0xED, 0x44], |c, _| c.set_a(0x80));
    assert_eq!((cpu.a(), cpu.f() & (PF | CF | NF), t), (0x80, PF | CF | NF, 8));
    // CPL
    let (cpu, _, _) = run1(&[0x2F], |c, _| c.set_a(0x5A));
    assert_eq!((cpu.a(), cpu.f() & (HF | NF)), (0xA5, HF | NF));
    // SCF right after a flag-setting CP: flags 3 and 5 come from A alone (here 0)...
    let (cpu, _, _) = run(&[0xFE, 0x28, 0x37], 2, |c, _| c.set_a(0));
    assert_eq!(cpu.f() & (XF | YF | CF), CF);
    // ...but after an instruction that left F alone, from A | F.
    let (cpu, _, _) = run(&[0xFE, 0x28, 0x00, 0x37], 3, |c, _| c.set_a(0));
    assert_eq!(cpu.f() & (XF | YF | CF), XF | YF | CF);
    // CCF: H takes the old carry
    let (cpu, _, _) = run1(&[0x3F], |c, _| c.set_f(CF));
    assert_eq!(cpu.f() & (HF | CF), HF);
}

#[test]
fn sixteen_bit_arithmetic() {
    // ADD HL,DE: carry from bit 15, half carry from bit 11, MEMPTR = HL + 1; 11 T
    let (cpu, _, t) = run1(&[0x19], |c, _| {
        c.set_hl(0x8800);
        c.set_de(0x8800);
        c.set_f(SF | ZF | PF);
    });
    assert_eq!((cpu.hl(), cpu.wz(), t), (0x1000, 0x8801, 11));
    assert_eq!(cpu.f(), SF | ZF | PF | HF | CF, "S, Z, P/V kept");
    // SBC HL,DE to zero: Z, N; 15 T
    let (cpu, _, t) = run1(&[0xED, 0x52], |c, _| {
        c.set_hl(0x1234);
        c.set_de(0x1233);
        c.set_f(CF);
    });
    assert_eq!((cpu.hl(), cpu.f() & (ZF | NF | CF), t), (0, ZF | NF, 15));
    // ADC HL,BC overflow: 7FFFh + 1
    let (cpu, _, _) = run1(&[0xED, 0x4A], |c, _| {
        c.set_hl(0x7FFF);
        c.set_bc(1);
        c.set_f(0);
    });
    assert_eq!((cpu.hl(), cpu.f() & (SF | PF | HF)), (0x8000, SF | PF | HF));
    // INC SP, DEC IX
    let (cpu, _, ts) = run(&[0x33, 0xDD, 0x2B], 2, |c, _| c.set_ix(0));
    assert_eq!((cpu.sp(), cpu.ix(), ts), (0xF001, 0xFFFF, vec![6, 10]));
}

#[test]
fn rotates_and_shifts() {
    // RLCA
    let (cpu, _, _) = run1(&[0x07], |c, _| c.set_a(0x81));
    assert_eq!((cpu.a(), cpu.f() & CF), (0x03, CF));
    // RRA through carry
    let (cpu, _, _) = run1(&[0x1F], |c, _| {
        c.set_a(0x01);
        c.set_f(0);
    });
    assert_eq!((cpu.a(), cpu.f() & CF), (0x00, CF));
    // SLL B (CB 30, undocumented) shifts a 1 in
    let (cpu, _, t) = run1(&[0xCB, 0x30], |c, _| c.set_b(0x80));
    assert_eq!((cpu.b(), cpu.f() & CF, t), (0x01, CF, 8));
    // SRA keeps bit 7
    let (cpu, _, _) = run1(&[0xCB, 0x2F], |c, _| c.set_a(0x81));
    assert_eq!((cpu.a(), cpu.f() & (SF | CF)), (0xC0, SF | CF));
    // RL (HL): 15 T
    let (_, bus, t) = run1(&[0xCB, 0x16], |c, b| {
        c.set_hl(0x2000);
        c.set_f(CF);
        b.mem[0x2000] = 0x40;
    });
    assert_eq!((bus.mem[0x2000], t), (0x81, 15));
    // RLD rotates the low nibbles of A and (HL) through each other; 18 T
    let (cpu, bus, t) = run1(&[0xED, 0x6F], |c, b| {
        c.set_a(0x12);
        c.set_hl(0x2000);
        b.mem[0x2000] = 0x34;
    });
    assert_eq!((cpu.a(), bus.mem[0x2000], cpu.wz(), t), (0x13, 0x42, 0x2001, 18));
}

#[test]
fn bit_set_reset() {
    // BIT 7,A with bit 7 set: S, not Z
    let (cpu, _, t) = run1(&[0xCB, 0x7F], |c, _| c.set_a(0x80));
    assert_eq!((cpu.f() & (SF | ZF | HF), t), (SF | HF, 8));
    // BIT 0,(HL): Z and P/V for a clear bit, flags 3 and 5 from MEMPTR's high byte; 12 T
    let (cpu, _, t) = run1(&[0xCB, 0x46], |c, _| {
        c.set_hl(0x2000);
        c.set_wz(0x2800);
    });
    assert_eq!((cpu.f() & (ZF | PF | XF | YF), t), (ZF | PF | XF | YF, 12));
    // SET 3,(IX+5) then RES 3 on the same byte: 23 T each
    let (_, bus, ts) = run(&[0xDD, 0xCB, 0x05, 0xDE, 0xDD, 0xCB, 0x05, 0x9E], 1, |c, _| {
        c.set_ix(0x2000)
    });
    assert_eq!((bus.mem[0x2005], ts[0]), (0x08, 23));
    // BIT 1,(IY+0): 20 T, flags 3 and 5 from the address's high byte
    let (cpu, _, t) = run1(&[0xFD, 0xCB, 0x00, 0x4E], |c, _| c.set_iy(0x2800));
    assert_eq!((cpu.f() & (XF | YF), cpu.wz(), t), (XF | YF, 0x2800, 20));
}

#[test]
fn undocumented_index_forms() {
    // RLC (IX+1),B (DD CB 01 00) also stores the result in B
    let (cpu, bus, t) = run1(&[0xDD, 0xCB, 0x01, 0x00], |c, b| {
        c.set_ix(0x2000);
        b.mem[0x2001] = 0x80;
    });
    assert_eq!((bus.mem[0x2001], cpu.b(), t), (0x01, 0x01, 23));
    // LD IXH,n; LD B,IXH; ADD A,IXL
    let (cpu, _, ts) = run(&[0xDD, 0x26, 0x12, 0xDD, 0x44, 0xDD, 0x85], 3, |c, _| {
        c.set_ix(0x0034);
        c.set_a(1);
    });
    assert_eq!(
        (cpu.ix(), cpu.b(), cpu.a(), ts),
        (0x1234, 0x12, 0x35, vec![11, 8, 8])
    );
    // IN F,(C) (ED 70) sets flags only; OUT (C),0 (ED 71) writes zero
    let mut bus = IoBus::new();
    bus.ram[..4].copy_from_slice(&[0xED, 0x70, 0xED, 0x71]);
    bus.port_reads.push(0x00);
    let mut cpu = Cpu::new();
    cpu.set_pc(0);
    cpu.set_bc(0x12FE);
    cpu.set_a(0x55);
    assert_eq!(cpu.step(&mut bus), 12);
    assert_eq!((cpu.a(), cpu.f() & (ZF | PF)), (0x55, ZF | PF));
    assert_eq!(cpu.step(&mut bus), 12);
    assert_eq!(bus.outs, vec![(0x12FE, 0)]);
    // An undefined ED opcode is an 8 T NOP that counts two M1 cycles
    let (cpu, _, t) = run1(&[0xED, 0x00], |c, _| c.set_r(0));
    assert_eq!((cpu.pc(), cpu.r(), t), (ORG + 2, 2, 8));
    // Redundant prefixes: DD DD FD 21 nn nn loads IY (the last prefix wins), 4 T per extra prefix
    let (cpu, _, t) = run1(&[0xDD, 0xDD, 0xFD, 0x21, 0x34, 0x12], |c, _| c.set_r(0));
    assert_eq!((cpu.iy(), cpu.ix(), cpu.r(), t), (0x1234, 0, 4, 22));
}

#[test]
fn jumps_calls_and_returns() {
    // JR NZ taken 12 T / not taken 7 T; MEMPTR only when taken
    let (cpu, _, t) = run1(&[0x20, 0x10], |c, _| c.set_f(0));
    assert_eq!((cpu.pc(), cpu.wz(), t), (ORG + 0x12, ORG + 0x12, 12));
    let (cpu, _, t) = run1(&[0x20, 0x10], |c, _| c.set_f(ZF));
    assert_eq!((cpu.pc(), t), (ORG + 2, 7));
    // DJNZ loop: 13 T while B > 0, then 8
    let (cpu, _, ts) = run(&[0x10, 0xFE], 3, |c, _| c.set_b(3));
    assert_eq!((cpu.b(), ts), (0, vec![13, 13, 8]));
    // JP PE not taken still sets MEMPTR
    let (cpu, _, t) = run1(&[0xEA, 0x00, 0x20], |c, _| c.set_f(0));
    assert_eq!((cpu.pc(), cpu.wz(), t), (ORG + 3, 0x2000, 10));
    // CALL nn, then RET: 17 + 10 T
    let (cpu, bus, ts) = run(&[0xCD, 0x00, 0x20], 2, |_, b| b.mem[0x2000] = 0xC9);
    assert_eq!((cpu.pc(), cpu.sp(), ts), (ORG + 3, 0xF000, vec![17, 10]));
    assert_eq!(
        (bus.mem[0xEFFE], bus.mem[0xEFFF]),
        (0x03, 0x10),
        "return address pushed"
    );
    // RET M not taken: 5 T; RST 38h: 11 T
    let (_, _, t) = run1(&[0xF8], |c, _| c.set_f(0));
    assert_eq!(t, 5);
    let (cpu, _, t) = run1(&[0xFF], |_, _| {});
    assert_eq!((cpu.pc(), t), (0x0038, 11));
    // JP (IX): 8 T
    let (cpu, _, t) = run1(&[0xDD, 0xE9], |c, _| c.set_ix(0x4321));
    assert_eq!((cpu.pc(), t), (0x4321, 8));
}

#[test]
fn input_output() {
    let mut bus = IoBus::new();
    // IN A,(FEh) with A = 7Fh reads port 7FFEh; OUT (C),B writes port BC; INI; OTIR
    bus.ram[..10].copy_from_slice(&[0xDB, 0xFE, 0xED, 0x41, 0xED, 0xA2, 0xED, 0xB3, 0x00, 0x00]);
    bus.port_reads.extend([0x1F, 0xAB]);
    bus.ram[0x3000..0x3002].copy_from_slice(&[0x11, 0x22]);
    let mut cpu = Cpu::new();
    cpu.set_pc(0);
    cpu.set_a(0x7F);
    assert_eq!(cpu.step(&mut bus), 11);
    assert_eq!((cpu.a(), bus.ins[0], cpu.wz()), (0x1F, 0x7FFE, 0x7FFF));
    cpu.set_bc(0x0210);
    assert_eq!(cpu.step(&mut bus), 12);
    assert_eq!(bus.outs[0], (0x0210, 0x02));
    cpu.set_hl(0x2000);
    assert_eq!(cpu.step(&mut bus), 16);
    assert_eq!((bus.ram[0x2000], cpu.b(), cpu.hl()), (0xAB, 0x01, 0x2001));
    // OTIR sending two bytes from 3000h: B is decremented before each output
    cpu.set_b(2);
    cpu.set_hl(0x3000);
    assert_eq!(cpu.step(&mut bus), 21);
    assert_eq!(cpu.step(&mut bus), 16);
    assert_eq!(&bus.outs[1..], &[(0x0110, 0x11), (0x0010, 0x22)]);
    assert_eq!((cpu.b(), cpu.f() & ZF), (0, ZF));
}

#[test]
fn interrupts_modes_and_the_ei_delay() {
    // IM 1: EI, then the interrupt is taken only after the instruction following EI
    let mut bus = IoBus::new();
    bus.ram[..3].copy_from_slice(&[0xFB, 0x00, 0x00]);
    let mut cpu = Cpu::new();
    cpu.set_pc(0);
    cpu.set_sp(0x8000);
    cpu.set_im(1);
    cpu.set_int_line(true);
    assert_eq!(cpu.step(&mut bus), 4); // EI
    assert_eq!(cpu.step(&mut bus), 4); // NOP: no interrupt yet
    assert_eq!(cpu.pc(), 2);
    assert_eq!(cpu.step(&mut bus), 13); // the interrupt
    assert_eq!((cpu.pc(), cpu.sp(), cpu.iff()), (0x38, 0x7FFE, (false, false)));
    assert_eq!((bus.ram[0x7FFE], bus.ram[0x7FFF]), (0x02, 0x00));

    // IM 2: the vector comes from I and the data bus
    let mut bus = IoBus::new();
    bus.ack = 0x10;
    bus.ram[0x3F10..0x3F12].copy_from_slice(&[0x34, 0x12]);
    let mut cpu = Cpu::new();
    cpu.set_pc(0x0100);
    cpu.set_sp(0x8000);
    cpu.set_i(0x3F);
    cpu.set_im(2);
    cpu.set_iff(true, true);
    cpu.set_int_line(true);
    assert_eq!(cpu.step(&mut bus), 19);
    assert_eq!(cpu.pc(), 0x1234);

    // IM 0 with RST 28h on the bus
    let mut bus = IoBus::new();
    bus.ack = 0xEF;
    let mut cpu = Cpu::new();
    cpu.set_sp(0x8000);
    cpu.set_iff(true, true);
    cpu.set_int_line(true);
    assert_eq!(cpu.step(&mut bus), 13);
    assert_eq!(cpu.pc(), 0x28);

    // DI keeps the line waiting
    let mut bus = IoBus::new();
    let mut cpu = Cpu::new();
    cpu.set_im(1);
    cpu.set_int_line(true);
    cpu.step(&mut bus);
    assert_eq!(cpu.pc(), 1);
}

#[test]
fn nmi_halt_and_retn() {
    let mut bus = IoBus::new();
    // 0000: HALT; 0066: RETN
    bus.ram[0] = 0x76;
    bus.ram[0x66..0x68].copy_from_slice(&[0xED, 0x45]);
    let mut cpu = Cpu::new();
    cpu.set_sp(0x8000);
    cpu.set_iff(true, true);
    cpu.set_r(0);
    assert_eq!(cpu.step(&mut bus), 4);
    assert!(cpu.halted());
    assert_eq!(cpu.pc(), 1, "PC moves past the HALT");
    // Halted, the CPU runs internal NOPs: 4 T each, R keeps counting
    assert_eq!(cpu.step(&mut bus), 4);
    assert_eq!((cpu.pc(), cpu.r()), (1, 2));
    cpu.trigger_nmi();
    assert_eq!(cpu.step(&mut bus), 11);
    assert!(!cpu.halted());
    assert_eq!(
        (cpu.pc(), cpu.iff()),
        (0x66, (false, true)),
        "NMI clears IFF1 and keeps IFF2"
    );
    assert_eq!(cpu.step(&mut bus), 14);
    assert_eq!(
        (cpu.pc(), cpu.iff()),
        (1, (true, true)),
        "RETN returns after the HALT, IFF1 restored"
    );
}

#[test]
fn refresh_register_counts_m1_cycles_and_keeps_bit_7() {
    // LD R,A with 80h, three NOPs, LD A,R: 2 + 3 + 2 M1 cycles after the load
    let (cpu, _, _) = run(&[0xED, 0x4F, 0x00, 0x00, 0x00, 0xED, 0x5F], 5, |c, _| {
        c.set_a(0x80)
    });
    assert_eq!(cpu.a(), 0x80 | 5);
    // Bit 7 survives the low 7 bits wrapping
    let (cpu, _, _) = run(&[0x00, 0x00], 2, |c, _| c.set_r(0xFF));
    assert_eq!(cpu.r(), 0x81);
    // LD A,I copies IFF2 into P/V
    let (cpu, _, t) = run1(&[0xED, 0x57], |c, _| {
        c.set_i(0x80);
        c.set_iff(false, true);
    });
    assert_eq!((cpu.a(), cpu.f() & (SF | PF), t), (0x80, SF | PF, 9));
}

#[test]
fn endless_prefix_chains_do_not_hang_a_step() {
    // Memory full of DD: every step still returns, and time passes.
    let mut bus = FlatBus::new();
    bus.mem.fill(0xDD);
    let mut cpu = Cpu::new();
    let mut total = 0u64;
    for _ in 0..10 {
        total += cpu.step(&mut bus) as u64;
    }
    assert!(total >= 40 && cpu.tstates() == total);
}

#[test]
fn peek_has_no_side_effects_and_run_counts_time() {
    let mut bus = FlatBus::new();
    bus.load(0, &[0x3C, 0x18, 0xFD]); // INC A; JR -3
    assert_eq!(bus.peek(0), 0x3C);
    let mut cpu = Cpu::new();
    cpu.set_af(0);
    let used = cpu.run(&mut bus, 1000);
    assert!((1000..1000 + 12).contains(&used));
    assert_eq!(cpu.tstates(), used);
    // 16 T per loop iteration
    assert_eq!(
        cpu.a() as u64,
        (used / 16) % 256 + if used % 16 >= 4 { 1 } else { 0 }
    );
}
