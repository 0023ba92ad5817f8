//! Fast paths for strings: appending to a string variable in place (`a$=a$+x`, `a$+=x`),
//! reading a string variable or literal where a function only looks at it (LEN, ASC, LEFT$...)
//! instead of copying it out, and reusing the buffers of temporary strings.
//!
//! Reading a variable later than the byte-by-byte evaluator would is only the same when nothing
//! evaluated in between can change it. In an expression only a FN call (directly, or through
//! EVAL) can change a variable, so the in-place paths are taken only where the bytes still to
//! be evaluated contain no FN or EVAL token; otherwise the general path runs. Errors (String too
//! long, Type mismatch...) are raised at the same points, with the variable unchanged.

use super::error;
use super::number::Num;
use super::value::{Val, append};
use super::{Interp, MAX_STRING, R, VarRef};
use crate::tokens as tok;

/// A string function's argument: evaluated, or where it can be read in place.
pub(super) enum StrArg {
    Owned(Vec<u8>),
    /// A string variable's slot.
    Var(usize),
    /// A string literal's bytes in memory (from, to).
    Mem(usize, usize),
}

/// Spare strings kept for reuse: enough for the temporaries of a busy expression.
const SPARE_STRS: usize = 16;

impl Interp {
    /// A new empty string with room for the longest string: a spare one if there is one, so
    /// temporary strings do not each cost an allocation and a free.
    #[inline]
    pub(super) fn str_new(&mut self) -> Vec<u8> {
        self.spare_strs
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(MAX_STRING + 1))
    }

    /// A new string holding `bytes` (see [`Interp::str_new`]).
    #[inline]
    pub(super) fn str_from(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut s = self.str_new();
        s.extend_from_slice(bytes);
        s
    }

    /// Keeps a string that is no longer needed for [`Interp::str_new`].
    #[inline]
    pub(super) fn str_free(&mut self, mut s: Vec<u8>) {
        if s.capacity() > MAX_STRING && self.spare_strs.len() < SPARE_STRS {
            s.clear();
            self.spare_strs.push(s);
        }
    }

    /// The slot of the simple string variable whose name starts at `p`, if this position has
    /// resolved it before (a first visit takes the general path, which fills the site cache),
    /// and the position after the name.
    #[inline]
    pub(super) fn cached_str_var(&self, p: usize) -> Option<(usize, usize)> {
        let s = *self.pos.site.get(p.wrapping_sub(self.page))?;
        if s == 0 {
            return None;
        }
        match super::site_decode(s) {
            (VarRef::Str(i), len) if (i as usize) < self.strs.len() => Some((i as usize, p + len)),
            _ => None,
        }
    }

    fn skip_spaces_at(&self, mut p: usize) -> usize {
        while self.at(p) == b' ' {
            p += 1;
        }
        p
    }

    /// Whether the bytes from `p` up to the end of the statement (`to_close` false) or up to the
    /// bracket closing the argument list `p` is in (`to_close` true) contain no FN or EVAL, so
    /// evaluating them cannot change a variable. Unsure (a missing bracket, a FN byte in an
    /// unusual place) counts as no: the caller then takes the general path.
    ///
    /// The answer depends only on the program bytes, so it is kept per program byte (two bits
    /// for each kind of scan: 0 not known, 1 calls nothing, 2 may call); writes into the program
    /// clear it.
    #[inline]
    fn calls_nothing(&mut self, p: usize, to_close: bool) -> bool {
        let off = p.wrapping_sub(self.page);
        let shift = if to_close { 2 } else { 0 };
        if let Some(&c) = self.pos.str_scan.get(off) {
            match (c >> shift) & 3 {
                0 => {}
                known => return known == 1,
            }
        }
        let r = self.scan_calls_nothing(p, to_close);
        if let Some(c) = self.pos.str_scan.get_mut(off) {
            *c |= (if r { 1 } else { 2 }) << shift;
        }
        r
    }

    #[inline(never)]
    fn scan_calls_nothing(&self, mut p: usize, to_close: bool) -> bool {
        let mut depth = 0u32;
        loop {
            match self.at(p) {
                0x0D => return !to_close,
                b'"' => {
                    // Skip the literal (a doubled quote is two literals back to back).
                    p += 1;
                    while self.at(p) != b'"' {
                        if self.at(p) == 0x0D {
                            return false;
                        }
                        p += 1;
                    }
                }
                tok::FN | tok::EVAL => return false,
                b':' | tok::ELSE if !to_close => return true,
                // These keywords include their opening bracket.
                b'('
                | tok::INSTR
                | tok::LEFT_S
                | tok::MID_S
                | tok::RIGHT_S
                | tok::STRING_S
                | tok::POINT
                | tok::TAB => depth += 1,
                b')' if to_close => {
                    if depth == 0 {
                        return true;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            p += 1;
        }
    }

    /// A string function's argument (followed by `,` or `)`). A simple string variable or a
    /// plain string literal is left where it is when the rest of the argument list cannot change
    /// it: the function reads it in place once its other arguments are in.
    pub(super) fn str_arg(&mut self) -> R<StrArg> {
        match self.str_arg_in_place() {
            Some(a) => Ok(a),
            None => Ok(StrArg::Owned(self.expr_str()?)),
        }
    }

    fn str_arg_in_place(&mut self) -> Option<StrArg> {
        // `expr` would raise this before reading anything.
        if self.depth >= self.max_depth {
            return None;
        }
        let p = self.skip_spaces_at(self.pc);
        let (arg, end) = if self.at(p) == b'"' {
            // Without doubled quotes a literal is its bytes; errors are left to `expr`.
            let mut q = p + 1;
            while self.at(q) != b'"' {
                if self.at(q) == 0x0D {
                    return None;
                }
                q += 1;
            }
            if self.at(q + 1) == b'"' || q - (p + 1) > MAX_STRING {
                return None;
            }
            (StrArg::Mem(p + 1, q), q + 1)
        } else {
            let (i, end) = self.cached_str_var(p)?;
            (StrArg::Var(i), end)
        };
        let q = self.skip_spaces_at(end);
        if !matches!(self.at(q), b',' | b')') || !self.calls_nothing(q, true) {
            return None;
        }
        self.pc = end;
        Some(arg)
    }

    /// The bytes of a string function's argument.
    pub(super) fn str_of<'a>(&'a self, a: &'a StrArg) -> R<&'a [u8]> {
        match *a {
            StrArg::Owned(ref s) => Ok(s),
            StrArg::Var(i) => self.str_slot(i),
            StrArg::Mem(s, e) => Ok(&self.mem[s..e]),
        }
    }

    /// `range` of a string function's argument: cut down in its own buffer if it has one.
    pub(super) fn substring(&mut self, a: StrArg, range: std::ops::Range<usize>) -> R<Vec<u8>> {
        match a {
            StrArg::Owned(mut s) => {
                s.truncate(range.end);
                s.drain(..range.start);
                Ok(s)
            }
            a => {
                let mut s = self.str_new();
                s.extend_from_slice(&self.str_of(&a)?[range]);
                Ok(s)
            }
        }
    }

    /// Done with a string function's argument.
    pub(super) fn str_arg_free(&mut self, a: StrArg) {
        if let StrArg::Owned(s) = a {
            self.str_free(s);
        }
    }

    /// A numeric argument of a string function: an integer constant followed by `,` or `)` comes
    /// from the number cache (as `factor` would read it); anything else is a whole expression.
    pub(super) fn int_arg(&mut self) -> R<i32> {
        let p = self.skip_spaces_at(self.pc);
        if self.depth < self.max_depth
            && let Some(&(len, Num::Int(n))) = self.pos.numbers.get(p.wrapping_sub(self.page))
            && len != 0
            && matches!(self.at(self.skip_spaces_at(p + len as usize)), b',' | b')')
        {
            self.pc = p + len as usize;
            return Ok(n);
        }
        self.expr_int()
    }

    /// A function's factor argument that is just a simple string variable: its slot, with pc
    /// moved past the name (nothing else is evaluated before the function reads it).
    #[inline]
    pub(super) fn str_var_factor(&mut self) -> Option<usize> {
        let p = self.skip_spaces_at(self.pc);
        let (i, end) = self.cached_str_var(p)?;
        if matches!(self.at(end), b'?' | b'!') {
            return None;
        }
        self.pc = end;
        Some(i)
    }

    /// The string in slot `i`, for the paths above. The slot exists (checked when it was found,
    /// and only a FN could have removed it since); a missing one reads as it would in `read`.
    #[inline]
    pub(super) fn str_slot(&self, i: usize) -> R<&[u8]> {
        match self.strs.get(i) {
            Some(s) => Ok(s),
            None => Err(error::NO_SUCH_VARIABLE.into()),
        }
    }

    /// Assignment to the simple string variable in slot `i`, pc after its name. Returns false
    /// (pc unchanged) where the general assignment should run instead.
    pub(super) fn str_assignment(&mut self, i: u32) -> R<bool> {
        let i = i as usize;
        let p = self.skip_spaces_at(self.pc);
        match self.at(p) {
            b'=' => {
                self.pc = p + 1;
                if self.self_append(i)? {
                    return Ok(true);
                }
                let v = self.expr()?;
                match (v, self.strs.get_mut(i)) {
                    (Val::Str(s), Some(slot)) => {
                        let old = std::mem::replace(slot, s);
                        self.str_free(old);
                    }
                    (v, _) => self.assign(VarRef::Str(i as u32), v)?,
                }
                Ok(true)
            }
            b'+' if self.at(p + 1) == b'=' => {
                // `a$+=x` reads a$ after x, so appending in place is exactly the general path.
                self.pc = p + 2;
                let v = self.expr()?;
                let Some(slot) = self.strs.get_mut(i) else {
                    return Err(error::NO_SUCH_VARIABLE.into());
                };
                match v {
                    Val::Str(s) => {
                        append(slot, &s)?;
                        self.str_free(s);
                    }
                    _ => return Err(error::TYPE_MISMATCH.into()),
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `a$=a$+x...` with pc after the `=`: x is evaluated, then appended to a$ in place if the
    /// statement ends there. Returns false (pc unchanged) if the expression is not of this form
    /// or could call a FN (which might change a$ after the general path would have read it).
    fn self_append(&mut self, i: usize) -> R<bool> {
        let p = self.skip_spaces_at(self.pc);
        let Some((j, end)) = self.cached_str_var(p) else {
            return Ok(false);
        };
        let plus = self.skip_spaces_at(end);
        if j != i || self.at(plus) != b'+' || !self.calls_nothing(plus + 1, false) {
            return Ok(false);
        }
        // As `expr` does, which the general path would call here.
        if self.depth >= self.max_depth {
            return Err(error::DEEP_CALL.into());
        }
        self.depth += 1;
        self.pc = plus + 1;
        let r = self.append_rhs(i);
        self.depth -= 1;
        r.map(|()| true)
    }

    /// The rest of `a$=a$+x...` after the `+`, a$ in slot `i`.
    fn append_rhs(&mut self, i: usize) -> R<()> {
        // x as the general path reads it: one operand of `+` (operators binding tighter are
        // part of it). CHR$ is read as a byte, without a string in between.
        let x = if self.skip_spaces() == tok::CHR_S {
            self.pc += 1;
            // CHR$'s factor, as `factor` reads it.
            let v = if self.skip_spaces() == b'(' {
                self.pc += 1;
                let v = self.expr()?;
                // `expect`, without the call.
                if self.skip_spaces() != b')' {
                    return Err(error::MISSING_BRACKET.into());
                }
                self.pc += 1;
                v
            } else {
                self.factor()?
            };
            let c = match v {
                Val::Int(c) => c as u8,
                v => self.to_int(v)? as u8,
            };
            if matches!(self.skip_spaces(), b':' | 0x0D | tok::ELSE) {
                let slot = self.strs.get_mut(i).ok_or(error::NO_SUCH_VARIABLE)?;
                if slot.len() >= MAX_STRING {
                    return Err(error::STRING_TOO_LONG.into());
                }
                if slot.len() == slot.capacity() {
                    slot.reserve_exact(MAX_STRING + 1 - slot.len());
                }
                slot.push(c);
                return Ok(());
            }
            let s = self.str_from(&[c]);
            self.expr_prec_from(Val::Str(s), 5)?
        } else {
            self.expr_prec(5)?
        };
        if self.at_stmt_end() {
            let slot = self.strs.get_mut(i).ok_or(error::NO_SUCH_VARIABLE)?;
            return match x {
                Val::Str(y) => {
                    append(slot, &y)?;
                    self.str_free(y);
                    Ok(())
                }
                _ => Err(error::TYPE_MISMATCH.into()),
            };
        }
        // More follows (`a$=a$+x+y`, `a$=a$+x=y`...): a copy of a$ takes part in the rest of the
        // expression as the general path's would.
        let mut a = self.str_new();
        a.extend_from_slice(self.str_slot(i)?);
        let a = Val::Str(a);
        let a = super::expr::binop_values(b'+', a, x)?;
        let v = self.expr_prec_from(a, 1)?;
        self.assign(VarRef::Str(i as u32), v)
    }
}

#[cfg(test)]
mod tests {
    use super::super::run_text;

    /// Runs a program; returns its output and the message of the error that stopped it, if any.
    fn run(src: &str) -> (String, Option<String>) {
        let t = run_text(src, b"", Some(1_000_000)).expect("tokenizes");
        (t.output, t.outcome.message())
    }

    // Each statement runs in a loop: the first run resolves names (general path), later runs
    // take the fast paths, so both must agree with the expected values.

    #[test]
    fn appends_past_255_fail_and_leave_the_variable_unchanged() {
        let handler = "10 ON ERROR PRINT STR$ERR;\" \";LEN A$;\" \";I%:END\n";
        for (stmt, out) in [
            ("A$=\"\":FOR I%=1 TO 300:A$=A$+\"x\":NEXT", "19 255 256\n"),
            ("A$=\"\":FOR I%=1 TO 300:A$=A$+CHR$(65):NEXT", "19 255 256\n"),
            ("A$=\"\":FOR I%=1 TO 300:A$+=\"x\":NEXT", "19 255 256\n"),
            (
                "A$=STRING$(250,\"y\"):FOR I%=1 TO 3:A$=A$+\"abc\":NEXT",
                "19 253 2\n",
            ),
            ("A$=STRING$(100,\"y\"):FOR I%=1 TO 3:A$=A$+A$:NEXT", "19 200 2\n"),
            (
                "A$=STRING$(250,\"y\"):FOR I%=1 TO 3:A$=A$+\"a\"+\"bc\":NEXT",
                "19 253 2\n",
            ),
            (
                "A$=STRING$(250,\"y\"):FOR I%=1 TO 3:A$+=\"a\"+\"bc\":NEXT",
                "19 253 2\n",
            ),
        ] {
            let (o, e) = run(&format!("{handler}20 {stmt}\n"));
            assert_eq!((o.as_str(), e), (out, None), "{stmt}");
        }
    }

    #[test]
    fn a_fn_that_changes_the_variable_runs_after_it_was_read() {
        let defs = "100 DEF FNset(s$):A$=\"zz\":B$=\"Z\":=s$\n110 DEF FNn:A$=\"XYZW\":B$=\"W\":=2\n";
        for (stmt, out) in [
            // `a$=a$+x` reads a$ before x; `a$+=x` after.
            ("A$=A$+FNset(STR$I%)", "a1 a12 a123 "),
            ("A$+=FNset(STR$I%)", "zz1 zz2 zz3 "),
            ("A$=A$+CHR$(LEN FNset(\"abc\")+63)", "aB aBB aBBB "),
            ("A$=A$+CHR$(VAL FNset(\"66\"))", "aB aBB aBBB "),
            ("A$=A$+EVAL(\"FNset(\"\"e\"\")\")", "ae aee aeee "),
            ("A$=A$+\"-\"+FNset(\"f\")", "a-f a--f a---f "),
        ] {
            let src = format!(
                "10 A$=\"a\":B$=\"c\":FOR I%=1 TO 3:{stmt}:PRINT ;A$;\" \";:A$=LEFT$(A$,I%+1):NEXT\n20 END\n{defs}"
            );
            let (o, e) = run(&src);
            assert_eq!((o.as_str(), e), (out, None), "{stmt}");
        }
        // String functions read their first arguments before the others.
        for (expr, out) in [
            ("LEFT$(A$,FNn)", "ab ab "),
            ("MID$(A$,2,(FNn))", "bc bc "),
            ("RIGHT$(A$,ABS(FNn))", "ef ef "),
            ("MID$(A$,LEN(LEFT$(A$,1)),FNn)", "ab ab "),
            ("STR$INSTR(A$,B$,FNn)", "3 3 "),
            ("STR$INSTR(A$+\"Z\",B$,FNn)", "3 3 "),
            ("STR$INSTR(B$,B$,FNn)", "0 0 "),
            ("STR$INSTR(A$,\"c\",FNn)", "3 3 "),
        ] {
            let src =
                format!("10 FOR I%=1 TO 2:A$=\"abcdef\":B$=\"cd\":PRINT {expr};\" \";:NEXT\n20 END\n{defs}");
            let (o, e) = run(&src);
            assert_eq!((o.as_str(), e), (out, None), "{expr}");
        }
    }

    #[test]
    fn other_forms_of_append_take_the_general_path() {
        for (src, out, err) in [
            (
                "10 A$=\"m\":FOR I%=1 TO 3:A$=A$+\"n\"+A$:NEXT:PRINT A$",
                "mnmnmnmnmnmnmnm\n",
                None,
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+\"u\"=A$:NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+1:NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$+=1:NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+CHR$(66)*2:NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$-=\"t\":NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+\"u\" X:NEXT",
                "",
                Some("Syntax error at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+CHR$\"a\":NEXT",
                "",
                Some("Type mismatch at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 2:A$=A$+CHR$(66:NEXT",
                "",
                Some("Missing ) at line 10"),
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 3:A$=A$+CHR$ 66.7+CHR$-191:NEXT:PRINT A$",
                "tBABABA\n",
                None,
            ),
            (
                "10 A$=\"t\":FOR I%=1 TO 3:A$=A$+CHR$(I%+&130):NEXT:PRINT A$",
                "t123\n",
                None,
            ),
            // A string array and a LOCAL string.
            (
                "10 DIM S$(2):FOR I%=1 TO 3:S$(I% MOD 2)=S$(I% MOD 2)+STR$I%:S$(2)+=S$(1):NEXT\n20 PRINT S$(0);\",\";S$(1);\",\";S$(2)",
                "2,13,1113\n",
                None,
            ),
            (
                "10 A$=\"g\":PROCp:PROCp:PRINT A$:END\n20 DEF PROCp:LOCAL A$:FOR J%=1 TO 2:A$=A$+\"l\":A$+=\"m\":NEXT:PRINT A$;:ENDPROC",
                "lmlmlmlmg\n",
                None,
            ),
        ] {
            let (o, e) = run(src);
            assert_eq!((o.as_str(), e.as_deref()), (out, err), "{src}");
        }
    }

    #[test]
    fn a_program_that_writes_a_fn_into_an_append_is_seen() {
        // Zq becomes FNq: the append must stop being done in place once FNq can change A$.
        let (o, e) = run(
            "10 Zq=66:A$=\"a\"\n20 FOR I%=1 TO 4:A$=A$+CHR$(Zq):PRINT A$:IF I%=2 THEN P%=PAGE:REPEAT P%+=1:UNTIL ?P%=90 AND P%?1=113 AND P%?2=41:?P%=&A4\n30 NEXT:END\n40 DEF FNq:A$=\"zz\":=67\n",
        );
        assert_eq!((o.as_str(), e), ("aB\naBB\naBBC\naBBCC\n", None));
    }

    #[test]
    fn string_functions_read_variables_in_place() {
        let (o, e) = run(
            "10 A$=\"abcdef\":B$=\"cd\":FOR I%=1 TO 2\n20 PRINT LEFT$(A$);RIGHT$(A$);LEFT$(A$,2);RIGHT$(A$,2);MID$(A$,2,3);MID$(A$,4);LEN A$;ASC A$;VAL A$;INSTR(A$,B$);INSTR(A$,B$,4);INSTR(A$,A$)\n30 A$=\"\":PRINT LEN A$;ASC A$;LEFT$(A$,1);RIGHT$(A$);MID$(A$,5);INSTR(A$,\"\");INSTR(\"abc\",A$,2):A$=\"abcdef\":NEXT\n",
        );
        let one = "abcdefabefbcddef6970301\n         0-112\n";
        assert_eq!((o, e), (format!("{one}{one}"), None));
        // Literals are read in place too, except with doubled quotes.
        let (o, e) = run(
            "10 FOR I%=1 TO 2:PRINT INSTR(\"abcXYZ\",\"XYZ\");INSTR(\"a\"\"b\",\"\"\"\");LEFT$(\"hello\", 2 );MID$(\"hello\",2 ,I%);RIGHT$(\"\");STRING$(2,\"ab\"):NEXT\n",
        );
        let line = |mid: &str| format!("         42he{mid}abab\n");
        assert_eq!((o, e), (line("e") + &line("el"), None));
        // Errors in the other arguments are raised as before.
        for (src, err) in [
            (
                "10 A$=\"x\":FOR I%=1 TO 2:PRINT LEFT$(A$,\"y\"):NEXT",
                "Type mismatch at line 10",
            ),
            (
                "10 A$=\"x\":FOR I%=1 TO 2:PRINT MID$(A$):NEXT",
                "Missing , at line 10",
            ),
            (
                "10 A$=\"x\":FOR I%=1 TO 2:PRINT LEFT$(A$,1:NEXT",
                "Missing ) at line 10",
            ),
            (
                "10 A$=\"x\":FOR I%=1 TO 2:PRINT INSTR(A$,1/0):NEXT",
                "Division by zero at line 10",
            ),
            (
                "10 FOR I%=1 TO 2:PRINT INSTR(\"x\",\"x):NEXT",
                "Missing \" at line 10",
            ),
            (
                "10 A$=\"x\":FOR I%=1 TO 2:PRINT LEFT$(A$,1 2):NEXT",
                "Missing ) at line 10",
            ),
            (
                "10 FOR I%=1 TO 2:PRINT MID$(\"abc\" 1):NEXT",
                "Missing , at line 10",
            ),
        ] {
            assert_eq!(run(src).1.as_deref(), Some(err), "{src}");
        }
    }
}
