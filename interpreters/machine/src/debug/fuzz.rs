//! Command lines for fuzzing a debugger (feature `fuzz`, for tests): the console's own words and
//! a machine's, each with a few random arguments, and now and then a line of random text. Every
//! machine's command fuzz draws from here, so a word added to the console is fuzzed everywhere.

use proptest::prelude::*;

use super::{Console, Debuggable};

/// Steps a fuzzed run may take: what is fuzzed is the parsing and the answers, and batch mode's
/// 100,000,000 would make some cases (`call` then `finish` on a program that lost its way) take
/// seconds each unoptimised, and 100,000 cases hours.
pub const BUDGET: u64 = 20_000;

/// The words [`super::Console`] itself answers, and those every machine answers in its own way
/// (the machines add the rest).
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
    "watch",
    "print",
    "p",
    "set",
    "x",
    "backtrace",
    "bt",
    "where",
    "commands",
    "end",
    "condition",
    "ignore",
    "display/x",
    "list",
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

/// The arguments every BASIC dialect's session tries besides its own: lines and statements in
/// and out of range, numbers out of range, `info`'s words, broken and failing expressions.
pub const BASIC_ARGS: &[&str] = &[
    "10",
    "20:2",
    "30:9",
    "0",
    "-1",
    "65536",
    "if",
    "b<>0",
    "=",
    "1/0",
    "\"",
    "locals",
    "stack",
    "breakpoints",
    "variables",
    "9999999999999999999",
    "(((",
];

/// A session on a BASIC dialect's debugger: its own words and arguments, with [`BASIC_ARGS`].
pub fn basic_session(
    machine_words: &'static [&'static str],
    args: &'static [&'static str],
) -> impl Strategy<Value = Vec<String>> {
    // Made once per test run: a test-only leak, for the strategy's 'static lists.
    session(machine_words, [BASIC_ARGS, args].concat().leak())
}

/// Runs `lines` on `d` through a fresh console whose runs stop after [`BUDGET`] steps (and
/// whose breakpoint commands chain at most 4 stops); the
/// answers are not looked at (a panic or a hang is the failure).
pub fn run(d: &mut dyn Debuggable, lines: &[String]) {
    let mut console = Console::new();
    console.set_budget(BUDGET);
    // A `continue` in a breakpoint's commands may chain a stop per budget: a few are enough to
    // reach every path, a thousand made one case run for minutes.
    console.set_command_stops(4);
    for l in lines {
        let _ = console.execute(d, l);
    }
}
