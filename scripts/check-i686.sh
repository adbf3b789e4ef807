#!/usr/bin/env bash
# The library on a 32-bit target, i686 (Debian's i386), where usize and size_t are 32 bits and
# only the portable code runs (the x86 SIMD kernels are compiled for x86_64 alone): the Rust
# tests given as TEST-ARGs (cargo test's target selection: none, the whole suite) built for i686
# with the tests' profile (its overflow checks catch a length computed in 32 bits that wraps)
# and run natively, through the i686 C library's loader; then the C harness (C_HARNESS_SRC,
# compiled with C_HARNESS_FLAGS; KUHN_ARGS, its arguments that replay Kuhn's stress test, or
# none) and the stack measure (c-tests/stack_use.c) against the C library built for i686, into
# BUILD. An x86_64 machine runs i686 programs without emulation. Needs the Rust target and the
# cross compiler with its C library (which .ci/run installs: `rustup target add
# i686-unknown-linux-gnu`, `apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross`;
# gcc-multilib would conflict with the other cross compilers), and records in RESULTS that it
# skipped where one is absent or the machine cannot run i686 programs.
#
# usage: check-i686.sh RESULTS CARGO BUILD [TEST-ARG...]
set -euo pipefail
results=$1 cargo=$2 build=$3
shift 3
target=i686-unknown-linux-gnu
sysroot=/usr/i686-linux-gnu
# The cross C library's loader runs an i686 program that the system has no loader for.
loader="$sysroot/lib/ld-linux.so.2 --library-path $sysroot/lib"

if ! { rustup target list --installed 2>/dev/null | grep -x "$target" >/dev/null &&
       command -v i686-linux-gnu-gcc >/dev/null && [ -x "$sysroot/lib/ld-linux.so.2" ] &&
       [ "$(uname -m)" = x86_64 ]; }; then
  "$(dirname "$0")/record.sh" skipped "$results" "the tests and the C harness on i686 (32-bit)" \
    "an x86_64 machine, the $target Rust target, i686-linux-gnu-gcc and libc6-dev-i386-cross"
  exit 0
fi
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --target $target $*"
# shellcheck disable=SC2086 # CARGO may hold arguments
CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc \
CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_RUNNER="$loader" \
  $cargo test --target $target "$@"

# The C library as a distribution builds it for i386 (libutf8.a: the release profile), and the
# C harness and the stack measure against it.
lib_dir=${CARGO_TARGET_DIR:-target}/$target/release
echo "$cargo rustc --release --target $target --package libutf8-capi --lib"
# shellcheck disable=SC2086 # CARGO may hold arguments
CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc \
  $cargo rustc --release --target $target --package libutf8-capi --lib -- \
  -C llvm-args=-align-all-functions=6
# shellcheck disable=SC2086 # the loader and its option
"$(dirname "$0")/cross-c-checks.sh" "$build" i686 i686-linux-gnu-gcc include \
  "$lib_dir/libutf8.a" scalar $loader
