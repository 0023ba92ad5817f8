//! One module per subcommand. Each exposes its entry point returning the process exit status
//! (docs/cli.md: 0 ended normally, 1 the program stopped with an error, 2 bad usage or file).
//! What differs between machines is not here but in the machine table, `crate::machines`.

pub mod applies;
pub mod asm;
pub mod conformance;
pub mod debug;
pub mod run;
pub mod testcard;
pub mod tok;
pub mod tpa;

use std::path::Path;
use std::process::ExitCode;

use crate::machines::{self, MachineKind};

/// After a command refused a file (status 2) on the machine its name chose: when another
/// machine plainly recognises the bytes, says so with the `--machine` to use (a tokenized BBC
/// BASIC program named `.prg`). Returns the status unchanged.
fn hint_other_machine(code: ExitCode, by_name: bool, kind: &dyn MachineKind, file: &Path) -> ExitCode {
    if code == ExitCode::from(2)
        && by_name
        && let Some(hint) = machines::other_machine_hint(kind, file)
    {
        eprintln!("retro: {}", retro_diag::escape(&hint));
    }
    code
}
