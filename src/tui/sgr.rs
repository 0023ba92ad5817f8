//! The 16 ANSI colours as the classic SGR codes. crossterm writes a named colour (red, dark grey)
//! as a 256-colour index, `38;5;9`, which a 16-colour terminal may not know (issue 31: `--colour
//! 16` sent 256-colour codes). Indexes 0-15 of the 256-colour palette are those 16 colours, so
//! this writer puts `91` in place of `38;5;9` (30-37 and 90-97 for the foreground, 40-47 and
//! 100-107 for the background): the same colour in every terminal, in the codes all of them know.
//!
//! Output is held until `flush` (ratatui flushes after each frame), so a sequence that arrives in
//! pieces is rewritten whole.

use std::io::{self, Write};

/// A writer that rewrites 256-colour SGR codes 0-15 to the 16-colour ones.
pub struct Sgr16<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Sgr16<W> {
    pub fn new(inner: W) -> Self {
        Sgr16 {
            inner,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for Sgr16<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let out = rewrite(&self.pending);
        self.pending.clear();
        self.inner.write_all(&out)?;
        self.inner.flush()
    }
}

/// `bytes` with every SGR sequence's `38;5;N` and `48;5;N` (N < 16) in the 16-colour codes.
pub fn rewrite(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\x1b[") {
            let params_start = i + 2;
            let end = bytes[params_start..]
                .iter()
                .position(|&b| !(b.is_ascii_digit() || b == b';'))
                .map(|n| params_start + n);
            if let Some(end) = end
                && bytes[end] == b'm'
            {
                out.extend_from_slice(b"\x1b[");
                out.extend_from_slice(&sgr_params(&bytes[params_start..end]));
                out.push(b'm');
                i = end + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

fn sgr_params(params: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(params);
    let ps: Vec<&str> = text.split(';').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ps.len() {
        let index = ps.get(i + 2).and_then(|n| n.parse::<u8>().ok());
        match (ps[i], ps.get(i + 1), index) {
            (which @ ("38" | "48"), Some(&"5"), Some(n)) if n < 16 => {
                let base = if which == "38" { 30 } else { 40 };
                let code = if n < 8 { base + n } else { base + 60 + n - 8 };
                out.push(code.to_string());
                i += 3;
            }
            // A colour's own parameters are never taken for codes.
            ("38" | "48", Some(&"5"), _) => {
                out.extend(ps[i..(i + 3).min(ps.len())].iter().map(|s| s.to_string()));
                i += 3;
            }
            ("38" | "48", Some(&"2"), _) => {
                out.extend(ps[i..(i + 5).min(ps.len())].iter().map(|s| s.to_string()));
                i += 5;
            }
            (p, _, _) => {
                out.push(p.to_string());
                i += 1;
            }
        }
    }
    out.join(";").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        String::from_utf8(rewrite(s.as_bytes())).unwrap()
    }

    #[test]
    fn the_sixteen_colours_become_classic_codes() {
        assert_eq!(r("\x1b[38;5;1mA"), "\x1b[31mA");
        assert_eq!(r("\x1b[38;5;9m"), "\x1b[91m");
        assert_eq!(r("\x1b[48;5;0m"), "\x1b[40m");
        assert_eq!(r("\x1b[48;5;15m"), "\x1b[107m");
        assert_eq!(r("x\x1b[0;38;5;7;48;5;8my"), "x\x1b[0;37;100my");
    }

    #[test]
    fn other_colours_and_sequences_stay() {
        assert_eq!(r("\x1b[38;5;196m"), "\x1b[38;5;196m");
        assert_eq!(r("\x1b[38;2;1;5;9m"), "\x1b[38;2;1;5;9m");
        assert_eq!(r("\x1b[2;5H\x1b[?25l"), "\x1b[2;5H\x1b[?25l");
        assert_eq!(r("plain ▀ text"), "plain ▀ text");
    }

    #[test]
    fn pieces_are_rewritten_whole_at_the_flush() {
        let mut w = Sgr16::new(Vec::new());
        for piece in ["\x1b[", "38;", "5;", "12", "m", "Z"] {
            w.write_all(piece.as_bytes()).unwrap();
        }
        w.flush().unwrap();
        assert_eq!(w.inner, b"\x1b[94mZ");
    }
}
