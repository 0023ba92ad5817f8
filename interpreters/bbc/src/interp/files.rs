//! Files, as BASIC V has them, on a host directory: OPENIN/OPENOUT/OPENUP, CLOSE#, BGET#,
//! BPUT#, PRINT#/INPUT# (BASIC's binary records), EOF#, PTR#, EXT#, and the `*` commands
//! programs use (*DIR, *CAT/*., *DELETE, *RENAME).
//!
//! - Names are RISC OS names: `.` separates directories, `/` stands for the host's `.`
//!   (`scores/txt` is the host file `scores.txt`, `data.level1` is `level1` in the directory
//!   `data`), `^` is the parent directory, `@` the current one and `$` the root. A name that
//!   would be a hidden host file (`/bashrc`, the host's `.bashrc`) or is not a RISC OS name is
//!   "Bad name"; docs/bbc-basic.md ("Files") shows the mapping.
//! - Every name is resolved inside one root directory (the program's own, or `--dir`; an
//!   embedder names it with [`Interp::set_file_root`]); `^` above it is "Bad name", and a
//!   symbolic link that leads out of it is "Access violation". Without a root, files are not
//!   available ("Bad name").
//! - A host file without write permission is a RISC OS file without write access: OPENOUT,
//!   OPENUP and SAVE give "Access violation", *DELETE and *RENAME "Locked".
//! - An open file is held in memory and written back when it is closed (CLOSE#, or the
//!   program's normal end), to a temporary name then renamed over the old file. A run stopped
//!   any other way (Escape, an error, `--time`, a signal) writes nothing: the old contents stay
//!   until the program closes the new ones.
//! - PRINT# writes RISC OS BASIC's records: `&40` and a big-endian 32-bit integer; `&00`, the
//!   length and the bytes in reverse order for a string; and, since numbers here are 64-bit,
//!   BASIC VI's `&88` and the 8-byte double (high word first, each word little-endian), as
//!   Brandy writes it. INPUT# reads those three.

use std::path::{Path, PathBuf};

use super::error::{self, BasicError};
use super::value::Val;
use super::{Interp, MAX_STRING, R, VarRef};
use crate::tokens as tok;

/// RISC OS's errors for files.
pub const CHANNEL: BasicError = BasicError::new(222, "Channel");
pub const BAD_NAME: BasicError = BasicError::new(204, "Bad name");
pub const EOF_ERROR: BasicError = BasicError::new(223, "End of file");
pub const NOT_FOUND: BasicError = BasicError::new(214, "File not found");
pub const READ_ONLY: BasicError = BasicError::new(193, "Not open for update");
pub const FILE_ERROR: BasicError = BasicError::new(189, "Disc error");
/// RISC OS FileSwitch's refusal of an object the program may not use this way: a file without
/// the access asked for, or something that is not a file at all (a device, a FIFO).
pub const ACCESS_VIOLATION: BasicError = BasicError::new(189, "Access violation");
/// RISC OS's refusal to delete, rename or replace a locked file (a host file without write
/// permission).
pub const LOCKED: BasicError = BasicError::new(195, "Locked");
/// FileSwitch's error when no file handle is free (OPENOUT and friends return 0 instead).
pub const TOO_MANY_FILES: BasicError = BasicError::new(192, "Too many open files");
/// A file CHAIN cannot read as a BASIC program (RISC OS BASIC's "Bad program", error 0).
pub const BAD_PROGRAM: BasicError = BasicError::new(0, "Bad program");

/// The largest file a program may build or read (it is held in memory): the limit every
/// machine's files share.
const MAX_FILE: usize = retro_machine::infile::MACHINE_FILE.max as usize;
/// The most bytes all open files may hold together (they are held in memory): a program that
/// opens 32 files of 64 MiB each would otherwise take 2 GiB.
const MAX_HELD: usize = MAX_FILE;
/// Open files at once (RISC OS's FileSwitch default is about this many).
const MAX_OPEN: usize = 32;

#[derive(Debug)]
struct Chan {
    path: PathBuf,
    data: Vec<u8>,
    ptr: usize,
    write: bool,
    dirty: bool,
    /// A BGET# has read past the end: the next one is "End of file" (RISC OS's EOF-error flag;
    /// setting PTR# or EXT# clears it).
    past_end: bool,
    /// TRACE TO's file: written even when the run fails (a trace is read most after a failure).
    trace: bool,
}

/// The open files and the directory they are found in.
#[derive(Debug, Default)]
pub struct Files {
    root: Option<PathBuf>,
    /// The current directory (*DIR), relative to the root.
    dir: PathBuf,
    chans: Vec<Option<Chan>>,
}

impl Files {
    /// The host path of `name` in the current directory, refusing names that leave the root.
    fn resolve(&self, name: &[u8]) -> Result<PathBuf, BasicError> {
        let root = self.root.as_ref().ok_or(BAD_NAME)?;
        let rel = relative(&self.dir, name)?;
        let path = root.join(rel);
        if !retro_machine::infile::stays_inside(root, &path) {
            return Err(ACCESS_VIOLATION);
        }
        Ok(path)
    }

    /// The bytes the open files hold in memory.
    fn held(&self) -> usize {
        self.chans.iter().flatten().map(|c| c.data.len()).sum()
    }

    /// Refuses growing the open files by `more` bytes past [`MAX_HELD`] ("Disc error").
    fn room_for(&self, more: usize) -> Result<(), BasicError> {
        if more > 0 && self.held() + more > MAX_HELD {
            return Err(FILE_ERROR);
        }
        Ok(())
    }

    /// Drops every open file without writing it: the run did not end normally, so the files
    /// keep the contents they had before the program opened them.
    pub fn discard_all(&mut self) {
        for ch in self.chans.drain(..).flatten() {
            if ch.trace {
                let _ = flush(&ch);
            }
        }
    }

    /// Writes every changed file back and closes all channels.
    pub fn close_all(&mut self) -> Result<(), BasicError> {
        let mut r = Ok(());
        for c in self.chans.iter_mut() {
            if let Some(ch) = c.take()
                && let Err(e) = flush(&ch)
            {
                r = Err(e);
            }
        }
        r
    }

    fn chan(&mut self, n: i32) -> Result<&mut Chan, BasicError> {
        // Channels count down from 255; anything else (however big) is no channel.
        let i = 255 - n as i64;
        if !(0..MAX_OPEN as i64).contains(&i) {
            return Err(CHANNEL);
        }
        self.chans
            .get_mut(i as usize)
            .and_then(Option::as_mut)
            .ok_or(CHANNEL)
    }

    /// Writes channel `n`'s file if it changed, and closes the channel.
    fn close(&mut self, n: i32) -> Result<(), BasicError> {
        self.chan(n)?;
        match self.chans[(255 - n) as usize].take() {
            Some(ch) => flush(&ch),
            None => Ok(()),
        }
    }

    fn open(&mut self, ch: Chan) -> i32 {
        let free = self.chans.iter().position(Option::is_none);
        let i = match free {
            Some(i) => i,
            None if self.chans.len() < MAX_OPEN => {
                self.chans.push(None);
                self.chans.len() - 1
            }
            None => return 0,
        };
        self.chans[i] = Some(ch);
        255 - i as i32
    }
}

/// A RISC OS `name` as a host path relative to the root, from directory `dir` (relative to the
/// root too): `.` separates directories and `/` is the host's `.`; `^` goes up, `@` stays and `$`
/// (or `&`, the user's root) starts again from the root.
fn relative(dir: &Path, name: &[u8]) -> Result<PathBuf, BasicError> {
    let name = std::str::from_utf8(name).map_err(|_| BAD_NAME)?.trim();
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(BAD_NAME);
    }
    let mut out = dir.to_path_buf();
    for (i, part) in name.split('.').enumerate() {
        match part {
            "$" | "&" if i == 0 => out = PathBuf::new(),
            "@" => {}
            "^" => {
                if !out.pop() {
                    return Err(BAD_NAME);
                }
            }
            // An empty part (`a..b`, a leading or trailing `.`), a host-hidden name (`/bashrc`
            // is `.bashrc`), a filing system prefix (`ADFS::`) or a wildcard is no file's name.
            _ if part.is_empty()
                || part.starts_with('/')
                || part.contains([':', '*', '#', '$', '&', '@', '^']) =>
            {
                return Err(BAD_NAME);
            }
            _ => out.push(part.replace('/', ".")),
        }
    }
    Ok(out)
}

/// The RISC OS name of a host file name, as *CAT shows it (`a.txt` is `a/txt`); `None` for a
/// name no RISC OS name maps to (hidden files).
fn risc_os_name(host: &str) -> Option<String> {
    (!host.starts_with('.')).then(|| host.replace('.', "/"))
}

/// Whether a host file exists and has no write permission: RISC OS's file without write access.
fn read_only(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly())
}

/// A whole file, bounded, and only a regular one: a device or FIFO is refused before it is
/// opened (opening a FIFO would wait for a writer, and the machine with it).
fn read_file(path: &Path) -> Result<Vec<u8>, BasicError> {
    use retro_machine::infile::{MACHINE_FILE, ReadErrorKind, read_regular};
    read_regular(path, MACHINE_FILE).map_err(|e| match e.kind {
        ReadErrorKind::NotFound | ReadErrorKind::IsDirectory => NOT_FOUND,
        ReadErrorKind::NotAFile(_) | ReadErrorKind::PermissionDenied => ACCESS_VIOLATION,
        ReadErrorKind::TooLarge(_) | ReadErrorKind::Other(_) => FILE_ERROR,
    })
}

/// Writes a changed file as `cat >` would (through a symbolic link, into a device or pipe) and
/// atomically where it is a regular file (a temporary name beside it, renamed over it).
fn flush(ch: &Chan) -> Result<(), BasicError> {
    if !ch.dirty {
        return Ok(());
    }
    retro_machine::outfile::write_output(&ch.path, &ch.data).map_err(|_| FILE_ERROR)
}

impl Interp {
    /// Lets the program use files in `dir` (and below it); `None` takes files away.
    pub fn set_file_root(&mut self, dir: Option<PathBuf>) {
        let _ = self.files.close_all();
        self.files.root = dir;
        self.files.dir = PathBuf::new();
    }

    /// OPENIN, OPENOUT, OPENUP (`t`): pc is past the keyword. The channel, or 0 if the file
    /// is not there (OPENIN, OPENUP) or too many are open.
    pub(super) fn open_fn(&mut self, t: u8) -> R<Val> {
        let name = self.factor_str()?;
        Ok(Val::Int(self.open_named(t, &name, false)?))
    }

    /// Opens `name` as OPENIN, OPENOUT or OPENUP (`t`) does; `trace` marks TRACE TO's file.
    fn open_named(&mut self, t: u8, name: &[u8], trace: bool) -> R<i32> {
        let path = self.files.resolve(name)?;
        if t != tok::OPENIN && read_only(&path) {
            return Err(ACCESS_VIOLATION.into());
        }
        let data = if t == tok::OPENOUT {
            if path.is_dir() {
                return Err(BAD_NAME.into());
            }
            Vec::new()
        } else {
            match read_file(&path) {
                Ok(d) => d,
                Err(e) if e == NOT_FOUND => return Ok(0),
                Err(e) => return Err(e.into()),
            }
        };
        self.files.room_for(data.len())?;
        let ch = Chan {
            path,
            data,
            ptr: 0,
            write: t != tok::OPENIN,
            dirty: t == tok::OPENOUT,
            past_end: false,
            trace,
        };
        Ok(self.files.open(ch))
    }

    /// TRACE TO's file `name`, opened as OPENOUT opens it: its channel ("Too many open files"
    /// is RISC OS's word when none is free).
    pub(super) fn open_trace_file(&mut self, name: &[u8]) -> R<i32> {
        match self.open_named(tok::OPENOUT, name, true)? {
            0 => Err(TOO_MANY_FILES.into()),
            n => Ok(n),
        }
    }

    /// Adds `bytes` to TRACE TO's file on channel `n`; an error if that channel is no longer
    /// the trace's (CLOSE#0 closed it).
    pub(super) fn write_trace_file(&mut self, n: i32, bytes: &[u8]) -> R<()> {
        if !self.files.chan(n)?.trace {
            return Err(CHANNEL.into());
        }
        self.put(n, bytes)
    }

    /// TRACE CLOSE: writes and closes TRACE TO's file on channel `n`, if it is still open.
    pub(super) fn close_trace_file(&mut self, n: i32) -> R<()> {
        if self.files.chan(n).is_ok_and(|ch| ch.trace) {
            self.files.close(n)?;
        }
        Ok(())
    }

    /// `#channel` at pc.
    fn channel(&mut self) -> R<i32> {
        self.expect(b'#', error::MISSING_HASH)?;
        self.factor_int()
    }

    /// EOF#, BGET#, EXT#, PTR# as functions: pc is past the keyword.
    pub(super) fn file_fn(&mut self, t: u8) -> R<Val> {
        if t == tok::BGET {
            self.no_side_effect("BGET# would move the file's pointer")?;
        }
        let n = self.channel()?;
        let ch = self.files.chan(n)?;
        Ok(Val::Int(match t {
            tok::EOF => -((ch.ptr >= ch.data.len()) as i32),
            tok::EXT => ch.data.len() as i32,
            tok::PTR => ch.ptr as i32,
            _ => match ch.data.get(ch.ptr) {
                Some(&b) => {
                    ch.ptr += 1;
                    b as i32
                }
                // The first BGET# past the end gives 0 (as Brandy does); the next is an error, as
                // RISC OS's FileSwitch has it (Brandy gives 0 again).
                None if ch.past_end => return Err(EOF_ERROR.into()),
                None => {
                    ch.past_end = true;
                    0
                }
            },
        }))
    }

    /// GET$#n: the bytes up to the next CR, LF or NUL (which is read and dropped), or to the end
    /// of the file; at the end, the empty string. This is what BBC BASIC (Z80), Acorn's
    /// lineage, does (corpus 313_get_string_file); Brandy instead keeps a CR that follows an LF
    /// in the string and fails at the end of the file.
    pub(super) fn get_string_fn(&mut self) -> R<Val> {
        self.no_side_effect("GET$# would move the file's pointer")?;
        let n = self.channel()?;
        let ch = self.files.chan(n)?;
        let rest = ch.data.get(ch.ptr..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|b| matches!(b, b'\r' | b'\n' | 0))
            .unwrap_or(rest.len());
        // A longer run gives its first 255 bytes; the next GET$# goes on from there.
        let take = len.min(MAX_STRING);
        let s = rest[..take].to_vec();
        ch.ptr += take + usize::from(take == len && len < rest.len());
        Ok(Val::Str(s))
    }

    /// CLOSE#n (0: every file).
    pub(super) fn close_stmt(&mut self) -> R<()> {
        let n = self.channel()?;
        if n == 0 {
            self.files.close_all()?;
        } else {
            self.files.close(n)?;
        }
        self.end_stmt()
    }

    /// PTR#n=x and EXT#n=x: pc is past the keyword.
    pub(super) fn ptr_ext_stmt(&mut self, ext: bool) -> R<()> {
        let n = self.channel()?;
        self.expect(b'=', error::MISTAKE)?;
        let x = self.expr_int()?;
        let ch = self.files.chan(n)?;
        let x = usize::try_from(x).map_err(|_| error::OUT_OF_RANGE)?;
        ch.past_end = false;
        if x > MAX_FILE {
            return Err(FILE_ERROR.into());
        }
        if ext {
            if !ch.write {
                return Err(READ_ONLY.into());
            }
            let more = x.saturating_sub(ch.data.len());
            self.files.room_for(more)?;
            let ch = self.files.chan(n)?;
            ch.data.resize(x, 0);
            ch.ptr = ch.ptr.min(x);
            ch.dirty = true;
        } else if x > ch.data.len() && !ch.write {
            return Err(EOF_ERROR.into());
        } else {
            ch.ptr = x;
        }
        self.end_stmt()
    }

    /// Writes `bytes` at a channel's pointer, extending the file.
    fn put(&mut self, n: i32, bytes: &[u8]) -> R<()> {
        let ch = self.files.chan(n)?;
        if !ch.write {
            return Err(READ_ONLY.into());
        }
        let end = ch.ptr + bytes.len();
        if end > MAX_FILE {
            return Err(FILE_ERROR.into());
        }
        let more = end.saturating_sub(ch.data.len());
        self.files.room_for(more)?;
        let ch = self.files.chan(n)?;
        if ch.data.len() < ch.ptr {
            ch.data.resize(ch.ptr, 0);
        }
        let overlap = (ch.data.len() - ch.ptr).min(bytes.len());
        ch.data[ch.ptr..ch.ptr + overlap].copy_from_slice(&bytes[..overlap]);
        ch.data.extend_from_slice(&bytes[overlap..]);
        ch.ptr = end;
        ch.dirty = true;
        Ok(())
    }

    /// BPUT#n,byte and BPUT#n,string[;] (a string is followed by a line feed unless `;`).
    pub(super) fn bput_stmt(&mut self) -> R<()> {
        let n = self.channel()?;
        self.expect(b',', error::MISSING_COMMA)?;
        match self.expr()? {
            Val::Str(mut s) => {
                if !self.eat(b';') {
                    s.push(10);
                }
                self.put(n, &s)?;
            }
            v => {
                let b = self.to_int(v)? as u8;
                self.put(n, &[b])?;
            }
        }
        self.end_stmt()
    }

    /// PRINT#n,items: pc is past the `#`... at the `#`.
    pub(super) fn print_file(&mut self) -> R<()> {
        let n = self.channel()?;
        self.files.chan(n)?;
        while self.eat(b',') || self.eat(b';') {
            if self.at_stmt_end() {
                break;
            }
            let mut rec = Vec::with_capacity(10);
            match self.expr()? {
                Val::Int(i) => {
                    rec.push(0x40);
                    rec.extend_from_slice(&i.to_be_bytes());
                }
                Val::Float(f) => {
                    rec.push(0x88);
                    let b = f.to_bits();
                    rec.extend_from_slice(&((b >> 32) as u32).to_le_bytes());
                    rec.extend_from_slice(&(b as u32).to_le_bytes());
                }
                Val::Str(s) => {
                    rec.push(0);
                    rec.push(s.len() as u8);
                    rec.extend(s.iter().rev());
                }
            }
            self.put(n, &rec)?;
        }
        self.end_stmt()
    }

    /// Reads `len` bytes at a channel's pointer ("End of file" if they are not all there).
    fn take(&mut self, n: i32, len: usize) -> R<Vec<u8>> {
        let ch = self.files.chan(n)?;
        let end = ch.ptr + len;
        let Some(b) = ch.data.get(ch.ptr..end) else {
            return Err(EOF_ERROR.into());
        };
        let b = b.to_vec();
        ch.ptr = end;
        Ok(b)
    }

    /// One PRINT# record.
    fn read_record(&mut self, n: i32) -> R<Val> {
        let t = self.take(n, 1)?[0];
        Ok(match t {
            0x40 => {
                let b = self.take(n, 4)?;
                Val::Int(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            }
            0x88 => {
                let b = self.take(n, 8)?;
                let hi = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
                let lo = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as u64;
                Val::Float(f64::from_bits(hi << 32 | lo))
            }
            0xFF => {
                let b = self.take(n, 5)?;
                Val::Float(five_byte_float([b[0], b[1], b[2], b[3], b[4]]))
            }
            0x00 => {
                let len = self.take(n, 1)?[0] as usize;
                let mut s = self.take(n, len)?;
                s.reverse();
                Val::Str(s)
            }
            _ => return Err(error::TYPE_MISMATCH.into()),
        })
    }

    /// INPUT#n,variables: pc is at the `#`.
    pub(super) fn input_file(&mut self) -> R<()> {
        let n = self.channel()?;
        self.files.chan(n)?;
        while self.eat(b',') || self.eat(b';') {
            let v = self.var_ref(true)?;
            let val = self.read_record(n)?;
            let is_str = matches!(v, VarRef::Str(_) | VarRef::StrEl(..) | VarRef::MemStr(_));
            if is_str != matches!(val, Val::Str(_)) {
                return Err(error::TYPE_MISMATCH.into());
            }
            self.assign(v, val)?;
        }
        self.end_stmt()
    }

    /// A `*` command (from a `*` line or OSCLI). Commands other than the file ones are
    /// accepted and do nothing, as before.
    pub(super) fn star_command(&mut self, line: &[u8]) -> R<()> {
        let line = line.trim_ascii();
        let line = line.strip_prefix(b"*").unwrap_or(line).trim_ascii_start();
        let split = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
        let (cmd, args) = (line[..split].to_ascii_uppercase(), line[split..].trim_ascii());
        let arg_list: Vec<&[u8]> = args.split(|&b| b == b' ').filter(|a| !a.is_empty()).collect();
        match &cmd[..] {
            b"DIR" => {
                let dir = if args.is_empty() {
                    PathBuf::new()
                } else {
                    relative(&self.files.dir, args)?
                };
                let root = self.files.root.as_ref().ok_or(BAD_NAME)?;
                if !root.join(&dir).is_dir() {
                    return Err(NOT_FOUND.into());
                }
                // A link to a directory outside: *CAT there would list it.
                if !retro_machine::infile::stays_inside(root, &root.join(&dir)) {
                    return Err(ACCESS_VIOLATION.into());
                }
                self.files.dir = dir;
            }
            b"CAT" | b"." => {
                let root = self.files.root.as_ref().ok_or(BAD_NAME)?;
                let dir = root.join(&self.files.dir);
                let mut names: Vec<String> = std::fs::read_dir(dir)
                    .map_err(|_| NOT_FOUND)?
                    .filter_map(|e| e.ok())
                    .filter_map(|e| risc_os_name(&e.file_name().to_string_lossy()))
                    .collect();
                names.sort();
                for n in names {
                    self.out_all(n.as_bytes());
                    self.newline();
                }
            }
            b"DELETE" => {
                let name = arg_list.first().ok_or(BAD_NAME)?;
                let path = self.files.resolve(name)?;
                if read_only(&path) {
                    return Err(LOCKED.into());
                }
                std::fs::remove_file(path).map_err(|_| NOT_FOUND)?;
            }
            b"RENAME" => {
                let [from, to] = arg_list[..] else {
                    return Err(BAD_NAME.into());
                };
                let (from, to) = (self.files.resolve(from)?, self.files.resolve(to)?);
                if !from.exists() {
                    return Err(NOT_FOUND.into());
                }
                if read_only(&from) || read_only(&to) {
                    return Err(LOCKED.into());
                }
                std::fs::rename(from, to).map_err(|_| FILE_ERROR)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Writes a whole file at once (SAVE at the prompt), through a temporary name.
    pub(super) fn save_file(&mut self, name: &[u8], bytes: &[u8]) -> Result<(), BasicError> {
        let path = self.files.resolve(name)?;
        if read_only(&path) {
            return Err(ACCESS_VIOLATION);
        }
        flush(&Chan {
            path,
            data: bytes.to_vec(),
            ptr: 0,
            write: true,
            dirty: true,
            past_end: false,
            trace: false,
        })
    }

    /// Reads a whole file (LOAD and CHAIN at the prompt).
    pub(super) fn load_file(&mut self, name: &[u8]) -> Result<Vec<u8>, BasicError> {
        let path = self.files.resolve(name)?;
        read_file(&path)
    }

    /// CHAIN "name" inside a program: the named file (any format the loader reads) as RISC OS
    /// program bytes, which the run loop puts in place of the running program.
    pub(super) fn chain_stmt(&mut self) -> R<()> {
        let name = self.expr_str()?;
        self.end_stmt()?;
        let bytes = self.load_file(&name)?;
        let program =
            crate::format::read_program(&bytes, crate::tokenize::Mode::Strict).map_err(|_| BAD_PROGRAM)?;
        Err(Box::new(super::Stop::Chain(program.to_bytes())))
    }

    /// The rest of a `*` line, run as a command.
    pub(super) fn star_line(&mut self) -> R<()> {
        let end = self.line_end(self.pc);
        let text = self.mem[self.pc..end].to_vec();
        self.pc = end;
        self.star_command(&text)
    }
}

/// Strings longer than BASIC's limit never come out of INPUT# (a record's length is a byte).
const _: () = assert!(MAX_STRING == 255);

/// The value of a RISC OS BASIC V float record's five bytes (after its `&FF`): the 5-byte float
/// written in reverse of its memory order, as PRINT# writes every value (so the mantissa's low
/// byte comes first and the exponent last). The mantissa's top bit is the sign (the leading 1
/// is implied) and the exponent is in excess &80; all zero bytes are zero. Every such value is
/// exact as an f64.
fn five_byte_float(b: [u8; 5]) -> f64 {
    let mantissa = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let exp = b[4];
    if exp == 0 && mantissa == 0 {
        return 0.0;
    }
    let negative = mantissa & 0x8000_0000 != 0;
    let m = (mantissa | 0x8000_0000) as f64 / 4_294_967_296.0;
    let v = m * 2f64.powi(exp as i32 - 0x80);
    if negative { -v } else { v }
}

#[cfg(test)]
mod tests {
    #[test]
    fn five_byte_float_records_read_as_risc_os_writes_them() {
        // 4 is &83 with mantissa &00000000, -8 is &84 with &80000000, 12 is &84 with &40000000,
        // -0.5 is &80 with &80000000 (mantissa bytes low first, then the exponent).
        assert_eq!(five_byte_float([0, 0, 0, 0, 0x83]), 4.0);
        assert_eq!(five_byte_float([0, 0, 0, 0x80, 0x84]), -8.0);
        assert_eq!(five_byte_float([0, 0, 0, 0x40, 0x84]), 12.0);
        assert_eq!(five_byte_float([0, 0, 0, 0x80, 0x80]), -0.5);
        assert_eq!(five_byte_float([0; 5]), 0.0);
    }

    use super::*;

    #[test]
    fn names_stay_inside_the_root() {
        let d = Path::new("sub");
        assert_eq!(relative(d, b"a/txt").ok(), Some(PathBuf::from("sub/a.txt")));
        assert_eq!(
            relative(d, b"data.level1").ok(),
            Some(PathBuf::from("sub/data/level1"))
        );
        assert_eq!(relative(d, b"^.b").ok(), Some(PathBuf::from("b")));
        assert_eq!(relative(d, b"$.b/c").ok(), Some(PathBuf::from("b.c")));
        assert_eq!(relative(d, b"@.x").ok(), Some(PathBuf::from("sub/x")));
        assert_eq!(relative(d, b"^.^.b"), Err(BAD_NAME));
        // Hidden host files have no RISC OS name; nor do host paths.
        for bad in [
            &b"/bashrc"[..],
            b"/",
            b"x./ssh",
            b"../b",
            b"/etc/passwd",
            b"",
            b"a..b",
            b"a.",
            b"ADFS::0.$.x",
            b"a*",
            b"x\x1b",
        ] {
            assert_eq!(
                relative(d, bad),
                Err(BAD_NAME),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(relative(Path::new(""), b"^"), Err(BAD_NAME));
        assert_eq!(risc_os_name("a.txt").as_deref(), Some("a/txt"));
        assert_eq!(risc_os_name(".bashrc"), None);
    }
}
