//! The shared screen model of the retro workbench.
//!
//! Every machine draws into a [`Frame`] and reads keys from an input queue; only the `retro` binary
//! knows about terminals. A frame is either a grid of character cells (C64 text screen, Z80
//! attribute cells) or a pixel buffer of logical colours (BBC MODEs), always with a [`Palette`] that
//! maps logical colours to RGB. The same frame renders headless to plain text, a colour-index grid,
//! ANSI and PNG ([`dump`]), so golden tests and pictures come from one place.
//!
//! Time is virtual ([`clock`]): machines advance by frames and key events carry virtual timestamps
//! ([`keys`]), scripted by the key-script language of [`script`].

pub mod clock;
pub mod colour;
pub mod debug;
#[cfg(feature = "bench")]
pub mod debug_bench;
pub mod dump;
pub mod font;
pub mod frame;
pub mod infile;
pub mod keys;
pub mod machine;
pub mod movie;
pub mod outfile;
pub mod palette;
pub mod script;
pub mod symbols;

pub use clock::{VirtualClock, VirtualTime};
pub use frame::{Cell, CellGrid, Cursor, Frame, PixelBuffer, Screen};
pub use keys::{HeldKeys, HoldMode, Key, KeyEvent, KeyEventKind};
pub use palette::{Palette, PaletteEntry, Rgb};
