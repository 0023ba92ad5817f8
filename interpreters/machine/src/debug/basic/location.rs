//! Where a breakpoint or `until` goes: `LINE`, `LINE:STATEMENT` (statements counted from 1, as
//! the debuggers' reports count them) or a place the dialect names (BBC BASIC's `PROCname`).

/// What a dialect knows of its program's places.
pub trait Locate {
    /// The highest line number the dialect has (a larger one is not a line at all).
    const MAX_LINE: u32;
    /// The forms a location may take, for the error that refuses one: "a LINE or
    /// LINE:STATEMENT".
    const FORMS: &'static str;

    /// Statement `st` (from 1) of line `line`: its position, or the dialect's words why there
    /// is none.
    fn statement_at(&self, line: u32, st: usize) -> Result<usize, String>;

    /// A place by a name the dialect gives it (its position and its name as reports show it):
    /// None when `loc` is not such a name.
    fn named_place(&self, _loc: &str) -> Option<Result<(usize, String), String>> {
        None
    }
}

/// A location's statement position and its name in reports (`LINE:STATEMENT`).
pub fn resolve<L: Locate + ?Sized>(program: &L, loc: &str) -> Result<(usize, String), String> {
    let loc = loc.trim();
    if let Some(place) = program.named_place(loc) {
        return place;
    }
    let (line, st) = match loc.split_once(':') {
        Some((l, s)) => (
            l,
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{s}` is not a statement number"))?,
        ),
        None => (loc, 1),
    };
    let line = line
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= L::MAX_LINE)
        .ok_or_else(|| format!("`{loc}` is not {}", L::FORMS))?;
    let addr = program.statement_at(line, st)?;
    Ok((addr, format!("{line}:{st}")))
}
