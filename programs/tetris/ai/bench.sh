#!/bin/sh
# The Tetris AI's benchmark (issue #30, docs/tetris-ai.md): ten games from level 19 at each press
# rate given (default 30 and 15 Hz), title-screen waits $SEEDS (default 0 1 2 3 9 10 11 12 13 16:
# ten different games; waits 4-8 repeat 0-3, docs/tetris-ai.md says why), each recorded with --record and
# replayed by the meta_nestris oracle (built once in a scratch copy): a row per game with the
# score, lines, level and frames the AI printed, whether the oracle's replay ends on the same
# score and lines having agreed at every frame, the decisions' CPU time and the game's wall time.
# A game still going after $AI_TIME seconds of game time (default 7200) ends there: its frames
# are then AI_TIME * 60.
# Usage: sh programs/tetris/ai/bench.sh path/to/release/retro [HZ...]
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
retro=$1
shift
rates=${*:-30 15}
src=${RETRO_ORACLES:-$root/../shared/oracles}/meta_nestris
scratch=${TMPDIR:-/tmp}/retro-ai-bench
rm -rf "$scratch"
cp -r "$src" "$scratch"
chmod -R u+w "$scratch"
(cd "$scratch" && RUSTC_BOOTSTRAP=1 cargo build --quiet --release --example trace)
trace=$scratch/target/release/examples/trace
game=$root/programs/tetris/tetris.asm
for hz in $rates; do
  echo "| $hz Hz seed | score | lines | level | frames | oracle | decision CPU median / worst | game wall time |"
  echo "|---|---|---|---|---|---|---|---|"
  for seed in ${SEEDS:-0 1 2 3 9 10 11 12 13 16}; do
    movie=$scratch/ai.fm2
    start=$(date +%s.%N)
    said=$("$retro" run "$game" --headless --ai --ai-level 19 --ai-tap "$hz" --seed "$seed" \
      --time "${AI_TIME:-7200}" --record "$movie" 2> "$scratch/err")
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    cpu=$(sed -n 's/.*CPU median \([0-9.]*\) ms, worst \([0-9.]*\) ms.*/\1 \/ \2 ms/p' "$scratch/err")
    "$trace" "$movie" > "$scratch/oracle.trace"
    "$retro" run "$game" --headless --movie "$movie" --trace-state 2>/dev/null > "$scratch/ours.trace"
    end=$(tail -1 "$scratch/oracle.trace" | cut -d' ' -f4-5)
    set -- $said
    if cmp -s "$scratch/oracle.trace" "$scratch/ours.trace" && [ "$end" = "$3 $5" ]; then
      agree=same
    else
      agree="DIFFERS ($end)"
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %.1f s |\n' "$seed" "$3" "$5" "$7" "$9" "$agree" "$cpu" "$wall"
  done
done
rm -rf "$scratch"
