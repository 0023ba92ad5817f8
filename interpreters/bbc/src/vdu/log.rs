//! The VDU queue's log: the last sequences it dispatched, kept only while a debugger asks for
//! them (the debugger's `vdu` view spells them out).

use std::collections::VecDeque;

/// How many sequences the log keeps.
pub const LOG_LEN: usize = 64;

/// A ring of the last [`LOG_LEN`] sequences dispatched (control codes with their parameters,
/// and runs of printable characters merged into one entry).
#[derive(Debug, Clone, Default)]
pub struct VduLog {
    entries: VecDeque<Vec<u8>>,
    /// Sequences dispatched since the log started.
    pub total: u64,
}

impl VduLog {
    /// Records one dispatched sequence.
    pub fn record(&mut self, seq: &[u8]) {
        self.total += 1;
        // Printable characters gather into one entry, as PRINT sends them.
        if seq.len() == 1
            && seq[0] >= 32
            && let Some(last) = self.entries.back_mut()
            && last.first().is_some_and(|&b| b >= 32)
            && last.len() < 40
        {
            last.push(seq[0]);
            return;
        }
        if self.entries.len() == LOG_LEN {
            self.entries.pop_front();
        }
        self.entries.push_back(seq.to_vec());
    }

    /// The last `n` entries, oldest first.
    pub fn last(&self, n: usize) -> impl Iterator<Item = &Vec<u8>> {
        self.entries.iter().skip(self.entries.len().saturating_sub(n))
    }
}
