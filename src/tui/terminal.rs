//! Entering and leaving the terminal's game mode (raw mode, alternate screen, hidden cursor, the
//! kitty keyboard protocol), restored on every exit path: normal return, error, panic, and the
//! signals that end a program (SIGTERM, SIGHUP, SIGINT).
//!
//! Signals: while the session runs, those three only set a flag (signal-hook, no unsafe code);
//! the interactive loop looks at it at least every 100 ms, leaves, drops the session (which
//! restores the terminal) and only then dies of the signal as the default handler would.

use std::io::{self, Write, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// The last terminating signal received (0: none).
    signal: Arc<AtomicUsize>,
    handlers: Vec<signal_hook::SigId>,
}

/// The signals that end a program, caught while the terminal is in game mode.
#[cfg(unix)]
const SIGNALS: &[i32] = &[
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
];
#[cfg(not(unix))]
const SIGNALS: &[i32] = &[signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT];

impl Session {
    /// Enters raw mode and the alternate screen and installs a panic hook that restores the
    /// terminal before the panic message is printed.
    pub fn start() -> io::Result<Session> {
        // Catch the terminating signals before the terminal changes, so none can find it in game
        // mode with nobody to restore it.
        let signal = Arc::new(AtomicUsize::new(0));
        let mut handlers = Vec::new();
        for &sig in SIGNALS {
            handlers.push(signal_hook::flag::register_usize(
                sig,
                signal.clone(),
                sig as usize,
            )?);
        }
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
            signal,
            handlers,
        })
    }

    /// The terminating signal that arrived, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}

/// Ends the process the way `signal` would have ended it without our handler (so the shell sees
/// "terminated by SIGTERM", status 143); call it once the terminal is restored.
pub fn die_of(signal: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    // Only reached for a signal whose default is to be ignored, which ours are not.
    std::process::exit(128 + signal)
}

fn pop_keyboard_flags() {
    if KITTY_PUSHED.swap(false, Ordering::SeqCst) {
        let _ = execute!(stdout(), PopKeyboardEnhancementFlags);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for id in self.handlers.drain(..) {
            signal_hook::low_level::unregister(id);
        }
        pop_keyboard_flags();
        let _ = execute!(stdout(), cursor::Show);
        ratatui::restore();
        let _ = stdout().flush();
    }
}
