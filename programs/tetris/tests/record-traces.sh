#!/bin/sh
# Records the NES Tetris oracle's per-frame state for every movie that comes with it, as golden
# traces for programs/tetris (issue #17): programs/tetris/tests/traces/DIR/NAME.trace.gz; and for
# our own movies (programs/tetris/movies/NAME.fm2, recorded with `retro run --record`):
# programs/tetris/tests/traces/ours/NAME.trace.gz.
# The oracle is ../shared/oracles/meta_nestris (or $RETRO_ORACLES/meta_nestris), built once in a
# scratch copy. With --check, compares the committed traces instead of writing them (CI).
# Usage: sh programs/tetris/tests/record-traces.sh [--check]
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
src=${RETRO_ORACLES:-$root/../shared/oracles}/meta_nestris
out=$root/programs/tetris/tests/traces
check=${1:-}
[ -d "$src" ] || { echo "record-traces: no oracle at $src" >&2; exit 1; }
scratch=${TMPDIR:-/tmp}/retro-meta-nestris
rm -rf "$scratch"
cp -r "$src" "$scratch"
chmod -R u+w "$scratch"
# The oracle needs a nightly feature; RUSTC_BOOTSTRAP lets the stable toolchain build it
# (README.oracle.md there).
(cd "$scratch" && RUSTC_BOOTSTRAP=1 cargo build --quiet --release --example trace)
trace=$scratch/target/release/examples/trace
status=0
cd "$scratch/tests/movies"
for movie in */*.fm2; do
  name=${movie%.fm2}
  # The 999,999 movies are checked with the score uncapped (metadata.yaml says so).
  flag=""
  grep -A1 "filename: $movie" metadata.yaml | grep -q "uncapped_score: true" && flag=--uncapped
  mkdir -p "$out/$(dirname "$name")"
  # Like the oracle's own test, play released buttons after the movie's last input up to its last
  # checkpoint (the B-type movie ends before its checkpoints).
  last=$(awk -v m="filename: $movie" '$0 ~ /filename:/ {on = index($0, m) > 0} on && /^    [0-9]+:$/ {sub(":", ""); f = $1} END {print f + 0}' metadata.yaml)
  have=$(grep -c '^|' "$movie")
  while [ "$have" -lt "$last" ]; do
    echo '|0|........|........||' >> "$movie"
    have=$((have + 1))
  done
  if [ "$check" = "--check" ]; then
    gzip -dc "$out/$name.trace.gz" > "$scratch/want"
    if ! "$trace" "$movie" $flag | cmp -s - "$scratch/want"; then
      echo "record-traces: $name differs from the oracle" >&2
      status=1
    fi
  else
    "$trace" "$movie" $flag | gzip -9n > "$out/$name.trace.gz"
  fi
done
mkdir -p "$out/ours"
for movie in "$root"/programs/tetris/movies/*.fm2; do
  name=ours/$(basename "$movie" .fm2)
  if [ "$check" = "--check" ]; then
    gzip -dc "$out/$name.trace.gz" > "$scratch/want"
    if ! "$trace" "$movie" | cmp -s - "$scratch/want"; then
      echo "record-traces: $name differs from the oracle" >&2
      status=1
    fi
  else
    "$trace" "$movie" | gzip -9n > "$out/$name.trace.gz"
  fi
done
rm -rf "$scratch"
[ "$check" = "--check" ] && [ $status = 0 ] && echo "record-traces: all traces agree with the oracle"
exit $status
