//! The scenarios every BASIC debugger passes, whatever its dialect: going back to watch and
//! breakpoint stops, a breakpoint and a watch on one statement, going back past the start. Each
//! dialect's tests run them on its own debugger, with [`WATCHED`] written in its words.
//!
//! They drive the [`Debuggable`] calls the console makes, so what they check is what every
//! dialect reports alike; how a dialect words a stop (`line 30:2 +11`, `line 30:2 $0825`) is
//! its own tests' business.

use crate::debug::{Debuggable, RunLimit, StepKind, StopReason};

/// The program the scenarios run, as text: a loop that changes `x` and `y`, then an array
/// element twice. A dialect writes it in its own words, line for line and statement for
/// statement the same.
pub const WATCHED: &str =
    "10 x=0:y=0\n20 for i=1 to 3\n30 x=x+i:y=y+1\n40 next i\n50 dim a(3):a(2)=7:a(2)=a(2)+1\n60 end\n";

/// A dialect's debugger for the scenarios.
pub struct Dialect<D> {
    /// The debugger on [`WATCHED`] in the dialect's words, stopped before its first statement.
    pub debugger: fn() -> D,
    /// How the dialect shows a watched expression typed in lower case (the C64 shows `X`).
    pub shown: fn(&str) -> String,
}

const STEPS: RunLimit = RunLimit::Steps(10_000);

impl<D: Debuggable> Dialect<D> {
    /// `watch EXPR` through the dialect's own command.
    fn watch(&self, d: &mut D, expr: &str) {
        let answer = d.command(&format!("watch {expr}"), STEPS);
        assert!(matches!(answer, Some(Ok(_))), "watch {expr}: {answer:?}");
    }

    /// The stop a watch on `expr` (number `id`) makes when its value goes from `old` to `new`.
    fn change(&self, id: u32, expr: &str, old: &str, new: &str) -> StopReason {
        let expr = (self.shown)(expr);
        StopReason::Watchpoint(vec![id], format!("{expr}\nOld value = {old}\nNew value = {new}"))
    }

    /// Runs every scenario.
    pub fn check_all(&self) {
        self.reverse_continue_goes_back_to_each_watch_stop_with_its_report();
        self.reverse_continue_takes_the_later_of_a_breakpoint_and_a_watch();
        self.a_breakpoint_and_a_watch_on_one_statement_stop_as_the_breakpoint_both_ways();
        self.reverse_step_past_the_start_says_so_once();
    }

    pub fn reverse_continue_goes_back_to_each_watch_stop_with_its_report(&self) {
        let mut d = (self.debugger)();
        self.watch(&mut d, "x");
        let created = self.change(1, "x", crate::debug::NO_VALUE, "0");
        let stops = [
            (created.clone(), "10:2"),
            (self.change(1, "x", "0", "1"), "30:2"),
            (self.change(1, "x", "1", "3"), "30:2"),
        ];
        for (stop, at) in &stops {
            assert_eq!(d.run(STEPS), *stop);
            assert_eq!(d.here().location, *at);
        }
        // Back: the same reports and places a forward run gave, then the start.
        for ((stop, at), x) in stops[..2].iter().rev().zip(["1", "0"]) {
            assert_eq!(d.reverse_continue(STEPS), Ok(stop.clone()));
            assert_eq!(d.here().location, *at);
            assert_eq!(d.evaluate("x").as_deref(), Ok(x));
        }
        assert_eq!(d.reverse_continue(STEPS), Ok(StopReason::HistoryStart));
        assert_eq!(d.here().location, "10:1");
        // Three stops forward and two back; going back's replays are not hits.
        assert_eq!(d.breakpoints()[0].hits, 5);
    }

    pub fn reverse_continue_takes_the_later_of_a_breakpoint_and_a_watch(&self) {
        let mut d = (self.debugger)();
        assert_eq!(d.break_at("40", Some("i=2"), false).map(|b| b.0), Ok(1));
        self.watch(&mut d, "a(2)");
        assert_eq!(d.run(STEPS), StopReason::Breakpoint(vec![1]));
        let created = self.change(2, "a(2)", crate::debug::NO_VALUE, "0");
        assert_eq!(d.run(STEPS), created);
        assert_eq!(d.run(STEPS), self.change(2, "a(2)", "0", "7"));
        // Back from the second change: the first, then the breakpoint (its condition held only
        // when i was 2), then the start.
        assert_eq!(d.reverse_continue(STEPS), Ok(created));
        assert_eq!(d.here().location, "50:2");
        assert_eq!(d.reverse_continue(STEPS), Ok(StopReason::Breakpoint(vec![1])));
        assert_eq!(d.here().location, "40:1");
        assert_eq!(d.evaluate("i").as_deref(), Ok("2"));
        assert_eq!(d.reverse_continue(STEPS), Ok(StopReason::HistoryStart));
    }

    pub fn a_breakpoint_and_a_watch_on_one_statement_stop_as_the_breakpoint_both_ways(&self) {
        // y changes at 30:2, so both would stop before 40:1: the breakpoint is reported going
        // forward and going back, and the change is not reported again a statement later.
        let mut d = (self.debugger)();
        assert_eq!(d.break_at("40", None, false).map(|b| b.0), Ok(1));
        self.watch(&mut d, "y");
        assert_eq!(d.run(STEPS), self.change(2, "y", crate::debug::NO_VALUE, "0"));
        assert_eq!(d.run(STEPS), StopReason::Breakpoint(vec![1]));
        assert_eq!(d.step(StepKind::Into, STEPS), StopReason::Done);
        assert_eq!(d.here().location, "30:1");
        assert_eq!(d.run(STEPS), StopReason::Breakpoint(vec![1]));
        assert_eq!(d.reverse_continue(STEPS), Ok(StopReason::Breakpoint(vec![1])));
        assert_eq!(d.here().location, "40:1");
        assert_eq!(d.evaluate("i").as_deref(), Ok("1"));
        let hits: Vec<u64> = d.breakpoints().iter().map(|b| b.hits).collect();
        assert_eq!(hits, [3, 1]);
    }

    pub fn reverse_step_past_the_start_says_so_once(&self) {
        let mut d = (self.debugger)();
        for _ in 0..2 {
            assert_eq!(d.step(StepKind::Into, STEPS), StopReason::Done);
        }
        assert_eq!(d.reverse_step(5), Ok(StopReason::HistoryStart));
        assert_eq!(d.here().location, "10:1");
        assert_eq!(d.step(StepKind::Into, STEPS), StopReason::Done);
        // Nothing of that is left for a later replay to report.
        assert_eq!(d.reverse_step(1), Ok(StopReason::Done));
        assert_eq!(d.here().location, "10:1");
    }
}

/// Asserts that a debugger's transcript holds each of `parts` (the dialects' transcript tests
/// say what a user must see this way); the whole transcript is shown when one is missing.
pub fn shows(transcript: &str, parts: &[&str]) {
    for part in parts {
        assert!(transcript.contains(part), "missing {part:?} in:\n{transcript}");
    }
}
