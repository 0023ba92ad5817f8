//! `cargo bench -p retro-z80-asm`: assembling and disassembling a generated 100,000-line program.
//! The comparison with pasmo on the same kind of source is benches/vs_pasmo.sh.
use std::fmt::Write as _;

fn main() {
    divan::main();
}

/// 5,000 blocks of 20 lines in the style of benches/vs_pasmo.sh (labels, EQUs, loops, index
/// registers, forward jumps, data), 100 blocks per ORG region.
fn source() -> String {
    let mut s = String::from("BASE: equ 4000h\n");
    for i in 0..5000 {
        if i % 100 == 0 {
            let _ = writeln!(s, "\torg 1000h+{}*1200h", (i / 100) % 12);
        }
        let _ = write!(
            s,
            "blk{i}:\tld hl,BASE+{}\n\tld b,{}\nlp{i}:\tld a,(hl)\n\tadd a,(ix+{})\n\tld (iy+{}),a\n\tinc hl\n\
             \tdjnz lp{i}\n\tcp {}\n\tjr nz,nx{i}\n\tcall sub{}\nnx{i}:\tld de,tab{i}\n\tex de,hl\n\tset {},(hl)\n\
             \tsbc hl,de\n\tjp z,blk{}\n\tret\ntab{i}:\tdb {},{},{},0FFh\n\tdw blk{i},lp{i}\nV{i}:\tequ {}*2+1\n\tld a,V{i}\n",
            i % 4096,
            i % 200 + 1,
            i % 100,
            i % 50,
            i % 256,
            i % 64,
            i % 8,
            (i + 1) % 64,
            i % 256,
            (i * 7) % 256,
            (i * 13) % 256,
            i % 100,
        );
    }
    for j in 0..64 {
        let _ = writeln!(s, "sub{j}:\tret");
    }
    s
}

#[divan::bench(sample_count = 5)]
fn assemble_100k_lines(bencher: divan::Bencher<'_, '_>) {
    let src = source();
    bencher.bench(|| {
        retro_z80_asm::assemble_str("bench.asm", divan::black_box(&src))
            .map(|a| a.bytes.len())
            .ok()
    });
}

#[divan::bench(sample_count = 10)]
fn disassemble_64k(bencher: divan::Bencher<'_, '_>) {
    let bytes: Vec<u8> = (0..65536u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bencher.bench(|| retro_z80_asm::disassemble_to_source(divan::black_box(&bytes), 0, None).len());
}
