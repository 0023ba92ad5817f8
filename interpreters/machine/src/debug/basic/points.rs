//! Statement breakpoints and watches as every BASIC debugger keeps them: numbered from 1 in the
//! order they are set (breakpoints and watches share the numbers, as gdb's do), with `until`'s
//! own breakpoint numbered 0 so that no command names it and no list shows it.

use crate::debug::{BreakpointInfo, StopReason, count_stop_hits, delete_numbered, enable_numbered};

/// A breakpoint on the statement at `addr` (id 0: `until`'s, which no one sees). `C`: the
/// dialect's own form of a condition (tokenized bytes, or nothing more than its text).
#[derive(Clone, Debug)]
pub struct Break<C> {
    pub id: u32,
    /// The statement's position, as the dialect's [`super::location::Locate`] gives it.
    pub addr: usize,
    /// `LINE:STATEMENT` or the dialect's name of the place (`PROCname`).
    pub what: String,
    /// The condition as typed, and as the dialect evaluates it.
    pub cond: Option<(String, C)>,
    pub temporary: bool,
    pub enabled: bool,
    pub hits: u64,
    /// `ignore N COUNT`: hits still to pass (each counted as a hit, but no stop).
    pub ignore: u64,
}

/// A watched variable or expression, and its value at the last statement. `W`: what the
/// dialect keeps to look at it (tokenized bytes, a variable's place...).
#[derive(Clone, Debug)]
pub struct Watch<W> {
    pub id: u32,
    pub expr: String,
    pub how: W,
    /// The value at the last statement (None: it does not exist / has no value yet).
    pub last: Option<String>,
    pub hits: u64,
    pub enabled: bool,
    /// `watch EXPR if COND`: a change stops only when COND (as typed) holds after it.
    pub cond: Option<String>,
}

/// Both kinds of point keep their number, state and stops alike.
macro_rules! numbered {
    ($($point:ident<$t:ident>),+) => {$(
        impl<$t> crate::debug::Numbered for $point<$t> {
            fn id(&self) -> u32 {
                self.id
            }
            fn set_enabled(&mut self, on: bool) {
                self.enabled = on;
            }
            fn count_hit(&mut self) {
                self.hits += 1;
            }
        }
    )+};
}

numbered!(Break<C>, Watch<W>);

/// A debugger's breakpoints and watches.
#[derive(Clone, Debug)]
pub struct Points<C, W> {
    pub breaks: Vec<Break<C>>,
    pub watches: Vec<Watch<W>>,
    next_id: u32,
}

impl<C, W> Default for Points<C, W> {
    fn default() -> Self {
        Points {
            breaks: Vec::new(),
            watches: Vec::new(),
            next_id: 1,
        }
    }
}

impl<C, W> Points<C, W> {
    /// The next number a point takes.
    fn take_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// `break` / `tbreak` at a resolved place: its number.
    pub fn add_break(
        &mut self,
        addr: usize,
        what: String,
        cond: Option<(String, C)>,
        temporary: bool,
    ) -> u32 {
        let id = self.take_id();
        self.push_break(id, addr, what, cond, temporary);
        id
    }

    /// `until LOC` / `advance LOC`: a temporary breakpoint no one sees (number 0).
    pub fn add_until(&mut self, addr: usize, what: String) {
        self.push_break(0, addr, what, None, true);
    }

    fn push_break(&mut self, id: u32, addr: usize, what: String, cond: Option<(String, C)>, temporary: bool) {
        self.breaks.push(Break {
            id,
            addr,
            what,
            cond,
            temporary,
            enabled: true,
            hits: 0,
            ignore: 0,
        });
    }

    /// The command under way was stopped or ended: `until`'s breakpoint goes.
    pub fn forget_until(&mut self) {
        self.breaks.retain(|b| b.id != 0);
    }

    /// `watch EXPR`, its value now taken: its number.
    pub fn add_watch(&mut self, expr: String, how: W, last: Option<String>) -> u32 {
        let id = self.take_id();
        self.watches.push(Watch {
            id,
            expr,
            how,
            last,
            hits: 0,
            enabled: true,
            cond: None,
        });
        id
    }

    /// Breakpoint `id` (a user's), for `condition N EXPR`.
    pub fn break_mut(&mut self, id: u32) -> Result<&mut Break<C>, String> {
        self.breaks
            .iter_mut()
            .find(|b| b.id == id && id != 0)
            .ok_or_else(|| format!("no breakpoint number {id}"))
    }

    /// `ignore N COUNT`: breakpoint N passes its next COUNT hits.
    pub fn set_ignore(&mut self, id: u32, count: u64) -> Result<(), String> {
        if self.watches.iter().any(|w| w.id == id) {
            return Err(format!("{id} is a watch: ignore counts are for breakpoints"));
        }
        self.break_mut(id)?.ignore = count;
        Ok(())
    }

    /// Breakpoint `i` was hit with its condition holding (the hit counted): whether an ignore
    /// count passes it instead of stopping.
    pub fn passes(&mut self, i: usize) -> bool {
        let b = &mut self.breaks[i];
        if b.ignore > 0 {
            b.ignore -= 1;
            return true;
        }
        false
    }

    /// `delete [N]`: false when N names no point.
    pub fn delete(&mut self, id: Option<u32>) -> bool {
        delete_numbered(&mut self.breaks, &mut self.watches, id)
    }

    /// `enable [N]` / `disable [N]`: false when N names no point.
    pub fn enable(&mut self, id: Option<u32>, on: bool) -> bool {
        enable_numbered(&mut self.breaks, &mut self.watches, id, on)
    }

    /// A stop `reverse-continue` went back to counts as a hit of the points it names.
    pub fn count_hits(&mut self, stop: &StopReason) {
        count_stop_hits(&mut self.breaks, &mut self.watches, stop);
    }

    /// Whether a watch is on: the run must look at every statement.
    pub fn watching(&self) -> bool {
        self.watches.iter().any(|w| w.enabled)
    }

    /// The users' breakpoints at `addr` (`until`'s is not one).
    pub fn ids_at(&self, addr: usize) -> Vec<u32> {
        self.breaks
            .iter()
            .filter(|b| b.id != 0 && b.addr == addr)
            .map(|b| b.id)
            .collect()
    }

    /// `info breakpoints`: every user's point by number; `place` says where a breakpoint is
    /// (after its `LINE:STATEMENT`) in the dialect's words.
    pub fn info(&self, place: impl Fn(&Break<C>) -> String) -> Vec<BreakpointInfo> {
        let mut list: Vec<BreakpointInfo> = self
            .breaks
            .iter()
            .filter(|b| b.id != 0)
            .map(|b| BreakpointInfo {
                id: b.id,
                kind: if b.temporary { "tbreakpoint" } else { "breakpoint" }.into(),
                enabled: b.enabled,
                hits: b.hits,
                what: format!("{} {}", b.what, place(b)),
                condition: b.cond.as_ref().map(|c| c.0.clone()),
            })
            .chain(self.watches.iter().map(|w| BreakpointInfo {
                id: w.id,
                kind: "watchpoint".into(),
                enabled: w.enabled,
                hits: w.hits,
                what: w.expr.clone(),
                condition: w.cond.clone(),
            }))
            .collect();
        list.sort_by_key(|b| b.id);
        list
    }
}

/// What `watch` answers: the number and the value the watch starts from.
pub fn watch_set_words(id: u32, expr: &str, now: Option<&str>) -> String {
    format!(
        "Watchpoint {id}: {expr} (now {})\n",
        now.unwrap_or(crate::debug::NO_VALUE)
    )
}
