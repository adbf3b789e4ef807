#!/usr/bin/env bash
# How the library treats a LIBUTF8_FORCE_ISA it cannot follow (check-c). A value that is not an
# implementation (`bogus`), or one this CPU lacks (UNUSABLE, where there is one), is reported on
# standard error, once, with the exact message, and the best implementation, BEST, used (the
# harness passing under it shows that it works); BEST is one of ISAS, those this machine runs.
# Threads making their first calls at once (FIRST_USE_RACE, c-tests/first_use_race.c) get right
# results, and an ignored value reported once, in one line, escaped, a long one cut short; an
# empty value is no value; each function it races, called first alone, gives right results. WORK
# keeps the last stderr.
#
# usage: check-isa-reports.sh WORK "ISAS" BEST "UNUSABLE" TEST_API FIRST_USE_RACE
set -euo pipefail
work=$1 isas=$2 best=$3 unusable=$4 test_api=$5 first_use_race=$6
stderr=$work/isa-stderr

if [ -z "$best" ] || [[ " $isas " != *" $best "* ]]; then
  echo "check-isa-reports: the library's best implementation, '$best', is not among: $isas"
  exit 1
fi
# shellcheck disable=SC2086 # none, or one name
for forced in bogus $unusable; do
  echo "== LIBUTF8_FORCE_ISA=$forced (reported, ignored)"
  LIBUTF8_FORCE_ISA=$forced "$test_api" > /dev/null 2> "$stderr"
  reason=$([ "$forced" = bogus ] && echo "is unknown" || echo "is not supported by this CPU")
  diff <(echo "libutf8: LIBUTF8_FORCE_ISA=$forced $reason; using $best") "$stderr"
done

echo "== $first_use_race: 20 runs with LIBUTF8_FORCE_ISA=bogus"
for _ in $(seq 20); do
  LIBUTF8_FORCE_ISA=bogus "$first_use_race" 2> "$stderr"
  diff <(echo "libutf8: LIBUTF8_FORCE_ISA=bogus is unknown; using $best") "$stderr"
done
echo "== $first_use_race: a value with control characters, escaped; an empty value"
LIBUTF8_FORCE_ISA=$'av\033x2 \\' "$first_use_race" 2> "$stderr"
diff <(printf '%s%s\n' 'libutf8: LIBUTF8_FORCE_ISA=av\x1bx2\x20\x5c is unknown; using ' "$best") \
  "$stderr"
LIBUTF8_FORCE_ISA= "$first_use_race" 2> "$stderr"
test ! -s "$stderr"
echo "== $first_use_race: a value of 36 bytes, shown cut to its first 32 (libutf8(3))"
long=abcdefghijklmnopqrstuvwxyz0123456789
LIBUTF8_FORCE_ISA=$long "$first_use_race" 2> "$stderr"
diff <(echo "libutf8: LIBUTF8_FORCE_ISA=${long:0:32}... is unknown; using $best") "$stderr"
echo "== $first_use_race N: each function called first alone"
for first in 0 1 2 3 4 5 6 7; do "$first_use_race" $first; done
