//! The sjasmplus directives: DEFINE, MODULE, STRUCT and its instances, DISP/ENT, DH, and the
//! virtual Spectrum (DEVICE) with the files made from it (SAVESNA, SAVETAP, SAVEBIN, OUTPUT).
use super::banks::Banks;
use super::device::{
    ramtop, sna_header, sna48, sna128_sp, tap_block, tap_code_header, tap_header, zx48_init,
};
use super::directives::Directive;
use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc};
use crate::lexer::{Line, Tk, Tok};
use crate::output::SymbolKind;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A STRUCT: its fields in order, each with its name (if any) and offset.
#[derive(Debug)]
pub(super) struct StructDef {
    pub(super) fields: Vec<(Option<Rc<str>>, i64, Field)>,
}

/// One STRUCT field. BYTE and WORD fields take an instance's values in order; BLOCK/DS fields
/// are filled with their fill byte (0 when none is given).
#[derive(Debug)]
pub(super) enum Field {
    Byte(i64),
    Word(i64),
    Block(i64, u8),
}

impl Asm<'_> {
    /// The line with DEFINEd words replaced, or None when nothing is replaced. The words after
    /// DEFINE, UNDEFINE, IFDEF and IFNDEF are names, never replaced.
    pub(super) fn substitute_defines(&self, line: &Line) -> Option<Line> {
        if self.defines.is_empty() {
            return None;
        }
        let names_define = line.toks.iter().take(2).any(|t| {
            matches!(&t.kind, Tk::Ident(w) if matches!(
                Directive::parse(&w.to_ascii_lowercase(), self.dialect),
                Some(Directive::Define | Directive::Undefine | Directive::Ifdef | Directive::Ifndef)
            ))
        });
        if names_define
            || !line
                .toks
                .iter()
                .any(|t| matches!(&t.kind, Tk::Ident(w) if self.defines.contains_key(w)))
        {
            return None;
        }
        let toks: Vec<Tok> = line
            .toks
            .iter()
            .flat_map(|t| match &t.kind {
                Tk::Ident(w) => match self.defines.get(w) {
                    // The replacement is shown at the use (its spans point at the DEFINE).
                    Some(r) => r.to_vec(),
                    None => vec![t.clone()],
                },
                _ => vec![t.clone()],
            })
            .collect();
        Some(Line {
            toks: toks.into(),
            ..line.clone()
        })
    }

    /// The sjasmplus directives that act on a statement (see [`Directive`]).
    pub(super) fn sjasmplus_directive(
        &mut self,
        d: Directive,
        line: &Line,
        op_loc: &Loc,
        rest: &[Tok],
    ) -> R<()> {
        let rest_loc = Self::toks_loc(rest, line);
        match d {
            Directive::Define | Directive::Undefine => {
                let Some(Tok {
                    kind: Tk::Ident(name),
                    ..
                }) = rest.first()
                else {
                    return Err(Diagnostic::new(DiagKind::Syntax, rest_loc, "DEFINE needs a name")
                        .label("name it here"));
                };
                if d == Directive::Define {
                    self.defines.insert(name.clone(), rest[1..].into());
                } else {
                    self.defines.remove(name);
                }
            }
            Directive::Module => match rest {
                [
                    Tok {
                        kind: Tk::Ident(name),
                        ..
                    },
                ] => self.modules.push(name.clone()),
                _ => {
                    return Err(
                        Diagnostic::new(DiagKind::Syntax, rest_loc, "MODULE takes one name").label("here"),
                    );
                }
            },
            Directive::Endmodule if self.modules.pop().is_none() => {
                return Err(
                    Diagnostic::new(DiagKind::Directive, op_loc.clone(), "ENDMODULE without MODULE")
                        .label("no MODULE is open here"),
                );
            }
            Directive::Ends => {
                return Err(
                    Diagnostic::new(DiagKind::Directive, op_loc.clone(), "ENDS without STRUCT")
                        .label("no STRUCT is open here"),
                );
            }
            Directive::Disp => {
                let first = Self::split_commas(rest).first().copied().unwrap_or_default();
                let l = Self::toks_loc(first, line);
                let v = self.parse_expr(first, line).and_then(|e| self.need(&e, &l))?;
                if self.in_disp {
                    return Err(
                        Diagnostic::new(DiagKind::Directive, op_loc.clone(), "DISP inside DISP")
                            .label("close the open DISP with ENT first"),
                    );
                }
                let phys = self.pc + self.delta;
                self.pc = v & 0xFFFF;
                self.delta = phys - self.pc;
                self.in_disp = true;
            }
            Directive::Ent => {
                self.pc += self.delta;
                self.delta = 0;
                self.in_disp = false;
            }
            Directive::Dh => {
                let mut out = vec![];
                for item in Self::split_commas(rest) {
                    let [t @ Tok { kind: Tk::Str(s), .. }] = item else {
                        return Err(Diagnostic::new(
                            DiagKind::Syntax,
                            Self::toks_loc(item, line),
                            "DH takes strings of hex digits",
                        )
                        .label("expected \"0123...\""));
                    };
                    let digits: Vec<u8> = s.iter().copied().filter(|c| *c != b' ').collect();
                    let bad = || {
                        Diagnostic::new(DiagKind::Syntax, Self::tok_loc(t), "DH needs pairs of hex digits")
                            .label("here")
                    };
                    if !digits.len().is_multiple_of(2) {
                        return Err(bad());
                    }
                    for pair in digits.chunks(2) {
                        let text = std::str::from_utf8(pair).map_err(|_| bad())?;
                        out.push(u8::from_str_radix(text, 16).map_err(|_| bad())?);
                    }
                }
                self.emit(&out, &rest_loc);
            }
            Directive::Device => {
                let parts = Self::split_commas(rest);
                let name = parts
                    .first()
                    .map(|p| {
                        p.iter()
                            .map(|t| self.text(t))
                            .collect::<String>()
                            .to_ascii_uppercase()
                    })
                    .unwrap_or_default();
                match name.as_str() {
                    "NONE" => {
                        self.device = None;
                        self.banks = None;
                    }
                    "ZXSPECTRUM48" | "ZXSPECTRUM128" | "ZXSPECTRUMNEXT" | "NOSLOT64K" => {
                        let asked = match parts.get(1) {
                            Some(p) => {
                                let l = Self::toks_loc(p, line);
                                Some(self.parse_expr(p, line).and_then(|e| self.need(&e, &l))?)
                            }
                            None => None,
                        };
                        // The Next starts with all memory zeroed (no BASIC state).
                        let top = if name == "ZXSPECTRUMNEXT" {
                            -1
                        } else {
                            ramtop(asked)
                        };
                        if self.device.is_none() && !self.blocks.is_empty() && !self.lenient {
                            // sjasmplus applies a source's only DEVICE to the lines before it too;
                            // retro does not, so bytes already assembled are not in the device.
                            self.warnings.push(
                                Diagnostic::new(
                                    DiagKind::DeviceAfterCode,
                                    op_loc.clone(),
                                    "DEVICE after code: the bytes assembled before it are not in the device's memory",
                                )
                                .label("device mode starts here")
                                .note(
                                    "sjasmplus applies the only DEVICE of a source to the lines before it too; \
                                     put DEVICE first",
                                ),
                            );
                        }
                        if self.device.is_none() {
                            zx48_init(&mut self.mem, top);
                            self.banks = match name.as_str() {
                                "ZXSPECTRUM128" => Some(Banks::zx128()),
                                "ZXSPECTRUMNEXT" => Some(Banks::next()),
                                "NOSLOT64K" => Some(Banks::noslot64k()),
                                _ => None,
                            };
                            if let Some(b) = &mut self.banks {
                                b.sync(&self.mem);
                            }
                        }
                        self.device = Some(top);
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            DiagKind::Directive,
                            rest_loc,
                            format!("device `{name}` is not supported"),
                        )
                        .label(
                            "ZXSPECTRUM48, ZXSPECTRUM128, ZXSPECTRUMNEXT, NOSLOT64K and NONE are built in",
                        ));
                    }
                }
            }
            Directive::Savesna | Directive::Savetap | Directive::Emptytap | Directive::Savebin => {
                self.save(d, line, op_loc, rest)?;
            }
            Directive::Output => {
                let first = Self::split_commas(rest).first().copied().unwrap_or_default();
                let (_, name) = self.file_arg(first, &rest_loc)?;
                // Truncate mode (sjasmplus's default): the file starts empty again.
                let path = PathBuf::from(name);
                let k = match self.outputs.iter().position(|(p, _)| *p == path) {
                    Some(k) => k,
                    None => {
                        self.outputs.push((path, vec![]));
                        self.outputs.len() - 1
                    }
                };
                self.outputs[k].1.clear();
                self.capture = Some(k);
            }
            Directive::Outend => self.capture = None,
            Directive::Slot | Directive::Page | Directive::Mmu => self.paging(d, line, op_loc, rest)?,
            Directive::Savenex => self.savenex(line, op_loc, rest)?,
            Directive::Opt => {
                // `--syntax=a` alone changes what `sub a,b` means: never guess, refuse.
                return Err(
                    Diagnostic::new(DiagKind::Directive, op_loc.clone(), "OPT is not supported")
                        .label("retro assembles sjasmplus's default syntax and options only")
                        .help(
                            "remove the OPT line if it only repeats the defaults, or assemble with sjasmplus",
                        ),
                );
            }
            Directive::Display => {
                let text = self.display_text(line, rest)?;
                self.display.push(text);
            }
            Directive::Sld if !self.lenient => {
                self.warnings.push(
                    Diagnostic::new(
                        DiagKind::Ignored,
                        op_loc.clone(),
                        "ignored: retro writes no SLD or map file",
                    )
                    .label("this directive has no effect")
                    .note("sjasmplus uses it for the --sld / --cspectmap debugging files"),
                );
            }
            Directive::Lua => {
                return Err(Diagnostic::new(
                    DiagKind::Directive,
                    op_loc.clone(),
                    "Lua scripts are not supported",
                )
                .label("LUA, ENDLUA and INCLUDELUA are sjasmplus's Lua scripting")
                .help("assemble this source with sjasmplus, or replace the script by its output"));
            }
            _ => {}
        }
        Ok(())
    }

    /// SLOT, PAGE and MMU on a banked device.
    fn paging(&mut self, d: Directive, line: &Line, op_loc: &Loc, rest: &[Tok]) -> R<()> {
        let Some(banks) = &self.banks else {
            return Err(
                Diagnostic::new(DiagKind::Directive, op_loc.clone(), "no banked memory here")
                    .label("needs `DEVICE ZXSPECTRUM128` or `DEVICE ZXSPECTRUMNEXT` first"),
            );
        };
        let (slots, pages) = (banks.slots() as i64, banks.page_count() as i64);
        let parts = Self::split_commas(rest);
        let num = |p: &[Tok], a: &Self| -> R<(i64, Loc)> {
            let l = Self::toks_loc(p, line);
            Ok((a.parse_expr(p, line).and_then(|e| a.need(&e, &l))?, l))
        };
        let check = |(v, l): (i64, Loc), n: i64, what: &str| -> R<usize> {
            if (0..n).contains(&v) {
                Ok(v as usize)
            } else {
                Err(
                    Diagnostic::new(DiagKind::OutOfRange, l, format!("{what} {v} is not 0..{}", n - 1))
                        .label(what.to_string()),
                )
            }
        };
        let first = parts.first().copied().unwrap_or_default();
        match d {
            Directive::Slot => {
                let s = check(num(first, self)?, slots, "slot")?;
                if let Some(b) = &mut self.banks {
                    b.slot = s;
                }
            }
            Directive::Page => {
                let p = check(num(first, self)?, pages, "page")?;
                if let Some(b) = &mut self.banks {
                    let slot = b.slot;
                    b.map_page(&mut self.mem, slot, p);
                }
            }
            _ => {
                // `MMU first[ last], page[, address]`; a letter after the slot (e, w, n: what
                // sjasmplus does when code runs past the slot) is accepted and changes nothing.
                let (lo_toks, hi_toks) = match first {
                    [a, b] if !matches!(b.kind, Tk::Ident(_)) => (&first[..1], Some(&first[1..])),
                    [
                        a,
                        Tok {
                            kind: Tk::Ident(_), ..
                        },
                    ] => (std::slice::from_ref(a), None),
                    _ => (first, None),
                };
                let lo = check(num(lo_toks, self)?, slots, "slot")?;
                let hi = match hi_toks {
                    Some(t) => check(num(t, self)?, slots, "slot")?,
                    None => lo,
                };
                let page = check(
                    num(parts.get(1).copied().unwrap_or_default(), self)?,
                    pages,
                    "page",
                )?;
                if hi < lo || page + (hi - lo) >= pages as usize {
                    return Err(Diagnostic::new(
                        DiagKind::OutOfRange,
                        Self::toks_loc(rest, line),
                        "MMU range does not fit",
                    )
                    .label("slots and pages"));
                }
                if let Some(b) = &mut self.banks {
                    for (k, slot) in (lo..=hi).enumerate() {
                        b.map_page(&mut self.mem, slot, page + k);
                    }
                }
                if let Some(addr) = parts.get(2) {
                    let (v, l) = num(addr, self)?;
                    if !(0..=0xFFFF).contains(&v) {
                        return Err(Diagnostic::new(
                            DiagKind::OutOfRange,
                            l,
                            format!("address {v} is outside 0..$FFFF"),
                        )
                        .label("address"));
                    }
                    self.pc = v;
                }
            }
        }
        Ok(())
    }

    /// DISPLAY's line as sjasmplus prints it: strings as they are, values in hex (`0x00FF`, at
    /// least four digits) unless the key before them says `/d` decimal, `/h` hex, `/a` both,
    /// `/c` a character, `/b` binary (`%0000'0101`); a key applies to the next value only.
    fn display_text(&self, line: &Line, rest: &[Tok]) -> R<String> {
        let mut out = String::new();
        let mut key = 'h';
        for part in Self::split_commas(rest) {
            match part {
                [Tok { kind: Tk::Str(s), .. }] => out.push_str(&String::from_utf8_lossy(s)),
                [
                    Tok { kind: Tk::Slash, .. },
                    k @ Tok {
                        kind: Tk::Ident(_), ..
                    },
                ] => key = self.text(k).to_ascii_lowercase().chars().next().unwrap_or('h'),
                _ => {
                    let l = Self::toks_loc(part, line);
                    let v = self.parse_expr(part, line).and_then(|e| self.need(&e, &l))?;
                    let u = v as u32;
                    match key {
                        'd' => out.push_str(&u.to_string()),
                        'a' => out.push_str(&format!("0x{u:04X}, {u}")),
                        'c' => out.push_str(&format!("'{}'", (u as u8) as char)),
                        'b' => {
                            let b = format!("{:08b}", u as u8);
                            out.push_str(&format!("%{}'{}", &b[..4], &b[4..]));
                        }
                        _ => out.push_str(&format!("0x{u:04X}")),
                    }
                    key = 'h';
                }
            }
        }
        Ok(out)
    }

    /// SAVESNA, SAVETAP, EMPTYTAP and SAVEBIN: files made from the device's memory.
    fn save(&mut self, d: Directive, line: &Line, op_loc: &Loc, rest: &[Tok]) -> R<()> {
        let rest_loc = Self::toks_loc(rest, line);
        let Some(top) = self.device else {
            return Err(
                Diagnostic::new(DiagKind::Directive, op_loc.clone(), "only in device mode")
                    .label("needs `DEVICE ZXSPECTRUM48` first"),
            );
        };
        let parts = Self::split_commas(rest);
        let (_, name) = self.file_arg(parts.first().copied().unwrap_or_default(), &rest_loc)?;
        let path = PathBuf::from(name);
        let num = |k: usize, a: &Self| -> R<i64> {
            let Some(p) = parts.get(k) else {
                return Err(
                    Diagnostic::new(DiagKind::Syntax, rest_loc.clone(), "a value is missing")
                        .label("more arguments needed"),
                );
            };
            let l = Self::toks_loc(p, line);
            a.parse_expr(p, line).and_then(|e| a.need(&e, &l))
        };
        let range = |start: i64, len: i64, a: &Self| -> R<Vec<u8>> {
            if start < 0 || len < 0 || start + len > 0x10000 {
                return Err(Diagnostic::new(
                    DiagKind::OutOfRange,
                    rest_loc.clone(),
                    format!("{len} bytes from {start} do not fit in memory"),
                )
                .label("start and length"));
            }
            Ok(a.mem[start as usize..(start + len) as usize].to_vec())
        };
        let data = match d {
            Directive::Savesna if self.banks.as_ref().is_some_and(|b| !b.is_zx128()) => {
                return Err(Diagnostic::new(
                    DiagKind::Directive,
                    op_loc.clone(),
                    "SAVESNA is for the ZXSPECTRUM48 and ZXSPECTRUM128 devices",
                )
                .label("no .sna format for this device"));
            }
            Directive::Savesna if self.banks.is_some() => {
                let start = num(1, self)? as u16;
                let header = sna_header(start, sna128_sp(top));
                let mem = &self.mem;
                self.banks
                    .as_mut()
                    .map(|b| b.sna128(mem, &header, start))
                    .unwrap_or_default()
            }
            Directive::Savesna => {
                let start = num(1, self)?;
                let (sna, fallback) = sna48(&mut self.mem, top, start as u16);
                if fallback && !self.lenient {
                    // sjasmplus warns here too (its W_SNA_48); the snapshot is the same.
                    self.warnings.push(
                        Diagnostic::new(
                            DiagKind::SnapshotStack,
                            op_loc.clone(),
                            "RAM 4000h-4001h (the screen's first bytes) is overwritten with the start address",
                        )
                        .label("this snapshot")
                        .note(
                            "the BASIC stack below RAMTOP was changed, so the start address goes where a 48K \
                             .sna can always put it, as sjasmplus does",
                        ),
                    );
                }
                sna
            }
            Directive::Savebin => {
                let (start, len) = (num(1, self)?, num(2, self)?);
                range(start, len, self)?
            }
            Directive::Emptytap => vec![],
            _ => {
                let kind = parts.get(1).map(|p| {
                    p.iter()
                        .map(|t| self.text(t))
                        .collect::<String>()
                        .to_ascii_uppercase()
                });
                let mut tap = self.output_so_far(&path);
                match kind.as_deref() {
                    Some(kind @ ("CODE" | "BASIC")) => {
                        let title = match parts.get(2) {
                            Some([Tok { kind: Tk::Str(s), .. }]) => s.to_vec(),
                            _ => {
                                return Err(Diagnostic::new(
                                    DiagKind::Syntax,
                                    rest_loc,
                                    format!("SAVETAP {kind} needs a name in quotes"),
                                )
                                .label("here"));
                            }
                        };
                        let (start, len) = (num(3, self)?, num(4, self)?);
                        let arg = |k: usize, default: i64| {
                            if parts.len() > k {
                                num(k, self)
                            } else {
                                Ok(default)
                            }
                        };
                        let header = if kind == "CODE" {
                            tap_code_header(&title, len as u16, arg(5, start)? as u16)
                        } else {
                            // The autorun line (8000h: none) and the length without variables.
                            tap_header(0, &title, len as u16, arg(5, 0x8000)? as u16, arg(6, len)? as u16)
                        };
                        tap.extend(header);
                        tap.extend(tap_block(0xFF, &range(start, len, self)?));
                    }
                    Some("HEADLESS") => {
                        let (start, len) = (num(2, self)?, num(3, self)?);
                        let flag = if parts.len() > 4 { num(4, self)? } else { 0xFF };
                        let bytes = range(start, len, self)?;
                        tap.extend(tap_block(flag as u8, &bytes));
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            DiagKind::Directive,
                            rest_loc,
                            "only SAVETAP file,CODE,..., file,BASIC,... and file,HEADLESS,... are supported",
                        )
                        .label("NUMBERS, CHARS and the snapshot-with-loader form are not built"));
                    }
                }
                tap
            }
        };
        // A file saved again is replaced (a tape was extended above), keeping its place.
        match self.outputs.iter_mut().find(|(p, _)| *p == path) {
            Some(o) => o.1 = data,
            None => self.outputs.push((path, data)),
        }
        Ok(())
    }

    /// What a tape file holds so far in this run (SAVETAP appends to it).
    fn output_so_far(&self, path: &Path) -> Vec<u8> {
        self.outputs
            .iter()
            .rev()
            .find(|(p, _)| p == path)
            .map(|o| o.1.clone())
            .unwrap_or_default()
    }

    /// Reads a STRUCT ... ENDS block starting after line `from - 1`; returns the index after ENDS.
    pub(super) fn define_struct(&mut self, lines: &[Line], from: usize, line: &Line, op_at: usize) -> usize {
        let end = lines[from..].iter().position(|l| {
            let (_, op) = self.split_label(&l.toks);
            matches!(op.map(|o| &l.toks[o].kind), Some(Tk::Ident(w))
                if Directive::parse(&w.to_ascii_lowercase(), self.dialect) == Some(Directive::Ends))
        });
        let op_loc = Self::tok_loc(&line.toks[op_at]);
        let Some(end) = end.map(|e| from + e) else {
            self.diags.push(
                Diagnostic::new(DiagKind::Directive, op_loc, "STRUCT without ENDS")
                    .label("this block is never closed"),
            );
            return lines.len();
        };
        self.list(line, None);
        let args = Self::split_commas(&line.toks[op_at + 1..]);
        let Some(
            [
                name_tok @ Tok {
                    kind: Tk::Ident(name),
                    ..
                },
            ],
        ) = args.first().copied()
        else {
            self.diags
                .push(Diagnostic::new(DiagKind::Syntax, op_loc, "STRUCT needs a name").label("name it here"));
            return end + 1;
        };
        let result = (|| -> R<StructDef> {
            let mut fields = vec![];
            let mut size = 0;
            if let Some(off) = args.get(1) {
                let l = Self::toks_loc(off, line);
                let n = self.parse_expr(off, line).and_then(|e| self.need(&e, &l))?;
                fields.push((None, 0, Field::Block(n, 0)));
                size = n;
            }
            let qname = self.qualify(name);
            for l in &lines[from..end] {
                let (label, op) = self.split_label(&l.toks);
                let Some(op) = op else { continue };
                let op_word = match &l.toks[op].kind {
                    Tk::Ident(w) => w.to_ascii_lowercase(),
                    _ => String::new(),
                };
                let rest = &l.toks[op + 1..];
                let parts = Self::split_commas(rest);
                let value = |k: usize, a: &Self| -> R<Option<i64>> {
                    match parts.get(k) {
                        Some(p) => {
                            let loc = Self::toks_loc(p, l);
                            Ok(Some(a.parse_expr(p, l).and_then(|e| a.need(&e, &loc))?))
                        }
                        None => Ok(None),
                    }
                };
                let field = match Directive::parse(&op_word, self.dialect) {
                    Some(Directive::Db) => Field::Byte(value(0, self)?.unwrap_or(0)),
                    Some(Directive::Dw) => Field::Word(value(0, self)?.unwrap_or(0)),
                    Some(Directive::Ds) => {
                        Field::Block(value(0, self)?.unwrap_or(0), value(1, self)?.unwrap_or(0) as u8)
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            DiagKind::Directive,
                            Self::tok_loc(&l.toks[op]),
                            "a STRUCT field is BYTE, WORD or BLOCK (DB, DW, DS)",
                        )
                        .label("not supported in a STRUCT"));
                    }
                };
                let fname = match label.map(|k| &l.toks[k].kind) {
                    Some(Tk::Ident(f)) => {
                        let f: Rc<str> = Rc::from(f.trim_start_matches('.'));
                        let q = Rc::from(format!("{qname}.{f}"));
                        self.define_qualified(q, size, SymbolKind::Equ, Self::tok_loc(&l.toks[0]));
                        Some(f)
                    }
                    _ => None,
                };
                let offset = size;
                size += match field {
                    Field::Byte(_) => 1,
                    Field::Word(_) => 2,
                    Field::Block(n, _) => n,
                };
                fields.push((fname, offset, field));
            }
            // sjasmplus: the STRUCT's name is its size.
            self.define_qualified(qname, size, SymbolKind::Equ, Self::tok_loc(name_tok));
            Ok(StructDef { fields })
        })();
        match result {
            Ok(def) => {
                self.structs.insert(name.to_ascii_lowercase(), Rc::new(def));
            }
            Err(d) => self.diags.push(d),
        }
        end + 1
    }

    /// `[label] name [v1, v2 ...]`: a STRUCT instance, its BYTE and WORD fields taken from the
    /// values in order (defaults for the rest); `label.field` names each field's address.
    pub(super) fn struct_instance(
        &mut self,
        def: Rc<StructDef>,
        op: &str,
        line: &Line,
        rest: &[Tok],
    ) -> R<()> {
        let parts = Self::split_commas(rest);
        let mut values = parts.iter();
        let mut out = vec![];
        for (_, _, f) in &def.fields {
            let given = match f {
                Field::Block(..) => None,
                _ => values.next(),
            };
            let v = match given {
                Some(p) => {
                    let l = Self::toks_loc(p, line);
                    Some((self.parse_expr(p, line).and_then(|e| self.need(&e, &l))?, l))
                }
                None => None,
            };
            match *f {
                Field::Byte(d) => {
                    let (v, l) = v.unwrap_or((d, Self::toks_loc(rest, line)));
                    out.push(self.byte(v, &l)?);
                }
                Field::Word(d) => {
                    let (v, l) = v.unwrap_or((d, Self::toks_loc(rest, line)));
                    out.extend_from_slice(&self.word(v, &l)?.to_le_bytes());
                }
                Field::Block(n, fill) => out.extend(std::iter::repeat_n(fill, n.max(0) as usize)),
            }
        }
        if let Some(extra) = values.next() {
            return Err(Diagnostic::new(
                DiagKind::BadOperands,
                Self::toks_loc(extra, line),
                format!("more values than `{op}` has fields"),
            )
            .label("extra value"));
        }
        if let Some(label) = self.last_label.clone() {
            let loc = Self::toks_loc(&line.toks[..1], line);
            for (name, offset, _) in &def.fields {
                if let Some(name) = name {
                    let q = Rc::from(format!("{label}.{name}"));
                    self.define_qualified(q, self.pc + offset, SymbolKind::Label, loc.clone());
                }
            }
        }
        self.emit(&out, &Self::toks_loc(rest, line));
        Ok(())
    }
}
