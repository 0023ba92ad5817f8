//! Expressions: the AST, the parser (precedence climbing over tokens) and evaluation.
use crate::lexer::{Tk, Tok};
use std::rc::Rc;

/// An expression in postfix order (operands before their operator), so that evaluating, walking
/// and dropping it never recurse: a 100,000-term sum is as safe as `1+1`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Expr {
    nodes: Vec<Node>,
}

/// One postfix node.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Num(i64),
    /// A symbol with its file and byte span, for diagnostics.
    Sym(Rc<str>, u32, u32, u32),
    /// `$`, the address of the current statement.
    Dollar,
    Un(UnOp),
    Bin(BinOp),
}

/// How deeply brackets and unary operators may nest in one expression. The parser recurses once
/// per level; real sources stay far below this, and a limit turns a stack overflow on hostile
/// input into a diagnostic.
pub const MAX_NESTING: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    LogNot,
    High,
    Low,
    /// sjasmplus's `abs(x)`.
    Abs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Xor,
    Or,
    LogAnd,
    LogOr,
}

impl Expr {
    /// A constant expression.
    pub fn num(n: i64) -> Expr {
        Expr {
            nodes: vec![Node::Num(n)],
        }
    }

    /// The postfix nodes.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The symbol's name if the expression is a lone symbol (a condition like `nz` parses as one).
    pub fn as_symbol(&self) -> Option<&Rc<str>> {
        match self.nodes.as_slice() {
            [Node::Sym(s, ..)] => Some(s),
            _ => None,
        }
    }

    /// Every symbol the expression mentions, in source order (for EQU dependencies).
    pub fn symbols(&self, out: &mut Vec<Rc<str>>) {
        out.extend(self.nodes.iter().filter_map(|n| match n {
            Node::Sym(s, ..) => Some(s.clone()),
            _ => None,
        }));
    }
}

/// Parse failure: message and the token index where it happened.
#[derive(Debug, Clone)]
pub struct ParseError {
    pub msg: String,
    pub at: usize,
}

/// A cursor over one operand's tokens. `text` maps a token to its source text (needed for `%1010`
/// and `&FF`, whose digits the lexer read as a decimal number or an identifier).
pub struct Parser<'t> {
    pub toks: &'t [Tok],
    pub pos: usize,
    pub text: &'t dyn Fn(&Tok) -> &'t str,
    /// Brackets and unary operators open around the current position.
    depth: usize,
    out: Vec<Node>,
}

fn binop(t: &Tk, text: &str) -> Option<(BinOp, u8)> {
    Some(match t {
        Tk::OrOr => (BinOp::LogOr, 1),
        Tk::AndAnd => (BinOp::LogAnd, 2),
        Tk::Pipe => (BinOp::Or, 3),
        Tk::Caret => (BinOp::Xor, 4),
        Tk::Amp => (BinOp::And, 5),
        Tk::EqEq | Tk::Eq => (BinOp::Eq, 6),
        Tk::Ne => (BinOp::Ne, 6),
        Tk::Lt => (BinOp::Lt, 7),
        Tk::Le => (BinOp::Le, 7),
        Tk::Gt => (BinOp::Gt, 7),
        Tk::Ge => (BinOp::Ge, 7),
        Tk::Shl => (BinOp::Shl, 8),
        Tk::Shr => (BinOp::Shr, 8),
        Tk::Plus => (BinOp::Add, 9),
        Tk::Minus => (BinOp::Sub, 9),
        Tk::Star => (BinOp::Mul, 10),
        Tk::Slash => (BinOp::Div, 10),
        Tk::Percent => (BinOp::Mod, 10),
        Tk::Ident(_) => match text.to_ascii_lowercase().as_str() {
            "or" => (BinOp::Or, 3),
            "xor" => (BinOp::Xor, 4),
            "and" => (BinOp::And, 5),
            "eq" => (BinOp::Eq, 6),
            "ne" => (BinOp::Ne, 6),
            "lt" => (BinOp::Lt, 7),
            "le" => (BinOp::Le, 7),
            "gt" => (BinOp::Gt, 7),
            "ge" => (BinOp::Ge, 7),
            "shl" => (BinOp::Shl, 8),
            "shr" => (BinOp::Shr, 8),
            "mod" => (BinOp::Mod, 10),
            _ => return None,
        },
        _ => return None,
    })
}

impl<'t> Parser<'t> {
    pub fn new(toks: &'t [Tok], text: &'t dyn Fn(&Tok) -> &'t str) -> Parser<'t> {
        Parser {
            toks,
            pos: 0,
            text,
            depth: 0,
            out: Vec::new(),
        }
    }

    pub fn peek(&self) -> Option<&'t Tok> {
        self.toks.get(self.pos)
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn err<T>(&self, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            msg: msg.into(),
            at: self.pos,
        })
    }

    /// Parses one expression starting at the cursor.
    pub fn expr(&mut self) -> Result<Expr, ParseError> {
        self.out.clear();
        self.binary(1)?;
        Ok(Expr {
            nodes: std::mem::take(&mut self.out),
        })
    }

    /// Precedence climbing; recursion is bounded by the number of precedence levels per nesting
    /// level, and nesting by [`MAX_NESTING`].
    fn binary(&mut self, min: u8) -> Result<(), ParseError> {
        self.unary()?;
        while let Some(t) = self.peek() {
            let Some((op, prec)) = binop(&t.kind, (self.text)(t)) else {
                break;
            };
            if prec < min {
                break;
            }
            self.pos += 1;
            self.binary(prec + 1)?;
            self.out.push(Node::Bin(op));
        }
        Ok(())
    }

    /// Enters one nesting level (a bracket or a unary operator).
    fn nest(&mut self) -> Result<(), ParseError> {
        if self.depth >= MAX_NESTING {
            return self.err(format!(
                "expression nested too deeply (more than {MAX_NESTING} brackets or unary operators)"
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// The token after the current one starts exactly where the current one ends.
    fn adjacent_next(&self) -> Option<&'t Tok> {
        let cur = self.peek()?;
        self.toks
            .get(self.pos + 1)
            .filter(|n| n.start == cur.end && n.file == cur.file)
    }

    fn unary(&mut self) -> Result<(), ParseError> {
        let Some(t) = self.peek() else {
            return self.err("expected an expression");
        };
        let un = |p: &mut Self, op| -> Result<(), ParseError> {
            p.nest()?;
            p.pos += 1;
            p.unary()?;
            p.out.push(Node::Un(op));
            p.depth -= 1;
            Ok(())
        };
        match &t.kind {
            Tk::Minus => un(self, UnOp::Neg),
            Tk::Plus => {
                self.nest()?;
                self.pos += 1;
                self.unary()?;
                self.depth -= 1;
                Ok(())
            }
            Tk::Tilde => un(self, UnOp::Not),
            Tk::Bang => un(self, UnOp::LogNot),
            Tk::Ident(s) if self.toks.len() > self.pos + 1 => match s.to_ascii_lowercase().as_str() {
                "high" => un(self, UnOp::High),
                "low" => un(self, UnOp::Low),
                "not" => un(self, UnOp::Not),
                // Only as a function call, so a label named `abs` keeps working (as in sjasmplus).
                "abs" if self.toks[self.pos + 1].kind == Tk::LParen => un(self, UnOp::Abs),
                _ => self.primary(),
            },
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<(), ParseError> {
        let Some(t) = self.peek() else {
            return self.err("expected an expression");
        };
        let e = match &t.kind {
            Tk::Number(Some(n)) | Tk::DollarHex(Some(n)) => Node::Num(*n),
            Tk::Number(None) | Tk::DollarHex(None) => {
                return self.err(format!("`{}` is not a valid number", (self.text)(t)));
            }
            Tk::Dollar => Node::Dollar,
            Tk::Ident(s) => Node::Sym(s.clone(), t.file, t.start, t.end),
            Tk::Str(bytes) => match bytes.len() {
                1 => Node::Num(bytes[0] as i64),
                2 => Node::Num(bytes[0] as i64 | ((bytes[1] as i64) << 8)),
                _ => return self.err("a string in an expression must have one or two characters"),
            },
            Tk::LParen | Tk::LBracket => {
                let close = if t.kind == Tk::LParen {
                    Tk::RParen
                } else {
                    Tk::RBracket
                };
                self.nest()?;
                self.pos += 1;
                self.binary(1)?;
                if self.peek().map(|t| &t.kind) != Some(&close) {
                    return self.err("expected `)`");
                }
                self.pos += 1;
                self.depth -= 1;
                return Ok(());
            }
            // `%1010` (binary) and `&FF` / `#FF` (hex): the prefix glued to its digits.
            Tk::Percent | Tk::Amp | Tk::Hash => {
                let radix = if t.kind == Tk::Percent { 2 } else { 16 };
                let Some(n) = self.adjacent_next() else {
                    return self.err("expected a number");
                };
                let text = (self.text)(n);
                // z80asm's `&hFF` spelling.
                let digits = match text.strip_prefix(['h', 'H']) {
                    Some(d) if radix == 16 && !d.is_empty() => d,
                    _ => text,
                };
                match i64::from_str_radix(digits, radix) {
                    Ok(v) if matches!(n.kind, Tk::Number(_) | Tk::Ident(_)) => {
                        self.pos += 2;
                        self.out.push(Node::Num(v));
                        return Ok(());
                    }
                    _ => return self.err(format!("`{digits}` is not a valid base-{radix} number")),
                }
            }
            _ => return self.err(format!("expected an expression, found `{}`", (self.text)(t))),
        };
        self.pos += 1;
        self.out.push(e);
        Ok(())
    }
}

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    Undefined(Rc<str>, u32, u32, u32),
    DivZero,
}

/// Evaluates with `lookup` for symbols; comparisons give -1 for true (as pasmo does). Runs the
/// postfix nodes on a value stack, so the cost is linear and the native stack stays flat.
pub fn eval(e: &Expr, dollar: i64, lookup: &mut dyn FnMut(&str) -> Option<i64>) -> Result<i64, EvalError> {
    let mut stack: Vec<i64> = Vec::with_capacity(8);
    for n in &e.nodes {
        let v = match n {
            Node::Num(n) => *n,
            Node::Dollar => dollar,
            Node::Sym(s, f, a, b) => lookup(s).ok_or_else(|| EvalError::Undefined(s.clone(), *f, *a, *b))?,
            Node::Un(op) => {
                let v = stack.pop().unwrap_or(0);
                match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::Not => !v,
                    UnOp::LogNot => -((v == 0) as i64),
                    UnOp::High => (v >> 8) & 0xFF,
                    UnOp::Low => v & 0xFF,
                    UnOp::Abs => v.wrapping_abs(),
                }
            }
            Node::Bin(op) => {
                let y = stack.pop().unwrap_or(0);
                let x = stack.pop().unwrap_or(0);
                binary_value(*op, x, y)?
            }
        };
        stack.push(v);
    }
    // The parser only builds well-formed postfix, which leaves exactly one value.
    Ok(stack.pop().unwrap_or(0))
}

fn binary_value(op: BinOp, x: i64, y: i64) -> Result<i64, EvalError> {
    let t = |c: bool| -(c as i64);
    Ok(match op {
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => x.checked_div(y).ok_or(EvalError::DivZero)?,
        BinOp::Mod => x.checked_rem(y).ok_or(EvalError::DivZero)?,
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Shl => {
            if (0..64).contains(&y) {
                x.wrapping_shl(y as u32)
            } else {
                0
            }
        }
        BinOp::Shr => {
            if (0..64).contains(&y) {
                x >> y
            } else {
                -((x < 0) as i64)
            }
        }
        BinOp::Lt => t(x < y),
        BinOp::Le => t(x <= y),
        BinOp::Gt => t(x > y),
        BinOp::Ge => t(x >= y),
        BinOp::Eq => t(x == y),
        BinOp::Ne => t(x != y),
        BinOp::And => x & y,
        BinOp::Xor => x ^ y,
        BinOp::Or => x | y,
        BinOp::LogAnd => t(x != 0 && y != 0),
        BinOp::LogOr => t(x != 0 || y != 0),
    })
}
