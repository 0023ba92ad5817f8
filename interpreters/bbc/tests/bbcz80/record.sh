#!/bin/sh
# Records NAME.expect for the BBC BASIC (Z80) test programs listed in programs.txt (those of
# $BBCZ80_DIR/tests/*.BBC that use only BASIC V features; README.md says why the others are left
# out): each program is CHAINed by BBC BASIC (Z80) 5.00 running under retro's CP/M machine, and
# what it printed is kept. With --check, compares instead of writing (exit 1 on a difference).
#
# Usage: record.sh [--check] RETRO BBCZ80_DIR   (BBCZ80_DIR: ../shared/oracles/bbcz80)
set -eu
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
retro=$1 bbcz80=$2
# The programs run in a scratch directory: make a relative RETRO name the same file from there.
case "$retro" in
    */*) retro=$(cd "$(dirname "$retro")" && pwd)/$(basename "$retro") ;;
esac
bbcz80=$(cd "$bbcz80" && pwd)
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bbcz80/bin/cpm/BBCBASIC.COM" "$tmp/"
status=0
for name in $(cat "$dir/programs.txt"); do
    cp "$bbcz80/tests/$name.BBC" "$tmp/"
    printf 'CHAIN "%s"\n*BYE\n' "$name" |
        (cd "$tmp" && timeout 120 "$retro" run --headless --machine cpm BBCBASIC.COM) |
        tr -d '\r' | awk 'f&&/^>\*BYE/{exit} f{print} /^>CHAIN /{f=1}' > "$tmp/out"
    if [ -n "$check" ]; then
        if ! cmp -s "$tmp/out" "$dir/$name.expect"; then
            echo "bbcz80/record.sh: $name.expect differs from what BBC BASIC (Z80) prints:" >&2
            diff "$dir/$name.expect" "$tmp/out" >&2 || true
            status=1
        fi
    else
        cp "$tmp/out" "$dir/$name.expect"
    fi
done
exit $status
