//! The options of the commands that take a program file (`run`, `debug`, `tok`, `list`), declared
//! once here so every machine reads the same names (`--machine`, `--seed`, `--org`, `--entry`,
//! `--dir`, `--charset`). A machine's builder gets the whole argument struct and reads what
//! applies to it; [`super::MachineKind::run_options`] says which do. `--machine` is a name here;
//! main.rs gives it the table's names as its possible values ([`super::name_parser`]).

use std::path::PathBuf;

use crate::addr::parse_addr;
use crate::session::SessionArgs;

/// The letter convention of a C64 text listing (`--charset`, docs/cli.md).
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetArg {
    /// petcat's: lower case is unshifted (keywords `print`), capitals are shifted graphics.
    Petcat,
    /// Upper-case ASCII, as type-in listings and cbmbasic: capitals are unshifted.
    Ascii,
}

/// The formats a BBC BASIC program is written in (`retro tok --format`, `retro bbc --format`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FormatArg {
    /// RISC OS's tokenized format (filetype &FFB), as Brandy reads it.
    #[default]
    Riscos,
    /// The tokenized format of BBC BASIC for Windows, BBC BASIC for SDL 2.0 and BBC BASIC (Z80).
    Bbcwin,
    /// A text listing, as LIST prints it.
    Text,
}

/// What `run` and `debug` share: the machine and how the program is loaded.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProgramArgs {
    /// The machine (default: from the file's extension and, for .bas, its contents; docs/cli.md).
    #[arg(long, value_name = "MACHINE")]
    pub machine: Option<String>,
    /// BBC BASIC, C64: seed RND as RND(-N) would, so runs repeat exactly.
    #[arg(long)]
    pub seed: Option<i64>,
    /// The directory a program's files live in: BBC BASIC's files, the C64's device 8, CP/M's
    /// drive A: (default: the program file's own directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// C64: the letter convention of a .bas listing (default: decided from the listing).
    #[arg(long, value_enum)]
    pub charset: Option<CharsetArg>,
    /// Z80: load address of a .bin file (default 8000h).
    #[arg(long, value_parser = parse_addr)]
    pub org: Option<u16>,
    /// Z80: start at this label instead of the first ORG.
    #[arg(long, value_name = "LABEL")]
    pub entry: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    // The help lists the table's machines (set here: `mut_arg` would move FILE after ARGS).
    #[arg(help = super::run_file_help())]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub program: ProgramArgs,
    /// C64: show control codes in the text stream in petcat's notation ({clr}, {red}).
    #[arg(long)]
    pub petcat: bool,
    /// C64: show the PETSCII graphics with characters older terminal fonts have (box drawing,
    /// blocks, shades) instead of Unicode's Symbols for Legacy Computing.
    #[arg(long)]
    pub fallback_glyphs: bool,
    /// BBC BASIC: make a key type a character instead (`--map Left=7`); may be repeated. A
    /// program's own map is read from PROGRAM.keymap.txt beside it (docs/cli.md).
    #[arg(long = "map", value_name = "KEY=CHAR")]
    pub map: Vec<String>,
    /// BBC BASIC: refuse what RISC OS BASIC V refuses where we otherwise accept more: the
    /// whole-array forms `a()=2+3`, arrays of different types (`a()=c%()`), DIV and MOD with
    /// arrays (docs/bbc-basic.md).
    #[arg(long)]
    pub strict: bool,
    /// Z80: feed the controller from an FCEUX .fm2 movie, one input per frame (in the terminal:
    /// watch it; headless: as fast as possible, ending with the movie).
    #[arg(long, value_name = "FILE.fm2")]
    pub movie: Option<PathBuf>,
    /// Z80 with --movie: print the program's state after every frame, in the fields its
    /// PROGRAM.trace.txt file beside it names (NES Tetris: docs/tetris.md).
    #[arg(long, requires = "movie")]
    pub trace_state: bool,
    /// Z80 with --movie: report the busiest frame's T-states (frame start to the next HALT).
    #[arg(long, requires = "movie")]
    pub frame_stats: bool,
    /// Z80: record the controller's buttons of every frame as an FCEUX .fm2 movie.
    #[arg(long, value_name = "FILE.fm2", conflicts_with = "movie")]
    pub record: Option<PathBuf>,
    /// Z80, a program with a printer mode (`printer_seq`, `printer_go`): print this `retro tpa`
    /// sequence (text, or .bin bytes) instead of playing (docs/tetris.md).
    #[arg(long, value_name = "SEQUENCE", conflicts_with_all = ["movie", "ai"])]
    pub printer: Option<PathBuf>,
    #[command(flatten)]
    pub ai: AiArgs,
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

#[derive(clap::Args, Debug)]
pub struct DebugArgs {
    // The help lists the table's debuggable machines.
    #[arg(help = super::debug_file_help())]
    pub file: PathBuf,
    #[command(flatten)]
    pub program: ProgramArgs,
    /// Set a breakpoint before starting: an address, a label or file:line (repeatable).
    #[arg(long = "break", value_name = "WHERE")]
    pub breaks: Vec<String>,
    /// Run these debugger commands (a file, or the commands after a leading '=', separated by
    /// newlines or ';') and print a plain-text transcript, instead of the terminal UI.
    #[arg(long, value_name = "CMDS")]
    pub script: Option<String>,
    /// Scripted keys for the program: a file, or the script after a leading '='
    /// (docs/key-scripts.md).
    #[arg(long, value_name = "SCRIPT")]
    pub keys: Option<String>,
    /// Z80: feed the controller from an FCEUX .fm2 movie, one input per frame (as `retro run
    /// --movie`).
    #[arg(long, value_name = "FILE.fm2")]
    pub movie: Option<PathBuf>,
    #[command(flatten)]
    pub ai: AiArgs,
}

/// The Tetris AI's options, for `run` and `debug` alike (docs/tetris-ai.md).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AiArgs {
    /// Z80 NES Tetris: the AI plays, from the title screen (docs/tetris-ai.md); `--seed N` = the
    /// frames it waits on the title screen first. `run` headless prints `ai: score S lines L
    /// level V frames F`; in the terminal, Escape takes the controller. `debug` replays the
    /// AI's game, and `info ai` shows its decision (break at `spawn_piece` for each piece).
    #[arg(id = "ai", long = "ai", conflicts_with = "movie")]
    pub play: bool,
    /// With --ai: the level it starts at, 0-19.
    #[arg(long = "ai-level", value_name = "N", default_value_t = 19, requires = "ai")]
    pub level: u8,
    /// With --ai: new presses a second at most (30: the NES's every other frame; 15, 10: a
    /// human's pace).
    #[arg(long = "ai-tap", value_name = "HZ", default_value_t = 30, requires = "ai")]
    pub tap: u8,
    /// With --ai: stop once the game has this many lines (the end of the run, headless; the
    /// end of the game `debug` replays).
    #[arg(long = "ai-lines", value_name = "N", requires = "ai")]
    pub lines: Option<u32>,
}

#[derive(clap::Args, Debug)]
pub struct TokArgs {
    /// The program: a BBC BASIC text listing (any name; with or without line numbers) or
    /// tokenized program in either format, to tokenize or convert; or a C64 listing (.bas) to
    /// tokenize into a .prg (--format and --crunch are for BBC BASIC).
    pub file: PathBuf,
    /// Where to write the program.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// BBC BASIC: the format to write: riscos (RISC OS, filetype &FFB), bbcwin (BBC BASIC for
    /// Windows, for SDL 2.0 and (Z80)) or text (a listing).
    #[arg(long, value_enum, default_value_t = FormatArg::Riscos)]
    pub format: FormatArg,
    /// BBC BASIC: find keywords anywhere, also glued to variable names (`rEORm` is r EOR m), as
    /// in listings made by poking the spaces out of a tokenized program, like Rheolism's.
    #[arg(long)]
    pub crunch: bool,
    /// The machine, one with a BASIC (default: from the file's extension and contents, as for
    /// `retro run`).
    #[arg(long, value_name = "MACHINE")]
    pub machine: Option<String>,
    /// C64: the letter convention of a .bas listing (default: decided from the listing).
    #[arg(long, value_enum)]
    pub charset: Option<CharsetArg>,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// The program to list: BBC BASIC (.bbc, tokenized or text, any name), C64 BASIC (.prg, or a
    /// .bas listing).
    pub file: PathBuf,
    /// Show each line's bytes, annotated: offsets, header, tokens, line numbers, statements.
    #[arg(long)]
    pub tokens: bool,
    /// BBC BASIC: tokenize a text listing in crunch mode before listing it (see `retro tok
    /// --crunch`).
    #[arg(long)]
    pub crunch: bool,
    /// The machine, one with a BASIC (default: from the file's extension and contents, as for
    /// `retro run`).
    #[arg(long, value_name = "MACHINE")]
    pub machine: Option<String>,
    /// C64: the letter convention of a .bas listing (default: the listing's own); also the
    /// convention the listing is written in.
    #[arg(long, value_enum)]
    pub charset: Option<CharsetArg>,
}
