//! The Z80's mnemonic words: what tells an instruction from a label, a macro or a directive.

/// Every Z80 mnemonic, lower case (undocumented forms use the same words).
pub(super) const MNEMONICS: &[&str] = &[
    "adc", "add", "and", "bit", "call", "ccf", "cp", "cpd", "cpdr", "cpi", "cpir", "cpl", "daa", "dec", "di",
    "djnz", "ei", "ex", "exx", "halt", "im", "in", "inc", "ind", "indr", "ini", "inir", "jp", "jr", "ld",
    "ldd", "lddr", "ldi", "ldir", "neg", "nop", "or", "otdr", "otir", "out", "outd", "outi", "pop", "push",
    "res", "ret", "reti", "retn", "rl", "rla", "rlc", "rlca", "rld", "rr", "rra", "rrc", "rrca", "rrd",
    "rst", "sbc", "scf", "set", "sla", "sll", "sli", "sl1", "sra", "srl", "sub", "xor",
];

/// Whether `word` (any case) is a Z80 mnemonic, without allocating: this is asked for nearly
/// every word of every line.
pub(super) fn is_mnemonic(word: &str) -> bool {
    let bytes = word.as_bytes();
    if bytes.len() > 4 {
        return false;
    }
    let mut buf = [0u8; 4];
    for (b, c) in buf.iter_mut().zip(bytes) {
        *b = c.to_ascii_lowercase();
    }
    let lower = std::str::from_utf8(&buf[..bytes.len()]).unwrap_or("");
    MNEMONICS.contains(&lower)
}
