//! Numbers: conversions and the text forms PRINT and STR$ give them under an `@%` format.

use super::error::{self, BasicError};

/// A number as BASIC holds it: a 32-bit integer or a 64-bit float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i32),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Float to integer as BASIC converts for integer operands: truncation toward zero; out of the
/// 32-bit range is "Too big".
#[inline]
pub fn f64_to_i32(f: f64) -> Result<i32, BasicError> {
    let t = f.trunc();
    if (-2147483648.0..=2147483647.0).contains(&t) {
        Ok(t as i32)
    } else if t.is_nan() {
        Err(error::TOO_BIG)
    } else if (2147483648.0..=4294967295.0).contains(&t) {
        // RISC OS accepts unsigned 32-bit values where an integer is wanted (&FFFFFFFF-style
        // constants written in decimal), wrapping to the negative integer with the same bits.
        Ok(t as u32 as i32)
    } else {
        Err(error::TOO_BIG)
    }
}

/// The three number formats of `@%` byte 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    General,
    Exponent,
    Fixed,
}

/// A decoded `@%` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub style: Style,
    pub digits: u8,
    pub width: u8,
    /// Byte 3 bit 0: STR$ follows @% too.
    pub str_uses_format: bool,
}

/// Most significant digits BASIC V prints (its 5-byte floats hold about 9.6 decimal digits).
pub const MAX_DIGITS: u8 = 10;

impl Format {
    pub fn from_at(at: i32) -> Format {
        let at = at as u32;
        let style = match (at >> 16) & 0xFF {
            1 => Style::Exponent,
            2 => Style::Fixed,
            _ => Style::General,
        };
        Format {
            style,
            digits: ((at >> 8) & 0xFF) as u8,
            width: (at & 0xFF) as u8,
            str_uses_format: (at >> 24) & 1 != 0,
        }
    }
    /// The format STR$ uses: @%'s when its flag says so, otherwise G with maximum digits.
    pub fn for_str(at: i32) -> Format {
        let f = Format::from_at(at);
        if f.str_uses_format {
            f
        } else {
            Format {
                style: Style::General,
                digits: 0,
                width: 0,
                str_uses_format: false,
            }
        }
    }
}

/// Decimal digits (no trailing zeros stripped) and the power of ten of the first one, for `x > 0`
/// rounded to `sig` significant digits.
fn digits_of(x: f64, sig: usize) -> (Vec<u8>, i32) {
    let s = format!("{:.*e}", sig.saturating_sub(1), x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    (digits, exp.parse().unwrap_or(0))
}

/// Appends the text of `n` in format `f` (no field padding) to `out`.
pub fn format_num(out: &mut Vec<u8>, n: Num, f: Format) {
    let x = n.as_f64();
    if x.is_nan() {
        out.extend_from_slice(b"NaN");
        return;
    }
    if x.is_infinite() {
        out.extend_from_slice(if x < 0.0 { b"-Inf" } else { b"Inf" });
        return;
    }
    let digits = if f.digits == 0 || f.digits > MAX_DIGITS {
        MAX_DIGITS
    } else {
        f.digits
    } as usize;
    match f.style {
        Style::Fixed => {
            let places = f.digits.min(MAX_DIGITS) as usize;
            if x.abs() >= 1e10 {
                return format_num(
                    out,
                    n,
                    Format {
                        style: Style::General,
                        ..f
                    },
                );
            }
            let s = format!("{:.*}", places, x);
            // "-0.00" reads as a negative number that is not there.
            if s.starts_with('-') && s.bytes().all(|b| b == b'-' || b == b'0' || b == b'.') {
                out.extend_from_slice(&s.as_bytes()[1..]);
            } else {
                out.extend_from_slice(s.as_bytes());
            }
        }
        Style::Exponent => {
            if x < 0.0 {
                out.push(b'-');
            }
            let (d, e) = if x == 0.0 {
                (vec![b'0'; digits], 0)
            } else {
                digits_of(x.abs(), digits)
            };
            out.push(d[0]);
            if d.len() > 1 {
                out.push(b'.');
                out.extend_from_slice(&d[1..]);
            }
            out.push(b'E');
            out.extend_from_slice(e.to_string().as_bytes());
        }
        Style::General => {
            if x == 0.0 {
                out.push(b'0');
                return;
            }
            if let Num::Int(i) = n {
                // Integers below the digit limit print exactly, with no float rounding.
                if (i.unsigned_abs() as u64) < 10u64.pow(digits as u32) {
                    push_decimal(out, i);
                    return;
                }
            }
            if x < 0.0 {
                out.push(b'-');
            }
            let (mut d, e) = digits_of(x.abs(), digits);
            while d.len() > 1 && d.last() == Some(&b'0') {
                d.pop();
            }
            if (-4..digits as i32).contains(&e) {
                if e < 0 {
                    out.extend_from_slice(b"0.");
                    out.extend(std::iter::repeat_n(b'0', (-e - 1) as usize));
                    out.extend_from_slice(&d);
                } else {
                    let int_len = e as usize + 1;
                    if d.len() <= int_len {
                        out.extend_from_slice(&d);
                        out.extend(std::iter::repeat_n(b'0', int_len - d.len()));
                    } else {
                        out.extend_from_slice(&d[..int_len]);
                        out.push(b'.');
                        out.extend_from_slice(&d[int_len..]);
                    }
                }
            } else {
                out.push(d[0]);
                if d.len() > 1 {
                    out.push(b'.');
                    out.extend_from_slice(&d[1..]);
                }
                out.push(b'E');
                out.extend_from_slice(e.to_string().as_bytes());
            }
        }
    }
}

/// `i` in decimal, without the String that `to_string` would allocate (STR$ and PRINT of
/// integers are common).
fn push_decimal(out: &mut Vec<u8>, i: i32) {
    if i < 0 {
        out.push(b'-');
    }
    let mut buf = [0u8; 10];
    let mut n = i.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[at..]);
}

/// `n` as text in format `f`, as a String (tests and STR$).
pub fn num_to_string(n: Num, f: Format) -> String {
    let mut v = Vec::new();
    format_num(&mut v, n, f);
    String::from_utf8_lossy(&v).into_owned()
}

/// Reads a decimal number (digits, one point, an E exponent) at the start of `s`, as VAL and
/// the interpreter do: returns the number and how many bytes it used (0 if none).
pub fn parse_decimal(s: &[u8]) -> (Num, usize) {
    let mut i = 0;
    let mut int_only = true;
    let mut acc: i64 = 0;
    let mut overflow = false;
    while i < s.len() && s[i].is_ascii_digit() {
        acc = acc * 10 + (s[i] - b'0') as i64;
        if acc > i32::MAX as i64 {
            overflow = true;
            acc = i32::MAX as i64 + 1;
        }
        i += 1;
    }
    let int_end = i;
    if i < s.len() && s[i] == b'.' {
        int_only = false;
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < s.len() && s[i] == b'E' {
        let mut j = i + 1;
        if j < s.len() && (s[j] == b'-' || s[j] == b'+') {
            j += 1;
        }
        if j < s.len() && s[j].is_ascii_digit() {
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            int_only = false;
            i = j;
        }
    }
    if i == 0 || (i == 1 && s[0] == b'.') {
        return (Num::Int(0), i);
    }
    if int_only && !overflow {
        return (Num::Int(acc as i32), int_end);
    }
    // Rust parses ".5" and "1.E3" as BASIC writes them; the digits are plain ASCII.
    let text = std::str::from_utf8(&s[..i]).unwrap_or("0");
    (Num::Float(text.parse().unwrap_or(0.0)), i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g9(n: Num) -> String {
        num_to_string(n, Format::from_at(0x90A))
    }

    #[test]
    fn integers_print_as_to_string_does() {
        for i in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            123456789,
            i32::MAX,
            i32::MIN,
            i32::MIN + 1,
        ] {
            let mut v = Vec::new();
            push_decimal(&mut v, i);
            assert_eq!(v, i.to_string().into_bytes());
        }
        let str_fmt = Format::for_str(0x90A);
        assert_eq!(num_to_string(Num::Int(i32::MIN), str_fmt), "-2147483648");
        assert_eq!(num_to_string(Num::Int(-7), str_fmt), "-7");
    }

    #[test]
    fn general_format_matches_the_reference_sheet() {
        assert_eq!(g9(Num::Float(1.0 / 3.0)), "0.333333333");
        assert_eq!(g9(Num::Float(1e9)), "1E9");
        assert_eq!(g9(Num::Int(1234567890)), "1.23456789E9");
        assert_eq!(g9(Num::Int(123456789)), "123456789");
        assert_eq!(g9(Num::Float(0.0001)), "0.0001");
        assert_eq!(g9(Num::Float(0.000123)), "0.000123");
        assert_eq!(g9(Num::Float(0.00001)), "1E-5");
        assert_eq!(g9(Num::Float(0.000012)), "1.2E-5");
        assert_eq!(g9(Num::Float(2147483648.0)), "2.14748365E9");
        assert_eq!(g9(Num::Int(-2147483648)), "-2.14748365E9");
        assert_eq!(g9(Num::Float(6.0 / 2.0)), "3");
        assert_eq!(g9(Num::Float(-0.5)), "-0.5");
    }

    #[test]
    fn fixed_and_exponent_formats() {
        assert_eq!(
            num_to_string(Num::Float(4.56789), Format::from_at(0x20205)),
            "4.57"
        );
        assert_eq!(num_to_string(Num::Int(2), Format::from_at(0x20205)), "2.00");
        assert_eq!(
            num_to_string(Num::Float(4.56789), Format::from_at(0x1030A)),
            "4.57E0"
        );
        assert_eq!(num_to_string(Num::Int(12345), Format::from_at(0x1030A)), "1.23E4");
    }

    #[test]
    fn str_uses_ten_digits_unless_at_says_otherwise() {
        assert_eq!(
            num_to_string(Num::Float(1.0 / 3.0), Format::for_str(0x90A)),
            "0.3333333333"
        );
        assert_eq!(
            num_to_string(Num::Float(1.0 / 3.0), Format::for_str(0x0102_0203)),
            "0.33"
        );
    }

    #[test]
    fn decimal_parsing_keeps_integers_integer() {
        assert_eq!(parse_decimal(b"123+"), (Num::Int(123), 3));
        assert_eq!(parse_decimal(b"1.5x"), (Num::Float(1.5), 3));
        assert_eq!(parse_decimal(b"1E5"), (Num::Float(1e5), 3));
        assert_eq!(parse_decimal(b"1ELSE"), (Num::Int(1), 1));
        assert_eq!(parse_decimal(b".5"), (Num::Float(0.5), 2));
        assert_eq!(parse_decimal(b"2147483648"), (Num::Float(2147483648.0), 10));
    }
}
