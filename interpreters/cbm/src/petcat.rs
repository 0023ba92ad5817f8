//! petcat's text notation for PETSCII (VICE `petcat -2` / `-w2`): lower-case letters are the
//! unshifted letters ($41-$5A), upper-case letters the shifted ones ($C1-$DA), `~` is pi ($FF),
//! `\` the pound sign, `_` the left arrow, and everything else that has no ASCII face is written
//! in braces: `{clr}`, `{rvon}`, `{CBM-B}`, `{SHIFT-*}`, or the byte itself as `{$a0}`.
//!
//! Type-in listings in magazines and on the web use the other convention, [`Charset::Ascii`]:
//! capitals are the unshifted letters (what a C64 shows and cbmbasic reads) and lower case the
//! shifted ones; everything else is read and written as petcat does.

/// Which letters are which in a text listing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// petcat's: lower case is unshifted ($41-$5A), capitals shifted ($C1-$DA).
    #[default]
    Petcat,
    /// Upper-case ASCII: capitals are unshifted, lower case shifted (cbmbasic, type-ins).
    Ascii,
}

impl Charset {
    /// The other convention.
    pub fn other(self) -> Charset {
        match self {
            Charset::Petcat => Charset::Ascii,
            Charset::Ascii => Charset::Petcat,
        }
    }

    /// Its name on the command line (`--charset`).
    pub fn name(self) -> &'static str {
        match self {
            Charset::Petcat => "petcat",
            Charset::Ascii => "ascii",
        }
    }

    /// An ASCII letter as it is written in this convention, from petcat's.
    fn swap(self, c: char) -> char {
        match self {
            Charset::Petcat => c,
            Charset::Ascii if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            Charset::Ascii => c.to_ascii_uppercase(),
        }
    }
}

/// petcat's names for the control codes $00-$1F ("" = none; write `{$xx}`).
const CTRL1: [&str; 32] = [
    "", "CTRL-A", "CTRL-B", "stop", "CTRL-D", "wht", "CTRL-F", "CTRL-G", "dish", "ensh", "", "CTRL-K",
    "CTRL-L", "", "swlc", "CTRL-O", "CTRL-P", "down", "rvon", "home", "del", "CTRL-U", "CTRL-V", "CTRL-W",
    "CTRL-X", "CTRL-Y", "CTRL-Z", "esc", "red", "rght", "grn", "blu",
];

/// petcat's names for $80-$9F.
const CTRL2: [&str; 32] = [
    "", "orng", "", "", "", "f1", "f3", "f5", "f7", "f2", "f4", "f6", "f8", "sret", "swuc", "", "blk", "up",
    "rvof", "clr", "inst", "brn", "lred", "gry1", "gry2", "lgrn", "lblu", "gry3", "pur", "left", "yel",
    "cyn",
];

/// petcat's key names for the graphics $A0-$DF (the keys that type them). $A0 is written
/// `{$a0}` and $C1-$DA as upper-case letters, as `petcat -2` does.
const GRAPHICS: [&str; 64] = [
    "",
    "CBM-K",
    "CBM-I",
    "CBM-T",
    "CBM-@",
    "CBM-G",
    "CBM-+",
    "CBM-M",
    "CBM-POUND",
    "SHIFT-POUND",
    "CBM-N",
    "CBM-Q",
    "CBM-D",
    "CBM-Z",
    "CBM-S",
    "CBM-P",
    "CBM-A",
    "CBM-E",
    "CBM-R",
    "CBM-W",
    "CBM-H",
    "CBM-J",
    "CBM-L",
    "CBM-Y",
    "CBM-U",
    "CBM-O",
    "SHIFT-@",
    "CBM-F",
    "CBM-C",
    "CBM-X",
    "CBM-V",
    "CBM-B",
    "SHIFT-*",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "SHIFT-+",
    "CBM--",
    "SHIFT--",
    "SHIFT-^",
    "CBM-*",
];

/// Aliases petcat accepts when reading.
const ALIASES: [(&str, u8); 6] = [
    ("space", 0x20),
    ("SHIFT-SPACE", 0xA0),
    ("clear", 0x93),
    ("right", 0x1D),
    ("rvs on", 0x12),
    ("rvs off", 0x92),
];

/// The petcat text for one PETSCII byte of a string, REM or DATA (never a token).
pub fn byte_to_text(b: u8, out: &mut String) {
    byte_to_text_in(b, Charset::Petcat, out);
}

/// The text for one PETSCII byte of a string, REM or DATA in the given convention.
pub fn byte_to_text_in(b: u8, charset: Charset, out: &mut String) {
    let name = match b {
        0x00..=0x1F => CTRL1[b as usize],
        0x80..=0x9F => CTRL2[(b - 0x80) as usize],
        0xA0..=0xDF => GRAPHICS[(b - 0xA0) as usize],
        _ => "",
    };
    if !name.is_empty() {
        out.push('{');
        out.push_str(name);
        out.push('}');
        return;
    }
    match b {
        0x41..=0x5A => out.push(charset.swap((b + 0x20) as char)),
        0xC1..=0xDA => out.push(charset.swap((b - 0x80) as char)),
        0x5C => out.push('\\'),
        0x5F => out.push('_'),
        0xFF => out.push('~'),
        0x20..=0x5E => out.push(b as char),
        _ => {
            out.push_str(&format!("{{${b:02x}}}"));
        }
    }
}

/// A byte that petcat text does not name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PetcatError {
    /// `{name}` that is no petcat name.
    #[error("unknown petcat escape {{{0}}}")]
    UnknownEscape(String),
    /// `{` without `}`.
    #[error("unclosed petcat escape (a '{{' without '}}')")]
    Unclosed,
    /// A character with no PETSCII form.
    #[error("character {0:?} has no PETSCII form (write it as {{$xx}})")]
    NoPetscii(char),
}

/// The byte a `{...}` escape names (without the braces), case-insensitively as petcat reads.
pub fn escape_byte(name: &str) -> Option<u8> {
    if let Some(hex) = name.strip_prefix('$') {
        return u8::from_str_radix(hex, 16).ok().filter(|_| hex.len() <= 2);
    }
    if !name.is_empty() && name.len() <= 3 && name.bytes().all(|c| c.is_ascii_digit()) {
        return name.parse::<u16>().ok().and_then(|n| u8::try_from(n).ok());
    }
    let find = |table: &[&str], base: u8| {
        table
            .iter()
            .position(|n| !n.is_empty() && n.eq_ignore_ascii_case(name))
            .map(|i| base + i as u8)
    };
    find(&CTRL1, 0)
        .or_else(|| find(&CTRL2, 0x80))
        .or_else(|| find(&GRAPHICS, 0xA0))
        .or_else(|| {
            // SHIFT-A .. SHIFT-Z are the shifted letters.
            let rest = name
                .get(..6)
                .filter(|p| p.eq_ignore_ascii_case("SHIFT-"))
                .map(|_| &name[6..])?;
            let c = rest
                .bytes()
                .next()
                .filter(|c| rest.len() == 1 && c.is_ascii_alphabetic())?;
            Some(c.to_ascii_uppercase() + 0x80)
        })
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|&(_, b)| b)
        })
}

/// Converts a line of petcat text to PETSCII bytes.
pub fn text_to_bytes(text: &str) -> Result<Vec<u8>, PetcatError> {
    text_to_bytes_in(text, Charset::Petcat)
}

/// Converts a line of listing text in the given convention to PETSCII bytes.
pub fn text_to_bytes_in(text: &str, charset: Charset) -> Result<Vec<u8>, PetcatError> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        let b = match c {
            '{' => {
                let rest = &text[i + 1..];
                let end = rest.find('}').ok_or(PetcatError::Unclosed)?;
                let name = &rest[..end];
                let b = escape_byte(name).ok_or_else(|| PetcatError::UnknownEscape(name.to_string()))?;
                for _ in 0..name.chars().count() + 1 {
                    chars.next();
                }
                b
            }
            'a'..='z' | 'A'..='Z' => match charset.swap(c) {
                l @ 'a'..='z' => l as u8 - 0x20,
                u => u as u8 + 0x80,
            },
            '~' => 0xFF,
            '\\' => 0x5C,
            '_' => 0x5F,
            ' '..='^' => c as u8,
            _ => return Err(PetcatError::NoPetscii(c)),
        };
        out.push(b);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: &[u8]) -> String {
        let mut s = String::new();
        for &b in bytes {
            byte_to_text(b, &mut s);
        }
        s
    }

    #[test]
    fn the_names_baba_uses_read_as_their_codes() {
        // reference/cbm-basic.md 1 and 4.6.
        let cases = [
            ("{clr}", 147),
            ("{home}", 19),
            ("{up}", 145),
            ("{down}", 17),
            ("{left}", 157),
            ("{rght}", 29),
            ("{rvon}", 18),
            ("{rvof}", 146),
            ("{blk}", 144),
            ("{wht}", 5),
            ("{red}", 28),
            ("{cyn}", 159),
            ("{grn}", 30),
            ("{yel}", 158),
            ("{orng}", 129),
            ("{lblu}", 154),
            ("{gry3}", 155),
            ("{f1}", 133),
            ("{f3}", 134),
            ("{f5}", 135),
            ("{f7}", 136),
            ("{f2}", 137),
            ("{f8}", 140),
            ("{CBM-B}", 0xBF),
            ("{CBM-D}", 0xAC),
            ("{CBM-E}", 0xB1),
            ("{CBM-F}", 0xBB),
            ("{CBM-R}", 0xB2),
            ("{CBM-U}", 0xB8),
            ("{CBM-Y}", 0xB7),
            ("{SHIFT-*}", 0xC0),
            ("{$a0}", 0xA0),
            ("~", 0xFF),
        ];
        for (t, b) in cases {
            assert_eq!(text_to_bytes(t).unwrap(), vec![b], "{t}");
            assert_eq!(text(&[b]), t, "{b}");
        }
    }

    #[test]
    fn letters_swap_case_as_petscii_does() {
        assert_eq!(text_to_bytes("aZ").unwrap(), vec![0x41, 0xDA]);
        assert_eq!(text(&[0x41, 0xDA, 0x20, 0x31]), "aZ 1");
        assert_eq!(text_to_bytes("{SHIFT-q}").unwrap(), vec![0xD1]);
    }

    #[test]
    fn every_byte_round_trips_through_its_text() {
        for charset in [Charset::Petcat, Charset::Ascii] {
            for b in 0..=255u8 {
                let mut t = String::new();
                byte_to_text_in(b, charset, &mut t);
                assert_eq!(text_to_bytes_in(&t, charset).unwrap(), vec![b], "{t}");
            }
        }
    }

    #[test]
    fn upper_case_ascii_has_the_capitals_unshifted() {
        // What cbmbasic reads and a C64 shows: PRINT is $50 $52 $49 $4E $54.
        assert_eq!(
            text_to_bytes_in("PRINT \"Hi{clr}\"", Charset::Ascii).unwrap(),
            [b"PRINT \"H", &[0xC9, 0x93, b'"'][..]].concat()
        );
        let mut t = String::new();
        for b in [0x41, 0xC1, 0x93] {
            byte_to_text_in(b, Charset::Ascii, &mut t);
        }
        assert_eq!(t, "Aa{clr}");
    }

    #[test]
    fn bad_escapes_are_reported() {
        assert_eq!(
            text_to_bytes("{nope}"),
            Err(PetcatError::UnknownEscape("nope".into()))
        );
        assert_eq!(text_to_bytes("{clr"), Err(PetcatError::Unclosed));
        assert_eq!(text_to_bytes("é"), Err(PetcatError::NoPetscii('é')));
        assert_eq!(
            text_to_bytes("{$1ff}"),
            Err(PetcatError::UnknownEscape("$1ff".into()))
        );
    }
}
