//! One module per subcommand. Each exposes its clap argument struct and an entry point returning
//! the process exit status (DESIGN.md: 0 ended normally, 1 the program stopped with an error, 2 bad
//! usage or file).

pub mod applies;
pub mod asm;
pub mod bbc;
pub mod bbcdebug;
pub mod cbm;
pub mod cbmdebug;
pub mod conformance;
pub mod cpm;
pub mod cpm_debug;
pub mod debug;
pub mod run;
pub mod session;
pub mod testcard;
pub mod tok;
pub mod tpa;
pub mod z80;
pub mod z80_ai;
pub mod z80_movie;
