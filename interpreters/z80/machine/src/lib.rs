//! The Z80 workbench machine and the Z80 debugger core.
//!
//! - [`workbench`]: a ZX Spectrum 48K-style machine with no ROM (docs/z80-machine.md): the
//!   Spectrum's screen, keyboard half-rows and border on port FEh, a 50 or 60 Hz frame interrupt
//!   that works in IM 1 and IM 2, an NES-style controller, a debug console and an exit port.
//! - [`host`]: what the debugger needs of a machine ([`host::Z80Host`]), which the workbench and
//!   the CP/M machine implement; the probe, the stop reasons and the frame clock of a run.
//! - [`program`]: what gets loaded: bytes, entry point, symbols, source map.
//! - [`debug`]: the debugger core (breakpoints, watchpoints, stepping, reverse execution,
//!   expressions, views, `call`) and its command language.
//! - [`display`], [`keyboard`], [`ports`]: the screen, the key map and the I/O devices.
pub mod debug;
pub mod display;
pub mod host;
pub mod keyboard;
pub mod ports;
pub mod program;
pub mod workbench;

pub use host::{FrameClock, NoProbe, Probe, Stop, Z80Host};
pub use program::Program;
pub use workbench::{FrameRate, State, Workbench};
