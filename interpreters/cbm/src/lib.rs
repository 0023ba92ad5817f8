//! Commodore 64 BASIC V2, as the ROM runs it: the tokenizer and .prg files, the 5-byte Microsoft
//! floats with the ROM's exact arithmetic, and the interpreter over an emulated 64 KiB memory.
//! Usable without a terminal: the interpreter reads keys from a queue and draws into a `Frame`.
//!
//! - [`tokens`], [`tokenize`]: the keyword table and typed text to tokens, as the ROM crunches it;
//! - [`program`]: the in-memory program and .prg files; [`list`]: LIST; [`petcat`]: text listings
//!   with petcat's `{names}` for PETSCII; [`sniff`]: telling a C64 `.bas` file from a BBC one;
//!   [`inspect`]: the annotated byte view of `retro list --tokens`;
//! - [`float`]: the 5-byte floats and the ROM's arithmetic;
//! - [`interp`]: the interpreter; [`c64`]: the screen editor, keyboard and VIC-II picture around it;
//! - [`machine`]: the C64 the front end runs; [`debug`]: its debugger.

pub mod c64;
pub mod debug;
pub mod float;
pub mod inspect;
pub mod interp;
pub mod list;
pub mod machine;
pub mod petcat;
pub mod program;
pub mod sniff;
pub mod tokenize;
pub mod tokens;

pub use petcat::Charset;
pub use program::{Line, Program, ProgramError};
