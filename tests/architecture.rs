//! ARCHITECTURE.md is checked against the code (issue 25): every file or directory it cites in
//! backticks exists, and every `path::to::Name` it cites names something defined in the workspace
//! (a `fn`, `struct`, `trait`, `enum`, `mod`, `type`, `static` or `const` of that name, its modules
//! too). A rename that leaves the map behind fails here.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The backticked spans of `text`, outside fenced code blocks (their code is a sketch).
fn spans(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        out.extend(parts.iter().skip(1).step_by(2).map(|s| s.to_string()));
    }
    out
}

/// Every .rs file of the workspace (not the build's).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The names the workspace defines, and its module names (from `mod x` and from file names).
fn definitions() -> (HashSet<String>, HashSet<String>) {
    let mut files = Vec::new();
    rust_files(root(), &mut files);
    let mut items = HashSet::new();
    let mut modules = HashSet::new();
    let kinds = ["fn", "struct", "trait", "enum", "mod", "type", "static", "const"];
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        modules.insert(if stem == "mod" || stem == "lib" {
            file.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string()
        } else {
            stem
        });
        let text = std::fs::read_to_string(&file).unwrap();
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            if kinds.contains(&pair[0]) {
                items.insert(pair[1].to_string());
                if pair[0] == "mod" {
                    modules.insert(pair[1].to_string());
                }
            }
        }
    }
    (items, modules)
}

fn is_identifier_path(s: &str) -> bool {
    s.contains("::")
        && s.split("::")
            .all(|seg| !seg.is_empty() && seg.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

fn is_file_path(s: &str) -> bool {
    s.contains('/') && !s.contains(' ') && !s.contains("::") && !s.starts_with('-') && !s.contains("://")
}

#[test]
fn every_file_and_name_architecture_md_cites_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let (items, modules) = definitions();
    let mut files = 0;
    let mut names = 0;
    let mut missing = Vec::new();
    for span in spans(&text) {
        if is_file_path(&span) {
            files += 1;
            let path = span.split('#').next().unwrap();
            if !root().join(path).exists() {
                missing.push(format!("file {span}"));
            }
        } else if is_identifier_path(&span) {
            names += 1;
            let segs: Vec<&str> = span.split("::").collect();
            let last = segs[segs.len() - 1];
            if !items.contains(last) {
                missing.push(format!("{span}: nothing called {last}"));
            }
            // The modules on the way (after the crate), lower case by Rust's convention.
            for seg in &segs[1..segs.len() - 1] {
                let is_module = seg.chars().next().is_some_and(|c| c.is_lowercase());
                if is_module && !modules.contains(*seg) {
                    missing.push(format!("{span}: no module {seg}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md cites what is not there: {missing:#?}"
    );
    // The map cites the code it describes: the test must have something to check.
    assert!(
        files >= 30 && names >= 20,
        "{files} files and {names} names cited"
    );
}

#[test]
fn the_checker_finds_what_is_missing() {
    let (items, modules) = definitions();
    assert!(items.contains("MachineKind") && items.contains("MACHINES"));
    assert!(!items.contains("NoSuchThingAnywhere"));
    assert!(modules.contains("machines") && modules.contains("workbench"));
    assert_eq!(
        spans("`a/b.rs` and `x::Y`\n```\n`not/this`\n```\n"),
        vec!["a/b.rs", "x::Y"]
    );
    assert!(is_file_path("src/cmd/") && !is_file_path("--machine"));
    assert!(is_identifier_path("retro_machine::machine::Machine") && !is_identifier_path("retro run"));
}
