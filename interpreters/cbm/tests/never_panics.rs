//! Fuzz-style properties: the .prg loader, the petcat reader, the cruncher and the interpreter
//! never panic on any input, and what the tokenizer writes reads back unchanged.
//! CI runs them with PROPTEST_CASES=100000; each case is small (a few hundred bytes, and the
//! interpreter runs are capped at 2,000 statements) so that stays quick.

use proptest::prelude::*;
use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, Options};
use retro_cbm::tokenize::crunch;
use retro_cbm::{Program, petcat};

fn text_line() -> impl Strategy<Value = String> {
    // Keywords, names, numbers, strings and punctuation, glued together as people type them.
    let piece = prop_oneof![
        Just("print".to_string()),
        Just("for".to_string()),
        Just("to".to_string()),
        Just("next".to_string()),
        Just("if".to_string()),
        Just("then".to_string()),
        Just("goto".to_string()),
        Just("gosub".to_string()),
        Just("return".to_string()),
        Just("data".to_string()),
        Just("rem".to_string()),
        Just("and".to_string()),
        Just("dim".to_string()),
        Just("read".to_string()),
        Just("mid$(".to_string()),
        "[a-z][a-z0-9]?[$%]?".prop_map(|s| s),
        "[0-9]{1,4}(\\.[0-9]{1,3})?".prop_map(|s| s),
        "\"[a-z {}]{0,6}\"".prop_map(|s| s.replace(['{', '}'], "")),
        prop_oneof![
            Just(":"),
            Just(","),
            Just(";"),
            Just("="),
            Just("+"),
            Just("("),
            Just(")"),
            Just(" "),
            Just("<"),
            Just("*")
        ]
        .prop_map(|s| s.to_string()),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn the_prg_loader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = Program::from_prg(&bytes);
        let _ = Program::read(&bytes);
    }

    #[test]
    fn the_cruncher_and_petcat_reader_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), s in "\\PC{0,80}") {
        let _ = crunch(&bytes);
        let _ = petcat::text_to_bytes(&s);
        let _ = Program::from_text(&s);
    }

    #[test]
    fn tokenized_programs_round_trip_through_text_and_prg(lines in prop::collection::vec((1u16..64000, text_line()), 1..8)) {
        let text: String = lines.iter().map(|(n, l)| format!("{n} :{l}\n")).collect();
        let p = Program::from_text(&text).unwrap();
        let prg = p.to_prg();
        let back = Program::from_prg(&prg).unwrap();
        prop_assert_eq!(&back, &p);
        // Listing and tokenizing again gives the same bytes.
        let again = Program::from_text(&back.to_text()).unwrap();
        prop_assert_eq!(again.to_prg(), prg);
    }

    #[test]
    fn the_interpreter_never_panics(lines in prop::collection::vec((1u16..100, text_line()), 1..6)) {
        let text: String = lines.iter().map(|(n, l)| format!("{n} :{l}\n")).collect();
        let p = Program::from_text(&text).unwrap();
        if let Ok(mut m) = CbmMachine::new(&p, InputSource::Stream(Box::new(std::io::empty())), Options::default()) {
            let _ = m.run_to_end(2_000);
        }
    }

    #[test]
    fn random_token_bytes_run_without_panicking(body in prop::collection::vec(any::<u8>().prop_filter("no 0", |b| *b != 0), 0..40)) {
        let p = Program::from_memory(&[&[1u8, 8, 10, 0][..], &body, &[0, 0, 0]].concat()).unwrap();
        if let Ok(mut m) = CbmMachine::new(&p, InputSource::Stream(Box::new(std::io::empty())), Options::default()) {
            let _ = m.run_to_end(2_000);
        }
    }
}
