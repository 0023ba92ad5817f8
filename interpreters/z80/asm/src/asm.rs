//! The assembler: statements, directives, macros, includes, and passes repeated until every symbol
//! keeps its value (so forward references in DS, ORG and IF settle too).
// Diagnostics are the cold path; boxing them would only add noise.
#![allow(clippy::result_large_err)]
//!
//! One home per concern: `symbols` (scopes, definition, forward EQUs), `operands` (register
//! names, operand forms), `select` (instruction selection and range checks), `directives`
//! (directives, INCLUDE/INCBIN, macros), `mnemonics` (the instruction words); this file holds
//! the passes and the statement loop.
mod banks;
mod device;
mod dialect;
mod directives;
mod fake;
mod mnemonics;
mod multiarg;
mod nex;
mod operands;
mod select;
mod sjasmplus;
mod symbols;

pub use dialect::{Dialect, Options};

use crate::diag::{DiagKind, Diagnostic, Loc};
use crate::expr::{Expr, ParseError, Parser};
use crate::lexer::{Line, Tk, Tok, lex_lines};
use crate::output::{ListingLine, SourceMap, SymbolKind, SymbolTable};
use dialect::sjasmplus_lines;
use directives::{Directive, Macro, is_keyword};
use mnemonics::MNEMONICS;
use operands::reserved_reg;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use symbols::{PendingEqu, Proc, Symbol};

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
    /// The dialect the source was assembled as.
    pub dialect: Dialect,
    /// Files the source asks for (sjasmplus `SAVESNA`, `SAVETAP`, `SAVEBIN`, `OUTPUT`), by the
    /// name it gives, in order; the caller writes them (the library never writes files).
    pub outputs: Vec<(PathBuf, Vec<u8>)>,
    /// The address `END addr` names (the program's entry point), if the source gives one.
    pub entry: Option<u16>,
    /// Warnings (W001: where retro deliberately assembles the source differently from pasmo),
    /// in source order; render them with [`Assembly::render_warnings`].
    pub warnings: Vec<Diagnostic>,
    /// The lines sjasmplus's DISPLAY prints (from the last pass), without its `> ` prefix.
    pub display: Vec<String>,
    /// The files INCBIN read (the sources are in `files`), so a caller can refuse to write over
    /// any input.
    pub incbins: Vec<PathBuf>,
}

impl Assembly {
    /// The warnings rendered by ariadne as the errors are (empty when there are none).
    pub fn render_warnings(&self, color: bool) -> String {
        if self.warnings.is_empty() {
            return String::new();
        }
        crate::diag::render(&self.warnings, &self.file_texts(), color)
    }

    fn file_texts(&self) -> Vec<(String, String)> {
        self.files
            .iter()
            .map(|f| (f.path.display().to_string(), f.text.clone()))
            .collect()
    }

    /// The warnings for a run of the program (`retro run`, `retro debug`), where they come before
    /// the program's own output: each code's first warning in full, the others of that code
    /// counted on one line, and the codes in `silenced` (or every code, for `all` or `none`)
    /// left out.
    pub fn render_warnings_once(&self, color: bool, silenced: &[String]) -> String {
        let quiet = |code: &str| {
            silenced
                .iter()
                .any(|s| s.eq_ignore_ascii_case(code) || s == "all" || s == "none")
        };
        let mut codes: Vec<&str> = Vec::new();
        for w in &self.warnings {
            let code = w.kind.code();
            if !quiet(code) && !codes.contains(&code) {
                codes.push(code);
            }
        }
        let firsts: Vec<Diagnostic> = codes
            .iter()
            .filter_map(|c| self.warnings.iter().find(|w| w.kind.code() == *c).cloned())
            .collect();
        if firsts.is_empty() {
            return String::new();
        }
        let mut out = crate::diag::render(&firsts, &self.file_texts(), color);
        for code in codes {
            let more = self.warnings.iter().filter(|w| w.kind.code() == code).count() - 1;
            if more > 0 {
                out.push_str(&format!(
                    "[{code}] and {more} more warning{} like it (`--no-warn {code}` silences them)\n",
                    if more == 1 { "" } else { "s" }
                ));
            }
        }
        out
    }
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
    assemble_with(path, &read_limited)
}

/// Assembles a file from disk with options (the dialect).
pub fn assemble_file_with(path: &Path, options: &Options) -> Result<Assembly, Failure> {
    assemble_with_options(path, &read_limited, options)
}

/// The most the assembler reads from one file (a source, an INCLUDE or an INCBIN): far more than
/// any Z80 program needs, and a bound on memory for `incbin "/dev/zero"` or a runaway pipe.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a file, a device or a pipe through [`MAX_FILE_BYTES`]; a directory is an error of its
/// own ("is a directory"), as is anything larger than the limit.
pub fn read_limited(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "larger than the assembler's limit of {} MiB",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// Assembles source text; INCLUDE/INCBIN read the file system relative to `name`'s directory.
pub fn assemble_str(name: &str, text: &str) -> Result<Assembly, Failure> {
    let name_buf = PathBuf::from(name);
    let text = text.as_bytes().to_vec();
    assemble_with(&name_buf.clone(), &move |p: &Path| {
        if p == name_buf {
            Ok(text.clone())
        } else {
            read_limited(p)
        }
    })
}

/// Assembles `path`, reading it and every INCLUDE/INCBIN through `load`.
pub fn assemble_with(path: &Path, load: Loader<'_>) -> Result<Assembly, Failure> {
    assemble_with_options(path, load, &Options::default())
}

/// Assembles `path` as [`assemble_with`] does, in the dialect `options` names (or the one the
/// main file's text shows, see [`Dialect::detect`]).
pub fn assemble_with_options(path: &Path, load: Loader<'_>, options: &Options) -> Result<Assembly, Failure> {
    let mut a = Asm::new(load);
    if let Some(d) = options.dialect {
        a.dialect = d;
    }
    a.include_dirs = options.include_dirs.clone();
    a.alocal = options.alocal;
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
    if options.dialect.is_none() && a.detect_dialect(main) == Dialect::Sjasmplus {
        a.dialect = Dialect::Sjasmplus;
        let src = &mut a.sources[main as usize];
        src.lines = Rc::new(sjasmplus_lines(lex_lines(&src.text, main), &src.text));
    }
    let command_line = (!options.defines.is_empty()).then(|| a.command_line_source(&options.defines));
    let mut prev_values: Option<HashMap<Rc<str>, i64>> = None;
    for pass in 1..=12 {
        a.start_pass(pass);
        if let Some(id) = command_line {
            a.apply_command_line(id);
        }
        a.include_stack.push(main);
        let lines = a.sources[main as usize].lines.clone();
        a.run(&lines, None);
        // A .nex still open at the end of the source is finished, as sjasmplus does.
        a.close_nex();
        a.include_stack.pop();
        a.close_procs();
        a.resolve_pending_equs();
        let values: HashMap<Rc<str>, i64> = a.cur.iter().map(|(k, v)| (k.clone(), v.value)).collect();
        if prev_values.as_ref() == Some(&values) && a.temp_defs == a.prev_temp_defs {
            break;
        }
        if pass == 12 {
            let loc = Loc {
                file: main,
                span: 0..0,
            };
            // Name the symbols still moving, so the user knows where to look.
            let prev = prev_values.as_ref();
            let mut moving: Vec<&str> = values
                .iter()
                .filter(|(k, v)| prev.and_then(|p| p.get(*k)) != Some(v))
                .map(|(k, _)| &**k)
                .chain(
                    prev.into_iter()
                        .flat_map(|p| p.keys())
                        .filter(|k| !values.contains_key(*k))
                        .map(|k| &**k),
                )
                .collect();
            moving.sort_unstable();
            let names = match moving.len() {
                0 => String::from(" (temporary labels still moving)"),
                n if n <= 5 => format!(": {}", moving.join(", ")),
                n => format!(": {} and {} more", moving[..5].join(", "), n - 5),
            };
            a.diags.push(Diagnostic::new(
                DiagKind::Directive,
                loc,
                format!("symbol values did not settle after 12 passes{names}"),
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
        dialect: a.dialect,
        outputs: a.outputs,
        warnings: a.warnings,
        entry: a.entry,
        display: a.display,
        incbins: {
            let mut v: Vec<PathBuf> = a.binaries.keys().cloned().collect();
            v.sort();
            v
        },
    })
}

struct Src {
    path: PathBuf,
    text: String,
    lines: Rc<Vec<Line>>,
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
    /// Warnings of this pass (each pass starts afresh, so the last one's are reported once).
    warnings: Vec<Diagnostic>,
    /// pasmo dialect: each local label's short name (`.loop`), its first full name and place in
    /// this pass, to warn where pasmo (which has no local labels) would see a duplicate.
    local_names: HashMap<Rc<str>, (Rc<str>, Loc)>,
    listing: Vec<ListingLine>,
    map: Vec<(u16, u16, u32, u32)>,
    /// EQUs whose value could not be computed when met in this pass (forward references),
    /// resolved in dependency order at the end of the pass.
    pending_equ: Vec<PendingEqu>,
    /// The source line a macro expansion is attributed to in the source map.
    site: Option<(u32, u32)>,
    ended: bool,
    /// The address an `END addr` named in this pass.
    entry: Option<u16>,
    /// Set while re-running a failed statement only to learn its size (so the addresses after an
    /// error stay right and each error is reported once): values default to 0, ranges are not checked.
    lenient: bool,
    /// Lines assembled in this pass, to stop runaway REPT/macro expansion.
    steps: u64,
    /// Bytes emitted by the current statement (for the listing and the source map).
    stmt_bytes: Vec<u8>,
    overflowed: bool,
    dialect: Dialect,
    /// sjasmplus: open MODULEs, outermost first.
    modules: Vec<Rc<str>>,
    /// sjasmplus: DEFINEd words and the tokens they stand for.
    defines: HashMap<Rc<str>, Rc<[Tok]>>,
    /// sjasmplus: temporary labels (`1`, `2` ...) defined in this pass, in order (number, address),
    /// and those of the previous pass (for forward references).
    temp_defs: Vec<(i64, i64)>,
    prev_temp_defs: Vec<(i64, i64)>,
    /// Physical address minus `pc` (non-zero inside DISP), and whether a DISP is open.
    delta: i64,
    in_disp: bool,
    /// sjasmplus: the RAMTOP of the DEVICE ZXSPECTRUM48 in use (None: no device).
    device: Option<i64>,
    /// The pages of a banked device (ZXSPECTRUM128, ZXSPECTRUMNEXT), None for the 48K.
    banks: Option<banks::Banks>,
    /// Set while ALIGN without a fill byte pads in device mode: the device memory stays.
    keep_device_mem: bool,
    /// Files the source asks for, and the OUTPUT one receiving bytes.
    outputs: Vec<(PathBuf, Vec<u8>)>,
    capture: Option<usize>,
    /// sjasmplus STRUCTs by lower-case name.
    structs: HashMap<String, Rc<sjasmplus::StructDef>>,
    /// The label defined by the statement being assembled (qualified), for struct instances.
    last_label: Option<Rc<str>>,
    /// `-I` directories (see [`Asm::search_paths`]).
    include_dirs: Vec<PathBuf>,
    /// pasmo's `--alocal`, and the scope its `_` names belong to (bumped at each label without
    /// `_` and at PROC, LOCAL, MACRO, ENDP and ENDM, where pasmo ends their ambit).
    alocal: bool,
    alocal_scope: u32,
    /// sjasmplus DISPLAY lines of this pass.
    display: Vec<String>,
    /// The .nex file between `SAVENEX OPEN` and `CLOSE`.
    nex: Option<nex::Nex>,
}

/// The most lines one pass assembles (repetitions, macro expansions and INCLUDEs count each
/// line they assemble): 40 times the largest real project measured, and a bound on time and
/// memory for nested REPT/DUP or an INCLUDE tree that doubles at every level (issue 32).
const STEP_LIMIT: u64 = 4_000_000;

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
            warnings: vec![],
            local_names: HashMap::new(),
            listing: vec![],
            map: vec![],
            pending_equ: Vec::new(),
            site: None,
            ended: false,
            entry: None,
            lenient: false,
            steps: 0,
            stmt_bytes: vec![],
            overflowed: false,
            dialect: Dialect::Pasmo,
            modules: vec![],
            defines: HashMap::new(),
            temp_defs: vec![],
            prev_temp_defs: vec![],
            delta: 0,
            in_disp: false,
            device: None,
            banks: None,
            keep_device_mem: false,
            outputs: vec![],
            capture: None,
            structs: HashMap::new(),
            last_label: None,
            include_dirs: vec![],
            alocal: false,
            alocal_scope: 0,
            display: vec![],
            nex: None,
        }
    }

    /// The dialect the main file shows ([`Dialect::detect`]), or failing that one of the files
    /// it INCLUDEs directly (project templates often keep `DEVICE` in a prologue INCLUDE). The
    /// INCLUDEs are only peeked at here; they are read again, in the dialect found, when met.
    fn detect_dialect(&self, main: u32) -> Dialect {
        let src = &self.sources[main as usize];
        if Dialect::detect(&src.text) == Dialect::Sjasmplus {
            return Dialect::Sjasmplus;
        }
        let dir = src.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let included = src.text.lines().filter_map(|l| {
            let rest = l.trim_start();
            let word = rest.get(..7)?;
            let name = rest[7..].trim_start().strip_prefix('"')?;
            (word.eq_ignore_ascii_case("include") && l.len() > rest.len())
                .then(|| name.split('"').next())
                .flatten()
        });
        for name in included.take(16) {
            if let Ok(bytes) = (self.load)(&dir.join(name))
                && Dialect::detect(&String::from_utf8_lossy(&bytes)) == Dialect::Sjasmplus
            {
                return Dialect::Sjasmplus;
            }
        }
        Dialect::Pasmo
    }

    fn load_source(&mut self, path: &Path) -> std::io::Result<u32> {
        if let Some(&id) = self.by_path.get(path) {
            return Ok(id);
        }
        let bytes = (self.load)(path)?;
        let text = normalize_line_ends(String::from_utf8_lossy(&bytes).into_owned());
        let id = self.sources.len() as u32;
        let mut lines = lex_lines(&text, id);
        if self.dialect == Dialect::Sjasmplus {
            lines = sjasmplus_lines(lines, &text);
        }
        let lines = Rc::new(lines);
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
        self.warnings.clear();
        self.local_names.clear();
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
        self.entry = None;
        self.steps = 0;
        self.overflowed = false;
        self.modules.clear();
        self.defines.clear();
        self.prev_temp_defs = std::mem::take(&mut self.temp_defs);
        self.delta = 0;
        self.in_disp = false;
        self.device = None;
        self.banks = None;
        self.outputs.clear();
        self.capture = None;
        self.structs.clear();
        self.last_label = None;
        self.alocal_scope = 0;
        self.display.clear();
        self.nex = None;
    }

    /// The `-D`/`--equ` definitions as a source of their own (`NAME VALUE` per line), so their
    /// values are lexed and reported like any source text.
    fn command_line_source(&mut self, defines: &[(String, Option<String>)]) -> u32 {
        let text: String = defines
            .iter()
            .map(|(n, v)| format!("{n} {}\n", v.as_deref().unwrap_or("")))
            .collect();
        let id = self.sources.len() as u32;
        let lines = Rc::new(lex_lines(&text, id));
        self.sources.push(Src {
            path: PathBuf::from("<command line>"),
            text,
            lines,
        });
        id
    }

    /// Defines the command line's names for a pass: sjasmplus's `-D NAME=text` is a DEFINE (empty
    /// without a value, as there); pasmo's `--equ NAME=value` an EQU (FFFFh without a value).
    fn apply_command_line(&mut self, id: u32) {
        let lines = self.sources[id as usize].lines.clone();
        for line in lines.iter() {
            let Some((first, rest)) = line.toks.split_first() else {
                continue;
            };
            let loc = Self::tok_loc(first);
            let Tk::Ident(name) = &first.kind else {
                self.diags.push(
                    Diagnostic::new(DiagKind::Syntax, loc, "a defined name must be a name")
                        .label("not a name"),
                );
                continue;
            };
            if self.dialect == Dialect::Sjasmplus {
                self.defines.insert(name.clone(), rest.into());
                continue;
            }
            let value = if rest.is_empty() {
                Ok(0xFFFF)
            } else {
                let l = Self::toks_loc(rest, line);
                self.parse_expr(rest, line).and_then(|e| self.need(&e, &l))
            };
            match value {
                Ok(v) => self.define(name, v, SymbolKind::Equ, loc),
                Err(d) => self.diags.push(d),
            }
        }
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

    // ---------- output ----------

    /// Padding by ALIGN. Without a fill byte in device mode, sjasmplus 1.23.1 leaves the device's
    /// memory as it was (a snapshot keeps what DEVICE put there) while its raw output still gets
    /// zeros; so does retro. (`DS n` without a fill byte does write zeros there, in both.)
    fn emit_space(&mut self, bytes: &[u8], no_fill: bool, loc: &Loc) {
        self.keep_device_mem = no_fill && self.device.is_some();
        self.emit(bytes, loc);
        self.keep_device_mem = false;
    }

    fn emit(&mut self, bytes: &[u8], loc: &Loc) {
        if bytes.is_empty() {
            return;
        }
        let phys = self.pc + self.delta;
        if phys < 0 || phys + bytes.len() as i64 > 0x10000 {
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
                    format!("code runs past $FFFF (at ${:X})", phys),
                )
                .label("this does not fit"),
            );
            self.pc += bytes.len() as i64;
            return;
        }
        let start = phys as usize;
        if let Some(k) = self.capture {
            self.outputs[k].1.extend_from_slice(bytes);
        }
        self.stmt_bytes.extend_from_slice(bytes);
        if !self.keep_device_mem {
            self.mem[start..start + bytes.len()].copy_from_slice(bytes);
        }
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
        if self.dialect == Dialect::Sjasmplus {
            // sjasmplus's raw output: the bytes in the order they were made (ORG does not pad).
            let origin = self.blocks.first().map_or(0, |b| b.0);
            return (
                origin,
                self.blocks.iter().flat_map(|b| b.1.iter().copied()).collect(),
            );
        }
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
            let substituted;
            let line = match self.substitute_defines(&lines[i]) {
                Some(l) => {
                    substituted = l;
                    &substituted
                }
                None => &lines[i],
            };
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
                        "more than 4 million lines assembled in one pass",
                    )
                    .label("stopped here")
                    .help("a REPT/DUP count, nested repetition, a recursive macro or an INCLUDE tree is probably too large"),
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
            let directive = op_word.as_deref().and_then(|w| Directive::parse(w, self.dialect));
            // `$` is this line's address in every expression on it, also in IF conditions and
            // REPT/DUP counts, which are evaluated here before `statement` is reached.
            self.here = self.pc;
            // Conditional assembly is tracked even in skipped regions.
            match directive {
                Some(Directive::If | Directive::Ifdef | Directive::Ifndef) => {
                    let loc = op_loc.clone().unwrap_or_else(|| Self::toks_loc(toks, line));
                    if !active {
                        conds.push((CondState::Done, loc));
                        continue;
                    }
                    let rest = &toks[op_at.unwrap_or(0) + 1..];
                    let truth = match directive {
                        Some(Directive::If) => match self.parse_expr(rest, line).and_then(|e| {
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
                                    self.defined_in_this_pass(s)
                                        || self.macros.contains_key(&s.to_ascii_lowercase())
                                        || self.defines.contains_key(s)
                                }
                                _ => false,
                            };
                            defined == (directive == Some(Directive::Ifdef))
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
                Some(Directive::Else) => {
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
                Some(Directive::Endif) => {
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
            if directive == Some(Directive::Lua) && op_word.as_deref() == Some("lua") {
                // The script up to ENDLUA is not assembly: skip it, report the block once.
                let end = lines[i..].iter().position(|l| {
                    l.toks
                        .iter()
                        .any(|t| matches!(&t.kind, Tk::Ident(w) if w.eq_ignore_ascii_case("endlua")))
                });
                i = end.map_or(lines.len(), |e| i + e + 1);
            }
            if directive == Some(Directive::Struct) {
                i = self.define_struct(lines, i, line, op_at.unwrap_or(0));
                continue;
            }
            // MACRO and REPT own the lines up to their ENDM.
            let is_macro_def = directive == Some(Directive::Macro);
            if is_macro_def || directive == Some(Directive::Rept) {
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
                    let args = Self::split_commas(&toks[op_at.unwrap_or(0) + 1..]);
                    let rest = args.first().copied().unwrap_or_default();
                    // sjasmplus's `DUP n, index`: a DEFL counting 0, 1, 2 ...
                    let index = match args.get(1) {
                        Some(
                            [
                                t @ Tok {
                                    kind: Tk::Ident(name),
                                    ..
                                },
                            ],
                        ) => Some((name.clone(), Self::tok_loc(t))),
                        _ => None,
                    };
                    let l = Self::toks_loc(rest, line);
                    match self.parse_expr(rest, line).and_then(|e| self.need(&e, &l)) {
                        Ok(n) if (0..=65536).contains(&n) => {
                            for k in 0..n {
                                if let Some((name, loc)) = &index {
                                    self.define(name, k, SymbolKind::Defl, loc.clone());
                                }
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

    /// Finds the label (if any) and the index of the operation word.
    fn split_label(&self, toks: &[Tok]) -> (Option<usize>, Option<usize>) {
        let Some(first) = toks.first() else {
            return (None, None);
        };
        // sjasmplus's temporary labels are numbers in column 0 (`1`, `2:`).
        if self.dialect == Dialect::Sjasmplus
            && matches!(first.kind, Tk::Number(Some(_)))
            && self.at_col0(first)
        {
            let op = if toks.get(1).map(|t| &t.kind) == Some(&Tk::Colon) {
                2
            } else {
                1
            };
            return (Some(0), (toks.len() > op).then_some(op));
        }
        let Tk::Ident(name) = &first.kind else {
            return (None, Some(0));
        };
        // sjasmplus: a word in column 0 is always a label, even `end`, `nop` or `org` (its manual:
        // "Labels must start at beginning of line"); `name = expr` there is a DEFL.
        if self.dialect == Dialect::Sjasmplus && self.at_col0(first) {
            let op = if toks.get(1).map(|t| &t.kind) == Some(&Tk::Colon) {
                2
            } else {
                1
            };
            return (Some(0), (toks.len() > op).then_some(op));
        }
        match toks.get(1).map(|t| &t.kind) {
            Some(Tk::Colon) => return (Some(0), if toks.len() > 2 { Some(2) } else { None }),
            Some(Tk::Eq) => return (Some(0), Some(1)),
            Some(Tk::Ident(w))
                if matches!(
                    Directive::parse(&w.to_ascii_lowercase(), self.dialect),
                    Some(Directive::Equ | Directive::Defl | Directive::Macro)
                ) =>
            {
                return (Some(0), Some(1));
            }
            _ => {}
        }
        // A label without a colon must start in column 0 and not be an instruction or macro.
        if self.at_col0(first)
            && !is_keyword(name, self.dialect)
            && !self.macros.contains_key(&name.to_ascii_lowercase())
            && reserved_reg(name).is_none()
        {
            return (Some(0), if toks.len() > 1 { Some(1) } else { None });
        }
        // pasmo: an indented word that is not an instruction, directive or macro is a label when
        // an instruction, directive or macro follows it (`  loop djnz loop`).
        if self.dialect == Dialect::Pasmo
            && !is_keyword(name, self.dialect)
            && !self.macros.contains_key(&name.to_ascii_lowercase())
            && reserved_reg(name).is_none()
            && matches!(toks.get(1).map(|t| &t.kind), Some(Tk::Ident(w))
                if is_keyword(w, self.dialect) || self.macros.contains_key(&w.to_ascii_lowercase()))
        {
            return (Some(0), Some(1));
        }
        (None, Some(0))
    }

    /// True if the token starts its line in its file.
    fn at_col0(&self, t: &Tok) -> bool {
        t.start == 0
            || self
                .sources
                .get(t.file as usize)
                .is_some_and(|s| s.text.as_bytes().get(t.start as usize - 1) == Some(&b'\n'))
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
        let directive = op.and_then(|w| Directive::parse(w, self.dialect));
        if matches!(directive, Some(Directive::Equ | Directive::Defl)) {
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
            let kind = if directive == Some(Directive::Defl) {
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
                        kind,
                    });
                }
            }
            return Ok(());
        }
        self.last_label = None;
        if let Some(Tk::Number(Some(n))) = label_tok.map(|t| &t.kind) {
            self.temp_defs.push((*n, self.pc));
        }
        if let (Some(name), Some(lt)) = (&label_name, label_tok)
            && directive != Some(Directive::Macro)
        {
            self.define(name, self.pc, SymbolKind::Label, Self::tok_loc(lt));
            self.last_label = Some(self.qualify(name));
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
        let sized = MNEMONICS.contains(&op) || matches!(directive, Some(Directive::Db | Directive::Dw));
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
        if (self.macro_depth == 0 && directive != Some(Directive::Include)) || !bytes.is_empty() {
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
