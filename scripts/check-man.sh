#!/usr/bin/env bash
# The man pages: libutf8(3) has a section for every exported function, and its table of
# statuses has the names and values of the header's utf8_status, no more, no less (the values
# are ABI); both pages render without a warning under groff and under mandoc, each where it is
# installed. What it checked, or skipped, is recorded in RESULTS (scripts/record.sh).
#
# usage: check-man.sh RESULTS
set -euo pipefail
results=$(realpath -m "$1")
record=$(realpath "$(dirname "$0")")/record.sh
cd "$(dirname "$0")/.."

missing=$(sed 's/.*/^\\.SS &()$/' "c-tests/exported-symbols.txt" |
  while IFS= read -r pattern; do grep -q "$pattern" "man/libutf8.3" || echo "$pattern"; done)
# shellcheck disable=SC2086 # one name a word
if [ -n "$missing" ]; then echo "man/libutf8.3 lacks:" $missing; exit 1; fi
header=$(sed -n -e '/^typedef enum utf8_status {/,/^} utf8_status;/{' \
  -e 's/^ *\(UTF8_[A-Z_]*\) = \(-\?[0-9]*\),$/\1 \2/p' -e '}' "include/libutf8.h" | sort)
man=$(sed -n -e '/^\.SH STATUS CODES/,/^\.TE/{' -e 's/\\-/-/' \
  -e 's/^\(UTF8_[A-Z_]*\)\t\(-\?[0-9]*\)\t.*/\1 \2/p' -e '}' "man/libutf8.3" | sort)
if [ -z "$header" ] || [ "$header" != "$man" ]; then
  echo "man/libutf8.3's STATUS CODES (+) differ from utf8_status in include/libutf8.h (-):"
  diff <(echo "$header") <(echo "$man") | sed -n 's/^</-/p;s/^>/+/p'; exit 1
fi
"$record" begin "$results"
"$record" passed "$results" \
  "libutf8(3) against the exported symbols and the header's statuses"

if command -v groff >/dev/null; then
  for page in man/libutf8.3 man/utf8check.1; do
    echo "groff -t -man -Tutf8 -ww -z $page"
    out=$(groff -t -man -Tutf8 -ww -z "$page" 2>&1)
    if [ -n "$out" ]; then echo "$out"; exit 1; fi
  done
  "$record" passed "$results" "the man pages rendered by groff without a warning"
else
  "$record" skipped "$results" "the man pages rendered by groff" groff
fi
if command -v mandoc >/dev/null; then
  echo "mandoc -T lint -W warning man/libutf8.3 man/utf8check.1"
  mandoc -T lint -W warning man/libutf8.3 man/utf8check.1
  "$record" passed "$results" "the man pages linted by mandoc"
else
  "$record" skipped "$results" "the man pages linted by mandoc" mandoc
fi
