//! Operands: register names and the parsed forms of an instruction's operands.

use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc};
use crate::expr::Expr;
use crate::isa::{Loc8, Reg8, Reg16};
use crate::lexer::{Line, Tk, Tok};
use std::rc::Rc;

/// A parsed operand.
#[derive(Debug, Clone)]
pub(super) enum Op {
    Reg(Rg, Loc),
    /// `(hl)`, `(bc)`, `(de)`, `(sp)`, `(c)`, `(ix)`, `(iy)`
    Ind(Rg, Loc),
    /// `(ix+e)` / `(iy+e)`
    Idx(Rg, Expr, Loc),
    /// `(nn)`
    Mem(Expr, Loc),
    Imm(Expr, Loc),
    Str(Rc<[u8]>, Loc),
}

impl Op {
    pub(super) fn loc(&self) -> &Loc {
        match self {
            Op::Reg(_, l)
            | Op::Ind(_, l)
            | Op::Idx(_, _, l)
            | Op::Mem(_, l)
            | Op::Imm(_, l)
            | Op::Str(_, l) => l,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rg {
    A,
    B,
    C,
    D,
    E,
    H,
    L,
    I,
    R,
    F,
    Ixh,
    Ixl,
    Iyh,
    Iyl,
    Af,
    AfAlt,
    Bc,
    De,
    Hl,
    Sp,
    Ix,
    Iy,
}

pub(super) fn reg_name(s: &str) -> Option<Rg> {
    Some(match s.to_ascii_lowercase().as_str() {
        "a" => Rg::A,
        "b" => Rg::B,
        "c" => Rg::C,
        "d" => Rg::D,
        "e" => Rg::E,
        "h" => Rg::H,
        "l" => Rg::L,
        "i" => Rg::I,
        "r" => Rg::R,
        "f" => Rg::F,
        "ixh" | "xh" | "hx" => Rg::Ixh,
        "ixl" | "xl" | "lx" => Rg::Ixl,
        "iyh" | "yh" | "hy" => Rg::Iyh,
        "iyl" | "yl" | "ly" => Rg::Iyl,
        "af" => Rg::Af,
        "bc" => Rg::Bc,
        "de" => Rg::De,
        "hl" => Rg::Hl,
        "sp" => Rg::Sp,
        "ix" => Rg::Ix,
        "iy" => Rg::Iy,
        _ => return None,
    })
}

/// The short spellings of the index register halves (`hx`, `xl`, ...). pasmo and z80asm know
/// only `ixh`-style names and accept these as labels, so they are registers here only while no
/// symbol of that name exists.
pub(super) fn is_short_half(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "xh" | "hx" | "xl" | "lx" | "yh" | "hy" | "yl" | "ly"
    )
}

/// A register name that can never be a label.
pub(super) fn reserved_reg(s: &str) -> Option<Rg> {
    reg_name(s).filter(|_| !is_short_half(s))
}

pub(super) fn loc8_of(r: Rg) -> Option<Loc8> {
    Some(match r {
        Rg::A => Loc8::A,
        Rg::B => Loc8::B,
        Rg::C => Loc8::C,
        Rg::D => Loc8::D,
        Rg::E => Loc8::E,
        Rg::H => Loc8::H,
        Rg::L => Loc8::L,
        Rg::Ixh => Loc8::Ixh,
        Rg::Ixl => Loc8::Ixl,
        Rg::Iyh => Loc8::Iyh,
        Rg::Iyl => Loc8::Iyl,
        _ => return None,
    })
}

pub(super) fn reg8_of(r: Rg) -> Option<Reg8> {
    Some(match r {
        Rg::A => Reg8::A,
        Rg::B => Reg8::B,
        Rg::C => Reg8::C,
        Rg::D => Reg8::D,
        Rg::E => Reg8::E,
        Rg::H => Reg8::H,
        Rg::L => Reg8::L,
        _ => return None,
    })
}

pub(super) fn reg16_of(r: Rg) -> Option<Reg16> {
    Some(match r {
        Rg::Bc => Reg16::BC,
        Rg::De => Reg16::DE,
        Rg::Hl => Reg16::HL,
        Rg::Sp => Reg16::SP,
        Rg::Af => Reg16::AF,
        Rg::Ix => Reg16::IX,
        Rg::Iy => Reg16::IY,
        _ => return None,
    })
}

impl Asm<'_> {
    pub(super) fn parse_operand(&self, toks: &[Tok], line: &Line) -> R<Op> {
        let loc = Self::toks_loc(toks, line);
        let Some(first) = toks.first() else {
            return Err(
                Diagnostic::new(DiagKind::Syntax, loc, "missing operand").label("operand expected here")
            );
        };
        if toks.len() == 1 {
            match &first.kind {
                Tk::Ident(s) => {
                    if let Some(r) = self.reg(s) {
                        return Ok(Op::Reg(r, loc));
                    }
                }
                Tk::AfAlt => return Ok(Op::Reg(Rg::AfAlt, loc)),
                Tk::Str(b) if b.len() != 1 && b.len() != 2 => return Ok(Op::Str(b.clone(), loc)),
                _ => {}
            }
        }
        if matches!(first.kind, Tk::LParen | Tk::LBracket) && Self::closes_at_end(toks) {
            let inner = &toks[1..toks.len() - 1];
            if let Some(Tk::Ident(s)) = inner.first().map(|t| &t.kind)
                && let Some(r) = self.reg(s)
            {
                if inner.len() == 1 {
                    return Ok(Op::Ind(r, loc));
                }
                if matches!(r, Rg::Ix | Rg::Iy) && matches!(inner[1].kind, Tk::Plus | Tk::Minus) {
                    let e = self.parse_expr(&inner[1..], line)?;
                    return Ok(Op::Idx(r, e, Self::toks_loc(&inner[1..], line)));
                }
                return Err(Diagnostic::new(
                    DiagKind::Syntax,
                    loc,
                    "a register cannot be used in an expression",
                )
                .label("not a valid memory operand"));
            }
            return Ok(Op::Mem(self.parse_expr(inner, line)?, loc));
        }
        if let Tk::Str(b) = &first.kind
            && toks.len() == 1
            && b.len() > 2
        {
            return Ok(Op::Str(b.clone(), loc));
        }
        Ok(Op::Imm(self.parse_expr(toks, line)?, loc))
    }

    /// True if the opening bracket at toks[0] is closed by the last token.
    pub(super) fn closes_at_end(toks: &[Tok]) -> bool {
        let mut depth = 0;
        for (i, t) in toks.iter().enumerate() {
            match t.kind {
                Tk::LParen | Tk::LBracket => depth += 1,
                Tk::RParen | Tk::RBracket => {
                    depth -= 1;
                    if depth == 0 {
                        return i == toks.len() - 1;
                    }
                }
                _ => {}
            }
        }
        false
    }
}
