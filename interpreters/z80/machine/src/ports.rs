//! The workbench machine's I/O: which port does what, and the devices behind them (docs/z80-machine.md
//! is the user's description of the same map).
//!
//! Ports are decoded the way the Spectrum decodes them, on the low address lines only, so the high
//! byte (B in `IN A,(C)`, A in `IN A,(n)`) is free to carry the keyboard's half-row selection.

use crate::keyboard::Matrix;

/// Any even port: the ULA. `OUT` sets the border (bits 0-2) and the beeper (bit 4); `IN` reads
/// the keyboard half-rows selected by the zero bits of the high address byte.
pub const ULA: u8 = 0xFE;
/// The NES-style controller read as one byte: bit 0 A, 1 B, 2 SELECT, 3 START, 4 UP, 5 DOWN,
/// 6 LEFT, 7 RIGHT; 1 = pressed.
pub const PAD_PARALLEL: u8 = 0x1F;
/// The NES-style controller read serially, as the NES reads $4016: `OUT` with bit 0 set latches
/// the buttons (strobe), `OUT` with bit 0 clear releases the latch; each `IN` then returns the next
/// button in bit 0 (A, B, SELECT, START, UP, DOWN, LEFT, RIGHT, then 1s), 1 = pressed.
pub const PAD_SERIAL: u8 = 0x3F;
/// The debug console: `OUT` writes the byte to the text stream (13 and 10 both end a line).
pub const CONSOLE: u8 = 0x0F;
/// The exit port: `OUT` ends the run with the byte as its exit status.
pub const EXIT: u8 = 0x0D;
/// The save area's data: `IN` reads its next byte (FFh past its end, or with nothing saved),
/// `OUT` writes the next byte; both move the position on.
pub const SAVE_DATA: u8 = 0x0B;
/// The save area's control: `OUT` 0 moves the position back to the start, 1 keeps the area: the
/// bytes written so far become the program's save file (written whole, atomically).
pub const SAVE_CONTROL: u8 = 0x09;
/// The save area's size: a program saves at most this many bytes.
pub const SAVE_SIZE: usize = 256;

/// The state of every device, plain data, so that the debugger can snapshot it with the CPU and
/// memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Devices {
    /// Border colour (0-7), from the last `OUT` to the ULA.
    pub border: u8,
    /// The beeper bit (bit 4 of the last ULA write); shown in the status, never an error.
    pub beeper: bool,
    /// The keys held down, as the half-rows read them.
    pub keys: Matrix,
    /// Controller buttons held, in [`PAD_PARALLEL`]'s bit order.
    pub pad: u8,
    /// The serial read's shift register and whether the strobe is high.
    pub pad_shift: u8,
    pub pad_strobe: bool,
    /// Set by a write to [`EXIT`].
    pub exit: Option<u8>,
    /// Set when the CPU acknowledged the frame interrupt (the machine then drops the INT line).
    pub int_acked: bool,
    /// Bytes written to the console since the machine was created, counted so that replays can
    /// tell output already shown from new output.
    pub console_count: u64,
    /// An input movie: when set, the controller takes its next frame's buttons at every frame's
    /// start, instead of the keys.
    pub tape: Option<PadTape>,
    /// The program's save area (high scores and the like), kept in a file of the user's data
    /// directory; boxed, so that it adds a pointer to the debugger's checkpoints, not its bytes.
    pub save: Option<Box<SaveArea>>,
}

/// A program's save area: up to [`SAVE_SIZE`] bytes a program keeps between runs (NES Tetris's
/// high scores), read and written a byte at a time through [`SAVE_DATA`] and kept with
/// [`SAVE_CONTROL`]. The file is read at the first access and written at each keep. A movie's
/// replay (a [`PadTape`]) neither reads nor writes it: it plays from power-on, as recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SaveArea {
    /// The file, when the program has one (the host sets it: [`crate::Program::load_into`]).
    pub path: Option<std::path::PathBuf>,
    /// The bytes: as read from the file, then as written.
    pub bytes: Vec<u8>,
    pub pos: usize,
    pub loaded: bool,
}

impl SaveArea {
    fn load(&mut self, replay: bool) {
        if self.loaded {
            return;
        }
        self.loaded = true;
        if let (Some(path), false) = (&self.path, replay) {
            let mut bytes = std::fs::read(path).unwrap_or_default();
            bytes.truncate(SAVE_SIZE);
            self.bytes = bytes;
        }
    }

    fn read(&mut self, replay: bool) -> u8 {
        self.load(replay);
        let b = self.bytes.get(self.pos).copied().unwrap_or(0xFF);
        self.pos = (self.pos + 1).min(SAVE_SIZE);
        b
    }

    fn write(&mut self, value: u8, replay: bool) {
        self.load(replay);
        if self.pos >= SAVE_SIZE {
            return;
        }
        if self.bytes.len() <= self.pos {
            self.bytes.resize(self.pos + 1, 0xFF);
        }
        self.bytes[self.pos] = value;
        self.pos += 1;
    }

    /// `OUT` to [`SAVE_CONTROL`]; `write_file` is false in a debugger's replay and a movie's.
    fn control(&mut self, value: u8, write_file: bool) {
        match value {
            0 => self.pos = 0,
            1 => {
                self.bytes.truncate(self.pos);
                if let (Some(path), true) = (&self.path, write_file) {
                    // A save that cannot be written (a read-only directory) costs the player
                    // the table, never the game.
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    let _ = retro_machine::outfile::write_atomic(path, &self.bytes);
                }
            }
            _ => {}
        }
    }
}

/// Where a program called `name` keeps its save file: `z80/NAME.sav` in the user's data
/// directory ([`retro_machine::datadir::data_dir`]). None without a home.
pub fn save_path(name: &str) -> Option<std::path::PathBuf> {
    Some(
        retro_machine::datadir::data_dir()?
            .join("z80")
            .join(format!("{name}.sav")),
    )
}

/// The controller's buttons for each frame, in [`PAD_PARALLEL`]'s bit order (an `.fm2` movie's
/// first gamepad), and the next frame to play. Shared, so a debugger's snapshots copy a pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PadTape {
    pub frames: std::sync::Arc<[u8]>,
    pub next: usize,
}

impl Devices {
    pub fn new() -> Devices {
        Devices {
            border: 7,
            beeper: false,
            keys: Matrix::default(),
            pad: 0,
            pad_shift: 0,
            pad_strobe: false,
            exit: None,
            int_acked: false,
            console_count: 0,
            tape: None,
            save: None,
        }
    }

    /// An `IN` from `port`.
    pub fn input(&mut self, port: u16) -> u8 {
        let low = port as u8;
        if low & 1 == 0 {
            // Bits 5-7 read 1 (nothing on EAR), bits 0-4 are the keys, 0 = pressed.
            return 0xE0 | self.keys.read((port >> 8) as u8);
        }
        match low {
            PAD_PARALLEL => self.pad,
            PAD_SERIAL => {
                if self.pad_strobe {
                    return self.pad & 1;
                }
                let bit = self.pad_shift & 1;
                // After eight reads an official NES pad returns 1s.
                self.pad_shift = (self.pad_shift >> 1) | 0x80;
                bit
            }
            SAVE_DATA => {
                let replay = self.tape.is_some();
                self.save.as_mut().map_or(0xFF, |s| s.read(replay))
            }
            _ => 0xFF,
        }
    }

    /// An `OUT` to `port`; console bytes go to `console` unless it is `None` (a replay).
    pub fn output(&mut self, port: u16, value: u8, console: Option<&mut Vec<u8>>) {
        let low = port as u8;
        if low & 1 == 0 {
            self.border = value & 7;
            self.beeper = value & 0x10 != 0;
            return;
        }
        match low {
            PAD_SERIAL => {
                self.pad_strobe = value & 1 != 0;
                self.pad_shift = self.pad;
            }
            CONSOLE => {
                self.console_count += 1;
                if let Some(out) = console {
                    out.push(value);
                }
            }
            EXIT => self.exit = Some(value),
            SAVE_DATA => {
                let replay = self.tape.is_some();
                if let Some(s) = self.save.as_mut() {
                    s.write(value, replay)
                }
            }
            SAVE_CONTROL => {
                // A replay (the debugger's, which passes no console) or a movie's never writes.
                let write_file = console.is_some() && self.tape.is_none();
                if let Some(s) = self.save.as_mut() {
                    s.control(value, write_file)
                }
            }
            _ => {}
        }
    }
}

impl Default for Devices {
    fn default() -> Self {
        Devices::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_pad_reads_buttons_in_nes_order_then_ones() {
        let mut d = Devices::new();
        d.pad = 0b1000_0101; // A, SELECT, RIGHT
        d.output(PAD_SERIAL as u16, 1, None);
        assert_eq!(d.input(PAD_SERIAL as u16), 1, "strobe high reads A continuously");
        d.output(PAD_SERIAL as u16, 0, None);
        let bits: Vec<u8> = (0..10).map(|_| d.input(PAD_SERIAL as u16)).collect();
        assert_eq!(bits, [1, 0, 1, 0, 0, 0, 0, 1, 1, 1]);
        assert_eq!(d.input(PAD_PARALLEL as u16), 0b1000_0101);
    }

    #[test]
    fn ula_sets_border_and_beeper_on_any_even_port() {
        let mut d = Devices::new();
        d.output(0x12FE, 0x12, None);
        assert_eq!((d.border, d.beeper), (2, true));
        d.output(0x0000, 0x05, None);
        assert_eq!((d.border, d.beeper), (5, false));
    }

    #[test]
    fn console_and_exit_ports() {
        let mut d = Devices::new();
        let mut out = vec![];
        d.output(0xAA0F, b'h', Some(&mut out));
        d.output(0x000F, b'i', None);
        assert_eq!(out, b"h");
        assert_eq!(d.console_count, 2);
        assert_eq!(d.exit, None);
        d.output(0x000D, 3, None);
        assert_eq!(d.exit, Some(3));
    }

    #[test]
    fn the_save_area_reads_its_file_and_keeps_what_is_written() {
        let dir = std::env::temp_dir().join(format!("retro-save-{}", std::process::id()));
        let path = dir.join("z80/game.sav");
        let mut out = vec![];
        let mut d = Devices::new();
        d.save = Some(Box::new(SaveArea {
            path: Some(path.clone()),
            ..SaveArea::default()
        }));
        assert_eq!(d.input(SAVE_DATA as u16), 0xFF, "nothing saved yet");
        d.output(SAVE_CONTROL as u16, 0, Some(&mut out));
        for b in [1, 2, 3] {
            d.output(SAVE_DATA as u16, b, Some(&mut out));
        }
        d.output(SAVE_CONTROL as u16, 1, Some(&mut out));
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        // A new run reads it back, FFh past its end; a replay's keep writes nothing.
        let mut e = Devices::new();
        e.save = Some(Box::new(SaveArea {
            path: Some(path.clone()),
            ..SaveArea::default()
        }));
        let read: Vec<u8> = (0..4).map(|_| e.input(SAVE_DATA as u16)).collect();
        assert_eq!(read, [1, 2, 3, 0xFF]);
        e.output(SAVE_CONTROL as u16, 0, None);
        e.output(SAVE_DATA as u16, 9, None);
        e.output(SAVE_CONTROL as u16, 1, None);
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        // A movie's replay starts from nothing saved.
        let mut m = Devices::new();
        m.save = Some(Box::new(SaveArea {
            path: Some(path.clone()),
            ..SaveArea::default()
        }));
        m.tape = Some(PadTape {
            frames: std::sync::Arc::from(vec![0u8]),
            next: 0,
        });
        assert_eq!(m.input(SAVE_DATA as u16), 0xFF);
        // A machine without a save area (no program file) reads FFh and keeps nothing.
        let mut n = Devices::new();
        n.output(SAVE_DATA as u16, 1, Some(&mut out));
        assert_eq!(n.input(SAVE_DATA as u16), 0xFF);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
