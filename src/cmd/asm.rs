//! `retro asm` and `retro dis` (Z80 assembler issue).
//!
//! Exit status: 0 ok, 1 assembly errors (all of them reported on stderr), 2 bad usage or an
//! unreadable/unwritable file. Output files are written by `files::write_output` (atomically for
//! regular files, through symlinks, in place for devices and pipes), and never written when the
//! source has errors.
use crate::addr::parse_addr;
use crate::files::write_output;
use retro_z80_asm::{
    Dialect, Options, SymbolTable, assemble_file_with, disassemble_to_source, intel_hex, render_listing,
};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Raw bytes from the lowest to the highest address written (gaps filled with 0).
    #[default]
    Bin,
    /// Intel HEX records.
    Hex,
}

/// The assembler dialect (`--dialect`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialectArg {
    /// pasmo / z80asm syntax.
    Pasmo,
    /// sjasmplus syntax (DEVICE, SAVESNA, MODULE, STRUCT, DUP, ...).
    Sjasmplus,
}

#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// The Z80 source file.
    pub file: PathBuf,
    /// Where to write the binary (default: the source name with .bin or .hex).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Bin)]
    pub format: Format,
    /// Also write a listing (address, bytes, source line).
    #[arg(long, value_name = "FILE")]
    pub listing: Option<PathBuf>,
    /// Also write a symbol file (read by `retro dis --symbols` and the debugger).
    #[arg(long, value_name = "FILE")]
    pub symbols: Option<PathBuf>,
    /// Also write the source map (address, length, file:line per line of code).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// The source's dialect (default: sjasmplus when it has a `DEVICE` line, else pasmo).
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
    /// Define NAME before the first line, as sjasmplus's -D (a DEFINE standing for VALUE, or for
    /// nothing); in the pasmo dialect the same as --equ.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Define NAME as pasmo's --equ does: an EQU of VALUE (FFFFh without one).
    #[arg(short = 'E', long = "equ", value_name = "NAME[=VALUE]")]
    pub equ: Vec<String>,
    /// Also search DIR for INCLUDE and INCBIN files (after the including file's directory).
    #[arg(short = 'I', long = "inc", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// pasmo's autolocal mode: names starting with `_` are local to the previous label.
    #[arg(long)]
    pub alocal: bool,
    /// Let the source save files (sjasmplus SAVESNA, SAVEBIN, OUTPUT ...) outside the current
    /// directory and the source's own directory (sjasmplus writes anywhere).
    #[arg(long)]
    pub allow_outside: bool,
}

#[derive(clap::Args, Debug)]
pub struct DisArgs {
    /// The binary to disassemble.
    pub file: PathBuf,
    /// Load address of the first byte (decimal, 0x8000, $8000 or 8000h).
    #[arg(long, default_value = "0", value_parser = parse_addr)]
    pub org: u16,
    /// A symbol file written by `retro asm --symbols` (or z80asm -L) for symbolic output.
    #[arg(long, value_name = "FILE")]
    pub symbols: Option<PathBuf>,
    /// Write the source here instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

pub fn asm(args: AsmArgs) -> ExitCode {
    // Devices and pipes (`retro asm /dev/stdin`) are read through the assembler's size limit;
    // a missing file or a directory is reported as what it is.
    match std::fs::metadata(&args.file) {
        Ok(m) if m.is_dir() => {
            eprintln!("retro asm: cannot read {}: is a directory", args.file.display());
            return ExitCode::from(2);
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("retro asm: cannot read {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    }
    let options = Options {
        dialect: args.dialect.map(|d| match d {
            DialectArg::Pasmo => Dialect::Pasmo,
            DialectArg::Sjasmplus => Dialect::Sjasmplus,
        }),
        defines: args
            .define
            .iter()
            .chain(&args.equ)
            .map(|d| match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d.clone(), None),
            })
            .collect(),
        include_dirs: args.include.clone(),
        alocal: args.alocal,
    };
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let assembly = match assemble_file_with(&args.file, &options) {
        Ok(a) => {
            // Warnings do not stop the build (exit status 0), but they are always shown.
            eprint!("{}", a.render_warnings(color));
            // sjasmplus's DISPLAY lines, on stderr with its `> ` as sjasmplus prints them.
            for text in &a.display {
                eprintln!("> {text}");
            }
            a
        }
        Err(failure) => {
            eprint!("{}", failure.render(color));
            let n = failure.diagnostics.len();
            eprintln!(
                "retro asm: {n} error{} in {}; no output written",
                if n == 1 { "" } else { "s" },
                args.file.display()
            );
            let io_only = failure
                .diagnostics
                .iter()
                .all(|d| d.kind == retro_z80_asm::DiagKind::Io)
                && failure.files.iter().all(|f| f.text.is_empty());
            return ExitCode::from(if io_only { 2 } else { 1 });
        }
    };
    let ext = match args.format {
        Format::Bin => "bin",
        Format::Hex => "hex",
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension(ext));
    let data = match args.format {
        Format::Bin => assembly.bytes.clone(),
        Format::Hex => intel_hex(&assembly.blocks).into_bytes(),
    };
    let mut writes: Vec<(PathBuf, Vec<u8>)> = vec![(output, data)];
    if let Some(p) = &args.listing {
        writes.push((p.clone(), render_listing(&assembly).into_bytes()));
    }
    if let Some(p) = &args.symbols {
        writes.push((p.clone(), assembly.symbols.to_file().into_bytes()));
    }
    if let Some(p) = &args.map {
        writes.push((p.clone(), assembly.source_map.to_file().into_bytes()));
    }
    let ours = writes.len();
    // The files the source itself names (sjasmplus SAVESNA, SAVETAP, SAVEBIN, OUTPUT), relative
    // to the current directory as sjasmplus writes them.
    writes.extend(assembly.outputs.iter().cloned());
    if let Err(why) = check_writes(&args, &assembly, &writes[ours..], &writes) {
        eprintln!("retro asm: {why}; nothing written");
        return ExitCode::from(2);
    }
    for (k, (path, data)) in writes.iter().enumerate() {
        if let Err(e) = write_output(path, data) {
            eprintln!("retro asm: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        if k >= ours {
            eprintln!(
                "wrote {} ({} bytes)",
                path.display(),
                retro_diag::grouped(data.len())
            );
        }
    }
    ExitCode::SUCCESS
}

/// The assembler never writes over what it read (a source, an INCLUDE, an INCBIN), whatever
/// path names it; and the files a source saves stay in the current directory or the source's
/// own directory unless `--allow-outside` (sjasmplus writes wherever the source says).
fn check_writes(
    args: &AsmArgs,
    assembly: &retro_z80_asm::Assembly,
    saved: &[(PathBuf, Vec<u8>)],
    all: &[(PathBuf, Vec<u8>)],
) -> Result<(), String> {
    let inputs: Vec<&Path> = assembly
        .files
        .iter()
        .map(|f| f.path.as_path())
        .chain(assembly.incbins.iter().map(PathBuf::as_path))
        .collect();
    for (out, _) in all {
        if let Some(input) = inputs.iter().find(|i| crate::files::same_file(i, out)) {
            return Err(format!(
                "{} would overwrite the input {}",
                out.display(),
                input.display()
            ));
        }
    }
    if args.allow_outside {
        return Ok(());
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let source_dir = normalize(&cwd.join(args.file.parent().unwrap_or(Path::new(""))));
    for (out, _) in saved {
        let at = normalize(&cwd.join(out));
        if !at.starts_with(&cwd) && !at.starts_with(&source_dir) {
            return Err(format!(
                "the source saves {}, outside the current directory and the source's directory \
                 (`--allow-outside` permits it)",
                out.display()
            ));
        }
    }
    Ok(())
}

/// `a/b/../c` as `a/c`, without touching the file system (the file may not exist yet).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

pub fn dis(args: DisArgs) -> ExitCode {
    // Messages quote the user's paths and the symbol file's text: escaped, never raw.
    let fail = |msg: String| {
        eprintln!("retro dis: {}", retro_diag::escape(&msg));
        ExitCode::from(2)
    };
    if let Some(out) = &args.output
        && crate::files::same_file(out, &args.file)
    {
        return fail(format!(
            "-o {} is the input file; write the listing elsewhere",
            out.display()
        ));
    }
    let bytes = match crate::files::read_limited(&args.file, crate::files::Z80_BINARY) {
        Ok(b) => b,
        Err(e) => return fail(e.to_string()),
    };
    if bytes.len() + args.org as usize > 0x10000 {
        return fail(format!(
            "{} bytes at ${:04X} run past $FFFF",
            bytes.len(),
            args.org
        ));
    }
    let symbols = match &args.symbols {
        None => None,
        Some(p) => match crate::files::read_limited(p, crate::files::TEXT).map(String::from_utf8) {
            Err(e) => return fail(e.to_string()),
            Ok(Err(_)) => return fail(format!("cannot read {}: it is not text (UTF-8)", p.display())),
            Ok(Ok(text)) => match SymbolTable::parse(&text) {
                Ok(t) => Some(t),
                Err(errors) => {
                    for (line, msg) in errors {
                        let msg = format!("{}:{line}: {msg}", p.display());
                        eprintln!("{}", retro_diag::escape(&msg));
                    }
                    return ExitCode::from(2);
                }
            },
        },
    };
    let text = disassemble_to_source(&bytes, args.org, symbols.as_ref());
    match &args.output {
        Some(p) => {
            if let Err(e) = write_output(p, text.as_bytes()) {
                return fail(format!("cannot write {}: {e}", p.display()));
            }
        }
        None => {
            // A closed pipe (`retro dis x.bin | head`) is not an error worth a message.
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
    ExitCode::SUCCESS
}
