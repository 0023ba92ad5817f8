//! `retro run --machine cpm FILE.com`: a CP/M program on the console (stdin/stdout).

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_z80::cpm::{CpmError, CpmLimits, CpmMachine};

/// Runs a .COM file until it warm-boots (jumps to 0000h): exit status 0; 1 when the run fails
/// (the CPU halts for good, console I/O fails); 2 when the file cannot be read or does not fit.
pub fn run_cpm(path: &Path) -> ExitCode {
    let program = match crate::files::read_limited(path, crate::files::CPM_PROGRAM) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("retro: {e}");
            return ExitCode::from(2);
        }
    };
    let mut machine = match CpmMachine::new(&program) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("retro: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    // A terminal already echoes what the user types; piped input is echoed by the BDOS as on a
    // real CP/M console, so the output reads like a session transcript.
    machine.options.echo_input = !std::io::stdin().is_terminal();
    match machine.run(
        std::io::stdin().lock(),
        std::io::stdout().lock(),
        CpmLimits::default(),
    ) {
        Ok(_) => ExitCode::SUCCESS,
        Err(CpmError::ProgramTooLarge { .. }) => ExitCode::from(2),
        Err(e) => {
            eprintln!("retro: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}
