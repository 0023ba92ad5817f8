//! `retro run` for BBC BASIC programs: loads a text listing or a tokenized file and drives the
//! BBC machine headless or in the terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_bbc::interp::machine::{BbcMachine, InputSource};
use retro_bbc::{Mode, ReadError, read_program, render_diagnostics};
use retro_screen::Key;

use super::session::{SessionArgs, drive, usage_error};
use crate::files::{BASIC_PROGRAM, read_limited};

pub fn run_bbc(path: &Path, seed: Option<i64>, session: &SessionArgs) -> ExitCode {
    let bytes = match read_limited(path, BASIC_PROGRAM) {
        Ok(b) => b,
        Err(e) => return usage_error(e),
    };
    let program = match read_program(&bytes, Mode::Strict) {
        Ok(p) => p,
        Err(ReadError::Text { text, diagnostics }) => {
            let name = path.display().to_string();
            eprint!(
                "{}",
                render_diagnostics(&name, &text, &diagnostics, std::io::stderr().is_terminal())
            );
            return ExitCode::from(2);
        }
        Err(ReadError::Bad(e)) => return usage_error(format!("{}: {e}", path.display())),
    };
    let headless = session.headless || !std::io::stdout().is_terminal();
    // Headless runs read INPUT and GET from stdin, like a console BASIC; the terminal types them.
    let input = if headless {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    };
    let mut machine = match BbcMachine::new(&program.to_bytes(), seed, input) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: {e}", path.display())),
    };
    let mut help = vec![("Escape", "interrupt the program (Escape error)")];
    if is_rheolism(path) {
        // Rheolism reads the digits 7 (left), 9 (right) and 8 (rotate); the arrow keys type them
        // (docs/rheolism.md).
        machine.map_key(Key::Left, '7');
        machine.map_key(Key::Right, '9');
        machine.map_key(Key::Up, '8');
        help.push(("Left/Right or 7/9", "move the piece"));
        help.push(("Up or 8", "rotate the piece"));
    }
    drive(&mut machine, session, help)
}

/// Whether `path` is Rheolism, whose arrow keys are mapped: by its file name, `rheolism.bbc`
/// (any case), so a copy of the program keeps the mapping and other programs keep the cursor keys.
fn is_rheolism(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.eq_ignore_ascii_case("rheolism"))
}
