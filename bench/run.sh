#!/usr/bin/env bash
# The benchmark suite of libutf8: `make bench` runs it, after `make` has built
# target/release/libutf8.a (under $CARGO_TARGET_DIR if set). It installs nothing: it checks for
# what it needs and says what to install. See bench/README.md.
#
# 1. builds the Rust harness (bench/, with the peers from crates.io) and the C harness
#    (bench/c/bench.c, statically linked against target/release/libutf8.a, utf8proc and GLib);
# 2. writes the generated inputs and the manifest of all inputs into bench/target/data;
# 3. runs the Rust harness, then its validation and conversions again with each other x86_64
#    kernel the CPU has (AVX2, SSE4.2) against simdutf's for the same instructions, then the C
#    harness in five processes, one after the other (never two at once), into bench/results/;
# 4. writes BENCHMARKS.md and bench/chart.svg from those results (bench/report.py).
#
# Environment: LIBUTF8_CORPUS (default ../shared/corpus from the repository's top; rows skipped
# if absent), LIBUTF8_BENCH_SAMPLES, LIBUTF8_BENCH_LARGE_SAMPLES, LIBUTF8_BENCH_SAMPLE_MS,
# LIBUTF8_BENCH_QUICK, LIBUTF8_BENCH_C_PROCESSES, LIBUTF8_BENCH_ONLY=short_strings,
# LIBUTF8_BENCH_SHORT_PROCESSES, LIBUTF8_SHORT_ROUNDS, LIBUTF8_SHORT_STRINGS (see
# bench/README.md); CARGO, CC, CXX, PYTHON,
# PKG_CONFIG. LIBUTF8_BENCH_ONLY=decode_icu runs the inline decoder against ICU alone, with
# LIBUTF8_BENCH_DECODE_SAMPLES, LIBUTF8_BENCH_DECODE_MS and LIBUTF8_BENCH_DECODE_PROCESSES.
set -euo pipefail

cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
corpus=${LIBUTF8_CORPUS:-../shared/corpus}
lib=${CARGO_TARGET_DIR:-target}/release/libutf8.a
results=bench/results
data=bench/target/data
start=$EPOCHREALTIME

# --- What the suite needs ---------------------------------------------------------------------
missing_pkgs=() problems=()
for tool in "$CARGO" "$CC" "$PYTHON"; do
  command -v "$tool" > /dev/null || problems+=("'$tool' not found")
done
command -v "${CXX:-c++}" > /dev/null || missing_pkgs+=(g++) # the simdutf crate compiles C++
if command -v "$PKG_CONFIG" > /dev/null; then
  "$PKG_CONFIG" --exists libutf8proc || missing_pkgs+=(libutf8proc-dev)
  "$PKG_CONFIG" --exists glib-2.0 || missing_pkgs+=(libglib2.0-dev)
  "$PKG_CONFIG" --exists icu-uc || missing_pkgs+=(libicu-dev)
else
  missing_pkgs+=(pkg-config)
  [ -f /usr/include/utf8proc.h ] || missing_pkgs+=(libutf8proc-dev)
  [ -d /usr/include/glib-2.0 ] || missing_pkgs+=(libglib2.0-dev)
  [ -f /usr/include/unicode/ustring.h ] || missing_pkgs+=(libicu-dev)
fi
if [ ${#missing_pkgs[@]} -gt 0 ]; then
  problems+=("missing packages; on Debian or Ubuntu: apt-get install -y ${missing_pkgs[*]}")
fi
for f in "$lib" build/native-static-libs; do
  [ -f "$f" ] || problems+=("$f not found: run 'make' first ('make bench' does)")
done
if [ -f "$lib" ] && [ -n "$(find src capi Cargo.toml -newer "$lib" -print -quit)" ]; then
  problems+=("$lib is older than the sources: run 'make' first ('make bench' does)")
fi
if [ ${#problems[@]} -gt 0 ]; then
  printf 'bench: %s\n' "${problems[@]}" >&2
  exit 1
fi

# --- The inline decoder against ICU's U8_NEXT (bench/c/decode_icu.c) --------------------------
# One source compiled by gcc and by clang at -O2 (ICU's header alone: no ICU library), each
# binary decoding every corpus file with both loops, into $results/decode_icu.csv. A compiler or
# ICU's header that is absent is skipped with a message. LIBUTF8_BENCH_ONLY=decode_icu runs this
# alone: the other results and BENCHMARKS.md are left as they are, and its section of the report
# is printed.
decode_icu() {
  local icu_cflags compilers=() cc built=()
  rm -f "$results/decode_icu.csv"
  if [ ! -d "$corpus" ]; then
    echo "bench: no corpus at $corpus (LIBUTF8_CORPUS): decoding against ICU skipped" >&2
    return 0
  fi
  icu_cflags=$("$PKG_CONFIG" --cflags icu-uc 2> /dev/null || true)
  if ! echo '#include <unicode/utf8.h>' | "$CC" $icu_cflags -E -x c - > /dev/null 2>&1; then
    echo "bench: ICU's unicode/utf8.h not found (Debian: libicu-dev):" \
      "decoding against ICU skipped" >&2
    return 0
  fi
  command -v gcc > /dev/null && compilers+=(gcc) || echo "bench: gcc not found: skipped" >&2
  command -v clang > /dev/null && compilers+=(clang) || echo "bench: clang not found: skipped" >&2
  for cc in "${compilers[@]}"; do
    # Aligned as the C harness's loops are (the two measured loops each on a page of their own,
    # see decode_icu.c), so that the library's size does not move them.
    # shellcheck disable=SC2086 # the flags are meant to be split
    run "$cc" -std=c11 -O2 -falign-functions=64 -falign-loops=64 -Wall -Wextra -Werror \
      -pedantic -Iinclude $icu_cflags bench/c/decode_icu.c "$lib" \
      $(cat build/native-static-libs) -o "bench/target/decode-icu-$cc" && built+=("$cc")
  done
  # Each binary in several processes, one after the other: the report takes the median of
  # their rows (a single process's ratio on one file moved by up to 25% from run to run).
  for cc in "${built[@]}"; do
    for _ in $(seq "${LIBUTF8_BENCH_DECODE_PROCESSES:-5}"); do
      run "bench/target/decode-icu-$cc" "$cc" "$results/decode_icu.csv" "$corpus"/*.utf8.txt
    done
  done
}
if [ "${LIBUTF8_BENCH_ONLY:-}" = decode_icu ]; then
  mkdir -p "$results" bench/target
  run() { echo "+ $*" >&2; "$@"; }
  decode_icu
  "$PYTHON" bench/report.py --decode-icu "$results"
  exit 0
fi

mkdir -p "$results" "$data"
# --- Lossy repair of error-dense text (bench/c/lossy_dense.c) ----------------------------------
# Its own build and run, which LIBUTF8_BENCH_ONLY=lossy_dense runs alone: it then writes
# $results/lossy_dense.csv from a manifest of the corpus made here, leaves the other results and
# BENCHMARKS.md as they are, and prints its section of the report.
icu_libs=$("$PKG_CONFIG" --libs icu-uc 2> /dev/null || echo -licuuc)
lossy_dense() { # MANIFEST
  echo "+ bench/target/c-lossy-dense $1 > $results/lossy_dense.csv" >&2
  if [ -z "${LIBUTF8_BENCH_ONLY:-}" ]; then # the full run's list of commands, for the report
    printf '%s\n' "bench/target/c-lossy-dense $1 > $results/lossy_dense.csv" >> "$results/commands.txt"
  fi
  bench/target/c-lossy-dense "$1" > "$results/lossy_dense.csv"
}
# shellcheck disable=SC2046,SC2086 # the libraries' flags are meant to be split
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -pedantic -Iinclude bench/c/lossy_dense.c "$lib" \
  $(cat build/native-static-libs) $icu_libs -o bench/target/c-lossy-dense
if [ "${LIBUTF8_BENCH_ONLY:-}" = lossy_dense ]; then
  [ -d "$corpus" ] || { echo "bench: no corpus at $corpus (LIBUTF8_CORPUS)" >&2; exit 1; }
  for f in "$corpus"/*.utf8.txt; do
    printf 'corpus\t%s\t%s\n' "$(basename "$f" .utf8.txt)" "$(realpath "$f")"
  done > "$data/lossy_dense.tsv"
  lossy_dense "$data/lossy_dense.tsv"
  "$PYTHON" bench/report.py --lossy-dense "$results"
  exit 0
fi

only=${LIBUTF8_BENCH_ONLY:-}
case $only in
  '') rm -f "$results"/*.csv "$results"/*.txt ;;
  short_strings) rm -f "$results"/short_strings*.csv ;;
  *)
    echo "bench: LIBUTF8_BENCH_ONLY=$only: the parts that run alone are short_strings," \
      "decode_icu and lossy_dense" >&2
    exit 1
    ;;
esac
# Runs a command, echoing it and recording it for the report.
run() {
  echo "+ $*" >&2
  printf '%s\n' "$*" >> "$results/commands.txt"
  "$@"
}
# Seconds since $1 (an $EPOCHREALTIME); phase NAME START records them in run-meta.txt.
since() { LC_ALL=C awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
phase() { echo "$1=$(since "$2")" >> "$results/run-meta.txt"; }

# --- Short strings against simdutf called directly --------------------------------------------
# bench/c/short_strings.cpp: libutf8's four strict converters against simdutf's validating ones,
# 5 scripts x 5 sizes, simdutf compiled at -O3 from the sources the simdutf crate ships and
# called from C++ (not through the crate's wrapper); results/short_strings-N.csv. Skipped, with a
# message, when the corpus or those sources are absent.
short_strings() {
  local t=$EPOCHREALTIME cxx=${CXX:-c++} dir src out=bench/target/short
  if [ ! -d "$corpus" ]; then
    echo "bench: short strings skipped: no corpus at $corpus" >&2
    return 0
  fi
  dir=$("$CARGO" metadata --format-version 1 --manifest-path bench/Cargo.toml 2> /dev/null |
    "$PYTHON" -c 'import json, os, sys
print(next((os.path.dirname(p["manifest_path"]) for p in json.load(sys.stdin)["packages"]
            if p["name"] == "simdutf"), ""))' || true)
  src=$dir/cpp
  if [ -z "$dir" ] || [ ! -f "$src/simdutf.cpp" ] || [ ! -f "$src/simdutf.h" ]; then
    echo "bench: short strings skipped: the simdutf crate's C++ sources not found" \
      "(cargo fetch --manifest-path bench/Cargo.toml)" >&2
    return 0
  fi
  mkdir -p "$out"
  # simdutf at -O3, as its own build does; compiled again only when its sources change.
  if [ ! -f "$out/simdutf.o" ] || [ "$src/simdutf.cpp" -nt "$out/simdutf.o" ]; then
    run "$cxx" -std=c++17 -O3 -I"$src" -c "$src/simdutf.cpp" -o "$out/simdutf.o"
  fi
  # shellcheck disable=SC2046 # the link flags are meant to be split
  run "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror -pedantic -Iinclude -I"$src" \
    bench/c/short_strings.cpp "$out/simdutf.o" "$lib" $(cat build/native-static-libs) \
    -o "$out/short_strings"
  # In several processes, one after the other (LIBUTF8_BENCH_SHORT_PROCESSES, 5): one
  # process's paired ratio of a cell moved by up to 0.1 from run to run; the report takes the
  # median of the processes'. Each takes a few seconds.
  local i
  for i in $(seq "${LIBUTF8_BENCH_SHORT_PROCESSES:-5}"); do
    run "$out/short_strings" "$corpus" "$results/short_strings-$i.csv"
  done
  phase short_strings_s "$t"
}

if [ "$only" = short_strings ]; then
  short_strings
  if [ -f "$results/rust-1.csv" ] || [ -f "$results/rust.csv" ]; then
    run "$PYTHON" bench/report.py "$results" BENCHMARKS.md bench/chart.svg
  else
    echo "bench: BENCHMARKS.md not written: no results of a whole run in $results" >&2
  fi
  exit 0
fi

# --- Build ------------------------------------------------------------------------------------
t=$EPOCHREALTIME
# The library's functions each start a 64-byte line, as in target/release/libutf8.a
# (mk/build.mk): with link-time optimisation the bench crate compiles all of it.
run "$CARGO" rustc --release --quiet --manifest-path bench/Cargo.toml --bin libutf8-bench -- \
  -C llvm-args=-align-all-functions=6
# Functions and loops aligned to 64 bytes: otherwise the harness's own loops move with the size
# of the library's cold code, which the linker puts before them, and their speed with it (the
# loop that decodes with no validation, which calls nothing in libutf8, took 2x as long on
# lipsum Latin after a change that added 400 bytes of cold code to the library).
# shellcheck disable=SC2046 # pkg-config's flags are meant to be split
run "$CC" -std=c11 -O2 -falign-functions=64 -falign-loops=64 -Wall -Wextra -Werror -pedantic \
  -Iinclude $("$PKG_CONFIG" --cflags libutf8proc glib-2.0) bench/c/bench.c \
  "$lib" $("$PKG_CONFIG" --libs libutf8proc glib-2.0) \
  $(cat build/native-static-libs) -o bench/target/c-bench
run "$CC" -std=c11 -O2 -Wall -Wextra -Werror -pedantic -Iinclude bench/c/strategies.c "$lib" \
  $(cat build/native-static-libs) -o bench/target/c-strategies
phase build_s "$t"

# --- Inputs -----------------------------------------------------------------------------------
# (When the corpus is absent, the generator says so and lists only the generated inputs.)
corpus_state=$([ -d "$corpus" ] && echo present || echo absent)
run bench/target/release/libutf8-bench gen "$data" "$corpus"

# --- Measure ----------------------------------------------------------------------------------
t=$EPOCHREALTIME
run bench/target/release/libutf8-bench run "$data/manifest.tsv" "$results/rust-1.csv"
# The conversions of the Latin-1 and UTF-16BE goals, judged file by file, in four more
# processes: where the system puts a process's buffers (at random, with ASLR) moved one file's
# ratio by up to 15% and a whole group's geometric mean by up to 20% between processes of one
# build (UTF-8 to Latin-1: 1.43x and 1.17x simdutf); with three, the median of one file's
# paired ratio from UTF-16BE still moved by 0.05 from run to run. bench/report.py takes the
# median of the processes' medians, as for the C harness. A quick run keeps one process.
if [ -z "${LIBUTF8_BENCH_QUICK:-}" ] || [ "${LIBUTF8_BENCH_QUICK:-}" = 0 ]; then
  for k in 2 3 4 5; do
    run env LIBUTF8_BENCH_GROUPS=latin1_to_utf8,utf8_to_latin1,utf8_to_utf16be,utf16be_to_utf8 \
      bench/target/release/libutf8-bench run "$data/manifest.tsv" "$results/rust-$k.csv"
  done
fi
phase rust_s "$t"
# libutf8's other x86_64 kernels that this CPU runs, each against simdutf's kernel for the same
# instructions ("haswell" for AVX2, "westmere" for SSE4.2, forced as the library's are), on the
# inputs of the validation goals and the short strings of real text, validated and converted:
# what a machine without AVX-512 can expect. Not the kernel the library chooses (measured
# above), and none this CPU lacks (`isa` then names another).
t=$EPOCHREALTIME
chosen=$(bench/target/release/libutf8-bench isa)
awk -F'\t' '$1 == "corpus" ||
  ($1 == "short" && $2 ~ /^short-((ascii|mixed)-(16|64|256)|(chinese|russian|french)-(16|64))$/)' \
  "$data/manifest.tsv" > "$data/kernels.tsv"
for pair in avx2:haswell sse4.2:westmere; do
  isa=${pair%:*} simdutf=${pair#*:}
  if [ "$isa" != "$chosen" ] &&
    [ "$(LIBUTF8_FORCE_ISA=$isa bench/target/release/libutf8-bench isa 2> /dev/null)" = "$isa" ]; then
    run env LIBUTF8_FORCE_ISA="$isa" SIMDUTF_FORCE_IMPLEMENTATION="$simdutf" \
      LIBUTF8_BENCH_GROUPS=validate,utf8_to_utf16,utf8_to_utf32,utf16_to_utf8,utf32_to_utf8 \
      bench/target/release/libutf8-bench run "$data/kernels.tsv" \
      "$results/kernel-$isa.csv"
    echo "simdutf_kernel_$isa=$simdutf" >> "$results/run-meta.txt"
  fi
done
phase kernels_s "$t"
t=$EPOCHREALTIME
# The C harness in several processes, its samples shared among them: where the system loads
# the executable (at random, with ASLR) moved its decoding loops by up to 20% on single files
# (lipsum Arabic 3.3-4.0x utf8proc's speed in six runs of one build); bench/report.py takes
# the median of the processes' medians. A quick run keeps one process.
quick=${LIBUTF8_BENCH_QUICK:-0}
if [ -n "$quick" ] && [ "$quick" != 0 ]; then
  processes=${LIBUTF8_BENCH_C_PROCESSES:-1} c_env=()
else
  processes=${LIBUTF8_BENCH_C_PROCESSES:-5}
  each() { echo $((($1 + processes - 1) / processes)); } # samples per process, rounded up
  c_env=("LIBUTF8_BENCH_SAMPLES=$(each "${LIBUTF8_BENCH_SAMPLES:-15}")"
    "LIBUTF8_BENCH_LARGE_SAMPLES=$(each "${LIBUTF8_BENCH_LARGE_SAMPLES:-5}")")
fi
for k in $(seq "$processes"); do
  run env "${c_env[@]}" bench/target/c-bench "$data/manifest.tsv" "$results/c-$k.csv" \
    "$results/c-meta.txt"
done
phase c_s "$t"
# The replacement strategies against UTF8_REPLACE on the corpus with errors (bench/c/strategies.c).
t=$EPOCHREALTIME
run sh -c 'bench/target/c-strategies "$1" > "$2"' strategies "$data/manifest.tsv" \
  "$results/strategies.csv"
phase strategies_s "$t"
short_strings
# The header's inline decoder against ICU's U8_NEXT, with gcc and clang.
t=$EPOCHREALTIME
decode_icu
phase decode_icu_s "$t"
# Lossy repair of error-dense text against ICU and iconv, and the output placement.
t=$EPOCHREALTIME
lossy_dense "$data/manifest.tsv"
phase lossy_dense_s "$t"

# --- Report -----------------------------------------------------------------------------------
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
  # The library's sources as measured: modified or not since that commit.
  dirty=$(git status --porcelain -- src capi Cargo.toml include 2> /dev/null | grep -c . || true)
  echo "dirty=$dirty"
  echo "corpus=$corpus"
  echo "corpus_state=$corpus_state"
  echo "rustc=$(rustc -V 2> /dev/null || echo unknown)"
  echo "cc=$("$CC" --version | head -n 1)"
  echo "kernel=$(uname -sr)"
  echo "libutf8_isa=$(bench/target/release/libutf8-bench isa)"
  echo "samples=${LIBUTF8_BENCH_SAMPLES:-}"
  echo "samples_large=${LIBUTF8_BENCH_LARGE_SAMPLES:-}"
  echo "sample_ms=${LIBUTF8_BENCH_SAMPLE_MS:-}"
  echo "quick=${LIBUTF8_BENCH_QUICK:-}"
} >> "$results/run-meta.txt"
phase total_s "$start"
run "$PYTHON" bench/report.py "$results" BENCHMARKS.md bench/chart.svg
echo "bench: wrote BENCHMARKS.md and bench/chart.svg in $(since "$start") s" >&2
