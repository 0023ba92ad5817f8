//! Writing a user's file (`retro asm -o`, `--screenshot`, `retro tpa -o`, BBC BASIC's SAVE and
//! OPENOUT, the C64's SAVE): as `cat > path` would, through symbolic links and into devices and
//! pipes, and atomically (a temporary file renamed over it) where the target is a regular file,
//! so that a crash or a full disk never leaves half a file. One home for every machine and
//! command; docs/cli.md ("Files") says what users see.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames it over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes a user's output file as `cat > path` would, and atomically where that is possible:
/// - a symbolic link is followed and its target written (the link stays a link; a dangling link
///   creates its target, as `cat >` does);
/// - a device, FIFO or socket is opened and written in place, never replaced by a regular file
///   (`-o /dev/null`, `-o >(gzip > x.gz)`);
/// - a regular file, or a new one, is written through [`write_atomic`] (a temporary file in the
///   same directory, renamed over it), keeping an existing file's permissions;
/// - a read-only file (no write permission for anyone) is refused, as `cat >` refuses it,
///   instead of being replaced by the rename;
/// - a writable file in a directory the user may not write (where no temporary file can be
///   made) is written in place.
pub fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = follow_links(path)?;
    match std::fs::metadata(&target) {
        Ok(m) if m.is_dir() => Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")),
        Ok(m) if !m.is_file() => std::fs::OpenOptions::new()
            .write(true)
            .open(&target)?
            .write_all(bytes),
        Ok(m) if m.permissions().readonly() => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file is read-only",
        )),
        Ok(m) => match write_atomic(&target, bytes) {
            Ok(()) => std::fs::set_permissions(&target, m.permissions()),
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(&target)?;
                f.write_all(bytes)?;
                f.sync_all()
            }
            Err(e) => Err(e),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => write_atomic(&target, bytes),
        Err(e) => Err(e),
    }
}

/// The path a chain of symbolic links leads to (the last link's target when it dangles).
fn follow_links(path: &Path) -> io::Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    // The kernel's own limit on links followed in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}
