//! Benchmark-only crate (see `benches/zexdoc.rs`).
