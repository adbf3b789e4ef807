#!/usr/bin/env bash
# libutf8 against peers that share no code with it (bench/tests/peers.rs): simdutf for Latin-1,
# UTF-16 and the detection of encodings and byte-order marks, encoding_rs for Windows-1252.
# They are bench/'s dependencies, pinned by bench/Cargo.lock and built into bench/target in the
# dev profile (simdutf's C++ then builds without optimisation, which is quicker); the library's
# own tests depend on no crate. The comparisons on the corpus files read CORPUS.
# Records in RESULTS that it skipped where CXX (simdutf is C++) is absent or cargo cannot fetch
# the crates (the network, or crates.io, out of reach), and the corpus comparisons where CORPUS
# is absent.
#
# usage: check-peers.sh RESULTS CARGO CXX CORPUS
set -euo pipefail
results=$1 cargo=$2 cxx=$3 corpus=$4
record=$(dirname "$0")/record.sh
what="libutf8 against simdutf and encoding_rs"
manifest=bench/Cargo.toml

if ! command -v "$cxx" >/dev/null 2>&1; then
  "$record" skipped "$results" "$what" "a C++ compiler: $cxx"
  exit 0
fi
# shellcheck disable=SC2086 # CARGO may hold arguments
if ! fetched=$($cargo fetch --locked --manifest-path "$manifest" 2>&1); then
  printf '%s\n' "$fetched" | tail -n 3
  "$record" skipped "$results" "$what" "the crates of $manifest from crates.io"
  exit 0
fi
# Absolute: cargo runs the test in bench/, where a relative path would name another folder and
# the test would pass without its comparisons while this records them as run.
corpus_dir=$(realpath -m "$corpus")
echo "LIBUTF8_CORPUS=$corpus_dir CXX=$cxx" \
  "$cargo test --locked --manifest-path $manifest --test peers"
# shellcheck disable=SC2086 # CARGO may hold arguments
LIBUTF8_CORPUS=$corpus_dir CXX=$cxx $cargo test --locked --manifest-path "$manifest" --test peers
"$record" passed "$results" "$what"
if [ -d "$corpus" ]; then
  "$record" passed "$results" "$what on the corpus"
else
  "$record" skipped "$results" "$what on the corpus" "$corpus"
fi
