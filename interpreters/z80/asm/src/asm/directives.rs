//! Directives: the dispatch of a statement's operation word, data and space directives, INCLUDE
//! and INCBIN, and macros and REPT bodies.

use super::dialect::Dialect;
use super::mnemonics::{MNEMONICS, is_mnemonic};
use super::operands::Op;
use super::symbols::Proc;
use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc};
use crate::isa::encode;
use crate::lexer::{Line, Tk, Tok};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Every directive, one variant each. [`Directive::parse`] is the one place that knows their
/// spellings, so a new directive (or a new dialect's spelling of one) has one home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Directive {
    Org,
    /// `EQU` and `=`.
    Equ,
    Defl,
    /// `DEFB`, `DB`, `DEFM`, `DM`, `BYTE`.
    Db,
    /// `DEFW`, `DW`, `WORD`.
    Dw,
    /// `DEFS`, `DS`, `BLOCK`.
    Ds,
    Align,
    Include,
    /// `INCBIN`, `BINARY`.
    Incbin,
    If,
    Ifdef,
    Ifndef,
    Else,
    Endif,
    Macro,
    /// `ENDM`, `ENDR`.
    Endm,
    Rept,
    End,
    Assert,
    Proc,
    Endp,
    Local,
    // sjasmplus only:
    /// `DEVICE ZXSPECTRUM48[,ramtop]` (or `NONE`): assemble into a virtual Spectrum's memory.
    Device,
    Savesna,
    Savetap,
    Emptytap,
    Savebin,
    /// `OUTPUT "file"`: the following bytes also go to that file, up to `OUTEND` or the next OUTPUT.
    Output,
    Outend,
    Module,
    Endmodule,
    /// `DEFINE name text`: the word `name` stands for `text` from here on.
    Define,
    Undefine,
    Struct,
    Ends,
    /// `DISP addr` (`PHASE`, `TEXTAREA`): assemble for `addr` while writing at the current place.
    Disp,
    /// `ENT` (`UNPHASE`, `DEPHASE`, `ENDT`): back to the current place.
    Ent,
    /// `DH "hex digits"` (`DEFH`).
    Dh,
    /// `DISPLAY "text",/d,value...`: a line on stderr from the last pass.
    Display,
    /// `SLDOPT`, `CSPECTMAP`: settings of files retro does not write; ignored with a warning.
    Sld,
    /// `LUA` ... `ENDLUA`, `INCLUDELUA`: Lua scripts, refused.
    Lua,
    /// `SLOT n`, `PAGE n`, `MMU slot[ last], page[, address]`: banked memory (128K, Next).
    Slot,
    Page,
    Mmu,
    /// `SAVENEX command ...`: a Next .nex file.
    Savenex,
    /// `OPT ...`: sjasmplus options set from the source, refused (retro has its default syntax).
    Opt,
}

/// Each spelling (lower case) and what it means.
const SPELLINGS: &[(&str, Directive)] = &[
    ("org", Directive::Org),
    ("equ", Directive::Equ),
    ("=", Directive::Equ),
    ("defl", Directive::Defl),
    ("db", Directive::Db),
    ("defb", Directive::Db),
    ("defm", Directive::Db),
    ("dm", Directive::Db),
    ("byte", Directive::Db),
    ("dw", Directive::Dw),
    ("defw", Directive::Dw),
    ("word", Directive::Dw),
    ("ds", Directive::Ds),
    ("defs", Directive::Ds),
    ("block", Directive::Ds),
    ("align", Directive::Align),
    ("include", Directive::Include),
    ("incbin", Directive::Incbin),
    ("binary", Directive::Incbin),
    ("if", Directive::If),
    ("ifdef", Directive::Ifdef),
    ("ifndef", Directive::Ifndef),
    ("else", Directive::Else),
    ("endif", Directive::Endif),
    ("macro", Directive::Macro),
    ("endm", Directive::Endm),
    ("endr", Directive::Endm),
    ("rept", Directive::Rept),
    ("end", Directive::End),
    ("assert", Directive::Assert),
    ("proc", Directive::Proc),
    ("endp", Directive::Endp),
    ("local", Directive::Local),
];

/// The spellings only the sjasmplus dialect has (in the pasmo dialect these words stay free for
/// labels and macros).
const SJASMPLUS_SPELLINGS: &[(&str, Directive)] = &[
    // `name = expr` may be redefined in sjasmplus (`x = x + 1`); it comes before pasmo's EQU.
    ("=", Directive::Defl),
    ("dup", Directive::Rept),
    ("edup", Directive::Endm),
    ("device", Directive::Device),
    ("savesna", Directive::Savesna),
    ("savetap", Directive::Savetap),
    ("emptytap", Directive::Emptytap),
    ("savebin", Directive::Savebin),
    ("output", Directive::Output),
    ("outend", Directive::Outend),
    ("module", Directive::Module),
    ("endmodule", Directive::Endmodule),
    ("define", Directive::Define),
    ("undefine", Directive::Undefine),
    ("struct", Directive::Struct),
    ("ends", Directive::Ends),
    ("disp", Directive::Disp),
    ("phase", Directive::Disp),
    ("textarea", Directive::Disp),
    ("ent", Directive::Ent),
    ("unphase", Directive::Ent),
    ("dephase", Directive::Ent),
    ("endt", Directive::Ent),
    ("dh", Directive::Dh),
    ("defh", Directive::Dh),
    ("display", Directive::Display),
    ("sldopt", Directive::Sld),
    ("cspectmap", Directive::Sld),
    ("lua", Directive::Lua),
    ("includelua", Directive::Lua),
    ("slot", Directive::Slot),
    ("page", Directive::Page),
    ("mmu", Directive::Mmu),
    ("savenex", Directive::Savenex),
    ("opt", Directive::Opt),
];

impl Directive {
    /// The directive a lower-case operation word names, if any.
    pub(super) fn parse(word: &str, dialect: Dialect) -> Option<Directive> {
        // Asked for nearly every line: a table per dialect, built once.
        static TABLES: std::sync::LazyLock<[HashMap<&'static str, Directive>; 2]> =
            std::sync::LazyLock::new(|| {
                let table = |d: Dialect| {
                    let mut m = HashMap::new();
                    for &(w, dir) in Directive::spellings(d) {
                        // The dialect's own spelling comes first and wins.
                        m.entry(w).or_insert(dir);
                    }
                    m
                };
                [table(Dialect::Pasmo), table(Dialect::Sjasmplus)]
            });
        if word.len() > 12 {
            return None;
        }
        TABLES[usize::from(dialect == Dialect::Sjasmplus)]
            .get(word)
            .copied()
    }

    fn spellings(dialect: Dialect) -> impl Iterator<Item = &'static (&'static str, Directive)> {
        let extra = match dialect {
            Dialect::Pasmo => &[][..],
            Dialect::Sjasmplus => SJASMPLUS_SPELLINGS,
        };
        // The dialect's own spellings first, so they can override pasmo's (`=`).
        extra.iter().chain(SPELLINGS)
    }

    /// Every spelling that is a word (for "did you mean" suggestions).
    pub(super) fn names(dialect: Dialect) -> impl Iterator<Item = &'static str> {
        Self::spellings(dialect).map(|(w, _)| *w).filter(|w| *w != "=")
    }
}

/// True for a mnemonic or directive word (which cannot be a label without a colon).
pub(super) fn is_keyword(s: &str, dialect: Dialect) -> bool {
    is_mnemonic(s) || Directive::parse(&s.to_ascii_lowercase(), dialect).is_some()
}

pub(super) struct Macro {
    pub(super) params: Vec<Rc<str>>,
    pub(super) body: Rc<Vec<Line>>,
    pub(super) loc: Loc,
}

impl Asm<'_> {
    pub(super) fn operation(&mut self, line: &Line, op: &str, op_tok: &Tok, rest: &[Tok]) -> R<()> {
        let op_loc = Self::tok_loc(op_tok);
        let rest_loc = Self::toks_loc(rest, line);
        let Some(directive) = Directive::parse(op, self.dialect) else {
            if let Some(m) = self.macros.get(op).cloned() {
                return self.expand_macro(m, line, rest, op_loc);
            }
            // pasmo reads an indented word alone on its line as a label; retro asks for the colon,
            // so a mistyped instruction is not silently a label.
            if rest.is_empty() && self.dialect == Dialect::Pasmo && !MNEMONICS.contains(&op) && !self.lenient
            {
                let text = self.text(op_tok).to_string();
                return self.instruction(op, op_tok, rest, line).map(|_| ()).map_err(|d| {
                    d.note(format!("pasmo reads a word alone on an indented line as a label: write `{text}:` if it is one"))
                });
            }
            if self.dialect == Dialect::Sjasmplus {
                if let Some(def) = self.structs.get(op).cloned() {
                    return self.struct_instance(def, op, line, rest);
                }
                if let Some(each) = self.multi_arg(op, rest) {
                    return each.into_iter().try_for_each(|part| {
                        // `$` in each part is that instruction's own address (`jr $,z,$`).
                        self.here = self.pc;
                        self.operation(line, op, op_tok, part)
                    });
                }
                if let Some(insns) = self.fake(op, op_tok, rest, line)? {
                    for insn in insns {
                        let b = encode(&insn)
                            .map_err(|e| self.bad_operands(op, op_tok, rest, line, e.to_string()))?;
                        self.emit(&b, &op_loc);
                    }
                    return Ok(());
                }
            }
            let insn = self.instruction(op, op_tok, rest, line)?;
            return match encode(&insn) {
                Ok(b) => {
                    self.emit(&b, &op_loc);
                    Ok(())
                }
                Err(e) => Err(self.bad_operands(op, op_tok, rest, line, e.to_string())),
            };
        };
        match directive {
            Directive::Org => {
                let e = self.parse_expr(rest, line)?;
                let v = self.need(&e, &rest_loc)?;
                if !(0..=0xFFFF).contains(&v) {
                    return Err(Diagnostic::new(
                        DiagKind::OutOfRange,
                        rest_loc,
                        format!("ORG {v} is outside 0..$FFFF"),
                    )
                    .label("address"));
                }
                // Inside DISP only the assembly address moves; the bytes keep their place.
                if self.in_disp {
                    self.delta += self.pc - v;
                }
                self.pc = v;
            }
            Directive::Db => {
                let mut out = vec![];
                for item in Self::split_commas(rest) {
                    match self.parse_operand(item, line)? {
                        Op::Str(b, _) => out.extend_from_slice(&b),
                        Op::Imm(e, l) | Op::Mem(e, l) => {
                            // Strings of one or two characters are strings here too.
                            if let [Tok { kind: Tk::Str(b), .. }] = item {
                                out.extend_from_slice(b);
                            } else {
                                let v = self.need(&e, &l)?;
                                out.push(self.byte(v, &l)?);
                            }
                        }
                        other => return Err(self.not_data(other.loc())),
                    }
                }
                if rest.is_empty() {
                    return Err(
                        Diagnostic::new(DiagKind::Syntax, op_loc, "DEFB needs at least one value")
                            .label("values go after this"),
                    );
                }
                self.emit(&out, &rest_loc);
            }
            Directive::Dw => {
                let mut out = vec![];
                for item in Self::split_commas(rest) {
                    match self.parse_operand(item, line)? {
                        Op::Imm(e, l) | Op::Mem(e, l) => {
                            let v = self.need(&e, &l)?;
                            out.extend_from_slice(&self.word(v, &l)?.to_le_bytes());
                        }
                        other => return Err(self.not_data(other.loc())),
                    }
                }
                if rest.is_empty() {
                    return Err(
                        Diagnostic::new(DiagKind::Syntax, op_loc, "DEFW needs at least one value")
                            .label("values go after this"),
                    );
                }
                self.emit(&out, &rest_loc);
            }
            Directive::Ds => {
                let parts = Self::split_commas(rest);
                let (n, fill) = self.count_and_fill(&parts, line, &op_loc)?;
                if !(0..=0x10000).contains(&n) {
                    return Err(Diagnostic::new(
                        DiagKind::OutOfRange,
                        rest_loc,
                        format!("DEFS size {n} is not 0..65536"),
                    )
                    .label("size"));
                }
                self.emit(&vec![fill; n as usize], &rest_loc);
            }
            Directive::Align => {
                let mut parts = Self::split_commas(rest);
                // sjasmplus: a bare ALIGN aligns to 4.
                let four = [Tok {
                    kind: Tk::Number(Some(4)),
                    file: op_tok.file,
                    start: op_tok.start,
                    end: op_tok.end,
                }];
                if parts.is_empty() && self.dialect == Dialect::Sjasmplus {
                    parts.push(&four);
                }
                let (n, fill) = self.count_and_fill(&parts, line, &op_loc)?;
                if !(1..=0x10000).contains(&n) {
                    return Err(Diagnostic::new(
                        DiagKind::OutOfRange,
                        rest_loc,
                        format!("ALIGN {n} is not 1..65536"),
                    )
                    .label("alignment"));
                }
                let pad = (n - self.pc.rem_euclid(n)) % n;
                self.emit_space(&vec![fill; pad as usize], parts.len() < 2, &rest_loc);
            }
            Directive::Include => self.include(line, rest, &rest_loc)?,
            Directive::Incbin => self.incbin(line, rest, &rest_loc)?,
            Directive::End => {
                // Ended first, even if the operand is wrong: otherwise the lines after END would
                // be assembled in some passes and not in others.
                self.ended = true;
                // `END start`: the program's entry point (pasmo's and z80asm's meaning), which
                // `retro run` enters; the operand is a word like any address.
                if !rest.is_empty() {
                    let e = self.parse_expr(rest, line)?;
                    let v = self.need(&e, &rest_loc)?;
                    self.entry = Some(self.word(v, &rest_loc)?);
                }
            }
            Directive::Endm => {
                return Err(
                    Diagnostic::new(DiagKind::Directive, op_loc, "ENDM without MACRO or REPT")
                        .label("nothing to end here"),
                );
            }
            Directive::Assert => {
                let e = self.parse_expr(rest, line)?;
                if self.need(&e, &rest_loc)? == 0 {
                    return Err(Diagnostic::new(DiagKind::Directive, rest_loc, "assertion failed")
                        .label("this is false"));
                }
            }
            Directive::Proc => {
                self.alocal_scope += 1;
                self.scopes_opened += 1;
                self.procs.push(Rc::new(Proc {
                    id: self.scopes_opened,
                    opened: Some(op_loc),
                    ..Proc::default()
                }));
            }
            Directive::Endp => match self.procs.last() {
                Some(p) if p.opened.is_some() => {
                    self.alocal_scope += 1;
                    self.procs.pop();
                }
                _ => {
                    return Err(Diagnostic::new(DiagKind::Directive, op_loc, "ENDP without PROC")
                        .label("no PROC is open here"));
                }
            },
            Directive::Local => {
                self.alocal_scope += 1;
                let Some(scope) = self.procs.last() else {
                    return Err(
                        Diagnostic::new(DiagKind::Directive, op_loc, "LOCAL outside PROC or MACRO")
                            .label("names can only be local to a PROC or a macro"),
                    );
                };
                for item in Self::split_commas(rest) {
                    match item {
                        [
                            Tok {
                                kind: Tk::Ident(name),
                                ..
                            },
                        ] => {
                            scope.locals.borrow_mut().insert(name.clone());
                        }
                        _ => {
                            return Err(Diagnostic::new(
                                DiagKind::Syntax,
                                Self::toks_loc(item, line),
                                "LOCAL takes names separated by commas",
                            )
                            .label("not a name"));
                        }
                    }
                }
            }
            Directive::Device
            | Directive::Savesna
            | Directive::Savetap
            | Directive::Emptytap
            | Directive::Savebin
            | Directive::Output
            | Directive::Outend
            | Directive::Module
            | Directive::Endmodule
            | Directive::Define
            | Directive::Undefine
            | Directive::Ends
            | Directive::Disp
            | Directive::Ent
            | Directive::Dh
            | Directive::Display
            | Directive::Sld
            | Directive::Lua
            | Directive::Slot
            | Directive::Page
            | Directive::Mmu
            | Directive::Savenex
            | Directive::Opt => self.sjasmplus_directive(directive, line, &op_loc, rest)?,
            // Handled by the statement loop before an operation is dispatched.
            Directive::Struct
            | Directive::Equ
            | Directive::Defl
            | Directive::If
            | Directive::Ifdef
            | Directive::Ifndef
            | Directive::Else
            | Directive::Endif
            | Directive::Macro
            | Directive::Rept => {}
        }
        Ok(())
    }

    pub(super) fn not_data(&self, loc: &Loc) -> Diagnostic {
        Diagnostic::new(
            DiagKind::BadOperands,
            loc.clone(),
            "a register is not a data value",
        )
        .label("expected a number or string")
    }

    pub(super) fn count_and_fill(&self, parts: &[&[Tok]], line: &Line, op_loc: &Loc) -> R<(i64, u8)> {
        let Some(first) = parts.first() else {
            return Err(
                Diagnostic::new(DiagKind::Syntax, op_loc.clone(), "a size is needed")
                    .label("size goes after this"),
            );
        };
        let l = Self::toks_loc(first, line);
        let n = self.parse_expr(first, line).and_then(|e| self.need(&e, &l))?;
        let fill = match parts.get(1) {
            Some(f) => {
                let l = Self::toks_loc(f, line);
                let v = self.parse_expr(f, line).and_then(|e| self.need(&e, &l))?;
                self.byte(v, &l)?
            }
            None => 0,
        };
        Ok((n, fill))
    }

    pub(super) fn file_arg(&self, rest: &[Tok], loc: &Loc) -> R<(PathBuf, String)> {
        let name = match rest.first().map(|t| &t.kind) {
            Some(Tk::Str(b)) => String::from_utf8_lossy(b).into_owned(),
            Some(_) => rest.iter().map(|t| self.text(t)).collect::<String>(),
            None => {
                return Err(
                    Diagnostic::new(DiagKind::Syntax, loc.clone(), "a file name is needed")
                        .label("file name goes here"),
                );
            }
        };
        let current = self
            .include_stack
            .last()
            .map(|&f| self.sources[f as usize].path.clone())
            .unwrap_or_default();
        let dir = current.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok((dir.join(&name), name))
    }

    /// Where INCLUDE and INCBIN look for `name`, in order: the including file's directory, then
    /// (sjasmplus) the directory the assembler was started in, then each `-I` directory; a name
    /// in angle brackets (`<lib.i>`) tries those before the including file's directory, as
    /// sjasmplus does. An absolute name is only itself.
    pub(super) fn search_paths(&self, name: &str) -> Vec<PathBuf> {
        let (name, angle) = match name.strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
            Some(inner) => (inner.trim(), true),
            None => (name, false),
        };
        if Path::new(name).is_absolute() {
            return vec![PathBuf::from(name)];
        }
        let current = self
            .include_stack
            .last()
            .map(|&f| self.sources[f as usize].path.clone())
            .unwrap_or_default();
        let own = current
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
            .join(name);
        let mut others: Vec<PathBuf> = vec![];
        if self.dialect == Dialect::Sjasmplus {
            others.push(PathBuf::from(name));
        }
        others.extend(self.include_dirs.iter().map(|d| d.join(name)));
        let mut all = if angle {
            others.push(own);
            others
        } else {
            let mut v = vec![own];
            v.extend(others);
            v
        };
        let mut seen = HashSet::new();
        all.retain(|p| seen.insert(p.clone()));
        all
    }

    /// The note of a file not found: every place tried.
    fn searched(&self, name: &str) -> String {
        let tried: Vec<String> = self
            .search_paths(name)
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let hint = if self.include_dirs.is_empty() {
            " (`-I DIR` adds a directory to search)"
        } else {
            ""
        };
        format!("looked for {}{hint}", tried.join(", "))
    }

    pub(super) fn include(&mut self, line: &Line, rest: &[Tok], loc: &Loc) -> R<()> {
        let first = Self::split_commas(rest)
            .first()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let (_, name) = self.file_arg(&first, loc)?;
        let mut found = Err(std::io::Error::from(std::io::ErrorKind::NotFound));
        for path in self.search_paths(&name) {
            found = self.load_source(&path);
            // A file that is there but cannot be read is reported as it is, not searched past.
            if found
                .as_ref()
                .map_or_else(|e| e.kind() != std::io::ErrorKind::NotFound, |_| true)
            {
                break;
            }
        }
        let id = found.map_err(|e| {
            Diagnostic::new(DiagKind::Io, loc.clone(), format!("cannot read `{name}`: {e}"))
                .label("included here")
                .note(self.searched(&name))
        })?;
        if let Some(pos) = self.include_stack.iter().position(|&f| f == id) {
            let chain: Vec<String> = self.include_stack[pos..]
                .iter()
                .chain(std::iter::once(&id))
                .map(|&f| self.sources[f as usize].path.display().to_string())
                .collect();
            return Err(Diagnostic::new(
                DiagKind::IncludeCycle,
                loc.clone(),
                format!("`{name}` includes itself"),
            )
            .label("this INCLUDE closes a cycle")
            .note(format!("include chain: {}", chain.join(" -> "))));
        }
        self.list(line, None);
        self.include_stack.push(id);
        let lines = self.sources[id as usize].lines.clone();
        let saved_ended = self.ended;
        self.run(&lines, None);
        self.ended = saved_ended;
        self.include_stack.pop();
        Ok(())
    }

    pub(super) fn incbin(&mut self, line: &Line, rest: &[Tok], loc: &Loc) -> R<()> {
        let parts = Self::split_commas(rest);
        let first = parts.first().map(|a| a.to_vec()).unwrap_or_default();
        let (_, name) = self.file_arg(&first, loc)?;
        let mut found = Err(std::io::Error::from(std::io::ErrorKind::NotFound));
        for path in self.search_paths(&name) {
            if let Some(d) = self.binaries.get(&path) {
                found = Ok(d.clone());
                break;
            }
            found = (self.load)(&path).map(Rc::new);
            match &found {
                Ok(d) => {
                    self.binaries.insert(path, d.clone());
                    break;
                }
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => break,
                Err(_) => {}
            }
        }
        let data = found.map_err(|e| {
            Diagnostic::new(DiagKind::Io, loc.clone(), format!("cannot read `{name}`: {e}"))
                .label("INCBIN here")
                .note(self.searched(&name))
        })?;
        let arg = |k: usize, a: &Self| -> R<Option<i64>> {
            match parts.get(k) {
                Some(p) => {
                    let l = Self::toks_loc(p, line);
                    Ok(Some(a.parse_expr(p, line).and_then(|e| a.need(&e, &l))?))
                }
                None => Ok(None),
            }
        };
        let skip = arg(1, self)?.unwrap_or(0);
        let len = arg(2, self)?.unwrap_or(data.len() as i64 - skip);
        if skip < 0 || len < 0 || skip + len > data.len() as i64 {
            return Err(Diagnostic::new(
                DiagKind::OutOfRange,
                loc.clone(),
                format!(
                    "`{name}` has {} bytes; cannot take {len} from offset {skip}",
                    data.len()
                ),
            )
            .label("here"));
        }
        self.emit(&data[skip as usize..(skip + len) as usize], loc);
        Ok(())
    }

    /// Index of the ENDM that closes a MACRO/REPT whose body starts at `from`.
    pub(super) fn find_endm(lines: &[Line], from: usize, a: &Asm<'_>) -> Option<usize> {
        let mut depth = 1;
        for (k, l) in lines.iter().enumerate().skip(from) {
            let (_, op) = a.split_label(&l.toks);
            if let Some(Tk::Ident(s)) = op.map(|o| &l.toks[o].kind) {
                match Directive::parse(&s.to_ascii_lowercase(), a.dialect) {
                    Some(Directive::Macro | Directive::Rept) => depth += 1,
                    Some(Directive::Endm) => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(k);
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }

    pub(super) fn define_macro(
        &mut self,
        line: &Line,
        label: Option<usize>,
        op_at: usize,
        body: Rc<Vec<Line>>,
    ) {
        let toks = &line.toks;
        let mut args: Vec<&[Tok]> = Self::split_commas(&toks[op_at + 1..]);
        let name_tok = match label {
            Some(l) => Some(&toks[l]),
            None => {
                // `MACRO name, p1, p2` or `MACRO name p1, p2` (the first parameter after a space).
                let first = args.first().and_then(|a| a.first());
                // (`MACRO ,p` has an empty first group: no name, reported below.)
                if let Some(group) = args.first_mut() {
                    *group = group.get(1..).unwrap_or_default();
                    if group.is_empty() {
                        args.remove(0);
                    }
                }
                first
            }
        };
        let Some(name_tok) = name_tok else {
            let loc = Self::toks_loc(toks, line);
            self.diags
                .push(Diagnostic::new(DiagKind::Syntax, loc, "MACRO needs a name").label("name it here"));
            return;
        };
        let Tk::Ident(name) = &name_tok.kind else {
            self.diags.push(
                Diagnostic::new(
                    DiagKind::Syntax,
                    Self::tok_loc(name_tok),
                    "a macro name must be an identifier",
                )
                .label("here"),
            );
            return;
        };
        let mut params = vec![];
        for a in args {
            match a {
                [
                    Tok {
                        kind: Tk::Ident(p), ..
                    },
                ] => params.push(p.clone()),
                _ => {
                    self.diags.push(
                        Diagnostic::new(
                            DiagKind::Syntax,
                            Self::toks_loc(a, line),
                            "a macro parameter must be a name",
                        )
                        .label("here"),
                    );
                    return;
                }
            }
        }
        let key = name.to_ascii_lowercase();
        if let Some(old) = self.macros.get(&key) {
            self.diags.push(
                Diagnostic::new(
                    DiagKind::DuplicateLabel,
                    Self::tok_loc(name_tok),
                    format!("macro `{name}` is defined twice"),
                )
                .label("second definition")
                .also(old.loc.clone(), "first defined here"),
            );
            return;
        }
        self.macros.insert(
            key,
            Rc::new(Macro {
                params,
                body,
                loc: Self::tok_loc(name_tok),
            }),
        );
    }

    pub(super) fn expand_macro(&mut self, m: Rc<Macro>, line: &Line, rest: &[Tok], loc: Loc) -> R<()> {
        if self.macro_depth > 64 {
            return Err(Diagnostic::new(
                DiagKind::Directive,
                loc,
                "macros nested more than 64 deep (a macro calls itself?)",
            )
            .label("here"));
        }
        let args = Self::split_commas(rest);
        if args.len() > m.params.len() {
            return Err(Diagnostic::new(
                DiagKind::BadOperands,
                Self::toks_loc(rest, line),
                format!(
                    "the macro takes {} arguments, {} given",
                    m.params.len(),
                    args.len()
                ),
            )
            .label("too many arguments")
            .also(m.loc.clone(), "macro defined here"));
        }
        let body: Vec<Line> = m
            .body
            .iter()
            .map(|l| {
                let toks: Vec<Tok> = l
                    .toks
                    .iter()
                    .flat_map(|t| match &t.kind {
                        Tk::Ident(s) => match m.params.iter().position(|p| p == s) {
                            Some(k) => args.get(k).map_or(vec![], |a| a.to_vec()),
                            None => vec![t.clone()],
                        },
                        _ => vec![t.clone()],
                    })
                    .collect();
                Line {
                    toks: toks.into(),
                    ..l.clone()
                }
            })
            .collect();
        self.list(line, None);
        self.expansions += 1;
        let scope = self.expansions;
        let saved_site = self.site;
        if self.site.is_none() {
            self.site = Some((line.file, line.line));
        }
        self.macro_depth += 1;
        self.scopes_opened += 1;
        let procs = self.procs.len();
        self.procs.push(Rc::new(Proc {
            id: self.scopes_opened,
            ..Proc::default()
        }));
        self.alocal_scope += 1;
        self.run(&body, Some(scope));
        self.alocal_scope += 1;
        // PROCs left open inside the expansion close with it.
        self.procs.truncate(procs);
        self.macro_depth -= 1;
        self.site = saved_site;
        Ok(())
    }
}
