#!/usr/bin/env bash
# Writes on standard output a C program of check-abi.sh that names every function of SYMBOLS
# (c-tests/exported-symbols.txt, one name a line):
#   addresses  prints the address of each, so that the linker keeps them all (the static link
#              with unreferenced sections removed, which must hold no panic or allocator code);
#   table      a table of pointers to them all, and exits 0 if none is null (linked against the
#              shared library, versioned or not);
#   stubs      an empty function of each name (the unversioned stand-in for libutf8.so.1).
#
# usage: every-function.sh addresses|table|stubs SYMBOLS
set -euo pipefail
kind=$1 symbols=$2
generated="/* Generated from $symbols by scripts/every-function.sh. */"
case $kind in
  addresses)
    echo "$generated"
    echo '#include <stdint.h>'
    echo '#include <stdio.h>'
    sed 's/.*/extern char &[];/' "$symbols"
    echo 'int main(void) {'
    sed 's/.*/  printf("%p\\n", (void *)\&&);/' "$symbols"
    echo '  return 0;'
    echo '}'
    ;;
  table)
    echo "$generated"
    echo '#include <stdio.h>'
    echo 'typedef void function(void);'
    sed 's/.*/extern function &;/' "$symbols"
    echo 'static function *const functions[] = {'
    sed 's/.*/  &,/' "$symbols"
    echo '};'
    echo 'int main(void) {'
    echo '  size_t n = 0;'
    echo '  for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) n += functions[i] != 0;'
    echo '  printf("%zu functions\n", n);'
    echo "  return n != $(wc -l < "$symbols");"
    echo '}'
    ;;
  stubs)
    sed 's/.*/void &(void) {}/' "$symbols"
    ;;
  *)
    echo "usage: $0 addresses|table|stubs SYMBOLS" >&2
    exit 2
    ;;
esac
