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
    // The open range of the values that truncate into 32 bits (NaN is in neither): `as`
    // truncates, where `trunc` was a call into libm on every array subscript (5% of BM7).
    if f > -2_147_483_649.0 && f < 2_147_483_648.0 {
        Ok(f as i32)
    } else {
        // RISC OS: `x%=2^31` and `2^31 DIV 3` are Number too big (no unsigned wrap).
        Err(error::TOO_BIG)
    }
}

/// `@%="G10.3"`-style assignment: an optional `+` (STR$ uses @% too), the format letter (G, E or
/// F), the field width, then `.` and the digits. Parts left out keep their value in `old`.
pub fn at_from_string(old: i32, s: &[u8]) -> Result<i32, BasicError> {
    let mut b = old.to_le_bytes();
    let mut p = s.trim_ascii();
    if let Some(rest) = p.strip_prefix(b"+") {
        b[3] = 1;
        p = rest;
    } else {
        b[3] = 0;
    }
    let number = |p: &mut &[u8]| -> Option<u8> {
        let n = p.iter().take_while(|c| c.is_ascii_digit()).count();
        let (d, rest) = p.split_at(n);
        *p = rest;
        std::str::from_utf8(d).ok()?.parse::<u8>().ok()
    };
    match p.first().map(u8::to_ascii_uppercase) {
        Some(b'G') => b[2] = 0,
        Some(b'E') => b[2] = 1,
        Some(b'F') => b[2] = 2,
        _ => return Err(error::TYPE_MISMATCH),
    }
    p = &p[1..];
    if let Some(w) = number(&mut p) {
        b[0] = w;
    }
    if let Some(rest) = p.strip_prefix(b".") {
        p = rest;
        b[1] = number(&mut p).ok_or(error::TYPE_MISMATCH)?;
    }
    if !p.is_empty() {
        return Err(error::TYPE_MISMATCH);
    }
    Ok(i32::from_le_bytes(b))
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
///
/// An exact half rounds up (away from zero), as RISC OS's conversion does; Rust's formatting
/// (like Brandy's C printf) would round it to even (`0.125` to 2 digits: RISC OS `0.13`).
fn digits_of(x: f64, sig: usize) -> (Vec<u8>, i32) {
    let sig = sig.max(1);
    let s = format!("{:.*e}", sig - 1 + TIE_DIGITS, x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mut exp: i32 = exp.parse().unwrap_or(0);
    let all: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    if is_tie(&all[sig.min(all.len())..]) {
        let mut d = all[..sig].to_vec();
        if round_up(&mut d) {
            exp += 1;
        }
        return (d, exp);
    }
    let s = format!("{:.*e}", sig - 1, x);
    let (mant, e) = s.split_once('e').unwrap_or((&s, "0"));
    exp = e.parse().unwrap_or(0);
    (mant.bytes().filter(u8::is_ascii_digit).collect(), exp)
}

/// Extra digits looked at to tell an exact half from a value just either side of one (an
/// exact binary fraction that is a decimal tie ends within this many digits).
const TIE_DIGITS: usize = 40;

/// Whether the digits after the kept ones are exactly 5000...
fn is_tie(rest: &[u8]) -> bool {
    rest.first() == Some(&b'5') && rest[1..].iter().all(|&b| b == b'0')
}

/// Adds one in the last place of a digit string; true if it carried out of the first (the
/// digits become 100..0 with one more power of ten, kept at the same length).
fn round_up(d: &mut [u8]) -> bool {
    for c in d.iter_mut().rev() {
        if *c == b'9' {
            *c = b'0';
        } else {
            *c += 1;
            return false;
        }
    }
    if let Some(first) = d.first_mut() {
        *first = b'1';
    }
    true
}

/// `x` with `places` decimals, an exact half rounded away from zero (see [`digits_of`]); a
/// negative number that rounds to zero keeps its sign (`-0.00`), as on RISC OS and Brandy.
fn fixed(x: f64, places: usize) -> String {
    let long = format!("{:.*}", places + TIE_DIGITS, x.abs());
    let point = long.find('.').unwrap_or(long.len());
    let cut = point + 1 + places;
    if !is_tie(&long.as_bytes()[cut.min(long.len())..]) {
        return format!("{:.*}", places, x);
    }
    let mut digits: Vec<u8> = long.as_bytes()[..cut]
        .iter()
        .copied()
        .filter(u8::is_ascii_digit)
        .collect();
    let carried = round_up(&mut digits);
    if carried {
        digits.insert(0, b'1');
        digits[1] = b'0';
    }
    let int_len = digits.len() - places;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&digits[..int_len]).unwrap_or("0"));
    if places > 0 {
        out.push('.');
        out.push_str(std::str::from_utf8(&digits[int_len..]).unwrap_or(""));
    }
    out
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
            out.extend_from_slice(fixed(x, places).as_bytes());
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
            // Acorn's BASIC pads the exponent with spaces to three characters in E format
            // (`1.23E3  `, `1.23E-4 `), so columns of numbers line up; G format does not.
            // (BBC BASIC (Z80) 5.00 prints so; Brandy does not pad.)
            let exp = e.to_string();
            out.extend_from_slice(exp.as_bytes());
            out.extend(std::iter::repeat_n(b' ', 3usize.saturating_sub(exp.len())));
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
            // RISC OS prints plain decimals from the field precision down to 0.01 (exponent
            // -2); below that, E notation (`0.001` is `1E-3`). Brandy and BBC BASIC for SDL
            // switch at 1E-4, BBC BASIC (Z80) already at 0.1: neither is BASIC V here.
            if (-2..digits as i32).contains(&e) {
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
        assert_eq!(g9(Num::Float(0.0001)), "1E-4");
        assert_eq!(g9(Num::Float(0.000123)), "1.23E-4");
        assert_eq!(g9(Num::Float(0.01)), "0.01");
        assert_eq!(g9(Num::Float(0.0123)), "0.0123");
        assert_eq!(g9(Num::Float(0.001)), "1E-3");
        assert_eq!(g9(Num::Float(0.0099)), "9.9E-3");
        assert_eq!(g9(Num::Float(-0.001)), "-1E-3");
        assert_eq!(
            num_to_string(Num::Float(1.0 / 1024.0), Format::for_str(0x90A)),
            "9.765625E-4"
        );
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
            "4.57E0  "
        );
        assert_eq!(
            num_to_string(Num::Int(12345), Format::from_at(0x1030A)),
            "1.23E4  "
        );
        assert_eq!(
            num_to_string(Num::Float(-1.5e-5), Format::from_at(0x10309)),
            "-1.50E-5 "
        );
        assert_eq!(
            num_to_string(Num::Float(1e-10), Format::from_at(0x1020A)),
            "1.0E-10"
        );
    }

    #[test]
    fn at_percent_strings_set_the_parts_they_name() {
        assert_eq!(at_from_string(0x90A, b"F10.3"), Ok(0x2030A));
        assert_eq!(at_from_string(0x2030A, b"G"), Ok(0x0030A));
        assert_eq!(at_from_string(0x2030A, b"+E12"), Ok(0x0101030C));
        assert_eq!(at_from_string(0x90A, b"X10"), Err(error::TYPE_MISMATCH));
        assert_eq!(at_from_string(0x90A, b"G10.x"), Err(error::TYPE_MISMATCH));
    }

    #[test]
    fn exact_halves_round_up_and_negative_zero_keeps_its_sign() {
        let f2 = Format::from_at(0x2020A);
        assert_eq!(num_to_string(Num::Float(0.125), f2), "0.13");
        assert_eq!(num_to_string(Num::Float(-0.125), f2), "-0.13");
        assert_eq!(num_to_string(Num::Float(9.995), f2), "9.99"); // below the half in binary
        assert_eq!(num_to_string(Num::Float(99.995_f64.next_up()), f2), "100.00");
        assert_eq!(num_to_string(Num::Float(-0.004), f2), "-0.00");
        assert_eq!(num_to_string(Num::Float(0.004), f2), "0.00");
        assert_eq!(num_to_string(Num::Float(2.5), Format::from_at(0x2000A)), "3");
        assert_eq!(num_to_string(Num::Float(0.375), Format::from_at(0x2020A)), "0.38");
        assert_eq!(num_to_string(Num::Float(2.5), Format::from_at(0x1010A)), "3E0  ");
        assert_eq!(
            num_to_string(Num::Float(0.125), Format::from_at(0x1020A)),
            "1.3E-1 "
        );
        assert_eq!(num_to_string(Num::Float(9.5), Format::from_at(0x1010A)), "1E1  ");
        assert_eq!(num_to_string(Num::Float(0.125), Format::from_at(0x0020A)), "0.13");
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
    fn floats_truncate_toward_zero_into_32_bits_or_are_too_big() {
        for (f, i) in [
            (2147483647.9, 2147483647),
            (-2147483648.9, -2147483648),
            (-0.9, 0),
            (7.99, 7),
            (-7.99, -7),
        ] {
            assert_eq!(f64_to_i32(f).ok(), Some(i), "{f}");
        }
        for f in [
            2147483648.0,
            -2147483649.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert!(f64_to_i32(f).is_err(), "{f}");
        }
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
