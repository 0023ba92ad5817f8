//! The token view (`retro list --tokens`): each line's address, link and number, then its body
//! bytes in groups with what they are (keyword, text, string, the verbatim tail of REM or DATA).

use crate::program::{BASIC_START, Program, detokenize_body};
use crate::tokens;

/// Renders the view of a program as it sits in memory from $0801.
pub fn render(program: &Program) -> String {
    let mut out = String::new();
    let mut addr = BASIC_START as usize;
    for line in program.lines() {
        let next = addr + 4 + line.body.len() + 1;
        out.push_str(&format!(
            "${addr:04X}  link ${next:04X}  line {}  ({} bytes)\n",
            line.number,
            line.body.len()
        ));
        let mut at = addr + 4;
        for (bytes, what) in groups(&line.body) {
            let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
            out.push_str(&format!("  ${at:04X}  {:<24} {what}\n", hex.join(" ")));
            at += bytes.len();
        }
        out.push_str(&format!("  ${at:04X}  00                       end of line\n"));
        addr = next;
    }
    out.push_str(&format!("${addr:04X}  00 00  end of program\n"));
    out
}

/// Splits a body into annotated groups.
fn groups(body: &[u8]) -> Vec<(&[u8], String)> {
    let mut out = Vec::new();
    let mut i = 0;
    let text = |b: &[u8]| {
        let mut s = String::new();
        detokenize_body(b, crate::petcat::Charset::Petcat, &mut s);
        s
    };
    while i < body.len() {
        let b = body[i];
        if b == b'"' {
            let end = body[i + 1..]
                .iter()
                .position(|&c| c == b'"')
                .map_or(body.len(), |p| i + p + 2);
            out.push((&body[i..end], format!("string {}", text(&body[i..end]))));
            i = end;
        } else if let Some(k) = tokens::keyword(b) {
            out.push((&body[i..i + 1], format!("keyword {k}")));
            i += 1;
            if b == tokens::REM || b == tokens::DATA {
                let end = if b == tokens::REM {
                    body.len()
                } else {
                    data_end(body, i)
                };
                if end > i {
                    out.push((&body[i..end], format!("verbatim {}", text(&body[i..end]))));
                }
                i = end;
            }
        } else {
            // At least this byte: a byte of $80 or above that is no keyword ($CC-$FE) is text
            // too, and the group must move on past it.
            let end = body[i + 1..]
                .iter()
                .position(|&c| c == b'"' || (c >= 0x80 && c != tokens::PI))
                .map_or(body.len(), |p| i + 1 + p)
                .min(i + 8);
            out.push((&body[i..end], format!("text {}", text(&body[i..end]))));
            i = end;
        }
    }
    out
}

/// Where DATA's verbatim text ends: at a `:` outside quotes.
fn data_end(body: &[u8], from: usize) -> usize {
    let mut quote = false;
    for (k, &b) in body.iter().enumerate().skip(from) {
        match b {
            b'"' => quote = !quote,
            b':' if !quote => return k,
            _ => {}
        }
    }
    body.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_show_their_address_link_and_annotated_bytes() {
        let p = Program::from_text("10 print\"hi\":rem x\n").unwrap();
        let view = render(&p);
        assert!(
            view.starts_with("$0801  link $080F  line 10  (9 bytes)\n"),
            "{view}"
        );
        assert!(view.contains("99                       keyword PRINT"), "{view}");
        assert!(view.contains("22 48 49 22              string \"hi\""), "{view}");
        assert!(view.contains("8F                       keyword REM"), "{view}");
        assert!(view.contains("20 58                    verbatim  x"), "{view}");
        assert!(view.ends_with("$080F  00 00  end of program\n"), "{view}");
    }

    #[test]
    fn bytes_above_the_keywords_are_shown_as_text_and_passed() {
        // Issue 32.2: $CC-$FE are no keywords; the inspector used to stop on them for ever.
        let p = Program::from_prg(&[1, 8, 9, 8, 10, 0, 0xCC, 0xFE, 0x41, 0, 0, 0]).unwrap();
        let view = render(&p);
        assert!(view.contains("$0805  CC  "), "{view}");
        assert!(view.contains("$0806  FE 41  "), "{view}");
        assert!(view.ends_with("$0809  00 00  end of program\n"), "{view}");
    }
}
