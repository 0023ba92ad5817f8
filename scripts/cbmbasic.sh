# Sourced by the scripts that run cbmbasic (the C64's BASIC ROM recompiled to C, in
# ../shared/oracles/cbmbasic): `cbmbasic_get DIR` sets $cbm to the path of a cbmbasic to run.
# RETRO_CBMBASIC_BIN names one already built (.ci/run builds it once for all its re-checks);
# otherwise it is built from RETRO_CBMBASIC_SRC (default: ../shared/oracles/cbmbasic beside the
# repository, $root) in a copy under DIR, never in the source tree.
# Exits 4 when the source is missing, 3 when it does not build.
cbmbasic_get() {
  if [ -n "${RETRO_CBMBASIC_BIN:-}" ]; then
    if [ ! -x "$RETRO_CBMBASIC_BIN" ]; then
      echo "RETRO_CBMBASIC_BIN=$RETRO_CBMBASIC_BIN is not an executable" >&2
      exit 3
    fi
    cbm="$RETRO_CBMBASIC_BIN"
    return 0
  fi
  cbmbasic_src="${RETRO_CBMBASIC_SRC:-$root/../shared/oracles/cbmbasic}"
  if [ ! -f "$cbmbasic_src/cbmbasic.c" ]; then
    echo "cbmbasic sources not found at $cbmbasic_src (set RETRO_CBMBASIC_SRC or RETRO_CBMBASIC_BIN)" >&2
    exit 4
  fi
  cp -r "$cbmbasic_src" "$1/cbmbasic"
  if ! make -s -C "$1/cbmbasic" >"$1/cbmbasic-build.log" 2>&1; then
    echo "cbmbasic did not build:" >&2
    tail -20 "$1/cbmbasic-build.log" >&2
    exit 3
  fi
  cbm="$1/cbmbasic/cbmbasic"
}
