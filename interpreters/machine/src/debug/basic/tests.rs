//! The kit on a toy dialect: a program is lines of statements, a statement's position is
//! `line * 10 + statement`, and `PROCname` names line 100's first statement.

use super::changes::Changes;
use super::history::{Checkpoint, History};
use super::location::{Locate, resolve};
use super::points::{Points, watch_set_words};
use super::runlimit::{budget, goes_on};
use crate::debug::{RunLimit, StopReason};

/// Lines 10, 20 and 100, of 2, 1 and 3 statements.
struct Toy;

impl Locate for Toy {
    const MAX_LINE: u32 = 255;
    const FORMS: &'static str = "a LINE, LINE:STATEMENT or PROCname";

    fn statement_at(&self, line: u32, st: usize) -> Result<usize, String> {
        let count = match line {
            10 => 2,
            20 => 1,
            100 => 3,
            _ => return Err(format!("no line {line}")),
        };
        if st == 0 || st > count {
            return Err(format!("line {line} has {count} statement(s)"));
        }
        Ok(line as usize * 10 + st)
    }

    fn named_place(&self, loc: &str) -> Option<Result<(usize, String), String>> {
        let name = loc.strip_prefix("PROC")?;
        Some(if name == "go" {
            Ok((1001, loc.to_string()))
        } else {
            Err(format!("No such {loc}"))
        })
    }
}

#[test]
fn locations_resolve_to_statements_and_say_why_not() {
    assert_eq!(resolve(&Toy, " 10 "), Ok((101, "10:1".into())));
    assert_eq!(resolve(&Toy, "100:3"), Ok((1003, "100:3".into())));
    assert_eq!(resolve(&Toy, "PROCgo"), Ok((1001, "PROCgo".into())));
    assert_eq!(resolve(&Toy, "PROCno"), Err("No such PROCno".into()));
    assert_eq!(resolve(&Toy, "10:x"), Err("`x` is not a statement number".into()));
    assert_eq!(resolve(&Toy, "10:3"), Err("line 10 has 2 statement(s)".into()));
    assert_eq!(resolve(&Toy, "30"), Err("no line 30".into()));
    // Above the dialect's highest line number it is not a line at all.
    assert_eq!(
        resolve(&Toy, "256"),
        Err("`256` is not a LINE, LINE:STATEMENT or PROCname".into())
    );
    assert_eq!(
        resolve(&Toy, "ten"),
        Err("`ten` is not a LINE, LINE:STATEMENT or PROCname".into())
    );
}

#[test]
fn points_are_numbered_together_and_until_points_are_never_listed() {
    let mut p: Points<(), ()> = Points::default();
    assert_eq!(p.add_break(101, "10:1".into(), None, false), 1);
    assert_eq!(p.add_watch("X".into(), (), None), 2);
    p.add_until(201, "20:1".into());
    assert_eq!(p.add_break(201, "20:1".into(), Some(("X>1".into(), ())), true), 3);
    assert_eq!(p.ids_at(201), vec![3]);
    let info = p.info(|b| format!("@{}", b.addr));
    let rows: Vec<String> = info
        .iter()
        .map(|i| format!("{} {} {} {:?}", i.id, i.kind, i.what, i.condition))
        .collect();
    assert_eq!(
        rows,
        [
            "1 breakpoint 10:1 @101 None",
            "2 watchpoint X None",
            "3 tbreakpoint 20:1 @201 Some(\"X>1\")"
        ]
    );
    // `delete`, `disable` and counting hits never reach number 0.
    assert!(p.enable(None, false));
    assert!(p.breaks.iter().any(|b| b.id == 0 && b.enabled));
    assert!(!p.watching());
    p.count_hits(&StopReason::Breakpoint(vec![0, 3]));
    assert_eq!(p.breaks.iter().map(|b| b.hits).collect::<Vec<_>>(), [0, 0, 1]);
    assert!(!p.delete(Some(0)));
    assert!(p.delete(Some(1)));
    assert!(!p.delete(Some(1)));
    p.forget_until();
    assert_eq!(p.breaks.iter().map(|b| b.id).collect::<Vec<_>>(), [3]);
    assert_eq!(
        watch_set_words(2, "X", None),
        "Watchpoint 2: X (now (no such variable))\n"
    );
}

#[test]
fn changes_are_made_again_at_their_statement_after_going_back() {
    let mut c: Changes<&str> = Changes::default();
    c.record(5, "a=1");
    c.record(9, "b=2");
    assert_eq!(c.next_at(), None, "made now: nothing due");
    c.rewind(0);
    assert_eq!(c.next_at(), Some(5));
    assert!(c.due(4).is_empty());
    assert_eq!(c.due(5), [&"a=1"]);
    // A run that jumped past statement 9 passes it over.
    assert!(c.due(12).is_empty());
    assert_eq!(c.at(9).collect::<Vec<_>>(), [&"b=2"]);
    // An assignment before 7 forgets the future after it.
    c.record(7, "c=3");
    c.rewind(0);
    assert_eq!(c.due(9), Vec::<&&str>::new());
    c.rewind(7);
    assert_eq!(c.due(7), [&"c=3"]);
    c.clear();
    assert!(c.is_empty());
}

#[derive(Clone, Debug, PartialEq)]
struct Point(u64, &'static str);

impl Checkpoint for Point {
    fn count(&self) -> u64 {
        self.0
    }
}

#[test]
fn history_keeps_the_newest_and_finds_the_one_before() {
    let mut h = History::new(3);
    assert_eq!(h.oldest(), None);
    assert_eq!(h.recycle(), None);
    for (n, s) in [(0, "a"), (10, "b"), (20, "c")] {
        h.push(Point(n, s));
    }
    assert_eq!(h.at_or_before(15), Some(&Point(10, "b")));
    // Full: the oldest comes back to be filled again.
    assert_eq!(h.recycle(), Some(Point(0, "a")));
    h.push(Point(30, "d"));
    h.push(Point(40, "e"));
    assert_eq!(h.oldest(), Some(20));
    // Before the oldest kept: the oldest.
    assert_eq!(h.at_or_before(5), Some(&Point(20, "c")));
    // A checkpoint at 30 again replaces the one there and forgets what came after.
    h.push(Point(30, "d2"));
    assert_eq!(h.at_or_before(100), Some(&Point(30, "d2")));
    h.forget_after(25);
    assert_eq!(h.at_or_before(100), Some(&Point(20, "c")));
    h.clear();
    assert_eq!(h.oldest(), None);
}

#[test]
fn a_history_sized_by_its_owner_takes_out_what_it_drops() {
    let mut h = History::new(usize::MAX);
    for n in [0, 10, 20, 30] {
        h.push(Point(n, "x"));
    }
    assert_eq!(h.counts_newest_first(), [30, 20, 10, 0]);
    assert!(h.has(20) && !h.has(25));
    assert_eq!(h.position_at_or_before(25), Some(2));
    assert_eq!(h.position_at_or_before(0), Some(0));
    // The owner counts what goes (the Z80 its bytes): the future, newest first...
    assert_eq!(h.take_after(10), [Point(30, "x"), Point(20, "x")]);
    assert_eq!(h.take_from(10), [Point(10, "x")]);
    // ...and the oldest, when its own limits say so.
    assert_eq!(h.pop_oldest(), Some(Point(0, "x")));
    assert!(h.is_empty());
    assert_eq!(h.position_at_or_before(5), None);
}

#[test]
fn a_frames_limit_goes_on_at_the_next_frame() {
    assert_eq!(budget(RunLimit::Steps(7)), (7, false));
    assert_eq!(budget(RunLimit::FRAMES), (u64::MAX, true));
    assert!(goes_on(&StopReason::Limit, RunLimit::FRAMES));
    assert!(!goes_on(&StopReason::Limit, RunLimit::Steps(7)));
    assert!(!goes_on(&StopReason::Done, RunLimit::FRAMES));
}

#[test]
fn print_assigns_to_a_variable_element_or_indirection_and_compares_otherwise() {
    use super::print_assignment as pa;
    assert_eq!(pa("v = 7"), Some(("v", "7")));
    assert_eq!(pa("a%=a%+1"), Some(("a%", "a%+1")));
    assert_eq!(pa("B%(2) = 9"), Some(("B%(2)", "9")));
    assert_eq!(pa("blk%?3=1"), Some(("blk%?3", "1")));
    assert_eq!(pa("!p%=5"), Some(("!p%", "5")));
    assert_eq!(pa("(v=5)"), None);
    assert_eq!(pa("v<=5"), None);
    assert_eq!(pa("v+1=5"), None);
    assert_eq!(pa("v"), None);
}
