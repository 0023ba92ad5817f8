//! A Z80 CPU core and the machines built on it. The CPU knows nothing of terminals or machines: it
//! talks to the world through the [`Bus`] trait.
//!
//! - [`Cpu`]: every documented and undocumented instruction, exact flags (bits 3 and 5 included),
//!   MEMPTR, the Q latch, R, IFF1/IFF2 and the EI delay, IM 0/1/2, NMI, HALT and exact T-states.
//! - [`cpm`]: a CP/M machine that runs .COM programs with BDOS console calls.
//! - [`conformance`]: runners for the Fuse tests, SingleStepTests and ZEXDOC/ZEXALL.

mod bus;
mod cpu;
mod exec;
pub mod flags;

pub use bus::{Bus, FlatBus};
pub use cpu::{Cpu, Registers};
pub mod conformance;
pub mod cpm;
