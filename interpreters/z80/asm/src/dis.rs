//! The disassembler: bytes to source text that reassembles to the same bytes, symbolic when a
//! symbol table is given.
use crate::isa::{Instruction, Target, decode, encode, hex8, hex16};
use crate::output::{SymbolKind, SymbolTable};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One disassembled instruction (or data bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisLine {
    pub addr: u16,
    pub bytes: Vec<u8>,
    /// The decoded instruction; `None` for bytes shown as DEFB (a truncated instruction at the end).
    pub insn: Option<Instruction>,
    /// Source text that assembles to exactly `bytes`.
    pub text: String,
    /// Extra explanation for non-canonical encodings (e.g. "neg (undocumented ED 4C)").
    pub comment: Option<String>,
}

fn defb(bytes: &[u8]) -> String {
    format!(
        "defb {}",
        bytes.iter().map(|b| hex8(*b)).collect::<Vec<_>>().join(",")
    )
}

/// Disassembles one instruction at `addr`. Non-canonical encodings (redundant prefixes, ED aliases)
/// become DEFB with the meaning as a comment, so the text still assembles to the same bytes.
pub fn disassemble_one(bytes: &[u8], addr: u16, symbols: Option<&SymbolTable>) -> DisLine {
    let Some((insn, len)) = decode(bytes) else {
        return DisLine {
            addr,
            bytes: bytes.to_vec(),
            insn: None,
            text: defb(bytes),
            comment: Some("truncated instruction".into()),
        };
    };
    let raw = &bytes[..len];
    let name = |n: u16, labels_only: bool| -> Option<String> {
        let s = symbols?;
        let name = s.name_of(n)?;
        (!labels_only || s.kind(name) == Some(SymbolKind::Label)).then(|| name.to_string())
    };
    let target = |t: Target| match t {
        Target::Imm16(n) => name(n, true).unwrap_or_else(|| hex16(n)),
        Target::Addr(n) | Target::Jump(n) => name(n, false).unwrap_or_else(|| hex16(n)),
        Target::Rel(d) => {
            let n = addr.wrapping_add(2).wrapping_add(d as i16 as u16);
            name(n, false).unwrap_or_else(|| hex16(n))
        }
    };
    let text = insn.format_with(&target);
    let canonical = encode(&insn).is_ok_and(|e| e.as_slice() == raw);
    if canonical {
        return DisLine {
            addr,
            bytes: raw.to_vec(),
            insn: Some(insn),
            text,
            comment: None,
        };
    }
    if matches!(raw[0], 0xDD | 0xFD)
        && !matches!(insn, Instruction::Ld(..))
        && len >= 2
        && is_prefix_noop(raw)
    {
        // A prefix that changes nothing: show it alone, the instruction follows on its own line.
        return DisLine {
            addr,
            bytes: raw[..1].to_vec(),
            insn: Some(Instruction::Nop),
            text: defb(&raw[..1]),
            comment: Some("prefix without effect".into()),
        };
    }
    DisLine {
        addr,
        bytes: raw.to_vec(),
        insn: Some(insn),
        text: defb(raw),
        comment: Some(format!("{text} (undocumented encoding)")),
    }
}

/// True if dropping the DD/FD prefix gives the same instruction (so it has no effect).
fn is_prefix_noop(raw: &[u8]) -> bool {
    match (decode(raw), decode(&raw[1..])) {
        (Some((a, la)), Some((b, lb))) => a == b && la == lb + 1,
        (Some((Instruction::Nop, 1)), _) => true,
        _ => false,
    }
}

/// Disassembles a whole image loaded at `org`.
pub fn disassemble(bytes: &[u8], org: u16, symbols: Option<&SymbolTable>) -> Vec<DisLine> {
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let addr = org.wrapping_add(i as u16);
        let line = disassemble_one(&bytes[i..], addr, symbols);
        i += line.bytes.len().max(1);
        out.push(line);
    }
    out
}

/// Source text for a whole image: ORG, EQUs for symbols that do not fall on an instruction in the
/// image, labels on their lines, and each instruction with its address and bytes as a comment.
pub fn disassemble_to_source(bytes: &[u8], org: u16, symbols: Option<&SymbolTable>) -> String {
    let lines = disassemble(bytes, org, symbols);
    let starts: BTreeSet<u16> = lines.iter().map(|l| l.addr).collect();
    let mut at: BTreeMap<u16, Vec<&str>> = BTreeMap::new();
    let mut s = String::from("; disassembled by retro dis\n");
    let _ = writeln!(s, "\torg {}", hex16(org));
    if let Some(t) = symbols {
        for (name, v, kind) in t.iter() {
            if kind == SymbolKind::Label && starts.contains(&v) {
                at.entry(v).or_default().push(name);
            } else {
                let _ = writeln!(s, "{name}: equ {}", hex16(v));
            }
        }
    }
    for l in &lines {
        for name in at.get(&l.addr).into_iter().flatten() {
            let _ = writeln!(s, "{name}:");
        }
        let hex: Vec<String> = l.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let mut line = format!("\t{:<24}; {:04X}: {}", l.text, l.addr, hex.join(" "));
        if let Some(c) = &l.comment {
            let _ = write!(line, " ({c})");
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}
