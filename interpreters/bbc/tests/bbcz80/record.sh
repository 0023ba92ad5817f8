#!/bin/sh
# Records NAME.expect for the BBC BASIC (Z80) test programs listed in programs.txt (those of
# $BBCZ80_DIR/tests/*.BBC that use only BASIC V features; README.md says why the others are left
# out): each program is CHAINed by BBC BASIC (Z80) 5.00 running under retro's CP/M machine, and
# what it printed is kept. With --check, compares instead of writing (exit 1 on a difference).
# The runner itself is ../bbcz80-runner.sh, shared with ../corpus/record-z80.sh.
#
# Usage: record.sh [--check] RETRO BBCZ80_DIR   (BBCZ80_DIR: ../shared/oracles/bbcz80)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../bbcz80-runner.sh"
# The tokenized program goes beside BBCBASIC.COM, which CHAINs it by name.
chain() {
    cp "$3/tests/$1.BBC" "$2/"
    printf 'CHAIN "%s"\n' "$1"
}
bbcz80_record_all bbcz80/record.sh "$here/programs.txt" 120 '^>CHAIN ' chain "$@"
