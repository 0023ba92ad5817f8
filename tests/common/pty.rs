//! Running `retro` in a terminal for the end-to-end tests, in one place: a pseudo-terminal
//! (expectrl) that reads what retro writes, or a tmux window that shows the screen a user sees.
//! Either way the run is wrapped in a shell that notes the terminal settings before and after,
//! so every test can check that retro gave the terminal back.
//!
//! Included with `#[path = "common/pty.rs"] mod pty;` only by the test files that drive a
//! terminal; each uses part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The binary under test.
pub const RETRO: &str = env!("CARGO_BIN_EXE_retro");

/// Spawns `sh -c` in a `cols`x`rows` pseudo-terminal running the shell fragment `run`, then
/// printing `RC=status`, SETTINGS-RESTORED or SETTINGS-CHANGED (the `stty -g` settings
/// compared), the settings (`stty -a`) and END-OF-TEST. Waits for anything up to `timeout`.
pub fn spawn_shell(cols: u16, rows: u16, run: &str, timeout: Duration) -> expectrl::Session {
    let script = format!(
        "stty cols {cols} rows {rows}; before=$(stty -g); {run}; rc=$?; after=$(stty -g); \
         echo \"RC=$rc\"; \
         if [ \"$before\" = \"$after\" ]; then echo SETTINGS-RESTORED; else echo SETTINGS-CHANGED; fi; \
         stty -a; echo END-OF-TEST"
    );
    let mut cmd = Command::new("sh");
    // A panic's message is what a user sees: no backtrace. The debugger's history goes to the
    // build's scratch directory, never the user's home (a test that needs its own sets
    // RETRO_DATA_DIR in `run`).
    cmd.arg("-c")
        .arg(script)
        .env_remove("RUST_BACKTRACE")
        .env("RETRO_DATA_DIR", scratch_data_dir());
    let mut s = expectrl::Session::spawn(cmd).expect("spawn a pseudo-terminal");
    s.set_expect_timeout(Some(timeout));
    s
}

/// Where the terminal tests' debugger keeps its history unless a test says otherwise.
pub fn scratch_data_dir() -> String {
    format!("{}/retro-data", env!("CARGO_TARGET_TMPDIR"))
}

/// `retro ARGS` (shell words, quoted by the caller) in a `cols`x`rows` pseudo-terminal, as
/// [`spawn_shell`], waiting up to a minute for anything.
pub fn spawn_retro(cols: u16, rows: u16, args: &str) -> expectrl::Session {
    spawn_shell(cols, rows, &format!("'{RETRO}' {args}"), Duration::from_secs(60))
}

/// Everything the terminal showed up to END-OF-TEST (`why` says what should have ended the run).
pub fn finish(s: &mut expectrl::Session, why: &str) -> String {
    let captured = s.expect("END-OF-TEST").expect(why);
    String::from_utf8_lossy(captured.before()).into_owned()
}

/// Checks the exit status and that the terminal settings came back as they were.
pub fn assert_exit_and_restored(out: &str, status: i32) {
    assert!(
        out.contains(&format!("RC={status}\r")) || out.contains(&format!("RC={status}\n")),
        "exit status {status} expected:\n{out}"
    );
    assert!(
        out.contains("SETTINGS-RESTORED"),
        "terminal settings changed:\n{out}"
    );
}

/// Ctrl-Q, then [`finish`] and [`assert_exit_and_restored`] with status 0.
pub fn quit_and_check_restored(mut s: expectrl::Session) -> String {
    s.send("\x11").unwrap(); // Ctrl-Q
    let out = finish(&mut s, "Ctrl-Q ends the run");
    assert_exit_and_restored(&out, 0);
    out
}

/// The background colour of each terminal column of a `capture-pane -e` line (`None`: black or
/// the default).
pub fn backgrounds(line: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut bg: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(bg.clone());
            continue;
        }
        if chars.next_if_eq(&'[').is_none() {
            continue;
        }
        let mut params = String::new();
        for p in chars.by_ref() {
            if p.is_ascii_alphabetic() {
                break;
            }
            params.push(p);
        }
        let ps: Vec<&str> = params.split(';').collect();
        let mut i = 0;
        while i < ps.len() {
            match ps[i] {
                "" | "0" | "49" => bg = None,
                "38" => i += if ps.get(i + 1) == Some(&"5") { 2 } else { 4 },
                "48" => {
                    let n = if ps.get(i + 1) == Some(&"5") { 2 } else { 4 };
                    let value = ps[i + 1..(i + 1 + n).min(ps.len())].join(";");
                    bg = (!matches!(value.as_str(), "5;16" | "5;0" | "2;0;0;0")).then_some(value);
                    i += n;
                }
                p if p.len() == 2 && p.starts_with('4') => bg = (p != "40").then(|| p.to_string()),
                p if p.len() == 3 && p.starts_with("10") => bg = Some(p.to_string()),
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// Whether tmux is there to drive a terminal test. Without it the test is skipped with a message,
/// except under RETRO_REQUIRE_CONFORMANCE (CI), where it fails.
pub fn tmux_available() -> bool {
    if Command::new("tmux").arg("-V").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
        "tmux is needed for the terminal test"
    );
    eprintln!("SKIPPED: tmux not installed");
    false
}

/// `retro` in a tmux window on a tmux server of its own (so ending it touches nothing else),
/// with the terminal settings noted before and after the run; the window stays open after
/// retro ends (with `RC=status` shown) until the server is killed, on drop.
pub struct Tmux {
    socket: String,
    settings: Option<tempfile::TempDir>,
}

impl Tmux {
    /// Starts `retro ARGS` (shell words, quoted by the caller) in `dir`, in a `cols`x`rows`
    /// window; `None` (the test skips) when tmux is missing. `name` keeps servers apart.
    pub fn start(name: &str, cols: u16, rows: u16, dir: &Path, args: &str) -> Option<Tmux> {
        Tmux::start_with_data(name, cols, rows, dir, &scratch_data_dir(), args)
    }

    /// As [`Tmux::start`], with the debugger's history in `data` (RETRO_DATA_DIR).
    pub fn start_with_data(
        name: &str,
        cols: u16,
        rows: u16,
        dir: &Path,
        data: &str,
        args: &str,
    ) -> Option<Tmux> {
        let settings = tempfile::tempdir().expect("temp dir");
        let s = settings.path().join("stty");
        let cmd = format!(
            "cd '{}'; export RETRO_DATA_DIR='{data}'; stty -g > '{s}.before'; '{RETRO}' {args}; rc=$?; stty -g > '{s}.after'; echo RC=$rc; sleep 30",
            dir.display(),
            s = s.display()
        );
        Tmux::start_shell(name, cols, rows, &cmd, Some(settings))
    }

    /// Starts the shell command `cmd` in a `cols`x`rows` window, with `settings` the directory
    /// where it notes the terminal settings (`stty.before`, `stty.after`) if it does.
    pub fn start_shell(
        name: &str,
        cols: u16,
        rows: u16,
        cmd: &str,
        settings: Option<tempfile::TempDir>,
    ) -> Option<Tmux> {
        if !tmux_available() {
            return None;
        }
        let tmux = Tmux {
            socket: format!("retro-{name}-{}", std::process::id()),
            settings,
        };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        tmux.run(&["new-session", "-d", "-x", &cols, "-y", &rows, cmd]);
        Some(tmux)
    }

    /// A tmux command on this server.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// The window's text as tmux shows it.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p"]).stdout).into_owned()
    }

    /// The screen once `done` holds for it, waiting up to 30 s (then the test fails).
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("{what} never appeared; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The screen once it shows `text`.
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Keys as tmux's send-keys names them (`-l` first for literal text).
    pub fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// A line typed and RETURN. (tmux takes a trailing ';' as its own command separator.)
    pub fn line(&self, text: &str) {
        self.send(&["-l", text]);
        self.send(&["Enter"]);
    }

    /// Waits for retro to end, checks the terminal settings came back, and gives the last screen
    /// (with `RC=status` on it; shown once the settings after the run are noted).
    pub fn finish(self) -> String {
        let s = self.wait_for("RC=");
        let dir = self.settings.as_ref().expect("a run started by Tmux::start");
        let file = |which: &str| {
            std::fs::read_to_string(dir.path().join(format!("stty.{which}")))
                .expect("the settings were noted")
        };
        assert_eq!(
            file("before"),
            file("after"),
            "the terminal settings are restored"
        );
        s
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // The server leaves its socket behind when killed: remove it too.
        let socket = self.run(&["display-message", "-p", "#{socket_path}"]);
        let _ = self.run(&["kill-server"]);
        let socket = String::from_utf8_lossy(&socket.stdout).trim().to_string();
        if !socket.is_empty() {
            let _ = std::fs::remove_file(socket);
        }
    }
}
