//! PROC and FN calls: finding the DEF, parsing its formal parameters once, binding arguments
//! (LOCAL frames, RETURN parameters, arrays by reference) and running a FN's body.

use crate::interp::error;
use crate::interp::number::Num;
use crate::interp::value::Val;
use crate::interp::{Formal, Frame, Interp, R, Routine, VarRef};
use crate::tokens as tok;

impl Interp {
    /// Calls FNname(args); pc is past the FN token. Returns the value of its `=`.
    pub(in crate::interp) fn call_fn(&mut self) -> R<Val> {
        if self.depth >= self.max_depth {
            return Err(error::DEEP_CALL.into());
        }
        let frame_at = self.stack.len();
        self.push(
            Frame::Fn {
                ret: 0,
                returns: Vec::new(),
            },
            error::DEEP_CALL,
        )?;
        let ret = self.enter_routine(tok::FN, frame_at)?;
        self.depth += 1;
        self.fn_level += 1;
        if self.eval_ticks.is_some() {
            self.eval_called_fn = true;
        }
        let level = self.fn_level;
        // A one-line FN (`DEF FNf(x)=expr`) has its `=` run here, without entering the
        // statement loop; an error in it goes to the loop's handling (ON ERROR LOCAL).
        let r = if self.skip_spaces() == b'=' {
            match self.fn_expr_body() {
                Err(s) => match self.catch_local(level, s) {
                    Ok(()) => self.exec_level(level),
                    Err(s) => Err(s),
                },
                ok => ok,
            }
        } else {
            self.exec_level(level)
        };
        self.fn_level -= 1;
        self.depth -= 1;
        // Statements only stop without an error at `=`, which left the value in `fn_result`.
        r?;
        self.pc = ret;
        Ok(std::mem::take(&mut self.fn_result))
    }

    /// The `=` statement at pc, first in a FN body, as `exec` runs it (its statement count
    /// included).
    pub(in crate::interp) fn fn_expr_body(&mut self) -> R<()> {
        self.ticks_left -= 1;
        if self.ticks_left == 0 {
            self.tick()?;
        }
        if self.debug.is_some() {
            self.debug_statement()?;
        }
        self.pc += 1;
        let v = self.expr()?;
        self.end_stmt()?;
        self.fn_return(v)
    }

    /// Reads PROC/FN call arguments at pc, binds them to the DEF's formal parameters (saving the
    /// old values as LOCALs above the frame at `frame_at`) and moves pc into the body. Returns
    /// where execution resumes after the call.
    pub(in crate::interp) fn enter_routine(&mut self, kind: u8, frame_at: usize) -> R<usize> {
        self.trace_call(kind)?;
        let start = self.pc;
        // Each call site remembers the routine it found and its name's length (the name there
        // never changes unless the program is written to, which clears the cache).
        let cached = match self.pos.calls.get(start.wrapping_sub(self.page)) {
            Some(&c) if c != 0 => self
                .routines
                .get(((c & 0xFF_FFFF) - 1) as usize)
                .map(|&r| (r, start + (c >> 24) as usize)),
            _ => None,
        };
        let (routine, call_pc) = match cached {
            Some(hit) => hit,
            None => self.resolve_call(kind, start)?,
        };
        self.pc = call_pc;
        let generation = self.routines_gen;
        let first = routine.first as usize;
        let ret = if routine.count == 1 {
            self.bind_one(first, generation, frame_at)?
        } else {
            // The formals are copied: evaluating the actuals can call a FN that writes the
            // program (forgetting `formals`).
            let fbase = self.arg_formals.len();
            let vbase = self.args.len();
            let count = routine.count as usize;
            self.arg_formals
                .extend_from_slice(&self.formals[first..first + count]);
            let r = self.bind_args(fbase, vbase, generation, first, frame_at);
            self.arg_formals.truncate(fbase);
            self.args.truncate(vbase);
            r?
        };
        self.pc = routine.body;
        Ok(ret)
    }

    /// An actual argument's value. A lone variable or number, the commonest arguments (which
    /// the expression cache leaves alone), is read straight from the caches for its position.
    /// Inlined so the value comes back in registers.
    #[inline(always)]
    pub(in crate::interp) fn argument(&mut self) -> R<Val> {
        let off = self.pc.wrapping_sub(self.page);
        // `expr` would refuse to start at this depth.
        if self.depth < self.max_depth {
            if let Some(&s) = self.pos.site.get(off)
                && s != 0
            {
                let (v, len) = crate::interp::site_decode(s);
                if matches!(self.at(self.pc + len), b',' | b')') {
                    // Numbers are read here rather than through `read`, which returns them
                    // through memory.
                    let val = match v {
                        VarRef::Int(i) => self.ints.get(i as usize).map(|&x| Val::Int(x)),
                        VarRef::Float(i) => self.floats.get(i as usize).map(|&x| Val::Float(x)),
                        VarRef::Resident(i) => Some(Val::Int(self.resident[i as usize % 27])),
                        _ => self.read(v).ok(),
                    };
                    if let Some(val) = val {
                        self.pc += len;
                        return Ok(val);
                    }
                }
            }
            if let Some(&(len, n)) = self.pos.numbers.get(off)
                && len != 0
                && matches!(self.at(self.pc + len as usize), b',' | b')')
            {
                self.pc += len as usize;
                return Ok(match n {
                    Num::Int(i) => Val::Int(i),
                    Num::Float(f) => Val::Float(f),
                });
            }
        }
        self.expr()
    }

    /// Finds the routine a call site names (the name is at `start`), parsing its DEF's formal
    /// parameters if no call has yet, and caches it for the site. Returns the routine and where
    /// the name ends.
    #[cold]
    pub(in crate::interp) fn resolve_call(&mut self, kind: u8, start: usize) -> R<(Routine, usize)> {
        let mut end = start;
        while tok::is_word_char(self.at(end)) {
            end += 1;
        }
        if end == start {
            return Err(error::BAD_CALL.into());
        }
        let mut key = Vec::with_capacity(end - start + 1);
        key.push(kind);
        key.extend_from_slice(&self.mem[start..end]);
        let def = self.find_routine(&key)?;
        // Call sites of one DEF share its entry (a linear search, once per call site).
        let ri = match self.routines.iter().position(|r| r.def == def) {
            Some(i) => i,
            None => self.parse_routine(def)?,
        };
        let len = end - start;
        if let Some(slot) = self.pos.calls.get_mut(start.wrapping_sub(self.page))
            && len < 0x100
            && ri + 1 < 0xFF_FFFF
        {
            *slot = (len as u32) << 24 | (ri as u32 + 1);
        }
        Ok((self.routines[ri], end))
    }

    /// Parses the formal parameters after a DEF's name at `def` into a new routine entry.
    /// A malformed list is an error with pc where it went wrong (in the DEF line).
    pub(in crate::interp) fn parse_routine(&mut self, def: usize) -> R<usize> {
        let first = self.formals.len();
        let r = self.parse_formals(def);
        if r.is_err() {
            self.formals.truncate(first);
        }
        r?;
        self.routines.push(Routine {
            def,
            body: self.pc,
            first: first as u32,
            count: (self.formals.len() - first) as u32,
        });
        Ok(self.routines.len() - 1)
    }

    pub(in crate::interp) fn parse_formals(&mut self, def: usize) -> R<()> {
        self.pc = def;
        if self.eat(b'(') {
            loop {
                let ret = self.eat(tok::RETURN);
                self.skip_spaces();
                let p = self.pc;
                let (mut e, arr, _) = self.scan_name(p);
                if e == p || !tok::is_word_char(self.at(p)) && self.at(p) != b'@' {
                    return Err(error::ARGUMENTS.into());
                }
                if arr {
                    // An array, passed by reference: `name()`.
                    match self.whole_array_at(p) {
                        Some((_, _, end)) => e = end,
                        None => return Err(error::ARGUMENTS.into()),
                    }
                }
                self.formals.push(Formal {
                    at: p,
                    ret,
                    arr,
                    var: None,
                });
                self.pc = e;
                if self.eat(b')') {
                    break;
                }
                self.expect(b',', error::ARGUMENTS)?;
            }
        }
        Ok(())
    }

    /// Evaluates the actual arguments at pc onto `args` (all before any formal changes, so
    /// `PROCa(x)` with formal x passes the caller's x), then binds them to the formals copied to
    /// `arg_formals[fbase..]`: each formal's old value is saved as a LOCAL above the frame at
    /// `frame_at`. `generation` is `routines_gen` when the formals were copied from
    /// `formals[first..]`. Returns the pc after the arguments.
    pub(in crate::interp) fn bind_args(
        &mut self,
        fbase: usize,
        vbase: usize,
        generation: u32,
        first: usize,
        frame_at: usize,
    ) -> R<usize> {
        let count = self.arg_formals.len() - fbase;
        if self.skip_spaces() == b'(' {
            self.pc += 1;
            loop {
                let n = self.args.len() - vbase;
                if n >= count {
                    return Err(error::ARGUMENTS.into());
                }
                let arg = if self.arg_formals[fbase + n].arr {
                    (Val::Int(self.whole_array(true)? as i32), None)
                } else if self.arg_formals[fbase + n].ret {
                    let v = self.var_ref(true)?;
                    (self.read(v)?, Some(v))
                } else {
                    (self.argument()?, None)
                };
                self.args.push(arg);
                if self.eat(b')') {
                    break;
                }
                self.expect(b',', error::ARGUMENTS)?;
            }
        }
        if self.args.len() - vbase != count {
            return Err(error::ARGUMENTS.into());
        }
        let ret = self.pc;
        let mut returns = Vec::new();
        for k in 0..count {
            let formal = self.arg_formals[fbase + k];
            let (val, actual) = std::mem::take(&mut self.args[vbase + k]);
            if let (true, Val::Int(slot)) = (formal.arr, &val) {
                self.bind_array(formal.at, *slot as u32)?;
                continue;
            }
            let v = self.formal_var(formal, generation, first + k)?;
            self.push_local(v, val)?;
            if let (true, Some(a)) = (formal.ret, actual) {
                returns.push((v, a));
            }
        }
        self.fill_call_frame(frame_at, ret, returns);
        Ok(ret)
    }

    /// `bind_args` for the commonest routine, with one parameter: nothing goes through the
    /// argument stacks.
    pub(in crate::interp) fn bind_one(&mut self, first: usize, generation: u32, frame_at: usize) -> R<usize> {
        let formal = self.formals[first];
        if !self.eat(b'(') {
            return Err(error::ARGUMENTS.into());
        }
        let (val, actual) = if formal.arr {
            (Val::Int(self.whole_array(true)? as i32), None)
        } else if formal.ret {
            let v = self.var_ref(true)?;
            (self.read(v)?, Some(v))
        } else {
            (self.argument()?, None)
        };
        // A comma means too many arguments, anything else is malformed: both are this error.
        if !self.eat(b')') {
            return Err(error::ARGUMENTS.into());
        }
        let ret = self.pc;
        if let (true, Val::Int(slot)) = (formal.arr, &val) {
            self.bind_array(formal.at, *slot as u32)?;
            self.fill_call_frame(frame_at, ret, Vec::new());
            return Ok(ret);
        }
        let v = self.formal_var(formal, generation, first)?;
        self.push_local(v, val)?;
        let returns = match (formal.ret, actual) {
            (true, Some(a)) => vec![(v, a)],
            _ => Vec::new(),
        };
        self.fill_call_frame(frame_at, ret, returns);
        Ok(ret)
    }

    /// The variable formal parameter `formal` (copied from `formals[index]` when `routines_gen`
    /// was `generation`) names. It is resolved once and kept unless the arguments ran CLEAR or
    /// wrote the program since the copy.
    #[inline]
    pub(in crate::interp) fn formal_var(
        &mut self,
        formal: Formal,
        generation: u32,
        index: usize,
    ) -> R<VarRef> {
        let same = generation == self.routines_gen;
        if let (Some(v), true) = (formal.var, same) {
            return Ok(v);
        }
        self.pc = formal.at;
        let v = self.var_ref(true)?;
        if same && let Some(f) = self.formals.get_mut(index) {
            f.var = Some(v);
        }
        Ok(v)
    }

    /// Fills in the PROC/FN frame at `frame_at` once its arguments are bound. The frame may be
    /// gone if an argument ran CLEAR or RUN; then there is nothing to fill in.
    #[inline]
    pub(in crate::interp) fn fill_call_frame(
        &mut self,
        frame_at: usize,
        ret: usize,
        returns: Vec<(VarRef, VarRef)>,
    ) {
        // The frame was pushed with an empty list: most calls have no RETURN parameters and
        // leave it alone.
        if let Some(Frame::Proc { returns: r, ret: rp } | Frame::Fn { returns: r, ret: rp }) =
            self.stack.get_mut(frame_at)
        {
            if !returns.is_empty() {
                *r = returns;
            }
            *rp = ret;
        }
    }

    /// The body address of DEF PROCname / DEF FNname (`key` is the token then the name).
    pub(in crate::interp) fn find_routine(&mut self, key: &[u8]) -> R<usize> {
        if self.procs.is_none() {
            let mut map = std::collections::HashMap::new();
            for i in 0..self.lines.len() {
                let mut p = self.lines[i].1 + 4;
                while self.at(p) == b' ' {
                    p += 1;
                }
                if self.at(p) != tok::DEF {
                    continue;
                }
                p += 1;
                while self.at(p) == b' ' {
                    p += 1;
                }
                let kind = self.at(p);
                if kind != tok::PROC && kind != tok::FN {
                    continue;
                }
                let s = p + 1;
                let mut e = s;
                while tok::is_word_char(self.at(e)) {
                    e += 1;
                }
                let mut k = vec![kind];
                k.extend_from_slice(&self.mem[s..e]);
                map.entry(k.into_boxed_slice()).or_insert(e);
            }
            self.procs = Some(map);
        }
        self.procs
            .as_ref()
            .and_then(|m| m.get(key).copied())
            .ok_or_else(|| error::NO_SUCH_FN.into())
    }
}
