#!/usr/bin/env bash
# The C harness (C_HARNESS_SRC, compiled with C_HARNESS_FLAGS; KUHN_ARGS, its arguments that
# replay Kuhn's stress test, or none) and the stack measure (c-tests/stack_use.c) against a C
# library built for another target: compiled by CC against the header in INCLUDE and the static
# library LIBUTF8_A, into BUILD as test_api_NAME and stack_use_NAME, and run by RUNNER (an
# emulator or a loader, with its arguments) under each implementation of ISAS. The library
# reports on standard error an implementation it was asked for and cannot use: then the run did
# not test it, and fails. CROSS_PROGRAMS (default "test_api stack_use") names the programs run.
#
# usage: cross-c-checks.sh BUILD NAME CC INCLUDE LIBUTF8_A "ISA..." RUNNER...
# (environment: C_HARNESS_SRC, C_HARNESS_FLAGS, KUHN_ARGS, CROSS_PROGRAMS)
set -euo pipefail
build=$1 name=$2 cc=$3 include=$4 lib=$5 isas=$6
shift 6
mkdir -p "$build"
# shellcheck disable=SC2086 # lists of flags and files
"$cc" -std=c99 -O2 $C_HARNESS_FLAGS -I"$include" $C_HARNESS_SRC "$lib" \
  -o "$build/test_api_$name"
# shellcheck disable=SC2086 # a list of flags
"$cc" -std=c99 -D_POSIX_C_SOURCE=200809L -O2 $C_HARNESS_FLAGS -I"$include" \
  c-tests/stack_use.c c-tests/check.c "$lib" -lpthread -o "$build/stack_use_$name"
for isa in $isas; do
  for program in ${CROSS_PROGRAMS:-test_api stack_use}; do
    args=
    [ $program = test_api ] && args=${KUHN_ARGS-}
    echo "LIBUTF8_FORCE_ISA=$isa $* $build/${program}_$name $args"
    # shellcheck disable=SC2086 # none or two file names
    LIBUTF8_FORCE_ISA=$isa "$@" "$build/${program}_$name" $args \
      2> "$build/${program}_$name-$isa.err"
    cat "$build/${program}_$name-$isa.err" >&2
    if grep -q LIBUTF8_FORCE_ISA "$build/${program}_$name-$isa.err"; then exit 1; fi
  done
done
