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
/// 005Ch and 006Ch, parsed from that text as the CCP parses them (CP/M 2.2 Operating System
/// Manual, section 5.1 and 6.9; DRI's CCP, `fillfcb`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// Bytes from 0080h: the length, then up to 127 characters.
    pub tail: Vec<u8>,
    /// The 16 bytes of each default FCB (drive, name, type, EX S1 S2 zero, RC zero).
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
        let mut fcb1 = [0u8; 16];
        let mut fcb2 = [0u8; 16];
        let next = ccp_fill(&bytes, &mut fcb1);
        ccp_fill(&bytes[next..], &mut fcb2);
        CommandLine { tail, fcb1, fcb2 }
    }
}

/// The CCP's delimiters (`delim` in DRI's CCP): end of line, blank, `=`, `_` (the left arrow),
/// `.`, `:`, `;`, `<`, `>`. The CCP refuses a command with other control characters; here they
/// end a name like a blank.
fn ccp_delimiter(c: u8) -> bool {
    c <= b' ' || b"=_.:;<>".contains(&c)
}

/// Fills `fcb` from `line` as the CCP's `fillfcb` does, returning where it stopped (the next
/// FCB is parsed from there, so `B.TXT=A.TXT` leaves the second FCB blank, as under CP/M):
/// blanks skipped; `d:` sets the drive (any character before a colon, A = 1); up to 8 name
/// characters and, after a `.`, up to 3 type characters, each cut at the next delimiter (longer
/// names are truncated, not refused); `*` fills the rest of its field with `?`; EX, S1, S2 zero.
fn ccp_fill(line: &[u8], fcb: &mut [u8; 16]) -> usize {
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while at(i) == b' ' {
        i += 1;
    }
    fcb.fill(0);
    if at(i) != 0 && at(i + 1) == b':' {
        fcb[0] = at(i).wrapping_sub(b'@');
        i += 2;
    }
    let field = |fcb: &mut [u8], i: &mut usize| {
        for slot in fcb.iter_mut() {
            let c = at(*i);
            *slot = match c {
                _ if ccp_delimiter(c) => b' ',
                // The CCP does not step past the '*': it fills every remaining place.
                b'*' => b'?',
                _ => {
                    *i += 1;
                    c
                }
            };
        }
        while !ccp_delimiter(at(*i)) {
            *i += 1;
        }
    };
    field(&mut fcb[1..9], &mut i);
    if at(i) == b'.' {
        i += 1;
        field(&mut fcb[9..12], &mut i);
    } else {
        fcb[9..12].fill(b' ');
    }
    i
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

    fn fcbs(args: &[&str]) -> ([u8; 16], [u8; 16]) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let cl = CommandLine::new(&args);
        (cl.fcb1, cl.fcb2)
    }

    /// An FCB's first 16 bytes: drive, the 11 name bytes, then EX S1 S2 RC zero.
    fn fcb(drive: u8, name: &[u8; 11]) -> [u8; 16] {
        let mut f = [0u8; 16];
        f[0] = drive;
        f[1..12].copy_from_slice(name);
        f
    }

    #[test]
    fn the_command_tail_and_default_fcbs_follow_the_ccp() {
        let cl = CommandLine::new(&["b:prog.bbc".to_string(), "out.txt".to_string(), "-x".into()]);
        assert_eq!(cl.tail[0] as usize, cl.tail.len() - 1);
        assert_eq!(&cl.tail[1..], b" B:PROG.BBC OUT.TXT -X");
        assert_eq!(cl.fcb1, fcb(2, b"PROG    BBC"));
        assert_eq!(cl.fcb2, fcb(0, b"OUT     TXT"));
        let none = CommandLine::new(&[]);
        assert_eq!(none.tail, vec![0]);
        assert_eq!(none.fcb1, fcb(0, b"           "));
        let long = CommandLine::new(&["X".repeat(300)]);
        assert_eq!(long.tail[0], 127);
        assert_eq!(long.tail.len(), 128);
    }

    /// The awkward tails real programs get, each against DRI's CCP (`fillfcb`): the second FCB
    /// is parsed from where the first stopped, names are cut to 8.3 rather than refused, `*`
    /// fills its field with `?`, and a letter before a colon is a drive.
    #[test]
    fn awkward_tails_give_the_fcbs_the_ccp_gives() {
        // PIP-style: the first FCB stops at '=', so the second is blank.
        assert_eq!(
            fcbs(&["b.txt=a.txt"]),
            (fcb(0, b"B       TXT"), fcb(0, b"           "))
        );
        // STAT DSK: - "DSK" is a name (no drive: the colon is not second), ended by ':'.
        assert_eq!(fcbs(&["dsk:"]), (fcb(0, b"DSK        "), fcb(0, b"           ")));
        // A drive alone, and a drive with a name.
        assert_eq!(
            fcbs(&["b:", "c:x.y"]),
            (fcb(2, b"           "), fcb(3, b"X       Y  "))
        );
        // Longer than 8.3: truncated.
        assert_eq!(fcbs(&["verylongname.text"]).0, fcb(0, b"VERYLONGTEX"));
        // Wildcards: '*' fills the rest of its field; '?' stays.
        assert_eq!(
            fcbs(&["*.c", "a*b.?x*"]),
            (fcb(0, b"????????C  "), fcb(0, b"A????????X?"))
        );
        assert_eq!(fcbs(&["*.*"]).0, fcb(0, b"???????????"));
        // Options are names too ("-X"), and ';' '<' '>' end a name.
        assert_eq!(fcbs(&["-x;y"]), (fcb(0, b"-X         "), fcb(0, b"           ")));
        assert_eq!(fcbs(&["a.b", "[o]"]).1, fcb(0, b"[O]        "));
        // Leading blanks are skipped; an empty type after the dot is blank.
        assert_eq!(fcbs(&["", "x."]).0, fcb(0, b"X          "));
    }

    proptest::proptest! {
        /// Any command line gives FCBs the CCP could have made: name and type blank-padded, no
        /// delimiter or lower-case letter inside, EX/S1/S2/RC zero; and a plain 8.3 first
        /// argument gives exactly its name.
        #[test]
        fn any_tail_gives_fcbs_the_ccp_could_make(
            args in proptest::collection::vec("[ -~]{0,20}", 0..6),
            plain in "[A-Z0-9$]{1,8}(\\.[A-Z0-9$]{1,3})?",
        ) {
            let cl = CommandLine::new(&args);
            proptest::prop_assert_eq!(cl.tail[0] as usize, cl.tail.len() - 1);
            proptest::prop_assert!(cl.tail.len() <= 128);
            for f in [cl.fcb1, cl.fcb2] {
                for part in [&f[1..9], &f[9..12]] {
                    let len = part.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
                    proptest::prop_assert!(
                        part[..len].iter().all(|&c| !ccp_delimiter(c) && !c.is_ascii_lowercase()),
                        "{:?}", args
                    );
                }
                proptest::prop_assert_eq!(&f[12..16], &[0u8; 4][..]);
            }
            let cl = CommandLine::new(&[plain.clone(), "X".into()]);
            proptest::prop_assert_eq!(&cl.fcb1[1..12], &FcbName::parse(&plain).unwrap().0[..]);
            proptest::prop_assert_eq!(cl.fcb2, fcb(0, b"X          "));
        }
    }
}
