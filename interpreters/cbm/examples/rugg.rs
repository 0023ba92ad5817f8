//! The Rugg/Feldman benchmarks BM1-BM8 (tests/rugg/bmN.bas) scaled to N iterations, run by our
//! interpreter and, when RETRO_CBMBASIC_BIN names a built cbmbasic, by cbmbasic in the same run;
//! prints each time, the ratio, and whether the outputs are identical. Each program gets a last
//! line printing its variables, so identical output means identical arithmetic.
//!
//!   cargo run --release -p retro-cbm --example rugg -- [ITERATIONS [BM]]   (default 1000000, all)

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use retro_cbm::Program;
use retro_cbm::interp::InputSource;
use retro_cbm::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let only: Option<u32> = std::env::args().nth(2).and_then(|a| a.parse().ok());
    let cbmbasic = std::env::var("RETRO_CBMBASIC_BIN").ok();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rugg");
    println!("Rugg/Feldman BM1-BM8, {n} iterations each");
    println!(
        "{:<5} {:>12} {:>12} {:>8}  output",
        "", "retro (s)", "cbmbasic (s)", "ratio"
    );
    let (mut ours_total, mut theirs_total) = (0.0, 0.0);
    for b in (1..=8).filter(|b| only.is_none_or(|o| o == *b)) {
        let text = std::fs::read_to_string(dir.join(format!("bm{b}.bas"))).expect("listing");
        let text = text.replace("1000", &n.to_string()) + "790 print k;a;b;c;l\n";
        let program = Program::from_text(&text).expect("tokenizes");
        let start = Instant::now();
        let mut m = CbmMachine::new(
            &program,
            InputSource::Stream(Box::new(std::io::empty())),
            Options::default(),
        )
        .expect("loads");
        let stop = m.run_to_end(u64::MAX);
        let ours = start.elapsed().as_secs_f64();
        let mut out = String::new();
        petscii_to_text(&m.take_petscii(), ControlCodes::Omit, &mut out);
        if let Some(s) = stop {
            out.push_str(&s.message());
        }
        ours_total += ours;
        let (theirs, same) = match &cbmbasic {
            Some(bin) => {
                let path = std::env::temp_dir().join(format!("retro-rugg-{b}.bas"));
                std::fs::write(&path, text.to_uppercase()).expect("temp file");
                let start = Instant::now();
                let child = Command::new(bin)
                    .arg(&path)
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("cbmbasic runs");
                let output = child.wait_with_output().expect("cbmbasic output");
                let t = start.elapsed().as_secs_f64();
                let theirs = String::from_utf8_lossy(&output.stdout)
                    .replace("\r\n", "\n")
                    .replace("\x1b[C", " ");
                theirs_total += t;
                (Some(t), Some(theirs == out))
            }
            None => (None, None),
        };
        println!(
            "BM{b:<3} {ours:>12.3} {:>12} {:>8}  {}",
            theirs.map_or("-".into(), |t| format!("{t:.3}")),
            theirs.map_or("-".into(), |t| format!("{:.3}", ours / t)),
            match same {
                Some(true) => "identical".to_string(),
                Some(false) => "DIFFERENT".to_string(),
                None => out.trim_end().replace('\n', " | "),
            }
        );
        let _ = std::io::stdout().flush();
    }
    if cbmbasic.is_some() {
        println!(
            "total {ours_total:>12.3} {theirs_total:>12.3} {:>8.3}",
            ours_total / theirs_total
        );
    } else {
        println!("total {ours_total:>12.3}");
    }
    // Start-up: from the .prg bytes to the first statement executed.
    let prg = Program::from_text(&std::fs::read_to_string(dir.join("bm1.bas")).unwrap())
        .unwrap()
        .to_prg();
    let start = Instant::now();
    let program = Program::from_prg(&prg).unwrap();
    let mut m = CbmMachine::new(
        &program,
        InputSource::Stream(Box::new(std::io::empty())),
        Options::default(),
    )
    .unwrap();
    m.interp().run_slice(1);
    println!(
        "start-up to the first statement: {:.3} ms",
        start.elapsed().as_secs_f64() * 1000.0
    );
}
