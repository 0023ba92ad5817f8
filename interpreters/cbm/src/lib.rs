//! Commodore 64 BASIC V2, as the ROM runs it: the tokenizer and .prg files, the 5-byte Microsoft
//! floats with the ROM's exact arithmetic, and the interpreter over an emulated 64 KiB memory.
//! Usable without a terminal: the interpreter reads keys from a queue and draws into a `Frame`.

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
