#!/usr/bin/env bash
# Whole-process timing of the Rugg/Feldman benchmarks BM1-BM8 (interpreters/cbm/tests/rugg),
# scaled to N iterations, run by `retro run --headless` and by cbmbasic (the C64 BASIC ROM
# recompiled to C, built from ../shared/oracles/cbmbasic in a scratch directory), with their
# outputs compared byte for byte. Each program gets a last line printing its variables, so
# identical output means identical arithmetic.
#
#   scripts/cbm-rugg-timing.sh [ITERATIONS [RUNS]]      time (default 1000000 iterations, 3 runs)
#   scripts/cbm-rugg-timing.sh --callgrind N1 N2         count instructions instead
#
# Timing: each program runs RUNS times on each side; the table shows the best wall-clock time
# and the best CPU time (user + system) of each. On a machine shared with other work the CPU
# time is the steadier figure.
# Counting (--callgrind): each program runs under valgrind's callgrind at N1 and at N2
# iterations; the difference gives the instructions per iteration, which extrapolate to
# 1,000,000 iterations (start-up included once). Instruction counts do not depend on the
# load, so their ratio is the load-independent one.
# Start-up: the wall time of `retro run --headless` of a one-line program (best of 20), and of
# `true`, the cost of starting any process on this machine.
#
# Environment: RETRO_BIN (default: target/release/retro, built if missing), RETRO_CBMBASIC_BIN
# (default: built from RETRO_CBMBASIC_SRC or ../shared/oracles/cbmbasic).
# Exit status: 0, 1 if any output differs, 3 if cbmbasic does not build, 4 if its source is
# missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mode=time
if [ "${1:-}" = "--callgrind" ]; then
  mode=callgrind
  n1="${2:-2000}"
  n2="${3:-12000}"
else
  iterations="${1:-1000000}"
  runs="${2:-3}"
fi

retro="${RETRO_BIN:-$root/target/release/retro}"
if [ -z "${RETRO_BIN:-}" ]; then
  cargo build -q --release --manifest-path "$root/Cargo.toml" --bin retro
fi
. "$root/scripts/cbmbasic.sh"
cbmbasic_get "$work"

# bmN scaled to $1 iterations: ours (lower case, .bas) and cbmbasic's (upper case).
listing() {
  local b="$1" n="$2"
  sed "s/1000/$n/" "$root/interpreters/cbm/tests/rugg/bm$b.bas" >"$work/bm$b-$n.bas"
  echo "790 print k;a;b;c;l" >>"$work/bm$b-$n.bas"
  tr 'a-z' 'A-Z' <"$work/bm$b-$n.bas" >"$work/BM$b-$n.BAS"
}

ours() { "$retro" run --headless "$1" </dev/null; }
theirs() { "$cbm" "$1" </dev/null | tr -d '\r' | sed 's/\x1b\[C/ /g'; }

# Seconds of wall and CPU time of "$@", output to $work/out: "wall cpu". The CPU time is bash's
# `time` of the process and its children (getrusage, to the millisecond): /usr/bin/time prints
# it in 10 ms steps, coarser than BM1's whole run.
timed() {
  local t0 t1 TIMEFORMAT='%3U %3S'
  t0=$(date +%s.%N)
  { time "$@" >"$work/out" 2>"$work/err"; } 2>"$work/rusage"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.3f\n", b - a, $1 + $2 }' "$work/rusage"
}

min() { sort -g | head -1; }

status=0
if [ $mode = time ]; then
  echo "Rugg/Feldman BM1-BM8, $iterations iterations, best of $runs runs (wall and CPU seconds)"
  echo
  echo "| | retro wall | cbmbasic wall | ratio | retro CPU | cbmbasic CPU | ratio | output |"
  echo "|---|---|---|---|---|---|---|---|"
  tw_o=0; tw_t=0; tc_o=0; tc_t=0
  for b in 1 2 3 4 5 6 7 8; do
    listing "$b" "$iterations"
    : >"$work/ow"; : >"$work/oc"; : >"$work/tw"; : >"$work/tc"
    for _ in $(seq "$runs"); do
      read -r w c < <(timed sh -c "'$retro' run --headless '$work/bm$b-$iterations.bas' </dev/null")
      echo "$w" >>"$work/ow"; echo "$c" >>"$work/oc"
      cp "$work/out" "$work/ours.txt"
      read -r w c < <(timed sh -c "'$cbm' '$work/BM$b-$iterations.BAS' </dev/null")
      echo "$w" >>"$work/tw"; echo "$c" >>"$work/tc"
      tr -d '\r' <"$work/out" | sed 's/\x1b\[C/ /g' >"$work/theirs.txt"
    done
    same=identical
    if ! cmp -s "$work/ours.txt" "$work/theirs.txt"; then same=DIFFERENT; status=1; fi
    ow=$(min <"$work/ow"); oc=$(min <"$work/oc"); tw=$(min <"$work/tw"); tc=$(min <"$work/tc")
    awk -v b="$b" -v ow="$ow" -v tw="$tw" -v oc="$oc" -v tc="$tc" -v s="$same" 'BEGIN {
      printf "| BM%d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s |\n", b, ow, tw, ow / tw, oc, tc, (tc > 0 ? oc / tc : 0), s }'
    tw_o=$(awk -v a="$tw_o" -v b="$ow" 'BEGIN { print a + b }')
    tw_t=$(awk -v a="$tw_t" -v b="$tw" 'BEGIN { print a + b }')
    tc_o=$(awk -v a="$tc_o" -v b="$oc" 'BEGIN { print a + b }')
    tc_t=$(awk -v a="$tc_t" -v b="$tc" 'BEGIN { print a + b }')
  done
  awk -v ow="$tw_o" -v tw="$tw_t" -v oc="$tc_o" -v tc="$tc_t" 'BEGIN {
    printf "| **total** | %.3f | %.3f | **%.3f** | %.3f | %.3f | **%.3f** | |\n", ow, tw, ow / tw, oc, tc, oc / tc }'
else
  command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
  echo "Rugg/Feldman BM1-BM8: instructions (callgrind) at $n1 and $n2 iterations, extrapolated to 1,000,000"
  echo
  echo "| | retro instr/iteration | cbmbasic instr/iteration | retro at 1M | cbmbasic at 1M | ratio |"
  echo "|---|---|---|---|---|---|"
  count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  to=0; tt=0
  for b in 1 2 3 4 5 6 7 8; do
    listing "$b" "$n1"; listing "$b" "$n2"
    o1=$(count "$retro" run --headless "$work/bm$b-$n1.bas")
    o2=$(count "$retro" run --headless "$work/bm$b-$n2.bas")
    t1=$(count "$cbm" "$work/BM$b-$n1.BAS")
    t2=$(count "$cbm" "$work/BM$b-$n2.BAS")
    if [ "$(ours "$work/bm$b-$n1.bas")" != "$(theirs "$work/BM$b-$n1.BAS")" ]; then
      echo "BM$b: outputs differ" >&2; status=1
    fi
    read -r po pt eo et < <(awk -v o1="$o1" -v o2="$o2" -v t1="$t1" -v t2="$t2" -v n1="$n1" -v n2="$n2" 'BEGIN {
      po = (o2 - o1) / (n2 - n1); pt = (t2 - t1) / (n2 - n1)
      printf "%.1f %.1f %.0f %.0f\n", po, pt, o1 + po * (1000000 - n1), t1 + pt * (1000000 - n1) }')
    awk -v b="$b" -v po="$po" -v pt="$pt" -v eo="$eo" -v et="$et" 'BEGIN {
      printf "| BM%d | %.0f | %.0f | %.3g | %.3g | %.3f |\n", b, po, pt, eo, et, eo / et }'
    to=$(awk -v a="$to" -v b="$eo" 'BEGIN { printf "%.0f", a + b }')
    tt=$(awk -v a="$tt" -v b="$et" 'BEGIN { printf "%.0f", a + b }')
  done
  awk -v o="$to" -v t="$tt" 'BEGIN { printf "| **total** | | | %.3g | %.3g | **%.3f** |\n", o, t, o / t }'
fi

# Start-up: a one-line program, whole process, best of 20; and `true` for comparison.
echo '10 end' >"$work/one.bas"
for _ in $(seq 20); do timed "$retro" run --headless "$work/one.bas" </dev/null | cut -d' ' -f1; done | min >"$work/s1"
for _ in $(seq 20); do timed true | cut -d' ' -f1; done | min >"$work/s2"
echo
awk -v a="$(cat "$work/s1")" -v b="$(cat "$work/s2")" 'BEGIN {
  printf "start-up: retro run --headless of a one-line program %.1f ms (best of 20; starting `true` takes %.1f ms here)\n", a * 1000, b * 1000 }'
exit $status
