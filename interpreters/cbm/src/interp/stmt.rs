//! The statements, as the ROM's statement routines run them.

use super::error::{BasicError, Result};
use super::expr::LET_PUSHES;
use super::expr::Value;
use super::strings::Str;
use super::vars::{Kind, Place};

/// The stack bytes FOR holds while it reads its start value (LET called from FOR, with LET's
/// pushes), its TO value (the statement's end and line pushed) and STEP (TO's value too), over
/// FRMNUM's own, measured against cbmbasic.
const FOR_LET: usize = 2;
const FOR_TO: usize = 2;
const FOR_STEP: usize = 7;
use super::{FOR_BYTES, FOR_LIMIT, GOSUB_BYTES, GOSUB_LIMIT, Interp, Outcome, StackEntry, zp};
use crate::float::{Fac, Packed};
use crate::tokens as t;

type R = Result<Outcome>;

/// A pass of NEXT's whole-number path that found its loop not done (see `run_empty_loop`).
struct EmptyLoop {
    /// The loop variable's value address.
    var: usize,
    /// The value this pass stored.
    value: i64,
    step: i64,
    limit: i64,
    /// Where NEXT's variable name is (or the end of the statement for a bare NEXT), and its
    /// length.
    at: usize,
    name_len: usize,
    /// The line the NEXT is in.
    next_line: Option<u16>,
}
const NEXT: R = Ok(Outcome::Next);

/// Runs the statement whose first byte (already read) is `c`.
pub(super) fn dispatch(it: &mut Interp, c: u8) -> R {
    match c {
        // An empty statement (the line ends, or another `:` follows) does nothing: the byte
        // stays for the caller, as GONE3 returns on CHRGET's end-of-statement Z flag.
        0 | b':' => {
            it.state.pos -= 1;
            NEXT
        }
        b'A'..=b'Z' => {
            it.state.pos -= 1;
            it.let_stmt()
        }
        t::LET => it.let_stmt(),
        t::PRINT => it.print(),
        t::GOTO => it.goto(),
        t::GO => {
            it.expect(t::TO)?;
            it.goto()
        }
        t::IF => it.if_stmt(),
        t::FOR => it.for_stmt(),
        t::NEXT => it.next_stmt(),
        t::GOSUB => it.gosub(),
        t::RETURN => it.return_stmt(),
        t::REM => {
            it.skip_line();
            NEXT
        }
        t::DATA => {
            it.skip_statement();
            NEXT
        }
        t::DIM => {
            loop {
                it.dim_one()?;
                if it.peekc() != b',' {
                    break;
                }
                it.state.pos += 1;
            }
            NEXT
        }
        t::READ => it.read(),
        t::RESTORE => {
            it.restore_data(None);
            NEXT
        }
        t::ON => it.on_stmt(),
        t::POKE => {
            let a = it.expr_addr()?;
            it.expect(b',')?;
            let v = it.expr_byte()?;
            it.poke(a, v);
            NEXT
        }
        t::WAIT => it.wait(),
        t::DEF => it.def(),
        t::END => Err(it.end_program(false)),
        t::STOP => Err(it.end_program(true)),
        t::INPUT => it.input(),
        t::GET if it.peekc() == b'#' => {
            it.state.pos += 1;
            it.get_hash()
        }
        t::GET => it.get(),
        t::CLR => {
            it.clr();
            it.restore_data(None);
            NEXT
        }
        t::RUN => {
            if it.at_end_of_statement() {
                it.run_from(None)?;
            } else {
                let n = it.linget()?;
                it.mem[zp::CHARAC] = 0;
                it.run_from(Some(n))?;
            }
            NEXT
        }
        t::NEW => Err(it.new_program()),
        // In a program CONT resumes at OLDTXT, which NEWSTT set to this very statement: it runs
        // itself for ever (until RUN/STOP), as on the C64.
        t::CONT if it.state.line.is_some() => {
            it.state.again = true;
            NEXT
        }
        t::CONT => {
            it.cont()?;
            NEXT
        }
        t::LIST => it.list_stmt(),
        t::SYS => {
            let a = it.expr_addr()?;
            Err(it.machine_code("SYS", a))
        }
        t::OPEN => it.open(),
        t::CLOSE => it.close(),
        t::PRINT_HASH => it.print_hash(),
        t::CMD => it.cmd(),
        t::INPUT_HASH => it.input_hash(),
        t::LOAD | t::SAVE | t::VERIFY => it.load_save(c),
        _ => Err(BasicError::Syntax),
    }
}

impl Interp {
    /// END and STOP: a sentinel error the run loop turns into the right stop.
    fn end_program(&mut self, is_break: bool) -> BasicError {
        self.state.pending_stop = Some(is_break);
        BasicError::Syntax
    }

    fn new_program(&mut self) -> BasicError {
        let start = self.word(zp::TXTTAB) as usize;
        self.mem[start] = 0;
        self.mem[start + 1] = 0;
        self.set_word(zp::VARTAB, (start + 2) as u16);
        self.cache.text_changed();
        self.clr();
        self.state.pending_stop = Some(false);
        BasicError::Syntax
    }

    /// REMN: skips to the end of the line (REM, a false IF). CHARAC ends 0.
    pub(super) fn skip_line(&mut self) {
        while self.mem[self.state.pos] != 0 {
            self.state.pos += 1;
        }
        self.mem[zp::CHARAC] = 0;
    }

    /// DATAN: skips to the end of the statement (a `:` outside quotes, or the end of the line).
    pub(super) fn skip_statement(&mut self) {
        self.state.pos = self.statement_end(self.state.pos);
    }

    /// Where DATAN stops scanning from `p`, leaving CHARAC as DATAN leaves it: the ROM swaps its
    /// two delimiters (`:` and 0) at the start and at every quote, so CHARAC is 0 after an even
    /// number of quotes and `:` after an odd one.
    pub(super) fn statement_end(&mut self, mut p: usize) -> usize {
        let mut quote = false;
        loop {
            match self.mem[p] {
                0 => break,
                b':' if !quote => break,
                b'"' => quote = !quote,
                _ => {}
            }
            p += 1;
        }
        self.mem[zp::CHARAC] = if quote { b':' } else { 0 };
        p
    }

    #[inline(never)]
    pub(super) fn let_stmt(&mut self) -> R {
        self.peekc();
        let at = self.state.pos;
        if let Some((var, kind, len)) = self.cache.simple_var(at) {
            // A variable this text found before (never TI, ST or TI$, which are not in memory).
            self.state.pos = at + len as usize;
            self.name_at = Some(at);
            self.expect(t::EQUAL)?;
            let v = self.deeper(LET_PUSHES, Interp::expr)?;
            self.assign(Place { addr: var + 2, kind }, v)?;
            return NEXT;
        }
        let (name, paren) = self.parse_name(true)?;
        if !paren && name.is_reserved() {
            if (name.n1, name.n2) == (b'T', 0xC9) {
                self.expect(t::EQUAL)?;
                let s = self.expr_str()?;
                return self.set_time(s);
            }
            return Err(BasicError::Syntax);
        }
        let place = if paren {
            Place {
                addr: self.array_elem(name)?,
                kind: name.kind,
            }
        } else {
            Place {
                addr: self.var_addr(name.n1, name.n2)?,
                kind: name.kind,
            }
        };
        self.expect(t::EQUAL)?;
        let v = self.deeper(LET_PUSHES, Interp::expr)?;
        self.assign(place, v)?;
        NEXT
    }

    pub(super) fn assign(&mut self, place: Place, v: Value) -> Result<()> {
        match (place.kind, v) {
            (Kind::Str, Value::Str(s)) => self.assign_str(place.addr, s),
            (Kind::Str, _) | (_, Value::Str(_)) => Err(BasicError::TypeMismatch),
            (_, Value::Num(f)) => self.store_num(place, f),
        }
    }

    fn set_time(&mut self, s: Str) -> R {
        let bytes = self.str_bytes(s).to_vec();
        self.free_str(s);
        if bytes.len() != 6 || !bytes.iter().all(u8::is_ascii_digit) {
            return Err(BasicError::IllegalQuantity);
        }
        let n = |i: usize| u64::from(bytes[i] - b'0') * 10 + u64::from(bytes[i + 1] - b'0');
        let (h, m, sec) = (n(0), n(2), n(4));
        if h > 23 || m > 59 || sec > 59 {
            return Err(BasicError::IllegalQuantity);
        }
        let want = (h * 3600 + m * 60 + sec) * 60;
        let now = self.state.jiffies % 5_184_000;
        self.state.jiffies = self.state.jiffies - now + want;
        NEXT
    }

    fn goto(&mut self) -> R {
        self.peekc();
        let at = self.state.pos;
        if let Some(line) = self.state.line
            && let Some(target) = self.cache.goto(at, line)
        {
            self.mem[zp::CHARAC] = 0;
            self.state.pos = target;
            return NEXT;
        }
        let n = self.linget()?;
        // GOTO finds the end of its line with REMN, which leaves CHARAC 0.
        self.mem[zp::CHARAC] = 0;
        self.goto_line(n)?;
        if let Some(line) = self.state.line
            && self.in_program(at)
        {
            self.cache.set_goto(at, line, self.state.pos);
        }
        NEXT
    }

    /// Continues at the start of line `n` (NEWSTT will read its header). Like the ROM, a jump
    /// forward searches from the line after this one.
    fn goto_line(&mut self, n: u16) -> Result<()> {
        let at = match self.state.line {
            Some(cur) if n > cur && self.state.pos >= self.word(zp::TXTTAB) as usize => {
                let mut end = self.state.pos;
                while self.mem[end] != 0 {
                    end += 1;
                }
                self.find_line_from(end + 1, n)
            }
            _ => self.find_line(n),
        };
        self.state.pos = at.ok_or(BasicError::UndefdStatement)? - 1;
        // From direct mode, the program runs on from there (NEWSTT reads the line's header).
        if self.state.line.is_none() {
            self.state.line = Some(0);
        }
        Ok(())
    }

    fn if_stmt(&mut self) -> R {
        let v = self.expr()?;
        let truth = match v {
            Value::Num(f) => !f.is_zero(),
            Value::Str(s) => {
                self.free_str(s);
                s.len != 0
            }
        };
        let c = self.peekc();
        if c != t::GOTO {
            self.expect(t::THEN)?;
        }
        if !truth {
            self.skip_line();
            return NEXT;
        }
        if c == t::GOTO {
            self.state.pos += 1;
            return self.goto();
        }
        if self.peekc().is_ascii_digit() {
            return self.goto();
        }
        let c = self.getc();
        if c == 0 || c == b':' {
            self.state.pos -= 1;
            return NEXT;
        }
        dispatch(self, c)
    }

    #[inline]
    fn push_frame(&mut self, f: StackEntry) -> Result<()> {
        // FOR has asked for its room already (for_stmt).
        let (bytes, limit) = match f {
            StackEntry::For { .. } => (FOR_BYTES, FOR_LIMIT),
            StackEntry::Gosub { .. } => (GOSUB_BYTES, GOSUB_LIMIT),
        };
        if self.state.stack_bytes > limit {
            return Err(BasicError::OutOfMemory);
        }
        self.state.stack_bytes += bytes;
        self.state.stack.push(f);
        Ok(())
    }

    fn truncate_stack(&mut self, len: usize) {
        while self.state.stack.len() > len {
            let f = self.state.stack.pop().expect("len checked");
            self.state.stack_bytes -= match f {
                StackEntry::For { .. } => FOR_BYTES,
                StackEntry::Gosub { .. } => GOSUB_BYTES,
            };
        }
    }

    /// FNDFOR: the FOR entry of `var` (or the top FOR entry if None) among the FOR entries on
    /// top of the stack; a GOSUB entry ends the search.
    fn find_for(&self, var: Option<u16>) -> Option<usize> {
        for (i, f) in self.state.stack.iter().enumerate().rev() {
            match f {
                StackEntry::For { var: v, .. } if var.is_none_or(|w| w == *v) => return Some(i),
                StackEntry::For { .. } => {}
                StackEntry::Gosub { .. } => return None,
            }
        }
        None
    }

    fn for_stmt(&mut self) -> R {
        let (name, paren) = self.parse_name(false)?;
        if paren || name.is_reserved() {
            return Err(BasicError::Syntax);
        }
        let var = self.var_addr(name.n1, name.n2)?;
        self.expect(t::EQUAL)?;
        // The start value is LET's, called from FOR (FOR_LET more bytes on the stack).
        let start = self.deeper(FOR_LET, Interp::expr_num)?;
        let place = Place {
            addr: var,
            kind: Kind::Float,
        };
        self.store_num(place, start)?;
        if let Some(i) = self.find_for(Some(var)) {
            self.truncate_stack(i);
        }
        // GETSTK for the 18 bytes comes before TO is read.
        if self.state.stack_bytes > FOR_LIMIT {
            return Err(BasicError::OutOfMemory);
        }
        // FOR finds the end of its statement (DATAN) before it reads TO.
        self.statement_end(self.state.pos);
        self.expect(t::TO)?;
        // TO's value is read with the return point pushed; STEP's with TO's value too.
        let limit = self.deeper(FOR_TO, Interp::expr_num)?.to_packed()?;
        let mut step = Fac::ONE.to_packed()?;
        if self.peekc() == t::STEP {
            self.state.pos += 1;
            step = self.deeper(FOR_STEP, Interp::expr_num)?.to_packed()?;
        }
        let frame = StackEntry::For {
            var,
            step,
            limit,
            line: self.state.line,
            pos: self.state.pos,
            whole_step: step.to_whole().unwrap_or(0),
            whole_limit: limit.to_whole(),
        };
        self.push_frame(frame)?;
        NEXT
    }

    pub(super) fn next_stmt(&mut self) -> R {
        self.peekc();
        match self.next_whole() {
            Some(r) => r,
            None => self.next_rom(),
        }
    }

    /// NEXT's common case at a fraction of the cost: the innermost FOR, named by a variable
    /// this text found before (or by a bare NEXT), counting in whole numbers. The sum of two
    /// whole numbers below 2^31 is exact, so whole-number arithmetic gives the very bytes the
    /// ROM's FADD and MOVMF store (the fast-path property test in tests/ checks it). FOR read
    /// the step and the limit as whole numbers once (`whole_step`, `whole_limit`), so only the
    /// variable, which the loop's body may change, is read here. None when the case is not
    /// this one; nothing has changed then.
    #[inline]
    fn next_whole(&mut self) -> Option<R> {
        let at = self.state.pos;
        let Some(&StackEntry::For {
            var,
            limit,
            line,
            pos,
            whole_step,
            whole_limit,
            ..
        }) = self.state.stack.last()
        else {
            return None;
        };
        if whole_step == 0 {
            return None;
        }
        let named = match self.mem[at] {
            0 | b':' => None,
            _ => match self.cache.simple_var(at)? {
                (entry, Kind::Float, len) if entry + 2 == var => Some(len),
                _ => return None,
            },
        };
        // The variable as Packed::to_whole reads it and the sum as Packed::from_whole makes
        // it, on the exponent byte and the mantissa word directly (as load_packed and
        // store_packed cut them).
        let a = var as usize;
        let word = u32::from_be_bytes(self.mem[a + 1..a + 5].try_into().ok()?);
        let value = Packed::whole_of_parts(self.mem[a], word)?;
        let next = value + whole_step;
        let (exp, sum) = Packed::parts_of_whole(next)?;
        self.mem[a] = exp;
        self.mem[a + 1..a + 5].copy_from_slice(&sum.to_be_bytes());
        // FCOMP of two exact numbers is their order: a whole limit compares as an integer.
        let order = match whole_limit {
            Some(l) => l.cmp(&next),
            None => limit.compare(Fac::from_packed(self.load_packed(a))),
        };
        let cmp = match order {
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => -1,
        };
        if cmp != whole_step.signum() {
            let next_line = self.state.line;
            self.state.pos = pos;
            self.state.line = line;
            // Only a loop whose start is this statement (just past a `:` or a line's header)
            // can be empty: a two-comparison look keeps other loops off the long check.
            let start = self.state.stmt_start;
            if self.spare != 0
                && (pos + 1 == start || pos + 5 == start)
                && let Some(l) = whole_limit
            {
                self.run_empty_loop(EmptyLoop {
                    var: a,
                    value: next,
                    step: whole_step,
                    limit: l,
                    at,
                    name_len: named.map_or(0, usize::from),
                    next_line,
                });
            }
            return Some(NEXT);
        }
        Some(self.next_loop_done(at, named))
    }

    /// A NEXT that loops back to itself (`FOR K=1 TO N:NEXT`, or NEXT alone on the line after
    /// its FOR): the loop's body is empty, so each further pass is this NEXT again, adding the
    /// step to the variable and finding the loop not done. Runs as many of those passes as
    /// the slice has statements to spare (`spare`) in one go, and leaves everything as running
    /// them one by one would: the variable holds the whole number it would hold (each pass
    /// adds exactly, see `next_whole`), the statement count (the CIA timer RND(0) reads, the
    /// jiffy budget) has counted each pass, and TXTPTR and CURLIN are at the loop's start.
    /// The pass that ends the loop runs as an ordinary NEXT. A NEXT with more than one
    /// variable, or a loop whose values would leave the whole-number range or pass 0, is left
    /// to run pass by pass.
    #[cold]
    #[inline(never)]
    fn run_empty_loop(&mut self, l: EmptyLoop) {
        // NEWSTT from the loop's start reaches this very statement: the boundary after FOR
        // (a `:`, or the end of its line and the next line's header) is where it began.
        let back = self.state.pos;
        let body = match self.mem[back] {
            b':' if self.state.line == l.next_line => back + 1,
            0 if self.state.line.is_some()
                && self.mem[back + 2] != 0
                && Some(self.word(back + 3)) == l.next_line =>
            {
                back + 5
            }
            _ => return,
        };
        if body != self.state.stmt_start {
            return;
        }
        // The statement is NEXT and this one variable (or none), so that a pass is this NEXT.
        let skip = |it: &Interp, mut p: usize| {
            while it.mem[p] == b' ' {
                p += 1;
            }
            p
        };
        let p = skip(self, body);
        if self.mem[p] != t::NEXT || skip(self, p + 1) != l.at {
            return;
        }
        if !matches!(self.mem[skip(self, l.at + l.name_len)], 0 | b':') {
            return;
        }
        // The passes after this one that find the loop not done.
        let left = if l.step > 0 {
            (l.limit - l.value) / l.step
        } else {
            (l.value - l.limit) / -l.step
        };
        let passes = left.min(i64::from(self.spare));
        if passes <= 0 {
            return;
        }
        let last = l.value + passes * l.step;
        // Every value on the way is a whole number of the same sign, below 2^31 in magnitude:
        // the values move one way, so the two ends say it.
        if last.signum() != l.value.signum() || last.unsigned_abs() >= 1 << 31 {
            return;
        }
        let Some((exp, word)) = Packed::parts_of_whole(last) else {
            return;
        };
        self.mem[l.var] = exp;
        self.mem[l.var + 1..l.var + 5].copy_from_slice(&word.to_be_bytes());
        self.state.ticks = self.state.ticks.wrapping_add(passes as u64);
        self.spare -= passes as u32;
    }

    /// The end of NEXT's whole-number path when the loop is done: its entry popped, and on to
    /// the next variable after a comma. Apart, so that the loop's own path stays short.
    #[cold]
    #[inline(never)]
    fn next_loop_done(&mut self, at: usize, named: Option<u8>) -> R {
        self.truncate_stack(self.state.stack.len() - 1);
        if let Some(len) = named {
            self.state.pos = at + len as usize;
        }
        if self.peekc() != b',' {
            return NEXT;
        }
        self.state.pos += 1;
        self.next_stmt()
    }

    /// NEXT as the ROM does it, for every case.
    #[inline(never)]
    fn next_rom(&mut self) -> R {
        loop {
            let var = if self.at_end_of_statement() {
                None
            } else {
                let (name, paren) = self.parse_name(false)?;
                if paren {
                    return Err(BasicError::Syntax);
                }
                Some(self.var_addr(name.n1, name.n2)?)
            };
            let i = self.find_for(var).ok_or(BasicError::NextWithoutFor)?;
            self.truncate_stack(i + 1);
            let StackEntry::For {
                var,
                step,
                limit,
                line,
                pos,
                ..
            } = self.state.stack[i]
            else {
                unreachable!("find_for returns FOR entries")
            };
            let place = Place {
                addr: var,
                kind: Kind::Float,
            };
            let step = Fac::from_packed(step);
            let value = step.plus(self.load_num(place))?;
            let packed = value.to_packed()?;
            self.store_packed(var as usize, packed);
            let done = limit.compare(Fac::from_packed(packed));
            // Done when value compares with the limit the way the step's sign says.
            let sign = step.sign();
            let cmp = match done {
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => -1,
            };
            if cmp != sign {
                self.state.pos = pos;
                self.state.line = line;
                return NEXT;
            }
            self.truncate_stack(i);
            if self.peekc() != b',' {
                return NEXT;
            }
            self.state.pos += 1;
        }
    }

    fn gosub(&mut self) -> R {
        let frame = StackEntry::Gosub {
            line: self.state.line,
            pos: self.state.pos,
        };
        self.push_frame(frame)?;
        self.goto()
    }

    fn return_stmt(&mut self) -> R {
        let i = self
            .state
            .stack
            .iter()
            .rposition(|f| matches!(f, StackEntry::Gosub { .. }))
            .ok_or(BasicError::ReturnWithoutGosub)?;
        let StackEntry::Gosub { line, pos } = self.state.stack[i] else {
            unreachable!("rposition")
        };
        self.truncate_stack(i);
        self.state.line = line;
        self.state.pos = pos;
        self.skip_statement();
        NEXT
    }

    fn on_stmt(&mut self) -> R {
        let n = self.expr_byte()?;
        let c = self.getc();
        if c != t::GOTO && c != t::GOSUB {
            return Err(BasicError::Syntax);
        }
        // ONGLOP counts down from n (0 wraps to 255) through the list.
        let mut k = n;
        loop {
            k = k.wrapping_sub(1);
            if k == 0 {
                return if c == t::GOSUB { self.gosub() } else { self.goto() };
            }
            self.linget()?;
            if self.peekc() != b',' {
                return NEXT;
            }
            self.state.pos += 1;
        }
    }

    fn wait(&mut self) -> R {
        let a = self.expr_addr()?;
        self.expect(b',')?;
        let mask = self.expr_byte()?;
        let mut xor = 0;
        if self.peekc() == b',' {
            self.state.pos += 1;
            xor = self.expr_byte()?;
        }
        if (self.peek(a) ^ xor) & mask == 0 {
            return Ok(Outcome::Blocked);
        }
        NEXT
    }

    fn def(&mut self) -> R {
        if self.state.line.is_none() {
            return Err(BasicError::IllegalDirect);
        }
        self.expect(t::FN)?;
        let (name, _) = self.parse_name(false)?;
        if name.kind != Kind::Float {
            return Err(BasicError::Syntax);
        }
        // GETFNM creates the function's variable before the parameter's.
        let def = self.var_addr(name.n1 | 0x80, name.n2)? as usize;
        self.expect(b'(')?;
        let (param, paren) = self.parse_name(false)?;
        if paren || param.kind != Kind::Float {
            return Err(BasicError::Syntax);
        }
        let param_addr = self.var_addr(param.n1, param.n2)?;
        self.expect(b')')?;
        self.expect(t::EQUAL)?;
        let body = self.state.pos as u16;
        self.set_word(def, body);
        self.set_word(def + 2, param_addr);
        self.mem[def + 4] = 0;
        self.skip_statement();
        NEXT
    }

    // ---- DATA and READ --------------------------------------------------------------------

    /// RESTORE: DATA is read from the start of the program again.
    pub(super) fn restore_data(&mut self, _line: Option<u16>) {
        let start = self.word(zp::TXTTAB);
        self.set_word(zp::DATPTR, start - 1);
    }

    /// Moves the DATA pointer to the next item; returns false when there is no more DATA.
    fn find_data(&mut self) -> bool {
        let mut p = self.word(zp::DATPTR) as usize;
        // At an item separator within a DATA statement: the next item follows.
        if self.mem[p] == b',' {
            self.set_word(zp::DATPTR, (p + 1) as u16);
            return true;
        }
        // Otherwise search statement by statement for the next DATA, with DATAN (the first
        // call, at the end of the last statement read, leaves CHARAC 0).
        self.mem[zp::CHARAC] = 0;
        loop {
            // p is at a ':' or a 0 ending a statement (or TXTTAB-1 at the start).
            if self.mem[p] == 0 {
                if p + 2 >= 0x10000 || self.mem[p + 2] == 0 {
                    return false;
                }
                let line = self.word(p + 3);
                self.set_word(zp::DATLIN, line);
                p += 5;
            } else {
                p += 1;
            }
            while self.mem[p] == b' ' {
                p += 1;
            }
            if self.mem[p] == t::DATA {
                self.set_word(zp::DATPTR, (p + 1) as u16);
                return true;
            }
            // Skip this statement.
            p = self.statement_end(p);
        }
    }

    fn read(&mut self) -> R {
        loop {
            let (_, place) = self.target()?;
            if !self.find_data() {
                return Err(BasicError::OutOfData);
            }
            let here = self.state.pos;
            self.state.pos = self.word(zp::DATPTR) as usize;
            let r = self.read_item(place);
            let end = self.peekc();
            let data_pos = self.state.pos;
            self.state.pos = here;
            if let Err(e) = r {
                return Err(self.data_error(e));
            }
            if !matches!(end, 0 | b':' | b',') {
                return Err(self.data_error(BasicError::Syntax));
            }
            self.set_word(zp::DATPTR, data_pos as u16);
            if self.peekc() != b',' {
                return NEXT;
            }
            self.state.pos += 1;
        }
    }

    /// An error in a DATA item is reported in the DATA's line.
    fn data_error(&mut self, e: BasicError) -> BasicError {
        self.state.line = Some(self.word(zp::DATLIN));
        e
    }

    /// Reads one DATA item at TXTPTR into `place`.
    fn read_item(&mut self, place: Place) -> Result<()> {
        if place.kind == Kind::Str {
            let s = self.scan_item(true)?;
            return self.assign_str(place.addr, s);
        }
        let c = self.peekc();
        if matches!(c, 0 | b',' | b':') {
            return self.store_num(place, Fac::ZERO);
        }
        let r = Fac::parse(&self.mem[self.state.pos..])?;
        self.state.pos += r.len;
        self.store_num(place, r.value)
    }

    /// A string item of DATA or INPUT at TXTPTR: quoted, or up to a comma (or `:` in DATA).
    /// Leading spaces are skipped, trailing ones kept. Returns a descriptor of the text in place.
    fn scan_item(&mut self, colon_ends: bool) -> Result<Str> {
        let c = self.peekc();
        let start;
        let len;
        // The ROM scans with CHARAC as the delimiter: a quote, or `:` (and `,` in ENDCHR).
        self.mem[zp::CHARAC] = if c == b'"' { b'"' } else { b':' };
        if c == b'"' {
            self.state.pos += 1;
            start = self.state.pos;
            while !matches!(self.mem[self.state.pos], 0 | b'"') {
                self.state.pos += 1;
            }
            len = self.state.pos - start;
            if self.mem[self.state.pos] == b'"' {
                self.state.pos += 1;
            }
        } else {
            start = self.state.pos;
            while !(matches!(self.mem[self.state.pos], 0 | b',')
                || (colon_ends && self.mem[self.state.pos] == b':'))
            {
                self.state.pos += 1;
            }
            len = self.state.pos - start;
        }
        let len = u8::try_from(len).map_err(|_| BasicError::StringTooLong)?;
        if start < 0x0300 {
            let bytes = self.mem[start..start + len as usize].to_vec();
            return self.new_str(&bytes);
        }
        Ok(Str {
            len,
            addr: start as u16,
            temp: false,
        })
    }

    // ---- INPUT and GET --------------------------------------------------------------------

    fn input(&mut self) -> R {
        if self.state.line.is_none() {
            return Err(BasicError::IllegalDirect);
        }
        let stmt = self.state.pos;
        let mut prompt: Option<Vec<u8>> = None;
        if self.peekc() == b'"' {
            let s = self.expr_str()?;
            prompt = Some(self.str_bytes(s).to_vec());
            self.free_str(s);
            self.expect(b';')?;
        }
        if !self.state.input_prompted {
            if let Some(p) = &prompt {
                let p = p.clone();
                self.chrout_all(&p)?;
            }
            self.strout(b"? ")?;
            self.state.input_prompted = true;
        }
        let Some(line) = self.next_input_line() else {
            self.state.pos = stmt;
            return Ok(Outcome::Blocked);
        };
        self.state.input_prompted = false;
        match self.state.input_more.take() {
            // The line answers `??`: reading goes on at the variable that asked for it.
            Some(var_at) => self.input_items(line, stmt, var_at, false),
            None => {
                let vars_at = self.state.pos;
                self.input_items(line, stmt, vars_at, true)
            }
        }
    }

    /// Puts a typed line into BUF and reads the INPUT's variables from it, from the one at
    /// `var_at` in the program text (`first`: the first of the statement), asking for more
    /// (`??`) when it runs out and redoing on a bad number.
    fn input_items(&mut self, line: Vec<u8>, stmt: usize, var_at: usize, mut first: bool) -> R {
        self.fill_buffer(&line);
        self.state.pos = var_at;
        let mut buf_pos = super::BUF;
        loop {
            let var_at = self.state.pos;
            let (_, place) = self.target()?;
            let after_var = self.state.pos;
            self.state.pos = buf_pos;
            if !first && self.peekc() == 0 {
                // Ran out: the ROM prints ?? and reads another line.
                self.state.pos = after_var;
                self.strout(b"?? ")?;
                let Some(more) = self.next_input_line() else {
                    // Waits for the line; the statement runs again and carries on here.
                    self.state.input_prompted = true;
                    self.state.input_more = Some(var_at);
                    self.state.pos = stmt;
                    return Ok(Outcome::Blocked);
                };
                self.fill_buffer(&more);
                self.state.pos = super::BUF;
            }
            first = false;
            if self.peekc() == 0 && buf_pos == super::BUF && place.kind != Kind::Str && line.is_empty() {
                // An empty answer leaves the variables as they were.
                self.state.pos = after_var;
                self.skip_statement();
                return NEXT;
            }
            let ok = if place.kind == Kind::Str {
                let s = self.scan_item(false)?;
                self.assign_str(place.addr, s)?;
                true
            } else {
                match Fac::parse(&self.mem[self.state.pos..]) {
                    Ok(r) => {
                        let end = self.mem[self.state.pos + r.len];
                        if matches!(end, 0 | b',') {
                            self.state.pos += r.len;
                            self.store_num(place, r.value)?;
                            true
                        } else {
                            false
                        }
                    }
                    Err(_) => false,
                }
            };
            if !ok {
                self.strout(b"?REDO FROM START\r")?;
                self.state.pos = stmt;
                return self.input();
            }
            let c = self.peekc();
            buf_pos = self.state.pos + usize::from(c == b',');
            self.state.pos = after_var;
            if self.peekc() != b',' {
                if c == b',' {
                    self.strout(b"?EXTRA IGNORED\r")?;
                }
                return NEXT;
            }
            self.state.pos += 1;
        }
    }

    fn fill_buffer(&mut self, line: &[u8]) {
        let n = line.len().min(88);
        self.mem[super::BUF..super::BUF + n].copy_from_slice(&line[..n]);
        self.mem[super::BUF + n] = 0;
    }

    fn get(&mut self) -> R {
        if self.state.line.is_none() {
            return Err(BasicError::IllegalDirect);
        }
        loop {
            let key = self.next_key();
            if key.is_none() {
                self.idle_polls = self.idle_polls.saturating_add(1);
            }
            self.get_into(key)?;
            if self.peekc() != b',' {
                return NEXT;
            }
            self.state.pos += 1;
        }
    }

    /// Stores a key GET read (None: nothing) into the variable at TXTPTR.
    pub(super) fn get_into(&mut self, key: Option<u8>) -> Result<()> {
        let (_, place) = self.target()?;
        if place.kind == Kind::Str {
            self.mem[zp::CHARAC] = 0;
            let s = match key {
                Some(k) => self.new_str(&[k])?,
                None => self.new_str(&[])?,
            };
            return self.assign_str(place.addr, s);
        }
        let v = match key {
            None => Fac::ZERO,
            Some(k) if k.is_ascii_digit() => Fac::from_u8(k - b'0'),
            // The ROM reads the key as DATA: these read as an empty item, 0.
            Some(b':' | b',') => Fac::ZERO,
            Some(_) => return Err(BasicError::Syntax),
        };
        self.store_num(place, v)
    }

    // ---- PRINT -----------------------------------------------------------------------------

    fn print(&mut self) -> R {
        loop {
            let c = self.peekc();
            match c {
                0 | b':' => {
                    self.crdo()?;
                    return NEXT;
                }
                b';' => {
                    self.state.pos += 1;
                    if self.at_end_of_statement() {
                        return NEXT;
                    }
                }
                b',' => {
                    self.state.pos += 1;
                    let col = self.column();
                    let n = 10 - col % 10;
                    for _ in 0..n {
                        self.cursor_right()?;
                    }
                    if self.at_end_of_statement() {
                        return NEXT;
                    }
                }
                t::TAB | t::SPC => {
                    self.state.pos += 1;
                    let n = self.expr_byte()?;
                    self.expect(b')')?;
                    let count = if c == t::TAB {
                        n.saturating_sub(self.column())
                    } else {
                        n
                    };
                    for _ in 0..count {
                        if c == t::TAB || self.state.channel != 0 {
                            self.chrout(b' ')?;
                        } else {
                            self.cursor_right()?;
                        }
                    }
                    if self.at_end_of_statement() {
                        return NEXT;
                    }
                }
                _ => match self.expr()? {
                    Value::Num(f) => {
                        let text = f.fout();
                        // PRINT makes FOUT's text a string with STRLIT (CHARAC = quote).
                        self.mem[zp::CHARAC] = b'"';
                        self.chrout_all(text.as_bytes())?;
                        self.cursor_right()?;
                    }
                    Value::Str(s) => {
                        let bytes = self.str_bytes(s).to_vec();
                        self.free_str(s);
                        self.chrout_all(&bytes)?;
                    }
                },
            }
        }
    }

    /// OUTSPC: after a number, a cursor-right on the screen, a space to files.
    fn cursor_right(&mut self) -> Result<()> {
        self.chrout(if self.state.channel == 0 { 0x1D } else { b' ' })
    }

    /// CRDO: a CR, and a LF after it for logical files 128 and up.
    fn crdo(&mut self) -> Result<()> {
        self.chrout(13)?;
        if self.state.channel >= 128 {
            self.chrout(10)?;
        }
        Ok(())
    }

    fn list_stmt(&mut self) -> R {
        let (from, to) = self.list_range()?;
        let program = self.program();
        let mut text = Vec::new();
        for line in program
            .lines()
            .iter()
            .filter(|l| l.number >= from && l.number <= to)
        {
            // The ROM prints the RETURN before each line, and READY.'s own RETURN ends the last.
            text.push(13);
            text.extend_from_slice(line.number.to_string().as_bytes());
            text.push(b' ');
            crate::list::list_body(&line.body, &mut text);
        }
        self.chrout_all(&text)?;
        // LIST in a program ends it (the ROM goes back to READY).
        self.state.pending_stop = Some(false);
        Err(BasicError::Syntax)
    }

    fn list_range(&mut self) -> Result<(u16, u16)> {
        let mut from = 0;
        let mut to = 65535;
        if self.peekc().is_ascii_digit() {
            from = self.linget()?;
            to = from;
        }
        if self.peekc() == t::MINUS {
            self.state.pos += 1;
            to = if self.peekc().is_ascii_digit() {
                self.linget()?
            } else {
                65535
            };
        }
        if !self.at_end_of_statement() {
            return Err(BasicError::Syntax);
        }
        Ok((from, to))
    }
}
