//! Which of `retro run`'s options apply to which machine: one given for another machine is a
//! usage error naming the machine, rather than silently ignored (issue 31: `--movie` and
//! `--printer` on a `.bbc` did nothing), and a file no machine runs is named for what it is,
//! with the command that takes it.

use std::path::Path;

use crate::machines::options::{DebugArgs, RunArgs};
use crate::machines::{MACHINES, MachineKind};

/// The first option given that `kind` does not take, as a message (`None`: they all apply).
/// Which machine takes which option is the table's (`MachineKind::run_options`).
pub fn misplaced_option(args: &RunArgs, kind: &dyn MachineKind) -> Option<String> {
    let p = &args.program;
    let given: [(&str, bool); 17] = [
        // With --ai, --seed is the Tetris AI's wait on the title screen (docs/tetris-ai.md).
        ("--seed", p.seed.is_some() && !args.ai.play),
        ("--ai", args.ai.play),
        ("--dir", p.dir.is_some()),
        ("--charset", p.charset.is_some()),
        ("--petcat", args.petcat),
        ("--fallback-glyphs", args.fallback_glyphs),
        ("--map", !args.map.is_empty()),
        ("--strict", args.strict),
        ("--org", p.org.is_some()),
        ("--entry", p.entry.is_some()),
        ("--movie", args.movie.is_some()),
        ("--trace-state", args.trace_state),
        ("--frame-stats", args.frame_stats),
        ("--record", args.record.is_some()),
        ("--printer", args.printer.is_some()),
        ("--poke", !args.poke.is_empty()),
        ("--no-warn", !args.no_warn.is_empty()),
    ];
    first_misplaced(&given, kind)
}

/// The same for `retro debug`'s options, which mean there what they mean for `retro run`.
pub fn misplaced_debug_option(args: &DebugArgs, kind: &dyn MachineKind) -> Option<String> {
    let p = &args.program;
    first_misplaced(
        &[
            // With --ai, --seed is the Tetris AI's wait on the title screen.
            ("--seed", p.seed.is_some() && !args.ai.play),
            ("--ai", args.ai.play),
            ("--dir", p.dir.is_some()),
            ("--charset", p.charset.is_some()),
            ("--org", p.org.is_some()),
            ("--entry", p.entry.is_some()),
            ("--movie", args.movie.is_some()),
        ],
        kind,
    )
}

/// The first of the `given` options (name, whether given) that `kind` does not take.
fn first_misplaced(given: &[(&str, bool)], kind: &dyn MachineKind) -> Option<String> {
    let &(option, _) = given
        .iter()
        .find(|&&(option, set)| set && !kind.run_options().contains(&option))?;
    Some(format!(
        "{option} is for {}; it does not apply to {}",
        taking(option).join(" and "),
        kind.title()
    ))
}

/// Arguments after the program for a machine whose programs take none, as a message.
pub fn unexpected_args(args: &RunArgs, kind: &dyn MachineKind) -> Option<String> {
    let first = args.args.first()?;
    (!kind.run_options().contains(&"ARGS")).then(|| {
        format!(
            "unexpected argument '{first}': only {} programs take arguments",
            taking("ARGS").join(" and ")
        )
    })
}

/// The machines that take `option`, as messages name them.
fn taking(option: &str) -> Vec<&'static str> {
    MACHINES
        .iter()
        .filter(|m| m.run_options().contains(&option))
        .map(|m| m.title())
        .collect()
}

/// What a file no machine runs is, and the command for it, by its extension.
pub fn not_a_program(file: &Path) -> Option<String> {
    let ext = file.extension()?.to_str()?.to_ascii_lowercase();
    let f = file.display();
    Some(match ext.as_str() {
        "png" | "gif" | "jpg" | "jpeg" | "bmp" => {
            format!("{f} is a picture, not a program: `retro tpa {f} --show` prints it with Tetris pieces")
        }
        "tps" => format!(
            "{f} is a Tetris printer sequence: `retro run PROGRAM --printer {f}` prints it with a program that has a printer mode (docs/tetris.md)"
        ),
        "fm2" => {
            format!(
                "{f} is a controller movie: `retro run PROGRAM --movie {f}` plays it on the Z80 workbench machine"
            )
        }
        "keys" => format!("{f} is a key script: give it to a run with `--keys {f}`"),
        "gdb" => format!("{f} is a debugger script: `retro debug PROGRAM --script {f}` runs it"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn m(name: &str) -> &'static dyn MachineKind {
        crate::machines::by_name(name).unwrap()
    }

    fn args(words: &[&str]) -> RunArgs {
        Cli::parse_from(std::iter::once("run").chain(words.iter().copied())).run
    }

    #[test]
    fn options_for_another_machine_are_named_with_theirs() {
        let a = args(&["x.bbc", "--movie", "m.fm2"]);
        assert_eq!(
            misplaced_option(&a, m("bbc")).as_deref(),
            Some("--movie is for the Z80 workbench machine; it does not apply to BBC BASIC")
        );
        let a = args(&["x.asm", "--seed", "3"]);
        assert_eq!(
            misplaced_option(&a, m("z80")).as_deref(),
            Some("--seed is for BBC BASIC and the C64; it does not apply to the Z80 workbench machine")
        );
        assert_eq!(misplaced_option(&a, m("cbm")), None);
        let a = args(&["x.asm", "--dir", "d"]);
        assert!(misplaced_option(&a, m("z80")).is_some());
        assert_eq!(misplaced_option(&a, m("cbm")), None);
        assert_eq!(misplaced_option(&a, m("cpm")), None);
        let a = args(&["x.bbc", "--charset", "ascii"]);
        assert_eq!(
            misplaced_option(&a, m("bbc")).as_deref(),
            Some("--charset is for the C64; it does not apply to BBC BASIC")
        );
        // --strict is BBC BASIC's alone (its whole-array grammar).
        let a = args(&["x.asm", "--strict"]);
        assert_eq!(
            misplaced_option(&a, m("z80")).as_deref(),
            Some("--strict is for BBC BASIC; it does not apply to the Z80 workbench machine")
        );
        assert_eq!(misplaced_option(&args(&["x.bbc", "--strict"]), m("bbc")), None);
        let a = args(&["x.asm", "--", "A.TXT"]);
        assert_eq!(
            unexpected_args(&a, m("z80")).as_deref(),
            Some("unexpected argument 'A.TXT': only CP/M programs take arguments")
        );
        assert_eq!(unexpected_args(&a, m("cpm")), None);
    }

    #[test]
    fn pictures_and_movies_point_to_their_commands() {
        let m = not_a_program(Path::new("x.png")).unwrap();
        assert!(m.contains("a picture") && m.contains("retro tpa x.png"), "{m}");
        assert!(
            not_a_program(Path::new("x.fm2"))
                .unwrap()
                .contains("--movie x.fm2")
        );
        assert_eq!(not_a_program(Path::new("x.zzz")), None);
    }
}
