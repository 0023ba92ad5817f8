//! `retro tok` and `retro list`: a BASIC program tokenized, converted or listed by the machine
//! whose BASIC it is (`crate::machines::Basic`): `--machine`, or the file's name and bytes.
//!
//! Exit status: 0 done, 1 the listing has mistakes (reported on stderr, nothing written),
//! 2 bad usage or a file that cannot be read or is not a program.

use std::path::Path;
use std::process::ExitCode;

use crate::machines::options::{ListArgs, MachineArg, TokArgs};
use crate::machines::{self, Basic};
use crate::session::usage_error;

/// The BASIC for `tok` or `list`: `--machine`'s, or the first BASIC in the table that claims the
/// file, or the one that reads a listing under any name (BBC BASIC: RISC OS files have no
/// extension).
fn basic_for(file: &Path, machine: Option<MachineArg>) -> Result<&'static dyn Basic, ExitCode> {
    let basics = || machines::MACHINES.iter().filter_map(|m| m.basic());
    match machine {
        Some(MachineArg(m)) => m.basic().ok_or_else(|| {
            usage_error(format!(
                "--machine {}: only the machines with a BASIC have tokenized programs: {}",
                m.name(),
                machines::list(|m| m.basic().is_some())
            ))
        }),
        None => machines::for_file_among(file, |m| m.basic().is_some())
            .and_then(|m| m.basic())
            .or_else(|| basics().find(|b| b.takes_any_name()))
            .ok_or_else(|| usage_error(format!("{}: no BASIC reads this file", file.display()))),
    }
}

pub fn tok(args: TokArgs) -> ExitCode {
    if crate::files::same_file(&args.output, &args.file) {
        return usage_error(format!(
            "-o {} is the input file; write the program elsewhere",
            args.output.display()
        ));
    }
    match basic_for(&args.file, args.machine) {
        Ok(basic) => basic.tok(&args),
        Err(code) => code,
    }
}

pub fn list(args: ListArgs) -> ExitCode {
    match basic_for(&args.file, args.machine) {
        Ok(basic) => basic.list(&args),
        Err(code) => code,
    }
}
