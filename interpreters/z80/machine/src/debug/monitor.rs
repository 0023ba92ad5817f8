//! What the VICE monitor has for memory, in the Z80 debugger's words: `find` (VICE's `hunt`),
//! `fill`, `compare`, `move`, a multi-byte `set byte[A] = 1 2 3` (VICE's `>`), and a one-line
//! assembler, `asm ADDR INSTRUCTION` (VICE's `a`), through our own assembler so that labels and
//! the syntax are the program's; `save "FILE" START END` and `load "FILE" ADDR` (VICE's `s` and
//! `l`, through the kit's [`retro_machine::debug::memfile`]).

use std::fmt::Write as _;

use retro_machine::debug::{memcmd, memfile};

use super::views::{self, MachineEnv};
use super::{Z80Debugger, expr};
use crate::host::Z80Host;

/// The Z80's 64K as the kit's memory commands see it: `$8000` addresses, labels after `find`'s.
struct Mem<'a, M: Z80Host>(&'a Z80Debugger<M>);

impl<M: Z80Host> memcmd::Memory for Mem<'_, M> {
    fn peek(&self, at: usize) -> u8 {
        self.0.machine.peek(at as u16)
    }
    fn size(&self) -> usize {
        0x10000
    }
    fn show(&self, at: usize) -> String {
        format!("${at:04X}")
    }
    fn label(&self, at: usize) -> String {
        views::label_offset(self.0, at as u16)
    }
}

/// A range `START END` (inclusive, as VICE's) and the rest of the arguments.
fn range<'a, M: Z80Host>(
    d: &Z80Debugger<M>,
    args: &'a str,
    usage: &str,
) -> Result<(u16, u16, &'a str), String> {
    let (a, b, rest) = memcmd::range_words(args, usage)?;
    let (first, last) = (d.location(a)?, d.location(b)?);
    memcmd::check_range(&Mem(d), first.into(), last.into())?;
    Ok((first, last, rest))
}

/// Bytes written as expressions separated by spaces (`1 2 $FF`), or a quoted text (`"WIN"`).
pub fn byte_list<M: Z80Host>(d: &Z80Debugger<M>, text: &str) -> Result<Vec<u8>, String> {
    memcmd::byte_list(
        text,
        |w| expr::eval_str(w, &MachineEnv::new(d)).map_err(|e| e.to_string()),
        |c| c as u8,
    )
}

/// Writes `bytes` from `at` on (wrapping at $FFFF, as the Z80's addresses do).
fn write<M: Z80Host>(d: &mut Z80Debugger<M>, at: u16, bytes: &[u8]) {
    for (i, b) in bytes.iter().enumerate() {
        d.machine.poke(at.wrapping_add(i as u16), *b);
    }
    d.modified();
}

/// `find START END BYTES|"TEXT"`: every address in the range where the bytes start.
pub fn find<M: Z80Host>(d: &Z80Debugger<M>, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "find START END BYTES... or find START END \"TEXT\"")?;
    let pattern = byte_list(d, rest)?;
    Ok(memcmd::find(&Mem(d), first.into(), last.into(), &pattern))
}

/// `fill START END BYTES`: the range with the bytes over and over.
pub fn fill<M: Z80Host>(d: &mut Z80Debugger<M>, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "fill START END BYTES...")?;
    let pattern = byte_list(d, rest)?;
    let bytes = memcmd::filled(usize::from(last - first) + 1, &pattern);
    write(d, first, &bytes);
    Ok(String::new())
}

/// `compare START END DEST`: where the range and the bytes at DEST differ.
pub fn compare<M: Z80Host>(d: &Z80Debugger<M>, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "compare START END DEST")?;
    let dest = d.location(rest)?;
    Ok(memcmd::compare(&Mem(d), first.into(), last.into(), dest.into()))
}

/// `move START END DEST`: copies the range to DEST (as memmove: overlapping is fine).
pub fn move_bytes<M: Z80Host>(d: &mut Z80Debugger<M>, args: &str) -> Result<String, String> {
    let (first, last, rest) = range(d, args, "move START END DEST")?;
    let dest = d.location(rest)?;
    let bytes = memcmd::read(&Mem(d), first.into(), last.into());
    write(d, dest, &bytes);
    Ok(String::new())
}

/// `set byte[A] = 1 2 3`: bytes from A on.
pub fn set_bytes<M: Z80Host>(d: &mut Z80Debugger<M>, at: u16, values: &str) -> Result<String, String> {
    let bytes = byte_list(d, values)?;
    write(d, at, &bytes);
    Ok(String::new())
}

/// `asm ADDR INSTRUCTION`: assembles one line at ADDR with the program's labels (our assembler,
/// so its syntax and errors) and writes it there; shows what it wrote.
pub fn assemble<M: Z80Host>(d: &mut Z80Debugger<M>, args: &str) -> Result<String, String> {
    let (at, line) = args
        .trim()
        .split_once(char::is_whitespace)
        .ok_or("usage: asm ADDR INSTRUCTION (asm $8000 ld a,2)")?;
    let addr = d.location(at)?;
    let line = line.trim();
    if line.contains('\n') || line.contains(':') && !line.contains('\'') {
        return Err("asm takes one instruction".into());
    }
    let mut src = String::new();
    for (name, value, _) in d.program.symbols.iter() {
        if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            let _ = writeln!(src, "{name} equ {value}");
        }
    }
    let _ = write!(src, "        org {addr}\n        {line}\n");
    let asm = retro_z80_asm::assemble_str("asm", &src).map_err(|f| {
        let text = f.render(false);
        text.lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or("it does not assemble")
            .to_string()
    })?;
    let bytes: Vec<u8> = asm.blocks.iter().flat_map(|b| b.1.iter().copied()).collect();
    if bytes.is_empty() {
        return Err(format!("`{line}` is no instruction"));
    }
    for (i, b) in bytes.iter().enumerate() {
        d.machine.poke(addr.wrapping_add(i as u16), *b);
    }
    d.modified();
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    Ok(format!(
        "${addr:04X}  {}  {}\n",
        hex.join(" "),
        views::instruction(d, addr).0
    ))
}

/// `save "FILE" START END`: the bytes of START..END (inclusive) to FILE.
pub fn save<M: Z80Host>(d: &Z80Debugger<M>, args: &str) -> Result<String, String> {
    const USAGE: &str = "save \"FILE\" START END (save \"board.bin\" Board Board+41)";
    let (path, rest) = memfile::file_arg(args, USAGE)?;
    let (first, last, extra) = range(d, rest, USAGE)?;
    if !extra.is_empty() {
        return Err(format!("usage: {USAGE}"));
    }
    let bytes: Vec<u8> = (first..=last).map(|a| d.machine.peek(a)).collect();
    memfile::save(&path, &bytes, &format!("${first:04X}"), &format!("${last:04X}"))
}

/// `load "FILE" ADDR`: FILE's bytes into memory from ADDR on; a file that would run past $FFFF
/// is refused (memory does not wrap to 0 under a load). A change the history records, as `set`.
pub fn load<M: Z80Host>(d: &mut Z80Debugger<M>, args: &str) -> Result<String, String> {
    const USAGE: &str = "load \"FILE\" ADDR (load \"board.bin\" Board)";
    let (path, rest) = memfile::file_arg(args, USAGE)?;
    if rest.is_empty() {
        return Err(format!("usage: {USAGE}"));
    }
    let at = d.location(rest)?;
    let room = 0x10000 - usize::from(at);
    let bytes = memfile::read(&path, room, &format!("${at:04X}"))?;
    for (i, b) in bytes.iter().enumerate() {
        d.machine.poke(at + i as u16, *b);
    }
    d.modified();
    let last = at + (bytes.len() - 1) as u16;
    Ok(memfile::loaded(
        &path,
        bytes.len(),
        &format!("${at:04X}"),
        &format!("${last:04X}"),
    ))
}
