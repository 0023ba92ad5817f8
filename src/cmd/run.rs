//! `retro run`: picks the machine from `--machine` or the file's extension and runs the program.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::session::{SessionArgs, usage_error};

/// The machines `retro run` knows.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MachineKind {
    /// BBC BASIC V (RISC OS): .bbc files, tokenized or text.
    Bbc,
    /// Commodore 64 BASIC V2: .bas and .prg files (also called c64).
    #[value(alias = "c64")]
    Cbm,
    /// The Z80 workbench machine: .asm, .z80 and .bin files.
    Z80,
    /// CP/M 2.2 on a Z80: .com files.
    Cpm,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The program to run (none with --machine bbc: BBC BASIC's `>` prompt; with --machine cbm:
    /// the C64's READY. prompt).
    pub file: Option<PathBuf>,
    /// The machine to run it on (default: from the file's extension).
    #[arg(long, value_enum)]
    pub machine: Option<MachineKind>,
    /// Seed for the machine's random numbers (BBC RND, C64 RND), so runs repeat exactly.
    #[arg(long)]
    pub seed: Option<i64>,
    /// The directory a program's files live in: BBC BASIC's files and the C64's device 8
    /// (default: the program file's own directory), CP/M's drive A: (docs/cli.md).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// C64: show control codes in the text stream in petcat's notation ({clr}, {red}).
    #[arg(long)]
    pub petcat: bool,
    /// C64: the letter convention of a .bas listing (default: decided from the listing).
    #[arg(long, value_enum)]
    pub charset: Option<super::cbm::CharsetArg>,
    /// C64: show the PETSCII graphics with characters older terminal fonts have (box drawing,
    /// blocks, shades) instead of Unicode's Symbols for Legacy Computing.
    #[arg(long)]
    pub fallback_glyphs: bool,
    /// Z80: load address of a .bin file (default 8000h).
    #[arg(long, value_parser = super::asm::parse_addr)]
    pub org: Option<u16>,
    /// Z80: start at this label instead of the first ORG.
    #[arg(long, value_name = "LABEL")]
    pub entry: Option<String>,
    /// Z80: feed the controller from an FCEUX .fm2 movie, one input per frame (in the terminal:
    /// watch it; headless: as fast as possible, ending with the movie).
    #[arg(long, value_name = "FILE.fm2")]
    pub movie: Option<PathBuf>,
    /// Z80 with --movie: print the NES Tetris state after every frame (docs/tetris.md).
    #[arg(long, requires = "movie")]
    pub trace_state: bool,
    /// Z80 with --movie: report the busiest frame's T-states (frame start to the next HALT).
    #[arg(long, requires = "movie")]
    pub frame_stats: bool,
    /// Z80: record the controller's buttons of every frame as an FCEUX .fm2 movie.
    #[arg(long, value_name = "FILE.fm2", conflicts_with = "movie")]
    pub record: Option<PathBuf>,
    /// Z80 Tetris (programs/tetris): print this `retro tpa` sequence (text, or .bin bytes) in
    /// the printer mode instead of playing the game.
    #[arg(long, value_name = "SEQUENCE", conflicts_with = "movie")]
    pub printer: Option<PathBuf>,
    /// Z80 Tetris (programs/tetris): the AI plays, from the title screen (docs/tetris-ai.md);
    /// `--seed N` = the frames it waits on the title screen first. Headless it prints
    /// `ai: score S lines L level V frames F`; in the terminal, Escape takes the controller.
    #[arg(long, conflicts_with_all = ["movie", "printer"])]
    pub ai: bool,
    /// With --ai: the level it starts at, 0-19.
    #[arg(long, value_name = "N", default_value_t = 19, requires = "ai")]
    pub ai_level: u8,
    /// With --ai: new presses a second at most (30: the NES's every other frame; 15, 10: a
    /// human's pace).
    #[arg(long, value_name = "HZ", default_value_t = 30, requires = "ai")]
    pub ai_tap: u8,
    /// With --ai: stop once the game has this many lines (the end of the run, headless).
    #[arg(long, value_name = "N", requires = "ai")]
    pub ai_lines: Option<u32>,
    /// Z80: set the byte at LABEL before the run (e.g. `--poke uncapped=1`); may be repeated.
    #[arg(long, value_name = "LABEL=VALUE")]
    pub poke: Vec<String>,
    /// Z80 source: leave out the assembler's warnings with this code (e.g. W001), or all of
    /// them with `-W none`; may be repeated. Shown warnings come once each, repeats counted.
    #[arg(long = "no-warn", short = 'W', value_name = "CODE")]
    pub no_warn: Vec<String>,
    #[command(flatten)]
    pub session: SessionArgs,
    /// Arguments for the program (CP/M: its command tail and default FCBs; put `--` before
    /// arguments that start with '-').
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,
}

/// The machine for a file name, from its extension (DESIGN.md's table).
pub fn machine_for(path: &Path) -> Option<MachineKind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "bbc" => MachineKind::Bbc,
        // A .bas file may be BBC BASIC too: its contents decide (docs/cli.md).
        "bas" if !super::cbm::bas_is_cbm(path) => MachineKind::Bbc,
        "bas" | "prg" => MachineKind::Cbm,
        "asm" | "z80" | "bin" => MachineKind::Z80,
        "com" => MachineKind::Cpm,
        _ => return None,
    })
}

pub fn run(args: RunArgs) -> ExitCode {
    let Some(file) = args.file.clone() else {
        return match args.machine {
            Some(MachineKind::Bbc) => super::bbc::prompt(&super::bbc::PromptArgs {
                seed: args.seed,
                format: Default::default(),
                session: args.session,
            }),
            Some(MachineKind::Cbm) => super::cbm::direct(
                args.seed,
                &args.session,
                super::cbm::Look::new(args.petcat, args.fallback_glyphs),
            ),
            _ => usage_error(
                "retro run: give the FILE to run (only --machine bbc and --machine cbm start without one, at their prompts)",
            ),
        };
    };
    run_file(&file, args)
}

fn run_file(file: &Path, args: RunArgs) -> ExitCode {
    // Say what is wrong with the path before guessing a machine from its name.
    if let Err(e) = crate::files::check_path(file) {
        return usage_error(e);
    }
    let Some(kind) = args.machine.or_else(|| machine_for(file)) else {
        if let Some(what) = super::applies::not_a_program(file) {
            return usage_error(what);
        }
        return usage_error(format!(
            "cannot tell which machine runs {}: use --machine bbc|cbm|z80|cpm",
            file.display()
        ));
    };
    if let Some(msg) = super::applies::misplaced_option(&args, kind) {
        return usage_error(format!("{msg} ({})", file.display()));
    }
    if kind != MachineKind::Cpm && !args.args.is_empty() {
        return usage_error(format!(
            "unexpected argument '{}': only CP/M programs take arguments",
            args.args[0]
        ));
    }
    match kind {
        MachineKind::Bbc => super::bbc::run_bbc(file, args.dir.as_deref(), args.seed, &args.session),
        MachineKind::Cpm => super::cpm::run_cpm(file, &args.args, args.dir.as_deref(), &args.session),
        MachineKind::Cbm => super::cbm::run_cbm(
            file,
            args.dir.as_deref(),
            args.seed,
            &args.session,
            super::cbm::Look::new(args.petcat, args.fallback_glyphs),
            args.charset,
        ),
        MachineKind::Z80 => super::z80::run_z80(
            file,
            args.org,
            args.entry.as_deref(),
            &args.session,
            &super::z80::MovieArgs {
                movie: args.movie.as_deref(),
                trace_state: args.trace_state,
                frame_stats: args.frame_stats,
                pokes: &args.poke,
                printer: args.printer.as_deref(),
                record: args.record.as_deref(),
                no_warn: &args.no_warn,
                ai: args.ai.then(|| super::z80_ai::AiArgs {
                    level: args.ai_level,
                    tap_hz: args.ai_tap,
                    seed: args.seed.map_or(0, |s| s.clamp(0, i64::from(u32::MAX)) as u32),
                    stop_lines: args.ai_lines,
                }),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_choose_machines_case_insensitively() {
        assert_eq!(
            machine_for(Path::new("programs/rheolism/rheolism.bbc")),
            Some(MachineKind::Bbc)
        );
        assert_eq!(machine_for(Path::new("BABA.PRG")), Some(MachineKind::Cbm));
        assert_eq!(machine_for(Path::new("game.bas")), Some(MachineKind::Cbm));
        assert_eq!(machine_for(Path::new("connect4.asm")), Some(MachineKind::Z80));
        assert_eq!(machine_for(Path::new("zexdoc.com")), Some(MachineKind::Cpm));
        assert_eq!(machine_for(Path::new("notes.txt")), None);
        assert_eq!(machine_for(Path::new("Makefile")), None);
    }
}
