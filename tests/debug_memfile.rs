//! `save "FILE" START END` and `load "FILE" ADDR` (issue 26, VICE's `s` and `l`) on each
//! debugger: golden transcripts tests/memfile/{z80,bbc,c64}.expect of the scripts beside them,
//! run in a fresh directory so that the files they write are the test's own. Each script saves a
//! range, loads it elsewhere, is refused a load one byte too long for the memory left (so the
//! script's status is 1, and nothing of that file is loaded), and goes back and forth over the
//! load; the facts that matter are asserted here too, so a rewritten golden cannot hide them.

use std::path::{Path, PathBuf};

mod common;

/// The transcript of tests/memfile/SCRIPT on PROGRAM, run in a new directory (also returned).
fn transcript(program: &str, script: &str) -> (String, Option<i32>, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("memfile-{script}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = root.join(program);
    let script = root.join("tests/memfile").join(script);
    let args = [
        "debug",
        &program.to_string_lossy(),
        "--script",
        &script.to_string_lossy(),
    ];
    let o = common::retro_in(&dir, &args, b"");
    (common::text(&o.stdout), o.status.code(), dir)
}

fn golden(name: &str, out: &str) {
    common::golden(&Path::new("tests/memfile").join(format!("{name}.expect")), out);
}

#[test]
fn z80_save_and_load_a_range_kept_by_reverse_execution() {
    let (out, code, dir) = transcript("tests/z80/calls.asm", "z80.cmds");
    assert_eq!(code, Some(1), "the load past $FFFF fails the script:\n{out}");
    golden("z80", &out);
    assert_eq!(std::fs::read(dir.join("four.bin")).unwrap(), [10, 20, 30, 40]);
    assert!(out.contains(
        "(z80) load \"four.bin\" $FFFD\nerror: four.bin is longer than the 3 bytes from $FFFD to the end of memory: nothing loaded\n"
    ), "{out}");
    // The refused load wrote nothing: the next one, which fits, is what is at $FFFC.
    assert!(
        out.contains("Loaded 4 bytes from \"four.bin\" at $FFFC..$FFFF."),
        "{out}"
    );
    // Going back within the run after the load replays with it: 10 + 1 from inc2's first inc.
    assert!(
        out.contains("(z80) reverse-stepi 2\n$8010 inc2+1 (calls.asm:9)  call inc1\n     9          call inc1\n(z80) x/4xb $9000\n$9000 $9000           0B 14 1E 28"),
        "{out}"
    );
}

#[test]
fn bbc_save_and_load_a_dimmed_block_kept_by_reverse_execution() {
    let (out, code, dir) = transcript("tests/memfile/blk.bbc", "bbc.script");
    assert_eq!(code, Some(1), "the load past HIMEM fails the script:\n{out}");
    golden("bbc", &out);
    assert_eq!(std::fs::read(dir.join("five.bin")).unwrap(), [0, 3, 6, 9, 12]);
    assert!(out.contains("PAGE+100  00 03 06 09 0C 00 03 06 09 0C "), "{out}");
    assert!(out.contains("is longer than the 4 bytes from"), "{out}");
    // Before the load the block held 7*3; going forward again makes the load again.
    assert!(out.contains("blk%?7 = 21\n(bbc) step 2\n"), "{out}");
    assert!(
        out.ends_with(
            "(bbc) print blk%?7\nblk%?7 = 6\n(bbc) continue\n        60\nProgram exited with status 0.\n"
        ),
        "{out}"
    );
}

#[test]
fn c64_save_and_load_memory_kept_by_reverse_execution() {
    let (out, code, dir) = transcript("tests/memfile/poke.bas", "c64.script");
    assert_eq!(code, Some(1), "the load past $FFFF fails the script:\n{out}");
    golden("c64", &out);
    assert_eq!(std::fs::read(dir.join("five.bin")).unwrap(), [10, 20, 30, 40, 50]);
    assert!(
        out.contains("is longer than the 4 bytes from $FFFC to the end of memory"),
        "{out}"
    );
    // Back before the load the bytes are not there; forward to its statement they are again.
    assert!(
        out.contains("line 10:3 $0822  NEXT\n(c64) x/5 $C000\n$C000: 00 00 00 00 00\n"),
        "{out}"
    );
    assert!(
        out.contains("line 20:1 $0828  S=0\n(c64) x/5 $C000\n$C000: 0A 14 1E 28 32\n"),
        "{out}"
    );
    assert!(
        out.contains(" 150 \n"),
        "the program sums the loaded bytes: {out}"
    );
}
