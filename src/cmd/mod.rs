//! One module per subcommand. Each exposes its entry point returning the process exit status
//! (docs/cli.md: 0 ended normally, 1 the program stopped with an error, 2 bad usage or file).
//! What differs between machines is not here but in the machine table, `crate::machines`.

pub mod applies;
pub mod asm;
pub mod conformance;
pub mod debug;
pub mod run;
pub mod testcard;
pub mod tok;
pub mod tpa;
