//! BBC BASIC V in the RISC OS dialect: the tokenizer and detokenizer, program files in their three
//! formats, the interpreter that runs the token stream, the VDU system it prints through and the
//! debugger. Usable as a library without a terminal.
//!
//! - [`tokens`]: the token tables (the single source of truth for token bytes and keyword actions);
//! - [`tokenize`]: text to tokens, byte for byte as RISC OS BASIC V, plus the crunch mode;
//! - [`detokenize`]: tokens to text as LIST prints them;
//! - [`program`]: the tokenized program format, text listings and their diagnostics;
//! - [`format`](mod@format): the file formats a program comes in: detection, reading, saving;
//! - [`bbcwin`]: the tokenized format of BBC BASIC for Windows, SDL 2.0 and (Z80), converted;
//! - [`sniff`]: telling a BBC BASIC `.bas` file from a C64 one;
//! - [`inspect`]: the annotated byte view of `retro list --tokens`;
//! - [`interp`]: the interpreter;
//! - [`machine`]: the interpreter as the machine the front end runs;
//! - [`debug`]: the debugger `retro debug` runs a program under;
//! - `worker`: the interpreter's own thread, which both of them run it on;
//! - [`vdu`]: the VDU queue every printed byte goes through, and the graphics VDU driver behind it
//!   (screen modes, windows, PLOT, palette) the machine draws with.

pub mod bbcwin;
pub mod debug;
pub mod detokenize;
pub mod format;
pub mod inspect;
pub mod interp;
pub mod machine;
pub mod program;
pub mod sniff;
pub mod tokenize;
pub mod tokens;
pub mod vdu;
mod worker;

pub use detokenize::{detokenize_line, list_line};
pub use format::{Format, ReadError, SaveFormat, detect, read_program};
pub use program::{
    Diagnostic, DiagnosticKind, Line, Program, ProgramError, list, render_bad_program, render_diagnostics,
    tokenize_program,
};
pub use tokenize::{MAX_BODY_LEN, Mode, tokenize_eval, tokenize_line};
