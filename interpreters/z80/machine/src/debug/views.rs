//! What the debugger shows, as plain text (batch mode prints it; the TUI puts it in panels):
//! registers and flags with changes marked, the stack with return addresses as `label+offset`,
//! symbolic disassembly with source lines, memory, and the register access that expressions and
//! `call` share.

use std::fmt::Write as _;

use retro_z80::{Cpu, Registers};
use retro_z80_asm::isa::BlockOp;
use retro_z80_asm::{Instruction, SymbolKind, disassemble_one};

use super::Z80Debugger;
use super::expr::Env;
use crate::host::Z80Host;

/// Expressions evaluated against the debugger's machine and program.
pub struct MachineEnv<'a, M: Z80Host> {
    d: &'a Z80Debugger<M>,
    regs: Registers,
}

impl<'a, M: Z80Host> MachineEnv<'a, M> {
    pub fn new(d: &'a Z80Debugger<M>) -> MachineEnv<'a, M> {
        MachineEnv {
            d,
            regs: d.machine.cpu().registers(),
        }
    }
}

impl<M: Z80Host> Env for MachineEnv<'_, M> {
    fn register(&self, name: &str) -> Option<i64> {
        register(&self.regs, name)
    }
    fn byte(&self, addr: u16) -> u8 {
        self.d.machine.peek(addr)
    }
    fn symbol(&self, name: &str) -> Option<i64> {
        symbol(self.d, name).map(|v| v as i64)
    }
}

/// A symbol by exact name, or by a unique case-insensitive match.
pub fn symbol<M: Z80Host>(d: &Z80Debugger<M>, name: &str) -> Option<u16> {
    let s = &d.program.symbols;
    s.get(name).or_else(|| {
        let mut found = s.iter().filter(|(n, _, _)| n.eq_ignore_ascii_case(name));
        match (found.next(), found.next()) {
            (Some((_, v, _)), None) => Some(v),
            _ => None,
        }
    })
}

/// A register, pair or flag by upper-case name (see the expression docs for the names).
pub fn register(r: &Registers, name: &str) -> Option<i64> {
    let f = (r.af & 0xFF) as u8;
    let flag = |bit: u8| ((f >> bit) & 1) as i64;
    let hi = |v: u16| (v >> 8) as i64;
    let lo = |v: u16| (v & 0xFF) as i64;
    Some(match name {
        "A" => hi(r.af),
        "F" => lo(r.af),
        "B" => hi(r.bc),
        "C" => lo(r.bc),
        "D" => hi(r.de),
        "E" => lo(r.de),
        "H" => hi(r.hl),
        "L" => lo(r.hl),
        "IXH" => hi(r.ix),
        "IXL" => lo(r.ix),
        "IYH" => hi(r.iy),
        "IYL" => lo(r.iy),
        "I" => r.i as i64,
        "R" => r.r as i64,
        "AF" => r.af as i64,
        "BC" => r.bc as i64,
        "DE" => r.de as i64,
        "HL" => r.hl as i64,
        "IX" => r.ix as i64,
        "IY" => r.iy as i64,
        "SP" => r.sp as i64,
        "PC" => r.pc as i64,
        "AF'" => r.af_alt as i64,
        "BC'" => r.bc_alt as i64,
        "DE'" => r.de_alt as i64,
        "HL'" => r.hl_alt as i64,
        "IM" => r.im as i64,
        "IFF1" => r.iff1 as i64,
        "IFF2" => r.iff2 as i64,
        "SF" => flag(7),
        "ZF" | "Z" => flag(6),
        "YF" => flag(5),
        "HF" => flag(4),
        "XF" => flag(3),
        "PF" | "VF" | "PE" => flag(2),
        "NF" => flag(1),
        "CF" => flag(0),
        "NZ" => 1 - flag(6),
        "NC" => 1 - flag(0),
        "PO" => 1 - flag(2),
        "P" => 1 - flag(7),
        "M" => flag(7),
        _ => return None,
    })
}

/// Sets a register or pair by name (any case). 8-bit names take the low byte of `v`.
pub fn set_register(cpu: &mut Cpu, name: &str, v: u16) -> Result<(), String> {
    let b = v as u8;
    match name.to_ascii_uppercase().as_str() {
        "A" => cpu.set_a(b),
        "F" => cpu.set_f(b),
        "B" => cpu.set_b(b),
        "C" => cpu.set_c(b),
        "D" => cpu.set_d(b),
        "E" => cpu.set_e(b),
        "H" => cpu.set_h(b),
        "L" => cpu.set_l(b),
        "IXH" => cpu.set_ix((cpu.ix() & 0xFF) | (b as u16) << 8),
        "IXL" => cpu.set_ix((cpu.ix() & 0xFF00) | b as u16),
        "IYH" => cpu.set_iy((cpu.iy() & 0xFF) | (b as u16) << 8),
        "IYL" => cpu.set_iy((cpu.iy() & 0xFF00) | b as u16),
        "I" => cpu.set_i(b),
        "R" => cpu.set_r(b),
        "AF" => cpu.set_af(v),
        "BC" => cpu.set_bc(v),
        "DE" => cpu.set_de(v),
        "HL" => cpu.set_hl(v),
        "IX" => cpu.set_ix(v),
        "IY" => cpu.set_iy(v),
        "SP" => cpu.set_sp(v),
        "PC" => cpu.set_pc(v),
        "IM" => cpu.set_im(b),
        alt @ ("AF'" | "BC'" | "DE'" | "HL'") => {
            let mut a = cpu.alt();
            a[["AF'", "BC'", "DE'", "HL'"]
                .iter()
                .position(|n| *n == alt)
                .unwrap_or(0)] = v;
            cpu.set_alt(a);
        }
        flag => {
            let bit = ["CF", "NF", "PF", "XF", "HF", "YF", "ZF", "SF"]
                .iter()
                .position(|n| *n == flag)
                .ok_or_else(|| format!("no register or flag named `{name}`"))?;
            let f = cpu.f();
            cpu.set_f(if v != 0 { f | 1 << bit } else { f & !(1 << bit) });
        }
    }
    Ok(())
}

/// `label+offset` for an address: the nearest label at or below it (within 256 bytes), else `$XXXX`.
pub fn label_offset<M: Z80Host>(d: &Z80Debugger<M>, addr: u16) -> String {
    let best = d
        .program
        .symbols
        .iter()
        .filter(|(_, v, k)| *k == SymbolKind::Label && *v <= addr && addr - *v < 0x100)
        .max_by_key(|(n, v, _)| (*v, std::cmp::Reverse(n.len())));
    match best {
        Some((n, v, _)) if v == addr => n.to_string(),
        Some((n, v, _)) => format!("{n}+{}", addr - v),
        None => format!("${addr:04X}"),
    }
}

/// An address as a grid's cell when it is in one (`Board[5][4]`: row, then column, as the grid
/// prints), else as [`label_offset`].
pub fn cell_or_label<M: Z80Host>(d: &Z80Debugger<M>, addr: u16) -> String {
    let best = d
        .program
        .symbols
        .iter()
        .filter(|(_, v, k)| *k == SymbolKind::Label && *v <= addr && addr - *v < 0x1000)
        .filter_map(|(n, v, _)| {
            let (cols, rows) = d.structs.grid_of(&d.program, n)?;
            let off = addr - v;
            (off < cols * rows).then(|| format!("{n}[{}][{}]", off / cols, off % cols))
        })
        .next();
    best.unwrap_or_else(|| label_offset(d, addr))
}

/// `file:line` of an address, when the program has a source map.
pub fn source_of<M: Z80Host>(d: &Z80Debugger<M>, addr: u16) -> Option<(std::path::PathBuf, u32)> {
    d.program.source_map.lookup(addr).map(|p| (p.file, p.line))
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `$8012 checkWIN+2 (prog.asm:13)`.
pub fn describe<M: Z80Host>(d: &Z80Debugger<M>, addr: u16) -> String {
    let mut s = format!("${addr:04X} {}", label_offset(d, addr));
    if let Some((f, l)) = source_of(d, addr) {
        let _ = write!(s, " ({}:{l})", file_name(&f));
    }
    s
}

fn bytes_at<M: Z80Host>(m: &M, addr: u16) -> [u8; 4] {
    std::array::from_fn(|i| m.peek(addr.wrapping_add(i as u16)))
}

/// The instruction at `addr` (symbolic text) and its length.
pub fn instruction<M: Z80Host>(d: &Z80Debugger<M>, addr: u16) -> (String, u16) {
    let line = disassemble_one(&bytes_at(&d.machine, addr), addr, Some(&d.program.symbols));
    (line.text, line.bytes.len().max(1) as u16)
}

/// The length of the instruction at `pc` and whether `next` steps over it: CALL, RST, DJNZ and the
/// repeating block instructions.
pub fn step_over_info<M: Z80Host>(m: &M, pc: u16) -> (u16, bool) {
    let line = disassemble_one(&bytes_at(m, pc), pc, None);
    let over = matches!(
        line.insn,
        Some(
            Instruction::Call(..)
                | Instruction::Rst(_)
                | Instruction::Djnz(_)
                | Instruction::Block(
                    BlockOp::Ldir
                        | BlockOp::Lddr
                        | BlockOp::Cpir
                        | BlockOp::Cpdr
                        | BlockOp::Inir
                        | BlockOp::Indr
                        | BlockOp::Otir
                        | BlockOp::Otdr
                )
        )
    );
    (line.bytes.len().max(1) as u16, over)
}

/// Whether the instruction at `pc` is a RET, RET cc, RETI or RETN.
pub fn is_return<M: Z80Host>(m: &M, pc: u16) -> bool {
    let line = disassemble_one(&bytes_at(m, pc), pc, None);
    matches!(
        line.insn,
        Some(Instruction::Ret(_) | Instruction::Reti | Instruction::Retn)
    )
}

/// The registers, with `*` after each value that changed since `prev`.
pub fn registers(r: &Registers, prev: &Registers, tstates: u64) -> String {
    let mark = |a: u16, b: u16| if a != b { "*" } else { " " };
    let mut s = String::new();
    let pairs = [
        ("AF", r.af, prev.af),
        ("BC", r.bc, prev.bc),
        ("DE", r.de, prev.de),
        ("HL", r.hl, prev.hl),
        ("IX", r.ix, prev.ix),
        ("IY", r.iy, prev.iy),
        ("SP", r.sp, prev.sp),
        ("PC", r.pc, prev.pc),
    ];
    for (n, v, p) in pairs {
        let _ = write!(s, "{n}={v:04X}{} ", mark(v, p));
    }
    s = s.trim_end().to_string();
    s.push('\n');
    let alts = [
        ("AF'", r.af_alt, prev.af_alt),
        ("BC'", r.bc_alt, prev.bc_alt),
        ("DE'", r.de_alt, prev.de_alt),
        ("HL'", r.hl_alt, prev.hl_alt),
    ];
    for (n, v, p) in alts {
        let _ = write!(s, "{n}={v:04X}{} ", mark(v, p));
    }
    let _ = writeln!(
        s,
        "I={:02X}{} R={:02X}{} IM={} IFF1={} IFF2={}",
        r.i,
        mark(r.i as u16, prev.i as u16),
        r.r,
        mark(r.r as u16, prev.r as u16),
        r.im,
        r.iff1 as u8,
        r.iff2 as u8
    );
    let f = r.af as u8;
    let pf = prev.af as u8;
    s.push_str("flags:");
    for (bit, n) in [
        (7, "S"),
        (6, "Z"),
        (5, "Y"),
        (4, "H"),
        (3, "X"),
        (2, "P/V"),
        (1, "N"),
        (0, "C"),
    ] {
        let v = (f >> bit) & 1;
        let changed = ((f ^ pf) >> bit) & 1 != 0;
        let _ = write!(s, " {n}={v}{}", if changed { "*" } else { "" });
    }
    let _ = writeln!(s, "  T={tstates}{}", if r.halted { "  (halted)" } else { "" });
    s
}

/// The stack from SP up: each word, and what a return address points into.
pub fn stack<M: Z80Host>(d: &Z80Debugger<M>, words: usize) -> String {
    let sp = d.machine.cpu().sp();
    let mut s = String::new();
    for i in 0..words {
        let a = sp.wrapping_add(2 * i as u16);
        if i > 0 && a < sp {
            break; // wrapped past the top of memory
        }
        let w = d.machine.peek_word(a);
        let _ = write!(s, "SP+{:<3} ${a:04X}: {w:04X}", 2 * i);
        if let Some(call) = return_site(&d.machine, w) {
            let _ = write!(s, "  return to {} (after call at ${call:04X})", describe(d, w));
        }
        s.push('\n');
        if a >= 0xFFFE {
            break;
        }
    }
    s
}

/// If `w` looks like a return address (the bytes before it are a CALL or an RST), where the call was.
pub fn return_site<M: Z80Host>(m: &M, w: u16) -> Option<u16> {
    let call = w.wrapping_sub(3);
    let op = m.peek(call);
    if op == 0xCD || op & 0xC7 == 0xC4 {
        return Some(call);
    }
    let rst = w.wrapping_sub(1);
    (m.peek(rst) & 0xC7 == 0xC7).then_some(rst)
}

/// The backtrace: the current location, then each return address found on the stack.
pub fn backtrace<M: Z80Host>(d: &Z80Debugger<M>, depth: usize) -> String {
    let mut s = format!("#0  {}\n", describe(d, d.machine.cpu().pc()));
    let sp = d.machine.cpu().sp();
    let mut frame = 1;
    let mut a = sp;
    while frame < depth && a < 0xFFFF {
        let w = d.machine.peek_word(a);
        if return_site(&d.machine, w).is_some() {
            let _ = writeln!(s, "#{frame:<2} {}  [SP+{}]", describe(d, w), a.wrapping_sub(sp));
            frame += 1;
        }
        match a.checked_add(2) {
            Some(n) if a - sp < 512 => a = n,
            _ => break,
        }
    }
    s
}

/// `count` instructions from `addr`: `=>` at the PC, `*` at a breakpoint, labels on their own
/// line, and each instruction's source line.
pub fn disassemble<M: Z80Host>(d: &Z80Debugger<M>, mut addr: u16, count: usize) -> String {
    let pc = d.machine.cpu().pc();
    let mut s = String::new();
    let mut last_source = None;
    for _ in 0..count {
        if let Some(name) = d.program.symbols.name_of(addr)
            && d.program.symbols.kind(name) == Some(SymbolKind::Label)
        {
            let _ = writeln!(s, "{name}:");
        }
        let (text, len) = instruction(d, addr);
        let marker = if addr == pc { "=>" } else { "  " };
        let bp = if d.breakpoints.at(addr) { "*" } else { " " };
        let bytes: String = (0..len)
            .map(|i| format!("{:02X}", d.machine.peek(addr.wrapping_add(i))))
            .collect();
        let _ = write!(s, "{marker}{bp}${addr:04X}  {bytes:<8}  {text}");
        if let Some((f, l)) = source_of(d, addr)
            && last_source != Some((f.clone(), l))
        {
            let src = d.program.source_line(&f, l).unwrap_or("").trim();
            let _ = write!(s, "    ; {}:{l}  {src}", file_name(&f));
            last_source = Some((f, l));
        }
        s.push('\n');
        addr = addr.wrapping_add(len);
    }
    s
}

/// The source lines around `addr` with `=>` on its line and `*` on lines with breakpoints.
pub fn source_around<M: Z80Host>(d: &Z80Debugger<M>, addr: u16, before: u32, after: u32) -> Option<String> {
    let (file, line) = source_of(d, addr)?;
    let first = line.saturating_sub(before).max(1);
    source_lines(d, &file, first, before + after + 1)
}

/// `count` lines of source file `file` from line `first` (from 1), `=>` marking the PC's and
/// `*` a breakpoint's: empty past the file's end, None for a file the program does not have.
pub fn source_lines<M: Z80Host>(
    d: &Z80Debugger<M>,
    file: &std::path::Path,
    first: u32,
    count: u32,
) -> Option<String> {
    let (_, text) = d.program.files.iter().find(|(p, _)| *p == file)?;
    let file = file.to_path_buf();
    let first = first.max(1);
    // `=>` is where the program is, as in the disassembly: `list inner` while stopped elsewhere
    // marks no line of it.
    let current = source_of(d, d.machine.cpu().pc());
    let mut s = String::new();
    for (i, t) in text
        .lines()
        .enumerate()
        .skip(first as usize - 1)
        .take(count as usize)
    {
        let n = i as u32 + 1;
        let marker = if current.as_ref() == Some(&(file.clone(), n)) {
            "=>"
        } else {
            "  "
        };
        let bp = match d.program.source_map.address_of(&file.to_string_lossy(), n) {
            Some(a) if d.breakpoints.at(a) => "*",
            _ => " ",
        };
        let _ = writeln!(s, "{marker}{bp}{n:>5}  {t}");
    }
    Some(s)
}

/// Memory as hex bytes and characters, 16 to a row.
pub fn hexdump<M: Z80Host>(d: &Z80Debugger<M>, addr: u16, len: usize) -> String {
    let mut s = String::new();
    for row in (0..len).step_by(16) {
        let a = addr.wrapping_add(row as u16);
        let n = (len - row).min(16);
        let bytes: Vec<u8> = (0..n).map(|i| d.machine.peek(a.wrapping_add(i as u16))).collect();
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
        let chars: String = bytes
            .iter()
            .map(|&b| if (0x20..0x7F).contains(&b) { b as char } else { '.' })
            .collect();
        let _ = writeln!(
            s,
            "${a:04X} {:<14}  {:<47}  {chars}",
            label_offset(d, a),
            hex.join(" ")
        );
    }
    s
}

/// Memory for a narrow panel: `rows` rows of 8 bytes and their characters, from `addr`.
pub fn memory_rows<M: Z80Host>(d: &Z80Debugger<M>, addr: u16, rows: usize) -> String {
    let mut s = String::new();
    for row in 0..rows {
        let a = addr.wrapping_add(8 * row as u16);
        let bytes: Vec<u8> = (0..8).map(|i| d.machine.peek(a.wrapping_add(i))).collect();
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
        let chars: String = bytes
            .iter()
            .map(|&b| if (0x20..0x7F).contains(&b) { b as char } else { '.' })
            .collect();
        let _ = writeln!(s, "${a:04X} {}  {chars}", hex.join(" "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names_cover_pairs_halves_and_flags() {
        let r = Registers {
            af: 0x1241,
            bc: 0x3456,
            ix: 0xABCD,
            af_alt: 7,
            ..Default::default()
        };
        assert_eq!(register(&r, "A"), Some(0x12));
        assert_eq!(register(&r, "C"), Some(0x56));
        assert_eq!(register(&r, "IXH"), Some(0xAB));
        assert_eq!(register(&r, "AF'"), Some(7));
        assert_eq!(register(&r, "ZF"), Some(1));
        assert_eq!(register(&r, "CF"), Some(1));
        assert_eq!(register(&r, "NZ"), Some(0));
        assert_eq!(register(&r, "Q"), None);
        let mut cpu = Cpu::new();
        set_register(&mut cpu, "ixl", 0x99).unwrap();
        set_register(&mut cpu, "CF", 1).unwrap();
        set_register(&mut cpu, "hl'", 0x1234).unwrap();
        assert_eq!(cpu.ix() & 0xFF, 0x99);
        assert_eq!(cpu.f() & 1, 1);
        assert_eq!(cpu.alt()[3], 0x1234);
        assert!(set_register(&mut cpu, "QQ", 1).is_err());
    }
}
