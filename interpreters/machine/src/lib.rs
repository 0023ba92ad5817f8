//! The machine contract of the retro workbench.
//!
//! A machine ([`machine::Machine`]) advances on a virtual clock ([`clock`]), reads keys carrying
//! virtual timestamps ([`keys`]) scripted by the key-script language ([`script`]) or an input movie
//! ([`movie`]), and draws a [`retro_screen::Frame`]. The debugger's command language, shell and
//! history live in [`debug`]; every machine's debugger speaks it, and a BASIC debugger is run as
//! a machine through [`basic_machine`]. Files come in through a bounded
//! reader ([`infile`]) and go out through atomic writes ([`outfile`]); what outlives a run is kept
//! in the user's data directory ([`datadir`]).
//!
//! Nothing here knows a terminal: the `retro` binary renders frames and feeds keys.

pub mod basic_machine;
pub mod clock;
pub mod datadir;
pub mod debug;
#[cfg(feature = "bench")]
pub mod debug_bench;
pub mod infile;
pub mod keys;
pub mod machine;
pub mod movie;
pub mod outfile;
pub mod script;

pub use clock::{VirtualClock, VirtualTime};
pub use keys::{HeldKeys, HoldMode, Key, KeyEvent, KeyEventKind};
