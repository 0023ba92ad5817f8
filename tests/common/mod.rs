//! What the end-to-end tests share.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A path inside the oracles (`$RETRO_ORACLES`, default ../shared/oracles beside the repository),
/// when `probe` exists under it. Missing data skips the test with a message, except under
/// RETRO_REQUIRE_CONFORMANCE (CI), where it fails.
#[allow(dead_code)] // not every test file that shares this module reads the oracles
pub fn oracle(sub: &str, probe: &str) -> Option<PathBuf> {
    let oracles = std::env::var_os("RETRO_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/oracles"));
    let dir = oracles.join(sub);
    if dir.join(probe).exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
        "{} is missing and RETRO_REQUIRE_CONFORMANCE is set",
        dir.display()
    );
    eprintln!("SKIPPED: {} not found (set RETRO_ORACLES)", dir.display());
    None
}

/// `retro ARGS` run in `dir` with `stdin` piped in, to its end.
#[allow(dead_code)] // not every test file that shares this module feeds retro input
pub fn retro_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run retro");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("retro finishes")
}

/// `retro ARGS` in the repository, with no input, to its end.
#[allow(dead_code)] // not every test file that shares this module runs retro this way
pub fn retro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retro"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run retro")
}

/// What a run printed, as text.
#[allow(dead_code)] // not every test file that shares this module reads output as text
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `retro ARGS` (as [`retro`]) as (stdout, stderr, exit status).
#[allow(dead_code)] // not every test file that shares this module runs retro this way
pub fn retro_text(args: &[&str]) -> (String, String, Option<i32>) {
    let o = retro(args);
    (text(&o.stdout), text(&o.stderr), o.status.code())
}

/// Checks `out` against the golden file `path`; with UPDATE_GOLDEN set, writes it there first.
#[allow(dead_code)] // not every test file that shares this module has golden transcripts
pub fn golden(path: &Path, out: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, out).unwrap();
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(out, expected, "the transcript differs from {}", path.display());
}

/// Runs `write` with the path of a symbolic link under `dir` (to `out/real`, which holds "old"),
/// checks that it succeeded and that the link is still a link, and gives what the target holds:
/// user files are written through links, as `cat >` would.
#[cfg(unix)]
#[allow(dead_code)] // not every test file that shares this module writes user files
pub fn written_through_a_symlink(dir: &Path, write: impl FnOnce(&str) -> Output) -> Vec<u8> {
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/real"), b"old").unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink("out/real", &link).unwrap();
    let o = write(link.to_str().expect("a UTF-8 path"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let kind = std::fs::symlink_metadata(&link).unwrap().file_type();
    assert!(kind.is_symlink(), "the link stays a link");
    std::fs::read(dir.join("out/real")).unwrap()
}

/// Runs `write` with the path of a FIFO under `dir` while a reader drains it, checks that it
/// succeeded and that the FIFO is still a FIFO, and gives what the reader got.
#[cfg(unix)]
#[allow(dead_code)] // not every test file that shares this module writes user files
pub fn written_into_a_fifo(dir: &Path, write: impl FnOnce(&str) -> Output) -> Vec<u8> {
    use std::os::unix::fs::FileTypeExt;
    let fifo = dir.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let o = write(fifo.to_str().expect("a UTF-8 path"));
    if !o.status.success() {
        // Unblock the reader before failing.
        let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        panic!("{}", text(&o.stderr));
    }
    let got = reader.join().unwrap();
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO stays a FIFO");
    got
}

/// What a run printed on stdout.
#[allow(dead_code)] // not every test file that shares this module reads stdout this way
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// What a run printed on stderr.
#[allow(dead_code)] // not every test file that shares this module reads stderr this way
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A screenshot as decoded from its PNG bytes: RGB, three bytes a pixel, row by row.
#[allow(dead_code)] // not every test file that shares this module reads screenshots
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

#[allow(dead_code)] // not every test file that shares this module reads screenshots
impl Picture {
    /// Decodes a screenshot (`retro ... --screenshot`), in memory.
    pub fn decode(png_bytes: &[u8]) -> Picture {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
            .read_info()
            .expect("a PNG");
        let mut rgb = vec![0; reader.output_buffer_size().expect("a picture that fits")];
        let info = reader.next_frame(&mut rgb).expect("a PNG frame");
        assert_eq!(info.color_type, png::ColorType::Rgb, "screenshots are RGB");
        Picture {
            width: info.width,
            height: info.height,
            rgb,
        }
    }

    /// Reads and decodes the screenshot at `path`.
    pub fn read(path: &Path) -> Picture {
        Picture::decode(&std::fs::read(path).expect("the screenshot was written"))
    }

    /// The colour of the pixel at (x, y).
    pub fn at(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let i = ((y * self.width + x) * 3) as usize;
        (self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }
}

/// The heart sprite (interpreters/tpa/sprites/heart.txt) as printed: the top 8 of the field's 42
/// rows (the rest empty), floor row last, centred (columns 6..=14), one hex digit a cell: red is
/// colour 1, the white highlight colour 2.
#[allow(dead_code)] // only the printer tests print the heart
pub const HEART_FIELD: [&str; 8] = [
    "000000011000110000000",
    "000000121101111000000",
    "000000121111111000000",
    "000000111111111000000",
    "000000011111110000000",
    "000000001111100000000",
    "000000000111000000000",
    "000000000010000000000",
];

/// The lines of a recorded Tetris state trace, programs/tetris/tests/traces/NAME.trace.gz.
#[allow(dead_code)] // only the Tetris tests read traces
pub fn tetris_trace(name: &str) -> Vec<String> {
    use std::io::Read;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("programs/tetris/tests/traces")
        .join(format!("{name}.trace.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap();
    text.lines().map(str::to_string).collect()
}

/// Checks that a `--dump-screen colours` screen frames the `width` x `height` cells whose top-left
/// cell is at (`row`, `column`) with bright white cells (`f`), a Tetris field's frame: every cell
/// of the ring round them is white, and the cells beside its corners, left and right, are not
/// (the ring is no wider). Err names the first cell that is wrong.
#[allow(dead_code)] // only the Tetris tests draw frames
pub fn white_frame(
    colours: &[String],
    row: usize,
    column: usize,
    width: usize,
    height: usize,
) -> Result<(), String> {
    let at = |r: usize, c: usize| colours.get(r).and_then(|l| l.as_bytes().get(c)).copied();
    let (top, bottom, left, right) = (row - 1, row + height, column - 1, column + width);
    for r in top..=bottom {
        for c in left..=right {
            let ring = r == top || r == bottom || c == left || c == right;
            if ring && at(r, c) != Some(b'f') {
                return Err(format!("row {r}, column {c} is not white"));
            }
        }
    }
    for r in [top, bottom] {
        let beside = [left.checked_sub(1), Some(right + 1)];
        if let Some(c) = beside.into_iter().flatten().find(|&c| at(r, c) == Some(b'f')) {
            return Err(format!("row {r}, column {c}, beside the frame, is white"));
        }
    }
    Ok(())
}
