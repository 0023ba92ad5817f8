//! Issue 32, a BASIC program's files end to end: found in the program's own directory (or
//! `--dir`) under `run` and `debug` alike, whatever the current directory; RISC OS names; no
//! way out of that directory through a symbolic link; read-only files refused with RISC OS's
//! words; a run stopped while a file is open leaves the old contents; and, in a terminal, Escape
//! and Ctrl-Q always work (a FIFO is refused before it can block, a PRINT# loop is stopped).

use std::path::Path;
use std::process::Command;

mod common;
use common::stderr;

#[path = "common/pty.rs"]
mod pty;

/// `retro ARGS` run in `cwd`, with no input: (stdout, stderr).
fn run_in(cwd: &Path, args: &[&str]) -> (String, String) {
    let o = common::retro_in(cwd, args, b"");
    (String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
}

#[test]
fn files_live_in_the_program_directory_under_run_and_debug() {
    let dir = tempfile::tempdir().unwrap();
    let (prog, elsewhere) = (dir.path().join("prog"), dir.path().join("elsewhere"));
    std::fs::create_dir_all(&prog).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    // Upper case and CR-ended, so the C64's INPUT# reads and prints it as it is.
    std::fs::write(prog.join("data.txt"), "HERE\r").unwrap();
    std::fs::write(elsewhere.join("data.txt"), "WRONG\r").unwrap();
    // BBC: RISC OS's `data/txt` is the host's data.txt, in the program's directory.
    std::fs::write(
        prog.join("r.bbc"),
        "10 c=OPENIN \"data/txt\":PRINT GET$#c:CLOSE#c\n",
    )
    .unwrap();
    // C64: device 8 is the program's directory too.
    std::fs::write(
        prog.join("r.bas"),
        "10 open 2,8,2,\"data.txt,s,r\"\n20 input#2,a$\n30 print a$\n40 close 2\n",
    )
    .unwrap();
    let bbc = prog.join("r.bbc");
    let c64 = prog.join("r.bas");
    let (bbc, c64) = (bbc.to_str().unwrap(), c64.to_str().unwrap());
    let cwd = &elsewhere;
    let (out, err) = run_in(cwd, &["run", bbc, "--headless"]);
    assert_eq!(out, "HERE\n", "{err}");
    let (out, err) = run_in(cwd, &["run", "--machine", "cbm", c64, "--headless"]);
    assert!(out.contains("HERE"), "{out}{err}");
    let (out, err) = run_in(cwd, &["debug", bbc, "--script", "=run"]);
    assert!(out.contains("HERE"), "{out}{err}");
    let (out, err) = run_in(cwd, &["debug", c64, "--script", "=run"]);
    assert!(out.contains("HERE"), "{out}{err}");
    // --dir names another directory, for both commands.
    let (out, _) = run_in(
        &prog,
        &["run", bbc, "--headless", "--dir", elsewhere.to_str().unwrap()],
    );
    assert_eq!(out, "WRONG\n");
    let (out, _) = run_in(
        &prog,
        &[
            "debug",
            bbc,
            "--dir",
            elsewhere.to_str().unwrap(),
            "--script",
            "=run",
        ],
    );
    assert!(out.contains("WRONG"), "{out}");
}

#[test]
fn no_hidden_files_no_links_out_and_read_only_files_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret"), "secret").unwrap();
    std::fs::write(root.join(".bashrc"), "rc").unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), root.join("link")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("away")).unwrap();
    std::fs::write(root.join("ro"), "keep").unwrap();
    std::fs::set_permissions(
        root.join("ro"),
        std::os::unix::fs::PermissionsExt::from_mode(0o444),
    )
    .unwrap();
    let report = |stmt: &str| {
        std::fs::write(
            root.join("p.bbc"),
            format!("10 ON ERROR PRINT REPORT$:END\n20 {stmt}\n30 PRINT \"done\"\n"),
        )
        .unwrap();
        run_in(&root, &["run", "p.bbc", "--headless"]).0
    };
    for (stmt, want) in [
        ("c=OPENOUT \"/bashrc\"", "Bad name"),
        ("c=OPENIN \"/bashrc\"", "Bad name"),
        ("c=OPENIN \"link\"", "Access violation"),
        ("c=OPENOUT \"link\"", "Access violation"),
        ("c=OPENOUT \"away.new\"", "Access violation"),
        ("*DELETE away.secret", "Access violation"),
        ("*DIR away", "Access violation"),
        ("c=OPENOUT \"ro\"", "Access violation"),
        ("c=OPENUP \"ro\"", "Access violation"),
        ("*DELETE ro", "Locked"),
        // Reading a read-only file is fine.
        ("c=OPENIN \"ro\":PRINT GET$#c", "keep\ndone"),
    ] {
        assert_eq!(report(stmt), format!("{want}\n"), "{stmt}");
    }
    assert_eq!(std::fs::read(outside.join("secret")).unwrap(), b"secret");
    assert!(!outside.join("new").exists());
    assert_eq!(std::fs::read(root.join("ro")).unwrap(), b"keep");
    assert_eq!(std::fs::read(root.join(".bashrc")).unwrap(), b"rc");
    // A read-only directory with a writable file in it: the file is written in place.
    let ro_dir = dir.path().join("rodir");
    std::fs::create_dir_all(&ro_dir).unwrap();
    std::fs::write(ro_dir.join("f"), "old").unwrap();
    std::fs::write(
        ro_dir.join("p.bbc"),
        "10 c=OPENOUT \"f\":BPUT#c,\"new\";:CLOSE#c\n",
    )
    .unwrap();
    std::fs::set_permissions(&ro_dir, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let (_, err) = run_in(&ro_dir, &["run", "p.bbc", "--headless"]);
    std::fs::set_permissions(&ro_dir, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    assert_eq!(std::fs::read(ro_dir.join("f")).unwrap(), b"new", "{err}");
}

/// A file being written when the run stops keeps its old contents: an error, and `--time`.
#[test]
fn a_run_stopped_while_writing_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("log"), "old").unwrap();
    std::fs::write(d.join("err.bbc"), "10 c=OPENOUT \"log\":PRINT#c,\"new\":X=1/0\n").unwrap();
    let (_, err) = run_in(d, &["run", "err.bbc", "--headless"]);
    assert!(err.contains("Division by zero"), "{err}");
    assert_eq!(std::fs::read(d.join("log")).unwrap(), b"old");
    std::fs::write(
        d.join("loop.bbc"),
        "10 c=OPENOUT \"log\"\n20 REPEAT PRINT#c,\"new\":UNTIL FALSE\n",
    )
    .unwrap();
    let (_, err) = run_in(d, &["run", "loop.bbc", "--headless", "--time", "1"]);
    assert_eq!(std::fs::read(d.join("log")).unwrap(), b"old", "{err}");
    // Closed by the program: written.
    std::fs::write(d.join("ok.bbc"), "10 c=OPENOUT \"log\":BPUT#c,\"new\";:CLOSE#c\n").unwrap();
    run_in(d, &["run", "ok.bbc", "--headless"]);
    assert_eq!(std::fs::read(d.join("log")).unwrap(), b"new");
}

/// In the terminal: Escape during a PRINT# loop stops the program and the file keeps its old
/// contents; OPENIN of a FIFO is refused at once, so Escape and Ctrl-Q go on working.
#[test]
#[cfg(unix)]
fn escape_and_ctrl_q_in_the_terminal_with_files_open() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("log"), "old").unwrap();
    std::fs::write(
        d.join("w.bbc"),
        "10 c=OPENOUT \"log\"\n20 PRINT \"WRITING\"\n30 REPEAT PRINT#c,\"new\":UNTIL FALSE\n",
    )
    .unwrap();
    let spaced = |s: &str| s.chars().map(String::from).collect::<Vec<_>>().join(" ");
    let Some(tmux) = pty::Tmux::start("bbc-files-escape", 100, 40, d, "run w.bbc") else {
        return;
    };
    tmux.wait_for(&spaced("WRITING"));
    std::thread::sleep(std::time::Duration::from_millis(500));
    tmux.send(&["Escape"]);
    tmux.wait_for(&spaced("Escape"));
    tmux.send(&["C-q"]);
    tmux.finish();
    assert_eq!(std::fs::read(d.join("log")).unwrap(), b"old");

    assert!(
        Command::new("mkfifo")
            .arg(d.join("pipe"))
            .status()
            .unwrap()
            .success()
    );
    std::fs::write(
        d.join("f.bbc"),
        "10 ON ERROR IF ERR=17 THEN PRINT \"ESCAPED\":END ELSE PRINT REPORT$:GOTO 40\n\
         20 X=OPENIN \"pipe\"\n30 PRINT \"OPENED\"\n40 REPEAT UNTIL FALSE\n",
    )
    .unwrap();
    let Some(tmux) = pty::Tmux::start("bbc-files-fifo", 100, 40, d, "run f.bbc") else {
        return;
    };
    tmux.wait_for(&spaced("Access violation"));
    tmux.send(&["Escape"]);
    tmux.wait_for(&spaced("ESCAPED"));
    tmux.send(&["C-q"]);
    tmux.finish();
    // Ctrl-Q alone, while the program is still looping after the refusal.
    let Some(tmux) = pty::Tmux::start("bbc-files-fifo-q", 100, 40, d, "run f.bbc") else {
        return;
    };
    tmux.wait_for(&spaced("Access violation"));
    tmux.send(&["C-q"]);
    let screen = tmux.finish();
    assert!(screen.contains("RC=0"), "{screen}");
}

/// The C64's device 8 follows the same rule as BBC BASIC's files: no symbolic link out.
#[test]
fn c64_device_8_refuses_links_out_of_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret"), "SECRET\r").unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), root.join("link")).unwrap();
    std::fs::write(root.join("inside"), "INSIDE\r").unwrap();
    std::fs::write(
        root.join("p.bas"),
        "10 open 2,8,2,\"link,s,r\"\n20 input#2,a$:print a$\n",
    )
    .unwrap();
    let (out, err) = run_in(&root, &["run", "--machine", "cbm", "p.bas", "--headless"]);
    assert!(
        err.contains("?FILE NOT FOUND") && !out.contains("SECRET"),
        "{out}{err}"
    );
    std::fs::write(
        root.join("p.bas"),
        "10 open 2,8,2,\"inside,s,r\"\n20 input#2,a$:print a$\n",
    )
    .unwrap();
    let (out, err) = run_in(&root, &["run", "--machine", "cbm", "p.bas", "--headless"]);
    assert!(out.contains("INSIDE"), "{out}{err}");
}
