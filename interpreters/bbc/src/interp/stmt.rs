//! Statements: the execution loop that dispatches each keyword (as Brandy's statement.c); the
//! routines are split by family, as Brandy splits them: [`control`] (IF, loops, CASE, jumps,
//! PROC/FN), [`io`] (PRINT, INPUT, VDU and graphics) and [`data`] (assignment, DIM, READ/DATA).

mod control;
mod data;
mod io;

use super::error::{self, BasicError};
use super::value::Val;
use super::{Frame, Interp, R, Stop};
use crate::tokens as tok;

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
            // Quickened statements run here, one after another while they follow each other
            // (see `quick_run`); where one gives up, the bytes run the statement at pc.
            let b = if b != 0x0D && self.quick_run() {
                continue;
            } else if b != 0x0D {
                self.at(self.pc)
            } else {
                b
            };
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
}
