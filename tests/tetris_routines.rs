//! NES Tetris's Z80 routines (programs/tetris) called one at a time through the debugger core's
//! `call`, against the rules of ../shared/reference/nes-tetris.md: the LFSR (section 3), piece
//! selection (section 3's pseudocode), collision at the walls and floor (sections 1-2), line
//! removal (section 6) and the BCD score (section 7).

use std::path::Path;

use retro_z80_machine::debug::{CallResult, Z80Debugger};

const BUDGET: u64 = 1_000_000;

struct Game {
    dbg: Z80Debugger,
    last: Option<CallResult>,
}

impl Game {
    fn new() -> Game {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/tetris/tetris.asm");
        let asm = retro_z80_asm::assemble_file(&path)
            .unwrap_or_else(|f| panic!("tetris.asm does not assemble:\n{}", f.render(false)));
        let mut dbg = Z80Debugger::from_assembly(&asm);
        dbg.record = false;
        Game { dbg, last: None }
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
    fn poke(&mut self, name: &str, off: u16, v: u8) {
        let a = self.sym(name) + off;
        self.dbg.machine.poke(a, v);
    }
    fn call(&mut self, label: &str, regs: &[(&str, u16)]) {
        let r = self
            .dbg
            .call(label, regs, BUDGET)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        self.last = Some(r);
    }
    fn a(&self) -> u8 {
        (self.last.as_ref().unwrap().regs.af >> 8) as u8
    }
    fn carry(&self) -> bool {
        self.last.as_ref().unwrap().regs.af & 1 != 0
    }
    fn rng(&self) -> u16 {
        u16::from(self.peek("rng")) | u16::from(self.dbg.machine.peek(self.sym("rng") + 1)) << 8
    }
    fn set_rng(&mut self, s: u16) {
        self.poke("rng", 0, s as u8);
        self.poke("rng", 1, (s >> 8) as u8);
    }
    fn field(&mut self, cells: &[(u16, u16)]) {
        for i in 0..256 {
            self.poke("playfield", i, 0);
        }
        for &(row, col) in cells {
            self.poke("playfield", row * 10 + col, 1);
        }
    }
    fn filled(&self) -> Vec<bool> {
        let p = self.sym("playfield");
        (0..200).map(|i| self.dbg.machine.peek(p + i) != 0).collect()
    }
    fn score(&self) -> [u8; 4] {
        let s = self.sym("score");
        [0, 1, 2, 3].map(|i| self.dbg.machine.peek(s + i))
    }
    fn set_score(&mut self, bytes: [u8; 4]) {
        for (i, b) in bytes.iter().enumerate() {
            self.poke("score", i as u16, *b);
        }
    }
}

/// Section 3: the new top bit is bit 9 XOR bit 1, the rest shifts right.
fn lfsr(s: u16) -> u16 {
    let fb = ((s >> 9) ^ (s >> 1)) & 1;
    (fb << 15) | (s >> 1)
}

#[test]
fn lfsr_steps_as_the_sheet_says_with_a_period_of_32767() {
    let mut g = Game::new();
    g.set_rng(0x8988);
    let first = [0x8988, 0x44C4, 0x2262, 0x1131, 0x0898, 0x044C, 0x0226, 0x0113];
    let mut model = 0x8988u16;
    for step in 1..=32767u32 {
        g.call("rng_step", &[]);
        model = lfsr(model);
        assert_eq!(g.rng(), model, "step {step}");
        if (step as usize) < first.len() {
            assert_eq!(g.rng(), first[step as usize], "the sheet's first states");
        }
        if step < 32767 {
            assert_ne!(g.rng(), 0x8988, "back at the start after {step} steps");
        }
    }
    assert_eq!(g.rng(), 0x8988, "the period is 32767");
}

/// Section 3's pickRandomTetrimino.
fn pick_model(rng: &mut u16, count: &mut u8, last: &mut u8) -> u8 {
    const SPAWN: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];
    *count = count.wrapping_add(1);
    let i = ((*rng >> 8) as u8).wrapping_add(*count) & 7;
    let result = if i != 7 && SPAWN[i as usize] != *last {
        SPAWN[i as usize]
    } else {
        *rng = lfsr(*rng);
        SPAWN[((((*rng >> 8) as u8 & 7) + *last) % 7) as usize]
    };
    *last = result;
    result
}

#[test]
fn piece_selection_follows_the_counter_the_rng_and_the_reroll() {
    let mut g = Game::new();
    let (mut rng, mut count, mut last) = (0x8988u16, 0u8, 0u8);
    g.set_rng(rng);
    g.poke("spawn_count", 0, 0);
    g.poke("spawn_id", 0, 0);
    let mut rerolls = 0;
    for n in 0..2000 {
        // Chosen states: the RNG walked forward by a varying number of steps between picks.
        for _ in 0..(n % 5) {
            rng = lfsr(rng);
            g.call("rng_step", &[]);
        }
        let before = rng;
        let want = pick_model(&mut rng, &mut count, &mut last);
        rerolls += usize::from(rng != before);
        g.call("pick", &[]);
        assert_eq!(g.a(), want, "pick {n} from RNG {before:04X}");
        assert_eq!(g.rng(), rng, "pick {n}: the RNG after a reroll");
        assert_eq!(g.peek("spawn_id"), want);
    }
    assert!(rerolls > 100, "rerolls happen ({rerolls})");
}

/// `valid` for orientation `piece` at (x, y): true when free.
fn valid(g: &mut Game, piece: u8, x: i8, y: i8) -> bool {
    g.call(
        "valid",
        &[
            ("C", u16::from(piece)),
            ("D", u16::from(x as u8)),
            ("E", u16::from(y as u8)),
        ],
    );
    !g.carry()
}

#[test]
fn collision_at_the_walls_the_floor_and_blocks_with_rows_above_the_top_allowed() {
    let mut g = Game::new();
    g.field(&[]);
    // I horizontal (12h): minos at dx -2..1.
    assert!(!valid(&mut g, 0x12, 1, 5), "a mino at column -1");
    assert!(valid(&mut g, 0x12, 2, 5));
    assert!(valid(&mut g, 0x12, 8, 5));
    assert!(!valid(&mut g, 0x12, 9, 5), "a mino at column 10");
    assert!(valid(&mut g, 0x12, 5, 19), "the floor row");
    assert!(!valid(&mut g, 0x12, 5, 20), "below the floor");
    // I vertical (11h): dy -2..1; the hidden rows -2 and -1 are allowed.
    assert!(valid(&mut g, 0x11, 0, 0));
    assert!(valid(&mut g, 0x11, 9, 18));
    assert!(!valid(&mut g, 0x11, 9, 19), "a mino at row 20");
    // Blocks.
    g.field(&[(10, 4)]);
    assert!(!valid(&mut g, 0x02, 5, 10), "T down's left mino on the block");
    assert!(valid(&mut g, 0x02, 6, 10));
    assert!(!valid(&mut g, 0x02, 4, 9), "T down's bottom mino on the block");
    // Rotation: T at the left wall pointing right cannot turn to point left... it can, and
    // T down at column 0 is off the wall.
    g.field(&[]);
    assert!(valid(&mut g, 0x01, 0, 5), "T right at the left wall");
    assert!(
        !valid(&mut g, 0x02, 0, 5),
        "T down would stick out of the left wall"
    );
    // Row -1 wraps to the page's last bytes, as on the NES.
    g.field(&[]);
    g.poke("playfield", 250, 1); // row -1, column 4 wraps to byte 246+4
    assert!(
        !valid(&mut g, 0x11, 4, 0),
        "I vertical at row 0 reaches row -1's wrapped byte"
    );
}

/// Removes full rows with the piece's pivot at `y`: check_row four times.
fn check_rows(g: &mut Game, y: u8) -> u8 {
    g.poke("piece_y", 0, y);
    g.poke("render_rows", 0, 5);
    g.poke("row_offset", 0, 0);
    g.poke("cleared", 0, 0);
    for _ in 0..4 {
        g.call("check_row", &[]);
    }
    g.peek("cleared")
}

#[test]
fn one_to_four_full_rows_are_removed_and_the_rows_above_move_down() {
    for n in 1..=4u16 {
        let mut g = Game::new();
        let mut cells = vec![];
        // Rows 19, 18, ... full except the last n rows up, a marker at row 10 column 3 and a
        // half-full row 19 - n.
        for row in 20 - n..20 {
            for col in 0..10 {
                cells.push((row, col));
            }
        }
        cells.push((19 - n, 0));
        cells.push((10, 3));
        g.field(&cells);
        assert_eq!(check_rows(&mut g, 18), n as u8, "{n} lines");
        let f = g.filled();
        let mut want = vec![false; 200];
        want[19 * 10] = true; // the half-full row fell to the bottom
        want[(10 + n as usize) * 10 + 3] = true;
        assert_eq!(f, want, "{n} lines: the rows above moved down {n}");
        assert_eq!(g.peek("play_state"), 3, "the line-clear animation follows");
    }
    let mut g = Game::new();
    g.field(&[(19, 0)]);
    assert_eq!(check_rows(&mut g, 18), 0);
    assert_eq!(g.peek("play_state"), 4, "no lines: straight to the statistics");
}

#[test]
fn bcd_score_addition_carries_and_caps_at_999999() {
    let mut g = Game::new();
    let points = g.sym("points");
    // 1200 (4 lines) onto 998,950 carries through every byte.
    g.set_score([0x50, 0x89, 0x99, 0]);
    g.call("add_score", &[("DE", points + 12), ("B", 1)]);
    assert_eq!(g.score(), [0x50, 0x01, 0x00, 0x01], "1,000,150 before the cap");
    g.poke("uncapped", 0, 0);
    g.call("cap_score", &[]);
    assert_eq!(g.score(), [0x99, 0x99, 0x99, 0], "capped at 999,999");
    // 40 onto 60 carries into the hundreds.
    g.set_score([0x60, 0x00, 0x00, 0]);
    g.call("add_score", &[("DE", points + 3), ("B", 1)]);
    assert_eq!(g.score(), [0x00, 0x01, 0x00, 0]);
    // Uncapped keeps the seventh digit.
    g.set_score([0x50, 0x89, 0x99, 0]);
    g.call("add_score", &[("DE", points + 12), ("B", 1)]);
    g.poke("uncapped", 0, 1);
    g.call("cap_score", &[]);
    assert_eq!(g.score(), [0x50, 0x01, 0x00, 0x01]);
}

#[test]
fn soft_drop_points_have_the_games_bcd_bug() {
    let mut g = Game::new();
    // (score low byte, holdDownPoints) -> (low byte, hundreds carried): section 7's example
    // $19 + 14 = $27 (not $33), a low nibble fix-up, and the high-nibble overflow that drops the
    // low digit (`and #$F0` before `adc #$60`).
    for (lo, hold, want_lo, carry) in [
        (0x19, 15, 0x27, 0),
        (0x15, 6, 0x20, 0),
        (0x95, 16, 0x00, 1),
        (0x99, 12, 0x00, 1),
        (0x95, 17, 0x00, 1),
        (0x90, 20, 0x00, 1),
        (0x30, 1, 0x30, 0),
    ] {
        g.set_score([lo, 0x09, 0, 0]);
        g.poke("hold_down", 0, hold);
        g.call("add_hold_down", &[]);
        let s = g.score();
        assert_eq!(s[0], want_lo, "{lo:02X} + {hold} - 1");
        assert_eq!(
            s[1],
            if carry == 1 { 0x10 } else { 0x09 },
            "{lo:02X} + {hold} - 1: hundreds"
        );
        assert_eq!(g.peek("hold_down"), 0);
    }
}

/// The score as 4 BCD bytes, little-endian, from a number.
fn bcd4(mut n: u32) -> [u8; 4] {
    let mut out = [0u8; 4];
    for b in &mut out {
        *b = (((n / 10 % 10) << 4) | (n % 10)) as u8;
        n /= 100;
    }
    out
}

#[test]
fn line_points_are_level_plus_one_times_the_table_at_every_level_within_a_frame() {
    // nes-tetris.md section 7: the points for 1-4 lines are added (level + 1) times. The game
    // must also do it in a small part of a frame (58,333 T-states at 60 Hz): the frame that
    // counts a clear also redraws the playfield and the statistics (about 40,000 T-states), and
    // adding the points once per level took about 200 T-states a time, so from level 87 a
    // tetris overran the frame and the game lost a frame the NES does not lose (an AI game of
    // 1,000 lines fell behind the oracle there). The old loop took 17,700 at level 87.
    let mut g = Game::new();
    let mut worst = 0;
    for cleared in 1..=4u8 {
        for level in 0..=255u8 {
            g.set_score([0; 4]);
            g.poke("uncapped", 0, 1);
            g.poke("game_type", 0, 0);
            g.poke("lines", 0, 0x01); // 1 line: + up to 4 is no multiple of 10, so no level-up
            g.poke("lines", 1, 0);
            g.poke("hold_down", 0, 0);
            g.poke("level", 0, level);
            g.poke("cleared", 0, cleared);
            g.call("update_stats", &[]);
            let points = [0, 40, 100, 300, 1200][usize::from(cleared)] * (u32::from(level) + 1);
            assert_eq!(g.score(), bcd4(points), "{cleared} lines at level {level}");
            worst = worst.max(g.last.as_ref().unwrap().tstates);
        }
    }
    assert!(worst < 8_000, "the line points took {worst} T-states");
}
