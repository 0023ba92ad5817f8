//! What an assembly produces besides the bytes: Intel HEX, the listing, the symbol file and the
//! source map the debugger uses.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// An address label.
    Label,
    /// An EQU / `=` constant.
    Equ,
    /// A DEFL (redefinable) value.
    Defl,
}

/// Symbols by name, with their values. The debugger resolves breakpoints on labels through
/// [`SymbolTable::get`] and labels addresses through [`SymbolTable::name_of`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolTable {
    by_name: BTreeMap<String, (u16, SymbolKind)>,
    /// The preferred name for each value, so labelling an address is a lookup, not a scan.
    preferred: BTreeMap<u16, String>,
}

/// Sort key for choosing among names with the same value: a label over an EQU, a global over a
/// local, the shorter, then the alphabetically first.
fn preference(name: &str, kind: SymbolKind) -> (bool, bool, usize, &str) {
    (kind != SymbolKind::Label, name.contains('.'), name.len(), name)
}

impl SymbolTable {
    pub fn insert(&mut self, name: String, value: u16, kind: SymbolKind) {
        if let Some((old_value, _)) = self.by_name.insert(name.clone(), (value, kind)) {
            // The name moved: recompute the preferred name of its old value.
            if self.preferred.get(&old_value) == Some(&name) {
                self.preferred.remove(&old_value);
                let best = self
                    .by_name
                    .iter()
                    .filter(|(_, (v, _))| *v == old_value)
                    .min_by(|a, b| preference(a.0, a.1.1).cmp(&preference(b.0, b.1.1)))
                    .map(|(n, _)| n.clone());
                if let Some(best) = best {
                    self.preferred.insert(old_value, best);
                }
            }
        }
        let better = match self.preferred.get(&value) {
            None => true,
            Some(cur) => {
                let cur_kind = self.by_name.get(cur).map_or(SymbolKind::Equ, |v| v.1);
                preference(&name, kind) < preference(cur, cur_kind)
            }
        };
        if better {
            self.preferred.insert(value, name);
        }
    }

    pub fn get(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).map(|v| v.0)
    }

    pub fn kind(&self, name: &str) -> Option<SymbolKind> {
        self.by_name.get(name).map(|v| v.1)
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// (name, value, kind) sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u16, SymbolKind)> {
        self.by_name.iter().map(|(n, (v, k))| (n.as_str(), *v, *k))
    }

    /// The preferred label for an address: a label over an EQU, a global over a local, the
    /// shorter, then the alphabetically first.
    pub fn name_of(&self, addr: u16) -> Option<&str> {
        self.preferred.get(&addr).map(String::as_str)
    }

    /// The symbol file: one `name: equ $XXXX` per line, a form that the assembler (ours, pasmo,
    /// z80asm) can INCLUDE; labels and constants are told apart by a trailing comment.
    pub fn to_file(&self) -> String {
        let mut s = String::from("; retro asm symbol file\n");
        let mut rows: Vec<_> = self.iter().collect();
        rows.sort_by_key(|(n, v, _)| (*v, n.to_string()));
        for (n, v, k) in rows {
            let kind = match k {
                SymbolKind::Label => "label",
                SymbolKind::Equ => "equ",
                SymbolKind::Defl => "defl",
            };
            let _ = writeln!(s, "{n}: equ ${v:04X} ; {kind}");
        }
        s
    }

    /// Reads a symbol file written by [`SymbolTable::to_file`], or z80asm's `-L` label file
    /// (`name: equ $XXXX`), or a pasmo-style `name EQU 0XXXXH` list. Lines that do not parse are
    /// returned as errors with their 1-based line numbers.
    pub fn parse(text: &str) -> Result<SymbolTable, Vec<(usize, String)>> {
        let mut t = SymbolTable::default();
        let mut errors = vec![];
        for (i, raw) in text.lines().enumerate() {
            let (body, comment) = match raw.find(';') {
                Some(k) => (&raw[..k], raw[k + 1..].trim()),
                None => (raw, ""),
            };
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            let mut parts = body.split_whitespace();
            let name = parts.next().unwrap_or("").trim_end_matches(':');
            let kw = parts.next().unwrap_or("");
            let value = parts.next().unwrap_or("");
            let parsed = if kw.eq_ignore_ascii_case("equ") || kw == "=" {
                parse_value(value)
            } else {
                None
            };
            match parsed {
                Some(v) if !name.is_empty() && parts.next().is_none() => {
                    let kind = match comment {
                        "equ" => SymbolKind::Equ,
                        "defl" => SymbolKind::Defl,
                        _ => SymbolKind::Label,
                    };
                    t.insert(name.to_string(), v, kind);
                }
                _ => errors.push((
                    i + 1,
                    format!("expected `name: equ value`, found `{}`", raw.trim()),
                )),
            }
        }
        if errors.is_empty() { Ok(t) } else { Err(errors) }
    }
}

fn parse_value(s: &str) -> Option<u16> {
    let v = if let Some(h) = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix('#'))
        .or_else(|| s.strip_prefix('&'))
    {
        i64::from_str_radix(h, 16).ok()
    } else {
        crate::lexer::parse_number(s)
    };
    v.filter(|v| (0..=0xFFFF).contains(v)).map(|v| v as u16)
}

/// Maps addresses to source lines and back. Bytes made by a macro expansion map to the line that
/// invoked the macro.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// (address, length, file index, 0-based line)
    pub entries: Vec<(u16, u16, u32, u32)>,
    pub files: Vec<PathBuf>,
}

/// A resolved source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePos {
    pub file: PathBuf,
    /// 1-based.
    pub line: u32,
}

impl SourceMap {
    /// The source line that produced the byte at `addr`.
    pub fn lookup(&self, addr: u16) -> Option<SourcePos> {
        self.entries
            .iter()
            .rev()
            .find(|(a, len, _, _)| addr >= *a && (addr as u32) < *a as u32 + *len as u32)
            .map(|&(_, _, f, l)| SourcePos {
                file: self.files[f as usize].clone(),
                line: l + 1,
            })
    }

    /// The first address produced by a (1-based) line of a file whose path ends with `file`, for
    /// breakpoints on source lines.
    pub fn address_of(&self, file: &str, line: u32) -> Option<u16> {
        self.entries
            .iter()
            .find(|&&(_, _, f, l)| l + 1 == line && self.files[f as usize].to_string_lossy().ends_with(file))
            .map(|e| e.0)
    }

    /// A text form: `ADDR LEN file:line` per entry, for tools outside the process.
    pub fn to_file(&self) -> String {
        let mut s = String::new();
        for &(a, len, f, l) in &self.entries {
            let _ = writeln!(s, "{a:04X} {len} {}:{}", self.files[f as usize].display(), l + 1);
        }
        s
    }
}

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingLine {
    pub file: u32,
    pub line: u32,
    pub text_start: u32,
    pub text_end: u32,
    pub addr: Option<u16>,
    pub bytes: Vec<u8>,
    /// INCLUDE nesting (0 = main file).
    pub depth: u32,
    /// The line comes from a macro or REPT expansion.
    pub in_macro: bool,
}

/// Intel HEX: 16-byte data records for each written block, then the end record.
pub fn intel_hex(blocks: &[(u16, Vec<u8>)]) -> String {
    let mut s = String::new();
    for (addr, data) in blocks {
        for (k, chunk) in data.chunks(16).enumerate() {
            let a = addr.wrapping_add((k * 16) as u16);
            let mut sum = chunk.len() as u8;
            sum = sum.wrapping_add((a >> 8) as u8).wrapping_add(a as u8);
            let _ = write!(s, ":{:02X}{a:04X}00", chunk.len());
            for b in chunk {
                let _ = write!(s, "{b:02X}");
                sum = sum.wrapping_add(*b);
            }
            let _ = writeln!(s, "{:02X}", sum.wrapping_neg());
        }
    }
    s.push_str(":00000001FF\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intel_hex_checksums() {
        // Record from the Intel HEX specification's worked example style: bytes 01 02 at 0100h.
        let hex = intel_hex(&[(0x0100, vec![0x01, 0x02])]);
        assert_eq!(hex, ":0201000001 02FA\n:00000001FF\n".replace(' ', ""));
    }

    #[test]
    fn symbol_file_round_trips_and_reads_z80asm_labels() {
        let mut t = SymbolTable::default();
        t.insert("start".into(), 0x8000, SymbolKind::Label);
        t.insert("SIZE".into(), 42, SymbolKind::Equ);
        assert_eq!(SymbolTable::parse(&t.to_file()).unwrap(), t);
        let z = SymbolTable::parse("loop:\tequ $8003\n").unwrap();
        assert_eq!(z.get("loop"), Some(0x8003));
        assert!(SymbolTable::parse("garbage here\n").is_err());
    }

    #[test]
    fn an_address_is_named_by_its_best_symbol() {
        let mut t = SymbolTable::default();
        t.insert("SIZE".into(), 0x8000, SymbolKind::Equ);
        t.insert("main.loop".into(), 0x8000, SymbolKind::Label);
        assert_eq!(t.name_of(0x8000), Some("main.loop"));
        t.insert("main".into(), 0x8000, SymbolKind::Label);
        assert_eq!(t.name_of(0x8000), Some("main"));
        t.insert("main".into(), 0x9000, SymbolKind::Label);
        assert_eq!(t.name_of(0x8000), Some("main.loop"));
        assert_eq!(t.name_of(0x9000), Some("main"));
        assert_eq!(t.name_of(0x1234), None);
    }
}
