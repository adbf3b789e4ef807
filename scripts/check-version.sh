#!/usr/bin/env bash
# The version, kept in Cargo.toml (VERSION, as the Makefile reads it), where the sources state
# it: the header's macros and the man pages' titles. (The Makefile writes it into the
# pkg-config file and the library's file name, and utf8_version() returns it: check-install
# and check-utf8check compare those.)
#
# usage: check-version.sh VERSION
set -euo pipefail
version=$1
cd "$(dirname "$0")/.."
header=$(sed -n 's/^#define LIBUTF8_VERSION_[A-Z]* \([0-9]*\)$/\1/p' include/libutf8.h | paste -sd.)
if [ "$header" != "$version" ]; then
  echo "include/libutf8.h says $header, Cargo.toml $version: run 'make header'"; exit 1
fi
for page in man/libutf8.3 man/utf8check.1; do
  grep -q "^\.TH .* \"libutf8 $version\" " "$page" ||
    { echo "$page: its .TH line does not say libutf8 $version"; exit 1; }
done
