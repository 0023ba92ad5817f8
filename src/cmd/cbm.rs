//! The Commodore 64 side of `retro run`, `retro tok` and `retro list`: .bas files are petcat
//! listings, .prg files tokenized programs (docs/cbm-basic.md).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, ControlCodes, Options};
use retro_cbm::{Program, inspect};

use super::session::{SessionArgs, drive, usage_error};
use crate::files::write_atomic;

/// Whether `path` is a CBM program by its extension (.bas, .prg).
pub fn is_cbm(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("bas") || e.eq_ignore_ascii_case("prg"))
}

fn load(path: &Path) -> Result<Program, ExitCode> {
    let bytes =
        std::fs::read(path).map_err(|e| usage_error(format!("cannot read {}: {e}", path.display())))?;
    Program::read(&bytes).map_err(|e| usage_error(format!("{}: {e}", path.display())))
}

/// `retro run` for a C64 program.
pub fn run_cbm(path: &Path, seed: Option<i64>, session: &SessionArgs, petcat_codes: bool) -> ExitCode {
    let program = match load(path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let headless = session.headless || !std::io::stdout().is_terminal();
    let input = if headless {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    };
    // Device 8 is the directory the program is in.
    let disk = path
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .map(Path::to_path_buf);
    let options = Options {
        seed,
        disk,
        codes: if petcat_codes {
            ControlCodes::Petcat
        } else {
            ControlCodes::Omit
        },
    };
    let mut machine = match CbmMachine::new(&program, input, options) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: ?{}  ERROR", path.display(), e.name())),
    };
    drive(
        &mut machine,
        session,
        vec![("Escape", "RUN/STOP: break the program (BREAK IN n)")],
    )
}

/// `retro tok` for a petcat listing: writes the .prg.
pub fn tok(file: &Path, output: &Path) -> ExitCode {
    let program = match load(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    match write_atomic(output, &program.to_prg()) {
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
