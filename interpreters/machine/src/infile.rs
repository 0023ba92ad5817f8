//! Reading a user's file, bounded: the one home for every loader (the `retro` binary's program,
//! listing, image, script and symbol files; BASIC's OPENIN, LOAD and CHAIN; the C64's OPEN and
//! LOAD on device 8). docs/cli.md ("Files") lists the limit of each kind.
//!
//! - [`read_limited`] reads at most a kind's limit of a file, a pipe or a device: `/dev/zero`
//!   (or a symbolic link to it) ends with a clear error after `limit + 1` bytes instead of
//!   filling memory. Command-line inputs use it, so `retro run <(gunzip -c game.bbc.gz)` works.
//! - [`read_regular`] reads only a regular file: a program's own file statements must never wait
//!   on a FIFO (the open itself would block the machine and, with it, Escape and Ctrl-Q) nor
//!   read a device, so anything else is refused before it is opened.
//!
//! Errors say what is wrong with the path (no such file, a directory, a device, permission
//! denied), not just "cannot read".

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// A kind of input and the most bytes retro reads of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// What the file is, for messages ("BASIC program").
    pub what: &'static str,
    /// The largest accepted size in bytes.
    pub max: u64,
}

const MIB: u64 = 1 << 20;

/// A file a running program opens or loads (BBC BASIC's OPENIN, OPENUP, LOAD and CHAIN; the
/// C64's OPEN and LOAD on device 8): BBC BASIC files stop growing at 64 MiB, and no more is read.
pub const MACHINE_FILE: Limit = Limit {
    what: "file",
    max: 64 * MIB,
};

/// Whether `path` stays inside the directory `root` once every symbolic link in it is followed:
/// the deepest part of `path` that exists is resolved (a file to be made is judged by its
/// directory). A link whose target does not exist cannot be judged and counts as outside. The
/// one rule for the files of every machine's programs (BBC BASIC, the C64's device 8).
pub fn stays_inside(root: &Path, path: &Path) -> bool {
    let Ok(root) = root.canonicalize() else {
        return false;
    };
    let mut p = path.to_path_buf();
    loop {
        match p.canonicalize() {
            Ok(real) => return real.starts_with(&root),
            Err(_) if p.symlink_metadata().is_ok() => return false,
            Err(_) => {
                if !p.pop() {
                    return false;
                }
            }
        }
    }
}

/// Why a file could not be read.
#[derive(Debug)]
pub struct ReadError {
    pub path: PathBuf,
    pub kind: ReadErrorKind,
}

#[derive(Debug)]
pub enum ReadErrorKind {
    NotFound,
    IsDirectory,
    PermissionDenied,
    /// The input is larger than its limit.
    TooLarge(Limit),
    /// Not a regular file where only one will do: "a device", "a FIFO", "a socket".
    NotAFile(&'static str),
    /// Anything else the system reports (an I/O error on a device, a socket).
    Other(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The path came from a user or a program: control characters are shown escaped.
        let path = self.path.to_string_lossy();
        let path = retro_diag::escape::escape(&path);
        match &self.kind {
            ReadErrorKind::NotFound => write!(f, "cannot read {path}: no such file"),
            ReadErrorKind::IsDirectory => write!(f, "cannot read {path}: it is a directory"),
            ReadErrorKind::PermissionDenied => write!(f, "cannot read {path}: permission denied"),
            ReadErrorKind::TooLarge(limit) => write!(
                f,
                "cannot read {path}: a {} is at most {} bytes{}, and this one is larger",
                limit.what,
                limit.max,
                mib(limit.max)
            ),
            ReadErrorKind::NotAFile(what) => write!(f, "cannot read {path}: it is {what}, not a file"),
            ReadErrorKind::Other(e) => write!(f, "cannot read {path}: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// " (16 MiB)" for whole MiB sizes, to read the limit at a glance.
fn mib(n: u64) -> String {
    if n >= MIB && n.is_multiple_of(MIB) {
        format!(" ({} MiB)", n / MIB)
    } else {
        String::new()
    }
}

fn classify(e: io::Error) -> ReadErrorKind {
    match e.kind() {
        io::ErrorKind::NotFound => ReadErrorKind::NotFound,
        io::ErrorKind::PermissionDenied => ReadErrorKind::PermissionDenied,
        io::ErrorKind::IsADirectory => ReadErrorKind::IsDirectory,
        _ => ReadErrorKind::Other(e),
    }
}

/// What a path that is not a regular file or a directory is, in words ("a device").
fn special_kind(m: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// Checks that `path` names something to read (it exists, and is not a directory).
pub fn check_path(path: &Path) -> Result<(), ReadError> {
    let err = |kind| ReadError {
        path: path.to_path_buf(),
        kind,
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(err(ReadErrorKind::IsDirectory)),
        Ok(_) => Ok(()),
        Err(e) => Err(err(classify(e))),
    }
}

/// Checks that `path` (through any symbolic links) is a regular file, without opening it: a
/// device, a FIFO or a socket is [`ReadErrorKind::NotAFile`].
pub fn check_regular(path: &Path) -> Result<(), ReadError> {
    check_path(path)?;
    match std::fs::metadata(path) {
        Ok(m) => match special_kind(&m) {
            Some(what) => Err(ReadError {
                path: path.to_path_buf(),
                kind: ReadErrorKind::NotAFile(what),
            }),
            None => Ok(()),
        },
        Err(e) => Err(ReadError {
            path: path.to_path_buf(),
            kind: classify(e),
        }),
    }
}

/// Reads at most `limit.max` bytes of `path` (a file, a device or a pipe); more is an error,
/// found after reading `limit.max + 1` bytes, so memory stays bounded whatever the path is.
pub fn read_limited(path: &Path, limit: Limit) -> Result<Vec<u8>, ReadError> {
    let err = |kind| ReadError {
        path: path.to_path_buf(),
        kind,
    };
    // Opening a directory succeeds on Unix; ask first so the message says what the path is.
    check_path(path)?;
    let file = std::fs::File::open(path).map_err(|e| err(classify(e)))?;
    read_to_limit(file, limit).map_err(err)
}

/// [`read_limited`] for a regular file only: a device, FIFO or socket is refused before it is
/// opened (opening a FIFO waits for a writer), so a machine's file statement never blocks.
pub fn read_regular(path: &Path, limit: Limit) -> Result<Vec<u8>, ReadError> {
    check_regular(path)?;
    let file = std::fs::File::open(path).map_err(|e| ReadError {
        path: path.to_path_buf(),
        kind: classify(e),
    })?;
    // Replaced between the check and the open: ask the open file itself.
    if let Ok(m) = file.metadata()
        && let Some(what) = special_kind(&m)
    {
        return Err(ReadError {
            path: path.to_path_buf(),
            kind: ReadErrorKind::NotAFile(what),
        });
    }
    read_to_limit(file, limit).map_err(|kind| ReadError {
        path: path.to_path_buf(),
        kind,
    })
}

/// Reads from any reader up to `limit` (the body of [`read_limited`], also used for pipes).
pub fn read_to_limit(reader: impl Read, limit: Limit) -> Result<Vec<u8>, ReadErrorKind> {
    let mut bytes = Vec::new();
    reader
        .take(limit.max + 1)
        .read_to_end(&mut bytes)
        .map_err(classify)?;
    if bytes.len() as u64 > limit.max {
        return Err(ReadErrorKind::TooLarge(limit));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Limit = Limit {
        what: "test input",
        max: 10,
    };

    const BIG: Limit = Limit {
        what: "BASIC program",
        max: 16 * MIB,
    };

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_limited(&path, TINY).unwrap(), b"0123456789");
        assert_eq!(read_regular(&path, TINY).unwrap(), b"0123456789");
        std::fs::write(&path, b"0123456789A").unwrap();
        for e in [
            read_limited(&path, TINY).unwrap_err(),
            read_regular(&path, TINY).unwrap_err(),
        ] {
            assert!(matches!(e.kind, ReadErrorKind::TooLarge(_)), "{e}");
            assert!(
                e.to_string()
                    .ends_with("a test input is at most 10 bytes, and this one is larger")
            );
        }
    }

    #[test]
    fn an_endless_device_stops_at_the_limit() {
        // /dev/zero never ends: the limit ends the read after limit + 1 bytes.
        let e = read_limited(Path::new("/dev/zero"), BIG).unwrap_err();
        assert!(e.to_string().contains("at most 16777216 bytes (16 MiB)"), "{e}");
    }

    #[test]
    fn regular_reads_refuse_devices_fifos_and_links_to_them_without_opening() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        // Opening the FIFO would wait for a writer for ever: the test ending at all shows it is
        // refused before the open.
        let e = read_regular(&fifo, TINY).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot read {}: it is a FIFO, not a file", fifo.display())
        );
        for p in [Path::new("/dev/zero"), &link] {
            let e = read_regular(p, TINY).unwrap_err();
            assert!(matches!(e.kind, ReadErrorKind::NotAFile("a device")), "{e}");
        }
    }

    #[test]
    fn links_that_leave_the_root_are_outside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        std::os::unix::fs::symlink("sub", root.join("down")).unwrap();
        std::os::unix::fs::symlink("/nonexistent/x", root.join("dangling")).unwrap();
        assert!(stays_inside(&root, &root.join("new-file")));
        assert!(stays_inside(&root, &root.join("down/new-file")));
        assert!(!stays_inside(&root, &root.join("up/new-file")));
        assert!(!stays_inside(&root, &root.join("up")));
        assert!(!stays_inside(&root, &root.join("dangling")));
        assert!(!stays_inside(&root, &root.join("sub/../../x")));
    }

    #[test]
    fn errors_say_what_the_path_is() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_limited(dir.path(), TINY).unwrap_err();
        assert!(e.to_string().ends_with(": it is a directory"), "{e}");
        let e = read_regular(dir.path(), TINY).unwrap_err();
        assert!(e.to_string().ends_with(": it is a directory"), "{e}");
        let e = read_limited(&dir.path().join("nope"), TINY).unwrap_err();
        assert!(e.to_string().ends_with(": no such file"), "{e}");
        // A name with an escape sequence in it is shown escaped.
        let e = read_limited(&dir.path().join("a\x1b[2Jb"), TINY).unwrap_err();
        assert!(e.to_string().contains("a\\x1b[2Jb"), "{e}");
    }

    proptest::proptest! {
        /// Loading at any size against any limit: the bytes exactly when they fit, a too-large
        /// error otherwise, never more read than the limit allows.
        #[test]
        fn reads_exactly_what_fits(len in 0usize..2000, max in 0u64..2000) {
            let data = vec![0xA5u8; len];
            let limit = Limit { what: "test input", max };
            match read_to_limit(&data[..], limit) {
                Ok(bytes) => proptest::prop_assert!(len as u64 <= max && bytes == data),
                Err(ReadErrorKind::TooLarge(_)) => proptest::prop_assert!(len as u64 > max),
                Err(e) => proptest::prop_assert!(false, "{e:?}"),
            }
        }
    }

    #[test]
    fn system_errors_map_to_plain_words() {
        // Tests may run as root, who reads any file, so the mapping is checked directly.
        let kind = classify(io::Error::from(io::ErrorKind::PermissionDenied));
        let e = ReadError {
            path: "secret".into(),
            kind,
        };
        assert_eq!(e.to_string(), "cannot read secret: permission denied");
        assert!(matches!(
            classify(io::Error::from(io::ErrorKind::NotFound)),
            ReadErrorKind::NotFound
        ));
    }
}
