//! TRACE: what a run shows of itself as it goes, in RISC OS BASIC V's forms (read from its ARM
//! source: the TRACE statement in s/Stmt, FNTRC and ENDTRC in s/Funct; docs/bbc-basic.md).
//! - `TRACE ON` / `TRACE n`: each line as it is entered, `[20] ` (with n, lines numbered
//!   below n).
//! - `TRACE PROC` (or `TRACE FN`): each PROC and FN call, by the name written at the call,
//!   `[PROCdraw] `, shown before the DEF is looked for.
//! - `TRACE ENDPROC`: each return, `[ENDPROC] ` or `[ENDFN] `.
//! - `TRACE STEP` before any of those: the same entries in braces, `{20} `, each followed by
//!   a wait for a key (the key is thrown away).
//! - `TRACE TO "name"`: the entries go to that file instead, one a line without brackets
//!   (`20`, `PROCdraw`), until `TRACE CLOSE`.
//! - `TRACE OFF`: lines, calls, returns and STEP off together (a TRACE TO file stays open).
//!   An error that no ON ERROR takes does the same: BASIC V's own error handler begins with
//!   `TRACE OFF`.
//!
//! The forms add up: `TRACE ON` then `TRACE PROC` traces both (each keeps what the other set,
//! and each form without STEP turns STEP off).

use crate::interp::host::KeyRead;
use crate::interp::{Interp, R};
use crate::tokens as tok;

/// What TRACE shows, and where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Trace {
    /// Lines numbered below this are shown as they are entered (`None`: no line trace).
    pub(super) lines: Option<u32>,
    /// PROC and FN calls are shown.
    calls: bool,
    /// ENDPROC and a FN's `=` are shown.
    returns: bool,
    /// Each entry waits for a key.
    step: bool,
    /// The TRACE TO file's channel (0: the screen).
    to: i32,
}

impl Trace {
    /// Everything off but the TRACE TO file: TRACE OFF.
    fn off(self) -> Trace {
        Trace {
            to: self.to,
            ..Trace::default()
        }
    }
}

/// TRACE ON's limit: past every line number (the highest is 65279).
const EVERY_LINE: u32 = 65536;

impl Interp {
    /// The TRACE statement; pc is past the keyword.
    #[inline(never)]
    pub(super) fn trace_stmt(&mut self) -> R<()> {
        let mut t = self.trace;
        if self.eat(tok::TO) {
            return self.trace_to();
        }
        if self.eat(tok::CLOSE) {
            self.end_stmt()?;
            return self.trace_close();
        }
        t.step = self.eat(tok::STEP);
        match self.skip_spaces() {
            tok::OFF => {
                self.pc += 1;
                t = t.off();
            }
            tok::ON => {
                self.pc += 1;
                t.lines = Some(EVERY_LINE);
            }
            tok::PROC | tok::FN => {
                self.pc += 1;
                t.calls = true;
            }
            tok::ENDPROC => {
                self.pc += 1;
                t.returns = true;
            }
            // A number after TRACE is stored as a line number; anything else is an expression
            // (and, like nothing at all, an error if it is none).
            _ => t.lines = Some(self.line_target()?.max(0) as u32),
        }
        self.end_stmt()?;
        self.set_trace(t);
        Ok(())
    }

    /// TRACE TO "name": pc is past TO. A file already open for the trace is closed first.
    fn trace_to(&mut self) -> R<()> {
        let name = self.expr_str()?;
        self.end_stmt()?;
        self.trace_close()?;
        let n = self.open_trace_file(&name)?;
        self.trace.to = n;
        Ok(())
    }

    /// TRACE CLOSE: the trace file is written and closed; entries go to the screen again.
    fn trace_close(&mut self) -> R<()> {
        let n = std::mem::take(&mut self.trace.to);
        if n != 0 {
            self.close_trace_file(n)?;
        }
        Ok(())
    }

    /// An error that no ON ERROR takes: BASIC V's default handler starts with TRACE OFF.
    pub(super) fn trace_off_for_error(&mut self) {
        if self.trace != self.trace.off() {
            self.set_trace(self.trace.off());
        }
    }

    /// The line `n` is entered (TRACE ON has asked to see it).
    pub(super) fn trace_line(&mut self, n: u16) -> R<()> {
        self.trace_entry(&n.to_string())
    }

    /// A PROC or FN call (`kind`) whose name starts at pc, before its DEF is looked for.
    #[inline]
    pub(super) fn trace_call(&mut self, kind: u8) -> R<()> {
        if self.trace.calls {
            self.show_call(kind)
        } else {
            Ok(())
        }
    }

    #[cold]
    #[inline(never)]
    fn show_call(&mut self, kind: u8) -> R<()> {
        let mut end = self.pc;
        while tok::is_word_char(self.at(end)) {
            end += 1;
        }
        let mut what = String::from(if kind == tok::PROC { "PROC" } else { "FN" });
        what.extend(self.mem[self.pc..end].iter().map(|&b| char::from(b)));
        self.trace_entry(&what)
    }

    /// A return from a PROC (`proc_`) or a FN.
    #[inline]
    pub(super) fn trace_return(&mut self, proc_: bool) -> R<()> {
        if self.trace.returns {
            self.show_return(proc_)
        } else {
            Ok(())
        }
    }

    #[cold]
    #[inline(never)]
    fn show_return(&mut self, proc_: bool) -> R<()> {
        self.trace_entry(if proc_ { "ENDPROC" } else { "ENDFN" })
    }

    /// One entry (`20`, `PROCdraw`, `ENDPROC`) where TRACE sends it: the file, or the screen
    /// as `[20] ` (`{20} ` and a key under STEP). A file that cannot be written (full, or
    /// closed by CLOSE#0) is closed and the entries go back to the screen, as on RISC OS.
    fn trace_entry(&mut self, what: &str) -> R<()> {
        if self.trace.to != 0 {
            let line = format!("{what}\n");
            if self.write_trace_file(self.trace.to, line.as_bytes()).is_ok() {
                return self.trace_step();
            }
            // What was written is kept where it can be; the entry itself goes to the screen.
            let _ = self.trace_close();
        }
        if self.trace.step {
            self.out_all(format!("{{{what}}} ").as_bytes());
        } else {
            self.out_all(retro_machine::debug::basic::linetrace::bracketed(what).as_bytes());
        }
        self.trace_step()
    }

    /// Under TRACE STEP: waits for a key and throws it away (Escape stops the program).
    fn trace_step(&mut self) -> R<()> {
        if !self.trace.step {
            return Ok(());
        }
        self.no_side_effect("TRACE STEP would take a key the program is to read")?;
        match self.host.read_key(&mut self.vdu, None) {
            KeyRead::Key(_) | KeyRead::Timeout => Ok(()),
            KeyRead::Signal(s) => self.signal(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{EVERY_LINE, Trace};
    use crate::interp::{Interp, Outcome, Transcript, run_text};

    /// A program's run, headless, with `keys` typed.
    fn run(src: &str, keys: &[u8]) -> Transcript {
        run_text(src, keys, Some(1_000_000)).expect("tokenizes")
    }

    const CALLS: &str = "20 PROCa(1):X=FNb(2)\n30 TRACE OFF:PROCa(3)\n40 END\n\
        50 DEF PROCa(n):ENDPROC\n60 DEF FNb(n)\n70 =n*2\n";

    #[test]
    fn trace_proc_shows_each_call_by_the_name_written_at_the_call() {
        let t = run(&format!("10 TRACE PROC:PRINT \"go\";\n{CALLS}"), b"");
        assert_eq!(t.output, "go[PROCa] [FNb] ");
        // TRACE FN is the same; so is TRACE STEP FN but for the braces and a key each.
        assert_eq!(
            run(&format!("10 TRACE FN\n{CALLS}"), b"").output,
            "[PROCa] [FNb] "
        );
        let t = run(&format!("10 TRACE STEP FN\n{CALLS}"), b"xy");
        assert_eq!(t.output, "{PROCa} {FNb} ");
        // Without a key for it, the second entry waits for ever: the headless run ends there,
        // before the FN's body runs.
        let t = run(&format!("10 TRACE STEP FN\n{CALLS}"), b"x");
        assert_eq!(t.output, "{PROCa} {FNb} ");
        assert_eq!(t.outcome, crate::interp::Outcome::Aborted);
    }

    #[test]
    fn trace_endproc_shows_each_return_and_adds_up_with_the_other_forms() {
        let t = run(&format!("10 TRACE ENDPROC\n{CALLS}"), b"");
        assert_eq!(t.output, "[ENDPROC] [ENDFN] ");
        let t = run(&format!("10 TRACE ENDPROC:TRACE PROC:TRACE 25\n{CALLS}"), b"");
        assert_eq!(t.output, "[20] [PROCa] [ENDPROC] [FNb] [ENDFN] ");
    }

    #[test]
    fn a_call_to_a_missing_proc_is_shown_before_its_error() {
        let t = run("10 TRACE PROC\n20 PROCnone(1)\n", b"");
        assert_eq!(t.output, "[PROCnone] ");
        assert_eq!(
            t.outcome.message().as_deref(),
            Some("No such function/procedure at line 20")
        );
    }

    #[test]
    fn an_error_no_handler_takes_turns_trace_off_and_a_handled_one_does_not() {
        // Within a run, ON ERROR keeps the trace on.
        let t = run(
            "10 ON ERROR PROCb:END\n20 TRACE PROC\n30 X=1/0\n40 DEF PROCb:PRINT \"h\";:ENDPROC\n",
            b"",
        );
        assert_eq!(t.output, "[PROCb] h");
        // Without one, TRACE OFF comes with the error; without the error, TRACE stays on
        // across RUN.
        let src = "10 PROCx:END\n20 DEF PROCx:IF E% ERROR 1,\"e\"\n30 ENDPROC\n";
        let prog = crate::program::tokenize_program(src, crate::tokenize::Mode::Strict).unwrap();
        let host = crate::interp::host::ScriptHost::new(b"");
        let mut it = Interp::new(&prog.to_bytes(), Box::new(host)).unwrap();
        let mut out = String::new();
        let on = Trace {
            lines: Some(EVERY_LINE),
            calls: true,
            ..Trace::default()
        };
        it.set_trace(on);
        it.resident[5] = 1; // E%
        assert!(matches!(it.run(), Outcome::Error { .. }));
        it.vdu.take_text(&mut out);
        assert_eq!(out, "[10] [PROCx] ");
        assert_eq!(it.trace, Trace::default());
        it.resident[5] = 0;
        it.set_trace(on);
        assert_eq!(it.run(), Outcome::Ended);
        assert_eq!(it.trace, on);
        out.clear();
        it.vdu.take_text(&mut out);
        assert_eq!(out, "[10] [PROCx] [30] ");
    }
}
