#!/bin/sh
# Re-records our own NES Tetris movies (issue #17) from their key scripts: NAME.keys -> NAME.fm2,
# each run headless for its time (the game's top-out plus some two seconds of curtain); and the
# AI's two short games (issue #30: level 19, 30 Hz, until 30 lines, title-screen waits 1 and 2),
# ai_level19_seedN.fm2. The oracle's traces of them are recorded by ../tests/record-traces.sh.
# Usage: sh programs/tetris/movies/record.sh [path/to/retro]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
retro=${1:-$here/../../../target/debug/retro}
for entry in a_type_level0:44.2 level19:17.3 b_type:31.4; do
  name=${entry%%:*}
  "$retro" run "$here/../tetris.asm" --headless --keys "$here/$name.keys" --time "${entry##*:}" \
    --record "$here/$name.fm2" > /dev/null
done
for seed in 1 2; do
  "$retro" run "$here/../tetris.asm" --headless --ai --ai-level 19 --ai-tap 30 --ai-lines 30 \
    --seed "$seed" --record "$here/ai_level19_seed$seed.fm2" > /dev/null 2>&1
done
