#!/usr/bin/env bash
# Record (or, with --check, re-check) the number goldens in tests/golden/floats/ against
# cbmbasic, the C64 BASIC ROM recompiled to C. The programs come from tests/float_golden.rs
# (its ignored `write_programs` test); each runs through cbmbasic and what it prints is stored
# with the cursor-right after each number shown as ';' and CR LF as a newline.
#
# cbmbasic is $RETRO_CBMBASIC_BIN, or built with `make` in a scratch copy of $RETRO_CBMBASIC_SRC
# (default: ../shared/oracles/cbmbasic beside the repository), never inside it (see
# scripts/cbmbasic.sh). Exit status: 0 when
# recorded or when the check agrees, 1 when the check finds a difference, 3 when cbmbasic
# cannot be built, 4 when its source is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
mode=record
[ "${1:-}" = "--check" ] && mode=check
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/scripts/cbmbasic.sh"
cbmbasic_get "$work"

mkdir -p "$work/programs" "$work/out"
RETRO_FLOAT_PROGRAMS="$work/programs" cargo test -q --manifest-path "$root/Cargo.toml" \
  -p retro-cbm --test float_golden -- --ignored --exact write_programs >/dev/null

# Run one program; normalise its output. An error message ends without a newline: add one so
# that the outputs of a set's programs concatenate line by line.
run() {
  timeout 60 "$cbm" "$1" </dev/null | tr -d '\r' | sed 's/\x1b\[C/;/g' >"$work/one"
  cat "$work/one"
  if [ -s "$work/one" ] && [ "$(tail -c1 "$work/one" | od -An -c | tr -d ' ')" != '\n' ]; then
    echo
  fi
}

for bas in "$work"/programs/*.bas; do
  name="$(basename "$bas" .bas)"
  set_name="${name%-*}"
  run "$bas" >>"$work/out/$set_name.raw"
done
status=0
for raw in "$work"/out/*.raw; do
  set_name="$(basename "$raw" .raw)"
  mv "$raw" "$work/out/$set_name.out"
  if [ "$set_name" = expressions ]; then
    gzip -9 -n -c "$work/out/$set_name.out" >"$work/out/$set_name.out.gz"
    golden="$here/floats/$set_name.out.gz"
    new="$work/out/$set_name.out.gz"
    cmp_old() { gzip -dc "$golden" | cmp -s - "$work/out/$set_name.out"; }
  else
    golden="$here/floats/$set_name.out"
    new="$work/out/$set_name.out"
    cmp_old() { cmp -s "$golden" "$new"; }
  fi
  if [ "$mode" = check ]; then
    if [ -f "$golden" ] && cmp_old; then
      echo "record-floats: $set_name agrees with cbmbasic"
    else
      echo "record-floats: $set_name DIFFERS from cbmbasic" >&2
      status=1
    fi
  else
    mkdir -p "$here/floats"
    cp "$new" "$golden"
    echo "record-floats: recorded $set_name"
  fi
done
exit $status
