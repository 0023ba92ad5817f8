//! `retro run` for BBC BASIC programs: loads a text listing or a tokenized file and drives the
//! BBC machine headless or in the terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_bbc::interp::machine::{BbcMachine, InputSource};
use retro_bbc::{Mode, ReadError, read_program, render_diagnostics};

use super::session::{SessionArgs, drive, usage_error};

pub fn run_bbc(path: &Path, seed: Option<i64>, session: &SessionArgs) -> ExitCode {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return usage_error(format!("cannot read {}: {e}", path.display())),
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
    drive(
        &mut machine,
        session,
        vec![("Escape", "interrupt the program (Escape error)")],
    )
}
