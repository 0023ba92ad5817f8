//! What the interpreter has already read from the program text, by the address it read it at,
//! so that a loop does not parse the same bytes again: numbers (FIN's value and length),
//! variable names (and the variable each one found) and GOTO targets.
//!
//! Entries only save work, they never change a result: each describes bytes of the program, and
//! all of them are dropped (by a generation count, so dropping costs nothing) when those bytes
//! or the pointers that say where the program is can have changed (a POKE there, LOAD, NEW). A
//! variable's address is also only trusted while the simple variables have not been cleared or
//! poked (`vars_changed`); variables never move otherwise, since new ones go after them.

use super::vars::{Kind, Name};
use crate::float::Fac;

/// One slot per address of the 64 KiB at most, allocated as far as the addresses used (start-up
/// stays quick, and a small program fills a few KiB of slots rather than 2 MiB: issue 32's
/// fuzzing starts 100,000 machines).
const SLOTS: usize = 0x10000;

#[derive(Clone, Copy, Default)]
struct NumberSlot {
    made: u32,
    value: Fac,
    len: u8,
}

#[derive(Clone, Copy, Default)]
struct NameSlot {
    made: u32,
    /// Bytes from the name's first letter to after its suffix.
    len: u8,
    n1: u8,
    n2: u8,
    kind: Kind,
    paren: bool,
    /// The simple variable this name found, valid while `var_gen` is the current one.
    var_gen: u32,
    var: u16,
}

#[derive(Clone, Copy, Default)]
struct GotoSlot {
    made: u32,
    /// The line the GOTO is in (a forward jump searches from the next line).
    line: u16,
    /// Where NEWSTT continues: the byte before the target line's link.
    target: u16,
}

pub(super) struct TextCache {
    text_gen: u32,
    vars_gen: u32,
    numbers: Vec<NumberSlot>,
    names: Vec<NameSlot>,
    gotos: Vec<GotoSlot>,
}

/// The slot for address `at`, growing the slots to cover it (doubling, so growth costs
/// amortised constant time; the readers treat a slot beyond the end as empty).
#[inline]
fn slot<T: Default + Clone>(v: &mut Vec<T>, at: usize) -> &mut T {
    if at >= v.len() {
        v.resize((at + 1).next_power_of_two().clamp(4096, SLOTS), T::default());
    }
    &mut v[at]
}

impl TextCache {
    pub(super) fn new() -> TextCache {
        TextCache {
            text_gen: 1,
            vars_gen: 1,
            numbers: Vec::new(),
            names: Vec::new(),
            gotos: Vec::new(),
        }
    }

    /// The program's bytes (or where it is) may have changed: forget everything.
    pub(super) fn text_changed(&mut self) {
        if self.text_gen == u32::MAX {
            // Old slots could look current again after wrapping: start afresh.
            *self = TextCache::new();
            return;
        }
        self.text_gen += 1;
    }

    /// The simple variables were cleared, moved or poked: forget where names found them.
    pub(super) fn vars_changed(&mut self) {
        if self.vars_gen == u32::MAX {
            for s in &mut self.names {
                s.var_gen = 0;
            }
            self.vars_gen = 0;
        }
        self.vars_gen += 1;
    }

    /// The number FIN read at `at`, and how many bytes it took.
    #[inline]
    pub(super) fn number(&self, at: usize) -> Option<(Fac, u8)> {
        let s = self.numbers.get(at)?;
        (s.made == self.text_gen).then_some((s.value, s.len))
    }

    pub(super) fn set_number(&mut self, at: usize, value: Fac, len: u8) {
        let made = self.text_gen;
        *slot(&mut self.numbers, at) = NumberSlot { made, value, len };
    }

    /// The name read at `at`: the name, whether `(` follows, and its length in bytes.
    #[inline]
    pub(super) fn name(&self, at: usize) -> Option<(Name, bool, u8)> {
        let s = self.names.get(at)?;
        if s.made != self.text_gen {
            return None;
        }
        Some((
            Name {
                n1: s.n1,
                n2: s.n2,
                kind: s.kind,
            },
            s.paren,
            s.len,
        ))
    }

    pub(super) fn set_name(&mut self, at: usize, name: Name, paren: bool, len: u8) {
        let made = self.text_gen;
        *slot(&mut self.names, at) = NameSlot {
            made,
            len,
            n1: name.n1,
            n2: name.n2,
            kind: name.kind,
            paren,
            var_gen: 0,
            var: 0,
        };
    }

    /// The simple variable `n1 n2` that the name at `at` found before, if still valid.
    #[inline]
    pub(super) fn var(&self, at: usize, n1: u8, n2: u8) -> Option<u16> {
        let s = self.names.get(at)?;
        (s.made == self.text_gen && s.var_gen == self.vars_gen && s.n1 == n1 && s.n2 == n2).then_some(s.var)
    }

    /// The simple variable (not an array element) named at `at`, in one look: its entry's
    /// address, its type and the name's length, when both the name and the variable it found
    /// are remembered and current.
    #[inline]
    pub(super) fn simple_var(&self, at: usize) -> Option<(u16, Kind, u8)> {
        let s = self.names.get(at)?;
        if s.made != self.text_gen || s.var_gen != self.vars_gen || s.paren {
            return None;
        }
        Some((s.var, s.kind, s.len))
    }

    /// Remembers the variable the name at `at` found (only for the name read there).
    pub(super) fn set_var(&mut self, at: usize, n1: u8, n2: u8, var: u16) {
        let (text_gen, vars_gen) = (self.text_gen, self.vars_gen);
        if let Some(s) = self.names.get_mut(at)
            && s.made == text_gen
            && s.n1 == n1
            && s.n2 == n2
        {
            s.var_gen = vars_gen;
            s.var = var;
        }
    }

    /// Where the GOTO whose line number is at `at`, in line `line`, went before.
    #[inline]
    pub(super) fn goto(&self, at: usize, line: u16) -> Option<usize> {
        let s = self.gotos.get(at)?;
        (s.made == self.text_gen && s.line == line).then_some(s.target as usize)
    }

    pub(super) fn set_goto(&mut self, at: usize, line: u16, target: usize) {
        let made = self.text_gen;
        *slot(&mut self.gotos, at) = GotoSlot {
            made,
            line,
            target: target as u16,
        };
    }
}
