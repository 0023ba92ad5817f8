//! Whole arrays, as BASIC V has them: `a()=b()`, element-wise arithmetic with arrays and numbers,
//! `a()=list,...`, the `.` matrix product, `a()+=x`, SUM, SUMLEN, `DIM(a())`, `DIM(a(),n)`, SWAP
//! of arrays, LOCAL arrays and arrays passed to PROC/FN by reference.
//!
//! Every array name has one slot in `Interp::arrays` for the life of the run, and the caches
//! (`arr_site`, compiled expressions, quickened statements) hold slots, never array contents. A
//! LOCAL array or an array parameter therefore moves arrays between slots and back (see
//! [`Frame::ArraySave`]) instead of renaming: nothing cached ever needs forgetting, and the
//! cached paths re-check an element's dimensions and type on every access anyway.
//!
//! While a routine runs with `x()` bound to the caller's `a()`, `a()`'s slot holds a stand-in
//! that names `x()`'s slot ([`Array::alias`]): the byte path follows it, so both names are one
//! array, as on RISC OS, which passes the array block itself; the cached paths see a stand-in
//! with no dimensions and leave the access to the byte path.

use super::error;
use super::expr::binop_values;
use super::value::Val;
use super::{Array, ArrayData, Frame, Interp, MAX_STRING, R};
use crate::tokens as tok;

/// A value in an array expression: a plain value or a whole array (dimensions and elements).
pub(super) enum ArrVal {
    Scalar(Val),
    Array(Vec<u32>, Vec<Val>),
}

impl Array {
    /// An array name that exists (LOCAL, or bound as a parameter) but has no DIM yet.
    pub(super) fn undimensioned(local: bool) -> Array {
        Array {
            dims: Vec::new(),
            data: ArrayData::Float(Vec::new()),
            local,
            alias: None,
        }
    }

    fn values(&self) -> Vec<Val> {
        match &self.data {
            ArrayData::Int(d) => d.iter().map(|&x| Val::Int(x)).collect(),
            ArrayData::Float(d) => d.iter().map(|&x| Val::Float(x)).collect(),
            ArrayData::Str(d) => d.iter().map(|s| Val::Str(s.clone())).collect(),
        }
    }

    fn len(&self) -> usize {
        match &self.data {
            ArrayData::Int(d) => d.len(),
            ArrayData::Float(d) => d.len(),
            ArrayData::Str(d) => d.len(),
        }
    }
}

impl Interp {
    /// If a whole-array reference `name()` starts at `p` (after spaces): where its name key ends
    /// (after the `(`) and where the reference ends (after the `)`).
    pub(super) fn whole_array_at(&self, mut p: usize) -> Option<(usize, usize, usize)> {
        while self.at(p) == b' ' {
            p += 1;
        }
        let first = self.at(p);
        if !(tok::is_word_char(first) || first == b'@') || first.is_ascii_digit() {
            return None;
        }
        let (end, arr, _) = self.scan_name(p);
        let mut q = end;
        while self.at(q) == b' ' {
            q += 1;
        }
        (arr && self.at(q) == b')').then_some((p, end, q + 1))
    }

    /// The slot of the array named by the key `mem[start..end]` (name with suffix and `(`),
    /// created undimensioned if `create` and unknown.
    pub(super) fn array_slot(&mut self, start: usize, end: usize, create: bool) -> R<u32> {
        let key = &self.mem[start..end];
        if let Some(&s) = self.array_names.get(key) {
            return Ok(s);
        }
        if !create {
            return Err(error::ARRAY.into());
        }
        let key: Box<[u8]> = key.into();
        let mut a = Array::undimensioned(false);
        a.data = empty_data(self.at(end - 2));
        self.arrays.push(a);
        let s = self.arrays.len() as u32 - 1;
        self.array_names.insert(key, s);
        Ok(s)
    }

    /// Reads `name()` at pc and returns its slot. With `dimensioned`, the array must have had
    /// its DIM.
    pub(super) fn whole_array(&mut self, dimensioned: bool) -> R<u32> {
        let Some((start, key_end, end)) = self.whole_array_at(self.pc) else {
            return Err(error::SYNTAX.into());
        };
        let s = self.array_slot(start, key_end, false)?;
        let s = self.array_home(s);
        if dimensioned && self.arrays[s as usize].dims.is_empty() {
            return Err(error::UNDIMENSIONED.into());
        }
        self.pc = end;
        Ok(s)
    }

    /// `name()=...` or `name() op= ...`; pc is at the name.
    #[inline(never)]
    pub(super) fn array_assignment(&mut self) -> R<()> {
        let slot = self.whole_array(true)?;
        let c = self.skip_spaces();
        let op = match c {
            b'=' => 0,
            b'+' | b'-' if self.at(self.pc + 1) == b'=' => {
                self.pc += 1;
                c
            }
            _ => return Err(error::MISTAKE.into()),
        };
        self.pc += 1;
        let rhs = self.arr_expr(1)?;
        let value = if op == 0 {
            rhs
        } else {
            let a = &self.arrays[slot as usize];
            let cur = ArrVal::Array(a.dims.clone(), a.values());
            arr_binop(op, cur, rhs)?
        };
        match value {
            ArrVal::Array(dims, vals) => {
                if dims != self.arrays[slot as usize].dims {
                    return Err(error::TYPE_MISMATCH.into());
                }
                for (i, v) in vals.into_iter().enumerate() {
                    self.store_element(slot, i, v)?;
                }
            }
            ArrVal::Scalar(v) => {
                if op == 0 && self.eat(b',') {
                    // A list: the elements in order from the first; the rest stay as they are.
                    let len = self.arrays[slot as usize].len();
                    self.store_element(slot, 0, v)?;
                    let mut i = 1;
                    loop {
                        let v = self.expr()?;
                        if i >= len {
                            return Err(error::SUBSCRIPT.into());
                        }
                        self.store_element(slot, i, v)?;
                        i += 1;
                        if !self.eat(b',') {
                            break;
                        }
                    }
                } else {
                    for i in 0..self.arrays[slot as usize].len() {
                        self.store_element(slot, i, v.clone())?;
                    }
                }
            }
        }
        self.end_stmt()
    }

    /// Stores `v` in element `i` of the array in `slot`, converted to the array's type.
    fn store_element(&mut self, slot: u32, i: usize, v: Val) -> R<()> {
        let data = &self.arrays[slot as usize].data;
        let v = match data {
            ArrayData::Int(_) => Val::Int(self.to_int(v)?),
            ArrayData::Float(_) => Val::Float(self.to_f64(v)?),
            ArrayData::Str(_) => Val::Str(self.to_str(v)?),
        };
        match (&mut self.arrays[slot as usize].data, v) {
            (ArrayData::Int(d), Val::Int(x)) => d[i] = x,
            (ArrayData::Float(d), Val::Float(x)) => d[i] = x,
            (ArrayData::Str(d), Val::Str(x)) => d[i] = x,
            _ => return Err(error::TYPE_MISMATCH.into()),
        }
        Ok(())
    }

    /// An expression whose operands may be whole arrays, operators of precedence `min` and
    /// tighter (as [`Interp::expr_prec`]), plus `.` (matrix product) at the level of `*`.
    fn arr_expr(&mut self, min: u8) -> R<ArrVal> {
        let mut a = self.arr_factor()?;
        loop {
            self.skip_spaces();
            if matches!(a, ArrVal::Array(..)) && self.at(self.pc) == b'.' && min <= 5 {
                self.pc += 1;
                let b = self.arr_factor()?;
                a = matrix_product(a, b)?;
                continue;
            }
            let (op, prec, len) = self.binop_at(self.pc);
            if prec < min || prec == 0 {
                return Ok(a);
            }
            self.pc += len;
            let b = if prec == 6 {
                self.arr_factor()?
            } else {
                self.arr_expr(prec + 1)?
            };
            a = arr_binop(op, a, b)?;
        }
    }

    /// `name()`, `-name()`, or a factor.
    fn arr_factor(&mut self) -> R<ArrVal> {
        let b = self.skip_spaces();
        let at = if b == b'-' { self.pc + 1 } else { self.pc };
        if self.whole_array_at(at).is_none() {
            return Ok(ArrVal::Scalar(self.factor()?));
        }
        self.pc = at;
        let s = self.whole_array(true)?;
        let a = &self.arrays[s as usize];
        let mut vals = a.values();
        if b == b'-' {
            for v in &mut vals {
                *v = match std::mem::take(v) {
                    Val::Int(i) => Val::Int(i.wrapping_neg()),
                    Val::Float(f) => Val::Float(-f),
                    Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
                };
            }
        }
        Ok(ArrVal::Array(self.arrays[s as usize].dims.clone(), vals))
    }

    /// SUM(a()), SUMLEN(a$()): pc is past SUM.
    pub(super) fn sum_fn(&mut self) -> R<Val> {
        let len = self.eat(tok::LEN);
        self.expect(b'(', error::MISSING_OPEN)?;
        let s = self.whole_array(true)?;
        self.expect(b')', error::MISSING_BRACKET)?;
        Ok(match (&self.arrays[s as usize].data, len) {
            (ArrayData::Str(d), true) => Val::Int(d.iter().map(|s| s.len() as i32).sum()),
            (_, true) => return Err(error::TYPE_MISMATCH.into()),
            // RISC OS adds an integer array's elements as integers, wrapping.
            (ArrayData::Int(d), false) => Val::Int(d.iter().fold(0i32, |t, &x| t.wrapping_add(x))),
            (ArrayData::Float(d), false) => Val::Float(d.iter().sum()),
            (ArrayData::Str(d), false) => {
                let mut t = Vec::new();
                for s in d {
                    if t.len() + s.len() > MAX_STRING {
                        return Err(error::STRING_TOO_LONG.into());
                    }
                    t.extend_from_slice(s);
                }
                Val::Str(t)
            }
        })
    }

    /// DIM(a()) (the number of dimensions) and DIM(a(),n) (the highest subscript of dimension
    /// n): pc is past DIM.
    pub(super) fn dim_fn(&mut self) -> R<Val> {
        self.expect(b'(', error::MISSING_OPEN)?;
        let s = self.whole_array(true)?;
        let n = if self.eat(b',') {
            Some(self.expr_int()?)
        } else {
            None
        };
        self.expect(b')', error::MISSING_BRACKET)?;
        let dims = &self.arrays[s as usize].dims;
        Ok(Val::Int(match n {
            None => dims.len() as i32,
            Some(n) if n >= 1 && n as usize <= dims.len() => dims[n as usize - 1] as i32 - 1,
            // RISC OS: a dimension the array does not have is out of range (15).
            Some(_) => return Err(error::SUBSCRIPT.into()),
        }))
    }

    /// SWAP a(),b(): pc is at the first name.
    pub(super) fn swap_arrays(&mut self) -> R<()> {
        let (start, key_end, _) = self.whole_array_at(self.pc).ok_or(error::SYNTAX)?;
        let ty_a = self.at(key_end - 2);
        let a = self.whole_array(true)?;
        self.expect(b',', error::MISSING_COMMA)?;
        let Some((_, key_end_b, _)) = self.whole_array_at(self.pc) else {
            return Err(error::TYPE_MISMATCH.into());
        };
        let ty_b = self.at(key_end_b - 2);
        let b = self.whole_array(true)?;
        let kind = |t: u8| if t == b'%' || t == b'$' { t } else { 0 };
        if kind(ty_a) != kind(ty_b) {
            return Err(error::TYPE_MISMATCH.into());
        }
        let _ = start;
        self.arrays.swap(a as usize, b as usize);
        self.end_stmt()
    }

    /// LOCAL name(): the array is saved and the name made undimensioned until the routine
    /// leaves; a DIM then gives it its local size. pc is at the name.
    pub(super) fn local_array(&mut self) -> R<()> {
        let (start, key_end, end) = self.whole_array_at(self.pc).ok_or(error::SYNTAX)?;
        let s = self.array_slot(start, key_end, true)?;
        self.pc = end;
        let mut fresh = Array::undimensioned(true);
        fresh.data = empty_data(self.at(key_end - 2));
        let old = std::mem::replace(&mut self.arrays[s as usize], fresh);
        self.push(
            Frame::ArraySave {
                slot: s,
                old,
                back: None,
            },
            error::DEEP_CALL,
        )
    }

    /// Binds the array formal parameter whose name is at `at` to the caller's array in
    /// `actual`: the caller's array moves into the formal's slot until the routine leaves.
    pub(super) fn bind_array(&mut self, at: usize, actual: u32) -> R<()> {
        let Some((start, key_end, _)) = self.whole_array_at(at) else {
            return Err(error::ARGUMENTS.into());
        };
        let formal = self.array_slot(start, key_end, true)?;
        let kind = |t: u8| if t == b'%' || t == b'$' { t } else { 0 };
        if kind(self.at(key_end - 2)) != kind(array_type(&self.arrays[actual as usize].data)) {
            return Err(error::TYPE_MISMATCH.into());
        }
        if formal == actual {
            return Ok(());
        }
        // The caller's name stays usable inside the routine: its slot points at the formal's.
        let mut stand_in = Array::undimensioned(false);
        stand_in.alias = Some(formal);
        let moved = std::mem::replace(&mut self.arrays[actual as usize], stand_in);
        let old = std::mem::replace(&mut self.arrays[formal as usize], moved);
        self.push(
            Frame::ArraySave {
                slot: formal,
                old,
                back: Some(actual),
            },
            error::DEEP_CALL,
        )
    }

    /// The slot holding the array that the name in slot `s` means: `s` itself, or where an
    /// array parameter binding moved it (followed through nested calls).
    pub(super) fn array_home(&self, mut s: u32) -> u32 {
        for _ in 0..self.arrays.len() {
            match self.arrays.get(s as usize).and_then(|a| a.alias) {
                Some(t) => s = t,
                None => break,
            }
        }
        s
    }

    /// Undoes a LOCAL array or an array parameter binding.
    pub(super) fn restore_array(&mut self, slot: u32, old: Array, back: Option<u32>) {
        let cur = std::mem::replace(&mut self.arrays[slot as usize], old);
        if let Some(b) = back {
            self.arrays[b as usize] = cur;
        }
    }
}

/// The type character of an array's elements (`%`, `$`, or 0 for floats).
fn array_type(d: &ArrayData) -> u8 {
    match d {
        ArrayData::Int(_) => b'%',
        ArrayData::Str(_) => b'$',
        ArrayData::Float(_) => 0,
    }
}

/// No elements, of the type the name's suffix says.
pub(super) fn empty_data(suffix: u8) -> ArrayData {
    match suffix {
        b'%' => ArrayData::Int(Vec::new()),
        b'$' => ArrayData::Str(Vec::new()),
        _ => ArrayData::Float(Vec::new()),
    }
}

/// A binary operator between arrays (element by element, same dimensions) or an array and a
/// value (the value with every element), or two values.
fn arr_binop(op: u8, a: ArrVal, b: ArrVal) -> R<ArrVal> {
    Ok(match (a, b) {
        (ArrVal::Scalar(x), ArrVal::Scalar(y)) => ArrVal::Scalar(binop_values(op, x, y)?),
        (ArrVal::Array(d, xs), ArrVal::Scalar(y)) => {
            let mut out = Vec::with_capacity(xs.len());
            for x in xs {
                out.push(binop_values(op, x, y.clone())?);
            }
            ArrVal::Array(d, out)
        }
        (ArrVal::Scalar(x), ArrVal::Array(d, ys)) => {
            let mut out = Vec::with_capacity(ys.len());
            for y in ys {
                out.push(binop_values(op, x.clone(), y)?);
            }
            ArrVal::Array(d, out)
        }
        (ArrVal::Array(d, xs), ArrVal::Array(e, ys)) => {
            if d != e {
                return Err(error::TYPE_MISMATCH.into());
            }
            let mut out = Vec::with_capacity(xs.len());
            for (x, y) in xs.into_iter().zip(ys) {
                out.push(binop_values(op, x, y)?);
            }
            ArrVal::Array(d, out)
        }
    })
}

/// The `.` product: matrix by matrix (m×n . n×p = m×p), vector by matrix (n . n×p = p) and
/// matrix by vector (m×n . n = m).
fn matrix_product(a: ArrVal, b: ArrVal) -> R<ArrVal> {
    let (ArrVal::Array(da, xa), ArrVal::Array(db, xb)) = (a, b) else {
        return Err(error::TYPE_MISMATCH.into());
    };
    let (m, n) = match da[..] {
        [n] => (1, n),
        [m, n] => (m, n),
        _ => return Err(error::TYPE_MISMATCH.into()),
    };
    let (n2, p) = match db[..] {
        [n2] if da.len() == 2 => (n2, 1),
        [n2, p] => (n2, p),
        _ => return Err(error::TYPE_MISMATCH.into()),
    };
    if n != n2 {
        return Err(error::TYPE_MISMATCH.into());
    }
    let (m, n, p) = (m as usize, n as usize, p as usize);
    let mut out = Vec::with_capacity(m * p);
    for i in 0..m {
        for j in 0..p {
            let mut t = Val::Int(0);
            for k in 0..n {
                let prod = binop_values(b'*', xa[i * n + k].clone(), xb[k * p + j].clone())?;
                t = binop_values(b'+', t, prod)?;
            }
            out.push(t);
        }
    }
    let dims = match (da.len(), db.len()) {
        (1, _) => vec![p as u32],
        (_, 1) => vec![m as u32],
        _ => vec![m as u32, p as u32],
    };
    Ok(ArrVal::Array(dims, out))
}
