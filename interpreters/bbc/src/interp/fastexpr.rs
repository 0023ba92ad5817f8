//! A cache of side-effect-free expressions in a compact stack form, keyed by the program position
//! where `expr` starts reading them.
//!
//! Only expressions built from number constants, simple numeric variables and numeric array
//! elements (already resolved at their positions by the site caches), brackets, unary minus, the
//! binary operators and a few pure numeric functions are kept. Evaluating one reads exactly what
//! the byte-by-byte evaluator would and ends at the same position. Such an expression has no
//! effect but its value or an error; on any error (or anything unexpected) the cached form gives
//! up and the byte-by-byte evaluator runs from the start instead, so errors are raised exactly
//! as before. The cache is cleared whenever the site caches are (CLEAR, RUN, writes into the
//! program).

use super::number::{self, Num};
use super::tok;
use super::value::Val;
use super::{ArrayData, Interp};

/// Cache states per program byte: not seen, seen once, not cacheable; above that, 3 + the index
/// of the compiled expression.
const SEEN: u32 = 1;
const NEVER: u32 = 2;
const FIRST: u32 = 3;

/// Deepest value stack a cached expression may need.
const MAX_STACK: usize = 8;

#[derive(Debug, Clone, Copy)]
pub(super) enum Op {
    Int(i32),
    Float(f64),
    IntVar(u32),
    FloatVar(u32),
    Resident(u8),
    Bin(u8),
    Neg,
    Func(u8),
    IntArr(u32),
    FloatArr(u32),
    /// A binary operator whose right operand is a constant or a variable (fused from the push
    /// of that operand and the operator).
    BinInt(u8, i32),
    BinFloat(u8, f64),
    BinIntVar(u8, u32),
    BinFloatVar(u8, u32),
    BinResident(u8, u8),
}

/// One cached expression: its ops in `code`, the bytes it spans and its bracket nesting.
#[derive(Debug, Clone, Copy)]
pub(super) struct Compiled {
    start: u32,
    len: u32,
    span: u32,
    nest: u32,
}

struct Builder {
    ops: Vec<Op>,
    depth: usize,
    max_depth: usize,
    nest: u32,
    max_nest: u32,
}

impl Builder {
    fn push(&mut self, op: Op) {
        if let Op::Bin(o) = op {
            let fused = match self.ops.last() {
                Some(&Op::Int(i)) => Some(Op::BinInt(o, i)),
                Some(&Op::Float(x)) => Some(Op::BinFloat(o, x)),
                Some(&Op::IntVar(i)) => Some(Op::BinIntVar(o, i)),
                Some(&Op::FloatVar(i)) => Some(Op::BinFloatVar(o, i)),
                Some(&Op::Resident(i)) => Some(Op::BinResident(o, i)),
                _ => None,
            };
            if let Some(f) = fused {
                self.depth -= 1;
                self.ops.pop();
                self.ops.push(f);
                return;
            }
        }
        match op {
            Op::Bin(_) => self.depth -= 1,
            Op::Neg
            | Op::Func(_)
            | Op::IntArr(_)
            | Op::FloatArr(_)
            | Op::BinInt(..)
            | Op::BinFloat(..)
            | Op::BinIntVar(..)
            | Op::BinFloatVar(..)
            | Op::BinResident(..) => {}
            _ => {
                self.depth += 1;
                self.max_depth = self.max_depth.max(self.depth);
            }
        }
        self.ops.push(op);
    }
}

impl Interp {
    fn skip_at(&self, mut p: usize) -> usize {
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
                self.expr_cache[off] = SEEN;
                return None;
            }
            SEEN => {
                let s = match self.compile_expr(self.pc) {
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
        if self.depth + c.nest > self.max_depth {
            return None;
        }
        let v = self.run_compiled(c)?;
        self.pc += c.span as usize;
        Some(v)
    }

    fn compile_expr(&mut self, pc: usize) -> Option<Compiled> {
        let mut b = Builder {
            ops: Vec::new(),
            depth: 0,
            max_depth: 0,
            nest: 0,
            max_nest: 0,
        };
        let mut p = pc;
        self.c_expr(&mut p, &mut b)?;
        if b.max_depth > MAX_STACK || b.ops.len() < 2 {
            return None;
        }
        // The code lives in one shared vector.
        let start = self.code.len();
        self.code.extend_from_slice(&b.ops);
        Some(Compiled {
            start: start as u32,
            len: b.ops.len() as u32,
            span: (p - pc) as u32,
            nest: b.max_nest,
        })
    }

    fn c_expr(&self, p: &mut usize, b: &mut Builder) -> Option<()> {
        b.nest += 1;
        b.max_nest = b.max_nest.max(b.nest);
        self.c_prec(p, 1, b)?;
        b.nest -= 1;
        Some(())
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

    fn c_prec(&self, p: &mut usize, min: u8, b: &mut Builder) -> Option<()> {
        self.c_factor(p, b)?;
        loop {
            *p = self.skip_at(*p);
            let (op, prec, len) = self.c_binop(*p);
            if prec < min || prec == 0 {
                return Some(());
            }
            *p += len;
            if prec == 6 {
                self.c_factor(p, b)?;
            } else {
                self.c_prec(p, prec + 1, b)?;
            }
            b.push(Op::Bin(op));
        }
    }

    fn c_factor(&self, p: &mut usize, b: &mut Builder) -> Option<()> {
        *p = self.skip_at(*p);
        let c = self.at(*p);
        match c {
            b'0'..=b'9' | b'.' => {
                let s = *p;
                let end = (s + 64).min(self.mem.len());
                let (n, len) = number::parse_decimal(&self.mem[s..end]);
                *p += len.max(1);
                b.push(match n {
                    Num::Int(i) => Op::Int(i),
                    Num::Float(f) => Op::Float(f),
                });
            }
            b'-' => {
                *p += 1;
                self.c_factor(p, b)?;
                b.push(Op::Neg);
            }
            b'(' => {
                *p += 1;
                self.c_expr(p, b)?;
                *p = self.skip_at(*p);
                if self.at(*p) != b')' {
                    return None;
                }
                *p += 1;
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
                b.push(Op::Int(v as u32 as i32));
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
                    b.push(match v {
                        super::VarRef::Resident(i) if (i as usize) < 27 => Op::Resident(i),
                        super::VarRef::Int(i) => Op::IntVar(i),
                        super::VarRef::Float(i) => Op::FloatVar(i),
                        _ => return None,
                    });
                    *p = end;
                    return Some(());
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
                let op = match (self.at(end - 2), &self.arrays[ai as usize].data) {
                    (b'%', ArrayData::Int(_)) => Op::IntArr(ai),
                    (b'$', _) | (b'%', _) => return None,
                    (_, ArrayData::Float(_)) => Op::FloatArr(ai),
                    _ => return None,
                };
                *p = end;
                self.c_expr(p, b)?;
                *p = self.skip_at(*p);
                if self.at(*p) != b')' {
                    return None;
                }
                *p += 1;
                if matches!(self.at(*p), b'?' | b'!') {
                    return None;
                }
                b.push(op);
            }
            tok::TRUE => {
                *p += 1;
                b.push(Op::Int(-1));
            }
            tok::FALSE => {
                *p += 1;
                b.push(Op::Int(0));
            }
            tok::PI => {
                *p += 1;
                b.push(Op::Float(std::f64::consts::PI));
            }
            tok::NOT
            | tok::ABS
            | tok::SGN
            | tok::INT
            | tok::SQR
            | tok::LN
            | tok::LOG
            | tok::EXP
            | tok::SIN
            | tok::COS
            | tok::TAN
            | tok::ATN => {
                *p += 1;
                self.c_factor(p, b)?;
                b.push(Op::Func(c));
            }
            _ => return None,
        }
        Some(())
    }

    /// Runs a cached expression; `None` if anything would raise an error. The top of the value
    /// stack lives in `acc`; pushing spills the old top (the first spill is a dummy).
    fn run_compiled(&self, c: Compiled) -> Option<Val> {
        let mut st = [Num::Int(0); MAX_STACK + 1];
        let mut sp = 0usize;
        let mut acc = Num::Int(0);
        let ops = self.code.get(c.start as usize..(c.start + c.len) as usize)?;
        for &op in ops {
            let leaf = match op {
                Op::Int(i) => Num::Int(i),
                Op::Float(f) => Num::Float(f),
                Op::IntVar(i) => Num::Int(*self.ints.get(i as usize)?),
                Op::FloatVar(i) => Num::Float(*self.floats.get(i as usize)?),
                Op::Resident(i) => Num::Int(*self.resident.get(i as usize)?),
                Op::BinInt(o, i) => {
                    acc = num_binop(o, acc, Num::Int(i))?;
                    continue;
                }
                Op::BinFloat(o, x) => {
                    acc = num_binop(o, acc, Num::Float(x))?;
                    continue;
                }
                Op::BinIntVar(o, i) => {
                    acc = num_binop(o, acc, Num::Int(*self.ints.get(i as usize)?))?;
                    continue;
                }
                Op::BinFloatVar(o, i) => {
                    acc = num_binop(o, acc, Num::Float(*self.floats.get(i as usize)?))?;
                    continue;
                }
                Op::BinResident(o, i) => {
                    acc = num_binop(o, acc, Num::Int(*self.resident.get(i as usize)?))?;
                    continue;
                }
                Op::Bin(o) => {
                    sp = sp.checked_sub(1)?;
                    acc = num_binop(o, *st.get(sp)?, acc)?;
                    continue;
                }
                Op::Neg => {
                    acc = match acc {
                        Num::Int(i) => i.checked_neg().map(Num::Int).unwrap_or(Num::Float(-(i as f64))),
                        Num::Float(f) => Num::Float(-f),
                    };
                    continue;
                }
                Op::Func(t) => {
                    acc = func(t, acc)?;
                    continue;
                }
                Op::IntArr(a) | Op::FloatArr(a) => {
                    let i = match acc {
                        Num::Int(i) => i,
                        Num::Float(f) => number::f64_to_i32(f).ok()?,
                    };
                    let arr = self.arrays.get(a as usize)?;
                    if arr.dims.len() != 1 || i < 0 || i as u32 >= arr.dims[0] {
                        return None;
                    }
                    acc = match (&arr.data, op) {
                        (ArrayData::Int(d), Op::IntArr(_)) => Num::Int(*d.get(i as usize)?),
                        (ArrayData::Float(d), Op::FloatArr(_)) => Num::Float(*d.get(i as usize)?),
                        _ => return None,
                    };
                    continue;
                }
            };
            *st.get_mut(sp)? = acc;
            sp += 1;
            acc = leaf;
        }
        if sp != 1 {
            return None;
        }
        Some(match acc {
            Num::Int(i) => Val::Int(i),
            Num::Float(f) => Val::Float(f),
        })
    }
}

#[inline(always)]
fn num_binop(op: u8, a: Num, b: Num) -> Option<Num> {
    use super::expr::{OP_GE, OP_LE, OP_NE};
    let t = |c: bool| Num::Int(if c { -1 } else { 0 });
    // The common cases as `binop_values` computes them; everything else goes through it.
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(match op {
            b'+' => x.checked_add(y).map_or(Num::Float(x as f64 + y as f64), Num::Int),
            b'-' => x.checked_sub(y).map_or(Num::Float(x as f64 - y as f64), Num::Int),
            b'*' => x.checked_mul(y).map_or(Num::Float(x as f64 * y as f64), Num::Int),
            b'=' => t(x == y),
            b'<' => t(x < y),
            b'>' => t(x > y),
            OP_LE => t(x <= y),
            OP_GE => t(x >= y),
            OP_NE => t(x != y),
            tok::AND => Num::Int(x & y),
            tok::OR => Num::Int(x | y),
            tok::EOR => Num::Int(x ^ y),
            tok::DIV if y != 0 => Num::Int(x.wrapping_div(y)),
            tok::MOD if y != 0 => Num::Int(x.wrapping_rem(y)),
            _ => return num_binop_slow(op, a, b),
        }),
        (Num::Float(x), Num::Float(y)) => num_float_op(op, x, y).or_else(|| num_binop_slow(op, a, b)),
        (Num::Int(x), Num::Float(y)) => num_float_op(op, x as f64, y).or_else(|| num_binop_slow(op, a, b)),
        (Num::Float(x), Num::Int(y)) => num_float_op(op, x, y as f64).or_else(|| num_binop_slow(op, a, b)),
    }
}

/// The float operators `binop_values` handles directly (`None`: not one of them, or an error).
#[inline(always)]
fn num_float_op(op: u8, x: f64, y: f64) -> Option<Num> {
    use super::expr::{OP_GE, OP_LE, OP_NE};
    let t = |c: bool| Some(Num::Int(if c { -1 } else { 0 }));
    let finite = |f: f64| f.is_finite().then_some(Num::Float(f));
    match op {
        b'+' => finite(x + y),
        b'-' => finite(x - y),
        b'*' => finite(x * y),
        b'/' if y != 0.0 => finite(x / y),
        b'=' => t(x == y),
        b'<' => t(x < y),
        b'>' => t(x > y),
        OP_LE => t(x <= y),
        OP_GE => t(x >= y),
        OP_NE => t(x != y),
        _ => None,
    }
}

#[inline(never)]
fn num_binop_slow(op: u8, a: Num, b: Num) -> Option<Num> {
    let v = |n: Num| match n {
        Num::Int(i) => Val::Int(i),
        Num::Float(f) => Val::Float(f),
    };
    match super::expr::binop_values(op, v(a), v(b)).ok()? {
        Val::Int(i) => Some(Num::Int(i)),
        Val::Float(f) => Some(Num::Float(f)),
        Val::Str(_) => None,
    }
}

/// The pure numeric functions, as `function` computes them; `None` where it raises an error.
fn func(t: u8, x: Num) -> Option<Num> {
    let f64_of = |n: Num| match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    };
    let finite = |f: f64| f.is_finite().then_some(Num::Float(f));
    Some(match t {
        tok::NOT => Num::Int(!match x {
            Num::Int(i) => i,
            Num::Float(f) => number::f64_to_i32(f).ok()?,
        }),
        tok::ABS => match x {
            Num::Int(i) => i.checked_abs().map(Num::Int).unwrap_or(Num::Float(2147483648.0)),
            Num::Float(f) => Num::Float(f.abs()),
        },
        tok::SGN => match x {
            Num::Int(i) => Num::Int(i.signum()),
            Num::Float(f) => Num::Int(if f > 0.0 {
                1
            } else if f < 0.0 {
                -1
            } else {
                0
            }),
        },
        tok::INT => match x {
            Num::Int(i) => Num::Int(i),
            Num::Float(f) => Num::Int(number::f64_to_i32(f.floor()).ok()?),
        },
        tok::SQR => {
            let x = f64_of(x);
            if x < 0.0 {
                return None;
            }
            Num::Float(x.sqrt())
        }
        tok::LN | tok::LOG => {
            let x = f64_of(x);
            if x <= 0.0 {
                return None;
            }
            Num::Float(if t == tok::LN { x.ln() } else { x.log10() })
        }
        tok::EXP => finite(f64_of(x).exp())?,
        tok::SIN => Num::Float(f64_of(x).sin()),
        tok::COS => Num::Float(f64_of(x).cos()),
        tok::TAN => finite(f64_of(x).tan())?,
        tok::ATN => Num::Float(f64_of(x).atan()),
        _ => return None,
    })
}
