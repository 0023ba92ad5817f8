//! LIST as the ROM does it (QPLOP): every byte of $80 and above outside quotes is shown as its
//! keyword, also after REM (the classic REM trick), and the bytes stay PETSCII.

use crate::tokens;

/// Appends the listing of a line body, in PETSCII, to `out`.
pub fn list_body(body: &[u8], out: &mut Vec<u8>) {
    let mut quote = false;
    for &b in body {
        if b == b'"' {
            quote = !quote;
        }
        if !quote && b >= 0x80 && b != tokens::PI {
            match tokens::keyword(b) {
                Some(k) => out.extend_from_slice(k.as_bytes()),
                // The ROM walks off the end of its table for $CC-$FE and prints what it finds
                // there; we print the byte itself.
                None => out.push(b),
            }
        } else {
            out.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_expand_outside_quotes_even_after_rem() {
        let mut out = Vec::new();
        list_body(&[0x99, b' ', b'"', 0x99, b'"', 0x8F, 0x81], &mut out);
        assert_eq!(out, b"PRINT \"\x99\"REMFOR");
    }
}
