//! Which of `retro run`'s options apply to which machine: one given for another machine is a
//! usage error naming the machine, rather than silently ignored (issue 31: `--movie` and
//! `--printer` on a `.bbc` did nothing), and a file no machine runs is named for what it is,
//! with the command that takes it.

use std::path::Path;

use super::run::{MachineKind, RunArgs};

/// The machine's name, as a message says it.
fn name(kind: MachineKind) -> &'static str {
    match kind {
        MachineKind::Bbc => "BBC BASIC",
        MachineKind::Cbm => "the C64",
        MachineKind::Z80 => "the Z80 workbench machine",
        MachineKind::Cpm => "CP/M",
    }
}

/// The first option given that `kind` does not take, as a message (`None`: they all apply).
pub fn misplaced_option(args: &RunArgs, kind: MachineKind) -> Option<String> {
    use MachineKind::*;
    let given: [(&str, bool, &[MachineKind]); 14] = [
        // With --ai, --seed is the Tetris AI's wait on the title screen (docs/tetris-ai.md).
        ("--seed", args.seed.is_some() && !args.ai, &[Bbc, Cbm]),
        ("--ai", args.ai, &[Z80]),
        ("--dir", args.dir.is_some(), &[Bbc, Cbm, Cpm]),
        ("--petcat", args.petcat, &[Cbm]),
        ("--fallback-glyphs", args.fallback_glyphs, &[Cbm]),
        ("--org", args.org.is_some(), &[Z80]),
        ("--entry", args.entry.is_some(), &[Z80]),
        ("--movie", args.movie.is_some(), &[Z80]),
        ("--trace-state", args.trace_state, &[Z80]),
        ("--frame-stats", args.frame_stats, &[Z80]),
        ("--record", args.record.is_some(), &[Z80]),
        ("--printer", args.printer.is_some(), &[Z80]),
        ("--poke", !args.poke.is_empty(), &[Z80]),
        ("--no-warn", !args.no_warn.is_empty(), &[Z80]),
    ];
    let (option, _, takes) = given
        .into_iter()
        .find(|&(_, set, takes)| set && !takes.contains(&kind))?;
    let for_whom: Vec<&str> = takes.iter().map(|&k| name(k)).collect();
    Some(format!(
        "{option} is for {}; it does not apply to {}",
        for_whom.join(" and "),
        name(kind)
    ))
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
            "{f} is a Tetris printer sequence: `retro run programs/tetris/tetris.asm --printer {f}` prints it"
        ),
        "fm2" => {
            format!("{f} is a controller movie: `retro run programs/tetris/tetris.asm --movie {f}` plays it")
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

    fn args(words: &[&str]) -> RunArgs {
        Cli::parse_from(std::iter::once("run").chain(words.iter().copied())).run
    }

    #[test]
    fn options_for_another_machine_are_named_with_theirs() {
        let a = args(&["x.bbc", "--movie", "m.fm2"]);
        assert_eq!(
            misplaced_option(&a, MachineKind::Bbc).as_deref(),
            Some("--movie is for the Z80 workbench machine; it does not apply to BBC BASIC")
        );
        let a = args(&["x.asm", "--seed", "3"]);
        assert_eq!(
            misplaced_option(&a, MachineKind::Z80).as_deref(),
            Some("--seed is for BBC BASIC and the C64; it does not apply to the Z80 workbench machine")
        );
        assert_eq!(misplaced_option(&a, MachineKind::Cbm), None);
        let a = args(&["x.asm", "--dir", "d"]);
        assert!(misplaced_option(&a, MachineKind::Z80).is_some());
        assert_eq!(misplaced_option(&a, MachineKind::Cbm), None);
        assert_eq!(misplaced_option(&a, MachineKind::Cpm), None);
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
