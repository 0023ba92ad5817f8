//! Used by tests/golden/record.sh: tokenizes the text of a golden corpus case (with its mode) and
//! writes the RISC OS tokenized file, for Brandy to load and LIST.
//!
//! usage: golden_tok CASE_FILE OUT_FILE

use retro_bbc::{Mode, tokenize_program};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, case, out] = &args[..] else {
        eprintln!("usage: golden_tok CASE_FILE OUT_FILE");
        std::process::exit(2);
    };
    let content = std::fs::read_to_string(case).expect("readable case file");
    let mode = if content.lines().any(|l| l.trim() == "mode: crunch") {
        Mode::Crunch
    } else {
        Mode::Strict
    };
    let start = content.find("--- text\n").expect("a text section") + "--- text\n".len();
    let end = content[start..]
        .find("\n--- ")
        .map_or(content.len(), |e| start + e + 1);
    match tokenize_program(&content[start..end], mode) {
        Ok(program) => std::fs::write(out, program.to_bytes()).expect("writable output"),
        Err(diags) => {
            eprintln!("{case}: {diags:?}");
            std::process::exit(1);
        }
    }
}
