//! The Commodore 64 side of `retro run`, `retro tok` and `retro list`: .bas files are petcat
//! listings, .prg files tokenized programs (docs/cbm-basic.md).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use retro_cbm::c64::Glyphs;
use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, ControlCodes, Options};
use retro_cbm::{Program, inspect};

use super::session::{SessionArgs, drive, usage_error};
use crate::files::write_output;

/// Whether `path` is a CBM program: a .prg file, or a .bas file that is not BBC BASIC.
pub fn is_cbm(path: &Path) -> bool {
    if has_extension(path, "prg") {
        return true;
    }
    has_extension(path, "bas") && !bas_is_bbc(path)
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether a .bas file holds BBC BASIC (a tokenized BBC program, or a listing with capital
/// keywords or unnumbered lines: retro_bbc::sniff has the rule). An unreadable file is left to the
/// C64 side, which reports it.
pub fn bas_is_bbc(path: &Path) -> bool {
    crate::files::read_limited(path, crate::files::BASIC_PROGRAM)
        .is_ok_and(|bytes| retro_bbc::sniff::is_bbc_basic(&bytes))
}

/// What to add to an error about a .bas file: how to choose the other machine.
pub fn bas_hint(path: &Path, other: &str) -> String {
    if has_extension(path, "bas") {
        format!(
            " ({} was read as {}; choose the machine with --machine bbc|cbm)",
            path.display(),
            other
        )
    } else {
        String::new()
    }
}

pub(super) fn load(path: &Path) -> Result<Program, ExitCode> {
    let bytes = crate::files::read_limited(path, crate::files::C64_PROGRAM).map_err(usage_error)?;
    // A .prg starts with its load address; anything else should be a listing.
    if !bytes.starts_with(&[0x01, 0x08])
        && let Some(what) = crate::files::not_a_listing(&bytes)
    {
        return Err(usage_error(format!(
            "{}: it is {what}, not a C64 program",
            path.display()
        )));
    }
    Program::read(&bytes).map_err(|e| {
        usage_error(format!(
            "{}: {e}{}",
            path.display(),
            bas_hint(path, "a C64 listing")
        ))
    })
}

/// How the C64's text stream and screen show PETSCII (`--petcat`, `--fallback-glyphs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    codes: ControlCodes,
    glyphs: Glyphs,
}

impl Look {
    pub fn new(petcat_codes: bool, fallback_glyphs: bool) -> Look {
        Look {
            codes: if petcat_codes {
                ControlCodes::Petcat
            } else {
                ControlCodes::Omit
            },
            glyphs: if fallback_glyphs {
                Glyphs::Fallback
            } else {
                Glyphs::Unicode
            },
        }
    }
}

/// `retro run` for a C64 program.
pub fn run_cbm(
    path: &Path,
    dir: Option<&Path>,
    seed: Option<i64>,
    session: &SessionArgs,
    look: Look,
) -> ExitCode {
    let program = match load(path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let headless = session.headless || !std::io::stdout().is_terminal();
    let input = input_source(headless, session);
    // Device 8 is the directory the program is in (or --dir).
    let disk = crate::files::program_root(path, dir);
    let options = Options {
        seed,
        disk,
        codes: look.codes,
        ready_after: !headless,
        glyphs: look.glyphs,
    };
    let mut machine = match CbmMachine::new(&program, input, options) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: ?{}  ERROR", path.display(), e.name())),
    };
    drive(&mut machine, session, help())
}

/// Headless runs without a key script read INPUT and GET from stdin, as a console BASIC does;
/// otherwise keys go through the C64's keyboard buffer.
fn input_source(headless: bool, session: &SessionArgs) -> InputSource {
    if headless && session.keys.is_none() {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    }
}

fn help() -> Vec<(&'static str, &'static str)> {
    vec![
        ("Escape", "RUN/STOP: break the program (BREAK IN n)"),
        ("Backspace / Delete", "DEL / INST"),
        ("Home / End", "HOME / CLR"),
        ("F1-F8", "the function keys"),
        ("Alt + key", "Commodore + key: the graphics on the keys' fronts"),
        ("Page Up", "RUN/STOP + RESTORE: reset the screen, READY."),
        ("Page Down", "SHIFT + Commodore: switch character set"),
    ]
}

/// `retro c64` (and `retro run --machine cbm` without a file): the power-on screen and READY.
/// Headless, the lines of stdin are typed at READY. (and read by INPUT); device 8 is the
/// current directory.
pub fn direct(seed: Option<i64>, session: &SessionArgs, look: Look) -> ExitCode {
    let headless = session.headless || !std::io::stdout().is_terminal();
    let options = Options {
        seed,
        disk: Some(Path::new(".").to_path_buf()),
        codes: look.codes,
        ready_after: true,
        glyphs: look.glyphs,
    };
    let mut machine = match CbmMachine::direct(input_source(headless, session), options) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("?{}  ERROR", e.name())),
    };
    drive(&mut machine, session, help())
}

/// `retro c64`.
#[derive(clap::Args, Debug)]
pub struct C64Args {
    /// Seed for RND, as RND(-N) would.
    #[arg(long)]
    pub seed: Option<i64>,
    /// Show control codes in the text stream in petcat's notation ({clr}, {red}).
    #[arg(long)]
    pub petcat: bool,
    /// Show the PETSCII graphics with characters older terminal fonts have (box drawing,
    /// blocks, shades) instead of Unicode's Symbols for Legacy Computing.
    #[arg(long)]
    pub fallback_glyphs: bool,
    #[command(flatten)]
    pub session: SessionArgs,
}

/// `retro tok` for a petcat listing: writes the .prg.
pub fn tok(file: &Path, output: &Path) -> ExitCode {
    let program = match load(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let prg = program.to_prg();
    // What `list` and LOAD would refuse (a program past the end of BASIC's memory, whose links
    // would wrap past $FFFF) is refused here too, before anything is written.
    if let Err(e) = Program::from_prg(&prg) {
        return usage_error(format!("{}: {e}", file.display()));
    }
    match write_output(output, &prg) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write {}: {e}", output.display())),
    }
}

/// `retro list` for a C64 program: the petcat listing, or each line's bytes with `--tokens`.
pub fn list(file: &Path, tokens: bool) -> ExitCode {
    let program = match load(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let text = if tokens {
        inspect::render(&program)
    } else {
        program.to_text()
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
