#!/usr/bin/env bash
# The portable (scalar) implementation where no SIMD one exists: Clippy for a 32-bit target
# (i686) and for a big-endian one (s390x), and the Rust tests given as TEST-ARGs (cargo test's
# target selection: none, the whole suite) built for s390x and run under QEMU, so that byte
# order and word size are not assumed. Needs the Rust targets, QEMU and a cross linker for
# s390x (which .ci/run installs: `rustup target add i686-unknown-linux-gnu
# s390x-unknown-linux-gnu`, `apt-get install qemu-user gcc-s390x-linux-gnu
# libc6-dev-s390x-cross`), and records in RESULTS that it skipped where one is absent.
# LIBUTF8_TEST_SWEEP_STEP from the environment, passed on to the tests, samples them. Then
# three UTF-16 byte-order tests of tests/transcode.rs: on s390x,
# UTF8_UTF16LE is the order swapped.
#
# usage: check-portable.sh RESULTS CARGO [TEST-ARG...]
set -euo pipefail
results=$1 cargo=$2
shift 2
targets=(i686-unknown-linux-gnu s390x-unknown-linux-gnu)
byte_order_tests=(short_inputs_in_the_other_byte_order random_text_in_the_other_byte_order
  the_other_byte_order_through_the_public_functions)
s390x=s390x-unknown-linux-gnu

installed=$(rustup target list --installed 2>/dev/null || true)
if ! { [ "$(grep -cxF -e "${targets[0]}" -e "${targets[1]}" <<< "$installed")" = 2 ] &&
       command -v qemu-s390x >/dev/null && command -v s390x-linux-gnu-gcc >/dev/null; }; then
  "$(dirname "$0")/record.sh" skipped "$results" \
    "the i686 and s390x builds and s390x tests under QEMU" \
    "the Rust targets ${targets[*]}, qemu-s390x and s390x-linux-gnu-gcc"
  exit 0
fi
for t in "${targets[@]}"; do
  echo "$cargo clippy --target $t --all-targets -- -D warnings"
  # shellcheck disable=SC2086 # CARGO may hold arguments
  $cargo clippy --target "$t" --all-targets -- -D warnings
done
cargo_test() {
  # shellcheck disable=SC2086 # CARGO may hold arguments
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc \
  CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="qemu-s390x -L /usr/s390x-linux-gnu" \
    $cargo test --release --target $s390x "$@"
}
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $s390x $*"
cargo_test "$@"
echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $s390x --test transcode -- --exact ${byte_order_tests[*]}"
cargo_test --test transcode -- --exact "${byte_order_tests[@]}"
