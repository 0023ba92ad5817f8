#!/usr/bin/env python3
"""Usage: scripts/first-frame.py target/release/retro run programs/rheolism/rheolism.bbc

Measures how soon `retro run` shows its first frame: spawns it on a pseudo-terminal (100x36,
truecolour) and timestamps the output. Reports the time to the first drawn frame (the alternate
screen with cells in it) and to the first frame with the game's white screen (RGB 255,255,255
background cells), then kills the run."""
import os, pty, sys, time, select, struct, fcntl, termios, signal

def measure(cmd):
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 100, 0, 0))
    buf = b""
    first = white = None
    while time.monotonic() - t0 < 5 and white is None:
        r, _, _ = select.select([fd], [], [], 0.01)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            now = time.monotonic() - t0
            buf += data
            if b"\x1b[c" in data:
                # Answer the terminal query the way a VT220-class terminal without the kitty
                # keyboard protocol does (as tmux would).
                os.write(fd, b"\x1b[?62;22c")
            if first is None and b"48;2;" in buf:
                first = now
            if b"48;2;255;255;255" in buf:
                white = now
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return first, white

runs = [measure(sys.argv[1:]) for _ in range(10)]
for f, w in runs:
    print(f"first frame {f*1000:.1f} ms, white game screen {w*1000:.1f} ms")
fs = sorted(r[0] for r in runs); ws = sorted(r[1] for r in runs)
print(f"median: first frame {fs[5]*1000:.1f} ms, game screen {ws[5]*1000:.1f} ms; worst {fs[-1]*1000:.1f} / {ws[-1]*1000:.1f} ms")
