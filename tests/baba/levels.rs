//! The levels as designed (programs/baba/levels.txt) and as the program holds them (the DATA
//! strings of programs/baba/baba.bas from line 9010 on).

use super::codec::{Field, TILES, W};

pub const LISTING: &str = "programs/baba/baba.bas";
pub const PRG: &str = "programs/baba/baba.prg";
pub const GRIDS: &str = "programs/baba/levels.txt";

fn root(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A solution per level (tests/baba_levels.rs and tests/baba_run.rs play them), in the key scripts' notation (cursor keys).
pub const SOLUTIONS: [&str; 10] = [
    "RIGHT*4 DOWN*5",
    "RIGHT*5",
    "UP*3 RIGHT UP DOWN*4 RIGHT*5",
    "UP*5 RIGHT*3 DOWN*8",
    "RIGHT*5 UP*2 LEFT*3 RIGHT*3 DOWN*3",
    "UP RIGHT*2 DOWN*5",
    "UP RIGHT*3 DOWN*5",
    "UP LEFT UP DOWN*6 RIGHT*4",
    "RIGHT*4 DOWN RIGHT*2 DOWN*3",
    "RIGHT*2 DOWN*7",
];

/// The listing's text.
pub fn listing() -> String {
    root(LISTING)
}

/// A grid letter as a tile: '.' empty, '@'-'_' the tile letters (0-31).
pub fn tile_of_letter(c: char) -> u8 {
    if c == '.' { 0 } else { (c as u8) - 64 }
}

/// The designed levels: name and playfield.
pub fn designed() -> Vec<(String, Field)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, Vec<u8>)> = None;
    for line in root(GRIDS).lines() {
        if let Some(name) = line.strip_prefix("level ") {
            if let Some((n, t)) = cur.take() {
                out.push((n, field(&t)));
            }
            cur = Some((name.to_string(), Vec::new()));
        } else if let Some((_, t)) = cur.as_mut()
            && line.len() == W
        {
            t.extend(line.chars().map(tile_of_letter));
        }
    }
    if let Some((n, t)) = cur {
        out.push((n, field(&t)));
    }
    out
}

fn field(tiles: &[u8]) -> Field {
    assert_eq!(tiles.len(), TILES, "a level grid is 10x18");
    tiles.try_into().expect("180 tiles")
}

/// The quoted strings of the DATA lines numbered from `first` on, in line order.
pub fn data_strings(listing: &str, first: u32) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for line in listing.lines() {
        let t = line.trim_start();
        let Some((num, rest)) = t.split_once(' ') else {
            continue;
        };
        let Ok(num) = num.parse::<u32>() else { continue };
        let Some(body) = rest.strip_prefix("data") else {
            continue;
        };
        if num < first {
            continue;
        }
        out.extend(quoted(body));
    }
    out
}

/// The quoted strings of a DATA statement's text (petcat notation), as PETSCII.
pub fn quoted(body: &str) -> Vec<Vec<u8>> {
    body.split('"')
        .skip(1)
        .step_by(2)
        .map(|s| retro_cbm::petcat::text_to_bytes(s).expect("petcat text"))
        .collect()
}

/// The program's levels: each level's DATA strings, in order.
pub fn program_levels(listing: &str) -> Vec<Vec<Vec<u8>>> {
    let strings = data_strings(listing, 9010);
    let mut out = Vec::new();
    let mut at = 0;
    while at < strings.len() {
        let n = super::codec::strings_of_level(&strings[at..]);
        out.push(strings[at..at + n].to_vec());
        at += n;
    }
    out
}

/// `ml`, the level count, from line 15.
pub fn level_count(listing: &str) -> usize {
    listing
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("15 ml="))
        .and_then(|n| n.trim().parse().ok())
        .expect("line 15 sets ml")
}

/// The petcat text of a DATA string's bytes.
pub fn petcat_text(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        retro_cbm::petcat::byte_to_text(b, &mut s);
    }
    s
}

/// The listing with its levels replaced by `levels` (encoded by our codec), for test levels.
pub fn with_levels(listing: &str, levels: &[super::codec::Field]) -> String {
    let mut out = String::new();
    for line in listing.lines() {
        let num = line.split_whitespace().next().and_then(|n| n.parse::<u32>().ok());
        match num {
            Some(15) => out.push_str(&format!("15 ml={}\n", levels.len())),
            Some(n) if n >= 9010 => {}
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    for (i, f) in levels.iter().enumerate() {
        for (j, chunk) in super::codec::encode(f).iter().enumerate() {
            out.push_str(&format!("{} data\"{}\"\n", 9010 + 10 * i + j, petcat_text(chunk)));
        }
    }
    out
}

/// A test level from rows of tile letters ('.' empty); rows not given are empty.
pub fn grid(rows: &[&str]) -> Field {
    let mut f = [0u8; TILES];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            f[y * W + x] = tile_of_letter(c);
        }
    }
    f
}
