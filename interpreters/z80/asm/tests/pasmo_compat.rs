//! Issue #21: the places where we differed silently from pasmo (and sjasmplus), and the range
//! errors no oracle gives. Expected bytes come from pasmo's documented behaviour (strings in single
//! quotes are literal, a doubled quote is one quote, PROC/LOCAL/ENDP scoping) and from the
//! instruction encodings in reference/z80.md.
mod common;

use common::{assemble, bytes};
use retro_z80_asm::DiagKind;

/// The (kind, message) of every error.
fn errors(src: &str) -> Vec<(DiagKind, String)> {
    match assemble(src) {
        Ok(a) => panic!("expected errors, got {:02X?}", a.bytes),
        Err(f) => f
            .diagnostics
            .iter()
            .map(|d| (d.kind, d.message.clone()))
            .collect(),
    }
}

#[test]
fn single_quoted_strings_take_backslashes_literally() {
    // pasmo and sjasmplus: `db '\n'` is the two bytes 5C 6E.
    assert_eq!(bytes(" db '\\n'\n"), [0x5C, 0x6E]);
    assert_eq!(bytes(" db 'a\\tb\\'\n"), b"a\\tb\\");
    assert_eq!(bytes(" ld a,'\\'\n"), [0x3E, 0x5C]);
    // Double quotes keep their escapes (pasmo, sjasmplus and z80asm process them there).
    assert_eq!(bytes(" db \"\\n\\x41\"\n"), [0x0A, 0x41]);
}

#[test]
fn double_quoted_escapes_are_pasmos() {
    // What the installed pasmo 0.5.3 gives for each (`\a` is 07, octal up to three digits).
    assert_eq!(
        bytes(" db \"\\a\\101\\1234\\q\"\n"),
        [0x07, b'A', b'S', b'4', b'q']
    );
    // The sjasmplus dialect reads them as sjasmplus does (no octal; `\e` is ESC).
    assert_eq!(
        bytes(" device zxspectrum48\n org 8000h\n db \"\\e\\b\\101\"\n"),
        [0x1B, 0x08, b'\\', b'1', b'0', b'1']
    );
}

/// The (code, line, message) of every warning of a source that assembles.
fn warnings(src: &str) -> Vec<(&'static str, usize, String)> {
    match assemble(src) {
        Ok(a) => a
            .warnings
            .iter()
            .map(|w| {
                let line = a.files[w.loc.file as usize].text[..w.loc.span.start]
                    .matches('\n')
                    .count()
                    + 1;
                (w.kind.code(), line, w.message.clone())
            })
            .collect(),
        Err(f) => panic!("{}", f.render(false)),
    }
}

#[test]
fn a_local_label_pasmo_would_see_twice_is_a_warning_at_its_place() {
    let src = "fill:\tnop\n.loop:\tjr .loop\nnext:\n.loop:\tjr .loop\n\tjp fill.loop\n";
    assert_eq!(
        warnings(src),
        [(
            "W001",
            4,
            "`.loop` is a new local label here; pasmo would report it defined twice".to_string()
        )]
    );
    // The bytes are retro's: each `.loop` its own.
    assert_eq!(bytes(src), [0x00, 0x18, 0xFE, 0x18, 0xFE, 0xC3, 0x01, 0x00]);
    // One `.loop` assembles as in pasmo: nothing to warn about.
    assert!(warnings("fill:\tnop\n.loop:\tjr .loop\nnext:\tjr fill.loop\n").is_empty());
    // A dot label in a macro expanded twice: pasmo too would see it twice.
    let w = warnings("wait macro\n.w djnz .w\n endm\n wait\n wait\n");
    assert_eq!(w.len(), 1, "{w:?}");
    // The sjasmplus dialect has local labels, as sjasmplus does: no warning.
    assert!(warnings(" device zxspectrum48\nfa:\n.l nop\nfb:\n.l nop\n").is_empty());
}

#[test]
fn warnings_render_like_errors_with_place_and_caret() {
    let a = assemble("fa:\n.x nop\ng:\n.x nop\n").expect("assembles");
    let text = a.render_warnings(false);
    assert!(text.contains("[W001] Warning:"), "{text}");
    assert!(text.contains("(t.asm:4:1)"), "{text}");
    assert!(text.contains("local to `g`"), "{text}");
    assert!(text.contains("pasmo's one and only definition"), "{text}");
}

#[test]
fn a_doubled_quote_stands_for_one() {
    assert_eq!(bytes(" db 'It''s'\n"), b"It's");
    assert_eq!(bytes(" cp ''''\n"), [0xFE, 0x27]);
    assert_eq!(bytes(" db \"say \"\"hi\"\"\"\n"), b"say \"hi\"");
    assert_eq!(bytes(" db '',1\n"), [1]);
    // af' is still the alternate register pair.
    assert_eq!(bytes(" ex af,af'\n db 'x'\n"), [0x08, b'x']);
}

#[test]
fn proc_local_names_are_private_to_each_proc() {
    let src = "\
first: proc
 local lp
lp: djnz lp
 ret
 endp
second: proc
 local lp
lp: jr lp
 endp
";
    assert_eq!(bytes(src), [0x10, 0xFE, 0xC9, 0x18, 0xFE]);
    // Outside the PROCs, `lp` does not exist.
    let errs = errors(&format!("{src} jp lp\n"));
    assert_eq!(
        errs,
        [(DiagKind::UndefinedSymbol, "undefined symbol `lp`".into())]
    );
}

#[test]
fn proc_names_not_declared_local_are_global() {
    let src = "\
 proc
 local inner
inner: nop
shared: nop
 endp
 jp shared
";
    assert_eq!(bytes(src), [0x00, 0x00, 0xC3, 0x01, 0x00]);
}

#[test]
fn nested_procs_see_their_parents_locals() {
    let src = "\
 proc
 local x
x: nop
 proc
 local y
y: jr x
 jr y
 endp
 endp
";
    assert_eq!(bytes(src), [0x00, 0x18, 0xFD, 0x18, 0xFC]);
}

#[test]
fn local_in_a_macro_is_private_to_each_expansion() {
    let src = "\
skipz macro
 local skip
 jr z,skip
 nop
skip:
 endm
 skipz
 skipz
";
    assert_eq!(bytes(src), [0x28, 0x01, 0x00, 0x28, 0x01, 0x00]);
}

#[test]
fn unbalanced_proc_and_local_outside_a_scope_are_errors() {
    assert_eq!(
        errors(" endp\n"),
        [(DiagKind::Directive, "ENDP without PROC".into())]
    );
    assert_eq!(
        errors(" proc\n nop\n"),
        [(DiagKind::Directive, "PROC without ENDP".into())]
    );
    assert_eq!(
        errors(" local x\n"),
        [(DiagKind::Directive, "LOCAL outside PROC or MACRO".into())]
    );
}

#[test]
fn short_index_half_spellings_can_be_labels() {
    // pasmo and z80asm accept HX as an ordinary name.
    assert_eq!(bytes("hx equ 5\n ld a,hx\n"), [0x3E, 0x05]);
    assert_eq!(bytes("HX: nop\n jp HX\n"), [0x00, 0xC3, 0x00, 0x00]);
    assert_eq!(bytes("lx\n jr lx\n"), [0x18, 0xFE]);
    // Without such a symbol they name the register halves, as in sjasmplus.
    assert_eq!(bytes(" ld a,hx\n ld yl,b\n"), [0xDD, 0x7C, 0xFD, 0x68]);
    // The ixh-style names stay reserved.
    assert_eq!(
        errors("ixh: nop\n"),
        [(
            DiagKind::Syntax,
            "`ixh` is a register name and cannot be a label".into()
        )]
    );
}

#[test]
fn macro_parameters_after_the_name_without_a_comma() {
    let src = "\
 macro load2 x,y
 ld a,x
 add a,y
 endm
 load2 1,2
";
    assert_eq!(bytes(src), [0x3E, 0x01, 0xC6, 0x02]);
    let src = " macro one p\n db p\n endm\n one 7\n";
    assert_eq!(bytes(src), [7]);
    // The comma form still works.
    let src = " macro two,p,q\n db q,p\n endm\n two 1,2\n";
    assert_eq!(bytes(src), [2, 1]);
}

#[test]
fn index_displacements_must_fit_in_a_signed_byte() {
    assert_eq!(
        bytes(" ld (ix+127),a\n ld (iy-128),b\n ld a,(ix-1)\n"),
        [0xDD, 0x77, 0x7F, 0xFD, 0x70, 0x80, 0xDD, 0x7E, 0xFF]
    );
    // pasmo and z80asm emit DD 77 C8 (ix-56) for this; we refuse it and say why.
    let f = assemble(" ld (ix+200),a\n").unwrap_err();
    assert_eq!(f.diagnostics.len(), 1);
    let d = &f.diagnostics[0];
    assert_eq!(
        (d.kind, d.message.as_str()),
        (DiagKind::OutOfRange, "index displacement 200 is out of range")
    );
    assert_eq!(
        d.note.as_deref(),
        Some("pasmo and z80asm would silently use -56 here")
    );
    for src in [" ld (iy-129),a\n", " bit 0,(ix+128)\n", " inc (iy+255)\n"] {
        assert_eq!(errors(src)[0].0, DiagKind::OutOfRange, "{src}");
    }
}

#[test]
fn values_must_fit_their_field() {
    assert_eq!(
        bytes(" ld a,255\n ld b,-128\n ld bc,65535\n ld de,-32768\n"),
        [0x3E, 0xFF, 0x06, 0x80, 0x01, 0xFF, 0xFF, 0x11, 0x00, 0x80]
    );
    for (src, msg) in [
        (" ld a,256\n", "value 256 does not fit in a byte"),
        (" ld a,-129\n", "value -129 does not fit in a byte"),
        (" db 300\n", "value 300 does not fit in a byte"),
        (" out (256),a\n", "value 256 does not fit in a byte"),
        (" ld bc,65536\n", "value 65536 does not fit in 16 bits"),
        (" dw -32769\n", "value -32769 does not fit in 16 bits"),
        (" jp 10000h\n", "value 65536 does not fit in 16 bits"),
    ] {
        assert_eq!(errors(src), [(DiagKind::OutOfRange, msg.to_string())], "{src}");
    }
}

#[test]
fn a_macro_without_a_name_is_an_error_not_a_crash() {
    // Found by the_assembler_never_panics: an empty first group after MACRO.
    assert_eq!(
        errors(" macro ,p\n endm\n"),
        [(DiagKind::Syntax, "MACRO needs a name".into())]
    );
}
