//! Property tests: the disassembler and the assembler never panic, and any byte string survives
//! disassemble -> assemble unchanged. PROPTEST_CASES=100000 in CI.
use proptest::prelude::*;
use retro_z80_asm::{assemble_str, assemble_with, disassemble, disassemble_to_source};
use std::path::Path;

/// Pieces of assembly, valid and not, for generated sources.
const WORDS: &[&str] = &[
    "ld",
    "a",
    "b",
    "(hl)",
    "(ix+",
    "(iy-",
    ")",
    "(",
    ",",
    "jr",
    "djnz",
    "nz",
    "jp",
    "call",
    "ret",
    "push",
    "pop",
    "ix",
    "iy",
    "ixh",
    "sp",
    "af",
    "af'",
    "ex",
    "de",
    "hl",
    "add",
    "sub",
    "cp",
    "bit",
    "set",
    "res",
    "rlc",
    "sll",
    "in",
    "out",
    "(c)",
    "im",
    "rst",
    "org",
    "db",
    "dw",
    "ds",
    "equ",
    "=",
    "defm",
    "align",
    "if",
    "else",
    "endif",
    "macro",
    "endm",
    "rept",
    "include",
    "incbin",
    "end",
    "label:",
    ".loc:",
    ".loc",
    "label",
    "x",
    "$",
    "$FF",
    "0FFh",
    "0x1F",
    "%101",
    "0b11",
    "&FF",
    "'A'",
    "\"str\\n\"",
    "1",
    "7",
    "255",
    "256",
    "-1",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "~",
    "<<",
    ">>",
    "<",
    "==",
    "!",
    "&&",
    "high",
    "low",
    "mod",
    ";c",
    "\t",
    " ",
    ":",
    "`",
    "\"",
    "'",
    "[",
    "]",
    "?",
    "\\",
    "é",
];

fn source() -> impl Strategy<Value = String> {
    let line = prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "));
    prop::collection::vec(line, 0..12).prop_map(|l| l.join("\n"))
}

fn no_files(_: &Path) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "no files in this test",
    ))
}

proptest! {
    #[test]
    fn any_bytes_disassemble_and_reassemble_unchanged(
        bytes in prop::collection::vec(any::<u8>(), 1..48),
        org in 0u16..0xFF00,
    ) {
        let src = disassemble_to_source(&bytes, org, None);
        let a = assemble_str("p.asm", &src).map_err(|f| TestCaseError::fail(f.render(false)))?;
        prop_assert_eq!(&a.bytes, &bytes, "{}", src);
        prop_assert_eq!(a.origin, org);
    }

    #[test]
    fn the_assembler_never_panics(src in source()) {
        let main = Path::new("fuzz.asm");
        let text = src.clone().into_bytes();
        let load = move |p: &Path| if p == main { Ok(text.clone()) } else { no_files(p) };
        match assemble_with(main, &load) {
            // A successful run produced a consistent image.
            Ok(a) => prop_assert!(a.origin as usize + a.bytes.len() <= 0x10000),
            // Every error renders, with a location inside the file.
            Err(f) => {
                prop_assert!(!f.diagnostics.is_empty());
                for d in &f.diagnostics {
                    prop_assert!(d.loc.span.end <= f.files[d.loc.file as usize].text.len());
                }
                let _ = f.render(false);
            }
        }
    }

    /// Fuzzing the disassembler with any bytes at any load address (including images that wrap
    /// past $FFFF): every byte is accounted for exactly once, in address order.
    #[test]
    fn the_disassembler_never_panics_and_covers_every_byte(
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        org in any::<u16>(),
    ) {
        let lines = disassemble(&bytes, org, None);
        let mut at = 0usize;
        for l in &lines {
            prop_assert_eq!(l.addr, org.wrapping_add(at as u16));
            prop_assert_eq!(&l.bytes[..], &bytes[at..at + l.bytes.len()]);
            prop_assert!(!l.text.is_empty());
            at += l.bytes.len();
        }
        prop_assert_eq!(at, bytes.len());
        let _ = disassemble_to_source(&bytes, org, None);
    }

    /// Fuzzing the assembler with arbitrary text (any bytes read as UTF-8, lossily): no panic, and
    /// every diagnostic renders.
    #[test]
    fn the_assembler_survives_arbitrary_text(raw in prop::collection::vec(any::<u8>(), 0..200)) {
        let main = Path::new("raw.asm");
        let load = move |p: &Path| if p == main { Ok(raw.clone()) } else { no_files(p) };
        if let Err(f) = assemble_with(main, &load) {
            let _ = f.render(false);
        }
    }
}

proptest! {
    // Each case assembles a small source (about 0.2 ms unoptimised): capped so CI's 100,000 stay
    // for the fuzzers.
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// `$` is the address of the statement it stands in, wherever it is evaluated: in an IF
    /// condition, a REPT/DUP count, an ASSERT and an operand, after any run of instructions at any
    /// address, in both dialects (issue 29: IF and REPT saw the previous statement's address).
    /// The expected values are the ones pasmo and sjasmplus give (tests/golden/cases/dollar_in_*,
    /// tests/sjasmplus/cases/dollar.asm).
    #[test]
    fn dollar_is_the_address_of_its_own_statement(
        org in 0u16..0xF000,
        sizes in prop::collection::vec(0usize..4, 0..12),
        sjasmplus in any::<bool>(),
    ) {
        const INSNS: [&str; 4] = ["nop", "ld a,1", "ld hl,0", "ld ix,0"];
        const LEN: [u16; 4] = [1, 2, 3, 4];
        let mut src = format!(" org {org}\n");
        let mut here = org;
        for &k in &sizes {
            src += &format!(" {}\n", INSNS[k]);
            here += LEN[k];
        }
        let (rept, endr) = if sjasmplus { ("dup", "edup") } else { ("rept", "endm") };
        src += &format!(
            " if $ = {here}\n db 1\n else\n db 2\n endif\n \
             {rept} $ - {} + 2\n nop\n {endr}\n assert $ = {}\n dw $\n",
            here + 1,
            here + 3,
        );
        let options = retro_z80_asm::Options {
            dialect: Some(if sjasmplus { retro_z80_asm::Dialect::Sjasmplus } else { retro_z80_asm::Dialect::Pasmo }),
            ..Default::default()
        };
        let main = Path::new("dollar.asm");
        let text = src.clone().into_bytes();
        let load = move |p: &Path| if p == main { Ok(text.clone()) } else { no_files(p) };
        let a = retro_z80_asm::assemble_with_options(main, &load, &options)
            .map_err(|f| TestCaseError::fail(f.render(false)))?;
        let n = a.bytes.len();
        prop_assert_eq!(&a.bytes[n - 5..], &[1, 0, 0, (here + 3) as u8, ((here + 3) >> 8) as u8], "{}", src);
    }
}

#[path = "../../../../tests/common/fuzz_cases.rs"]
mod fuzz_cases;
use fuzz_cases::{cases, run_cases};

/// Issue 32 fuzzing: REPT/DUP nested to any depth with any counts gives exactly the product of
/// the counts in bytes, and past the line budget a diagnostic, never a hang or a panic.
fn nested_repetition(full: bool) {
    let strategy = (prop::collection::vec(0u32..5, 1..6), any::<bool>());
    run_cases(file!(), cases(1_000, full), strategy, |(counts, sjasmplus)| {
        let (open, close) = if sjasmplus {
            ("dup", "edup")
        } else {
            ("rept", "endm")
        };
        let mut src = String::from(" org 8000h\n");
        for c in &counts {
            src += &format!(" {open} {c}\n");
        }
        src += " db 1\n";
        for _ in &counts {
            src += &format!(" {close}\n");
        }
        let options = retro_z80_asm::Options {
            dialect: Some(if sjasmplus {
                retro_z80_asm::Dialect::Sjasmplus
            } else {
                retro_z80_asm::Dialect::Pasmo
            }),
            ..Default::default()
        };
        let main = Path::new("rep.asm");
        let text = src.clone().into_bytes();
        let load = move |p: &Path| if p == main { Ok(text.clone()) } else { no_files(p) };
        let a = retro_z80_asm::assemble_with_options(main, &load, &options)
            .map_err(|f| TestCaseError::fail(f.render(false)))?;
        let product: u32 = counts.iter().product();
        prop_assert_eq!(a.bytes.len(), product as usize, "{}", src);
        Ok(())
    });
}

#[test]
fn nested_repetition_gives_the_product_of_its_counts() {
    nested_repetition(false);
}

#[test]
#[ignore = "100,000 cases: release mode in CI (.ci/run)"]
fn nested_repetition_gives_the_product_of_its_counts_at_full_count() {
    nested_repetition(true);
}

/// Issue 32 fuzzing: names of any length (to a few thousand characters) with a typo get a "did
/// you mean" for the name they were meant to be, and never a panic.
fn long_mistyped_names(full: bool) {
    let strategy = ("[a-z]{1,3000}", any::<prop::sample::Index>());
    run_cases(file!(), cases(300, full), strategy, |(stem, typo)| {
        let at = typo.index(stem.len());
        let mut wrong: Vec<u8> = stem.clone().into_bytes();
        wrong[at] = if wrong[at] == b'q' { b'z' } else { b'q' };
        let wrong = String::from_utf8(wrong).unwrap_or_default();
        let src = format!("l{stem}: nop\n jp l{wrong}\n");
        match assemble_str("long.asm", &src) {
            Ok(_) => prop_assert!(false, "an undefined name assembled"),
            Err(f) => {
                let help = f.diagnostics[0].help.clone().unwrap_or_default();
                prop_assert!(
                    help.contains(&format!("`l{stem}`")),
                    "{}",
                    &help[..help.len().min(60)]
                );
            }
        }
        Ok(())
    });
}

#[test]
fn long_mistyped_names_are_suggested() {
    long_mistyped_names(false);
}

#[test]
#[ignore = "100,000 cases: release mode in CI (.ci/run)"]
fn long_mistyped_names_are_suggested_at_full_count() {
    long_mistyped_names(true);
}
