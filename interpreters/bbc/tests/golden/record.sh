#!/bin/sh
# Records Debian brandy's LIST of every golden case marked `brandy: yes` or `brandy: differs` into tests/golden/brandy/.
#
# Each case's text is tokenized by our tokenizer into a RISC OS file; Brandy (the SDL build, run with
# the dummy video driver) LOADs it and LISTs it into a *SPOOL file, driven by an *EXEC script because
# the SDL build reads no commands from stdin. The golden test then checks that Brandy's LIST equals
# ours, spaces aside (Brandy reformats spacing as it loads Acorn programs).
#
# usage: record.sh           re-record the golden files
#        record.sh --check   record into a temporary directory and diff against the committed files
#                            (exit 1 on a difference, 2 when brandy is not installed)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
command -v brandy >/dev/null 2>&1 || { echo "record.sh: brandy is not installed" >&2; exit 2; }

out="$here/brandy"
check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    out=$(mktemp -d)
fi
mkdir -p "$out"

(cd "$root" && cargo build -q -p retro-bbc --example golden_tok)
tok="${CARGO_TARGET_DIR:-$root/target}/debug/examples/golden_tok"

for case in "$here"/corpus/*.case; do
    grep -Eq '^brandy: (yes|differs)' "$case" || continue
    name=$(basename "$case" .case)
    work=$(mktemp -d)
    "$tok" "$case" "$work/prog"
    printf '10 OSCLI "EXEC %s/cmds"\n' "$work" > "$work/drv.bas"
    printf 'LOAD "%s/prog"\n*SPOOL %s/out\nLIST\n*SPOOL\nQUIT\n' "$work" "$work" > "$work/cmds"
    SDL_VIDEODRIVER=dummy timeout 30 brandy -chain "$work/drv.bas" </dev/null >/dev/null 2>&1 || true
    # Keep the listing: drop the echoed commands (">LIST", ">*SPOOL") and the CRs of CR LF.
    if [ -f "$work/out" ]; then
        sed -e 's/\r$//' -e '/^>/d' "$work/out" > "$out/$name.txt"
    else
        echo "record.sh: $name: brandy produced no listing" >&2
        : > "$out/$name.txt"
    fi
    rm -rf "$work"
done

if [ "$check" = 1 ]; then
    if diff -r "$here/brandy" "$out"; then
        echo "record.sh: Brandy's listings match the committed golden files"
        rm -rf "$out"
    else
        echo "record.sh: Brandy's listings differ from tests/golden/brandy (diff above)" >&2
        rm -rf "$out"
        exit 1
    fi
fi
