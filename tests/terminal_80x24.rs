//! Every machine at 80x24, the most common terminal size, in tmux (issue 31): a 40x25 screen
//! shows the 24 rows around its cursor with a marker that a row is hidden, the status line steps
//! aside rather than cover the row being typed on, and `retro tpa --show` draws its 21x42 field in
//! half-block characters. The BBC prompt shows a cursor where the next character goes.

use std::path::Path;

#[path = "common/pty.rs"]
mod pty;

/// The screen without spaces (a 40-column screen's cells are two terminal columns each).
fn squeezed(screen: &str) -> String {
    screen.replace(' ', "")
}

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The terminal's cursor: (column, row, shown).
fn cursor(tmux: &pty::Tmux) -> (u16, u16, bool) {
    let out = tmux.run(&["display-message", "-p", "#{cursor_x},#{cursor_y},#{cursor_flag}"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.trim().split(',').collect();
    (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f.get(2) == Some(&"1"),
    )
}

/// The C64 at 80x24, once its screen has scrolled: the line being typed shows on the bottom row
/// (the status line no longer covers it), row 0 is hidden and marked.
#[test]
#[cfg(unix)]
fn the_c64_prompt_shows_the_typed_line_at_80x24() {
    let Some(tmux) = pty::Tmux::start("c64-80x24", 80, 24, here(), "c64") else {
        return;
    };
    tmux.wait_until("READY.", |s| squeezed(s).contains("READY."));
    for i in 0..14 {
        tmux.line(&format!("print {i}"));
    }
    tmux.send(&["-l", "print \"typed\""]);
    let s = tmux.wait_until("the typed line", |s| squeezed(s).contains("PRINT\"TYPED\""));
    let rows: Vec<&str> = s.lines().collect();
    assert_eq!(rows.len(), 24, "{s}");
    assert!(
        squeezed(rows[23]).contains("PRINT\"TYPED\""),
        "the typed line is on the bottom row:\n{s}"
    );
    assert!(rows[0].ends_with('▲'), "a hidden row above is marked:\n{s}");
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// BBC BASIC's prompt at 80x24: the typed line shows, and the terminal's cursor stands where the
/// next character goes and moves with Left and Right.
#[test]
#[cfg(unix)]
fn the_bbc_prompt_shows_the_typed_line_and_a_cursor_that_moves() {
    let Some(tmux) = pty::Tmux::start("bbc-80x24", 80, 24, here(), "bbc") else {
        return;
    };
    tmux.wait_until("the prompt", |s| s.lines().any(|l| l.trim() == ">"));
    tmux.send(&["-l", "PRINT 12"]);
    let s = tmux.wait_until("the typed line", |s| squeezed(s).contains(">PRINT12"));
    let row = s.lines().position(|l| squeezed(l).contains(">PRINT12")).unwrap();
    let (x, y, shown) = cursor(&tmux);
    assert!(shown, "the cursor shows at the prompt");
    assert_eq!(usize::from(y), row, "on the typed line");
    // ">PRINT 12" is 9 characters, two columns each: the next one goes in column 18.
    assert_eq!(x, 18, "after the typed text:\n{s}");
    tmux.send(&["Left", "Left"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(cursor(&tmux).0, 14, "two Lefts move it two characters back");
    tmux.send(&["Right"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(cursor(&tmux).0, 16, "Right moves it on");
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// Baba (a C64 program) at 80x24 shows its title screen's text.
#[test]
#[cfg(unix)]
fn baba_shows_its_screen_at_80x24() {
    let Some(tmux) = pty::Tmux::start("baba-80x24", 80, 24, here(), "run programs/baba/baba.prg") else {
        return;
    };
    let s = tmux.wait_until("Baba's title", |s| squeezed(&s.to_uppercase()).contains("BABA"));
    assert!(!s.contains("needs a terminal"), "{s}");
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// `retro tpa --show` at 80x24: the field in half-block characters, 21 rows, with the status line
/// below it (it needed 42 rows and said the terminal was too small).
#[test]
#[cfg(unix)]
fn tpa_show_fits_80x24_in_half_blocks() {
    let Some(tmux) = pty::Tmux::start(
        "tpa-80x24",
        80,
        24,
        here(),
        "tpa interpreters/tpa/sprites/robot.txt --show --replay-time 2",
    ) else {
        return;
    };
    let s = tmux.wait_until("the end of the replay", |s| s.contains("program ended"));
    assert!(!s.contains("needs a terminal"), "{s}");
    let shot = tmux.run(&["capture-pane", "-p", "-e"]);
    let screen = String::from_utf8_lossy(&shot.stdout).into_owned();
    let coloured: Vec<usize> = screen
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            pty::backgrounds(l)
                .iter()
                .flatten()
                .any(|bg| bg != "5;250" && bg != "47")
        })
        .map(|(i, _)| i)
        .collect();
    // The printed sprite: coloured rows within the field's 21, none on the status line (23).
    assert!(coloured.len() >= 8, "rows with colour: {coloured:?}\n{screen}");
    assert!(coloured.iter().all(|&r| r < 23), "{coloured:?}");
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// The status line never covers a row the program uses: Connect-4's key hints on its last row at
/// 80x24 (26.8), the test card's legend on its last row at 80x32; F12 brings the status line
/// back over the picture.
#[test]
#[cfg(unix)]
fn the_status_line_leaves_the_programs_last_row_alone() {
    let Some(tmux) = pty::Tmux::start(
        "hints-80x24",
        80,
        24,
        here(),
        "run programs/connect4/connect4.asm",
    ) else {
        return;
    };
    tmux.wait_until("the menu", |s| squeezed(s).contains("TWOPLAYERS"));
    tmux.send(&["2"]);
    let s = tmux.wait_until("the key hints", |s| squeezed(s).contains("OPMOVESPACEDROPQQUIT"));
    let last = s.lines().nth(23).unwrap_or_default();
    assert!(
        squeezed(last).contains("OPMOVESPACEDROPQQUIT"),
        "row 23: {last:?}\n{s}"
    );
    tmux.send(&["F12"]);
    tmux.wait_until("the status line with the help", |s| s.contains("Ctrl-Q quit"));
    tmux.send(&["F12"]);
    tmux.send(&["C-q"]);
    tmux.finish();

    let Some(tmux) = pty::Tmux::start("testcard-80x32", 80, 32, here(), "testcard") else {
        return;
    };
    let s = tmux.wait_until("the legend", |s| squeezed(s).contains("SPACE:cells"));
    let last = s.lines().nth(31).unwrap_or_default();
    assert!(
        squeezed(last).contains("SPACE:cellsF12:helpCtrl-Q:quit"),
        "row 31: {last:?}\n{s}"
    );
    tmux.send(&["C-q"]);
    tmux.finish();
}

/// A machine whose screen cannot be shown (the terminal far too small) stands still and says so;
/// once the terminal is big enough it goes on from where it stopped, its clock not having run.
#[test]
#[cfg(unix)]
fn a_machine_pauses_while_its_screen_cannot_be_shown() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clock.bbc"),
        "10 REPEAT:PRINT TAB(0,0);\"T=\";TIME;\"  \":UNTIL FALSE\n",
    )
    .unwrap();
    let Some(tmux) = pty::Tmux::start("pause-small", 30, 10, dir.path(), "run clock.bbc") else {
        return;
    };
    tmux.wait_until("the pause", |s| s.contains("paused"));
    std::thread::sleep(std::time::Duration::from_secs(3));
    tmux.run(&["resize-window", "-x", "100", "-y", "40"]);
    let s = tmux.wait_until("the clock", |s| squeezed(s).contains("T="));
    let shown = squeezed(&s);
    let t: String = shown[shown.find("T=").unwrap() + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let t: u32 = t.parse().unwrap_or_else(|_| panic!("TIME shown:\n{s}"));
    assert!(t < 200, "TIME ran on while nothing could be shown: {t} cs");
    tmux.send(&["C-q"]);
    tmux.finish();
}
