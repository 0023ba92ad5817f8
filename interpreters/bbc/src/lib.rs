//! BBC BASIC V in the RISC OS dialect: the tokenizer and detokenizer, program files, and (to come)
//! the token-stream interpreter and the VDU system. Usable as a library without a terminal.
//!
//! - [`tokens`]: the token tables (the single source of truth for token bytes and keyword actions);
//! - [`tokenize`]: text to tokens, byte for byte as RISC OS BASIC V, plus the crunch mode;
//! - [`detokenize`]: tokens to text as LIST prints them;
//! - [`program`]: the tokenized program format, text listings, format detection, diagnostics;
//! - [`bbcwin`]: the tokenized format of BBC BASIC for Windows, SDL 2.0 and (Z80), converted;
//! - [`sniff`]: telling a BBC BASIC `.bas` file from a C64 one;
//! - [`inspect`]: the annotated byte view of `retro list --tokens`;
//! - [`interp`]: the interpreter and its VDU queue;
//! - [`machine`]: the interpreter as the machine the front end runs;
//! - [`debug`]: the debugger `retro debug` runs a program under;
//! - [`worker`]: the interpreter's own thread, which both of them run it on;
//! - [`vdu`]: the graphics VDU driver (screen modes, windows, PLOT, palette) the machine draws with.

pub mod bbcwin;
pub mod debug;
pub mod detokenize;
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
pub use program::{
    Diagnostic, DiagnosticKind, Format, Line, Program, ProgramError, ReadError, SaveFormat, detect, list,
    read_program, render_bad_program, render_diagnostics, tokenize_program,
};
pub use tokenize::{MAX_BODY_LEN, Mode, tokenize_eval, tokenize_line};
