//! File control blocks and the command line, as the CCP prepares them.
//!
//! An FCB is 36 bytes: drive (0 = default, 1 = A:), an 8-character name and a 3-character type
//! (space-padded, upper case; the top bit of each byte is an attribute, not part of the name), the
//! extent EX, S1, S2 (the module number), RC (records in this extent), 16 bytes of allocation map,
//! the current record CR, and the random record number R0-R2.

/// Offsets of the fields within an FCB.
pub mod field {
    pub const DRIVE: u16 = 0;
    pub const NAME: u16 = 1;
    pub const EX: u16 = 12;
    pub const S1: u16 = 13;
    pub const S2: u16 = 14;
    pub const RC: u16 = 15;
    pub const CR: u16 = 32;
    pub const R0: u16 = 33;
}

/// A file name as it sits in an FCB: 8 + 3 bytes, upper case, space-padded, `?` as a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FcbName(pub [u8; 11]);

impl FcbName {
    /// The name in an FCB's bytes 1-11, attribute bits removed.
    pub fn from_fcb(bytes: &[u8]) -> FcbName {
        let mut name = [b' '; 11];
        for (dst, &src) in name.iter_mut().zip(bytes) {
            *dst = (src & 0x7F).to_ascii_uppercase();
        }
        FcbName(name)
    }

    /// Parses `NAME.TYP` (with `*` filling the rest of a part with `?`). Returns `None` for a name
    /// no CP/M FCB can hold: an empty name, a part too long, or a character CP/M reserves.
    pub fn parse(text: &str) -> Option<FcbName> {
        let (base, ext) = match text.rsplit_once('.') {
            Some((b, e)) => (b, e),
            None => (text, ""),
        };
        let mut name = [b' '; 11];
        fill_part(&mut name[..8], base)?;
        fill_part(&mut name[8..], ext)?;
        (name[0] != b' ').then_some(FcbName(name))
    }

    /// Whether the name is one [`FcbName::parse`] could have made from `NAME.TYP`: no reserved
    /// characters (so no path separators), blanks only as padding, a non-blank first character.
    /// An FCB can hold any bytes; only valid names may become host file names.
    pub fn is_valid(&self) -> bool {
        let part_ok = |part: &[u8]| {
            let len = part.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
            part[..len].iter().all(|&c| c == b'?' || !reserved(c))
        };
        self.0[0] != b' ' && part_ok(&self.0[..8]) && part_ok(&self.0[8..])
    }

    /// Whether this name contains wildcards.
    pub fn is_ambiguous(&self) -> bool {
        self.0.contains(&b'?')
    }

    /// Whether `other` (an unambiguous name) matches this pattern.
    pub fn matches(&self, other: &FcbName) -> bool {
        self.0.iter().zip(other.0).all(|(&p, c)| p == b'?' || p == c)
    }

    /// `NAME.TYP` without padding (`NAME` when the type is blank).
    pub fn display(&self) -> String {
        let base = String::from_utf8_lossy(&self.0[..8]).trim_end().to_string();
        let ext = String::from_utf8_lossy(&self.0[8..]).trim_end().to_string();
        if ext.is_empty() {
            base
        } else {
            format!("{base}.{ext}")
        }
    }
}

/// Characters that end or cannot be part of a CP/M file name (the CCP's delimiters), plus the host's
/// path separators, so no FCB name can reach outside the drive's directory.
fn reserved(c: u8) -> bool {
    c <= b' ' || c >= 0x7F || b"<>.,;:=?*[]_%|()/\\\"".contains(&c)
}

fn fill_part(dst: &mut [u8], part: &str) -> Option<()> {
    for (i, c) in part.bytes().enumerate() {
        if c == b'*' {
            dst[i..].fill(b'?');
            return Some(());
        }
        if i == dst.len() || (reserved(c) && c != b'?') {
            return None;
        }
        dst[i] = c.to_ascii_uppercase();
    }
    Some(())
}

/// The command line as the CCP leaves it for a program: the tail at 0080h (length byte, then the
/// text after the command name, upper case, with its leading space) and the two default FCBs at
/// 005Ch and 006Ch made from the first two arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// Bytes from 0080h: the length, then up to 127 characters.
    pub tail: Vec<u8>,
    /// The 16 bytes of each default FCB (drive and name; the rest is zero).
    pub fcb1: [u8; 16],
    pub fcb2: [u8; 16],
}

impl CommandLine {
    /// Builds the command line for `args`. The tail is cut at 127 characters, as the CCP's buffer is.
    pub fn new(args: &[String]) -> CommandLine {
        let mut text = String::new();
        for a in args {
            text.push(' ');
            text.push_str(&a.to_ascii_uppercase());
        }
        let mut bytes: Vec<u8> = text
            .bytes()
            .map(|b| if b.is_ascii() { b } else { b'?' })
            .collect();
        bytes.truncate(127);
        let mut tail = vec![bytes.len() as u8];
        tail.extend_from_slice(&bytes);
        CommandLine {
            tail,
            fcb1: default_fcb(args.first().map(String::as_str)),
            fcb2: default_fcb(args.get(1).map(String::as_str)),
        }
    }
}

/// A default FCB for one argument: `d:` selects a drive (A: = 1), the rest is the name; an argument
/// that is not a valid file name leaves a blank name, as the CCP does for options such as `-X`.
fn default_fcb(arg: Option<&str>) -> [u8; 16] {
    let mut fcb = [0u8; 16];
    fcb[1..12].fill(b' ');
    let Some(arg) = arg else { return fcb };
    let upper = arg.to_ascii_uppercase();
    let mut rest = upper.as_str();
    if let [d @ b'A'..=b'P', b':', ..] = upper.as_bytes() {
        fcb[0] = d - b'A' + 1;
        rest = &upper[2..];
    }
    if let Some(name) = FcbName::parse(rest) {
        fcb[1..12].copy_from_slice(&name.0);
    }
    fcb
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> FcbName {
        FcbName::parse(s).unwrap()
    }

    #[test]
    fn names_are_padded_upper_case_and_wildcards_expand() {
        assert_eq!(&name("hello.com").0, b"HELLO   COM");
        assert_eq!(&name("ALLTESTS.BBC").0, b"ALLTESTSBBC");
        assert_eq!(&name("README").0, b"README     ");
        assert_eq!(&name("*.bbc").0, b"????????BBC");
        assert_eq!(&name("A*.*").0, b"A??????????");
        assert!(name("*.BBC").is_ambiguous());
        assert!(!name("X.BBC").is_ambiguous());
        assert!(name("*.BBC").matches(&name("FORTEST.BBC")));
        assert!(!name("*.BBC").matches(&name("FORTEST.COM")));
        assert_eq!(name("fortest.bbc").display(), "FORTEST.BBC");
        assert_eq!(name("readme").display(), "README");
    }

    #[test]
    fn names_that_could_leave_the_directory_or_overflow_are_refused() {
        for bad in [
            "",
            "../X",
            "A/B",
            "A\\B",
            "TOOLONGNAME.TXT",
            "X.LONG",
            ".BBC",
            "A:B",
            "a b",
        ] {
            assert_eq!(FcbName::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_fcb_name_ignores_attribute_bits() {
        let mut bytes = *b"FILE    TXT";
        bytes[8] |= 0x80; // read-only attribute
        assert_eq!(FcbName::from_fcb(&bytes), name("FILE.TXT"));
        assert!(FcbName::from_fcb(&bytes).is_valid());
        for bad in [
            &b"../SECRETTX"[..],
            b"A B     TXT",
            b"        TXT",
            b"A/B     TXT",
            b"FILE    T.T",
        ] {
            assert!(
                !FcbName::from_fcb(bad).is_valid(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn the_command_tail_and_default_fcbs_follow_the_ccp() {
        let cl = CommandLine::new(&["b:prog.bbc".to_string(), "out.txt".to_string(), "-x".into()]);
        assert_eq!(cl.tail[0] as usize, cl.tail.len() - 1);
        assert_eq!(&cl.tail[1..], b" B:PROG.BBC OUT.TXT -X");
        assert_eq!(cl.fcb1[0], 2);
        assert_eq!(&cl.fcb1[1..12], b"PROG    BBC");
        assert_eq!(cl.fcb2[0], 0);
        assert_eq!(&cl.fcb2[1..12], b"OUT     TXT");
        let none = CommandLine::new(&[]);
        assert_eq!(none.tail, vec![0]);
        assert_eq!(&none.fcb1[1..12], b"           ");
        let long = CommandLine::new(&["X".repeat(300)]);
        assert_eq!(long.tail[0], 127);
        assert_eq!(long.tail.len(), 128);
    }
}
