//! The compressed level format of programs/baba/baba.bas (docs/baba.md), written from the design
//! notes (seeds/004): one byte per token in a DATA string.
//! - 64-95 (unshifted letters): the tile `b & 31`;
//! - 192-223 (shifted letters): that tile, then an IS tile (16);
//! - 33-47: `b - 32` empty tiles; 34, which a DATA string cannot hold, is written 252 (and the
//!   screen editor reads the same glyph back as 188);
//! - 49-63: the tile before, `b - 48` more times;
//! - 161-167 (our addition): the next tile has the thing `b - 160` behind it;
//! - 191: the level goes on in the next DATA string.
//!
//! Tiles not written are empty. A tile is `background * 32 + foreground`.

/// Tiles per row and rows.
pub const W: usize = 10;
pub const H: usize = 18;
/// Tiles in a level.
pub const TILES: usize = W * H;
/// The IS tile.
pub const IS: u8 = 16;

/// A playfield: `pf%(0..179)` of the program.
pub type Field = [u8; TILES];

/// Decodes a level's DATA strings (the first one, and those a 191 continues into).
pub fn decode(strings: &[Vec<u8>]) -> Field {
    let mut pf = [0u8; TILES];
    let mut i = 0usize;
    let mut behind = 0u8;
    'strings: for s in strings {
        for &b in s {
            if i >= TILES {
                break 'strings;
            }
            let b = if b == 252 || b == 188 { 34 } else { b };
            match b {
                191 => continue 'strings,
                33..=47 => i += usize::from(b - 32),
                49..=63 if i > 0 => {
                    for _ in 0..b - 48 {
                        if i < TILES {
                            pf[i] = pf[i - 1];
                            i += 1;
                        }
                    }
                }
                161..=167 => behind = b - 160,
                64..=95 | 192..=223 => {
                    pf[i] = (b & 31) + 32 * behind;
                    behind = 0;
                    i += 1;
                    if b >= 192 && i < TILES {
                        pf[i] = IS;
                        i += 1;
                    }
                }
                _ => {}
            }
        }
        break;
    }
    pf
}

/// How many DATA strings a level takes: up to and including the first without a trailing 191.
pub fn strings_of_level(strings: &[Vec<u8>]) -> usize {
    strings
        .iter()
        .position(|s| s.last() != Some(&191))
        .map_or(strings.len(), |p| p + 1)
}

/// Encodes a playfield as the program's D command does: chunks of at most about 50 bytes, each
/// but the last ending in 191; trailing empty tiles are left out.
pub fn encode(pf: &Field) -> Vec<Vec<u8>> {
    let mut chunks: Vec<Vec<u8>> = vec![Vec::new()];
    let flush = |chunks: &mut Vec<Vec<u8>>| {
        if chunks.last().expect("a chunk").len() >= 50 {
            chunks.last_mut().expect("a chunk").push(191);
            chunks.push(Vec::new());
        }
    };
    let mut x = 0usize;
    while x < TILES {
        let n = pf[x];
        if n == 0 {
            let mut k = 0;
            while x + k < TILES && pf[x + k] == 0 {
                k += 1;
            }
            if x + k == TILES {
                break;
            }
            x += k;
            flush(&mut chunks);
            let c = chunks.last_mut().expect("a chunk");
            while k > 15 {
                c.push(47);
                k -= 15;
            }
            c.push(if k == 2 { 252 } else { 32 + k as u8 });
        } else if x > 0 && n == pf[x - 1] {
            flush(&mut chunks);
            let mut k = 0u8;
            while x < TILES && k < 15 && pf[x] == n {
                k += 1;
                x += 1;
            }
            chunks.last_mut().expect("a chunk").push(48 + k);
        } else {
            flush(&mut chunks);
            let c = chunks.last_mut().expect("a chunk");
            if n >= 32 {
                c.push(160 + n / 32);
            }
            if x + 1 < TILES && pf[x + 1] == IS {
                c.push(192 + (n & 31));
                x += 2;
            } else {
                c.push(64 + (n & 31));
                x += 1;
            }
        }
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_examples() {
        // "IS" after a shifted letter, runs of empties, repeats.
        let pf = decode(&[b"\xc9\x51\x23\x42\x33".to_vec()]);
        assert_eq!(&pf[..8], &[9, 16, 17, 0, 0, 0, 2, 2]);
        assert_eq!(pf[8], 2);
        assert_eq!(pf[9], 2);
        assert_eq!(pf[10], 0);
    }
}
