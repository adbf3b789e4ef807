#!/usr/bin/env bash
# The oldest Rust that Cargo.toml's rust-version promises (MSRV) builds the C library as a
# distribution would and passes the whole Rust test suite, into a target directory of its own,
# TARGET_DIR (target/ keeps the current toolchain's build). Every test runs; the exhaustive
# sweeps and randomized tests, which check-rust runs in full on the current Rust, take every
# SWEEP_STEP-th input or iteration (LIBUTF8_TEST_SWEEP_STEP: the same source on another
# compiler, in a fraction of the time). Rust before 1.89 lacks AVX-512's target features and
# intrinsics: build.rs then leaves the AVX-512 kernels out, the tests expect them absent, and
# the last line says whether the build script compiled them in.
# Records in RESULTS that it skipped where rustup has no such toolchain (.ci/run installs it:
# rustup toolchain install MSRV --profile minimal).
#
# usage: check-msrv.sh RESULTS CARGO MSRV TARGET_DIR SWEEP_STEP
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
