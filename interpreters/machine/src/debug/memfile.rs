//! `save "FILE" START END` and `load "FILE" ADDR` (the VICE monitor's `s` and `l`): a range of a
//! machine's memory to a file and back, for every debugger (the Z80's, the C64's, the BBC's).
//! The file is written through the one safe output writer ([`crate::outfile::write_output`]:
//! atomic for a regular file, through symbolic links, into a device or a pipe in place) and read
//! through the bounded reader ([`crate::infile::read_limited`]); a file longer than the memory
//! from ADDR to its end is refused whole, never loaded in part.

use std::path::PathBuf;

use crate::infile::{self, Limit, ReadErrorKind};

/// The file name, quoted (`"board.bin"`, as VICE writes it) or a bare word, and the rest of
/// the arguments.
pub fn file_arg<'a>(args: &'a str, usage: &str) -> Result<(PathBuf, &'a str), String> {
    let args = args.trim();
    let (name, rest) = if let Some(inner) = args.strip_prefix('"') {
        let end = inner
            .find('"')
            .ok_or_else(|| format!("the file name needs its closing quote: {usage}"))?;
        (&inner[..end], &inner[end + 1..])
    } else {
        args.split_once(char::is_whitespace).unwrap_or((args, ""))
    };
    if name.is_empty() {
        return Err(format!("usage: {usage}"));
    }
    Ok((PathBuf::from(name), rest.trim()))
}

/// The path as messages show it (escaped: it came from the user).
fn shown(path: &std::path::Path) -> String {
    retro_diag::escape::escape(&path.to_string_lossy()).to_string()
}

/// Writes `bytes` (the memory from `first` to `last`, as the machine writes addresses) to `path`.
pub fn save(path: &std::path::Path, bytes: &[u8], first: &str, last: &str) -> Result<String, String> {
    crate::outfile::write_output(path, bytes).map_err(|e| format!("cannot write {}: {e}", shown(path)))?;
    Ok(format!(
        "Saved {} bytes {first}..{last} to \"{}\".\n",
        bytes.len(),
        shown(path)
    ))
}

/// Reads `path` to load at `at` (as the machine writes addresses), where `room` bytes are left
/// before the end of memory: a longer file is refused, nothing loaded.
pub fn read(path: &std::path::Path, room: usize, at: &str) -> Result<Vec<u8>, String> {
    let limit = Limit {
        what: "memory image",
        max: room as u64,
    };
    match infile::read_limited(path, limit) {
        Ok(bytes) if bytes.is_empty() => Err(format!("{} is empty: nothing loaded", shown(path))),
        Ok(bytes) => Ok(bytes),
        Err(e) if matches!(e.kind, ReadErrorKind::TooLarge(_)) => Err(format!(
            "{} is longer than the {room} bytes from {at} to the end of memory: nothing loaded",
            shown(path)
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// What `load` says it did.
pub fn loaded(path: &std::path::Path, n: usize, first: &str, last: &str) -> String {
    format!("Loaded {n} bytes from \"{}\" at {first}..{last}.\n", shown(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_is_quoted_or_a_word() {
        let (p, rest) = file_arg("\"my board.bin\" $8000 $8029", "u").unwrap();
        assert_eq!((p.to_str().unwrap(), rest), ("my board.bin", "$8000 $8029"));
        let (p, rest) = file_arg("b.bin 1024", "u").unwrap();
        assert_eq!((p.to_str().unwrap(), rest), ("b.bin", "1024"));
        assert!(file_arg("\"open 1024", "u").is_err());
        assert!(file_arg("", "u").is_err());
    }

    #[test]
    fn a_file_longer_than_the_room_left_is_refused_whole() {
        let dir = std::env::temp_dir().join(format!("retro-memfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("five.bin");
        std::fs::write(&f, [1, 2, 3, 4, 5]).unwrap();
        assert_eq!(read(&f, 5, "$FFFB").unwrap(), vec![1, 2, 3, 4, 5]);
        let e = read(&f, 4, "$FFFC").unwrap_err();
        assert!(e.contains("longer than the 4 bytes from $FFFC"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
