//! What every machine run shares: headless or interactive, key scripts, time limits, screen
//! dumps and screenshots (docs/cli.md). The headless decision and the key script are made once,
//! in [`Session::new`], and handed to the machine's builder (ARCHITECTURE.md).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use retro_machine::VirtualTime;
use retro_machine::machine::{HeadlessOptions, Machine, RunState, run_headless};
use retro_machine::script::{self, KeyScript};
use retro_screen::colour::{self, ColourDepth};
use retro_screen::dump;

use crate::files::{KEY_SCRIPT, Limit, is_broken_pipe, read_limited, write_output};
use crate::tui::terminal::die_of;
use crate::tui::{Finished, InteractiveOptions, run_interactive};

/// How the final screen is printed after a run.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpFormat {
    /// One character per text cell.
    Text,
    /// One hex digit per text cell: its logical colour.
    Colours,
    /// The screen with ANSI colours.
    Ansi,
}

#[derive(clap::Args, Debug, Clone, Default)]
pub struct SessionArgs {
    /// Run without a terminal UI, as fast as possible; printed text goes to stdout.
    #[arg(long)]
    pub headless: bool,
    /// Scripted keys: a file, or the script itself after a leading '=' (see docs/key-scripts.md);
    /// in the terminal they are typed into the running program at their times.
    #[arg(long, value_name = "SCRIPT")]
    pub keys: Option<String>,
    /// Stop after this many seconds of virtual time, headless or in the terminal (headless
    /// default: a day, the most it takes, on every machine; in the terminal: no limit).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Print the final screen to stdout after the run.
    #[arg(long, value_name = "FORMAT")]
    pub dump_screen: Option<DumpFormat>,
    /// Write the final screen as a PNG picture.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Terminal colours: truecolour, 256 or 16 (default: from COLORTERM and TERM).
    #[arg(long, value_name = "DEPTH")]
    pub colour: Option<String>,
    /// Test-only: panic after this many frames (checks that the terminal is restored).
    #[arg(long, hide = true, value_name = "FRAMES")]
    pub panic_for_test: Option<u64>,
    /// Test-only: panic on another thread after this many frames.
    #[arg(long, hide = true, value_name = "FRAMES")]
    pub panic_thread_for_test: Option<u64>,
}

/// Complains the way every usage error does, and returns exit status 2. The message may quote
/// input (a file name, a script item), so control characters in it are shown escaped.
pub fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("retro: {}", retro_diag::escape(&msg.to_string()));
    ExitCode::from(2)
}

/// Virtual time a headless run may take without `--time`, on every machine: a day, the most
/// `--time` takes. A headless run ends by itself when its program ends, waits for a key the script
/// does not have or reads past the end of stdin; the limit only stops a program that computes for
/// ever, and console programs such as the ZEXALL exerciser compute for hours of virtual time.
pub const DEFAULT_HEADLESS_SECONDS: f64 = 86_400.0;

/// A run's session, decided once for every machine: headless or in the terminal, and the key
/// script. Machine builders read it; nothing else looks at stdout or `--keys` again.
#[derive(Debug, Clone)]
pub struct Session {
    pub args: SessionArgs,
    /// No terminal UI: asked for with `--headless`, or stdout is not a terminal (piped or
    /// redirected), so there is nothing to draw on.
    pub headless: bool,
    /// `--keys`, parsed (empty without it).
    pub script: KeyScript,
}

impl Session {
    /// The session the options ask for; a key script that cannot be read or parsed is a usage
    /// error (the `Err` is the exit status, already reported).
    pub fn new(args: &SessionArgs) -> Result<Session, ExitCode> {
        let script = match args.keys.as_deref() {
            Some(arg) => load_keys(arg, KEY_SCRIPT).map_err(usage_error)?,
            None => KeyScript::default(),
        };
        Ok(Session {
            args: args.clone(),
            headless: args.headless || !std::io::stdout().is_terminal(),
            script,
        })
    }
}

/// A key script (docs/key-scripts.md) from `--keys`: a file read up to `limit`, or the script
/// itself after a leading '='. The one loader for `run`, `debug` and the prompts.
pub fn load_keys(arg: &str, limit: Limit) -> Result<KeyScript, String> {
    let (text, origin) = match arg.strip_prefix('=') {
        Some(inline) => (inline.to_string(), "--keys".to_string()),
        None => {
            let bytes = read_limited(Path::new(arg), limit).map_err(|e| e.to_string())?;
            let text = String::from_utf8(bytes).map_err(|_| format!("key script {arg}: not UTF-8 text"))?;
            (text, arg.to_string())
        }
    };
    script::parse(&text).map_err(|e| format!("key script {origin}: {e}"))
}

fn depth(arg: Option<&str>) -> Result<ColourDepth, String> {
    match arg {
        Some(s) => s
            .parse()
            .map_err(|_| format!("unknown colour depth '{s}' (use truecolour, 256 or 16)")),
        None => Ok(colour::detect(
            std::env::var("COLORTERM").ok().as_deref(),
            std::env::var("TERM").ok().as_deref(),
        )),
    }
}

/// Runs a machine as the options say and returns the exit status (0 ended or stopped by a limit,
/// 1 the program stopped with an error, 2 bad usage).
pub fn drive(
    machine: &mut dyn Machine,
    session: &Session,
    machine_help: Vec<(&'static str, &'static str)>,
) -> ExitCode {
    let args = &session.args;
    let script = session.script.clone();
    let (depth, limit) = match depth_and_limit(args) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let state = if session.headless {
        let options = HeadlessOptions { limit, script };
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        match run_headless(machine, &options, &mut out) {
            Ok(outcome) => outcome.state,
            // The reader of our output has gone (`| head`): end quietly, as command-line tools do.
            Err(e) if is_broken_pipe(&e) => return ExitCode::SUCCESS,
            Err(e) => return usage_error(format!("writing output: {e}")),
        }
    } else {
        let options = InteractiveOptions {
            depth,
            machine_help,
            script,
            limit: args.time.map(|_| limit),
            panic_after_frames: args.panic_for_test,
            thread_panic_after_frames: args.panic_thread_for_test,
        };
        match run_interactive(machine, &options) {
            Ok(Finished {
                signal: Some(sig), ..
            }) => die_of(sig),
            Ok(finished) => finished.state,
            Err(e) => return usage_error(format!("terminal: {e}")),
        }
    };
    // The final frame is built only when asked for: copying a screen's pixels into a fresh
    // buffer is page faults, a cost that every short headless run paid for nothing.
    if wants_final(args)
        && let Err(e) = show_final(&machine.frame(), args, depth)
    {
        return usage_error(e);
    }
    exit_status(state, machine.quit_status())
}

/// The colour depth and the time limit the options ask for (a usage error when they are wrong).
fn depth_and_limit(args: &SessionArgs) -> Result<(ColourDepth, VirtualTime), ExitCode> {
    let depth = depth(args.colour.as_deref()).map_err(usage_error)?;
    let limit = match args.time {
        Some(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => VirtualTime::from_micros((t * 1e6) as u64),
        Some(t) => {
            return Err(usage_error(format!(
                "--time {t}: give a number of seconds between 0 and 86400"
            )));
        }
        None => VirtualTime::from_micros((DEFAULT_HEADLESS_SECONDS * 1e6) as u64),
    };
    Ok((depth, limit))
}

/// The exit status of a run that ended in `state`, QUIT having given `quit` or not.
fn exit_status(state: RunState, quit: Option<i32>) -> ExitCode {
    match state {
        RunState::Failed(msg) => {
            // The machine's own words, which can quote the program (BBC `ERROR 1, "..."`).
            eprintln!("{}", retro_diag::escape(&msg));
            ExitCode::from(1)
        }
        // QUIT n gives its value as the exit status, as it does to the host of a real machine.
        _ => ExitCode::from(quit.unwrap_or(0) as u8),
    }
}

/// A headless run with no final screen that the machine does by itself (BBC BASIC on the
/// calling thread): `drive`'s headless path, with `run` in place of `run_headless`. `run` gets
/// the options and gives the state the run ended in and QUIT's value, or the exit status of a
/// program that could not start.
pub fn drive_headless(
    session: &Session,
    run: impl FnOnce(&HeadlessOptions) -> Result<std::io::Result<(RunState, Option<i32>)>, ExitCode>,
) -> ExitCode {
    debug_assert!(session.headless && !wants_final(&session.args));
    let (_, limit) = match depth_and_limit(&session.args) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let options = HeadlessOptions {
        limit,
        script: session.script.clone(),
    };
    match run(&options) {
        Ok(Ok((state, quit))) => exit_status(state, quit),
        Err(code) => code,
        // The reader of our output has gone (`| head`): end quietly, as command-line tools do.
        Ok(Err(e)) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Ok(Err(e)) => usage_error(format!("writing output: {e}")),
    }
}

/// Whether `--dump-screen` or `--screenshot` asks for the final screen.
pub fn wants_final(args: &SessionArgs) -> bool {
    args.dump_screen.is_some() || args.screenshot.is_some()
}

/// The final screen as `--dump-screen` and `--screenshot` ask.
pub fn show_final(frame: &retro_screen::Frame, args: &SessionArgs, depth: ColourDepth) -> Result<(), String> {
    if let Some(format) = args.dump_screen {
        let text = match format {
            DumpFormat::Text => dump::text(frame),
            DumpFormat::Colours => dump::colours(frame),
            DumpFormat::Ansi => dump::ansi(frame, depth),
        };
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    }
    match &args.screenshot {
        Some(path) => screenshot(frame, path),
        None => Ok(()),
    }
}

/// [`show_final`] with the terminal's colour depth, for runs that do not go through [`drive`].
pub fn show_final_detected(frame: &retro_screen::Frame, args: &SessionArgs) -> Result<(), String> {
    show_final(frame, args, depth(args.colour.as_deref())?)
}

pub fn screenshot(frame: &retro_screen::Frame, path: &Path) -> Result<(), String> {
    let png = dump::png(frame, 2).map_err(|e| format!("screenshot: {e}"))?;
    write_output(path, &png).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
