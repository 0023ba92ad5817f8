//! The user's data directory: where retro keeps what outlives a run (the debugger's command
//! history per machine, a program's save file such as NES Tetris's high scores). One place
//! decides it, so every file a run keeps is found beside the others.

use std::path::PathBuf;

/// `$RETRO_DATA_DIR` when it is set and not empty (tests point it away from the user's home),
/// else the platform's data directory + `retro`: `$XDG_DATA_HOME/retro`, else
/// `~/.local/share/retro` on Linux and other Unixes; `~/Library/Application Support/retro` on
/// macOS; `%APPDATA%\retro` on Windows (etcetera's native strategy). `None` when there is no home
/// to find. (Checked through the binary, whose tests set the variable per process:
/// tests/tetris_screen.rs and tests/debug_tui_line.rs.)
pub fn data_dir() -> Option<PathBuf> {
    match std::env::var_os("RETRO_DATA_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => {
            use etcetera::BaseStrategy as _;
            let base = etcetera::base_strategy::choose_native_strategy().ok()?;
            Some(base.data_dir().join("retro"))
        }
    }
}
