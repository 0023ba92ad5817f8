//! The number routines against the C64 ROM, through goldens recorded from cbmbasic (the ROM
//! recompiled to C) by `tests/golden/record-floats.sh`.
//!
//! Each golden set is a list of BASIC programs generated here, deterministically, together
//! with the output our `retro_cbm::float` predicts for them. The recorder asks this file for the
//! programs (`write_programs`, an ignored test), runs them through cbmbasic and stores what it
//! printed (cursor-right shown as `;`, CR LF as a newline) in `tests/golden/floats/`; the tests
//! below compare our predictions with those recordings line by line. Sets:
//! - `fout`: PRINT of exact 5-byte values across the whole range (POKEd into a variable);
//! - `arith`: `+ - * /`, comparisons and mixed expressions on exact operands, printed and
//!   stored (the stored bytes are compared too);
//! - `funcs`: SQR, LOG, INT, EXP, SIN, COS, TAN, ATN, `^` on exact operands;
//! - `fin`: number literals and VAL strings, printed and stored;
//! - `rnd`: RND sequences after several seeds, as bytes;
//! - `edges`: hand-picked values at the edges of each routine;
//! - `errors`: one program per error the routines raise;
//! - `expressions`: the property test, random arithmetic expressions (100,000), stored
//!   gzip-compressed.

use retro_cbm::float::{Fac, FloatError, POWER_ON_SEED, Packed, rnd};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// One golden set: its programs and what we predict each prints.
struct Set {
    name: &'static str,
    programs: Vec<String>,
    expected: Vec<String>,
    /// For sets that print one line per case: what each line printed, for failure reports.
    labels: Vec<String>,
}

/// splitmix64: a fixed, dependency-free generator so the programs never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A packed value with an exponent in `exps` and a mantissa that is either random or made of
/// the byte patterns the routines treat specially (zero bytes, $FF runs, a lone top bit).
fn value(rng: &mut Rng, exps: (u8, u8), sign: Option<bool>) -> Packed {
    let exp = rng.range(exps.0 as i64, exps.1 as i64) as u8;
    let mut m = [0u8; 4];
    if rng.chance(50) {
        m = (rng.next() as u32).to_be_bytes();
    } else {
        for b in &mut m {
            *b = match rng.below(6) {
                0 => 0x00,
                1 => 0xFF,
                2 => 0x80,
                3 => 0x7F,
                4 => 0x01,
                _ => rng.next() as u8,
            };
        }
    }
    let neg = sign.unwrap_or_else(|| rng.chance(50));
    Packed([exp, (m[0] & 0x7F) | if neg { 0x80 } else { 0 }, m[1], m[2], m[3]])
}

/// What PRINT shows for one number (FOUT, then the cursor-right the recorder shows as `;`).
fn item(f: Fac) -> String {
    format!("{};", f.fout())
}

/// The five bytes of a stored value as the program's byte-printing subroutine shows them.
fn bytes_item(p: Packed) -> String {
    p.0.iter().map(|&b| item(Fac::from_u8(b))).collect()
}

fn stored(f: Result<Fac, FloatError>) -> Result<String, FloatError> {
    Ok(bytes_item(f?.to_packed()?))
}

/// A relational result as PRINT shows it: -1 or 0.
fn truth(b: bool) -> String {
    item(Fac::from_i16(if b { -1 } else { 0 }))
}

/// The error line the ROM prints (after a CR) when line `line` fails.
fn error_text(e: FloatError, line: u32) -> String {
    format!("\n?{e}  ERROR IN {line}\n")
}

/// Lines of a BASIC program, numbered from 10 in steps of 10 unless given.
#[derive(Default)]
struct Program {
    text: String,
    next: u32,
}

impl Program {
    fn line(&mut self, body: &str) -> u32 {
        if self.next == 0 {
            self.next = 10;
        }
        let n = self.next;
        let _ = writeln!(self.text, "{n} {body}");
        self.next += 10;
        n
    }
    fn numbered(&mut self, n: u32, body: &str) {
        let _ = writeln!(self.text, "{n} {body}");
    }
}

/// The frame of the byte-driven programs: A and B are the first variables, C the third; each
/// DATA record is a routine number (1..3), A's five bytes and B's five bytes; routine 900
/// prints C's bytes.
fn byte_program(cases: &[(u8, Packed, Packed)], routines: &[(u32, &[&str])]) -> String {
    let mut p = Program::default();
    p.numbered(10, "A=0:B=0:C=0:V=PEEK(45)+256*PEEK(46)+2:W=V+14");
    p.numbered(20, "READ N:IF N=0 THEN END");
    p.numbered(30, "FOR I=0 TO 9:READ D:POKE V+I-2*(I>4),D:NEXT");
    let targets: Vec<String> = routines.iter().map(|(n, _)| n.to_string()).collect();
    p.numbered(40, &format!("ON N GOSUB {}", targets.join(",")));
    p.numbered(50, "GOTO 20");
    for (start, lines) in routines {
        for (i, l) in lines.iter().enumerate() {
            p.numbered(start + i as u32, l);
        }
    }
    p.numbered(
        900,
        "PRINT PEEK(W);PEEK(W+1);PEEK(W+2);PEEK(W+3);PEEK(W+4):RETURN",
    );
    let mut n = 1000;
    for (r, a, b) in cases {
        let mut data: Vec<String> = vec![r.to_string()];
        data.extend(a.0.iter().chain(&b.0).map(|x| x.to_string()));
        p.numbered(n, &format!("DATA {}", data.join(",")));
        n += 1;
    }
    p.numbered(n, "DATA 0");
    p.text
}

const CASES_PER_PROGRAM: usize = 300;

fn fout_set() -> Set {
    let mut rng = Rng(0xF0_0F);
    let mut cases = Vec::new();
    // Every exponent, several mantissas each; then values near the 9/10 digit boundaries.
    for exp in 1..=255u8 {
        for _ in 0..4 {
            cases.push(value(&mut rng, (exp, exp), None));
        }
    }
    for &v in &[
        99_999_999.0f64,
        999_999_999.0,
        1e9,
        1e8,
        0.01,
        0.001,
        1.0,
        10.0,
        123_456_789.0,
    ] {
        let p = Fac::parse(format!("{v}").as_bytes()).unwrap().value;
        let base = p.to_packed().unwrap();
        let m = u32::from_be_bytes([base.0[1], base.0[2], base.0[3], base.0[4]]);
        for d in -8i64..=8 {
            let mm = (m as i64 + d) as u32 & 0x7FFF_FFFF;
            let b = mm.to_be_bytes();
            cases.push(Packed([base.0[0], b[0], b[1], b[2], b[3]]));
        }
    }
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    for chunk in cases.chunks(CASES_PER_PROGRAM) {
        let list: Vec<(u8, Packed, Packed)> = chunk.iter().map(|&a| (1, a, a)).collect();
        programs.push(byte_program(&list, &[(100, &["PRINT A:RETURN"])]));
        expected.push(chunk.iter().map(|&a| item(a.to_fac()) + "\n").collect::<String>());
    }
    Set {
        name: "fout",
        programs,
        expected,
        labels: Vec::new(),
    }
}

fn arith_set() -> Set {
    let mut rng = Rng(0xA817);
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    let routines: &[(u32, &[&str])] = &[(
        100,
        &[
            "PRINT A+B;A-B;A*B;A/B",
            "PRINT A-A*B;B+A/B;A*B-B;(A+B)*(A-B)",
            "PRINT A<B;A=B;A>B;A*B<=B;A+B>=A",
            "C=A+B:GOSUB 900:C=A-B:GOSUB 900",
            "C=A*B:GOSUB 900:C=A/B:GOSUB 900",
            "PRINT A+A*B;B-A*B:C=A+A*B:GOSUB 900:RETURN",
        ],
    )];
    for _ in 0..8 {
        let mut list = Vec::new();
        let mut exp = String::new();
        for _ in 0..CASES_PER_PROGRAM {
            let a = value(&mut rng, (0x60, 0xA0), None);
            let b = if rng.chance(10) {
                a
            } else if rng.chance(20) {
                // A*B with a rounding byte of $FF and A's exponent: A+A*B then takes the
                // equal-exponent path whose carry adds one to the rounding byte.
                let mut b = a;
                for _ in 0..20_000 {
                    b = value(&mut rng, (0x80, 0x81), None);
                    let p = a.to_fac().times(b.to_fac());
                    if p.is_ok_and(|p| p.ext == 0xFF && p.exp == a.0[0]) {
                        break;
                    }
                }
                b
            } else if rng.chance(40) {
                let e = (a.0[0] as i64 + rng.range(-40, 40)).clamp(0x60, 0xA0) as u8;
                value(&mut rng, (e, e), None)
            } else {
                value(&mut rng, (0x60, 0xA0), None)
            };
            list.push((1, a, b));
            exp += &arith_expected(a.to_fac(), b.to_fac());
        }
        programs.push(byte_program(&list, routines));
        expected.push(exp);
    }
    Set {
        name: "arith",
        programs,
        expected,
        labels: Vec::new(),
    }
}

fn arith_expected(a: Fac, b: Fac) -> String {
    let r = || -> Result<String, FloatError> {
        let mut s = String::new();
        s += &item(a.plus(b)?);
        s += &item(a.minus(b)?);
        s += &item(a.times(b)?);
        s += &item(a.divided_by(b)?);
        s += "\n";
        s += &item(a.minus(a.times(b)?)?);
        s += &item(b.plus(a.divided_by(b)?)?);
        s += &item(a.times(b)?.minus(b)?);
        s += &item(a.plus(b)?.times(a.minus(b)?)?);
        s += "\n";
        use std::cmp::Ordering::*;
        s += &truth(a.compare(b)? == Less);
        s += &truth(a.compare(b)? == Equal);
        s += &truth(a.compare(b)? == Greater);
        s += &truth(a.times(b)?.compare(b)? != Greater);
        s += &truth(a.plus(b)?.compare(a)? != Less);
        s += "\n";
        for f in [a.plus(b), a.minus(b), a.times(b), a.divided_by(b)] {
            s += &stored(f)?;
            s += "\n";
        }
        let ab = a.times(b)?;
        s += &item(a.plus(ab)?);
        s += &item(b.minus(ab)?);
        s += "\n";
        s += &stored(a.plus(ab))?;
        s += "\n";
        Ok(s)
    };
    r().unwrap_or_else(|e| format!("unexpected {e}\n"))
}

fn funcs_set() -> Set {
    let mut rng = Rng(0xF7C5);
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    let routines: &[(u32, &[&str])] = &[(
        100,
        &[
            "PRINT SQR(A);LOG(A);INT(A);INT(-A);A^(B/16)",
            "PRINT EXP(B);SIN(B);COS(B);TAN(B);ATN(B);INT(B)",
            "C=SQR(A):GOSUB 900:C=LOG(A):GOSUB 900:C=A^(B/16):GOSUB 900",
            "C=EXP(B):GOSUB 900:C=SIN(B):GOSUB 900:C=COS(B):GOSUB 900",
            "C=TAN(B):GOSUB 900:C=ATN(B):GOSUB 900:RETURN",
        ],
    )];
    for _ in 0..6 {
        let mut list = Vec::new();
        let mut exp = String::new();
        for _ in 0..CASES_PER_PROGRAM / 2 {
            let a = value(&mut rng, (0x60, 0x9E), Some(false));
            let b = value(&mut rng, (0x60, 0x86), None);
            list.push((1, a, b));
            exp += &funcs_expected(a.to_fac(), b.to_fac());
        }
        programs.push(byte_program(&list, routines));
        expected.push(exp);
    }
    Set {
        name: "funcs",
        programs,
        expected,
        labels: Vec::new(),
    }
}

fn funcs_expected(a: Fac, b: Fac) -> String {
    let r = || -> Result<String, FloatError> {
        let sixteen = Fac::from_u8(16);
        let pw = || a.pow(b.divided_by(sixteen)?);
        let mut s = String::new();
        s += &item(a.sqr()?);
        s += &item(a.log()?);
        s += &item(a.int());
        s += &item(a.negated().int());
        s += &item(pw()?);
        s += "\n";
        for f in [b.exp(), b.sin(), b.cos(), b.tan(), b.atn()] {
            s += &item(f?);
        }
        s += &item(b.int());
        s += "\n";
        for f in [
            a.sqr(),
            a.log(),
            pw(),
            b.exp(),
            b.sin(),
            b.cos(),
            b.tan(),
            b.atn(),
        ] {
            s += &stored(f)?;
            s += "\n";
        }
        Ok(s)
    };
    r().unwrap_or_else(|e| format!("unexpected {e}\n"))
}

/// Tokenize a literal as the cruncher does: `+` and `-` become their tokens.
fn crunched(lit: &str) -> Vec<u8> {
    lit.bytes()
        .map(|c| match c {
            b'+' => 0xAA,
            b'-' => 0xAB,
            c => c,
        })
        .collect()
}

fn random_literal(rng: &mut Rng) -> String {
    let mut s = String::new();
    let digits = rng.range(1, 14);
    let point = rng.range(-1, digits);
    for i in 0..digits {
        if i == point {
            s.push('.');
        }
        s.push((b'0' + rng.below(10) as u8) as char);
    }
    if rng.chance(40) {
        s.push('E');
        if rng.chance(50) {
            s.push('-');
        } else if rng.chance(30) {
            s.push('+');
        }
        s += &rng.range(0, 30).to_string();
    }
    s
}

const EDGE_LITERALS: &[&str] = &[
    "0",
    ".",
    "1E",
    "1E+",
    "1E-",
    ".5",
    "0.5",
    "00001",
    "4.9999999999",
    "999999999.4",
    "999999999.5",
    "999999999",
    "1000000000",
    "99999999.9",
    "99999999.95",
    "123456789",
    "1234567890",
    "1.23456789E+09",
    "1E9",
    "1E-9",
    "1E-10",
    "1E38",
    "1.7E38",
    "1.70141183E38",
    "1.70141183E+38",
    "2.93873588E-39",
    "2.9E-39",
    "1E-39",
    "1E-45",
    "1E-99",
    "1E-100",
    "1E-200",
    ".01",
    ".0099",
    ".001",
    "0.00999999999",
    "123.456E2",
    "3.14159265",
    "32767",
    "32768",
    "65535",
    "65536",
    "1 2 3",
    "1E 5",
    "1.5E  3",
    "12345678901234567890",
    ".000000000000000000000000000001",
];

const VAL_STRINGS: &[&str] = &[
    " 12 3",
    "ABC",
    "-5",
    "+5",
    "--5",
    "-.5",
    "1E",
    "1E-",
    "1E-3",
    "1E+3",
    "  -  1",
    ".",
    "-",
    "1.2.3",
    "9.99999999E+37",
    "-0",
    "1E-39",
    "  7  ",
    "5X",
    "E5",
];

fn fin_set() -> Set {
    let mut rng = Rng(0xF1_0E);
    let mut literals: Vec<String> = EDGE_LITERALS.iter().map(|s| s.to_string()).collect();
    for _ in 0..900 {
        literals.push(random_literal(&mut rng));
    }
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    let parse = |bytes: &[u8]| Fac::parse(bytes).map(|r| r.value);
    let fin_case = |f: Result<Fac, FloatError>| -> Option<String> {
        let f = f.ok()?;
        Some(item(f) + &stored(Ok(f)).ok()? + "\n")
    };
    let mut chunk_p = Program::default();
    let mut chunk_e = String::new();
    chunk_p.line("A=0:B=0:C=0:V=PEEK(45)+256*PEEK(46)+2:W=V+14");
    let flush = |p: &mut Program, e: &mut String, programs: &mut Vec<String>, exp: &mut Vec<String>| {
        p.numbered(60000, "END");
        p.numbered(
            60010,
            "PRINT PEEK(W);PEEK(W+1);PEEK(W+2);PEEK(W+3);PEEK(W+4):RETURN",
        );
        programs.push(std::mem::take(&mut p.text));
        exp.push(std::mem::take(e));
        p.next = 10;
        p.line("A=0:B=0:C=0:V=PEEK(45)+256*PEEK(46)+2:W=V+14");
    };
    let mut count = 0;
    for lit in &literals {
        // Literals that overflow are the errors set's business.
        let Some(e) = fin_case(parse(&crunched(lit))) else {
            continue;
        };
        chunk_p.line(&format!("C={lit}:PRINT {lit};:GOSUB 60010"));
        chunk_e += &e;
        count += 1;
        if count % 250 == 0 {
            flush(&mut chunk_p, &mut chunk_e, &mut programs, &mut expected);
        }
    }
    for s in VAL_STRINGS {
        let Some(e) = fin_case(parse(s.as_bytes())) else {
            continue;
        };
        chunk_p.line(&format!("C=VAL(\"{s}\"):PRINT VAL(\"{s}\");:GOSUB 60010"));
        chunk_e += &e;
    }
    flush(&mut chunk_p, &mut chunk_e, &mut programs, &mut expected);
    Set {
        name: "fin",
        programs,
        expected,
        labels: Vec::new(),
    }
}

fn rnd_set() -> Set {
    let mut rng = Rng(0x8ED);
    let mut seeds: Vec<String> = [
        "1",
        "2",
        ".5",
        "12345.678",
        "1E30",
        "1E-30",
        "3.14159265",
        "65535",
        "1.70141183E38",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..20 {
        seeds.push(random_literal(&mut rng));
    }
    let mut p = Program::default();
    let mut e = String::new();
    p.line("A=0:B=0:C=0:V=PEEK(45)+256*PEEK(46)+2:W=V+14");
    // From the power-on seed first.
    let mut seed = POWER_ON_SEED;
    let step = |arg: Fac, seed: &mut Packed| rnd(arg, seed, [0; 4]).unwrap();
    p.line("FOR I=1 TO 5:C=RND(1):PRINT C;:GOSUB 60010:NEXT");
    for _ in 0..5 {
        let c = step(Fac::ONE, &mut seed);
        e += &(item(c) + &bytes_item(c.to_packed().unwrap()) + "\n");
    }
    for s in &seeds {
        let Ok(lit) = Fac::parse(&crunched(s)) else {
            continue;
        };
        let c = step(lit.value.negated(), &mut seed);
        p.line(&format!("C=RND(-{s}):PRINT C;:GOSUB 60010"));
        e += &(item(c) + &bytes_item(c.to_packed().unwrap()) + "\n");
        p.line("FOR I=1 TO 6:C=RND(7):PRINT C;:GOSUB 60010:NEXT");
        for _ in 0..6 {
            let c = step(Fac::from_u8(7), &mut seed);
            e += &(item(c) + &bytes_item(c.to_packed().unwrap()) + "\n");
        }
    }
    p.numbered(60000, "END");
    p.numbered(
        60010,
        "PRINT PEEK(W);PEEK(W+1);PEEK(W+2);PEEK(W+3);PEEK(W+4):RETURN",
    );
    Set {
        name: "rnd",
        programs: vec![p.text],
        expected: vec![e],
        labels: Vec::new(),
    }
}

/// Hand-picked arguments at the edges of each routine (as BASIC text), with the Rust
/// evaluation of the same expression.
type Eval = fn(&[Fac]) -> Result<Fac, FloatError>;

const EDGES: &[(&str, &[&str], Eval)] = &[
    (
        "SQR",
        &["0", "1", "4", "2", "1E-38", "1.7E38", ".25", "1E10"],
        |a| a[0].sqr(),
    ),
    (
        "LOG",
        &[
            "1",
            "2",
            "1.0000001",
            ".9999999",
            "1E-38",
            "1.7E38",
            "2.718281828",
            ".5",
        ],
        |a| a[0].log(),
    ),
    (
        "EXP",
        &[
            "0",
            "1",
            "-1",
            "88",
            "88.02",
            "-88",
            "-88.7",
            "-89",
            "-100",
            "1E-10",
            "-1E-10",
            "87.33654",
            "-87.33654",
        ],
        |a| a[0].exp(),
    ),
    (
        "SIN",
        &[
            "0",
            "3.14159265",
            "6.28318531",
            "1.57079633",
            "-1.57079633",
            "1E-10",
            "1E9",
            "100",
            "-100",
            ".785398163",
        ],
        |a| a[0].sin(),
    ),
    (
        "COS",
        &["0", "3.14159265", "1.57079633", "-1", "1E9", "4.71238898"],
        |a| a[0].cos(),
    ),
    (
        "TAN",
        &["0", ".785398163", "1", "-1", "1.5", "3", "1E-10", "100"],
        |a| a[0].tan(),
    ),
    (
        "ATN",
        &[
            "0",
            "1",
            "-1",
            "1.0000001",
            ".9999999",
            "1E10",
            "-1E10",
            "1E-10",
            "1E38",
        ],
        |a| a[0].atn(),
    ),
    (
        "INT",
        &[
            "0",
            ".5",
            "-.5",
            "1E9",
            "-1E9",
            "2147483647.5",
            "-2147483648.5",
            "4294967296.7",
            "1E38",
            "-1E-38",
            "-1",
        ],
        |a| Ok(a[0].int()),
    ),
    ("ABS", &["-1", "1", "0"], |a| Ok(a[0].abs())),
    ("SGN", &["-1E-38", "1E38", "0"], |a| Ok(a[0].sgn())),
];

const EDGE_EXPRESSIONS: &[(&str, Eval)] = &[
    ("2^.5^2", |_| num("2").pow(num(".5"))?.pow(num("2"))),
    ("2^9", |_| num("2").pow(num("9"))),
    ("2^31", |_| num("2").pow(num("31"))),
    ("2^-1", |_| num("2").pow(num("1").negated())),
    ("(-2)^3", |_| num("2").negated().pow(num("3"))),
    ("(-2)^2", |_| num("2").negated().pow(num("2"))),
    ("0^0", |_| Fac::ZERO.pow(Fac::ZERO)),
    ("0^-1", |_| Fac::ZERO.pow(num("1").negated())),
    ("10^38", |_| num("10").pow(num("38"))),
    ("10^-38", |_| num("10").pow(num("38").negated())),
    ("1E38+1E38", |_| num("1E38").plus(num("1E38"))),
    ("1E-38/1E10", |_| num("1E-38").divided_by(num("1E10"))),
    ("1E-20*1E-20", |_| num("1E-20").times(num("1E-20"))),
    ("1-1", |_| num("1").minus(num("1"))),
    ("1/3-1/3", |_| {
        num("1")
            .divided_by(num("3"))?
            .minus(num("1").divided_by(num("3"))?)
    }),
    ("1/3*3", |_| num("1").divided_by(num("3"))?.times(num("3"))),
    ("1E30+1E-30", |_| num("1E30").plus(num("1E-30"))),
    ("1E-30+1E30", |_| num("1E-30").plus(num("1E30"))),
    ("1.5*1.5", |_| num("1.5").times(num("1.5"))),
    ("1.00000001*3", |_| num("1.00000001").times(num("3"))),
    ("-1/3", |_| num("1").negated().divided_by(num("3"))),
    ("-2^2", |_| num("2").pow(num("2")).map(Fac::negated)),
];

/// A literal as BASIC text evaluates it: a leading `-` is the unary minus.
fn num(s: &str) -> Fac {
    match s.strip_prefix('-') {
        Some(rest) => num(rest).negated(),
        None => Fac::parse(&crunched(s)).unwrap().value,
    }
}

fn edges_set() -> Set {
    let mut p = Program::default();
    let mut e = String::new();
    p.line("A=0:B=0:C=0:V=PEEK(45)+256*PEEK(46)+2:W=V+14");
    let mut add = |p: &mut Program, text: &str, f: Result<Fac, FloatError>| {
        if let Ok(v) = f
            && let Ok(s) = stored(Ok(v))
        {
            p.line(&format!("C={text}:PRINT {text};:GOSUB 60010"));
            e += &(item(v) + &s + "\n");
        }
    };
    for (func, args, eval) in EDGES {
        for a in *args {
            for neg in [false, true] {
                let text = if neg {
                    format!("{func}(-{a})")
                } else {
                    format!("{func}({a})")
                };
                let x = if neg { num(a).negated() } else { num(a) };
                add(&mut p, &text, eval(&[x]));
            }
        }
    }
    for (text, eval) in EDGE_EXPRESSIONS {
        add(&mut p, text, eval(&[]));
    }
    p.numbered(60000, "END");
    p.numbered(
        60010,
        "PRINT PEEK(W);PEEK(W+1);PEEK(W+2);PEEK(W+3);PEEK(W+4):RETURN",
    );
    Set {
        name: "edges",
        programs: vec![p.text],
        expected: vec![e],
        labels: Vec::new(),
    }
}

const ERRORS: &[(&str, Eval)] = &[
    ("1E38*10", |_| num("1E38").times(num("10"))),
    ("1E38+1E38+1E38", |_| {
        num("1E38").plus(num("1E38"))?.plus(num("1E38"))
    }),
    ("5/0", |_| num("5").divided_by(Fac::ZERO)),
    ("0/0", |_| Fac::ZERO.divided_by(Fac::ZERO)),
    ("LOG(0)", |_| Fac::ZERO.log()),
    ("LOG(-1)", |_| num("1").negated().log()),
    ("SQR(-1)", |_| num("1").negated().sqr()),
    ("(-8)^(1/3)", |_| {
        num("8").negated().pow(num("1").divided_by(num("3"))?)
    }),
    ("EXP(89)", |_| num("89").exp()),
    ("EXP(88.03)", |_| num("88.03").exp()),
    ("10^39", |_| num("10").pow(num("39"))),
    ("1E39", |_| Fac::parse(b"1E39").map(|r| r.value)),
    ("1E100", |_| Fac::parse(b"1E100").map(|r| r.value)),
    ("1.8E38", |_| Fac::parse(b"1.8E38").map(|r| r.value)),
    ("40000 AND 1", |_| num("40000").to_i16().map(Fac::from_i16)),
    ("-32768.5 AND 1", |_| {
        num("32768.5").negated().to_i16().map(Fac::from_i16)
    }),
    ("PEEK(-1)", |_| num("1").negated().to_u16().map(Fac::from_u16)),
    ("PEEK(65536)", |_| num("65536").to_u16().map(Fac::from_u16)),
    ("CHR$(256)", |_| num("256").to_u8().map(Fac::from_u8)),
    ("CHR$(-1)", |_| num("1").negated().to_u8().map(Fac::from_u8)),
];

/// Whole lines for the errors set: FIN counts the digits after the point in a byte, so 160
/// zeros after it make the scale wrap round to a huge positive power of ten (?OVERFLOW), while
/// 100 zeros still give a tiny number (0).
const ERROR_LINES: &[(&str, Eval)] = &[
    (
        "S$=\"0000000000\":S$=S$+S$+S$+S$:PRINT VAL(\".\"+S$+S$+S$+S$+\"1\")",
        |_| Fac::parse(format!(".{}1", "0".repeat(160)).as_bytes()).map(|r| r.value),
    ),
    (
        "S$=\"0000000000\":S$=S$+S$+S$+S$+S$:PRINT VAL(\".\"+S$+S$+\"1\")",
        |_| Fac::parse(format!(".{}1", "0".repeat(100)).as_bytes()).map(|r| r.value),
    ),
    (
        "S$=\"0000000000\":S$=S$+S$+S$:PRINT VAL(\".\"+S$+S$+S$+S$+\"17\")",
        |_| Fac::parse(format!(".{}17", "0".repeat(120)).as_bytes()).map(|r| r.value),
    ),
];

fn errors_set() -> Set {
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    let lines = ERRORS
        .iter()
        .map(|(text, eval)| (format!("PRINT {text}"), eval))
        .chain(ERROR_LINES.iter().map(|(l, eval)| (l.to_string(), eval)));
    for (line, eval) in lines {
        let mut p = Program::default();
        let n = p.line(&line);
        programs.push(p.text);
        expected.push(match eval(&[]) {
            Ok(v) => item(v) + "\n",
            Err(e) => error_text(e, n),
        });
    }
    Set {
        name: "errors",
        programs,
        expected,
        labels: Vec::new(),
    }
}

/// Values for the integer conversions, as BASIC text; each is evaluated by the same tree
/// evaluator as the property test.
const CONVERT_VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "-1.5",
    "1.5",
    "-.5",
    ".5",
    "32767",
    "32767.9",
    "-32768",
    "-32767.5",
    "1/3*3",
    "-1/3*3",
    "-(1/3*3)",
    "2.9999999999",
    "-2.9999999999",
    "-1E-30",
    "1E-30",
    "255.99999",
    "255",
    ".9999999999",
    "-.9999999999",
    "12345.678",
    "-12345.678",
    "1E4",
    "2^15-1",
    "-2^15",
    "SQR(2)*SQR(2)",
    "-SQR(2)*SQR(2)",
    "10*.1*10",
    "-(10*.1*10)",
];

fn convert_set() -> Set {
    let mut rng = Rng(0xC0_4E27);
    let mut values: Vec<String> = CONVERT_VALUES.iter().map(|s| s.to_string()).collect();
    while values.len() < 400 {
        let e = gen_expr(&mut rng, 2);
        let mut t = String::new();
        e.text(&mut t);
        // Short enough for the lines below to fit the C64's 80-character input line.
        if t.len() <= 25 {
            values.push(t);
        }
    }
    let mut cases: Vec<(Vec<String>, String)> = Vec::new();
    for text in &values {
        let mut lines = Vec::new();
        let mut out = String::new();
        let Ok(v) = parse_expr(text) else { continue };
        // A% rounds the FAC first (keeping the shifted rounding byte); AND's left operand was
        // pushed rounded; its right operand and NOT's take the FAC as it is.
        let int = |r: Result<i16, FloatError>| r.map(|i| item(Fac::from_i16(i)));
        let (Ok(var), Ok(left), Ok(right), Ok(not)) = (
            int(v.to_int_variable()),
            int(v.rounded().and_then(Fac::to_i16)),
            int(v.to_i16()),
            int(v.to_i16().map(|i| !i)),
        ) else {
            continue;
        };
        lines.push(format!("A%={text}:PRINT A%;({text})AND-1"));
        lines.push(format!("PRINT -1AND({text});NOT({text})"));
        out += &format!("{var}{left}\n{right}{not}\n");
        if let Ok(b) = v.to_u8() {
            lines.push(format!("POKE 49155,{text}:PRINT PEEK(49155)"));
            out += &format!("{}\n", item(Fac::from_u8(b)));
        }
        // PEEK truncates its address: 49152 plus the value's fraction (X is the stored value).
        let Ok(x) = v.to_packed().map(Packed::to_fac) else {
            cases.push((lines, out));
            continue;
        };
        let addr = Fac::from_u16(49152)
            .plus(x.abs())
            .and_then(|s| s.minus(x.abs().int()))
            .and_then(Fac::to_u16);
        if let Ok(a @ 49152..=49154) = addr {
            lines.push(format!("X={text}:PRINT PEEK(49152+ABS(X)-INT(ABS(X)))"));
            out += &format!("{}\n", item(Fac::from_u8([11u8, 22, 33][(a - 49152) as usize])));
        }
        cases.push((lines, out));
    }
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    for chunk in cases.chunks(100) {
        let mut p = Program::default();
        p.line("POKE 49152,11:POKE 49153,22:POKE 49154,33");
        for (lines, _) in chunk {
            for l in lines {
                p.line(l);
            }
        }
        programs.push(p.text);
        expected.push(chunk.iter().map(|(_, o)| o.as_str()).collect());
    }
    Set {
        name: "convert",
        programs,
        expected,
        labels: Vec::new(),
    }
}

/// Evaluate BASIC expression text our tree generator can produce, by re-reading it: only the
/// hand-written values use this, so a tiny precedence-climbing reader suffices.
fn parse_expr(text: &str) -> Result<Fac, FloatError> {
    struct R<'a> {
        b: &'a [u8],
        i: usize,
    }
    impl R<'_> {
        fn peek(&self) -> u8 {
            self.b.get(self.i).copied().unwrap_or(0)
        }
        fn expr(&mut self, min: u8) -> Result<Fac, FloatError> {
            let mut left = self.unary()?;
            loop {
                let op = self.peek();
                if !b"+-*/^".contains(&op) || op == 0 || prec(op) < min {
                    return Ok(left);
                }
                self.i += 1;
                let right = self.expr(prec(op) + 1)?;
                left = match op {
                    b'+' => left.plus(right)?,
                    b'-' => left.minus(right)?,
                    b'*' => left.times(right)?,
                    b'/' => left.divided_by(right)?,
                    _ => left.pow(right)?,
                };
            }
        }
        fn unary(&mut self) -> Result<Fac, FloatError> {
            match self.peek() {
                b'-' => {
                    self.i += 1;
                    Ok(self.expr(UNARY_MINUS_PREC)?.negated())
                }
                b'(' => {
                    self.i += 1;
                    let v = self.expr(0)?;
                    self.i += 1;
                    Ok(v)
                }
                c if c.is_ascii_alphabetic() => {
                    let start = self.i;
                    while self.peek().is_ascii_alphabetic() {
                        self.i += 1;
                    }
                    let name = std::str::from_utf8(&self.b[start..self.i]).unwrap().to_string();
                    self.i += 1;
                    let x = self.expr(0)?;
                    self.i += 1;
                    let f = FUNCS.iter().find(|f| **f == name).copied().unwrap_or("SGN");
                    Expr::Fun(f, Box::new(Expr::Lit(String::new()))).apply(x)
                }
                _ => {
                    let r = Fac::parse(&crunched_number(&self.b[self.i..]))?;
                    self.i += r.len;
                    Ok(r.value)
                }
            }
        }
    }
    let mut r = R {
        b: text.as_bytes(),
        i: 0,
    };
    r.expr(0)
}

/// The bytes of a number at the start of `b` as the cruncher leaves them (a sign after `E`
/// becomes its token), stopping at the first operator that is not such a sign.
fn crunched_number(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        let after_e = i > 0 && b[i - 1] == b'E';
        match c {
            b'+' | b'-' if after_e => out.push(if c == b'+' { 0xAA } else { 0xAB }),
            b'0'..=b'9' | b'.' | b'E' | b' ' => out.push(c),
            _ => break,
        }
    }
    out
}

// ---- The property test: random expressions -------------------------------------------------

/// A random arithmetic expression, evaluated as the ROM's evaluator would: a left operand is
/// pushed rounded, the right one stays in the FAC.
enum Expr {
    Lit(String),
    Neg(Box<Expr>),
    Bin(u8, Box<Expr>, Box<Expr>),
    Fun(&'static str, Box<Expr>),
}

/// BASIC precedence of the binary operators.
fn prec(op: u8) -> u8 {
    match op {
        b'+' | b'-' => 1,
        b'*' | b'/' => 2,
        _ => 4,
    }
}

const UNARY_MINUS_PREC: u8 = 3;
const FUNCS: &[&str] = &[
    "SQR", "LOG", "EXP", "SIN", "COS", "TAN", "ATN", "INT", "ABS", "SGN",
];

fn gen_literal(rng: &mut Rng) -> String {
    if rng.chance(30) {
        return rng.range(0, 20).to_string();
    }
    let mut s = random_literal(rng);
    s.truncate(12);
    if s.ends_with('E') || s.ends_with('-') || s.ends_with('+') {
        s.push('1');
    }
    s
}

fn gen_expr(rng: &mut Rng, depth: u32) -> Expr {
    if depth == 0 || rng.chance(25) {
        return Expr::Lit(gen_literal(rng));
    }
    match rng.below(10) {
        0 => Expr::Neg(Box::new(gen_expr(rng, depth - 1))),
        1 | 2 => Expr::Fun(
            FUNCS[rng.below(FUNCS.len() as u64) as usize],
            Box::new(gen_expr(rng, depth - 1)),
        ),
        _ => {
            let op = b"+-*/^+-*/+-*"[rng.below(12) as usize];
            Expr::Bin(
                op,
                Box::new(gen_expr(rng, depth - 1)),
                Box::new(gen_expr(rng, depth - 1)),
            )
        }
    }
}

impl Expr {
    /// The BASIC text, parenthesised only where precedence needs it.
    fn text(&self, out: &mut String) {
        match self {
            Expr::Lit(s) => out.push_str(s),
            Expr::Neg(e) => {
                out.push('-');
                e.child(out, UNARY_MINUS_PREC, false);
            }
            Expr::Fun(f, e) => {
                out.push_str(f);
                out.push('(');
                e.text(out);
                out.push(')');
            }
            Expr::Bin(op, l, r) => {
                let p = prec(*op);
                l.child(out, p, false);
                out.push(*op as char);
                r.child(out, p, true);
            }
        }
    }

    fn child(&self, out: &mut String, parent: u8, right: bool) {
        let mine = match self {
            Expr::Lit(_) | Expr::Fun(..) => 9,
            Expr::Neg(_) => UNARY_MINUS_PREC,
            Expr::Bin(op, ..) => prec(*op),
        };
        // A unary minus may not start the right operand of a higher operator without
        // parentheses in our text (the ROM would accept it, but it reads differently).
        let needs = mine < parent
            || (right && mine == parent)
            || (matches!(self, Expr::Neg(_)) && (right || parent >= UNARY_MINUS_PREC));
        if needs {
            out.push('(');
            self.text(out);
            out.push(')');
        } else {
            self.text(out);
        }
    }

    fn eval(&self) -> Result<Fac, FloatError> {
        Ok(match self {
            Expr::Lit(s) => Fac::parse(&crunched(s))?.value,
            Expr::Neg(e) => e.eval()?.negated(),
            Expr::Fun(_, e) => {
                let x = e.eval()?;
                self.apply(x)?
            }
            Expr::Bin(op, l, r) => {
                let a = l.eval()?;
                let b = r.eval()?;
                match op {
                    b'+' => a.plus(b)?,
                    b'-' => a.minus(b)?,
                    b'*' => a.times(b)?,
                    b'/' => a.divided_by(b)?,
                    // A negative base to a power of 2^32 or more: the ROM's sign comes from a
                    // stale zero-page byte (CHARAC, which INT leaves alone for such powers), so
                    // the result depends on what ran before. Left out here, and documented.
                    _ if a.is_negative() && b.exp >= 0xA0 => return Err(FloatError::Overflow),
                    _ => a.pow(b)?,
                }
            }
        })
    }

    /// A function node applied to its evaluated argument.
    fn apply(&self, x: Fac) -> Result<Fac, FloatError> {
        let Expr::Fun(f, _) = self else {
            return Ok(x);
        };
        Ok({
            match *f {
                "SQR" => x.sqr()?,
                "LOG" => x.log()?,
                "EXP" => x.exp()?,
                "SIN" => x.sin()?,
                "COS" => x.cos()?,
                "TAN" => x.tan()?,
                "ATN" => x.atn()?,
                "INT" => x.int(),
                "ABS" => x.abs(),
                _ => x.sgn(),
            }
        })
    }
}

/// How many expressions the property test holds (the issue asks for 100,000 in CI).
const EXPRESSIONS: usize = 100_000;
const EXPRESSIONS_PER_PROGRAM: usize = 500;

/// The expressions, as (BASIC text, our PRINT output) in order; those our routines reject
/// with an error are left out (the errors set covers errors).
fn expressions() -> Vec<(String, String)> {
    let mut rng = Rng(0xE7_9E55);
    let mut out = Vec::with_capacity(EXPRESSIONS);
    while out.len() < EXPRESSIONS {
        let depth = 1 + rng.below(4) as u32;
        let e = gen_expr(&mut rng, depth);
        let mut text = String::new();
        e.text(&mut text);
        if text.len() > 60 {
            continue;
        }
        if let Ok(v) = e.eval() {
            out.push((text, item(v) + "\n"));
        }
    }
    out
}

fn expressions_set() -> Set {
    let all = expressions();
    let labels = all.iter().map(|(t, _)| t.clone()).collect();
    let mut programs = Vec::new();
    let mut expected = Vec::new();
    for chunk in all.chunks(EXPRESSIONS_PER_PROGRAM) {
        let mut p = Program::default();
        let mut e = String::new();
        for (text, out) in chunk {
            p.line(&format!("PRINT {text}"));
            e += out;
        }
        programs.push(p.text);
        expected.push(e);
    }
    Set {
        name: "expressions",
        programs,
        expected,
        labels,
    }
}

// ---- Goldens --------------------------------------------------------------------------------

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/floats")
}

/// The recorded output of a set: all its programs' output, one after the other.
fn recorded(name: &str) -> String {
    let dir = golden_dir();
    let plain = dir.join(format!("{name}.out"));
    if let Ok(s) = std::fs::read_to_string(&plain) {
        return s;
    }
    let gz = dir.join(format!("{name}.out.gz"));
    let file = std::fs::File::open(&gz)
        .unwrap_or_else(|e| panic!("{}: {e} (run tests/golden/record-floats.sh)", gz.display()));
    let mut s = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut s)
        .unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
    s
}

/// Compare a set's predictions with its recording, line by line; report the first
/// differences with the program line that made them.
fn check(set: Set) {
    let golden = recorded(set.name);
    let ours: String = set.expected.concat();
    if golden == ours {
        return;
    }
    let mut report = String::new();
    let mut bad = 0;
    let g: Vec<&str> = golden.lines().collect();
    let o: Vec<&str> = ours.lines().collect();
    for i in 0..g.len().max(o.len()) {
        let (a, b) = (g.get(i).copied(), o.get(i).copied());
        if a != b {
            bad += 1;
            if bad <= 15 {
                let label = set.labels.get(i).map(String::as_str).unwrap_or("");
                let _ = writeln!(report, "line {i}: {label}\n  C64  {a:?}\n  ours {b:?}");
            }
        }
    }
    panic!(
        "{}: {bad} of {} lines differ from the C64 (cbmbasic)\n{report}",
        set.name,
        g.len()
    );
}

#[test]
fn fout_matches_the_c64() {
    check(fout_set());
}

#[test]
fn arithmetic_matches_the_c64() {
    check(arith_set());
}

#[test]
fn functions_match_the_c64() {
    check(funcs_set());
}

#[test]
fn fin_matches_the_c64() {
    check(fin_set());
}

#[test]
fn rnd_matches_the_c64() {
    check(rnd_set());
}

#[test]
fn edges_match_the_c64() {
    check(edges_set());
}

#[test]
fn integer_conversions_match_the_c64() {
    check(convert_set());
}

#[test]
fn errors_match_the_c64() {
    check(errors_set());
}

/// The property test: 100,000 random expressions print exactly what the C64 prints.
#[test]
fn random_expressions_match_the_c64() {
    check(expressions_set());
}

fn all_sets() -> Vec<Set> {
    vec![
        fout_set(),
        arith_set(),
        funcs_set(),
        fin_set(),
        rnd_set(),
        edges_set(),
        errors_set(),
        convert_set(),
        expressions_set(),
    ]
}

/// For the recorder: write every set's programs to `$RETRO_FLOAT_PROGRAMS` as
/// `SET-NNNN.bas`, to be run in name order.
#[test]
#[ignore = "run by tests/golden/record-floats.sh"]
fn write_programs() {
    let dir = PathBuf::from(
        std::env::var_os("RETRO_FLOAT_PROGRAMS").expect("RETRO_FLOAT_PROGRAMS names a directory"),
    );
    std::fs::create_dir_all(&dir).unwrap();
    for set in all_sets() {
        for (i, p) in set.programs.iter().enumerate() {
            std::fs::write(dir.join(format!("{}-{i:04}.bas", set.name)), p).unwrap();
        }
    }
}

/// The property test through the interpreter itself: the same 100,000 random expressions, each
/// in a `PRINT` statement of a program run by our C64 BASIC, print exactly what cbmbasic printed
/// (the recording `expressions_match_the_c64` also checks the float routines against).
#[test]
fn the_interpreter_prints_random_expressions_as_the_c64_does() {
    use retro_cbm::interp::{InputSource, Stop};
    use retro_cbm::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};
    let set = expressions_set();
    let golden = recorded(set.name);
    let mut ours = String::new();
    for listing in &set.programs {
        // Our listings are petcat text, where upper case is the shifted set: type it in lower case.
        let program = retro_cbm::Program::from_text(&listing.to_ascii_lowercase()).expect("tokenizes");
        let input = InputSource::Stream(Box::new(std::io::empty()));
        let mut m = CbmMachine::new(&program, input, Options::default()).expect("loads");
        let stop = m.run_to_end(100_000_000);
        assert!(matches!(stop, Some(Stop::End) | None), "{listing}: {stop:?}");
        // The recording shows the cursor-right PRINT sends after a number as ';'.
        let petscii: Vec<u8> = m
            .take_petscii()
            .iter()
            .map(|&b| if b == 0x1D { b';' } else { b })
            .collect();
        petscii_to_text(&petscii, ControlCodes::Omit, &mut ours);
    }
    let (g, o): (Vec<&str>, Vec<&str>) = (golden.lines().collect(), ours.lines().collect());
    let differ: Vec<String> = (0..g.len().max(o.len()))
        .filter(|&i| g.get(i) != o.get(i))
        .take(10)
        .map(|i| {
            format!(
                "{}: C64 {:?}, ours {:?}",
                set.labels.get(i).map_or("", String::as_str),
                g.get(i),
                o.get(i)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{} lines, first differences:\n{}",
        g.len(),
        differ.join("\n")
    );
    assert_eq!(g.len(), EXPRESSIONS);
}
