//! Reading a file costs the same however many files share its directory (issue 32.6: reads used
//! to cost records x directory entries, 0.35 s for 1 MB alone and 20 s beside 2,000 files).
//! Timed, so release mode only: `cargo test --release -p retro-z80-cpm --test speed -- --ignored`.

mod common;

use std::time::{Duration, Instant};

use common::program;
use retro_z80_cpm::{CpmLimits, CpmMachine, Disk};

/// Opens DATA.BIN and reads it sequentially to the end; prints the number of records in hex.
fn reader() -> Vec<u8> {
    program(
        "        ld hl,name\n        call setfcb\n        ld c,15\n        ld de,0800h\n        call bdos\n\
         ld hl,0\nloop:   ld c,20\n        ld de,0800h\n        call bdos\n        or a\n        jr nz,done\n\
         inc hl\n        jr loop\n\
done:   ld a,h\n        call hex\n        ld a,l\n        call hex\n        jp 0\n\
name:   db 'DATA    BIN'",
    )
}

/// The quickest of three runs of the reader on `dir`, and what it printed.
fn time_read(dir: &std::path::Path, prog: &[u8]) -> (Duration, String) {
    let mut best = Duration::MAX;
    let mut out = Vec::new();
    for _ in 0..3 {
        let mut m = CpmMachine::new(prog).unwrap();
        m.disk = Some(Disk::new(dir));
        out.clear();
        let start = Instant::now();
        m.run(&mut out, CpmLimits::default()).unwrap();
        best = best.min(start.elapsed());
    }
    (best, String::from_utf8_lossy(&out).into_owned())
}

#[test]
#[ignore = "timed: run in release mode"]
fn reading_a_file_costs_the_same_beside_2000_files() {
    let data = vec![0x42u8; 1 << 20];
    let alone = tempfile::tempdir().unwrap();
    std::fs::write(alone.path().join("DATA.BIN"), &data).unwrap();
    let crowded = tempfile::tempdir().unwrap();
    std::fs::write(crowded.path().join("DATA.BIN"), &data).unwrap();
    for i in 0..2000 {
        std::fs::write(crowded.path().join(format!("F{i:05}.TXT")), b"x").unwrap();
    }
    let prog = reader();
    let (t_alone, out_alone) = time_read(alone.path(), &prog);
    let (t_crowded, out_crowded) = time_read(crowded.path(), &prog);
    // 1 MiB is 8,192 (2000h) records either way.
    assert_eq!((out_alone.as_str(), out_crowded.as_str()), ("2000", "2000"));
    eprintln!("1 MiB read: {t_alone:?} alone, {t_crowded:?} beside 2,000 files");
    // The open reads the directory once (2,000 entries); the 8,192 reads must not.
    assert!(
        t_crowded < t_alone * 2 + Duration::from_millis(50),
        "{t_alone:?} alone, {t_crowded:?} beside 2,000 files"
    );
}
