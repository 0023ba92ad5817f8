//! `retro debug prog.bbc`: the BBC BASIC debugger (docs/debugging-basic.md), in batch with
//! `--script`. It takes the Z80 debugger's command language with BASIC meanings.

use std::io::Write;
use std::process::ExitCode;

use retro_bbc::interp::debug::{BbcDebugger, DebugOptions, run_script};
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
        dir: std::env::current_dir().ok(),
        ..DebugOptions::default()
    };
    if let Some(keys) = &args.keys {
        let text = match read_arg(keys, "key script") {
            Ok(t) => t,
            Err(e) => return usage_error(e),
        };
        match retro_screen::script::parse(&text) {
            Ok(s) => options.keys = s.events,
            Err(e) => return usage_error(format!("key script {keys}: {e}")),
        }
    }
    let Some(script) = &args.script else {
        return usage_error("the BASIC debugger runs in batch only so far: give it --script CMDS");
    };
    let text = match read_arg(script, "script") {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let mut dbg = match BbcDebugger::new(&program.to_bytes(), options) {
        Ok(d) => d,
        Err(e) => return usage_error(format!("{}: {e}", args.file.display())),
    };
    for b in &args.breaks {
        let o = dbg.execute(&format!("break {b}"));
        if o.error {
            return usage_error(format!(
                "--break {b}: {}",
                o.text.trim().trim_start_matches("error: ")
            ));
        }
    }
    let (out, failed) = run_script(&mut dbg, &text);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush());
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
