//! The BDOS and BIOS calls. Each function is the machine's answer to a trapped call; console
//! input that is not there yet leaves the call pending ([`Trap::Wait`]).

use crate::directory::{self, RECORDS_PER_EXTENT};
use crate::disk::{MAX_RECORDS, RECORD};
use crate::fcb::{FcbName, field};
use crate::machine::{ALLOC, CpmMachine, DIRBUF, DPB, DPH, Search, Trap};
use crate::{CpmError, FcbName as Name};

/// BDOS return codes for the disk functions.
const OK: u16 = 0x00;
const FAIL: u16 = 0xFF;
/// Sequential read past the end; random read of an unwritten record.
const EOF: u16 = 0x01;
/// Random record number out of range (R2 not zero).
const SEEK_PAST_END: u16 = 0x06;
/// Disk full / directory full (write failed).
const WRITE_FAILED: u16 = 0x02;

const CTRL_C: u8 = 0x03;
const CTRL_E: u8 = 0x05;
const CTRL_R: u8 = 0x12;
const CTRL_U: u8 = 0x15;
const CTRL_X: u8 = 0x18;
const CTRL_Z: u8 = 0x1A;

impl CpmMachine {
    /// One BDOS call, function C, parameter DE (E for bytes).
    pub(crate) fn bdos(&mut self) -> Result<Trap, CpmError> {
        let de = self.cpu.de();
        let e = self.cpu.e();
        let function = self.cpu.c();
        // Console and file calls end a waiting streak; polls extend it; calls CP/M 2.2 does not
        // have (BBC BASIC makes some in its input loop) leave it alone.
        if !matches!(function, 6 | 11 | 41..) {
            self.not_idle();
        }
        // A pending call is made again when input arrives; count it once.
        if self.console.line.is_none() {
            self.bdos_calls += 1;
        }
        let value = match function {
            0 => return Ok(Trap::Exit),
            1 => {
                let Some(ch) = self.console.read(true) else {
                    return Ok(Trap::Wait);
                };
                self.echo(ch);
                ch as u16
            }
            2 => {
                self.console.write(e);
                0
            }
            3 => CTRL_Z as u16, // the reader device: nothing attached, end of file
            4 | 5 => 0,         // punch and list devices: nothing attached
            6 => match e {
                0xFF => {
                    let waiting = self.poll();
                    match self.console.read(waiting) {
                        Some(ch) => {
                            self.not_idle();
                            ch as u16
                        }
                        None => return Ok(self.poll_result(0)),
                    }
                }
                0xFE => {
                    let waiting = self.poll();
                    if self.console.ready(waiting) {
                        0xFF
                    } else {
                        return Ok(self.poll_result(0));
                    }
                }
                _ => {
                    self.not_idle();
                    self.console.write_raw(e);
                    0
                }
            },
            7 => self.bus.mem[3] as u16,
            8 => {
                self.bus.mem[3] = e;
                0
            }
            9 => {
                // Up to the '$', wrapping at the top of memory; give up after 64 KiB.
                let mut addr = de;
                for _ in 0..0x10000 {
                    let ch = self.bus.mem[addr as usize];
                    if ch == b'$' {
                        break;
                    }
                    self.console.write(ch);
                    addr = addr.wrapping_add(1);
                }
                0
            }
            10 => return Ok(self.read_line(de)),
            11 => {
                let waiting = self.poll();
                if self.console.ready(waiting) {
                    0xFF
                } else {
                    return Ok(self.poll_result(0));
                }
            }
            12 => 0x0022,
            13 => {
                self.dma = 0x0080;
                0
            }
            14 => {
                if e == 0 {
                    0
                } else {
                    FAIL
                }
            }
            15 => self.open(de),
            16 => self.with_name(de, |m, n| m.disk_find(n).map(|_| OK)),
            17 => self.search_first(de),
            18 => self.search_next(),
            19 => self.with_name(de, |m, n| {
                m.directory = None;
                let deleted = m.disk.as_ref().map_or(0, |d| d.delete(n));
                Some(if deleted > 0 { OK } else { FAIL })
            }),
            20 => self.read_sequential(de),
            21 => self.write_sequential(de),
            22 => self.make(de),
            23 => self.rename(de),
            24 => 0x0001, // drive A: is logged in
            25 => 0,
            26 => {
                self.dma = de;
                0
            }
            27 => {
                // The vector of the directory as it is now.
                self.read_directory();
                ALLOC
            }
            28 => 0,
            29 => 0,
            30 => self.with_name(de, |m, n| m.disk_find(n).map(|_| OK)),
            31 => DPB,
            32 => 0, // user 0, whatever was asked
            33 => self.read_random(de),
            34 | 40 => self.write_random(de),
            35 => self.file_size(de),
            36 => {
                let r = self.fcb_position(de);
                self.set_random(de, r);
                0
            }
            37 => 0,
            _ => FAIL,
        };
        self.ret_value(value);
        Ok(Trap::Return)
    }

    /// A BIOS entry (0 BOOT, 1 WBOOT, 2 CONST, 3 CONIN, 4 CONOUT, 5 LIST, 6 PUNCH, 7 READER, 15
    /// LISTST; 9 SELDSK gives drive A:'s parameter header; the sector READ and WRITE report
    /// errors, since drive A:'s files are only reachable through the BDOS).
    pub(crate) fn bios(&mut self, entry: u16) -> Result<Trap, CpmError> {
        match entry {
            0 | 1 => return Ok(Trap::Exit),
            2 => {
                let waiting = self.poll();
                if self.console.ready(waiting) {
                    self.cpu.set_a(0xFF);
                } else {
                    self.cpu.set_a(0);
                    return Ok(self.nothing_typed());
                }
            }
            3 => {
                self.not_idle();
                let Some(ch) = self.console.read(true) else {
                    return Ok(Trap::Wait);
                };
                self.cpu.set_a(ch);
            }
            4 => {
                self.not_idle();
                self.console.write_raw(self.cpu.c());
            }
            7 => self.cpu.set_a(CTRL_Z),
            // SELDSK: drive A:'s parameter header; there is no other drive.
            9 => self.cpu.set_hl(if self.cpu.c() == 0 { DPH } else { 0 }),
            13 | 14 => self.cpu.set_a(1),
            // LISTST: the list device takes (and drops) everything, so it is always ready.
            15 => self.cpu.set_a(0xFF),
            16 => self.cpu.set_hl(self.cpu.bc()), // SECTRAN: no skew
            _ => self.cpu.set_a(0),
        }
        Ok(Trap::Return)
    }

    /// An empty poll returns `value` to the program and may find the program idle.
    fn poll_result(&mut self, value: u16) -> Trap {
        self.ret_value(value);
        self.nothing_typed()
    }

    /// Echoes a typed character as BDOS 1 does: control characters other than CR, LF, BS and TAB
    /// are not echoed.
    fn echo(&mut self, ch: u8) {
        match ch {
            b'\r' | b'\n' | 0x08 | b'\t' | 0x20.. => self.console.write(ch),
            _ => {}
        }
    }

    /// BDOS 10: reads a line into the buffer at DE (max length, then count and characters), with
    /// CP/M's editing keys. Characters typed so far are kept while the call waits for more.
    fn read_line(&mut self, de: u16) -> Trap {
        let max = self.bus.mem[de as usize] as usize;
        let (mut line, start) = self
            .console
            .line
            .take()
            .unwrap_or_else(|| (Vec::new(), self.console.column()));
        loop {
            if line.len() >= max {
                break;
            }
            let Some(ch) = self.console.read(true) else {
                self.console.line = Some((line, start));
                return Trap::Wait;
            };
            match ch {
                b'\r' | b'\n' => break,
                CTRL_C if line.is_empty() => return Trap::Exit,
                0x08 | 0x7F => {
                    if line.pop().is_some() {
                        for &b in b"\x08 \x08" {
                            self.console.write_raw(b);
                        }
                    }
                }
                CTRL_X => {
                    for _ in line.drain(..) {
                        for &b in b"\x08 \x08" {
                            self.console.write_raw(b);
                        }
                    }
                }
                CTRL_U | CTRL_R => {
                    // '#', a new line indented to where the line started, then (for ^R) the line again.
                    if ch == CTRL_U {
                        line.clear();
                    }
                    self.console.write(b'#');
                    self.console.write(b'\r');
                    self.console.write(b'\n');
                    while self.console.column() < start {
                        self.console.write(b' ');
                    }
                    for &b in &line {
                        self.echo_in_line(b);
                    }
                }
                CTRL_E => {
                    self.console.write(b'\r');
                    self.console.write(b'\n');
                }
                _ => {
                    line.push(ch);
                    self.echo_in_line(ch);
                }
            }
        }
        // CP/M returns the carriage at the end of the line; the program prints any line feed.
        self.console.write(b'\r');
        self.bus.mem[de.wrapping_add(1) as usize] = line.len() as u8;
        for (i, &ch) in line.iter().enumerate() {
            self.bus.mem[de.wrapping_add(2 + i as u16) as usize] = ch;
        }
        self.not_idle();
        self.ret_value(0);
        Trap::Return
    }

    /// Control characters in an edited line echo as `^X`.
    fn echo_in_line(&mut self, ch: u8) {
        if ch < 0x20 && ch != b'\t' {
            self.console.write(b'^');
            self.console.write(ch + 0x40);
        } else {
            self.console.write(ch);
        }
    }

    // ---- files ----

    fn fcb_name(&self, fcb: u16) -> Name {
        let start = fcb.wrapping_add(field::NAME) as usize;
        let bytes: Vec<u8> = (0..11).map(|i| self.bus.mem[(start + i) & 0xFFFF]).collect();
        FcbName::from_fcb(&bytes)
    }

    fn fcb(&self, fcb: u16, off: u16) -> u8 {
        self.bus.mem[fcb.wrapping_add(off) as usize]
    }

    fn set_fcb(&mut self, fcb: u16, off: u16, v: u8) {
        self.bus.mem[fcb.wrapping_add(off) as usize] = v;
    }

    /// A call that needs a file name on a drive: FFh when there is no drive or the FCB names
    /// another drive (only A: exists).
    fn with_name(&mut self, fcb: u16, f: impl FnOnce(&mut Self, &Name) -> Option<u16>) -> u16 {
        if self.disk.is_none() || !matches!(self.fcb(fcb, field::DRIVE), 0 | 1 | b'?') {
            return FAIL;
        }
        let name = self.fcb_name(fcb);
        f(self, &name).unwrap_or(FAIL)
    }

    fn disk_find(&self, name: &Name) -> Option<std::path::PathBuf> {
        self.disk.as_ref()?.find(name)
    }

    /// The record the FCB's sequential position points at: ((S2 * 32) + EX) * 128 + CR.
    fn fcb_position(&self, fcb: u16) -> u32 {
        let s2 = (self.fcb(fcb, field::S2) & 0x3F) as u32;
        let ex = (self.fcb(fcb, field::EX) & 0x1F) as u32;
        let cr = (self.fcb(fcb, field::CR) & 0x7F) as u32;
        ((s2 * 32 + ex) * 128) + cr
    }

    /// Points the FCB's sequential position at record `r`, with RC for that extent. S2's top bit
    /// is the BDOS's "not written" flag: an open sets it, a write clears it, a read keeps it.
    fn set_position(&mut self, fcb: u16, r: u32, file_records: u32, written: bool) {
        let flag = if written {
            0
        } else {
            self.fcb(fcb, field::S2) & 0x80
        };
        self.set_fcb(fcb, field::CR, (r % 128) as u8);
        self.set_fcb(fcb, field::EX, ((r / 128) % 32) as u8);
        self.set_fcb(fcb, field::S2, (r / 4096) as u8 | flag);
        let extent_start = r / 128 * 128;
        let rc = file_records.saturating_sub(extent_start).min(128);
        self.set_fcb(fcb, field::RC, rc as u8);
    }

    fn set_random(&mut self, fcb: u16, r: u32) {
        let [r0, r1, r2, _] = r.to_le_bytes();
        self.set_fcb(fcb, field::R0, r0);
        self.set_fcb(fcb, field::R0 + 1, r1);
        self.set_fcb(fcb, field::R0 + 2, r2);
    }

    /// BDOS 15, as DRI's BDOS does it: S2 (the module number) is cleared first, whatever the
    /// program left there, so the open finds extent EX of the file's first module; then the
    /// directory entry is copied into the FCB (name, EX, S2, RC and the allocation map), S2 gets
    /// the "not written" flag (80h, the BDOS's `setfwf`), EX stays the program's, and RC is the
    /// entry's record count. CR is left to the program (it zeroes it after the open).
    fn open(&mut self, fcb: u16) -> u16 {
        self.set_fcb(fcb, field::S2, 0);
        self.with_name(fcb, |m, n| {
            let ex = m.fcb(fcb, field::EX) & 0x1F;
            let mut pattern = [0u8; 15];
            pattern[1..12].copy_from_slice(&n.0);
            pattern[12] = ex;
            let dir = m.current_directory();
            // As in DRI's BDOS, `?` in the name opens the first file that matches, and the
            // entry copied into the FCB gives it that file's name.
            let entry = match dir.search(&pattern, 0, 15) {
                Some(i) => *dir.entry(i),
                None => {
                    // A file too big for what is left of the directory (or that appeared since
                    // it was read) is still there by name.
                    let records = m.disk.as_ref()?.records(n)?;
                    if (ex as u32) * RECORDS_PER_EXTENT >= records.max(1) {
                        return None;
                    }
                    let rc = (records - ex as u32 * RECORDS_PER_EXTENT).min(RECORDS_PER_EXTENT);
                    directory::extent_entry(n, ex as u32, rc)
                }
            };
            for (i, &b) in entry.iter().enumerate().skip(1) {
                m.set_fcb(fcb, i as u16, b);
            }
            m.set_fcb(fcb, field::EX, ex);
            m.set_fcb(fcb, field::S2, entry[14] | 0x80);
            Some(OK)
        })
    }

    /// BDOS 22: S2 cleared as for an open, then RC and the allocation map zeroed.
    fn make(&mut self, fcb: u16) -> u16 {
        self.set_fcb(fcb, field::S2, 0);
        self.directory = None;
        self.with_name(fcb, |m, n| {
            m.disk.as_ref()?.create(n).ok()?;
            for off in field::RC..field::CR {
                m.set_fcb(fcb, off, 0);
            }
            Some(OK)
        })
    }

    fn rename(&mut self, fcb: u16) -> u16 {
        self.directory = None;
        self.with_name(fcb, |m, from| {
            let to = m.fcb_name(fcb.wrapping_add(16));
            m.disk.as_ref()?.rename(from, &to).ok().map(|_| OK)
        })
    }

    /// BDOS 17, as DRI's BDOS does it: an FCB whose drive byte is `?` matches every directory
    /// entry, free ones included; otherwise S2 is cleared (unless EX is `?`) and name, type, EX
    /// and S2 are matched. The directory is read afresh, as on a disk reset.
    fn search_first(&mut self, fcb: u16) -> u16 {
        let drive = self.fcb(fcb, field::DRIVE);
        let len = if drive == b'?' {
            0
        } else {
            if self.fcb(fcb, field::EX) != b'?' {
                self.set_fcb(fcb, field::S2, 0);
            }
            15
        };
        self.search = None;
        if self.disk.is_none() || !matches!(drive, 0 | 1 | b'?') {
            return FAIL;
        }
        self.read_directory();
        self.search = Some(Search { fcb, len, next: 0 });
        self.search_next()
    }

    /// BDOS 18: the next matching entry. The directory record holding it (four entries) goes to
    /// the DMA address, and A is the entry's place in it (0-3), as with DRI's `dir$to$user`.
    fn search_next(&mut self) -> u16 {
        // A write since the search began dropped the directory (sizes and extents may have
        // changed); the search goes on over the directory read again, as DRI's BDOS lets a
        // program write between search first and search next.
        if self.search.is_some() && self.directory.is_none() {
            self.read_directory();
        }
        let (Some(search), Some(dir)) = (self.search, &self.directory) else {
            return FAIL;
        };
        let mut pattern = [0u8; 15];
        for (i, b) in pattern.iter_mut().enumerate() {
            *b = self.bus.mem[search.fcb.wrapping_add(i as u16) as usize];
        }
        let Some(i) = dir.search(&pattern, search.next, search.len) else {
            self.search = None;
            return FAIL;
        };
        let record = dir.record(i);
        for (k, &b) in record.iter().enumerate() {
            self.bus.mem[self.dma.wrapping_add(k as u16) as usize] = b;
            self.bus.mem[DIRBUF as usize + k] = b;
        }
        self.search = Some(Search {
            next: i + 1,
            ..search
        });
        (i & 3) as u16
    }

    fn read_at(&mut self, fcb: u16, r: u32) -> u16 {
        self.with_name(fcb, |m, n| {
            let disk = m.disk.as_ref()?;
            let record = disk.read_record(n, r).ok()?;
            let Some(data) = record else {
                return Some(EOF);
            };
            for (i, &b) in data.iter().enumerate() {
                m.bus.mem[m.dma.wrapping_add(i as u16) as usize] = b;
            }
            Some(OK)
        })
    }

    fn write_at(&mut self, fcb: u16, r: u32) -> u16 {
        self.directory = None;
        let mut data = [0u8; RECORD];
        for (i, b) in data.iter_mut().enumerate() {
            *b = self.bus.mem[self.dma.wrapping_add(i as u16) as usize];
        }
        self.with_name(fcb, |m, n| {
            let disk = m.disk.as_ref()?;
            disk.find(n)?;
            Some(if disk.write_record(n, r, &data).is_ok() {
                OK
            } else {
                WRITE_FAILED
            })
        })
    }

    fn records_of(&self, fcb: u16) -> u32 {
        let name = self.fcb_name(fcb);
        self.disk.as_ref().and_then(|d| d.records(&name)).unwrap_or(0)
    }

    fn read_sequential(&mut self, fcb: u16) -> u16 {
        let r = self.fcb_position(fcb);
        let result = self.read_at(fcb, r);
        if result == OK {
            let records = self.records_of(fcb);
            self.set_position(fcb, r + 1, records, false);
        }
        result
    }

    fn write_sequential(&mut self, fcb: u16) -> u16 {
        let r = self.fcb_position(fcb);
        if r >= MAX_RECORDS {
            return WRITE_FAILED;
        }
        let result = self.write_at(fcb, r);
        if result == OK {
            let records = self.records_of(fcb);
            self.set_position(fcb, r + 1, records, true);
        }
        result
    }

    /// The random record number R0-R2, or `None` when it is past what CP/M 2.2 can address.
    fn random_record(&self, fcb: u16) -> Option<u32> {
        let r = u32::from_le_bytes([
            self.fcb(fcb, field::R0),
            self.fcb(fcb, field::R0 + 1),
            self.fcb(fcb, field::R0 + 2),
            0,
        ]);
        (r < MAX_RECORDS).then_some(r)
    }

    /// Random reads and writes leave the sequential position at the record, so a following
    /// sequential call reads or writes the same record, as in CP/M.
    fn read_random(&mut self, fcb: u16) -> u16 {
        let Some(r) = self.random_record(fcb) else {
            return SEEK_PAST_END;
        };
        let result = self.read_at(fcb, r);
        if result == OK {
            let records = self.records_of(fcb);
            self.set_position(fcb, r, records, false);
        }
        result
    }

    fn write_random(&mut self, fcb: u16) -> u16 {
        let Some(r) = self.random_record(fcb) else {
            return SEEK_PAST_END;
        };
        let result = self.write_at(fcb, r);
        if result == OK {
            let records = self.records_of(fcb);
            self.set_position(fcb, r, records, true);
        }
        result
    }

    fn file_size(&mut self, fcb: u16) -> u16 {
        self.with_name(fcb, |m, n| {
            let records = m.disk.as_ref()?.records(n)?;
            m.set_random(fcb, records);
            Some(OK)
        })
    }
}
