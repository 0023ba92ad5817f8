//! The machine table as a user meets it (issue 25 Build 1, issue 31 item 7): each file kind the
//! docs name reaches the machine they say, `--machine` (with `c64` for the CBM machine) works on
//! every command that takes a program, `retro debug` refuses a file no debugger takes naming the
//! machines that can be debugged, a file with another machine's bytes names that machine, and
//! every file kind a command's `--help` lists is accepted by that command.

mod common;

use std::path::{Path, PathBuf};

use common::{retro_in, text};

/// A small program of each kind in `dir`: it ends by itself at once, with status 0.
fn sample(dir: &Path, ext: &str) -> PathBuf {
    let path = dir.join(format!("sample.{ext}"));
    let bytes: Vec<u8> = match ext {
        "bbc" => b"10 PRINT 6*7\n".to_vec(),
        "bas" => b"10 print 6*7\n".to_vec(),
        "asm" | "z80" => b"        org $8000\n        ld a,0\n        out ($0D),a\n".to_vec(),
        // LD A,0; OUT ($0D),A: the exit port.
        "bin" => vec![0x3E, 0x00, 0xD3, 0x0D],
        // JP 0: the warm boot, the end of a CP/M program.
        "com" => vec![0xC3, 0x00, 0x00],
        // The toy machine's source: returning from the program ends it with status 0.
        "toy" => b"        org $8000\n        ret\n".to_vec(),
        "prg" => {
            let bas = sample(dir, "bas");
            let o = run(dir, &["tok", bas.to_str().unwrap(), "-o", "sample.prg"]);
            assert_eq!(o.0, Some(0), "tok: {}", o.2);
            return path;
        }
        other => panic!("no sample for .{other}"),
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `retro ARGS` in `dir`: (status, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let o = retro_in(dir, args, b"");
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// The machine `retro run` chose for `file`, as its usage error names it: an option no machine
/// but the Z80 takes (`--movie`), or for the Z80 one it does not take (`--petcat`), is refused
/// with "it does not apply to MACHINE" before the program is loaded.
fn machine_run_chooses(dir: &Path, file: &Path) -> String {
    let f = file.to_str().unwrap();
    let (code, _, err) = run(dir, &["run", f, "--headless", "--movie", "m.fm2"]);
    let err = if err.contains("does not apply to") {
        err
    } else {
        run(dir, &["run", f, "--headless", "--petcat"]).2
    };
    assert!(code == Some(2), "{f}: {err}");
    let title = err
        .split("it does not apply to ")
        .nth(1)
        .unwrap_or_else(|| panic!("{f}: no machine named: {err}"));
    title.split(" (").next().unwrap().trim().to_string()
}

/// The machine a docs/cli.md table row names first, as retro's messages name it.
fn title_for(row: &str) -> &'static str {
    [
        ("BBC BASIC", "BBC BASIC"),
        ("Commodore 64", "the C64"),
        ("Z80 workbench", "the Z80 workbench machine"),
        ("CP/M", "CP/M"),
        ("toy machine", "the toy machine"),
    ]
    .into_iter()
    .filter_map(|(doc, title)| row.find(doc).map(|at| (at, title)))
    .min()
    .unwrap_or_else(|| panic!("a machine retro does not name: {row}"))
    .1
}

/// docs/cli.md's "Choosing the machine" table: (extensions, the row's machine column).
fn table_rows() -> Vec<(Vec<String>, String)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md")).unwrap();
    let table = doc
        .split("| extension | machine |")
        .nth(1)
        .expect("docs/cli.md has the extension table");
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cols: Vec<&str> = l.split('|').collect();
            let exts = cols[1]
                .split('`')
                .filter(|s| s.starts_with('.'))
                .map(|s| s[1..].to_string())
                .collect();
            (exts, cols[2].to_string())
        })
        .collect()
}

#[test]
fn each_file_kind_the_docs_name_reaches_their_machine() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rows = table_rows();
    assert_eq!(rows.len(), 5, "one row per machine: {rows:?}");
    let mut kinds = 0;
    for (exts, machine) in &rows {
        for ext in exts {
            let file = sample(d, ext);
            assert_eq!(machine_run_chooses(d, &file), title_for(machine), ".{ext}");
            kinds += 1;
        }
    }
    assert_eq!(kinds, 8, ".bbc .bas .prg .asm .z80 .bin .com .toy");
    // The .bas row's exception: a .bas file whose bytes are BBC BASIC is BBC BASIC's, by sniffing
    // (a BBC-only keyword here; a tokenized program likewise).
    std::fs::write(d.join("bbc.bas"), "10 REPEAT:PRINT 1:UNTIL TRUE\n").unwrap();
    assert_eq!(machine_run_chooses(d, &d.join("bbc.bas")), "BBC BASIC");
    run(d, &["tok", "sample.bbc", "-o", "tokenized.bas"]);
    assert_eq!(machine_run_chooses(d, &d.join("tokenized.bas")), "BBC BASIC");
    // The README's programs reach the machines it says.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (program, title) in [
        ("programs/rheolism/rheolism.bbc", "BBC BASIC"),
        ("programs/connect4/connect4.asm", "the Z80 workbench machine"),
        ("programs/tetris/tetris.asm", "the Z80 workbench machine"),
        ("programs/baba/baba.prg", "the C64"),
    ] {
        assert_eq!(machine_run_chooses(root, &root.join(program)), title, "{program}");
    }
}

#[test]
fn debug_refuses_a_file_no_debugger_takes_naming_those_that_can() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.txt"), "hello\n").unwrap();
    let (code, out, err) = run(d, &["debug", "x.txt", "--script", "=quit"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("x.txt: no debugger takes this file"), "{err}");
    for machine in [
        "BBC BASIC (.bbc .bas",
        "the C64 (.bas .prg",
        "the Z80 workbench machine (.asm .z80 .bin",
        "CP/M (.com",
        "the toy machine (.toy",
    ] {
        assert!(err.contains(machine), "{machine}: {err}");
    }
    // A CP/M program is debugged on CP/M, not assembled as Z80 source (it used to give the
    // assembler's E001).
    sample(d, "com");
    let (code, out, err) = run(d, &["debug", "sample.com", "--script", "=info machine"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("BDOS calls 0"), "{out}");
}

#[test]
fn machine_c64_and_cbm_work_on_run_debug_tok_and_list() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A C64 listing under a name no machine claims: only --machine says whose it is.
    std::fs::write(d.join("prog.txt"), "10 print 6*7\n").unwrap();
    for name in ["c64", "cbm"] {
        let (code, out, err) = run(d, &["run", "--machine", name, "prog.txt", "--headless"]);
        assert_eq!((code, out.trim()), (Some(0), "42"), "run --machine {name}: {err}");
        let (code, out, err) = run(d, &["debug", "--machine", name, "prog.txt", "--script", "=run"]);
        assert_eq!(code, Some(0), "debug --machine {name}: {err}");
        assert!(out.contains(" 42"), "debug --machine {name}: {out}");
        let prg = format!("{name}.prg");
        let (code, _, err) = run(d, &["tok", "--machine", name, "prog.txt", "-o", &prg]);
        assert_eq!(code, Some(0), "tok --machine {name}: {err}");
        assert!(std::fs::read(d.join(&prg)).unwrap().starts_with(&[0x01, 0x08]));
        let (code, out, err) = run(d, &["list", "--machine", name, "prog.txt"]);
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "10 print 6*7\n"),
            "list --machine {name}: {err}"
        );
    }
    // Read as BBC BASIC (any name is a BBC listing), the same text is another program.
    let (code, _, err) = run(d, &["run", "--machine", "bbc", "prog.txt", "--headless"]);
    assert_ne!(code, Some(0), "{err}");
    // An option for another machine is refused on debug as on run, naming both.
    let (code, _, err) = run(
        d,
        &[
            "debug",
            "--machine",
            "c64",
            "prog.txt",
            "--org",
            "100",
            "--script",
            "=quit",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--org is for the Z80 workbench machine; it does not apply to the C64 (prog.txt)"),
        "{err}"
    );
    // A machine with no BASIC has nothing to tokenize.
    let (code, _, err) = run(d, &["tok", "--machine", "z80", "prog.txt", "-o", "x"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("only the machines with a BASIC"), "{err}");
}

/// `tok --help` and `list --help` offer `--machine` only the machines with a BASIC (the others
/// are refused in words, above); `run --help` offers every machine.
#[test]
fn tok_and_list_help_offer_only_the_basics() {
    let dir = tempfile::tempdir().unwrap();
    let machines_in = |command: &str| -> Vec<String> {
        let (code, help, _) = run(dir.path(), &[command, "--help"]);
        assert_eq!(code, Some(0));
        let values = help.split("--machine <MACHINE>").nth(1).unwrap_or("");
        let values = values.split("Possible values:").nth(1).unwrap_or("");
        let values = values.split("\n\n").next().unwrap_or("");
        values
            .lines()
            .filter_map(|l| l.trim().strip_prefix("- "))
            .filter_map(|l| l.split(':').next())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(machines_in("tok"), ["bbc", "cbm"]);
    assert_eq!(machines_in("list"), ["bbc", "cbm"]);
    assert_eq!(machines_in("run"), ["bbc", "cbm", "z80", "cpm", "toy"]);
}

#[test]
fn a_tokenized_bbc_program_named_prg_says_use_machine_bbc() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    sample(d, "bbc");
    run(d, &["tok", "sample.bbc", "-o", "game.prg"]);
    for cmd in [
        &["run", "game.prg", "--headless"][..],
        &["list", "game.prg"],
        &["debug", "game.prg", "--script", "=quit"],
    ] {
        let (code, _, err) = run(d, cmd);
        assert_eq!(code, Some(2), "{cmd:?}: {err}");
        assert!(
            err.contains("game.prg: its bytes are a program for BBC BASIC: use --machine bbc"),
            "{cmd:?}: {err}"
        );
    }
    let (code, out, err) = run(d, &["run", "--machine", "bbc", "game.prg", "--headless"]);
    assert_eq!((code, out.trim()), (Some(0), "42"), "{err}");
}

/// The file kinds a command's FILE help lists (`.ext`), each with whether the sentence it is in
/// says it cannot be taken.
fn help_kinds(command: &str) -> Vec<(String, bool)> {
    let dir = tempfile::tempdir().unwrap();
    let (code, help, _) = run(dir.path(), &[command, "--help"]);
    assert_eq!(code, Some(0));
    let file_help = help
        .split("Arguments:")
        .nth(1)
        .and_then(|s| s.split("\n\n").next().map(str::to_string))
        .or_else(|| {
            help.split("<FILE>")
                .nth(1)
                .map(|s| s.split("\n\n").nth(1).unwrap_or("").to_string())
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for sentence in file_help.split(". ") {
        let refused = sentence.contains("cannot");
        for word in sentence.split(|c: char| !(c.is_alphanumeric() || c == '.')) {
            if let Some(ext) = word.strip_prefix('.')
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                && !out.iter().any(|(e, _)| e == ext)
            {
                out.push((ext.to_string(), refused));
            }
        }
    }
    out
}

#[test]
fn every_file_kind_a_help_text_lists_is_accepted_by_that_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run_kinds = help_kinds("run");
    let names: Vec<&str> = run_kinds.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(
        names,
        ["bbc", "bas", "prg", "asm", "z80", "bin", "com", "toy"],
        "run --help"
    );
    for (ext, _) in &run_kinds {
        let f = sample(d, ext);
        let (code, _, err) = run(d, &["run", f.to_str().unwrap(), "--headless", "--time", "5"]);
        assert_eq!(code, Some(0), "run .{ext}: {err}");
    }
    let debug_kinds = help_kinds("debug");
    assert_eq!(debug_kinds.len(), 8, "debug --help: {debug_kinds:?}");
    for (ext, refused) in &debug_kinds {
        let f = sample(d, ext);
        let (code, _, err) = run(d, &["debug", f.to_str().unwrap(), "--script", "=quit"]);
        if *refused {
            assert_eq!(code, Some(2), "debug .{ext} (the help says it cannot): {err}");
            assert!(err.contains("cannot be debugged"), "debug .{ext}: {err}");
        } else {
            assert_eq!(code, Some(0), "debug .{ext}: {err}");
        }
    }
    for (command, lists) in [("tok", &["bas"][..]), ("list", &["bbc", "prg", "bas"])] {
        let kinds = help_kinds(command);
        for ext in lists {
            assert!(
                kinds.iter().any(|(e, _)| e == ext),
                "{command} --help lists .{ext}: {kinds:?}"
            );
        }
        for (ext, _) in kinds {
            let f = sample(d, &ext);
            let out = format!("out-{ext}");
            let args: Vec<&str> = match command {
                "tok" => vec!["tok", f.to_str().unwrap(), "-o", &out],
                _ => vec!["list", f.to_str().unwrap()],
            };
            let (code, _, err) = run(d, &args);
            assert_eq!(code, Some(0), "{command} .{ext}: {err}");
        }
    }
}
