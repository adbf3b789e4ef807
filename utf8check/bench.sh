#!/usr/bin/env bash
# utf8check's speed on a 1 GiB file of real text, against moreutils' isutf8 and against one
# utf8_validate call over the file mapped in memory (utf8check/validate_file.c). Prints a
# Markdown table of the median wall-clock and CPU times; the file is deleted afterwards.
#
# Not part of `make check`. Run from the repository's top after `make`; needs isutf8
# (apt-get install moreutils) and the corpus (../shared/corpus, or $LIBUTF8_CORPUS).
#
# usage: utf8check/bench.sh [RUNS]     (RUNS of each command, 5 by default)
set -euo pipefail
runs=${1:-5}
corpus=${LIBUTF8_CORPUS:-../shared/corpus}
python=${PYTHON:-python3}
[ -x build/utf8check ] || { echo "run make first"; exit 1; }
command -v isutf8 > /dev/null || { echo "isutf8 absent: apt-get install moreutils"; exit 1; }
[ -d "$corpus" ] || { echo "$corpus absent: set LIBUTF8_CORPUS"; exit 1; }

# The programs need the library under its soname, which cargo does not create.
libdir=$(realpath "${CARGO_TARGET_DIR:-target}/release")
mkdir -p build/bench-lib
ln -sf "$libdir/libutf8.so" build/bench-lib/libutf8.so.1
export LD_LIBRARY_PATH=$PWD/build/bench-lib
"${CC:-cc}" -std=c99 -O2 -Wall -Wextra -Werror -pedantic -Iinclude \
  utf8check/validate_file.c -L"$libdir" -lutf8 -o build/validate_file

work=$(mktemp -d "${TMPDIR:-/tmp}/utf8check-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/text
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

# measure NAME<TAB>COMMAND...: runs every command (through bash -c, output discarded) once per
# round, interleaved so that a change in the machine's load hits them all alike, and prints a
# row per command: the median wall-clock time, and the median CPU time (user + system), which
# the other processes of a busy machine disturb less.
measure() {
  local results=$work/results name command round
  : > "$results"
  for ((round = 0; round < runs; round++)); do
    for entry in "$@"; do
      name=${entry%%$'\t'*} command=${entry#*$'\t'}
      printf '%s\t%s\n' "$name" \
        "$( { TIMEFORMAT='%R %U %S'; time bash -c "$command" > /dev/null 2>&1; } 2>&1 )" \
        >> "$results"
    done
  done
  local middle=$(((runs + 1) / 2)) wall cpu
  for entry in "$@"; do
    name=${entry%%$'\t'*}
    awk -F '\t' -v name="$name" '$1 == name { split($2, t, " "); print t[1], t[2] + t[3] }' \
      "$results" > "$work/times"
    wall=$(cut -d ' ' -f 1 "$work/times" | sort -n | sed -n "${middle}p")
    cpu=$(cut -d ' ' -f 2 "$work/times" | sort -n | sed -n "${middle}p")
    awk -v name="$name" -v wall="$wall" -v cpu="$cpu" \
      'BEGIN { printf "| %s | %.3f | %.2f | %.3f |\n", name, wall, 1 / wall, cpu }'
  done
}

echo "1 GiB of text (the ${corpus##*/} files repeated), median of $runs runs;" \
  "$(nproc) CPUs, $(uname -m)"
echo
# The yardstick's utf8_validate call alone, timed inside the process.
validate=$(for ((i = 0; i < runs; i++)); do build/validate_file "$file" | cut -d ' ' -f 1; done |
  sort -n | sed -n "$(((runs + 1) / 2))p")
awk -v t="$validate" \
  'BEGIN { printf "utf8_validate over the mapped file, alone: %.3f s, %.2f GiB/s\n\n", t, 1 / t }'
echo "| command | wall s | GiB/s | CPU s |"
echo "| --- | ---: | ---: | ---: |"
measure \
  "validate_file FILE (map, then one utf8_validate call)"$'\t'"build/validate_file $file" \
  "utf8check FILE"$'\t'"build/utf8check $file" \
  "utf8check < FILE"$'\t'"build/utf8check < $file" \
  "cat FILE \| cat (the pipe alone)"$'\t'"cat $file | cat" \
  "cat FILE \| utf8check (a pipe: lines followed as read)"$'\t'"cat $file | build/utf8check" \
  "cat FILE \| utf8check -q (a pipe, lines not followed)"$'\t'"cat $file | build/utf8check -q" \
  "utf8check -r FILE"$'\t'"build/utf8check -r $file" \
  "utf8check -e FILE"$'\t'"build/utf8check -e $file" \
  "isutf8 FILE"$'\t'"isutf8 $file"
# An error in the last byte: utf8check reads the file again to find its line and column.
printf '\377' >> "$file"
measure \
  "utf8check FILE, error in the last byte (read twice)"$'\t'"build/utf8check $file" \
  "isutf8 FILE, error in the last byte"$'\t'"isutf8 $file"
