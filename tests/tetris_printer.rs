//! The Z80 Tetris's printer mode (programs/tetris/printer.asm, issue #18) against retro tpa's
//! replay (interpreters/tpa): the program is run through the debugger core to the end of each
//! drop (`printer_dropped`: the piece locked, full rows cleared) and its 21 x 42 field, read from
//! the machine's memory, is compared with the Rust replay's field after the same drop. At the
//! end the field, and the screen's pixels, hold exactly the picture.

use std::path::Path;

use retro_screen::Rgb;
use retro_tpa::convert::convert;
use retro_tpa::field::{Field, HEIGHT, WIDTH};
use retro_tpa::image::Image;
use retro_tpa::replay::Replay;
use retro_tpa::sequence::Sequence;
use retro_z80_machine::debug::{Event, Z80Debugger};
use retro_z80_machine::display::{bitmap_address, colours};
use retro_z80_machine::{NoProbe, Stop, Workbench};

mod common;

/// Steps allowed for one drop (a drop takes some 30 frames of a few thousand instructions).
const DROP_BUDGET: u64 = 5_000_000;

fn assemble() -> retro_z80_asm::Assembly {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/tetris/tetris.asm");
    retro_z80_asm::assemble_file(&path)
        .unwrap_or_else(|f| panic!("tetris.asm does not assemble:\n{}", f.render(false)))
}

struct Printer {
    dbg: Z80Debugger,
}

impl Printer {
    /// The program with `bytes` at printer_seq and printer_go set, as `retro run --printer` does.
    fn new(bytes: &[u8]) -> Printer {
        let mut dbg = Z80Debugger::from_assembly(&assemble());
        dbg.record = false;
        let mut p = Printer { dbg };
        let at = p.sym("printer_seq");
        for (i, b) in bytes.iter().enumerate() {
            p.dbg.machine.poke(at + i as u16, *b);
        }
        let go = p.sym("printer_go");
        p.dbg.machine.poke(go, 1);
        p
    }
    fn sym(&self, name: &str) -> u16 {
        self.dbg
            .program
            .symbols
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }
    fn peek(&self, name: &str) -> u8 {
        self.dbg.machine.peek(self.sym(name))
    }
    /// Runs to the end of the next drop; false if the printer finished or jammed instead.
    fn next_drop(&mut self) -> bool {
        let at = self.sym("printer_dropped");
        if self.dbg.machine.cpu().pc() == at {
            self.dbg.stepi();
        }
        let ev = self.dbg.until(at, DROP_BUDGET);
        assert!(
            matches!(ev, Event::Done | Event::Breakpoint(_)),
            "no drop ended within the budget: {ev:?} (p_state {})",
            self.peek("p_state")
        );
        self.dbg.machine.cpu().pc() == at
    }
    /// The field in the Z80's memory, as the Rust field numbers it (row 0 at the floor).
    fn cell(&self, x: usize, y: usize) -> u8 {
        let row = HEIGHT - 1 - y;
        self.dbg
            .machine
            .peek(self.sym("pfield") + ((row + 2) * WIDTH + x) as u16)
    }
    fn field_text(&self, rust: &Field) -> String {
        let mut out = String::new();
        for y in (0..HEIGHT).rev() {
            for x in 0..WIDTH {
                out.push(char::from_digit(u32::from(self.cell(x, y)), 16).unwrap_or('?'));
            }
            out.push_str("   ");
            for x in 0..WIDTH {
                out.push(char::from_digit(u32::from(rust.colour(x, y)), 16).unwrap());
            }
            out.push('\n');
        }
        out
    }
    /// Runs frames until the printer has drawn its last screen.
    fn finish(&mut self) {
        let done = u8::try_from(self.sym("P_DONE")).unwrap();
        for _ in 0..200 {
            if self.peek("p_state") == done && self.peek("p_status") == done {
                return;
            }
            self.dbg.cont(100_000);
        }
        panic!("the printer did not finish: p_state {}", self.peek("p_state"));
    }
    /// The palette index the screen shows at pixel (x, y).
    fn pixel(&self, x: usize, y: usize) -> u8 {
        let m = &self.dbg.machine;
        let attr = m.peek(0x5800 + (y / 8 * 32 + x / 8) as u16);
        let (ink, paper) = colours(attr, false);
        if m.peek(bitmap_address(x / 8, y)) & (0x80 >> (x % 8)) != 0 {
            ink
        } else {
            paper
        }
    }
}

/// Plays `seq` on the Z80 and in Rust, comparing the fields after every drop; returns the
/// printer at its end and the Rust field.
fn play_both(seq: &Sequence) -> (Printer, Field) {
    let mut z = Printer::new(&seq.to_bytes());
    let mut rust = Replay::new(seq.clone(), 1);
    for n in 1..=seq.drops.len() {
        assert!(rust.step().unwrap(), "the Rust replay ended early");
        assert!(
            z.next_drop(),
            "drop {n}: the Z80 printer stopped (p_state {})",
            z.peek("p_state")
        );
        let same = (0..HEIGHT).all(|y| (0..WIDTH).all(|x| z.cell(x, y) == rust.field().colour(x, y)));
        assert!(
            same,
            "after drop {n} ({:?}) the fields differ (Z80 left, Rust right):\n{}",
            seq.drops[n - 1],
            z.field_text(rust.field())
        );
    }
    let field = rust.field().clone();
    (z, field)
}

/// The Spectrum colours a picture's J, T and L should get (docs/tetris.md: each the nearest of
/// the seven by the sum of |R|, |G| and |B| differences against D7h, or FFh when BRIGHT, and
/// BRIGHT when its three distances add up to less), worked out by hand beside each use so the
/// program's own choice (p_inks) is checked, not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spectrum {
    /// Ink of colour 1, 2 and 3: 1 blue, 2 red, 4 green, 6 yellow, 7 white...
    inks: [u8; 3],
    bright: bool,
}

/// The heart's #D82800, #FCFCFC, #2038EC. Normal: red 1+40+0 = 41, white 3x37 = 111, blue
/// 32+56+21 = 109, 261 in all; BRIGHT: red 39+40 = 79, white 3x3 = 9, blue 32+56+19 = 107,
/// 195: BRIGHT red, white, blue.
const HEART_INKS: Spectrum = Spectrum {
    inks: [2, 7, 1],
    bright: true,
};

/// The built-in picture's #00D800, #D82800, #FCFCFC. Normal: green 1, red 41, white 111: 153;
/// BRIGHT: green 39, red 79, white 9: 127: BRIGHT green, red, white.
const PICTURE_INKS: Spectrum = Spectrum {
    inks: [4, 2, 7],
    bright: true,
};

/// The random sprites' #E04020, #2040E0, #F0E020. Normal: red 9+64+32 = 105, blue 105, yellow
/// 25+9+32 = 66: 276; BRIGHT: red 31+64+32 = 127, blue 127, yellow 15+31+32 = 78: 332: normal
/// red, blue, yellow.
const RANDOM_INKS: Spectrum = Spectrum {
    inks: [2, 1, 6],
    bright: false,
};

/// The field holds the picture (placed as the converter placed it) and nothing else, and the
/// screen shows each of its cells in the Spectrum colour `colours` gives its picture colour.
fn assert_prints(z: &Printer, image: &Image, colours: Spectrum) {
    let conv = convert(image).unwrap();
    let mut want = Field::new();
    for y in 0..image.height() {
        for x in 0..image.width() {
            if let Some((fx, fy)) = conv.placement.field_cell(x, y) {
                want.set(fx, fy, image.get(x, y));
            }
        }
    }
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            assert_eq!(z.cell(x, y), want.colour(x, y), "cell ({x}, {y})");
        }
    }
    let chosen: Vec<u8> = (1..4).map(|c| z.dbg.machine.peek(z.sym("p_inks") + c)).collect();
    assert_eq!(chosen, colours.inks, "the inks the program chose for J, T and L");
    assert_eq!(
        z.peek("p_bright") != 0,
        colours.bright,
        "the program's brightness"
    );
    assert_terminal_cells(z, &want, colours);
    // The screen: cell (x, row) is 8 x 4 pixels at column 1 + x, line 8 + 4 * row.
    let inks = [0, colours.inks[0], colours.inks[1], colours.inks[2]];
    let bright = if colours.bright { 8 } else { 0 };
    for y in 0..HEIGHT {
        let row = HEIGHT - 1 - y;
        for x in 0..WIDTH {
            let c = want.colour(x, y);
            let expect = if c == 0 { bright } else { inks[c as usize] + bright };
            for (dx, dy) in [(0, 0), (7, 3), (3, 1)] {
                let shown = z.pixel(8 + 8 * x + dx, 8 + 4 * row + dy);
                // Black is black at either brightness.
                let (shown, expect) = if expect & 7 == 0 {
                    (shown & 7, 0)
                } else {
                    (shown, expect)
                };
                assert_eq!(shown, expect, "screen pixel of cell ({x}, {y})");
            }
        }
    }
}

/// The terminal shows attribute cells by their paper: two field cells of one colour fill theirs.
fn assert_terminal_cells(z: &Printer, want: &Field, colours: Spectrum) {
    for k in 0..HEIGHT / 2 {
        for x in 0..WIDTH {
            let (upper, lower) = (
                want.colour(x, HEIGHT - 1 - 2 * k),
                want.colour(x, HEIGHT - 2 - 2 * k),
            );
            if upper == lower && upper != 0 {
                let attr = z.dbg.machine.peek(0x5800 + ((1 + k) * 32 + 1 + x) as u16);
                let ink = colours.inks[usize::from(upper) - 1];
                assert_eq!(
                    (attr >> 3) & 7,
                    ink,
                    "the paper of the cell for ({x}, rows {} and {})",
                    2 * k,
                    2 * k + 1
                );
            }
        }
    }
}

fn sprite(path: &str) -> Image {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    Image::from_text(&text).unwrap()
}

#[test]
fn the_heart_prints_drop_for_drop_as_the_rust_replay() {
    let image = sprite("interpreters/tpa/sprites/heart.txt");
    let seq = convert(&image).unwrap().sequence;
    let (mut z, _) = play_both(&seq);
    z.finish();
    assert_prints(&z, &image, HEART_INKS);
}

#[test]
fn the_built_in_picture_is_our_sprite_and_prints_drop_for_drop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("programs/tetris/printer/picture.tps")).unwrap();
    let seq = Sequence::parse(&text).unwrap();
    let bin = std::fs::read(root.join("programs/tetris/printer/picture.bin")).unwrap();
    assert_eq!(bin, seq.to_bytes(), "picture.bin is picture.tps's bytes");
    let image = sprite("programs/tetris/printer/picture.txt");
    let (mut z, field) = play_both(&seq);
    z.finish();
    assert_prints(&z, &image, PICTURE_INKS);
    let conv = convert(&image).unwrap();
    assert!(
        conv.stats.flipped > 0,
        "the picture is printed with flipped emitters too"
    );
    assert_eq!(field, conv.field, "the committed sequence prints the sprite");
}

/// A small xorshift, so the random sprites are the same on every run.
fn random_sprite(seed: u64, w: usize, h: usize) -> Image {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut pixels = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            pixels[y * w + x] = (next() % 4) as u8;
        }
        // No empty row between others (a Tetris field cannot hold one: docs/tetris-printer.md).
        let x = (next() % w as u64) as usize;
        pixels[y * w + x] = 1 + (next() % 3) as u8;
    }
    Image::new(w, h, pixels, RANDOM_PALETTE).unwrap()
}

/// The colours of the random and edge sprites (their Spectrum inks: [`RANDOM_INKS`]).
const RANDOM_PALETTE: [Rgb; 3] = [
    Rgb(0xE0, 0x40, 0x20),
    Rgb(0x20, 0x40, 0xE0),
    Rgb(0xF0, 0xE0, 0x20),
];

#[test]
fn random_sprites_print_drop_for_drop_as_the_rust_replay() {
    for (seed, w, h) in [(0x9E37_79B9_7F4A_7C15, 7, 4), (0x1234_5678_9ABC_DEF1, 5, 6)] {
        let image = random_sprite(seed, w, h);
        let seq = convert(&image).unwrap().sequence;
        let (mut z, _) = play_both(&seq);
        z.finish();
        assert_prints(&z, &image, RANDOM_INKS);
    }
}

#[test]
fn sprites_at_the_printable_edges_print_drop_for_drop_as_the_rust_replay() {
    // 17 wide, so columns 2-4 and 16-18 of the field; the pixels at x 1 and 16 of the middle
    // and top rows stand over holes, so the rows are printed on platforms built at the edges.
    let rows = [
        [3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2],
        [1, 2, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 1, 0],
        [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
    ];
    let image = Image::new(17, 3, rows.concat(), RANDOM_PALETTE).unwrap();
    let conv = convert(&image).unwrap();
    assert_eq!(conv.placement.left, 2);
    assert!(conv.stats.platforms > 0, "{:?}", conv.stats);
    let (mut z, _) = play_both(&conv.sequence);
    z.finish();
    assert_prints(&z, &image, RANDOM_INKS);
}

#[test]
fn the_16_wide_robot_prints_drop_for_drop_as_the_rust_replay() {
    // Colours 1-3 in the order the picture first uses them: #F8B800, #303030, #00A8A8.
    // Normal: yellow 33+31+0 = 64; black is the empty field, so #303030 takes blue
    // (48+48+167 = 263, a tie with red and green: blue, the first); cyan 0+47+47 = 94: 421.
    // BRIGHT: yellow 7+71+0 = 78, blue 48+48+207 = 303, cyan 0+87+87 = 174: 555. So normal
    // yellow, blue, cyan.
    let image = sprite("interpreters/tpa/sprites/robot.txt");
    assert_eq!(
        image.palette,
        [Rgb(0xF8, 0xB8, 0), Rgb(0x30, 0x30, 0x30), Rgb(0, 0xA8, 0xA8)]
    );
    let conv = convert(&image).unwrap();
    // Columns 2-17: the left edge, and the right one but for column 18.
    assert_eq!((conv.placement.left, image.width()), (2, 16));
    let (mut z, _) = play_both(&conv.sequence);
    z.finish();
    let robot = Spectrum {
        inks: [6, 1, 5],
        bright: false,
    };
    assert_prints(&z, &image, robot);
}

#[test]
fn a_drop_the_game_refuses_jams_the_printer() {
    // Orientation 13h does not exist.
    let mut bytes = vec![0xFF; 9];
    bytes.extend([1, 0, 0x13, 5]);
    let mut z = Printer::new(&bytes);
    z.dbg.cont(3_000_000);
    assert_eq!(u16::from(z.peek("p_state")), z.sym("P_JAM"));
}

/// T-states from each frame's start to the program's next HALT, over a whole print: the worst
/// frame, its number, the frame's budget and the frames the print took.
fn worst_frame(bytes: &[u8]) -> (u64, usize, u64, usize) {
    let asm = assemble();
    let program = retro_z80_machine::Program::from_assembly(&asm);
    let mut m = Workbench::new(retro_z80_machine::FrameRate::Hz60);
    program.load_into(&mut m);
    let at = program.symbols.get("printer_seq").unwrap();
    for (i, b) in bytes.iter().enumerate() {
        m.poke(at + i as u16, *b);
    }
    m.poke(program.symbols.get("printer_go").unwrap(), 1);
    let p_state = program.symbols.get("p_state").unwrap();
    let done = program.symbols.get("P_DONE").unwrap() as u8;
    let main = program.symbols.get("main").unwrap();
    let frame_t = m.state.clock.frame_t;
    // To the first frame.
    while !matches!(m.run(&NoProbe, u64::MAX, u64::MAX, |_| false).1, Stop::Frame) {}
    let mut worst = (0, 0);
    for frame in 1..200_000 {
        let start = m.cpu().tstates();
        // Past the HALT the frame interrupt ends, to the program's next HALT at `main`.
        let mut stop = m.run(&NoProbe, u64::MAX, u64::MAX, |pc| pc == main).1;
        if m.cpu().tstates() == start {
            m.step(&NoProbe);
            stop = m.run(&NoProbe, u64::MAX, u64::MAX, |pc| pc == main).1;
        }
        assert!(
            matches!(stop, Stop::Break(_)),
            "frame {frame} did not end in time: {stop:?}"
        );
        let busy = m.cpu().tstates() - start;
        if busy > worst.0 {
            worst = (busy, frame);
        }
        if m.peek(p_state) == done {
            return (worst.0, worst.1, frame_t, frame);
        }
        while !matches!(m.run(&NoProbe, u64::MAX, u64::MAX, |_| false).1, Stop::Frame) {}
    }
    panic!("the print did not end");
}

#[test]
fn no_printer_frame_goes_over_the_t_state_budget() {
    let robot = convert(&sprite("interpreters/tpa/sprites/robot.txt"))
        .unwrap()
        .sequence;
    let picture =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/tetris/printer/picture.bin"));
    for (name, bytes) in [
        ("robot", robot.to_bytes()),
        ("built-in picture", picture.unwrap()),
    ] {
        let (worst, frame, budget, frames) = worst_frame(&bytes);
        eprintln!("{name}: worst frame {frame}: {worst} T-states of {budget}; {frames} frames in all");
        assert!(
            worst < budget,
            "{name}: frame {frame} takes {worst} T-states, over the frame's {budget}"
        );
    }
}

fn retro(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_retro"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn text_screen(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn retro_run_printer_prints_a_sequence_file_to_the_end() {
    let seq = "programs/tetris/printer/picture.tps";
    let done = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--printer",
        seq,
        "--headless",
        "--time",
        "190",
        "--dump-screen",
        "text",
    ]));
    assert!(done.contains("PRINTER") && done.contains("DONE"), "{done}");
    let mid = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--printer",
        seq,
        "--headless",
        "--time",
        "60",
        "--dump-screen",
        "text",
    ]));
    assert!(mid.contains("PRINTER") && !mid.contains("DONE"), "{mid}");
}

#[test]
fn the_machines_dump_shows_the_printed_hearts_cells() {
    // The whole path a user takes: `retro tpa` writes the sequence, `retro run --printer` plays
    // it, and `--dump-screen colours` reads the final screen through the machine's dump (each
    // attribute cell's paper, 8-F when BRIGHT).
    let dir = tempfile::tempdir().unwrap();
    let seq = dir.path().join("heart.tps");
    let seq = seq.to_str().unwrap();
    let o = retro(&["tpa", "interpreters/tpa/sprites/heart.txt", "-o", seq]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dump = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--printer",
        seq,
        "--headless",
        "--time",
        "200",
        "--dump-screen",
        "colours",
    ]));
    let lines: Vec<&str> = dump.lines().collect();
    // An attribute cell holds two field rows; its paper is the lower row's colour where the
    // upper one is printed (the upper in ink), else black with the lower in ink
    // (docs/tetris.md, "The screen"). Field rows 41 and 40 are screen row 1, ..., 1 and 0 row 21.
    let empty = "0".repeat(WIDTH);
    let field: Vec<&[u8]> = std::iter::repeat_n(empty.as_str(), HEIGHT - 8)
        .chain(common::HEART_FIELD)
        .map(str::as_bytes)
        .collect();
    let digit = |c: u8| {
        let ink = if c == b'0' {
            0
        } else {
            HEART_INKS.inks[usize::from(c - b'1')]
        };
        char::from_digit(u32::from(ink + 8 * u8::from(HEART_INKS.bright)), 16).unwrap()
    };
    for (k, pair) in field.chunks(2).enumerate() {
        let want: String = (0..WIDTH)
            .map(|x| digit(if pair[0][x] == b'0' { b'0' } else { pair[1][x] }))
            .collect();
        let shown = lines.get(1 + k).and_then(|l| l.get(1..=WIDTH));
        assert_eq!(shown, Some(want.as_str()), "screen row {}:\n{dump}", 1 + k);
    }
}

#[test]
fn the_printers_field_is_framed_in_white() {
    let s = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--printer",
        "programs/tetris/printer/picture.tps",
        "--headless",
        "--time",
        "1",
        "--dump-screen",
        "colours",
    ]));
    let s: Vec<String> = s.lines().map(str::to_string).collect();
    // 21 x 21 cells (two field rows each) from row 1, column 1.
    if let Err(e) = common::white_frame(&s, 1, 1, 21, 21) {
        panic!("{e}:\n{}", s.join("\n"));
    }
}

#[test]
fn p_on_the_title_screen_prints_the_built_in_picture() {
    let title = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--headless",
        "--time",
        "10",
        "--dump-screen",
        "text",
    ]));
    assert!(title.contains("P: TETRIS PRINTER"), "{title}");
    let done = text_screen(&retro(&[
        "run",
        "programs/tetris/tetris.asm",
        "--headless",
        "--keys",
        "=+10000 p",
        "--time",
        "200",
        "--dump-screen",
        "text",
    ]));
    assert!(done.contains("DONE"), "{done}");
}

#[test]
fn printer_errors_name_the_problem() {
    let dir = std::env::temp_dir().join(format!("retro-tetris-printer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Runs `program` with `--printer seq` headless: it must fail; what it said.
    let refused = |program: &str, seq: &std::path::Path| {
        let out = retro(&["run", program, "--printer", seq.to_str().unwrap(), "--headless"]);
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    const TETRIS: &str = "programs/tetris/tetris.asm";
    let bad = dir.join("bad.tps");
    std::fs::write(&bad, "palette #000000 #FFFFFF\nQ 02 3\n").unwrap();
    let err = refused(TETRIS, &bad);
    assert!(
        err.contains("bad.tps: line 1: want: palette #RRGGBB #RRGGBB #RRGGBB"),
        "{err}"
    );
    // A drop with no such piece, told in the sequence file's own format.
    std::fs::write(&bad, "palette #000000 #FFFFFF #00FF00\nQ 02 3\n").unwrap();
    let err = refused(TETRIS, &bad);
    assert!(
        err.contains(
            "bad.tps: line 2: bad drop 'Q 02 3' (want a piece letter, two hex digits, a column: T 02 9)"
        ),
        "{err}"
    );
    // A sequence too long for the room at printer_seq.
    let big = dir.join("big.bin");
    std::fs::write(&big, vec![0u8; 0x3000]).unwrap();
    let err = refused(TETRIS, &big);
    // 0x3000 bytes against PRINTER_SEQ_MAX, FE00h - D000h.
    assert!(
        err.contains("big.bin: 12288 bytes of sequence; the printer has room for 11776"),
        "{err}"
    );
    // A program without a printer mode.
    let err = refused(
        "programs/connect4/connect4.asm",
        std::path::Path::new("programs/tetris/printer/picture.tps"),
    );
    assert!(
        err.contains(
            "--printer: the program has no `printer_seq` (only programs/tetris/tetris.asm has a printer mode)"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
