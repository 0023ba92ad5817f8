//! The listing file (`--listing`): each source line beside the address and bytes it assembled to.
//! Apart from [`crate::output`] because it reads the whole [`Assembly`] (its sources too), while
//! the output formats there are what an assembly is made of.

use std::fmt::Write as _;

use crate::asm::{Assembly, SourceFile};

/// Renders the listing: address, up to four bytes per row, file line number and the source text.
/// Included lines are marked with one `+` per INCLUDE level, macro expansions with `>`.
pub fn render_listing(asm: &Assembly) -> String {
    let mut s = String::new();
    let mut last_file = u32::MAX;
    for l in &asm.listing {
        if l.file != last_file && !l.in_macro {
            let _ = writeln!(s, "; file {}", asm.files[l.file as usize].path.display());
            last_file = l.file;
        }
        let src: &SourceFile = &asm.files[l.file as usize];
        let text = src
            .text
            .get(l.text_start as usize..l.text_end as usize)
            .unwrap_or("")
            .trim_end_matches('\r');
        let addr = l
            .addr
            .filter(|_| !l.bytes.is_empty())
            .map_or("    ".to_string(), |a| format!("{a:04X}"));
        let mark = format!(
            "{}{}",
            "+".repeat(l.depth as usize),
            if l.in_macro { ">" } else { "" }
        );
        let chunks: Vec<&[u8]> = if l.bytes.is_empty() {
            vec![&[][..]]
        } else {
            l.bytes.chunks(4).collect()
        };
        for (k, c) in chunks.iter().enumerate() {
            let hex: String = c.iter().map(|b| format!("{b:02X} ")).collect();
            if k == 0 {
                let _ = writeln!(s, "{addr}  {hex:<12} {:>5}{mark:<3} {text}", l.line + 1);
            } else if k < 4 {
                let a = l.addr.unwrap_or(0).wrapping_add(4 * k as u16);
                let _ = writeln!(s, "{a:04X}  {}", hex.trim_end());
            } else {
                let _ = writeln!(s, "      ... ({} bytes in all)", l.bytes.len());
                break;
            }
        }
    }
    s
}
