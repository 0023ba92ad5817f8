//! `retro tok` and `retro list`: a BASIC program tokenized, converted or listed by the machine
//! whose BASIC it is (`crate::machines::Basic`): `--machine`, or the file's name and bytes.
//!
//! Exit status: 0 done, 1 the listing has mistakes (reported on stderr, nothing written),
//! 2 bad usage or a file that cannot be read or is not a program.

use std::path::Path;
use std::process::ExitCode;

use crate::machines::options::{ListArgs, TokArgs};
use crate::machines::{self, MachineKind};
use crate::session::usage_error;

/// The machine for `tok` or `list`: `--machine`'s, or the first BASIC in the table that claims
/// the file, or the one that reads a listing under any name (BBC BASIC: RISC OS files have no
/// extension); and whether it was named.
fn basic_for(file: &Path, machine: Option<&str>) -> Result<(&'static dyn MachineKind, bool), ExitCode> {
    match machine.and_then(machines::by_name) {
        Some(m) if m.basic().is_some() => Ok((m, true)),
        Some(m) => Err(usage_error(format!(
            "--machine {}: only the machines with a BASIC have tokenized programs: {}",
            m.name(),
            machines::list(|m| m.basic().is_some())
        ))),
        None => machines::for_file_among(file, |m| m.basic().is_some())
            .or_else(|| {
                machines::MACHINES
                    .iter()
                    .copied()
                    .find(|m| m.basic().is_some_and(|b| b.takes_any_name()))
            })
            .map(|m| (m, false))
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
    match basic_for(&args.file, args.machine.as_deref()) {
        Ok((kind, named)) => {
            let code = kind.basic().map_or(ExitCode::from(2), |b| b.tok(&args));
            super::hint_other_machine(code, !named, kind, &args.file)
        }
        Err(code) => code,
    }
}

pub fn list(args: ListArgs) -> ExitCode {
    match basic_for(&args.file, args.machine.as_deref()) {
        Ok((kind, named)) => {
            let code = kind.basic().map_or(ExitCode::from(2), |b| b.list(&args));
            super::hint_other_machine(code, !named, kind, &args.file)
        }
        Err(code) => code,
    }
}
