//! `retro debug FILE`: the debugger, as a batch run of a command script (`--script`) or in the
//! terminal. The machine table (`crate::machines`) builds the machine with its debugger attached;
//! this drives it through its debugging capability (`Machine::as_debuggable`) in the shared
//! command language of docs/debugger.md.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use retro_machine::debug::Console;
use retro_machine::machine::Machine;

use crate::machines::options::DebugArgs;
use crate::machines::{self, MachineKind};
use crate::session::{load_keys, usage_error};

/// A `--script` argument: a file, or the commands after a leading '=' (';' separates them).
fn read_script(arg: &str) -> Result<String, String> {
    match arg.strip_prefix('=') {
        Some(inline) => Ok(inline.replace(';', "\n")),
        None => {
            let bytes = crate::files::read_limited(Path::new(arg), crate::files::TEXT)
                .map_err(|e| format!("script: {e}"))?;
            String::from_utf8(bytes).map_err(|_| format!("cannot read script {arg}: it is not text (UTF-8)"))
        }
    }
}

/// The machines with a debugger, for a message.
fn debuggable() -> String {
    machines::list(|m| m.debugger().is_some())
}

pub fn debug(args: DebugArgs) -> ExitCode {
    // A device or a FIFO is named as what it is (the debugger reads its program whole).
    if let Err(e) = crate::files::check_regular(&args.file) {
        return usage_error(e);
    }
    let file = args.file.display();
    let named = args.program.machine.as_deref().and_then(machines::by_name);
    let kind: &dyn MachineKind = match named.or_else(|| machines::for_file(&args.file)) {
        Some(k) => k,
        None => {
            return usage_error(format!(
                "{file}: no debugger takes this file; the machines that can be debugged: {}",
                debuggable()
            ));
        }
    };
    let Some(debugs) = kind.debugger() else {
        return usage_error(format!(
            "{file}: {} programs cannot be debugged; the machines that can: {}",
            kind.title(),
            debuggable()
        ));
    };
    if let Some(msg) = super::applies::misplaced_debug_option(&args, kind) {
        return usage_error(format!("{msg} ({file})"));
    }
    // The key script is read once, here, and handed to the machine's builder.
    let keys = match args
        .keys
        .as_deref()
        .map(|k| load_keys(k, crate::files::TEXT))
        .transpose()
    {
        Ok(k) => k.unwrap_or_default(),
        Err(e) => return usage_error(e),
    };
    let code = match debugs.build(&args.file, &args, keys) {
        Ok(mut machine) => drive(machine.as_mut(), &args),
        Err(code) => code,
    };
    super::hint_other_machine(code, named.is_none(), kind, &args.file)
}

/// Runs the script, or the terminal UI, on any machine that can be debugged.
fn drive(machine: &mut dyn Machine, args: &DebugArgs) -> ExitCode {
    let Some(d) = machine.as_debuggable() else {
        return usage_error(format!("{}: this machine has no debugger", args.file.display()));
    };
    for b in &args.breaks {
        if let Err(e) = d.break_at(b, None, false) {
            return usage_error(format!("--break {b}: {e}"));
        }
    }
    let mut console = Console::new();
    match &args.script {
        Some(script) => {
            let text = match read_script(script) {
                Ok(t) => t,
                Err(e) => return usage_error(e),
            };
            let (out, failed) = console.run_script(d, &text);
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush());
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        None => match crate::tui::debugger::run(machine, &mut console) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("terminal: {e}")),
        },
    }
}
