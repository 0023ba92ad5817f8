//! Links the `retro` binary as a fixed-address (non-PIE), statically linked executable on
//! Linux with glibc, where the static C libraries are installed.
//!
//! Start-up is most of a short run, and most of start-up was the loader. A position-independent
//! executable has the dynamic loader patch every absolute pointer in its read-only data (about
//! 9,500 relocations for `retro`, 150 KB of pages copied on write) before `main`; fixed at link
//! time, those pages stay shared file pages. Linked dynamically, the loader then maps three
//! libraries (`libgcc_s`, `libm`, `libc`), resolves their symbols, and `libgcc_s` probes the CPU
//! (`cpuid`, which traps to the hypervisor on a virtual machine). Linked statically there is no
//! loader at all: the kernel maps one file and jumps to it (docs/bbc-basic.md, "Performance").
//!
//! Only the link of the binaries changes (`rustc-link-arg-bins`): the libraries, tests and
//! proc-macros are built as before (the workspace cannot set `+crt-static`, which proc-macros
//! refuse). rustc names the C libraries with `-l` and asks for them dynamically (`-Bdynamic`),
//! so the binaries get a directory, searched before the system's, in which each of those names
//! is the static archive: `libgcc_s` is `libgcc_eh` (the unwinder: panics and `catch_unwind`
//! work as before), the others are glibc's own `.a` files. Where any of them is missing the
//! binary is linked dynamically, as before.
use std::path::{Path, PathBuf};

/// The libraries rustc links a Rust program on `x86_64-unknown-linux-gnu` against, and the
/// static archive that stands for each.
const STATIC_LIBS: [(&str, &str); 7] = [
    ("gcc_s", "libgcc_eh.a"),
    ("util", "libutil.a"),
    ("rt", "librt.a"),
    ("pthread", "libpthread.a"),
    ("m", "libm.a"),
    ("dl", "libdl.a"),
    ("c", "libc.a"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CC");
    println!("cargo::rerun-if-env-changed=RETRO_DYNAMIC");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    println!("cargo::rustc-link-arg-bins=-no-pie");
    let gnu = std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    // RETRO_DYNAMIC=1 asks for the dynamic link (to compare the two).
    if !gnu || std::env::var_os("RETRO_DYNAMIC").is_some() {
        return;
    }
    let Some(out) = std::env::var_os("OUT_DIR").map(|d| PathBuf::from(d).join("static-libs")) else {
        return;
    };
    if let Some(dir) = static_dir(&out) {
        println!("cargo::rustc-link-arg-bins=-L{}", dir.display());
        println!("cargo::rustc-link-arg-bins=-static");
    }
}

/// `dir`, filled with a link to the static archive for each of `STATIC_LIBS`; `None` (and a
/// dynamic link) when any archive is not installed.
fn static_dir(dir: &Path) -> Option<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).ok()?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    for (name, archive) in STATIC_LIBS {
        // The C compiler knows where its own and the C library's archives are.
        let out = std::process::Command::new(&cc)
            .arg(format!("-print-file-name={archive}"))
            .output()
            .ok()?;
        let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        // Unknown, it prints the bare name back.
        if !path.is_absolute() || !path.is_file() {
            return None;
        }
        link(&path, &dir.join(format!("lib{name}.a")))?;
    }
    Some(dir.to_path_buf())
}

#[cfg(unix)]
fn link(archive: &Path, name: &Path) -> Option<()> {
    std::os::unix::fs::symlink(archive, name).ok()
}

/// Building on another system for Linux: copied, not linked.
#[cfg(not(unix))]
fn link(archive: &Path, name: &Path) -> Option<()> {
    std::fs::copy(archive, name).ok().map(|_| ())
}
