#!/usr/bin/env bash
# Assembles real projects with retro and with their own assembler (the oracle) and requires the
# same bytes: the raw output and every file the source saves (.sna, .tap, .nex, SAVEBIN ...).
#
#   check.sh [DIR]     DIR (default $RETRO_ASM_PROJECTS, else ./corpus beside this script) holds
#                      one directory per project with a build.txt of one line:
#                        DIALECT MAIN [OPTIONS...]
#                      DIALECT is sjasmplus or pasmo; OPTIONS are given to both assemblers as they
#                      are (sjasmplus: -DNAME=VALUE -IDIR; pasmo: --alocal --equ NAME=VALUE).
#
# Environment: RETRO (default target/debug/retro), SJASMPLUS (default: built from
# ../shared/oracles/sjasmplus as tests/sjasmplus/record.sh does). Exit 1 if any project differs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../../../.."
dir="${1:-${RETRO_ASM_PROJECTS:-$here/corpus}}"
[ -d "$dir" ] || { echo "no project directory $dir"; exit 2; }
retro="${RETRO:-$root/target/debug/retro}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${SJASMPLUS:-}" ] && grep -qs '^sjasmplus' "$dir"/*/build.txt; then
  cp -r "$root/../shared/oracles/sjasmplus" "$tmp/sjbuild"
  make -C "$tmp/sjbuild" USE_LUA=0 -j2 >"$tmp/sjbuild.log" 2>&1 || { tail "$tmp/sjbuild.log"; exit 3; }
  SJASMPLUS="$tmp/sjbuild/sjasmplus"
fi

status=0
for build in "$dir"/*/build.txt; do
  proj=$(dirname "$build")
  name=$(basename "$proj")
  read -r dialect main options <"$build" || true
  rm -rf "$tmp/ours" "$tmp/theirs"
  cp -r "$proj" "$tmp/ours"
  cp -r "$proj" "$tmp/theirs"
  # shellcheck disable=SC2086 # the options are words on purpose
  case "$dialect" in
    sjasmplus)
      (cd "$tmp/theirs" && "$SJASMPLUS" --nologo --msg=err $options --raw=out.bin "$main" >/dev/null 2>&1) || { echo "$name: sjasmplus fails"; status=1; continue; }
      (cd "$tmp/ours" && "$retro" asm "$main" --dialect sjasmplus $options -o out.bin 2>"$tmp/err") || { echo "$name: retro fails"; head -20 "$tmp/err"; status=1; continue; } ;;
    pasmo)
      (cd "$tmp/theirs" && pasmo $options --bin "$main" out.bin >/dev/null 2>&1) || { echo "$name: pasmo fails"; status=1; continue; }
      (cd "$tmp/ours" && "$retro" asm "$main" --dialect pasmo $options -o out.bin 2>"$tmp/err") || { echo "$name: retro fails"; head -20 "$tmp/err"; status=1; continue; } ;;
    *) echo "$name: unknown dialect $dialect"; status=1; continue ;;
  esac
  if diff -r "$tmp/ours" "$tmp/theirs" >"$tmp/diff"; then
    made=$(cd "$tmp/ours" && for f in $(find . -type f -printf '%P\n'); do [ -e "$proj/$f" ] || printf ' %s' "$f"; done)
    echo "$name: identical:$made"
  else
    echo "$name: DIFFERS"; head -5 "$tmp/diff"; status=1
  fi
done
exit $status
