//! `retro run` on the Z80 workbench machine: small programs written for it (tests/z80/*.asm),
//! checked for what a user sees: the screen's colours, the console text and the exit status.
//! The expectations come from docs/z80-machine.md (the machine's specification) and the programs'
//! own comments.

use std::process::{Command, Output};

mod common;
use common::stdout;

#[path = "common/pty.rs"]
mod pty;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["run"])
        .args(args)
        .output()
        .expect("run retro")
}

#[test]
fn attribute_ram_writes_colour_the_screen_cells() {
    let o = run(&["tests/z80/attrs.asm", "--headless", "--dump-screen", "colours"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "returning from the program ends with status 0"
    );
    let rows: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(rows.len(), 24);
    // Paper colours 1..7 down the diagonal; the eighth wrapped to 0.
    for (i, row) in rows.iter().enumerate().take(7) {
        let expected: String = (0..32)
            .map(|c| {
                if c == i {
                    char::from_digit(i as u32 + 1, 16).unwrap()
                } else {
                    '0'
                }
            })
            .collect();
        assert_eq!(row, &expected, "row {i}");
    }
    assert!(rows[7..].iter().all(|r| r == &"0".repeat(32)));
}

#[test]
fn keyboard_half_rows_read_the_scripted_keys() {
    let o = run(&["tests/z80/keys.asm", "--headless", "--keys", "=+200 q +300 p"]);
    assert_eq!(stdout(&o), "QP\n");
    // Q is down from 200 ms (frame 10 at 50 Hz) and P from 500 ms (frame 25): the program counts
    // the frames it waited and exits with that count.
    assert_eq!(o.status.code(), Some(28));
    let none = run(&["tests/z80/keys.asm", "--headless", "--time", "1"]);
    assert_eq!(
        stdout(&none),
        "",
        "without keys it waits until --time ends the run"
    );
    assert_eq!(none.status.code(), Some(0));
}

#[test]
fn im2_interrupt_routine_counts_frames() {
    let o = run(&["tests/z80/im2.asm", "--headless"]);
    assert_eq!(o.status.code(), Some(50));
}

#[test]
fn console_port_text_goes_to_stdout_and_the_exit_port_sets_the_status() {
    let o = run(&["tests/z80/console.asm", "--headless"]);
    assert_eq!(stdout(&o), "Hello from the Z80\nsecond line\n");
    assert_eq!(o.status.code(), Some(7));
}

#[test]
fn binaries_load_at_org_and_assembly_errors_stop_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("p.bin");
    // LD A,'!' / OUT (0Fh),A / LD A,5 / OUT (0Dh),A, loaded at C000h.
    std::fs::write(&bin, [0x3E, b'!', 0xD3, 0x0F, 0x3E, 5, 0xD3, 0x0D]).unwrap();
    let o = run(&[bin.to_str().unwrap(), "--org", "0xC000", "--headless"]);
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("!", Some(5)));
    let bad = dir.path().join("bad.asm");
    std::fs::write(&bad, "  org $8000\n  ld a,(hl\n").unwrap();
    let o = run(&[bad.to_str().unwrap(), "--headless"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.asm"));
    let o = run(&["tests/z80/console.asm", "--entry", "nowhere", "--headless"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--entry LABEL` starts at that label instead of the first ORG: console.asm entered at `done`
/// skips its printing loop and only exits with its status.
#[test]
fn entry_at_a_label_skips_what_comes_before_it() {
    let o = run(&["tests/z80/console.asm", "--headless"]);
    assert_eq!(
        (stdout(&o).as_str(), o.status.code()),
        ("Hello from the Z80\nsecond line\n", Some(7))
    );
    let o = run(&["tests/z80/console.asm", "--entry", "done", "--headless"]);
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("", Some(7)));
}

/// `--screenshot` is the pixel view (bitmap and attributes) at scale 2 with the border around it
/// (16 pixels at scale 1): tests/z80/attrs.asm paints paper colours 1, 2, 3... down the diagonal
/// and a red border.
#[test]
fn the_screenshot_is_the_pixels_with_the_border() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("attrs.png");
    let o = run(&[
        "tests/z80/attrs.asm",
        "--headless",
        "--screenshot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let info = common::Picture::read(&png);
    assert_eq!((info.width, info.height), (2 * (256 + 32), 2 * (192 + 32)));
    let rgb = |x: u32, y: u32| info.at(x, y);
    // Attribute cell (col, row) is 16x16 PNG pixels, after a 32-pixel border.
    let cell = |col: u32, row: u32| rgb(32 + col * 16 + 8, 32 + row * 16 + 8);
    assert_eq!(rgb(0, 0), (0xD7, 0, 0), "the red border");
    assert_eq!(cell(0, 0), (0, 0, 0xD7), "blue paper");
    assert_eq!(cell(1, 1), (0xD7, 0, 0), "red paper");
    assert_eq!(cell(2, 2), (0xD7, 0, 0xD7), "magenta paper");
    assert_eq!(cell(1, 0), (0, 0, 0), "black elsewhere");
}

/// `retro run` and `retro debug` on the same file behave the same when no breakpoint stops it:
/// the same console text and exit status, with the same scripted keys (the debugger feeds them
/// by virtual time as the headless run does).
#[test]
fn run_and_debug_behave_the_same_without_breakpoints() {
    let cases: [(&str, &[&str]); 3] = [
        ("tests/z80/keys.asm", &["--keys", "=+200 q +300 p"]),
        ("tests/z80/im2.asm", &[]),
        ("tests/z80/console.asm", &[]),
    ];
    for (file, keys) in cases {
        let ran = run(&[&[file, "--headless"], keys].concat());
        let status = ran.status.code().expect("an exit status");
        let debugged = Command::new(env!("CARGO_BIN_EXE_retro"))
            .args(["debug", file, "--script", "=continue"])
            .args(keys)
            .output()
            .expect("run retro debug");
        assert_eq!(debugged.status.code(), Some(0), "{file}");
        assert_eq!(
            stdout(&debugged),
            format!(
                "(z80) continue\n{}Program exited with status {status}.\n",
                stdout(&ran)
            ),
            "{file}"
        );
    }
}

/// In the terminal the screen is the attribute cells at 80x24 and the pixels (half-blocks) in a
/// terminal of 128x49 or more (docs/z80-machine.md): tests/z80/pixels.asm's top-left cell is `#`
/// in the one and a row of upper half-blocks in the other.
#[test]
#[cfg(unix)]
fn big_terminals_show_the_pixels() {
    let screen_at = |w: u16, h: u16| {
        // A server of its own for each size (one shutting down would refuse the next session).
        let here = std::env::current_dir().expect("the current directory");
        let tmux = pty::Tmux::start(
            &format!("z80-pixels-{w}x{h}"),
            w,
            h,
            &here,
            "run tests/z80/pixels.asm",
        )?;
        let s = tmux.wait_until("a first row", |s| {
            !s.lines().next().unwrap_or("").trim().is_empty()
        });
        Some(s.lines().next().unwrap_or("").trim().to_string())
    };
    let Some(small) = screen_at(80, 24) else {
        return;
    };
    assert_eq!(small, "#", "attribute cells at 80x24");
    assert_eq!(
        screen_at(130, 50).as_deref(),
        Some("▀▀▀▀"),
        "8 ink pixels as half-blocks at 130x50"
    );
}

/// `--screenshot` writes the PNG through a symbolic link (the link stays a link) and into a FIFO,
/// as `cat >` would (#21: every user file).
#[test]
#[cfg(unix)]
fn the_screenshot_is_written_through_a_symlink_and_into_a_fifo() {
    let shoot = |to: &str| run(&["tests/z80/attrs.asm", "--headless", "--screenshot", to]);
    let dir = tempfile::tempdir().unwrap();
    for (how, png) in [
        (
            "through a symlink",
            common::written_through_a_symlink(dir.path(), shoot),
        ),
        ("into a FIFO", common::written_into_a_fifo(dir.path(), shoot)),
    ] {
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{how}: a PNG");
        let info = common::Picture::decode(&png);
        assert_eq!(
            (info.width, info.height),
            (2 * (256 + 32), 2 * (192 + 32)),
            "{how}"
        );
    }
}

/// `END main` enters at `main`, not at the first ORG (where this program keeps its text);
/// `--entry` still wins.
#[test]
fn the_end_address_is_the_entry_point_and_entry_wins() {
    let o = run(&["tests/z80/end_entry.asm", "--headless"]);
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("END entry\n", Some(3)));
    let o = run(&["tests/z80/end_entry.asm", "--headless", "--entry", "other"]);
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("", Some(4)));
}

/// `retro run` and `retro debug` recognise an sjasmplus source by its DEVICE line, as `retro asm`
/// does: `ld bc,de`, `:` and DUP assemble, and both runs agree.
#[test]
fn run_and_debug_detect_the_sjasmplus_dialect() {
    let file = "tests/z80/sjasmplus.asm";
    let ran = run(&[file, "--headless"]);
    assert_eq!(
        (stdout(&ran).as_str(), ran.status.code()),
        ("S", Some(17)),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let debugged = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(["debug", file, "--script", "=continue"])
        .output()
        .expect("run retro debug");
    assert_eq!(
        stdout(&debugged),
        "(z80) continue\nS\nProgram exited with status 17.\n"
    );
}

/// Our own programs assemble without a warning, so a run prints nothing on stderr (issue 31:
/// every run of tetris.asm printed 44 W001 warnings, 660 lines; connect4.asm 14).
#[test]
fn our_programs_run_without_a_warning() {
    for program in ["programs/tetris/tetris.asm", "programs/connect4/connect4.asm"] {
        let o = run(&[program, "--headless", "--time", "1"]);
        assert_eq!(o.status.code(), Some(0), "{program}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            "",
            "{program} printed on stderr"
        );
    }
}

/// A user program's warnings come once per code with a count of the rest, and `--no-warn CODE`
/// or `-W none` leaves them out.
#[test]
fn a_user_programs_warnings_come_once_with_a_count_and_can_be_silenced() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("locals.asm");
    std::fs::write(
        &prog,
        "start: jr .x\n.x: nop\nfoo: jr .x\n.x: nop\nbar: jr .x\n.x: nop\nbaz: jr .x\n.x: halt\n",
    )
    .unwrap();
    let prog = prog.to_str().unwrap();
    let o = run(&[prog, "--headless", "--time", "0.1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("[W001] Warning").count(), 1, "{err}");
    assert!(
        err.contains("[W001] and 2 more warnings like it (`--no-warn W001` silences them)"),
        "{err}"
    );
    for quiet in [&["--no-warn", "W001"][..], &["-W", "none"][..]] {
        let mut args = vec![prog, "--headless", "--time", "0.1"];
        args.extend_from_slice(quiet);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&o.stderr), "", "{quiet:?}");
    }
}
