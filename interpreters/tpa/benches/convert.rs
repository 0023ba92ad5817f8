//! Converter speed on the benchmark sprite: 17x32 pixels, all three colours, every row
//! full, plus the robot sprite (`cargo bench -p retro-tpa`). Before timing, it prints pieces per
//! pixel, the figure docs/tetris-printer.md compares with the seed's.

use divan::Bencher;
use retro_tpa::convert::convert;
use retro_tpa::image::{DEFAULT_PALETTE, Image};

fn main() {
    for (name, image) in [
        ("17x32 three colours", big()),
        ("17x32 three colours, stripes 4 wide", wide()),
        ("robot 16x16", robot()),
    ] {
        let c = convert(&image).expect("the benchmark sprites print");
        let s = c.stats;
        println!(
            "{name}: {} drops for {} pixels = {:.2} pieces per pixel; {} passes, {} platforms, {} searched, {} flipped",
            s.drops,
            s.pixels,
            s.drops as f64 / s.pixels as f64,
            s.passes,
            s.platforms,
            s.searched,
            s.flipped
        );
    }
    divan::main();
}

/// 17x32, every pixel opaque, colours in diagonal stripes so every row has all three and the
/// rows differ.
fn big() -> Image {
    let px: Vec<u8> = (0..32usize)
        .flat_map(|y| (0..17usize).map(move |x| ((x + 2 * y) / 2 % 3 + 1) as u8))
        .collect();
    Image::new(17, 32, px, DEFAULT_PALETTE).unwrap()
}

/// 17x32, every pixel opaque, diagonal stripes 4 pixels wide: runs of three pixels of one colour
/// in every row, for the flipped emitters.
fn wide() -> Image {
    let px: Vec<u8> = (0..32usize)
        .flat_map(|y| (0..17usize).map(move |x| ((x + y) / 4 % 3 + 1) as u8))
        .collect();
    Image::new(17, 32, px, DEFAULT_PALETTE).unwrap()
}

#[divan::bench(sample_count = 10)]
fn convert_17x32_wide_stripes(b: Bencher<'_, '_>) {
    let image = wide();
    b.bench(|| convert(divan::black_box(&image)).unwrap());
}

fn robot() -> Image {
    Image::from_text(include_str!("../sprites/robot.txt")).unwrap()
}

#[divan::bench(sample_count = 10)]
fn convert_17x32_three_colours(b: Bencher<'_, '_>) {
    let image = big();
    b.bench(|| convert(divan::black_box(&image)).unwrap());
}

#[divan::bench(sample_count = 10)]
fn convert_robot(b: Bencher<'_, '_>) {
    let image = robot();
    b.bench(|| convert(divan::black_box(&image)).unwrap());
}
