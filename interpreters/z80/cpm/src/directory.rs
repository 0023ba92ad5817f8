//! Drive A:'s directory as CP/M programs see it: the host files laid out as 32-byte directory
//! entries, one per 16K extent, with allocation maps and an allocation vector that agree with the
//! disk parameter block ([`DPB`]). STAT, MDIR and their kind walk this through BDOS 17/18
//! (search), 27 (allocation vector) and 31 (DPB), so sizes, record counts and free space must add
//! up the way they do on a real disk.
//!
//! The layouts follow DRI's CP/M 2.2 Operating System Manual: the directory entry is an FCB's first
//! 32 bytes with the user number in byte 0 (section 5.2, Table 5-2; E5h marks a free entry), and
//! the DPB's fields and the rules tying them together are those of section 6.10 ("Disk Parameter
//! Tables"). Blocks are handed out in name order, directory blocks first, so the picture is the
//! same on every run.

use crate::fcb::FcbName;

/// Bytes in a directory entry.
pub const ENTRY: usize = 32;
/// Records (128 bytes) in an allocation block of 2 KiB (BLS = 2048: BSH 4, BLM 15).
pub const RECORDS_PER_BLOCK: u32 = 16;
/// Records in one extent: one directory entry maps 16 KiB (EXM = 0 for 2K blocks when DSM > 255).
pub const RECORDS_PER_EXTENT: u32 = 128;
/// Blocks on the disk (DSM + 1): 8 MiB, the most CP/M 2.2 addresses with 2K blocks.
pub const BLOCKS: usize = 4096;
/// Directory entries (DRM + 1): 16 blocks of 64 entries, all the AL0/AL1 bits.
pub const ENTRIES: usize = 1024;
/// Blocks the directory itself takes (0-15), reserved by AL0 and AL1.
pub const DIRECTORY_BLOCKS: usize = ENTRIES * ENTRY / 2048;
/// Byte 0 of a free directory entry.
pub const EMPTY: u8 = 0xE5;

/// The disk parameter block (section 6.10): SPT (records per track), BSH, BLM, EXM, DSM, DRM,
/// AL0, AL1, CKS, OFF. Words are little-endian.
pub const DPB: [u8; 15] = {
    let spt: u16 = 64;
    let dsm = (BLOCKS - 1) as u16;
    let drm = (ENTRIES - 1) as u16;
    let [spt0, spt1] = spt.to_le_bytes();
    let [dsm0, dsm1] = dsm.to_le_bytes();
    let [drm0, drm1] = drm.to_le_bytes();
    // BSH 4 and BLM 15 make 2K blocks; EXM 0 because each entry's eight 16-bit block numbers
    // cover exactly one 16K extent; AL0/AL1 FFFFh reserve the 16 directory blocks; CKS 0: a fixed
    // disk, nothing to check for a changed medium; no reserved tracks.
    [
        spt0, spt1, 4, 15, 0, dsm0, dsm1, drm0, drm1, 0xFF, 0xFF, 0, 0, 0, 0,
    ]
};

/// The directory: every entry (used ones first, then free ones) and the allocation vector.
#[derive(Clone, Debug)]
pub struct Directory {
    entries: Vec<[u8; ENTRY]>,
    used: usize,
    alloc: Vec<u8>,
}

impl Directory {
    /// Lays out `files` (name, length in bytes), in the order given. A file that would not fit in
    /// what is left of the directory or the disk is left out (it can still be opened by name).
    pub fn build(files: &[(FcbName, u64)]) -> Directory {
        let mut entries = Vec::new();
        let mut next_block = DIRECTORY_BLOCKS;
        for (name, len) in files {
            let records = len.div_ceil(128).min(65_536) as u32;
            let extents = records.div_ceil(RECORDS_PER_EXTENT).max(1) as usize;
            let blocks = records.div_ceil(RECORDS_PER_BLOCK) as usize;
            if entries.len() + extents > ENTRIES || next_block + blocks > BLOCKS {
                continue;
            }
            for e in 0..extents as u32 {
                let rc = records
                    .saturating_sub(e * RECORDS_PER_EXTENT)
                    .min(RECORDS_PER_EXTENT);
                let mut entry = extent_entry(name, e, rc);
                for slot in 0..rc.div_ceil(RECORDS_PER_BLOCK) as usize {
                    let [lo, hi] = (next_block as u16).to_le_bytes();
                    entry[16 + 2 * slot] = lo;
                    entry[17 + 2 * slot] = hi;
                    next_block += 1;
                }
                entries.push(entry);
            }
        }
        let used = entries.len();
        entries.resize(ENTRIES, [EMPTY; ENTRY]);
        let mut alloc = vec![0u8; BLOCKS / 8];
        for b in 0..next_block {
            alloc[b / 8] |= 0x80 >> (b % 8);
        }
        Directory { entries, used, alloc }
    }

    /// Entries in use (the rest are free).
    pub fn used(&self) -> usize {
        self.used
    }

    pub fn entry(&self, i: usize) -> &[u8; ENTRY] {
        &self.entries[i]
    }

    /// The 128-byte directory record holding entry `i` (entries `i & !3` to `i | 3`), as the BDOS
    /// copies it to the DMA address after a search.
    pub fn record(&self, i: usize) -> [u8; 128] {
        let mut out = [0u8; 128];
        let first = i & !3;
        for (k, chunk) in out.chunks_mut(ENTRY).enumerate() {
            chunk.copy_from_slice(&self.entries[first + k]);
        }
        out
    }

    /// The allocation vector: one bit per block, block 0 in the top bit of the first byte.
    pub fn alloc_vector(&self) -> &[u8] {
        &self.alloc
    }

    /// The first entry from `from` on that matches the first `len` bytes of `fcb` (0 or 15), by
    /// the BDOS's search rules (DRI's BDOS `searchn`): with `len` 0 every entry up to the end of
    /// the used part matches, free ones included; otherwise byte 0 is the user number (0), `?`
    /// matches anything, attribute bits are ignored, the extent is compared under the extent
    /// mask, and S1 is not compared.
    pub fn search(&self, fcb: &[u8; 15], from: usize, len: usize) -> Option<usize> {
        (from..self.used).find(|&i| len == 0 || matches(fcb, &self.entries[i]))
    }
}

/// A directory entry for extent `e` of `name` with `rc` records and no blocks yet.
pub fn extent_entry(name: &FcbName, e: u32, rc: u32) -> [u8; ENTRY] {
    let mut entry = [0u8; ENTRY];
    entry[1..12].copy_from_slice(&name.0);
    entry[12] = (e % 32) as u8;
    entry[14] = (e / 32) as u8;
    entry[15] = rc as u8;
    entry
}

fn matches(fcb: &[u8; 15], entry: &[u8; ENTRY]) -> bool {
    if entry[0] != 0 {
        return false; // free, or another user's
    }
    (1..15).all(|i| {
        let (f, d) = (fcb[i], entry[i]);
        match i {
            _ if f == b'?' => true,
            // EXM is 0: every extent bit counts.
            12 => (f ^ d) & 0x1F == 0,
            13 => true,
            _ => (f.to_ascii_uppercase() ^ d) & 0x7F == 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> FcbName {
        FcbName::parse(s).unwrap()
    }

    fn pattern(s: &str, ex: u8) -> [u8; 15] {
        let mut p = [0u8; 15];
        p[1..12].copy_from_slice(&name(s).0);
        p[12] = ex;
        p
    }

    #[test]
    fn the_dpb_describes_8_mib_of_2k_blocks_and_1024_entries() {
        // Section 6.10: BLS = 128 << BSH, BLM = 2^BSH - 1; EXM = BLS/1K/2 - 1 when DSM > 255.
        let bsh = DPB[2];
        let bls = 128usize << bsh;
        assert_eq!(bls, 2048);
        assert_eq!(DPB[3] as usize, (1 << bsh) - 1);
        assert_eq!(DPB[4] as usize, bls / 1024 / 2 - 1);
        assert_eq!(u16::from_le_bytes([DPB[5], DPB[6]]) as usize + 1, BLOCKS);
        let drm = u16::from_le_bytes([DPB[7], DPB[8]]) as usize;
        let al = u16::from_be_bytes([DPB[9], DPB[10]]);
        // The AL0/AL1 bits reserve exactly the blocks the DRM + 1 entries fill (32 bytes each).
        assert_eq!(al.count_ones() as usize, (drm + 1) * 32 / bls);
        assert_eq!(BLOCKS * bls, 8 << 20);
    }

    #[test]
    fn files_get_one_entry_per_16k_extent_and_blocks_in_order() {
        let files = [
            (name("BIG.TXT"), 20 * 1024),
            (name("EMPTY.TXT"), 0),
            (name("ONE.TXT"), 1),
            (name("SIXTEEN.K"), 16 * 1024),
        ];
        let d = Directory::build(&files);
        assert_eq!(d.used(), 5);
        // BIG.TXT: 160 records, extent 0 with 128 (8 blocks), extent 1 with 32 (2 blocks).
        let e0 = d.entry(0);
        assert_eq!(
            (&e0[1..12], e0[12], e0[14], e0[15]),
            (&b"BIG     TXT"[..], 0, 0, 128)
        );
        let blocks: Vec<u16> = e0[16..]
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(blocks, (16..24).collect::<Vec<u16>>());
        let e1 = d.entry(1);
        assert_eq!((e1[12], e1[15], &e1[16..22]), (1, 32, &[24, 0, 25, 0, 0, 0][..]));
        // An empty file: one entry, no blocks.
        assert_eq!((d.entry(2)[15], &d.entry(2)[16..]), (0, &[0u8; 16][..]));
        // One byte: one record, one block.
        assert_eq!((d.entry(3)[15], d.entry(3)[16]), (1, 26));
        // Exactly 16K: one full extent, no empty second one.
        assert_eq!((d.entry(4)[12], d.entry(4)[15], d.entry(4)[30]), (0, 128, 34));
        assert_eq!(d.entry(5)[0], EMPTY);
        // 16 directory blocks + 10 + 1 + 8 data blocks in use.
        let used: u32 = d.alloc_vector().iter().map(|b| b.count_ones()).sum();
        assert_eq!(used, 16 + 10 + 1 + 8);
        assert_eq!(
            d.alloc_vector()[0..6],
            [0xFF, 0xFF, 0xFF, 0xFF, 0xE0, 0],
            "blocks 0-34"
        );
    }

    #[test]
    fn search_follows_the_bdos_rules() {
        let d = Directory::build(&[(name("A.TXT"), 40_000), (name("B.COM"), 10)]);
        // Extent 0 only, unless EX is '?'.
        assert_eq!(d.search(&pattern("*.*", 0), 0, 15), Some(0));
        assert_eq!(d.search(&pattern("*.*", 0), 1, 15), Some(3));
        assert_eq!(d.search(&pattern("A.TXT", 2), 0, 15), Some(2));
        assert_eq!(d.search(&pattern("A.TXT", b'?'), 1, 15), Some(1));
        assert_eq!(d.search(&pattern("*.COM", 0), 0, 15), Some(3));
        assert_eq!(d.search(&pattern("*.COM", 0), 4, 15), None);
        // Length 0 (drive byte '?'): every used entry.
        assert_eq!(d.search(&pattern("X.Y", 0), 0, 0), Some(0));
        assert_eq!(d.search(&pattern("X.Y", 0), 4, 0), None);
        let record = d.record(2);
        assert_eq!(&record[65..76], b"A       TXT");
        assert_eq!(record[96], 0, "B.COM's entry in the same record");
    }

    #[test]
    fn what_does_not_fit_is_left_out() {
        // 8 MiB of data blocks: 4080 blocks, so a second 8 MiB file cannot fit.
        let big = 65_536 * 128;
        let d = Directory::build(&[
            (name("A.BIN"), 4000 * 2048),
            (name("B.BIN"), big),
            (name("C.BIN"), 5),
        ]);
        assert_eq!(d.used(), 500 + 1);
        assert_eq!(&d.entry(500)[1..12], b"C       BIN");
    }
}
