//! Every opcode of the Z80 goes bytes -> text -> bytes unchanged, and documented ones decode to
//! the instruction that encodes them.
use retro_z80_asm::isa::{decode, encode, is_canonical, opcode_space};
use retro_z80_asm::{assemble_str, disassemble_to_source};

#[test]
fn the_opcode_space_has_every_encoding() {
    let all = opcode_space();
    assert_eq!(all.len(), 252 + 256 + 256 + 2 * 252 + 2 * 256);
    for bytes in &all {
        let (_, len) = decode(bytes).expect("decodes");
        assert_eq!(len, bytes.len(), "{bytes:02X?}");
    }
}

#[test]
fn assemble_of_disassemble_gives_the_same_bytes_for_every_encoding() {
    let mut failures = vec![];
    for bytes in opcode_space() {
        let src = disassemble_to_source(&bytes, 0x8000, None);
        match assemble_str("rt.asm", &src) {
            Ok(a) if a.bytes == bytes && a.origin == 0x8000 => {}
            Ok(a) => failures.push(format!("{bytes:02X?} -> {src} -> {:02X?}", a.bytes)),
            Err(f) => failures.push(format!("{bytes:02X?} -> {src} -> {}", f.render(false))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn canonical_encodings_decode_to_an_instruction_that_encodes_back() {
    let mut canonical = 0;
    for bytes in opcode_space() {
        let (insn, _) = decode(&bytes).unwrap();
        if is_canonical(&bytes) {
            canonical += 1;
            assert_eq!(encode(&insn).unwrap().as_slice(), &bytes[..]);
        }
    }
    // Documented + undocumented distinct encodings; the rest are aliases and redundant prefixes.
    assert!(canonical > 1300, "only {canonical} canonical encodings");
}
