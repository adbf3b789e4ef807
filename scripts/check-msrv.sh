#!/usr/bin/env bash
# The oldest Rust that Cargo.toml's rust-version promises (MSRV) builds the C library as a
# distribution would and passes the whole Rust test suite, into a target directory of its own,
# TARGET_DIR (target/ keeps the current toolchain's build). Every test runs; the exhaustive
# sweeps and randomized tests, which check-rust runs in full on the current Rust, take every
# SWEEP_STEP-th input or iteration (LIBUTF8_TEST_SWEEP_STEP: the same source on another
# compiler, in a fraction of the time). Rust before 1.89 lacks AVX-512's target features and
# intrinsics: build.rs then leaves the AVX-512 kernels out, the tests expect them absent, and
# the last line says whether the build script compiled them in.
# Then the stack use of that C library (c-tests/stack_use.c, compiled by CC with the flags
# STACK_FLAGS and linked with STATIC_LIBS), under each of ISA_NAMES that it runs here: an older
# compiler spills more, and one that compiled SIMD code without its target features made every
# intrinsic a call through memory, which only this measure showed.
# Records in RESULTS that it skipped where rustup has no such toolchain (.ci/run installs it:
# rustup toolchain install MSRV --profile minimal).
#
# usage: check-msrv.sh RESULTS CARGO MSRV TARGET_DIR SWEEP_STEP
# (environment: CC, STACK_FLAGS, STATIC_LIBS, ISA_NAMES)
set -euo pipefail
results=$1 cargo=$2 msrv=$3 target_dir=$4 sweep_step=$5
if ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
  "$(dirname "$0")/record.sh" skipped "$results" "the Rust tests on Rust $msrv" \
    "rustup toolchain install $msrv --profile minimal"
  exit 0
fi
echo "CARGO_TARGET_DIR=$target_dir $cargo +$msrv build --release"
# shellcheck disable=SC2086 # CARGO may hold arguments
CARGO_TARGET_DIR=$target_dir $cargo +"$msrv" build --release
# The tests without debug information, which took a fifth of their build's time (a failed
# assertion still names its file and line).
echo "LIBUTF8_TEST_SWEEP_STEP=$sweep_step CARGO_PROFILE_DEV_DEBUG=0" \
  "CARGO_TARGET_DIR=$target_dir $cargo +$msrv test"
# shellcheck disable=SC2086 # CARGO may hold arguments
LIBUTF8_TEST_SWEEP_STEP=$sweep_step CARGO_PROFILE_DEV_DEBUG=0 CARGO_TARGET_DIR=$target_dir \
  $cargo +"$msrv" test
rustc=$(rustup run "$msrv" rustc --version)
# shellcheck disable=SC2012 # the newest of cargo's build-script outputs
output=$(ls -t "$target_dir"/debug/build/libutf8-[0-9a-f]*/output | head -n 1)
if grep -qx 'cargo::rustc-cfg=libutf8_avx512' "$output"; then
  echo "check-msrv: $rustc: AVX-512 kernels compiled in"
else
  echo "check-msrv: $rustc: AVX-512 kernels not compiled in (they need Rust 1.89)"
fi

# The stack measure, under each implementation this library runs here (one it cannot use is
# reported on standard error, and left out).
mkdir -p "$target_dir/stack"
stack_use=$target_dir/stack/stack_use
echo "$CC ... c-tests/stack_use.c $target_dir/release/libutf8.a"
# shellcheck disable=SC2086 # lists of flags
"$CC" $STACK_FLAGS -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Iinclude c-tests/stack_use.c \
  c-tests/check.c "$target_dir/release/libutf8.a" $STATIC_LIBS -lpthread -o "$stack_use"
for isa in $ISA_NAMES; do
  err=$target_dir/stack/$isa.err
  status=0
  LIBUTF8_FORCE_ISA=$isa "$stack_use" > "$target_dir/stack/$isa.out" 2> "$err" || status=$?
  if grep -q LIBUTF8_FORCE_ISA "$err"; then
    echo "check-msrv: $isa: not in this build or not on this CPU"
    continue
  fi
  echo "== LIBUTF8_FORCE_ISA=$isa $stack_use"
  cat "$target_dir/stack/$isa.out" "$err"
  test "$status" = 0
done
