//! Entering and leaving the terminal's game mode (raw mode, alternate screen, hidden cursor, the
//! kitty keyboard protocol), restored on every exit path: normal return, error, and panic.

use std::io::{self, Write, stdout};
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::{cursor, execute, terminal};

/// Whether we pushed kitty keyboard flags, so the panic hook knows to pop them. A process runs
/// one terminal session at a time, and a panic hook can only reach process-wide state.
static KITTY_PUSHED: AtomicBool = AtomicBool::new(false);

/// The terminal in game mode; dropping it restores the terminal.
pub struct Session {
    pub terminal: DefaultTerminal,
    /// True when the terminal reports key releases (kitty keyboard protocol).
    pub key_releases: bool,
}

impl Session {
    /// Enters raw mode and the alternate screen and installs a panic hook that restores the
    /// terminal before the panic message is printed.
    pub fn start() -> io::Result<Session> {
        // ratatui's hook (installed by try_init) restores raw mode and the alternate screen; ours,
        // installed after it, runs first and pops the keyboard flags while still in raw mode.
        let terminal = ratatui::try_init()?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            pop_keyboard_flags();
            let _ = execute!(stdout(), cursor::Show);
            previous(info);
        }));
        let key_releases = matches!(terminal::supports_keyboard_enhancement(), Ok(true));
        if key_releases {
            execute!(
                stdout(),
                PushKeyboardEnhancementFlags(
                    KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                        | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
                )
            )?;
            KITTY_PUSHED.store(true, Ordering::SeqCst);
        }
        execute!(stdout(), cursor::Hide)?;
        Ok(Session {
            terminal,
            key_releases,
        })
    }
}

fn pop_keyboard_flags() {
    if KITTY_PUSHED.swap(false, Ordering::SeqCst) {
        let _ = execute!(stdout(), PopKeyboardEnhancementFlags);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        pop_keyboard_flags();
        let _ = execute!(stdout(), cursor::Show);
        ratatui::restore();
        let _ = stdout().flush();
    }
}
