#!/usr/bin/env bash
# Runs COMMAND once per implementation named in ISAS (LIBUTF8_FORCE_ISA), all at once (the
# programs run on one core each), then prints their outputs in turn; fails if a run failed or
# if the library reported that the forced implementation is not in use. The outputs stay in
# WORKDIR/isa-PROGRAM-ISA.{out,err,status}, PROGRAM being COMMAND's file name: stages that run
# at once under make -j each have their own.
#
# usage: per-isa.sh WORKDIR "ISAS" COMMAND [ARG...]
set -euo pipefail
work=$1 isas=$2
shift 2
name=$(basename "$1")
for isa in $isas; do
  { status=0; LIBUTF8_FORCE_ISA=$isa "$@" > "$work/isa-$name-$isa.out" \
      2> "$work/isa-$name-$isa.err" || status=$?; echo $status > "$work/isa-$name-$isa.status"; } &
done
wait
for isa in $isas; do
  echo "== LIBUTF8_FORCE_ISA=$isa $*"
  cat "$work/isa-$name-$isa.out"; cat "$work/isa-$name-$isa.err" >&2
  test "$(cat "$work/isa-$name-$isa.status")" = 0
  # An `if`, not `! grep`: bash -e does not stop at a negated command.
  if grep -q 'LIBUTF8_FORCE_ISA' "$work/isa-$name-$isa.err"; then exit 1; fi
done
