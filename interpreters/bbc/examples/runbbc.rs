//! Runs a BBC BASIC text listing with stdin as input: `cargo run -p retro-bbc --example runbbc FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: runbbc FILE");
    let src = std::fs::read_to_string(&path).expect("readable file");
    if std::env::var("TOK").is_ok() {
        let p = retro_bbc::tokenize_program(&src, retro_bbc::Mode::Strict).expect("tokenizes");
        for l in p.lines() {
            println!("{} {:02X?}", l.number, l.body);
        }
        return;
    }
    let mut input = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut input).ok();
    match retro_bbc::interp::run_text(&src, &input, Some(2_000_000_000)) {
        Ok(t) => {
            print!("{}", t.output);
            if let Some(m) = t.outcome.message() {
                eprintln!("{m}");
            }
        }
        Err(e) => eprintln!("{e}"),
    }
}
