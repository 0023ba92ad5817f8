//! Runs a CP/M .COM file on the console: `cargo run --release --example cpm -- FILE.com`.
//! Prints the instruction and T-state counts and the speed to stderr at the end.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: cpm FILE.com");
        std::process::exit(2);
    };
    let program = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let start = std::time::Instant::now();
    let stdout = std::io::stdout();
    match retro_z80_cpm::run(&program, std::io::stdin(), stdout.lock(), Default::default()) {
        Ok(exit) => {
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "\n{} instructions, {} T-states, {} BDOS calls in {secs:.2} s: {:.1} M instructions/s, {:.0} MHz",
                exit.instructions,
                exit.tstates,
                exit.bdos_calls,
                exit.instructions as f64 / secs / 1e6,
                exit.tstates as f64 / secs / 1e6
            );
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
