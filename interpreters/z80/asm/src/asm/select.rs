//! Instruction selection: mnemonic and operands to a typed [`Instruction`](crate::isa::Instruction), with
//! the range checks (bytes, words, displacements, relative jumps) and their diagnostics.

use super::directives::Directive;
use super::mnemonics::MNEMONICS;
use super::operands::{Op, Rg, loc8_of, reg8_of, reg16_of};
use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc, suggest};
use crate::expr::Expr;
use crate::isa::{AluOp, BlockOp, Cond, Instruction as I, Loc8, Reg8, Reg16, ShiftOp};
use crate::lexer::{Line, Tk, Tok};

pub(super) fn line_text(a: &Asm<'_>, _line: &Line, op_tok: &Tok, rest: &[Tok]) -> String {
    let mut s = a.text(op_tok).to_string();
    for (k, t) in rest.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { "" });
        s.push_str(a.text(t));
    }
    s
}

impl Asm<'_> {
    pub(super) fn instruction(&mut self, op: &str, op_tok: &Tok, rest: &[Tok], line: &Line) -> R<I> {
        let ops: Vec<Op> = Self::split_commas(rest)
            .into_iter()
            .map(|t| self.parse_operand(t, line))
            .collect::<R<_>>()?;
        let bad = |a: &Self, why: &str| a.bad_operands(op, op_tok, rest, line, why.to_string());
        let n = ops.len();
        let none = |a: &Self, insn: I| {
            if n == 0 {
                Ok(insn)
            } else {
                Err(bad(a, "takes no operands"))
            }
        };
        let simple = match op {
            "nop" => Some(I::Nop),
            "halt" => Some(I::Halt),
            "di" => Some(I::Di),
            "ei" => Some(I::Ei),
            "exx" => Some(I::Exx),
            "daa" => Some(I::Daa),
            "cpl" => Some(I::Cpl),
            "neg" => Some(I::Neg),
            "ccf" => Some(I::Ccf),
            "scf" => Some(I::Scf),
            "rlca" => Some(I::Rlca),
            "rrca" => Some(I::Rrca),
            "rla" => Some(I::Rla),
            "rra" => Some(I::Rra),
            "rld" => Some(I::Rld),
            "rrd" => Some(I::Rrd),
            "reti" => Some(I::Reti),
            "retn" => Some(I::Retn),
            _ => BlockOp::ALL.iter().find(|b| b.name() == op).map(|&b| I::Block(b)),
        };
        if let Some(insn) = simple {
            return none(self, insn);
        }
        match op {
            "ld" => self.ld(&ops, op, op_tok, rest, line),
            "push" | "pop" => match ops.as_slice() {
                [Op::Reg(r, _)] if reg16_of(*r).is_some() && *r != Rg::Sp => {
                    let r = reg16_of(*r).unwrap_or(Reg16::BC);
                    Ok(if op == "push" { I::Push(r) } else { I::Pop(r) })
                }
                _ => Err(bad(self, "expects bc, de, hl, af, ix or iy")),
            },
            "ex" => match ops.as_slice() {
                [Op::Reg(Rg::Af, _), Op::Reg(Rg::AfAlt | Rg::Af, _)] => Ok(I::ExAf),
                [Op::Reg(Rg::De, _), Op::Reg(Rg::Hl, _)] => Ok(I::ExDeHl),
                [Op::Ind(Rg::Sp, _), Op::Reg(r @ (Rg::Hl | Rg::Ix | Rg::Iy), _)] => {
                    Ok(I::ExSp(reg16_of(*r).unwrap_or(Reg16::HL)))
                }
                _ => Err(bad(self, "expects af,af' or de,hl or (sp),hl/ix/iy")),
            },
            "add" | "adc" | "sub" | "sbc" | "and" | "or" | "xor" | "cp" => {
                let alu = AluOp::ALL
                    .iter()
                    .copied()
                    .find(|a| a.name() == op)
                    .unwrap_or(AluOp::Add);
                match ops.as_slice() {
                    [Op::Reg(d, _), Op::Reg(s, _)] if reg16_of(*d).is_some() => {
                        let (d, s) = (
                            reg16_of(*d).unwrap_or(Reg16::HL),
                            reg16_of(*s).ok_or_else(|| bad(self, "16-bit source expected"))?,
                        );
                        match alu {
                            AluOp::Add => Ok(I::Add16(d, s)),
                            AluOp::Adc if d == Reg16::HL => Ok(I::Adc16(s)),
                            AluOp::Sbc if d == Reg16::HL => Ok(I::Sbc16(s)),
                            _ => Err(bad(self, "no such 16-bit operation")),
                        }
                    }
                    [Op::Reg(Rg::A, _), src] => self.alu_src(alu, src),
                    [src] => self.alu_src(alu, src),
                    _ => Err(bad(self, "expects a,src or src")),
                }
            }
            "inc" | "dec" => match ops.as_slice() {
                [Op::Reg(r, _)] if reg16_of(*r).is_some() && *r != Rg::Af => {
                    let r = reg16_of(*r).unwrap_or(Reg16::BC);
                    Ok(if op == "inc" { I::Inc16(r) } else { I::Dec16(r) })
                }
                [o] => {
                    let l = self
                        .loc8(o)?
                        .ok_or_else(|| bad(self, "expects a register or (hl)"))?;
                    Ok(if op == "inc" { I::Inc(l) } else { I::Dec(l) })
                }
                _ => Err(bad(self, "takes one operand")),
            },
            "im" => match ops.as_slice() {
                [Op::Imm(e, l)] => {
                    let v = self.need(e, l)?;
                    if !(0..=2).contains(&v) {
                        return Err(Diagnostic::new(
                            DiagKind::OutOfRange,
                            l.clone(),
                            format!("interrupt mode {v} does not exist"),
                        )
                        .label("expected 0, 1 or 2"));
                    }
                    Ok(I::Im(v as u8))
                }
                _ => Err(bad(self, "expects 0, 1 or 2")),
            },
            "rlc" | "rrc" | "rl" | "rr" | "sla" | "sra" | "sll" | "sli" | "sl1" | "srl" => {
                let name = if matches!(op, "sli" | "sl1") { "sll" } else { op };
                let sop = ShiftOp::ALL
                    .iter()
                    .copied()
                    .find(|s| s.name() == name)
                    .unwrap_or(ShiftOp::Sll);
                let (target, copy) =
                    self.cb_operands(&ops, 0, || bad(self, "expects a register, (hl) or (ix+d)"))?;
                Ok(I::Shift(sop, target, copy))
            }
            "bit" | "res" | "set" => {
                let Some(Op::Imm(e, l)) = ops.first() else {
                    return Err(bad(self, "expects a bit number first"));
                };
                let b = self.need(e, l)?;
                if !(0..=7).contains(&b) {
                    return Err(Diagnostic::new(
                        DiagKind::OutOfRange,
                        l.clone(),
                        format!("bit {b} does not exist"),
                    )
                    .label("expected 0..7"));
                }
                let (target, copy) = self.cb_operands(&ops, 1, || {
                    bad(self, "expects a bit number and a register, (hl) or (ix+d)")
                })?;
                Ok(match op {
                    "bit" if copy.is_none() => I::Bit(b as u8, target),
                    "bit" => return Err(bad(self, "bit has no register-copy form")),
                    "res" => I::Res(b as u8, target, copy),
                    _ => I::Set(b as u8, target, copy),
                })
            }
            "jp" => match ops.as_slice() {
                [Op::Ind(r @ (Rg::Hl | Rg::Ix | Rg::Iy), _)]
                | [Op::Reg(r @ (Rg::Hl | Rg::Ix | Rg::Iy), _)] => {
                    Ok(I::JpInd(reg16_of(*r).unwrap_or(Reg16::HL)))
                }
                [t] => Ok(I::Jp(None, self.addr(t, &bad)?)),
                [c, t] => Ok(I::Jp(Some(self.cond(c, &bad)?), self.addr(t, &bad)?)),
                _ => Err(bad(self, "expects [cond,]address")),
            },
            "call" => match ops.as_slice() {
                [t] => Ok(I::Call(None, self.addr(t, &bad)?)),
                [c, t] => Ok(I::Call(Some(self.cond(c, &bad)?), self.addr(t, &bad)?)),
                _ => Err(bad(self, "expects [cond,]address")),
            },
            "ret" => match ops.as_slice() {
                [] => Ok(I::Ret(None)),
                [c] => Ok(I::Ret(Some(self.cond(c, &bad)?))),
                _ => Err(bad(self, "expects an optional condition")),
            },
            "jr" | "djnz" => {
                let (cond, target) = match ops.as_slice() {
                    [t] => (None, t),
                    [c, t] if op == "jr" => {
                        let c = self.cond(c, &bad)?;
                        if !matches!(c, Cond::NZ | Cond::Z | Cond::NC | Cond::C) {
                            let d = bad(self, "jr only tests nz, z, nc and c").help(format!(
                                "use `jp {},...` for the {} condition",
                                c.name(),
                                c.name()
                            ));
                            return Err(d);
                        }
                        (Some(c), t)
                    }
                    _ => return Err(bad(self, "expects [cond,]target")),
                };
                let d = self.rel(op, target, &bad)?;
                Ok(if op == "jr" { I::Jr(cond, d) } else { I::Djnz(d) })
            }
            "rst" => match ops.as_slice() {
                [Op::Imm(e, l)] => {
                    let v = self.need(e, l)?;
                    if v & !0x38 != 0 && !self.lenient {
                        let mut d = Diagnostic::new(
                            DiagKind::OutOfRange,
                            l.clone(),
                            format!("rst {v} is not a restart address"),
                        )
                        .label("expected 00h, 08h, 10h, ..., 38h");
                        if (1..8).contains(&v) {
                            d = d.help(format!("did you mean `rst {:02X}h`?", v * 8));
                        }
                        return Err(d);
                    }
                    Ok(I::Rst(v as u8))
                }
                _ => Err(bad(self, "expects a restart address")),
            },
            "in" => match ops.as_slice() {
                [Op::Reg(Rg::A, _), Op::Mem(e, l)] => Ok(I::InA(self.port(e, l)?)),
                [Op::Reg(Rg::F, _), Op::Ind(Rg::C, _)] | [Op::Ind(Rg::C, _)] => Ok(I::InC(None)),
                [Op::Reg(r, _), Op::Ind(Rg::C, _)] if reg8_of(*r).is_some() => Ok(I::InC(reg8_of(*r))),
                _ => Err(bad(self, "expects a,(n) or r,(c)")),
            },
            "out" => match ops.as_slice() {
                [Op::Mem(e, l), Op::Reg(Rg::A, _)] => Ok(I::OutA(self.port(e, l)?)),
                [Op::Ind(Rg::C, _), Op::Reg(r, _)] if reg8_of(*r).is_some() => Ok(I::OutC(reg8_of(*r))),
                [Op::Ind(Rg::C, _), Op::Imm(e, l)] if self.need(e, l)? == 0 => Ok(I::OutC(None)),
                _ => Err(bad(self, "expects (n),a or (c),r or (c),0")),
            },
            _ => {
                let known: Vec<&str> = MNEMONICS
                    .iter()
                    .copied()
                    .chain(Directive::names(self.dialect))
                    .collect();
                let macro_names: Vec<String> = self.macros.keys().cloned().collect();
                let mut d = Diagnostic::new(
                    DiagKind::UnknownMnemonic,
                    Self::tok_loc(op_tok),
                    format!("unknown instruction `{}`", self.text(op_tok)),
                )
                .label("not a Z80 instruction, directive or macro");
                // Past the rendering cap errors are only counted: skip the search.
                let suggestion = (self.diags.len() < crate::diag::MAX_SHOWN)
                    .then(|| {
                        suggest(
                            op,
                            known.into_iter().chain(macro_names.iter().map(|s| s.as_str())),
                        )
                    })
                    .flatten();
                if let Some(s) = suggestion {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                Err(d)
            }
        }
    }

    pub(super) fn port(&self, e: &Expr, l: &Loc) -> R<u8> {
        let v = self.need(e, l)?;
        self.byte(v, l)
    }

    pub(super) fn addr(&self, o: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<u16> {
        match o {
            Op::Imm(e, l) => {
                let v = self.need(e, l)?;
                self.word(v, l)
            }
            _ => Err(bad(self, "expects an address")),
        }
    }

    pub(super) fn cond(&self, o: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<Cond> {
        let name = match o {
            Op::Reg(Rg::C, _) => "c".to_string(),
            Op::Imm(e, _) if e.as_symbol().is_some() => {
                e.as_symbol().map_or(String::new(), |s| s.to_ascii_lowercase())
            }
            _ => return Err(bad(self, "expects a condition (nz, z, nc, c, po, pe, p, m)")),
        };
        Cond::ALL
            .iter()
            .copied()
            .find(|c| c.name() == name)
            .ok_or_else(|| bad(self, "expects a condition (nz, z, nc, c, po, pe, p, m)"))
    }

    pub(super) fn rel(&self, op: &str, t: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<i8> {
        let Op::Imm(e, l) = t else {
            return Err(bad(self, "expects a target address"));
        };
        let target = self.need(e, l)?;
        let mut dist = target - (self.here + 2);
        if (0..=0xFFFF).contains(&target) {
            // The program counter wraps at 64K, so jr from 0000h can reach FF82h.
            dist = (dist as u16) as i16 as i64;
        }
        if self.lenient {
            return Ok(0);
        }
        if !(-128..=127).contains(&dist) {
            let mut d = Diagnostic::new(
                DiagKind::OutOfRange,
                l.clone(),
                format!(
                    "{op} target is {} bytes {} (the limit is -128..+127)",
                    dist.abs(),
                    if dist < 0 { "back" } else { "ahead" }
                ),
            )
            .label(format!(
                "{} bytes out of range",
                dist.abs() - if dist < 0 { 128 } else { 127 }
            ));
            d = d.help(if op == "jr" {
                "use `jp`, which reaches any address (one byte longer)".to_string()
            } else {
                "use `dec b` + `jp nz,...` instead of djnz".to_string()
            });
            return Err(d);
        }
        Ok(dist as i8)
    }

    /// Target (and optional DDCB register copy) of a CB instruction, starting at operand `k`.
    pub(super) fn cb_operands(
        &self,
        ops: &[Op],
        k: usize,
        bad: impl Fn() -> Diagnostic,
    ) -> R<(Loc8, Option<Reg8>)> {
        match &ops[k.min(ops.len())..] {
            [o] => Ok((self.loc8(o)?.ok_or_else(&bad)?, None)),
            [o, Op::Reg(r, _)] => {
                let t = self.loc8(o)?.ok_or_else(&bad)?;
                Ok((t, Some(reg8_of(*r).ok_or_else(&bad)?)))
            }
            _ => Err(bad()),
        }
    }

    pub(super) fn disp(&self, e: &Expr, l: &Loc) -> R<i8> {
        let v = self.need(e, l)?;
        // pasmo and z80asm take -128..255 silently, so `(ix+200)` addresses ix-56: a user who
        // asked for +200 would get -56. Deliberately an error here (issue #21).
        if (-128..=127).contains(&v) || self.lenient {
            Ok(v as i8)
        } else {
            let mut d = Diagnostic::new(
                DiagKind::OutOfRange,
                l.clone(),
                format!("index displacement {v} is out of range"),
            )
            .label("must be -128..+127")
            .help("(ix+d) reaches 128 bytes back and 127 ahead; adjust IX instead");
            if (128..=255).contains(&v) {
                d = d.note(format!(
                    "pasmo and z80asm would silently use {} here",
                    v as u8 as i8
                ));
            }
            Err(d)
        }
    }

    /// An 8-bit register or memory operand; Ok(None) if the operand is not one.
    pub(super) fn loc8(&self, o: &Op) -> R<Option<Loc8>> {
        Ok(match o {
            Op::Reg(r, _) => loc8_of(*r),
            Op::Ind(Rg::Hl, _) => Some(Loc8::IndHl),
            Op::Ind(Rg::Ix, _) => Some(Loc8::IndIx(0)),
            Op::Ind(Rg::Iy, _) => Some(Loc8::IndIy(0)),
            Op::Idx(Rg::Ix, e, l) => Some(Loc8::IndIx(self.disp(e, l)?)),
            Op::Idx(Rg::Iy, e, l) => Some(Loc8::IndIy(self.disp(e, l)?)),
            _ => None,
        })
    }

    pub(super) fn alu_src(&self, alu: AluOp, src: &Op) -> R<I> {
        if let Some(l) = self.loc8(src)? {
            return Ok(I::Alu(alu, l));
        }
        match src {
            Op::Imm(e, l) => {
                let v = self.need(e, l)?;
                Ok(I::AluImm(alu, self.byte(v, l)?))
            }
            other => Err(Diagnostic::new(
                DiagKind::BadOperands,
                other.loc().clone(),
                format!("invalid operand for `{}`", alu.name()),
            )
            .label("expected a register, (hl), (ix+d) or a number")),
        }
    }

    pub(super) fn ld(&self, ops: &[Op], op: &str, op_tok: &Tok, rest: &[Tok], line: &Line) -> R<I> {
        let bad = |why: &str| self.bad_operands(op, op_tok, rest, line, why.to_string());
        let [dst, src] = ops else {
            return Err(bad("ld takes two operands"));
        };
        // Special registers first.
        match (dst, src) {
            (Op::Reg(Rg::A, _), Op::Reg(Rg::I, _)) => return Ok(I::LdAI),
            (Op::Reg(Rg::A, _), Op::Reg(Rg::R, _)) => return Ok(I::LdAR),
            (Op::Reg(Rg::I, _), Op::Reg(Rg::A, _)) => return Ok(I::LdIA),
            (Op::Reg(Rg::R, _), Op::Reg(Rg::A, _)) => return Ok(I::LdRA),
            (Op::Reg(Rg::A, _), Op::Ind(r @ (Rg::Bc | Rg::De), _)) => {
                return Ok(I::LdAInd(reg16_of(*r).unwrap_or(Reg16::BC)));
            }
            (Op::Ind(r @ (Rg::Bc | Rg::De), _), Op::Reg(Rg::A, _)) => {
                return Ok(I::LdIndA(reg16_of(*r).unwrap_or(Reg16::BC)));
            }
            (Op::Reg(Rg::A, _), Op::Mem(e, l)) => return Ok(I::LdAAddr(self.word(self.need(e, l)?, l)?)),
            (Op::Mem(e, l), Op::Reg(Rg::A, _)) => return Ok(I::LdAddrA(self.word(self.need(e, l)?, l)?)),
            (Op::Reg(Rg::Sp, _), Op::Reg(r @ (Rg::Hl | Rg::Ix | Rg::Iy), _)) => {
                return Ok(I::LdSp(reg16_of(*r).unwrap_or(Reg16::HL)));
            }
            _ => {}
        }
        if let Op::Reg(d, _) = dst
            && let Some(r16) = reg16_of(*d)
        {
            return match src {
                Op::Imm(e, l) => Ok(I::Ld16(r16, self.word(self.need(e, l)?, l)?)),
                Op::Mem(e, l) => Ok(I::Ld16Addr(r16, self.word(self.need(e, l)?, l)?)),
                _ => Err(bad("a 16-bit register loads a number or (address)")),
            };
        }
        if let (Op::Mem(e, l), Op::Reg(s, _)) = (dst, src)
            && let Some(r16) = reg16_of(*s)
        {
            return Ok(I::LdAddr16(self.word(self.need(e, l)?, l)?, r16));
        }
        let d8 = self.loc8(dst)?.ok_or_else(|| bad("cannot load into this"))?;
        if let Some(s8) = self.loc8(src)? {
            return Ok(I::Ld(d8, s8));
        }
        match src {
            Op::Imm(e, l) => Ok(I::LdImm(d8, self.byte(self.need(e, l)?, l)?)),
            Op::Ind(..) if d8.is_memory() => Err(bad("memory to memory is impossible")),
            _ => Err(bad("no such load")),
        }
    }

    pub(super) fn byte(&self, v: i64, loc: &Loc) -> R<u8> {
        if (-128..=255).contains(&v) || self.lenient {
            Ok(v as u8)
        } else {
            Err(Diagnostic::new(
                DiagKind::OutOfRange,
                loc.clone(),
                format!("value {v} does not fit in a byte"),
            )
            .label(format!("{v} = ${:X}", v))
            .help("a byte holds -128..255; use LOW(...) or `& 0FFh` to keep the low byte"))
        }
    }

    pub(super) fn word(&self, v: i64, loc: &Loc) -> R<u16> {
        if (-32768..=65535).contains(&v) || self.lenient {
            Ok(v as u16)
        } else {
            Err(Diagnostic::new(
                DiagKind::OutOfRange,
                loc.clone(),
                format!("value {v} does not fit in 16 bits"),
            )
            .label("too large")
            .help("a word holds -32768..65535"))
        }
    }

    pub(super) fn bad_operands(
        &self,
        op: &str,
        op_tok: &Tok,
        rest: &[Tok],
        line: &Line,
        why: String,
    ) -> Diagnostic {
        let text: String = line_text(self, line, op_tok, rest);
        let loc = if rest.is_empty() {
            Self::tok_loc(op_tok)
        } else {
            Self::toks_loc(rest, line)
        };
        let mut d = Diagnostic::new(
            DiagKind::BadOperands,
            loc,
            format!("invalid operands for `{op}`: {text}"),
        )
        .label(why);
        if op == "ld" && rest.iter().filter(|t| t.kind == Tk::LParen).count() >= 2 {
            d = d.help("the Z80 cannot copy memory to memory in one instruction; go through a register, e.g. `ld a,(hl)` then `ld (de),a`");
        }
        d
    }
}
