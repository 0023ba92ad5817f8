#!/usr/bin/env bash
# Benchmark: assemble a generated multi-file sjasmplus project (13,500 lines by default: a main
# file INCLUDEing 9 modules, in the style of the Spectrum projects issue 29 measured: DEVICE,
# MODULEs, dot labels, macros, DUP, register lists, STRUCTs) with retro's assembler and with
# sjasmplus in the same run, and check both give the same raw bytes.
#   bash interpreters/z80/asm/benches/vs_sjasmplus.sh [LINES]
# sjasmplus is built from ../shared/oracles/sjasmplus as tests/sjasmplus/record.sh does, unless
# SJASMPLUS names a built one. Uses hyperfine if installed.
set -euo pipefail
lines=${1:-13500}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${SJASMPLUS:-}" ]; then
  mkdir "$work/build"
  cp -r "$here/../../../../../shared/oracles/sjasmplus/." "$work/build"
  make -C "$work/build" USE_LUA=0 -j2 >"$work/build.log" 2>&1 || { tail "$work/build.log"; exit 3; }
  SJASMPLUS="$work/build/sjasmplus"
fi

files=9
per=$(( (lines - 40) / files ))
mkdir -p "$work/proj/src"
for f in $(seq 1 $files); do
  # Blocks of 25 lines; each module is placed in its own 4.5 KB window.
  awk -v f="$f" -v n="$per" 'BEGIN {
    printf "\tMODULE m%d\n", f
    for (i = 0; 25 * i < n - 2; i++) {
      printf "r%d:\tld hl,table%d\n", i, i % 8
      printf "\tld b,%d\n", (i % 200) + 1
      printf ".loop:\tld a,(hl)\n"
      printf "\tadd a,(ix+%d)\n", i % 100
      printf "\tld (iy+%d),a\n", i % 50
      printf "\tinc hl : dec de\n"
      printf "\tdjnz .loop\n"
      printf "\tcp a,%d\n", i % 256
      printf "\tjr nz,.skip\n"
      printf "\tpush af,bc,de,hl\n"
      printf "\tcall @shared\n"
      printf "\tpop hl,de,bc,af\n"
      printf ".skip:\tld de,.data\n"
      printf "\tex de,hl\n"
      printf "\tset %d,(hl)\n", i % 8
      printf "\tsbc hl,de\n"
      printf "\tBORDER %d\n", i % 8
      printf "\tjp z,r%d\n", (i + 1) % 16
      printf "\tld bc,de\n"
      printf "\tret\n"
      printf ".data:\tdb %d,%d,%d,0FFh\n", i % 256, (i * 7) % 256, (i * 13) % 256
      printf "\tdw r%d,.loop\n", i
      printf "V%d = %d*2+1\n", i, i % 100
      printf "\tld a,V%d\n", i
      printf "\tDUP 2 : nop : EDUP\n"
    }
    for (j = 0; j < 8; j++) printf "table%d:\tdb %d,%d\n", j, j, j * 3
    printf "\tENDMODULE\n"
  }' >"$work/proj/src/mod$f.asm"
done
{
  printf '\tDEVICE ZXSPECTRUM48\n'
  printf '\tMACRO BORDER colour\n\t\tld a,colour\n\t\tout (0FEh),a\n\tENDM\n'
  printf '\tSTRUCT sprite\nx\tBYTE 0\ny\tBYTE 0\ngfx\tWORD 0\n\tENDS\n'
  printf '\tORG 6000h\nstart:\tdi\n\tld sp,0\n\tcall m1.r0\n\tjr start\nshared:\tret\nplayer\tsprite 1,2,start\n'
  for f in $(seq 1 $files); do
    printf '\tORG 6100h+%d*1100h\n\tINCLUDE "src/mod%d.asm"\n' $((f - 1)) "$f"
  done
  printf '\tSAVESNA "game.sna",start\n'
} >"$work/proj/main.asm"
echo "project: $(cat "$work/proj/main.asm" "$work/proj/src/"*.asm | wc -l) lines in $((files + 1)) files"
# KEEP=DIR keeps a copy of the project (for profiling).
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$work/proj/." "$KEEP"; fi

cd "$here/../../../.."
cargo build -q --release -p retro-z80-asm --example asm_file
ours="$(pwd)/${CARGO_TARGET_DIR:-target}/release/examples/asm_file"
cd "$work/proj"
"$ours" main.asm ours.raw sjasmplus
"$SJASMPLUS" --nologo --msg=err --raw=theirs.raw main.asm
cmp ours.raw theirs.raw && echo "raw outputs identical ($(stat -c %s ours.raw) bytes)"
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 2 --runs 10 "$ours main.asm ours.raw sjasmplus" "$SJASMPLUS --nologo --msg=err --raw=theirs.raw main.asm"
else
  time "$ours" main.asm ours.raw sjasmplus
  time "$SJASMPLUS" --nologo --msg=err --raw=theirs.raw main.asm
fi
