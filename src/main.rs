//! The `retro` command line (being built: see the foundation issue).
fn main() {}
