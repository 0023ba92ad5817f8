#!/usr/bin/env bash
# Records what sjasmplus makes of every golden source in cases/ (the sjasmplus dialect's oracle).
#
#   record.sh           write, for each cases/NAME.asm:
#                         NAME.expect   sjasmplus --raw output as hex rows (or "error: ...")
#                         NAME.sym      its --sym symbol file
#                         NAME.files/   every file the source saves (SAVESNA, SAVETAP, SAVEBIN, OUTPUT)
#                       (NAME.args: extra sjasmplus options such as -DX=1 -Ilib; NAME.tree/: files
#                       the source reads, copied beside it)
#   record.sh --check   CI mode: re-run sjasmplus and fail if anything differs from what is recorded
#
# sjasmplus comes from ../shared/oracles/sjasmplus, built once without Lua in a scratch directory
# (SJASMPLUS=/path/to/sjasmplus skips the build). Exit 3: it did not build; 4: its source is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode=${1:-record}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${SJASMPLUS:-}" ]; then
  src="$here/../../../../../../shared/oracles/sjasmplus"
  [ -d "$src" ] || { echo "sjasmplus source not found (../shared/oracles/sjasmplus)"; exit 4; }
  mkdir "$tmp/build"
  cp -r "$src/." "$tmp/build"
  if ! make -C "$tmp/build" USE_LUA=0 -j2 >"$tmp/build.log" 2>&1; then
    tail -20 "$tmp/build.log"; echo "sjasmplus did not build"; exit 3
  fi
  SJASMPLUS="$tmp/build/sjasmplus"
fi

hexrows() { od -An -v -tx1 -w16 "$1" | sed 's/^ //'; }

status=0
for asm in "$here"/cases/*.asm; do
  name=$(basename "$asm" .asm)
  work="$tmp/run-$name"
  mkdir -p "$work"
  cp "$asm" "$work/"
  # NAME.tree/: files the source includes, copied beside it; NAME.args: extra options (-D, -I).
  tree="$here/cases/$name.tree"
  [ -d "$tree" ] && cp -r "$tree/." "$work/"
  args=()
  [ -f "$here/cases/$name.args" ] && read -r -a args <"$here/cases/$name.args"
  if (cd "$work" && timeout 20 "$SJASMPLUS" --nologo --msg=err "${args[@]}" --raw="$name.raw" --sym="$name.sym" "$name.asm" >out.txt 2>&1); then
    expect=$(hexrows "$work/$name.raw")
    sym=$(sort "$work/$name.sym")
  else
    expect="error: $(grep -m1 -i error "$work/out.txt" || echo failed)"
    sym=""
  fi
  rm -f "$work/$name.raw" "$work/$name.sym" "$work/$name.asm" "$work/out.txt"
  if [ -d "$tree" ]; then (cd "$tree" && for f in *; do rm -rf "${work:?}/$f"; done); fi
  if [ "$mode" = --check ]; then
    [ "$expect" = "$(cat "$here/cases/$name.expect")" ] || { echo "sjasmplus output changed for $name.asm"; status=1; }
    [ "$sym" = "$(cat "$here/cases/$name.sym")" ] || { echo "sjasmplus symbols changed for $name.asm"; status=1; }
    if [ -n "$(ls -A "$work")" ] || [ -d "$here/cases/$name.files" ]; then
      diff -r "$work" "$here/cases/$name.files" >/dev/null || { echo "sjasmplus saved files changed for $name.asm"; status=1; }
    fi
    continue
  fi
  printf '%s\n' "$expect" >"$here/cases/$name.expect"
  printf '%s\n' "$sym" >"$here/cases/$name.sym"
  rm -rf "$here/cases/$name.files"
  if [ -n "$(ls -A "$work")" ]; then cp -r "$work" "$here/cases/$name.files"; fi
  echo "$name.asm: $(printf '%s\n' "$expect" | wc -l) rows, files: $(ls "$work" | tr '\n' ' ')"
done
exit $status
