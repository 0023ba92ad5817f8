//! `retro run` for the Z80 workbench machine: assembles a source file (diagnostics as `retro asm`
//! gives them) or loads a binary at `--org`, then drives the machine like any other.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_z80_machine::{FrameRate, Program, Workbench};

use super::session::{SessionArgs, drive, usage_error};

/// Reads `path` as a workbench program: `.bin` is raw bytes loaded at `org` (default 8000h),
/// anything else is assembly source. Errors are already reported; the `Err` is the exit status.
/// Warnings come once each, repeats counted, and the codes in `no_warn` not at all.
pub fn load_program(
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
pub fn machine_for(program: &Program) -> Workbench {
    let rate = match program.symbols.get("WORKBENCH_HZ") {
        Some(60) => FrameRate::Hz60,
        _ => FrameRate::Hz50,
    };
    let mut m = Workbench::new(rate);
    program.load_into(&mut m);
    m
}

/// `--printer SEQ`: the sequence's bytes (`Sequence::to_bytes`) at the Tetris program's
/// `printer_seq`, and `printer_go` set so it prints them from power-on (docs/tetris.md).
pub fn load_printer_sequence(m: &mut Workbench, program: &Program, path: &Path) -> Result<(), String> {
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

/// The Z80-only options of `retro run`: an input movie, the state trace, pokes.
pub struct MovieArgs<'a> {
    pub movie: Option<&'a Path>,
    pub trace_state: bool,
    pub frame_stats: bool,
    pub pokes: &'a [String],
    pub printer: Option<&'a Path>,
    pub record: Option<&'a Path>,
    /// `--no-warn`: assembler warning codes to leave out.
    pub no_warn: &'a [String],
    /// `--ai`: the Tetris AI plays (src/cmd/z80_ai.rs).
    pub ai: Option<super::z80_ai::AiArgs>,
}

pub fn run_z80(
    path: &Path,
    org: Option<u16>,
    entry: Option<&str>,
    session: &SessionArgs,
    movie: &MovieArgs<'_>,
) -> ExitCode {
    let program = match load_program(path, org, entry, movie.no_warn) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut machine = machine_for(&program);
    if session.headless || !std::io::stdout().is_terminal() {
        machine.headless_saves();
    }
    if let Err(e) = super::z80_movie::apply_pokes(&mut machine, &program, movie.pokes) {
        return usage_error(e);
    }
    if let Some(seq) = movie.printer
        && let Err(e) = load_printer_sequence(&mut machine, &program, seq)
    {
        return usage_error(e);
    }
    if let Some(ai) = &movie.ai {
        return super::z80_ai::run_ai(&mut machine, &program, session, ai, movie.record);
    }
    if let Some(file) = movie.movie {
        let m = match super::z80_movie::load_movie(file) {
            Ok(m) => m,
            Err(e) => return usage_error(e),
        };
        // Headless (or traced) it replays as fast as it can and ends with the movie; in the
        // terminal the movie plays at the machine's speed, to watch.
        let watch =
            !session.headless && std::io::stdout().is_terminal() && !movie.trace_state && !movie.frame_stats;
        if !watch {
            let code =
                super::z80_movie::replay(&mut machine, &program, &m, movie.trace_state, movie.frame_stats);
            // The screen the movie ends on, as --dump-screen asks (the pixels for --screenshot).
            let mut cells = session.clone();
            cells.screenshot = None;
            if let Err(e) = super::session::show_final_detected(&machine.cell_frame(), &cells) {
                return usage_error(e);
            }
            if let Some(path) = &session.screenshot
                && let Err(e) = super::session::screenshot(&machine.pixel_frame(), path)
            {
                return usage_error(e);
            }
            return code;
        }
        machine.set_pad_tape(super::z80_movie::pad_tape(&m));
    }
    let help = vec![
        ("letters, digits, Enter, Space", "the Spectrum keys"),
        ("arrows", "cursor keys (CAPS SHIFT 5-8) and the controller's pad"),
        ("Tab", "SYMBOL SHIFT"),
    ];
    // The screenshot is the pixel view (bitmap and attributes); the session's own screenshot
    // would be the attribute cells.
    let mut plain = session.clone();
    let shot = plain.screenshot.take();
    let code = match movie.record {
        Some(path) => {
            let mut rec = super::z80_movie::Recorder {
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
        && let Err(e) = super::session::screenshot(&machine.pixel_frame(), &path)
    {
        return usage_error(e);
    }
    match machine.exit_status() {
        Some(status) if code == ExitCode::SUCCESS => ExitCode::from(status),
        _ => code,
    }
}
