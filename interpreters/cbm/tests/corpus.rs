//! The differential corpus: every program in tests/corpus runs on our interpreter and must print
//! exactly what cbmbasic (the C64's BASIC ROM recompiled to C) printed for it, recorded by
//! tests/corpus/record.sh into NAME.out. Where the C64 and cbmbasic differ, NAME.c64 holds the
//! C64's behaviour instead and the program's first line says why.
//!
//! The expectation is the text stream of a headless run, then (if the program stopped with an
//! error or BREAK) a newline and the message, as the ROM prints it after a CR.

use std::path::Path;

use retro_cbm::Program;
use retro_cbm::interp::{InputSource, Stop};
use retro_cbm::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};

/// Runs a program to its end and returns the expectation text.
fn transcript(source: &str) -> String {
    let program = Program::from_text(source).expect("corpus programs tokenize");
    let input = InputSource::Stream(Box::new(std::io::empty()));
    let mut m = CbmMachine::new(&program, input, Options::default()).expect("loads");
    let stop = m.run_to_end(50_000_000);
    let mut text = String::new();
    petscii_to_text(&m.take_petscii(), ControlCodes::Omit, &mut text);
    match stop {
        Some(Stop::End) | None => {}
        Some(s) => {
            text.push('\n');
            text.push_str(&s.message());
        }
    }
    text
}

#[test]
fn every_corpus_program_prints_what_the_rom_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "bas").then_some(p)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 150, "the corpus has {} programs", names.len());
    let mut failures = Vec::new();
    for bas in &names {
        let source = std::fs::read_to_string(bas).expect("readable");
        let c64 = bas.with_extension("c64");
        let expected_path = if c64.exists() {
            c64
        } else {
            bas.with_extension("out")
        };
        let expected = std::fs::read(&expected_path)
            .map(|b| b.iter().map(|&c| c as char).collect::<String>())
            .unwrap_or_else(|_| panic!("{} has no golden file", bas.display()));
        let got = transcript(&source);
        if got != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- got\n{got}\n",
                bas.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
