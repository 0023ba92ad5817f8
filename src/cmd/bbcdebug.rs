//! `retro debug prog.bbc`: the BBC BASIC debugger (docs/debugging-basic.md), in batch with
//! `--script` or in the terminal. It takes the Z80 debugger's command language with BASIC
//! meanings.

use std::process::ExitCode;

use retro_bbc::debug::{BbcDebugger, DebugOptions};
use retro_bbc::{Mode, ReadError, read_program};

use super::debug::{DebugArgs, read_arg};
use super::session::usage_error;
use crate::files::{BASIC_PROGRAM, read_limited};

pub fn debug_bbc(args: &DebugArgs) -> ExitCode {
    let bytes = match read_limited(&args.file, BASIC_PROGRAM) {
        Ok(b) => b,
        Err(e) => return usage_error(e),
    };
    let program = match read_program(&bytes, Mode::Strict) {
        Ok(p) => p,
        Err(ReadError::Text { diagnostics, .. }) => {
            let first = diagnostics.first().map(|d| format!("{d:?}")).unwrap_or_default();
            return usage_error(format!(
                "{}: the listing does not tokenize: {first}",
                args.file.display()
            ));
        }
        Err(ReadError::Bad(e)) => return usage_error(format!("{}: {e}", args.file.display())),
    };
    let mut options = DebugOptions {
        seed: args.seed,
        dir: crate::files::program_root(&args.file, args.dir.as_deref()),
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
    let mut dbg = match BbcDebugger::new(&program.to_bytes(), options) {
        Ok(d) => d,
        Err(e) => return usage_error(format!("{}: {e}", args.file.display())),
    };
    super::debug::drive(&mut dbg, args)
}
