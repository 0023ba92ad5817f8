//! An AI that plays the Z80 NES Tetris (programs/tetris, issue #30) through the controller, as the
//! meatfighter article's bot plays Nintendo Tetris through FCEUX: each frame it reads the game's
//! state from the machine's memory (at the addresses of the program's own labels) and sets the
//! buttons; it never writes the game's memory and never skips a frame (docs/tetris-ai.md).
//!
//! - [`rules`], [`motion`]: the NES rules it plans with (checked against the meta_nestris oracle);
//! - [`search`]: every lock the input timeline reaches, frame by frame;
//! - [`eval`], [`plan`]: the evaluation and the two-piece decision;
//! - [`explain`]: the decision taken apart, as the debugger's `info ai` shows it;
//! - [`player`]: the controller, from the title screen to the top-out;
//! - [`sim`]: whole games on the rules model alone, for the tuner (`examples/tune.rs`).

pub mod eval;
pub mod explain;
pub mod motion;
pub mod plan;
pub mod player;
pub mod rules;
pub mod search;
pub mod sim;
