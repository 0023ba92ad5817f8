#!/bin/sh
# Records what cbmbasic (the C64's BASIC ROM recompiled to C, ../shared/oracles/cbmbasic) prints
# for every upper-case listing in this directory, as the golden files tests/upper.rs compares
# against. These are type-in listings as magazines print them: upper-case ASCII, which cbmbasic
# reads as it is (no case change, unlike tests/corpus). petcat/NAME.bas is each one's twin in
# petcat's lower case (`retro tok --charset ascii` then `retro list --charset petcat`), which
# must tokenize to the same bytes and print the same.
#
#   record.sh           build cbmbasic in a scratch directory and rewrite every NAME.out
#   record.sh --check   build it and fail if any NAME.out differs from what it prints now
#
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
for bas in "$here"/*.bas; do
  name=$(basename "$bas" .bas)
  cp "$bas" "$scratch/prog.bas"
  (cd "$scratch" && timeout 10 "$cbm" prog.bas </dev/null >"$scratch/raw" 2>/dev/null) || true
  # CR LF -> LF, ESC [ C (the cursor-right after numbers) -> space.
  sed -e 's/\r$//' -e 's/\x1b\[C/ /g' "$scratch/raw" >"$scratch/out"
  if [ $check = 1 ]; then
    if ! cmp -s "$scratch/out" "$here/$name.out"; then
      echo "MISMATCH $name" >&2
      diff "$here/$name.out" "$scratch/out" >&2 || true
      fail=1
    fi
  else
    cp "$scratch/out" "$here/$name.out"
  fi
done
exit $fail
