#!/usr/bin/env bash
# The Rust tests under Miri, with RUSTFLAGS (the SIMD kernels' target features, enabled at
# compile time so that Miri runs them) and MIRIFLAGS. Miri interprets on one core, so the test
# files run as two processes side by side: HEAVY (the heaviest test files) and the library's
# unit tests with OTHERS; both outputs are printed when both have ended, pass or fail, and kept
# in WORK/miri-heavy.log and WORK/miri-others.log. Records a skip in RESULTS where nightly Rust
# has no Miri.
#
# usage: check-miri.sh RESULTS CARGO WORK RUSTFLAGS MIRIFLAGS "HEAVY" "OTHERS"
set -euo pipefail
results=$1 cargo=$2 work=$3 rustflags=$4 miriflags=$5 heavy=$6 others=$7
here=$(dirname "$0")
# shellcheck disable=SC2086 # CARGO may hold arguments
if ! $cargo +nightly miri --version >/dev/null 2>&1; then
  "$here/record.sh" skipped "$results" "the Rust tests under Miri" "nightly Rust with Miri"
  exit 0
fi
# --test NAME for each name of $1.
tests() { local name; for name in $1; do printf -- '--test %s ' "$name"; done; }
# shellcheck disable=SC2086 # CARGO may hold arguments
miri() { RUSTFLAGS=$rustflags MIRIFLAGS=$miriflags $cargo +nightly miri test "$@"; }
mkdir -p "$work"
miri --no-run
# shellcheck disable=SC2046 # the arguments are words
{
  echo "RUSTFLAGS='$rustflags' MIRIFLAGS='$miriflags' $cargo +nightly miri test $(tests "$heavy")&"
  echo "RUSTFLAGS='$rustflags' MIRIFLAGS='$miriflags' $cargo +nightly miri test --lib $(tests "$others")"
}
# shellcheck disable=SC2046 # the arguments are words
{ status=0; miri $(tests "$heavy") > "$work/miri-heavy.log" 2>&1 || status=$?
  echo $status > "$work/miri-heavy.status"; } &
others_status=0
# shellcheck disable=SC2046 # the arguments are words
miri --lib $(tests "$others") > "$work/miri-others.log" 2>&1 || others_status=$?
wait
cat "$work/miri-others.log" "$work/miri-heavy.log"
test $others_status = 0 && test "$(cat "$work/miri-heavy.status")" = 0
