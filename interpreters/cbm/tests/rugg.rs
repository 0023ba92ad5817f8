//! The Rugg/Feldman benchmark listings tokenize to the bytes the ROM saved when they were typed
//! into cbmbasic (tests/rugg/record.sh), and list back to the same text.

use std::path::Path;

use retro_cbm::Program;

#[test]
fn the_benchmarks_tokenize_to_the_bytes_the_rom_saves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rugg");
    for n in 1..=8 {
        let text = std::fs::read_to_string(dir.join(format!("bm{n}.bas"))).unwrap();
        let golden = std::fs::read(dir.join(format!("bm{n}.prg"))).unwrap();
        let program = Program::from_text(&text).unwrap();
        assert_eq!(program.to_prg(), golden, "bm{n}");
        // And back: the .prg lists as the listing we typed, and reads back to the same program.
        let loaded = Program::from_prg(&golden).unwrap();
        assert_eq!(loaded.to_text(), text, "bm{n}");
    }
}
