//! The `.bas` sniff: `.bas` is the name of C64 listings and of many BBC BASIC programs, so the
//! bytes decide between the two machines (docs/cli.md, "Choosing the machine"). BBC BASIC's row
//! claims a `.bas` file when this says so; the C64's row, after it in the table, takes the rest.

use std::path::Path;

use retro_cbm::{Charset, sniff};

pub(super) fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether a .bas file holds a C64 program rather than BBC BASIC ([`choose_bas`]); a guess
/// between two machines that both fit is said in one line on stderr. An unreadable file is left
/// to the C64 side, which reports it.
pub fn bas_is_cbm(path: &Path) -> bool {
    let Ok(bytes) = crate::files::read_limited(path, crate::files::BASIC_PROGRAM) else {
        return true;
    };
    match choose_bas(&bytes) {
        BasChoice::Cbm => true,
        BasChoice::Bbc => false,
        BasChoice::GuessCbm(why) => {
            SAID_UPPER.store(true, std::sync::atomic::Ordering::Relaxed);
            eprintln!(
                "retro: {}: running on the Commodore 64 (an upper-case C64 listing: {why}); --machine bbc for BBC BASIC",
                path.display()
            );
            true
        }
        BasChoice::GuessBbc => {
            eprintln!(
                "retro: {}: running as BBC BASIC (upper-case keywords and no C64-only word); --machine cbm for the Commodore 64",
                path.display()
            );
            false
        }
    }
}

/// The machine for a .bas file's bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum BasChoice {
    /// Only the C64 reads it (a petcat listing, or no BBC keyword in capitals).
    Cbm,
    /// Only BBC BASIC reads it (tokenized, unnumbered lines, lower case, a BBC-only keyword).
    Bbc,
    /// An upper-case listing both read, with a C64-only word or form: the C64, and why.
    GuessCbm(String),
    /// An upper-case listing both read, with nothing only a C64 has: BBC BASIC.
    GuessBbc,
}

/// BBC BASIC's rule (retro_bbc::sniff: a tokenized BBC program, or capital BBC keywords)
/// decides, except for an upper-case listing the C64 reads too: it goes to the C64 when it uses a
/// C64-only word or form (retro_cbm::sniff::c64_reason), and stays BBC BASIC otherwise.
pub fn choose_bas(bytes: &[u8]) -> BasChoice {
    if !retro_bbc::sniff::is_bbc_basic(bytes) {
        return BasChoice::Cbm;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return BasChoice::Bbc;
    };
    if sniff::charset_of(text) != Charset::Ascii || sniff::bbc_only(text) {
        return BasChoice::Bbc;
    }
    match sniff::c64_reason(text) {
        Some(why) => BasChoice::GuessCbm(why),
        None => BasChoice::GuessBbc,
    }
}

/// Set when the machine's choice already said the listing is upper case (one line is enough).
static SAID_UPPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What to add to an error about a .bas file: how to choose the other machine.
pub fn bas_hint(path: &Path, other: &str) -> String {
    if has_extension(path, "bas") {
        format!(
            " ({} was read as {}; choose the machine with --machine bbc|cbm)",
            path.display(),
            other
        )
    } else {
        String::new()
    }
}

/// Whether the machine's choice already said the listing is upper case.
pub fn said_upper() -> bool {
    SAID_UPPER.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn listings(dir: &str, ext: &str) -> Vec<(String, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut out: Vec<_> = std::fs::read_dir(&dir)
            .expect("corpus directory")
            .filter_map(|e| {
                let p = e.ok()?.path();
                (p.extension()? == ext).then(|| (p.display().to_string(), std::fs::read(&p).unwrap()))
            })
            .collect();
        out.sort();
        out
    }

    /// The upper-case C64 corpus: every listing with a C64-only word goes to the C64, and the rest
    /// (PRINT, FOR, GOTO: BBC BASIC reads them too) are said to be guesses for BBC BASIC; their
    /// petcat twins are C64 listings without a guess.
    #[test]
    fn upper_case_c64_listings_with_c64_words_go_to_the_c64() {
        let upper = listings("interpreters/cbm/tests/upper", "bas");
        assert!(upper.len() >= 120, "{}", upper.len());
        let mut c64 = 0;
        for (name, bytes) in &upper {
            match choose_bas(bytes) {
                BasChoice::GuessCbm(_) => c64 += 1,
                BasChoice::GuessBbc => {}
                other => panic!("{name}: {other:?}"),
            }
        }
        // Exactly what the corpus has: 20 listings use a C64-only word (POKE, PEEK, TI$, GET...);
        // the other 122 use only words BBC BASIC has too. A change to the sniff moves this count.
        assert_eq!((c64, upper.len()), (20, 142));
        for (name, bytes) in listings("interpreters/cbm/tests/upper/petcat", "bas") {
            assert_eq!(choose_bas(&bytes), BasChoice::Cbm, "{name}");
        }
    }

    /// BBC BASIC's corpus (upper-case keywords, many numbered listings) still goes to BBC BASIC.
    #[test]
    fn bbc_listings_still_go_to_bbc_basic() {
        // The listings BBC BASIC's own rule recognises (a few are just `A=A$`, which both read
        // and the C64 takes, as before).
        let bbc: Vec<_> = listings("interpreters/bbc/tests/corpus", "bbc")
            .into_iter()
            .filter(|(_, b)| retro_bbc::sniff::is_bbc_basic(b))
            .collect();
        assert!(bbc.len() >= 300, "{}", bbc.len());
        for (name, bytes) in bbc {
            let choice = choose_bas(&bytes);
            assert!(
                matches!(choice, BasChoice::Bbc | BasChoice::GuessBbc),
                "{name}: {choice:?}"
            );
        }
    }
}
