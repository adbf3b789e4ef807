#!/usr/bin/env bash
# Clippy for aarch64, and the Rust tests given as TEST-ARGs (cargo test's target selection:
# none, the whole suite), the converters' tests of the validated stretches and of the other
# UTF-16 byte order, the Latin-1 converters' tests of the blocks and the length functions' tests
# of NEON's count of UTF-16 units, built for aarch64 and run under QEMU's user-mode emulation:
# the NEON kernel and the portable code, on a machine that is not aarch64. Under emulation a
# test runs about 50 times slower than natively. Needs the Rust target, QEMU and a cross linker
# (which .ci/run installs: `rustup target add aarch64-unknown-linux-gnu`, `apt-get install
# qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross`), and records in RESULTS that it
# skipped where one is absent.
# LIBUTF8_TEST_SWEEP_STEP from the environment, passed on to the tests, samples them.
# Then the C library cross-built by MAKE and installed, utf8check run from the installation, and
# the C harness (C_HARNESS_SRC, compiled with C_HARNESS_FLAGS; KUHN_ARGS, its arguments that
# replay Kuhn's stress test, or none) and the stack measure (c-tests/stack_use.c) against that C
# library, run under QEMU with each of the implementations, into BUILD.
#
# usage: check-aarch64.sh RESULTS CARGO BUILD [TEST-ARG...]   (environment: MAKE, C_HARNESS_*)
set -euo pipefail
results=$1 cargo=$2 build=$3
shift 3
target=aarch64-unknown-linux-gnu
# The converters' tests of the validated stretches and of the other byte order, each through
# every implementation (a filter after `--` applies to every test file of a run: these run on
# their own, and by their exact names).
transcode_tests=(implementations_are_tested_here a_few_inputs_through_every_implementation
  errors_and_capacities_around_the_validated_stretches
  every_error_at_every_offset_of_the_first_blocks short_inputs_in_the_other_byte_order
  ascii_blocks_into_outputs_at_every_offset_in_the_other_byte_order
  random_text_in_the_other_byte_order)
# The Latin-1 and Windows-1252 converters' tests that reach NEON's blocks (all but the sweep of
# every input of 1 to 3 bytes, too short for a block), by their exact names as above.
latin1_tests=(examples errors_at_every_offset_around_the_blocks every_capacity_below_the_needed_one
  chunks_cut_everywhere_give_one_call every_implementation_converts_from_latin1_and_cp1252
  every_implementation_converts_into_latin1 every_implementation_counts_the_latin1_length
  every_implementation_around_runs_of_ascii
  every_implementation_with_every_byte_at_every_offset_of_a_block)
# The length functions' tests that reach NEON's count of UTF-16 units (4-byte characters in text
# long enough for the kernel, and in 49 KB of them), by their exact names as above.
lengths_tests=(a_few_inputs_of_each_kind four_byte_characters_around_the_lanes_flush)

if ! { rustup target list --installed 2>/dev/null | grep -x "$target" >/dev/null &&
       command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; }; then
  "$(dirname "$0")/record.sh" skipped "$results" "the NEON kernel's tests under QEMU" \
    "the $target Rust target, qemu-aarch64 and aarch64-linux-gnu-gcc"
  exit 0
fi
# cargo test for aarch64, linked by the cross linker and run under QEMU; optimised, but without
# the release profile's LTO into one codegen unit (the C library's), which makes building the
# tests five times as long and changes nothing they check.
cargo_test() {
  # shellcheck disable=SC2086 # CARGO may hold arguments
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
    $cargo test --release --target $target "$@"
}
echo "$cargo clippy --target $target --all-targets -- -D warnings"
# shellcheck disable=SC2086 # CARGO may hold arguments
$cargo clippy --target $target --all-targets -- -D warnings
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $target $*"
cargo_test "$@"
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $target --test transcode -- --exact ${transcode_tests[*]}"
cargo_test --test transcode -- --exact "${transcode_tests[@]}"
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $target --test latin1 -- --exact ${latin1_tests[*]}"
cargo_test --test latin1 -- --exact "${latin1_tests[@]}"
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $target --test lengths -- --exact ${lengths_tests[*]}"
cargo_test --test lengths -- --exact "${lengths_tests[@]}"

# The C library cross-built for aarch64 as a distribution builds it: the project's own make,
# given cargo's target, cargo's linker for it and the C compiler (docs/PACKAGING.md), into
# a make folder of its own, then installed into a staging root (libutf8.a: the release profile,
# the exported functions and their checks of pointers and flags). The installed utf8check runs
# under QEMU against the installed libutf8.so, and the C harness is built against the installed
# header and libutf8.a, and so is the stack measure.
staged=$(dirname "$0")/staged-build.sh
"$staged" install "$build" CARGO_BUILD_TARGET=$target \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc CC=aarch64-linux-gnu-gcc
root=$build/root
lib=$root/usr/lib
for file in "$lib/libutf8.so.1" "$root/usr/bin/utf8check"; do
  readelf -h "$file" | grep -q 'Machine: *AArch64' || { echo "$file: not for aarch64"; exit 1; }
done
"$staged" utf8check "$build" qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH="$lib"
"$(dirname "$0")/cross-c-checks.sh" "$build" aarch64 aarch64-linux-gnu-gcc "$root/usr/include" \
  "$lib/libutf8.a" "scalar neon" qemu-aarch64 -L /usr/aarch64-linux-gnu
