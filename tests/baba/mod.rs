//! Shared pieces of the Baba Is You tests (tests/baba_*.rs): our Rust implementation of the level
//! codec, the level grids of programs/baba/levels.txt, the DATA strings of baba.bas, and an
//! in-process harness that runs the program on the interpreter, key by key.
#![allow(dead_code)]

pub mod codec;
pub mod harness;
pub mod levels;
