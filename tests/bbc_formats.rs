//! End to end: BBC BASIC programs in the BBC BASIC for Windows format and named .bas, through
//! `retro tok --format`, `retro run`, `retro list` and SAVE at `retro bbc --format`.

mod common;
use common::{retro_in, stdout};

const PROGRAM: &str = "10 i%=0\n20 WHILE i%<3\n30 CASE i% OF\n40 WHEN 1:PRINT \"one\"\n50 OTHERWISE:PRINT SUM(a())\n60 ENDCASE\n70 i%+=1:ENDWHILE\n";

#[test]
fn tok_converts_between_formats_and_every_command_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.txt"),
        format!("DIM a(2):a()=1,2,3\n{PROGRAM}")
            .replace("DIM a(2):a()=1,2,3\n10", "5 DIM a(2):a()=1,2,3\n10"),
    )
    .unwrap();
    let o = retro_in(
        dir.path(),
        &["tok", "p.txt", "--format", "bbcwin", "-o", "w.bbc"],
        b"",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let win = std::fs::read(dir.path().join("w.bbc")).unwrap();
    // Line 5 first: length byte, 5 low then high, and the program ends &00 &FF &FF.
    assert_eq!(&win[1..3], &[5, 0]);
    assert_eq!(&win[win.len() - 3..], &[0, 0xFF, 0xFF]);
    // WHILE is one byte (&C7) in this format, &C8 &95 in RISC OS's.
    assert!(win.windows(2).any(|w| w == [b' ', 0xC7]));
    let run = retro_in(dir.path(), &["run", "--headless", "w.bbc"], b"");
    assert_eq!(stdout(&run), "         6\none\n         6\n");
    let o = retro_in(
        dir.path(),
        &["tok", "w.bbc", "--format", "riscos", "-o", "r.bbc"],
        b"",
    );
    assert!(o.status.success());
    let riscos = std::fs::read(dir.path().join("r.bbc")).unwrap();
    assert_eq!(riscos[0], 0x0D);
    assert!(riscos.windows(2).any(|w| w == [0xC8, 0x95]));
    let o = retro_in(
        dir.path(),
        &["tok", "r.bbc", "--format", "bbcwin", "-o", "w2.bbc"],
        b"",
    );
    assert!(o.status.success());
    assert_eq!(std::fs::read(dir.path().join("w2.bbc")).unwrap(), win);
    let o = retro_in(
        dir.path(),
        &["tok", "w.bbc", "--format", "text", "-o", "l.txt"],
        b"",
    );
    assert!(o.status.success());
    let listing = std::fs::read_to_string(dir.path().join("l.txt")).unwrap();
    assert!(listing.contains("   20 WHILE i%<3\n"), "{listing}");
    assert_eq!(stdout(&retro_in(dir.path(), &["list", "w.bbc"], b"")), listing);
    let tokens = stdout(&retro_in(dir.path(), &["list", "--tokens", "w.bbc"], b""));
    // The file's own bytes: line 5's header is its length byte, 5 and 0; WHILE is &C7.
    assert!(tokens.starts_with("Line 5 at +&0000"), "{tokens}");
    assert!(tokens.contains("C7                       WHILE"), "{tokens}");
}

#[test]
fn save_at_the_prompt_writes_the_chosen_format() {
    let dir = tempfile::tempdir().unwrap();
    let typed = b"10 SWAP a,b\n20 PRINT \"hi\"\nSAVE \"w\"\nNEW\nLOAD \"w\"\nRUN\n";
    let o = retro_in(dir.path(), &["bbc", "--headless", "--format", "bbcwin"], typed);
    assert!(stdout(&o).contains("hi"), "{}", stdout(&o));
    let saved = std::fs::read(dir.path().join("w")).unwrap();
    assert_eq!(&saved[..5], &[saved[0], 10, 0, b' ', 0x08]);
    let o = retro_in(
        dir.path(),
        &["bbc", "--headless", "--format", "text"],
        b"10 PRINT 1\nSAVE \"t\"\n",
    );
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t")).unwrap(),
        "   10 PRINT 1\n"
    );
}

#[test]
fn bas_files_holding_bbc_basic_run_as_bbc_basic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.bas"), "10 PRINT \"BBC\";2^3\n").unwrap();
    std::fs::write(dir.path().join("c.bas"), "10 print \"c64\"\n").unwrap();
    assert_eq!(
        stdout(&retro_in(dir.path(), &["run", "--headless", "b.bas"], b"")),
        "BBC8\n"
    );
    assert_eq!(
        stdout(&retro_in(dir.path(), &["run", "--headless", "c.bas"], b"")),
        "C64\n"
    );
    // A tokenized BBC program named .bas is BBC BASIC whatever its text.
    let o = retro_in(
        dir.path(),
        &["tok", "b.bas", "--format", "bbcwin", "-o", "w.bas"],
        b"",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        stdout(&retro_in(dir.path(), &["list", "w.bas"], b"")),
        "   10 PRINT \"BBC\";2^3\n"
    );
    // --machine overrides the rule; a listing that does not tokenize says how to choose.
    let o = retro_in(
        dir.path(),
        &["run", "--headless", "--machine", "bbc", "c.bas"],
        b"",
    );
    assert!(!o.status.success());
    std::fs::write(dir.path().join("nonum.bas"), "print 1\n").unwrap();
    let o = retro_in(dir.path(), &["run", "--headless", "nonum.bas"], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("read as a C64 listing") && err.contains("--machine bbc|cbm"),
        "{err}"
    );
    std::fs::write(dir.path().join("bad.bas"), "10 PRINT\n5 PRINT\n").unwrap();
    let o = retro_in(dir.path(), &["run", "--headless", "bad.bas"], b"");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--machine bbc|cbm"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `MOVE BY`, `DRAW BY`, `POINT BY` (RISC OS keeps BY as text; the Windows format's BY token
/// converts to it): relative to the last point. The expected text is what Brandy printed for the
/// same program (its graphics screen answers POINT(), which the in-process corpus cannot).
#[test]
fn by_plots_relative_to_the_last_point() {
    let dir = tempfile::tempdir().unwrap();
    let program = "10 MODE 1\n20 GCOL 0,3\n30 MOVE 100,100:DRAW BY 200,0\n40 PRINT POINT(150,100);POINT(250,100);POINT(350,100)\n50 MOVE 100,300:MOVE BY 0,100:DRAW BY 0,100\n60 PRINT POINT(100,350);POINT(100,450)\n70 POINT 600,600:POINT BY 8,0\n80 PRINT POINT(608,600);POINT(616,600)\n";
    std::fs::write(dir.path().join("by.bbc"), program).unwrap();
    let o = retro_in(dir.path(), &["run", "--headless", "by.bbc"], b"");
    assert_eq!(stdout(&o), "         330\n         03\n         30\n");
}

#[test]
fn the_debugger_loads_a_windows_format_program() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.txt"),
        "10 A%=6\n20 WHILE A%<9:A%+=1:ENDWHILE\n30 PRINT A%\n",
    )
    .unwrap();
    let o = retro_in(
        dir.path(),
        &["tok", "p.txt", "--format", "bbcwin", "-o", "w.bbc"],
        b"",
    );
    assert!(o.status.success());
    std::fs::write(dir.path().join("cmds"), "break 30\nrun\nprint A%\nquit\n").unwrap();
    let o = retro_in(dir.path(), &["debug", "w.bbc", "--script", "cmds"], b"");
    assert!(stdout(&o).contains("A% = 9"), "{}", stdout(&o));
}
