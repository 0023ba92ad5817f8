//! Quickened statements: the hot statements of loops (numeric assignment, single-line IF, FOR,
//! NEXT, REPEAT, UNTIL, WHILE, ENDWHILE, GOSUB and GOTO to a constant line, RETURN) decoded once
//! into a compact form, keyed by the program position where the statement starts.
//!
//! A statement is quickened on its second visit, once the byte path has resolved its variables
//! (the site caches) and its expressions are cacheable (`fastexpr`). Running a quickened
//! statement reads and writes exactly what the byte path would and leaves the pointer where it
//! would. Anything out of the ordinary (an error, a value needing conversion the fast path does
//! not make, a control stack entry other than the expected one) makes it give up before it has
//! changed anything, and the byte path runs the statement instead: errors come from the byte
//! path, with its messages and at its positions. Like the other caches, the quickened forms are
//! dropped when the program is written to, and on CLEAR and RUN.

use super::fastexpr::{Compiled, num_binop};
use super::number::{self, Num};
use super::{ArrayData, Frame, Interp, MAX_STACK, VarRef, site_decode};
use crate::tokens as tok;

/// Cache states per program byte: not seen, seen once, not quickenable; above that, FIRST + the
/// index of the quickened statement.
const SEEN: u32 = 1;
const NEVER: u32 = 2;
const FIRST: u32 = 3;

/// Where a quickened assignment stores.
#[derive(Debug, Clone, Copy)]
pub(super) enum Target {
    Int(u32),
    Float(u32),
    Resident(u8),
    /// An element of a one-dimensional numeric array and its subscript.
    IntEl(u32, Compiled),
    FloatEl(u32, Compiled),
}

/// Where execution goes after a statement that ends at `at`: past the `:` or line end there
/// (`skip` bytes, 0 for none) when the statement budget allows, so a separator costs no trip
/// round the statement loop.
#[derive(Debug, Clone, Copy)]
pub(super) struct Then {
    at: u32,
    skip: u8,
    /// For a jump to a line (`skip` 0): the spaces that start the line's text, which the
    /// statement loop skips without counting them (see `land`).
    land: u8,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Quick {
    /// `target = value`, or `target op= value` for `+ - * /`.
    Assign {
        target: Target,
        op: u8,
        value: Compiled,
        then: Then,
    },
    /// `name = expression` for a float variable and an expression whose value is a float
    /// closure's (`K=K+1` on a float K): `Assign` with its target, operator and the
    /// expression's root fixed, so running it tests none of them (BM4: 10% fewer
    /// instructions).
    SetFloat {
        slot: u32,
        value: u32,
        nest: u32,
        then: Then,
    },
    /// As `SetFloat`, for an integer variable and an integer closure.
    SetInt {
        slot: u32,
        value: u32,
        nest: u32,
        then: Then,
    },
    /// `array(subscript) = expression` for a one-dimensional float array: `Assign` with the
    /// target's kind and the operator fixed (BM7's `M(L)=A`).
    SetFloatEl {
        arr: u32,
        sub: Compiled,
        value: Compiled,
        then: Then,
    },
    /// As `SetFloatEl`, for an integer array.
    SetIntEl {
        arr: u32,
        sub: Compiled,
        value: Compiled,
        then: Then,
    },
    /// `NEXT` or `NEXT name` closing the innermost loop.
    Next { var: Option<VarRef>, then: Then },
    /// Single-line `IF cond [THEN] ... [ELSE ...]`: where each outcome continues.
    If { cond: Compiled, yes: Then, no: Then },
    /// `If` whose condition is an integer closure's value (a comparison: `IF K<1000 THEN`),
    /// called straight (see `SetFloat`).
    IfInt {
        cond: u32,
        nest: u32,
        yes: Then,
        no: Then,
    },
    /// `UNTIL cond` closing the innermost loop.
    Until { cond: Compiled, then: Then },
    /// `GOSUB line`: the line's body and the return position.
    Gosub { target: Then, ret: Then },
    /// `RETURN` from the innermost GOSUB.
    Return,
    /// `GOTO line`: the line's body.
    Goto { target: Then },
    /// `REPEAT`: the loop body's continuation.
    Repeat { body: Then },
    /// `FOR var = start TO limit [STEP step]`, for a simple numeric control variable.
    For {
        var: VarRef,
        start: Compiled,
        limit: Compiled,
        step: Option<Compiled>,
        body: Then,
    },
    /// `WHILE cond`: where the body starts, and where execution goes on after the matching
    /// ENDWHILE when the condition is false.
    While {
        cond: Compiled,
        /// Where the condition starts (the position the loop entry records).
        at: u32,
        body: Then,
        after: Then,
    },
    /// `ENDWHILE` closing the innermost loop, a WHILE quickened as well.
    EndWhile { after: Then },
}

/// A FOR loop's limit and step, in the type of its control variable.
#[derive(Clone, Copy)]
enum Bounds {
    Int(i32, i32),
    Float(f64, f64),
}

impl Interp {
    /// Runs the quickened form of the statement at pc (after its spaces), if it has one, and
    /// then each quickened statement that follows it, as the statement loop would run them:
    /// each counts one statement (the loop's count, checked first), and the chain stops where
    /// the host's tick is due, where a debugger watches, or where the next statement has no
    /// quickened form (a space, `:` or line end before it, a statement never quickened).
    /// Going round the statement loop for each was a third of the instructions of a loop of
    /// quickened statements (BM7).
    ///
    /// `true`: done, pc moved on; `false`: the statement at pc (the first, or one the chain
    /// had counted) gave up before changing anything, and the byte path must run it.
    #[inline(always)]
    pub(super) fn quick_run(&mut self) -> bool {
        let off = self.pc.wrapping_sub(self.page);
        let Some(&state) = self.pos.quick_cache.get(off) else {
            return false;
        };
        if state < FIRST {
            if state != NEVER {
                self.quick_visit(off, state);
            }
            return false;
        }
        let mut i = (state - FIRST) as usize;
        if i >= self.quicks.len() {
            return false;
        }
        let chain = self.debug.is_none();
        loop {
            if !self.run_quick(i) {
                return false;
            }
            // Where the next count would reach the tick, the statement loop takes it.
            if !chain || self.ticks_left <= 1 {
                return true;
            }
            // A position holds a quickened form only where a statement starts (after its
            // spaces): `SEEN`, `NEVER` and unvisited positions wrap to indices past the end.
            let off = self.pc.wrapping_sub(self.page);
            let Some(&state) = self.pos.quick_cache.get(off) else {
                return true;
            };
            let next = state.wrapping_sub(FIRST) as usize;
            if next >= self.quicks.len() {
                return true;
            }
            self.ticks_left -= 1;
            i = next;
        }
    }

    /// First visit: remember it; second visit: quicken the statement if it can be.
    #[cold]
    #[inline(never)]
    fn quick_visit(&mut self, off: usize, state: u32) {
        self.pos.quick_cache[off] = if !self.caching {
            NEVER
        } else if state == 0 {
            SEEN
        } else {
            match self.quicken(self.pc) {
                Some(q) => {
                    self.quicks.push(q);
                    FIRST + self.quicks.len() as u32 - 1
                }
                None => NEVER,
            }
        };
    }

    #[inline]
    fn run_quick(&mut self, i: usize) -> bool {
        // Matched in place: each arm copies only the fields it uses.
        match self.quicks[i] {
            Quick::Assign {
                target,
                op,
                value,
                then,
            } => self.assign_then(target, op, value, then),
            Quick::SetFloat {
                slot,
                value,
                nest,
                then,
            } => {
                let v = self.eval_float_closure(value, nest);
                self.put_then(v, |it| it.floats.get_mut(slot as usize), then)
            }
            Quick::SetInt {
                slot,
                value,
                nest,
                then,
            } => {
                let v = self.eval_int_closure(value, nest);
                self.put_then(v, |it| it.ints.get_mut(slot as usize), then)
            }
            Quick::SetFloatEl {
                arr,
                sub,
                value,
                then,
            } => self.assign_then(Target::FloatEl(arr, sub), 0, value, then),
            Quick::SetIntEl {
                arr,
                sub,
                value,
                then,
            } => self.assign_then(Target::IntEl(arr, sub), 0, value, then),
            Quick::Next { var, then } => loop {
                let again = match self.stack.last() {
                    Some(&Frame::ForInt {
                        var: v,
                        limit,
                        step,
                        body,
                        skip,
                    }) if var.is_none_or(|n| n == v) => {
                        let slot = match v {
                            VarRef::Int(i) => self.ints.get_mut(i as usize),
                            VarRef::Resident(i) => self.resident.get_mut(i as usize),
                            _ => None,
                        };
                        let Some(cur) = slot else { return false };
                        match cur.checked_add(step) {
                            Some(n) => {
                                *cur = n;
                                (if step >= 0 { n <= limit } else { n >= limit }).then_some((body, skip))
                            }
                            None => None,
                        }
                    }
                    Some(&Frame::ForFloat {
                        var: v @ VarRef::Float(i),
                        limit,
                        step,
                        body,
                        skip,
                    }) if var.is_none_or(|n| n == v) => {
                        let Some(cur) = self.floats.get_mut(i as usize) else {
                            return false;
                        };
                        let n = *cur + step;
                        *cur = n;
                        (if step >= 0.0 { n <= limit } else { n >= limit }).then_some((body, skip))
                    }
                    _ => return false,
                };
                let next = self.pc;
                match again {
                    // The loop body usually starts with the `:` or line end after the FOR.
                    Some((body, skip)) => self.go(body, skip),
                    None => {
                        self.pop_plain();
                        self.go(then.at as usize, then.skip);
                        return true;
                    }
                }
                // An empty loop (`FOR K=1 TO N:NEXT`, a delay loop) comes straight back to this
                // NEXT: run the next pass here, counting the statement as the statement loop
                // would (and as a debugger would, if one may let it pass), unless that count is
                // due for the host's tick.
                if self.ticks_left <= 1 || self.skip_at(self.pc) != next || !self.debug_passes(next) {
                    return true;
                }
                self.ticks_left -= 1;
                self.pc = next;
                if self.debug.is_none() && self.spin_empty_loop(var, next) == Some(true) {
                    self.pop_plain();
                    self.go(then.at as usize, then.skip);
                    return true;
                }
            },
            Quick::If { cond, yes, no } => {
                let Some(c) = self.eval_num(cond).and_then(truth) else {
                    return false;
                };
                let t = if c { yes } else { no };
                if t.skip == 0 {
                    self.land(t);
                } else {
                    self.go(t.at as usize, t.skip);
                }
                true
            }
            Quick::IfInt { cond, nest, yes, no } => {
                let Some(c) = self.eval_int_closure(cond, nest) else {
                    return false;
                };
                let t = if c != 0 { yes } else { no };
                if t.skip == 0 {
                    self.land(t);
                } else {
                    self.go(t.at as usize, t.skip);
                }
                true
            }
            Quick::Until { cond, then } => {
                let Some(&Frame::Repeat { body, skip }) = self.stack.last() else {
                    return false;
                };
                let Some(c) = self.eval_num(cond).and_then(truth) else {
                    return false;
                };
                if c {
                    self.pop_plain();
                    self.go(then.at as usize, then.skip);
                } else {
                    self.go(body, skip);
                }
                true
            }
            Quick::While {
                cond, body, after, ..
            } => {
                let Some(c) = self.eval_num(cond).and_then(truth) else {
                    return false;
                };
                if c {
                    let cond = self.pc + 2;
                    if !self.quick_push(|| Frame::While {
                        cond,
                        quick: i as u32,
                    }) {
                        return false;
                    }
                    self.go(body.at as usize, body.skip);
                } else {
                    self.go(after.at as usize, after.skip);
                }
                true
            }
            Quick::EndWhile { after } => {
                let Some(&Frame::While { cond: at, quick }) = self.stack.last() else {
                    return false;
                };
                // The entry may outlive the quickened forms (CLEAR inside the loop).
                let Some(&Quick::While {
                    cond, body, at: q_at, ..
                }) = self.quicks.get(quick as usize)
                else {
                    return false;
                };
                if q_at as usize != at {
                    return false;
                }
                let Some(c) = self.eval_num(cond).and_then(truth) else {
                    return false;
                };
                if c {
                    self.go(body.at as usize, body.skip);
                } else {
                    self.pop_plain();
                    self.go(after.at as usize, after.skip);
                }
                true
            }
            Quick::Goto { target } => {
                self.land(target);
                true
            }
            Quick::Repeat { body } => {
                if !self.quick_push(|| Frame::Repeat {
                    body: body.at as usize,
                    skip: body.skip,
                }) {
                    return false;
                }
                self.go(body.at as usize, body.skip);
                true
            }
            Quick::For {
                var,
                start,
                limit,
                step,
                body,
            } => self.quick_for(var, start, limit, step, body),
            Quick::Return => {
                let Some(&Frame::Gosub { ret, skip }) = self.stack.last() else {
                    return false;
                };
                self.pop_plain();
                self.go(ret, skip);
                true
            }
            Quick::Gosub { target, ret } => {
                if !self.quick_push(|| Frame::Gosub {
                    ret: ret.at as usize,
                    skip: ret.skip,
                }) {
                    return false;
                }
                self.land(target);
                true
            }
        }
    }

    /// A quickened assignment: the value, stored, then on to `then`; false (nothing changed)
    /// where the byte path must run it. Inlined, with the target's kind and the operator
    /// constant in the fixed forms (`SetFloatEl`...), their tests fold away.
    #[inline(always)]
    fn assign_then(&mut self, target: Target, op: u8, value: Compiled, then: Then) -> bool {
        let Some(v) = self.eval_num(value) else {
            return false;
        };
        if !self.store(target, op, v) {
            return false;
        }
        self.go(then.at as usize, then.skip);
        true
    }

    /// A value already in its variable's type put in the variable's `slot`, then on to
    /// `then`; false (nothing changed) where there is no value or no slot.
    #[inline(always)]
    fn put_then<T>(
        &mut self,
        v: Option<T>,
        slot: impl FnOnce(&mut Interp) -> Option<&mut T>,
        then: Then,
    ) -> bool {
        let Some(v) = v else {
            return false;
        };
        let Some(s) = slot(self) else {
            return false;
        };
        *s = v;
        self.go(then.at as usize, then.skip);
        true
    }

    /// The passes of an empty loop (`FOR K=1 TO N:NEXT`) whose NEXT at `next` has just come
    /// round again, run here without a debugger while the statement count has room: each pass
    /// adds the step, and going on counts the separator and the NEXT (two statements), exactly
    /// as the statement loop and `go` count them. `Some(true)`: the loop has ended (the caller
    /// pops it and goes on after the NEXT); otherwise pc is still at the NEXT, whose next pass
    /// is the statement loop's. Four times fewer instructions a pass than going round (BM1).
    #[inline(never)]
    fn spin_empty_loop(&mut self, var: Option<VarRef>, next: usize) -> Option<bool> {
        // One pass: the NEXT's addition; `None` when the loop ends there.
        fn passes<T: Copy>(
            cur: &mut T,
            ticks: &mut u32,
            add: impl Fn(T) -> Option<T>,
            on: impl Fn(T) -> bool,
        ) -> bool {
            let (mut c, mut t) = (*cur, *ticks);
            let ended = loop {
                if t < 3 {
                    break false;
                }
                match add(c) {
                    Some(n) => {
                        c = n;
                        if !on(n) {
                            break true;
                        }
                    }
                    None => break true,
                }
                t -= 2;
            };
            (*cur, *ticks) = (c, t);
            ended
        }
        let mut ticks = self.ticks_left;
        let ended = match *self.stack.last()? {
            Frame::ForFloat {
                var: v @ VarRef::Float(i),
                limit,
                step,
                body,
                skip,
            } if skip != 0 && var.is_none_or(|n| n == v) && self.skip_at(body + skip as usize) == next => {
                let cur = self.floats.get_mut(i as usize)?;
                let up = step >= 0.0;
                passes(
                    cur,
                    &mut ticks,
                    |c| Some(c + step),
                    |n| if up { n <= limit } else { n >= limit },
                )
            }
            Frame::ForInt {
                var: v,
                limit,
                step,
                body,
                skip,
            } if skip != 0 && var.is_none_or(|n| n == v) && self.skip_at(body + skip as usize) == next => {
                let cur = match v {
                    VarRef::Int(i) => self.ints.get_mut(i as usize)?,
                    VarRef::Resident(i) => self.resident.get_mut(i as usize)?,
                    _ => return None,
                };
                let up = step >= 0;
                passes(
                    cur,
                    &mut ticks,
                    |c| c.checked_add(step),
                    |n| if up { n <= limit } else { n >= limit },
                )
            }
            _ => return None,
        };
        self.ticks_left = ticks;
        Some(ended)
    }

    /// Pushes a loop or GOSUB entry, or says no (the byte path then pushes it, or raises the
    /// error) when the stack is full or has no room left without growing. With room certain,
    /// the entry is written in place: `push`, whose growing call the entry must survive, builds
    /// it on the machine stack and copies it, and that copy stalls (a store-forwarding stall:
    /// 9% of a GOSUB loop, perf on BM5).
    #[inline(always)]
    fn quick_push(&mut self, make: impl FnOnce() -> Frame) -> bool {
        let len = self.stack.len();
        if len >= MAX_STACK || len == self.stack.capacity() {
            return false;
        }
        // Made where `extend` writes it, the entry's fields are stored straight into the
        // stack's slot; moved in whole (`push`, `extend(once(f))`), it was built on the machine
        // stack and copied, and the copy's wide loads of its narrow stores stall.
        self.stack.extend(std::iter::once_with(make));
        true
    }

    /// Drops the top entry, which the caller has just matched as one holding no heap data (a
    /// loop or GOSUB entry): forgetting it skips the call to `Frame`'s drop glue (3% of a
    /// GOSUB loop), and leaks nothing.
    #[inline(always)]
    fn pop_plain(&mut self) {
        let f = self.stack.pop();
        debug_assert!(matches!(
            f,
            Some(
                Frame::ForInt { .. }
                    | Frame::ForFloat { .. }
                    | Frame::Repeat { .. }
                    | Frame::While { .. }
                    | Frame::Gosub { .. }
            )
        ));
        std::mem::forget(f);
    }

    /// Continues after a statement: past a following `:` or line end when the statement budget
    /// allows (the statement loop counts a separator as a statement, so the host's ticks come
    /// at the same statements as without this shortcut).
    #[inline(always)]
    fn go(&mut self, at: usize, skip: u8) {
        if skip != 0 && self.ticks_left > 1 {
            self.ticks_left -= 1;
            self.pc = at + skip as usize;
        } else {
            self.pc = at;
        }
    }

    /// Goes to a line's text (a jump: `skip` is 0), past the spaces it starts with where the
    /// statement loop will not stop there for the host's tick: only that tick, under TRACE
    /// (which keeps the count at 1), asks whether pc is at the start of a line. The spaces
    /// are not statements, so nothing is counted for them.
    #[inline(always)]
    fn land(&mut self, t: Then) {
        self.pc = t.at as usize + if self.ticks_left > 1 { t.land as usize } else { 0 };
    }

    /// The continuation at `p` (after spaces).
    fn then_at(&self, p: usize) -> Then {
        let p = self.skip_at(p);
        Then {
            at: p as u32,
            skip: self.separator_at(p),
            land: 0,
        }
    }

    /// The bytes the statement loop steps over at `p` as one statement: a `:`, or the end of a
    /// line that is not the program's last (0: none; also where positions would not fit), and
    /// the spaces after it, which the loop skips without counting them: landing past them, a
    /// quickened statement finds the next one's form at once (see `quick_run`).
    pub(super) fn separator_at(&self, p: usize) -> u8 {
        if u32::try_from(p + 4).is_err() {
            return 0;
        }
        let sep = match self.at(p) {
            b':' => 1,
            0x0D if self.at(p + 1) != 0xFF && p + 4 < self.mem.len() && p < self.himem => 4,
            _ => return 0,
        };
        let end = self.skip_at(p + sep);
        u8::try_from(end - p).unwrap_or(sep as u8)
    }

    /// FOR as `for_stmt` runs it. The control variable is assigned before the limit and step
    /// are read (they may use it), so giving up after that puts its old value back.
    #[inline(never)]
    fn quick_for(
        &mut self,
        var: VarRef,
        start: Compiled,
        limit: Compiled,
        step: Option<Compiled>,
        body: Then,
    ) -> bool {
        let Some(first) = self.eval_num(start) else {
            return false;
        };
        let Some(old) = self.get_num(var) else {
            return false;
        };
        if !self.set_num(var, first) {
            return false;
        }
        // The loop's limit and step; the entry itself is made inside `quick_push`, so that it
        // is written once, into its slot (built here and moved, its copies stalled: 40% of
        // this function on BM6).
        let bounds = (|| {
            let limit = self.eval_num(limit)?;
            let step = match step {
                Some(s) => self.eval_num(s)?,
                None => Num::Int(1),
            };
            // A loop already open on this variable (left by GOTO) is the byte path's to replace.
            for f in self.stack.iter().rev() {
                match f {
                    Frame::ForInt { var: v, .. } | Frame::ForFloat { var: v, .. } if *v == var => {
                        return None;
                    }
                    Frame::ForInt { .. }
                    | Frame::ForFloat { .. }
                    | Frame::Repeat { .. }
                    | Frame::While { .. } => {}
                    _ => break,
                }
            }
            match var {
                VarRef::Float(_) => {
                    let step = step.as_f64();
                    (step != 0.0).then_some(Bounds::Float(limit.as_f64(), step))
                }
                _ => {
                    let step = int_of(step)?;
                    (step != 0).then_some(Bounds::Int(int_of(limit)?, step))
                }
            }
        })();
        let (at, skip) = (body.at as usize, body.skip);
        let pushed = match bounds {
            Some(Bounds::Float(limit, step)) => self.quick_push(|| Frame::ForFloat {
                var,
                limit,
                step,
                body: at,
                skip,
            }),
            Some(Bounds::Int(limit, step)) => self.quick_push(|| Frame::ForInt {
                var,
                limit,
                step,
                body: at,
                skip,
            }),
            None => false,
        };
        if pushed {
            self.go(at, skip);
            true
        } else {
            self.set_num(var, old);
            false
        }
    }

    /// A simple numeric variable's value.
    fn get_num(&self, var: VarRef) -> Option<Num> {
        match var {
            VarRef::Int(i) => self.ints.get(i as usize).map(|&x| Num::Int(x)),
            VarRef::Resident(i) => self.resident.get(i as usize).map(|&x| Num::Int(x)),
            VarRef::Float(i) => self.floats.get(i as usize).map(|&x| Num::Float(x)),
            _ => None,
        }
    }

    /// Sets a simple numeric variable as `assign` would (false: the byte path must).
    fn set_num(&mut self, var: VarRef, v: Num) -> bool {
        match var {
            VarRef::Int(i) => match (int_of(v), self.ints.get_mut(i as usize)) {
                (Some(x), Some(slot)) => *slot = x,
                _ => return false,
            },
            VarRef::Resident(i) => match (int_of(v), self.resident.get_mut(i as usize)) {
                (Some(x), Some(slot)) => *slot = x,
                _ => return false,
            },
            VarRef::Float(i) => match self.floats.get_mut(i as usize) {
                Some(slot) => *slot = v.as_f64(),
                None => return false,
            },
            _ => return false,
        }
        true
    }

    /// Stores an assignment's value as `assign` would; false (nothing changed) where the byte
    /// path must do it. The simple targets repeat `get_num`/`set_num` with the variable kind
    /// fixed by the target: going through them costs assignment-heavy loops 4-6% (measured).
    #[inline(always)]
    fn store(&mut self, target: Target, op: u8, v: Num) -> bool {
        // A plain `=` (op 0) takes the value as it is: tested here, outside the closure, so the
        // common case makes no call (the closure is not inlined, and its `Num`s then travel
        // through memory: 3% of BM7).
        let combine = |cur: Num| match (op, cur, v) {
            (0, _, _) => Some(v),
            // `+=` and `-=` on an integer truncate the operand first (RISC OS; see assignment).
            (b'+' | b'-', Num::Int(_), Num::Float(f)) => {
                num_binop(op, cur, Num::Int(number::f64_to_i32(f).ok()?))
            }
            _ => num_binop(op, cur, v),
        };
        match target {
            Target::Int(i) => {
                let Some(cur) = self.ints.get(i as usize) else {
                    return false;
                };
                let x = if op == 0 {
                    int_of(v)
                } else {
                    combine(Num::Int(*cur)).and_then(int_of)
                };
                let Some(x) = x else {
                    return false;
                };
                self.ints[i as usize] = x;
            }
            Target::Resident(i) => {
                let Some(cur) = self.resident.get(i as usize) else {
                    return false;
                };
                let x = if op == 0 {
                    int_of(v)
                } else {
                    combine(Num::Int(*cur)).and_then(int_of)
                };
                let Some(x) = x else {
                    return false;
                };
                self.resident[i as usize] = x;
            }
            Target::Float(i) => {
                let Some(cur) = self.floats.get(i as usize) else {
                    return false;
                };
                let x = if op == 0 {
                    v.as_f64()
                } else {
                    let Some(x) = combine(Num::Float(*cur)).map(Num::as_f64) else {
                        return false;
                    };
                    x
                };
                self.floats[i as usize] = x;
            }
            // One look-up of the array, mutable from the start: `combine` reads only `op` and
            // `v`, and nothing is written before every check has passed.
            Target::IntEl(a, sub) => {
                let Some(e) = self.element(a, sub) else {
                    return false;
                };
                let Some(ArrayData::Int(d)) = self.arrays.get_mut(a as usize).map(|x| &mut x.data) else {
                    return false;
                };
                let Some(slot) = d.get_mut(e) else {
                    return false;
                };
                let x = if op == 0 {
                    int_of(v)
                } else {
                    combine(Num::Int(*slot)).and_then(int_of)
                };
                let Some(x) = x else {
                    return false;
                };
                *slot = x;
            }
            Target::FloatEl(a, sub) => {
                let Some(e) = self.element(a, sub) else {
                    return false;
                };
                let Some(ArrayData::Float(d)) = self.arrays.get_mut(a as usize).map(|x| &mut x.data) else {
                    return false;
                };
                let Some(slot) = d.get_mut(e) else {
                    return false;
                };
                *slot = if op == 0 {
                    v.as_f64()
                } else {
                    let Some(x) = combine(Num::Float(*slot)).map(Num::as_f64) else {
                        return false;
                    };
                    x
                };
            }
        }
        true
    }

    /// The element a one-dimensional array subscript selects, if it is in range.
    #[inline(always)]
    fn element(&self, a: u32, sub: Compiled) -> Option<usize> {
        let i = int_of(self.eval_num(sub)?)?;
        let arr = self.arrays.get(a as usize)?;
        let len = match &arr.data {
            ArrayData::Int(d) => d.len(),
            ArrayData::Float(d) => d.len(),
            ArrayData::Str(d) => d.len(),
        };
        (arr.dims.len() == 1 && i >= 0 && (i as u32) < arr.dims[0] && (i as usize) < len)
            .then_some(i as usize)
    }

    // ---- quickening ----

    /// The quickened form of the statement starting at `s`, if it has one.
    fn quicken(&mut self, s: usize) -> Option<Quick> {
        match self.at(s) {
            tok::NEXT => {
                let p = self.skip_at(s + 1);
                let (var, p) = if self.at(p).is_ascii_alphabetic() || matches!(self.at(p), b'_' | b'@' | b'`')
                {
                    let (v, end) = self.simple_site(p)?;
                    (Some(v), end)
                } else {
                    (None, p)
                };
                let then = self.stmt_end(p)?;
                Some(Quick::Next { var, then })
            }
            tok::IF => self.quicken_if(s),
            tok::UNTIL => {
                let cond = self.compile_expr(s + 1, 1)?;
                let then = self.stmt_end(s + 1 + cond.span as usize)?;
                Some(Quick::Until { cond, then })
            }
            tok::GOSUB => {
                let p = self.skip_at(s + 1);
                if self.at(p) != tok::LINE_NUMBER {
                    return None;
                }
                let n = crate::tokens::decode_line_number([self.at(p + 1), self.at(p + 2), self.at(p + 3)]);
                let ret = self.stmt_end(p + 4)?;
                let target = self.line_then(self.find_line(n as i32).ok()?)?;
                Some(Quick::Gosub { target, ret })
            }
            tok::RETURN => Some(Quick::Return),
            tok::GOTO => {
                let (target, end) = self.line_jump(s + 1)?;
                self.stmt_end(end)?;
                Some(Quick::Goto { target })
            }
            tok::REPEAT => Some(Quick::Repeat {
                body: Then {
                    at: u32::try_from(s + 1).ok()?,
                    skip: self.separator_at(s + 1),
                    land: 0,
                },
            }),
            tok::FOR => self.quicken_for(s),
            tok::ENDWHILE => Some(Quick::EndWhile {
                after: self.checked_then(s + 1)?,
            }),
            tok::ESC_STMT if self.at(s + 1) == tok::stmt::WHILE => {
                let cond = self.compile_expr(s + 2, 1)?;
                let body = self.checked_then(s + 2 + cond.span as usize)?;
                let after = self.checked_then(self.endwhile_after(s + 2 + cond.span as usize)?)?;
                Some(Quick::While {
                    cond,
                    at: u32::try_from(s + 2).ok()?,
                    body,
                    after,
                })
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'`' | b'@' => self.quicken_assign(s),
            _ => None,
        }
    }

    fn quicken_assign(&mut self, s: usize) -> Option<Quick> {
        let (target, p) = match self.simple_site(s) {
            Some((VarRef::Int(i), end)) => (Target::Int(i), end),
            Some((VarRef::Float(i), end)) => (Target::Float(i), end),
            Some((VarRef::Resident(i), end)) if i < 27 => (Target::Resident(i), end),
            Some(_) => return None,
            None => self.array_target(s)?,
        };
        let p = self.skip_at(p);
        let (op, p) = match self.at(p) {
            b'=' => (0, p + 1),
            c @ (b'+' | b'-' | b'*' | b'/') if self.at(p + 1) == b'=' => (c, p + 2),
            _ => return None,
        };
        let value = self.compile_expr(p, 1)?;
        let then = self.stmt_end(p + value.span as usize)?;
        // A plain `=` of a float (integer) closure's value to a float (integer) variable
        // stores the value as it is, as `store` does.
        match (op, target) {
            (0, Target::Float(slot)) => {
                if let Some((value, nest)) = Interp::float_closure(value) {
                    return Some(Quick::SetFloat {
                        slot,
                        value,
                        nest,
                        then,
                    });
                }
            }
            (0, Target::Int(slot)) => {
                if let Some((value, nest)) = Interp::int_closure(value) {
                    return Some(Quick::SetInt {
                        slot,
                        value,
                        nest,
                        then,
                    });
                }
            }
            (0, Target::FloatEl(arr, sub)) => {
                return Some(Quick::SetFloatEl {
                    arr,
                    sub,
                    value,
                    then,
                });
            }
            (0, Target::IntEl(arr, sub)) => {
                return Some(Quick::SetIntEl {
                    arr,
                    sub,
                    value,
                    then,
                });
            }
            _ => {}
        }
        Some(Quick::Assign {
            target,
            op,
            value,
            then,
        })
    }

    /// A one-dimensional numeric array element at `s` (already resolved there) as a target, and
    /// the position after its closing bracket.
    fn array_target(&mut self, s: usize) -> Option<(Target, usize)> {
        let a = self
            .pos
            .arr_site
            .get(s.wrapping_sub(self.page))
            .copied()
            .unwrap_or(0);
        if a == 0 {
            return None;
        }
        let ai = (a & 0xFF_FFFF) - 1;
        let end = s + (a >> 24) as usize;
        let arr = self.arrays.get(ai as usize)?;
        if arr.dims.len() != 1 {
            return None;
        }
        let int = match (self.at(end - 2), &arr.data) {
            (b'%', ArrayData::Int(_)) => true,
            (b'$', _) | (b'%', _) => return None,
            (_, ArrayData::Float(_)) => false,
            _ => return None,
        };
        let sub = self.compile_expr(end, 1)?;
        let p = self.skip_at(end + sub.span as usize);
        if self.at(p) != b')' || matches!(self.at(p + 1), b'?' | b'!') {
            return None;
        }
        let t = if int {
            Target::IntEl(ai, sub)
        } else {
            Target::FloatEl(ai, sub)
        };
        Some((t, p + 1))
    }

    fn quicken_for(&mut self, s: usize) -> Option<Quick> {
        let (var, p) = self.simple_site(self.skip_at(s + 1))?;
        let p = self.skip_at(p);
        if self.at(p) != b'=' {
            return None;
        }
        let start = self.compile_expr(p + 1, 1)?;
        let p = self.skip_at(p + 1 + start.span as usize);
        if self.at(p) != tok::TO {
            return None;
        }
        let limit = self.compile_expr(p + 1, 1)?;
        let mut end = p + 1 + limit.span as usize;
        let step = if self.at(self.skip_at(end)) == tok::STEP {
            let q = self.skip_at(end) + 1;
            let c = self.compile_expr(q, 1)?;
            end = q + c.span as usize;
            Some(c)
        } else {
            None
        };
        u32::try_from(end + 4).ok()?;
        Some(Quick::For {
            var,
            start,
            limit,
            step,
            body: Then {
                at: end as u32,
                skip: self.separator_at(end),
                land: 0,
            },
        })
    }

    /// A line number constant at `p` (after spaces): the body of that line, and the position
    /// after the constant.
    fn line_jump(&self, p: usize) -> Option<(Then, usize)> {
        let p = self.skip_at(p);
        if self.at(p) != tok::LINE_NUMBER {
            return None;
        }
        let n = crate::tokens::decode_line_number([self.at(p + 1), self.at(p + 2), self.at(p + 3)]);
        let target = self.line_then(self.find_line(n as i32).ok()?)?;
        Some((target, p + 4))
    }

    /// A jump to the line text at `at`: no separator, and the spaces it starts with.
    fn line_then(&self, at: usize) -> Option<Then> {
        u32::try_from(at + 4).ok()?;
        Some(Then {
            at: at as u32,
            skip: 0,
            land: u8::try_from(self.skip_at(at) - at).unwrap_or(0),
        })
    }

    fn quicken_if(&mut self, s: usize) -> Option<Quick> {
        let cond = self.compile_expr(s + 1, 1)?;
        let mut p = self.skip_at(s + 1 + cond.span as usize);
        if self.at(p) == tok::THEN {
            p += 1;
            // THEN at the end of the line opens a block IF.
            if self.at(self.skip_at(p)) == 0x0D {
                return None;
            }
        }
        // A line number after THEN (or straight after the condition) is a GOTO.
        let goto_yes = if self.at(self.skip_at(p)) == tok::LINE_NUMBER {
            Some(self.line_jump(p)?.0)
        } else {
            None
        };
        let yes = p;
        // False: on from the first ELSE on the line, as `if_stmt` scans.
        let mut q = p;
        while !matches!(self.at(q), 0x0D | tok::ELSE) {
            q = self.next_item(q);
        }
        let (no, goto_no) = if self.at(q) == tok::ELSE {
            let goto = if self.at(self.skip_at(q + 1)) == tok::LINE_NUMBER {
                Some(self.line_jump(q + 1)?.0)
            } else {
                None
            };
            (q + 1, goto)
        } else {
            (q, None)
        };
        u32::try_from(yes.max(no) + 4).ok()?;
        let yes = goto_yes.unwrap_or_else(|| self.then_at(yes));
        let no = goto_no.unwrap_or_else(|| self.then_at(no));
        // `truth` of an integer is the integer tested against 0.
        if let Some((cond, nest)) = Interp::int_closure(cond) {
            return Some(Quick::IfInt { cond, nest, yes, no });
        }
        Some(Quick::If { cond, yes, no })
    }

    /// A simple numeric or resident variable already resolved at `p`, and the position after
    /// its name (not followed by binary indirection).
    fn simple_site(&self, p: usize) -> Option<(VarRef, usize)> {
        let s = *self.pos.site.get(p.wrapping_sub(self.page))?;
        if s == 0 {
            return None;
        }
        let (v, len) = site_decode(s);
        let end = p + len;
        if matches!(self.at(end), b'?' | b'!' | b'(') || matches!(v, VarRef::Str(_)) {
            return None;
        }
        Some((v, end))
    }

    /// The continuation at `p`, if positions there fit the quickened forms.
    fn checked_then(&self, p: usize) -> Option<Then> {
        u32::try_from(p + 4).ok()?;
        Some(self.then_at(p))
    }

    /// The statement end at `p` (after spaces): a `:`, the end of the line or ELSE.
    fn stmt_end(&self, p: usize) -> Option<Then> {
        let p = self.skip_at(p);
        u32::try_from(p).ok()?;
        matches!(self.at(p), b':' | 0x0D | tok::ELSE).then(|| self.then_at(p))
    }
}

/// A number as an integer variable takes it (floats truncate; `None` where that is an error).
#[inline(always)]
fn int_of(n: Num) -> Option<i32> {
    match n {
        Num::Int(i) => Some(i),
        Num::Float(f) => number::f64_to_i32(f).ok(),
    }
}

/// IF's and UNTIL's reading of a condition.
#[inline(always)]
fn truth(v: Num) -> Option<bool> {
    int_of(v).map(|i| i != 0)
}
