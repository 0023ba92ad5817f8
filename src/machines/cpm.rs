//! CP/M 2.2 on a Z80: `.com` files, with drive A: on a host directory (`--dir`, else the
//! program's own directory) and the command line's arguments as its command tail. It runs in the
//! terminal like every machine (keys typed on the console, the console's screen drawn), or
//! headless with stdin as the console's input and its output on stdout.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;
use retro_z80_cpm::screen::CpmRun;
use retro_z80_cpm::{CommandLine, Console, CpmMachine, Disk, InputStream, debug};

use super::kind::{Debugs, MachineKind};
use super::options::{DebugArgs, RunArgs};
use crate::session::{Session, drive, usage_error};

/// The CP/M row of the machine table: runs `.com` files, and debugs them under the Z80 debugger
/// (its symbols from `prog.sym` or `prog.asm` beside the program, docs/debugger.md).
pub struct Cpm;

impl MachineKind for Cpm {
    fn name(&self) -> &'static str {
        "cpm"
    }
    fn title(&self) -> &'static str {
        "CP/M"
    }
    fn about(&self) -> &'static str {
        "CP/M 2.2 on a Z80: .com files, with drive A: on a host directory"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["com"]
    }
    fn run_options(&self) -> &'static [&'static str] {
        &["--dir", "ARGS"]
    }
    fn key_help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("Escape", "sends ESC (BBC BASIC: Escape)"),
            ("Arrows", "^E ^X ^S ^D (WordStar keys)"),
        ]
    }
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode {
        run_cpm(file, &args.args, args.program.dir.as_deref(), session)
    }
    fn debugger(&self) -> Option<&dyn Debugs> {
        Some(self)
    }
}

impl Debugs for Cpm {
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode> {
        let (machine, _) = load(file, &[], args.program.dir.as_deref())?;
        let (program, note) = debug::program_beside(file, &machine).map_err(usage_error)?;
        if let Some(note) = note {
            eprintln!("retro: {note}");
        }
        let mut dbg = debug::debugger(machine, program);
        if args.keys.is_some() {
            dbg.set_keys(keys);
        }
        Ok(Box::new(dbg))
    }
}

/// Runs a .COM file: exit status 0 when it warm-boots (or waits for input that can no longer
/// come), 1 when the run fails (the CPU halts for good), 2 when the file cannot be read or does
/// not fit, or the drive directory is not a directory.
fn run_cpm(path: &Path, args: &[String], dir: Option<&Path>, session: &Session) -> ExitCode {
    let (mut machine, drive_dir) = match load(path, args, dir) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    if session.headless {
        // Headless runs read the console from stdin, like a console program.
        // Read on a thread of its own: a quiet pipe must not stop the machine or its clock.
        machine.console = Console::new(InputStream::background(std::io::stdin()));
    }
    let mut run = CpmRun::new(machine);
    let status = drive(&mut run, session, Cpm.key_help());
    report_changes(&run.machine, &drive_dir);
    status
}

/// The machine with the .COM file loaded, drive A: on its directory and `args` as the command
/// tail, for a run or the debugger. `Err`: the file was refused, the exit status reported.
fn load(path: &Path, args: &[String], dir: Option<&Path>) -> Result<(CpmMachine, PathBuf), ExitCode> {
    let program = crate::files::read_limited(path, crate::files::CPM_PROGRAM).map_err(usage_error)?;
    let mut machine =
        CpmMachine::new(&program).map_err(|e| usage_error(format!("{}: {e}", path.display())))?;
    // Drive A: is `--dir`, else the program's own directory (never, by default, wherever the
    // command happens to be typed: a program that erases `*.*` must not empty the user's project).
    let drive_dir = match dir {
        Some(d) => d,
        None => match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        },
    };
    if !drive_dir.is_dir() {
        return Err(usage_error(format!(
            "--dir {}: not a directory",
            drive_dir.display()
        )));
    }
    machine.disk = Some(Disk::new(drive_dir));
    machine.set_command_line(&CommandLine::new(args));
    Ok((machine, drive_dir.to_path_buf()))
}

/// Lists on stderr the files the program deleted, renamed or emptied on drive A:, so nothing
/// disappears from the user's directory without a word.
fn report_changes(machine: &CpmMachine, drive_dir: &Path) {
    let Some(disk) = &machine.disk else { return };
    let changes = disk.changes();
    if changes.is_empty() {
        return;
    }
    eprintln!("files changed on drive A: ({}):", drive_dir.display());
    for change in changes {
        eprintln!("  {change}");
    }
}
