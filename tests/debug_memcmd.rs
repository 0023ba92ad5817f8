//! VICE's memory commands (issue 26): `find` (`hunt`), `fill`, `compare`, `move` and a multi-byte
//! `set byte[ADDR] = ...` on the BASIC debuggers, with the Z80's syntax and messages (one home:
//! retro_machine::debug::memcmd). Golden transcripts tests/memcmd/{bbc,c64}.expect of the scripts
//! beside them; the facts that matter are asserted here too, so a rewritten golden cannot hide
//! them: each write is an event of the run (a reverse-step replays with it) and the program
//! reads what was written.

use std::path::Path;

mod common;

/// The transcript of tests/memcmd/SCRIPT on PROGRAM, and the exit status.
fn transcript(program: &str, script: &str) -> (String, Option<i32>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let program = root.join(program);
    let script = root.join("tests/memcmd").join(script);
    let args = [
        "debug",
        &program.to_string_lossy(),
        "--script",
        &script.to_string_lossy(),
    ];
    let o = common::retro_in(Path::new(env!("CARGO_TARGET_TMPDIR")), &args, b"");
    (common::text(&o.stdout), o.status.code())
}

fn golden(name: &str, out: &str) {
    common::golden(&Path::new("tests/memcmd").join(format!("{name}.expect")), out);
}

#[test]
fn bbc_find_fill_compare_move_and_set_bytes_kept_by_reverse_execution() {
    let (out, code) = transcript("tests/memcmd/mem.bbc", "bbc.script");
    assert_eq!(code, Some(1), "the refused commands fail the script:\n{out}");
    golden("bbc", &out);
    assert!(
        out.contains("(bbc) find blk% blk%+19 5 6 7\n&08F99 PAGE+153\n"),
        "{out}"
    );
    assert!(
        out.contains("(bbc) find blk% buf%+19 \"WIN\"\n&08FA8 PAGE+168\n"),
        "{out}"
    );
    assert!(out.contains("&08F94 00  &08FA8 57\n"), "{out}");
    // The fill survives a step back over the statement it was made before.
    let filled = "&08F94 PAGE+148  01 01 01 01 01 01 01 01 01 01 0A 0B 0C 0D 0E 0F";
    assert!(
        out.contains(&format!(
            "(bbc) reverse-step 1\nline 50:1 +5  s%=0\n(bbc) x/20 blk%\n{filled}"
        )),
        "{out}"
    );
    // move overlapping upwards, then set byte[]: kept over reverse-step 2 too.
    let moved = "&08F94 PAGE+148  07 08 09 01 01 01 01 01 01 01 0A 0A 0B 0C 0D 0E";
    assert_eq!(out.matches(moved).count(), 2, "{out}");
    assert!(
        out.contains("error: &88F00 is at or past HIMEM (&88F00)\n"),
        "{out}"
    );
    // 7+8+9 + 7*1 + 10 + (10+...+18): the program sums what the commands wrote.
    assert!(out.contains("       167\nWIN\n"), "{out}");
}

#[test]
fn c64_find_fill_compare_move_and_set_bytes_kept_by_reverse_execution() {
    let (out, code) = transcript("tests/memcmd/mem.bas", "c64.script");
    assert_eq!(code, Some(1), "the refused commands fail the script:\n{out}");
    golden("c64", &out);
    assert!(out.contains("(c64) find $C000 $C013 5 6 7\n$C005\n"), "{out}");
    // PETSCII text: the program's literal, the string space's copy and the poked bytes.
    assert!(out.contains("$C100\n"), "{out}");
    assert!(out.contains("$C000 00  $C100 57\n"), "{out}");
    let filled = "$C000: 01 01 01 01 01 01 01 01\n$C008: 01 01 0A 0B 0C 0D 0E 0F";
    assert!(
        out.contains(&format!(
            "(c64) reverse-step 1\nline 30:1 $0861  S=0\n(c64) x/20 $C000\n{filled}"
        )),
        "{out}"
    );
    let moved = "$C000: 07 08 09 01 01 01 01 01\n$C008: 01 01 0A 0A 0B 0C 0D 0E";
    assert_eq!(out.matches(moved).count(), 2, "{out}");
    assert!(
        out.contains("error: 20 bytes from $FFF0 run past $FFFF\n"),
        "{out}"
    );
    assert!(out.contains(" 167 \n"), "{out}");
}
