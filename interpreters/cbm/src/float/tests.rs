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

/// CHARAC ($07) as the C64 leaves it (tests/corpus/charac_scratch.bas and
/// pow_negative_huge.bas show the same in cbmbasic).
#[test]
fn charac_is_written_and_read_as_the_rom_does() {
    let mut c = 7;
    num("-3.5").int_charac(&mut c);
    assert_eq!(c, 252);
    num("3E9").int_charac(&mut c);
    assert_eq!(c, 252, "INT of 2^31 and more leaves CHARAC alone");
    num("3").exp_charac(&mut c).unwrap();
    assert_eq!(c, 4);
    num("100").sin_charac(&mut c).unwrap();
    assert_eq!(c, 15);
    // (-1)^(2^32): the power's INT leaves CHARAC, so its low bit is the sign.
    let minus_one = num("1").negated();
    let big = num("4294967296");
    let mut odd = 5;
    assert_eq!(show(minus_one.pow_charac(big, &mut odd).unwrap()), "-1");
    let mut even = 4;
    assert_eq!(show(minus_one.pow_charac(big, &mut even).unwrap()), " 1");
    // Below 2^31 the power's own low byte decides, whatever was there.
    let mut any = 5;
    assert_eq!(
        show(minus_one.pow_charac(num("2147483646"), &mut any).unwrap()),
        " 1"
    );
    assert_eq!(show(minus_one.pow(big).unwrap()), " 1", "pow assumes CHARAC 0");
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

mod properties {
    //! Properties that hold for any input, including FACs no ROM routine would make (the
    //! fields are public): nothing panics, and exact cases are exact.
    use super::super::*;
    use proptest::prelude::*;

    fn any_fac() -> impl Strategy<Value = Fac> {
        (any::<u8>(), any::<u32>(), any::<bool>(), any::<u8>()).prop_map(|(exp, mant, neg, ext)| Fac {
            exp,
            mant,
            neg,
            ext,
        })
    }

    fn stored_value() -> impl Strategy<Value = Fac> {
        any::<[u8; 5]>().prop_map(|b| Fac::from_packed(Packed(b)))
    }

    fn f64_of(p: Fac) -> f64 {
        p.to_f64()
    }

    proptest! {
        /// NEXT's whole-number path (interp/stmt.rs) stores what FADD and MOVMF store: for
        /// any two whole numbers below 2^31 whose sum is not zero, and any stored bytes that
        /// read as a whole number are that number's own bytes; two whole numbers compare (FCOMP)
        /// as integers do.
        #[test]
        fn whole_number_sums_are_the_roms(
            a in -(1i64 << 31) + 1..(1i64 << 31),
            b in -(1i64 << 31) + 1..(1i64 << 31),
            bytes in any::<[u8; 5]>(),
        ) {
            if let (Some(pa), Some(pb), Some(sum)) =
                (Packed::from_whole(a), Packed::from_whole(b), Packed::from_whole(a + b))
            {
                prop_assert_eq!(pa.to_whole(), Some(a));
                let rom = Fac::from_packed(pb).plus(Fac::from_packed(pa)).unwrap().to_packed().unwrap();
                prop_assert_eq!(sum, rom);
            }
            // And NEXT compares a whole limit with the whole sum as integers: FCOMP agrees.
            if let (Some(pa), Some(pb)) = (Packed::from_whole(a), Packed::from_whole(b)) {
                prop_assert_eq!(pa.compare(Fac::from_packed(pb)), a.cmp(&b));
            }
            let p = Packed(bytes);
            if let Some(v) = p.to_whole() {
                prop_assert_eq!(Packed::from_whole(v), Some(p));
                prop_assert_eq!(Fac::from_packed(p).to_f64(), v as f64);
            } else if p.0[0] != 0 {
                let f = Fac::from_packed(p).to_f64();
                prop_assert!(f.fract() != 0.0 || f.abs() >= 2f64.powi(31), "{f} is whole");
            }
        }

        /// FMULT's MULTIPLY2 (arith.rs) as one multiply-add gives what the ROM's eight
        /// shift-and-add steps give: the same result and rounding byte, whatever they held.
        #[test]
        fn multiply2_is_one_multiply_add(result in any::<u32>(), a in any::<u32>(), byte in any::<u8>(), ext in any::<u8>()) {
            let (mut r, mut e, mut bits) = (result, ext, byte);
            for _ in 0..8 {
                let c = if bits & 1 != 0 {
                    let (sum, c) = r.overflowing_add(a);
                    r = sum;
                    c
                } else {
                    false
                };
                bits >>= 1;
                e = (e >> 1) | ((r as u8) << 7);
                r = (r >> 1) | ((c as u32) << 31);
            }
            prop_assert_eq!(super::super::arith::multiply2(result, a, byte), (r, e));
        }

        /// FMULT's stray-shift check at once (arith.rs `stray_bit`) is the ROM's byte-by-byte
        /// walk with its carry, for any multiplier bytes (zero bytes made common) and carry.
        #[test]
        fn stray_bit_at_once_is_the_stepwise_walk(
            bytes in proptest::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 5),
            carry in any::<bool>(),
        ) {
            let m = [bytes[0], bytes[1], bytes[2], bytes[3], bytes[4]];
            prop_assert_eq!(
                super::super::arith::stray_bit(&m),
                super::super::arith::stray_bit_stepwise(&m, carry)
            );
        }

        /// NORMALIZE_FAC2 by leading zeros (arith.rs `normalize`) is the ROM's loop: byte
        /// shifts while the top byte is zero, giving up after four, then bit shifts; zero when
        /// the shifts reach the exponent. Values with many leading zeros made common.
        #[test]
        fn normalize_at_once_is_the_rom_loop(
            exp in any::<u8>(),
            neg in any::<bool>(),
            v in any::<u64>(),
            down in 0u32..48,
        ) {
            let v = (v & ((1 << 40) - 1)) >> down;
            let mut w = v;
            let mut shift = 0u32;
            let want = 'rom: {
                while w >> 32 == 0 {
                    w = (w << 8) & ((1 << 40) - 1);
                    shift += 8;
                    if shift == 32 {
                        break 'rom (0, false, w);
                    }
                }
                while w >> 39 == 0 {
                    w <<= 1;
                    shift += 1;
                }
                if shift >= u32::from(exp) { (0, false, w) } else { (exp - shift as u8, neg, w) }
            };
            let got = super::super::arith::normalize(exp, neg, v);
            prop_assert_eq!((got.exp, got.neg, (u64::from(got.mant) << 8) | u64::from(got.ext)), want);
        }

        #[test]
        fn fin_never_panics_and_stays_in_bounds(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
            if let Ok(r) = Fac::parse(&bytes) {
                prop_assert!(r.len <= bytes.len());
            }
        }

        #[test]
        fn every_routine_copes_with_any_fac(a in any_fac(), b in any_fac()) {
            let _ = (a.plus(b), a.minus(b), a.times(b), a.divided_by(b), a.pow(b), a.compare(b));
            let _ = (a.sqr(), a.log(), a.exp(), a.sin(), a.cos(), a.tan(), a.atn());
            let _ = (a.int(), a.abs(), a.sgn(), a.negated(), a.to_packed(), a.round());
            let _ = (a.to_i16(), a.to_u16(), a.to_u8());
            let text = a.fout();
            prop_assert!(text.as_bytes().len() <= 16, "{:?}", text);
            let mut seed = Packed([a.exp, a.mant as u8, b.exp, b.mant as u8, a.ext]);
            let _ = rnd(a, &mut seed, [b.ext, b.exp, a.ext, a.exp]);
        }

        #[test]
        fn memory_form_round_trips(b in any::<[u8; 5]>()) {
            prop_assume!(b[0] != 0);
            prop_assert_eq!(Fac::from_packed(Packed(b)).to_packed(), Ok(Packed(b)));
        }

        #[test]
        fn integers_convert_and_print_exactly(v in -999_999_999i32..=999_999_999) {
            let f = Fac::from_i32(v);
            prop_assert_eq!(f.to_f64(), v as f64);
            prop_assert_eq!(f.int(), f);
            let want = if v < 0 { format!("{v}") } else { format!(" {v}") };
            prop_assert_eq!(f.fout().to_string(), want);
            if let Ok(i) = i16::try_from(v) {
                prop_assert_eq!(f.to_i16(), Ok(i));
            } else {
                prop_assert_eq!(f.to_i16(), Err(FloatError::IllegalQuantity));
            }
        }

        #[test]
        fn comparison_orders_stored_values(a in stored_value(), b in stored_value()) {
            let want = f64_of(a).partial_cmp(&f64_of(b)).unwrap();
            prop_assert_eq!(a.compare(b), Ok(want));
        }

        #[test]
        fn sums_and_products_are_close_to_exact(a in stored_value(), b in stored_value()) {
            for (got, exact) in [
                (a.plus(b), f64_of(a) + f64_of(b)),
                (a.times(b), f64_of(a) * f64_of(b)),
            ] {
                // Outside the range (or underflowing) is the goldens' business.
                if let Ok(g) = got
                    && exact.abs() > 1e-37
                    && exact.abs() < 1e37
                {
                    let err = (f64_of(g.to_packed().unwrap().to_fac()) - exact).abs();
                    // Sums are within an ulp; products can lose a few low bits more to FMULT's
                    // stray shift (a ROM bug the goldens pin down exactly).
                    prop_assert!(err <= exact.abs() * 2f64.powi(-22), "{a:?} {b:?} {g:?} {exact}");
                }
            }
        }
    }
}

#[test]
fn integer_variables_round_first_but_int_does_not() {
    // Recorded from cbmbasic: A%=23/(1/5) is 115, INT(23/(1/5)) is 114, A%=-1/3*3 is -2.
    let q = num("23")
        .divided_by(num("1").divided_by(num("5")).unwrap())
        .unwrap();
    assert_eq!(q.to_int_variable(), Ok(115));
    assert_eq!(show(q.int()), " 114");
    assert_eq!(q.to_i16(), Ok(114));
    let m = num("1")
        .negated()
        .divided_by(num("3"))
        .unwrap()
        .times(num("3"))
        .unwrap();
    assert_eq!(m.to_int_variable(), Ok(-2));
    assert_eq!(m.rounded().unwrap().to_i16(), Ok(-1));
}
