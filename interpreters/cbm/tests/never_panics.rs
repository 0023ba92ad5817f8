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
        // And the token inspector (`retro list --tokens`) ends on whatever loaded.
        if let Ok(p) = Program::from_prg(&bytes) {
            let _ = retro_cbm::inspect::render(&p);
        }
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
    fn random_token_bytes_run_without_panicking(body in prop::collection::vec(1u8..=255, 0..40)) {
        let p = Program::from_memory(&[&[1u8, 8, 10, 0][..], &body, &[0, 0, 0]].concat()).unwrap();
        if let Ok(mut m) = CbmMachine::new(&p, InputSource::Stream(Box::new(std::io::empty())), Options::default()) {
            let _ = m.run_to_end(2_000);
        }
    }
}

/// BASIC statements that use what the zero-page pointers describe: variables, arrays, strings
/// (and their garbage collection), FOR/GOSUB, DATA, the program text, FRE.
/// (Line 20 onwards: the first line's number is given where it is used.)
const POINTER_USERS: &str = "a=1:b$=\"xy\"+\"z\":dim c(3):c(2)=4:d%=5:e$=b$+b$:x=fre(0)\n\
     30 f=fn g(2):for i=1 to 2:gosub 90:next:read r:print a;b$;c(2);e$;r\n\
     40 dim z$(2):z$(1)=str$(7):s$=left$(e$,2)+mid$(b$,2):clr:q=1:q$=\"q\"+q$\n\
     90 return\n";

#[path = "../../../tests/common/fuzz_cases.rs"]
mod fuzz_cases;
use fuzz_cases::{cases, run_cases};

/// Issue 32.1: any POKEs into the zero page (a third of them into the BASIC pointers, 43-56:
/// TXTTAB, VARTAB, ARYTAB, STREND, FRETOP, MEMSIZ), then statements that use what they point
/// at, never panic: the run ends or stops with a BASIC error.
fn pokes_then_statements(full: bool) {
    let poke = (prop_oneof![43u8..=56, any::<u8>()], any::<u8>());
    let strategy = prop::collection::vec(poke, 1..8);
    run_cases(file!(), cases(1_000, full), strategy, |pokes| {
        let pokes: String = pokes.iter().map(|(a, v)| format!("poke {a},{v}:")).collect();
        let text = format!("5 def fn g(x)=x*2:data 3\n10 {pokes}\n20 {POINTER_USERS}");
        let p = Program::from_text(&text).unwrap();
        if let Ok(mut m) = CbmMachine::new(
            &p,
            InputSource::Stream(Box::new(std::io::empty())),
            Options::default(),
        ) {
            // The program is about 40 statements: 2,000 is only a bound.
            let _ = m.run_to_end(2_000);
        }
        Ok(())
    });
}

#[test]
fn pokes_into_the_zero_page_then_statements_never_panic() {
    pokes_then_statements(false);
}

#[test]
#[ignore = "100,000 cases: release mode in CI (.ci/run)"]
fn pokes_into_the_zero_page_then_statements_never_panic_at_full_count() {
    pokes_then_statements(true);
}

/// Issue 32.1's case: ARYTAB POKEd above STREND, then a new variable: ?OUT OF MEMORY in that
/// line, not a panic. And the usual way to lower the top of BASIC still works.
#[test]
fn poking_arytab_above_strend_then_making_a_variable_is_out_of_memory() {
    use retro_cbm::interp::{BasicError, Stop};
    let run = |text: &str| {
        let p = Program::from_text(text).unwrap();
        let mut m = CbmMachine::new(
            &p,
            InputSource::Stream(Box::new(std::io::empty())),
            Options::default(),
        )
        .unwrap();
        m.run_to_end(10_000)
    };
    assert_eq!(
        run("10 poke 48,132\n20 a=1\n"),
        Some(Stop::Error(BasicError::OutOfMemory, Some(20)))
    );
    assert_eq!(
        run("10 poke 56,48:clr\n20 a$=\"x\"+\"y\":dim b(100)\n"),
        Some(Stop::End)
    );
}
