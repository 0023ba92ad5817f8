# Sourced by bbcz80/record.sh and corpus/record-z80.sh (not run on its own): runs BBC programs under
# BBC BASIC (Z80) 5.00 in retro's CP/M machine and records, or with --check compares, what they print
# as NAME.expect beside the calling script. The one home of that runner; the scripts say only what is
# typed at BBC BASIC's prompt.
#
# bbcz80_record_all WHO LIST TIMEOUT START FEED [--check] RETRO BBCZ80_DIR
#   WHO       the calling script's name, for messages
#   LIST      file of program names, one a line (NAME.expect is written beside it)
#   TIMEOUT   seconds one program may run before it is stopped
#   START     awk pattern of the echoed line after which the program's own output begins
#   FEED      function called as `FEED NAME DIR BBCZ80_DIR`: prints what is typed at the prompt,
#             ending with the command that runs the program; may copy files into the scratch
#             directory DIR, where BBC BASIC runs. `*BYE` is typed after it and ends the output.
# Exits 1 if a --check found a difference.
#
# What BBC BASIC (Z80) printed passes through `bbcz80_filter` (stdin to stdout) before it is kept or
# compared; a calling script may define its own after sourcing this file (the corpus one turns BBC
# BASIC (Z80)'s classic error texts into RISC OS BASIC V's).
bbcz80_filter() { cat; }
bbcz80_record_all() {
    who=$1 list=$2 timeout=$3 start=$4 feed=$5
    shift 5
    check=
    if [ "${1:-}" = --check ]; then check=1; shift; fi
    if [ $# -ne 2 ]; then
        echo "usage: $who [--check] RETRO BBCZ80_DIR   (BBCZ80_DIR: ../shared/oracles/bbcz80)" >&2
        exit 2
    fi
    retro=$1
    # The programs run in a scratch directory: make a relative RETRO name the same file from there.
    case "$retro" in
        */*) retro=$(cd "$(dirname "$retro")" && pwd)/$(basename "$retro") ;;
    esac
    bbcz80=$(cd "$2" && pwd)
    dir=$(cd "$(dirname "$list")" && pwd)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp "$bbcz80/bin/cpm/BBCBASIC.COM" "$tmp/"
    status=0
    for name in $(cat "$list"); do
        # Typed input goes through a file so a failing FEED stops the script (set -e) instead of
        # vanishing inside a pipeline.
        { "$feed" "$name" "$tmp" "$bbcz80"; printf '*BYE\n'; } > "$tmp/in"
        (cd "$tmp" && timeout "$timeout" "$retro" run --headless --machine cpm BBCBASIC.COM) < "$tmp/in" |
            tr -d '\r' | awk -v start="$start" 'f&&/^>\*BYE/{exit} f{print} $0~start{f=1}' |
            bbcz80_filter > "$tmp/out"
        if [ -n "$check" ]; then
            if ! cmp -s "$tmp/out" "$dir/$name.expect"; then
                echo "$who: $name.expect differs from what BBC BASIC (Z80) prints:" >&2
                diff "$dir/$name.expect" "$tmp/out" >&2 || true
                status=1
            fi
        else
            cp "$tmp/out" "$dir/$name.expect"
        fi
    done
    exit $status
}
