//! sjasmplus's multi-argument syntax (its default, comma-delimited): an instruction repeats for
//! each further group of operands, so `push af,bc` is two PUSHes, `ld a,b,c,d` is `ld a,b : ld c,d`
//! and `cp a,5` is `cp a : cp 5` (its manual: "SUB A,B two SUBs"). How many operands one
//! instruction takes was checked form by form against sjasmplus 1.23.1
//! (tests/sjasmplus/cases/multiarg.asm).

use super::Asm;
use super::operands::{Rg, reg_name};
use crate::lexer::{Tk, Tok};

/// The mnemonics sjasmplus repeats over operand groups.
const MULTI: &[&str] = &[
    "push", "pop", "inc", "dec", "djnz", "rst", "and", "or", "xor", "cp", "sub", "add", "adc", "sbc", "jp",
    "call", "jr", "rl", "rr", "rlc", "rrc", "sla", "sra", "srl", "sll", "sli", "bit", "res", "set", "in",
    "out", "ld", "ldi", "ldd",
];

const CONDITIONS: &[&str] = &["nz", "z", "nc", "c", "po", "pe", "p", "m"];

impl Asm<'_> {
    /// The operand groups of `rest` split into one slice per instruction, when `op` is a
    /// multi-argument mnemonic given more operands than one instruction takes; else None.
    pub(super) fn multi_arg<'t>(&self, op: &str, rest: &'t [Tok]) -> Option<Vec<&'t [Tok]>> {
        // Most lines have at most the one comma of a two-operand instruction: no allocation.
        let commas = rest.iter().filter(|t| t.kind == Tk::Comma).count();
        if commas == 0 || !MULTI.contains(&op) {
            return None;
        }
        // Top-level commas: group k runs from bounds[k] to the comma at bounds[k + 1] - 1.
        let mut bounds = vec![0];
        let mut depth = 0i32;
        for (i, t) in rest.iter().enumerate() {
            match t.kind {
                Tk::LParen | Tk::LBracket => depth += 1,
                Tk::RParen | Tk::RBracket => depth -= 1,
                Tk::Comma if depth == 0 => bounds.push(i + 1),
                _ => {}
            }
        }
        bounds.push(rest.len() + 1);
        let groups = bounds.len() - 1;
        let group = |k: usize| &rest[bounds[k]..bounds[k + 1] - 1];
        let mut out = vec![];
        let mut k = 0;
        while k < groups {
            let n = self.operands_taken(op, &(k..groups).map(group).collect::<Vec<_>>());
            let end = (k + n.max(1)).min(groups);
            out.push(&rest[bounds[k]..bounds[end] - 1]);
            k = end;
        }
        (out.len() > 1).then_some(out)
    }

    /// How many operand groups the next `op` instruction takes from `groups` (sjasmplus's parse).
    fn operands_taken(&self, op: &str, groups: &[&[Tok]]) -> usize {
        let word = |k: usize| -> Option<String> {
            match groups.get(k) {
                Some([t]) => match &t.kind {
                    Tk::Ident(s) => Some(s.to_ascii_lowercase()),
                    _ => None,
                },
                _ => None,
            }
        };
        let reg = |k: usize| word(k).and_then(|w| self.reg(&w));
        let wide = |k: usize| matches!(reg(k), Some(Rg::Bc | Rg::De | Rg::Hl | Rg::Ix | Rg::Iy | Rg::Sp));
        // `(ix+d)` / `(iy-d)` / `(ix)`: the undocumented register-copy forms follow it.
        let indexed = |k: usize| match groups.get(k) {
            Some(
                [
                    open,
                    Tok {
                        kind: Tk::Ident(r), ..
                    },
                    ..,
                ],
            ) if open.kind == Tk::LParen => {
                matches!(reg_name(r), Some(Rg::Ix | Rg::Iy))
            }
            _ => false,
        };
        match op {
            "add" | "adc" | "sbc" if reg(0) == Some(Rg::A) || wide(0) => 2,
            "sub" if wide(0) => 2,
            "jp" | "call" | "jr" if word(0).is_some_and(|w| CONDITIONS.contains(&w.as_str())) => 2,
            // After `(ix+d)` a comma always starts the register-copy form: `rl (ix+1),(ix+2)` and
            // `set 1,(ix+1),2,(iy+2)` are errors in sjasmplus, never two instructions.
            "rl" | "rr" | "rlc" | "rrc" | "sla" | "sra" | "srl" | "sll" | "sli"
                if indexed(0) && groups.len() > 1 =>
            {
                2
            }
            "bit" => 2,
            "res" | "set" if indexed(1) && groups.len() > 2 => 3,
            "res" | "set" => 2,
            "in" if matches!(groups.first(), Some([l, c, r])
                if l.kind == Tk::LParen && r.kind == Tk::RParen && matches!(&c.kind, Tk::Ident(s) if s.eq_ignore_ascii_case("c"))) =>
            {
                1
            }
            "in" | "out" | "ld" | "ldi" | "ldd" => 2,
            _ => 1,
        }
    }
}
