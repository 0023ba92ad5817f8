//! Banked memory of sjasmplus's larger devices: `ZXSPECTRUM128` (eight 16K pages, slots at 0000h,
//! 4000h, 8000h and C000h holding pages 7, 5, 2 and 0) and `ZXSPECTRUMNEXT` (224 pages of 8K in
//! eight slots holding pages 14, 15, 10, 11, 4, 5, 0 and 1) and `NOSLOT64K` (one 64K slot, 32
//! pages), with `SLOT`, `PAGE` and `MMU`.
//!
//! The assembler writes into its 64K address space as always; this module keeps the pages that
//! are not mapped and swaps a page's bytes in and out of that space when the mapping changes, so
//! every directive that reads memory by address (SAVEBIN, SAVETAP) sees what the CPU would.
//! The 128K snapshot is checked byte for byte against sjasmplus (tests/sjasmplus/cases/zx128.asm).

/// The pages and which one each slot shows.
#[derive(Debug, Clone)]
pub(super) struct Banks {
    pub(super) next: bool,
    slot_size: usize,
    pages: Vec<Vec<u8>>,
    /// The page in each slot.
    pub(super) map: Vec<usize>,
    /// The slot `PAGE` maps into.
    pub(super) slot: usize,
}

impl Banks {
    pub(super) fn zx128() -> Banks {
        Banks {
            next: false,
            slot_size: 0x4000,
            pages: vec![vec![0; 0x4000]; 8],
            map: vec![7, 5, 2, 0],
            slot: 3,
        }
    }

    pub(super) fn next() -> Banks {
        Banks {
            next: true,
            slot_size: 0x2000,
            pages: vec![vec![0; 0x2000]; 224],
            map: vec![14, 15, 10, 11, 4, 5, 0, 1],
            slot: 7,
        }
    }

    /// `NOSLOT64K`: one slot over the whole address space, 32 pages of 64K, page 0 mapped.
    pub(super) fn noslot64k() -> Banks {
        Banks {
            next: false,
            slot_size: 0x10000,
            pages: vec![vec![0; 0x10000]; 32],
            map: vec![0],
            slot: 0,
        }
    }

    /// The 128K Spectrum (four 16K slots), the one banked device with a .sna format.
    pub(super) fn is_zx128(&self) -> bool {
        !self.next && self.map.len() == 4
    }

    pub(super) fn slots(&self) -> usize {
        self.map.len()
    }

    pub(super) fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Copies the address space back into the pages it shows (before reading pages, or before
    /// the mapping changes).
    pub(super) fn sync(&mut self, mem: &[u8]) {
        for (slot, &page) in self.map.iter().enumerate() {
            let at = slot * self.slot_size;
            self.pages[page].copy_from_slice(&mem[at..at + self.slot_size]);
        }
    }

    /// Maps `page` into `slot`: the slot's old page keeps its bytes, the new one's appear.
    pub(super) fn map_page(&mut self, mem: &mut [u8], slot: usize, page: usize) {
        self.sync(mem);
        self.map[slot] = page;
        let at = slot * self.slot_size;
        mem[at..at + self.slot_size].copy_from_slice(&self.pages[page]);
    }

    /// A 16K bank of the Next: its 8K pages 2n and 2n+1 (after [`Banks::sync`]).
    pub(super) fn next_bank16(&self, n: usize) -> Vec<u8> {
        [&self.pages[2 * n][..], &self.pages[2 * n + 1][..]].concat()
    }

    /// A 16K bank of the 128K machine (after [`Banks::sync`]).
    fn bank16(&self, n: usize) -> &[u8] {
        &self.pages[n]
    }

    /// A 128K `.sna`: the 48K snapshot's header (its stack untouched: the start address is in
    /// the extension), banks 5, 2 and the one at C000h, then PC, port 7FFDh, the TR-DOS flag and
    /// the other banks in ascending order.
    pub(super) fn sna128(&mut self, mem: &[u8], header: &[u8], start: u16) -> Vec<u8> {
        self.sync(mem);
        let paged = self.map[3];
        let mut out = header.to_vec();
        for n in [5, 2, paged] {
            out.extend_from_slice(self.bank16(n));
        }
        out.extend_from_slice(&start.to_le_bytes());
        out.push(0x10 | paged as u8);
        out.push(0);
        for n in (0..8).filter(|n| ![5, 2, paged].contains(n)) {
            out.extend_from_slice(self.bank16(n));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_keeps_its_bytes_while_another_is_mapped() {
        let mut mem = vec![0u8; 0x10000];
        let mut b = Banks::zx128();
        mem[0xC000] = 0xAA; // page 0
        b.map_page(&mut mem, 3, 1);
        assert_eq!(mem[0xC000], 0, "page 1 is empty");
        mem[0xC000] = 0xBB;
        b.map_page(&mut mem, 3, 0);
        assert_eq!(mem[0xC000], 0xAA);
        b.map_page(&mut mem, 3, 1);
        assert_eq!(mem[0xC000], 0xBB);
    }
}
