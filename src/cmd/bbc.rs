//! `retro run` for BBC BASIC programs: loads a text listing or a tokenized file and drives the
//! BBC machine headless or in the terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use retro_bbc::machine::{BbcMachine, InputSource};
use retro_bbc::{Mode, ReadError, read_program, render_diagnostics};
use retro_machine::Key;

use super::session::{SessionArgs, drive, usage_error};
use crate::files::{BASIC_PROGRAM, read_limited};

pub fn run_bbc(path: &Path, dir: Option<&Path>, seed: Option<i64>, session: &SessionArgs) -> ExitCode {
    let bytes = match read_limited(path, BASIC_PROGRAM) {
        Ok(b) => b,
        Err(e) => return usage_error(e),
    };
    let program = match read_program(&bytes, Mode::Strict) {
        Ok(p) => p,
        Err(ReadError::Text { text, diagnostics }) => {
            let name = path.display().to_string();
            eprint!(
                "{}",
                render_diagnostics(&name, &text, &diagnostics, std::io::stderr().is_terminal())
            );
            let hint = super::cbm::bas_hint(path, "BBC BASIC");
            if !hint.is_empty() {
                eprintln!("retro:{hint}");
            }
            return ExitCode::from(2);
        }
        Err(ReadError::Bad(e)) => return usage_error(format!("{}: {e}", path.display())),
    };
    let headless = session.headless || !std::io::stdout().is_terminal();
    // Headless runs read INPUT and GET from stdin, like a console BASIC; the terminal types them.
    let input = if headless {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    };
    // Files the program opens are found in its own directory (or --dir) and below it.
    let files = crate::files::program_root(path, dir);
    let mut machine = match BbcMachine::with_files(&program.to_bytes(), seed, input, files) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: {e}", path.display())),
    };
    let mut help = vec![("Escape", "interrupt the program (Escape error)")];
    if is_rheolism(path) {
        // Rheolism reads the digits 7 (left), 9 (right) and 8 (rotate); the arrow keys type them
        // (docs/rheolism.md).
        machine.map_key(Key::Left, '7');
        machine.map_key(Key::Right, '9');
        machine.map_key(Key::Up, '8');
        help.push(("Left/Right or 7/9", "move the piece"));
        help.push(("Up or 8", "rotate the piece"));
    }
    drive(&mut machine, session, help)
}

/// Whether `path` is Rheolism, whose arrow keys are mapped: by its file name, `rheolism.bbc`
/// (any case), so a copy of the program keeps the mapping and other programs keep the cursor keys.
fn is_rheolism(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.eq_ignore_ascii_case("rheolism"))
}

/// `retro bbc`: BBC BASIC's `>` prompt.
#[derive(clap::Args, Debug)]
pub struct PromptArgs {
    /// Seed for RND, so runs repeat exactly.
    #[arg(long)]
    pub seed: Option<i64>,
    /// The format SAVE writes: riscos (RISC OS, the default), bbcwin (BBC BASIC for Windows, for
    /// SDL 2.0 and (Z80)) or text (a listing). LOAD and CHAIN read all three.
    #[arg(long, value_enum, default_value_t = super::tok::FormatArg::Riscos)]
    pub format: super::tok::FormatArg,
    #[command(flatten)]
    pub session: SessionArgs,
}

/// The `>` prompt: in the terminal (inside the MODE's screen, with line editing and history),
/// or headless when asked or when stdout is not a terminal.
pub fn prompt(args: &PromptArgs) -> ExitCode {
    if args.session.headless || !std::io::stdout().is_terminal() {
        return prompt_headless(args.seed, args.format.save_format());
    }
    let files = std::env::current_dir().ok();
    let format = args.format.save_format();
    let mut machine = match BbcMachine::prompt_saving_as(args.seed, InputSource::Keys, files, format) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("cannot start BBC BASIC: {e}")),
    };
    let help = vec![
        ("Escape", "stop the running program, back to the > prompt"),
        ("Up/Down", "recall earlier lines"),
        ("QUIT", "(typed) leave BBC BASIC"),
    ];
    drive(&mut machine, &args.session, help)
}

/// The `>` prompt, headless: every line of stdin is typed at it (or read by INPUT), and what the
/// screen shows goes to stdout. Files are found in the current directory. The exit status is
/// QUIT's value, or 0 when the input ends.
fn prompt_headless(seed: Option<i64>, format: retro_bbc::SaveFormat) -> ExitCode {
    use retro_bbc::interp::Interp;
    use retro_bbc::interp::host::ScriptHost;
    use retro_bbc::interp::prompt::{Prompt, PromptEnd};
    use std::io::{Read, Write};

    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        return usage_error(format!("cannot read stdin: {e}"));
    }
    let host = ScriptHost::new(&input);
    let Ok(mut it) = Interp::new(&[0x0D, 0xFF], Box::new(host)) else {
        return usage_error("cannot start BBC BASIC".to_string());
    };
    it.set_file_root(std::env::current_dir().ok());
    if let Some(s) = seed {
        it.seed(s);
    }
    let end = Prompt::default().saving_as(format).run(&mut it);
    let mut text = String::new();
    it.vdu.take_text(&mut text);
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    match end {
        PromptEnd::Quit(n) => ExitCode::from(n as u8),
        PromptEnd::InputEnded => ExitCode::SUCCESS,
    }
}
