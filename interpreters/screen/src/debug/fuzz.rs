//! Command lines for fuzzing a debugger (feature `fuzz`, for tests): the console's own words and
//! a machine's, each with a few random arguments, and now and then a line of random text. Every
//! machine's command fuzz draws from here, so a word added to the console is fuzzed everywhere.

use proptest::prelude::*;

/// The words [`super::Console`] itself answers (the machines add theirs).
pub const CONSOLE_WORDS: &[&str] = &[
    "break",
    "b",
    "tbreak",
    "delete",
    "disable",
    "enable",
    "run",
    "continue",
    "c",
    "step",
    "s",
    "stepi",
    "next",
    "n",
    "finish",
    "until",
    "reverse-step",
    "reverse-continue",
    "display",
    "undisplay",
    "info",
    "echo",
    "quit",
    "help",
];

/// One command line: a word of the console's or of `machine_words`, with up to three of `args`
/// (four times in five), or up to 30 random characters.
pub fn command_line(
    machine_words: &'static [&'static str],
    args: &'static [&'static str],
) -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = CONSOLE_WORDS.iter().chain(machine_words).copied().collect();
    prop_oneof![
        4 => (prop::sample::select(words), prop::collection::vec(prop::sample::select(args), 0..4))
            .prop_map(|(w, args)| format!("{w} {}", args.join(" "))),
        1 => "\\PC{0,30}",
    ]
}

/// A session of one to five command lines.
pub fn session(
    machine_words: &'static [&'static str],
    args: &'static [&'static str],
) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(command_line(machine_words, args), 1..6)
}
