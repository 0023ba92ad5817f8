//! sjasmplus's fake instructions: 16-bit loads, shifts and arithmetic the Z80 lacks, each made of
//! real instructions (`ld bc,de` is `ld b,d : ld c,e`), and `ldi`/`ldd` with operands (a load,
//! then the pointer stepped).

use super::operands::{Op, Rg, reg16_of};
use super::{Asm, R};
use crate::expr::Expr;
use crate::isa::{AluOp, Instruction as I, Loc8, Reg16, ShiftOp};
use crate::lexer::{Line, Tok};

/// The high and low halves of a register pair that has them.
fn halves(r: Rg) -> Option<(Loc8, Loc8)> {
    Some(match r {
        Rg::Bc => (Loc8::B, Loc8::C),
        Rg::De => (Loc8::D, Loc8::E),
        Rg::Hl => (Loc8::H, Loc8::L),
        Rg::Ix => (Loc8::Ixh, Loc8::Ixl),
        Rg::Iy => (Loc8::Iyh, Loc8::Iyl),
        _ => return None,
    })
}

fn r16(r: Rg) -> Reg16 {
    reg16_of(r).unwrap_or(Reg16::HL)
}

impl Asm<'_> {
    /// The real instructions a fake one stands for; None when `op ops` is not a fake instruction.
    pub(super) fn fake(&self, op: &str, op_tok: &Tok, rest: &[Tok], line: &Line) -> R<Option<Vec<I>>> {
        if !matches!(
            op,
            "ld" | "ldi"
                | "ldd"
                | "rl"
                | "rr"
                | "sla"
                | "sll"
                | "sli"
                | "sra"
                | "srl"
                | "add"
                | "adc"
                | "sbc"
                | "sub"
        ) || rest.is_empty()
        {
            return Ok(None);
        }
        let ops: Vec<Op> = Self::split_commas(rest)
            .into_iter()
            .map(|t| self.parse_operand(t, line))
            .collect::<R<_>>()?;
        // An (ix+d) operand and the one a byte above it.
        let idx = |o: &Op| -> R<Option<(Loc8, Loc8)>> {
            Ok(match o {
                Op::Ind(Rg::Ix, _) => Some((Loc8::IndIx(0), Loc8::IndIx(1))),
                Op::Ind(Rg::Iy, _) => Some((Loc8::IndIy(0), Loc8::IndIy(1))),
                Op::Idx(r, e, l) => {
                    let d = self.disp(e, l)?;
                    let d1 = self.disp(&Expr::num(d as i64 + 1), l)?;
                    Some(match r {
                        Rg::Ix => (Loc8::IndIx(d), Loc8::IndIx(d1)),
                        _ => (Loc8::IndIy(d), Loc8::IndIy(d1)),
                    })
                }
                _ => None,
            })
        };
        let pair = |o: &Op, allowed: &[Rg]| match o {
            Op::Reg(r, _) if allowed.contains(r) => halves(*r).map(|h| (*r, h)),
            _ => None,
        };
        const BDH: &[Rg] = &[Rg::Bc, Rg::De, Rg::Hl];
        const BD: &[Rg] = &[Rg::Bc, Rg::De];
        const ALL: &[Rg] = &[Rg::Bc, Rg::De, Rg::Hl, Rg::Ix, Rg::Iy];
        let hl_ind = |o: &Op| matches!(o, Op::Ind(Rg::Hl, _));
        let v = match (op, ops.as_slice()) {
            ("ld", [d, s]) => {
                if let (Some((dr, (dh, dl))), Some((sr, (sh, sl)))) = (pair(d, ALL), pair(s, ALL)) {
                    let index = |r: Rg| matches!(r, Rg::Ix | Rg::Iy);
                    // No instruction moves between H/L and an index half: go through the stack.
                    if (index(dr) || index(sr))
                        && dr != sr
                        && (dr == Rg::Hl || sr == Rg::Hl || index(dr) == index(sr))
                    {
                        vec![I::Push(r16(sr)), I::Pop(r16(dr))]
                    } else {
                        vec![I::Ld(dh, sh), I::Ld(dl, sl)]
                    }
                } else if let (Some((_, (h, l))), true) = (pair(d, BD), hl_ind(s)) {
                    let hl = Reg16::HL;
                    vec![
                        I::Ld(l, Loc8::IndHl),
                        I::Inc16(hl),
                        I::Ld(h, Loc8::IndHl),
                        I::Dec16(hl),
                    ]
                } else if let (true, Some((_, (h, l)))) = (hl_ind(d), pair(s, BD)) {
                    let hl = Reg16::HL;
                    vec![
                        I::Ld(Loc8::IndHl, l),
                        I::Inc16(hl),
                        I::Ld(Loc8::IndHl, h),
                        I::Dec16(hl),
                    ]
                } else if let (Some((_, (h, l))), Some((m0, m1))) = (pair(d, BDH), idx(s)?) {
                    vec![I::Ld(l, m0), I::Ld(h, m1)]
                } else if let (Some((m0, m1)), Some((_, (h, l)))) = (idx(d)?, pair(s, BDH)) {
                    vec![I::Ld(m0, l), I::Ld(m1, h)]
                } else {
                    return Ok(None);
                }
            }
            ("rl" | "rr" | "sla" | "sll" | "sli" | "sra" | "srl", [o]) => {
                let Some((r, (h, l))) = pair(o, BDH) else {
                    return Ok(None);
                };
                let sh = |s: ShiftOp, x: Loc8| I::Shift(s, x, None);
                match op {
                    "rl" => vec![sh(ShiftOp::Rl, l), sh(ShiftOp::Rl, h)],
                    "rr" => vec![sh(ShiftOp::Rr, h), sh(ShiftOp::Rr, l)],
                    "sla" if r == Rg::Hl => vec![I::Add16(Reg16::HL, Reg16::HL)],
                    "sla" => vec![sh(ShiftOp::Sla, l), sh(ShiftOp::Rl, h)],
                    "sll" | "sli" => vec![sh(ShiftOp::Sll, l), sh(ShiftOp::Rl, h)],
                    "sra" => vec![sh(ShiftOp::Sra, h), sh(ShiftOp::Rr, l)],
                    _ => vec![sh(ShiftOp::Srl, h), sh(ShiftOp::Rr, l)],
                }
            }
            (
                "add" | "adc" | "sbc" | "sub",
                [
                    Op::Reg(Rg::De, _),
                    Op::Reg(s @ (Rg::Bc | Rg::De | Rg::Hl | Rg::Sp), _),
                ],
            ) => {
                // Through HL: DE and HL swap places, so `add de,hl` adds DE (the old HL).
                let s = match s {
                    Rg::De => Reg16::HL,
                    Rg::Hl => Reg16::DE,
                    other => r16(*other),
                };
                let mut v = if op == "sub" {
                    vec![I::Alu(AluOp::Or, Loc8::A)]
                } else {
                    vec![]
                };
                v.push(I::ExDeHl);
                v.push(match op {
                    "add" => I::Add16(Reg16::HL, s),
                    "adc" => I::Adc16(s),
                    _ => I::Sbc16(s),
                });
                v.push(I::ExDeHl);
                v
            }
            (
                "sub",
                [
                    Op::Reg(Rg::Hl, _),
                    Op::Reg(s @ (Rg::Bc | Rg::De | Rg::Hl | Rg::Sp), _),
                ],
            ) => {
                vec![I::Alu(AluOp::Or, Loc8::A), I::Sbc16(r16(*s))]
            }
            ("ldi" | "ldd", [d, s]) => {
                let step = |r: Reg16| if op == "ldi" { I::Inc16(r) } else { I::Dec16(r) };
                let pointer = |o: &Op| match o {
                    Op::Ind(r @ (Rg::Bc | Rg::De | Rg::Hl | Rg::Ix | Rg::Iy), _) | Op::Idx(r, ..) => {
                        Some(r16(*r))
                    }
                    _ => None,
                };
                if let (Some((_, (h, l))), Some(p)) = (pair(d, BDH), pointer(s)) {
                    let m = self
                        .loc8(s)?
                        .ok_or_else(|| self.bad_operands(op, op_tok, rest, line, "no such load".into()))?;
                    vec![I::Ld(l, m), step(p), I::Ld(h, m), step(p)]
                } else if let (Some(p), Some((_, (h, l)))) = (pointer(d), pair(s, BDH)) {
                    let m = self
                        .loc8(d)?
                        .ok_or_else(|| self.bad_operands(op, op_tok, rest, line, "no such load".into()))?;
                    vec![I::Ld(m, l), step(p), I::Ld(m, h), step(p)]
                } else if let Some(p) = pointer(d).or_else(|| pointer(s)) {
                    vec![self.ld(&ops, "ld", op_tok, rest, line)?, step(p)]
                } else {
                    return Ok(None);
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }
}
