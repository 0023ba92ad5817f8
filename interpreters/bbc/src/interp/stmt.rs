//! Statements: the execution loop and one routine per keyword.

use super::error::{self, BasicError};
use super::expr::val_of;
use super::host::LineRead;
use super::number::{self, Format};
use super::value::Val;
use super::{Array, ArrayData, Frame, Handler, Interp, MAX_STRING, R, Stop, VarRef};
use crate::tokens as tok;

/// Which control stack entries a search for a loop or call may pass over.
fn is_loop(f: &Frame) -> bool {
    matches!(
        f,
        Frame::ForInt { .. } | Frame::ForFloat { .. } | Frame::Repeat { .. } | Frame::While { .. }
    )
}

impl Interp {
    /// Runs statements until something stops execution (END, an error, a FN result...).
    ///
    /// The statement routines are `#[inline(never)]`: inlined here they crowd out the registers
    /// that the quickened statements, the hot path of this loop, run in (measured: 5-10% more
    /// instructions in every benchmark loop).
    pub(super) fn exec(&mut self) -> R<()> {
        loop {
            self.ticks_left -= 1;
            if self.ticks_left == 0 {
                self.tick()?;
            }
            let b = self.skip_spaces();
            if b == b':' {
                self.pc += 1;
                continue;
            }
            if self.debug.is_some() && b != 0x0D {
                self.debug_statement()?;
            }
            // A quickened statement runs here; `Some(false)`: it gave up, the bytes run it.
            if b != 0x0D && self.quick() == Some(true) {
                continue;
            }
            self.pc += 1;
            match b {
                b':' => {}
                0x0D => {
                    let p = self.pc - 1;
                    if self.at(p + 1) == 0xFF || p + 4 >= self.mem.len() || p >= self.himem {
                        self.pc = p;
                        return Err(Box::new(Stop::End));
                    }
                    self.pc = p + 4;
                }
                tok::PRINT => self.print()?,
                tok::IF => self.if_stmt()?,
                tok::ELSE | tok::ELSE_BLOCK => self.else_stmt()?,
                tok::ENDIF => {}
                tok::FOR => self.for_stmt()?,
                tok::NEXT => self.next_stmt()?,
                tok::REPEAT => {
                    let body = self.pc;
                    let skip = self.separator_at(body);
                    self.push(Frame::Repeat { body, skip }, error::NO_ROOM)?;
                }
                tok::UNTIL => self.until_stmt()?,
                tok::GOTO => {
                    let l = self.line_target()?;
                    self.end_stmt()?;
                    self.pc = self.find_line(l)?;
                }
                tok::GOSUB => {
                    let l = self.line_target()?;
                    self.end_stmt()?;
                    let target = self.find_line(l)?;
                    let ret = self.pc;
                    let skip = self.separator_at(ret);
                    self.push(Frame::Gosub { ret, skip }, error::NO_ROOM)?;
                    self.pc = target;
                }
                tok::RETURN => self.return_stmt()?,
                tok::VDU => self.vdu_stmt()?,
                tok::LET => {
                    self.assignment()?;
                }
                tok::PROC => self.proc_stmt()?,
                tok::ENDPROC => self.endproc()?,
                tok::DEF | tok::REM | tok::DATA => self.pc = self.line_end(self.pc),
                b'*' => self.star_line()?,
                tok::CLOSE => self.close_stmt()?,
                tok::BPUT => self.bput_stmt()?,
                tok::PTR_LEFT => self.ptr_ext_stmt(false)?,
                tok::EXT => self.ptr_ext_stmt(true)?,
                tok::LOCAL => self.local_stmt()?,
                tok::DIM => self.dim_stmt()?,
                tok::READ => self.read_stmt()?,
                tok::RESTORE => self.restore_stmt()?,
                tok::END => return Err(Box::new(Stop::End)),
                tok::STOP => return Err(error::STOP.into()),
                tok::INPUT => self.input_stmt()?,
                tok::ON => self.on_stmt()?,
                tok::ERROR => {
                    let n = self.expr_int()?;
                    self.expect(b',', error::MISSING_COMMA)?;
                    let m = self.expr_str()?;
                    return Err(BasicError::user(n, String::from_utf8_lossy(&m).into_owned()).into());
                }
                tok::ENDWHILE => self.endwhile()?,
                tok::WHEN | tok::OTHERWISE => self.skip_case(false)?,
                tok::ENDCASE => {}
                tok::CLEAR => {
                    let res = self.resident;
                    let pc = self.pc;
                    self.clear_state();
                    self.resident = res;
                    self.pc = pc;
                }
                tok::CLS => {
                    self.out(12);
                    self.count = 0;
                }
                tok::CLG => self.out(16),
                tok::MODE => {
                    let m = self.expr_int()?;
                    self.out(22);
                    self.out(m as u8);
                    self.count = 0;
                    self.end_stmt()?;
                }
                tok::COLOUR => self.colour_stmt()?,
                tok::GCOL => {
                    let a = self.expr_int()?;
                    let (act, c) = if self.eat(b',') {
                        (a, self.expr_int()?)
                    } else {
                        (0, a)
                    };
                    self.vdu_bytes(&[18, act as u8, c as u8]);
                    self.end_stmt()?;
                }
                tok::PLOT => {
                    let k = self.expr_int()?;
                    self.expect(b',', error::MISSING_COMMA)?;
                    self.plot_xy(k)?;
                }
                tok::MOVE => self.plot_xy(4)?,
                tok::DRAW => self.plot_xy(5)?,
                tok::LINE => {
                    self.plot_xy(4)?;
                    self.expect(b',', error::MISSING_COMMA)?;
                    self.plot_xy(5)?;
                }
                tok::OFF => self.vdu_bytes(&[23, 1, 0, 0, 0, 0, 0, 0, 0, 0]),
                tok::SOUND | tok::ENVELOPE | tok::WIDTH => {
                    // No sound or printer: the arguments are still evaluated, for their errors.
                    loop {
                        self.expr()?;
                        if !self.eat(b',') {
                            break;
                        }
                    }
                    self.end_stmt()?;
                }
                tok::TRACE => self.trace_stmt()?,
                tok::REPORT => {
                    // Like the default error handler, REPORT starts a new line first.
                    self.newline();
                    let r = self.report.clone();
                    self.out_all(&r);
                }
                tok::TIME_LEFT => {
                    self.expect(b'=', error::MISTAKE)?;
                    let t = self.expr_int()? as i64;
                    self.time_offset = t - self.host.time_cs();
                    self.end_stmt()?;
                }
                tok::PAGE_LEFT | tok::LOMEM_LEFT | tok::HIMEM_LEFT => {
                    // Memory layout is fixed: the values are checked, then ignored.
                    self.expect(b'=', error::MISTAKE)?;
                    self.expr_int()?;
                    self.end_stmt()?;
                }
                tok::OSCLI => {
                    let c = self.expr_str()?;
                    self.star_command(&c)?;
                    self.end_stmt()?;
                }
                tok::CHAIN => self.chain_stmt()?,
                tok::RUN => {
                    self.clear_state();
                    self.pc = self.page;
                }
                b'=' => {
                    let v = self.expr()?;
                    self.end_stmt()?;
                    return self.fn_return(v);
                }
                tok::MID_S | tok::LEFT_S | tok::RIGHT_S => self.mid_assign(b)?,
                tok::ESC_STMT => {
                    let t2 = self.at(self.pc);
                    self.pc += 1;
                    self.escaped_stmt(t2)?;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'`' | b'@' | b'?' | b'!' | b'$' | b'|' => {
                    self.pc -= 1;
                    self.assignment()?;
                }
                _ => return Err(error::MISTAKE.into()),
            }
        }
    }

    #[inline(never)]
    fn escaped_stmt(&mut self, t: u8) -> R<()> {
        use tok::stmt as s;
        match t {
            s::CASE => self.case_stmt(),
            s::WHILE => self.while_stmt(),
            s::SWAP => {
                if self.whole_array_at(self.pc).is_some() {
                    return self.swap_arrays();
                }
                let a = self.var_ref(false)?;
                self.expect(b',', error::MISSING_COMMA)?;
                let b = self.var_ref(false)?;
                let (va, vb) = (self.read(a)?, self.read(b)?);
                if matches!(va, Val::Str(_)) != matches!(vb, Val::Str(_)) {
                    return Err(error::TYPE_MISMATCH.into());
                }
                self.assign(a, vb)?;
                self.assign(b, va)?;
                self.end_stmt()
            }
            s::WAIT => {
                let cs = if self.at_stmt_end() {
                    0
                } else {
                    self.expr_int()?.max(0) as u32
                };
                let sig = self.host.wait(&mut self.vdu, cs);
                self.check_signal(sig)?;
                self.end_stmt()
            }
            s::QUIT => {
                let n = if self.at_stmt_end() { 0 } else { self.expr_int()? };
                Err(Box::new(Stop::Quit(n)))
            }
            s::ORIGIN => {
                let x = self.expr_int()?;
                self.expect(b',', error::MISSING_COMMA)?;
                let y = self.expr_int()?;
                let (x, y) = ((x as i16).to_le_bytes(), (y as i16).to_le_bytes());
                self.vdu_bytes(&[29, x[0], x[1], y[0], y[1]]);
                self.end_stmt()
            }
            s::POINT => self.plot_xy(69),
            s::FILL => self.plot_xy(133),
            s::RECTANGLE => {
                let fill = self.eat(tok::ESC_STMT) && {
                    self.pc += 1;
                    true
                };
                let x = self.expr_int()?;
                self.expect(b',', error::MISSING_COMMA)?;
                let y = self.expr_int()?;
                self.expect(b',', error::MISSING_COMMA)?;
                let w = self.expr_int()?;
                let h = if self.eat(b',') { self.expr_int()? } else { w };
                self.plot(4, x, y);
                if fill {
                    self.plot(101, x + w, y + h);
                } else {
                    self.plot(5, x + w, y);
                    self.plot(5, x + w, y + h);
                    self.plot(5, x, y + h);
                    self.plot(5, x, y);
                }
                self.end_stmt()
            }
            s::CIRCLE => {
                let fill = self.eat(tok::ESC_STMT) && {
                    self.pc += 1;
                    true
                };
                let x = self.expr_int()?;
                self.expect(b',', error::MISSING_COMMA)?;
                let y = self.expr_int()?;
                self.expect(b',', error::MISSING_COMMA)?;
                let r = self.expr_int()?;
                self.plot(4, x, y);
                self.plot(if fill { 157 } else { 149 }, x + r, y);
                self.end_stmt()
            }
            _ => Err(error::UNSUPPORTED.into()),
        }
    }

    // ---- output statements ----

    fn vdu_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.out(b);
        }
    }

    fn plot(&mut self, k: i32, x: i32, y: i32) {
        let (x, y) = ((x as i16).to_le_bytes(), (y as i16).to_le_bytes());
        self.vdu_bytes(&[25, k as u8, x[0], x[1], y[0], y[1]]);
        // A big drawing brings the host's tick forward, so it charges the drawing's time now.
        if self.vdu.pending_work() >= super::host::PIXELS_PER_TICK && self.host.charges_drawing() {
            self.ticks_left = 1;
        }
    }

    #[inline(never)]
    fn plot_xy(&mut self, mut k: i32) -> R<()> {
        // `MOVE BY x,y` (and DRAW, POINT, FILL BY): relative to the last point, the PLOT code 4
        // below the absolute one. RISC OS keeps BY as text, not a token.
        if self.skip_spaces() == b'B'
            && self.at(self.pc + 1) == b'Y'
            && !crate::tokens::is_word_char(self.at(self.pc + 2))
        {
            self.pc += 2;
            k -= 4;
        }
        let x = self.expr_int()?;
        self.expect(b',', error::MISSING_COMMA)?;
        let y = self.expr_int()?;
        self.plot(k, x, y);
        if self.at_stmt_end() || self.skip_spaces() == b',' {
            Ok(())
        } else {
            Err(error::SYNTAX.into())
        }
    }

    /// TRACE ON, TRACE OFF, TRACE n (lines numbered below n). The other forms (TRACE PROC,
    /// TRACE STEP, TRACE TO ...) are accepted and do nothing.
    #[inline(never)]
    fn trace_stmt(&mut self) -> R<()> {
        match self.skip_spaces() {
            tok::ON => {
                self.pc += 1;
                self.end_stmt()?;
                self.set_trace(Some(65536));
            }
            tok::OFF => {
                self.pc += 1;
                self.end_stmt()?;
                self.set_trace(None);
            }
            tok::LINE_NUMBER | b'0'..=b'9' | b'(' | b'-' | b'&' | b'a'..=b'z' | b'A'..=b'Z' => {
                // The tokenizer stores a number after TRACE as a line number.
                let n = self.line_target()?;
                self.end_stmt()?;
                self.set_trace(Some(n.max(0) as u32));
            }
            _ => self.pc = self.line_end(self.pc),
        }
        Ok(())
    }

    #[inline(never)]
    fn colour_stmt(&mut self) -> R<()> {
        let mut args = vec![self.expr_int()?];
        while self.eat(b',') {
            args.push(self.expr_int()?);
        }
        match args[..] {
            [c] => self.vdu_bytes(&[17, c as u8]),
            [l, p] => self.vdu_bytes(&[19, l as u8, p as u8, 0, 0, 0]),
            [l, r, g, b] => self.vdu_bytes(&[19, l as u8, 16, r as u8, g as u8, b as u8]),
            _ => return Err(error::SYNTAX.into()),
        }
        self.end_stmt()
    }

    /// VDU a,b;c| ...: `,` sends a byte, `;` two (low first), `|` nine zero bytes.
    #[inline(never)]
    fn vdu_stmt(&mut self) -> R<()> {
        while !self.at_stmt_end() {
            let v = self.expr_int()?;
            match self.skip_spaces() {
                b';' => {
                    self.pc += 1;
                    self.out(v as u8);
                    self.out((v >> 8) as u8);
                }
                b'|' => {
                    self.pc += 1;
                    self.out(v as u8);
                    for _ in 0..9 {
                        self.out(0);
                    }
                }
                b',' => {
                    self.pc += 1;
                    self.out(v as u8);
                }
                _ => {
                    self.out(v as u8);
                    return self.end_stmt();
                }
            }
        }
        Ok(())
    }

    fn spaces(&mut self, n: usize) {
        for _ in 0..n {
            self.out(b' ');
        }
    }

    #[inline(never)]
    fn print(&mut self) -> R<()> {
        if self.skip_spaces() == b'#' {
            return self.print_file();
        }
        let fmt = Format::from_at(self.resident[0]);
        let width = fmt.width as usize;
        // Numbers right-justify in the @% field at the start and after a comma, not after `;`.
        let mut pad = true;
        let mut newline = true;
        let mut hex = false;
        let mut buf = Vec::new();
        loop {
            match self.skip_spaces() {
                b':' | 0x0D | tok::ELSE => break,
                b';' => {
                    self.pc += 1;
                    pad = false;
                    newline = false;
                }
                b',' => {
                    self.pc += 1;
                    pad = true;
                    // Unlike `;`, a trailing comma still ends the line (as Brandy does).
                    newline = true;
                    if width > 0 && !self.count.is_multiple_of(width) {
                        self.spaces(width - self.count % width);
                    }
                }
                b'\'' => {
                    self.pc += 1;
                    self.newline();
                    newline = true;
                }
                b'~' => {
                    self.pc += 1;
                    hex = true;
                }
                tok::TAB => {
                    self.pc += 1;
                    let x = self.expr_int()?;
                    if self.eat(b',') {
                        let y = self.expr_int()?;
                        self.close_bracket()?;
                        self.vdu_bytes(&[31, x as u8, y as u8]);
                    } else {
                        self.close_bracket()?;
                        // TAB's column is a byte, like VDU 31's.
                        let x = (x & 255) as usize;
                        if self.count > x {
                            self.newline();
                        }
                        self.spaces(x - self.count);
                    }
                    newline = true;
                }
                tok::SPC => {
                    self.pc += 1;
                    let n = {
                        let v = self.factor()?;
                        self.to_int(v)?
                    };
                    self.spaces((n & 255) as usize);
                    newline = true;
                }
                _ => {
                    let v = self.expr()?;
                    buf.clear();
                    match v {
                        Val::Str(s) => {
                            if hex {
                                return Err(error::TYPE_MISMATCH.into());
                            }
                            self.out_all(&s);
                        }
                        v => {
                            let n = self.to_num(v)?;
                            if hex {
                                let i = number::f64_to_i32(n.as_f64())?;
                                buf.extend_from_slice(format!("{:X}", i as u32).as_bytes());
                            } else {
                                number::format_num(&mut buf, n, fmt);
                            }
                            if pad && width > buf.len() {
                                self.spaces(width - buf.len());
                            }
                            let b = std::mem::take(&mut buf);
                            self.out_all(&b);
                            buf = b;
                        }
                    }
                    hex = false;
                    newline = true;
                }
            }
        }
        if newline {
            self.newline();
        }
        Ok(())
    }

    fn close_bracket(&mut self) -> R<()> {
        self.expect(b')', error::MISSING_BRACKET)
    }

    // ---- assignment ----

    #[inline(never)]
    pub(super) fn assignment(&mut self) -> R<()> {
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
    fn combine(&mut self, a: Val, op: u8, b: Val) -> R<Val> {
        super::expr::binop_values(op, a, b)
    }

    /// MID$(a$,s[,n])=b$, LEFT$(a$[,n])=b$, RIGHT$(a$[,n])=b$: overwrite part of a string.
    #[inline(never)]
    fn mid_assign(&mut self, t: u8) -> R<()> {
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

    // ---- conditionals ----

    fn truth(&mut self) -> R<bool> {
        let v = self.expr()?;
        Ok(match v {
            Val::Int(i) => i != 0,
            Val::Float(f) => number::f64_to_i32(f)? != 0,
            Val::Str(_) => return Err(error::TYPE_MISMATCH.into()),
        })
    }

    #[inline(never)]
    fn if_stmt(&mut self) -> R<()> {
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
    pub(super) fn next_item(&self, p: usize) -> usize {
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
    fn first_on_line(&self, tok_at: usize) -> bool {
        let i = self.lines.partition_point(|&(_, off)| off <= tok_at);
        if i == 0 {
            return false;
        }
        let body = self.lines[i - 1].1 + 4;
        (body..tok_at).all(|q| self.at(q) == b' ')
    }

    #[inline(never)]
    fn else_stmt(&mut self) -> R<()> {
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
    fn skip_block(&mut self, to_else: bool) -> R<()> {
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
    fn for_stmt(&mut self) -> R<()> {
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
    fn next_stmt(&mut self) -> R<()> {
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
    fn next_float_slow(&mut self, var: VarRef, limit: f64, step: f64, body: usize) -> R<(bool, usize)> {
        let cur = self.read(var)?;
        let n = self.to_f64(cur)? + step;
        self.assign(var, Val::Float(n))?;
        Ok((if step >= 0.0 { n <= limit } else { n >= limit }, body))
    }

    /// Finds the innermost stack entry `want` accepts, passing over loops only.
    fn find_frame(&self, want: impl Fn(&Frame) -> bool) -> Option<usize> {
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
    fn until_stmt(&mut self) -> R<()> {
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
    fn while_stmt(&mut self) -> R<()> {
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
    fn skip_while(&mut self) -> R<()> {
        self.pc = self.endwhile_after(self.pc).ok_or(error::NOT_IN_WHILE)?;
        Ok(())
    }

    /// The position after the ENDWHILE matching a WHILE whose condition ends at `p` (nested
    /// WHILEs counted, REM and DATA skipped); `None` when the program has none.
    pub(super) fn endwhile_after(&self, mut p: usize) -> Option<usize> {
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
    fn endwhile(&mut self) -> R<()> {
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
    fn case_line_start(&self, p: usize) -> R<usize> {
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
    fn scan_case_line(&self, q: usize) -> (usize, usize) {
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
    fn case_stmt(&mut self) -> R<()> {
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
    fn skip_case(&mut self, _: bool) -> R<()> {
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
    fn line_target(&mut self) -> R<i32> {
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
    fn return_stmt(&mut self) -> R<()> {
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
    fn proc_stmt(&mut self) -> R<()> {
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
    fn leave_routine(&mut self, proc_: bool) -> R<usize> {
        let idx = self
            .stack
            .iter()
            .rposition(|f| matches!(f, Frame::Proc { .. } | Frame::Fn { .. } | Frame::Gosub { .. }));
        let (idx, ret, returns) = match idx.map(|i| (i, &self.stack[i])) {
            Some((i, Frame::Proc { ret, returns })) if proc_ => (i, *ret, returns.len()),
            Some((i, Frame::Fn { returns, .. })) if !proc_ => (i, 0, returns.len()),
            _ => return Err(if proc_ { error::NO_PROC } else { error::NO_FN }.into()),
        };
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
    fn endproc(&mut self) -> R<()> {
        self.pc = self.leave_routine(true)?;
        Ok(())
    }

    /// `=`: leaves the FN and stops its statements with `Ok`, the value in `fn_result` (no
    /// allocation, unlike an `Err` carrying it).
    pub(super) fn fn_return(&mut self, v: Val) -> R<()> {
        self.leave_routine(false)?;
        self.fn_result = v;
        Ok(())
    }

    #[inline(never)]
    fn local_stmt(&mut self) -> R<()> {
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
                Some(&s) if s != 0 => Some(super::site_decode(s)),
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
    fn on_stmt(&mut self) -> R<()> {
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
                    b':' | 0x0D | tok::ELSE if depth <= 0 => {
                        // Out of range: an ELSE on the same statement takes it.
                        if self.at(self.pc) == tok::ELSE {
                            self.pc += 1;
                            return Ok(());
                        }
                        return Err(error::ON_RANGE.into());
                    }
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
    fn statement_end(&self, mut p: usize) -> usize {
        while !matches!(self.at(p), b':' | 0x0D) {
            if self.at(p) == tok::ELSE {
                return self.line_end(p);
            }
            p = self.next_item(p);
        }
        p
    }

    // ---- DIM, DATA, INPUT ----

    #[inline(never)]
    fn dim_stmt(&mut self) -> R<()> {
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
    fn next_data(&mut self) -> R<Vec<u8>> {
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
    fn read_stmt(&mut self) -> R<()> {
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
    fn data_number(&mut self, item: &[u8]) -> R<Val> {
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
    fn restore_saved(&mut self, data: bool) -> R<()> {
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
    fn restore_stmt(&mut self) -> R<()> {
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

    #[inline(never)]
    fn input_stmt(&mut self) -> R<()> {
        if self.skip_spaces() == b'#' {
            return self.input_file();
        }
        let line_mode = self.eat(tok::LINE);
        let mut pending: Vec<Vec<u8>> = Vec::new();
        let mut prompted = false;
        loop {
            let b = self.skip_spaces();
            match b {
                b':' | 0x0D | tok::ELSE => break,
                b',' | b';' => {
                    self.pc += 1;
                }
                b'"' => {
                    let s = match self.factor()? {
                        Val::Str(s) => s,
                        _ => Vec::new(),
                    };
                    self.out_all(&s);
                    // Only a prompt followed directly by the variable suppresses the "?":
                    // `INPUT "NAME";A$` and `INPUT "NAME",A$` both show `NAME?`, as the BBC
                    // Micro User Guide and every BASIC V print it.
                    prompted = !matches!(self.skip_spaces(), b',' | b';');
                    if !prompted {
                        self.pc += 1;
                    }
                }
                tok::TAB | tok::SPC | b'\'' => {
                    if b == b'\'' {
                        self.pc += 1;
                        self.newline();
                    } else {
                        self.pc += 1;
                        let x = self.expr_int()?;
                        if b == tok::TAB {
                            if self.eat(b',') {
                                let y = self.expr_int()?;
                                self.vdu_bytes(&[31, x as u8, y as u8]);
                            } else if self.count > (x & 255) as usize {
                                self.newline();
                                self.spaces((x & 255) as usize);
                            } else {
                                self.spaces((x & 255) as usize - self.count);
                            }
                            self.close_bracket()?;
                        } else {
                            self.spaces((x & 255) as usize);
                        }
                    }
                }
                _ => {
                    let v = self.var_ref(true)?;
                    if pending.is_empty() {
                        if !prompted {
                            self.out(b'?');
                        }
                        prompted = false;
                        let line = match self.host.read_line(&mut self.vdu) {
                            LineRead::Line(l) => l,
                            LineRead::Signal(s) => {
                                self.check_signal(s)?;
                                Vec::new()
                            }
                        };
                        self.count = 0;
                        if line_mode {
                            pending.push(line);
                        } else {
                            pending = line.split(|&c| c == b',').map(|f| f.to_vec()).collect();
                            pending.reverse();
                        }
                        if line_mode {
                            pending.reverse();
                        }
                    }
                    let field = pending.pop().unwrap_or_default();
                    let val = match self.read(v)? {
                        Val::Str(_) => {
                            if line_mode {
                                Val::Str(field)
                            } else {
                                let t: Vec<u8> = field.iter().copied().skip_while(|&c| c == b' ').collect();
                                Val::Str(t)
                            }
                        }
                        _ => val_of(&field),
                    };
                    let val = match val {
                        Val::Str(s) if s.len() > MAX_STRING => Val::Str(s[..MAX_STRING].to_vec()),
                        v => v,
                    };
                    self.assign(v, val)?;
                }
            }
        }
        Ok(())
    }
}
