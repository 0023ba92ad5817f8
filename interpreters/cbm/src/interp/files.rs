//! Files: OPEN, CLOSE, PRINT#, INPUT#, GET#, CMD, LOAD, SAVE and VERIFY on the devices this
//! machine has: 0 (keyboard), 3 (screen) and 8, a disk drive whose files are host files in one
//! directory the user names. Names never leave that directory; written files appear only when
//! closed, all at once (written beside and renamed; a symbolic link is written through and a
//! pipe written into, as `cat >` would: retro_machine::outfile).

use std::collections::HashMap;
use std::path::PathBuf;

use retro_machine::outfile::write_output;

use super::error::{BasicError, Result};
use super::expr::Value;
use super::{Console, Interp, Outcome, zp};
use crate::program::Program;
use crate::tokens as t;

/// The host directory device 8 reads and writes.
#[derive(Debug, Clone)]
pub struct HostDir(pub PathBuf);

impl HostDir {
    /// The host path for a C64 file name, or None if the name could leave the directory or has
    /// characters a host name should not: unshifted letters become lower case (as petcat writes
    /// them), shifted ones upper case; digits, space and `.-_+` pass.
    pub fn path_for(&self, name: &[u8]) -> Option<PathBuf> {
        let mut s = String::new();
        for &b in name {
            let c = match b {
                0x41..=0x5A => (b + 0x20) as char,
                0xC1..=0xDA => (b - 0x80) as char,
                b'0'..=b'9' | b' ' | b'.' | b'-' | b'_' | b'+' => b as char,
                _ => return None,
            };
            s.push(c);
        }
        if s.is_empty() || s.starts_with('.') || s.trim().is_empty() {
            return None;
        }
        Some(self.0.join(s)).filter(|p| retro_machine::infile::stays_inside(&self.0, p))
    }
}

enum Open {
    Screen,
    Keyboard,
    Read {
        data: Vec<u8>,
        at: usize,
    },
    /// Bytes to write at CLOSE; None for a file that may not be written (it exists and the
    /// name had no `@:`), whose bytes are dropped as the drive drops them.
    Write {
        path: Option<PathBuf>,
        data: Vec<u8>,
    },
    /// The command channel (secondary address 15): reads the drive's status.
    Command {
        status: Vec<u8>,
        at: usize,
    },
}

/// What a 1541 disk holds: 664 free blocks of 254 data bytes (170 KB).
pub(super) const DISK_BYTES: usize = 664 * 254;

/// The open files, by logical file number.
pub(super) struct Files {
    dir: Option<HostDir>,
    open: HashMap<u8, Open>,
    status: String,
    /// Bytes written to the disk in this run (files and SAVEd programs): past DISK_BYTES the
    /// disk is full, which also bounds the memory open files hold.
    written: usize,
}

impl Files {
    pub(super) fn new(dir: Option<HostDir>) -> Files {
        Files {
            dir,
            open: HashMap::new(),
            status: "00, OK,00,00".into(),
            written: 0,
        }
    }

    pub(super) fn close_all(&mut self) {
        let lfs: Vec<u8> = self.open.keys().copied().collect();
        for lf in lfs {
            let _ = self.close(lf);
        }
    }

    fn close(&mut self, lf: u8) -> Result<()> {
        if let Some(Open::Write { path: Some(p), data }) = self.open.remove(&lf) {
            write_output(&p, &data).map_err(|_| BasicError::DeviceNotPresent)?;
        }
        Ok(())
    }

    /// CHROUT to logical file `lf`.
    pub(super) fn write(&mut self, lf: u8, b: u8, console: &mut dyn Console, mem: &mut [u8]) -> Result<()> {
        match self.open.get_mut(&lf) {
            Some(Open::Screen) => {
                console.chrout(mem, b);
                Ok(())
            }
            // A file that may not be written keeps nothing.
            Some(Open::Write { path: None, .. }) => Ok(()),
            Some(Open::Write { data, .. }) => {
                if self.written >= DISK_BYTES {
                    // The 1541 stops writing and says so on its command channel; the KERNAL's
                    // ST does not hear of it.
                    self.status = "72,DISK FULL,00,00".into();
                } else {
                    self.written += 1;
                    data.push(b);
                }
                Ok(())
            }
            Some(Open::Command { .. }) => Ok(()),
            Some(_) => Err(BasicError::NotOutputFile),
            None => Err(BasicError::FileNotOpen),
        }
    }

    /// CHRIN from `lf`: a byte and whether it was the last (ST bit 6).
    /// None from the keyboard device means "read a key" (the caller does).
    fn read(&mut self, lf: u8) -> Result<Option<(Option<u8>, bool)>> {
        match self.open.get_mut(&lf) {
            Some(Open::Read { data, at }) | Some(Open::Command { status: data, at }) => {
                let b = data.get(*at).copied();
                *at += 1;
                Ok(Some((b.or(Some(13)), *at >= data.len())))
            }
            Some(Open::Keyboard) => Ok(None),
            Some(_) => Err(BasicError::NotInputFile),
            None => Err(BasicError::FileNotOpen),
        }
    }

    fn is_output(&self, lf: u8) -> Result<()> {
        match self.open.get(&lf) {
            Some(Open::Screen | Open::Write { .. } | Open::Command { .. }) => Ok(()),
            Some(_) => Err(BasicError::NotOutputFile),
            None => Err(BasicError::FileNotOpen),
        }
    }

    fn disk(&self) -> Result<&HostDir> {
        self.dir.as_ref().ok_or(BasicError::DeviceNotPresent)
    }
}

/// A disk file name split as the 1541 reads it: `@0:NAME,S,W`.
struct DiskName {
    name: Vec<u8>,
    replace: bool,
    write: Option<bool>,
}

fn parse_disk_name(raw: &[u8]) -> DiskName {
    let mut s = raw;
    let mut replace = false;
    if let Some(rest) = s.strip_prefix(b"@") {
        replace = true;
        s = rest;
    }
    if let Some(colon) = s.iter().position(|&b| b == b':') {
        s = &s[colon + 1..];
    }
    let mut parts = s.split(|&b| b == b',');
    let name = parts.next().unwrap_or_default().to_vec();
    let mut write = None;
    for p in parts {
        match p.first() {
            Some(b'W') | Some(b'A') => write = Some(true),
            Some(b'R') => write = Some(false),
            _ => {}
        }
    }
    DiskName { name, replace, write }
}

impl Interp {
    fn set_status(&mut self, st: u8) {
        self.mem[zp::STATUS] = st;
    }

    /// `lf[, dev[, sa[, name]]]` as OPEN, LOAD and SAVE read them.
    fn file_args(&mut self, with_lf: bool) -> Result<(u8, u8, u8, Vec<u8>)> {
        let mut lf = 0;
        let mut dev = 1;
        let mut sa = 0;
        let mut name = Vec::new();
        let mut first = true;
        let mut field = 0;
        if !with_lf {
            field = 3;
        }
        loop {
            if self.at_end_of_statement() {
                break;
            }
            if !first {
                self.expect(b',')?;
            }
            first = false;
            if !with_lf && field == 3 {
                let s = self.expr_str()?;
                name = self.str_bytes(s).to_vec();
                self.free_str(s);
                field = 1;
                continue;
            }
            match field {
                0 => lf = self.expr_byte()?,
                1 => dev = self.expr_byte()?,
                2 => sa = self.expr_byte()?,
                _ => {
                    let s = self.expr_str()?;
                    name = self.str_bytes(s).to_vec();
                    self.free_str(s);
                }
            }
            field += 1;
            if with_lf && field == 4 || !with_lf && field == 3 {
                break;
            }
        }
        Ok((lf, dev, sa, name))
    }

    pub(super) fn open(&mut self) -> Result<Outcome> {
        if self.at_end_of_statement() {
            return Err(BasicError::Syntax);
        }
        let (lf, dev, sa, name) = self.file_args(true)?;
        if lf == 0 {
            return Err(BasicError::Syntax);
        }
        if self.files.open.contains_key(&lf) {
            return Err(BasicError::FileOpen);
        }
        if self.files.open.len() >= 10 {
            return Err(BasicError::TooManyFiles);
        }
        let f = match dev {
            0 => Open::Keyboard,
            3 => Open::Screen,
            8 => {
                let dir = self.files.disk()?.clone();
                if sa == 15 {
                    let status = format!("{}\r", self.files.status).into_bytes();
                    Open::Command { status, at: 0 }
                } else {
                    let n = parse_disk_name(&name);
                    if n.name.is_empty() {
                        return Err(BasicError::MissingFileName);
                    }
                    let path = dir.path_for(&n.name).ok_or(BasicError::FileNotFound)?;
                    if n.write.unwrap_or(sa == 1) {
                        if path.exists() && !n.replace {
                            self.files.status = "63,FILE EXISTS,00,00".into();
                            Open::Write {
                                path: None,
                                data: Vec::new(),
                            }
                        } else {
                            Open::Write {
                                path: Some(path),
                                data: Vec::new(),
                            }
                        }
                    } else {
                        let data =
                            retro_machine::infile::read_regular(&path, retro_machine::infile::MACHINE_FILE)
                                .map_err(|_| BasicError::FileNotFound)?;
                        Open::Read { data, at: 0 }
                    }
                }
            }
            _ => return Err(BasicError::DeviceNotPresent),
        };
        self.files.open.insert(lf, f);
        self.set_status(0);
        Ok(Outcome::Next)
    }

    pub(super) fn close(&mut self) -> Result<Outcome> {
        let lf = self.expr_byte()?;
        if self.state.channel == lf {
            self.state.channel = 0;
        }
        self.files.close(lf)?;
        Ok(Outcome::Next)
    }

    pub(super) fn print_hash(&mut self) -> Result<Outcome> {
        let lf = self.expr_byte()?;
        self.files.is_output(lf)?;
        let saved = self.state.channel;
        self.state.channel = lf;
        if self.peekc() == b',' {
            self.state.pos += 1;
        }
        let r = self.print_items();
        self.state.channel = saved;
        r
    }

    pub(super) fn cmd(&mut self) -> Result<Outcome> {
        let lf = self.expr_byte()?;
        self.files.is_output(lf)?;
        self.state.channel = lf;
        if self.peekc() == b',' {
            self.state.pos += 1;
            return self.print_items();
        }
        Ok(Outcome::Next)
    }

    /// The rest of a PRINT statement (shared by PRINT, PRINT# and CMD).
    fn print_items(&mut self) -> Result<Outcome> {
        super::stmt::dispatch(self, t::PRINT)
    }

    fn read_file(&mut self, lf: u8) -> Result<(Option<u8>, bool)> {
        match self.files.read(lf)? {
            Some(r) => Ok(r),
            None => Ok((self.next_key(), false)),
        }
    }

    /// GET#lf, vars.
    pub(super) fn get_hash(&mut self) -> Result<Outcome> {
        let lf = self.expr_byte()?;
        self.expect(b',')?;
        loop {
            let (b, last) = self.read_file(lf)?;
            self.set_status(if last { 64 } else { 0 });
            self.get_into(b)?;
            if self.peekc() != b',' {
                return Ok(Outcome::Next);
            }
            self.state.pos += 1;
        }
    }

    /// INPUT#lf, vars: items separated by commas or CRs.
    pub(super) fn input_hash(&mut self) -> Result<Outcome> {
        let lf = self.expr_byte()?;
        self.expect(b',')?;
        loop {
            let mut item = Vec::new();
            let mut quote = false;
            loop {
                let (b, last) = self.read_file(lf)?;
                self.set_status(if last { 64 } else { 0 });
                let Some(b) = b else { break };
                if b == b'"' {
                    quote = !quote;
                }
                if b == 13 || (b == b',' && !quote) {
                    break;
                }
                item.push(b);
                if last {
                    break;
                }
            }
            self.fill_input_item(&item)?;
            if self.peekc() != b',' {
                return Ok(Outcome::Next);
            }
            self.state.pos += 1;
        }
    }

    /// Reads one INPUT# item into the variable at TXTPTR (via BUF, as the ROM does).
    fn fill_input_item(&mut self, item: &[u8]) -> Result<()> {
        let (_, place) = self.target()?;
        let n = item.len().min(88);
        self.mem[super::BUF..super::BUF + n].copy_from_slice(&item[..n]);
        self.mem[super::BUF + n] = 0;
        let here = self.state.pos;
        self.state.pos = super::BUF;
        let r = if place.kind == super::vars::Kind::Str {
            let mut s = self.peekc();
            if s == b'"' {
                self.state.pos += 1;
                let start = self.state.pos;
                while !matches!(self.mem[self.state.pos], 0 | b'"') {
                    self.state.pos += 1;
                }
                s = 0;
                let bytes = self.mem[start..self.state.pos].to_vec();
                let _ = s;
                let v = self.new_str(&bytes)?;
                self.assign(place, Value::Str(v))
            } else {
                let start = self.state.pos;
                let bytes = self.mem[start..super::BUF + n].to_vec();
                let v = self.new_str(&bytes)?;
                self.assign(place, Value::Str(v))
            }
        } else {
            let c = self.peekc();
            if c == 0 {
                self.assign(place, Value::Num(crate::float::Fac::ZERO))
            } else {
                match crate::float::Fac::parse(&self.mem[self.state.pos..]) {
                    Ok(r) if self.mem[self.state.pos + r.len] == 0 => self.assign(place, Value::Num(r.value)),
                    _ => Err(BasicError::FileData),
                }
            }
        };
        self.state.pos = here;
        r
    }

    /// LOAD, SAVE and VERIFY on device 8.
    pub(super) fn load_save(&mut self, tok: u8) -> Result<Outcome> {
        let (_, dev, _, name) = self.file_args(false)?;
        if dev != 8 {
            return Err(BasicError::DeviceNotPresent);
        }
        let dir = self.files.disk()?.clone();
        let n = parse_disk_name(&name);
        if n.name.is_empty() {
            return Err(BasicError::MissingFileName);
        }
        let path = dir.path_for(&n.name).ok_or(BasicError::FileNotFound)?;
        let with_ext = path.with_extension("prg");
        match tok {
            t::SAVE => {
                let target = if path.extension().is_some() {
                    path
                } else {
                    with_ext
                };
                if self.state.line.is_none() {
                    // The KERNAL's messages in direct mode.
                    self.chrout_all(b"\rSAVING ")?;
                    self.chrout_all(&name)?;
                }
                if target.exists() && !n.replace {
                    self.files.status = "63,FILE EXISTS,00,00".into();
                    return Ok(Outcome::Next);
                }
                let prg = self.program().to_prg();
                if self.files.written + prg.len() > DISK_BYTES {
                    self.files.status = "72,DISK FULL,00,00".into();
                    return Ok(Outcome::Next);
                }
                self.files.written += prg.len();
                write_output(&target, &prg).map_err(|_| BasicError::DeviceNotPresent)?;
                Ok(Outcome::Next)
            }
            _ => {
                if self.state.line.is_none() && tok == t::LOAD {
                    self.chrout_all(b"\rSEARCHING FOR ")?;
                    self.chrout_all(&name)?;
                }
                let read = |p| retro_machine::infile::read_regular(p, retro_machine::infile::MACHINE_FILE);
                let bytes = read(&path)
                    .or_else(|_| read(&with_ext))
                    .map_err(|_| BasicError::FileNotFound)?;
                let program = Program::from_prg(&bytes).map_err(|_| BasicError::Load)?;
                if tok == t::VERIFY {
                    if program != self.program() {
                        return Err(BasicError::Verify);
                    }
                    return Ok(Outcome::Next);
                }
                if self.state.line.is_none() {
                    // In direct mode LOAD puts the program in memory and goes back to READY.
                    self.chrout_all(b"\rLOADING")?;
                    self.load_program(&program)?;
                    self.clr();
                    self.restore_data(None);
                    self.state.pending_stop = Some(false);
                    return Err(BasicError::Syntax);
                }
                // LOAD in a program chains: the new program runs from its start and keeps the
                // variables (VARTAB stays where it was, as on the C64).
                let vartab = self.word(zp::VARTAB);
                self.load_program(&program)?;
                self.set_word(zp::VARTAB, vartab.max(self.word(zp::VARTAB)));
                self.state.pos = self.word(zp::TXTTAB) as usize - 1;
                self.restore_data(None);
                self.state.stack.clear();
                self.state.stack_bytes = 0;
                Ok(Outcome::Next)
            }
        }
    }
}
