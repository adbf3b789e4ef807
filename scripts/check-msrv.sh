#!/usr/bin/env bash
# The oldest Rust that Cargo.toml's rust-version promises (MSRV) builds the C library as a
# distribution would and passes the whole Rust test suite, into a target directory of its own,
# TARGET_DIR (target/ keeps the current toolchain's build). Rust before 1.89 lacks AVX-512's
# target features and intrinsics: build.rs then leaves the AVX-512 kernels out, the tests
# expect them absent, and the last line says whether the build script compiled them in.
# Says it skipped where rustup has no such toolchain (.ci/run installs it:
# rustup toolchain install MSRV --profile minimal).
#
# usage: check-msrv.sh CARGO MSRV TARGET_DIR
set -euo pipefail
cargo=$1 msrv=$2 target_dir=$3
if ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
  echo "check-msrv: SKIPPED: no Rust $msrv toolchain" \
       "(rustup toolchain install $msrv --profile minimal)"
  exit 0
fi
for command in "build --release" test; do
  echo "CARGO_TARGET_DIR=$target_dir $cargo +$msrv $command"
  # shellcheck disable=SC2086 # CARGO may hold arguments; the command is two words
  CARGO_TARGET_DIR=$target_dir $cargo +"$msrv" $command
done
rustc=$(rustup run "$msrv" rustc --version)
# shellcheck disable=SC2012 # the newest of cargo's build-script outputs
output=$(ls -t "$target_dir"/debug/build/libutf8-[0-9a-f]*/output | head -n 1)
if grep -qx 'cargo::rustc-cfg=libutf8_avx512' "$output"; then
  echo "check-msrv: $rustc: AVX-512 kernels compiled in"
else
  echo "check-msrv: $rustc: AVX-512 kernels not compiled in (they need Rust 1.89)"
fi
