//! `retro debug prog.bas|prog.prg`: the C64 BASIC debugger (docs/debugging-basic.md), in batch
//! with `--script` or in the terminal, with the Z80 debugger's command language in BASIC's words.

use std::process::ExitCode;

use retro_cbm::debug::{CbmDebugger, DebugOptions};

use super::debug::{DebugArgs, read_arg};
use super::session::usage_error;

pub fn debug_cbm(args: &DebugArgs) -> ExitCode {
    let program = match super::cbm::load_program(&args.file, args.charset) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut options = DebugOptions {
        seed: args.seed,
        disk: crate::files::program_root(&args.file, args.dir.as_deref()),
        ..DebugOptions::default()
    };
    if let Some(keys) = &args.keys {
        let text = match read_arg(keys, "key script") {
            Ok(t) => t,
            Err(e) => return usage_error(e),
        };
        match retro_machine::script::parse(&text) {
            Ok(s) => options.keys = s.events,
            Err(e) => return usage_error(format!("key script {keys}: {e}")),
        }
    }
    let mut dbg = match CbmDebugger::new(&program, options) {
        Ok(d) => d,
        Err(e) => return usage_error(format!("{}: ?{}  ERROR", args.file.display(), e.name())),
    };
    super::debug::drive(&mut dbg, args)
}
