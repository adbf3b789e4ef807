#!/usr/bin/env bash
# Runs the fuzz targets for a set time each, FUZZ_JOBS at a time (default 1: one after the
# other), and reports what each did.
#
#   fuzz/run.sh SECONDS [TARGET...]     (default: every target in fuzz/Cargo.toml)
#
# Needs nightly Rust only: the targets are built with cargo directly, with the flags that
# cargo-fuzz 0.13 passes by default (its src/project.rs: libFuzzer's coverage instrumentation,
# `--cfg fuzzing`, AddressSanitizer, debug assertions, one codegen unit, release mode), so
# that neither CI nor a developer has to build cargo-fuzz itself first (`cargo fuzz run T`
# works too where it is installed). Each target runs as
#   fuzz/target/HOST/release/T fuzz/corpus/T fuzz/seeds/T -max_total_time=SECONDS ...
# fuzz/seeds/T, the committed seed corpus, is copied into fuzz/corpus/T, the working corpus,
# which grows and is not committed; so is fuzz/artifacts/T, where libFuzzer writes a crashing
# input. Logs go to fuzz/logs/T.log.
#
# Prints, per target: seconds, executions, final corpus size, and whether it found a crash;
# exits 1 if any target found one (or failed to run), 2 on a usage or setup error.
#
# Environment: FUZZ_CARGO (default "cargo +nightly"), FUZZ_ARGS (more libFuzzer options,
# for instance "-max_len=8192"), FUZZ_RSS_MB (default 2048), FUZZ_JOBS (default 1).
set -uo pipefail

usage() { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
[[ $# -ge 1 && $1 =~ ^[1-9][0-9]*$ ]] || usage
seconds=$1
shift

fuzz_dir=$(cd "$(dirname "$0")" && pwd)
cd "$fuzz_dir/.."
read -r -a cargo <<< "${FUZZ_CARGO:-cargo +nightly}"
read -r -a extra <<< "${FUZZ_ARGS:-}"
jobs_max=${FUZZ_JOBS:-1}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "$0: FUZZ_JOBS must be a positive number" >&2; exit 2; }

host=$("${cargo[@]}" -vV 2>/dev/null | sed -n 's/^host: //p')
if [[ -z $host ]] || ! "${cargo[@]}" -vV 2>/dev/null | grep -q -- '-nightly'; then
  echo "$0: '${cargo[*]}' is not a nightly cargo: install nightly Rust" \
       "(rustup toolchain install nightly --profile minimal)" >&2
  exit 2
fi

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  # The bin list at the top of fuzz/Cargo.toml, a target a line.
  mapfile -t targets < <(sed -n 's/^ *{ name = "\([a-z_0-9]*\)", path = "fuzz_targets\/.*/\1/p' \
    fuzz/Cargo.toml)
fi
[[ ${#targets[@]} -gt 0 ]] || { echo "$0: no fuzz targets" >&2; exit 2; }

# Build every target first, in one cargo run, so that a build error is told apart from a
# finding and the fuzzing time is fuzzing only. --target keeps RUSTFLAGS off build scripts.
rustflags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
rustflags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
rustflags+=" -Cllvm-args=-sanitizer-coverage-pc-table"
rustflags+=" -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
rustflags+=" -Cllvm-args=-simplifycfg-branch-fold-threshold=0 -Zsanitizer=address"
rustflags+=" -Cllvm-args=-sanitizer-coverage-stack-depth -Cdebug-assertions -Ccodegen-units=1"
bins=()
for t in "${targets[@]}"; do bins+=(--bin "$t"); done
echo "== building ${targets[*]}"
RUSTFLAGS="$rustflags ${RUSTFLAGS:-}" "${cargo[@]}" build --manifest-path fuzz/Cargo.toml \
  --target "$host" --release --config 'profile.release.debug="line-tables-only"' "${bins[@]}" ||
  { echo "$0: building the targets failed" >&2; exit 2; }
bin_dir=fuzz/target/$host/release
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_odr_violation=0

mkdir -p fuzz/logs
dict_for() { [[ $1 == encode ]] || echo "-dict=fuzz/utf8.dict"; }

# Fuzzes target $1 for the set time; its summary row goes to fuzz/logs/.$1.row.
fuzz_target() {
  local t=$1
  local corpus=fuzz/corpus/$t seeds=fuzz/seeds/$t artifacts=fuzz/artifacts/$t log=fuzz/logs/$t.log
  mkdir -p "$corpus" "$artifacts"
  local seed_dirs=()
  if [[ -d $seeds ]]; then
    cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
    seed_dirs=("$seeds")
  fi
  local marker=fuzz/logs/.$t.start
  touch "$marker"

  echo "== $t: ${seconds}s (log: $log)"
  local start status elapsed
  start=$(date +%s)
  # shellcheck disable=SC2046 # dict_for prints one word or nothing
  "$bin_dir/$t" -artifact_prefix="$artifacts/" "$corpus" "${seed_dirs[@]}" \
    -max_total_time="$seconds" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -timeout=10 \
    -print_final_stats=1 $(dict_for "$t") "${extra[@]}" \
    > "$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))

  # libFuzzer's last words: "Done 123456 runs in 600 second(s)" and the final stats.
  local runs secs corpus_files corpus_kb cov new_crashes found
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  [[ -n $runs ]] || runs=$(sed -n 's/^Done \([0-9]*\) runs in.*/\1/p' "$log" | tail -n 1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  corpus_files=$(find "$corpus" -type f | wc -l)
  corpus_kb=$(( ($(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }') + 1023) / 1024 ))
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  new_crashes=$(find "$artifacts" -type f -newer "$marker" | wc -l)

  if [[ $status -eq 0 && $new_crashes -eq 0 && -n $runs ]]; then
    found=none
  else
    found="YES (exit $status)"
    echo "!! $t: libFuzzer exited with $status; end of $log:" >&2
    tail -n 40 "$log" >&2
    find "$artifacts" -type f -newer "$marker" | sed 's/^/   input: /' >&2
  fi
  echo "| $t | ${secs:-$elapsed} | ${runs:-?} | $corpus_files files, $corpus_kb KiB | ${cov:-?} | $found |" \
    > "fuzz/logs/.$t.row"
  echo "   $t: ${runs:-?} executions in ${secs:-$elapsed}s, corpus $corpus_files files, crash: $found"
}

# FUZZ_JOBS targets at a time (each libFuzzer process takes one core).
for t in "${targets[@]}"; do
  rm -f "fuzz/logs/.$t.row"
  while (( $(jobs -rp | wc -l) >= jobs_max )); do wait -n; done
  fuzz_target "$t" &
done
wait

failed=0
rows=()
for t in "${targets[@]}"; do
  row=$(cat "fuzz/logs/.$t.row" 2>/dev/null) || row="| $t | ? | ? | ? | ? | YES (no result) |"
  [[ $row == *"| none |" ]] || failed=1
  rows+=("$row")
done

echo
echo "Fuzzing summary ($(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), ${seconds}s per target):"
echo
echo "| target | seconds | executions | final corpus | coverage (libFuzzer cov) | crashes |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${rows[@]}"
if [[ $failed -ne 0 ]]; then
  echo
  echo "A target found a crash or failed to run: see fuzz/logs/ and fuzz/artifacts/;" \
       "reproduce with: fuzz/target/$host/release/TARGET fuzz/artifacts/TARGET/crash-..." >&2
fi
exit $failed
