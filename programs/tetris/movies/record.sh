#!/bin/sh
# Re-records our own NES Tetris movies (issue #17) from their key scripts: NAME.keys -> NAME.fm2,
# each run headless for its time (the game's top-out plus some two seconds of curtain). The
# oracle's traces of them are recorded by ../tests/record-traces.sh.
# Usage: sh programs/tetris/movies/record.sh [path/to/retro]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
retro=${1:-$here/../../../target/debug/retro}
for entry in a_type_level0:44.2 level19:17.3 b_type:31.4; do
  name=${entry%%:*}
  "$retro" run "$here/../tetris.asm" --headless --keys "$here/$name.keys" --time "${entry##*:}" \
    --record "$here/$name.fm2" > /dev/null
done
