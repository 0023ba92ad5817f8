//! The Z80 workbench machine (docs/z80-machine.md): `.asm` and `.z80` sources, assembled (with
//! diagnostics as `retro asm` gives them), and `.bin` binaries loaded at `--org`. Runs them, with
//! the controller fed from a movie (`movie`), the program's state traced (`trace`), the Tetris AI
//! at the controller (`ai`), and debugs them with the Z80 debugger (docs/debugger.md).

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;
use retro_z80_machine::debug::Z80Debugger;
use retro_z80_machine::{FrameRate, Program, Workbench};

use super::kind::{Debugs, MachineKind};
use super::options::{DebugArgs, RunArgs};
use crate::session::{Session, drive, usage_error};

mod ai;
mod movie;
mod trace;

/// The Z80 workbench row of the machine table.
pub struct Z80;

impl MachineKind for Z80 {
    fn name(&self) -> &'static str {
        "z80"
    }
    fn title(&self) -> &'static str {
        "the Z80 workbench machine"
    }
    fn about(&self) -> &'static str {
        "the Z80 workbench machine: .asm and .z80 sources, .bin binaries loaded at --org (default 8000h)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["asm", "z80", "bin"]
    }
    fn run_options(&self) -> &'static [&'static str] {
        &[
            "--ai",
            "--org",
            "--entry",
            "--movie",
            "--trace-state",
            "--frame-stats",
            "--record",
            "--printer",
            "--poke",
            "--no-warn",
        ]
    }
    fn key_help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("letters, digits, Enter, Space", "the Spectrum keys"),
            ("arrows", "cursor keys (CAPS SHIFT 5-8) and the controller's pad"),
            ("Tab", "SYMBOL SHIFT"),
        ]
    }
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode {
        run_z80(file, args, session)
    }
    fn debugger(&self) -> Option<&dyn Debugs> {
        Some(self)
    }
}

/// The Z80 debugger on the workbench machine, the controller fed from `--movie` when given.
impl Debugs for Z80 {
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode> {
        let program = load_program(file, args.program.org, args.program.entry.as_deref(), &[])?;
        let mut dbg = Z80Debugger::new(program);
        if let Some(file) = &args.movie {
            let m = movie::load_movie(file).map_err(usage_error)?;
            dbg.set_pad_tape(movie::pad_tape(&m));
        }
        if args.ai.play {
            ai::debug_ai(&mut dbg, &args.ai, args.program.seed)?;
        }
        if args.keys.is_some() {
            dbg.set_keys(keys);
        }
        Ok(Box::new(dbg))
    }
}

/// Reads `path` as a workbench program: `.bin` is raw bytes loaded at `org` (default 8000h),
/// anything else is assembly source. Errors are already reported; the `Err` is the exit status.
/// Warnings come once each, repeats counted, and the codes in `no_warn` not at all.
fn load_program(
    path: &Path,
    org: Option<u16>,
    entry: Option<&str>,
    no_warn: &[String],
) -> Result<Program, ExitCode> {
    let is_bin = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"));
    let mut program = if is_bin {
        let bytes = crate::files::read_limited(path, crate::files::Z80_BINARY).map_err(usage_error)?;
        Program::from_binary(bytes, org.unwrap_or(0x8000))
    } else {
        let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        match retro_z80_asm::assemble_file(path) {
            Ok(asm) => {
                eprint!("{}", asm.render_warnings_once(color, no_warn));
                Program::from_assembly(&asm)
            }
            Err(failure) => {
                eprint!("{}", failure.render(color));
                let n = failure.diagnostics.len();
                eprintln!(
                    "retro: {n} error{} in {}; not run",
                    if n == 1 { "" } else { "s" },
                    path.display()
                );
                return Err(ExitCode::from(2));
            }
        }
    };
    if let Some(label) = entry {
        program.set_entry_label(label).map_err(usage_error)?;
    }
    Ok(program)
}

/// The machine for a program: 60 Hz when the source defines `WORKBENCH_HZ EQU 60`, else 50 Hz.
fn machine_for(program: &Program) -> Workbench {
    let rate = match program.symbols.get("WORKBENCH_HZ") {
        Some(60) => FrameRate::Hz60,
        _ => FrameRate::Hz50,
    };
    let mut m = Workbench::new(rate);
    program.load_into(&mut m);
    m
}

/// `--printer SEQ`: the sequence's bytes (`Sequence::to_bytes`) at the program's `printer_seq`
/// (room for `PRINTER_SEQ_MAX` bytes), and `printer_go` set so it prints them from power-on
/// (docs/tetris.md). A program offers a printer mode by defining those three symbols.
fn load_printer_sequence(m: &mut Workbench, program: &Program, path: &Path) -> Result<(), String> {
    let label = |name: &str| {
        program.symbols.get(name).ok_or_else(|| {
            format!(
                "--printer: the program has no `{name}` (only programs/tetris/tetris.asm has a printer mode)"
            )
        })
    };
    let (at, go, room) = (
        label("printer_seq")?,
        label("printer_go")?,
        label("PRINTER_SEQ_MAX")?,
    );
    let raw = crate::files::read_limited(path, crate::files::TEXT).map_err(|e| e.to_string())?;
    let bytes = if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bin")) {
        raw
    } else {
        let text =
            String::from_utf8(raw).map_err(|_| format!("{}: not a retro tpa sequence", path.display()))?;
        retro_tpa::sequence::Sequence::parse(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .to_bytes()
    };
    if bytes.len() > usize::from(room) {
        return Err(format!(
            "{}: {} bytes of sequence; the printer has room for {room}",
            path.display(),
            bytes.len()
        ));
    }
    for (i, b) in bytes.iter().enumerate() {
        m.poke(at.wrapping_add(i as u16), *b);
    }
    m.poke(go, 1);
    Ok(())
}

fn run_z80(path: &Path, args: &RunArgs, session: &Session) -> ExitCode {
    let program = match load_program(
        path,
        args.program.org,
        args.program.entry.as_deref(),
        &args.no_warn,
    ) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut machine = machine_for(&program);
    // The session is headless when asked or when stdout is not a terminal: a test or a pipe
    // never reads or writes the player's high scores.
    if session.headless {
        machine.headless_saves();
    }
    if let Err(e) = movie::apply_pokes(&mut machine, &program, &args.poke) {
        return usage_error(e);
    }
    if let Some(seq) = &args.printer
        && let Err(e) = load_printer_sequence(&mut machine, &program, seq)
    {
        return usage_error(e);
    }
    if args.ai.play {
        return ai::run_ai(
            &mut machine,
            &program,
            session,
            &args.ai,
            args.program.seed,
            args.record.as_deref(),
        );
    }
    if let Some(file) = &args.movie {
        let m = match movie::load_movie(file) {
            Ok(m) => m,
            Err(e) => return usage_error(e),
        };
        // Headless (or traced) it replays as fast as it can and ends with the movie; in the
        // terminal the movie plays at the machine's speed, to watch.
        let watch = !session.headless && !args.trace_state && !args.frame_stats;
        if !watch {
            let trace = if args.trace_state {
                match trace::Trace::beside(path, &program) {
                    Ok(t) => Some(t),
                    Err(e) => return usage_error(e),
                }
            } else {
                None
            };
            let code = movie::replay(&mut machine, &m, trace.as_ref(), args.frame_stats);
            // The screen the movie ends on, as --dump-screen asks (the pixels for --screenshot).
            let mut cells = session.args.clone();
            cells.screenshot = None;
            if let Err(e) = crate::session::show_final_detected(&machine.cell_frame(), &cells) {
                return usage_error(e);
            }
            if let Some(path) = &session.args.screenshot
                && let Err(e) = crate::session::screenshot(&machine.pixel_frame(), path)
            {
                return usage_error(e);
            }
            return code;
        }
        machine.set_pad_tape(movie::pad_tape(&m));
    }
    let help = Z80.key_help();
    // The screenshot is the pixel view (bitmap and attributes); the session's own screenshot
    // would be the attribute cells.
    let mut plain = session.clone();
    let shot = plain.args.screenshot.take();
    let code = match &args.record {
        Some(path) => {
            let mut rec = movie::Recorder {
                machine: &mut machine,
                pads: vec![],
                keys_are_buttons: program.symbols.get("PAD_KEYS").is_some(),
            };
            let code = drive(&mut rec, &plain, help);
            if let Err(e) = crate::files::write_output(path, rec.fm2().as_bytes()) {
                return usage_error(format!("cannot write {}: {e}", path.display()));
            }
            code
        }
        None => drive(&mut machine, &plain, help),
    };
    if let Some(path) = shot
        && let Err(e) = crate::session::screenshot(&machine.pixel_frame(), &path)
    {
        return usage_error(e);
    }
    match machine.exit_status() {
        Some(status) if code == ExitCode::SUCCESS => ExitCode::from(status),
        _ => code,
    }
}
