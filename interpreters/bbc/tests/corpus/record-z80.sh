#!/bin/sh
# Records NAME.expect for the corpus programs listed in acorn-expect.txt, whose expectation follows
# Acorn's BASIC where Brandy differs (E-format padding, TRACE's form, halves rounding away from
# zero): each program is typed into BBC BASIC (Z80) 5.00 running under retro's CP/M machine, and
# what RUN printed is kept. With --check, compares instead of writing (exit 1 on a difference).
# The runner itself is ../bbcz80-runner.sh, shared with ../bbcz80/record.sh.
#
# Usage: record-z80.sh [--check] RETRO BBCZ80_DIR   (BBCZ80_DIR: ../shared/oracles/bbcz80)
# Keep those programs within BBC BASIC (Z80)'s numbers (40-bit floats, below 1.7E38).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../bbcz80-runner.sh"
# The program's lines are typed at the prompt, then RUN. A prompt session (NAME.prompt) is typed
# after a RUN of the empty program, which marks where its transcript starts, and without its final
# QUIT (the runner types *BYE instead): the corpus test leaves the echoed QUIT out of both sides.
type_and_run() {
    if [ -e "$here/$1.prompt" ]; then
        printf 'RUN\n'
        sed '$ { /^QUIT$/d; }' "$here/$1.prompt"
    else
        cat "$here/$1.bbc"
        printf 'RUN\n'
    fi
}
# BBC BASIC (Z80) words its errors as BBC BASIC II does; BASIC V's texts are RISC OS's (the error
# table in ../shared/reference/bbc-basic.md). The behaviour is BBC BASIC (Z80)'s, the words RISC OS's:
# an error text at the end of a line (REPORT$, or the prompt's own message) or before " at line".
bbcz80_filter() {
    sed -E \
        -e 's/(^|[ =])Accuracy lost( at line|$)/\1Accuracy lost in Sine\/Cosine\/Tangent\2/' \
        -e 's/(^|[ =])Bad call( at line|$)/\1Bad call of function\/procedure\2/' \
        -e 's/(^|[ =])Exp range( at line|$)/\1Exponent range\2/' \
        -e 's/(^|[ =])Log range( at line|$)/\1Logarithm range\2/' \
        -e 's/(^|[ =])Silly( at line|$)/\1Silly!\2/' \
        -e 's/(^|[ =])No such variable( at line|$)/\1Unknown or missing variable\2/' \
        -e 's/(^|[ =])Too big( at line|$)/\1Number too big\2/'
}
bbcz80_record_all record-z80.sh "$here/acorn-expect.txt" 60 '^>RUN$' type_and_run "$@"
