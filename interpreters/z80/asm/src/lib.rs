//! The Z80 instruction set as data (one typed instruction model), an assembler and a disassembler.
//!
//! - [`isa`]: [`Instruction`], [`encode`], [`decode`] (every documented and undocumented opcode).
//! - [`assemble_file`] / [`assemble_str`]: the assembler; errors come back as a [`Failure`] whose
//!   diagnostics render with ariadne.
//! - [`dis`]: the disassembler; [`output`]: Intel HEX, symbol file and source map; [`listing`]: the
//!   listing file.
pub mod asm;
pub mod diag;
pub mod dis;
pub mod expr;
pub mod isa;
pub mod lexer;
pub mod listing;
pub mod output;

pub use asm::{
    Assembly, Dialect, Failure, MAX_FILE_BYTES, Options, SourceFile, assemble_file, assemble_file_with,
    assemble_str, assemble_with, assemble_with_options, read_limited,
};
pub use diag::{DiagKind, Diagnostic};
pub use dis::{DisLine, disassemble, disassemble_one, disassemble_to_source};
pub use isa::{Instruction, decode, encode, is_canonical};
pub use listing::render_listing;
pub use output::{SourceMap, SourcePos, SymbolKind, SymbolTable, intel_hex};
