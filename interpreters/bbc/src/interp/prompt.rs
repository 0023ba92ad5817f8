//! BBC BASIC's `>` prompt: immediate mode. A line typed at the prompt that starts with a number
//! enters (or, with nothing after the number, deletes) a program line; the editing commands LIST,
//! NEW, OLD, DELETE, RENUMBER, SAVE, LOAD and CHAIN act on the program; anything else runs at once
//! as statements (RUN, GOTO, PRINT, assignments...), with the variables kept between lines.
//!
//! As on RISC OS, changing the program forgets the variables (but not A%-Z% and @%), and an error
//! or Escape in a running program comes back to the prompt with its message. Lines come from the
//! host like INPUT's (stdin when headless), so a session can be scripted.

use std::collections::BTreeMap;

use super::host::{LineRead, Signal};
use super::{Interp, Outcome};
use crate::program::{Line, Program};
use crate::tokens::{decode_line_number, encode_line_number};

/// Why the prompt stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEnd {
    /// The input ended (or the host stopped).
    InputEnded,
    /// QUIT, with its value.
    Quit(i32),
}

/// The prompt's own state: the program being edited (the interpreter holds a copy to run).
#[derive(Debug, Default)]
pub struct Prompt {
    program: BTreeMap<u16, Vec<u8>>,
    /// What NEW took away, for OLD.
    old: Option<BTreeMap<u16, Vec<u8>>>,
    /// The format SAVE writes (`retro bbc --format`; LOAD and CHAIN read every format).
    save_format: crate::format::SaveFormat,
}

/// The highest line number BASIC allows.
const MAX_LINE: u32 = 65279;

impl Prompt {
    /// A prompt with `program` loaded.
    pub fn new(program: &Program) -> Prompt {
        Prompt {
            program: program
                .lines()
                .iter()
                .map(|l| (l.number, l.body.clone()))
                .collect(),
            old: None,
            save_format: Default::default(),
        }
    }

    /// The same prompt, with SAVE writing `format`.
    pub fn saving_as(self, format: crate::format::SaveFormat) -> Prompt {
        Prompt {
            save_format: format,
            ..self
        }
    }

    /// The program as it stands.
    pub fn program(&self) -> Program {
        Program::new(
            self.program
                .iter()
                .map(|(&number, body)| Line {
                    number,
                    body: body.clone(),
                })
                .collect(),
        )
    }

    /// Reads and obeys lines until the input ends or QUIT. `it` is replaced by a fresh
    /// interpreter (same host, screen, files and resident integers) whenever the program changes.
    pub fn run(&mut self, it: &mut Interp) -> PromptEnd {
        self.reload(it);
        let end = loop {
            it.out(b'>');
            let line = match read_line(it) {
                Some(Ok(l)) => l,
                Some(Err(())) => {
                    escape(it);
                    continue;
                }
                None => break PromptEnd::InputEnded,
            };
            it.count = 0;
            if let Some(end) = self.obey(it, &line) {
                break end;
            }
        };
        // Files left open at the prompt are written back when it ends.
        let _ = it.files.close_all();
        end
    }

    /// AUTO [start[,step]]: each line number is offered in turn and what is typed after it
    /// enters the program, until Escape (headless: a line holding only the Escape character,
    /// byte 27) or the end of the input.
    fn auto(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        let (start, step) = start_step(args).ok_or("Syntax error")?;
        if step == 0 {
            return Err("Syntax error");
        }
        let mut n = start;
        while n <= MAX_LINE {
            it.out_all(format!("{n:>5} ").as_bytes());
            match read_line(it) {
                Some(Ok(l)) => {
                    let mut text = n.to_string().into_bytes();
                    text.push(b' ');
                    text.extend_from_slice(&l);
                    self.edit(it, &text);
                }
                Some(Err(())) => {
                    escape(it);
                    return Ok(());
                }
                None => return Ok(()),
            }
            n += step;
        }
        Ok(())
    }

    /// One line typed at the prompt.
    fn obey(&mut self, it: &mut Interp, line: &[u8]) -> Option<PromptEnd> {
        let text = line.trim_ascii();
        if text.is_empty() {
            return None;
        }
        if text[0].is_ascii_digit() {
            self.edit(it, text);
            return None;
        }
        let word_len = text.iter().take_while(|c| c.is_ascii_uppercase()).count();
        let (word, args) = text.split_at(word_len);
        let args = args.trim_ascii();
        let done = match word {
            b"LIST" => self.list(it, args),
            b"NEW" if args.is_empty() => {
                self.old = Some(std::mem::take(&mut self.program));
                self.reload(it);
                Ok(())
            }
            b"OLD" if args.is_empty() => {
                if let Some(p) = self.old.take() {
                    self.program = p;
                    self.reload(it);
                }
                Ok(())
            }
            b"DELETE" => self.delete(it, args),
            b"AUTO" => self.auto(it, args),
            b"RENUMBER" => self.renumber(it, args),
            b"SAVE" => self.save(it, args),
            b"LOAD" => self.load(it, args),
            b"CHAIN" => self.load(it, args).map(|()| {
                let o = it.run();
                report(it, &o);
                self.follow_chain(it);
            }),
            _ => {
                let end = immediate(it, text);
                self.follow_chain(it);
                return end;
            }
        };
        if let Err(message) = done {
            error_line(it, message);
        }
        None
    }

    /// A program that CHAINed another left that one in memory: LIST and SAVE see it, as on the
    /// real machine, where the prompt has no program of its own.
    fn follow_chain(&mut self, it: &Interp) {
        let (page, top) = it.program_span();
        let Some(bytes) = it.mem.get(page..top) else {
            return;
        };
        if bytes != self.program().to_bytes().as_slice()
            && let Ok(p) = crate::format::read_program(bytes, crate::tokenize::Mode::Strict)
        {
            self.program = p.lines().iter().map(|l| (l.number, l.body.clone())).collect();
        }
    }

    /// A numbered line: enters it, or deletes the line if nothing follows the number.
    fn edit(&mut self, it: &mut Interp, text: &[u8]) {
        let digits = text.iter().take_while(|c| c.is_ascii_digit()).count();
        let n: u32 = std::str::from_utf8(&text[..digits])
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(u32::MAX);
        if n > MAX_LINE {
            error_line(it, "Line number too big");
            return;
        }
        let rest = &text[digits..];
        if rest.trim_ascii().is_empty() {
            self.program.remove(&(n as u16));
        } else {
            let listing = String::from_utf8_lossy(text).into_owned();
            match crate::program::tokenize_program(&listing, crate::tokenize::Mode::Strict) {
                Ok(p) => {
                    for l in p.into_lines() {
                        // RISC OS stores the line and then warns about what looks unfinished,
                        // on the line after the typed one (a warning, not an error report).
                        if let Some(w) = unmatched(&l.body) {
                            it.out_all(w.as_bytes());
                            it.newline();
                        }
                        self.program.insert(l.number, l.body);
                    }
                }
                Err(_) => {
                    error_line(it, "Line too long");
                    return;
                }
            }
        }
        self.reload(it);
    }

    /// The program lines from `from` to `to`: none when `from` is after `to` (`LIST 20,10`).
    fn lines(&self, from: u16, to: u16) -> impl Iterator<Item = (&u16, &Vec<u8>)> {
        // BTreeMap::range panics on a backwards range.
        self.program
            .range(from..=to.max(from))
            .filter(move |_| from <= to)
    }

    /// LIST, LIST n, LIST a,b, LIST a, and LIST ,b.
    fn list(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        let (from, to) = range(args).ok_or("Syntax error")?;
        for (&n, body) in self.lines(from, to) {
            let text = crate::detokenize::list_line(n, body);
            it.out_all(&text);
            it.newline();
        }
        Ok(())
    }

    /// DELETE a,b: one number alone is `Missing ,` as on RISC OS (a line goes by typing its
    /// number alone).
    fn delete(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        if !args.contains(&b',') {
            return Err("Missing ,");
        }
        let (from, to) = range(args).ok_or("Syntax error")?;
        let gone: Vec<u16> = self.lines(from, to).map(|(&n, _)| n).collect();
        for n in gone {
            self.program.remove(&n);
        }
        self.reload(it);
        Ok(())
    }

    /// RENUMBER [start[,step]]: lines renumbered, and the line numbers in GOTO, GOSUB, RESTORE,
    /// THEN and ELSE (the `&8D` constants) follow them.
    fn renumber(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        let (start, step) = start_step(args).ok_or("Syntax error")?;
        if step == 0 {
            // RISC OS BASIC V's word for a zero step (BBC BASIC (Z80) says "Silly").
            return Err("Silly!");
        }
        if start + step * self.program.len().saturating_sub(1) as u32 > MAX_LINE {
            return Err("Line numbers larger than 65279 would be generated by this renumber");
        }
        let map: BTreeMap<u16, u16> = self
            .program
            .keys()
            .enumerate()
            .map(|(i, &n)| (n, (start + step * i as u32) as u16))
            .collect();
        let old = std::mem::take(&mut self.program);
        for (n, mut body) in old {
            renumber_refs(&mut body, &map);
            self.program.insert(map[&n], body);
        }
        self.reload(it);
        Ok(())
    }

    /// SAVE "name": the program in RISC OS's tokenized format, or the format chosen with
    /// [`Prompt::saving_as`] (a line too long for it is "Line too long").
    fn save(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        let name = file_name(args).ok_or("Syntax error")?;
        let bytes = self
            .save_format
            .encode(&self.program())
            .map_err(|_| "Line too long")?;
        it.save_file(&name, &bytes).map_err(|_| "Bad name")
    }

    /// LOAD "name": a tokenized program or a text listing.
    fn load(&mut self, it: &mut Interp, args: &[u8]) -> Result<(), &'static str> {
        let name = file_name(args).ok_or("Syntax error")?;
        let bytes = it.load_file(&name).map_err(|_| "File not found")?;
        let p =
            crate::format::read_program(&bytes, crate::tokenize::Mode::Strict).map_err(|_| "Bad program")?;
        self.program = p.lines().iter().map(|l| (l.number, l.body.clone())).collect();
        self.reload(it);
        Ok(())
    }

    /// A fresh interpreter for the current program, keeping the host, screen, files, RND and
    /// the resident integers.
    fn reload(&mut self, it: &mut Interp) {
        let bytes = self.program().to_bytes();
        let host = std::mem::replace(&mut it.host, Box::new(super::host::ScriptHost::new(b"")));
        let Ok(mut fresh) = Interp::new(&bytes, host) else {
            return;
        };
        fresh.host_restore_from(it);
        *it = fresh;
    }
}

/// A headless session: `input` typed at the `>` prompt of an empty BBC BASIC whose files are in
/// `dir`, stopped after `budget` statements; returns what the screen showed and how it ended.
pub fn run_session(input: &[u8], budget: Option<u64>, dir: Option<&std::path::Path>) -> (String, PromptEnd) {
    let mut host = super::host::ScriptHost::new(input);
    host.budget = budget;
    let Ok(mut it) = Interp::new(&[0x0D, 0xFF], Box::new(host)) else {
        return (String::new(), PromptEnd::InputEnded);
    };
    it.set_file_root(dir.map(std::path::Path::to_path_buf));
    let end = Prompt::default().run(&mut it);
    let mut out = String::new();
    it.vdu.take_text(&mut out);
    (out, end)
}

/// A line typed at the prompt: `Err` for Escape (the key, or a line holding only byte 27),
/// `None` when the input has ended.
fn read_line(it: &mut Interp) -> Option<Result<Vec<u8>, ()>> {
    match it.host.read_line(&mut it.vdu) {
        LineRead::Line(l) if l == [27] => {
            // The line was echoed with its line end: the screen is already on a new line.
            it.count = 0;
            Some(Err(()))
        }
        LineRead::Line(l) => Some(Ok(l)),
        LineRead::Signal(Signal::Escape) => Some(Err(())),
        LineRead::Signal(_) => None,
    }
}

/// Escape at the prompt: the word on a line of its own.
fn escape(it: &mut Interp) {
    if it.count > 0 {
        it.newline();
    }
    it.out_all(b"Escape");
    it.newline();
}

/// `[start][,step]` for AUTO and RENUMBER (10 and 10 when left out).
fn start_step(args: &[u8]) -> Option<(u32, u32)> {
    let mut nums = args.split(|&c| c == b',').map(|p| {
        let p = p.trim_ascii();
        if p.is_empty() {
            Some(10)
        } else {
            std::str::from_utf8(p).ok()?.parse::<u32>().ok()
        }
    });
    let start = nums.next().flatten()?;
    let step = nums.next().unwrap_or(Some(10))?;
    Some((start, step))
}

/// The warning RISC OS BASIC V gives on entering a line with an odd number of quotes
/// (`Warning: unmatched "`) or with brackets that do not pair (`Warning: unmatched ()`); the
/// line is stored all the same. A REM or DATA ends the check: the rest is not BASIC.
fn unmatched(body: &[u8]) -> Option<&'static str> {
    use crate::tokens as tok;
    let (mut quoted, mut depth) = (false, 0i32);
    for &b in body {
        match b {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            tok::REM | tok::DATA => break,
            // These keywords include their opening bracket.
            b'('
            | tok::LEFT_S
            | tok::MID_S
            | tok::RIGHT_S
            | tok::STRING_S
            | tok::INSTR
            | tok::POINT
            | tok::TAB => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
    }
    if quoted {
        Some("Warning: unmatched \"")
    } else if depth != 0 {
        Some("Warning: unmatched ()")
    } else {
        None
    }
}

/// Statements typed at the prompt, run at once.
fn immediate(it: &mut Interp, text: &[u8]) -> Option<PromptEnd> {
    let body = crate::tokenize::tokenize_line(text, crate::tokenize::Mode::Strict);
    let o = it.run_immediate(&body);
    if let Outcome::Quit(n) = o {
        return Some(PromptEnd::Quit(n));
    }
    report(it, &o);
    None
}

/// An error shows on the screen as Acorn's BASIC shows it: a new line is always started first, so
/// after a line that ended (`PRINT "y":PRINT 1/0`) the message follows a blank line, as BBC BASIC
/// (Z80) and Brandy both print it (corpus sessions 405_prompt_errors, 408_prompt_command_errors).
fn report(it: &mut Interp, o: &Outcome) {
    if let Outcome::Error { error, line } = o {
        if *line > 0 {
            error_line(it, &format!("{} at line {line}", error.message));
        } else {
            error_line(it, &error.message);
        }
    }
}

/// An error's message as the error handler prints it (see [`report`]); the prompt's own commands'
/// errors (LOAD's File not found, RENUMBER's Silly...) look the same.
fn error_line(it: &mut Interp, message: &str) {
    it.newline();
    it.out_all(message.as_bytes());
    it.newline();
}

/// `a`, `a,b`, `a,`, `,b` or nothing, as an inclusive range of line numbers.
fn range(args: &[u8]) -> Option<(u16, u16)> {
    let num = |p: &[u8]| -> Option<Option<u16>> {
        let p = p.trim_ascii();
        if p.is_empty() {
            return Some(None);
        }
        let n: u32 = std::str::from_utf8(p).ok()?.parse().ok()?;
        Some(Some(n.min(MAX_LINE) as u16))
    };
    match args.iter().position(|&c| c == b',') {
        None => {
            let n = num(args)?;
            Some(n.map_or((0, MAX_LINE as u16), |n| (n, n)))
        }
        Some(i) => {
            let a = num(&args[..i])?.unwrap_or(0);
            let b = num(&args[i + 1..])?.unwrap_or(MAX_LINE as u16);
            Some((a, b))
        }
    }
}

/// A file name: quoted, or the rest of the line.
fn file_name(args: &[u8]) -> Option<Vec<u8>> {
    let a = args.trim_ascii();
    let a = a
        .strip_prefix(b"\"")
        .map_or(a, |s| s.strip_suffix(b"\"").unwrap_or(s));
    (!a.is_empty()).then(|| a.to_vec())
}

/// Rewrites the `&8D` line-number constants in a line body through `map` (outside strings).
fn renumber_refs(body: &mut [u8], map: &BTreeMap<u16, u16>) {
    let mut i = 0;
    let mut quote = false;
    while i < body.len() {
        match body[i] {
            b'"' => quote = !quote,
            crate::tokens::REM | crate::tokens::DATA if !quote => return,
            crate::tokens::LINE_NUMBER if !quote && i + 3 < body.len() => {
                let n = decode_line_number([body[i + 1], body[i + 2], body[i + 3]]);
                if let Some(&m) = map.get(&n) {
                    body[i + 1..i + 4].copy_from_slice(&encode_line_number(m));
                }
                i += 4;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screen text of a prompt session fed `input`.
    fn session(input: &str) -> (String, PromptEnd) {
        run_session(input.as_bytes(), Some(1_000_000), None)
    }

    #[test]
    fn lines_enter_the_program_and_statements_run_at_once() {
        let (out, end) = session("10 PRINT \"hi\";A%\n20 A%=A%+1:GOTO 10\nA%=5:PRINT A%*2\nLIST\n");
        assert_eq!(end, PromptEnd::InputEnded);
        assert_eq!(
            out,
            ">10 PRINT \"hi\";A%\n>20 A%=A%+1:GOTO 10\n>A%=5:PRINT A%*2\n        10\n>LIST\n   10 PRINT \"hi\";A%\n   20 A%=A%+1:GOTO 10\n>"
        );
    }

    #[test]
    fn run_new_old_delete_and_renumber() {
        let (out, _) = session(concat!(
            "10 PRINT 1\n20 GOTO 40\n30 PRINT 3\n40 PRINT 4\nRUN\nRENUMBER 100,5\nLIST\n",
            "NEW\nLIST\nOLD\nDELETE 105,110\nLIST\n"
        ));
        let want = concat!(
            ">10 PRINT 1\n>20 GOTO 40\n>30 PRINT 3\n>40 PRINT 4\n>RUN\n         1\n         4\n",
            ">RENUMBER 100,5\n>LIST\n  100 PRINT 1\n  105 GOTO 115\n  110 PRINT 3\n  115 PRINT 4\n",
            ">NEW\n>LIST\n>OLD\n>DELETE 105,110\n>LIST\n  100 PRINT 1\n  115 PRINT 4\n>"
        );
        assert_eq!(out, want);
    }

    #[test]
    fn a_backwards_range_lists_and_deletes_nothing() {
        // `DELETE 20,10` panicked (BTreeMap::range with its start after its end) and took
        // retro down with it; `LIST 20,10` too.
        let (out, _) = session("10 PRINT 1\n20 PRINT 2\nLIST 20,10\nDELETE 20,10\nDELETE 20,\nLIST\n");
        assert_eq!(
            out,
            ">10 PRINT 1\n>20 PRINT 2\n>LIST 20,10\n>DELETE 20,10\n>DELETE 20,\n>LIST\n   10 PRINT 1\n>"
        );
    }

    #[test]
    fn errors_come_back_to_the_prompt_and_variables_survive_between_lines() {
        let (out, end) = session("x=3\nPRINT x/0\nPRINT x\n10 PRINT y\nRUN\nQUIT 3\n");
        assert_eq!(
            out,
            ">x=3\n>PRINT x/0\n\nDivision by zero\n>PRINT x\n         3\n>10 PRINT y\n>RUN\n\nUnknown or missing variable at line 10\n>QUIT 3\n"
        );
        assert_eq!(end, PromptEnd::Quit(3));
    }

    #[test]
    fn an_array_lent_to_a_routine_that_failed_is_back_at_the_prompt() {
        let (out, _) = session(concat!(
            "10 DIM a(2):a()=1,2,3:PROCp(a())\n20 DEF PROCp(b()):b(0)=9:ERROR 1,\"x\"\n",
            "RUN\nPRINT a(0);SUM(a())\n"
        ));
        assert!(
            out.ends_with(">RUN\n\nx at line 20\n>PRINT a(0);SUM(a())\n         914\n>"),
            "{out}"
        );
    }

    #[test]
    fn list_ranges() {
        let (out, _) = session("10 REM a\n20 REM b\n30 REM c\nLIST 20\nLIST ,20\nLIST 20,\n");
        assert!(out.ends_with(
            ">LIST 20\n   20 REM b\n>LIST ,20\n   10 REM a\n   20 REM b\n>LIST 20,\n   20 REM b\n   30 REM c\n>"
        ));
    }
}
