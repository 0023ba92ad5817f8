//! The interpreter never panics, whatever it is fed: random token streams and random programs
//! built from BASIC statements, each run with a statement budget (PROPTEST_CASES sets the number
//! of cases; CI uses 100000). A failure here is a panic or a hang, not a BASIC error.

use proptest::prelude::*;
use retro_bbc::interp::host::ScriptHost;
use retro_bbc::interp::{Interp, Outcome};
use retro_bbc::{Mode, tokenize_program};

/// Statements per case: enough to run loops and calls, small enough for 100000 cases.
const BUDGET: u64 = 3_000;
/// A small memory keeps each case cheap (DIM still finds its limit).
const MEMORY: usize = 0x8000;

/// A hang would otherwise end CI at its time limit with nothing said: a watchdog thread aborts
/// the run, printing the case, when any case has run for longer than this.
const HANG: std::time::Duration = std::time::Duration::from_secs(20);

/// The cases running now (one a test thread), with when each started.
type Running = Vec<(std::thread::ThreadId, std::time::Instant, Vec<u8>, Vec<u8>)>;
static RUNNING: std::sync::Mutex<Running> = std::sync::Mutex::new(Vec::new());

fn start_watchdog() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(500));
                let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((_, _, program, input)) = running.iter().find(|(_, t, ..)| t.elapsed() > HANG) {
                    // Straight to stderr: the test harness captures eprintln! and would lose it.
                    use std::io::Write;
                    let _ = writeln!(
                        std::io::stderr(),
                        "a case ran for over {HANG:?}: program bytes {program:?}, input {input:?}"
                    );
                    std::process::abort();
                }
            }
        });
    });
}

/// This thread's case in RUNNING, taken out when the case ends, by returning or by panicking.
struct Watched(std::thread::ThreadId);

impl Watched {
    fn start(program: &[u8], input: &[u8]) -> Self {
        start_watchdog();
        let me = std::thread::current().id();
        let now = std::time::Instant::now();
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        running.push((me, now, program.to_vec(), input.to_vec()));
        Watched(me)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|(id, ..)| *id != self.0);
    }
}

fn run(program: &[u8], input: &[u8]) -> Outcome {
    let _watched = Watched::start(program, input);
    let host = ScriptHost::new(input).with_budget(BUDGET);
    match Interp::with_memory(program, Box::new(host), MEMORY) {
        Ok(mut it) => it.run(),
        Err(_) => Outcome::Aborted,
    }
}

/// Program bytes from line bodies: numbered lines, no CR inside a body, bodies cut to 251.
fn assemble(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, body) in lines.iter().enumerate() {
        let body: Vec<u8> = body.iter().copied().filter(|&b| b != 0x0D).take(251).collect();
        let n = (i as u16 + 1) * 10;
        out.push(0x0D);
        out.extend_from_slice(&n.to_be_bytes());
        out.push(body.len() as u8 + 4);
        out.extend_from_slice(&body);
    }
    out.extend_from_slice(&[0x0D, 0xFF]);
    out
}

/// Bytes that make interesting token streams: keyword tokens, operators, digits, names.
fn token_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => 0x7Fu8..=0xFF,
        3 => prop::sample::select(b"0123456789.&%\"$?!|()+-*/^=<>,;:'~ ".to_vec()),
        2 => prop::sample::select(b"AaBbIiXxNn%$(".to_vec()),
        1 => any::<u8>(),
    ]
}

const STATEMENTS: &[&str] = &[
    "PRINT E",
    "PRINT E;E,",
    "PRINT TAB(E)E",
    "A=E",
    "A%=E",
    "B$=S",
    "A+=E",
    "FOR I=E TO E",
    "FOR I%=E TO E STEP E",
    "NEXT",
    "NEXT,",
    "NEXT I",
    "REPEAT",
    "UNTIL E",
    "WHILE E",
    "ENDWHILE",
    "GOSUB L",
    "GOTO L",
    "RETURN",
    "IF E THEN",
    "IF E THEN PRINT E ELSE PRINT E",
    "IF E A=E",
    "ELSE",
    "ENDIF",
    "PROCp(E)",
    "PROCq",
    "DEF PROCp(x)",
    "DEF PROCq",
    "LOCAL A",
    "ENDPROC",
    "DEF FNf(x)=E",
    "DEF FNg",
    "=E",
    "DIM D(E)",
    "DIM M% E",
    "D(E)=E",
    "?(M%+E)=E",
    "CASE E OF",
    "WHEN E",
    "WHEN E,E:PRINT E",
    "OTHERWISE",
    "ENDCASE",
    "ON E GOTO L,L ELSE PRINT E",
    "ON E GOSUB L",
    "ON ERROR PRINT REPORT$",
    "ON ERROR LOCAL A=E",
    "ON ERROR OFF",
    "READ A",
    "READ B$",
    "DATA 1,x,\"q\"",
    "RESTORE",
    "VDU E,E;E",
    "MODE E",
    "COLOUR E",
    "GCOL E,E",
    "CLS",
    "CLG",
    "SWAP A,I",
    "CLEAR",
    "END",
    "STOP",
    "ERROR E,S",
    "REM x",
    "TIME=E",
    "WAIT E",
    "X=GET",
    "X=INKEY(E)",
    "INPUT A",
    "INPUT LINE B$",
    "MID$(B$,E)=S",
    "X=EVAL(S)",
    "RUN",
    "D()=E",
    "D()=D()*E+E",
    "D()=E,E,E",
    "D()+=D()",
    "D()=D().D()",
    "A=SUM(D())+DIM(D())+DIM(D(),E)",
    "SWAP D(),D()",
    "PROCa(D())",
    "DEF PROCa(Q())",
    "LOCAL Q()",
    "DIM Q(E)",
    "LOCAL DATA",
    "RESTORE DATA",
    "RESTORE ERROR",
    "LOCAL ERROR",
    "READ A,A",
    "DATA &1F,2*E,,",
    "@%=S",
    "X=OPENIN S",
    "PRINT#E,E",
    "X=BGET#E",
];
const EXPRESSIONS: &[&str] = &[
    "1",
    "0",
    "-1",
    "2.5",
    "1E9",
    "&FF",
    "%101",
    "A",
    "A%",
    "I",
    "TRUE",
    "FALSE",
    "PI",
    "RND",
    "RND(E)",
    "(E)",
    "E+E",
    "E-E",
    "E*E",
    "E/E",
    "E DIV E",
    "E MOD E",
    "E^E",
    "-E",
    "NOT E",
    "E AND E",
    "E OR E",
    "E EOR E",
    "E=E",
    "E<>E",
    "E<E",
    "E<<E",
    "E>>>E",
    "ABS E",
    "INT E",
    "SQR E",
    "LOG E",
    "LN E",
    "SIN E",
    "EXP E",
    "SGN E",
    "LEN S",
    "ASC S",
    "VAL S",
    "INSTR(S,S)",
    "FNf(E)",
    "FNg",
    "D(E)",
    "M%?E",
    "M%!E",
    "POS",
    "VPOS",
    "COUNT",
    "TIME",
    "ERR",
    "ERL",
    "INKEY(E)",
    "EVAL(S)",
    "2147483647",
    "-2147483648",
];
const STRINGS: &[&str] = &[
    "\"abc\"",
    "\"\"",
    "B$",
    "S+S",
    "LEFT$(S,E)",
    "MID$(S,E,E)",
    "RIGHT$(S,E)",
    "STR$ E",
    "STR$~E",
    "CHR$ E",
    "STRING$(E,S)",
    "REPORT$",
    "GET$",
    "INKEY$(E)",
    "\"1+2\"",
];

/// Expands the placeholders E (number), S (string) and L (line number) in a template.
fn expand(template: &str, picks: &mut impl Iterator<Item = u16>, depth: u32) -> String {
    let mut out = String::new();
    for c in template.chars() {
        let p = picks.next().unwrap_or(0) as usize;
        match c {
            'E' if depth < 4 => out += &expand(EXPRESSIONS[p % EXPRESSIONS.len()], picks, depth + 1),
            'S' if depth < 4 => out += &expand(STRINGS[p % STRINGS.len()], picks, depth + 1),
            'E' => out += "1",
            'S' => out += "\"s\"",
            'L' => out += &((p % 12 + 1) * 10).to_string(),
            c => out.push(c),
        }
    }
    out
}

fn program_text(choices: &[(u8, Vec<u16>)]) -> String {
    let mut text = String::new();
    for (i, (stmts, picks)) in choices.iter().enumerate() {
        let mut picks = picks.iter().copied().cycle();
        let n = (*stmts as usize % 3) + 1;
        let line: Vec<String> = (0..n)
            .map(|_| {
                let s = STATEMENTS[picks.next().unwrap_or(0) as usize % STATEMENTS.len()];
                expand(s, &mut picks, 0)
            })
            .collect();
        text += &format!("{} {}\n", (i + 1) * 10, line.join(":"));
    }
    text
}

proptest! {
    #[test]
    fn random_token_streams_never_panic(
        lines in prop::collection::vec(prop::collection::vec(token_byte(), 0..40), 1..8),
        input in prop::collection::vec(any::<u8>(), 0..8),
    ) {
        let _ = run(&assemble(&lines), &input);
    }

    #[test]
    fn random_programs_never_panic(
        choices in prop::collection::vec((any::<u8>(), prop::collection::vec(any::<u16>(), 1..24)), 1..12),
        input in prop::collection::vec(any::<u8>(), 0..8),
    ) {
        let text = program_text(&choices);
        if let Ok(p) = tokenize_program(&text, Mode::Strict) {
            let _ = run(&p.to_bytes(), &input);
        }
    }
}

#[test]
fn a_runaway_loop_stops_at_the_budget() {
    let p = tokenize_program("10 GOTO 10\n", Mode::Strict).unwrap().to_bytes();
    assert_eq!(run(&p, b""), Outcome::Aborted);
}

#[test]
fn deep_recursion_is_a_basic_error_not_a_crash() {
    let p = tokenize_program("10 PRINT FNr(1)\n20 DEF FNr(n)=FNr(n+1)+1\n", Mode::Strict)
        .unwrap()
        .to_bytes();
    let host = ScriptHost::new(b"").with_budget(10_000_000);
    let mut it = Interp::new(&p, Box::new(host)).unwrap();
    match it.run() {
        Outcome::Error { error, line } => {
            assert_eq!(error.number, 37);
            assert_eq!(line, 20);
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn deep_proc_recursion_fills_the_stack_and_stops_with_an_error() {
    let p = tokenize_program("10 PROCr\n20 DEF PROCr:PROCr\n", Mode::Strict)
        .unwrap()
        .to_bytes();
    let host = ScriptHost::new(b"").with_budget(100_000_000);
    let mut it = Interp::new(&p, Box::new(host)).unwrap();
    assert!(matches!(it.run(), Outcome::Error { .. }));
}

#[test]
fn an_unclosed_bracket_in_an_on_list_is_out_of_range_not_a_hang() {
    // Found by random_token_streams_never_panic: the search for the third item ran on past the
    // line's CR (its bracket still open) and then for ever past the end of memory.
    let p = tokenize_program("10 ON 3 GOTO 20,(30\n20 PRINT \"(\"\n30 END\n", Mode::Strict)
        .unwrap()
        .to_bytes();
    match run(&p, b"") {
        Outcome::Error { error, line } => {
            assert_eq!((error.number, line), (40, 10), "{}", error.message);
        }
        other => panic!("expected On range, got {other:?}"),
    }
}
