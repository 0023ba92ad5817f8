//! Error reports for the retro workbench that are safe to print whatever the input.
//!
//! Every parser and loader reports mistakes with a source excerpt and a caret. The input can be
//! anything (a binary file given to `retro list`, a 200 KB line, 40,000 mistakes), so rendering
//! here keeps three promises:
//!
//! - **Control bytes never reach the terminal raw** ([`escape`](mod@escape)): ESC, BEL, CR, DEL,
//!   the C1 codes and the bidirectional overrides show as `\x1b`, `\u{202e}` ..., in messages,
//!   labels, file names and excerpts alike, so an error message cannot garble the user's terminal.
//! - **Output is bounded** ([`excerpt`], [`render`](mod@render)): a long line is shown as a window
//!   of at most [`excerpt::WIDTH`] characters around the mistake, and at most [`MAX_SHOWN`]
//!   reports are shown, followed by "and N more".
//! - **Time is linear**: line lookups use one [`LineIndex`] built once per text; each report
//!   costs time proportional to what it shows, not to the file.
//!
//! The look follows rustc and ariadne (`error: ...`, `--> file:line:col`, a numbered line and a
//! caret underline, `= help: ...`), with ANSI colour when asked for.

pub mod escape;
pub mod excerpt;
pub mod lines;
pub mod render;

pub use escape::escape;
pub use excerpt::Excerpt;
pub use lines::LineIndex;
pub use render::{MAX_SHOWN, Report, grouped, render, summary};
