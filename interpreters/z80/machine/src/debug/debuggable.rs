//! The Z80 debugger as a [`Debuggable`] machine: what `retro debug`'s shared front ends (the
//! command language, the terminal panels) call. A step is one CPU step; locations are addresses,
//! labels and `file:line`.

use retro_machine::debug::{
    BreakpointInfo, Debuggable, Here, Panel, PanelKind, PanelLine, RunLimit, StepKind, StopReason,
};
use retro_machine::machine::{Machine, RunState};
use retro_machine::{HeldKeys, Key, KeyEvent, KeyEventKind, VirtualTime};
use retro_screen::Frame;

use super::breakpoints::{Access, Kind, WatchHit};
use super::commands::{self, value_text};
use super::views::{self, MachineEnv};
use super::{Event, Motion, Z80Debugger, expr};
use crate::host::Z80Host;

impl<M: Z80Host> Z80Debugger<M> {
    /// What a watchpoint hit touched, as the stop report says it.
    pub fn describe_hit(&self, hit: &WatchHit) -> String {
        if hit.io {
            format!(
                "{} port ${:04X}",
                if hit.write { "OUT to" } else { "IN from" },
                hit.addr
            )
        } else if hit.write {
            // gdb gives the old and the new value; a grid's byte is named by its cell.
            let was = self.watch_old.map(|b| format!(" (was {b})")).unwrap_or_default();
            format!(
                "write ${:04X} ({}) = {}{was}",
                hit.addr,
                views::cell_or_label(self, hit.addr),
                hit.value
            )
        } else {
            format!(
                "read ${:04X} ({})",
                hit.addr,
                views::cell_or_label(self, hit.addr)
            )
        }
    }

    /// The shared front ends' name for a debugger event.
    pub fn stop_reason(&self, ev: Event) -> StopReason {
        match ev {
            Event::Done => StopReason::Done,
            Event::Breakpoint(ids) => StopReason::Breakpoint(ids),
            Event::Watchpoint(ids, hit) => StopReason::Watchpoint(ids, self.describe_hit(&hit)),
            Event::Exited(s) => StopReason::Exited(s),
            Event::Budget => StopReason::Limit,
            Event::HistoryStart => StopReason::HistoryStart,
        }
    }

    /// After a step or run: if a `call` stopped inside its routine has returned, completes it
    /// and queues its report as output (shown before the stop report).
    pub(super) fn complete_call(&mut self, ev: Event) -> StopReason {
        if let Some((routine, saved, r)) = self.take_returned_call() {
            let text = match r {
                Ok(r) => commands::call_report(self, &routine, &saved, &r),
                Err(e) => format!("{e}\n"),
            };
            self.call_output.push_str(&text);
            return StopReason::Done;
        }
        self.stop_reason(ev)
    }

    /// The code panel's lines from a view's text (`=>` marks the PC, `*` a breakpoint).
    fn marked_lines(text: &str, rows: usize) -> Vec<PanelLine> {
        text.lines()
            .take(rows)
            .map(|l| PanelLine {
                current: l.starts_with("=>"),
                breakpoint: l.get(2..3) == Some("*"),
                changed: false,
                text: l.to_string(),
            })
            .collect()
    }

    /// Where the disassembly panel starts: a few instructions before the PC when the source map
    /// says where they begin (disassembling backwards is ambiguous on the Z80), else the PC.
    fn disassembly_start(&self, pc: u16, before: usize) -> u16 {
        let mut starts: Vec<u16> = self
            .program
            .source_map
            .entries
            .iter()
            .filter(|(a, len, _, _)| *len > 0 && *a < pc && pc - *a < 64)
            .map(|e| e.0)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        starts
            .iter()
            .rev()
            .nth(before.saturating_sub(1))
            .or(starts.first())
            .copied()
            .unwrap_or(pc)
    }
}

/// The largest count `reverse-next` takes.
const MAX_REVERSE_NEXT: u64 = 100;

impl<M: Z80Host> Debuggable for Z80Debugger<M> {
    fn prompt(&self) -> &str {
        "z80"
    }

    fn step(&mut self, kind: StepKind, limit: RunLimit) -> StopReason {
        self.resuming = false;
        self.under_way = None;
        let ev = match kind {
            StepKind::Into => self.stepi(),
            StepKind::Over => match self.next_motion() {
                Some(m) => self.drive_within(m, limit),
                None => self.stepi(),
            },
            StepKind::Out => {
                let sp0 = self.machine.cpu().sp();
                self.drive_within(Motion::Finish { sp0 }, limit)
            }
        };
        self.complete_call(ev)
    }

    fn can_finish(&self) -> Result<(), String> {
        self.finish_start().map(|_| ())
    }

    fn run(&mut self, limit: RunLimit) -> StopReason {
        let ev = self.drive_within(Motion::Continue, limit);
        // A run its limit stopped goes on with the next `run` (a breakpoint here not yet reported).
        self.resuming = ev == Event::Budget;
        self.complete_call(ev)
    }

    fn run_to(&mut self, location: &str, limit: RunLimit) -> Result<StopReason, String> {
        self.resuming = false;
        let line = self.source_line_location(location);
        let addr = self.location(line.as_deref().unwrap_or(location))?;
        let ev = self.drive_within(Motion::Until { addr }, limit);
        Ok(self.complete_call(ev))
    }

    fn under_way(&self) -> bool {
        self.is_under_way()
    }

    fn resume(&mut self) -> StopReason {
        let ev = self.go_on();
        self.complete_call(ev)
    }

    fn interrupt(&mut self) {
        self.stop_under_way();
    }

    fn user_key(&mut self, key: Key, kind: KeyEventKind) {
        Self::user_key(self, key, kind);
    }

    fn restart(&mut self) {
        self.resuming = false;
        self.under_way = None;
        Self::restart(self);
    }

    fn reverse_step(&mut self, count: u64) -> Result<StopReason, String> {
        self.resuming = false;
        self.under_way = None;
        let ev = Self::reverse_step(self, count);
        Ok(self.stop_reason(ev))
    }

    fn reverse(&mut self, kind: StepKind, count: u64) -> Result<StopReason, String> {
        self.resuming = false;
        self.under_way = None;
        let ev = match kind {
            StepKind::Into => Self::reverse_step(self, count),
            StepKind::Over => {
                // Each goes back by a replay of at least one history segment.
                if count > MAX_REVERSE_NEXT {
                    return Err(format!(
                        "reverse-next goes back at most {MAX_REVERSE_NEXT} at a time"
                    ));
                }
                let mut ev = Event::Done;
                for _ in 0..count {
                    ev = self.reverse_next();
                    if ev != Event::Done {
                        break;
                    }
                }
                ev
            }
            StepKind::Out => self.reverse_finish()?,
        };
        Ok(self.stop_reason(ev))
    }

    fn reverse_continue(&mut self, limit: RunLimit) -> Result<StopReason, String> {
        self.resuming = false;
        let search = self.reverse_search_from_here();
        let ev = self.drive_within(Motion::ReverseContinue(search), limit);
        Ok(self.stop_reason(ev))
    }

    fn break_at(
        &mut self,
        location: &str,
        condition: Option<&str>,
        temporary: bool,
    ) -> Result<(u32, String), String> {
        let (line, note) = match self.source_line_location(location) {
            Some(l) => {
                let note = format!(
                    " (`{}` is a line of the source: $ or 0x for an address)",
                    location.trim()
                );
                (l, note)
            }
            None => (location.to_string(), String::new()),
        };
        let id = Self::break_at(self, &line, condition, temporary)?;
        let addr = self.location(&line)?;
        Ok((id, format!("{}{note}", views::describe(self, addr))))
    }

    fn delete_breakpoint(&mut self, id: Option<u32>) -> bool {
        self.breakpoints.delete(id)
    }

    fn enable_breakpoint(&mut self, id: Option<u32>, enabled: bool) -> bool {
        self.breakpoints.set_enabled(id, enabled)
    }

    fn breakpoints(&self) -> Vec<BreakpointInfo> {
        let access_word = |a: Access| match a {
            Access::Write => "watchpoint",
            Access::Read => "read watchpoint",
            Access::Both => "acc watchpoint",
        };
        self.breakpoints
            .list()
            .iter()
            .map(|b| {
                let (kind, what) = match &b.kind {
                    Kind::Exec(a) => (
                        if b.temporary { "tbreakpoint" } else { "breakpoint" },
                        format!("{} {}", b.location, views::describe(self, *a)),
                    ),
                    Kind::Memory { access, .. } | Kind::Port { access, .. } => {
                        (access_word(*access), b.location.clone())
                    }
                };
                BreakpointInfo {
                    id: b.id,
                    kind: kind.to_string(),
                    enabled: b.enabled,
                    hits: b.hits,
                    what,
                    condition: b.condition.as_ref().map(|c| c.0.clone()),
                }
            })
            .collect()
    }

    fn set_condition(&mut self, id: u32, condition: Option<&str>) -> Result<(), String> {
        let parsed = match condition {
            Some(c) => Some((c.trim().to_string(), expr::parse(c).map_err(|e| e.to_string())?)),
            None => None,
        };
        let b = self
            .breakpoints
            .get_mut(id)
            .ok_or_else(|| format!("no breakpoint number {id}"))?;
        b.condition = parsed;
        Ok(())
    }

    fn set_ignore(&mut self, id: u32, count: u64) -> Result<(), String> {
        let b = self
            .breakpoints
            .get_mut(id)
            .ok_or_else(|| format!("no breakpoint number {id}"))?;
        b.ignore = count;
        Ok(())
    }

    fn breakpoints_here(&self) -> Vec<u32> {
        self.breakpoints
            .exec_at(self.machine.cpu().pc())
            .map(|b| b.id)
            .collect()
    }

    fn here(&self) -> Here {
        let pc = self.machine.cpu().pc();
        let (text, _) = views::instruction(self, pc);
        let mut next = format!("{text}\n");
        if let Some((f, l)) = views::source_of(self, pc)
            && let Some(src) = self.program.source_line(&f, l)
        {
            next.push_str(&format!("{l:>6}  {}\n", src.trim_end()));
        }
        Here {
            describe: views::describe(self, pc),
            location: format!("${pc:04X}"),
            next,
        }
    }

    fn evaluate(&self, e: &str) -> Result<String, String> {
        expr::eval_str(e, &MachineEnv::new(self))
            .map(value_text)
            .map_err(|err| err.to_string())
    }

    fn display(&self, format: &str, e: &str) -> Option<Result<String, String>> {
        Some(commands::show(self, format, e))
    }

    fn check_expression(&self, e: &str) -> Result<(), String> {
        expr::parse(e).map(|_| ()).map_err(|err| err.to_string())
    }

    fn panel(&self, kind: PanelKind, rows: usize) -> Option<Panel> {
        let pc = self.machine.cpu().pc();
        let rows32 = rows as u32;
        Some(match kind {
            PanelKind::Source => {
                let text = views::source_around(self, pc, rows32 / 3, rows32)?;
                let title = views::source_of(self, pc)
                    .and_then(|(f, _)| f.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_default();
                Panel {
                    title,
                    lines: Self::marked_lines(&text, rows),
                }
            }
            PanelKind::Disassembly => {
                let start = self.disassembly_start(pc, rows / 4);
                // Labels take lines of their own: ask for enough instructions to fill the panel.
                let text = views::disassemble(self, start, rows);
                Panel {
                    title: "disassembly".into(),
                    lines: Self::marked_lines(&text, rows),
                }
            }
            PanelKind::Registers => {
                let text = views::registers(
                    &self.machine.cpu().registers(),
                    &self.previous,
                    self.machine.cpu().tstates(),
                );
                Panel {
                    title: "registers".into(),
                    lines: text
                        .lines()
                        .map(|l| PanelLine {
                            changed: l.contains('*'),
                            ..PanelLine::plain(l)
                        })
                        .collect(),
                }
            }
            PanelKind::Stack => Panel {
                title: "stack".into(),
                lines: views::stack(self, rows).lines().map(PanelLine::plain).collect(),
            },
            PanelKind::Memory => {
                let at = self.memory_at.unwrap_or(self.machine.cpu().hl());
                Panel {
                    title: format!("memory {}", views::label_offset(self, at)),
                    lines: views::memory_rows(self, at, rows)
                        .lines()
                        .map(PanelLine::plain)
                        .collect(),
                }
            }
        })
    }

    fn frame_rate(&self) -> u32 {
        self.machine.frame_hz()
    }

    fn screen(&self) -> Frame {
        self.machine.frame()
    }

    fn screen_for(&self, cols: u16, rows: u16) -> Frame {
        self.machine.frame_for(cols, rows)
    }

    fn take_output(&mut self, out: &mut String) {
        out.push_str(&std::mem::take(&mut self.call_output));
        self.machine.drain_text(out);
    }

    fn command(&mut self, line: &str, limit: RunLimit) -> Option<Result<String, String>> {
        self.resuming = false;
        commands::machine_command(self, line, limit)
    }

    fn help(&self) -> &str {
        commands::HELP
    }

    fn completion_names(&self) -> Vec<String> {
        // Labels and EQUs, then the declared structures and grids `print` shows by name.
        let mut names: Vec<String> = self
            .program
            .symbols
            .iter()
            .map(|(n, _, _)| n.to_string())
            .collect();
        names.extend(self.structs.declared.iter().cloned());
        names
    }

    fn before_command(&mut self) {
        self.before_command = Some(self.machine.cpu().registers());
    }

    fn after_command(&mut self) {
        // Registers the command moved are marked against where they were before it.
        if let Some(before) = self.before_command.take()
            && self.machine.cpu().registers() != before
        {
            self.mark_stop(before);
        }
    }
}

/// The debugger is also a plain machine (it runs through breakpoints then), so `retro debug`
/// reaches it as any machine's debugging capability: [`Machine::as_debuggable`].
impl<M: Z80Host> Machine for Z80Debugger<M> {
    fn name(&self) -> &str {
        self.machine.name()
    }
    fn frame_hz(&self) -> u32 {
        self.machine.frame_hz()
    }
    fn key(&mut self, _event: KeyEvent) {}
    fn run_frame(&mut self, now: VirtualTime, held: &HeldKeys) -> RunState {
        if self.keys.events.is_empty() {
            // The keys held now, as presses at this instant.
            let presses: Vec<KeyEvent> = held
                .held(now)
                .into_iter()
                .map(|k| KeyEvent::press(now, k))
                .collect();
            let events: Vec<&KeyEvent> = presses.iter().collect();
            self.machine.feed_keys(&events, now);
        }
        self.frame_limit = true;
        let (_, stop) = self.advance(u64::MAX, false, |_| false);
        self.frame_limit = false;
        match stop {
            crate::host::Stop::Exit(_) => RunState::Ended,
            _ => RunState::Running,
        }
    }
    fn frame(&self) -> Frame {
        self.machine.frame()
    }
    fn frame_for(&self, cols: u16, rows: u16) -> Frame {
        self.machine.frame_for(cols, rows)
    }
    fn drain_text(&mut self, out: &mut String) {
        self.take_output(out);
    }
    fn as_debuggable(&mut self) -> Option<&mut dyn Debuggable> {
        Some(self)
    }
}
