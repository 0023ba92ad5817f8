//! Numbers as text: FIN (reading a number from program text or a VAL string, digit by digit
//! through MUL10 and ADDACC as the ROM does, with its quirks) and FOUT (the text PRINT and STR$
//! show, by scaling into 1E8..1E9 and peeling digits off with the ROM's table).

use super::arith::{div10, fadd, fcomp, fmult, mul10, qint};
use super::funcs::HALF;
use super::{Fac, FloatResult, Packed};

/// The result of [`Fac::parse`]: the value and how many bytes the ROM's CHRGET moved past
/// (the index of the first byte that is not part of the number; trailing spaces are skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinResult {
    /// The number, in the FAC (its rounding byte can be non-zero).
    pub value: Fac,
    /// Bytes consumed.
    pub len: usize,
}

const TOKEN_PLUS: u8 = 0xAA;
const TOKEN_MINUS: u8 = 0xAB;

/// CHRGET over a byte slice: the end of the slice reads as the 0 that ends a line.
struct Chrget<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Chrget<'_> {
    fn cur(&self) -> u8 {
        self.bytes.get(self.pos).copied().unwrap_or(0)
    }
    /// Skip spaces at the current position (CHRGOT after CHRGET's skipping).
    fn skip_spaces(&mut self) {
        while self.cur() == b' ' {
            self.pos += 1;
        }
    }
    fn next(&mut self) -> u8 {
        if self.pos < self.bytes.len() {
            self.pos += 1;
        }
        self.skip_spaces();
        self.cur()
    }
}

fn is_digit(c: u8) -> bool {
    c.is_ascii_digit()
}

impl Fac {
    /// FIN: read a number from `bytes` (program text or a VAL string) as the ROM does: leading
    /// spaces and spaces between digits skipped, a leading `+` or `-`, digits, one `.`, `E`
    /// followed by an optional sign (character or token) and digits. `1E` and `.` are fine (the
    /// missing parts count as zero). An exponent of 100 or more is ?OVERFLOW when positive and
    /// zero when negative; a value beyond the range is ?OVERFLOW.
    pub fn parse(bytes: &[u8]) -> FloatResult<FinResult> {
        let mut g = Chrget { bytes, pos: 0 };
        g.skip_spaces();
        let mut c = g.cur();
        let mut f = Fac::ZERO;
        let mut negative = false;
        let mut expon: u8 = 0;
        let mut indx: u8 = 0;
        let mut dots: u8 = 0;
        let mut exp_negative = false;
        if c == b'-' {
            negative = true;
            c = g.next();
        } else if c == b'+' {
            c = g.next();
        }
        let mut has_exponent = false;
        loop {
            if is_digit(c) {
                // FIN9
                if dots != 0 {
                    indx = indx.wrapping_add(1);
                }
                f = mul10(f)?;
                f = add_digit(f, c - b'0')?;
                c = g.next();
                continue;
            }
            if c == b'.' {
                dots += 1;
                if dots == 1 {
                    c = g.next();
                    continue;
                }
                break;
            }
            if c == b'E' {
                has_exponent = true;
                c = g.next();
                if c == TOKEN_MINUS || c == b'-' {
                    exp_negative = true;
                    c = g.next();
                } else if c == TOKEN_PLUS || c == b'+' {
                    c = g.next();
                }
                // GETEXP
                while is_digit(c) {
                    if expon < 10 {
                        expon = expon * 10 + (c - b'0');
                    } else if exp_negative {
                        expon = 100;
                    } else {
                        return Err(super::FloatError::Overflow);
                    }
                    c = g.next();
                }
            }
            break;
        }
        let a = if has_exponent && exp_negative {
            0u8.wrapping_sub(expon)
        } else {
            expon
        };
        let mut e = a.wrapping_sub(indx);
        while e != 0 {
            if e & 0x80 == 0 {
                f = mul10(f)?;
                e -= 1;
            } else {
                f = div10(f)?;
                e = e.wrapping_add(1);
            }
        }
        if negative {
            f = f.negated();
        }
        Ok(FinResult { value: f, len: g.pos })
    }
}

/// ADDACC: FAC rounded into ARG, plus a digit.
fn add_digit(f: Fac, d: u8) -> FloatResult<Fac> {
    fadd(f.rounded()?, Fac::from_u8(d))
}

/// The text FOUT makes: at most 1 + 11 + 4 bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FoutText {
    buf: [u8; 20],
    len: u8,
}

impl FoutText {
    /// The bytes (ASCII, which is PETSCII here).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits, signs, '.', 'E' and, for impossible exponents, ':'..'@'.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
    fn push(&mut self, b: u8) {
        if (self.len as usize) < self.buf.len() {
            self.buf[self.len as usize] = b;
            self.len += 1;
        }
    }
}

impl std::fmt::Debug for FoutText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl std::fmt::Display for FoutText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Fac {
    /// The ROM's FOUT text, as STR$ gives it (` 1`, `-1.5`, ` .333333333`, ` 1E+10`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.fout().as_str())
    }
}

const fn p(b: [u8; 5]) -> Packed {
    Packed(b)
}
const BILLION: Fac = Fac {
    exp: 0x9E,
    mant: 0xEE6B_2800,
    neg: false,
    ext: 0,
};
const N999999999: Packed = p([0x9E, 0x6E, 0x6B, 0x27, 0xFD]);
const N99999999_9: Packed = p([0x9B, 0x3E, 0xBC, 0x1F, 0xFD]);

/// DECTBL: powers of ten from 1E8 down to 1 with alternating signs, as 32-bit integers.
const DECTBL: [u32; 9] = [
    (-100_000_000i32) as u32,
    10_000_000,
    (-1_000_000i32) as u32,
    100_000,
    (-10_000i32) as u32,
    1_000,
    (-100i32) as u32,
    10,
    (-1i32) as u32,
];

/// How many scaling steps FOUT may take before it gives up looking for 1E8..1E9 (the ROM's
/// loop always ends far sooner; the cap only guarantees no hang).
const MAX_SCALE_STEPS: u32 = 200;

impl Fac {
    /// FOUT: the text PRINT and STR$ show: a space or `-`, then up to nine significant digits
    /// (` 1`, `-1.5`, ` .333333333`, ` .01`), or scientific notation below .01 and from 1E9
    /// (` 1E+10`, ` 1.2E-03`). PRINT adds a cursor-right after it on the screen.
    pub fn fout(self) -> FoutText {
        let mut out = FoutText { buf: [0; 20], len: 0 };
        out.push(if self.neg { b'-' } else { b' ' });
        if self.exp == 0 {
            out.push(b'0');
            return out;
        }
        // FOUT sets the sign byte to the sign character, whose top bit is clear: the rest
        // works on the magnitude.
        let mut f = Fac { neg: false, ..self };
        let mut indx: u8 = 0;
        if f.exp <= 0x80 {
            f = fmult(BILLION, f).unwrap_or(f);
            indx = 0xF7; // -9
        }
        // Scale until 99999999.9 < FAC <= 999999999, rounding by adding .5 first unless it
        // hit 999999999 exactly.
        #[derive(Clone, Copy)]
        enum Step {
            Top,
            Low,
            Div,
            AddHalf,
        }
        let mut step = Step::Top;
        for _ in 0..MAX_SCALE_STEPS {
            step = match step {
                Step::Top => match fcomp(f, N999999999) {
                    0 => break,
                    1 => Step::Div,
                    _ => Step::Low,
                },
                Step::Low => {
                    if fcomp(f, N99999999_9) == 1 {
                        Step::AddHalf
                    } else {
                        f = mul10(f).unwrap_or(f);
                        indx = indx.wrapping_sub(1);
                        if indx != 0 { Step::Low } else { Step::Div }
                    }
                }
                Step::Div => {
                    f = div10(f).unwrap_or(f);
                    indx = indx.wrapping_add(1);
                    if indx != 0 { Step::Top } else { Step::AddHalf }
                }
                Step::AddHalf => {
                    f = fadd(HALF, f).unwrap_or(f);
                    break;
                }
            };
        }
        let mut n = if f.exp >= 0xA0 { u32::MAX } else { qint(f) as u32 };

        // Where the decimal point goes, and the exponent to print.
        let mut x: u8 = 1;
        let a = indx.wrapping_add(10);
        let expon: u8 = if a & 0x80 != 0 || a >= 11 {
            a.wrapping_sub(2)
        } else {
            x = a.wrapping_sub(1);
            0
        };
        let mut point = x;
        if x == 0 || x & 0x80 != 0 {
            out.push(b'.');
            if x != 0 {
                out.push(b'0');
            }
        }
        // Nine digits: add the alternating powers of ten until the sign flips.
        let mut cnt: u8 = 0x80;
        for &t in &DECTBL {
            let mut carry;
            loop {
                let (r, c) = n.overflowing_add(t);
                n = r;
                carry = c;
                cnt = cnt.wrapping_add(1);
                let keep_going = if carry { cnt & 0x80 != 0 } else { cnt & 0x80 == 0 };
                if !keep_going {
                    break;
                }
            }
            let ch = if carry {
                let s = (!cnt) as u16 + 0x0A + 1;
                ((s as u8) as u16 + 0x2F + (s >> 8)) as u8
            } else {
                cnt.wrapping_add(0x2F)
            };
            out.push(ch & 0x7F);
            point = point.wrapping_sub(1);
            if point == 0 {
                out.push(b'.');
            }
            cnt = !ch & 0x80;
        }
        // Drop trailing zeros, then a trailing point.
        while out.len > 1 && out.buf[out.len as usize - 1] == b'0' {
            out.len -= 1;
        }
        if out.len > 1 && out.buf[out.len as usize - 1] == b'.' {
            out.len -= 1;
        }
        if expon != 0 {
            let (sign, v) = if expon & 0x80 != 0 {
                (b'-', expon.wrapping_neg())
            } else {
                (b'+', expon)
            };
            out.push(b'E');
            out.push(sign);
            out.push(b'0' + v / 10);
            out.push(b'0' + v % 10);
        }
        out
    }
}
