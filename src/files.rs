//! Every file retro reads goes through [`read_limited`], and every file it writes through
//! [`write_output`].
//!
//! Reading: each kind of input has a documented maximum (docs/cli.md, "Files"), enforced while
//! reading, so a device (`/dev/zero`), a pipe or a huge file costs at most that much memory and
//! ends with a clear error instead of the kernel killing the process. Errors say what is wrong
//! with the path (no such file, is a directory, permission denied), not just "cannot read".
//!
//! Writing: user files are written atomically, so a crash or a full disk never leaves half a file.

use std::fmt;
use std::io::{self, Read};

pub use retro_screen::outfile::write_output;
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

/// BBC BASIC programs, tokenized or text. A RISC OS program lives in at most a few MiB of memory
/// and a tokenized line holds 251 bytes, so 16 MiB of listing is far beyond any real program.
pub const BASIC_PROGRAM: Limit = Limit {
    what: "BASIC program",
    max: 16 * MIB,
};

/// Key scripts (`--keys FILE`): a script may produce at most a million events anyway.
pub const KEY_SCRIPT: Limit = Limit {
    what: "key script",
    max: 16 * MIB,
};

/// Input movies (`--movie FILE.fm2`): about 30 bytes a frame, so 64 MiB is over 20 hours at 60 Hz.
pub const MOVIE: Limit = Limit {
    what: "movie",
    max: 64 * MIB,
};

/// CP/M .COM files: the TPA is under 64 KiB; reading stops just past that so the CP/M loader
/// can still say how large the file is in its own words.
pub const CPM_PROGRAM: Limit = Limit {
    what: "CP/M program",
    max: 64 * 1024 + 1,
};

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
    /// Anything else the system reports (an I/O error on a device, a socket).
    Other(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
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

/// Whether an error is a closed output pipe (`retro ... | head`): the reader has gone, so the
/// run ends quietly as command-line tools do, with no message.
pub fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_screen::outfile::write_atomic;

    const TINY: Limit = Limit {
        what: "test input",
        max: 10,
    };

    #[test]
    fn writes_replace_the_file_and_leave_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        std::fs::write(&path, b"old").unwrap();
        write_atomic(&path, b"new contents").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("out.bin");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(!path.exists());
    }

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_limited(&path, TINY).unwrap(), b"0123456789");
        std::fs::write(&path, b"0123456789A").unwrap();
        let e = read_limited(&path, TINY).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::TooLarge(_)), "{e}");
        assert!(
            e.to_string()
                .ends_with("a test input is at most 10 bytes, and this one is larger")
        );
    }

    #[test]
    #[cfg(unix)]
    fn an_endless_device_stops_at_the_limit() {
        // /dev/zero never ends: the limit ends the read after limit + 1 bytes.
        let e = read_limited(Path::new("/dev/zero"), BASIC_PROGRAM).unwrap_err();
        assert!(e.to_string().contains("at most 16777216 bytes (16 MiB)"), "{e}");
    }

    #[test]
    fn errors_say_what_the_path_is() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_limited(dir.path(), TINY).unwrap_err();
        assert!(e.to_string().ends_with(": it is a directory"), "{e}");
        let e = read_limited(&dir.path().join("nope"), TINY).unwrap_err();
        assert!(e.to_string().ends_with(": no such file"), "{e}");
    }

    proptest::proptest! {
        /// The CLI's file loading at any size against any limit: the bytes exactly when they
        /// fit, a too-large error otherwise, never more read than the limit allows.
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

    #[test]
    fn output_goes_through_a_symlink_to_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.bin");
        let link = dir.path().join("link.bin");
        std::fs::write(&target, b"old").unwrap();
        std::os::unix::fs::symlink("real.bin", &link).unwrap();
        write_output(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // No temporary file left beside either.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_dangling_symlink_creates_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink(dir.path().join("new.bin"), &link).unwrap();
        write_output(&link, b"made").unwrap();
        assert_eq!(std::fs::read(dir.path().join("new.bin")).unwrap(), b"made");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }

    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_output(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_regular_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.com");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o751)).unwrap();
        write_output(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o751);
    }

    #[test]
    fn a_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_output(dir.path(), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
    }
}
