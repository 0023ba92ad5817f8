//! Addresses and byte values as the command line writes them (`--org 8000h`, `--poke x=$FF`).

/// An address in 0..65535: decimal, `0x8000`, `$8000` or the assembler's forms (`8000h`).
pub fn parse_addr(s: &str) -> Result<u16, String> {
    let t = s.trim();
    let v = if let Some(h) = t
        .strip_prefix('$')
        .or_else(|| t.strip_prefix("0x"))
        .or_else(|| t.strip_prefix("0X"))
    {
        i64::from_str_radix(h, 16).ok()
    } else {
        retro_z80_asm::lexer::parse_number(t)
    };
    match v {
        Some(v) if (0..=0xFFFF).contains(&v) => Ok(v as u16),
        _ => Err(format!("`{s}` is not an address in 0..65535")),
    }
}
