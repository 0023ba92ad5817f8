//! Shared by the CP/M crate's tests: test programs assembled by our assembler after a small
//! library, run on a drive in a scratch directory.
#![allow(dead_code)]

use std::path::Path;

use retro_z80_cpm::{CommandLine, Console, CpmLimits, CpmMachine, Disk, InputStream};

/// Assembles `body` after a small library: `print` (string at DE, '$'-terminated), `bdos` (C, DE),
/// `fcb` (a 36-byte FCB at 0800h filled from the 11-byte name at HL) and `fcb2` (the rename target
/// at 0810h).
pub fn program(body: &str) -> Vec<u8> {
    let src = format!(
        "        org 100h\n{body}\n        jp 0\n\
bdos:   push hl\n        call 5\n        pop hl\n        ret\n\
print:  ld c,9\n        jp bdos\n\
setfcb: ld de,0800h\n        xor a\n        ld (de),a\n        inc de\n        ld bc,11\n        ldir\n\
        ld hl,080Ch\n        ld b,24\nclr:    ld (hl),0\n        inc hl\n        djnz clr\n        ret\n\
chr:    push af\n        push bc\n        push de\n        ld e,a\n        ld c,2\n        call bdos\n        pop de\n        pop bc\n        pop af\n        ret\n\
hex:    push af\n        rrca\n        rrca\n        rrca\n        rrca\n        call nib\n        pop af\n\
nib:    and 0Fh\n        add a,90h\n        daa\n        adc a,40h\n        daa\n        jp chr\n"
    );
    retro_z80_asm::assemble_str("test.asm", &src)
        .unwrap_or_else(|f| panic!("{f:?}"))
        .bytes
}

pub fn run_in(dir: &Path, prog: &[u8], args: &[&str]) -> String {
    run_with_input(dir, prog, args, b"")
}

/// Runs `prog` with drive A: on `dir`, the command line `args`, and `input` typed on the console.
pub fn run_with_input(dir: &Path, prog: &[u8], args: &[&str], input: &'static [u8]) -> String {
    let mut m = CpmMachine::new(prog).unwrap();
    m.disk = Some(Disk::new(dir));
    m.console = Console::new(InputStream::Stream(Box::new(input)));
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    m.set_command_line(&CommandLine::new(&args));
    let mut out = Vec::new();
    let limits = CpmLimits {
        max_instructions: Some(10_000_000),
    };
    m.run(&mut out, limits).unwrap();
    String::from_utf8_lossy(&out).into_owned()
}
