//! The Commodore 64 with BASIC V2 (the CBM machine, also called c64): `.prg` files are
//! tokenized programs, `.bas` files listings (petcat's or upper-case ASCII) unless their bytes
//! are BBC BASIC (docs/cbm-basic.md). Runs, debugs (docs/debugging-basic.md), tokenizes and lists
//! them, and starts at READY. (`retro c64`).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use retro_cbm::c64::Glyphs;
use retro_cbm::debug::{CbmDebugger, DebugOptions};
use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, ControlCodes, Options};
use retro_cbm::{Charset, Program, inspect, sniff};
use retro_machine::machine::Machine;
use retro_machine::script::KeyScript;

use super::bas::bas_hint;
use super::kind::{Basic, Debugs, MachineKind, Prompt, Prompts};
use super::options::{CharsetArg, DebugArgs, ListArgs, RunArgs, TokArgs};
use crate::files::write_output;
use crate::session::{Session, SessionArgs, drive, usage_error};

/// The C64 row of the machine table.
pub struct Cbm;

impl MachineKind for Cbm {
    fn name(&self) -> &'static str {
        "cbm"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["c64"]
    }
    fn title(&self) -> &'static str {
        "the C64"
    }
    fn about(&self) -> &'static str {
        "Commodore 64 BASIC V2 (also called c64): .prg programs and .bas listings"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["bas", "prg"]
    }
    /// A tokenized program: its load address is BASIC's start, $0801.
    fn recognises(&self, bytes: &[u8]) -> bool {
        bytes.starts_with(&[0x01, 0x08]) && Program::from_prg(bytes).is_ok()
    }
    fn run_options(&self) -> &'static [&'static str] {
        &["--seed", "--dir", "--charset", "--petcat", "--fallback-glyphs"]
    }
    fn key_help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("Escape", "RUN/STOP: break the program (BREAK IN n)"),
            ("Backspace / Delete", "DEL / INST"),
            ("Home / End", "HOME / CLR"),
            ("F1-F8", "the function keys"),
            ("Alt + key", "Commodore + key: the graphics on the keys' fronts"),
            ("Page Up", "RUN/STOP + RESTORE: reset the screen, READY."),
            ("Page Down", "SHIFT + Commodore: switch character set"),
        ]
    }
    fn run(&self, file: &Path, args: &RunArgs, session: &Session) -> ExitCode {
        run_cbm(file, args, session)
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

/// The C64's name for a listing convention.
fn charset_of(arg: CharsetArg) -> Charset {
    match arg {
        CharsetArg::Petcat => Charset::Petcat,
        CharsetArg::Ascii => Charset::Ascii,
    }
}

/// A loaded program, the convention its listing was read in (None for a .prg) and, when its
/// first line would crunch keywords in the other convention, the hint for a ?SYNTAX ERROR there.
struct Loaded {
    program: Program,
    charset: Option<Charset>,
    hint: Option<(u16, String)>,
}

fn load(path: &Path, charset: Option<CharsetArg>) -> Result<Loaded, ExitCode> {
    let bytes = crate::files::read_limited(path, crate::files::C64_PROGRAM).map_err(usage_error)?;
    // A .prg starts with its load address; anything else should be a listing.
    if !bytes.starts_with(&[0x01, 0x08])
        && let Some(what) = crate::files::not_a_listing(&bytes)
    {
        return Err(usage_error(format!(
            "{}: it is {what}, not a C64 program",
            path.display()
        )));
    }
    let text = (!bytes.starts_with(&[0x01, 0x08]))
        .then(|| std::str::from_utf8(&bytes).ok())
        .flatten();
    let chosen = match (text, charset) {
        (None, _) => None,
        (Some(_), Some(c)) => Some(charset_of(c)),
        (Some(t), None) => {
            let c = sniff::charset_of(t);
            if c == Charset::Ascii && !super::bas::said_upper() {
                eprintln!(
                    "retro: {}: read as an upper-case ASCII listing (capitals are unshifted); --charset petcat for petcat's convention",
                    path.display()
                );
            }
            Some(c)
        }
    };
    let program = Program::read_in(&bytes, chosen.unwrap_or_default()).map_err(|e| {
        usage_error(format!(
            "{}: {e}{}",
            path.display(),
            bas_hint(path, "a C64 listing"),
        ))
    })?;
    let hint = text
        .zip(chosen)
        .and_then(|(t, c)| first_line_hint(t, c, &program));
    Ok(Loaded {
        program,
        charset: chosen,
        hint,
    })
}

/// The hint for a ?SYNTAX ERROR in the program's first line, when that line crunches keywords
/// only in the other convention.
fn first_line_hint(text: &str, charset: Charset, program: &Program) -> Option<(u16, String)> {
    let first = program.lines().first()?.number;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))?;
    let other = charset.other();
    (sniff::crunches_a_keyword(line, other) && !sniff::crunches_a_keyword(line, charset)).then(|| {
        let what = match other {
            Charset::Ascii => "upper-case ASCII",
            Charset::Petcat => "petcat's lower case",
        };
        (
            first,
            format!(
                "(line {first} crunches as {what}: try --charset {})",
                other.name()
            ),
        )
    })
}

/// How the C64's text stream and screen show PETSCII (`--petcat`, `--fallback-glyphs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    codes: ControlCodes,
    glyphs: Glyphs,
}

impl Look {
    pub fn new(petcat_codes: bool, fallback_glyphs: bool) -> Look {
        Look {
            codes: if petcat_codes {
                ControlCodes::Petcat
            } else {
                ControlCodes::Omit
            },
            glyphs: if fallback_glyphs {
                Glyphs::Fallback
            } else {
                Glyphs::Unicode
            },
        }
    }
}

/// `retro run` for a C64 program.
fn run_cbm(path: &Path, args: &RunArgs, session: &Session) -> ExitCode {
    let Loaded { program, hint, .. } = match load(path, args.program.charset) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let look = Look::new(args.petcat, args.fallback_glyphs);
    // Device 8 is the directory the program is in (or --dir).
    let disk = crate::files::program_root(path, args.program.dir.as_deref());
    let options = Options {
        seed: args.program.seed,
        disk,
        codes: look.codes,
        ready_after: !session.headless,
        glyphs: look.glyphs,
        syntax_hint: hint,
    };
    let mut machine = match CbmMachine::new(&program, input_source(session), options) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("{}: ?{}  ERROR", path.display(), e.name())),
    };
    drive(&mut machine, session, Cbm.key_help())
}

/// Headless runs without a key script read INPUT and GET from stdin, as a console BASIC does;
/// otherwise keys go through the C64's keyboard buffer.
fn input_source(session: &Session) -> InputSource {
    if session.headless && session.args.keys.is_none() {
        InputSource::Stream(Box::new(std::io::BufReader::new(std::io::stdin())))
    } else {
        InputSource::Keys
    }
}

/// `retro c64` (and `retro run --machine cbm` without a file): the power-on screen and READY.
/// Headless, the lines of stdin are typed at READY. (and read by INPUT); device 8 is the
/// current directory.
fn direct(seed: Option<i64>, session: &Session, look: Look) -> ExitCode {
    let options = Options {
        seed,
        disk: Some(Path::new(".").to_path_buf()),
        codes: look.codes,
        ready_after: true,
        glyphs: look.glyphs,
        syntax_hint: None,
    };
    let mut machine = match CbmMachine::direct(input_source(session), options) {
        Ok(m) => m,
        Err(e) => return usage_error(format!("?{}  ERROR", e.name())),
    };
    drive(&mut machine, session, Cbm.key_help())
}

/// `retro c64`: the table's C64 at READY.
pub fn c64(args: &C64Args) -> ExitCode {
    let session = match Session::new(&args.session) {
        Ok(s) => s,
        Err(code) => return code,
    };
    direct(args.seed, &session, Look::new(args.petcat, args.fallback_glyphs))
}

/// `retro c64`.
#[derive(clap::Args, Debug)]
pub struct C64Args {
    /// Seed for RND, as RND(-N) would.
    #[arg(long)]
    pub seed: Option<i64>,
    /// Show control codes in the text stream in petcat's notation ({clr}, {red}).
    #[arg(long)]
    pub petcat: bool,
    /// Show the PETSCII graphics with characters older terminal fonts have (box drawing,
    /// blocks, shades) instead of Unicode's Symbols for Legacy Computing.
    #[arg(long)]
    pub fallback_glyphs: bool,
    #[command(flatten)]
    pub session: SessionArgs,
}

impl Prompts for Cbm {
    fn start(&self, prompt: &Prompt, session: &Session) -> ExitCode {
        direct(
            prompt.seed,
            session,
            Look::new(prompt.petcat, prompt.fallback_glyphs),
        )
    }
}

impl Debugs for Cbm {
    fn build(&self, file: &Path, args: &DebugArgs, keys: KeyScript) -> Result<Box<dyn Machine>, ExitCode> {
        let program = load(file, args.program.charset)?.program;
        let options = DebugOptions {
            seed: args.program.seed,
            disk: crate::files::program_root(file, args.program.dir.as_deref()),
            keys: keys.events,
        };
        match CbmDebugger::new(&program, options) {
            Ok(d) => Ok(Box::new(d)),
            Err(e) => Err(usage_error(format!("{}: ?{}  ERROR", file.display(), e.name()))),
        }
    }
}

/// `retro tok` and `retro list` for the C64: a listing tokenized into a .prg, a program listed in
/// the convention given (`--charset`, or the one a listing was read in; petcat's for a .prg), or
/// each line's bytes with `--tokens`.
impl Basic for Cbm {
    /// `retro tok` for a C64 listing: writes the .prg.
    fn tok(&self, args: &TokArgs) -> ExitCode {
        let (file, output, charset) = (&args.file, &args.output, args.charset);
        let program = match load(file, charset) {
            Ok(l) => l.program,
            Err(code) => return code,
        };
        let prg = program.to_prg();
        // What `list` and LOAD would refuse (a program past the end of BASIC's memory, whose links
        // would wrap past $FFFF) is refused here too, before anything is written.
        if let Err(e) = Program::from_prg(&prg) {
            return usage_error(format!("{}: {e}", file.display()));
        }
        match write_output(output, &prg) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => usage_error(format!("cannot write {}: {e}", output.display())),
        }
    }

    /// `retro list` for a C64 program: the listing in the convention it was given (`--charset`, or
    /// the one a listing was read in; petcat's for a .prg), or each line's bytes with `--tokens`.
    fn list(&self, args: &ListArgs) -> ExitCode {
        let (file, tokens, charset) = (&args.file, args.tokens, args.charset);
        let Loaded {
            program,
            charset: read_in,
            ..
        } = match load(file, charset) {
            Ok(l) => l,
            Err(code) => return code,
        };
        let text = if tokens {
            inspect::render(&program)
        } else {
            program.to_text_in(charset.map(charset_of).or(read_in).unwrap_or_default())
        };
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        ExitCode::SUCCESS
    }
}
