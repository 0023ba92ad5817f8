//! Every file retro reads goes through [`read_limited`], and every file it writes through
//! [`write_output`].
//!
//! Reading: each kind of input has a documented maximum (docs/cli.md, "Files"), enforced while
//! reading, so a device (`/dev/zero`), a pipe or a huge file costs at most that much memory and
//! ends with a clear error instead of the kernel killing the process. Errors say what is wrong
//! with the path (no such file, is a directory, permission denied), not just "cannot read".
//!
//! Writing: user files are written atomically, so a crash or a full disk never leaves half a file.

use std::io;

pub use retro_machine::infile::{Limit, check_path, check_regular, read_limited};
pub use retro_machine::outfile::write_output;

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

/// C64 programs (`.prg`) and listings (`.bas`): a listing of the C64's 38,911 bytes of BASIC
/// memory is well under 1 MiB; 16 MiB is the same room BBC programs get.
pub const C64_PROGRAM: Limit = Limit {
    what: "C64 program",
    max: 16 * MIB,
};

/// Z80 binaries (`.bin` for `run`, `debug` and `dis`): the Z80 addresses 64 KiB; reading stops
/// just past that so the loader can say where the bytes run past $FFFF.
pub const Z80_BINARY: Limit = Limit {
    what: "Z80 binary",
    max: 64 * 1024 + 1,
};

/// `retro tpa` images (PNG or text grid): the field is 10 x 20 cells, so a picture of it in any
/// reasonable resolution is far under 16 MiB.
pub const IMAGE: Limit = Limit {
    what: "sprite image",
    max: 16 * MIB,
};

/// Text inputs besides programs: `retro dis --symbols`, `debug --script`, `debug --keys`, a
/// `--printer` sequence.
pub const TEXT: Limit = Limit {
    what: "text file",
    max: 16 * MIB,
};

/// The directory a BASIC program's files live in (BBC BASIC's files, the C64's device 8, under
/// `run` and `debug` alike): `--dir` when given, else the program file's own directory, never
/// the current directory by default.
pub fn program_root(program: &std::path::Path, dir: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let dir = match dir {
        Some(d) => d,
        None => match program.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        },
    };
    std::path::absolute(dir).ok()
}

/// Whether `a` and `b` name the same existing file (through links, `./x` or a hard link), so a
/// command's `-o` never writes over its own input.
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// What a file is when it is plainly not a program listing (UTF-16 text, an image, an archive),
/// in words for "it is ...": such files would otherwise read as an empty or garbled program.
pub fn not_a_listing(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (
            b"\xFF\xFE",
            "UTF-16 text (little-endian); save the listing as UTF-8 or ASCII",
        ),
        (
            b"\xFE\xFF",
            "UTF-16 text (big-endian); save the listing as UTF-8 or ASCII",
        ),
        (b"\x89PNG", "a PNG image"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "gzip-compressed"),
        (b"\x7FELF", "an executable (ELF)"),
        (b"%PDF", "a PDF document"),
    ];
    if let Some((_, what)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(what);
    }
    // UTF-16 without a byte-order mark: ASCII characters with a 0 byte beside each.
    let head = &bytes[..bytes.len().min(64) & !1];
    let pairs = || head.chunks_exact(2);
    if head.len() >= 4 {
        if pairs().all(|p| p[1] == 0 && p[0] != 0 && p[0].is_ascii()) {
            return Some("UTF-16 text (little-endian); save the listing as UTF-8 or ASCII");
        }
        if pairs().all(|p| p[0] == 0 && p[1] != 0 && p[1].is_ascii()) {
            return Some("UTF-16 text (big-endian); save the listing as UTF-8 or ASCII");
        }
    }
    None
}

/// Whether an error is a closed output pipe (`retro ... | head`): the reader has gone, so the
/// run ends quietly as command-line tools do, with no message.
pub fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

#[cfg(test)]
mod tests {
    use super::*;
    use retro_machine::outfile::write_atomic;

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
    fn a_read_only_file_is_refused_not_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ro.bin");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = write_output(&path, b"new").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn a_writable_file_in_a_read_only_directory_is_written_in_place() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.bin");
        std::fs::write(&path, b"old contents").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        let r = write_output(&path, b"new");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        r.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn a_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_output(dir.path(), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
    }
}
