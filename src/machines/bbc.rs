//! BBC BASIC V (RISC OS): `.bbc` files, tokenized or text, and `.bas` files whose bytes are BBC
//! BASIC. Runs them, debugs them (docs/debugging-basic.md), tokenizes and lists them
//! (docs/bbc-tokens.md), and starts the `>` prompt (`retro bbc`).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use retro_bbc::debug::{BbcDebugger, DebugOptions};
use retro_bbc::machine::{BbcMachine, InlineSetup, InputSource};
use retro_bbc::{Mode, Program, ReadError, inspect, read_program, render_diagnostics};
use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;

use super::bas::{bas_hint, bas_is_cbm, has_extension};
use super::kind::{Basic, Debugs, MachineKind, Prompt, Prompts};
use super::options::{DebugArgs, FormatArg, ListArgs, RunArgs, TokArgs};
use crate::files::{BASIC_PROGRAM, is_broken_pipe, read_limited, write_output};
use crate::session::{Session, SessionArgs, drive, usage_error};

/// The BBC BASIC row of the machine table.
pub struct Bbc;

impl MachineKind for Bbc {
    fn name(&self) -> &'static str {
        "bbc"
    }
    fn title(&self) -> &'static str {
        "BBC BASIC"
    }
    fn about(&self) -> &'static str {
        "BBC BASIC V (RISC OS): .bbc files, tokenized or text, and .bas files that are BBC BASIC"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["bbc", "bas"]
    }
    /// A `.bas` file is BBC BASIC only when its bytes say so (docs/cli.md, "Choosing the machine").
    fn claims(&self, path: &Path) -> bool {
        !has_extension(path, "bas") || !bas_is_cbm(path)
    }
    /// A tokenized program (RISC OS's or BBC BASIC for Windows'), which no other machine's file is.
    fn recognises(&self, bytes: &[u8]) -> bool {
        retro_bbc::detect(bytes) != retro_bbc::Format::Text && read_program(bytes, Mode::Strict).is_ok()
    }
    fn run_options(&self) -> &'static [&'static str] {
        &["--seed", "--dir", "--map", "--strict"]
    }
    fn key_help(&self) -> Vec<(&'static str, &'static str)> {
        vec![("Escape", "interrupt the program (Escape error)")]
    }
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode {
        run_bbc(file, args, session)
    }
    fn prompt(&self) -> Option<&dyn Prompts> {
        Some(self)
    }
    fn debugger(&self) -> Option<&dyn Debugs> {
        Some(self)
    }
    fn basic(&self) -> Option<&dyn Basic> {
        Some(self)
    }
}

/// Reads a BBC BASIC program, tokenized or text; errors are reported, the `Err` is the status.
fn load(path: &Path) -> Result<Program, ExitCode> {
    let bytes = read_limited(path, BASIC_PROGRAM).map_err(usage_error)?;
    match read_program(&bytes, Mode::Strict) {
        Ok(p) => Ok(p),
        Err(ReadError::Text { text, diagnostics }) => {
            let name = path.display().to_string();
            eprint!(
                "{}",
                render_diagnostics(&name, &text, &diagnostics, std::io::stderr().is_terminal())
            );
            let hint = bas_hint(path, "BBC BASIC");
            if !hint.is_empty() {
                eprintln!("retro:{hint}");
            }
            Err(ExitCode::from(2))
        }
        Err(ReadError::Bad(e)) => Err(usage_error(format!("{}: {e}", path.display()))),
    }
}

fn run_bbc(path: &Path, args: &RunArgs, session: &Session) -> ExitCode {
    let program = match load(path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // Headless runs read INPUT and GET from stdin, like a console BASIC; the terminal types them.
    let input = if session.headless {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    };
    // Files the program opens are found in its own directory (or --dir) and below it.
    let files = crate::files::program_root(path, args.program.dir.as_deref());
    let map = match super::keymap::load(path, &args.map) {
        Ok(m) => m,
        Err(e) => return usage_error(e),
    };
    if session.headless && !crate::session::wants_final(&session.args) {
        // No screen to show and no one to hand frames to: the run needs no thread of its own.
        let setup = InlineSetup {
            seed: args.program.seed,
            input,
            dir: files,
            strict: args.strict,
            key_map: map.iter().map(|m| (m.key, m.to)).collect(),
        };
        return crate::session::drive_headless(session, |options| {
            let out = Box::new(std::io::stdout());
            BbcMachine::run_headless_inline(&program.to_bytes(), setup, options, out)
                .map_err(|e| usage_error(format!("{}: {e}", path.display())))
        });
    }
    let mut machine =
        match BbcMachine::with_files(&program.to_bytes(), args.program.seed, input, files, args.strict) {
            Ok(m) => m,
            Err(e) => return usage_error(format!("{}: {e}", path.display())),
        };
    // A program's own keys (its keymap file, `--map`) and what they do, for the help.
    let mut help: Vec<(String, String)> = Vec::new();
    for m in &map {
        machine.map_key(m.key, m.to);
        if !m.help.is_empty() {
            help.push((format!("{:?}", m.key), m.help.clone()));
        }
    }
    let mut lines = Bbc.key_help();
    // The help holds `&'static str`: a run's few map lines live as long as the process anyway.
    lines.extend(help.into_iter().map(|(k, h)| (leak(k), leak(h))));
    drive(&mut machine, session, lines)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `retro bbc`: BBC BASIC's `>` prompt.
#[derive(clap::Args, Debug)]
pub struct PromptArgs {
    /// Seed for RND, so runs repeat exactly.
    #[arg(long)]
    pub seed: Option<i64>,
    /// The format SAVE writes: riscos (RISC OS, the default), bbcwin (BBC BASIC for Windows, for
    /// SDL 2.0 and (Z80)) or text (a listing). LOAD and CHAIN read all three.
    #[arg(long, value_enum, default_value_t = FormatArg::Riscos)]
    pub format: FormatArg,
    #[command(flatten)]
    pub session: SessionArgs,
}

/// `retro bbc`: the table's BBC BASIC at its prompt.
pub fn prompt(args: &PromptArgs) -> ExitCode {
    let session = match Session::new(&args.session) {
        Ok(s) => s,
        Err(code) => return code,
    };
    prompt_at(args.seed, args.format, &session)
}

/// The `>` prompt: in the terminal (inside the MODE's screen, with line editing and history),
/// or headless when asked or when stdout is not a terminal.
fn prompt_at(seed: Option<i64>, format: FormatArg, session: &Session) -> ExitCode {
    if session.headless {
        return prompt_headless(seed, save_format(format));
    }
    let files = std::env::current_dir().ok();
    let format = save_format(format);
    let mut machine = match BbcMachine::prompt_saving_as(seed, InputSource::Keys, files, format) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("cannot start BBC BASIC: {e}")),
    };
    let help = vec![
        ("Escape", "stop the running program, back to the > prompt"),
        ("Up/Down", "recall earlier lines"),
        ("QUIT", "(typed) leave BBC BASIC"),
    ];
    drive(&mut machine, session, help)
}

/// The format SAVE (and `retro tok --format`) writes.
fn save_format(format: FormatArg) -> retro_bbc::SaveFormat {
    match format {
        FormatArg::Riscos => retro_bbc::SaveFormat::RiscOs,
        FormatArg::Bbcwin => retro_bbc::SaveFormat::BbcWin,
        FormatArg::Text => retro_bbc::SaveFormat::Text,
    }
}

/// The `>` prompt, headless: every line of stdin is typed at it (or read by INPUT), and what the
/// screen shows goes to stdout. Files are found in the current directory. The exit status is
/// QUIT's value, or 0 when the input ends.
fn prompt_headless(seed: Option<i64>, format: retro_bbc::SaveFormat) -> ExitCode {
    use retro_bbc::interp::Interp;
    use retro_bbc::interp::host::ScriptHost;
    use retro_bbc::interp::prompt::{Prompt, PromptEnd};
    use std::io::Read;

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

impl Prompts for Bbc {
    fn start(&self, prompt: &Prompt, session: &Session) -> ExitCode {
        prompt_at(prompt.seed, prompt.format, session)
    }
}

impl Debugs for Bbc {
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode> {
        let bytes = read_limited(file, BASIC_PROGRAM).map_err(usage_error)?;
        let program = match read_program(&bytes, Mode::Strict) {
            Ok(p) => p,
            Err(ReadError::Text { diagnostics, .. }) => {
                let first = diagnostics.first().map(|d| format!("{d:?}")).unwrap_or_default();
                return Err(usage_error(format!(
                    "{}: the listing does not tokenize: {first}",
                    file.display()
                )));
            }
            Err(ReadError::Bad(e)) => return Err(usage_error(format!("{}: {e}", file.display()))),
        };
        let options = DebugOptions {
            seed: args.program.seed,
            dir: crate::files::program_root(file, args.program.dir.as_deref()),
            keys: keys.events,
        };
        match BbcDebugger::new(&program.to_bytes(), options) {
            Ok(d) => Ok(Box::new(d)),
            Err(e) => Err(usage_error(format!("{}: {e}", file.display()))),
        }
    }
}

fn mode(crunch: bool) -> Mode {
    if crunch { Mode::Crunch } else { Mode::Strict }
}

/// Reads and tokenizes (if needed) a program for `tok` and `list`, reporting failures: status 2
/// for a file that is not a program, 1 for a listing with mistakes.
fn load_listing(file: &Path, crunch: bool) -> Result<Program, ExitCode> {
    let bytes = read_limited(file, BASIC_PROGRAM).map_err(usage_error)?;
    match read_program(&bytes, mode(crunch)) {
        Ok(p) => Ok(p),
        Err(ReadError::Bad(e)) => {
            let name = file.display().to_string();
            let colour = std::io::stderr().is_terminal();
            eprint!("{}", retro_bbc::render_bad_program(&name, &bytes, &e, colour));
            Err(ExitCode::from(2))
        }
        Err(ReadError::Text { text, diagnostics }) => {
            let name = file.display().to_string();
            let colour = std::io::stderr().is_terminal();
            eprint!("{}", render_diagnostics(&name, &text, &diagnostics, colour));
            Err(ExitCode::from(1))
        }
    }
}

/// `retro tok` and `retro list` for BBC BASIC: the tokenizer, LIST and the token inspector
/// (docs/bbc-tokens.md).
impl Basic for Bbc {
    fn takes_any_name(&self) -> bool {
        true
    }

    fn tok(&self, args: &TokArgs) -> ExitCode {
        let program = match load_listing(&args.file, args.crunch) {
            Ok(p) => p,
            Err(code) => return code,
        };
        let bytes = match save_format(args.format).encode(&program) {
            Ok(b) => b,
            Err(e) => {
                eprintln!(
                    "retro: {}",
                    retro_diag::escape(&format!("{}: {e}", args.file.display()))
                );
                return ExitCode::from(1);
            }
        };
        match write_output(&args.output, &bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("cannot write {}: {e}", args.output.display())),
        }
    }

    fn list(&self, args: &ListArgs) -> ExitCode {
        let program = match load_listing(&args.file, args.crunch) {
            Ok(p) => p,
            Err(code) => return code,
        };
        let mut stdout = std::io::stdout().lock();
        let text = if args.tokens {
            // A BBC BASIC for Windows file is shown as it is in the file, with that format's tokens.
            let windows = read_limited(&args.file, BASIC_PROGRAM)
                .ok()
                .filter(|b| retro_bbc::detect(b) == retro_bbc::Format::BbcWin)
                .and_then(|b| retro_bbc::bbcwin::render_tokens(&b).ok());
            windows.unwrap_or_else(|| {
                inspect::render(&inspect::inspect(&program), std::io::stdout().is_terminal())
            })
        } else if std::io::stdout().is_terminal() {
            // Control bytes in strings and REMs (an ESC, teletext codes read as C1 controls) are
            // shown escaped (`\x1b`) on a terminal, never sent to it; into a file or a pipe the
            // listing stays exact, so `retro tok` reads it back.
            retro_diag::escape::escape_keeping_newlines(&retro_bbc::list(&program)).into_owned()
        } else {
            retro_bbc::list(&program)
        };
        match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            // A closed pipe (`retro list x | head`) is not an error worth a message.
            Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("writing output: {e}")),
        }
    }
}
