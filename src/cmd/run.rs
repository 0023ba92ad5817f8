//! `retro run`: the machine from `--machine` or the file (its extension, and for `.bas` its
//! bytes), through the machine table (`crate::machines`), and the program run on it.

use std::process::ExitCode;

use crate::machines::options::RunArgs;
use crate::machines::{self, Prompt};
use crate::session::{Session, usage_error};

pub fn run(args: RunArgs) -> ExitCode {
    let Some(file) = args.file.clone() else {
        return prompt(&args);
    };
    // Say what is wrong with the path before guessing a machine from its name.
    if let Err(e) = crate::files::check_path(&file) {
        return usage_error(e);
    }
    let named = args.program.machine.as_deref().and_then(machines::by_name);
    let Some(kind) = named.or_else(|| machines::for_file(&file)) else {
        if let Some(what) = super::applies::not_a_program(&file) {
            return usage_error(what);
        }
        let names: Vec<&str> = machines::MACHINES.iter().map(|m| m.name()).collect();
        return usage_error(format!(
            "cannot tell which machine runs {}: use --machine {}",
            file.display(),
            names.join("|")
        ));
    };
    if let Some(msg) = super::applies::misplaced_option(&args, kind) {
        return usage_error(format!("{msg} ({})", file.display()));
    }
    if let Some(msg) = super::applies::unexpected_args(&args, kind) {
        return usage_error(msg);
    }
    let code = match Session::new(&args.session) {
        Ok(session) => kind.run(&file, &args, &session),
        Err(code) => code,
    };
    super::hint_other_machine(code, named.is_none(), kind, &file)
}

/// `retro run --machine M` with no file: the machine's prompt, for a machine that has one.
fn prompt(args: &RunArgs) -> ExitCode {
    let with_prompt = || {
        let names: Vec<String> = machines::MACHINES
            .iter()
            .filter(|m| m.prompt().is_some())
            .map(|m| format!("--machine {}", m.name()))
            .collect();
        names.join(" and ")
    };
    let named = args.program.machine.as_deref().and_then(machines::by_name);
    let Some(prompts) = named.and_then(|m| m.prompt()) else {
        return usage_error(format!(
            "retro run: give the FILE to run (only {} start without one, at their prompts)",
            with_prompt()
        ));
    };
    let session = match Session::new(&args.session) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let prompt = Prompt {
        seed: args.program.seed,
        petcat: args.petcat,
        fallback_glyphs: args.fallback_glyphs,
        ..Prompt::default()
    };
    prompts.start(&prompt, &session)
}
