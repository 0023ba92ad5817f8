//! Assembles one file and writes the binary: the library without the CLI around it, for timing
//! against pasmo (benches/vs_pasmo.sh) and sjasmplus (benches/vs_sjasmplus.sh).
//! Usage: asm_file IN.asm OUT.bin [sjasmplus]
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: asm_file IN.asm OUT.bin");
        return std::process::ExitCode::from(2);
    };
    let options = retro_z80_asm::Options {
        dialect: (args.get(3).map(String::as_str) == Some("sjasmplus"))
            .then_some(retro_z80_asm::Dialect::Sjasmplus),
        ..Default::default()
    };
    match retro_z80_asm::assemble_file_with(std::path::Path::new(src), &options) {
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
