//! Structures and grids, so `print GAMESTRUCT` lists fields by name and `print Board` draws a grid.
//!
//! A structure comes from the course's idiom: the data is laid out under a base label and each
//! field's offset is an EQU written as `field EQU label-BASE` (`oBoard: equ Board-GAMESTRUCT`),
//! which code uses as `(IY+oBoard)`. The assembler's symbol table keeps only values, so these lines
//! are found in the source text (the only thing read from it); every value comes from the symbol
//! table. A grid is either declared (`grid Board 7 6`) or found when the program defines XSIZE
//! and YSIZE and a label's data is exactly XSIZE*YSIZE bytes long.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use retro_z80_asm::SymbolKind;

use crate::program::Program;

/// One field: the offset EQU's name, the label it measures, and the offset (a declared field has
/// its name in both and its size).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub offset_name: String,
    pub label: String,
    pub offset: u16,
    pub size: Option<u16>,
}

/// `struct NAME FIELD[:SIZE] ...` (the debugger command, or a source comment `; @struct ...`):
/// the fields in order, each `SIZE` bytes (1 unless given).
pub fn parse_declaration(text: &str) -> Result<(String, Vec<Field>), String> {
    let mut words = text.split_whitespace();
    let name = words
        .next()
        .ok_or("usage: struct NAME FIELD[:SIZE] ... (sizes in bytes, 1 unless given)")?;
    let mut fields = vec![];
    let mut offset: u32 = 0;
    for w in words {
        let (field, size) = match w.split_once(':') {
            Some((f, n)) => (
                f,
                crate::debug::expr::number(n)
                    .filter(|&n| (1..=0x1000).contains(&n))
                    .ok_or_else(|| format!("`{n}` is not a size from 1 to 4096"))? as u32,
            ),
            None => (w, 1),
        };
        if field.is_empty() || offset + size > 0x10000 {
            return Err(format!("`{w}` is not FIELD[:SIZE]"));
        }
        fields.push(Field {
            offset_name: field.to_string(),
            label: field.to_string(),
            offset: offset as u16,
            size: Some(size as u16),
        });
        offset += size;
    }
    if fields.is_empty() {
        return Err(format!("struct {name} needs at least one field"));
    }
    Ok((name.to_string(), fields))
}

#[derive(Clone, Debug, Default)]
pub struct Structs {
    /// Base label -> fields in offset order.
    pub by_base: BTreeMap<String, Vec<Field>>,
    /// Label -> (columns, rows).
    pub grids: BTreeMap<String, (u16, u16)>,
    /// Structures declared explicitly (their fields are not EQU offsets).
    pub declared: std::collections::BTreeSet<String>,
}

/// `NAME [:] EQU A - B` (any case, optional spaces, optional comment), as (NAME, A, B).
fn offset_equ(line: &str) -> Option<(&str, &str, &str)> {
    let code = line.split(';').next()?;
    let mut words = code.split_whitespace().peekable();
    let name = words.next()?.trim_end_matches(':');
    if words.peek() == Some(&":") {
        words.next();
    }
    if !words.next()?.eq_ignore_ascii_case("equ") {
        return None;
    }
    // The rest, spaces removed: `Level - GAMESTRUCT` and `Level-GAMESTRUCT` alike.
    let after_name = code.find(name)? + name.len();
    let rest_at = after_name + code[after_name..].to_ascii_lowercase().find("equ")? + 3;
    let rest = code[rest_at..].trim();
    let (a, b) = rest.split_once('-')?;
    fn ident(s: &str) -> Option<&str> {
        let s = s.trim();
        (!s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !s.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(s)
    }
    Some((name, ident(a)?, ident(b)?))
}

impl Structs {
    pub fn from_program(p: &Program) -> Structs {
        let mut s = Structs::default();
        for (_, text) in &p.files {
            for line in text.lines() {
                // An explicit declaration in a comment: `; @struct NAME FIELD[:SIZE] ...`.
                if let Some(decl) = line
                    .split_once(';')
                    .and_then(|(_, c)| c.trim().strip_prefix("@struct "))
                {
                    if let Ok((name, fields)) = parse_declaration(decl) {
                        s.declared.insert(name.clone());
                        s.by_base.insert(name, fields);
                    }
                    continue;
                }
                let Some((name, label, base)) = offset_equ(line) else {
                    continue;
                };
                let (Some(off), Some(_), Some(_)) =
                    (p.symbols.get(name), p.symbols.get(label), p.symbols.get(base))
                else {
                    continue;
                };
                if p.symbols.kind(base) != Some(SymbolKind::Label) {
                    continue;
                }
                if s.declared.contains(base) {
                    continue;
                }
                s.by_base.entry(base.to_string()).or_default().push(Field {
                    offset_name: name.to_string(),
                    label: label.to_string(),
                    offset: off,
                    size: None,
                });
            }
        }
        for fields in s.by_base.values_mut() {
            fields.sort_by_key(|f| f.offset);
            fields.dedup_by_key(|f| f.offset);
        }
        s
    }

    /// The size of a field: up to the next field, else the length of the data line at its label.
    fn field_size(&self, p: &Program, fields: &[Field], i: usize) -> u16 {
        if let Some(size) = fields[i].size {
            return size;
        }
        if let Some(next) = fields.get(i + 1) {
            return next.offset - fields[i].offset;
        }
        data_len(p, &fields[i].label).unwrap_or(1).max(1)
    }

    /// The grid shape of a label, declared or from XSIZE/YSIZE.
    pub fn grid_of(&self, p: &Program, label: &str) -> Option<(u16, u16)> {
        if let Some(g) = self.grids.get(label) {
            return Some(*g);
        }
        let (x, y) = (p.symbols.get("XSIZE")?, p.symbols.get("YSIZE")?);
        (data_len(p, label)? == x * y && x > 0 && y > 0).then_some((x, y))
    }

    /// Declares a structure (the `struct` command).
    pub fn declare(&mut self, name: String, fields: Vec<Field>) {
        self.declared.insert(name.clone());
        self.by_base.insert(name, fields);
    }

    /// Whether `name` is a structure (by a case-insensitive match too); its exact name.
    pub fn find(&self, name: &str) -> Option<&str> {
        let name = name.trim();
        self.by_base
            .keys()
            .find(|k| *k == name)
            .or_else(|| self.by_base.keys().find(|k| k.eq_ignore_ascii_case(name)))
            .map(String::as_str)
    }

    /// `print BASE` for a structure at its own label: each field with its value.
    pub fn show_struct(&self, p: &Program, base: &str, peek: &dyn Fn(u16) -> u8) -> Option<String> {
        let addr = p.symbols.get(base)?;
        self.show_struct_at(p, base, addr, None, peek)
    }

    /// A structure's fields at `addr` (`via`: the register it was reached through, whose
    /// offsets the field lines then show as `(IY+n)`).
    pub fn show_struct_at(
        &self,
        p: &Program,
        base: &str,
        addr: u16,
        via: Option<&str>,
        peek: &dyn Fn(u16) -> u8,
    ) -> Option<String> {
        let fields = self.by_base.get(base)?;
        let through = via.map(|r| format!(" ({r})")).unwrap_or_default();
        let mut s = format!("{base} at ${addr:04X}{through}:\n");
        for (i, f) in fields.iter().enumerate() {
            let size = self.field_size(p, fields, i);
            let at = addr.wrapping_add(f.offset);
            match via {
                Some(r) => {
                    let _ = write!(s, "  ({r}+{:<3}) {:<16} ", f.offset, f.label);
                }
                None => {
                    let _ = write!(s, "  +{:<3} {:<16} ", f.offset, f.label);
                }
            }
            if let Some((cols, rows)) = self.grid_of(p, &f.label) {
                let _ = writeln!(s, "{cols}x{rows} grid:");
                s.push_str(&grid_text(at, cols, rows, peek, "    "));
            } else if size == 1 {
                let v = peek(at);
                let _ = writeln!(s, "= {v} (${v:02X})");
            } else {
                let bytes: Vec<String> = (0..size.min(32))
                    .map(|k| format!("{:02X}", peek(at.wrapping_add(k))))
                    .collect();
                let more = if size > 32 { " ..." } else { "" };
                let _ = writeln!(s, "= [{}]{more}", bytes.join(" "));
            }
        }
        Some(s)
    }

    /// `print LABEL` for a grid.
    pub fn show_grid(&self, p: &Program, label: &str, peek: &dyn Fn(u16) -> u8) -> Option<String> {
        let (cols, rows) = self.grid_of(p, label)?;
        let addr = p.symbols.get(label)?;
        Some(format!(
            "{label} at ${addr:04X}, {cols}x{rows}:\n{}",
            grid_text(addr, cols, rows, peek, "  ")
        ))
    }
}

/// The bytes a label's source line produced (a DS/DB line), from the source map.
fn data_len(p: &Program, label: &str) -> Option<u16> {
    let addr = p.symbols.get(label)?;
    p.source_map
        .entries
        .iter()
        .find(|(a, len, _, _)| *a == addr && *len > 0)
        .map(|e| e.1)
}

/// Rows of values, row 0 first, with column numbers on top.
fn grid_text(addr: u16, cols: u16, rows: u16, peek: &dyn Fn(u16) -> u8, indent: &str) -> String {
    let mut s = format!("{indent}   ");
    for c in 0..cols {
        let _ = write!(s, "{c:>3}");
    }
    s.push('\n');
    for r in 0..rows {
        let _ = write!(s, "{indent}{r:>2} ");
        for c in 0..cols {
            let _ = write!(s, "{:>3}", peek(addr.wrapping_add(r * cols + c)));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_equ_lines_in_the_usual_spellings() {
        assert_eq!(
            offset_equ("oBoard: equ Board-GAMESTRUCT"),
            Some(("oBoard", "Board", "GAMESTRUCT"))
        );
        assert_eq!(
            offset_equ("oLevel EQU Level - GAMESTRUCT ; offset"),
            Some(("oLevel", "Level", "GAMESTRUCT"))
        );
        assert_eq!(offset_equ("X : equ A-B"), Some(("X", "A", "B")));
        assert_eq!(offset_equ("XSIZE equ 7"), None);
        assert_eq!(offset_equ("Y equ 10-2"), None);
        assert_eq!(offset_equ("  ld a,(iy+oBoard-1)"), None);
    }

    #[test]
    fn declarations_give_fields_in_order_with_sizes() {
        let (name, fields) = parse_declaration("GAME Level Board:42 Player:$1").unwrap();
        assert_eq!(name, "GAME");
        let got: Vec<(&str, u16, Option<u16>)> = fields
            .iter()
            .map(|f| (f.label.as_str(), f.offset, f.size))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Level", 0, Some(1)),
                ("Board", 1, Some(42)),
                ("Player", 43, Some(1))
            ]
        );
        assert!(parse_declaration("GAME").is_err());
        assert!(parse_declaration("GAME X:0").is_err());
        assert!(parse_declaration("GAME X:lots").is_err());
    }
}
