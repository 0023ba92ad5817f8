#!/bin/sh
# Records what Debian's brandy (Matrix Brandy, SDL build) prints for each corpus program, as the
# raw *SPOOL bytes in NAME.brandy. Programs that read input (NAME.in) are skipped: brandy's SDL
# build reads the keyboard, not stdin, so their expected output is written by hand (NAME.expect).
#
# Prompt sessions (NAME.prompt, lines typed at the `>` prompt) are recorded too: brandy's SDL
# build cannot read them from stdin either, so a two-line program spools the screen and hands the
# keyboard to the session with *EXEC, then ends at the prompt, which reads the session's lines as
# typed (echoing each after its `>`). The session starts with NEW (to drop that program), whose
# echoed `>NEW` line is left out of NAME.brandy; every session ends with QUIT.
#
# Usage: record.sh [DIR]   (default: the directory of this script)
# CI runs it when brandy is installed and fails if any .brandy file changes (git diff).
set -eu
dir=${1:-$(dirname "$0")}
command -v brandy >/dev/null || { echo "record.sh: brandy is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for prog in "$dir"/*.bbc; do
    [ -e "$prog" ] || continue
    name=${prog%.bbc}
    [ -e "$name.in" ] && continue
    [ -e "$name.skip-brandy" ] && continue
    spool="$tmp/spool.txt"
    rm -f "$spool"
    # Line 0 spools the VDU stream; no corpus program uses line 0.
    { echo "0 *SPOOL $spool"; cat "$prog"; } > "$tmp/prog.bas"
    # Each program runs in an empty directory of its own (some write files).
    rm -rf "$tmp/work" && mkdir "$tmp/work"
    (cd "$tmp/work" && SDL_VIDEODRIVER=dummy timeout 20 brandy -quit "$tmp/prog.bas" </dev/null >/dev/null 2>&1) || true
    if [ -e "$spool" ]; then
        cp "$spool" "$name.brandy"
    else
        echo "record.sh: no output from $prog" >&2
    fi
done
for session in "$dir"/*.prompt; do
    [ -e "$session" ] || continue
    name=${session%.prompt}
    [ -e "$name.skip-brandy" ] && continue
    spool="$tmp/spool.txt"
    rm -f "$spool"
    { echo NEW; cat "$session"; } > "$tmp/typed"
    printf '0 *SPOOL %s\n1 *EXEC %s\n' "$spool" "$tmp/typed" > "$tmp/boot.bas"
    rm -rf "$tmp/work" && mkdir "$tmp/work"
    (cd "$tmp/work" && SDL_VIDEODRIVER=dummy timeout 20 brandy -chain "$tmp/boot.bas" </dev/null >/dev/null 2>&1) || true
    if [ -e "$spool" ]; then
        # Drop the echoed NEW line (the first 6 bytes: `>NEW` CR LF).
        tail -c +7 "$spool" > "$name.brandy"
    else
        echo "record.sh: no output from $session" >&2
    fi
done
