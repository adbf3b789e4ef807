#!/usr/bin/env bash
# A distribution's build for another target, as docs/PACKAGING.md describes it, shared by
# check-aarch64 and check-musl:
#   staged-build.sh install BUILD [VAR=VALUE...]
#     the project's make (MAKE) with the settings VAR=VALUE (cargo's target, its linker, CC...;
#     make exports them to cargo), the tests' C flags alone, into BUILD/make, then `make install`
#     with PREFIX=/usr into BUILD/root, emptied first;
#   staged-build.sh utf8check BUILD [RUNNER...]
#     the installed utf8check, run through RUNNER (QEMU and its options, `env` and a library
#     path) on a valid file and on one with an overlong "/", C0 AF (RFC 3629, section 10):
#     exit status 1 and one line, the second file's, naming byte 1 and the overlong encoding.
set -euo pipefail
action=$1 build=$2
shift 2
root=$build/root
case $action in
  install)
    args=(--no-print-directory BUILD="$build/make" CFLAGS=-O2 CPPFLAGS= LDFLAGS= PREFIX=/usr "$@")
    mkdir -p "$build"
    rm -rf "$root"
    echo "$MAKE ${args[*]} all install DESTDIR=$root"
    # shellcheck disable=SC2086 # MAKE may hold arguments
    $MAKE "${args[@]}" all
    # shellcheck disable=SC2086 # MAKE may hold arguments
    $MAKE "${args[@]}" install DESTDIR="$root"
    ;;
  utf8check)
    printf 'caf\xc3\xa9\n' > "$build/valid.txt"
    printf 'a\xc0\xafb\n' > "$build/overlong.txt"
    echo "$* $root/usr/bin/utf8check $build/valid.txt $build/overlong.txt"
    status=0
    "$@" "$root/usr/bin/utf8check" "$build/valid.txt" "$build/overlong.txt" \
      > "$build/utf8check.out" || status=$?
    cat "$build/utf8check.out"
    test "$status" = 1 && grep -q "^$build/overlong.txt: .*byte 1: overlong" "$build/utf8check.out" &&
      test "$(wc -l < "$build/utf8check.out")" = 1
    ;;
  *) echo "usage: staged-build.sh install|utf8check BUILD ..." >&2; exit 2 ;;
esac
