#!/bin/sh
# Types each Rugg/Feldman listing bmN.bas into cbmbasic (../shared/oracles/cbmbasic, built in a
# scratch directory) followed by SAVE, and keeps the bytes the ROM saved as bmN.prg: the golden
# files for the tokenizer (tests/rugg.rs compares `retro tok`'s bytes with them).
#   record.sh [--check]
# Exit status: 0 recorded or agreeing, 1 a difference, 3 cbmbasic does not build, 4 its source
# is missing (set RETRO_CBMBASIC_SRC to point at it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
check=0
[ "${1:-}" = "--check" ] && check=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
. "$root/scripts/cbmbasic.sh"
cbmbasic_get "$scratch"
fail=0
for bas in "$here"/bm*.bas; do
  name=$(basename "$bas" .bas)
  { tr 'a-z' 'A-Z' <"$bas"; echo "SAVE \"OUT\""; } >"$scratch/prog.bas"
  (cd "$scratch" && rm -f OUT && timeout 20 "$cbm" prog.bas </dev/null >/dev/null 2>&1) || true
  if [ $check = 1 ]; then
    cmp -s "$scratch/OUT" "$here/$name.prg" || { echo "MISMATCH $name" >&2; fail=1; }
  else
    cp "$scratch/OUT" "$here/$name.prg"
  fi
done
exit $fail
