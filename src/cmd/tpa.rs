//! `retro tpa`: the Tetris Printer Algorithm. Converts a sprite (PNG or text grid) into a drop
//! sequence, writes it, and replays it on the 21x42 field in the terminal or headless.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use retro_tpa::convert::{Conversion, convert};
use retro_tpa::image::Image;
use retro_tpa::replay::Replay;

use crate::files::write_output;
use crate::session::{Session, SessionArgs, drive, usage_error};

#[derive(clap::Args, Debug)]
pub struct TpaArgs {
    /// The sprite: a PNG (up to 17 pixels wide, 3 colours plus transparent) or a text grid.
    pub image: PathBuf,
    /// Write the drop sequence here (without -o, --show or a screen option it goes to stdout); a
    /// name ending in .bin gets the Z80 printer's bytes (docs/tetris-printer.md).
    #[arg(short = 'o', long, value_name = "SEQUENCE")]
    pub output: Option<PathBuf>,
    /// Replay the sequence on the field, animated in the terminal.
    #[arg(long)]
    pub show: bool,
    /// Seconds the animated replay should take (at least one drop per frame).
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    pub replay_time: u32,
    #[command(flatten)]
    pub session: SessionArgs,
}

/// What a file that is not a PNG is read as, for messages: a file of any other text (a README)
/// reads as a grid too, and then fails for its size or colours, which alone would not say why.
const AS_TEXT: &str = "not a PNG, so read as a text grid (a character a pixel, docs/tetris-printer.md)";

fn load(path: &Path) -> Result<(Image, bool), String> {
    // A missing file or a directory is named for what it is, not by the system's raw error.
    crate::files::check_path(path).map_err(|e| e.to_string())?;
    let bytes = crate::files::read_limited(path, crate::files::IMAGE).map_err(|e| e.to_string())?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(format!(
            "{} is empty: give a PNG picture or a text grid of the sprite (docs/tetris-printer.md)",
            path.display()
        ));
    }
    if bytes.starts_with(b"\x89PNG") {
        let image = Image::from_png(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((image, false));
    }
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{}: neither a PNG nor a text grid", path.display()))?;
    let image = Image::from_text(&text).map_err(|e| format!("{}: {AS_TEXT}: {e}", path.display()))?;
    Ok((image, true))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn summary(c: &Conversion) -> String {
    let s = c.stats;
    format!(
        "{} drops for {} pixels ({:.2} pieces per pixel), {}, {}, {} searched on the spot",
        s.drops,
        s.pixels,
        s.drops as f64 / s.pixels.max(1) as f64,
        plural(s.passes, "pass", "passes"),
        plural(s.platforms, "platform", "platforms"),
        s.searched
    )
}

pub fn tpa(args: TpaArgs) -> ExitCode {
    let (image, text_grid) = match load(&args.image) {
        Ok(i) => i,
        Err(e) => return usage_error(e),
    };
    let conversion = match convert(&image) {
        Ok(c) => c,
        Err(e) if text_grid => {
            return usage_error(format!("{}: {AS_TEXT}: cannot print: {e}", args.image.display()));
        }
        Err(e) => return usage_error(format!("{}: cannot print: {e}", args.image.display())),
    };
    let summary = summary(&conversion);
    let text = conversion.sequence.to_text(&format!(
        "retro tpa sequence for {}: {summary}",
        args.image
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    let s = &args.session;
    let replay = args.show || s.headless || s.dump_screen.is_some() || s.screenshot.is_some();
    match &args.output {
        Some(path) => {
            let bin = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bin"));
            let bytes = if bin {
                conversion.sequence.to_bytes()
            } else {
                text.into_bytes()
            };
            if let Err(e) = write_output(path, &bytes) {
                return usage_error(format!("cannot write {}: {e}", path.display()));
            }
            eprintln!("{summary}");
        }
        None if !replay => print!("{text}"),
        None => {}
    }
    if !replay {
        return ExitCode::SUCCESS;
    }
    let mut machine = Replay::paced(conversion.sequence, args.replay_time);
    match Session::new(s) {
        Ok(session) => drive(&mut machine, &session, vec![]),
        Err(code) => code,
    }
}
