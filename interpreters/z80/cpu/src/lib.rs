//! A Z80 CPU core with no dependencies. The CPU knows nothing of terminals or machines: it talks to
//! the world through the [`Bus`] trait. The machines built on it live in their own crates
//! (`retro-z80-cpm`, `retro-z80-machine`), and so do the conformance runners
//! (`retro-z80-conformance`).
//!
//! - [`Cpu`]: every documented and undocumented instruction, exact flags (bits 3 and 5 included),
//!   MEMPTR, the Q latch, R, IFF1/IFF2 and the EI delay, IM 0/1/2, NMI, HALT and exact T-states.

mod bus;
mod cpu;
mod exec;
pub mod flags;

pub use bus::{Bus, FlatBus};
pub use cpu::{Cpu, Registers};
