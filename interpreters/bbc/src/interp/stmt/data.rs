//! Data statements: assignment (LET, the compound operators, MID$ on the left), DIM, and
//! DATA/READ/RESTORE (as Brandy's assign.c and the data part of mainstate.c).

use crate::interp::error;
use crate::interp::expr::val_of;
use crate::interp::number::{self};
use crate::interp::value::Val;
use crate::interp::{Array, ArrayData, Frame, Interp, R, VarRef};
use crate::tokens as tok;

impl Interp {
    // ---- assignment ----

    #[inline(never)]
    pub(in crate::interp) fn assignment(&mut self) -> R<()> {
        let start = self.pc;
        let v = match self.var_ref(true) {
            Ok(v) => v,
            // `name()=`: a whole-array assignment (found when the element's subscript fails).
            Err(_) if self.whole_array_at(start).is_some() => {
                self.pc = start;
                return self.array_assignment();
            }
            Err(e) => return Err(e),
        };
        if let VarRef::Str(i) = v
            && self.str_assignment(i)?
        {
            return self.end_stmt();
        }
        let c = self.skip_spaces();
        let op = match c {
            b'=' => {
                self.pc += 1;
                0
            }
            b'+' | b'-' | b'*' | b'/' | tok::AND | tok::OR | tok::EOR | tok::DIV | tok::MOD
                if self.at(self.pc + 1) == b'=' =>
            {
                self.pc += 2;
                c
            }
            _ => return Err(error::MISTAKE.into()),
        };
        let rhs = self.expr()?;
        let val = if op == 0 {
            rhs
        } else {
            let cur = self.read(v)?;
            // An integer variable's `+=` and `-=` truncate the operand to an integer first, as
            // RISC OS does: `e%=-5:e%+=0.9` leaves -5, `g%=10:g%-=2.5` gives 8.
            let rhs = match (&cur, op, rhs) {
                (Val::Int(_), b'+' | b'-', Val::Float(f)) => Val::Int(number::f64_to_i32(f)?),
                (_, _, rhs) => rhs,
            };
            self.combine(cur, op, rhs)?
        };
        self.assign(v, val)?;
        self.end_stmt()
    }

    /// `a op= b` for the compound assignments: the operator's own arithmetic (a result too big
    /// for a float is "Number too big", as for `a=a+b`).
    pub(super) fn combine(&mut self, a: Val, op: u8, b: Val) -> R<Val> {
        crate::interp::expr::binop_values(op, a, b)
    }

    /// MID$(a$,s[,n])=b$, LEFT$(a$[,n])=b$, RIGHT$(a$[,n])=b$: overwrite part of a string.
    #[inline(never)]
    pub(super) fn mid_assign(&mut self, t: u8) -> R<()> {
        let v = self.var_ref(false)?;
        let s = match self.read(v)? {
            Val::Str(s) => s,
            _ => return Err(error::TYPE_MISMATCH.into()),
        };
        let mut start = 1;
        if t == tok::MID_S {
            self.expect(b',', error::MISSING_COMMA)?;
            start = self.expr_int()?.max(1) as usize;
        }
        let count = if self.eat(b',') {
            Some(self.expr_int()?.max(0) as usize)
        } else {
            None
        };
        self.close_bracket()?;
        self.expect(b'=', error::MISTAKE)?;
        let new = self.expr_str()?;
        let mut s = s;
        let mut n = new.len().min(count.unwrap_or(usize::MAX));
        let from = if t == tok::RIGHT_S {
            n = n.min(s.len());
            s.len() - n
        } else {
            (start - 1).min(s.len())
        };
        n = n.min(s.len() - from);
        s[from..from + n].copy_from_slice(&new[..n]);
        self.assign(v, Val::Str(s))?;
        self.end_stmt()
    }

    // ---- DIM, DATA, INPUT ----

    #[inline(never)]
    pub(super) fn dim_stmt(&mut self) -> R<()> {
        loop {
            self.skip_spaces();
            let start = self.pc;
            let (end, arr, ty) = self.scan_name(start);
            if end == start || !tok::is_word_char(self.at(start)) && self.at(start) != b'@' {
                return Err(error::BAD_DIM.into());
            }
            if arr {
                let key: Box<[u8]> = self.mem[start..end].into();
                // A name may exist without a DIM (LOCAL, or a parameter placeholder).
                let existing = self.array_names.get(&key).copied();
                let local = match existing {
                    Some(s) if self.arrays[s as usize].alias.is_some() => return Err(error::REDIM.into()),
                    Some(s) if self.arrays[s as usize].dims.is_empty() => self.arrays[s as usize].local,
                    Some(_) => return Err(error::REDIM.into()),
                    None => false,
                };
                self.pc = end;
                let mut dims = Vec::new();
                loop {
                    let d = self.expr_int()?;
                    if d < 0 {
                        return Err(error::BAD_DIM.into());
                    }
                    dims.push(d as u32 + 1);
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.close_bracket()?;
                let total: u64 = dims.iter().fold(1u64, |t, &d| t.saturating_mul(d as u64));
                let size = total
                    .saturating_mul(if ty == b'%' { 4 } else { 5 })
                    .saturating_add(4 * dims.len() as u64 + 8);
                if size > (self.himem - self.vartop) as u64 {
                    return Err(error::DIM_SPACE.into());
                }
                if !local {
                    self.vartop += size as usize;
                }
                let n = total as usize;
                let data = match ty {
                    b'%' => ArrayData::Int(vec![0; n]),
                    b'$' => ArrayData::Str(vec![Vec::new(); n]),
                    _ => ArrayData::Float(vec![0.0; n]),
                };
                let array = Array {
                    dims,
                    data,
                    local,
                    alias: None,
                };
                match existing {
                    Some(s) => self.arrays[s as usize] = array,
                    None => {
                        self.arrays.push(array);
                        self.array_names.insert(key, self.arrays.len() as u32 - 1);
                    }
                }
            } else {
                // DIM name size: a block of size+1 bytes; the variable holds its address.
                let v = self.var_ref(true)?;
                if matches!(v, VarRef::Str(_) | VarRef::MemStr(_)) {
                    return Err(error::BAD_DIM.into());
                }
                let n = self.expr_int()?;
                if n < -1 {
                    return Err(error::BAD_DIM.into());
                }
                let size = (n as i64 + 1) as usize;
                let addr = (self.vartop + 3) & !3;
                if addr + size > self.himem {
                    return Err(error::DIM_SPACE.into());
                }
                self.vartop = addr + size;
                self.mem[addr..addr + size].fill(0);
                self.assign(v, Val::Int(addr as i32))?;
            }
            if !self.eat(b',') {
                return self.end_stmt();
            }
        }
    }

    /// The next DATA item's text.
    pub(super) fn next_data(&mut self) -> R<Vec<u8>> {
        let mut p = self.data_ptr;
        // data_ptr is either inside a DATA statement (after DATA or a comma) or at the CR
        // that starts a line record, from which to search. Only a DATA that starts its line
        // counts (one after a colon is never found, as on RISC OS).
        if !self.data_in {
            loop {
                if self.at(p) != 0x0D || self.at(p + 1) == 0xFF || p + 4 >= self.mem.len() {
                    return Err(error::OUT_OF_DATA.into());
                }
                p += 4;
                while self.at(p) == b' ' {
                    p += 1;
                }
                if self.at(p) == tok::DATA {
                    p += 1;
                    break;
                }
                p = self.line_end(p);
            }
        }
        while self.at(p) == b' ' {
            p += 1;
        }
        let mut item = Vec::new();
        if self.at(p) == b'"' {
            p += 1;
            loop {
                match self.at(p) {
                    0x0D => break,
                    b'"' if self.at(p + 1) == b'"' => {
                        item.push(b'"');
                        p += 2;
                    }
                    b'"' => {
                        p += 1;
                        break;
                    }
                    c => {
                        item.push(c);
                        p += 1;
                    }
                }
            }
            while !matches!(self.at(p), b',' | 0x0D) {
                p += 1;
            }
        } else {
            while !matches!(self.at(p), b',' | 0x0D) {
                item.push(self.at(p));
                p += 1;
            }
        }
        if self.at(p) == b',' {
            self.data_ptr = p + 1;
            self.data_in = true;
        } else {
            self.data_ptr = p;
            self.data_in = false;
        }
        Ok(item)
    }

    #[inline(never)]
    pub(super) fn read_stmt(&mut self) -> R<()> {
        loop {
            let v = self.var_ref(true)?;
            let item = self.next_data()?;
            let val = match self.read(v)? {
                Val::Str(_) => Val::Str(item),
                _ => self.data_number(&item)?,
            };
            self.assign(v, val)?;
            if !self.eat(b',') {
                return self.end_stmt();
            }
        }
    }

    /// A numeric DATA item: a plain number is read as one; anything else (`&FF`, `2*3`) is
    /// evaluated as an expression, as BBC BASIC does.
    pub(super) fn data_number(&mut self, item: &[u8]) -> R<Val> {
        let t = item.trim_ascii();
        let digits = t.strip_prefix(b"-").or_else(|| t.strip_prefix(b"+")).unwrap_or(t);
        let (_, len) = number::parse_decimal(digits);
        if t.is_empty() || len == digits.len() {
            return Ok(val_of(item));
        }
        self.eval_string(t)
    }

    /// RESTORE ERROR and RESTORE DATA: take back the handler or DATA pointer the innermost
    /// LOCAL ERROR / ON ERROR LOCAL or LOCAL DATA saved.
    pub(super) fn restore_saved(&mut self, data: bool) -> R<()> {
        let at = self.stack.iter().rposition(|f| match f {
            Frame::Data { .. } => data,
            Frame::Handler { .. } => !data,
            _ => false,
        });
        let Some(at) = at else {
            return Err(error::NOT_LOCAL.into());
        };
        let f = self.stack.remove(at);
        self.undo_frame(f);
        self.end_stmt()
    }

    #[inline(never)]
    pub(super) fn restore_stmt(&mut self) -> R<()> {
        if self.eat(tok::ERROR) {
            return self.restore_saved(false);
        }
        if self.eat(tok::DATA) {
            return self.restore_saved(true);
        }
        if self.at_stmt_end() {
            self.data_ptr = self.page;
        } else if self.eat(b'+') {
            // RESTORE +n: the DATA search starts n lines on from the one this statement is in
            // (RISC OS BASIC V, as Brandy and BBC BASIC (Z80) have it); past the last line,
            // READ finds no more DATA.
            let n = self.expr_int()?;
            let here = self
                .lines
                .partition_point(|&(_, off)| off < self.pc)
                .saturating_sub(1);
            let at = here.saturating_add_signed(n as isize);
            self.data_ptr = self.lines.get(at).map_or(self.top - 2, |&(_, off)| off);
            self.end_stmt()?;
        } else {
            let l = self.line_target()?;
            self.data_ptr = self.find_line(l)? - 4;
            self.end_stmt()?;
        }
        self.data_in = false;
        Ok(())
    }
}
