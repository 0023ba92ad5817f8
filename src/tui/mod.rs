//! The terminal front end: the only part of retro that knows about crossterm. It draws a machine's
//! [`Frame`](retro_screen::Frame) with ratatui, feeds it keys with virtual timestamps, paces frames
//! to the wall clock without busy-waiting, and always gives the terminal back as it found it.

pub mod app;
pub mod debugger;
pub mod fit;
pub mod input;
pub mod line;
pub mod sgr;
pub mod speed;
pub mod terminal;
pub mod view;

pub use app::{Finished, InteractiveOptions, run_interactive};
