//! `retro run FILE.com`: a CP/M 2.2 program, with drive A: on a host directory (`--dir`, else the
//! program's own directory) and the command line's arguments as its command tail. It runs in the terminal like every machine (keys typed on
//! the console, the console's screen drawn), or headless with stdin as the console's input and its
//! output on stdout.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_z80_cpm::screen::CpmRun;
use retro_z80_cpm::{CommandLine, Console, CpmError, CpmMachine, Disk, InputStream};

use super::session::{SessionArgs, drive, usage_error};

/// Virtual time a headless CP/M run may take without `--time`: a day of the 4 MHz Z80, since
/// console programs such as the ZEXALL exerciser run for hours of it.
const HEADLESS_DEFAULT_SECONDS: f64 = 86_400.0;

/// Runs a .COM file: exit status 0 when it warm-boots (or waits for input that can no longer
/// come), 1 when the run fails (the CPU halts for good), 2 when the file cannot be read or does
/// not fit, or the drive directory is not a directory.
pub fn run_cpm(path: &Path, args: &[String], dir: Option<&Path>, session: &SessionArgs) -> ExitCode {
    let program = match crate::files::read_limited(path, crate::files::CPM_PROGRAM) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    let mut machine = match CpmMachine::new(&program) {
        Ok(m) => m,
        Err(e @ CpmError::ProgramTooLarge { .. }) => return usage_error(format!("{}: {e}", path.display())),
        Err(e) => return usage_error(format!("{}: {e}", path.display())),
    };
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
        return usage_error(format!("--dir {}: not a directory", drive_dir.display()));
    }
    machine.disk = Some(Disk::new(drive_dir));
    machine.set_command_line(&CommandLine::new(args));
    let headless = session.headless || !std::io::stdout().is_terminal();
    let mut session = session.clone();
    if headless {
        // Headless runs read the console from stdin, like a console program.
        // Read on a thread of its own: a quiet pipe must not stop the machine or its clock.
        machine.console = Console::new(InputStream::background(std::io::stdin()));
        session.time = session.time.or(Some(HEADLESS_DEFAULT_SECONDS));
    }
    let mut run = CpmRun::new(machine);
    let help = vec![
        ("Escape", "sends ESC (BBC BASIC: Escape)"),
        ("Arrows", "^E ^X ^S ^D (WordStar keys)"),
    ];
    let status = drive(&mut run, &session, help);
    report_changes(&run.machine, drive_dir);
    status
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
