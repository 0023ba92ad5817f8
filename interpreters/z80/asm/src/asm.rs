//! The assembler: statements, directives, macros, includes, and passes repeated until every symbol
//! keeps its value (so forward references in DS, ORG and IF settle too).
// Diagnostics are the cold path; boxing them would only add noise.
#![allow(clippy::result_large_err)]
use crate::diag::{DiagKind, Diagnostic, Loc, suggest};
use crate::expr::{EvalError, Expr, ParseError, Parser, eval};
use crate::isa::{AluOp, BlockOp, Cond, Instruction as I, Loc8, Reg8, Reg16, ShiftOp, encode};
use crate::lexer::{Line, Tk, Tok, lex_lines};
use crate::output::{ListingLine, SourceMap, SymbolKind, SymbolTable};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Reads a source or INCBIN file; the default reads the file system, tests use a map.
pub type Loader<'a> = &'a dyn Fn(&Path) -> std::io::Result<Vec<u8>>;

/// A source file of the run (the main file, then includes in the order met).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// The result of a successful assembly.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// Lowest address written (0 if nothing was).
    pub origin: u16,
    /// Bytes from `origin` to the highest address written, gaps filled with 0 (pasmo's `--bin`).
    pub bytes: Vec<u8>,
    /// Each (address, length) block actually written, in order, for Intel HEX.
    pub blocks: Vec<(u16, Vec<u8>)>,
    pub symbols: SymbolTable,
    pub listing: Vec<ListingLine>,
    pub source_map: SourceMap,
    pub files: Vec<SourceFile>,
}

/// A failed assembly: every error of the run, and the files to render them against.
#[derive(Debug, Clone)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub files: Vec<SourceFile>,
}

impl Failure {
    /// The diagnostics rendered by ariadne.
    pub fn render(&self, color: bool) -> String {
        let files: Vec<(String, String)> = self
            .files
            .iter()
            .map(|f| (f.path.display().to_string(), f.text.clone()))
            .collect();
        crate::diag::render(&self.diagnostics, &files, color)
    }

    /// (line, column), 1-based, of a diagnostic's primary location.
    pub fn line_col(&self, d: &Diagnostic) -> (usize, usize) {
        self.files
            .get(d.loc.file as usize)
            .map_or((0, 0), |f| crate::diag::line_col(&f.text, d.loc.span.start))
    }
}

/// Assembles a file from disk.
pub fn assemble_file(path: &Path) -> Result<Assembly, Failure> {
    assemble_with(path, &|p: &Path| std::fs::read(p))
}

/// Assembles source text; INCLUDE/INCBIN read the file system relative to `name`'s directory.
pub fn assemble_str(name: &str, text: &str) -> Result<Assembly, Failure> {
    let name_buf = PathBuf::from(name);
    let text = text.as_bytes().to_vec();
    assemble_with(&name_buf.clone(), &move |p: &Path| {
        if p == name_buf {
            Ok(text.clone())
        } else {
            std::fs::read(p)
        }
    })
}

/// Assembles `path`, reading it and every INCLUDE/INCBIN through `load`.
pub fn assemble_with(path: &Path, load: Loader<'_>) -> Result<Assembly, Failure> {
    let mut a = Asm::new(load);
    let main = match a.load_source(path) {
        Ok(id) => id,
        Err(e) => {
            return Err(Failure {
                diagnostics: vec![Diagnostic::new(
                    DiagKind::Io,
                    Loc { file: 0, span: 0..0 },
                    format!("cannot read {}: {e}", path.display()),
                )],
                files: vec![SourceFile {
                    path: path.to_path_buf(),
                    text: String::new(),
                }],
            });
        }
    };
    let mut prev_values: Option<HashMap<Rc<str>, i64>> = None;
    for pass in 1..=12 {
        a.start_pass(pass);
        a.include_stack.push(main);
        let lines = a.sources[main as usize].lines.clone();
        a.run(&lines, None);
        a.include_stack.pop();
        a.close_procs();
        a.resolve_pending_equs();
        let values: HashMap<Rc<str>, i64> = a.cur.iter().map(|(k, v)| (k.clone(), v.value)).collect();
        if prev_values.as_ref() == Some(&values) {
            break;
        }
        if pass == 12 {
            let loc = Loc {
                file: main,
                span: 0..0,
            };
            a.diags.push(Diagnostic::new(
                DiagKind::Directive,
                loc,
                "symbol values did not settle after 12 passes",
            ));
        }
        prev_values = Some(values);
        a.prev = std::mem::take(&mut a.cur);
    }
    let files: Vec<SourceFile> = a
        .sources
        .iter()
        .map(|s| SourceFile {
            path: s.path.clone(),
            text: s.text.clone(),
        })
        .collect();
    if !a.diags.is_empty() {
        return Err(Failure {
            diagnostics: a.diags,
            files,
        });
    }
    let (origin, bytes) = a.image();
    let mut symbols = SymbolTable::default();
    let mut syms: Vec<_> = a.cur.iter().collect();
    syms.sort_by(|x, y| x.1.value.cmp(&y.1.value).then(x.0.cmp(y.0)));
    for (name, s) in syms {
        symbols.insert(name.to_string(), (s.value & 0xFFFF) as u16, s.kind);
    }
    Ok(Assembly {
        origin,
        bytes,
        blocks: a.blocks,
        symbols,
        listing: a.listing,
        source_map: SourceMap {
            entries: a.map,
            files: files.iter().map(|f| f.path.clone()).collect(),
        },
        files,
    })
}

#[derive(Debug, Clone)]
struct Symbol {
    value: i64,
    kind: SymbolKind,
    loc: Loc,
}

/// A pasmo-style scope: a PROC ... ENDP block or a macro expansion. Names declared LOCAL in it
/// are private to it (and to the scopes nested inside it); every other name is global.
#[derive(Debug, Default)]
struct Proc {
    id: u32,
    locals: std::cell::RefCell<HashSet<Rc<str>>>,
    /// Where the PROC was opened (None for a macro expansion), for "PROC without ENDP".
    opened: Option<Loc>,
}

/// An EQU met before a symbol it needs, with what is needed to evaluate it later as if in place.
struct PendingEqu {
    /// The qualified name being defined.
    name: Rc<str>,
    expr: Expr,
    loc: Loc,
    here: i64,
    global: Rc<str>,
    macro_scope: Option<u32>,
    procs: Vec<Rc<Proc>>,
    /// The error to report if it never resolves.
    error: Diagnostic,
}

struct Src {
    path: PathBuf,
    text: String,
    lines: Rc<Vec<Line>>,
}

struct Macro {
    params: Vec<Rc<str>>,
    body: Rc<Vec<Line>>,
    loc: Loc,
}

/// A parsed operand.
#[derive(Debug, Clone)]
enum Op {
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
    fn loc(&self) -> &Loc {
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
enum Rg {
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

fn reg_name(s: &str) -> Option<Rg> {
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
fn is_short_half(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "xh" | "hx" | "xl" | "lx" | "yh" | "hy" | "yl" | "ly"
    )
}

/// A register name that can never be a label.
fn reserved_reg(s: &str) -> Option<Rg> {
    reg_name(s).filter(|_| !is_short_half(s))
}

fn loc8_of(r: Rg) -> Option<Loc8> {
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

fn reg8_of(r: Rg) -> Option<Reg8> {
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

fn reg16_of(r: Rg) -> Option<Reg16> {
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

const MNEMONICS: &[&str] = &[
    "adc", "add", "and", "bit", "call", "ccf", "cp", "cpd", "cpdr", "cpi", "cpir", "cpl", "daa", "dec", "di",
    "djnz", "ei", "ex", "exx", "halt", "im", "in", "inc", "ind", "indr", "ini", "inir", "jp", "jr", "ld",
    "ldd", "lddr", "ldi", "ldir", "neg", "nop", "or", "otdr", "otir", "out", "outd", "outi", "pop", "push",
    "res", "ret", "reti", "retn", "rl", "rla", "rlc", "rlca", "rld", "rr", "rra", "rrc", "rrca", "rrd",
    "rst", "sbc", "scf", "set", "sla", "sll", "sli", "sl1", "sra", "srl", "sub", "xor",
];

const DIRECTIVES: &[&str] = &[
    "org", "equ", "defl", "db", "defb", "defm", "dm", "byte", "dw", "defw", "word", "ds", "defs", "block",
    "include", "incbin", "binary", "align", "if", "ifdef", "ifndef", "else", "endif", "macro", "endm",
    "rept", "endr", "end", "assert", "proc", "endp", "local",
];

fn is_keyword(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    MNEMONICS.contains(&l.as_str()) || DIRECTIVES.contains(&l.as_str())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CondState {
    /// This branch is being assembled.
    Active,
    /// Waiting for ELSE (no branch taken yet).
    Waiting,
    /// A branch was taken or the whole IF is inside an inactive region.
    Done,
}

struct Asm<'a> {
    load: Loader<'a>,
    sources: Vec<Src>,
    by_path: HashMap<PathBuf, u32>,
    binaries: HashMap<PathBuf, Rc<Vec<u8>>>,
    pass: u32,
    pc: i64,
    /// The address of the statement being assembled (`$`).
    here: i64,
    mem: Vec<u8>,
    written: Vec<bool>,
    blocks: Vec<(u16, Vec<u8>)>,
    cur: HashMap<Rc<str>, Symbol>,
    prev: HashMap<Rc<str>, Symbol>,
    global: Rc<str>,
    macro_scope: Option<u32>,
    expansions: u32,
    /// Open PROCs and macro expansions, innermost last (for LOCAL names).
    procs: Vec<Rc<Proc>>,
    /// PROCs and expansions opened in this pass, numbering their local names.
    scopes_opened: u32,
    macros: HashMap<String, Rc<Macro>>,
    include_stack: Vec<u32>,
    macro_depth: u32,
    diags: Vec<Diagnostic>,
    listing: Vec<ListingLine>,
    map: Vec<(u16, u16, u32, u32)>,
    /// EQUs whose value could not be computed when met in this pass (forward references),
    /// resolved in dependency order at the end of the pass.
    pending_equ: Vec<PendingEqu>,
    /// The source line a macro expansion is attributed to in the source map.
    site: Option<(u32, u32)>,
    ended: bool,
    /// Set while re-running a failed statement only to learn its size (so the addresses after an
    /// error stay right and each error is reported once): values default to 0, ranges are not checked.
    lenient: bool,
    /// Lines assembled in this pass, to stop runaway REPT/macro expansion.
    steps: u64,
    /// Bytes emitted by the current statement (for the listing and the source map).
    stmt_bytes: Vec<u8>,
    overflowed: bool,
}

const STEP_LIMIT: u64 = 10_000_000;

type R<T> = Result<T, Diagnostic>;

impl<'a> Asm<'a> {
    fn new(load: Loader<'a>) -> Self {
        Asm {
            load,
            sources: vec![],
            by_path: HashMap::new(),
            binaries: HashMap::new(),
            pass: 0,
            pc: 0,
            here: 0,
            mem: vec![0; 0x10000],
            written: vec![false; 0x10000],
            blocks: vec![],
            cur: HashMap::new(),
            prev: HashMap::new(),
            global: Rc::from(""),
            macro_scope: None,
            expansions: 0,
            procs: vec![],
            scopes_opened: 0,
            macros: HashMap::new(),
            include_stack: vec![],
            macro_depth: 0,
            diags: vec![],
            listing: vec![],
            map: vec![],
            pending_equ: Vec::new(),
            site: None,
            ended: false,
            lenient: false,
            steps: 0,
            stmt_bytes: vec![],
            overflowed: false,
        }
    }

    fn load_source(&mut self, path: &Path) -> std::io::Result<u32> {
        if let Some(&id) = self.by_path.get(path) {
            return Ok(id);
        }
        let bytes = (self.load)(path)?;
        let text = normalize_line_ends(String::from_utf8_lossy(&bytes).into_owned());
        let id = self.sources.len() as u32;
        let lines = Rc::new(lex_lines(&text, id));
        self.sources.push(Src {
            path: path.to_path_buf(),
            text,
            lines,
        });
        self.by_path.insert(path.to_path_buf(), id);
        Ok(id)
    }

    fn start_pass(&mut self, pass: u32) {
        self.pass = pass;
        self.pc = 0;
        self.mem.iter_mut().for_each(|b| *b = 0);
        self.written.iter_mut().for_each(|w| *w = false);
        self.blocks.clear();
        self.global = Rc::from("");
        self.macro_scope = None;
        self.expansions = 0;
        self.procs.clear();
        self.scopes_opened = 0;
        self.macros.clear();
        self.diags.clear();
        self.listing.clear();
        self.map.clear();
        self.pending_equ.clear();
        self.ended = false;
        self.steps = 0;
        self.overflowed = false;
    }

    fn text(&self, t: &Tok) -> &str {
        &self.sources[t.file as usize].text[t.span()]
    }

    fn tok_loc(t: &Tok) -> Loc {
        Loc {
            file: t.file,
            span: t.span(),
        }
    }

    fn toks_loc(toks: &[Tok], line: &Line) -> Loc {
        match (toks.first(), toks.last()) {
            (Some(a), Some(b)) if a.file == b.file => Loc {
                file: a.file,
                span: a.start as usize..b.end as usize,
            },
            _ => Loc {
                file: line.file,
                span: line.end as usize..line.end as usize,
            },
        }
    }

    fn parse_expr(&self, toks: &[Tok], line: &Line) -> R<Expr> {
        let text = |t: &Tok| -> &str { &self.sources[t.file as usize].text[t.span()] };
        let mut p = Parser::new(toks, &text);
        let e = p.expr().map_err(|e| self.parse_err(toks, line, e))?;
        if !p.at_end() {
            return Err(self.parse_err(
                toks,
                line,
                ParseError {
                    msg: "unexpected text after expression".into(),
                    at: p.pos,
                },
            ));
        }
        Ok(e)
    }

    fn parse_err(&self, toks: &[Tok], line: &Line, e: ParseError) -> Diagnostic {
        let loc = match toks.get(e.at) {
            Some(t) => Self::tok_loc(t),
            None => Loc {
                file: line.file,
                span: line.end as usize..line.end as usize,
            },
        };
        Diagnostic::new(DiagKind::Syntax, loc, e.msg).label("here")
    }

    /// Splits tokens at top-level commas.
    fn split_commas(toks: &[Tok]) -> Vec<&[Tok]> {
        let mut out = vec![];
        let mut depth = 0i32;
        let mut start = 0;
        for (i, t) in toks.iter().enumerate() {
            match t.kind {
                Tk::LParen | Tk::LBracket => depth += 1,
                Tk::RParen | Tk::RBracket => depth -= 1,
                Tk::Comma if depth == 0 => {
                    out.push(&toks[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !toks.is_empty() {
            out.push(&toks[start..]);
        }
        out
    }

    fn parse_operand(&self, toks: &[Tok], line: &Line) -> R<Op> {
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
    fn closes_at_end(toks: &[Tok]) -> bool {
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

    // ---------- symbols ----------

    /// The full name of a label: `.x` is local to the last global label (or to a macro expansion).
    fn qualify(&self, name: &str) -> Rc<str> {
        // A LOCAL name of an open PROC or macro expansion (the innermost that declares it).
        if let Some(p) = self.procs.iter().rev().find(|p| p.locals.borrow().contains(name)) {
            return Rc::from(format!("{name}@{}", p.id));
        }
        if name.starts_with('.') && name.len() > 1 {
            match self.macro_scope {
                Some(n) => Rc::from(format!("{}@{n}{name}", self.global)),
                None => Rc::from(format!("{}{name}", self.global)),
            }
        } else {
            Rc::from(name)
        }
    }

    /// The register a word names, unless it is a short index-half spelling used as a symbol.
    fn reg(&self, s: &str) -> Option<Rg> {
        let r = reg_name(s)?;
        if is_short_half(s) && self.lookup(s).is_some() {
            return None;
        }
        Some(r)
    }

    fn lookup(&self, name: &str) -> Option<i64> {
        let q = self.qualify(name);
        self.cur.get(&q).or_else(|| self.prev.get(&q)).map(|s| s.value)
    }

    fn value(&self, e: &Expr) -> Result<i64, EvalError> {
        eval(e, self.here, &mut |s| self.lookup(s))
    }

    fn eval_err(&self, err: EvalError, loc: &Loc) -> Diagnostic {
        match err {
            EvalError::Undefined(name, f, a, b) => {
                let d = Diagnostic::new(
                    DiagKind::UndefinedSymbol,
                    Loc {
                        file: f,
                        span: a as usize..b as usize,
                    },
                    format!("undefined symbol `{name}`"),
                )
                .label("not defined anywhere");
                // Pass 1 meets every forward reference here and its errors are never shown, and
                // errors past the rendering cap are only counted: skip the costly suggestion
                // search for both (it looks at every symbol).
                if self.pass == 1 || self.diags.len() >= crate::diag::MAX_SHOWN {
                    return d;
                }
                let q = self.qualify(&name);
                let mut names: Vec<&str> = self.cur.keys().chain(self.prev.keys()).map(|k| &**k).collect();
                names.sort_unstable();
                names.dedup();
                let mut d = d;
                // Local labels are suggested by their short name.
                let local_prefix = format!("{}.", self.global);
                let shown: Vec<String> = names
                    .iter()
                    .map(
                        |n| match n.strip_prefix(&local_prefix[..local_prefix.len() - 1]) {
                            Some(rest) if rest.starts_with('.') => rest.to_string(),
                            _ => n.to_string(),
                        },
                    )
                    .collect();
                if let Some(s) = suggest(&name, shown.iter().map(|s| s.as_str())) {
                    d = d.help(format!("did you mean `{s}`?"));
                } else if q.as_ref() != name.as_ref() {
                    d = d.note(format!(
                        "local labels belong to the last global label (`{}`)",
                        self.global
                    ));
                }
                d
            }
            EvalError::DivZero => {
                Diagnostic::new(DiagKind::OutOfRange, loc.clone(), "division by zero").label("here")
            }
        }
    }

    fn need(&self, e: &Expr, loc: &Loc) -> R<i64> {
        match self.value(e) {
            Ok(v) => Ok(v),
            Err(_) if self.lenient => Ok(0),
            Err(err) => Err(self.eval_err(err, loc)),
        }
    }

    fn define(&mut self, name: &str, value: i64, kind: SymbolKind, loc: Loc) {
        if reserved_reg(name).is_some() {
            self.diags.push(
                Diagnostic::new(
                    DiagKind::Syntax,
                    loc,
                    format!("`{name}` is a register name and cannot be a label"),
                )
                .label("rename this"),
            );
            return;
        }
        let q = self.qualify(name);
        if !name.starts_with('.') && kind == SymbolKind::Label {
            self.global = q.clone();
        }
        if let Some(old) = self.cur.get(&q)
            && !(old.kind == SymbolKind::Defl && kind == SymbolKind::Defl)
        {
            let d = Diagnostic::new(
                DiagKind::DuplicateLabel,
                loc,
                format!("`{name}` is defined twice"),
            )
            .label("second definition")
            .also(old.loc.clone(), "first defined here");
            self.diags.push(d);
            return;
        }
        self.cur.insert(q, Symbol { value, kind, loc });
    }

    // ---------- output ----------

    fn emit(&mut self, bytes: &[u8], loc: &Loc) {
        if bytes.is_empty() {
            return;
        }
        if self.pc < 0 || self.pc + bytes.len() as i64 > 0x10000 {
            // Reported once: every later statement would repeat it.
            if self.overflowed {
                self.pc += bytes.len() as i64;
                return;
            }
            self.overflowed = true;
            self.diags.push(
                Diagnostic::new(
                    DiagKind::OutOfRange,
                    loc.clone(),
                    format!("code runs past $FFFF (at ${:X})", self.pc),
                )
                .label("this does not fit"),
            );
            self.pc += bytes.len() as i64;
            return;
        }
        let start = self.pc as usize;
        self.stmt_bytes.extend_from_slice(bytes);
        self.mem[start..start + bytes.len()].copy_from_slice(bytes);
        self.written[start..start + bytes.len()]
            .iter_mut()
            .for_each(|w| *w = true);
        match self.blocks.last_mut() {
            Some((a, v)) if *a as usize + v.len() == start => v.extend_from_slice(bytes),
            _ => self.blocks.push((start as u16, bytes.to_vec())),
        }
        self.pc += bytes.len() as i64;
    }

    fn image(&self) -> (u16, Vec<u8>) {
        let lo = self.written.iter().position(|&w| w);
        let hi = self.written.iter().rposition(|&w| w);
        match (lo, hi) {
            (Some(lo), Some(hi)) => (lo as u16, self.mem[lo..=hi].to_vec()),
            _ => (0, vec![]),
        }
    }

    // ---------- lines ----------

    /// Runs a block of lines (a file, a macro body or a REPT body).
    fn run(&mut self, lines: &[Line], scope: Option<u32>) {
        let saved_scope = self.macro_scope;
        if scope.is_some() {
            self.macro_scope = scope;
        }
        let mut conds: Vec<(CondState, Loc)> = vec![];
        let mut i = 0;
        while i < lines.len() && !self.ended {
            let line = &lines[i];
            i += 1;
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                let loc = Loc {
                    file: line.file,
                    span: line.start as usize..line.end as usize,
                };
                self.diags.push(
                    Diagnostic::new(
                        DiagKind::Directive,
                        loc,
                        "more than 10 million lines assembled in one pass",
                    )
                    .label("stopped here")
                    .help("a REPT count or a recursive macro is probably too large"),
                );
                self.ended = true;
                break;
            }
            let active = conds.iter().all(|c| c.0 == CondState::Active);
            let toks = &line.toks[..];
            let (label, op_at) = self.split_label(toks);
            let op_word = op_at.and_then(|k| match &toks[k].kind {
                Tk::Ident(s) => Some(s.to_ascii_lowercase()),
                Tk::Eq => Some("=".to_string()),
                _ => None,
            });
            let op_loc = op_at.map(|k| Self::tok_loc(&toks[k]));
            // Conditional assembly is tracked even in skipped regions.
            match op_word.as_deref() {
                Some("if" | "ifdef" | "ifndef") => {
                    let loc = op_loc.clone().unwrap_or_else(|| Self::toks_loc(toks, line));
                    if !active {
                        conds.push((CondState::Done, loc));
                        continue;
                    }
                    let rest = &toks[op_at.unwrap_or(0) + 1..];
                    let truth = match op_word.as_deref() {
                        Some("if") => match self.parse_expr(rest, line).and_then(|e| {
                            let l = Self::toks_loc(rest, line);
                            self.need(&e, &l)
                        }) {
                            Ok(v) => v != 0,
                            Err(d) => {
                                self.diags.push(d);
                                false
                            }
                        },
                        _ => {
                            let defined = match rest.first().map(|t| &t.kind) {
                                Some(Tk::Ident(s)) => {
                                    let q = self.qualify(s);
                                    self.cur.contains_key(&q)
                                        || self.macros.contains_key(&s.to_ascii_lowercase())
                                }
                                _ => false,
                            };
                            defined == (op_word.as_deref() == Some("ifdef"))
                        }
                    };
                    conds.push((
                        if truth {
                            CondState::Active
                        } else {
                            CondState::Waiting
                        },
                        loc,
                    ));
                    continue;
                }
                Some("else") => {
                    match conds.last_mut() {
                        Some(c) => {
                            c.0 = match c.0 {
                                CondState::Active => CondState::Done,
                                CondState::Waiting => CondState::Active,
                                CondState::Done => CondState::Done,
                            }
                        }
                        None => self.diags.push(
                            Diagnostic::new(
                                DiagKind::Directive,
                                op_loc.clone().unwrap_or_else(|| Self::toks_loc(toks, line)),
                                "ELSE without IF",
                            )
                            .label("no IF is open here"),
                        ),
                    }
                    continue;
                }
                Some("endif") => {
                    if conds.pop().is_none() {
                        self.diags.push(
                            Diagnostic::new(
                                DiagKind::Directive,
                                op_loc.clone().unwrap_or_else(|| Self::toks_loc(toks, line)),
                                "ENDIF without IF",
                            )
                            .label("no IF is open here"),
                        );
                    }
                    continue;
                }
                _ => {}
            }
            if !active {
                continue;
            }
            // MACRO and REPT own the lines up to their ENDM.
            let is_macro_def = op_word.as_deref() == Some("macro");
            if is_macro_def || op_word.as_deref() == Some("rept") {
                let end = Self::find_endm(lines, i, self);
                let body: Rc<Vec<Line>> = Rc::new(lines[i..end.unwrap_or(lines.len())].to_vec());
                if end.is_none() {
                    let what = if is_macro_def { "MACRO" } else { "REPT" };
                    self.diags.push(
                        Diagnostic::new(
                            DiagKind::Directive,
                            op_loc.clone().unwrap_or_else(|| Self::toks_loc(toks, line)),
                            format!("{what} without ENDM"),
                        )
                        .label("this block is never closed"),
                    );
                }
                i = end.map_or(lines.len(), |e| e + 1);
                self.list(line, None);
                if is_macro_def {
                    self.define_macro(line, label, op_at.unwrap_or(0), body);
                } else {
                    let rest = &toks[op_at.unwrap_or(0) + 1..];
                    let l = Self::toks_loc(rest, line);
                    match self.parse_expr(rest, line).and_then(|e| self.need(&e, &l)) {
                        Ok(n) if (0..=65536).contains(&n) => {
                            for _ in 0..n {
                                self.run(&body, None);
                            }
                        }
                        Ok(n) => self.diags.push(
                            Diagnostic::new(
                                DiagKind::OutOfRange,
                                l,
                                format!("REPT count {n} is not 0..65536"),
                            )
                            .label("count"),
                        ),
                        Err(d) => self.diags.push(d),
                    }
                }
                continue;
            }
            if let Err(d) = self.statement(line, label, op_at, op_word.as_deref()) {
                self.diags.push(d);
            }
        }
        for (_, loc) in conds {
            self.diags.push(
                Diagnostic::new(DiagKind::Directive, loc, "IF without ENDIF")
                    .label("this IF is never closed"),
            );
        }
        self.macro_scope = saved_scope;
    }

    /// Index of the ENDM that closes a MACRO/REPT whose body starts at `from`.
    fn find_endm(lines: &[Line], from: usize, a: &Asm<'_>) -> Option<usize> {
        let mut depth = 1;
        for (k, l) in lines.iter().enumerate().skip(from) {
            let (_, op) = a.split_label(&l.toks);
            if let Some(Tk::Ident(s)) = op.map(|o| &l.toks[o].kind) {
                match s.to_ascii_lowercase().as_str() {
                    "macro" | "rept" => depth += 1,
                    "endm" | "endr" => {
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

    /// Finds the label (if any) and the index of the operation word.
    fn split_label(&self, toks: &[Tok]) -> (Option<usize>, Option<usize>) {
        let Some(first) = toks.first() else {
            return (None, None);
        };
        let Tk::Ident(name) = &first.kind else {
            return (None, Some(0));
        };
        match toks.get(1).map(|t| &t.kind) {
            Some(Tk::Colon) => return (Some(0), if toks.len() > 2 { Some(2) } else { None }),
            Some(Tk::Eq) => return (Some(0), Some(1)),
            Some(Tk::Ident(w)) if matches!(w.to_ascii_lowercase().as_str(), "equ" | "defl" | "macro") => {
                return (Some(0), Some(1));
            }
            _ => {}
        }
        // A label without a colon must start in column 0 and not be an instruction or macro.
        let col0 = first.start == 0
            || self
                .sources
                .get(first.file as usize)
                .is_some_and(|s| s.text.as_bytes().get(first.start as usize - 1) == Some(&b'\n'));
        if col0
            && !is_keyword(name)
            && !self.macros.contains_key(&name.to_ascii_lowercase())
            && reserved_reg(name).is_none()
        {
            return (Some(0), if toks.len() > 1 { Some(1) } else { None });
        }
        (None, Some(0))
    }

    fn define_macro(&mut self, line: &Line, label: Option<usize>, op_at: usize, body: Rc<Vec<Line>>) {
        let toks = &line.toks;
        let mut args: Vec<&[Tok]> = Self::split_commas(&toks[op_at + 1..]);
        let name_tok = match label {
            Some(l) => Some(&toks[l]),
            None => {
                // `MACRO name, p1, p2` or `MACRO name p1, p2` (the first parameter after a space).
                let first = args.first().and_then(|a| a.first());
                if let Some(group) = args.first_mut() {
                    *group = &group[1..];
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

    fn expand_macro(&mut self, m: Rc<Macro>, line: &Line, rest: &[Tok], loc: Loc) -> R<()> {
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
        self.run(&body, Some(scope));
        // PROCs left open inside the expansion close with it.
        self.procs.truncate(procs);
        self.macro_depth -= 1;
        self.site = saved_site;
        Ok(())
    }

    fn list(&mut self, line: &Line, bytes: Option<(u16, Vec<u8>)>) {
        if self.macro_depth == 0 || bytes.is_some() {
            let (addr, bytes) = match bytes {
                Some((a, b)) => (Some(a), b),
                None => (None, vec![]),
            };
            self.listing.push(ListingLine {
                file: line.file,
                line: line.line,
                text_start: line.start,
                text_end: line.end,
                addr,
                bytes,
                depth: self.include_stack.len().saturating_sub(1) as u32,
                in_macro: self.macro_depth > 0,
            });
        }
    }

    /// One statement (label and operation) of an active line.
    fn statement(
        &mut self,
        line: &Line,
        label: Option<usize>,
        op_at: Option<usize>,
        op: Option<&str>,
    ) -> R<()> {
        if let Some((a, b)) = line.bad {
            let bad = &self.sources[line.file as usize].text[a as usize..b as usize];
            return Err(Diagnostic::new(
                DiagKind::Syntax,
                Loc {
                    file: line.file,
                    span: a as usize..b as usize,
                },
                format!("unexpected character '{bad}'"),
            )
            .label("not part of Z80 assembly syntax"));
        }
        let toks = &line.toks[..];
        self.here = self.pc;
        let start_pc = self.pc;
        self.stmt_bytes.clear();
        let rest = &toks[op_at.map_or(toks.len(), |k| k + 1)..];
        let label_tok = label.map(|l| &toks[l]);
        let label_name = label_tok.and_then(|t| match &t.kind {
            Tk::Ident(s) => Some(s.clone()),
            _ => None,
        });
        // EQU / = / DEFL define the label with a value instead of the address.
        if matches!(op, Some("equ" | "=" | "defl")) {
            let (Some(name), Some(lt)) = (label_name, label_tok) else {
                return Err(Diagnostic::new(
                    DiagKind::Syntax,
                    Self::toks_loc(toks, line),
                    "EQU needs a name",
                )
                .label("name it here"));
            };
            let loc = Self::tok_loc(lt);
            let e = self.parse_expr(rest, line)?;
            let kind = if op == Some("defl") {
                SymbolKind::Defl
            } else {
                SymbolKind::Equ
            };
            self.list(line, None);
            match self.value(&e) {
                Ok(v) => self.define(&name, v, kind, loc),
                Err(err) => {
                    let error = self.eval_err(err, &Self::toks_loc(rest, line));
                    self.pending_equ.push(PendingEqu {
                        name: self.qualify(&name),
                        expr: e,
                        loc,
                        here: self.here,
                        global: self.global.clone(),
                        macro_scope: self.macro_scope,
                        procs: self.procs.clone(),
                        error,
                    });
                }
            }
            return Ok(());
        }
        if let (Some(name), Some(lt)) = (&label_name, label_tok)
            && op != Some("macro")
        {
            self.define(name, self.pc, SymbolKind::Label, Self::tok_loc(lt));
        }
        let Some(op_idx) = op_at else {
            self.list(line, None);
            return Ok(());
        };
        let op_tok = &toks[op_idx];
        let op_loc = Self::tok_loc(op_tok);
        let Some(op) = op else {
            return Err(Diagnostic::new(
                DiagKind::Syntax,
                op_loc,
                format!("expected an instruction, found `{}`", self.text(op_tok)),
            )
            .label("an instruction or directive goes here"));
        };
        let result = self.operation(line, op, op_tok, rest);
        let sized = MNEMONICS.contains(&op)
            || matches!(
                op,
                "db" | "defb" | "defm" | "dm" | "byte" | "dw" | "defw" | "word"
            );
        if result.is_err() && sized && self.pc == start_pc {
            // Emit placeholder bytes of the right size so later addresses stay right; the run
            // fails anyway, so they are never written.
            let errors = self.diags.len();
            self.lenient = true;
            if self.operation(line, op, op_tok, rest).is_err() {
                self.pc = start_pc;
            }
            self.lenient = false;
            self.diags.truncate(errors);
        }
        let bytes = std::mem::take(&mut self.stmt_bytes);
        // INCLUDE listed its own line before the included file's lines.
        if (self.macro_depth == 0 && op != "include") || !bytes.is_empty() {
            let addr = (start_pc & 0xFFFF) as u16;
            self.list(line, Some((addr, bytes.clone())));
        }
        if !bytes.is_empty() {
            let (f, l) = self.site.unwrap_or((line.file, line.line));
            self.map
                .push(((start_pc & 0xFFFF) as u16, bytes.len().min(0xFFFF) as u16, f, l));
        }
        result
    }

    fn operation(&mut self, line: &Line, op: &str, op_tok: &Tok, rest: &[Tok]) -> R<()> {
        let op_loc = Self::tok_loc(op_tok);
        let rest_loc = Self::toks_loc(rest, line);
        match op {
            "org" => {
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
                self.pc = v;
            }
            "db" | "defb" | "defm" | "dm" | "byte" => {
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
            "dw" | "defw" | "word" => {
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
            "ds" | "defs" | "block" => {
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
            "align" => {
                let parts = Self::split_commas(rest);
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
                self.emit(&vec![fill; pad as usize], &rest_loc);
            }
            "include" => self.include(line, rest, &rest_loc)?,
            "incbin" | "binary" => self.incbin(line, rest, &rest_loc)?,
            "end" => self.ended = true,
            "endm" | "endr" => {
                return Err(
                    Diagnostic::new(DiagKind::Directive, op_loc, "ENDM without MACRO or REPT")
                        .label("nothing to end here"),
                );
            }
            "assert" => {
                let e = self.parse_expr(rest, line)?;
                if self.need(&e, &rest_loc)? == 0 {
                    return Err(Diagnostic::new(DiagKind::Directive, rest_loc, "assertion failed")
                        .label("this is false"));
                }
            }
            "proc" => {
                self.scopes_opened += 1;
                self.procs.push(Rc::new(Proc {
                    id: self.scopes_opened,
                    opened: Some(op_loc),
                    ..Proc::default()
                }));
            }
            "endp" => match self.procs.last() {
                Some(p) if p.opened.is_some() => {
                    self.procs.pop();
                }
                _ => {
                    return Err(Diagnostic::new(DiagKind::Directive, op_loc, "ENDP without PROC")
                        .label("no PROC is open here"));
                }
            },
            "local" => {
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
            _ => {
                if let Some(m) = self.macros.get(op).cloned() {
                    return self.expand_macro(m, line, rest, op_loc);
                }
                let insn = self.instruction(op, op_tok, rest, line)?;
                match encode(&insn) {
                    Ok(b) => self.emit(&b, &op_loc),
                    Err(e) => return Err(self.bad_operands(op, op_tok, rest, line, e.to_string())),
                }
            }
        }
        Ok(())
    }

    fn not_data(&self, loc: &Loc) -> Diagnostic {
        Diagnostic::new(
            DiagKind::BadOperands,
            loc.clone(),
            "a register is not a data value",
        )
        .label("expected a number or string")
    }

    fn count_and_fill(&self, parts: &[&[Tok]], line: &Line, op_loc: &Loc) -> R<(i64, u8)> {
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

    fn file_arg(&self, rest: &[Tok], loc: &Loc) -> R<(PathBuf, String)> {
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

    fn include(&mut self, line: &Line, rest: &[Tok], loc: &Loc) -> R<()> {
        let first = Self::split_commas(rest)
            .first()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let (path, name) = self.file_arg(&first, loc)?;
        let id = self.load_source(&path).map_err(|e| {
            Diagnostic::new(DiagKind::Io, loc.clone(), format!("cannot read `{name}`: {e}"))
                .label("included here")
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

    fn incbin(&mut self, line: &Line, rest: &[Tok], loc: &Loc) -> R<()> {
        let parts = Self::split_commas(rest);
        let first = parts.first().map(|a| a.to_vec()).unwrap_or_default();
        let (path, name) = self.file_arg(&first, loc)?;
        let data = match self.binaries.get(&path) {
            Some(d) => d.clone(),
            None => {
                let d = Rc::new((self.load)(&path).map_err(|e| {
                    Diagnostic::new(DiagKind::Io, loc.clone(), format!("cannot read `{name}`: {e}"))
                        .label("INCBIN here")
                })?);
                self.binaries.insert(path, d.clone());
                d
            }
        };
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

    fn byte(&self, v: i64, loc: &Loc) -> R<u8> {
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

    fn word(&self, v: i64, loc: &Loc) -> R<u16> {
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

    fn bad_operands(&self, op: &str, op_tok: &Tok, rest: &[Tok], line: &Line, why: String) -> Diagnostic {
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

    // ---------- instructions ----------

    fn instruction(&mut self, op: &str, op_tok: &Tok, rest: &[Tok], line: &Line) -> R<I> {
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
                    .chain(DIRECTIVES.iter().copied())
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

    fn port(&self, e: &Expr, l: &Loc) -> R<u8> {
        let v = self.need(e, l)?;
        self.byte(v, l)
    }

    fn addr(&self, o: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<u16> {
        match o {
            Op::Imm(e, l) => {
                let v = self.need(e, l)?;
                self.word(v, l)
            }
            _ => Err(bad(self, "expects an address")),
        }
    }

    fn cond(&self, o: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<Cond> {
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

    fn rel(&self, op: &str, t: &Op, bad: &dyn Fn(&Self, &str) -> Diagnostic) -> R<i8> {
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
    fn cb_operands(&self, ops: &[Op], k: usize, bad: impl Fn() -> Diagnostic) -> R<(Loc8, Option<Reg8>)> {
        match &ops[k.min(ops.len())..] {
            [o] => Ok((self.loc8(o)?.ok_or_else(&bad)?, None)),
            [o, Op::Reg(r, _)] => {
                let t = self.loc8(o)?.ok_or_else(&bad)?;
                Ok((t, Some(reg8_of(*r).ok_or_else(&bad)?)))
            }
            _ => Err(bad()),
        }
    }

    fn disp(&self, e: &Expr, l: &Loc) -> R<i8> {
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
    fn loc8(&self, o: &Op) -> R<Option<Loc8>> {
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

    fn alu_src(&self, alu: AluOp, src: &Op) -> R<I> {
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

    fn ld(&self, ops: &[Op], op: &str, op_tok: &Tok, rest: &[Tok], line: &Line) -> R<I> {
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

    /// Reports PROCs still open at the end of the source.
    fn close_procs(&mut self) {
        for p in std::mem::take(&mut self.procs) {
            if let Some(loc) = &p.opened {
                self.diags.push(
                    Diagnostic::new(DiagKind::Directive, loc.clone(), "PROC without ENDP")
                        .label("this PROC is never closed"),
                );
            }
        }
    }

    /// Evaluates the EQUs that met a forward reference, in dependency order (Kahn's algorithm:
    /// linear in the number of EQUs and their symbols, whatever the length of a chain), so one
    /// pass settles `s0 equ s1+1 ... s99999 equ 0`. What stays unresolved is reported: cycles as
    /// "EQU cycle", the rest with the error met in place.
    fn resolve_pending_equs(&mut self) {
        let pending = std::mem::take(&mut self.pending_equ);
        if pending.is_empty() {
            return;
        }
        let (saved_global, saved_scope, saved_here) = (self.global.clone(), self.macro_scope, self.here);
        let saved_procs = std::mem::take(&mut self.procs);
        let mut index: HashMap<Rc<str>, usize> = HashMap::new();
        for (k, p) in pending.iter().enumerate() {
            // A name defined twice is reported by `define` when it resolves.
            index.entry(p.name.clone()).or_insert(k);
        }
        // deps[k]: the pending EQUs that EQU k needs; users[j]: the EQUs waiting for j.
        let mut waiting = vec![0usize; pending.len()];
        let mut users: Vec<Vec<usize>> = vec![vec![]; pending.len()];
        let mut deps: Vec<Vec<usize>> = vec![vec![]; pending.len()];
        for (k, p) in pending.iter().enumerate() {
            self.global = p.global.clone();
            self.macro_scope = p.macro_scope;
            self.procs.clone_from(&p.procs);
            let mut names = vec![];
            p.expr.symbols(&mut names);
            for n in names {
                let q = self.qualify(&n);
                if let Some(&j) = index.get(&q)
                    && !deps[k].contains(&j)
                    && !self.cur.contains_key(&q)
                {
                    deps[k].push(j);
                    users[j].push(k);
                    waiting[k] += 1;
                }
            }
        }
        let mut ready: Vec<usize> = (0..pending.len()).filter(|&k| waiting[k] == 0).collect();
        let mut done = vec![false; pending.len()];
        while let Some(k) = ready.pop() {
            let p = &pending[k];
            self.global = p.global.clone();
            self.macro_scope = p.macro_scope;
            self.procs.clone_from(&p.procs);
            self.here = p.here;
            if let Ok(v) = self.value(&p.expr) {
                done[k] = true;
                self.cur.insert(
                    p.name.clone(),
                    Symbol {
                        value: v,
                        kind: SymbolKind::Equ,
                        loc: p.loc.clone(),
                    },
                );
                for &u in &users[k] {
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        ready.push(u);
                    }
                }
            }
        }
        self.global = saved_global;
        self.macro_scope = saved_scope;
        self.here = saved_here;
        self.procs = saved_procs;
        self.report_unresolved(pending, &deps, &done);
    }

    /// Reports the EQUs left unresolved: each cycle once (found by following unresolved
    /// dependencies, each EQU visited once), and the others with their own error unless a cycle
    /// explains it.
    fn report_unresolved(&mut self, pending: Vec<PendingEqu>, deps: &[Vec<usize>], done: &[bool]) {
        const NAMES_SHOWN: usize = 8;
        // 0 = not visited; otherwise the walk that visited it (1-based).
        let mut walk_of = vec![0usize; pending.len()];
        let mut in_cycle = vec![false; pending.len()];
        let mut cycles: Vec<Vec<usize>> = vec![];
        for start in 0..pending.len() {
            if done[start] || walk_of[start] != 0 {
                continue;
            }
            let walk = start + 1;
            let mut path = vec![];
            let mut k = start;
            loop {
                if walk_of[k] == walk {
                    let from = path.iter().position(|&x| x == k).unwrap_or(0);
                    let cycle: Vec<usize> = path[from..].to_vec();
                    cycle.iter().for_each(|&c| in_cycle[c] = true);
                    cycles.push(cycle);
                    break;
                }
                if walk_of[k] != 0 {
                    break;
                }
                walk_of[k] = walk;
                path.push(k);
                match deps[k].iter().find(|&&j| !done[j]) {
                    Some(&j) => k = j,
                    None => break,
                }
            }
        }
        let members: HashSet<Rc<str>> = cycles
            .iter()
            .flatten()
            .map(|&k| pending[k].name.clone())
            .collect();
        for cycle in &cycles {
            let first = &pending[cycle[0]];
            let mut names: Vec<&str> = cycle
                .iter()
                .take(NAMES_SHOWN)
                .map(|&k| pending[k].name.as_ref())
                .collect();
            if cycle.len() > NAMES_SHOWN {
                names.push("...");
            }
            names.push(&first.name);
            let mut d = Diagnostic::new(
                DiagKind::EquCycle,
                first.loc.clone(),
                format!(
                    "EQU cycle{}: {}",
                    if cycle.len() > NAMES_SHOWN {
                        format!(" of {} symbols", cycle.len())
                    } else {
                        String::new()
                    },
                    names.join(" -> ")
                ),
            )
            .label("defined in terms of itself");
            for &k in cycle.iter().skip(1).take(NAMES_SHOWN - 1) {
                d = d.also(
                    pending[k].loc.clone(),
                    format!("`{}` depends on the next", pending[k].name),
                );
            }
            self.diags.push(d);
        }
        let explained = |d: &Diagnostic| {
            d.kind == DiagKind::UndefinedSymbol
                && d.message
                    .strip_prefix("undefined symbol `")
                    .and_then(|m| m.strip_suffix('`'))
                    .is_some_and(|n| members.contains(n))
        };
        for (k, p) in pending.into_iter().enumerate() {
            if !done[k] && !in_cycle[k] && !explained(&p.error) {
                self.diags.push(p.error);
            }
        }
        if !members.is_empty() {
            // Uses of a cycle's members elsewhere are explained by the cycle.
            self.diags.retain(|d| !explained(d));
        }
    }
}

/// Old Mac sources end lines with a lone CR: read it as a line break. Each CR becomes one LF, so
/// byte offsets (and so every diagnostic's position) are unchanged; CR LF stays as it is.
fn normalize_line_ends(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes.
    String::from_utf8(bytes).unwrap_or_default()
}

fn line_text(a: &Asm<'_>, _line: &Line, op_tok: &Tok, rest: &[Tok]) -> String {
    let mut s = a.text(op_tok).to_string();
    for (k, t) in rest.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { "" });
        s.push_str(a.text(t));
    }
    s
}
