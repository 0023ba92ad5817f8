//! Links the `retro` binary as a fixed-address (non-PIE) executable on Linux.
//!
//! A position-independent executable has the dynamic loader patch every absolute pointer in its
//! read-only data (about 9,500 relocations for `retro`, 150 KB of pages copied on write) before
//! `main`: that was a quarter of the start-up of a headless run of an empty program. Fixed at
//! link time, those pages stay shared file pages and are read only when used. Only the link of
//! the binaries changes: the libraries and tests are built as before.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
