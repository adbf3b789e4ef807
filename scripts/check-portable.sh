#!/usr/bin/env bash
# The portable (scalar) implementation where no SIMD one exists: Clippy for 32-bit targets
# (i686, 32-bit ARM) and for a big-endian one (s390x), and the Rust tests given as TEST-ARGs (cargo test's
# target selection: none, the whole suite) built for s390x and run under QEMU, so that byte
# order and word size are not assumed. Needs the Rust targets, QEMU and the cross linkers
# (which .ci/run installs: `rustup target add i686-unknown-linux-gnu s390x-unknown-linux-gnu
# armv7-unknown-linux-gnueabihf`, `apt-get install qemu-user gcc-s390x-linux-gnu
# libc6-dev-s390x-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross`), and records in RESULTS
# that it skipped where one is absent. LIBUTF8_TEST_SWEEP_STEP from the environment, passed on
# to the tests, samples them. Then three UTF-16 byte-order tests of tests/transcode.rs, if the
# TEST-ARGs left that file out: on s390x, UTF8_UTF16LE is the order swapped. Then the C
# library built for 32-bit ARM (Debian's armhf), whose calls keep their return address in a
# register, and the C harness (C_HARNESS_SRC, compiled with C_HARNESS_FLAGS; KUHN_ARGS, its
# arguments that replay Kuhn's stress test, or none) and the stack measure against it under
# QEMU, into BUILD; then the C harness alone against the C library built for s390x, into
# s390x beside BUILD.
#
# usage: check-portable.sh RESULTS CARGO BUILD [TEST-ARG...]   (environment: C_HARNESS_*)
set -euo pipefail
results=$1 cargo=$2 build=$3
shift 3
targets=(i686-unknown-linux-gnu s390x-unknown-linux-gnu armv7-unknown-linux-gnueabihf)
byte_order_tests=(short_inputs_in_the_other_byte_order random_text_in_the_other_byte_order
  the_other_byte_order_through_the_public_functions)
s390x=s390x-unknown-linux-gnu
armv7=armv7-unknown-linux-gnueabihf

installed=$(rustup target list --installed 2>/dev/null || true)
if ! { [ "$(grep -cxF -e "${targets[0]}" -e "${targets[1]}" -e "${targets[2]}" \
            <<< "$installed")" = 3 ] &&
       command -v qemu-s390x >/dev/null && command -v s390x-linux-gnu-gcc >/dev/null &&
       command -v qemu-arm >/dev/null && command -v arm-linux-gnueabihf-gcc >/dev/null; }; then
  "$(dirname "$0")/record.sh" skipped "$results" \
    "the i686, s390x and armv7 builds and their tests under QEMU" \
    "the Rust targets ${targets[*]}, qemu-s390x, qemu-arm and the cross compilers"
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
# TEST-ARGs name test files, or none (the whole suite, transcode.rs with it).
if [ $# -gt 0 ] && [[ " $* " != *" --test transcode "* ]]; then
  echo "${LIBUTF8_TEST_SWEEP_STEP:+LIBUTF8_TEST_SWEEP_STEP=$LIBUTF8_TEST_SWEEP_STEP }$cargo test --release --target $s390x --test transcode -- --exact ${byte_order_tests[*]}"
  cargo_test --test transcode -- --exact "${byte_order_tests[@]}"
fi

echo "$cargo rustc --release --target $armv7 --package libutf8-capi --lib"
# shellcheck disable=SC2086 # CARGO may hold arguments
CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_LINKER=arm-linux-gnueabihf-gcc \
  $cargo rustc --release --target $armv7 --package libutf8-capi --lib
"$(dirname "$0")/cross-c-checks.sh" "$build" armv7 arm-linux-gnueabihf-gcc include \
  "${CARGO_TARGET_DIR:-target}/$armv7/release/libutf8.a" scalar \
  qemu-arm -L /usr/arm-linux-gnueabihf

# The C harness against the C library built for s390x, big-endian, where UTF8_UTF16LE is the
# order swapped; not the stack measure, whose limits are those of the other targets' ABIs (each
# s390x frame holds a register save area of 160 bytes).
echo "$cargo rustc --release --target $s390x --package libutf8-capi --lib"
# shellcheck disable=SC2086 # CARGO may hold arguments
CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc \
  $cargo rustc --release --target $s390x --package libutf8-capi --lib
CROSS_PROGRAMS=test_api "$(dirname "$0")/cross-c-checks.sh" "$(dirname "$build")/s390x" s390x \
  s390x-linux-gnu-gcc include "${CARGO_TARGET_DIR:-target}/$s390x/release/libutf8.a" scalar \
  qemu-s390x -L /usr/s390x-linux-gnu
