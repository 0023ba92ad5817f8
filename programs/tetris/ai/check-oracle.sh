#!/bin/sh
# Issue #30: every game the Tetris AI plays is a game of NES Tetris. Plays two fresh AI games with
# the retro binary given (level 19, 30 presses a second, to 30 lines; title-screen waits 3 and 9,
# not the committed movies' 1 and 2), records each with --record, and replays it in the
# meta_nestris oracle (../shared/oracles/meta_nestris or $RETRO_ORACLES/meta_nestris, built once
# in a scratch copy as tests/record-traces.sh does): the oracle's trace must equal our game's
# --trace-state at every frame and end on the score, lines and level the AI printed.
# AI_SEEDS and AI_LINES change the waits and the lines: `AI_SEEDS=1 AI_LINES=990` is the long
# check (docs/tetris-ai.md, "Checks": a game through level 87's tetris, where the game once lost a
# frame the NES does not lose; about a minute with a release build).
# Usage: sh programs/tetris/ai/check-oracle.sh [path/to/retro]
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
retro=${1:-$root/target/debug/retro}
src=${RETRO_ORACLES:-$root/../shared/oracles}/meta_nestris
[ -d "$src" ] || { echo "check-oracle: no oracle at $src" >&2; exit 1; }
scratch=${TMPDIR:-/tmp}/retro-ai-oracle-check
rm -rf "$scratch"
cp -r "$src" "$scratch"
chmod -R u+w "$scratch"
# The oracle needs a nightly feature; RUSTC_BOOTSTRAP lets the stable toolchain build it.
(cd "$scratch" && RUSTC_BOOTSTRAP=1 cargo build --quiet --release --example trace)
trace=$scratch/target/release/examples/trace
game=$root/programs/tetris/tetris.asm
status=0
for seed in ${AI_SEEDS:-3 9}; do
  movie=$scratch/ai$seed.fm2
  said=$("$retro" run "$game" --headless --ai --ai-lines "${AI_LINES:-30}" --seed "$seed" --record "$movie" 2>/dev/null)
  "$trace" "$movie" > "$scratch/oracle.trace"
  "$retro" run "$game" --headless --movie "$movie" --trace-state 2>/dev/null > "$scratch/ours.trace"
  if ! cmp -s "$scratch/oracle.trace" "$scratch/ours.trace"; then
    echo "check-oracle: seed $seed: our game differs from the oracle's:" >&2
    diff "$scratch/oracle.trace" "$scratch/ours.trace" | head -4 >&2
    status=1
  fi
  # FRAME play STATE score lines level ...
  end=$(tail -1 "$scratch/oracle.trace" | cut -d' ' -f4-6)
  score=${end%% *}
  rest=${end#* }
  case "$said" in
    "ai: score $score lines ${rest%% *} level ${rest#* } frames "*)
      echo "check-oracle: seed $seed: $said; the oracle agrees at every frame" ;;
    *)
      echo "check-oracle: seed $seed: the AI said '$said', the oracle ends on score $score lines ${rest%% *} level ${rest#* }" >&2
      status=1 ;;
  esac
done
rm -rf "$scratch"
exit $status
