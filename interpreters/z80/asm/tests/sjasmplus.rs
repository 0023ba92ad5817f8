//! The sjasmplus dialect against sjasmplus itself: every tests/sjasmplus/cases/*.asm must assemble
//! to the bytes sjasmplus wrote with --raw (NAME.expect), define every symbol of its --sym file
//! (NAME.sym) with the same value, and save exactly the files it saved (NAME.files/, byte for
//! byte: the .sna snapshot, .tap tapes, SAVEBIN and OUTPUT files). record.sh recorded them and
//! `record.sh --check` re-checks them against a freshly built sjasmplus (CI does).
use retro_z80_asm::{Dialect, Options, assemble_file_with};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sjasmplus/cases");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("cases dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    v.sort();
    v
}

fn hex_rows(bytes: &[u8]) -> String {
    bytes
        .chunks(16)
        .map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

fn check(src: &Path) -> Vec<String> {
    let name = src.display();
    let mut options = Options {
        dialect: Some(Dialect::Sjasmplus),
        ..Options::default()
    };
    // NAME.args: the -D and -I options record.sh gave sjasmplus (-I relative to NAME.tree/).
    let tree = src.with_extension("tree");
    if let Ok(args) = std::fs::read_to_string(src.with_extension("args")) {
        for arg in args.split_whitespace() {
            if let Some(d) = arg.strip_prefix("-D") {
                options.defines.push(match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.to_string(), None),
                });
            } else if let Some(dir) = arg.strip_prefix("-I") {
                options.include_dirs.push(tree.join(dir));
            } else {
                panic!("{}: unknown option {arg} in .args", src.display());
            }
        }
    }
    let a = match assemble_file_with(src, &options) {
        Ok(a) => a,
        Err(f) => return vec![format!("{name}: {}", f.render(false))],
    };
    let mut problems = vec![];
    let expect = std::fs::read_to_string(src.with_extension("expect")).expect("expect file");
    if hex_rows(&a.bytes) != expect {
        problems.push(format!(
            "{name}: bytes\n  got    {}\n  expect {expect}",
            hex_rows(&a.bytes)
        ));
    }
    // sjasmplus --sym: `name: EQU 0x0000ABCD` per symbol.
    let sym = std::fs::read_to_string(src.with_extension("sym")).expect("sym file");
    for line in sym.lines().filter(|l| !l.is_empty()) {
        let (sym_name, value) = line.split_once(": EQU 0x").expect("sym line");
        let value = u32::from_str_radix(value, 16).expect("sym value") as u16;
        if a.symbols.get(sym_name) != Some(value) {
            problems.push(format!(
                "{name}: symbol {sym_name} is {:?}, sjasmplus {value:#06x}",
                a.symbols.get(sym_name)
            ));
        }
    }
    let files_dir = src.with_extension("files");
    let mut theirs: Vec<String> = std::fs::read_dir(&files_dir)
        .map(|d| {
            d.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    theirs.sort();
    let mut ours: Vec<String> = a.outputs.iter().map(|(p, _)| p.display().to_string()).collect();
    ours.sort();
    if ours != theirs {
        problems.push(format!(
            "{name}: saved files {ours:?}, sjasmplus saved {theirs:?}"
        ));
    }
    for (path, data) in &a.outputs {
        let Ok(expected) = std::fs::read(files_dir.join(path)) else {
            continue;
        };
        if *data != expected {
            let at = data.iter().zip(&expected).position(|(x, y)| x != y);
            problems.push(format!(
                "{name}: {} differs from sjasmplus's ({} bytes vs {}, first difference at {at:?})",
                path.display(),
                data.len(),
                expected.len()
            ));
        }
    }
    problems
}

#[test]
fn every_case_matches_sjasmplus() {
    let cases = cases();
    assert!(
        cases.len() >= 5,
        "the sjasmplus corpus shrank to {} files",
        cases.len()
    );
    let problems: Vec<String> = cases.iter().flat_map(|c| check(c)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The snapshot is a 48K .sna an emulator loads: 27-byte header and 48 KiB of RAM, with the
/// program at 8000h, the stack pointer at the start address sjasmplus pushed, and the
/// attribute cells the program would draw not yet drawn (it has not run).
#[test]
fn the_course_template_snapshot_is_a_48k_sna() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sjasmplus/cases/course_template.asm");
    let a = retro_z80_asm::assemble_file(&src).expect("assembles (recognised as sjasmplus by DEVICE)");
    assert_eq!(a.dialect, Dialect::Sjasmplus);
    let (_, sna) = a
        .outputs
        .iter()
        .find(|(p, _)| p == Path::new("course.sna"))
        .expect("course.sna");
    assert_eq!(sna.len(), 27 + 48 * 1024);
    let sp = u16::from_le_bytes([sna[23], sna[24]]) as usize;
    let start = a.symbols.get("start").expect("start");
    let ram = |addr: usize| sna[27 + addr - 0x4000];
    assert_eq!(
        u16::from_le_bytes([ram(sp), ram(sp + 1)]),
        start,
        "RETN goes to start"
    );
    assert_eq!(ram(0x8000), 0xF3, "di at 8000h");
    assert_eq!(
        ram(0x5800),
        0x38,
        "white paper, black ink before the program runs"
    );
}

/// `:` separates statements and a label's colon stays its own, in the sjasmplus dialect only.
#[test]
fn colons_separate_statements_only_in_sjasmplus() {
    let src = "  DEVICE ZXSPECTRUM48\n org 8000h\nx: ld a,1 : inc a : ret\n";
    let a = retro_z80_asm::assemble_str("c.asm", src).expect("assembles");
    assert_eq!(a.bytes, vec![0x3E, 1, 0x3C, 0xC9]);
    let err = retro_z80_asm::assemble_str("c.asm", " org 8000h\nx: ld a,1 : inc a\n");
    assert!(err.is_err(), "pasmo has no statement separator");
}

/// A SAVESNA whose BASIC stack was overwritten puts the start address over the screen's first two
/// bytes, and says so (W002), as sjasmplus warns there; an untouched stack gives no warning.
#[test]
fn a_snapshot_over_a_changed_basic_stack_is_a_warning() {
    let src = |body: &str| {
        format!(" device zxspectrum48\n org 8000h\nstart: jr start\n{body} savesna \"t.sna\",start\n")
    };
    let asm = |text: String| {
        let load = move |_: &Path| Ok(text.clone().into_bytes());
        retro_z80_asm::assemble_with(Path::new("t.asm"), &load)
            .unwrap_or_else(|f| panic!("{}", f.render(false)))
    };
    let plain = asm(src(""));
    assert!(plain.warnings.is_empty(), "{}", plain.render_warnings(false));
    let clobbered = asm(src(" org 5D00h\n ds 100h,0AAh\n"));
    let codes: Vec<&str> = clobbered.warnings.iter().map(|w| w.kind.code()).collect();
    assert_eq!(codes, ["W002"]);
    let sna = &clobbered.outputs[0].1;
    // The snapshot's RAM starts at byte 27 (4000h): the start address is there, SP points at it.
    assert_eq!((sna[27], sna[28]), (0x00, 0x80));
    assert_eq!((sna[23], sna[24]), (0x00, 0x40));
}

/// sjasmplus applies a source's only DEVICE to the lines before it too; retro applies it from its
/// line on, and says so (W003) when code came first. DEVICE first, as templates put it: no warning.
#[test]
fn device_after_code_is_a_warning() {
    let asm = |text: &'static str| {
        let load = move |_: &Path| Ok(text.as_bytes().to_vec());
        let options = Options {
            dialect: Some(Dialect::Sjasmplus),
            ..Options::default()
        };
        retro_z80_asm::assemble_with_options(Path::new("t.asm"), &load, &options)
            .unwrap_or_else(|f| panic!("{}", f.render(false)))
    };
    let late = asm(" org 8000h\n nop\n device zxspectrum48\n nop\n");
    let w: Vec<(&str, String)> = late
        .warnings
        .iter()
        .map(|w| (w.kind.code(), w.message.clone()))
        .collect();
    assert_eq!(
        w,
        [(
            "W003",
            "DEVICE after code: the bytes assembled before it are not in the device's memory".to_string()
        )]
    );
    assert!(
        asm(" device zxspectrum48\n org 8000h\n nop\n")
            .warnings
            .is_empty()
    );
}

/// ALIGN without a fill byte leaves the device's memory as DEVICE made it, while the raw output
/// still has the zeros; DS without one writes zeros. What sjasmplus 1.23.1 gives for this source.
#[test]
fn align_without_fill_keeps_the_device_memory() {
    let text =
        " device zxspectrum48\n org 5800h\n ds 2\n db 1\n align 8\n ds 2,0AAh\n savebin \"m.bin\",5800h,10\n";
    let load = move |_: &Path| Ok(text.as_bytes().to_vec());
    let a = retro_z80_asm::assemble_with(Path::new("t.asm"), &load)
        .unwrap_or_else(|f| panic!("{}", f.render(false)));
    assert_eq!(a.bytes, [0, 0, 1, 0, 0, 0, 0, 0, 0xAA, 0xAA]);
    // 5800h is attribute RAM: DEVICE fills it with 38h (white paper, black ink).
    assert_eq!(
        a.outputs[0].1,
        [0, 0, 1, 0x38, 0x38, 0x38, 0x38, 0x38, 0xAA, 0xAA]
    );
}

/// What the sjasmplus dialect refuses, ignores and prints: a LUA block and OPT are clear errors
/// (one for the whole Lua block, whose lines are skipped), SLDOPT is ignored with W004, and
/// DISPLAY's lines are kept for stderr in sjasmplus's format (checked against sjasmplus 1.23.1).
#[test]
fn lua_and_opt_are_refused_sldopt_ignored_and_display_kept() {
    let asm = |text: &str| {
        let text = text.to_string();
        let load = move |_: &Path| Ok(text.clone().into_bytes());
        let options = Options {
            dialect: Some(Dialect::Sjasmplus),
            ..Options::default()
        };
        retro_z80_asm::assemble_with_options(Path::new("t.asm"), &load, &options)
    };
    let f =
        asm(" org 8000h\n lua\n  sj.add_byte(1) : x = {1,2}\n endlua\n nop\n").expect_err("Lua is refused");
    assert_eq!(f.diagnostics.len(), 1, "{}", f.render(false));
    assert!(f.diagnostics[0].message.contains("Lua scripts are not supported"));
    let f = asm(" opt --syntax=a\n sub a,b\n").expect_err("OPT is refused");
    assert!(f.diagnostics[0].message.contains("OPT is not supported"));
    let a = asm(" sldopt comment WPMEM\n org 100h\n display \"a:\",/a,$,\"|\",/d,-1,\"|\",/c,65,\"|\",/b,5,\"|\",255\n nop\n")
        .unwrap_or_else(|f| panic!("{}", f.render(false)));
    assert_eq!(a.bytes, [0]);
    assert_eq!(a.warnings.len(), 1);
    assert_eq!(a.warnings[0].kind.code(), "W004");
    assert_eq!(a.display, ["a:0x0100, 256|4294967295|'A'|%0000'0101|0x00FF"]);
}

/// A project whose `DEVICE` is in a prologue INCLUDE (the ZX81 template's layout) is recognised
/// as sjasmplus without `--dialect`; a pasmo source with an INCLUDE stays pasmo.
#[test]
fn a_device_line_in_an_included_prologue_selects_sjasmplus() {
    let load = |p: &Path| -> std::io::Result<Vec<u8>> {
        Ok(match p.file_name().and_then(|n| n.to_str()) {
            Some("main.asm") => " INCLUDE \"inc/prologue.inc\"\n ld a,1 : ret\n".into(),
            Some("prologue.inc") => " DEVICE NOSLOT64K\n ORG $4009\n".into(),
            Some("plain.asm") => " include \"inc/defs.inc\"\n ld a,X\n".into(),
            _ => "X equ 2\n".into(),
        })
    };
    let a = retro_z80_asm::assemble_with(Path::new("p/main.asm"), &load)
        .unwrap_or_else(|f| panic!("{}", f.render(false)));
    assert_eq!(a.dialect, Dialect::Sjasmplus);
    assert_eq!(a.bytes, [0x3E, 1, 0xC9]);
    let a = retro_z80_asm::assemble_with(Path::new("p/plain.asm"), &load)
        .unwrap_or_else(|f| panic!("{}", f.render(false)));
    assert_eq!(a.dialect, Dialect::Pasmo);
    assert_eq!(a.bytes, [0x3E, 2]);
}

/// After `(ix+d)` a comma starts the undocumented register-copy form, so a second index operand
/// is an error, as in sjasmplus ("Illegal destination register"), never two instructions.
#[test]
fn a_second_index_operand_is_an_error_not_two_instructions() {
    for src in [" rl (ix+1),(ix+2)\n", " set 1,(ix+1),2,(iy+2)\n"] {
        let text = src.to_string();
        let load = move |_: &Path| Ok(text.clone().into_bytes());
        let options = Options {
            dialect: Some(Dialect::Sjasmplus),
            ..Options::default()
        };
        let r = retro_z80_asm::assemble_with_options(Path::new("t.asm"), &load, &options);
        assert!(r.is_err(), "{src} assembled to {:02X?}", r.map(|a| a.bytes));
    }
}
