//! Unit tests of the number routines against facts the C64 shows (from the reference sheet's
//! ROM checks); the goldens recorded from cbmbasic cover the whole range.

use super::*;

fn num(s: &str) -> Fac {
    Fac::parse(s.as_bytes()).unwrap().value
}

fn show(f: Fac) -> String {
    f.fout().as_str().to_string()
}

#[test]
fn prints_as_the_c64_does() {
    assert_eq!(show(num("1").divided_by(num("3")).unwrap()), " .333333333");
    assert_eq!(show(num("-1").divided_by(num("3")).unwrap()), "-.333333333");
    assert_eq!(show(num("1E9")), " 1E+09");
    assert_eq!(show(num("123456789")), " 123456789");
    assert_eq!(show(num("1234567890")), " 1.23456789E+09");
    assert_eq!(show(num(".01")), " .01");
    assert_eq!(show(num(".0099")), " 9.9E-03");
    assert_eq!(show(num(".001")), " 1E-03");
    assert_eq!(show(num("1E-10")), " 1E-10");
    assert_eq!(show(num("999999999.4")), " 1E+09");
    assert_eq!(show(num("123.456E2")), " 12345.6");
    assert_eq!(show(num("1E-39")), " 0");
    assert_eq!(show(num("1.7E38")), " 1.7E+38");
    assert_eq!(show(num("4.9999999999")), " 5.00000001");
    assert_eq!(show(num("2").pow(num("31")).unwrap()), " 2.14748365E+09");
    assert_eq!(show(num("100").divided_by(num("3")).unwrap()), " 33.3333333");
    assert_eq!(show(Fac::from_i16(5)), " 5");
}

#[test]
fn functions_match_the_c64() {
    assert_eq!(show(num("2").sqr().unwrap()), " 1.41421356");
    assert_eq!(show(num("1").sin().unwrap()), " .841470985");
    assert_eq!(show(num("2").log().unwrap()), " .693147181");
    assert_eq!(show(num("1").exp().unwrap()), " 2.71828183");
    assert_eq!(show(num("1").atn().unwrap()), " .785398163");
    let two_pow_half = num("2").pow(num(".5")).unwrap();
    assert_eq!(show(two_pow_half.pow(num("2")).unwrap()), " 2");
    assert_eq!(show(num("2").pow(num("9")).unwrap()), " 512");
}

#[test]
fn integers_floor_and_check_their_range() {
    assert_eq!(num("-1.5").to_i16(), Ok(-2));
    assert_eq!(num("32767.9").to_i16(), Ok(32767));
    assert_eq!(num("32768").to_i16(), Err(FloatError::IllegalQuantity));
    assert_eq!(num("-32768").to_i16(), Ok(-32768));
    assert_eq!(num("-2.5").int().fout().as_str(), "-3");
    assert_eq!(num("65535").to_u16(), Ok(65535));
    assert_eq!(num("65536").to_u16(), Err(FloatError::IllegalQuantity));
    assert_eq!(num("-1").to_u16(), Err(FloatError::IllegalQuantity));
    assert_eq!(num("255.9").to_u8(), Ok(255));
    assert_eq!(num("256").to_u8(), Err(FloatError::IllegalQuantity));
}

#[test]
fn errors_are_the_roms() {
    assert_eq!(num("1E38").times(num("10")), Err(FloatError::Overflow));
    assert_eq!(num("5").divided_by(Fac::ZERO), Err(FloatError::DivisionByZero));
    assert_eq!(Fac::ZERO.log(), Err(FloatError::IllegalQuantity));
    assert_eq!(num("-1").sqr(), Err(FloatError::IllegalQuantity));
    assert_eq!(Fac::parse(b"1E100"), Err(FloatError::Overflow));
    assert_eq!(Fac::parse(b"1E-100").unwrap().value, Fac::ZERO);
}

#[test]
fn rnd_after_a_negative_seed() {
    let mut seed = POWER_ON_SEED;
    rnd(num("-1"), &mut seed, [0; 4]).unwrap();
    let a = rnd(Fac::ONE, &mut seed, [0; 4]).unwrap();
    let b = rnd(Fac::ONE, &mut seed, [0; 4]).unwrap();
    assert_eq!(show(a), " .328780872");
    assert_eq!(show(b), " .978964086");
}

#[test]
fn fin_reports_what_it_consumed() {
    let r = Fac::parse(b"12 3:PRINT").unwrap();
    assert_eq!((show(r.value), r.len), (" 123".to_string(), 4));
    let r = Fac::parse(b"1E").unwrap();
    assert_eq!((show(r.value), r.len), (" 1".to_string(), 2));
    let r = Fac::parse(b".").unwrap();
    assert_eq!((show(r.value), r.len), (" 0".to_string(), 1));
    let r = Fac::parse(b"+7").unwrap();
    assert_eq!((show(r.value), r.len), (" 7".to_string(), 2));
    let r = Fac::parse(b"1.2.3").unwrap();
    assert_eq!((show(r.value), r.len), (" 1.2".to_string(), 3));
}

#[test]
fn packing_round_trips_and_rounds() {
    let third = num("1").divided_by(num("3")).unwrap();
    let p = third.to_packed().unwrap();
    assert_eq!(p.0, [0x7F, 0x2A, 0xAA, 0xAA, 0xAB]);
    assert_eq!(Fac::from_packed(p).to_packed().unwrap(), p);
    assert_eq!(num("-1").to_packed().unwrap().0, [0x81, 0x80, 0, 0, 0]);
}

#[test]
fn comparisons_use_the_rounded_left_side() {
    use std::cmp::Ordering::*;
    assert_eq!(num("1").compare(num("2")), Ok(Less));
    assert_eq!(num("2").compare(num("1")), Ok(Greater));
    assert_eq!(num("-2").compare(num("1")), Ok(Less));
    assert_eq!(num("1.5").compare(num("1.5")), Ok(Equal));
}
