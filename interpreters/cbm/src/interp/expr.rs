//! FRMEVL: expressions with the ROM's precedences (^ 7F, unary minus 7D, * / 7B, + - 79,
//! comparisons 64, NOT 5A, AND 50, OR 46), its type checks and its functions.

use std::cmp::Ordering;

use super::error::{BasicError, Result};
use super::strings::Str;
use super::vars::{Kind, Name, Place};
use super::{Interp, zp};
use crate::float::{Fac, rnd};
use crate::tokens as t;

/// A value: a number in the FAC, or a string.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    Num(Fac),
    Str(Str),
}

/// The 6502 stack bytes the ROM's expression evaluator holds beyond the level where FRMEVL
/// checks the stack (see EXPR_ROOM in mod.rs), measured against cbmbasic at every residue of
/// the FOR/GOSUB stack: a pending operator with its left operand (an operand, its
/// precedence, its routine's address: DOPREC, PUSHF) or a unary minus or NOT, a parenthesis
/// (EVAL, PARCHK), a function's argument, FRMNUM's and GETBYT's calls, an array's subscripts
/// (the first and the rest: `SUBSCRIPT_FIRST` and `SUBSCRIPT_NEXT` in vars.rs), FN's argument and body, LEFT$/RIGHT$/MID$'s arguments, and the
/// right side of a string `+` (CAT pushes the left string and calls EVAL, no FRMEVL).
const PENDING: usize = 12;
const PAREN: usize = 5;
const FUNCTION_ARG: usize = 8;
const FRMNUM: usize = 2;
const GETBYT: usize = 2;
const FN_ARG: usize = 7;
const FN_BODY: usize = 14;
const SLICE_STRING: usize = 6;
const SLICE_FIRST: usize = 8;
const SLICE_SECOND: usize = 10;
const CAT: usize = 2;
/// LET pushes INTFLG and VALTYP before it calls FRMEVL.
pub(super) const LET_PUSHES: usize = 2;

impl Interp {
    /// FRMEVL: checks the stack as its GETSTK does, then evaluates.
    pub(super) fn expr(&mut self) -> Result<Value> {
        self.getstk()?;
        // A whole expression that is one cached number or variable (a subscript, a FOR's
        // bounds, `A=K`) is its value, with no operator loop.
        self.peekc();
        match self.cached_leaf() {
            Some(v) if precedence(self.peekc()) == 0 => Ok(v),
            Some(v) => self.binary_rest(0, v),
            None => {
                let v = self.unary()?;
                self.binary_rest(0, v)
            }
        }
    }

    /// FRMEVL's GETSTK: ?OUT OF MEMORY when FOR/GOSUB entries and the expression hold more
    /// than the room there is.
    #[inline(always)]
    pub(super) fn getstk(&self) -> Result<()> {
        if self.state.stack_bytes + self.depth > super::EXPR_ROOM {
            return Err(BasicError::OutOfMemory);
        }
        Ok(())
    }

    /// Runs `f` with `bytes` more of the 6502 stack in use.
    #[inline(always)]
    pub(super) fn deeper<T>(&mut self, bytes: usize, f: impl FnOnce(&mut Interp) -> Result<T>) -> Result<T> {
        self.depth += bytes;
        let v = f(self);
        self.depth -= bytes;
        v
    }

    /// FRMNUM: a numeric expression (?TYPE MISMATCH for a string).
    pub(super) fn expr_num(&mut self) -> Result<Fac> {
        match self.deeper(FRMNUM, Interp::expr)? {
            Value::Num(f) => Ok(f),
            Value::Str(_) => Err(BasicError::TypeMismatch),
        }
    }

    /// A string expression (?TYPE MISMATCH for a number).
    pub(super) fn expr_str(&mut self) -> Result<Str> {
        match self.expr()? {
            Value::Str(s) => Ok(s),
            Value::Num(_) => Err(BasicError::TypeMismatch),
        }
    }

    /// GETBYT: a numeric expression 0-255.
    pub(super) fn expr_byte(&mut self) -> Result<u8> {
        Ok(self.deeper(GETBYT, Interp::expr_num)?.to_u8()?)
    }

    /// GETADR (FRMNUM from a statement's GETNUM): a numeric expression 0-65535.
    pub(super) fn expr_addr(&mut self) -> Result<u16> {
        Ok(self.deeper(GETBYT, Interp::expr_num)?.to_u16()?)
    }

    fn binary(&mut self, min: u8) -> Result<Value> {
        // Most operands are a number or a simple variable read here before: take them from
        // the text cache without going through UNARY and EVAL (same value, same TXTPTR).
        self.peekc();
        let lhs = match self.cached_leaf() {
            Some(v) => v,
            None => self.unary()?,
        };
        self.binary_rest(min, lhs)
    }

    /// The operators after the left operand `lhs`, up to one of precedence `min` or lower.
    fn binary_rest(&mut self, min: u8, mut lhs: Value) -> Result<Value> {
        loop {
            let c = self.peekc();
            let prec = precedence(c);
            if prec <= min {
                return Ok(lhs);
            }
            self.state.pos += 1;
            if prec == 0x64 {
                lhs = self.comparison(c, lhs)?;
                continue;
            }
            let rhs = if c == t::PLUS && matches!(lhs, Value::Str(_)) {
                // CAT: the left string pushed, then EVAL without FRMEVL's check.
                self.deeper(CAT, |it| it.binary(prec))?
            } else {
                self.operand(prec)?
            };
            lhs = self.arith(c, lhs, rhs)?;
        }
    }

    /// LPOPER's right operand, as `operand` reads it, without a level of `binary` when it is
    /// a cached number or variable and the operator after it binds no tighter than `prec`
    /// (the commonest case: `K+1`, `K/2*3`). The same stack check, value and TXTPTR.
    #[inline(always)]
    fn operand(&mut self, prec: u8) -> Result<Value> {
        self.depth += PENDING;
        let v = self.operand_at_depth(prec);
        self.depth -= PENDING;
        v
    }

    #[inline(always)]
    fn operand_at_depth(&mut self, prec: u8) -> Result<Value> {
        self.getstk()?;
        self.peekc();
        match self.cached_leaf() {
            Some(v) if precedence(self.peekc()) <= prec => Ok(v),
            Some(v) => self.binary_rest(prec, v),
            None => {
                let v = self.unary()?;
                self.binary_rest(prec, v)
            }
        }
    }

    /// A run of > = < after the left operand `lhs` (its first operator `c` read): one
    /// comparison, bit 0 '>', bit 1 '=', bit 2 '<'.
    fn comparison(&mut self, c: u8, lhs: Value) -> Result<Value> {
        let mut mask = rel_bit(c);
        loop {
            let c = self.peekc();
            if !matches!(c, t::GREATER | t::EQUAL | t::LESS) {
                break;
            }
            let bit = rel_bit(c);
            if mask & bit != 0 {
                return Err(BasicError::Syntax);
            }
            mask |= bit;
            self.state.pos += 1;
        }
        let rhs = self.operand(0x64)?;
        self.compare(lhs, rhs, mask)
    }

    fn unary(&mut self) -> Result<Value> {
        match self.peekc() {
            t::MINUS => {
                self.state.pos += 1;
                let v = self.operand(0x7D)?;
                match v {
                    Value::Num(f) => Ok(Value::Num(f.negated())),
                    Value::Str(_) => Err(BasicError::TypeMismatch),
                }
            }
            t::NOT => {
                self.state.pos += 1;
                let v = self.operand(0x5A)?;
                match v {
                    Value::Num(f) => Ok(Value::Num(Fac::from_i16(!f.to_i16()?))),
                    Value::Str(_) => Err(BasicError::TypeMismatch),
                }
            }
            _ => self.primary(),
        }
    }

    fn arith(&mut self, op: u8, lhs: Value, rhs: Value) -> Result<Value> {
        let (a, b) = match (lhs, rhs) {
            (Value::Num(a), Value::Num(b)) => (a, b),
            (Value::Str(a), Value::Str(b)) if op == t::PLUS => {
                return Ok(Value::Str(self.concat(a, b)?));
            }
            _ => return Err(BasicError::TypeMismatch),
        };
        Ok(Value::Num(match op {
            t::PLUS => a.plus(b)?,
            t::MINUS => a.minus(b)?,
            t::TIMES => a.times(b)?,
            t::DIVIDE => a.divided_by(b)?,
            t::POWER => a.pow_charac(b, &mut self.mem[zp::CHARAC])?,
            t::AND => Fac::from_i16(a.to_i16()? & b.to_i16()?),
            _ => Fac::from_i16(a.to_i16()? | b.to_i16()?),
        }))
    }

    fn compare(&mut self, lhs: Value, rhs: Value, mask: u8) -> Result<Value> {
        let ord = match (lhs, rhs) {
            (Value::Num(a), Value::Num(b)) => a.compare(b)?,
            (Value::Str(a), Value::Str(b)) => {
                let ord = self.str_bytes(a).cmp(self.str_bytes(b));
                self.free_str(b);
                self.free_str(a);
                ord
            }
            _ => return Err(BasicError::TypeMismatch),
        };
        let bit = match ord {
            Ordering::Greater => 1,
            Ordering::Equal => 2,
            Ordering::Less => 4,
        };
        Ok(Value::Num(if mask & bit != 0 {
            Fac::from_i16(-1)
        } else {
            Fac::ZERO
        }))
    }

    /// A subscript the text cache knows (a number, or a simple variable read there before),
    /// read at the depth its FRMEVL has: `bytes` pushed by the subscript's caller, plus FRMNUM's.
    /// Its value; None when it is another kind of subscript or the stack is full (the long way
    /// then reads it and reports the error). The caller puts TXTPTR back on None.
    #[inline]
    pub(super) fn cached_subscript(&mut self, bytes: usize) -> Option<Fac> {
        let bytes = bytes + FRMNUM;
        self.depth += bytes;
        let leaf = match self.getstk() {
            Ok(()) => self.cached_leaf(),
            Err(_) => None,
        };
        self.depth -= bytes;
        match leaf {
            Some(Value::Num(v)) => Some(v),
            _ => None,
        }
    }

    /// An operand at TXTPTR (spaces skipped) that the text cache knows: a number FIN read
    /// there, or a simple variable the name there found; None (nothing read) otherwise. What
    /// EVAL would give, by the same cache EVAL itself uses.
    #[inline(always)]
    pub(super) fn cached_leaf(&mut self) -> Option<Value> {
        let at = self.state.pos;
        match self.mem[at] {
            b'A'..=b'Z' => {
                let (var, kind, len) = self.cache.simple_var(at)?;
                self.state.pos = at + len as usize;
                self.name_at = Some(at);
                Some(self.read_place(Place { addr: var + 2, kind }))
            }
            b'0'..=b'9' | b'.' => {
                let (v, len) = self.cache.number(at)?;
                self.state.pos = at + len as usize;
                Some(Value::Num(v))
            }
            _ => None,
        }
    }

    /// EVAL: one operand.
    fn primary(&mut self) -> Result<Value> {
        let c = self.peekc();
        match c {
            b'0'..=b'9' | b'.' => Ok(Value::Num(self.number_at_txtptr()?)),
            b'"' => {
                self.state.pos += 1;
                // STRLIT scans to the closing quote held in CHARAC.
                self.mem[zp::CHARAC] = b'"';
                let start = self.state.pos;
                while !matches!(self.mem[self.state.pos], 0 | b'"') {
                    self.state.pos += 1;
                }
                let len = u8::try_from(self.state.pos - start).map_err(|_| BasicError::StringTooLong)?;
                if self.mem[self.state.pos] == b'"' {
                    self.state.pos += 1;
                }
                if start < 0x0300 {
                    // A literal typed in direct mode is copied out of the input buffer.
                    let bytes = self.mem[start..start + len as usize].to_vec();
                    return Ok(Value::Str(self.new_str(&bytes)?));
                }
                Ok(Value::Str(self.push_temp(len, start as u16)?))
            }
            t::PI => {
                self.state.pos += 1;
                Ok(Value::Num(Fac::PI))
            }
            t::PLUS => {
                self.state.pos += 1;
                self.primary()
            }
            t::MINUS | t::NOT => self.unary(),
            b'(' => {
                self.state.pos += 1;
                let v = self.deeper(PAREN, Interp::expr)?;
                self.expect(b')')?;
                Ok(v)
            }
            b'A'..=b'Z' => {
                // A variable this text found before: straight to its value.
                let at = self.state.pos;
                if let Some((var, kind, len)) = self.cache.simple_var(at) {
                    self.state.pos = at + len as usize;
                    self.name_at = Some(at);
                    return Ok(self.read_place(Place { addr: var + 2, kind }));
                }
                self.variable_value()
            }
            t::FN => {
                self.state.pos += 1;
                self.call_fn()
            }
            0xB4..=0xCA => {
                self.state.pos += 1;
                self.function(c)
            }
            _ => Err(BasicError::Syntax),
        }
    }

    /// ISVAR: a variable's value. A simple variable that does not exist reads as 0 or "" and is
    /// not created (the ROM's PTRGET makes that exception for FRMEVL).
    fn variable_value(&mut self) -> Result<Value> {
        let (name, paren) = self.parse_name(true)?;
        if paren {
            let addr = self.array_elem(name)?;
            return Ok(self.read_place(Place {
                addr,
                kind: name.kind,
            }));
        }
        if name.is_reserved() {
            return self.reserved_value(name);
        }
        match self.find_named_var(name.n1, name.n2) {
            Some(at) => Ok(self.read_place(Place {
                addr: at + 2,
                kind: name.kind,
            })),
            None => Ok(match name.kind {
                Kind::Str => Value::Str(Str {
                    len: 0,
                    addr: 0,
                    temp: false,
                }),
                _ => Value::Num(Fac::ZERO),
            }),
        }
    }

    #[inline(always)]
    pub(super) fn read_place(&self, p: Place) -> Value {
        match p.kind {
            Kind::Str => Value::Str(self.load_str(p.addr)),
            _ => Value::Num(self.load_num(p)),
        }
    }

    fn reserved_value(&mut self, name: Name) -> Result<Value> {
        Ok(match (name.n1, name.n2) {
            (b'T', b'I') => Value::Num(Fac::from_u32(self.ti())),
            (b'S', b'T') => Value::Num(Fac::from_u8(self.mem[zp::STATUS])),
            _ => {
                let t = self.ti();
                let (h, m, s) = (t / 216_000, t / 3600 % 60, t / 60 % 60);
                let text = format!("{h:02}{m:02}{s:02}");
                self.mem[zp::CHARAC] = b'"';
                Value::Str(self.new_str(text.as_bytes())?)
            }
        })
    }

    /// FN name(arg): the definition's parameter takes the argument's value while its body is
    /// evaluated, then gets its old value back.
    fn call_fn(&mut self) -> Result<Value> {
        let (name, _) = self.parse_name(false)?;
        if name.kind != Kind::Float {
            return Err(BasicError::Syntax);
        }
        self.expect(b'(')?;
        let arg = self.deeper(FN_ARG, Interp::expr_num)?;
        self.expect(b')')?;
        let def = self
            .find_var(name.n1 | 0x80, name.n2)
            .ok_or(BasicError::UndefdFunction)? as usize;
        let body = self.word(def + 2) as usize;
        let param = self.word(def + 4) as usize;
        let mut saved = [0u8; 5];
        saved.copy_from_slice(&self.mem[param..param + 5]);
        self.store_num(
            Place {
                addr: param as u16,
                kind: Kind::Float,
            },
            arg,
        )?;
        let here = self.state.pos;
        self.state.pos = body;
        let v = self.deeper(FN_BODY, Interp::expr_num);
        let end_ok = matches!(self.peekc(), 0 | b':');
        self.state.pos = here;
        self.mem[param..param + 5].copy_from_slice(&saved);
        let v = v?;
        if !end_ok {
            return Err(BasicError::Syntax);
        }
        Ok(Value::Num(v))
    }

    /// The functions SGN .. MID$.
    fn function(&mut self, tok: u8) -> Result<Value> {
        if (0xC8..=0xCA).contains(&tok) {
            return self.string_slice(tok);
        }
        self.expect(b'(')?;
        let arg = self.deeper(FUNCTION_ARG, Interp::expr)?;
        self.expect(b')')?;
        let num = |v: Value| match v {
            Value::Num(f) => Ok(f),
            Value::Str(_) => Err(BasicError::TypeMismatch),
        };
        let f = match tok {
            0xB4 => num(arg)?.sgn(),
            0xB5 => num(arg)?.int_charac(&mut self.mem[zp::CHARAC]),
            0xB6 => num(arg)?.abs(),
            0xB7 => {
                let _ = num(arg)?;
                let addr = self.word(0x0311);
                return Err(self.machine_code("USR", addr));
            }
            0xB8 => {
                if let Value::Str(s) = arg {
                    self.free_str(s);
                }
                self.collect_garbage();
                let free = self.word(zp::FRETOP).wrapping_sub(self.word(zp::STREND));
                Fac::from_i16(free as i16)
            }
            0xB9 => {
                let _ = num(arg)?;
                Fac::from_u8(self.column())
            }
            0xBA => num(arg)?.sqr_charac(&mut self.mem[zp::CHARAC])?,
            0xBB => {
                let clock = self.cia_clock();
                rnd(num(arg)?, &mut self.state.seed, clock)?
            }
            0xBC => num(arg)?.log()?,
            0xBD => num(arg)?.exp_charac(&mut self.mem[zp::CHARAC])?,
            0xBE => num(arg)?.cos_charac(&mut self.mem[zp::CHARAC])?,
            0xBF => num(arg)?.sin_charac(&mut self.mem[zp::CHARAC])?,
            0xC0 => num(arg)?.tan_charac(&mut self.mem[zp::CHARAC])?,
            0xC1 => num(arg)?.atn()?,
            0xC2 => {
                let a = num(arg)?.to_u16()?;
                Fac::from_u8(self.peek(a))
            }
            0xC3 | 0xC6 | 0xC5 => {
                let Value::Str(s) = arg else {
                    return Err(BasicError::TypeMismatch);
                };
                let empty_val = self.val_of_empty(s);
                self.free_str(s);
                match tok {
                    0xC3 => Fac::from_u8(s.len),
                    0xC6 => {
                        if s.len == 0 {
                            return Err(BasicError::IllegalQuantity);
                        }
                        Fac::from_u8(self.mem[s.addr as usize])
                    }
                    _ if s.len == 0 => empty_val,
                    _ => {
                        let bytes = self.str_bytes(s).to_vec();
                        Fac::parse(&bytes)?.value
                    }
                }
            }
            0xC4 => {
                let f = num(arg)?;
                let text = f.fout();
                // STR$ makes FOUT's text a string with STRLIT.
                self.mem[zp::CHARAC] = b'"';
                return Ok(Value::Str(self.new_str(text.as_bytes())?));
            }
            0xC7 => {
                let b = num(arg)?.to_u8()?;
                return Ok(Value::Str(self.new_str(&[b])?));
            }
            _ => return Err(BasicError::Syntax),
        };
        Ok(Value::Num(f))
    }

    /// VAL of the empty string `s`: the ROM clears only the FAC's exponent and sign (ZERO_FAC),
    /// so the zero keeps the rest of the FAC, which shows when it is stored. For a temporary
    /// string (a literal, a computed string) the FAC holds the descriptor STRLIT or STRINI
    /// built there: the string's address, then the address of its slot on the temporary
    /// descriptor stack (TEMPST, $19, 3 bytes a slot). For a variable the first two bytes are
    /// whatever the last number left; this interpreter does not keep those, so that case gives
    /// a clean zero (docs/cbm-basic.md says so).
    fn val_of_empty(&self, s: Str) -> Fac {
        let slot = self
            .state
            .temps
            .iter()
            .rposition(|&t| s.temp && t == (s.len, s.addr));
        match slot {
            Some(i) => {
                let [lo, hi] = s.addr.to_le_bytes();
                let [dlo, dhi] = (0x19 + 3 * i as u16).to_le_bytes();
                Fac {
                    exp: 0,
                    mant: u32::from_be_bytes([lo, hi, dlo, dhi]),
                    neg: false,
                    ext: 0,
                }
            }
            None => Fac::ZERO,
        }
    }

    /// LEFT$(s, n), RIGHT$(s, n), MID$(s, i[, n]).
    fn string_slice(&mut self, tok: u8) -> Result<Value> {
        self.expect(b'(')?;
        let s = self.deeper(SLICE_STRING, Interp::expr_str)?;
        self.expect(b',')?;
        let n = self.deeper(SLICE_FIRST, Interp::expr_byte)? as usize;
        let mut count = 255usize;
        if tok == t::MID && self.peekc() == b',' {
            self.state.pos += 1;
            count = self.deeper(SLICE_SECOND, Interp::expr_byte)? as usize;
        }
        self.expect(b')')?;
        let len = s.len as usize;
        let (start, take) = match tok {
            0xC8 => (0, n.min(len)),
            0xC9 => (len - n.min(len), n.min(len)),
            _ => {
                if n == 0 {
                    return Err(BasicError::IllegalQuantity);
                }
                let start = (n - 1).min(len);
                (start, count.min(len - start))
            }
        };
        Ok(Value::Str(self.substr(s, start, take)?))
    }

    pub(super) fn machine_code(&mut self, what: &'static str, addr: u16) -> BasicError {
        self.machine_call = Some((what, addr));
        BasicError::Syntax
    }
}

/// An operator's precedence, as the ROM's table has it; 0 for a byte that is not an operator
/// (it ends the expression at any level).
#[inline(always)]
fn precedence(c: u8) -> u8 {
    // One load from a table: a `match` here became a jump table, an indirect jump for every
    // operator and every operand's end, which the branch predictor often got wrong.
    PRECEDENCE[c as usize]
}

/// [`precedence`] of every byte.
static PRECEDENCE: [u8; 256] = {
    let mut p = [0u8; 256];
    p[t::PLUS as usize] = 0x79;
    p[t::MINUS as usize] = 0x79;
    p[t::TIMES as usize] = 0x7B;
    p[t::DIVIDE as usize] = 0x7B;
    p[t::POWER as usize] = 0x7F;
    p[t::AND as usize] = 0x50;
    p[t::OR as usize] = 0x46;
    p[t::GREATER as usize] = 0x64;
    p[t::EQUAL as usize] = 0x64;
    p[t::LESS as usize] = 0x64;
    p
};

fn rel_bit(c: u8) -> u8 {
    match c {
        t::GREATER => 1,
        t::EQUAL => 2,
        _ => 4,
    }
}
