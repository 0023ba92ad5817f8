//! Rheolism, the one-line Tetris: the published listing must crunch to the reference sheet's 257
//! bytes, fail strict tokenization as RISC OS fails, and LIST back to the published text.

use retro_bbc::{DiagnosticKind, Mode, Program, list, tokenize_program};

const LISTING: &str = include_str!("../../../programs/rheolism/rheolism.txt");

/// The listing as published (one BASIC line shown wrapped at 72 columns).
const PUBLISHED: [&str; 6] = [
    "    0d=d:IFdVDUd:a=POINT(32*POS,31-VPOS<<5):RETURNELSEMODE9:GCOL-9:CLG:O",
    "FF:d=9:REPEATVDU30:REPEATGOSUBFALSE:IFPOS=28VDUPOS,15,VPOS,24;11,26:IF0E",
    "LSEIFa=0PRINT:UNTIL0ELSEUNTILVPOS=25:v=ABSRNDMOD7:i=0:VDU4895;3:REPEATm=",
    "9-INKEY6MOD3:FORr=TRUETO1:t=rANDSGNt:IFt=rCOLOURv-15:VDUrEORm:i+=m=7AND9",
    "-6*r:IF0ELSEFORn=0TO11:d=n/3OR2EORd:GOSUBFALSE:IF1<<(n+i)MOD12AND975AND&",
    "C2590EC/8^vVDU2080*ABSr;:t+=a:IF0ELSENEXT,:VDU20:UNTILt*LOGm:UNTILVPOS=3",
];

/// The reference bytes, parsed from the hex dump copied from the reference sheet.
fn reference_bytes() -> Vec<u8> {
    include_str!("golden/rheolism.hex")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .flat_map(|l| l.split_once(':').unwrap().1.split_whitespace())
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect()
}

#[test]
fn the_listing_file_is_the_published_listing() {
    assert_eq!(LISTING, PUBLISHED.concat() + "\n");
}

#[test]
fn crunching_the_published_listing_gives_the_reference_bytes() {
    let program = tokenize_program(LISTING, Mode::Crunch).expect("crunches");
    let bytes = program.to_bytes();
    let reference = reference_bytes();
    assert_eq!(reference.len(), 257);
    assert_eq!(bytes, reference);
    assert_eq!(bytes[3], 0xFF, "one line of length &FF");
}

#[test]
fn strict_tokenization_fails_with_line_too_long_at_289_bytes() {
    let diags = tokenize_program(LISTING, Mode::Strict).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].kind, DiagnosticKind::LineTooLong);
    assert_eq!(diags[0].message, "Line too long");
    assert!(
        diags[0].help.as_deref().unwrap().contains("285 bytes"),
        "{:?}",
        diags[0].help
    );
    assert!(diags[0].help.as_deref().unwrap().contains("length byte 289"));
}

#[test]
fn listing_the_reference_bytes_prints_the_published_listing() {
    let program = Program::from_bytes(&reference_bytes()).unwrap();
    assert_eq!(list(&program), LISTING);
}

#[test]
fn the_shipped_file_is_the_reference_bytes() {
    let shipped = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../programs/rheolism/rheolism.bbc"
    ))
    .expect("programs/rheolism/rheolism.bbc");
    assert_eq!(shipped, reference_bytes());
}
