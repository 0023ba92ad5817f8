//! Debugger expressions: what `print`, `set`, `break ... if`, `x` and `call` take.
//!
//! - numbers in the assembler's forms: `42`, `$2A`, `0x2A`, `2Ah`, `%101010`, `'*'`;
//! - registers `A F B C D E H L I R IXH IXL IYH IYL`, pairs `AF BC DE HL IX IY SP PC` and the
//!   alternate set `AF' BC' DE' HL'` (any case);
//! - flags as 0/1: `ZF CF SF HF PF VF NF` and the condition names `Z NZ NC PO PE P M` (`C` is the
//!   register, so the carry flag is `CF`);
//! - labels and EQUs of the program (case-sensitive, then case-insensitive if unambiguous);
//! - memory: `byte[addr]`, `word[addr]`, and `(HL)`, `(BC)`, `(DE)`, `(IX+d)`, `(IY+d)`, `(SP)` for the
//!   byte there; other parentheses group;
//! - operators, loosest first: `||`, `&&`, `== != = < <= > >=`, `|`, `^`, `&`, `<< >>`, `+ -`,
//!   `* / %`, unary `- ~ !`. Values are 64-bit signed integers; comparisons give 1 or 0.

use std::fmt;

/// What expressions read: registers, memory and symbols.
pub trait Env {
    /// A register, pair or flag by its upper-case name, or `None` if no such name.
    fn register(&self, name: &str) -> Option<i64>;
    fn byte(&self, addr: u16) -> u8;
    /// A symbol's value.
    fn symbol(&self, name: &str) -> Option<i64>;
}

/// A parse or evaluation error, with the column it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at column {})", self.message, self.at + 1)
    }
}

impl std::error::Error for ExprError {}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    /// A name: register, flag or symbol, resolved when evaluated.
    Name(String, usize),
    Byte(Box<Expr>),
    Word(Box<Expr>),
    Unary(char, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
}

/// Parses a whole expression.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let e = p.expr(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err(format!("unexpected `{}`", &text[p.i..])));
    }
    Ok(e)
}

/// Parses and evaluates.
pub fn eval_str(text: &str, env: &dyn Env) -> Result<i64, ExprError> {
    parse(text)?.eval(env)
}

/// Binary operators by precedence level, loosest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["==", "!=", "<=", ">=", "<", ">", "="],
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

/// Nesting limit, so that a hostile expression cannot overflow the stack.
const MAX_DEPTH: usize = 200;

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, message: String) -> ExprError {
        ExprError { at: self.i, message }
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek_op(&mut self, ops: &[&'static str]) -> Option<&'static str> {
        self.ws();
        let rest = &self.s[self.i..];
        ops.iter().copied().find(|op| {
            rest.starts_with(op.as_bytes())
                // `|` and `&` must not be the start of `||` / `&&`; `<` not of `<<`; `=` not `==`.
                && !(op.len() == 1 && rest.len() > 1 && rest[1] == rest[0] && b"|&<>=".contains(&rest[0]))
        })
    }
    fn expr(&mut self, level: usize) -> Result<Expr, ExprError> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.expr(level + 1)?;
        while let Some(op) = self.peek_op(LEVELS[level]) {
            self.i += op.len();
            let right = self.expr(level + 1)?;
            let op = if op == "=" { "==" } else { op };
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }
    fn unary(&mut self) -> Result<Expr, ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("expression nested too deeply".into()));
        }
        self.ws();
        let r = match self.s.get(self.i) {
            Some(&c @ (b'-' | b'~' | b'!' | b'+')) => {
                self.i += 1;
                let e = self.unary()?;
                Ok(if c == b'+' {
                    e
                } else {
                    Expr::Unary(c as char, Box::new(e))
                })
            }
            _ => self.atom(),
        };
        self.depth -= 1;
        r
    }
    fn atom(&mut self) -> Result<Expr, ExprError> {
        self.ws();
        let start = self.i;
        let Some(&c) = self.s.get(self.i) else {
            return Err(self.err("expected a value".into()));
        };
        if c == b'(' {
            self.i += 1;
            let inner = self.expr(0)?;
            self.ws();
            if self.s.get(self.i) != Some(&b')') {
                return Err(self.err("expected `)`".into()));
            }
            self.i += 1;
            // `(HL)`, `(IX+d)`... read memory, as in the assembler; other parentheses group.
            return Ok(if indirects(&inner) {
                Expr::Byte(Box::new(inner))
            } else {
                inner
            });
        }
        if c == b'\'' {
            if self.s.get(self.i + 2) == Some(&b'\'') {
                self.i += 3;
                return Ok(Expr::Num(self.s[start + 1] as i64));
            }
            return Err(self.err("expected a character constant like 'A'".into()));
        }
        if c == b'$' || c == b'%' || c.is_ascii_digit() {
            self.i += 1;
            while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric()) {
                self.i += 1;
            }
            let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            return number(text).map(Expr::Num).ok_or(ExprError {
                at: start,
                message: format!("`{text}` is not a number"),
            });
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'.' {
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric() || b"_.'".contains(&self.s[self.i]))
            {
                self.i += 1;
            }
            let name = std::str::from_utf8(&self.s[start..self.i])
                .unwrap_or("")
                .to_string();
            self.ws();
            let lower = name.to_ascii_lowercase();
            if (lower == "byte" || lower == "word") && self.s.get(self.i) == Some(&b'[') {
                self.i += 1;
                let inner = self.expr(0)?;
                self.ws();
                if self.s.get(self.i) != Some(&b']') {
                    return Err(self.err("expected `]`".into()));
                }
                self.i += 1;
                return Ok(if lower == "byte" {
                    Expr::Byte(Box::new(inner))
                } else {
                    Expr::Word(Box::new(inner))
                });
            }
            return Ok(Expr::Name(name, start));
        }
        Err(self.err(format!("unexpected `{}`", c as char)))
    }
}

/// Whether a parenthesised expression is a register indirection: a 16-bit register, or IX/IY
/// plus or minus something.
fn indirects(e: &Expr) -> bool {
    let is_pair = |e: &Expr, set: &[&str]| matches!(e, Expr::Name(n, _) if set.iter().any(|r| n.eq_ignore_ascii_case(r)));
    match e {
        Expr::Name(..) => is_pair(e, &["HL", "BC", "DE", "SP", "IX", "IY"]),
        Expr::Binary("+" | "-", l, _) => is_pair(l, &["IX", "IY"]),
        _ => false,
    }
}

/// A number in any of the assembler's notations.
pub fn number(text: &str) -> Option<i64> {
    let t = text.trim();
    let (digits, radix) = if let Some(h) = t.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix('%') {
        (b, 2)
    } else if let Some(h) = t.strip_suffix('h').or_else(|| t.strip_suffix('H')) {
        (h, 16)
    } else if t.len() > 1
        && let Some(b) = t.strip_suffix('b').or_else(|| t.strip_suffix('B'))
        && b.bytes().all(|c| c == b'0' || c == b'1')
    {
        (b, 2)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    i64::from_str_radix(digits, radix).ok()
}

impl Expr {
    pub fn eval(&self, env: &dyn Env) -> Result<i64, ExprError> {
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Name(name, at) => resolve(name, env).ok_or(ExprError {
                at: *at,
                message: format!("no register, flag or symbol named `{name}`"),
            })?,
            Expr::Byte(a) => env.byte(a.eval(env)? as u16) as i64,
            Expr::Word(a) => {
                let a = a.eval(env)? as u16;
                env.byte(a) as i64 | (env.byte(a.wrapping_add(1)) as i64) << 8
            }
            Expr::Unary(op, e) => {
                let v = e.eval(env)?;
                match op {
                    '-' => v.wrapping_neg(),
                    '~' => !v,
                    _ => (v == 0) as i64,
                }
            }
            Expr::Binary(op, l, r) => {
                let a = l.eval(env)?;
                // Short-circuit as in C, so `HL != 0 && byte[HL] == 2` is safe to write.
                if *op == "&&" && a == 0 {
                    return Ok(0);
                }
                if *op == "||" && a != 0 {
                    return Ok(1);
                }
                let b = r.eval(env)?;
                match *op {
                    "||" | "&&" => (b != 0) as i64,
                    "==" => (a == b) as i64,
                    "!=" => (a != b) as i64,
                    "<" => (a < b) as i64,
                    "<=" => (a <= b) as i64,
                    ">" => (a > b) as i64,
                    ">=" => (a >= b) as i64,
                    "|" => a | b,
                    "^" => a ^ b,
                    "&" => a & b,
                    // Shifts of 64 places or more shift everything out (a plain `<<` of 64 would
                    // wrap the count round to 0 and leave the value as it was).
                    "<<" => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)).unwrap_or(0),
                    ">>" => a >> b.clamp(0, 63),
                    "+" => a.wrapping_add(b),
                    "-" => a.wrapping_sub(b),
                    "*" => a.wrapping_mul(b),
                    "/" | "%" if b == 0 => {
                        return Err(ExprError {
                            at: 0,
                            message: "division by zero".into(),
                        });
                    }
                    "/" => a.wrapping_div(b),
                    _ => a.wrapping_rem(b),
                }
            }
        })
    }
}

fn resolve(name: &str, env: &dyn Env) -> Option<i64> {
    // A symbol spelled exactly wins over a register of the same name in another case (a label
    // `hl` is unusual, but then the user meant it).
    if let Some(v) = env.symbol(name)
        && env.register(&name.to_ascii_uppercase()).is_none()
    {
        return Some(v);
    }
    env.register(&name.to_ascii_uppercase())
        .or_else(|| env.symbol(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct T {
        regs: HashMap<&'static str, i64>,
        mem: Vec<u8>,
        syms: HashMap<&'static str, i64>,
    }
    impl Env for T {
        fn register(&self, name: &str) -> Option<i64> {
            self.regs.get(name).copied()
        }
        fn byte(&self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn symbol(&self, name: &str) -> Option<i64> {
            self.syms.get(name).copied()
        }
    }

    fn env() -> T {
        let mut mem = vec![0u8; 0x10000];
        mem[0x9000] = 0x34;
        mem[0x9001] = 0x12;
        mem[0x9005] = 7;
        T {
            regs: [("A", 2), ("HL", 0x9000), ("IX", 0x9003), ("ZF", 1), ("C", 9)].into(),
            mem,
            syms: [("Board", 0x9000), ("XSIZE", 7)].into(),
        }
    }

    fn ev(s: &str) -> Result<i64, ExprError> {
        eval_str(s, &env())
    }

    #[test]
    fn numbers_in_every_notation() {
        for s in ["42", "$2A", "0x2A", "2Ah", "%101010", "101010b", "'*'"] {
            assert_eq!(ev(s), Ok(42), "{s}");
        }
    }

    #[test]
    fn registers_symbols_memory_and_precedence() {
        assert_eq!(ev("A == 2"), Ok(1));
        assert_eq!(ev("a = 3"), Ok(0));
        assert_eq!(ev("(HL)"), Ok(0x34));
        assert_eq!(ev("(IX+2)"), Ok(7));
        assert_eq!(ev("word[Board]"), Ok(0x1234));
        assert_eq!(ev("byte[Board+5] + XSIZE*2"), Ok(21));
        assert_eq!(ev("(1+2)*3"), Ok(9));
        assert_eq!(ev("1 + 2 << 1"), Ok(6));
        assert_eq!(ev("1 << 64"), Ok(0));
        assert_eq!(ev("1 << 63"), Ok(i64::MIN));
        assert_eq!(ev("-8 >> 70"), Ok(-1));
        assert_eq!(ev("ZF && C > 8 || 0"), Ok(1));
        assert_eq!(ev("-1 & $FF"), Ok(255));
        assert_eq!(ev("!0 + ~0"), Ok(0));
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(
            ev("Nope + 1").unwrap_err().message,
            "no register, flag or symbol named `Nope`"
        );
        assert_eq!(ev("1 +").unwrap_err().at, 3);
        assert!(ev("1/0").is_err());
        assert!(ev("(1").is_err());
        assert!(ev("$").is_err());
        assert!(
            ev(&"(".repeat(10_000)).is_err(),
            "deep nesting is an error, not a crash"
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,40}") {
            let _ = ev(&s);
        }
    }
}
