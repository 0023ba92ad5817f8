//! The VICE monitor's memory commands for every debugger (the Z80's, the C64's, the BBC's):
//! `find` (VICE's `hunt`), `fill`, `compare`, `move` and the byte list of a multi-byte `set`.
//! What is machine-independent lives here, over [`Memory`]: the range `START END` split into
//! words, the byte list (`1 2 $FF` or `"TEXT"`), the search, the fill pattern, the compare
//! report and the move's copy (read whole before written, so an overlap is fine). Each dialect
//! reads its addresses and byte values its own way (the Z80's expressions, BBC BASIC's
//! `blk%+3`, the C64's `$0400`) and writes memory its own way (a BASIC machine records the
//! write as an event of its history).

use std::fmt::Write as _;

/// Addresses `find` (and differences `compare`) lists before it says how many more there are.
pub const FIND_SHOWN: usize = 32;

/// A machine's memory as these commands see it.
pub trait Memory {
    /// The byte at `at` (below [`Memory::size`]).
    fn peek(&self, at: usize) -> u8;
    /// Addresses are `0..size`; a run past the end wraps to 0 (the Z80's and C64's 64K).
    fn size(&self) -> usize;
    /// An address as the machine writes it (`$8000`, `&01900`).
    fn show(&self, at: usize) -> String;
    /// What `find` says after an address (a label and offset); nothing by default.
    fn label(&self, _at: usize) -> String {
        String::new()
    }
}

/// The words `START END` and the rest of the arguments (START and END are written without
/// spaces).
pub fn range_words<'a>(args: &'a str, usage: &str) -> Result<(&'a str, &'a str, &'a str), String> {
    let mut words = args.trim().splitn(3, char::is_whitespace);
    match (words.next(), words.next()) {
        (Some(a), Some(b)) if !a.is_empty() => Ok((a, b, words.next().unwrap_or("").trim())),
        _ => Err(format!("usage: {usage}")),
    }
}

/// A range is not backwards (the machine's words for it).
pub fn check_range(mem: &impl Memory, first: usize, last: usize) -> Result<(), String> {
    if last < first {
        return Err(format!(
            "the range {} {} is backwards",
            mem.show(first),
            mem.show(last)
        ));
    }
    Ok(())
}

/// Bytes written as values separated by spaces (`1 2 $FF`, each read by `value`; -128..-1 are
/// the bytes 128..255), or a quoted text (`"WIN"`, each character through `text`: a dialect's
/// character set).
pub fn byte_list(
    list: &str,
    mut value: impl FnMut(&str) -> Result<i64, String>,
    text: impl Fn(char) -> u8,
) -> Result<Vec<u8>, String> {
    let t = list.trim();
    if let Some(inner) = t.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or("a text needs its closing quote")?;
        if inner.is_empty() {
            return Err("an empty text".into());
        }
        return Ok(inner.chars().map(text).collect());
    }
    let bytes = t
        .split_whitespace()
        .map(|w| {
            let v = value(w)?;
            u8::try_from(v)
                .or_else(|_| i8::try_from(v).map(|b| b as u8))
                .map_err(|_| format!("{w} = {v} is not a byte"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    if bytes.is_empty() {
        return Err("no bytes given".into());
    }
    if bytes.len() > 256 {
        return Err("at most 256 bytes at a time".into());
    }
    Ok(bytes)
}

/// The bytes of `first..=last`.
pub fn read(mem: &impl Memory, first: usize, last: usize) -> Vec<u8> {
    (first..=last).map(|a| mem.peek(a % mem.size())).collect()
}

/// `find`: every address in `first..=last` where `pattern` starts, as the report says them.
pub fn find(mem: &impl Memory, first: usize, last: usize, pattern: &[u8]) -> String {
    let bytes = read(mem, first, last);
    let hits: Vec<usize> = bytes
        .windows(pattern.len())
        .enumerate()
        .filter(|(_, w)| *w == pattern)
        .map(|(i, _)| (first + i) % mem.size())
        .collect();
    if hits.is_empty() {
        return "Pattern not found.\n".into();
    }
    let mut s = String::new();
    for a in hits.iter().take(FIND_SHOWN) {
        let _ = match mem.label(*a) {
            l if l.is_empty() => writeln!(s, "{}", mem.show(*a)),
            l => writeln!(s, "{} {l}", mem.show(*a)),
        };
    }
    if hits.len() > FIND_SHOWN {
        let _ = writeln!(s, "... and {} more", hits.len() - FIND_SHOWN);
    }
    s
}

/// `fill`: the `len` bytes that fill a range with `pattern` over and over.
pub fn filled(len: usize, pattern: &[u8]) -> Vec<u8> {
    pattern.iter().copied().cycle().take(len).collect()
}

/// `compare`: where `first..=last` and the bytes from `dest` differ, each as `ADDR XX  ADDR YY`.
pub fn compare(mem: &impl Memory, first: usize, last: usize, dest: usize) -> String {
    let mut s = String::new();
    let mut differ = 0;
    for (i, a) in (first..=last).enumerate() {
        let b = (dest + i) % mem.size();
        let (x, y) = (mem.peek(a % mem.size()), mem.peek(b));
        if x != y {
            differ += 1;
            if differ <= FIND_SHOWN {
                let _ = writeln!(s, "{} {x:02X}  {} {y:02X}", mem.show(a), mem.show(b));
            }
        }
    }
    if differ > FIND_SHOWN {
        let _ = writeln!(s, "... and {} more", differ - FIND_SHOWN);
    }
    if differ == 0 {
        s.push_str("The same.\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ram(Vec<u8>);
    impl Memory for Ram {
        fn peek(&self, at: usize) -> u8 {
            self.0[at]
        }
        fn size(&self) -> usize {
            self.0.len()
        }
        fn show(&self, at: usize) -> String {
            format!("${at:04X}")
        }
    }

    fn num(w: &str) -> Result<i64, String> {
        w.parse().map_err(|_| format!("`{w}`?"))
    }

    #[test]
    fn a_byte_list_is_values_or_a_text() {
        assert_eq!(byte_list("1 2 -1", num, |c| c as u8), Ok(vec![1, 2, 255]));
        assert_eq!(
            byte_list("\"Hi\"", num, |c| c.to_ascii_uppercase() as u8),
            Ok(b"HI".to_vec())
        );
        assert!(
            byte_list("256", num, |c| c as u8)
                .unwrap_err()
                .contains("not a byte")
        );
        assert!(byte_list("", num, |c| c as u8).is_err());
        assert!(byte_list("\"open", num, |c| c as u8).is_err());
    }

    #[test]
    fn find_fill_and_compare_say_what_a_user_reads() {
        let mut ram = Ram(vec![0; 16]);
        ram.0[3..6].copy_from_slice(&[1, 2, 3]);
        ram.0[14..16].copy_from_slice(&[1, 2]);
        assert_eq!(find(&ram, 0, 15, &[1, 2]), "$0003\n$000E\n");
        assert_eq!(find(&ram, 0, 15, &[9]), "Pattern not found.\n");
        assert_eq!(filled(5, &[7, 8]), vec![7, 8, 7, 8, 7]);
        assert_eq!(compare(&ram, 3, 4, 14), "The same.\n");
        assert_eq!(compare(&ram, 3, 5, 14), "$0005 03  $0000 00\n");
        assert_eq!(range_words("a b \"x y\"", "u"), Ok(("a", "b", "\"x y\"")));
        assert!(range_words("a", "u").is_err());
    }
}
