//! The golden corpus (tests/golden/corpus/*.case): listings with the bytes RISC OS BASIC V gives
//! them, written by hand from the reference sheet's token table and tokenizer rules, plus Brandy's
//! LIST of our bytes where Brandy can load them (tests/golden/brandy/, recorded by record.sh).
//!
//! A case file:
//! ```text
//! # what it shows; how the expectation was obtained
//! mode: strict | crunch
//! brandy: yes | no <why>
//! --- text           the listing to tokenize
//! --- bytes          expected lines, `N: body` in the notation below
//! --- list           (optional) what LIST prints, when it is not the text itself
//! --- error          (instead of bytes) expected diagnostics, `Kind line:col` one a line
//! ```
//! Body notation: `{PRINT}` is the token byte(s) the reference sheet gives for that keyword
//! (from the copy of its table below, *not* from the crate's own table, so a slip in either shows),
//! `{@10}` is `&8D` and the sheet's 3-byte encoding of line 10, `{C8 8E}` is raw hex, and anything
//! else stands for itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use retro_bbc::{Line, Mode, Program, list, tokenize_program};

/// The token table of shared/reference/bbc-basic.md section 3, transcribed independently of the
/// crate. `_L` marks the statement-start forms, `ELSE_CC` the block ELSE.
const SHEET_ONE_BYTE: &str = "7F OTHERWISE 80 AND 81 DIV 82 EOR 83 MOD 84 OR 85 ERROR 86 LINE 87 OFF 88 STEP 89 SPC 8A TAB( 8B ELSE 8C THEN 8E OPENIN 8F PTR 90 PAGE 91 TIME 92 LOMEM 93 HIMEM 94 ABS 95 ACS 96 ADVAL 97 ASC 98 ASN 99 ATN 9A BGET 9B COS 9C COUNT 9D DEG 9E ERL 9F ERR A0 EVAL A1 EXP A2 EXT A3 FALSE A4 FN A5 GET A6 INKEY A7 INSTR( A8 INT A9 LEN AA LN AB LOG AC NOT AD OPENUP AE OPENOUT AF PI B0 POINT( B1 POS B2 RAD B3 RND B4 SGN B5 SIN B6 SQR B7 TAN B8 TO B9 TRUE BA USR BB VAL BC VPOS BD CHR$ BE GET$ BF INKEY$ C0 LEFT$( C1 MID$( C2 RIGHT$( C3 STR$ C4 STRING$( C5 EOF C9 WHEN CA OF CB ENDCASE CC ELSE_CC CD ENDIF CE ENDWHILE CF PTR_L D0 PAGE_L D1 TIME_L D2 LOMEM_L D3 HIMEM_L D4 SOUND D5 BPUT D6 CALL D7 CHAIN D8 CLEAR D9 CLOSE DA CLG DB CLS DC DATA DD DEF DE DIM DF DRAW E0 END E1 ENDPROC E2 ENVELOPE E3 FOR E4 GOSUB E5 GOTO E6 GCOL E7 IF E8 INPUT E9 LET EA LOCAL EB MODE EC MOVE ED NEXT EE ON EF VDU F0 PLOT F1 PRINT F2 PROC F3 READ F4 REM F5 REPEAT F6 REPORT F7 RESTORE F8 RETURN F9 RUN FA STOP FB COLOUR FC TRACE FD UNTIL FE WIDTH FF OSCLI";
const SHEET_TWO_BYTE: &str = "C68E SUM C68F BEAT C78E APPEND C78F AUTO C790 CRUNCH C791 DELETE C792 EDIT C793 HELP C794 LIST C795 LOAD C796 LVAR C797 NEW C798 OLD C799 RENUMBER C79A SAVE C79B TEXTLOAD C79C TEXTSAVE C79D TWIN C79E TWINO C79F INSTALL C88E CASE C88F CIRCLE C890 FILL C891 ORIGIN C892 POINT C893 RECTANGLE C894 SWAP C895 WHILE C896 WAIT C897 MOUSE C898 QUIT C899 SYS C89A INSTALL_C8 C89B LIBRARY C89C TINT C89D ELLIPSE C89E BEATS C89F TEMPO C8A0 VOICES C8A1 VOICE C8A2 STEREO C8A3 OVERLAY";

fn sheet_tokens() -> HashMap<&'static str, Vec<u8>> {
    let mut map = HashMap::new();
    let one: Vec<&str> = SHEET_ONE_BYTE.split(' ').collect();
    for pair in one.chunks(2) {
        map.insert(pair[1], vec![u8::from_str_radix(pair[0], 16).unwrap()]);
    }
    let two: Vec<&str> = SHEET_TWO_BYTE.split(' ').collect();
    for pair in two.chunks(2) {
        let v = u16::from_str_radix(pair[0], 16).unwrap();
        map.insert(pair[1], v.to_be_bytes().to_vec());
    }
    map
}

/// The reference sheet's section 2c encoding, written out again here.
fn sheet_line_number(n: u16) -> [u8; 4] {
    let lo = (n & 0xFF) as u8;
    let hi = (n >> 8) as u8;
    [
        0x8D,
        (((lo & 0xC0) >> 2) | ((hi & 0xC0) >> 4)) ^ 0x54,
        (lo & 0x3F) | 0x40,
        (hi & 0x3F) | 0x40,
    ]
}

fn parse_body(text: &str, tokens: &HashMap<&str, Vec<u8>>, case: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.extend(
            rest[..open]
                .chars()
                .map(|c| u8::try_from(u32::from(c)).expect("Latin-1")),
        );
        let close = rest[open..]
            .find('}')
            .unwrap_or_else(|| panic!("{case}: unclosed {{"))
            + open;
        let inner = &rest[open + 1..close];
        if let Some(n) = inner.strip_prefix('@') {
            out.extend(sheet_line_number(n.parse().unwrap()));
        } else if inner
            .split(' ')
            .all(|h| h.len() == 2 && h.chars().all(|c| c.is_ascii_hexdigit()))
        {
            out.extend(inner.split(' ').map(|h| u8::from_str_radix(h, 16).unwrap()));
        } else {
            out.extend(
                tokens
                    .get(inner)
                    .unwrap_or_else(|| panic!("{case}: no token {inner}")),
            );
        }
        rest = &rest[close + 1..];
    }
    out.extend(rest.chars().map(|c| u8::try_from(u32::from(c)).expect("Latin-1")));
    out
}

/// What Brandy's LIST of the case's bytes shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Brandy {
    /// Not recorded (Brandy cannot load the tokens, or the case is an error).
    No,
    /// The same listing as ours, spaces aside.
    Agrees,
    /// A known Brandy difference, explained in the case file; the record shows it.
    Differs,
}

struct Case {
    name: String,
    mode: Mode,
    brandy: Brandy,
    text: String,
    bytes: Option<String>,
    list: Option<String>,
    error: Option<String>,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn load_cases() -> Vec<Case> {
    let mut paths: Vec<_> = std::fs::read_dir(corpus_dir().join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "case"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let content = std::fs::read_to_string(p).unwrap();
            let mut case = Case {
                name: name.clone(),
                mode: Mode::Strict,
                brandy: Brandy::No,
                text: String::new(),
                bytes: None,
                list: None,
                error: None,
            };
            let mut section: Option<String> = None;
            let mut buf = String::new();
            let flush = |section: &Option<String>, buf: &mut String, case: &mut Case| {
                let body = std::mem::take(buf);
                match section.as_deref() {
                    Some("text") => case.text = body,
                    Some("bytes") => case.bytes = Some(body),
                    Some("list") => case.list = Some(body),
                    Some("error") => case.error = Some(body),
                    None => {}
                    Some(other) => panic!("{name}: unknown section {other}"),
                }
            };
            for line in content.split_inclusive('\n') {
                if let Some(s) = line.strip_prefix("--- ") {
                    flush(&section, &mut buf, &mut case);
                    section = Some(s.trim().to_owned());
                } else if section.is_some() {
                    buf.push_str(line);
                } else if let Some(m) = line.strip_prefix("mode:") {
                    case.mode = match m.trim() {
                        "strict" => Mode::Strict,
                        "crunch" => Mode::Crunch,
                        other => panic!("{name}: mode {other}"),
                    };
                } else if let Some(b) = line.strip_prefix("brandy:") {
                    let b = b.trim();
                    case.brandy = if b.starts_with("yes") {
                        Brandy::Agrees
                    } else if b.starts_with("differs") {
                        Brandy::Differs
                    } else {
                        Brandy::No
                    };
                }
            }
            flush(&section, &mut buf, &mut case);
            case
        })
        .collect()
}

fn expected_program(case: &Case, tokens: &HashMap<&str, Vec<u8>>) -> Program {
    let lines = case
        .bytes
        .as_ref()
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (n, body) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("{}: bad bytes line {l}", case.name));
            let body = body.strip_prefix(' ').unwrap_or(body);
            Line {
                number: n.trim().parse().unwrap(),
                body: parse_body(body, tokens, &case.name),
            }
        });
    Program::new(lines.collect())
}

#[test]
fn corpus_is_large_and_covers_every_token() {
    let cases = load_cases();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let tokens = sheet_tokens();
    let mut produced: std::collections::HashSet<Vec<u8>> = Default::default();
    for case in cases.iter().filter(|c| c.bytes.is_some()) {
        for line in expected_program(case, &tokens).lines() {
            for e in retro_bbc::detokenize::elements(&line.body) {
                if let retro_bbc::detokenize::Element::Keyword { bytes, .. } = e {
                    produced.insert(bytes.to_vec());
                }
            }
        }
    }
    // Every token the tokenizer can write (all but the block ELSE and the old INSTALL, which only
    // LIST reads) appears in some expectation.
    let missing: Vec<_> = tokens
        .iter()
        .filter(|(name, bytes)| !matches!(**name, "ELSE_CC" | "INSTALL_C8") && !produced.contains(*bytes))
        .map(|(name, _)| *name)
        .collect();
    assert!(missing.is_empty(), "tokens no case produces: {missing:?}");
}

#[test]
fn every_case_tokenizes_and_lists_as_expected() {
    let tokens = sheet_tokens();
    let mut failures = Vec::new();
    for case in load_cases() {
        let got = tokenize_program(&case.text, case.mode);
        if let Some(expect) = &case.error {
            let Err(diags) = got else {
                failures.push(format!("{}: expected errors, tokenized fine", case.name));
                continue;
            };
            let got: Vec<String> = diags
                .iter()
                .map(|d| {
                    let line_start = case.text[..d.span.start].rfind(['\n', '\r']).map_or(0, |p| p + 1);
                    let col = case.text[line_start..d.span.start].chars().count() + 1;
                    format!("{:?} {}:{}", d.kind, d.text_line, col)
                })
                .collect();
            let want: Vec<&str> = expect.lines().filter(|l| !l.is_empty()).collect();
            if got != want {
                failures.push(format!("{}: diagnostics {got:?}, expected {want:?}", case.name));
            }
            continue;
        }
        let want = expected_program(&case, &tokens);
        match got {
            Err(d) => failures.push(format!("{}: {:?}", case.name, d)),
            Ok(p) if p != want => failures.push(format!(
                "{}: tokenized to\n{}\nexpected\n{}",
                case.name,
                hex_lines(&p),
                hex_lines(&want)
            )),
            Ok(_) => {}
        }
        let listed = list(&want);
        let want_list = case
            .list
            .clone()
            .unwrap_or_else(|| case.text.replace("\r\n", "\n"));
        if listed != want_list {
            failures.push(format!(
                "{}: LIST gives\n{listed}expected\n{want_list}",
                case.name
            ));
        }
        // The file format carries the program unchanged.
        assert_eq!(
            Program::from_bytes(&want.to_bytes()).unwrap(),
            want,
            "{}",
            case.name
        );
        // A tokenized file that Brandy LISTs back is evidence that the bytes mean what we say.
        if case.brandy != Brandy::No {
            let path = corpus_dir().join("brandy").join(format!("{}.txt", case.name));
            match std::fs::read(&path) {
                Err(_) => failures.push(format!(
                    "{}: no Brandy record at {} (run record.sh)",
                    case.name,
                    path.display()
                )),
                Ok(recorded) => {
                    let recorded = retro_bbc::detokenize::latin1_to_string(&recorded);
                    let agrees = squeeze(&recorded) == squeeze(&listed);
                    if agrees != (case.brandy == Brandy::Agrees) {
                        failures.push(format!(
                            "{}: marked brandy: {}, but Brandy LISTs\n{recorded}and we LIST\n{listed}",
                            case.name,
                            if agrees { "differs" } else { "yes" }
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Brandy reformats Acorn programs as it loads them: it drops the spaces after the line number and
/// puts a blank between a keyword and an adjacent letter or digit. Spaces aside, its LIST must
/// match ours character for character.
fn squeeze(listing: &str) -> Vec<String> {
    listing
        .lines()
        .map(|l| l.chars().filter(|&c| c != ' ').collect())
        .collect()
}

fn hex_lines(p: &Program) -> String {
    p.lines()
        .iter()
        .map(|l| {
            format!(
                "{}: {}",
                l.number,
                l.body
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
