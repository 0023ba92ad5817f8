#!/bin/sh
# Records NAME.expect for the corpus programs listed in acorn-expect.txt, whose expectation follows
# Acorn's BASIC where Brandy differs (E-format padding, TRACE's form, halves rounding away from
# zero): each program is typed into BBC BASIC (Z80) 5.00 running under retro's CP/M machine, and
# what RUN printed is kept. With --check, compares instead of writing (exit 1 on a difference).
#
# Usage: record-z80.sh [--check] RETRO BBCZ80_DIR   (BBCZ80_DIR: ../shared/oracles/bbcz80)
# Keep those programs within BBC BASIC (Z80)'s numbers (40-bit floats, below 1.7E38).
set -eu
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
retro=$1 bbcz80=$2
# The programs run in a scratch directory: make a relative RETRO name the same file from there.
case "$retro" in
    */*) retro=$(cd "$(dirname "$retro")" && pwd)/$(basename "$retro") ;;
esac
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bbcz80/bin/cpm/BBCBASIC.COM" "$tmp/"
status=0
for name in $(cat "$dir/acorn-expect.txt"); do
    { cat "$dir/$name.bbc"; printf 'RUN\n*BYE\n'; } |
        (cd "$tmp" && timeout 60 "$retro" run --headless --machine cpm BBCBASIC.COM) |
        tr -d '\r' | awk 'f&&/^>\*BYE/{exit} f{print} /^>RUN$/{f=1}' > "$tmp/out"
    if [ -n "$check" ]; then
        if ! cmp -s "$tmp/out" "$dir/$name.expect"; then
            echo "record-z80.sh: $name.expect differs from what BBC BASIC (Z80) prints:" >&2
            diff "$dir/$name.expect" "$tmp/out" >&2 || true
            status=1
        fi
    else
        cp "$tmp/out" "$dir/$name.expect"
    fi
done
exit $status
