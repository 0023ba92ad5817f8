//! Control statements: IF/ELSE, FOR/NEXT, REPEAT/UNTIL, WHILE/ENDWHILE, CASE, GOTO/GOSUB/RETURN,
//! PROC/FN/LOCAL/ENDPROC and ON (as Brandy's mainstate.c).

use crate::interp::error;
use crate::interp::number::{self};
use crate::interp::value::Val;
use crate::interp::{Frame, Handler, Interp, R, VarRef};
use crate::tokens as tok;

/// Which control stack entries a search for a loop or call may pass over.
fn is_loop(f: &Frame) -> bool {
    matches!(
        f,
        Frame::ForInt { .. } | Frame::ForFloat { .. } | Frame::Repeat { .. } | Frame::While { .. }
    )
}

impl Interp {
    // ---- conditionals ----

    pub(super) fn truth(&mut self) -> R<bool> {
        let v = self.expr()?;
        Ok(match v {
            Val::Int(i) => i != 0,
            Val::Float(f) => number::f64_to_i32(f)? != 0,
            Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
        })
    }

    #[inline(never)]
    pub(super) fn if_stmt(&mut self) -> R<()> {
        let c = self.truth()?;
        let then = self.eat(tok::THEN);
        if then && self.skip_spaces() == 0x0D {
            // Block IF: a false condition runs from the matching ELSE or ENDIF.
            if !c {
                self.skip_block(true)?;
            }
            return Ok(());
        }
        if c {
            if self.skip_spaces() == tok::LINE_NUMBER {
                let l = self.line_target()?;
                self.pc = self.find_line(l)?;
            }
            return Ok(());
        }
        // False: on from the first ELSE on the line, whatever it belongs to. Where the scan from
        // here ends is remembered (the bytes it crossed only change if the program is written).
        let off = self.pc.wrapping_sub(self.page);
        let mut p = match self.pos.else_scan.get(off) {
            Some(&e) if e != 0 => self.pc + e as usize - 1,
            _ => {
                let start = self.pc;
                let mut q = start;
                while !matches!(self.at(q), 0x0D | tok::ELSE) {
                    q = self.next_item(q);
                }
                if let Some(slot) = self.pos.else_scan.get_mut(off) {
                    *slot = (q - start + 1) as u32;
                }
                q
            }
        };
        loop {
            match self.at(p) {
                0x0D => {
                    self.pc = p;
                    return Ok(());
                }
                tok::ELSE => {
                    self.pc = p + 1;
                    if self.skip_spaces() == tok::LINE_NUMBER {
                        let l = self.line_target()?;
                        self.pc = self.find_line(l)?;
                    }
                    return Ok(());
                }
                _ => p = self.next_item(p),
            }
        }
    }

    /// The position after one item of a line: a whole string, a line number, a two-byte token.
    pub(in crate::interp) fn next_item(&self, p: usize) -> usize {
        match self.at(p) {
            b'"' => {
                let mut q = p + 1;
                loop {
                    match self.at(q) {
                        b'"' => return q + 1,
                        0x0D => return q,
                        _ => q += 1,
                    }
                }
            }
            tok::LINE_NUMBER => p + 4,
            tok::ESC_FN | tok::ESC_CMD | tok::ESC_STMT if self.at(p + 1) != 0x0D => p + 2,
            _ => p + 1,
        }
    }

    /// Whether pc-1 (a token just read) was the first thing on its line.
    pub(super) fn first_on_line(&self, tok_at: usize) -> bool {
        let i = self.lines.partition_point(|&(_, off)| off <= tok_at);
        if i == 0 {
            return false;
        }
        let body = self.lines[i - 1].1 + 4;
        (body..tok_at).all(|q| self.at(q) == b' ')
    }

    #[inline(never)]
    pub(super) fn else_stmt(&mut self) -> R<()> {
        if self.first_on_line(self.pc - 1) {
            // The ELSE of a block IF whose THEN part just ran.
            self.pc = self.line_end(self.pc);
            self.skip_block(false)
        } else {
            self.pc = self.line_end(self.pc);
            Ok(())
        }
    }

    /// From the end of a block IF line (or a block ELSE line), finds the matching ENDIF (or,
    /// with `to_else`, a block ELSE) on the following lines and continues after it.
    pub(super) fn skip_block(&mut self, to_else: bool) -> R<()> {
        let mut p = self.line_end(self.pc);
        let mut depth = 0usize;
        loop {
            if self.at(p + 1) == 0xFF || p + 4 >= self.mem.len() {
                return Err(error::MISSING_ENDIF.into());
            }
            let mut q = p + 4;
            while self.at(q) == b' ' {
                q += 1;
            }
            let first = self.at(q);
            if first == tok::ENDIF {
                if depth == 0 {
                    self.pc = q + 1;
                    return Ok(());
                }
                depth -= 1;
            } else if (first == tok::ELSE || first == tok::ELSE_BLOCK) && depth == 0 && to_else {
                self.pc = q + 1;
                return Ok(());
            } else {
                // A line ending in THEN opens a nested block IF.
                let mut last = 0;
                let mut r = q;
                while self.at(r) != 0x0D {
                    if self.at(r) != b' ' {
                        last = self.at(r);
                    }
                    if matches!(self.at(r), tok::REM | tok::DATA) {
                        last = 0;
                        break;
                    }
                    r = self.next_item(r);
                }
                if last == tok::THEN {
                    depth += 1;
                }
            }
            p = self.line_end(q);
        }
    }

    // ---- loops ----

    #[inline(never)]
    pub(super) fn for_stmt(&mut self) -> R<()> {
        let v = self.var_ref(true)?;
        let int = matches!(v, VarRef::Int(_) | VarRef::Resident(_));
        if !int && !matches!(v, VarRef::Float(_)) {
            return Err(error::FOR_VARIABLE.into());
        }
        self.expect(b'=', error::MISTAKE)?;
        let start = self.expr()?;
        self.assign(v, start)?;
        if !self.eat(tok::TO) {
            return Err(error::NO_TO.into());
        }
        let limit = self.expr()?;
        let step = if self.eat(tok::STEP) {
            self.expr()?
        } else {
            Val::Int(1)
        };
        // A FOR on a variable that already has a loop open (left by GOTO) replaces that loop.
        let mut i = self.stack.len();
        while i > 0 {
            match &self.stack[i - 1] {
                Frame::ForInt { var, .. } | Frame::ForFloat { var, .. } if *var == v => {
                    self.unwind_to(i - 1);
                    break;
                }
                f if is_loop(f) => i -= 1,
                _ => break,
            }
        }
        let body = self.pc;
        let skip = self.separator_at(body);
        let frame = if int {
            Frame::ForInt {
                var: v,
                limit: self.to_int(limit)?,
                step: self.to_int(step)?,
                body,
                skip,
            }
        } else {
            Frame::ForFloat {
                var: v,
                limit: self.to_f64(limit)?,
                step: self.to_f64(step)?,
                body,
                skip,
            }
        };
        if matches!(frame, Frame::ForInt { step: 0, .. })
            || matches!(frame, Frame::ForFloat { step, .. } if step == 0.0)
        {
            return Err(error::STEP_ZERO.into());
        }
        self.push(frame, error::NO_ROOM)
    }

    #[inline(never)]
    pub(super) fn next_stmt(&mut self) -> R<()> {
        loop {
            let b = self.skip_spaces();
            let named = if b.is_ascii_alphabetic() || b == b'_' || b == b'@' || b == b'`' {
                Some(self.var_ref(false)?)
            } else {
                None
            };
            // The innermost FOR (or the one for the named variable), dropping loops inside it.
            let mut i = self.stack.len();
            let idx = loop {
                if i == 0 {
                    let any_for = self
                        .stack
                        .iter()
                        .any(|f| matches!(f, Frame::ForInt { .. } | Frame::ForFloat { .. }));
                    return Err(if named.is_some() && any_for {
                        error::CANT_MATCH_FOR
                    } else {
                        error::NO_FOR
                    }
                    .into());
                }
                match &self.stack[i - 1] {
                    Frame::ForInt { var, .. } | Frame::ForFloat { var, .. }
                        if named.is_none_or(|n| n == *var) =>
                    {
                        break i - 1;
                    }
                    f if is_loop(f) => i -= 1,
                    _ => {
                        return Err(if named.is_some() {
                            error::CANT_MATCH_FOR
                        } else {
                            error::NO_FOR
                        }
                        .into());
                    }
                }
            };
            let (again, body) = match self.stack[idx] {
                Frame::ForInt {
                    var,
                    limit,
                    step,
                    body,
                    ..
                } => {
                    // Integer control variables are updated in place: the loop's hot path.
                    let slot = match var {
                        VarRef::Resident(i) => self.resident.get_mut(i as usize),
                        VarRef::Int(i) => self.ints.get_mut(i as usize),
                        _ => None,
                    };
                    match slot {
                        Some(cur) => match cur.checked_add(step) {
                            Some(n) => {
                                *cur = n;
                                (if step >= 0 { n <= limit } else { n >= limit }, body)
                            }
                            None => (false, body),
                        },
                        None => {
                            let cur = self.read(var)?;
                            let cur = self.to_int(cur)?;
                            match cur.checked_add(step) {
                                Some(n) => {
                                    self.assign(var, Val::Int(n))?;
                                    (if step >= 0 { n <= limit } else { n >= limit }, body)
                                }
                                None => (false, body),
                            }
                        }
                    }
                }
                Frame::ForFloat {
                    var,
                    limit,
                    step,
                    body,
                    ..
                } => {
                    if let VarRef::Float(i) = var
                        && let Some(cur) = self.floats.get_mut(i as usize)
                    {
                        let n = *cur + step;
                        *cur = n;
                        (if step >= 0.0 { n <= limit } else { n >= limit }, body)
                    } else {
                        self.next_float_slow(var, limit, step, body)?
                    }
                }
                _ => unreachable!("found a FOR frame"),
            };
            if again {
                self.stack.truncate(idx + 1);
                self.pc = body;
                return Ok(());
            }
            self.stack.truncate(idx);
            if !self.eat(b',') {
                return self.end_stmt();
            }
        }
    }

    #[inline(never)]
    pub(super) fn next_float_slow(
        &mut self,
        var: VarRef,
        limit: f64,
        step: f64,
        body: usize,
    ) -> R<(bool, usize)> {
        let cur = self.read(var)?;
        let n = self.to_f64(cur)? + step;
        self.assign(var, Val::Float(n))?;
        Ok((if step >= 0.0 { n <= limit } else { n >= limit }, body))
    }

    /// Finds the innermost stack entry `want` accepts, passing over loops only.
    pub(super) fn find_frame(&self, want: impl Fn(&Frame) -> bool) -> Option<usize> {
        let mut i = self.stack.len();
        while i > 0 {
            let f = &self.stack[i - 1];
            if want(f) {
                return Some(i - 1);
            }
            if !is_loop(f) {
                return None;
            }
            i -= 1;
        }
        None
    }

    #[inline(never)]
    pub(super) fn until_stmt(&mut self) -> R<()> {
        let c = self.truth()?;
        self.end_stmt()?;
        let Some(idx) = self.find_frame(|f| matches!(f, Frame::Repeat { .. })) else {
            return Err(error::NO_REPEAT.into());
        };
        if c {
            self.stack.truncate(idx);
        } else if let Frame::Repeat { body, .. } = self.stack[idx] {
            self.stack.truncate(idx + 1);
            self.pc = body;
        }
        Ok(())
    }

    #[inline(never)]
    pub(super) fn while_stmt(&mut self) -> R<()> {
        let cond = self.pc;
        if self.truth()? {
            self.push(
                Frame::While {
                    cond,
                    quick: u32::MAX,
                },
                error::NO_ROOM,
            )
        } else {
            self.skip_while()
        }
    }

    /// Continues after the ENDWHILE matching the WHILE just evaluated.
    pub(super) fn skip_while(&mut self) -> R<()> {
        self.pc = self.endwhile_after(self.pc).ok_or(error::NOT_IN_WHILE)?;
        Ok(())
    }

    /// The position after the ENDWHILE matching a WHILE whose condition ends at `p` (nested
    /// WHILEs counted, REM and DATA skipped); `None` when the program has none.
    pub(in crate::interp) fn endwhile_after(&self, mut p: usize) -> Option<usize> {
        let mut depth = 0usize;
        loop {
            match self.at(p) {
                0x0D => {
                    if self.at(p + 1) == 0xFF || p + 4 >= self.mem.len() {
                        return None;
                    }
                    p += 4;
                }
                tok::REM | tok::DATA => p = self.line_end(p),
                tok::ENDWHILE => {
                    if depth == 0 {
                        return Some(p + 1);
                    }
                    depth -= 1;
                    p += 1;
                }
                tok::ESC_STMT if self.at(p + 1) == tok::stmt::WHILE => {
                    depth += 1;
                    p += 2;
                }
                _ => p = self.next_item(p),
            }
        }
    }

    #[inline(never)]
    pub(super) fn endwhile(&mut self) -> R<()> {
        let Some(idx) = self.find_frame(|f| matches!(f, Frame::While { .. })) else {
            return Err(error::NOT_IN_WHILE.into());
        };
        let Frame::While { cond, .. } = self.stack[idx] else {
            unreachable!("found a WHILE frame")
        };
        let after = self.pc;
        self.stack.truncate(idx + 1);
        self.pc = cond;
        if !self.truth()? {
            self.stack.truncate(idx);
            self.pc = after;
        }
        Ok(())
    }

    // ---- CASE ----

    /// The first non-space byte of the line after the one ending at `p` (the CR), for the CASE
    /// searches; "Missing ENDCASE" at the end of the program.
    pub(super) fn case_line_start(&self, p: usize) -> R<usize> {
        if self.at(p + 1) == 0xFF || p + 4 >= self.mem.len() {
            return Err(error::MISSING_ENDCASE.into());
        }
        let mut q = p + 4;
        while self.at(q) == b' ' {
            q += 1;
        }
        Ok(q)
    }

    /// Scans the rest of a line from `q` for nested CASE statements (skipping REM and DATA
    /// tails): returns the position of the line's CR and how many CASEs it opens.
    pub(super) fn scan_case_line(&self, q: usize) -> (usize, usize) {
        let mut r = q;
        let mut nested = 0;
        while self.at(r) != 0x0D {
            match self.at(r) {
                tok::REM | tok::DATA => r = self.line_end(r),
                tok::ESC_STMT if self.at(r + 1) == tok::stmt::CASE => {
                    nested += 1;
                    r += 2;
                }
                _ => r = self.next_item(r),
            }
        }
        (r, nested)
    }

    #[inline(never)]
    pub(super) fn case_stmt(&mut self) -> R<()> {
        let v = self.expr()?;
        if !self.eat(tok::OF) {
            return Err(error::CASE_NO_OF.into());
        }
        let mut p = self.line_end(self.pc);
        let mut depth = 0usize;
        loop {
            let q = self.case_line_start(p)?;
            let first = self.at(q);
            if depth == 0 && first == tok::WHEN {
                self.pc = q + 1;
                loop {
                    let w = self.expr()?;
                    let eq = match (&v, &w) {
                        (Val::Str(a), Val::Str(b)) => a == b,
                        (Val::Str(_), _) | (_, Val::Str(_)) => return Err(error::TYPE_MISMATCH.into()),
                        (Val::Int(a), Val::Int(b)) => a == b,
                        (a, b) => self.to_f64(a.clone())? == self.to_f64(b.clone())?,
                    };
                    if eq {
                        // Run the WHEN's statements, from after its list of values.
                        while !matches!(self.at(self.pc), b':' | 0x0D) {
                            self.pc = self.next_item(self.pc);
                        }
                        return Ok(());
                    }
                    if !self.eat(b',') {
                        break;
                    }
                }
            } else if depth == 0 && first == tok::OTHERWISE {
                self.pc = q + 1;
                return Ok(());
            } else if first == tok::ENDCASE {
                if depth == 0 {
                    self.pc = q + 1;
                    return Ok(());
                }
                depth -= 1;
            }
            let (end, nested) = self.scan_case_line(q);
            depth += nested;
            p = end;
        }
    }

    /// Reaching WHEN or OTHERWISE ends the branch that ran: continue after the ENDCASE.
    #[inline(never)]
    pub(super) fn skip_case(&mut self, _: bool) -> R<()> {
        let mut p = self.line_end(self.pc);
        let mut depth = 0usize;
        loop {
            let q = self.case_line_start(p)?;
            if self.at(q) == tok::ENDCASE {
                if depth == 0 {
                    self.pc = q + 1;
                    return Ok(());
                }
                depth -= 1;
            }
            let (end, nested) = self.scan_case_line(q);
            depth += nested;
            p = end;
        }
    }

    // ---- jumps and calls ----

    /// A GOTO/GOSUB target: an encoded line number or any expression (`GOSUB FALSE`).
    pub(in crate::interp) fn line_target(&mut self) -> R<i32> {
        if self.skip_spaces() == tok::LINE_NUMBER {
            let n = crate::tokens::decode_line_number([
                self.at(self.pc + 1),
                self.at(self.pc + 2),
                self.at(self.pc + 3),
            ]);
            self.pc += 4;
            return Ok(n as i32);
        }
        self.expr_int()
    }

    #[inline(never)]
    pub(super) fn return_stmt(&mut self) -> R<()> {
        let Some(idx) = self.find_frame(|f| matches!(f, Frame::Gosub { .. })) else {
            return Err(error::NO_GOSUB.into());
        };
        let Frame::Gosub { ret, .. } = self.stack[idx] else {
            unreachable!("found a GOSUB frame")
        };
        self.stack.truncate(idx);
        self.pc = ret;
        Ok(())
    }

    #[inline(never)]
    pub(super) fn proc_stmt(&mut self) -> R<()> {
        let at = self.stack.len();
        self.push(
            Frame::Proc {
                ret: 0,
                returns: Vec::new(),
            },
            error::DEEP_CALL,
        )?;
        self.enter_routine(tok::PROC, at)?;
        Ok(())
    }

    /// Leaves the innermost PROC or FN frame: RETURN parameters are read, LOCALs restored,
    /// then the RETURN values stored in the caller's variables.
    pub(super) fn leave_routine(&mut self, proc_: bool) -> R<usize> {
        let idx = self
            .stack
            .iter()
            .rposition(|f| matches!(f, Frame::Proc { .. } | Frame::Fn { .. } | Frame::Gosub { .. }));
        let (idx, ret, returns) = match idx.map(|i| (i, &self.stack[i])) {
            Some((i, Frame::Proc { ret, returns })) if proc_ => (i, *ret, returns.len()),
            Some((i, Frame::Fn { returns, .. })) if !proc_ => (i, 0, returns.len()),
            _ => return Err(if proc_ { error::NO_PROC } else { error::NO_FN }.into()),
        };
        self.trace_return(proc_)?;
        // Without RETURN parameters there is nothing to read before the LOCALs are restored.
        if returns == 0 {
            self.unwind_to(idx);
            return Ok(ret);
        }
        let returns = match &self.stack[idx] {
            Frame::Proc { returns, .. } | Frame::Fn { returns, .. } => returns.clone(),
            _ => unreachable!("found a PROC/FN frame"),
        };
        let mut values = Vec::with_capacity(returns.len());
        for &(formal, _) in &returns {
            values.push(self.read(formal)?);
        }
        self.unwind_to(idx);
        for ((_, actual), v) in returns.into_iter().zip(values) {
            self.assign(actual, v)?;
        }
        Ok(ret)
    }

    #[inline(never)]
    pub(super) fn endproc(&mut self) -> R<()> {
        self.pc = self.leave_routine(true)?;
        Ok(())
    }

    /// `=`: leaves the FN and stops its statements with `Ok`, the value in `fn_result` (no
    /// allocation, unlike an `Err` carrying it).
    pub(in crate::interp) fn fn_return(&mut self, v: Val) -> R<()> {
        self.leave_routine(false)?;
        self.fn_result = v;
        Ok(())
    }

    #[inline(never)]
    pub(super) fn local_stmt(&mut self) -> R<()> {
        // The innermost frames are the likeliest to be the routine's.
        if !self
            .stack
            .iter()
            .rev()
            .any(|f| matches!(f, Frame::Proc { .. } | Frame::Fn { .. }))
        {
            return Err(error::NOT_LOCAL.into());
        }
        if self.eat(tok::ERROR) {
            let old = self.handler;
            return self.push(Frame::Handler { old }, error::DEEP_CALL);
        }
        if self.eat(tok::DATA) {
            let (ptr, inside) = (self.data_ptr, self.data_in);
            return self.push(Frame::Data { ptr, inside }, error::DEEP_CALL);
        }
        loop {
            // A simple variable already resolved here is taken from the site cache (what
            // `var_ref` does first, without its result going through memory).
            self.skip_spaces();
            let cached = match self.pos.site.get(self.pc.wrapping_sub(self.page)) {
                Some(&s) if s != 0 => Some(crate::interp::site_decode(s)),
                _ => None,
            };
            let v = match cached {
                Some((v, len)) if !self.is_binary_indirection(self.pc + len) => {
                    self.pc += len;
                    v
                }
                _ if self.whole_array_at(self.pc).is_some() => {
                    self.local_array()?;
                    if !self.eat(b',') {
                        return self.end_stmt();
                    }
                    continue;
                }
                _ => self.var_ref(true)?,
            };
            // Zero of the variable's type (a float zero assigns to a float without conversion).
            let zero = match v {
                VarRef::Str(_) | VarRef::StrEl(..) | VarRef::MemStr(_) => Val::Str(Vec::new()),
                VarRef::Float(_) => Val::Float(0.0),
                _ => Val::Int(0),
            };
            self.push_local(v, zero)?;
            if !self.eat(b',') {
                return self.end_stmt();
            }
        }
    }

    #[inline(never)]
    pub(super) fn on_stmt(&mut self) -> R<()> {
        match self.skip_spaces() {
            tok::ERROR => {
                self.pc += 1;
                if self.eat(tok::OFF) {
                    self.handler = None;
                    return self.end_stmt();
                }
                let local = if self.eat(tok::LOCAL) {
                    let old = self.handler;
                    self.push(Frame::Handler { old }, error::DEEP_CALL)?;
                    Some((self.stack.len(), self.fn_level))
                } else {
                    None
                };
                self.handler = Some(Handler { pc: self.pc, local });
                self.pc = self.line_end(self.pc);
                return Ok(());
            }
            b':' | 0x0D | tok::ELSE => {
                self.vdu_bytes(&[23, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
                return Ok(());
            }
            _ => {}
        }
        let n = self.expr_int()?;
        let kind = self.skip_spaces();
        if !matches!(kind, tok::GOTO | tok::GOSUB | tok::PROC) {
            return Err(error::ON_SYNTAX.into());
        }
        self.pc += 1;
        // Walk to the n-th item of the list without evaluating the others.
        let mut i = 1;
        loop {
            if i == n {
                if kind == tok::PROC && self.skip_spaces() == tok::PROC {
                    self.pc += 1;
                }
                if kind == tok::PROC {
                    let mut end = self.pc;
                    while !matches!(self.at(end), b',' | b':' | 0x0D | tok::ELSE) {
                        end = self.next_item(end);
                    }
                    let at = self.stack.len();
                    self.proc_stmt()?;
                    // Resume after the whole ON statement.
                    let stmt_end = self.statement_end(end);
                    if let Some(Frame::Proc { ret, .. }) = self.stack.get_mut(at) {
                        *ret = stmt_end;
                    }
                    return Ok(());
                }
                let l = self.line_target()?;
                let target = self.find_line(l)?;
                if kind == tok::GOSUB {
                    let ret = self.statement_end(self.pc);
                    let skip = self.separator_at(ret);
                    self.push(Frame::Gosub { ret, skip }, error::NO_ROOM)?;
                }
                self.pc = target;
                return Ok(());
            }
            // Skip this item.
            let mut depth = 0i32;
            loop {
                match self.at(self.pc) {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b',' if depth == 0 => break,
                    // A line ends the list whatever its brackets: an unclosed `(` must not carry
                    // the search into the lines after it (or past the end of memory, which reads
                    // as CRs).
                    b':' | tok::ELSE if depth <= 0 => {
                        if self.at(self.pc) == tok::ELSE {
                            self.pc += 1;
                            return Ok(());
                        }
                        return Err(error::ON_RANGE.into());
                    }
                    0x0D => return Err(error::ON_RANGE.into()),
                    _ => {}
                }
                self.pc = self.next_item(self.pc);
            }
            self.pc += 1;
            i += 1;
            if n < 1 {
                // Skip to ELSE or fail.
                while !matches!(self.at(self.pc), b':' | 0x0D | tok::ELSE) {
                    self.pc = self.next_item(self.pc);
                }
                if self.at(self.pc) == tok::ELSE {
                    self.pc += 1;
                    return Ok(());
                }
                return Err(error::ON_RANGE.into());
            }
        }
    }

    /// The end of the statement containing `p` (its `:` or CR; an ELSE ends it too).
    pub(super) fn statement_end(&self, mut p: usize) -> usize {
        while !matches!(self.at(p), b':' | 0x0D) {
            if self.at(p) == tok::ELSE {
                return self.line_end(p);
            }
            p = self.next_item(p);
        }
        p
    }
}
