//! Input and output statements: PRINT, INPUT, VDU, COLOUR, PLOT and the graphics statements'
//! plotting (as Brandy's iostate.c).

use crate::interp::error;
use crate::interp::expr::val_of;
use crate::interp::host::LineRead;
use crate::interp::number::{self, Format};
use crate::interp::value::Val;
use crate::interp::{Interp, MAX_STRING, R};
use crate::tokens as tok;

impl Interp {
    // ---- output statements ----

    pub(super) fn vdu_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.out(b);
        }
    }

    pub(super) fn plot(&mut self, k: i32, x: i32, y: i32) {
        let (x, y) = ((x as i16).to_le_bytes(), (y as i16).to_le_bytes());
        self.vdu_bytes(&[25, k as u8, x[0], x[1], y[0], y[1]]);
        // A big drawing brings the host's tick forward, so it charges the drawing's time now.
        if self.vdu.pending_work() >= crate::interp::host::PIXELS_PER_TICK && self.host.charges_drawing() {
            self.ticks_left = 1;
        }
    }

    #[inline(never)]
    pub(super) fn plot_xy(&mut self, mut k: i32) -> R<()> {
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

    #[inline(never)]
    pub(super) fn colour_stmt(&mut self) -> R<()> {
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
    pub(super) fn vdu_stmt(&mut self) -> R<()> {
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

    pub(super) fn spaces(&mut self, n: usize) {
        for _ in 0..n {
            self.out(b' ');
        }
    }

    #[inline(never)]
    pub(super) fn print(&mut self) -> R<()> {
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

    pub(super) fn close_bracket(&mut self) -> R<()> {
        self.expect(b')', error::MISSING_BRACKET)
    }

    #[inline(never)]
    pub(super) fn input_stmt(&mut self) -> R<()> {
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
