//! The ROM's cruncher (CRUNCH at $A579), byte for byte: keywords anywhere outside strings, REM
//! and DATA, the first match in table order, `?` for PRINT, and abbreviations that end in a
//! shifted letter (`pO` is POKE) because a shifted letter "matches" any letter's bit-7 end mark.

use crate::tokens::{DATA, KEYWORDS, PRINT, REM};

/// The keyword table as the ROM stores it (each keyword's last byte has bit 7 set, and a zero
/// ends the table), with what [`match_keyword`] needs to skip the keywords whose first byte
/// cannot match.
struct Reslst {
    /// RESLST's bytes.
    bytes: Vec<u8>,
    /// The index of the keyword starting at each byte of `bytes` (keyword starts only; the
    /// terminating zero counts as keyword 76).
    keyword_at: Vec<u8>,
    /// Where each keyword starts in `bytes`.
    starts: Vec<usize>,
    /// For each first input byte, the keywords (in table order) whose first table byte it
    /// does not fail against: equal, or $80 apart (an end mark or a shifted letter). The walk
    /// leaves every other keyword at its first byte, so only these need trying.
    candidates: Vec<Vec<u8>>,
}

fn reslst() -> &'static Reslst {
    static TABLE: std::sync::OnceLock<Reslst> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bytes = Vec::new();
        let mut starts = Vec::new();
        for k in KEYWORDS {
            let b = k.as_bytes();
            starts.push(bytes.len());
            bytes.extend_from_slice(&b[..b.len() - 1]);
            bytes.push(b[b.len() - 1] | 0x80);
        }
        let mut keyword_at = vec![0u8; bytes.len() + 1];
        for (i, &s) in starts.iter().enumerate() {
            keyword_at[s] = i as u8;
        }
        keyword_at[bytes.len()] = KEYWORDS.len() as u8;
        bytes.push(0);
        let candidates = (0..=255u8)
            .map(|c| {
                (0..KEYWORDS.len() as u8)
                    .filter(|&k| matches!(c.wrapping_sub(bytes[starts[k as usize]]), 0 | 0x80))
                    .collect()
            })
            .collect();
        Reslst {
            bytes,
            keyword_at,
            starts,
            candidates,
        }
    })
}

/// Crunches one line's text (PETSCII, after the line number) into its tokenized body, as the
/// ROM does when a line is typed: bytes >= $80 outside strings other than pi are dropped, spaces
/// are kept, digits and `:;<` pass through.
pub fn crunch(input: &[u8]) -> Vec<u8> {
    let table = reslst();
    let mut out = Vec::with_capacity(input.len());
    let mut x = 0;
    // DATA mode: everything up to a ':' is copied as typed (GARBFL bit 6 in the ROM).
    let mut in_data = false;
    while x < input.len() {
        let c = input[x];
        if c >= 0x80 && c != 0xFF {
            x += 1;
            continue;
        }
        if c == b'"' {
            // Copy the string up to the closing quote (or the end of the line).
            out.push(c);
            x += 1;
            while x < input.len() {
                let s = input[x];
                out.push(s);
                x += 1;
                if s == b'"' {
                    break;
                }
            }
            continue;
        }
        let mut stored = c;
        let mut consumed = 1;
        if c != b' ' && c != 0xFF && !in_data {
            if c == b'?' {
                stored = PRINT;
            } else if !(b'0'..b'<').contains(&c)
                && let Some((token, len)) = match_keyword(table, &input[x..])
            {
                stored = token;
                consumed = len;
            }
        }
        out.push(stored);
        x += consumed;
        if stored == b':' {
            in_data = false;
        } else if stored == DATA {
            in_data = true;
        } else if stored == REM {
            // The rest of the line is copied as typed.
            out.extend_from_slice(&input[x..]);
            break;
        }
    }
    out
}

/// The ROM's table search at one position: the first keyword whose bytes match, where a
/// difference of exactly $80 (the end mark, or a shifted letter typed as an abbreviation) ends
/// the match. Returns the token and how many input bytes it used.
///
/// The ROM walks the whole table from its start, counting keywords as it goes; a keyword whose
/// first byte fails adds one to the count and nothing else, so the walk goes straight to the
/// next keyword whose first byte passes, adding the keywords it leaves out to the count. The
/// count is kept as its distance from the keyword the walk is at, because a match that runs on
/// through an end mark (a shifted letter equal to it) leaves the walk in the next keyword with
/// the count one behind, as in the ROM. The same result as [`match_keyword_walk`], the ROM's
/// walk byte by byte (property test `the_first_byte_index_finds_what_the_walk_finds`).
fn match_keyword(table: &Reslst, input: &[u8]) -> Option<(u8, usize)> {
    let first = input.first().copied().unwrap_or(0);
    let candidates = &table.candidates[first as usize];
    let bytes = &table.bytes[..];
    // The keyword the walk is at, and the count minus it.
    let mut at: u8 = 0;
    let mut behind: u8 = 0;
    let mut next = 0;
    loop {
        while next < candidates.len() && candidates[next] < at {
            next += 1;
        }
        let Some(&k) = candidates.get(next) else {
            // Every keyword left fails at its first byte: the walk reaches the table's end.
            return None;
        };
        let count = k.wrapping_sub(behind);
        let y = match try_keyword(bytes, table.starts[k as usize], input) {
            Ok(len) => return Some((0x80 | count, len)),
            Err(y) => y,
        };
        if bytes[y] == 0 {
            return None;
        }
        at = table.keyword_at[y];
        behind = at.wrapping_sub(count.wrapping_add(1));
    }
}

/// The ROM's comparison of `input` with the table from byte `y` (a keyword's start): Ok with
/// the bytes used when a difference of exactly $80 ends it; else Err with where the next
/// keyword starts, after the one the comparison stopped in (which is the next keyword when it
/// ran on through an end mark), or the table's closing 0 when it ran on into that.
///
/// A line that ends with the last keywords typed with their end marks as shifted letters
/// (`MID` shift-$ `G` shift-O) runs the comparison on through GO and matches the line's closing
/// 0 with the table's. The ROM then reads on past both, into the leftovers of earlier lines
/// and the error messages after the table; here the walk ends there, finding no keyword.
#[inline]
fn try_keyword(table: &[u8], mut y: usize, input: &[u8]) -> Result<usize, usize> {
    let mut x = 0;
    loop {
        let t = table[y];
        if t == 0 {
            return Err(y);
        }
        let c = input.get(x).copied().unwrap_or(0);
        let diff = c.wrapping_sub(t);
        if diff == 0 {
            x += 1;
            y += 1;
            continue;
        }
        if diff == 0x80 {
            return Ok(x + 1);
        }
        break;
    }
    while table[y] & 0x80 == 0 {
        y += 1;
    }
    Err(y + 1)
}

/// The ROM's walk as it is: every keyword from the table's start, byte by byte (the reference
/// for [`match_keyword`]).
#[cfg(test)]
fn match_keyword_walk(table: &[u8], input: &[u8]) -> Option<(u8, usize)> {
    let mut y = 0;
    let mut count: u8 = 0;
    loop {
        y = match try_keyword(table, y, input) {
            Ok(len) => return Some((0x80 | count, len)),
            Err(y) => y,
        };
        count += 1;
        if table[y] == 0 {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::*;
    use proptest::prelude::*;

    fn c(s: &str) -> Vec<u8> {
        crunch(s.as_bytes())
    }

    #[test]
    fn a_comparison_run_on_to_the_tables_end_finds_no_keyword() {
        // MID$ and GO typed with their end marks as shifted characters: at the M the comparison
        // runs on through both keywords to the table's closing 0 (it indexed past the table and
        // panicked), and finds no keyword. The shifted $ is dropped, as the ROM drops shifted
        // characters outside strings, and G with shifted O is GOTO's abbreviation.
        let line = b"MID\xA4G\xCF";
        assert_eq!(match_keyword_walk(&reslst().bytes, line), None);
        assert_eq!(match_keyword(reslst(), line), None);
        assert_eq!(crunch(line), [b'M', b'I', b'D', GOTO]);
    }

    #[test]
    fn keywords_are_found_inside_names_first_match_wins() {
        // reference 4.1: `RAND` is R AND; `FORT` is FOR T; `TOTAL` holds TO.
        assert_eq!(c("RAND"), vec![b'R', AND]);
        assert_eq!(c("FORT=1"), vec![FOR, b'T', EQUAL, b'1']);
        assert_eq!(c("TOTAL"), vec![TO, b'T', b'A', b'L']);
        assert_eq!(c("QAND7"), vec![b'Q', AND, b'7']);
        assert_eq!(c("IFQ=5THEN"), vec![IF, b'Q', EQUAL, b'5', THEN]);
        assert_eq!(c("INPUT#1"), vec![INPUT_HASH, b'1']);
        assert_eq!(c("PRINT#1"), vec![PRINT_HASH, b'1']);
        assert_eq!(c("GO TO 10"), vec![GO, b' ', TO, b' ', b'1', b'0']);
    }

    #[test]
    fn strings_rem_and_data_are_kept_as_typed() {
        assert_eq!(c("?\"PRINT\""), [&[PRINT][..], b"\"PRINT\""].concat());
        assert_eq!(c("REM FOR TO"), [&[REM][..], b" FOR TO"].concat());
        assert_eq!(
            c("DATA FOR,\"X\":PRINT"),
            [&[DATA][..], b" FOR,\"X\":", &[PRINT]].concat()
        );
    }

    #[test]
    fn shifted_letters_abbreviate_and_are_otherwise_dropped() {
        // pO = POKE, ?: PRINT, gO = GOTO? no: G then shifted O matches GOTO first (table order).
        assert_eq!(crunch(&[b'P', b'O' | 0x80]), vec![POKE]);
        assert_eq!(crunch(&[b'D', b'A' | 0x80]), vec![DATA]);
        assert_eq!(crunch(&[b'G', b'O' | 0x80]), vec![GOTO]);
        assert_eq!(crunch(&[b'A', 0xC1, b'1']), vec![b'A', b'1']);
        assert_eq!(crunch(&[b'A', 0xFF]), vec![b'A', 0xFF]);
    }

    proptest::proptest! {
        /// The search that starts at the keywords whose first byte can match finds what the
        /// ROM's walk over the whole table finds, token and length, for inputs made of
        /// keyword pieces, letters, shifted letters, end-marked bytes and anything else.
        #[test]
        fn the_first_byte_index_finds_what_the_walk_finds(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(KEYWORDS.to_vec()).prop_map(|k| k.as_bytes().to_vec()),
                    proptest::sample::select(KEYWORDS.to_vec()).prop_map(|k| {
                        let mut b = k.as_bytes().to_vec();
                        *b.last_mut().unwrap() |= 0x80;
                        b
                    }),
                    (b'A'..=b'Z').prop_map(|c| vec![c]),
                    (b'A'..=b'Z').prop_map(|c| vec![c | 0x80]),
                    any::<u8>().prop_map(|c| vec![c]),
                ],
                0..6,
            ),
        ) {
            let input = pieces.concat();
            let table = reslst();
            for at in 0..=input.len() {
                prop_assert_eq!(
                    match_keyword(table, &input[at..]),
                    match_keyword_walk(&table.bytes, &input[at..]),
                    "{:?} at {}", input, at
                );
            }
        }
    }

    #[test]
    fn every_byte_pair_is_searched_as_the_walk_does() {
        let table = reslst();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let input = [a, b];
                assert_eq!(
                    match_keyword(table, &input),
                    match_keyword_walk(&table.bytes, &input),
                    "{input:?}"
                );
            }
        }
    }

    #[test]
    fn spaces_digits_and_operators() {
        assert_eq!(
            c("A = 1+2*3"),
            vec![b'A', b' ', EQUAL, b' ', b'1', PLUS, b'2', TIMES, b'3']
        );
        assert_eq!(c("X<>Y"), vec![b'X', LESS, GREATER, b'Y']);
    }
}
