#!/usr/bin/env bash
# The end of `make check` and `make check-full`: the skipped lines of STAGES again, then
# "NAME: P passed, 0 failed, S skipped". A stage that recorded nothing in RESULTS/STAGE counts
# as one pass; make stops at the first failure, so a summary has none.
#
# usage: summary.sh NAME RESULTS STAGE...
set -euo pipefail
name=$1 results=$2
shift 2
passed=0 skipped=0
for stage in "$@"; do
  f=$results/$stage
  if [ -s "$f" ]; then
    grep '^skipped:' "$f" || true
    passed=$((passed + $(grep -c '^passed:' "$f" || true)))
    skipped=$((skipped + $(grep -c '^skipped:' "$f" || true)))
  else
    passed=$((passed + 1))
  fi
done
echo "$name: $passed passed, 0 failed, $skipped skipped"
