#!/usr/bin/env bash
# The ABI of the shared library built in LIBS (libutf8.so and libutf8.a; `make check-abi`):
# - it exports the committed symbol list and nothing else, under SONAME, each function with the
#   version node of the release that added it (c-tests/symbol-versions.txt, from
#   capi/libutf8.map; GNU ld also lists each node as an absolute symbol of its own name);
# - it needs libc alone, and of libc only the functions of c-tests/libc-imports.txt, which
#   every C library has (glibc, musl);
# - no panic can reach C, and nothing allocates: a program that references every exported
#   function, linked with the static library and with unreferenced sections removed, holds no
#   panic or allocator code at all (the linker follows every reference, function-pointer
#   tables included);
# - every SIMD intrinsic is inlined into a kernel compiled for its instruction set;
# - a program referencing every function, linked against the versioned library, needs
#   LIBUTF8_1.0 to 1.3 and runs; and the same program linked against an unversioned
#   libutf8.so.1, as releases up to 1.2.0 were (a stand-in with the same soname and names),
#   runs against this one too: ld.so binds an unversioned reference to the default version;
# - full RELRO, BIND_NOW and no executable stack.
# The programs are written by every-function.sh from c-tests/exported-symbols.txt; they and the
# lists compared go to WORK, which holds native-static-libs (the static library's system
# libraries, as cargo printed them).
#
# usage: check-abi.sh CC LIBS SONAME WORK
set -euo pipefail
cc=$1 libs=$2 soname=$3 work=$4
tests=$(cd "$(dirname "$0")/../c-tests" && pwd)
symbols=$tests/exported-symbols.txt
every_function=$(dirname "$0")/every-function.sh
compat=$work/abi-compat

# Prints a command, then runs it.
run() { echo "$*"; "$@"; }

nm -D --defined-only --with-symbol-versions "$libs/libutf8.so" |
  awk '!($2 == "A" && $3 ~ /^LIBUTF8_/) { print $3 }' | sort > "$work/symbol-versions.txt"
diff -u "$tests/symbol-versions.txt" "$work/symbol-versions.txt"
sed 's/@.*//' "$work/symbol-versions.txt" > "$work/symbols.txt"
diff -u "$symbols" "$work/symbols.txt"
if ! readelf -d "$libs/libutf8.so" | grep -q "SONAME.*\[$soname\]"; then
  echo "check-abi: the soname of $libs/libutf8.so is not $soname"; exit 1
fi
echo "check-abi: the exported symbols, their versions and the soname are as committed"

# What the library needs of the system: libc alone (no libgcc_s, libm, libpthread, loader),
# whose name differs by C library (glibc's libc.so.6, musl's libc.musl-ARCH.so.1 or libc.so),
# and of libc only functions that every C library has (c-tests/libc-imports.txt: those the code
# calls, getenv, write and strlen, and abort were a panic reachable; those the compiler emits,
# memcpy and its kin, bcmp on i686; getauxval, which Rust's compiler runtime calls on aarch64 to
# find the CPU's atomics, in glibc since 2.16 and in musl). A function one C library alone
# has (glibc's __memcpy_chk, __isoc23_strtol, gnu_get_libc_version, ...) would leave the library
# unloadable elsewhere, on musl for one. The weak references of the toolchain's start files
# (__cxa_finalize, __gmon_start__, _ITM_*), which the loader leaves null where absent, are not
# counted.
needed=$(readelf -d "$libs/libutf8.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
if [[ ! $needed =~ ^libc\.[^[:space:]]*$ ]]; then
  echo "check-abi: $libs/libutf8.so needs more than libc, or another library: ${needed//$'\n'/ }"
  exit 1
fi
nm -D --undefined-only "$libs/libutf8.so" | awk '$1 == "U" { sub(/@.*/, "", $2); print $2 }' |
  sort > "$work/libc-imports.txt"
if unknown=$(comm -13 "$tests/libc-imports.txt" "$work/libc-imports.txt") && [[ -n $unknown ]]; then
  echo "check-abi: $libs/libutf8.so calls C library functions not in c-tests/libc-imports.txt:"
  echo "$unknown"; exit 1
fi
echo "check-abi: it needs libc alone ($needed), and of it only $(paste -sd' ' "$work/libc-imports.txt")"

# Hardening as distributions check it (docs/PACKAGING.md): full RELRO, every symbol bound at
# load time, and no executable stack.
headers=$(readelf -W -l -d "$libs/libutf8.so")
for want in 'GNU_RELRO' 'BIND_NOW' 'GNU_STACK .* RW '; do
  if ! grep -Eq "$want" <<< "$headers"; then
    echo "check-abi: $libs/libutf8.so lacks $want (readelf -l -d)"; exit 1
  fi
done
echo "check-abi: full RELRO, BIND_NOW and a stack that is not executable"

"$every_function" addresses "$symbols" > "$work/every_function.c"
# shellcheck disable=SC2046,SC2086 # CC may hold flags; the system libraries are words
run $cc -O2 "$work/every_function.c" "$libs/libutf8.a" -Wl,--gc-sections \
  $(cat "$work/native-static-libs") -o "$work/every_function"
test "$("$work/every_function" | wc -l)" = "$(wc -l < "$symbols")"
if nm -C "$work/every_function" | grep -E 'panic|rust_begin_unwind|__rust_alloc|__rdl_alloc'; then
  echo "check-abi: the library has a path to a panic or an allocation (symbols above)"; exit 1
fi
echo "check-abi: no panic or allocation is reachable from the exported functions"

# Each SIMD intrinsic (core::arch) is inlined into a kernel compiled for its instruction set. One
# left a function of its own was called from code compiled without that instruction set, each
# intrinsic a call taking its vectors through memory, as Rust before 1.86 compiles a closure.
if nm -C "$libs/libutf8.so" | grep -E ' core::core_arch::'; then
  echo "check-abi: SIMD intrinsics compiled as functions of their own (symbols above)"; exit 1
fi
echo "check-abi: every SIMD intrinsic is inlined into a kernel"

rm -rf "$compat"
mkdir -p "$compat/unversioned" "$compat/run"
ln -s "$(realpath -s "$libs/libutf8.so")" "$compat/run/$soname"
"$every_function" table "$symbols" > "$compat/every_function.c"
# shellcheck disable=SC2086 # CC may hold flags
run $cc -O2 "$compat/every_function.c" -L"$libs" -lutf8 -o "$compat/versioned"
test "$(readelf -V "$compat/versioned" | grep -o 'Name: LIBUTF8_1\.[0-9]*' | sort | uniq |
  tr '\n' ' ')" = "Name: LIBUTF8_1.0 Name: LIBUTF8_1.1 Name: LIBUTF8_1.2 Name: LIBUTF8_1.3 "
LD_BIND_NOW=1 LD_LIBRARY_PATH=$compat/run "$compat/versioned"
"$every_function" stubs "$symbols" > "$compat/unversioned.c"
# shellcheck disable=SC2086 # CC may hold flags
run $cc -shared -fPIC -Wl,-soname,"$soname" "$compat/unversioned.c" \
  -o "$compat/unversioned/libutf8.so"
# shellcheck disable=SC2086 # CC may hold flags
run $cc -O2 "$compat/every_function.c" -L"$compat/unversioned" -lutf8 \
  -o "$compat/linked-unversioned"
if readelf -V "$compat/linked-unversioned" | grep LIBUTF8_; then
  echo "check-abi: the program linked against the unversioned stand-in needs versions"; exit 1
fi
LD_BIND_NOW=1 LD_LIBRARY_PATH=$compat/run "$compat/linked-unversioned"
