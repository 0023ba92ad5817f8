//! Direct mode: a line typed at READY. is entered into the program when it starts with a
//! number, and otherwise crunched into the input buffer and run at once (the ROM's MAIN loop at
//! $A480).

use super::error::{BasicError, Result};
use super::{BUF, Interp};
use crate::program::{LineError, parse_line};
use crate::tokenize::crunch;

/// What a typed line did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typed {
    /// A numbered line entered, replaced or (with nothing after the number) deleted.
    Stored,
    /// Statements to run now: call `run_slice` until they stop.
    Run,
    /// An empty line: nothing happens.
    Nothing,
}

impl Interp {
    /// A line typed at the READY. prompt (PETSCII, as the editor read it from the screen).
    pub fn type_line(&mut self, text: &[u8]) -> Result<Typed> {
        if text.iter().all(|&b| b == b' ') {
            return Ok(Typed::Nothing);
        }
        match parse_line(text) {
            Ok(line) => {
                let mut program = self.program();
                if line.body.is_empty() {
                    program.remove(line.number);
                } else {
                    program.insert(line);
                }
                // Entering a line forgets the variables, as the ROM's LINKPRG and CLR do.
                self.load_program(&program)?;
                self.clr();
                self.restore_data(None);
                Ok(Typed::Stored)
            }
            Err(LineError::TooBig) => Err(BasicError::Syntax),
            Err(LineError::NoNumber) => {
                let body = crunch(text);
                let n = body.len().min(88);
                self.mem[BUF..BUF + n].copy_from_slice(&body[..n]);
                self.mem[BUF + n..BUF + n + 3].fill(0);
                self.state.line = None;
                self.state.pos = BUF;
                self.state.stmt_start = BUF;
                self.state.again = true;
                self.state.channel = 0;
                Ok(Typed::Run)
            }
        }
    }

    /// Whether the statement running is a direct-mode one (CURLIN is $FFxx).
    pub fn in_direct_mode(&self) -> bool {
        self.state.line.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{Console, InputSource, Slice, Stop};
    use crate::program::Program;

    #[derive(Default)]
    struct Tape(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl Console for Tape {
        fn chrout(&mut self, _mem: &mut [u8], b: u8) {
            self.0.borrow_mut().push(b);
        }
        fn column(&self, _mem: &[u8]) -> u8 {
            0
        }
        fn input_key(&mut self, _mem: &mut [u8], _key: u8) -> Option<Vec<u8>> {
            None
        }
    }

    fn interp() -> (Interp, std::rc::Rc<std::cell::RefCell<Vec<u8>>>) {
        let tape = Tape::default();
        let out = tape.0.clone();
        let it = Interp::new(&Program::default(), Box::new(tape), InputSource::Keys, None).unwrap();
        (it, out)
    }

    fn run(it: &mut Interp) -> Slice {
        it.run_slice(100_000)
    }

    #[test]
    fn numbered_lines_enter_replace_and_delete() {
        let (mut it, _) = interp();
        assert_eq!(it.type_line(b"20 PRINT 2").unwrap(), Typed::Stored);
        assert_eq!(it.type_line(b"10 PRINT 1").unwrap(), Typed::Stored);
        assert_eq!(it.type_line(b"20 PRINT 3").unwrap(), Typed::Stored);
        assert_eq!(it.program().to_text(), "10 print 1\n20 print 3\n");
        assert_eq!(it.type_line(b"10").unwrap(), Typed::Stored);
        assert_eq!(it.program().to_text(), "20 print 3\n");
        assert_eq!(it.type_line(b"70000 PRINT"), Err(BasicError::Syntax));
        assert_eq!(it.type_line(b"   ").unwrap(), Typed::Nothing);
    }

    #[test]
    fn statements_run_at_once_and_goto_starts_the_program() {
        let (mut it, out) = interp();
        assert_eq!(it.type_line(b"A=5:PRINT A*2").unwrap(), Typed::Run);
        assert_eq!(run(&mut it), Slice::Stopped(Stop::End));
        assert_eq!(out.borrow().as_slice(), b" 10\x1d\r");
        it.type_line(b"10 PRINT \"IN\"").unwrap();
        out.borrow_mut().clear();
        it.type_line(b"GOTO 10").unwrap();
        assert_eq!(run(&mut it), Slice::Stopped(Stop::End));
        assert_eq!(out.borrow().as_slice(), b"IN\r");
        // GOSUB from direct mode comes back to the typed line.
        it.type_line(b"20 RETURN").unwrap();
        out.borrow_mut().clear();
        it.type_line(b"GOSUB 10:PRINT \"BACK\"").unwrap();
        assert_eq!(run(&mut it), Slice::Stopped(Stop::End));
        assert_eq!(out.borrow().as_slice(), b"IN\rBACK\r");
    }

    #[test]
    fn input_and_get_are_illegal_in_direct_mode_and_stop_then_cont_continues() {
        let (mut it, out) = interp();
        it.type_line(b"GET A$").unwrap();
        assert_eq!(
            run(&mut it),
            Slice::Stopped(Stop::Error(BasicError::IllegalDirect, None))
        );
        it.type_line(b"10 PRINT 1:STOP:PRINT 2").unwrap();
        it.type_line(b"RUN").unwrap();
        assert_eq!(run(&mut it), Slice::Stopped(Stop::Break(Some(10))));
        out.borrow_mut().clear();
        it.type_line(b"CONT").unwrap();
        assert_eq!(run(&mut it), Slice::Stopped(Stop::End));
        assert_eq!(out.borrow().as_slice(), b" 2\x1d\r");
    }
}
