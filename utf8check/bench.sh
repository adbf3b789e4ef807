#!/usr/bin/env bash
# utf8check's speed on a 1 GiB file of real text, against moreutils' isutf8 and against one
# utf8_validate call over the file mapped in memory (utf8check/validate_file.c). Prints a
# Markdown table of the median wall-clock times; the file is deleted afterwards.
#
# Not part of `make check`. Run from the repository's top after `make`; needs isutf8
# (apt-get install moreutils) and the corpus (../shared/corpus, or $LIBUTF8_CORPUS).
#
# usage: utf8check/bench.sh [RUNS]     (RUNS per command, 5 by default)
set -euo pipefail
runs=${1:-5}
corpus=${LIBUTF8_CORPUS:-../shared/corpus}
python=${PYTHON:-python3}
[ -x build/utf8check ] || { echo "run make first"; exit 1; }
command -v isutf8 > /dev/null || { echo "isutf8 absent: apt-get install moreutils"; exit 1; }
[ -d "$corpus" ] || { echo "$corpus absent: set LIBUTF8_CORPUS"; exit 1; }

# The programs need the library under its soname, which cargo does not create.
mkdir -p build/bench-lib
ln -sf ../../target/release/libutf8.so build/bench-lib/libutf8.so.1
export LD_LIBRARY_PATH=$PWD/build/bench-lib
"${CC:-cc}" -std=c99 -O2 -Wall -Wextra -Werror -pedantic -Itarget/release/include \
  utf8check/validate_file.c -Ltarget/release -lutf8 -o build/validate_file

file=$(mktemp "${TMPDIR:-/tmp}/utf8check-bench.XXXXXX")
trap 'rm -f "$file"' EXIT
# The corpus over and over, to exactly 1 GiB: the last copy is cut at a character boundary
# and padded with spaces.
"$python" - "$corpus" "$file" $((1 << 30)) <<'EOF'
import glob, os, sys
corpus, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = b"".join(open(f, "rb").read() for f in sorted(glob.glob(os.path.join(corpus, "*.txt"))))
with open(path, "wb") as out:
    left = size
    while left >= len(text):
        out.write(text)
        left -= len(text)
    cut = text[:left].decode("utf-8", "ignore").encode("utf-8")
    out.write(cut + b" " * (left - len(cut)))
EOF
cat "$file" > /dev/null # into the page cache

# median COMMAND...: the median wall-clock seconds of `runs` runs of COMMAND (through bash -c).
median() {
  local times=() t
  for ((i = 0; i < runs; i++)); do
    t=$( { TIMEFORMAT=%R; time bash -c "$1" > /dev/null 2>&1; } 2>&1 )
    times+=("$t")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
# row NAME COMMAND: a table row with the median time and the rate.
row() {
  local t
  t=$(median "$2")
  awk -v name="$1" -v t="$t" 'BEGIN { printf "| %s | %.3f | %.2f |\n", name, t, 1 / t }'
}

echo "1 GiB of ${corpus##*/} text, $runs runs each, median; $(nproc) CPUs, $(uname -m)"
echo
echo "| command | seconds | GiB/s |"
echo "| --- | ---: | ---: |"
# The yardstick's utf8_validate call alone (the process's time includes mapping the file).
validate=$(for ((i = 0; i < runs; i++)); do build/validate_file "$file" | cut -d ' ' -f 1; done |
  sort -n | sed -n "$(((runs + 1) / 2))p")
awk -v t="$validate" 'BEGIN { printf "| utf8_validate call (in memory) | %.3f | %.2f |\n", t, 1 / t }'
row "validate_file FILE (mmap + utf8_validate)" "build/validate_file $file"
row "utf8check FILE" "build/utf8check $file"
row "utf8check < FILE" "build/utf8check < $file"
row "cat FILE \| utf8check (a pipe: line tracking)" "cat $file | build/utf8check"
row "utf8check -r FILE > /dev/null" "build/utf8check -r $file"
row "utf8check -e FILE > /dev/null" "build/utf8check -e $file"
row "isutf8 FILE" "isutf8 $file"
# An error in the last byte: utf8check reads the file again to find its line and column.
printf '\377' >> "$file"
row "utf8check FILE, error at the end (read twice)" "build/utf8check $file"
row "isutf8 FILE, error at the end" "isutf8 $file"
