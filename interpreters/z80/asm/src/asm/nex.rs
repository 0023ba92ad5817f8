//! sjasmplus's `SAVENEX` on the ZX Spectrum Next device: a `.nex` file (format V1.2) of a
//! 512-byte header and the 16K banks the source chooses, in the loader's order (5, 2, 0, 1, 3,
//! 4, 6, 7, 8 ... 111). Built: `OPEN`, `CORE`, `CFG`, `BANK`, `AUTO` and `CLOSE` without files to
//! append; loading screens, palettes, the loading bar, `CFG3` and V1.3 are refused by name. The
//! header was checked field by field against sjasmplus 1.23.1 (tests/sjasmplus/cases/nex.asm).

use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc};
use crate::lexer::{Line, Tok};
use std::path::PathBuf;

/// A .nex being built between `SAVENEX OPEN` and `CLOSE` (or the end of the source).
#[derive(Debug, Clone)]
pub(super) struct Nex {
    path: PathBuf,
    start: u16,
    sp: u16,
    entry_bank: u8,
    core: [u8; 3],
    border: u8,
    file_handle: u16,
    preserve_regs: u8,
    ram_2mb: u8,
    /// Banks saved so far with their bytes, in the loader's order.
    banks: Vec<(usize, Vec<u8>)>,
}

/// The order the NEX loader reads 16K banks in.
fn bank_order() -> impl Iterator<Item = usize> {
    [5, 2, 0, 1, 3, 4].into_iter().chain(6..112)
}

fn order_of(bank: usize) -> usize {
    bank_order().position(|b| b == bank).unwrap_or(usize::MAX)
}

impl Nex {
    fn header(&self) -> Vec<u8> {
        let mut h = vec![0u8; 512];
        h[..8].copy_from_slice(b"NextV1.2");
        h[8] = self.ram_2mb;
        h[9] = self.banks.len() as u8;
        h[11] = self.border;
        h[12..14].copy_from_slice(&self.sp.to_le_bytes());
        h[14..16].copy_from_slice(&self.start.to_le_bytes());
        for (bank, _) in &self.banks {
            h[18 + bank] = 1;
        }
        h[134] = self.preserve_regs;
        h[135..138].copy_from_slice(&self.core);
        h[139] = self.entry_bank;
        h[140..142].copy_from_slice(&self.file_handle.to_le_bytes());
        h
    }

    fn file(&self) -> Vec<u8> {
        let mut out = self.header();
        for (_, data) in &self.banks {
            out.extend_from_slice(data);
        }
        out
    }
}

impl Asm<'_> {
    /// One `SAVENEX` command.
    pub(super) fn savenex(&mut self, line: &Line, op_loc: &Loc, rest: &[Tok]) -> R<()> {
        if !self.banks.as_ref().is_some_and(|b| b.next) {
            return Err(
                Diagnostic::new(DiagKind::Directive, op_loc.clone(), "SAVENEX needs the Next")
                    .label("needs `DEVICE ZXSPECTRUMNEXT` first"),
            );
        }
        let Some((cmd, args)) = rest.split_first() else {
            return Err(
                Diagnostic::new(DiagKind::Syntax, op_loc.clone(), "SAVENEX needs a command")
                    .label("OPEN, CORE, CFG, BANK, AUTO or CLOSE"),
            );
        };
        let cmd_loc = Self::tok_loc(cmd);
        let word = self.text(cmd).to_ascii_uppercase();
        let parts = Self::split_commas(args);
        let nums = |a: &Self, from: usize| -> R<Vec<(i64, Loc)>> {
            parts[from.min(parts.len())..]
                .iter()
                .map(|p| {
                    let l = Self::toks_loc(p, line);
                    Ok((a.parse_expr(p, line).and_then(|e| a.need(&e, &l))?, l))
                })
                .collect()
        };
        let in_range = |(v, l): &(i64, Loc), max: i64, what: &str| -> R<i64> {
            if (0..=max).contains(v) {
                Ok(*v)
            } else {
                Err(Diagnostic::new(
                    DiagKind::OutOfRange,
                    l.clone(),
                    format!("{what} {v} is not 0..{max}"),
                )
                .label(what.to_string()))
            }
        };
        if word != "OPEN" && self.nex.is_none() {
            return Err(
                Diagnostic::new(DiagKind::Directive, cmd_loc, "no NEX file is open")
                    .label("SAVENEX OPEN \"file.nex\" first"),
            );
        }
        match word.as_str() {
            "OPEN" => {
                if let Some(open) = &self.nex {
                    return Err(Diagnostic::new(
                        DiagKind::Directive,
                        cmd_loc,
                        format!("{} is still open", open.path.display()),
                    )
                    .label("SAVENEX CLOSE it first"));
                }
                let (_, name) = self.file_arg(parts.first().copied().unwrap_or_default(), &cmd_loc)?;
                let v = nums(self, 1)?;
                if let Some(version) = v.get(3)
                    && version.0 != 2
                {
                    return Err(Diagnostic::new(
                        DiagKind::Directive,
                        version.1.clone(),
                        "only NEX V1.2 is built",
                    )
                    .label("file version 2"));
                }
                self.nex = Some(Nex {
                    path: PathBuf::from(name),
                    start: v
                        .first()
                        .map_or(Ok(0), |x| in_range(x, 0xFFFF, "start address"))?
                        as u16,
                    sp: v
                        .get(1)
                        .map_or(Ok(0xFFFE), |x| in_range(x, 0xFFFF, "stack address"))?
                        as u16,
                    entry_bank: v.get(2).map_or(Ok(0), |x| in_range(x, 111, "entry bank"))? as u8,
                    core: [2, 0, 28],
                    border: 0,
                    file_handle: 0,
                    preserve_regs: 0,
                    ram_2mb: 0,
                    banks: vec![],
                });
            }
            "CORE" => {
                let v = nums(self, 0)?;
                let core = [
                    v.first().map_or(Ok(0), |x| in_range(x, 15, "major"))? as u8,
                    v.get(1).map_or(Ok(0), |x| in_range(x, 15, "minor"))? as u8,
                    v.get(2).map_or(Ok(0), |x| in_range(x, 255, "subminor"))? as u8,
                ];
                if let Some(n) = &mut self.nex {
                    n.core = core;
                }
            }
            "CFG" => {
                let v = nums(self, 0)?;
                let border = v.first().map_or(Ok(0), |x| in_range(x, 7, "border"))? as u8;
                let handle = v.get(1).map_or(Ok(0), |x| in_range(x, 0xFFFE, "file handle"))? as u16;
                let preserve = v.get(2).map_or(Ok(0), |x| in_range(x, 1, "PreserveNextRegs"))? as u8;
                let ram = v.get(3).map_or(Ok(0), |x| in_range(x, 1, "2MbRamReq"))? as u8;
                if let Some(n) = &mut self.nex {
                    (n.border, n.file_handle, n.preserve_regs, n.ram_2mb) = (border, handle, preserve, ram);
                }
            }
            "BANK" | "AUTO" => {
                let v = nums(self, 0)?;
                let after = self
                    .nex
                    .as_ref()
                    .and_then(|n| n.banks.last())
                    .map_or(0, |(b, _)| order_of(*b) + 1);
                let mut chosen = vec![];
                if word == "BANK" {
                    let mut at = after;
                    for x in &v {
                        let bank = in_range(x, 111, "bank")? as usize;
                        if order_of(bank) < at {
                            return Err(Diagnostic::new(
                                DiagKind::Directive,
                                x.1.clone(),
                                format!("bank {bank} is out of the loader's order"),
                            )
                            .label("banks go in the order 5, 2, 0, 1, 3, 4, 6, 7 ... 111, each once"));
                        }
                        at = order_of(bank) + 1;
                        chosen.push(bank);
                    }
                } else {
                    let from = v.first().map_or(Ok(after), |x| {
                        in_range(x, 111, "bank").map(|b| order_of(b as usize))
                    })?;
                    let to = v.get(1).map_or(Ok(111), |x| {
                        in_range(x, 111, "bank").map(|b| order_of(b as usize))
                    })?;
                    chosen = bank_order()
                        .enumerate()
                        .filter(|&(k, _)| k >= from.max(after) && k <= to)
                        .map(|(_, b)| b)
                        .collect();
                }
                let mem = &self.mem;
                let Some(banks) = self.banks.as_mut() else {
                    return Ok(());
                };
                banks.sync(mem);
                let data: Vec<(usize, Vec<u8>)> = chosen
                    .into_iter()
                    .map(|b| (b, banks.next_bank16(b)))
                    .filter(|(_, d)| word == "BANK" || d.iter().any(|&x| x != 0))
                    .collect();
                if let Some(n) = &mut self.nex {
                    n.banks.extend(data);
                }
            }
            "CLOSE" => {
                if !parts.is_empty() {
                    return Err(Diagnostic::new(
                        DiagKind::Directive,
                        Self::toks_loc(args, line),
                        "SAVENEX CLOSE with files to append is not supported",
                    )
                    .label("append them with another tool"));
                }
                self.close_nex();
            }
            _ => {
                return Err(Diagnostic::new(
                    DiagKind::Directive,
                    cmd_loc,
                    format!("SAVENEX {word} is not supported"),
                )
                .label("OPEN, CORE, CFG, BANK, AUTO and CLOSE are built (no screens, palettes, bar, CFG3)"));
            }
        }
        Ok(())
    }

    /// Finishes the open .nex (at CLOSE, or at the end of the source as sjasmplus does).
    pub(super) fn close_nex(&mut self) {
        if let Some(n) = self.nex.take() {
            let data = n.file();
            match self.outputs.iter_mut().find(|(p, _)| *p == n.path) {
                Some(o) => o.1 = data,
                None => self.outputs.push((n.path, data)),
            }
        }
    }
}
