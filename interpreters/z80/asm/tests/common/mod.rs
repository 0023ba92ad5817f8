//! Helpers shared by the integration tests: assembling a source held in memory.
#![allow(dead_code)]
use retro_z80_asm::{Assembly, Failure, assemble_with};
use std::path::Path;

/// Assembles `src` as the file `t.asm`; INCLUDE and INCBIN find no files.
pub fn assemble(src: &str) -> Result<Assembly, Failure> {
    let main = Path::new("t.asm");
    let text = src.as_bytes().to_vec();
    let load = move |p: &Path| {
        if p == main {
            Ok(text.clone())
        } else {
            Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no files here"))
        }
    };
    assemble_with(main, &load)
}

/// The bytes `src` assembles to; panics with the rendered errors if it fails.
pub fn bytes(src: &str) -> Vec<u8> {
    match assemble(src) {
        Ok(a) => a.bytes,
        Err(f) => panic!("{}", f.render(false)),
    }
}
