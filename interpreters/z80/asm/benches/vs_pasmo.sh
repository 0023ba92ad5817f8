#!/usr/bin/env bash
# Benchmark: assemble a generated 100,000-line source with retro's assembler and with pasmo, in
# the same run, and check both produce the same bytes. Needs pasmo; uses hyperfine if installed.
#   bash interpreters/z80/asm/benches/vs_pasmo.sh [LINES]
set -euo pipefail
lines=${1:-100000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$work/big.asm"

# Blocks of 20 lines in the common pasmo/z80asm syntax: labels, EQUs, loops, index registers,
# forward and backward jumps, data.
awk -v n="$lines" 'BEGIN {
  print "BASE: equ 4000h"
  for (i = 0; 20 * i < n; i++) {
    # 100 blocks (about 4.5 KB) per ORG region; 12 regions reused in turn, since 100,000 lines of
    # code are more than 64 KB.
    if (i % 100 == 0) printf "\torg 1000h+%d*1200h\n", (i / 100) % 12
    printf "blk%d:\tld hl,BASE+%d\n", i, i % 4096
    printf "\tld b,%d\n", (i % 200) + 1
    printf "lp%d:\tld a,(hl)\n", i
    printf "\tadd a,(ix+%d)\n", i % 100
    printf "\tld (iy+%d),a\n", i % 50
    printf "\tinc hl\n"
    printf "\tdjnz lp%d\n", i
    printf "\tcp %d\n", i % 256
    printf "\tjr nz,nx%d\n", i
    printf "\tcall sub%d\n", i % 64
    printf "nx%d:\tld de,tab%d\n", i, i
    printf "\tex de,hl\n"
    printf "\tset %d,(hl)\n", i % 8
    printf "\tsbc hl,de\n"
    printf "\tjp z,blk%d\n", (i + 1) % 64
    printf "\tret\n"
    printf "tab%d:\tdb %d,%d,%d,0FFh\n", i, i % 256, (i * 7) % 256, (i * 13) % 256
    printf "\tdw blk%d,lp%d\n", i, i
    printf "V%d:\tequ %d*2+1\n", i, i % 100
    printf "\tld a,V%d\n", i
  }
  for (j = 0; j < 64; j++) printf "sub%d:\tret\n", j
}' >"$src"
echo "source: $(wc -l <"$src") lines"

cd "$here/../../../.."
cargo build -q --release -p retro-z80-asm --example asm_file
ours="${CARGO_TARGET_DIR:-target}/release/examples/asm_file"
"$ours" "$src" "$work/ours.bin"
pasmo --bin "$src" "$work/pasmo.bin"
cmp "$work/ours.bin" "$work/pasmo.bin" && echo "outputs identical ($(stat -c %s "$work/ours.bin") bytes)"
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs 5 "$ours $src $work/ours.bin" "pasmo --bin $src $work/pasmo.bin"
else
  time "$ours" "$src" "$work/ours.bin"
  time pasmo --bin "$src" "$work/pasmo.bin"
fi
