//! A cache of side-effect-free numeric expressions compiled to typed trees, keyed by the
//! program position where `expr` starts reading them.
//!
//! Only expressions built from number constants, simple numeric variables and numeric array
//! elements (already resolved at their positions by the site caches), brackets, unary minus, the
//! binary operators and a few pure numeric functions are kept. Evaluating one reads exactly what
//! the byte-by-byte evaluator would and ends at the same position. Such an expression has no
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

use super::number::{self, Num};
use super::tok;
use super::value::Val;
use super::{ArrayData, Interp};

/// Cache states per program byte: not seen, seen once, not cacheable; above that, 3 + the index
/// of the compiled expression.
const SEEN: u32 = 1;
const NEVER: u32 = 2;
const FIRST: u32 = 3;

/// Largest tree compiled (nodes); bigger expressions stay with the byte evaluator.
const MAX_NODES: usize = 64;

/// An integer operand: a leaf read in place, or a node evaluated by `ei`.
#[derive(Debug, Clone, Copy)]
pub(super) enum IArg {
    Const(i32),
    Var(u32),
    Res(u8),
    Node(u32),
}

/// A float operand; integer leaves and nodes are widened as they are read.
#[derive(Debug, Clone, Copy)]
pub(super) enum FArg {
    Const(f64),
    Var(u32),
    IVar(u32),
    Res(u8),
    Node(u32),
    INode(u32),
}

/// Integer-valued nodes.
#[derive(Debug, Clone, Copy)]
pub(super) enum INode {
    Add(IArg, IArg),
    Sub(IArg, IArg),
    Mul(IArg, IArg),
    Div(IArg, IArg),
    Mod(IArg, IArg),
    And(IArg, IArg),
    Or(IArg, IArg),
    Eor(IArg, IArg),
    Shift(u8, IArg, IArg),
    /// A comparison of integers, and of floats (or mixed): TRUE or FALSE.
    Cmp(u8, IArg, IArg),
    CmpF(u8, FArg, FArg),
    Neg(IArg),
    Not(IArg),
    Abs(IArg),
    Sgn(IArg),
    SgnF(FArg),
    /// INT of a float.
    Floor(FArg),
    /// A float where an integer is wanted (operands of DIV, AND..., subscripts).
    FromF(FArg),
    /// An element of a one-dimensional integer array.
    El(u32, IArg),
}

/// Float-valued nodes.
#[derive(Debug, Clone, Copy)]
pub(super) enum FNode {
    Add(FArg, FArg),
    Sub(FArg, FArg),
    Mul(FArg, FArg),
    Div(FArg, FArg),
    Pow(FArg, FArg),
    Neg(FArg),
    Abs(FArg),
    /// SQR LN LOG EXP SIN COS TAN ATN.
    Func(u8, FArg),
    /// An element of a one-dimensional float array.
    El(u32, IArg),
}

/// A compiled expression's value.
#[derive(Debug, Clone, Copy)]
pub(super) enum Root {
    Int(IArg),
    Float(FArg),
}

/// One cached expression: its tree, the bytes it spans and its bracket nesting.
#[derive(Debug, Clone, Copy)]
pub(super) struct Compiled {
    root: Root,
    /// Bytes from where the expression starts to where the byte evaluator stops reading it.
    pub(super) span: u32,
    nest: u32,
}

/// A part of an expression being compiled, with its type.
#[derive(Debug, Clone, Copy)]
enum T {
    I(IArg),
    F(FArg),
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
        let state = *self.expr_cache.get(off)?;
        let idx = match state {
            0 => {
                self.expr_cache[off] = if self.caching { SEEN } else { NEVER };
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
                self.expr_cache[off] = s;
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
        let inodes = self.inodes.len();
        let fnodes = self.fnodes.len();
        let mut p = pc;
        let t = self.c_expr(&mut p, &mut b);
        // Leaves count as parts too: `a%` alone is one part, `a%+1` three.
        let parts = b.nodes * 2 + 1;
        let t = match t {
            Some(t) if parts >= min_parts && b.nodes <= MAX_NODES => t,
            _ => {
                self.inodes.truncate(inodes);
                self.fnodes.truncate(fnodes);
                return None;
            }
        };
        Some(Compiled {
            root: match t {
                T::I(a) => Root::Int(a),
                T::F(a) => Root::Float(a),
            },
            span: u32::try_from(p - pc).ok()?,
            nest: b.max_nest,
        })
    }

    fn c_expr(&mut self, p: &mut usize, b: &mut Builder) -> Option<T> {
        b.nest += 1;
        b.max_nest = b.max_nest.max(b.nest);
        let t = self.c_prec(p, 1, b)?;
        b.nest -= 1;
        Some(t)
    }

    fn c_binop(&self, p: usize) -> (u8, u8, usize) {
        use super::expr::{OP_ASR, OP_GE, OP_LE, OP_LSR, OP_NE, OP_SHL};
        let c = self.at(p);
        match c {
            tok::OR | tok::EOR => (c, 1, 1),
            tok::AND => (c, 2, 1),
            b'=' => (c, 3, 1),
            b'<' => match self.at(p + 1) {
                b'=' => (OP_LE, 3, 2),
                b'>' => (OP_NE, 3, 2),
                b'<' => (OP_SHL, 3, 2),
                _ => (c, 3, 1),
            },
            b'>' => match self.at(p + 1) {
                b'=' => (OP_GE, 3, 2),
                b'>' if self.at(p + 2) == b'>' => (OP_LSR, 3, 3),
                b'>' => (OP_ASR, 3, 2),
                _ => (c, 3, 1),
            },
            b'+' | b'-' => (c, 4, 1),
            b'*' | b'/' | tok::DIV | tok::MOD => (c, 5, 1),
            b'^' => (c, 6, 1),
            _ => (0, 0, 0),
        }
    }

    fn c_prec(&mut self, p: &mut usize, min: u8, b: &mut Builder) -> Option<T> {
        let mut a = self.c_factor(p, b)?;
        loop {
            *p = self.skip_at(*p);
            let (op, prec, len) = self.c_binop(*p);
            if prec < min || prec == 0 {
                return Some(a);
            }
            *p += len;
            let r = if prec == 6 {
                self.c_factor(p, b)?
            } else {
                self.c_prec(p, prec + 1, b)?
            };
            a = self.c_bin(op, a, r, b)?;
        }
    }

    fn inode(&mut self, n: INode, b: &mut Builder) -> Option<IArg> {
        b.nodes += 1;
        self.inodes.push(n);
        Some(IArg::Node(u32::try_from(self.inodes.len() - 1).ok()?))
    }

    fn fnode(&mut self, n: FNode, b: &mut Builder) -> Option<FArg> {
        b.nodes += 1;
        self.fnodes.push(n);
        Some(FArg::Node(u32::try_from(self.fnodes.len() - 1).ok()?))
    }

    /// An operand where a float is wanted.
    fn as_f(t: T) -> FArg {
        match t {
            T::F(a) => a,
            T::I(IArg::Const(c)) => FArg::Const(c as f64),
            T::I(IArg::Var(i)) => FArg::IVar(i),
            T::I(IArg::Res(i)) => FArg::Res(i),
            T::I(IArg::Node(n)) => FArg::INode(n),
        }
    }

    /// An operand where an integer is wanted (floats convert, or fail, as `to_int` does).
    fn as_i(&mut self, t: T, b: &mut Builder) -> Option<IArg> {
        match t {
            T::I(a) => Some(a),
            T::F(a) => self.inode(INode::FromF(a), b),
        }
    }

    /// A binary operator on two compiled operands, typed as `binop_values` types its result.
    fn c_bin(&mut self, op: u8, x: T, y: T, b: &mut Builder) -> Option<T> {
        use super::expr::{OP_ASR, OP_GE, OP_LE, OP_LSR, OP_NE, OP_SHL};
        Some(match (op, x, y) {
            (b'+', T::I(x), T::I(y)) => T::I(self.inode(INode::Add(x, y), b)?),
            (b'-', T::I(x), T::I(y)) => T::I(self.inode(INode::Sub(x, y), b)?),
            (b'*', T::I(x), T::I(y)) => T::I(self.inode(INode::Mul(x, y), b)?),
            (b'+', x, y) => T::F(self.fnode(FNode::Add(Self::as_f(x), Self::as_f(y)), b)?),
            (b'-', x, y) => T::F(self.fnode(FNode::Sub(Self::as_f(x), Self::as_f(y)), b)?),
            (b'*', x, y) => T::F(self.fnode(FNode::Mul(Self::as_f(x), Self::as_f(y)), b)?),
            (b'/', x, y) => T::F(self.fnode(FNode::Div(Self::as_f(x), Self::as_f(y)), b)?),
            (b'^', x, y) => T::F(self.fnode(FNode::Pow(Self::as_f(x), Self::as_f(y)), b)?),
            (b'=' | b'<' | b'>' | OP_LE | OP_GE | OP_NE, T::I(x), T::I(y)) => {
                T::I(self.inode(INode::Cmp(op, x, y), b)?)
            }
            (b'=' | b'<' | b'>' | OP_LE | OP_GE | OP_NE, x, y) => {
                T::I(self.inode(INode::CmpF(op, Self::as_f(x), Self::as_f(y)), b)?)
            }
            _ => {
                let (x, y) = (self.as_i(x, b)?, self.as_i(y, b)?);
                let n = match op {
                    tok::AND => INode::And(x, y),
                    tok::OR => INode::Or(x, y),
                    tok::EOR => INode::Eor(x, y),
                    tok::DIV => INode::Div(x, y),
                    tok::MOD => INode::Mod(x, y),
                    OP_SHL | OP_ASR | OP_LSR => INode::Shift(op, x, y),
                    _ => return None,
                };
                T::I(self.inode(n, b)?)
            }
        })
    }

    fn c_factor(&mut self, p: &mut usize, b: &mut Builder) -> Option<T> {
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
                    T::I(IArg::Const(i)) if i != i32::MIN => T::I(IArg::Const(-i)),
                    T::F(FArg::Const(f)) => T::F(FArg::Const(-f)),
                    T::I(a) => T::I(self.inode(INode::Neg(a), b)?),
                    T::F(a) => T::F(self.fnode(FNode::Neg(a), b)?),
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
                let s = self.site.get(off).copied().unwrap_or(0);
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
                let a = self.arr_site.get(off).copied().unwrap_or(0);
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
                let sub = self.as_i(sub, b)?;
                if int {
                    T::I(self.inode(INode::El(ai, sub), b)?)
                } else {
                    T::F(self.fnode(FNode::El(ai, sub), b)?)
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
                match (c, x) {
                    (tok::NOT, x) => {
                        let x = self.as_i(x, b)?;
                        T::I(self.inode(INode::Not(x), b)?)
                    }
                    (tok::ABS, T::I(x)) => T::I(self.inode(INode::Abs(x), b)?),
                    (tok::ABS, T::F(x)) => T::F(self.fnode(FNode::Abs(x), b)?),
                    (tok::SGN, T::I(x)) => T::I(self.inode(INode::Sgn(x), b)?),
                    (tok::SGN, T::F(x)) => T::I(self.inode(INode::SgnF(x), b)?),
                    (_, T::I(x)) => T::I(x),
                    (_, T::F(x)) => T::I(self.inode(INode::Floor(x), b)?),
                }
            }
            tok::SQR | tok::LN | tok::LOG | tok::EXP | tok::SIN | tok::COS | tok::TAN | tok::ATN => {
                *p += 1;
                let x = self.c_factor(p, b)?;
                T::F(self.fnode(FNode::Func(c, Self::as_f(x)), b)?)
            }
            _ => return None,
        })
    }

    // ---- evaluation ----

    /// The value of a compiled expression, or `None` where the byte evaluator must run instead
    /// (an error, an integer overflowing into a float, or nesting deeper than the byte
    /// evaluator allows).
    #[inline]
    pub(super) fn eval_num(&self, c: Compiled) -> Option<Num> {
        if self.depth + c.nest > self.max_depth {
            return None;
        }
        Some(match c.root {
            Root::Int(a) => Num::Int(self.ia(a)?),
            Root::Float(a) => Num::Float(self.fa(a)?),
        })
    }

    #[inline(always)]
    fn ia(&self, a: IArg) -> Option<i32> {
        match a {
            IArg::Const(c) => Some(c),
            IArg::Var(i) => self.ints.get(i as usize).copied(),
            IArg::Res(i) => self.resident.get(i as usize).copied(),
            IArg::Node(n) => self.ei(n),
        }
    }

    #[inline(always)]
    fn fa(&self, a: FArg) -> Option<f64> {
        match a {
            FArg::Const(c) => Some(c),
            FArg::Var(i) => self.floats.get(i as usize).copied(),
            FArg::IVar(i) => self.ints.get(i as usize).map(|&x| x as f64),
            FArg::Res(i) => self.resident.get(i as usize).map(|&x| x as f64),
            FArg::Node(n) => self.ef(n),
            FArg::INode(n) => self.ei(n).map(|x| x as f64),
        }
    }

    fn ei(&self, n: u32) -> Option<i32> {
        use super::expr::{OP_GE, OP_LE, OP_LSR, OP_NE, OP_SHL};
        let t = |c: bool| Some(if c { -1 } else { 0 });
        match *self.inodes.get(n as usize)? {
            INode::Add(x, y) => self.ia(x)?.checked_add(self.ia(y)?),
            INode::Sub(x, y) => self.ia(x)?.checked_sub(self.ia(y)?),
            INode::Mul(x, y) => self.ia(x)?.checked_mul(self.ia(y)?),
            INode::Div(x, y) => {
                let (x, y) = (self.ia(x)?, self.ia(y)?);
                (y != 0).then(|| x.wrapping_div(y))
            }
            INode::Mod(x, y) => {
                let (x, y) = (self.ia(x)?, self.ia(y)?);
                (y != 0).then(|| x.wrapping_rem(y))
            }
            INode::And(x, y) => Some(self.ia(x)? & self.ia(y)?),
            INode::Or(x, y) => Some(self.ia(x)? | self.ia(y)?),
            INode::Eor(x, y) => Some(self.ia(x)? ^ self.ia(y)?),
            INode::Shift(op, x, y) => {
                let (x, s) = (self.ia(x)?, self.ia(y)?);
                let in_range = (0..32).contains(&s);
                Some(match (op, in_range) {
                    (OP_SHL, true) => x.wrapping_shl(s as u32),
                    (OP_SHL, false) => 0,
                    (OP_LSR, true) => ((x as u32) >> s) as i32,
                    (OP_LSR, false) => 0,
                    (_, true) => x >> s,
                    (_, false) => x >> 31,
                })
            }
            INode::Cmp(op, x, y) => {
                let (x, y) = (self.ia(x)?, self.ia(y)?);
                match op {
                    b'=' => t(x == y),
                    b'<' => t(x < y),
                    b'>' => t(x > y),
                    OP_LE => t(x <= y),
                    OP_GE => t(x >= y),
                    OP_NE => t(x != y),
                    _ => None,
                }
            }
            INode::CmpF(op, x, y) => {
                let (x, y) = (self.fa(x)?, self.fa(y)?);
                match op {
                    b'=' => t(x == y),
                    b'<' => t(x < y),
                    b'>' => t(x > y),
                    OP_LE => t(x <= y),
                    OP_GE => t(x >= y),
                    OP_NE => t(x != y),
                    _ => None,
                }
            }
            INode::Neg(x) => self.ia(x)?.checked_neg(),
            INode::Not(x) => Some(!self.ia(x)?),
            INode::Abs(x) => self.ia(x)?.checked_abs(),
            INode::Sgn(x) => Some(self.ia(x)?.signum()),
            INode::SgnF(x) => {
                let f = self.fa(x)?;
                Some(if f > 0.0 {
                    1
                } else if f < 0.0 {
                    -1
                } else {
                    0
                })
            }
            INode::Floor(x) => number::f64_to_i32(self.fa(x)?.floor()).ok(),
            INode::FromF(x) => number::f64_to_i32(self.fa(x)?).ok(),
            INode::El(a, i) => {
                let i = self.ia(i)?;
                let arr = self.arrays.get(a as usize)?;
                match &arr.data {
                    ArrayData::Int(d) if arr.dims.len() == 1 && i >= 0 && (i as u32) < arr.dims[0] => {
                        d.get(i as usize).copied()
                    }
                    _ => None,
                }
            }
        }
    }

    fn ef(&self, n: u32) -> Option<f64> {
        let finite = |f: f64| f.is_finite().then_some(f);
        match *self.fnodes.get(n as usize)? {
            FNode::Add(x, y) => finite(self.fa(x)? + self.fa(y)?),
            FNode::Sub(x, y) => finite(self.fa(x)? - self.fa(y)?),
            FNode::Mul(x, y) => finite(self.fa(x)? * self.fa(y)?),
            FNode::Div(x, y) => {
                let (x, y) = (self.fa(x)?, self.fa(y)?);
                if y == 0.0 { None } else { finite(x / y) }
            }
            FNode::Pow(x, y) => {
                let r = self.fa(x)?.powf(self.fa(y)?);
                if r.is_nan() { None } else { finite(r) }
            }
            FNode::Neg(x) => Some(-self.fa(x)?),
            FNode::Abs(x) => Some(self.fa(x)?.abs()),
            FNode::Func(t, x) => {
                let x = self.fa(x)?;
                match t {
                    tok::SQR if x >= 0.0 => Some(x.sqrt()),
                    tok::LN if x > 0.0 => Some(x.ln()),
                    tok::LOG if x > 0.0 => Some(x.log10()),
                    tok::EXP => finite(x.exp()),
                    tok::SIN => Some(x.sin()),
                    tok::COS => Some(x.cos()),
                    tok::TAN => finite(x.tan()),
                    tok::ATN => Some(x.atan()),
                    _ => None,
                }
            }
            FNode::El(a, i) => {
                let i = self.ia(i)?;
                let arr = self.arrays.get(a as usize)?;
                match &arr.data {
                    ArrayData::Float(d) if arr.dims.len() == 1 && i >= 0 && (i as u32) < arr.dims[0] => {
                        d.get(i as usize).copied()
                    }
                    _ => None,
                }
            }
        }
    }
}

/// `a op b` for the compound assignments `+= -= *= /=`, as `combine` computes it for numbers;
/// `None` where the byte path must (an overflow into a float, an error).
#[inline(always)]
pub(super) fn num_binop(op: u8, a: Num, b: Num) -> Option<Num> {
    let finite = |f: f64| f.is_finite().then_some(Num::Float(f));
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => match op {
            b'+' => x.checked_add(y).map(Num::Int),
            b'-' => x.checked_sub(y).map(Num::Int),
            b'*' => x.checked_mul(y).map(Num::Int),
            b'/' if y != 0 => finite(x as f64 / y as f64),
            _ => None,
        },
        (a, b) => {
            let (x, y) = (a.as_f64(), b.as_f64());
            match op {
                b'+' => finite(x + y),
                b'-' => finite(x - y),
                b'*' => finite(x * y),
                b'/' if y != 0.0 => finite(x / y),
                _ => None,
            }
        }
    }
}
