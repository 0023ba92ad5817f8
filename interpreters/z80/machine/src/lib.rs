//! The Z80 workbench machine and the Z80 debugger core.
//!
//! - [`workbench`]: a ZX Spectrum 48K-style machine with no ROM (docs/z80-machine.md): the
//!   Spectrum's screen, keyboard half-rows and border on port FEh, a 50 or 60 Hz frame interrupt
//!   that works in IM 1 and IM 2, an NES-style controller, a debug console and an exit port.
//! - [`program`]: what gets loaded: bytes, entry point, symbols, source map.
//! - [`debug`]: the debugger core (breakpoints, watchpoints, stepping, reverse execution,
//!   expressions, views, `call`) and its command language.
//! - [`display`], [`keyboard`], [`ports`]: the screen, the key map and the I/O devices.
pub mod debug;
pub mod display;
pub mod keyboard;
pub mod ports;
pub mod program;
pub mod workbench;

pub use program::Program;
pub use workbench::{FrameRate, NoProbe, Probe, State, Stop, Workbench};
