//! Assembles one file and writes the binary: the library without the CLI around it, for timing
//! against pasmo (benches/vs_pasmo.sh). Usage: asm_file IN.asm OUT.bin
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: asm_file IN.asm OUT.bin");
        return std::process::ExitCode::from(2);
    };
    match retro_z80_asm::assemble_file(std::path::Path::new(src)) {
        Ok(a) => match std::fs::write(out, &a.bytes) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{out}: {e}");
                std::process::ExitCode::from(2)
            }
        },
        Err(f) => {
            eprint!("{}", f.render(false));
            std::process::ExitCode::from(1)
        }
    }
}
