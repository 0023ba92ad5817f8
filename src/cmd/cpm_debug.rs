//! `retro debug prog.com`: a CP/M program under the Z80 debugger (docs/debugger.md, "CP/M
//! programs"), with its symbols from `prog.sym` or its source `prog.asm` beside it.

use std::process::ExitCode;

use retro_z80_cpm::{CpmMachine, Disk, debug};

use super::debug::{DebugArgs, read_arg};
use super::session::usage_error;

pub fn debug_cpm(args: &DebugArgs) -> ExitCode {
    let com = match crate::files::read_limited(&args.file, crate::files::CPM_PROGRAM) {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let mut machine = match CpmMachine::new(&com) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: {e}", args.file.display())),
    };
    // Drive A: is `--dir`, else the program's own directory, as for `retro run`.
    machine.disk = crate::files::program_root(&args.file, args.dir.as_deref()).map(Disk::new);
    let (program, note) = match debug::program_beside(&args.file, &machine) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    if let Some(note) = note {
        eprintln!("retro: {note}");
    }
    let mut dbg = debug::debugger(machine, program);
    if let Some(keys) = &args.keys {
        let text = match read_arg(keys, "key script") {
            Ok(t) => t,
            Err(e) => return usage_error(e),
        };
        match retro_machine::script::parse(&text) {
            Ok(s) => dbg.set_keys(s),
            Err(e) => return usage_error(format!("key script {keys}: {e}")),
        }
    }
    super::debug::drive(&mut dbg, args)
}
