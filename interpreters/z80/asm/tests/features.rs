//! Assembler features beyond single instructions: scoping, macros, conditionals, forward
//! references, and what the debugger reads (symbols, source map, listing).
use retro_z80_asm::{Assembly, SymbolKind, assemble_with, render_listing};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn build(files: &[(&str, &[u8])]) -> Assembly {
    let map: HashMap<PathBuf, Vec<u8>> = files
        .iter()
        .map(|(n, t)| (PathBuf::from(n), t.to_vec()))
        .collect();
    let load = move |p: &Path| {
        map.get(p)
            .cloned()
            .ok_or_else(|| std::io::Error::other("no such file"))
    };
    assemble_with(Path::new(files[0].0), &load).unwrap_or_else(|f| panic!("{}", f.render(false)))
}

fn bytes(src: &str) -> Vec<u8> {
    build(&[("t.asm", src.as_bytes())]).bytes
}

#[test]
fn local_labels_belong_to_the_previous_global_label() {
    let a = build(&[(
        "t.asm",
        b"p: ld b,2\n.l: djnz .l\nq: ld b,3\n.l: djnz .l\n jp p.l\n",
    )]);
    assert_eq!(a.symbols.get("p.l"), Some(2));
    assert_eq!(a.symbols.get("q.l"), Some(6));
    assert_eq!(a.bytes[6..], [0x10, 0xFE, 0xC3, 0x02, 0x00]);
}

#[test]
fn macro_locals_are_private_to_each_expansion_and_parameters_substitute() {
    let src = "wait: macro n\n ld b,n\n.w: djnz .w\n endm\nstart: wait 3\n wait 5\n";
    assert_eq!(bytes(src), [0x06, 3, 0x10, 0xFE, 0x06, 5, 0x10, 0xFE]);
}

#[test]
fn rept_if_else_and_nesting() {
    assert_eq!(bytes(" rept 3\n nop\n endm\n"), [0, 0, 0]);
    assert_eq!(
        bytes("X equ 2\n if X > 1\n if X == 3\n db 3\n else\n db 2\n endif\n else\n db 0\n endif\n"),
        [2]
    );
    assert_eq!(
        bytes(" ifdef NOPE\n db 1\n endif\n ifndef NOPE\n db 2\n endif\n"),
        [2]
    );
}

/// The defaults idiom: IFNDEF sees only what is defined so far in the pass, so the EQU inside
/// is assembled every pass (a symbol the previous pass placed does not count), and an earlier
/// definition wins. (Connect-4 builds its board size this way.)
#[test]
fn ifndef_defaults_settle() {
    let src = " ifndef SIZE\nSIZE equ 7\n endif\n db SIZE\n ld a,(ix+later-$)\nlater:\n";
    assert_eq!(bytes(src)[0], 7);
    assert_eq!(bytes(&format!("SIZE equ 8\n{src}"))[0], 8);
}

#[test]
fn forward_references_settle_in_ds_org_and_if() {
    // DS depends on a later EQU, the label after it on the DS.
    let a = build(&[(
        "t.asm",
        b" org 100h\n ds SIZE\nafter: dw after\nSIZE equ LAST-FIRST\nFIRST: db 1,2,3\nLAST:\n",
    )]);
    assert_eq!(a.symbols.get("after"), Some(0x103));
    assert_eq!(&a.bytes[3..5], [0x03, 0x01]);
}

#[test]
fn labels_without_colon_equ_forms_and_defl() {
    assert_eq!(bytes("top nop\n jp top\n"), [0x00, 0xC3, 0x00, 0x00]);
    assert_eq!(bytes("N = 4\nM equ N*2\nK: equ M+1\n db N,M,K\n"), [4, 8, 9]);
    assert_eq!(bytes("v defl 1\n db v\nv defl v+1\n db v\n"), [1, 2]);
}

#[test]
fn include_incbin_and_listing_nesting() {
    let a = build(&[
        (
            "m.asm",
            b"\torg 8000h\n\tinclude \"d.inc\"\n\tincbin \"b.bin\",1,2\n\tend\n\tdb 99\n",
        ),
        ("d.inc", b"\tld a,VAL\nVAL equ 7\n"),
        ("b.bin", &[1, 2, 3, 4]),
    ]);
    assert_eq!(a.bytes, [0x3E, 7, 2, 3]);
    let listing = render_listing(&a);
    assert!(
        listing.contains("8000  3E 07            1+   \tld a,VAL"),
        "{listing}"
    );
    assert!(listing.contains("; file d.inc"), "{listing}");
    assert!(
        listing.contains("8002  02 03            3    \tincbin"),
        "{listing}"
    );
}

#[test]
fn symbols_and_source_map_serve_the_debugger() {
    let a = build(&[(
        "prog.asm",
        b"SCREEN equ 4000h\n org 8000h\nclear: macro\n xor a\n ld (hl),a\n endm\nmain: ld hl,SCREEN\n clear\n ret\n",
    )]);
    assert_eq!(a.symbols.get("main"), Some(0x8000));
    assert_eq!(a.symbols.kind("SCREEN"), Some(SymbolKind::Equ));
    assert_eq!(a.symbols.name_of(0x8000), Some("main"));
    // The macro's bytes map to the line that invoked it.
    let pos = a.source_map.lookup(0x8004).expect("mapped");
    assert_eq!((pos.file.to_str(), pos.line), (Some("prog.asm"), 8));
    assert_eq!(a.source_map.lookup(0x8005).unwrap().line, 9);
    assert_eq!(a.source_map.address_of("prog.asm", 9), Some(0x8005));
    assert_eq!(a.source_map.lookup(0x9000), None);
}

#[test]
fn align_expressions_and_literals() {
    assert_eq!(
        bytes(" org 3\n nop\n align 8,0FFh\n db $\n"),
        [0, 0xFF, 0xFF, 0xFF, 0xFF, 8]
    );
    assert_eq!(
        bytes(" db &FF, #10, %1010, 0b11, 11b, 0x1F, 1Fh, $1f, 'a', 17 mod 5, high 1234h, low 1234h\n"),
        [0xFF, 0x10, 10, 3, 3, 0x1F, 0x1F, 0x1F, b'a', 2, 0x12, 0x34]
    );
    assert_eq!(
        bytes(" db (1+2)*3, 7/2, -7/2, 1<<4|1, ~0&0Fh, 5 % 3\n"),
        [9, 3, 0xFD, 0x11, 0x0F, 2]
    );
    assert_eq!(bytes(" ld a,(1+2)*3\n ld a,(3)\n"), [0x3E, 9, 0x3A, 3, 0]);
}

#[test]
fn case_insensitive_mnemonics_and_registers_case_sensitive_labels() {
    assert_eq!(
        bytes(" LD A,(IX+1)\n Ld Hl,0\n EX AF,AF'\n"),
        [0xDD, 0x7E, 1, 0x21, 0, 0, 0x08]
    );
    assert!(assemble_with(Path::new("t.asm"), &|_| Ok(b"Loop: nop\n jp loop\n".to_vec())).is_err());
}

/// `END addr` records the program's entry point (what `retro run` enters); a bare END has none,
/// and the operand is checked like any address.
#[test]
fn end_names_the_entry_point() {
    let a = build(&[(
        "m.asm",
        b"\torg 8000h\nmsg:\tdb 1,2\nmain:\tret\n\tend main\n\tdb 99\n",
    )]);
    assert_eq!(a.entry, Some(0x8002));
    assert_eq!(a.bytes, [1, 2, 0xC9], "nothing after END is assembled");
    // A label after END is never defined: an error, not a run-away of passes.
    let f = retro_z80_asm::assemble_str("f.asm", "\torg 100h\n\tnop\n\tend start\nstart:\n").unwrap_err();
    assert_eq!(
        f.diagnostics.iter().map(|d| d.kind).collect::<Vec<_>>(),
        [retro_z80_asm::DiagKind::UndefinedSymbol]
    );
    assert_eq!(build(&[("n.asm", b"\torg 100h\n\tnop\n\tend\n")]).entry, None);
    let f = retro_z80_asm::assemble_str("bad.asm", "\tnop\n\tend 70000\n").unwrap_err();
    assert_eq!(f.diagnostics[0].kind, retro_z80_asm::DiagKind::OutOfRange);
}
