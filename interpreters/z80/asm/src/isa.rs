//! The Z80 instruction set as one typed model: [`Instruction`], its encoder ([`encode`]), its decoder
//! ([`decode`]) and a `Display` in standard Zilog syntax. The assembler, the disassembler and the
//! debugger all go through this one model, so an encoding fixed here is fixed everywhere.
use std::fmt;

/// The 8-bit registers that can be the target of an undocumented DDCB copy, `in r,(c)` or `out (c),r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg8 {
    B,
    C,
    D,
    E,
    H,
    L,
    A,
}

impl Reg8 {
    pub const ALL: [Reg8; 7] = [Reg8::B, Reg8::C, Reg8::D, Reg8::E, Reg8::H, Reg8::L, Reg8::A];

    fn code(self) -> u8 {
        match self {
            Reg8::B => 0,
            Reg8::C => 1,
            Reg8::D => 2,
            Reg8::E => 3,
            Reg8::H => 4,
            Reg8::L => 5,
            Reg8::A => 7,
        }
    }

    fn from_code(c: u8) -> Option<Reg8> {
        Some(match c & 7 {
            0 => Reg8::B,
            1 => Reg8::C,
            2 => Reg8::D,
            3 => Reg8::E,
            4 => Reg8::H,
            5 => Reg8::L,
            7 => Reg8::A,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        ["b", "c", "d", "e", "h", "l", "?", "a"][self.code() as usize]
    }
}

/// An 8-bit operand: a register, an index-register half (undocumented), or a memory byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc8 {
    B,
    C,
    D,
    E,
    H,
    L,
    A,
    Ixh,
    Ixl,
    Iyh,
    Iyl,
    /// `(hl)`
    IndHl,
    /// `(ix+d)`
    IndIx(i8),
    /// `(iy+d)`
    IndIy(i8),
}

impl From<Reg8> for Loc8 {
    fn from(r: Reg8) -> Loc8 {
        match r {
            Reg8::B => Loc8::B,
            Reg8::C => Loc8::C,
            Reg8::D => Loc8::D,
            Reg8::E => Loc8::E,
            Reg8::H => Loc8::H,
            Reg8::L => Loc8::L,
            Reg8::A => Loc8::A,
        }
    }
}

/// How an 8-bit operand is encoded: an optional DD/FD prefix, the 3-bit register field and an
/// optional displacement byte.
#[derive(Clone, Copy)]
struct Field {
    prefix: Option<u8>,
    code: u8,
    disp: Option<i8>,
    /// H or L without prefix: these cannot be combined with a DD/FD half register.
    plain_hl: bool,
}

impl Loc8 {
    fn field(self) -> Field {
        let f = |prefix, code, disp| Field {
            prefix,
            code,
            disp,
            plain_hl: false,
        };
        match self {
            Loc8::B => f(None, 0, None),
            Loc8::C => f(None, 1, None),
            Loc8::D => f(None, 2, None),
            Loc8::E => f(None, 3, None),
            Loc8::H => Field {
                plain_hl: true,
                ..f(None, 4, None)
            },
            Loc8::L => Field {
                plain_hl: true,
                ..f(None, 5, None)
            },
            Loc8::A => f(None, 7, None),
            Loc8::Ixh => f(Some(0xDD), 4, None),
            Loc8::Ixl => f(Some(0xDD), 5, None),
            Loc8::Iyh => f(Some(0xFD), 4, None),
            Loc8::Iyl => f(Some(0xFD), 5, None),
            Loc8::IndHl => f(None, 6, None),
            Loc8::IndIx(d) => f(Some(0xDD), 6, Some(d)),
            Loc8::IndIy(d) => f(Some(0xFD), 6, Some(d)),
        }
    }

    /// True for the memory operands `(hl)`, `(ix+d)` and `(iy+d)`.
    pub fn is_memory(self) -> bool {
        matches!(self, Loc8::IndHl | Loc8::IndIx(_) | Loc8::IndIy(_))
    }

    fn is_indexed_memory(self) -> bool {
        matches!(self, Loc8::IndIx(_) | Loc8::IndIy(_))
    }

    fn is_half(self) -> bool {
        matches!(self, Loc8::Ixh | Loc8::Ixl | Loc8::Iyh | Loc8::Iyl)
    }

    /// Decodes a register field under an optional prefix (`hl_mem` = the displacement for (ix+d)).
    fn decode(code: u8, prefix: Option<u8>, disp: i8) -> Loc8 {
        match (code & 7, prefix) {
            (0, _) => Loc8::B,
            (1, _) => Loc8::C,
            (2, _) => Loc8::D,
            (3, _) => Loc8::E,
            (4, None) => Loc8::H,
            (4, Some(0xDD)) => Loc8::Ixh,
            (4, Some(_)) => Loc8::Iyh,
            (5, None) => Loc8::L,
            (5, Some(0xDD)) => Loc8::Ixl,
            (5, Some(_)) => Loc8::Iyl,
            (6, None) => Loc8::IndHl,
            (6, Some(0xDD)) => Loc8::IndIx(disp),
            (6, Some(_)) => Loc8::IndIy(disp),
            _ => Loc8::A,
        }
    }
}

/// 16-bit register pairs and index registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg16 {
    BC,
    DE,
    HL,
    SP,
    AF,
    IX,
    IY,
}

impl Reg16 {
    pub fn name(self) -> &'static str {
        match self {
            Reg16::BC => "bc",
            Reg16::DE => "de",
            Reg16::HL => "hl",
            Reg16::SP => "sp",
            Reg16::AF => "af",
            Reg16::IX => "ix",
            Reg16::IY => "iy",
        }
    }

    /// The prefix an index register needs (None for HL and the others).
    fn prefix(self) -> Option<u8> {
        match self {
            Reg16::IX => Some(0xDD),
            Reg16::IY => Some(0xFD),
            _ => None,
        }
    }

    fn is_hl_like(self) -> bool {
        matches!(self, Reg16::HL | Reg16::IX | Reg16::IY)
    }

    fn hl_like(prefix: Option<u8>) -> Reg16 {
        match prefix {
            Some(0xDD) => Reg16::IX,
            Some(0xFD) => Reg16::IY,
            _ => Reg16::HL,
        }
    }
}

/// Jump and call conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    NZ,
    Z,
    NC,
    C,
    PO,
    PE,
    P,
    M,
}

impl Cond {
    pub const ALL: [Cond; 8] = [
        Cond::NZ,
        Cond::Z,
        Cond::NC,
        Cond::C,
        Cond::PO,
        Cond::PE,
        Cond::P,
        Cond::M,
    ];

    fn code(self) -> u8 {
        self as u8
    }

    pub fn name(self) -> &'static str {
        ["nz", "z", "nc", "c", "po", "pe", "p", "m"][self as usize]
    }
}

/// The eight accumulator operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add,
    Adc,
    Sub,
    Sbc,
    And,
    Xor,
    Or,
    Cp,
}

impl AluOp {
    pub const ALL: [AluOp; 8] = [
        AluOp::Add,
        AluOp::Adc,
        AluOp::Sub,
        AluOp::Sbc,
        AluOp::And,
        AluOp::Xor,
        AluOp::Or,
        AluOp::Cp,
    ];

    pub fn name(self) -> &'static str {
        ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"][self as usize]
    }

    /// Add, adc and sbc are written with an explicit `a,` in standard syntax.
    fn shows_a(self) -> bool {
        matches!(self, AluOp::Add | AluOp::Adc | AluOp::Sbc)
    }
}

/// The CB-prefixed rotates and shifts (SLL is the undocumented one, also called SLI/SL1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    Rlc,
    Rrc,
    Rl,
    Rr,
    Sla,
    Sra,
    Sll,
    Srl,
}

impl ShiftOp {
    pub const ALL: [ShiftOp; 8] = [
        ShiftOp::Rlc,
        ShiftOp::Rrc,
        ShiftOp::Rl,
        ShiftOp::Rr,
        ShiftOp::Sla,
        ShiftOp::Sra,
        ShiftOp::Sll,
        ShiftOp::Srl,
    ];

    pub fn name(self) -> &'static str {
        ["rlc", "rrc", "rl", "rr", "sla", "sra", "sll", "srl"][self as usize]
    }
}

/// The ED block transfer, compare and I/O instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockOp {
    Ldi,
    Cpi,
    Ini,
    Outi,
    Ldd,
    Cpd,
    Ind,
    Outd,
    Ldir,
    Cpir,
    Inir,
    Otir,
    Lddr,
    Cpdr,
    Indr,
    Otdr,
}

impl BlockOp {
    pub const ALL: [BlockOp; 16] = [
        BlockOp::Ldi,
        BlockOp::Cpi,
        BlockOp::Ini,
        BlockOp::Outi,
        BlockOp::Ldd,
        BlockOp::Cpd,
        BlockOp::Ind,
        BlockOp::Outd,
        BlockOp::Ldir,
        BlockOp::Cpir,
        BlockOp::Inir,
        BlockOp::Otir,
        BlockOp::Lddr,
        BlockOp::Cpdr,
        BlockOp::Indr,
        BlockOp::Otdr,
    ];

    fn opcode(self) -> u8 {
        let i = self as u8;
        0xA0 + (i & 3) + (i >> 2) * 8
    }

    pub fn name(self) -> &'static str {
        [
            "ldi", "cpi", "ini", "outi", "ldd", "cpd", "ind", "outd", "ldir", "cpir", "inir", "otir", "lddr",
            "cpdr", "indr", "otdr",
        ][self as usize]
    }

    /// True for the repeating forms (LDIR, CPIR, ...): the debugger steps over them as one unit.
    pub fn repeats(self) -> bool {
        (self as u8) >= 8
    }
}

/// One Z80 instruction with typed operands. Relative jumps hold the displacement from the end of the
/// instruction, so an `Instruction` needs no address to be encoded; the disassembler turns it into a
/// target address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    Nop,
    Halt,
    Di,
    Ei,
    Im(u8),
    Exx,
    /// `ex af,af'`
    ExAf,
    /// `ex de,hl`
    ExDeHl,
    /// `ex (sp),hl/ix/iy`
    ExSp(Reg16),
    Daa,
    Cpl,
    Neg,
    Ccf,
    Scf,
    Rlca,
    Rrca,
    Rla,
    Rra,
    Rld,
    Rrd,
    Reti,
    Retn,
    Block(BlockOp),
    /// `ld dst,src` between registers and memory bytes.
    Ld(Loc8, Loc8),
    /// `ld dst,n`
    LdImm(Loc8, u8),
    /// `ld a,(bc)` / `ld a,(de)`
    LdAInd(Reg16),
    /// `ld (bc),a` / `ld (de),a`
    LdIndA(Reg16),
    /// `ld a,(nn)`
    LdAAddr(u16),
    /// `ld (nn),a`
    LdAddrA(u16),
    LdAI,
    LdAR,
    LdIA,
    LdRA,
    /// `ld rr,nn`
    Ld16(Reg16, u16),
    /// `ld rr,(nn)`
    Ld16Addr(Reg16, u16),
    /// `ld (nn),rr`
    LdAddr16(u16, Reg16),
    /// `ld sp,hl/ix/iy`
    LdSp(Reg16),
    Push(Reg16),
    Pop(Reg16),
    Alu(AluOp, Loc8),
    AluImm(AluOp, u8),
    Inc(Loc8),
    Dec(Loc8),
    Inc16(Reg16),
    Dec16(Reg16),
    /// `add hl/ix/iy,rr`
    Add16(Reg16, Reg16),
    /// `adc hl,rr`
    Adc16(Reg16),
    /// `sbc hl,rr`
    Sbc16(Reg16),
    /// Rotates and shifts; `copy` is the undocumented DDCB form that also stores into a register.
    Shift(ShiftOp, Loc8, Option<Reg8>),
    Bit(u8, Loc8),
    Res(u8, Loc8, Option<Reg8>),
    Set(u8, Loc8, Option<Reg8>),
    Jp(Option<Cond>, u16),
    /// `jp (hl)`, `jp (ix)`, `jp (iy)`
    JpInd(Reg16),
    /// Displacement from the address after the instruction.
    Jr(Option<Cond>, i8),
    Djnz(i8),
    Call(Option<Cond>, u16),
    Ret(Option<Cond>),
    /// Target address: 0x00, 0x08, ..., 0x38.
    Rst(u8),
    /// `in a,(n)`
    InA(u8),
    /// `in r,(c)`; `None` is the undocumented `in f,(c)`.
    InC(Option<Reg8>),
    /// `out (n),a`
    OutA(u8),
    /// `out (c),r`; `None` is the undocumented `out (c),0`.
    OutC(Option<Reg8>),
    /// An undefined ED opcode (the CPU treats it as an 8 T-state NOP).
    EdUndefined(u8),
}

/// Up to four encoded bytes.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Bytes {
    buf: [u8; 4],
    len: u8,
}

impl Bytes {
    fn push(&mut self, b: u8) {
        self.buf[self.len as usize] = b;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02X?}", self.as_slice())
    }
}

/// The typed model can express operand combinations the Z80 has no encoding for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("the Z80 has no `{0}` instruction with these operands")]
    BadOperands(String),
    #[error("bit number {0} is not 0..7")]
    BadBit(u8),
    #[error("rst target {0:#04x} is not one of 00h, 08h, ..., 38h")]
    BadRst(u8),
    #[error("interrupt mode {0} is not 0, 1 or 2")]
    BadIm(u8),
}

fn bad(what: &str) -> EncodeError {
    EncodeError::BadOperands(what.to_string())
}

fn emit(prefix: Option<u8>, ops: &[u8]) -> Bytes {
    let mut b = Bytes::default();
    if let Some(p) = prefix {
        b.push(p);
    }
    for &o in ops {
        b.push(o);
    }
    b
}

/// Opcode + register field, with the displacement after the opcode for indexed memory.
fn emit_r(base: u8, f: Field, tail: Option<u8>) -> Bytes {
    let mut b = emit(f.prefix, &[base]);
    if let Some(d) = f.disp {
        b.push(d as u8);
    }
    if let Some(t) = tail {
        b.push(t);
    }
    b
}

fn pair_code(r: Reg16, with_af: bool) -> Option<u8> {
    Some(match r {
        Reg16::BC => 0,
        Reg16::DE => 1,
        Reg16::HL | Reg16::IX | Reg16::IY => 2,
        Reg16::SP if !with_af => 3,
        Reg16::AF if with_af => 3,
        _ => return None,
    })
}

fn le(n: u16) -> [u8; 2] {
    n.to_le_bytes()
}

fn cb_form(base: u8, loc: Loc8, copy: Option<Reg8>, what: &str) -> Result<Bytes, EncodeError> {
    if loc.is_half() {
        return Err(bad(what));
    }
    let f = loc.field();
    let code = match copy {
        Some(r) if loc.is_indexed_memory() => r.code(),
        Some(_) => return Err(bad(what)),
        None => f.code,
    };
    Ok(match f.disp {
        Some(d) => emit(f.prefix, &[0xCB, d as u8, base | code]),
        None => emit(None, &[0xCB, base | code]),
    })
}

/// Encodes one instruction in the canonical (documented, shortest) form.
pub fn encode(insn: &Instruction) -> Result<Bytes, EncodeError> {
    use Instruction as I;
    let b = |ops: &[u8]| Ok(emit(None, ops));
    let ed = |op: u8| Ok(emit(None, &[0xED, op]));
    match *insn {
        I::Nop => b(&[0x00]),
        I::Halt => b(&[0x76]),
        I::Di => b(&[0xF3]),
        I::Ei => b(&[0xFB]),
        I::Im(0) => ed(0x46),
        I::Im(1) => ed(0x56),
        I::Im(2) => ed(0x5E),
        I::Im(n) => Err(EncodeError::BadIm(n)),
        I::Exx => b(&[0xD9]),
        I::ExAf => b(&[0x08]),
        I::ExDeHl => b(&[0xEB]),
        I::ExSp(r) if r.is_hl_like() => Ok(emit(r.prefix(), &[0xE3])),
        I::ExSp(_) => Err(bad("ex (sp)")),
        I::Daa => b(&[0x27]),
        I::Cpl => b(&[0x2F]),
        I::Neg => ed(0x44),
        I::Ccf => b(&[0x3F]),
        I::Scf => b(&[0x37]),
        I::Rlca => b(&[0x07]),
        I::Rrca => b(&[0x0F]),
        I::Rla => b(&[0x17]),
        I::Rra => b(&[0x1F]),
        I::Rld => ed(0x6F),
        I::Rrd => ed(0x67),
        I::Reti => ed(0x4D),
        I::Retn => ed(0x45),
        I::Block(op) => ed(op.opcode()),
        I::Ld(dst, src) => {
            let (fd, fs) = (dst.field(), src.field());
            if dst.is_memory() && src.is_memory() {
                return Err(bad("ld"));
            }
            if dst.is_indexed_memory() || src.is_indexed_memory() {
                let (mem, reg) = if dst.is_memory() { (fd, src) } else { (fs, dst) };
                if reg.is_half() {
                    return Err(bad("ld"));
                }
                let mut out = emit(mem.prefix, &[0x40 | (fd.code << 3) | fs.code]);
                out.push(mem.disp.unwrap_or(0) as u8);
                return Ok(out);
            }
            let prefix = match (fd.prefix, fs.prefix) {
                (Some(a), Some(b)) if a != b => return Err(bad("ld")),
                (a, b) => a.or(b),
            };
            if prefix.is_some() && (fd.plain_hl || fs.plain_hl || dst.is_memory() || src.is_memory()) {
                return Err(bad("ld"));
            }
            Ok(emit(prefix, &[0x40 | (fd.code << 3) | fs.code]))
        }
        I::LdImm(dst, n) => Ok(emit_r(0x06 | (dst.field().code << 3), dst.field(), Some(n))),
        I::LdAInd(Reg16::BC) => b(&[0x0A]),
        I::LdAInd(Reg16::DE) => b(&[0x1A]),
        I::LdIndA(Reg16::BC) => b(&[0x02]),
        I::LdIndA(Reg16::DE) => b(&[0x12]),
        I::LdAInd(_) | I::LdIndA(_) => Err(bad("ld")),
        I::LdAAddr(n) => b(&[0x3A, le(n)[0], le(n)[1]]),
        I::LdAddrA(n) => b(&[0x32, le(n)[0], le(n)[1]]),
        I::LdAI => ed(0x57),
        I::LdAR => ed(0x5F),
        I::LdIA => ed(0x47),
        I::LdRA => ed(0x4F),
        I::Ld16(r, n) => {
            let c = pair_code(r, false).ok_or_else(|| bad("ld"))?;
            Ok(emit(r.prefix(), &[0x01 | (c << 4), le(n)[0], le(n)[1]]))
        }
        I::Ld16Addr(r, n) => match r {
            Reg16::HL | Reg16::IX | Reg16::IY => Ok(emit(r.prefix(), &[0x2A, le(n)[0], le(n)[1]])),
            Reg16::BC | Reg16::DE | Reg16::SP => {
                let c = pair_code(r, false).unwrap_or(0);
                b(&[0xED, 0x4B | (c << 4), le(n)[0], le(n)[1]])
            }
            Reg16::AF => Err(bad("ld")),
        },
        I::LdAddr16(n, r) => match r {
            Reg16::HL | Reg16::IX | Reg16::IY => Ok(emit(r.prefix(), &[0x22, le(n)[0], le(n)[1]])),
            Reg16::BC | Reg16::DE | Reg16::SP => {
                let c = pair_code(r, false).unwrap_or(0);
                b(&[0xED, 0x43 | (c << 4), le(n)[0], le(n)[1]])
            }
            Reg16::AF => Err(bad("ld")),
        },
        I::LdSp(r) if r.is_hl_like() => Ok(emit(r.prefix(), &[0xF9])),
        I::LdSp(_) => Err(bad("ld sp")),
        I::Push(r) => {
            let c = pair_code(r, true).ok_or_else(|| bad("push"))?;
            Ok(emit(r.prefix(), &[0xC5 | (c << 4)]))
        }
        I::Pop(r) => {
            let c = pair_code(r, true).ok_or_else(|| bad("pop"))?;
            Ok(emit(r.prefix(), &[0xC1 | (c << 4)]))
        }
        I::Alu(op, src) => Ok(emit_r(
            0x80 | ((op as u8) << 3) | src.field().code,
            src.field(),
            None,
        )),
        I::AluImm(op, n) => b(&[0xC6 | ((op as u8) << 3), n]),
        I::Inc(r) => Ok(emit_r(0x04 | (r.field().code << 3), r.field(), None)),
        I::Dec(r) => Ok(emit_r(0x05 | (r.field().code << 3), r.field(), None)),
        I::Inc16(r) => {
            let c = pair_code(r, false).ok_or_else(|| bad("inc"))?;
            Ok(emit(r.prefix(), &[0x03 | (c << 4)]))
        }
        I::Dec16(r) => {
            let c = pair_code(r, false).ok_or_else(|| bad("dec"))?;
            Ok(emit(r.prefix(), &[0x0B | (c << 4)]))
        }
        I::Add16(dst, src) => {
            // The source may be the destination itself (add ix,ix) but not another index register.
            let ok = dst.is_hl_like() && (matches!(src, Reg16::BC | Reg16::DE | Reg16::SP) || src == dst);
            if !ok {
                return Err(bad("add"));
            }
            let c = pair_code(src, false).unwrap_or(2);
            Ok(emit(dst.prefix(), &[0x09 | (c << 4)]))
        }
        I::Adc16(src) | I::Sbc16(src) => {
            let what = if matches!(insn, I::Adc16(_)) { "adc" } else { "sbc" };
            if src.prefix().is_some() {
                return Err(bad(what));
            }
            let c = pair_code(src, false).ok_or_else(|| bad(what))?;
            let base = if what == "adc" { 0x4A } else { 0x42 };
            ed(base | (c << 4))
        }
        I::Shift(op, loc, copy) => cb_form((op as u8) << 3, loc, copy, op.name()),
        I::Bit(n, loc) => {
            if n > 7 {
                return Err(EncodeError::BadBit(n));
            }
            cb_form(0x40 | (n << 3), loc, None, "bit")
        }
        I::Res(n, loc, copy) | I::Set(n, loc, copy) => {
            if n > 7 {
                return Err(EncodeError::BadBit(n));
            }
            let (base, what) = if matches!(insn, I::Res(..)) {
                (0x80, "res")
            } else {
                (0xC0, "set")
            };
            cb_form(base | (n << 3), loc, copy, what)
        }
        I::Jp(None, n) => b(&[0xC3, le(n)[0], le(n)[1]]),
        I::Jp(Some(c), n) => b(&[0xC2 | (c.code() << 3), le(n)[0], le(n)[1]]),
        I::JpInd(r) if r.is_hl_like() => Ok(emit(r.prefix(), &[0xE9])),
        I::JpInd(_) => Err(bad("jp")),
        I::Jr(None, d) => b(&[0x18, d as u8]),
        I::Jr(Some(c), d) if c.code() < 4 => b(&[0x20 | (c.code() << 3), d as u8]),
        I::Jr(Some(_), _) => Err(bad("jr")),
        I::Djnz(d) => b(&[0x10, d as u8]),
        I::Call(None, n) => b(&[0xCD, le(n)[0], le(n)[1]]),
        I::Call(Some(c), n) => b(&[0xC4 | (c.code() << 3), le(n)[0], le(n)[1]]),
        I::Ret(None) => b(&[0xC9]),
        I::Ret(Some(c)) => b(&[0xC0 | (c.code() << 3)]),
        I::Rst(n) if n & !0x38 == 0 => b(&[0xC7 | n]),
        I::Rst(n) => Err(EncodeError::BadRst(n)),
        I::InA(n) => b(&[0xDB, n]),
        I::InC(r) => ed(0x40 | (r.map_or(6, Reg8::code) << 3)),
        I::OutA(n) => b(&[0xD3, n]),
        I::OutC(r) => ed(0x41 | (r.map_or(6, Reg8::code) << 3)),
        I::EdUndefined(op) => ed(op),
    }
}

/// Decodes the instruction at the start of `bytes`. Returns `None` when the bytes end inside the
/// instruction. Every byte sequence decodes: prefixes that change nothing (DD before a DD, ED or FD,
/// or before an opcode without HL) decode to the plain instruction with the prefix counted in the
/// length, so `encode(decode(x))` differs from `x` exactly for such non-canonical encodings (and for
/// the ED aliases of NEG, RETN, IM and `ld hl,(nn)`); see [`is_canonical`].
pub fn decode(bytes: &[u8]) -> Option<(Instruction, usize)> {
    let first = *bytes.first()?;
    match first {
        0xDD | 0xFD => {
            let next = *bytes.get(1)?;
            if matches!(next, 0xDD | 0xFD | 0xED) {
                // A prefix overridden by the next one: it only costs 4 T-states.
                return Some((Instruction::Nop, 1));
            }
            if next == 0xCB {
                let d = *bytes.get(2)? as i8;
                let op = *bytes.get(3)?;
                let loc = Loc8::decode(6, Some(first), d);
                return Some((decode_cb(op, loc, true), 4));
            }
            let (insn, len) = decode_main(&bytes[1..], Some(first))?;
            Some((insn, len + 1))
        }
        0xCB => {
            let op = *bytes.get(1)?;
            Some((decode_cb(op, Loc8::decode(op, None, 0), false), 2))
        }
        0xED => decode_ed(bytes),
        _ => decode_main(bytes, None),
    }
}

/// True when `bytes` (exactly one instruction) is what [`encode`] produces for its decoding.
pub fn is_canonical(bytes: &[u8]) -> bool {
    match decode(bytes) {
        Some((insn, len)) => len == bytes.len() && encode(&insn).is_ok_and(|e| e.as_slice() == bytes),
        None => false,
    }
}

fn decode_cb(op: u8, loc: Loc8, indexed: bool) -> Instruction {
    let y = (op >> 3) & 7;
    let copy = if indexed && op & 7 != 6 {
        Reg8::from_code(op)
    } else {
        None
    };
    match op >> 6 {
        0 => Instruction::Shift(ShiftOp::ALL[y as usize], loc, copy),
        1 => Instruction::Bit(y, loc),
        2 => Instruction::Res(y, loc, copy),
        _ => Instruction::Set(y, loc, copy),
    }
}

fn decode_ed(bytes: &[u8]) -> Option<(Instruction, usize)> {
    use Instruction as I;
    let op = *bytes.get(1)?;
    let word = |bytes: &[u8]| -> Option<u16> { Some(u16::from_le_bytes([*bytes.get(2)?, *bytes.get(3)?])) };
    let pairs = [Reg16::BC, Reg16::DE, Reg16::HL, Reg16::SP];
    let p = pairs[((op >> 4) & 3) as usize];
    let y = (op >> 3) & 7;
    let insn = match op {
        0x40..=0x7F => match op & 7 {
            0 => I::InC(Reg8::from_code(y)),
            1 => I::OutC(Reg8::from_code(y)),
            2 if op & 8 == 0 => I::Sbc16(p),
            2 => I::Adc16(p),
            3 if op & 8 == 0 => return Some((I::LdAddr16(word(bytes)?, p), 4)),
            3 => return Some((I::Ld16Addr(p, word(bytes)?), 4)),
            4 => I::Neg,
            5 if op == 0x4D => I::Reti,
            5 => I::Retn,
            6 => I::Im([0, 0, 1, 2][(y & 3) as usize]),
            _ => match op {
                0x47 => I::LdIA,
                0x4F => I::LdRA,
                0x57 => I::LdAI,
                0x5F => I::LdAR,
                0x67 => I::Rrd,
                0x6F => I::Rld,
                _ => I::EdUndefined(op),
            },
        },
        _ => match BlockOp::ALL.iter().find(|b| b.opcode() == op) {
            Some(&b) => I::Block(b),
            None => I::EdUndefined(op),
        },
    };
    Some((insn, 2))
}

/// Unprefixed opcodes, or DD/FD-prefixed ones (`bytes` starts after the prefix).
fn decode_main(bytes: &[u8], prefix: Option<u8>) -> Option<(Instruction, usize)> {
    use Instruction as I;
    let op = bytes[0];
    let byte = |i: usize| bytes.get(i).copied();
    let word = || Some(u16::from_le_bytes([byte(1)?, byte(2)?]));
    let hl = Reg16::hl_like(prefix);
    let x = op >> 6;
    let y = (op >> 3) & 7;
    let z = op & 7;
    let p = y >> 1;
    let pairs = [Reg16::BC, Reg16::DE, hl, Reg16::SP];
    let pairs_af = [Reg16::BC, Reg16::DE, hl, Reg16::AF];
    // Opcodes with (hl) take a displacement byte after the opcode when prefixed.
    let uses_mem = match x {
        0 => (4..=6).contains(&z) && y == 6,
        1 => (z == 6 || y == 6) && op != 0x76,
        2 => z == 6,
        _ => false,
    };
    let (disp, dlen) = if uses_mem && prefix.is_some() {
        (byte(1)? as i8, 1)
    } else {
        (0, 0)
    };
    let r = |c: u8| Loc8::decode(c, prefix, disp);
    let insn = match x {
        0 => match z {
            0 => match y {
                0 => I::Nop,
                1 => I::ExAf,
                2 => return Some((I::Djnz(byte(1)? as i8), 2)),
                3 => return Some((I::Jr(None, byte(1)? as i8), 2)),
                _ => return Some((I::Jr(Some(Cond::ALL[(y - 4) as usize]), byte(1)? as i8), 2)),
            },
            1 if y & 1 == 0 => return Some((I::Ld16(pairs[p as usize], word()?), 3)),
            1 => I::Add16(hl, pairs[p as usize]),
            2 => match y {
                0 => I::LdIndA(Reg16::BC),
                1 => I::LdAInd(Reg16::BC),
                2 => I::LdIndA(Reg16::DE),
                3 => I::LdAInd(Reg16::DE),
                4 => return Some((I::LdAddr16(word()?, hl), 3)),
                5 => return Some((I::Ld16Addr(hl, word()?), 3)),
                6 => return Some((I::LdAddrA(word()?), 3)),
                _ => return Some((I::LdAAddr(word()?), 3)),
            },
            3 if y & 1 == 0 => I::Inc16(pairs[p as usize]),
            3 => I::Dec16(pairs[p as usize]),
            4 => I::Inc(r(y)),
            5 => I::Dec(r(y)),
            6 => return Some((I::LdImm(r(y), byte(1 + dlen)?), 2 + dlen)),
            _ => [I::Rlca, I::Rrca, I::Rla, I::Rra, I::Daa, I::Cpl, I::Scf, I::Ccf][y as usize],
        },
        1 if op == 0x76 => I::Halt,
        1 => {
            // With (ix+d) on one side the other side is the real H/L, not IXH/IXL.
            if y == 6 || z == 6 {
                let plain = |c: u8| Loc8::decode(c, None, 0);
                if y == 6 {
                    I::Ld(r(6), plain(z))
                } else {
                    I::Ld(plain(y), r(6))
                }
            } else {
                I::Ld(r(y), r(z))
            }
        }
        2 => I::Alu(AluOp::ALL[y as usize], r(z)),
        _ => match z {
            0 => I::Ret(Some(Cond::ALL[y as usize])),
            1 => match y {
                1 => I::Ret(None),
                3 => I::Exx,
                5 => I::JpInd(hl),
                7 => I::LdSp(hl),
                _ => I::Pop(pairs_af[p as usize]),
            },
            2 => return Some((I::Jp(Some(Cond::ALL[y as usize]), word()?), 3)),
            3 => match y {
                0 => return Some((I::Jp(None, word()?), 3)),
                2 => return Some((I::OutA(byte(1)?), 2)),
                3 => return Some((I::InA(byte(1)?), 2)),
                4 => I::ExSp(hl),
                5 => I::ExDeHl,
                6 => I::Di,
                7 => I::Ei,
                // CB is handled by the caller; reaching it here is impossible.
                _ => I::Nop,
            },
            4 => return Some((I::Call(Some(Cond::ALL[y as usize]), word()?), 3)),
            5 => match y {
                1 => return Some((I::Call(None, word()?), 3)),
                // DD/ED/FD after a prefix are handled by the caller.
                3 | 5 | 7 => I::Nop,
                _ => I::Push(pairs_af[p as usize]),
            },
            6 => return Some((I::AluImm(AluOp::ALL[y as usize], byte(1)?), 2)),
            _ => I::Rst(y * 8),
        },
    };
    Some((insn, 1 + dlen))
}

/// One sample encoding of every opcode: the unprefixed, CB, ED (all 256, undefined ones too),
/// DD/FD (every byte except the prefixes) and DDCB/FDCB tables, 1,780 in all. Operand bytes are
/// fixed samples (displacement $85 = -123, immediates $12/$3412) so relative jumps and negative
/// displacements are exercised.
pub fn opcode_space() -> Vec<Vec<u8>> {
    let mut out = vec![];
    let complete = |prefix: &[u8]| -> Vec<u8> {
        // Append operand bytes until the sequence decodes completely.
        let mut v = prefix.to_vec();
        let samples = [0x85u8, 0x12, 0x34];
        let mut k = 0;
        while decode(&v).is_none() {
            v.push(samples[k % 3]);
            k += 1;
        }
        v
    };
    for op in 0..=255u8 {
        if !matches!(op, 0xCB | 0xDD | 0xED | 0xFD) {
            out.push(complete(&[op]));
        }
    }
    for op in 0..=255u8 {
        out.push(vec![0xCB, op]);
    }
    for op in 0..=255u8 {
        out.push(complete(&[0xED, op]));
    }
    for p in [0xDD, 0xFD] {
        for op in 0..=255u8 {
            if !matches!(op, 0xCB | 0xDD | 0xED | 0xFD) {
                out.push(complete(&[p, op]));
            }
        }
        for op in 0..=255u8 {
            out.push(vec![p, 0xCB, 0x85, op]);
        }
    }
    out
}

/// How numbers are written by `Display` and the disassembler: `$`-prefixed hex that every Z80
/// assembler (pasmo, z80asm, ours) reads.
pub fn hex8(n: u8) -> String {
    format!("${n:02X}")
}

pub fn hex16(n: u16) -> String {
    format!("${n:04X}")
}

fn disp(d: i8) -> String {
    if d < 0 {
        format!("-{}", -(d as i16))
    } else {
        format!("+{d}")
    }
}

impl fmt::Display for Loc8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Loc8::B => f.write_str("b"),
            Loc8::C => f.write_str("c"),
            Loc8::D => f.write_str("d"),
            Loc8::E => f.write_str("e"),
            Loc8::H => f.write_str("h"),
            Loc8::L => f.write_str("l"),
            Loc8::A => f.write_str("a"),
            Loc8::Ixh => f.write_str("ixh"),
            Loc8::Ixl => f.write_str("ixl"),
            Loc8::Iyh => f.write_str("iyh"),
            Loc8::Iyl => f.write_str("iyl"),
            Loc8::IndHl => f.write_str("(hl)"),
            Loc8::IndIx(d) => write!(f, "(ix{})", disp(d)),
            Loc8::IndIy(d) => write!(f, "(iy{})", disp(d)),
        }
    }
}

impl Instruction {
    /// Formats the instruction; `target` renders a 16-bit address operand or a relative jump target
    /// (given the displacement), so the disassembler can put labels there.
    pub fn format_with(&self, target: &dyn Fn(Target) -> String) -> String {
        use Instruction as I;
        let cond = |c: Option<Cond>| c.map_or(String::new(), |c| format!("{},", c.name()));
        let copy = |c: Option<Reg8>| c.map_or(String::new(), |r| format!(",{}", r.name()));
        match *self {
            I::Nop => "nop".into(),
            I::Halt => "halt".into(),
            I::Di => "di".into(),
            I::Ei => "ei".into(),
            I::Im(n) => format!("im {n}"),
            I::Exx => "exx".into(),
            I::ExAf => "ex af,af'".into(),
            I::ExDeHl => "ex de,hl".into(),
            I::ExSp(r) => format!("ex (sp),{}", r.name()),
            I::Daa => "daa".into(),
            I::Cpl => "cpl".into(),
            I::Neg => "neg".into(),
            I::Ccf => "ccf".into(),
            I::Scf => "scf".into(),
            I::Rlca => "rlca".into(),
            I::Rrca => "rrca".into(),
            I::Rla => "rla".into(),
            I::Rra => "rra".into(),
            I::Rld => "rld".into(),
            I::Rrd => "rrd".into(),
            I::Reti => "reti".into(),
            I::Retn => "retn".into(),
            I::Block(op) => op.name().into(),
            I::Ld(d, s) => format!("ld {d},{s}"),
            I::LdImm(d, n) => format!("ld {d},{}", hex8(n)),
            I::LdAInd(r) => format!("ld a,({})", r.name()),
            I::LdIndA(r) => format!("ld ({}),a", r.name()),
            I::LdAAddr(n) => format!("ld a,({})", target(Target::Addr(n))),
            I::LdAddrA(n) => format!("ld ({}),a", target(Target::Addr(n))),
            I::LdAI => "ld a,i".into(),
            I::LdAR => "ld a,r".into(),
            I::LdIA => "ld i,a".into(),
            I::LdRA => "ld r,a".into(),
            I::Ld16(r, n) => format!("ld {},{}", r.name(), target(Target::Imm16(n))),
            I::Ld16Addr(r, n) => format!("ld {},({})", r.name(), target(Target::Addr(n))),
            I::LdAddr16(n, r) => format!("ld ({}),{}", target(Target::Addr(n)), r.name()),
            I::LdSp(r) => format!("ld sp,{}", r.name()),
            I::Push(r) => format!("push {}", r.name()),
            I::Pop(r) => format!("pop {}", r.name()),
            I::Alu(op, s) if op.shows_a() => format!("{} a,{s}", op.name()),
            I::Alu(op, s) => format!("{} {s}", op.name()),
            I::AluImm(op, n) if op.shows_a() => format!("{} a,{}", op.name(), hex8(n)),
            I::AluImm(op, n) => format!("{} {}", op.name(), hex8(n)),
            I::Inc(r) => format!("inc {r}"),
            I::Dec(r) => format!("dec {r}"),
            I::Inc16(r) => format!("inc {}", r.name()),
            I::Dec16(r) => format!("dec {}", r.name()),
            I::Add16(d, s) => format!("add {},{}", d.name(), s.name()),
            I::Adc16(s) => format!("adc hl,{}", s.name()),
            I::Sbc16(s) => format!("sbc hl,{}", s.name()),
            I::Shift(op, l, c) => format!("{} {l}{}", op.name(), copy(c)),
            I::Bit(n, l) => format!("bit {n},{l}"),
            I::Res(n, l, c) => format!("res {n},{l}{}", copy(c)),
            I::Set(n, l, c) => format!("set {n},{l}{}", copy(c)),
            I::Jp(c, n) => format!("jp {}{}", cond(c), target(Target::Jump(n))),
            I::JpInd(r) => format!("jp ({})", r.name()),
            I::Jr(c, d) => format!("jr {}{}", cond(c), target(Target::Rel(d))),
            I::Djnz(d) => format!("djnz {}", target(Target::Rel(d))),
            I::Call(c, n) => format!("call {}{}", cond(c), target(Target::Jump(n))),
            I::Ret(None) => "ret".into(),
            I::Ret(Some(c)) => format!("ret {}", c.name()),
            I::Rst(n) => format!("rst {}", hex8(n)),
            I::InA(n) => format!("in a,({})", hex8(n)),
            I::InC(Some(r)) => format!("in {},(c)", r.name()),
            I::InC(None) => "in f,(c)".into(),
            I::OutA(n) => format!("out ({}),a", hex8(n)),
            I::OutC(Some(r)) => format!("out (c),{}", r.name()),
            I::OutC(None) => "out (c),0".into(),
            I::EdUndefined(op) => format!("defb $ED,{}", hex8(op)),
        }
    }

    /// True for instructions the debugger's "step over" runs to completion: calls, RST and the
    /// repeating block instructions.
    pub fn is_subroutine_call(&self) -> bool {
        matches!(self, Instruction::Call(..) | Instruction::Rst(_))
    }

    /// True for CALL, RST and the repeating block instructions (LDIR, ...).
    pub fn steps_over(&self) -> bool {
        self.is_subroutine_call() || matches!(self, Instruction::Block(b) if b.repeats())
    }

    /// The jump/call target if the instruction can transfer control to a fixed address, given the
    /// instruction's own address and length.
    pub fn branch_target(&self, addr: u16, len: usize) -> Option<u16> {
        let next = addr.wrapping_add(len as u16);
        match *self {
            Instruction::Jp(_, n) | Instruction::Call(_, n) => Some(n),
            Instruction::Jr(_, d) | Instruction::Djnz(d) => Some(next.wrapping_add(d as i16 as u16)),
            Instruction::Rst(n) => Some(n as u16),
            _ => None,
        }
    }
}

/// What kind of number `format_with` asks to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A 16-bit immediate (`ld hl,nn`): maybe an address, maybe a number.
    Imm16(u16),
    /// A memory address in parentheses.
    Addr(u16),
    /// A jump or call target.
    Jump(u16),
    /// A relative displacement (JR/DJNZ), from the end of the instruction.
    Rel(i8),
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format_with(&|t| match t {
            Target::Imm16(n) | Target::Addr(n) | Target::Jump(n) => hex16(n),
            // `$` is the address of the instruction; the displacement counts from its end (2 bytes on).
            Target::Rel(d) => {
                let off = d as i16 + 2;
                if off < 0 {
                    format!("$-{}", -off)
                } else {
                    format!("$+{off}")
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(i: Instruction) -> Vec<u8> {
        encode(&i).unwrap().to_vec()
    }

    #[test]
    fn documented_spot_checks_match_the_zilog_tables() {
        assert_eq!(enc(Instruction::Ld(Loc8::A, Loc8::IndIx(5))), [0xDD, 0x7E, 0x05]);
        assert_eq!(
            enc(Instruction::LdImm(Loc8::IndIy(-2), 0x12)),
            [0xFD, 0x36, 0xFE, 0x12]
        );
        assert_eq!(enc(Instruction::Bit(7, Loc8::IndIx(1))), [0xDD, 0xCB, 0x01, 0x7E]);
        assert_eq!(
            enc(Instruction::Ld16Addr(Reg16::SP, 0x1234)),
            [0xED, 0x7B, 0x34, 0x12]
        );
        assert_eq!(enc(Instruction::Jr(Some(Cond::C), -2)), [0x38, 0xFE]);
        assert_eq!(enc(Instruction::Add16(Reg16::IY, Reg16::IY)), [0xFD, 0x29]);
    }

    #[test]
    fn undocumented_spot_checks() {
        assert_eq!(enc(Instruction::Ld(Loc8::Ixh, Loc8::Ixl)), [0xDD, 0x65]);
        assert_eq!(enc(Instruction::Shift(ShiftOp::Sll, Loc8::B, None)), [0xCB, 0x30]);
        assert_eq!(
            enc(Instruction::Res(0, Loc8::IndIx(1), Some(Reg8::B))),
            [0xDD, 0xCB, 0x01, 0x80]
        );
        assert_eq!(enc(Instruction::InC(None)), [0xED, 0x70]);
        assert_eq!(enc(Instruction::OutC(None)), [0xED, 0x71]);
    }

    #[test]
    fn debugger_queries_on_decoded_instructions() {
        // CALL nn and RST are stepped over; LDIR too; a JR's target is relative to its end.
        let (call, len) = decode(&[0xCD, 0x34, 0x12]).unwrap();
        assert!(call.steps_over() && call.is_subroutine_call());
        assert_eq!(call.branch_target(0x8000, len), Some(0x1234));
        let (rst, _) = decode(&[0xFF]).unwrap();
        assert!(rst.steps_over());
        let (ldir, _) = decode(&[0xED, 0xB0]).unwrap();
        assert!(ldir.steps_over() && !ldir.is_subroutine_call());
        let (jr, len) = decode(&[0x18, 0xFE]).unwrap();
        assert!(!jr.steps_over());
        assert_eq!(jr.branch_target(0x8000, len), Some(0x8000));
        let (ld, _) = decode(&[0x3E, 0x01]).unwrap();
        assert_eq!(ld.branch_target(0, 2), None);
    }

    #[test]
    fn impossible_combinations_are_rejected() {
        for bad in [
            Instruction::Ld(Loc8::IndHl, Loc8::IndHl),
            Instruction::Ld(Loc8::H, Loc8::Ixl),
            Instruction::Ld(Loc8::Ixh, Loc8::Iyl),
            Instruction::Ld(Loc8::Ixh, Loc8::IndIx(0)),
            Instruction::Shift(ShiftOp::Rl, Loc8::Ixh, None),
            Instruction::Jr(Some(Cond::PO), 0),
            Instruction::Add16(Reg16::IX, Reg16::HL),
            Instruction::Rst(7),
        ] {
            assert!(encode(&bad).is_err(), "{bad:?}");
        }
    }
}
