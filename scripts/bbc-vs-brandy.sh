#!/usr/bin/env bash
# Whole-process timing of the BBC BASIC benchmark programs (interpreters/bbc/benches/programs:
# the Rugg/Feldman BM1-BM8 scaled so each runs about a second, and programs written the way
# people write BASIC), run by `retro run --headless` and by Brandy in the same run, best of RUNS.
# Each side is a whole process: start-up, tokenizing the listing, running, shutting down.
#
#   scripts/bbc-vs-brandy.sh [RUNS [PROGRAM...]]     (default 3 runs, every program)
#
# Output: a Markdown table with each program's best wall time and best CPU time (user + system)
# on each side and the ratio ours/brandy; a total row (sum of the times, ratio of the sums); then
# start-up: the median times of an empty program on each side (101 runs, taken in turn). On a machine shared
# with other work the CPU time is the steadier figure. Times come from `perf stat` where it runs
# (wall: its elapsed time, exec to exit; CPU: task-clock), else from /usr/bin/time and `date`
# (whose wall time then includes starting /usr/bin/time).
# Each program's output is compared with Brandy's (Brandy's text build prints to stdout; with
# Debian's SDL build the output is captured with *SPOOL in one extra untimed run), allowing only
# the documented number-format difference (numbers below 0.01: see small_decimal).
#
# Environment: RETRO_BIN (default target/release/retro, built if missing), BRANDY (default: the
# text-only Matrix Brandy `sbrandy` if on PATH, else `tbrandy`, else Debian's SDL `brandy`, run
# with SDL's dummy driver). The figures in docs/bbc-basic.md are against `sbrandy`, built once
# from ../shared/oracles/brandy in a scratch copy (its README.oracle.md):
#   b=$(mktemp -d) && cp -r ../shared/oracles/brandy/. "$b" && make -C "$b" -f makefile.text
#   BRANDY="$b/sbrandy" scripts/bbc-vs-brandy.sh 1
# Exit status: 0, 1 if any output differs, 2 if Brandy is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

runs="${1:-3}"
shift || true
progdir="$root/interpreters/bbc/benches/programs"
if [ $# -gt 0 ]; then
  progs=()
  for p in "$@"; do progs+=("$progdir/$p.bbc"); done
else
  progs=("$progdir"/*.bbc)
fi

retro="${RETRO_BIN:-$root/target/release/retro}"
if [ -z "${RETRO_BIN:-}" ]; then
  cargo build -q --release --manifest-path "$root/Cargo.toml" --bin retro
fi
brandy="${BRANDY:-$(command -v sbrandy || command -v tbrandy || command -v brandy || true)}"
if [ -z "$brandy" ]; then
  echo "brandy not found (apt-get install brandy, or set BRANDY)" >&2
  exit 2
fi
export SDL_VIDEODRIVER=dummy

# Seconds of wall and CPU time of "$@": "wall cpu"; its stdout goes to $work/out. The CPU time
# is perf's task-clock (every thread, to the microsecond) where perf works, else /usr/bin/time's
# user + system (10 ms steps, too coarse for runs of a few tens of milliseconds).
if perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1; then use_perf=1; else use_perf=; fi
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  # Brandy's exit status is 1 after an empty program: the status is not the measure here.
  if [ -n "$use_perf" ]; then
    # perf's own clock: from the exec of the command to its exit. The date calls around it would
    # add perf's start-up (about 11 ms here) to both sides and pull every short run's ratio
    # towards 1.
    LC_ALL=C perf stat -e task-clock -o "$work/rusage" "$@" >"$work/out" 2>/dev/null </dev/null || true
    awk '{ gsub(",", "", $1) } /task-clock/ { cpu = $1 / 1000 } /seconds time elapsed/ { wall = $1 }
         END { printf "%.4f %.4f\n", wall, cpu }' "$work/rusage"
  else
    /usr/bin/time -f "%U %S" -o "$work/rusage" "$@" >"$work/out" 2>/dev/null </dev/null || true
    t1=$(date +%s.%N)
    tail -1 "$work/rusage" | awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.3f\n", b - a, $1 + $2 }'
  fi
}
min() { sort -g | head -1; }
norm() { tr -d '\r' | sed -e 's/[[:space:]]*$//' -e '/^>$/d' -e '/^$/d'; }
# The one documented difference in what the two print (docs/bbc-basic.md): RISC OS's general
# format, which we follow, prints a number below 0.01 in E notation (2.86860857E-3), Brandy as a
# decimal (0.00286860857). Written out as decimals on both sides, the digits must still agree.
small_decimal() {
  perl -pe 's/(?<![\w.])(-?)(\d)(?:\.(\d+))?E-([1-4])(?!\d)/$1 . "0." . ("0" x ($4 - 1)) . $2 . ($3 \/\/ "")/ge'
}

# What Brandy prints for $1: its stdout (text build) or a *SPOOL capture (SDL build).
brandy_output() {
  local src="$1"
  { echo "0 *SPOOL $work/spool.txt"; cat "$src"; } >"$work/spooled.bas"
  rm -f "$work/spool.txt"
  "$brandy" -quit "$work/spooled.bas" >/dev/null 2>&1 </dev/null || true
  norm <"$work/spool.txt" | sed '$s/>$//' | norm
}

status=0
echo "retro run --headless vs $("$brandy" -version 2>/dev/null | head -1), best of $runs runs (seconds)"
echo
echo "| program | retro wall | brandy wall | ratio | retro CPU | brandy CPU | ratio | output |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
: >"$work/rows"
for p in "${progs[@]}"; do
  name="$(basename "$p" .bbc)"
  # .bbc: retro picks the machine by the extension; brandy does not mind it.
  cp "$p" "$work/$name.bbc"
  : >"$work/ow"; : >"$work/oc"; : >"$work/tw"; : >"$work/tc"
  for _ in $(seq "$runs"); do
    read -r w c < <(timed "$retro" run --headless "$work/$name.bbc")
    echo "$w" >>"$work/ow"; echo "$c" >>"$work/oc"
    norm <"$work/out" >"$work/ours.txt"
    read -r w c < <(timed "$brandy" -quit "$work/$name.bbc")
    echo "$w" >>"$work/tw"; echo "$c" >>"$work/tc"
  done
  brandy_output "$work/$name.bbc" >"$work/theirs.txt"
  same=identical
  if ! cmp -s "$work/ours.txt" "$work/theirs.txt"; then
    if cmp -s <(small_decimal <"$work/ours.txt") <(small_decimal <"$work/theirs.txt"); then
      same="identical but for RISC OS's E format below 0.01"
    else
      same=DIFFERENT; status=1
      diff "$work/ours.txt" "$work/theirs.txt" >&2 || true
    fi
  fi
  # One row per program: name, best wall and CPU of each side, whether the outputs match.
  echo "$name $(min <"$work/ow") $(min <"$work/tw") $(min <"$work/oc") $(min <"$work/tc") ${same// /_}" >>"$work/rows"
done
# The table, and its total: the sums of the times and the ratio of the sums.
awk '{
  same = $6; gsub(/_/, " ", same)
  printf "| %s | %.4f | %.4f | %.2f | %.4f | %.4f | %.2f | %s |\n", $1, $2, $3, $2 / $3, $4, $5, ($5 > 0 ? $4 / $5 : 0), same
  ow += $2; tw += $3; oc += $4; tc += $5
} END {
  printf "| **total** | %.4f | %.4f | **%.2f** | %.4f | %.4f | **%.2f** | |\n", ow, tw, ow / tw, oc, tc, oc / tc
}' "$work/rows"

# Start-up: an empty program, whole process, 101 runs on each side taken in turn (so a change in
# the machine's speed falls on both), compared by their medians: a best-of-few of a 1 ms process
# is mostly the noise of this machine.
: >"$work/empty.bbc"
for _ in $(seq 101); do
  timed "$retro" run --headless "$work/empty.bbc" >>"$work/s1"
  timed "$brandy" -quit "$work/empty.bbc" >>"$work/s2"
  timed true >>"$work/s3"
done
echo
median() { cut -d' ' -f"$1" "$2" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
awk -v a="$(median 1 "$work/s1")" -v b="$(median 1 "$work/s2")" -v c="$(median 1 "$work/s3")" \
    -v d="$(median 2 "$work/s1")" -v e="$(median 2 "$work/s2")" 'BEGIN {
  printf "start-up (empty program, median of 101 runs taken in turn): wall retro %.2f ms, brandy %.2f ms (starting `true` takes %.2f ms here); CPU retro %.2f ms, brandy %.2f ms\n", a * 1000, b * 1000, c * 1000, d * 1000, e * 1000 }'
exit $status
