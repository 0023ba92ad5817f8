//! Each diagnostic a user can meet: its kind, message, line and column, and the help it offers.
use retro_z80_asm::{DiagKind, Failure, assemble_with};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Assembles in-memory files; the first one is the main file.
fn fail(files: &[(&str, &str)]) -> Failure {
    let map: HashMap<PathBuf, Vec<u8>> = files
        .iter()
        .map(|(n, t)| (PathBuf::from(n), t.as_bytes().to_vec()))
        .collect();
    let load = move |p: &Path| {
        map.get(p)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    };
    match assemble_with(Path::new(files[0].0), &load) {
        Ok(_) => panic!("expected errors"),
        Err(f) => f,
    }
}

/// (kind, message, line, column) of every diagnostic, in order.
fn summary(f: &Failure) -> Vec<(DiagKind, String, usize, usize)> {
    f.diagnostics
        .iter()
        .map(|d| {
            let (l, c) = f.line_col(d);
            (d.kind, d.message.clone(), l, c)
        })
        .collect()
}

fn one(src: &str) -> (DiagKind, String, usize, usize, Option<String>) {
    let f = fail(&[("t.asm", src)]);
    assert_eq!(f.diagnostics.len(), 1, "{}", f.render(false));
    let d = &f.diagnostics[0];
    let (l, c) = f.line_col(d);
    (d.kind, d.message.clone(), l, c, d.help.clone())
}

#[test]
fn undefined_symbol_suggests_the_closest_name() {
    let (kind, msg, line, col, help) = one(" org 8000h\nstart: nop\n call strat\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (DiagKind::UndefinedSymbol, "undefined symbol `strat`", 3, 7)
    );
    assert_eq!(help.as_deref(), Some("did you mean `start`?"));
}

#[test]
fn duplicate_label_points_at_both_places() {
    let f = fail(&[("t.asm", "loop: nop\n nop\nloop: ret\n")]);
    let d = &f.diagnostics[0];
    assert_eq!(
        summary(&f),
        vec![(
            DiagKind::DuplicateLabel,
            "`loop` is defined twice".to_string(),
            3,
            1
        )]
    );
    assert_eq!(d.others.len(), 1);
    assert_eq!(
        retro_z80_asm::diag::line_col(&f.files[0].text, d.others[0].0.span.start),
        (1, 1)
    );
    let text = f.render(false);
    assert!(
        text.contains("first defined here") && text.contains("second definition"),
        "{text}"
    );
}

#[test]
fn jr_out_of_range_says_how_far_and_suggests_jp() {
    let (kind, msg, line, col, help) = one(" org 0\n jr far\n ds 200\nfar: ret\n");
    assert_eq!(kind, DiagKind::OutOfRange);
    assert_eq!(msg, "jr target is 200 bytes ahead (the limit is -128..+127)");
    assert_eq!((line, col), (2, 5));
    assert!(help.unwrap().contains("jp"));
    let (_, msg, ..) = one("back: ds 130\n djnz back\n");
    assert_eq!(msg, "djnz target is 132 bytes back (the limit is -128..+127)");
}

#[test]
fn byte_and_displacement_out_of_range() {
    let (kind, msg, line, col, _) = one(" ld a,300\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (DiagKind::OutOfRange, "value 300 does not fit in a byte", 1, 7)
    );
    let (kind, msg, line, col, _) = one(" nop\n ld a,(ix+300)\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (
            DiagKind::OutOfRange,
            "index displacement 300 is out of range",
            2,
            10
        )
    );
}

#[test]
fn bad_operand_combination() {
    let (kind, msg, line, col, help) = one("\tld (hl),(hl)\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (
            DiagKind::BadOperands,
            "invalid operands for `ld`: ld (hl),(hl)",
            1,
            5
        )
    );
    assert!(help.unwrap().contains("memory to memory"));
    let (kind, msg, ..) = one(" ld h,ixl\n");
    assert_eq!(
        (kind, msg.as_str()),
        (DiagKind::BadOperands, "invalid operands for `ld`: ld h,ixl")
    );
    let (_, _, _, _, help) = one(" jr pe,0\n");
    assert_eq!(help.as_deref(), Some("use `jp pe,...` for the pe condition"));
}

#[test]
fn unknown_mnemonic_with_suggestion() {
    let (kind, msg, line, col, help) = one(" nop\n  lb a,1\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (DiagKind::UnknownMnemonic, "unknown instruction `lb`", 2, 3)
    );
    assert_eq!(help.as_deref(), Some("did you mean `ld`?"));
}

#[test]
fn include_cycle_names_the_chain() {
    let f = fail(&[
        ("main.asm", " nop\n include \"a.inc\"\n"),
        ("a.inc", " nop\n include \"main.asm\"\n"),
    ]);
    let s = summary(&f);
    assert_eq!(s.len(), 1, "{}", f.render(false));
    assert_eq!(s[0].0, DiagKind::IncludeCycle);
    assert_eq!(s[0].1, "`main.asm` includes itself");
    assert_eq!((s[0].2, s[0].3), (2, 10));
    assert_eq!(
        f.files[f.diagnostics[0].loc.file as usize].path,
        PathBuf::from("a.inc")
    );
    assert_eq!(
        f.diagnostics[0].note.as_deref(),
        Some("include chain: main.asm -> a.inc -> main.asm")
    );
}

#[test]
fn equ_cycle_is_reported_once_instead_of_undefined_symbols() {
    let f = fail(&[("t.asm", "A: equ B+1\nB: equ C\nC: equ A*2\n ld a,A\n")]);
    let s = summary(&f);
    assert_eq!(
        s,
        vec![(
            DiagKind::EquCycle,
            "EQU cycle: A -> B -> C -> A".to_string(),
            1,
            1
        )],
        "{}",
        f.render(false)
    );
}

#[test]
fn every_error_of_a_run_is_reported_in_source_order() {
    let f = fail(&[("t.asm", " ld a,300\n frob\n call nowhere\n ld (hl),(hl)\n")]);
    let lines: Vec<usize> = summary(&f).iter().map(|s| s.2).collect();
    assert_eq!(lines, vec![1, 2, 3, 4]);
}

#[test]
fn unterminated_blocks_and_stray_characters() {
    let (kind, msg, line, ..) = one(" if 1\n nop\n");
    assert_eq!(
        (kind, msg.as_str(), line),
        (DiagKind::Directive, "IF without ENDIF", 1)
    );
    let (kind, msg, line, col, _) = one(" nop\n ld a,`\n");
    assert_eq!(
        (kind, msg.as_str(), line, col),
        (DiagKind::Syntax, "unexpected character '`'", 2, 7)
    );
}

#[test]
fn rendered_report_has_file_line_column_and_caret() {
    let f = fail(&[("prog.asm", " nop\n call strat\nstart: ret\n")]);
    let text = f.render(false);
    assert!(text.contains("prog.asm:2:7"), "{text}");
    assert!(text.contains("call strat"), "{text}");
    assert!(text.contains("did you mean `start`?"), "{text}");
}
