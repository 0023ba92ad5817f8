//! Files: OPEN, CLOSE, PRINT#, INPUT#, GET#, CMD, LOAD, SAVE and VERIFY on the devices this
//! machine has: 0 (keyboard), 3 (screen) and 8, a disk drive whose files are host files in one
//! directory the user names. Names never leave that directory; written files appear only when
//! closed, all at once (written beside and renamed; a symbolic link is written through and a
//! pipe written into, as `cat >` would: retro_machine::outfile); a read-only file is the 1541's
//! write-protected disk (26,WRITE PROTECT ON on the command channel) and is never replaced.

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

/// What a 1541 disk holds: 664 free blocks (170 KB) ...
const DISK_BLOCKS: usize = 664;
/// ... of 254 data bytes each (the other two link to the next block).
const BLOCK: usize = 254;

/// The blocks a file of `len` bytes takes on a 1541: an empty file still takes one.
fn blocks(len: usize) -> usize {
    len.div_ceil(BLOCK).max(1)
}

/// Whether `name` is a host file name a C64 program can name on device 8 (what
/// [`HostDir::path_for`] makes), so the file is on the disk and takes its blocks.
fn on_the_disk(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.trim().is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'.' | b'-' | b'_' | b'+'))
}

/// The blocks the regular file at `path` takes (0 for none, a directory, a device or a link).
fn host_blocks(path: &std::path::Path) -> usize {
    std::fs::symlink_metadata(path).map_or(0, |m| if m.is_file() { blocks(m.len() as usize) } else { 0 })
}

/// The blocks the files already in `dir` take, as the 1541's BAM counts them: every regular
/// file a C64 program could name.
fn blocks_in(dir: &std::path::Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(on_the_disk))
        .map(|e| host_blocks(&e.path()))
        .sum()
}

/// The 1541's error 26 (its write-protect tab covered), what it says for a host file retro may
/// not write: a read-only file is never replaced.
const WRITE_PROTECT_ON: &str = "26,WRITE PROTECT ON,00,00";

/// Whether the host file at `path` (through links) exists and is read-only.
fn read_only(path: &std::path::Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly())
}

/// The open files, by logical file number.
pub(super) struct Files {
    dir: Option<HostDir>,
    open: HashMap<u8, Open>,
    status: String,
    /// Blocks the disk's closed files take: those already in the directory (counted when a
    /// program first writes) and those written since. With `open_blocks`, at most DISK_BLOCKS:
    /// past that the disk is full, which also bounds the memory open files hold.
    used_blocks: Option<usize>,
    /// Blocks the files open for writing have filled or started.
    open_blocks: usize,
}

impl Files {
    pub(super) fn new(dir: Option<HostDir>) -> Files {
        Files {
            dir,
            open: HashMap::new(),
            status: "00, OK,00,00".into(),
            used_blocks: None,
            open_blocks: 0,
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
            self.open_blocks -= data.len().div_ceil(BLOCK);
            self.write_file(&p, &data)?;
        }
        Ok(())
    }

    /// The blocks the disk's closed files take, counting the directory's files the first time.
    fn used_blocks(&mut self) -> usize {
        let dir = self.dir.as_ref().map(|d| d.0.clone());
        *self
            .used_blocks
            .get_or_insert_with(|| dir.map_or(0, |d| blocks_in(&d)))
    }

    /// Whether `n` more blocks fit beside the closed and open files.
    fn fits(&mut self, n: usize) -> bool {
        self.used_blocks() + self.open_blocks + n <= DISK_BLOCKS
    }

    /// Writes a closed or SAVEd file to the host. A file the host will not let us write (a
    /// read-only file, a directory the user cannot write) is the 1541's write-protected disk:
    /// nothing is written and the command channel says so; BASIC hears nothing of it.
    fn write_file(&mut self, path: &std::path::Path, data: &[u8]) -> Result<()> {
        // A file replaced (`@0:`) gives back its blocks once the new one is written.
        let old = host_blocks(path);
        let used = self.used_blocks();
        match write_output(path, data) {
            Ok(()) => {
                self.used_blocks = Some((used + blocks(data.len())).saturating_sub(old));
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                self.status = WRITE_PROTECT_ON.into();
                Ok(())
            }
            r => r.map_err(|_| BasicError::DeviceNotPresent),
        }
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
                // A byte that starts a block needs a free one (the counts were taken at OPEN).
                if data.len() % BLOCK == 0 {
                    if self.used_blocks.unwrap_or(0) + self.open_blocks >= DISK_BLOCKS {
                        // The 1541 stops writing and says so on its command channel; the
                        // KERNAL's ST does not hear of it.
                        self.status = "72,DISK FULL,00,00".into();
                        return Ok(());
                    }
                    self.open_blocks += 1;
                }
                data.push(b);
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
                        } else if read_only(&path) {
                            self.files.status = WRITE_PROTECT_ON.into();
                            Open::Write {
                                path: None,
                                data: Vec::new(),
                            }
                        } else {
                            // The directory's files are counted now, before the first byte.
                            self.files.used_blocks();
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
                if read_only(&target) {
                    self.files.status = WRITE_PROTECT_ON.into();
                    return Ok(Outcome::Next);
                }
                let prg = self.program().to_prg();
                // The new file is written whole before a replaced one's blocks are freed.
                if !self.files.fits(blocks(prg.len())) {
                    self.files.status = "72,DISK FULL,00,00".into();
                    return Ok(Outcome::Next);
                }
                self.files.write_file(&target, &prg)?;
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
