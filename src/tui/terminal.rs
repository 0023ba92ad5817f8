//! Entering and leaving the terminal's game mode (raw mode, alternate screen, hidden cursor, the
//! kitty keyboard protocol), restored on every exit path: normal return, error, panic, and the
//! signals that end a program (SIGTERM, SIGHUP, SIGINT).
//!
//! Signals: while the session runs, those three only set a flag (signal-hook, no unsafe code);
//! the interactive loop looks at it at least every 100 ms, leaves, drops the session (which
//! restores the terminal) and only then dies of the signal as the default handler would.
//!
//! Job control: Ctrl-Z (a key in raw mode, see [`is_suspend_key`]) or a SIGTSTP from outside
//! gives the terminal back as an exit does and stops the process; `fg` (SIGCONT) enters game
//! mode again and the next frame is drawn whole ([`Input::Redraw`]). A SIGKILL cannot be
//! caught: `stty sane` mends the terminal then (docs/cli.md, "Signals").
//!
//! A terminal that goes away (its window closed, `tmux kill-session`) is a hangup too: input is
//! awaited through [`Session::wait_input`], which sees it even when no SIGHUP arrives.

use std::io::{self, Stdout, Write, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::{cursor, execute, terminal};

use super::sgr::Sgr16;

/// Whether we pushed kitty keyboard flags, so the panic hook knows to pop them. A process runs
/// one terminal session at a time, and a panic hook can only reach process-wide state.
static KITTY_PUSHED: AtomicBool = AtomicBool::new(false);

/// The terminal in game mode; dropping it restores the terminal.
pub struct Session {
    pub terminal: Terminal<CrosstermBackend<Sgr16<Stdout>>>,
    /// True when the terminal reports key releases (kitty keyboard protocol).
    pub key_releases: bool,
    /// The last terminating signal received (0: none).
    signal: Arc<AtomicUsize>,
    handlers: Vec<signal_hook::SigId>,
    /// A SIGTSTP arrived: give the terminal back and stop.
    stop: Arc<AtomicBool>,
    /// A SIGCONT arrived (after a stop we did not make ourselves, `kill -STOP`): redraw.
    cont: Arc<AtomicBool>,
    /// The terminal crossterm reads when stdin is not one (`retro bbc < lines`): /dev/tty.
    tty: Option<std::fs::File>,
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
        let (stop, cont) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        #[cfg(unix)]
        {
            handlers.push(signal_hook::flag::register(
                signal_hook::consts::SIGTSTP,
                stop.clone(),
            )?);
            handlers.push(signal_hook::flag::register(
                signal_hook::consts::SIGCONT,
                cont.clone(),
            )?);
        }
        // As ratatui::try_init, but drawing through Sgr16 (the 16 colours as the classic codes);
        // the panic hook below restores raw mode and the alternate screen as ratatui's would.
        let previous = std::panic::take_hook();
        terminal::enable_raw_mode()?;
        execute!(stdout(), terminal::EnterAlternateScreen)?;
        let terminal = Terminal::new(CrosstermBackend::new(Sgr16::new(stdout())))?;
        let ui = std::thread::current().id();
        std::panic::set_hook(Box::new(move |info| {
            // Holding stdout keeps the UI thread from drawing between the restore and the exit.
            let _drawing = stdout().lock();
            pop_keyboard_flags();
            let _ = execute!(stdout(), cursor::SetCursorStyle::DefaultUserShape, cursor::Show);
            ratatui::restore();
            previous(info);
            if std::thread::current().id() != ui {
                // Another thread (a machine's worker) panicked: the UI thread would go on
                // drawing on the restored terminal and end with status 0. End here, as a panic
                // of the UI thread ends.
                std::process::exit(101);
            }
        }));
        let key_releases = matches!(terminal::supports_keyboard_enhancement(), Ok(true));
        game_mode_extras(key_releases)?;
        let tty = if std::io::IsTerminal::is_terminal(&io::stdin()) {
            None
        } else {
            std::fs::File::open("/dev/tty").ok()
        };
        Ok(Session {
            terminal,
            key_releases,
            signal,
            handlers,
            stop,
            cont,
            tty,
        })
    }

    /// Gives the terminal back (as [`Drop`] does), stops the process as SIGTSTP's default action
    /// would, and once continued (`fg`) enters game mode again with the screen to be drawn whole.
    pub fn suspend(&mut self) -> io::Result<()> {
        leave_game_mode();
        #[cfg(unix)]
        {
            // Stops every thread (the machine's worker too) until SIGCONT.
            let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP);
        }
        self.stop.store(false, Ordering::SeqCst);
        self.cont.store(false, Ordering::SeqCst);
        terminal::enable_raw_mode()?;
        execute!(stdout(), terminal::EnterAlternateScreen)?;
        game_mode_extras(self.key_releases)?;
        self.forget_screen()
    }

    /// Blanks the screen and ratatui's idea of it, so the next draw paints every cell that is
    /// not blank. (ratatui's `clear` would do it but first asks the terminal where its cursor
    /// is, and a terminal that does not answer fails the run.)
    fn forget_screen(&mut self) -> io::Result<()> {
        execute!(stdout(), terminal::Clear(terminal::ClearType::All))?;
        // After a draw the current buffer is blank; a swap blanks the other (the one drawn).
        self.terminal.swap_buffers();
        Ok(())
    }

    /// A stop or continue signal that arrived since last asked: [`Input::Redraw`] once handled.
    fn job_control(&mut self) -> io::Result<Option<Input>> {
        if self.stop.swap(false, Ordering::SeqCst) {
            self.suspend()?;
            return Ok(Some(Input::Redraw));
        }
        if self.cont.swap(false, Ordering::SeqCst) {
            self.forget_screen()?;
            return Ok(Some(Input::Redraw));
        }
        Ok(None)
    }

    /// Waits up to `timeout` for input from the terminal (then read it with crossterm's
    /// `event::read`).
    ///
    /// The terminal is looked at with poll(2) before crossterm is asked: once it has hung up,
    /// its descriptor reads as end of file for ever and crossterm 0.29's reader spins on it
    /// without returning, whatever the timeout (crossterm issue #793), leaving a process that
    /// burns a core and ignores SIGHUP.
    pub fn wait_input(&mut self, timeout: Duration) -> io::Result<Input> {
        #[cfg(unix)]
        {
            if let Some(redraw) = self.job_control()? {
                return Ok(redraw);
            }
            if self.hung_up(Duration::ZERO)? {
                return Ok(Input::HungUp);
            }
            // Events crossterm has already read and queued are not seen by poll(2).
            if event::poll(Duration::ZERO)? {
                return Ok(Input::Ready);
            }
            if self.hung_up(timeout)? {
                return Ok(Input::HungUp);
            }
            // A SIGTSTP cuts the sleep short: stop now rather than a wait later.
            if let Some(redraw) = self.job_control()? {
                return Ok(redraw);
            }
            Ok(if event::poll(Duration::ZERO)? {
                Input::Ready
            } else {
                Input::Timeout
            })
        }
        #[cfg(not(unix))]
        {
            Ok(if event::poll(timeout)? {
                Input::Ready
            } else {
                Input::Timeout
            })
        }
    }

    /// Sleeps in poll(2) on the terminal crossterm reads (stdin when it is one, else /dev/tty) until
    /// it has input or `timeout` passes; true when it has hung up (or is no longer open).
    #[cfg(unix)]
    fn hung_up(&self, timeout: Duration) -> io::Result<bool> {
        use rustix::event::{PollFd, PollFlags, Timespec};
        use std::os::fd::AsFd;
        let stdin = io::stdin();
        let fd = match &self.tty {
            Some(tty) => tty.as_fd(),
            None => stdin.as_fd(),
        };
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        let timeout = Timespec {
            tv_sec: timeout.as_secs().min(i64::MAX as u64) as i64,
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(_) => {}
            // A signal cut the wait short: the caller looks at it and comes back.
            Err(rustix::io::Errno::INTR) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        Ok(fds[0]
            .revents()
            .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL))
    }

    /// The terminating signal that arrived, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}

/// What [`Session::wait_input`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// An event is ready for `event::read`.
    Ready,
    /// Nothing arrived in time.
    Timeout,
    /// The terminal has gone: leave as SIGHUP would make us.
    HungUp,
    /// The process was stopped and continued (Ctrl-Z, `fg`): draw the whole screen again.
    Redraw,
}

/// Whether a key is Ctrl-Z, which in raw mode arrives as a key instead of SIGTSTP: the front ends
/// call [`Session::suspend`] for it, as a shell's job control expects.
pub fn is_suspend_key(event: &event::Event) -> bool {
    use event::{Event, KeyCode, KeyEventKind, KeyModifiers};
    matches!(event, Event::Key(k)
        if k.kind == KeyEventKind::Press
            && k.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(k.code, KeyCode::Char('z' | 'Z')))
}

/// The parts of game mode beyond ratatui's (raw mode, alternate screen): the kitty keyboard
/// flags when the terminal has them, and the hidden cursor.
fn game_mode_extras(key_releases: bool) -> io::Result<()> {
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
    // Hidden until a machine shows its text cursor, then a flashing underline, as the BBC's.
    execute!(stdout(), cursor::Hide, cursor::SetCursorStyle::BlinkingUnderScore)
}

/// The terminal as it was before game mode: keyboard flags popped, cursor shown, raw mode off,
/// the main screen back.
fn leave_game_mode() {
    pop_keyboard_flags();
    let _ = execute!(stdout(), cursor::SetCursorStyle::DefaultUserShape, cursor::Show);
    ratatui::restore();
    let _ = stdout().flush();
}

/// The hangup signal, which a terminal that has gone stands for.
#[cfg(unix)]
pub const HANGUP: i32 = signal_hook::consts::SIGHUP;
#[cfg(not(unix))]
pub const HANGUP: i32 = signal_hook::consts::SIGTERM;

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
        leave_game_mode();
    }
}
