#!/usr/bin/env bash
# Records what the Debian assemblers make of every golden source (cases/*.asm).
#
#   record.sh           write cases/NAME.pasmo and cases/NAME.z80asm (hex dump, or "error: ...")
#                       and, where the two agree on bytes, cases/NAME.expect
#   record.sh --check   CI mode: re-run the oracles and fail if any output differs from the
#                       recorded file (the golden test then compares retro's output to .expect)
#
# Where pasmo and z80asm disagree or fail, NAME.expect is written by hand: its first line is
# "# hand-verified: <reason>", and the bytes were checked against the Zilog opcode tables.
# The tests refuse an .expect that differs from agreeing oracles or lacks that line when they differ.
set -euo pipefail
cd "$(dirname "$0")/cases"
mode=${1:-record}
command -v pasmo >/dev/null || { echo "pasmo not installed (apt-get install pasmo)"; exit 2; }
command -v z80asm >/dev/null || { echo "z80asm not installed (apt-get install z80asm)"; exit 2; }
command -v z80dasm >/dev/null || { echo "z80dasm not installed (apt-get install z80dasm)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

hexdump_of() { od -An -v -tx1 -w16 "$1" | sed 's/^ //'; }

# NAME.args: pasmo options the case needs (--alocal, --equ NAME=VALUE); z80asm has none of them,
# so such a case is pasmo's alone.
run_pasmo() {
  local args=()
  [ -f "${1%.asm}.args" ] && read -r -a args <"${1%.asm}.args"
  if timeout 20 pasmo "${args[@]}" --bin "$1" "$tmp/p.bin" >"$tmp/p.out" 2>&1; then hexdump_of "$tmp/p.bin"
  else echo "error: $(grep -m1 -i error "$tmp/p.out" || head -1 "$tmp/p.out")"; fi
}
run_z80asm() {
  if [ -f "${1%.asm}.args" ]; then echo "error: pasmo options (.args) only"; return; fi
  # z80asm exits 0 on some errors, so its messages count as failure too.
  if timeout 20 z80asm -o "$tmp/z.bin" "$1" >"$tmp/z.out" 2>&1 && ! grep -qi error "$tmp/z.out"; then hexdump_of "$tmp/z.bin"
  else echo "error: $(grep -m1 -i error "$tmp/z.out" || echo "exit status $?")"; fi
}

status=0
for src in *.asm; do
  name=${src%.asm}
  rm -f "$tmp"/*.bin
  p=$(run_pasmo "$src")
  z=$(run_z80asm "$src")
  if [ "$mode" = --check ]; then
    if [ "$p" != "$(cat "$name.pasmo")" ]; then echo "pasmo output changed for $src"; status=1; fi
    if [ "$z" != "$(cat "$name.z80asm")" ]; then echo "z80asm output changed for $src"; status=1; fi
    continue
  fi
  printf '%s\n' "$p" >"$name.pasmo"
  printf '%s\n' "$z" >"$name.z80asm"
  if [ "$p" = "$z" ] && [[ "$p" != error:* ]]; then
    printf '%s\n' "$p" >"$name.expect"
    echo "$src: pasmo and z80asm agree ($(printf '%s\n' "$p" | wc -l) rows)"
  elif grep -q '^# hand-verified:' "$name.expect" 2>/dev/null; then
    echo "$src: oracles differ; keeping hand-verified $name.expect"
  elif [[ "$p" != error:* && "$z" == error:* ]]; then
    { echo "# from pasmo only; z80asm rejects this syntax"; printf '%s\n' "$p"; } >"$name.expect"
    echo "$src: only pasmo accepts it"
  elif [[ "$p" == error:* && "$z" != error:* ]]; then
    { echo "# from z80asm only; pasmo rejects this syntax"; printf '%s\n' "$z"; } >"$name.expect"
    echo "$src: only z80asm accepts it"
  elif false; then
    echo "$src: oracles differ; keeping hand-verified $name.expect"
  else
    echo "$src: oracles differ and $name.expect is not hand-verified: write it"; status=1
  fi
done
# The disassembler reference: z80dasm's text for the documented-instruction binary.
if command -v z80dasm >/dev/null && timeout 20 pasmo --bin op_documented.asm "$tmp/doc.bin" >/dev/null 2>&1; then
  timeout 20 z80dasm -g 0x8000 "$tmp/doc.bin" 2>/dev/null | grep -v '^; command line' >"$tmp/doc.txt"
  if [ "$mode" = --check ]; then
    cmp -s "$tmp/doc.txt" ../z80dasm/op_documented.txt || { echo "z80dasm output changed"; status=1; }
  else
    cp "$tmp/doc.txt" ../z80dasm/op_documented.txt
  fi
fi
exit $status
