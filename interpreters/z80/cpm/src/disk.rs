//! Drive A: as a directory on the host. CP/M sees the regular files there whose names fit 8.3;
//! names are matched without regard to case, and files the program creates get upper-case names.
//! Only names that [`FcbName`] accepts ever reach the file system, so no path can leave the
//! directory, and symbolic links in it are not followed (they are not listed or opened).
//!
//! CP/M files are whole 128-byte records: a host file whose length is not a multiple of 128 reads
//! as if padded with ^Z (1Ah), CP/M's end-of-text mark.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::fcb::FcbName;

/// Bytes in a CP/M record.
pub const RECORD: usize = 128;
/// The largest file CP/M 2.2 can address: 65,536 records of 128 bytes (8 MiB).
pub const MAX_RECORDS: u32 = 65_536;

/// The host directory that is drive A:.
#[derive(Clone, Debug)]
pub struct Disk {
    root: PathBuf,
    /// The host path of each file CP/M can see, by name: read from the host when a search starts
    /// (or a name is not found), and kept up to date by the program's own changes, so reading a
    /// record costs the same beside two files or two thousand.
    index: RefCell<Option<HashMap<FcbName, PathBuf>>>,
    /// What the program did to files that were there before it made them: deletions, renames,
    /// files emptied by a make, for the front end to report when the run ends.
    changes: RefCell<Changes>,
}

/// The changes to report, at most [`MAX_CHANGES`] lines and a count of the rest, and the names
/// the program made itself in this run (its own temporary files come and go without a word).
#[derive(Clone, Debug, Default)]
struct Changes {
    lines: Vec<String>,
    more: usize,
    made: HashSet<FcbName>,
}

/// Lines of changes kept for the report; a program that deletes in a loop cannot fill memory.
const MAX_CHANGES: usize = 1000;

impl Disk {
    pub fn new(root: impl Into<PathBuf>) -> Disk {
        Disk {
            root: root.into(),
            index: RefCell::new(None),
            changes: RefCell::new(Changes::default()),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Files the program deleted, renamed or emptied, one line each (`deleted NOTES.TXT`,
    /// `renamed A.TXT to B.TXT`), in the order it happened; files it made itself in this run are
    /// left out. Past 1,000 lines, a last line counts the rest.
    pub fn changes(&self) -> Vec<String> {
        let changes = self.changes.borrow();
        let mut lines = changes.lines.clone();
        if changes.more > 0 {
            lines.push(format!("... and {} more", changes.more));
        }
        lines
    }

    /// Every file CP/M can see, sorted by name, with its host path (no sizes: a look-up that
    /// misses reads only the names). When two host names differ only in case, the first in byte
    /// order is the one CP/M sees. Refreshes the index.
    fn scan(&self) -> Vec<(FcbName, PathBuf)> {
        let Ok(dir) = fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut found: Vec<(FcbName, PathBuf)> = dir
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let name = FcbName::parse(e.file_name().to_str()?)?;
                (!name.is_ambiguous()).then(|| (name, e.path()))
            })
            .collect();
        found.sort_by(|a, b| (a.0.0, &a.1).cmp(&(b.0.0, &b.1)));
        found.dedup_by_key(|(n, _)| n.0);
        *self.index.borrow_mut() = Some(found.iter().cloned().collect());
        found
    }

    /// The files CP/M can see that match `pattern`, sorted by name, with their sizes in bytes.
    /// Reads the host directory afresh.
    pub fn list(&self, pattern: &FcbName) -> Vec<(FcbName, u64)> {
        self.scan()
            .into_iter()
            .filter(|(n, _)| pattern.matches(n))
            .filter_map(|(n, path)| Some((n, fs::metadata(path).ok()?.len())))
            .collect()
    }

    /// The host path of an existing file.
    pub fn find(&self, name: &FcbName) -> Option<PathBuf> {
        if name.is_ambiguous() {
            return None;
        }
        let known = |index: &Option<HashMap<FcbName, PathBuf>>| index.as_ref()?.get(name).cloned();
        if let Some(path) = known(&self.index.borrow()) {
            return Some(path);
        }
        // Not known: the host directory may have changed since it was read.
        self.scan();
        known(&self.index.borrow())
    }

    /// Size in records (rounded up), or `None` if the file does not exist.
    pub fn records(&self, name: &FcbName) -> Option<u32> {
        let len = fs::metadata(self.find(name)?).ok()?.len();
        Some(len.div_ceil(RECORD as u64).min(MAX_RECORDS as u64) as u32)
    }

    /// Reads record `n`: `Ok(None)` past the end of the file.
    pub fn read_record(&self, name: &FcbName, n: u32) -> io::Result<Option<[u8; RECORD]>> {
        let path = self.find(name).ok_or_else(not_found)?;
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(n as u64 * RECORD as u64))?;
        let mut record = [0x1A; RECORD];
        let mut got = 0;
        while got < RECORD {
            match file.read(&mut record[got..])? {
                0 => break,
                k => got += k,
            }
        }
        Ok((got > 0).then_some(record))
    }

    /// Writes record `n`, extending the file (with zeros) if it is shorter.
    pub fn write_record(&self, name: &FcbName, n: u32, data: &[u8; RECORD]) -> io::Result<()> {
        let path = self.find(name).ok_or_else(not_found)?;
        let mut file = OpenOptions::new().write(true).open(path)?;
        file.seek(SeekFrom::Start(n as u64 * RECORD as u64))?;
        file.write_all(data)
    }

    /// Creates an empty file (emptying one that exists).
    pub fn create(&self, name: &FcbName) -> io::Result<()> {
        if name.is_ambiguous() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "ambiguous file name"));
        }
        let path = match self.find(name) {
            Some(p) => {
                if fs::metadata(&p).is_ok_and(|m| m.len() > 0) && !self.made(name) {
                    self.note(format!("emptied {}", self.host_name(&p)));
                }
                p
            }
            None => self.new_path(name)?,
        };
        File::create(&path)?;
        self.changes.borrow_mut().made.insert(*name);
        self.remember(*name, Some(path));
        Ok(())
    }

    /// Deletes every file matching `pattern`; returns how many.
    pub fn delete(&self, pattern: &FcbName) -> usize {
        let mut deleted = 0;
        for (name, path) in self.scan() {
            if pattern.matches(&name) && fs::remove_file(&path).is_ok() {
                if !self.changes.borrow_mut().made.remove(&name) {
                    self.note(format!("deleted {}", self.host_name(&path)));
                }
                self.remember(name, None);
                deleted += 1;
            }
        }
        deleted
    }

    /// Renames `from` to `to` (which must not exist yet).
    pub fn rename(&self, from: &FcbName, to: &FcbName) -> io::Result<()> {
        let src = self.find(from).ok_or_else(not_found)?;
        if to.is_ambiguous() || self.find(to).is_some() {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, "file exists"));
        }
        let dst = self.new_path(to)?;
        fs::rename(&src, &dst)?;
        if self.changes.borrow_mut().made.remove(from) {
            self.changes.borrow_mut().made.insert(*to);
        } else {
            self.note(format!(
                "renamed {} to {}",
                self.host_name(&src),
                self.host_name(&dst)
            ));
        }
        self.remember(*from, None);
        self.remember(*to, Some(dst));
        Ok(())
    }

    fn note(&self, change: String) {
        let mut changes = self.changes.borrow_mut();
        if changes.lines.len() < MAX_CHANGES {
            changes.lines.push(change);
        } else {
            changes.more += 1;
        }
    }

    fn made(&self, name: &FcbName) -> bool {
        self.changes.borrow().made.contains(name)
    }

    fn host_name(&self, path: &Path) -> String {
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    /// Keeps the index in step with a change the program made.
    fn remember(&self, name: FcbName, path: Option<PathBuf>) {
        if let Some(index) = self.index.borrow_mut().as_mut() {
            match path {
                Some(p) => index.insert(name, p),
                None => index.remove(&name),
            };
        }
    }

    /// Where a new file goes: refused if something that CP/M cannot see (a link, a directory, a
    /// name that differs only in case from a long name) already has that name.
    fn new_path(&self, name: &FcbName) -> io::Result<PathBuf> {
        if !name.is_valid() || name.is_ambiguous() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a CP/M file name",
            ));
        }
        let path = self.root.join(name.display());
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(path),
            _ => Err(io::Error::new(io::ErrorKind::AlreadyExists, "name in use")),
        }
    }
}

fn not_found() -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, "no such file")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> FcbName {
        FcbName::parse(s).unwrap()
    }

    #[test]
    fn files_are_found_case_insensitively_and_listed_in_order() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("b.txt"), b"b").unwrap();
        fs::write(dir.path().join("A.TXT"), b"aa").unwrap();
        fs::write(dir.path().join("notes.markdown"), b"not 8.3").unwrap();
        fs::create_dir(dir.path().join("SUB")).unwrap();
        let disk = Disk::new(dir.path());
        assert!(disk.find(&name("B.TXT")).is_some());
        let all = disk.list(&name("*.*"));
        let names: Vec<String> = all.iter().map(|(n, _)| n.display()).collect();
        assert_eq!(
            names,
            ["A.TXT", "B.TXT"],
            "directories and long names are invisible"
        );
        assert_eq!(all[0].1, 2);
    }

    #[test]
    fn records_read_padded_with_ctrl_z_and_write_at_their_place() {
        let dir = tempfile::tempdir().unwrap();
        let disk = Disk::new(dir.path());
        let f = name("DATA.BIN");
        disk.create(&f).unwrap();
        assert_eq!(disk.records(&f), Some(0));
        assert_eq!(disk.read_record(&f, 0).unwrap(), None);
        disk.write_record(&f, 1, &[7; RECORD]).unwrap();
        assert_eq!(disk.records(&f), Some(2));
        assert_eq!(
            disk.read_record(&f, 0).unwrap(),
            Some([0; RECORD]),
            "the gap is zeros"
        );
        assert_eq!(disk.read_record(&f, 1).unwrap(), Some([7; RECORD]));
        fs::write(dir.path().join("DATA.BIN"), b"hi").unwrap();
        let r = disk.read_record(&f, 0).unwrap().unwrap();
        assert_eq!(&r[..3], b"hi\x1A");
        assert_eq!(disk.records(&f), Some(1));
    }

    #[test]
    fn delete_and_rename() {
        let dir = tempfile::tempdir().unwrap();
        let disk = Disk::new(dir.path());
        for n in ["X1.TMP", "X2.TMP", "KEEP.TXT"] {
            disk.create(&name(n)).unwrap();
        }
        assert_eq!(disk.delete(&name("*.TMP")), 2);
        assert!(disk.rename(&name("KEEP.TXT"), &name("KEPT.TXT")).is_ok());
        assert!(dir.path().join("KEPT.TXT").exists());
        assert!(disk.rename(&name("GONE.TXT"), &name("X.TXT")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_not_followed_out_of_the_directory() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("SECRET.TXT"), b"secret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("SECRET.TXT"), dir.path().join("LINK.TXT")).unwrap();
        let disk = Disk::new(dir.path());
        assert!(disk.find(&name("LINK.TXT")).is_none());
        assert!(disk.list(&name("*.*")).is_empty());
        assert!(
            disk.create(&name("LINK.TXT")).is_err(),
            "creating over the link is refused"
        );
        assert_eq!(fs::read(outside.path().join("SECRET.TXT")).unwrap(), b"secret");
    }

    #[test]
    fn changes_to_files_that_were_there_are_kept_for_the_report() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("notes.txt"), b"mine").unwrap();
        fs::write(dir.path().join("OLD.ASM"), b"src").unwrap();
        fs::write(dir.path().join("FULL.DAT"), b"data").unwrap();
        let disk = Disk::new(dir.path());
        // The program's own temporary file comes and goes without a word (ED's X.$$$ dance).
        disk.create(&name("X.TMP")).unwrap();
        disk.write_record(&name("X.TMP"), 0, &[1; RECORD]).unwrap();
        disk.create(&name("X.TMP")).unwrap();
        disk.rename(&name("OLD.ASM"), &name("OLD.BAK")).unwrap();
        disk.rename(&name("X.TMP"), &name("OLD.ASM")).unwrap();
        disk.create(&name("FULL.DAT")).unwrap();
        assert_eq!(disk.delete(&name("*.*")), 4);
        assert_eq!(
            disk.changes(),
            [
                "renamed OLD.ASM to OLD.BAK",
                "emptied FULL.DAT",
                "deleted notes.txt",
                "deleted OLD.BAK"
            ]
        );
        // A program deleting in a loop: the report stays bounded.
        for _ in 0..1500 {
            fs::write(dir.path().join("LOOP.TXT"), b"x").unwrap();
            disk.delete(&name("LOOP.TXT"));
        }
        let changes = disk.changes();
        assert_eq!(changes.len(), MAX_CHANGES + 1);
        assert_eq!(changes[MAX_CHANGES], "... and 504 more");
    }
}
