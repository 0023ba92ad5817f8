//! Runs programs/baba on the interpreter in this process, key by key: each key goes into the
//! keyboard buffer (631, count at 198) and the program runs until it waits for the next in its
//! `WAIT 198,15` or stops.
//! State is read as a user of the C64 could: PEEKs of screen memory, and of the program's
//! integer arrays where BASIC keeps them (between ARYTAB and STREND).

use retro_cbm::Program;
use retro_cbm::interp::{InputSource, Slice, Stop};
use retro_cbm::machine::{CbmMachine, Options};

use super::codec::{Field, TILES};

/// Statements a single key may take before the harness calls it a hang.
const BUDGET: u64 = 50_000_000;

pub struct Baba {
    machine: CbmMachine,
    /// How the run stopped, once it has.
    pub stopped: Option<Stop>,
    /// Statements run by the last key, to the hundred below.
    pub last_statements: u64,
}

/// The PETSCII of a key name in the key scripts' notation.
pub fn key_code(name: &str) -> u8 {
    match name {
        "RIGHT" => 29,
        "LEFT" => 157,
        "DOWN" => 17,
        "UP" => 145,
        "RETURN" => 13,
        "DEL" => 20,
        "F1" => 133,
        "F3" => 134,
        "F5" => 135,
        "F7" => 136,
        "SPACE" => 32,
        k if k.len() == 7 && k.starts_with("SHIFT-") => k.as_bytes()[6].to_ascii_uppercase() | 0x80,
        k if k.len() == 1 => retro_cbm::interp::ascii_to_petscii(k.as_bytes()[0]),
        k => panic!("no key {k}"),
    }
}

/// A key script (`RIGHT*4 DOWN z`) as PETSCII codes.
pub fn script(keys: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for item in keys.split_whitespace() {
        let (name, n) = match item.split_once('*') {
            Some((k, n)) if !k.is_empty() => (k, n.parse().expect("a count")),
            _ => (item, 1),
        };
        out.extend(std::iter::repeat_n(key_code(name), n));
    }
    out
}

impl Baba {
    /// Loads a listing (petcat text) and runs it to its first key wait (`WAIT 198,15`).
    pub fn listing(text: &str) -> Baba {
        let program = Program::read(text.as_bytes()).expect("the listing reads");
        let machine = CbmMachine::new(&program, InputSource::Keys, Options::default()).expect("loads");
        let mut b = Baba {
            machine,
            stopped: None,
            last_statements: 0,
        };
        b.settle();
        b
    }

    /// The game, from the title screen.
    pub fn game() -> Baba {
        Baba::listing(&super::levels::listing())
    }

    /// Runs until the program waits for a key or stops.
    pub fn settle(&mut self) {
        let mut run = 0u64;
        loop {
            match self.machine.interp().run_slice(100) {
                Slice::Running => run += 100,
                Slice::Waiting => break,
                Slice::Stopped(s) => {
                    self.stopped = Some(s);
                    break;
                }
            }
            assert!(
                run < BUDGET,
                "the program ran {run} statements without waiting for a key"
            );
        }
        self.last_statements = run;
    }

    /// Types one key and lets the program play it.
    pub fn key(&mut self, petscii: u8) {
        assert!(
            self.stopped.is_none(),
            "the program has stopped: {:?}",
            self.stopped
        );
        self.machine.interp().type_key(petscii);
        self.settle();
    }

    /// Types one key and lets the program play it statement by statement, noting the border
    /// colour (53280) after each: the colours it showed, in order, starting with the one before
    /// the key (repeats of a colour counted once).
    pub fn key_border(&mut self, petscii: u8) -> Vec<u8> {
        let mut seen = vec![self.peek(53280) & 15];
        self.machine.interp().type_key(petscii);
        let mut run = 0u64;
        loop {
            let slice = self.machine.interp().run_slice(1);
            let border = self.peek(53280) & 15;
            if seen.last() != Some(&border) {
                seen.push(border);
            }
            match slice {
                Slice::Running => run += 1,
                Slice::Waiting => break,
                Slice::Stopped(s) => {
                    self.stopped = Some(s);
                    break;
                }
            }
            assert!(run < BUDGET, "the program ran {run} statements without waiting");
        }
        seen
    }

    /// Plays a key script.
    pub fn keys(&mut self, keys: &str) {
        for k in script(keys) {
            self.key(k);
        }
    }

    /// The PETSCII the program printed since the last call.
    pub fn take_printed(&mut self) -> Vec<u8> {
        self.machine.take_petscii()
    }

    pub fn peek(&mut self, addr: u16) -> u8 {
        self.machine.interp().peek(addr)
    }

    /// The 1000 screen codes of the screen.
    pub fn screen(&mut self) -> Vec<u8> {
        (1024..2024).map(|a| self.peek(a)).collect()
    }

    /// The 1000 colours of colour RAM (low 4 bits).
    pub fn colours(&mut self) -> Vec<u8> {
        (55296..56296).map(|a| self.peek(a) & 15).collect()
    }

    /// The elements of integer array `name` (two letters), or None if it does not exist yet.
    pub fn int_array(&mut self, name: &str) -> Option<Vec<i16>> {
        let n = name.as_bytes();
        let want = [n[0] | 0x80, n.get(1).copied().unwrap_or(0) | 0x80];
        let word = |b: &mut Baba, a: u16| u16::from(b.peek(a)) | u16::from(b.peek(a + 1)) << 8;
        let mut at = word(self, 47);
        let end = word(self, 49);
        while at < end {
            let size = word(self, at + 2);
            if [self.peek(at), self.peek(at + 1)] == want {
                let dims = u16::from(self.peek(at + 4));
                let mut count = 1usize;
                for d in 0..dims {
                    let a = at + 5 + 2 * d;
                    count *= (usize::from(self.peek(a)) << 8) | usize::from(self.peek(a + 1));
                }
                let data = at + 5 + 2 * dims;
                return Some(
                    (0..count)
                        .map(|i| {
                            let a = data + 2 * i as u16;
                            i16::from_be_bytes([self.peek(a), self.peek(a + 1)])
                        })
                        .collect(),
                );
            }
            at += size;
        }
        None
    }

    /// A simple numeric variable's value (float, or integer with `%`), 0 if it does not exist:
    /// read from its 7 bytes between VARTAB and ARYTAB.
    pub fn var(&mut self, name: &str) -> f64 {
        let int = name.ends_with('%');
        let n = name.trim_end_matches('%').as_bytes();
        let hi = if int { 0x80 } else { 0 };
        let want = [n[0] | hi, n.get(1).copied().unwrap_or(0) | hi];
        let word = |b: &mut Baba, a: u16| u16::from(b.peek(a)) | u16::from(b.peek(a + 1)) << 8;
        let mut at = word(self, 45);
        let end = word(self, 47);
        while at < end {
            if [self.peek(at), self.peek(at + 1)] == want {
                let v: Vec<u8> = (2..7).map(|i| self.peek(at + i)).collect();
                if int {
                    return f64::from(i16::from_be_bytes([v[0], v[1]]));
                }
                if v[0] == 0 {
                    return 0.0;
                }
                let m = u32::from_be_bytes([v[1] | 0x80, v[2], v[3], v[4]]);
                let sign = if v[1] & 0x80 != 0 { -1.0 } else { 1.0 };
                return sign * f64::from(m) / 4_294_967_296.0 * 2f64.powi(i32::from(v[0]) - 128);
            }
            at += 7;
        }
        0.0
    }

    /// True while the level is won (the program waits on "SOLVED! PRESS A KEY").
    pub fn won(&mut self) -> bool {
        self.var("WN") != 0.0
    }

    /// How many YOU things are on the field.
    pub fn yous(&mut self) -> usize {
        self.var("NU") as usize
    }

    /// The playfield, `pf%()`.
    pub fn field(&mut self) -> Field {
        let pf = self.int_array("PF").expect("pf% exists");
        let mut f = [0u8; TILES];
        for (t, v) in f.iter_mut().zip(pf) {
            *t = u8::try_from(v).expect("a tile is a byte");
        }
        f
    }

    /// The status line (row 19: "LEVEL n OF m   TURN t").
    pub fn status(&mut self) -> String {
        self.row_text(19)
    }

    /// A screen row as text (screen codes 1-26 as letters, 32-63 as themselves).
    pub fn row_text(&mut self, row: u16) -> String {
        (0..40)
            .map(|c| {
                let s = self.peek(1024 + row * 40 + c) & 127;
                match s {
                    0 => '@',
                    1..=26 => (b'A' + s - 1) as char,
                    32..=63 => s as char,
                    _ => '?',
                }
            })
            .collect()
    }
}
