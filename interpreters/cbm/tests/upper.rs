//! The upper-case corpus: type-in listings as magazines print them (upper-case ASCII, which is
//! what cbmbasic reads and a C64's unshifted keys type), each run here must print exactly what
//! cbmbasic printed (tests/upper/NAME.out, recorded by tests/upper/record.sh). Each has a petcat
//! twin (tests/upper/petcat/NAME.bas) that must tokenize to the same bytes, and each listing must
//! be recognised as the convention it is written in.

use std::path::{Path, PathBuf};

use retro_cbm::interp::{InputSource, Stop};
use retro_cbm::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};
use retro_cbm::sniff::charset_of;
use retro_cbm::{Charset, Program};

fn transcript(program: &Program) -> String {
    let input = InputSource::Stream(Box::new(std::io::empty()));
    let mut m = CbmMachine::new(program, input, Options::default()).expect("loads");
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

fn listings(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus directory")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "bas").then_some(p)
        })
        .collect();
    names.sort();
    names
}

#[test]
fn upper_case_listings_print_what_cbmbasic_prints_and_their_petcat_twins_are_the_same_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/upper");
    let names = listings(&dir);
    assert!(names.len() >= 120, "the corpus has {} programs", names.len());
    let mut failures = Vec::new();
    for bas in &names {
        let name = bas.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(bas).unwrap();
        assert_eq!(
            charset_of(&text),
            Charset::Ascii,
            "{name} reads as upper-case ASCII"
        );
        let program = Program::from_text_in(&text, Charset::Ascii).expect("tokenizes");
        let twin_text = std::fs::read_to_string(dir.join("petcat").join(&name)).expect("a petcat twin");
        assert_eq!(
            charset_of(&twin_text),
            Charset::Petcat,
            "{name}'s twin reads as petcat"
        );
        let twin = Program::from_text(&twin_text).expect("the twin tokenizes");
        assert_eq!(twin.to_prg(), program.to_prg(), "{name}: the twin's bytes");
        // Listing in either convention reads back as the same program (`?` lists as PRINT).
        let relisted = program.to_text_in(Charset::Ascii);
        assert_eq!(
            Program::from_text_in(&relisted, Charset::Ascii).unwrap(),
            program,
            "{name}"
        );
        assert_eq!(
            program.to_text(),
            twin_text,
            "{name}'s twin is its petcat listing"
        );
        let expected = std::fs::read(bas.with_extension("out"))
            .map(|b| b.iter().map(|&c| c as char).collect::<String>())
            .unwrap_or_else(|_| panic!("{name} has no golden file"));
        let got = transcript(&program);
        if got != expected {
            failures.push(format!("{name}:\n--- expected\n{expected}\n--- got\n{got}\n"));
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
