//! The shared screen model of the retro workbench.
//!
//! Every machine draws into a [`Frame`]; only the `retro` binary knows about terminals. A frame is
//! either a grid of character cells (C64 text screen, Z80 attribute cells) or a pixel buffer of
//! logical colours (BBC MODEs), always with a [`Palette`] that maps logical colours to RGB. The
//! same frame renders headless to plain text, a colour-index grid, ANSI and PNG ([`dump`]), so
//! golden tests and pictures come from one place.
//!
//! What a machine *is* (the `Machine` contract, its virtual clock, keys, scripts, movies and the
//! debugger's shell) lives in `retro-machine`, which builds on this crate.

pub mod colour;
pub mod dump;
pub mod font;
pub mod frame;
pub mod palette;
pub mod symbols;

pub use frame::{Cell, CellGrid, Cursor, Frame, PixelBuffer, Screen};
pub use palette::{Palette, PaletteEntry, Rgb};
