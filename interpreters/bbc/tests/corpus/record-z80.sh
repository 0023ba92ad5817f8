#!/bin/sh
# Records NAME.expect for corpus programs whose expectation follows Acorn's BASIC where Brandy
# differs (E-format padding, TRACE's form, halves rounding away from zero): each program is typed
# into BBC BASIC (Z80) 5.00 running under retro's CP/M machine, and what RUN printed is kept.
#
# Usage: record-z80.sh RETRO BBCZ80_DIR NAME.bbc...   (BBCZ80_DIR: ../shared/oracles/bbcz80)
# The programs this recorded are listed in README.md; keep them within BBC BASIC (Z80)'s
# numbers (40-bit floats, below 1.7E38).
set -eu
retro=$1 bbcz80=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bbcz80/bin/cpm/BBCBASIC.COM" "$tmp/"
for prog in "$@"; do
    name=${prog%.bbc}
    { cat "$prog"; printf 'RUN\n*BYE\n'; } |
        (cd "$tmp" && timeout 60 "$retro" run --headless --machine cpm BBCBASIC.COM) |
        tr -d '\r' | awk 'f&&/^>\*BYE/{exit} f{print} /^>RUN$/{f=1}' > "$name.expect"
done
