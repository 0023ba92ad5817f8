//! The number routines' speed: the operations the Rugg/Feldman benchmarks lean on (BM3/BM4's
//! `K/K*K+K-K` and `K/2*3+4-5`, BM8's `K^2`, `LOG(K)`, `SIN(K)`), PRINT's FOUT and FIN.
//! Run with `cargo bench -p retro-cbm --bench float`.

use divan::{Bencher, black_box};
use retro_cbm::float::{Fac, Packed};

fn main() {
    divan::main();
}

/// K = 1..1000 as the benchmarks' loop counter holds them (stored, so no rounding byte).
fn ks() -> Vec<Fac> {
    (1..=1000).map(Fac::from_i16).collect()
}

fn n(s: &str) -> Fac {
    Fac::parse(s.as_bytes()).unwrap().value
}

#[divan::bench]
fn bm3_expression(b: Bencher<'_, '_>) {
    let ks = ks();
    b.bench(|| {
        for &k in &ks {
            let a = k
                .divided_by(k)
                .unwrap()
                .times(k)
                .unwrap()
                .plus(k)
                .unwrap()
                .minus(k);
            black_box(a.unwrap().to_packed().unwrap());
        }
    });
}

#[divan::bench]
fn bm4_expression(b: Bencher<'_, '_>) {
    let ks = ks();
    let (two, three, four, five) = (n("2"), n("3"), n("4"), n("5"));
    b.bench(|| {
        for &k in &ks {
            let a = k.divided_by(two).unwrap().times(three).unwrap();
            let a = a.plus(four).unwrap().minus(five).unwrap();
            black_box(a.to_packed().unwrap());
        }
    });
}

#[divan::bench]
fn bm8_functions(b: Bencher<'_, '_>) {
    let ks = ks();
    let two = n("2");
    b.bench(|| {
        for &k in &ks {
            black_box(k.pow(two).unwrap().to_packed().unwrap());
            black_box(k.log().unwrap().to_packed().unwrap());
            black_box(k.sin().unwrap().to_packed().unwrap());
        }
    });
}

#[divan::bench]
fn add_1000(b: Bencher<'_, '_>) {
    let ks = ks();
    b.bench(|| ks.iter().fold(Fac::ZERO, |acc, &k| acc.plus(k).unwrap()));
}

#[divan::bench]
fn multiply_1000(b: Bencher<'_, '_>) {
    let ks = ks();
    let x = n("1.0001");
    b.bench(|| {
        for &k in &ks {
            black_box(k.times(x).unwrap());
        }
    });
}

#[divan::bench]
fn fout_1000(b: Bencher<'_, '_>) {
    let values: Vec<Fac> = ks()
        .into_iter()
        .map(|k| Fac::ONE.divided_by(k).unwrap())
        .collect();
    b.bench(|| {
        for &v in &values {
            black_box(v.fout());
        }
    });
}

#[divan::bench]
fn fin_1000(b: Bencher<'_, '_>) {
    let texts: Vec<String> = (1..=1000).map(|i| format!("{}.{}E-3", i, i * 7)).collect();
    b.bench(|| {
        for t in &texts {
            black_box(Fac::parse(t.as_bytes()).unwrap());
        }
    });
}

#[divan::bench]
fn load_store_1000(b: Bencher<'_, '_>) {
    let packed: Vec<Packed> = ks().iter().map(|k| k.to_packed().unwrap()).collect();
    b.bench(|| {
        for &p in &packed {
            black_box(Fac::from_packed(p).to_packed().unwrap());
        }
    });
}
