#!/usr/bin/env bash
# Whole-process timing of programs/baba moves: `retro run --headless` plays the 30-word level of
# examples/baba_speed.rs with N rounds of RIGHT (pushes a word: the rules are read again) and Z
# (undo: the rules are read again), and once with no rounds; the difference over 2N keys is the
# CPU time (user + system) and the wall time a key costs, start-up and level set-up excluded.
# Each run is repeated RUNS times and the best taken (the machine may be shared).
#
#   scripts/baba-speed.sh [N [RUNS]]      (default 500 rounds, 5 runs)
#
# Environment: RETRO_PROFILE (release, the default, or dev: which build of retro and of the
# example), RETRO_BIN (default target/release/retro, or target/debug/retro for dev). The level's
# listing is written by `cargo run [--release] --example baba_speed -- --listing FILE`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-500}"
runs="${2:-5}"
profile="${RETRO_PROFILE:-release}"
case "$profile" in
  release) flag=(--release); dir=release ;;
  dev) flag=(); dir=debug ;;
  *) echo "RETRO_PROFILE is release or dev" >&2; exit 2 ;;
esac
retro="${RETRO_BIN:-$root/target/$dir/retro}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && cargo run -q "${flag[@]}" --example baba_speed -- --listing "$work/words30.bas")

keys="SPACE"
for _ in $(seq "$n"); do keys="$keys RIGHT z"; done
printf '%s\n' "$keys" > "$work/moves.keys"
printf 'SPACE\n' > "$work/none.keys"

# Best wall and CPU seconds of RUNS runs of one key script, as "wall cpu".
best() {
  local keys=$1 wall cpu bw=999999 bc=999999
  for _ in $(seq "$runs"); do
    read -r wall cpu < <( { /usr/bin/time -f '%e %U %S' "$retro" run --headless \
      "$work/words30.bas" --keys "$keys" > /dev/null; } 2>&1 | awk '{ print $1, $2 + $3 }')
    bw=$(awk -v a="$bw" -v b="$wall" 'BEGIN { print (b < a) ? b : a }')
    bc=$(awk -v a="$bc" -v b="$cpu" 'BEGIN { print (b < a) ? b : a }')
  done
  echo "$bw $bc"
}
read -r w1 c1 < <(best "$work/moves.keys")
read -r w0 c0 < <(best "$work/none.keys")
awk -v p="$profile" -v n="$n" -v w1="$w1" -v c1="$c1" -v w0="$w0" -v c0="$c0" 'BEGIN {
  printf "%s build, %d moves and %d undos: %.2f s wall, %.2f s CPU; the level alone: %.2f s wall, %.2f s CPU\n", p, n, n, w1, c1, w0, c0
  printf "per key (a move or an undo, the rules read again): %.3f ms wall, %.3f ms CPU\n", 1000 * (w1 - w0) / (2 * n), 1000 * (c1 - c0) / (2 * n)
}'
