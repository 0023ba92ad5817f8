//! `retro debug FILE`: the debugger, as a batch run of a command script (`--script`) or in the
//! terminal. Both drive the machine's debugging capability (`Machine::as_debuggable`) through the
//! shared command language of docs/debugger.md.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use retro_machine::debug::Console;
use retro_machine::machine::Machine;
use retro_z80_machine::debug::Z80Debugger;

use super::session::usage_error;

#[derive(clap::Args, Debug)]
pub struct DebugArgs {
    /// The program: Z80 assembly source (.asm, .z80) or a binary (.bin, with --org); BBC BASIC
    /// (.bbc, tokenized or text); C64 BASIC (.bas text, .prg).
    pub file: PathBuf,
    /// Set a breakpoint before starting: an address, a label or file:line (repeatable).
    #[arg(long = "break", value_name = "WHERE")]
    pub breaks: Vec<String>,
    /// Run these debugger commands (a file, or the commands after a leading '=', separated by
    /// newlines or ';') and print a plain-text transcript, instead of the terminal UI.
    #[arg(long, value_name = "CMDS")]
    pub script: Option<String>,
    /// Scripted keys for the program (see docs/key-scripts.md).
    #[arg(long, value_name = "SCRIPT")]
    pub keys: Option<String>,
    /// Load address of a .bin file (default 8000h).
    #[arg(long, value_parser = super::asm::parse_addr)]
    pub org: Option<u16>,
    /// Start at this label instead of the first ORG.
    #[arg(long, value_name = "LABEL")]
    pub entry: Option<String>,
    /// Feed the controller from an FCEUX .fm2 movie, one input per frame (as `retro run --movie`).
    #[arg(long, value_name = "FILE.fm2")]
    pub movie: Option<PathBuf>,
    /// BASIC: seed RND as RND(-N) would (as for `retro run`).
    #[arg(long)]
    pub seed: Option<i64>,
    /// The machine (default: from the file's extension and contents, as for `retro run`).
    #[arg(long, value_enum)]
    pub machine: Option<super::run::MachineKind>,
    /// C64: the letter convention of a .bas listing (as for `retro run`).
    #[arg(long, value_enum)]
    pub charset: Option<super::cbm::CharsetArg>,
    /// BASIC: the directory the program's files live in (BBC files, C64 device 8); default: the
    /// program file's own directory, as for `retro run`.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub(super) fn read_arg(arg: &str, what: &str) -> Result<String, String> {
    match arg.strip_prefix('=') {
        Some(inline) => Ok(inline.replace(';', "\n")),
        None => {
            let bytes = crate::files::read_limited(Path::new(arg), crate::files::TEXT)
                .map_err(|e| format!("{what}: {e}"))?;
            String::from_utf8(bytes).map_err(|_| format!("cannot read {what} {arg}: it is not text (UTF-8)"))
        }
    }
}

pub fn debug(args: DebugArgs) -> ExitCode {
    // A device or a FIFO is named as what it is (the debugger reads its program whole).
    if let Err(e) = crate::files::check_regular(&args.file) {
        return usage_error(e);
    }
    match args.machine.or_else(|| super::run::machine_for(&args.file)) {
        Some(super::run::MachineKind::Bbc) => return super::bbcdebug::debug_bbc(&args),
        Some(super::run::MachineKind::Cbm) => return super::cbmdebug::debug_cbm(&args),
        Some(super::run::MachineKind::Cpm) => return super::cpm_debug::debug_cpm(&args),
        _ => {}
    }
    let program = match super::z80::load_program(&args.file, args.org, args.entry.as_deref(), &[]) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut dbg = Z80Debugger::new(program);
    if let Some(file) = &args.movie {
        match super::z80_movie::load_movie(file) {
            Ok(m) => dbg.set_pad_tape(super::z80_movie::pad_tape(&m)),
            Err(e) => return usage_error(e),
        }
    }
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
    let machine: &mut dyn Machine = &mut dbg;
    drive(machine, &args)
}

/// Runs the script, or the terminal UI, on any machine that can be debugged.
pub(super) fn drive(machine: &mut dyn Machine, args: &DebugArgs) -> ExitCode {
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
            let text = match read_arg(script, "script") {
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
