//! Byte offsets to line numbers, built once per text so each lookup is a binary search.

/// The start of every line of a text. Lines end at `\n`, `\r\n` or a lone `\r` (the line
/// endings the BASIC tokenizers accept; form feeds are ordinary characters).
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// The 0-based line holding byte `offset` (offsets past the end are on the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// Line `line`'s text in `text` (which must be the text the index was built from), without
    /// its line ending.
    pub fn line_text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let start = self.starts.get(line).copied().unwrap_or(self.len);
        let end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        text.get(start..end)
            .unwrap_or("")
            .trim_end_matches('\n')
            .trim_end_matches('\r')
    }

    /// Byte offset of the start of line `line`.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_ending_counts_once() {
        let text = "a\nbb\r\nccc\rd";
        let ix = LineIndex::new(text);
        let lines: Vec<&str> = (0..4).map(|l| ix.line_text(text, l)).collect();
        assert_eq!(lines, ["a", "bb", "ccc", "d"]);
        assert_eq!(ix.line_of(0), 0);
        assert_eq!(ix.line_of(2), 1);
        assert_eq!(ix.line_of(4), 1); // the \r of \r\n
        assert_eq!(ix.line_of(6), 2);
        assert_eq!(ix.line_of(10), 3);
        assert_eq!(ix.line_of(99), 3);
        assert_eq!(ix.line_start(2), 6);
    }

    #[test]
    fn a_form_feed_is_not_a_line_break() {
        let ix = LineIndex::new("a\x0cb\nc");
        assert_eq!(ix.line_of(2), 0);
        assert_eq!(ix.line_of(4), 1);
    }
}
