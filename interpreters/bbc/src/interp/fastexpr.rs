//! A cache of side-effect-free numeric expressions compiled to typed trees, keyed by the
//! program position where `expr` starts reading them.
//!
//! Only expressions built from number constants, simple numeric variables and numeric array
//! elements (already resolved at their positions by the site caches), brackets, unary minus, the
//! binary operators, a few pure numeric functions, and LEN and ASC of a simple string variable
//! are kept. Evaluating one reads exactly what the byte-by-byte evaluator would and ends at the
//! same position. Such an expression has no
//! effect but its value or an error; on any error (or anything unexpected) the cached form gives
//! up and the byte-by-byte evaluator runs from the start instead, so errors are raised exactly
//! as before. The cache is cleared whenever the site caches are (CLEAR, RUN, writes into the
//! program).
//!
//! The type of every part is known when it is compiled: `%` variables and integer constants are
//! integers, other variables and constants with a point or exponent are floats, and each
//! operator's result type follows from its operands' (BBC BASIC keeps integers integer and
//! widens mixed arithmetic to float). The one exception, integer `+ - *` overflowing into a
//! float, gives up to the byte evaluator, which produces the float. So the trees evaluate
//! without any type tests: integer nodes yield `i32`, float nodes `f64`.

use super::expr::arith::{self, finite};
use super::number::{self, Num};
use super::value::Val;
use super::{ArrayData, Interp};
use crate::tokens as tok;

/// Cache states per program byte: not seen, seen once, not cacheable; above that, 3 + the index
/// of the compiled expression.
const SEEN: u32 = 1;
const NEVER: u32 = 2;
const FIRST: u32 = 3;

/// Largest tree compiled (nodes); bigger expressions stay with the byte evaluator.
const MAX_NODES: usize = 64;

/// Compiled parts: closures that read the interpreter and yield a value, or `None` where the
/// byte evaluator must run instead. Building them picks, for each operator, a closure
/// specialised to its operands' kinds (constant, variable, sub-expression), so evaluation does
/// no dispatch on node or operand kinds at all.
pub(super) type IFn = Box<dyn Fn(&Interp) -> Option<i32> + Send>;
pub(super) type FFn = Box<dyn Fn(&Interp) -> Option<f64> + Send>;

/// An integer operand while compiling.
enum IArg {
    Const(i32),
    Var(u32),
    Res(u8),
    Fn(IFn),
}

/// A float operand while compiling; integer operands are widened as they are read.
enum FArg {
    Const(f64),
    Var(u32),
    Int(IArg),
    Fn(FFn),
}

/// A compiled expression's value: a leaf read in place, or a closure in `ifns`/`ffns`.
#[derive(Debug, Clone, Copy)]
enum Root {
    IConst(i32),
    IVar(u32),
    IRes(u8),
    IFn(u32),
    FConst(f64),
    FVar(u32),
    FFn(u32),
}

/// One cached expression: its root, the bytes it spans and its bracket nesting.
#[derive(Debug, Clone, Copy)]
pub(super) struct Compiled {
    root: Root,
    /// Bytes from where the expression starts to where the byte evaluator stops reading it.
    pub(super) span: u32,
    nest: u32,
}

/// A part of an expression being compiled, with its type.
enum T {
    I(IArg),
    F(FArg),
}

#[inline(always)]
fn iv(it: &Interp, i: u32) -> Option<i32> {
    it.ints.get(i as usize).copied()
}

#[inline(always)]
fn fv(it: &Interp, i: u32) -> Option<f64> {
    it.floats.get(i as usize).copied()
}

/// Operands read in place inside a closure: constants and variables of each kind. Closures
/// are built generically over these, so every combination of operand kinds gets its own code.
trait Leaf<V>: Copy + Send + 'static {
    fn get(self, it: &Interp) -> Option<V>;
}

#[derive(Clone, Copy)]
struct K<V>(V);
/// An integer variable's slot.
#[derive(Clone, Copy)]
struct IntVar(u32);
/// A resident integer (`@%`, `A%`-`Z%`).
#[derive(Clone, Copy)]
struct ResVar(u8);
/// A float variable's slot.
#[derive(Clone, Copy)]
struct FloatVar(u32);
/// An integer leaf read as a float.
#[derive(Clone, Copy)]
struct Wide<L>(L);

impl<V: Copy + Send + 'static> Leaf<V> for K<V> {
    #[inline(always)]
    fn get(self, _: &Interp) -> Option<V> {
        Some(self.0)
    }
}

impl Leaf<i32> for IntVar {
    #[inline(always)]
    fn get(self, it: &Interp) -> Option<i32> {
        iv(it, self.0)
    }
}

impl Leaf<i32> for ResVar {
    #[inline(always)]
    fn get(self, it: &Interp) -> Option<i32> {
        it.resident.get(self.0 as usize).copied()
    }
}

impl Leaf<f64> for FloatVar {
    #[inline(always)]
    fn get(self, it: &Interp) -> Option<f64> {
        fv(it, self.0)
    }
}

impl<L: Leaf<i32>> Leaf<f64> for Wide<L> {
    #[inline(always)]
    fn get(self, it: &Interp) -> Option<f64> {
        self.0.get(it).map(|x| x as f64)
    }
}

/// Runs `$leaf` with `$l` bound to the integer operand as a [`Leaf`], or `$sub` with `$f` bound
/// to its closure.
macro_rules! int_operand {
    ($arg:expr, $l:ident => $leaf:expr, $f:ident => $sub:expr) => {
        match $arg {
            IArg::Const(c) => {
                let $l = K(c);
                $leaf
            }
            IArg::Var(i) => {
                let $l = IntVar(i);
                $leaf
            }
            IArg::Res(i) => {
                let $l = ResVar(i);
                $leaf
            }
            IArg::Fn($f) => $sub,
        }
    };
}

/// As `int_operand`, for float operands (integer ones widened).
macro_rules! float_operand {
    ($arg:expr, $l:ident => $leaf:expr, $f:ident => $sub:expr) => {
        match $arg {
            FArg::Const(c) => {
                let $l = K(c);
                $leaf
            }
            FArg::Var(i) => {
                let $l = FloatVar(i);
                $leaf
            }
            FArg::Int(IArg::Const(c)) => {
                let $l = K(c as f64);
                $leaf
            }
            FArg::Int(IArg::Var(i)) => {
                let $l = Wide(IntVar(i));
                $leaf
            }
            FArg::Int(IArg::Res(i)) => {
                let $l = Wide(ResVar(i));
                $leaf
            }
            FArg::Int(IArg::Fn(g)) => {
                let $f: FFn = Box::new(move |it| g(it).map(|x| x as f64));
                $sub
            }
            FArg::Fn($f) => $sub,
        }
    };
}

/// A closure for any float operand.
fn ffn(a: FArg) -> FFn {
    float_operand!(a, l => Box::new(move |it| l.get(it)), f => f)
}

/// A closure for any integer operand.
fn ifn(a: IArg) -> IFn {
    int_operand!(a, l => Box::new(move |it| l.get(it)), f => f)
}

/// An integer operator on two operands.
fn ibin(x: IArg, y: IArg, op: impl Fn(i32, i32) -> Option<i32> + Copy + Send + 'static) -> IFn {
    int_operand!(x,
        a => int_operand!(y,
            b => Box::new(move |it| op(a.get(it)?, b.get(it)?)),
            g => Box::new(move |it| op(a.get(it)?, g(it)?))),
        f => int_operand!(y,
            b => Box::new(move |it| op(f(it)?, b.get(it)?)),
            g => Box::new(move |it| op(f(it)?, g(it)?))))
}

/// A float operator on two operands.
fn fbin(x: FArg, y: FArg, op: impl Fn(f64, f64) -> Option<f64> + Copy + Send + 'static) -> FFn {
    float_operand!(x,
        a => float_operand!(y,
            b => Box::new(move |it| op(a.get(it)?, b.get(it)?)),
            g => Box::new(move |it| op(a.get(it)?, g(it)?))),
        f => float_operand!(y,
            b => Box::new(move |it| op(f(it)?, b.get(it)?)),
            g => Box::new(move |it| op(f(it)?, g(it)?))))
}

/// A comparison of two floats (or an integer and a float): TRUE or FALSE.
fn fcmp(x: FArg, y: FArg, op: impl Fn(f64, f64) -> bool + Copy + Send + 'static) -> IFn {
    let t = move |a: f64, b: f64| Some(if op(a, b) { -1 } else { 0 });
    float_operand!(x,
        a => float_operand!(y,
            b => Box::new(move |it| t(a.get(it)?, b.get(it)?)),
            g => Box::new(move |it| t(a.get(it)?, g(it)?))),
        f => float_operand!(y,
            b => Box::new(move |it| t(f(it)?, b.get(it)?)),
            g => Box::new(move |it| t(f(it)?, g(it)?))))
}

/// A comparison of two integers: TRUE or FALSE.
fn icmp(x: IArg, y: IArg, op: impl Fn(i32, i32) -> bool + Copy + Send + 'static) -> IFn {
    ibin(x, y, move |a, b| Some(if op(a, b) { -1 } else { 0 }))
}

/// One function of one float operand.
fn funary(x: FArg, op: impl Fn(f64) -> Option<f64> + Copy + Send + 'static) -> FFn {
    float_operand!(x, a => Box::new(move |it| op(a.get(it)?)), f => Box::new(move |it| op(f(it)?)))
}

/// One function of one integer operand.
fn iunary(x: IArg, op: impl Fn(i32) -> Option<i32> + Copy + Send + 'static) -> IFn {
    int_operand!(x, a => Box::new(move |it| op(a.get(it)?)), f => Box::new(move |it| op(f(it)?)))
}

/// An integer of a float (`to_int`: truncation, or an error outside the integer range).
fn itrunc(x: FArg) -> IFn {
    match x {
        FArg::Int(a) => ifn(a),
        x => {
            let f = ffn(x);
            Box::new(move |it| number::f64_to_i32(f(it)?).ok())
        }
    }
}

/// The element of a one-dimensional array that a subscript selects.
fn element<V: Copy>(it: &Interp, a: u32, i: i32, data: impl Fn(&ArrayData) -> Option<&Vec<V>>) -> Option<V> {
    let arr = it.arrays.get(a as usize)?;
    if arr.dims.len() != 1 || i < 0 || i as u32 >= arr.dims[0] {
        return None;
    }
    data(&arr.data)?.get(i as usize).copied()
}

fn int_data(d: &ArrayData) -> Option<&Vec<i32>> {
    match d {
        ArrayData::Int(v) => Some(v),
        _ => None,
    }
}

fn float_data(d: &ArrayData) -> Option<&Vec<f64>> {
    match d {
        ArrayData::Float(v) => Some(v),
        _ => None,
    }
}

struct Builder {
    nest: u32,
    max_nest: u32,
    nodes: usize,
}

impl Interp {
    pub(super) fn skip_at(&self, mut p: usize) -> usize {
        while self.at(p) == b' ' {
            p += 1;
        }
        p
    }

    /// The value of the expression at pc from the cache, moving pc past it; `None` to evaluate
    /// it byte by byte.
    #[inline]
    pub(super) fn cached_expr(&mut self) -> Option<Val> {
        let off = self.pc.wrapping_sub(self.page);
        let state = *self.pos.expr_cache.get(off)?;
        let idx = match state {
            0 => {
                self.pos.expr_cache[off] = if self.caching { SEEN } else { NEVER };
                return None;
            }
            SEEN => {
                let s = match self.compile_expr(self.pc, 2) {
                    Some(c) => {
                        self.compiled.push(c);
                        FIRST + self.compiled.len() as u32 - 1
                    }
                    None => NEVER,
                };
                self.pos.expr_cache[off] = s;
                if s == NEVER {
                    return None;
                }
                (s - FIRST) as usize
            }
            NEVER => return None,
            s => (s - FIRST) as usize,
        };
        let c = *self.compiled.get(idx)?;
        let v = match self.eval_num(c)? {
            Num::Int(i) => Val::Int(i),
            Num::Float(f) => Val::Float(f),
        };
        self.pc += c.span as usize;
        Some(v)
    }

    /// Compiles the expression at `pc` if it is cacheable and has at least `min_parts` parts
    /// (lone operands are read faster by `factor` than through the cache).
    pub(super) fn compile_expr(&mut self, pc: usize, min_parts: usize) -> Option<Compiled> {
        let mut b = Builder {
            nest: 0,
            max_nest: 0,
            nodes: 0,
        };
        let mut p = pc;
        let t = self.c_expr(&mut p, &mut b)?;
        // Leaves count as parts too: `a%` alone is one part, `a%+1` three.
        if b.nodes * 2 + 1 < min_parts || b.nodes > MAX_NODES {
            return None;
        }
        let root = match t {
            T::I(IArg::Const(c)) => Root::IConst(c),
            T::I(IArg::Var(i)) => Root::IVar(i),
            T::I(IArg::Res(i)) => Root::IRes(i),
            T::I(IArg::Fn(f)) => {
                self.ifns.push(f);
                Root::IFn(u32::try_from(self.ifns.len() - 1).ok()?)
            }
            T::F(FArg::Const(c)) => Root::FConst(c),
            T::F(FArg::Var(i)) => Root::FVar(i),
            T::F(a) => {
                self.ffns.push(ffn(a));
                Root::FFn(u32::try_from(self.ffns.len() - 1).ok()?)
            }
        };
        Some(Compiled {
            root,
            span: u32::try_from(p - pc).ok()?,
            nest: b.max_nest,
        })
    }

    fn c_expr(&self, p: &mut usize, b: &mut Builder) -> Option<T> {
        b.nest += 1;
        b.max_nest = b.max_nest.max(b.nest);
        let t = self.c_prec(p, 1, b)?;
        b.nest -= 1;
        Some(t)
    }

    fn c_prec(&self, p: &mut usize, min: u8, b: &mut Builder) -> Option<T> {
        let mut a = self.c_factor(p, b)?;
        loop {
            *p = self.skip_at(*p);
            let (op, prec, len) = self.binop_at(*p);
            if prec < min || prec == 0 {
                return Some(a);
            }
            *p += len;
            let r = if prec == 6 {
                self.c_factor(p, b)?
            } else {
                self.c_prec(p, prec + 1, b)?
            };
            b.nodes += 1;
            a = c_bin(op, a, r)?;
        }
    }

    fn c_factor(&self, p: &mut usize, b: &mut Builder) -> Option<T> {
        *p = self.skip_at(*p);
        let c = self.at(*p);
        Some(match c {
            b'0'..=b'9' | b'.' => {
                let s = *p;
                let end = (s + 64).min(self.mem.len());
                let (n, len) = number::parse_decimal(&self.mem[s..end]);
                *p += len.max(1);
                match n {
                    Num::Int(i) => T::I(IArg::Const(i)),
                    Num::Float(f) => T::F(FArg::Const(f)),
                }
            }
            b'-' => {
                *p += 1;
                match self.c_factor(p, b)? {
                    // Folded where the byte evaluator's result is the same integer.
                    T::I(IArg::Const(i)) => T::I(IArg::Const(i.wrapping_neg())),
                    T::F(FArg::Const(f)) => T::F(FArg::Const(-f)),
                    T::I(a) => {
                        b.nodes += 1;
                        T::I(IArg::Fn(iunary(a, |x| Some(x.wrapping_neg()))))
                    }
                    T::F(a) => {
                        b.nodes += 1;
                        T::F(FArg::Fn(funary(a, |x| Some(-x))))
                    }
                }
            }
            b'(' => {
                *p += 1;
                let t = self.c_expr(p, b)?;
                *p = self.skip_at(*p);
                if self.at(*p) != b')' {
                    return None;
                }
                *p += 1;
                t
            }
            b'&' => {
                *p += 1;
                let mut v: u64 = 0;
                let mut n = 0;
                while let Some(d) = (self.at(*p) as char).to_digit(16) {
                    v = (v << 4) | d as u64;
                    n += 1;
                    *p += 1;
                }
                if n == 0 || n > 8 {
                    return None;
                }
                T::I(IArg::Const(v as u32 as i32))
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'`' | b'@' => {
                let off = p.wrapping_sub(self.page);
                let s = self.pos.site.get(off).copied().unwrap_or(0);
                if s != 0 {
                    let (v, len) = super::site_decode(s);
                    let end = *p + len;
                    if matches!(self.at(end), b'?' | b'!') {
                        return None;
                    }
                    *p = end;
                    return Some(match v {
                        super::VarRef::Resident(i) if (i as usize) < 27 => T::I(IArg::Res(i)),
                        super::VarRef::Int(i) => T::I(IArg::Var(i)),
                        super::VarRef::Float(i) => T::F(FArg::Var(i)),
                        _ => return None,
                    });
                }
                // An array element resolved at this position.
                let a = self.pos.arr_site.get(off).copied().unwrap_or(0);
                if a == 0 || (((a & 0xFF_FFFF) - 1) as usize) >= self.arrays.len() {
                    return None;
                }
                let ai = (a & 0xFF_FFFF) - 1;
                let end = *p + (a >> 24) as usize;
                if self.arrays[ai as usize].dims.len() != 1 {
                    return None;
                }
                let int = match (self.at(end - 2), &self.arrays[ai as usize].data) {
                    (b'%', ArrayData::Int(_)) => true,
                    (b'$', _) | (b'%', _) => return None,
                    (_, ArrayData::Float(_)) => false,
                    _ => return None,
                };
                *p = end;
                let sub = self.c_expr(p, b)?;
                *p = self.skip_at(*p);
                if self.at(*p) != b')' {
                    return None;
                }
                *p += 1;
                if matches!(self.at(*p), b'?' | b'!') {
                    return None;
                }
                b.nodes += 1;
                let sub = as_i(sub);
                if int {
                    T::I(IArg::Fn(int_operand!(sub,
                        l => Box::new(move |it| element(it, ai, l.get(it)?, int_data)),
                        f => Box::new(move |it| element(it, ai, f(it)?, int_data)))))
                } else {
                    T::F(FArg::Fn(int_operand!(sub,
                        l => Box::new(move |it| element(it, ai, l.get(it)?, float_data)),
                        f => Box::new(move |it| element(it, ai, f(it)?, float_data)))))
                }
            }
            tok::TRUE => {
                *p += 1;
                T::I(IArg::Const(-1))
            }
            tok::FALSE => {
                *p += 1;
                T::I(IArg::Const(0))
            }
            tok::PI => {
                *p += 1;
                T::F(FArg::Const(std::f64::consts::PI))
            }
            tok::NOT | tok::ABS | tok::SGN | tok::INT => {
                *p += 1;
                let x = self.c_factor(p, b)?;
                b.nodes += 1;
                match (c, x) {
                    (tok::NOT, x) => T::I(IArg::Fn(iunary(as_i(x), |a| Some(!a)))),
                    (tok::ABS, T::I(x)) => T::I(IArg::Fn(iunary(x, |x| Some(x.wrapping_abs())))),
                    (tok::ABS, T::F(x)) => T::F(FArg::Fn(funary(x, |a| Some(a.abs())))),
                    (tok::SGN, T::I(x)) => T::I(IArg::Fn(iunary(x, |a| Some(a.signum())))),
                    (tok::SGN, T::F(x)) => {
                        let f = ffn(x);
                        T::I(IArg::Fn(Box::new(move |it| {
                            let v = f(it)?;
                            Some(if v > 0.0 {
                                1
                            } else if v < 0.0 {
                                -1
                            } else {
                                0
                            })
                        })))
                    }
                    (_, T::I(x)) => T::I(x),
                    (_, T::F(x)) => {
                        let f = ffn(x);
                        T::I(IArg::Fn(Box::new(move |it| {
                            number::f64_to_i32(f(it)?.floor()).ok()
                        })))
                    }
                }
            }
            tok::SQR | tok::LN | tok::LOG | tok::EXP | tok::SIN | tok::COS | tok::TAN | tok::ATN => {
                *p += 1;
                let x = as_f(self.c_factor(p, b)?);
                b.nodes += 1;
                T::F(FArg::Fn(match c {
                    tok::SQR => funary(x, |x| (x >= 0.0).then(|| x.sqrt())),
                    tok::LN => funary(x, |x| (x > 0.0).then(|| x.ln())),
                    tok::LOG => funary(x, |x| (x > 0.0).then(|| x.log10())),
                    tok::EXP => funary(x, |x| finite(x.exp())),
                    // A huge argument goes back to the byte evaluator, which says "Accuracy lost".
                    tok::SIN => funary(x, |x| arith::trig_arg(x).map(f64::sin)),
                    tok::COS => funary(x, |x| arith::trig_arg(x).map(f64::cos)),
                    tok::TAN => funary(x, |x| finite(arith::trig_arg(x)?.tan())),
                    _ => funary(x, |x| Some(x.atan())),
                }))
            }
            // Of a simple string variable, read in place (`LEN A$`, `ASC(A$)`).
            tok::LEN | tok::ASC => {
                *p += 1;
                let (slot, end, bracket) = self.c_str_var(*p)?;
                *p = end;
                if bracket {
                    b.max_nest = b.max_nest.max(b.nest + 1);
                }
                b.nodes += 1;
                T::I(IArg::Fn(if c == tok::LEN {
                    Box::new(move |it| Some(it.strs.get(slot)?.len() as i32))
                } else {
                    Box::new(move |it| Some(it.strs.get(slot)?.first().map_or(-1, |&c| c as i32)))
                }))
            }
            _ => return None,
        })
    }

    /// A simple string variable already resolved at `p` (after spaces), alone or alone in
    /// brackets: its slot, where the operand ends, and whether it was bracketed.
    fn c_str_var(&self, p: usize) -> Option<(usize, usize, bool)> {
        let p = self.skip_at(p);
        let bracket = self.at(p) == b'(';
        let (slot, end) = self.cached_str_var(if bracket { self.skip_at(p + 1) } else { p })?;
        if matches!(self.at(end), b'?' | b'!') {
            return None;
        }
        if !bracket {
            return Some((slot, end, false));
        }
        let close = self.skip_at(end);
        (self.at(close) == b')').then_some((slot, close + 1, true))
    }

    // ---- evaluation ----

    /// A compiled expression whose value is a float closure's, as that closure's index and the
    /// bracket nesting `eval_num` checks: for the quickened forms that call it straight.
    pub(super) fn float_closure(c: Compiled) -> Option<(u32, u32)> {
        match c.root {
            Root::FFn(f) => Some((f, c.nest)),
            _ => None,
        }
    }

    /// As `float_closure`, for an integer closure.
    pub(super) fn int_closure(c: Compiled) -> Option<(u32, u32)> {
        match c.root {
            Root::IFn(f) => Some((f, c.nest)),
            _ => None,
        }
    }

    /// `eval_num` of an expression whose root is float closure `f` (see `float_closure`).
    #[inline(always)]
    pub(super) fn eval_float_closure(&self, f: u32, nest: u32) -> Option<f64> {
        if self.depth + nest > self.max_depth {
            return None;
        }
        self.ffns.get(f as usize)?(self)
    }

    /// `eval_num` of an expression whose root is integer closure `f` (see `int_closure`).
    #[inline(always)]
    pub(super) fn eval_int_closure(&self, f: u32, nest: u32) -> Option<i32> {
        if self.depth + nest > self.max_depth {
            return None;
        }
        self.ifns.get(f as usize)?(self)
    }

    /// The value of a compiled expression, or `None` where the byte evaluator must run instead
    /// (an error, an integer overflowing into a float, or nesting deeper than the byte
    /// evaluator allows).
    #[inline]
    pub(super) fn eval_num(&self, c: Compiled) -> Option<Num> {
        if self.depth + c.nest > self.max_depth {
            return None;
        }
        Some(match c.root {
            Root::IConst(k) => Num::Int(k),
            Root::IVar(i) => Num::Int(iv(self, i)?),
            Root::IRes(i) => Num::Int(*self.resident.get(i as usize)?),
            Root::IFn(f) => Num::Int(self.ifns.get(f as usize)?(self)?),
            Root::FConst(k) => Num::Float(k),
            Root::FVar(i) => Num::Float(fv(self, i)?),
            Root::FFn(f) => Num::Float(self.ffns.get(f as usize)?(self)?),
        })
    }
}

/// An operand where a float is wanted.
fn as_f(t: T) -> FArg {
    match t {
        T::F(a) => a,
        T::I(IArg::Const(c)) => FArg::Const(c as f64),
        T::I(a) => FArg::Int(a),
    }
}

/// An operand where an integer is wanted (floats convert, or fail, as `to_int` does).
fn as_i(t: T) -> IArg {
    match t {
        T::I(a) => a,
        T::F(a) => IArg::Fn(itrunc(a)),
    }
}

/// A binary operator on two compiled operands, typed as `binop_values` types its result.
fn c_bin(op: u8, x: T, y: T) -> Option<T> {
    use super::expr::{OP_ASR, OP_GE, OP_LE, OP_LSR, OP_NE, OP_SHL};
    Some(match (op, x, y) {
        (b'+', T::I(x), T::I(y)) => T::I(IArg::Fn(ibin(x, y, arith::iadd))),
        (b'-', T::I(x), T::I(y)) => T::I(IArg::Fn(ibin(x, y, arith::isub))),
        (b'*', T::I(x), T::I(y)) => T::I(IArg::Fn(ibin(x, y, arith::imul))),
        (b'+', x, y) => T::F(FArg::Fn(fbin(as_f(x), as_f(y), |a, b| finite(a + b)))),
        (b'-', x, y) => T::F(FArg::Fn(fbin(as_f(x), as_f(y), |a, b| finite(a - b)))),
        (b'*', x, y) => T::F(FArg::Fn(fbin(as_f(x), as_f(y), |a, b| finite(a * b)))),
        (b'/', x, y) => T::F(FArg::Fn(fbin(as_f(x), as_f(y), arith::fdiv))),
        (b'^', x, y) => T::F(FArg::Fn(fbin(as_f(x), as_f(y), arith::pow))),
        (b'=' | b'<' | b'>' | OP_LE | OP_GE | OP_NE, T::I(x), T::I(y)) => T::I(IArg::Fn(match op {
            b'=' => icmp(x, y, |a, b| a == b),
            b'<' => icmp(x, y, |a, b| a < b),
            b'>' => icmp(x, y, |a, b| a > b),
            OP_LE => icmp(x, y, |a, b| a <= b),
            OP_GE => icmp(x, y, |a, b| a >= b),
            _ => icmp(x, y, |a, b| a != b),
        })),
        (b'=' | b'<' | b'>' | OP_LE | OP_GE | OP_NE, x, y) => {
            let (x, y) = (as_f(x), as_f(y));
            T::I(IArg::Fn(match op {
                b'=' => fcmp(x, y, |a, b| a == b),
                b'<' => fcmp(x, y, |a, b| a < b),
                b'>' => fcmp(x, y, |a, b| a > b),
                OP_LE => fcmp(x, y, |a, b| a <= b),
                OP_GE => fcmp(x, y, |a, b| a >= b),
                _ => fcmp(x, y, |a, b| a != b),
            }))
        }
        (_, x, y) => {
            let (x, y) = (as_i(x), as_i(y));
            T::I(IArg::Fn(match op {
                tok::AND => ibin(x, y, |a, b| Some(a & b)),
                tok::OR => ibin(x, y, |a, b| Some(a | b)),
                tok::EOR => ibin(x, y, |a, b| Some(a ^ b)),
                tok::DIV => ibin(x, y, arith::div),
                tok::MOD => ibin(x, y, arith::rem),
                OP_SHL => ibin(x, y, |a, s| Some(arith::shift(OP_SHL, a, s))),
                OP_LSR => ibin(x, y, |a, s| Some(arith::shift(OP_LSR, a, s))),
                OP_ASR => ibin(x, y, |a, s| Some(arith::shift(OP_ASR, a, s))),
                _ => return None,
            }))
        }
    })
}

/// `a op b` for the compound assignments `+= -= *= /=`, as `binop_values` computes it for
/// numbers; `None` where the byte path must (an overflow into a float, an error).
#[inline(always)]
pub(super) fn num_binop(op: u8, a: Num, b: Num) -> Option<Num> {
    let finite = |f: f64| f.is_finite().then_some(Num::Float(f));
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => match op {
            b'+' => arith::iadd(x, y).map(Num::Int),
            b'-' => arith::isub(x, y).map(Num::Int),
            b'*' => arith::imul(x, y).map(Num::Int),
            b'/' => arith::fdiv(x as f64, y as f64).map(Num::Float),
            _ => None,
        },
        (a, b) => {
            let (x, y) = (a.as_f64(), b.as_f64());
            match op {
                b'+' => finite(x + y),
                b'-' => finite(x - y),
                b'*' => finite(x * y),
                b'/' => arith::fdiv(x, y).map(Num::Float),
                _ => None,
            }
        }
    }
}
