//! The [`Machine`] a BASIC debugger is to `retro debug` (beside the debugger's modules, not
//! among them: the machine contract names the debugger's, so the debugger cannot name it): each frame runs the program on (a
//! `continue` bounded by the frame), the screen is the debugged program's, and what it printed
//! is the text drained.

use crate::clock::VirtualTime;
use crate::debug::{Debuggable, RunLimit, StopReason};
use crate::keys::{HeldKeys, KeyEvent};
use crate::machine::{Machine, RunState};
use retro_screen::Frame;

/// A BASIC debugger, for the blanket [`Machine`] below.
pub trait BasicMachine: Debuggable {
    /// The machine's name, with "(debugger)".
    const NAME: &'static str;
    /// Frames of virtual time a second (the machine's interrupt rate).
    const FRAME_HZ: u32;

    /// A key the terminal sends while the program runs: the dialect decides whether the program
    /// sees it this way (or only through [`Debuggable::user_key`]).
    fn machine_key(&mut self, _event: KeyEvent) {}
}

impl<T: BasicMachine> Machine for T {
    fn name(&self) -> &str {
        T::NAME
    }
    fn frame_hz(&self) -> u32 {
        T::FRAME_HZ
    }
    fn key(&mut self, event: KeyEvent) {
        self.machine_key(event);
    }
    fn run_frame(&mut self, _now: VirtualTime, _held: &HeldKeys) -> RunState {
        match Debuggable::run(self, RunLimit::FRAMES) {
            StopReason::Exited(_) => RunState::Ended,
            StopReason::Failed(e) => RunState::Failed(e),
            _ => RunState::Running,
        }
    }
    fn frame(&self) -> Frame {
        self.screen()
    }
    fn drain_text(&mut self, out: &mut String) {
        self.take_output(out);
    }
    fn as_debuggable(&mut self) -> Option<&mut dyn Debuggable> {
        Some(self)
    }
}
