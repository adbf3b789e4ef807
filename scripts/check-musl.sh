#!/usr/bin/env bash
# The C library on musl (Alpine's C library), built on this glibc machine as docs/PACKAGING.md
# says: Rust's x86_64-unknown-linux-musl target with crt-static off, musl-gcc as cargo's linker
# and as CC, by the project's make, and installed to /usr under BUILD/root. Then, against that
# installation: check-abi's checks with musl-gcc (the exports and their versions, libc alone and
# no function of glibc's, the hardening, programs linked against it run under musl's loader);
# the C harness (C_HARNESS_SRC, compiled with C_HARNESS_FLAGS; KUHN_ARGS, its arguments that
# replay Kuhn's stress test, or none) built by musl-gcc with what pkg-config gives, against
# libutf8.so and against libutf8.a, each run with every implementation this CPU has (the library
# reads LIBUTF8_FORCE_ISA with musl's getenv and reports with its write); and the installed
# utf8check on a valid and an invalid file. Needs an x86_64 machine, the Rust target and
# musl-gcc (which .ci/run installs: `rustup target add x86_64-unknown-linux-musl`, `apt-get
# install musl-tools`), and records in RESULTS that it skipped where one is absent.
#
# usage: check-musl.sh RESULTS BUILD
set -euo pipefail
results=$1 build=$2
target=x86_64-unknown-linux-musl

if ! { rustup target list --installed 2>/dev/null | grep -x "$target" >/dev/null &&
       command -v musl-gcc >/dev/null && [ "$(uname -m)" = x86_64 ]; }; then
  "$(dirname "$0")/record.sh" skipped "$results" "the C library built for musl and its tests" \
    "an x86_64 machine, the $target Rust target and musl-gcc (musl-tools)"
  exit 0
fi

staged=$(dirname "$0")/staged-build.sh
"$staged" install "$build" CARGO_BUILD_TARGET=$target \
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_LINKER=musl-gcc \
  "CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS=-C target-feature=-crt-static" CC=musl-gcc
root=$build/root
lib=$root/usr/lib
readelf -l "$root/usr/bin/utf8check" | grep -q 'interpreter: /lib/ld-musl-' ||
  { echo "$root/usr/bin/utf8check: not linked against musl"; exit 1; }

# check-abi.sh reads libutf8.so and libutf8.a from one folder, and the static library's system
# libraries from its work folder.
mkdir -p "$build/abi"
cp "$build/make/native-static-libs" "$build/abi/"
"$(dirname "$0")/check-abi.sh" musl-gcc "${CARGO_TARGET_DIR:-target}/$target/release" \
  libutf8.so.1 "$build/abi"

export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$lib/pkgconfig
# shellcheck disable=SC2046,SC2086 # lists of flags and files
musl-gcc -std=c99 -O2 $C_HARNESS_FLAGS $C_HARNESS_SRC $(pkg-config --cflags --libs libutf8) \
  -o "$build/test_api_shared"
# shellcheck disable=SC2046,SC2086 # lists of flags and files
musl-gcc -std=c99 -O2 $C_HARNESS_FLAGS $C_HARNESS_SRC $(pkg-config --cflags libutf8) \
  $(pkg-config --variable=static_libs libutf8) -o "$build/test_api_static"
# The implementations: those this CPU lacks are reported as not supported, and skipped; any
# other report (an unknown name, a variable not read) fails.
for t in shared static; do
  for isa in scalar sse4.2 avx2 avx512 avx512-zen4 avx512-zen5; do
    echo "LIBUTF8_FORCE_ISA=$isa $build/test_api_$t ${KUHN_ARGS-}"
    # shellcheck disable=SC2086 # none or two file names
    LIBUTF8_FORCE_ISA=$isa LD_LIBRARY_PATH=$lib "$build/test_api_$t" ${KUHN_ARGS-} \
      2> "$build/test_api_$t-$isa.err"
    cat "$build/test_api_$t-$isa.err" >&2
    if grep LIBUTF8_FORCE_ISA "$build/test_api_$t-$isa.err" | grep -v 'not supported by this CPU'
    then exit 1; fi
    if [[ $isa == scalar ]] && grep -q LIBUTF8_FORCE_ISA "$build/test_api_$t-$isa.err"; then
      exit 1; fi
  done
done

"$staged" utf8check "$build" env LD_LIBRARY_PATH="$lib"
"$(dirname "$0")/record.sh" passed "$results" \
  "the C library built for musl: its ABI, the C harness and utf8check"
