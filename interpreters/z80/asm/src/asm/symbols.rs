//! Symbols: scopes (global, `.local`, macro expansions, pasmo's PROC/LOCAL), lookup and
//! definition, and forward EQUs settled in dependency order at the end of a pass.

use super::dialect::Dialect;
use super::dialect::parse_temp_ref;
use super::operands::{Rg, is_short_half, reg_name, reserved_reg};
use super::{Asm, R};
use crate::diag::{DiagKind, Diagnostic, Loc, suggest};
use crate::expr::{EvalError, Expr, eval};
use crate::output::SymbolKind;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

#[derive(Debug, Clone)]
pub(super) struct Symbol {
    pub(super) value: i64,
    pub(super) kind: SymbolKind,
    pub(super) loc: Loc,
}

/// A pasmo-style scope: a PROC ... ENDP block or a macro expansion. Names declared LOCAL in it
/// are private to it (and to the scopes nested inside it); every other name is global.
#[derive(Debug, Default)]
pub(super) struct Proc {
    pub(super) id: u32,
    pub(super) locals: std::cell::RefCell<HashSet<Rc<str>>>,
    /// Where the PROC was opened (None for a macro expansion), for "PROC without ENDP".
    pub(super) opened: Option<Loc>,
}

/// An EQU met before a symbol it needs, with what is needed to evaluate it later as if in place.
pub(super) struct PendingEqu {
    /// The qualified name being defined.
    pub(super) name: Rc<str>,
    pub(super) expr: Expr,
    pub(super) loc: Loc,
    pub(super) here: i64,
    pub(super) global: Rc<str>,
    pub(super) macro_scope: Option<u32>,
    pub(super) procs: Vec<Rc<Proc>>,
    /// The error to report if it never resolves.
    pub(super) error: Diagnostic,
    /// EQU or DEFL.
    pub(super) kind: SymbolKind,
}

impl Asm<'_> {
    /// The full name of a label: `.x` is local to the last global label (or to a macro expansion).
    pub(super) fn qualify(&self, name: &str) -> Rc<str> {
        // A LOCAL name of an open PROC or macro expansion (the innermost that declares it).
        if let Some(p) = self.procs.iter().rev().find(|p| p.locals.borrow().contains(name)) {
            return Rc::from(format!("{name}@{}", p.id));
        }
        // pasmo --alocal: `_name` belongs to the scope since the last label without `_`.
        if self.alocal && self.dialect == Dialect::Pasmo && name.starts_with('_') {
            return Rc::from(format!("{name}@_{}", self.alocal_scope));
        }
        if name.starts_with('.') && name.len() > 1 {
            match self.macro_scope {
                Some(n) => Rc::from(format!("{}@{n}{name}", self.global)),
                None => Rc::from(format!("{}{name}", self.global)),
            }
        } else if self.dialect == Dialect::Sjasmplus {
            // sjasmplus: `@name` is global as written; other names belong to the open MODULEs.
            match name.strip_prefix('@') {
                Some(global) if !global.is_empty() => Rc::from(global),
                _ if self.modules.is_empty() => Rc::from(name),
                _ => Rc::from(format!("{}.{name}", self.module_prefix())),
            }
        } else {
            Rc::from(name)
        }
    }

    /// The open MODULEs' names joined by dots (`outer.inner`).
    pub(super) fn module_prefix(&self) -> String {
        self.modules.iter().map(|m| &**m).collect::<Vec<_>>().join(".")
    }

    /// The register a word names, unless it is a short index-half spelling used as a symbol.
    pub(super) fn reg(&self, s: &str) -> Option<Rg> {
        let r = reg_name(s)?;
        if is_short_half(s) && self.lookup(s).is_some() {
            return None;
        }
        Some(r)
    }

    /// Whether IFDEF sees `name`: only a symbol defined earlier in this pass counts, never one
    /// the previous pass placed further on. Otherwise the defaults idiom (`IFNDEF XSIZE` /
    /// `XSIZE EQU 7` / `ENDIF`) would skip the EQU every other pass and never settle.
    pub(super) fn defined_in_this_pass(&self, name: &str) -> bool {
        self.cur.contains_key(&self.qualify(name))
            || (self.dialect == Dialect::Sjasmplus
                && !self.modules.is_empty()
                && !name.starts_with(['.', '@'])
                && self.cur.contains_key(name))
    }

    pub(super) fn lookup(&self, name: &str) -> Option<i64> {
        if self.dialect == Dialect::Sjasmplus
            && let Some((n, forward)) = parse_temp_ref(name)
        {
            return self.temp_label(n, forward);
        }
        let get = |q: &str| self.cur.get(q).or_else(|| self.prev.get(q)).map(|s| s.value);
        let q = self.qualify(name);
        get(&q)
            .or_else(|| {
                // Inside a macro, a dot label that is not the expansion's own is the caller's
                // (`jmp .loop` passing the caller's `.loop` in), as sjasmplus resolves it.
                (self.macro_scope.is_some() && name.starts_with('.') && name.len() > 1)
                    .then(|| get(&format!("{}{name}", self.global)))
                    .flatten()
            })
            .or_else(|| {
                // sjasmplus: a name not found in the module is looked up globally.
                (self.dialect == Dialect::Sjasmplus
                    && !self.modules.is_empty()
                    && !name.starts_with(['.', '@']))
                .then(|| get(name))
                .flatten()
            })
    }

    /// The address of temporary label `n`: the last one defined so far (backward) or the next
    /// one (forward, as the previous pass placed it; temporary labels keep their order).
    fn temp_label(&self, n: i64, forward: bool) -> Option<i64> {
        if forward {
            let seen = self.temp_defs.len();
            self.prev_temp_defs
                .get(seen..)?
                .iter()
                .find(|d| d.0 == n)
                .map(|d| d.1)
        } else {
            self.temp_defs.iter().rev().find(|d| d.0 == n).map(|d| d.1)
        }
    }

    pub(super) fn value(&self, e: &Expr) -> Result<i64, EvalError> {
        eval(e, self.here, &mut |s| self.lookup(s))
    }

    pub(super) fn eval_err(&self, err: EvalError, loc: &Loc) -> Diagnostic {
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
                } else {
                    // Build scripts often give such names on the command line.
                    d = d.help(format!(
                        "if it comes from the command line, define it with `--equ {name}=VALUE` (pasmo) or `-D{name}=VALUE` (sjasmplus)"
                    ));
                }
                d
            }
            EvalError::DivZero => {
                Diagnostic::new(DiagKind::OutOfRange, loc.clone(), "division by zero").label("here")
            }
        }
    }

    pub(super) fn need(&self, e: &Expr, loc: &Loc) -> R<i64> {
        match self.value(e) {
            Ok(v) => Ok(v),
            Err(_) if self.lenient => Ok(0),
            Err(err) => Err(self.eval_err(err, loc)),
        }
    }

    pub(super) fn define(&mut self, name: &str, value: i64, kind: SymbolKind, loc: Loc) {
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
        if self.alocal && !name.starts_with('_') {
            self.alocal_scope += 1;
        }
        let q = self.qualify(name);
        if !name.starts_with('.') && kind == SymbolKind::Label {
            self.global = q.clone();
        }
        if name.starts_with('.') && name.len() > 1 && self.dialect == Dialect::Pasmo && !self.lenient {
            self.warn_local_label(name, &q, &loc);
        }
        self.insert_symbol(q, name, value, kind, loc);
    }

    /// pasmo has no local labels: there `.loop` is one global name, so a second `.loop` under
    /// another label (or in a second macro expansion) stops pasmo with "previously defined"
    /// while retro assembles it. Warn there, the one place the two silently part.
    fn warn_local_label(&mut self, name: &str, q: &Rc<str>, loc: &Loc) {
        match self.local_names.get(name) {
            Some((first, first_loc)) if first != q => {
                let scope = q.strip_suffix(name).unwrap_or(q);
                let d = Diagnostic::new(
                    DiagKind::PasmoDifference,
                    loc.clone(),
                    format!("`{name}` is a new local label here; pasmo would report it defined twice"),
                )
                .label(if scope.contains('@') {
                    String::from("private to this macro expansion")
                } else if scope.is_empty() {
                    String::from("local to the start of the file")
                } else {
                    format!("local to `{scope}`")
                })
                .also(first_loc.clone(), "pasmo's one and only definition")
                .note("pasmo has no local labels: a name starting with a dot is global there");
                self.warnings.push(d);
            }
            Some(_) => {}
            None => {
                self.local_names.insert(Rc::from(name), (q.clone(), loc.clone()));
            }
        }
    }

    /// Defines a symbol by its full name (a duplicate is an error unless both are DEFLs).
    pub(super) fn define_qualified(&mut self, q: Rc<str>, value: i64, kind: SymbolKind, loc: Loc) {
        let name = q.clone();
        self.insert_symbol(q, &name, value, kind, loc);
    }

    /// Inserts `q`; a duplicate is reported under the name the source wrote.
    fn insert_symbol(&mut self, q: Rc<str>, name: &str, value: i64, kind: SymbolKind, loc: Loc) {
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
            // Sources for pasmo's autolocal mode reuse `_names` under each label.
            let d = if name.starts_with('_') && self.dialect == Dialect::Pasmo && !self.alocal {
                d.help("in pasmo's autolocal mode names starting with `_` are local to the previous label: `retro asm --alocal`")
            } else {
                d
            };
            self.diags.push(d);
            return;
        }
        self.cur.insert(q, Symbol { value, kind, loc });
    }

    /// Reports PROCs still open at the end of the source.
    pub(super) fn close_procs(&mut self) {
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
    pub(super) fn resolve_pending_equs(&mut self) {
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
                        kind: p.kind,
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
    pub(super) fn report_unresolved(&mut self, pending: Vec<PendingEqu>, deps: &[Vec<usize>], done: &[bool]) {
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
