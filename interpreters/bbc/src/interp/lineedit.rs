//! Editing a line typed from the keyboard (INPUT, and the `>` prompt in the terminal): the line
//! is echoed on the BBC screen through the VDU queue as it changes, the cursor keys move along
//! it, characters insert where the cursor is, and Up/Down recall earlier lines.
//!
//! Keys arrive as the bytes the keyboard buffer holds (`machine::key_code`): the cursor keys as
//! with `*FX4,1` (136 left, 137 right, 138 down, 139 up), Home 30, End (Copy) 135, Backspace and
//! Delete 127, Ctrl-U 21 (clear the line, as on the BBC).

use crate::vdu::Vdu;

/// The longest line BASIC takes.
const MAX_LINE: usize = 255;
/// How many earlier lines Up can recall.
const HISTORY: usize = 100;

/// Lines entered before, oldest first.
#[derive(Debug, Default)]
pub struct History {
    lines: Vec<Vec<u8>>,
}

impl History {
    /// Remembers a finished line (not empty lines, nor the same line twice in a row).
    pub fn push(&mut self, line: &[u8]) {
        if line.is_empty() || self.lines.last().is_some_and(|l| l == line) {
            return;
        }
        if self.lines.len() == HISTORY {
            self.lines.remove(0);
        }
        self.lines.push(line.to_vec());
    }
}

/// A line being edited.
#[derive(Debug, Default)]
pub struct LineEdit {
    line: Vec<u8>,
    /// The cursor, as an index into `line`.
    pos: usize,
    /// Which history line is shown (`None`: the line being typed, kept in `typed`).
    recall: Option<usize>,
    typed: Vec<u8>,
}

impl LineEdit {
    /// Obeys one key; returns the finished line when it is Return (the line is then in
    /// `history`, and the screen has moved to the next line).
    pub fn key(&mut self, k: u8, vdu: &mut Vdu, history: &mut History) -> Option<Vec<u8>> {
        match k {
            13 => {
                self.right(vdu, self.line.len() - self.pos);
                vdu.write_all(b"\r\n");
                let line = std::mem::take(&mut self.line);
                history.push(&line);
                *self = LineEdit::default();
                return Some(line);
            }
            127 | 8 if self.pos > 0 => {
                self.pos -= 1;
                self.line.remove(self.pos);
                vdu.write(8);
                self.redraw_tail(vdu, 1);
            }
            136 if self.pos > 0 => {
                self.pos -= 1;
                vdu.write(8);
            }
            137 if self.pos < self.line.len() => {
                self.pos += 1;
                vdu.write(9);
            }
            30 => self.left(vdu, self.pos),
            135 => self.right(vdu, self.line.len() - self.pos),
            21 => self.replace(vdu, Vec::new()),
            139 => {
                let i = match self.recall {
                    None if !history.lines.is_empty() => {
                        self.typed = self.line.clone();
                        history.lines.len() - 1
                    }
                    Some(i) if i > 0 => i - 1,
                    _ => return None,
                };
                self.recall = Some(i);
                self.replace(vdu, history.lines[i].clone());
            }
            138 => {
                let i = self.recall?;
                let next = if i + 1 < history.lines.len() {
                    self.recall = Some(i + 1);
                    history.lines[i + 1].clone()
                } else {
                    self.recall = None;
                    std::mem::take(&mut self.typed)
                };
                self.replace(vdu, next);
            }
            c if ((32..127).contains(&c) || c >= 160) && self.line.len() < MAX_LINE => {
                self.line.insert(self.pos, c);
                vdu.write(c);
                self.pos += 1;
                self.redraw_tail(vdu, 0);
            }
            _ => {}
        }
        None
    }

    fn left(&mut self, vdu: &mut Vdu, n: usize) {
        for _ in 0..n {
            vdu.write(8);
        }
        self.pos -= n;
    }

    fn right(&mut self, vdu: &mut Vdu, n: usize) {
        for _ in 0..n {
            vdu.write(9);
        }
        self.pos += n;
    }

    /// Rewrites the line from the cursor to its end, then `blanks` spaces (over characters that
    /// went), and puts the cursor back.
    fn redraw_tail(&mut self, vdu: &mut Vdu, blanks: usize) {
        let tail = self.line.len() - self.pos;
        vdu.write_all(&self.line[self.pos..]);
        for _ in 0..blanks {
            vdu.write(b' ');
        }
        for _ in 0..tail + blanks {
            vdu.write(8);
        }
    }

    /// Shows `new` instead of the line, with the cursor at its end.
    fn replace(&mut self, vdu: &mut Vdu, new: Vec<u8>) {
        self.left(vdu, self.pos);
        let old_len = self.line.len();
        self.line = new;
        vdu.write_all(&self.line);
        let blanks = old_len.saturating_sub(self.line.len());
        for _ in 0..blanks {
            vdu.write(b' ');
        }
        for _ in 0..blanks {
            vdu.write(8);
        }
        self.pos = self.line.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Types `keys` into a fresh editor on a text screen; returns the finished lines and the
    /// screen's first row.
    fn type_keys(keys: &[u8], history: &mut History) -> (Vec<Vec<u8>>, String) {
        let mut vdu = Vdu::default();
        let mut ed = LineEdit::default();
        let mut done = Vec::new();
        for &k in keys {
            if let Some(l) = ed.key(k, &mut vdu, history) {
                done.push(l);
            }
        }
        let text = retro_screen::dump::text(&vdu.frame());
        let row = text.lines().next().unwrap_or("").trim_end().to_string();
        (done, row)
    }

    #[test]
    fn cursor_keys_insert_and_delete_in_the_middle_of_the_line() {
        let mut h = History::default();
        // "PRNT 1", left x5, right (after the R), insert I; End, backspace, 2, Return.
        let mut keys = b"PRNT 1".to_vec();
        keys.extend([136, 136, 136, 136, 136, 137]);
        keys.push(b'I');
        keys.extend([135, 127, b'2', 13]);
        let (done, _) = type_keys(&keys, &mut h);
        assert_eq!(done, vec![b"PRINT 2".to_vec()]);
    }

    #[test]
    fn the_screen_shows_the_edited_line() {
        let mut h = History::default();
        let mut keys = b"ABCD".to_vec();
        keys.extend([136, 136, 127, b'x', b'y', 30, b'>']);
        let (done, row) = type_keys(&keys, &mut h);
        assert!(done.is_empty());
        assert_eq!(row, ">AxyCD");
    }

    #[test]
    fn up_and_down_recall_earlier_lines() {
        let mut h = History::default();
        type_keys(b"RUN\rLIST\r", &mut h);
        // Up twice gives RUN; Down gives LIST; Down again the half-typed line.
        let (done, _) = type_keys(&[b'P', 139, 139, 138, 13], &mut h);
        assert_eq!(done, vec![b"LIST".to_vec()]);
        let (done, row) = type_keys(&[b'P', 139, 139, 138, 138], &mut h);
        assert!(done.is_empty());
        assert_eq!(row, "P");
        let (done, row) = type_keys(&[b'X', b'Y', b'Z', 139, 139], &mut h);
        assert!(done.is_empty());
        assert_eq!(row, "RUN", "a shorter line blanks the rest");
    }
}
