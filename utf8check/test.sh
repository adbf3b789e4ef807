#!/usr/bin/env bash
# End-to-end test of utf8check, run from a staged installation (make check-utf8check): reports,
# exit statuses, standard input (a pipe and a redirected file), UTF-16 and UTF-32 byte-order
# marks, a hostile file name, missing and unreadable inputs, an input that is the output file,
# and the --replace and --escape copies byte for byte (with newlines and tabs kept, and with
# --one-line), the escaped copies read back by utf8_unescape, and the --legacy and --fallback
# copies. Every
# expected value comes from Python's codecs (utf8check/oracle.py), never from libutf8.
#
# The library is found through LD_LIBRARY_PATH, pointing at the staged lib directory: the
# command has no rpath (see mk/build.mk), as a program using an installed library should not.
#
# usage: test.sh STAGE BINDIR LIBDIR MANDIR VERSION WORKDIR [SHARED]
set -euo pipefail
stage=$1 bindir=$2 libdir=$3 mandir=$4 version=$5 work=$6 shared=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
tool=$stage$bindir/utf8check
if [ -n "$shared" ] && [ -d "$shared" ]; then shared=$(cd "$shared" && pwd); fi
export LD_LIBRARY_PATH=$stage$libdir

rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run CMD...: runs CMD with its output in $work/out and $work/err, its exit status in $rc.
run() {
  set +e
  "$@" > "$work/out" 2> "$work/err"
  rc=$?
  set -e
}
# run_piped FILE CMD...: runs CMD with FILE through a pipe on its standard input, as run does.
run_piped() {
  set +e
  cat "$1" | "${@:2}" > "$work/out" 2> "$work/err"
  rc=$?
  set -e
}
# expect WHAT STATUS STDOUT_FILE [STDERR_FILE]: compares the last run with the expected
# values; an absent STDERR_FILE means an empty standard error.
expect() {
  local what=$1 status=$2 out=$3 err=${4:-/dev/null}
  [ "$rc" = "$status" ] || fail "$what: exit status $rc, expected $status"
  cmp -s "$work/out" "$out" || fail "$what: standard output: $(cmp "$out" "$work/out" 2>&1 | head -n 1)"
  cmp -s "$work/err" "$err" || fail "$what: standard error: $(head -c 300 "$work/err")"
}

# report NAME CASE: the expected report of input CASE shown as NAME (nothing if CASE is valid).
report() {
  if [ -s "$2.report" ]; then printf '%s: ' "$1"; cat "$2.report"; fi
}

echo "== utf8check: installation"
readelf -d "$tool" > "$work/dynamic"
grep -q 'NEEDED.*\[libutf8\.so\.1\]' "$work/dynamic" || fail "not linked to libutf8.so.1"
! grep -qE 'RPATH|RUNPATH' "$work/dynamic" || fail "has an rpath"
for page in man1/utf8check.1 man3/libutf8.3; do
  cmp -s "$stage$mandir/$page" "$here/../man/${page#*/}" || fail "$page not installed"
done

echo "== utf8check: options"
run "$tool" --version
printf 'utf8check (libutf8) %s\n' "$version" > "$work/expected"
expect "--version" 0 "$work/expected"
run "$tool" --help
[ "$rc" = 0 ] && head -n 1 "$work/out" | grep -q '^Usage: utf8check' && [ ! -s "$work/err" ] ||
  fail "--help"
run "$tool" -h
cmp -s "$work/out" <("$tool" --help) || fail "-h differs from --help"
for bad in -x --frobnicate "-r -e" "--replace -e" "-q -l" "-lq" "--quiet --list" --one-line \
  "-r --one-line" "--one-line -q" --legacy=latin1 "-e --legacy=cp1252" "-r --legacy=koi8-r" \
  "-r --legacy=" "-r --legacy" "-r --legacy=LATIN1" --fallback=latin1 "-e --fallback=cp1252" \
  "-r --fallback=ascii" "-r --fallback=latin1 --legacy=latin1" \
  "--legacy=cp1252 -r --fallback=cp1252"; do
  # shellcheck disable=SC2086 # split on purpose
  run "$tool" $bad /dev/null
  [ "$rc" = 2 ] && [ ! -s "$work/out" ] && grep -q "Try 'utf8check --help'" "$work/err" ||
    fail "bad command line '$bad': status $rc"
done

# 80 is U+0080 in Latin-1 (C2 80) and U+20AC in Windows-1252 (E2 82 AC, WHATWG's index).
printf 'a\200b' > "$work/byte-80"
run "$tool" -qr --fallback=latin1 --fallback=cp1252 "$work/byte-80"
expect "-qr (grouped), the last of two --fallback" 1 <(printf 'a\342\202\254b')
run "$tool" -rq --legacy=cp1252 --legacy=latin1 "$work/byte-80"
expect "-rq (grouped), the last of two --legacy" 1 <(printf 'a\302\200b')
# The encoding as the next argument, as getopt_long takes it.
run "$tool" -qr --fallback cp1252 "$work/byte-80"
expect "-qr --fallback cp1252 (two arguments)" 1 <(printf 'a\342\202\254b')
run "$tool" --legacy latin1 -qr "$work/byte-80"
expect "--legacy latin1 -qr (two arguments)" 1 <(printf 'a\302\200b')
for option in --legacy --fallback; do
  run "$tool" -r "$option"
  [ "$rc" = 2 ] && [ ! -s "$work/out" ] &&
    grep -q "option '$option' needs an encoding" "$work/err" ||
    fail "-r $option at the end of the command line: status $rc"
done

echo "== utf8check: every case, as a file, a redirected file and a pipe"
cases=$work/cases
mkdir -p "$work/escaped"
"$python" "$here/oracle.py" gen "$cases"
cd "$cases"
for input in $(ls | grep -v '\.'); do
  status=0
  if [ -s "$input.report" ]; then status=1; fi
  # As a named file; then on standard input, seekable (redirected) and not (a pipe).
  report "$input" "$input" > "$work/expected"
  run "$tool" "$input"
  expect "$input" $status "$work/expected"
  report "(standard input)" "$input" > "$work/expected"
  run "$tool" < "$input"
  expect "$input on standard input" $status "$work/expected"
  run_piped "$input" "$tool"
  expect "$input through a pipe" $status "$work/expected"
  # The copy with U+FFFD, through a pipe too: the report goes to standard error.
  run "$tool" -r "$input"
  expect "-r $input" $status "$input.replaced" <(report "$input" "$input")
  run_piped "$input" "$tool" --replace
  expect "--replace $input through a pipe" $status "$input.replaced" "$work/expected"
  # The escaped copy, its lines and tabs kept, then on one line.
  run "$tool" -e "$input"
  expect "-e $input" $status "$input.escaped" <(report "$input" "$input")
  cp "$work/out" "$work/escaped/$input"
  run_piped "$input" "$tool" --escape
  expect "--escape $input through a pipe" $status "$input.escaped" "$work/expected"
  run "$tool" -e --one-line "$input"
  expect "-e --one-line $input" $status "$input.escaped-one-line" <(report "$input" "$input")
  run_piped "$input" "$tool" --one-line --escape
  expect "--one-line --escape $input through a pipe" $status "$input.escaped-one-line" \
    "$work/expected"
  # UTF-8 copied as it is, anything else converted whole: a file read twice, a pipe held.
  run "$tool" -r --legacy=latin1 "$input"
  expect "-r --legacy=latin1 $input" $status "$input.latin1" <(report "$input" "$input")
  run_piped "$input" "$tool" --legacy=cp1252 --replace
  expect "--legacy=cp1252 --replace $input through a pipe" $status "$input.cp1252" \
    "$work/expected"
  # Each byte of each error as its character in Windows-1252 or Latin-1.
  run "$tool" -r --fallback=cp1252 "$input"
  expect "-r --fallback=cp1252 $input" $status "$input.fallback-cp1252" <(report "$input" "$input")
  run_piped "$input" "$tool" --fallback=latin1 --replace
  expect "--fallback=latin1 --replace $input through a pipe" $status "$input.fallback-latin1" \
    "$work/expected"
done

echo "== utf8check: -e read back by utf8_unescape"
# Every escaped copy above, newlines and tabs as they are, gives back its input.
"$python" - "$stage$libdir/libutf8.so.1" "$work/escaped" "$cases" <<'EOF' || fail "utf8_unescape"
import ctypes, os, sys
lib = ctypes.CDLL(sys.argv[1])
lib.utf8_unescape.restype = ctypes.c_int
lib.utf8_unescape.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                              ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
bad = 0
for name in sorted(os.listdir(sys.argv[2])):
    with open(os.path.join(sys.argv[2], name), "rb") as f:
        escaped = f.read()
    with open(os.path.join(sys.argv[3], name), "rb") as f:
        original = f.read()
    out = ctypes.create_string_buffer(len(escaped) + 1)
    n = ctypes.c_size_t(0)
    status = lib.utf8_unescape(escaped, len(escaped), out, len(escaped), ctypes.byref(n))
    if status != 0 or out.raw[:n.value] != original:
        print("FAIL: utf8_unescape of -e %s: status %d" % (name, status))
        bad += 1
sys.exit(1 if bad else 0)
EOF

echo "== utf8check: standard input open at an offset"
# The input starts where the caller's file offset is, not at a page boundary of the file.
for input in windows cut-131072-1 truncated-3; do
  for offset in 1 $(($(wc -c < "$input") < 20000 ? 40 : 12345)); do
    { printf '(standard input): '; "$python" "$here/oracle.py" report "$input" $offset; } > "$work/expected"
    run "$python" -c 'import os, sys; os.lseek(0, int(sys.argv[1]), 0); os.execv(sys.argv[2], sys.argv[2:])' \
      $offset "$tool" < "$input"
    expect "$input from byte $offset" 1 "$work/expected"
  done
done

echo "== utf8check: --legacy"
# The other encoding each way; standard input opened at an offset (the input starts there);
# several inputs, each converted or copied on its own.
for input in legacy-bytes legacy-text noise-1 mixed bom-utf16le; do
  status=0
  if [ -s "$input.report" ]; then status=1; fi
  run "$tool" -r --legacy=cp1252 "$input"
  expect "-r --legacy=cp1252 $input" $status "$input.cp1252" <(report "$input" "$input")
  run_piped "$input" "$tool" -r --legacy=latin1
  expect "-r --legacy=latin1 $input through a pipe" $status "$input.latin1" \
    <(report "(standard input)" "$input")
done
for offset in 1 40; do
  run "$python" -c 'import os, sys; os.lseek(0, int(sys.argv[1]), 0); os.execv(sys.argv[2], sys.argv[2:])' \
    $offset "$tool" -r --legacy=cp1252 < legacy-text
  "$python" "$here/oracle.py" legacy cp1252 legacy-text $offset > "$work/expected"
  expect "-r --legacy=cp1252 from byte $offset" 1 "$work/expected" \
    <(printf '(standard input): '; "$python" "$here/oracle.py" report legacy-text $offset)
done
run "$tool" -r --legacy=latin1 mixed legacy-text ascii noise-2 empty
cat mixed.latin1 legacy-text.latin1 ascii.latin1 noise-2.latin1 > "$work/expected"
[ "$rc" = 1 ] && cmp -s "$work/out" "$work/expected" && [ "$(wc -l < "$work/err")" = 2 ] ||
  fail "-r --legacy=latin1 of five files"

echo "== utf8check: byte-order marks"
# A UTF-16 or UTF-32 mark is named instead of the first error, whose place means nothing in
# such a file (the report of each case above, from oracle.py). Through a pipe the first error
# can come before the whole mark: a byte at a time, the mark is still read whole.
for mark in '\377\376\000\000' '\000\000\376\377' '\377\376\101\000' '\376\377'; do
  run bash -c 'for b in $1; do printf "$b"; sleep 0.1; done | "$2"' - \
    "$(printf '%s' "$mark" | sed 's/\\/ \\/g')" "$tool"
  # shellcheck disable=SC2059 # the mark is a format of octal escapes
  printf "$mark" > "$work/marked"
  { printf '(standard input): '; "$python" "$here/oracle.py" report "$work/marked"; } > "$work/expected"
  expect "mark $mark a byte at a time through a pipe" 1 "$work/expected"
done
run "$tool" -l bom-utf16le ascii bom-utf32be bom-utf8
printf 'bom-utf16le\nbom-utf32be\n' > "$work/expected"
expect "-l, files with marks" 1 "$work/expected"
run "$tool" -q bom-utf32le
expect "-q, a file with a mark" 1 /dev/null

echo "== utf8check: several inputs"
run "$tool" ascii error-surrogate mixed truncated-2
{ report error-surrogate error-surrogate; report truncated-2 truncated-2; } > "$work/expected"
expect "two invalid among four" 1 "$work/expected"
run "$tool" -l ascii error-surrogate mixed truncated-2
printf 'error-surrogate\ntruncated-2\n' > "$work/expected"
expect "-l" 1 "$work/expected"
run "$tool" -q ascii error-surrogate
expect "-q, one invalid" 1 /dev/null
run "$tool" -q ascii mixed empty
expect "-q, all valid" 0 /dev/null
# Standard input among files, as "-".
run "$tool" ascii - error-overlong-c0 < error-continuation
{ report "(standard input)" error-continuation; report error-overlong-c0 error-overlong-c0; } \
  > "$work/expected"
expect "- among files" 1 "$work/expected"
# The copies of several files, one after the other, each replaced on its own.
run "$tool" -r noise-0 truncated-4 noise-1
"$python" "$here/oracle.py" replace noise-0 truncated-4 noise-1 > "$work/expected"
[ "$rc" = 1 ] && cmp -s "$work/out" "$work/expected" && [ "$(wc -l < "$work/err")" = 3 ] ||
  fail "-r of three files"

echo "== utf8check: inputs that cannot be read"
run "$tool" ascii missing-file error-invalid-ff
report error-invalid-ff error-invalid-ff > "$work/expected"
echo "utf8check: missing-file: No such file or directory" > "$work/expected-err"
expect "a missing file among others" 2 "$work/expected" "$work/expected-err"
mkdir -p a-directory
run "$tool" a-directory ascii
echo "utf8check: a-directory: Is a directory" > "$work/expected-err"
expect "a directory" 2 /dev/null "$work/expected-err"
run "$tool" -q missing-file
expect "-q, a missing file" 2 /dev/null <(echo "utf8check: missing-file: No such file or directory")
if [ -w /dev/full ]; then
  run bash -c '"$1" -r mixed > /dev/full' - "$tool"
  [ "$rc" = 2 ] && grep -q 'write error' "$work/err" || fail "-r to a full disk: status $rc"
  # The text of ENOSPC as the C library gives it, through Python's os.strerror.
  enospc=$("$python" -c 'import errno, os; print(os.strerror(errno.ENOSPC))')
  for option in --help -h --version; do
    run bash -c '"$1" "$2" > /dev/full' - "$tool" $option
    expect "$option to a full disk" 2 /dev/null <(echo "utf8check: write error: $enospc")
  done
fi

echo "== utf8check: an input that is the output file"
# With -r and -e, an input that is standard output's file would grow as it is copied, without
# end: it is refused ("input file is output file", status 2) and the other inputs are copied.
# Should that ever loop again, a limit on the size of the files written (20 MiB) and a timeout
# bound the runs.
bounded=(env) # never empty: "${bounded[@]}" of an empty array fails under set -u before bash 4.4
if command -v timeout > /dev/null; then bounded=(timeout 10); fi
# run_into FILE CMD...: runs CMD with its standard output appended to FILE, its standard error
# in $work/err and its exit status in $rc.
run_into() {
  set +e
  (ulimit -f 20480 && exec "${bounded[@]}" "${@:2}") >> "$1" 2> "$work/err"
  rc=$?
  set -e
}
# The issue's example: the output file among the inputs, empty when the command starts.
rm -f all
: > all
run_into all "$tool" -r ascii all error-surrogate
cat ascii.replaced error-surrogate.replaced > "$work/expected"
{ echo "utf8check: all: input file is output file"; report error-surrogate error-surrogate; } \
  > "$work/expected-err"
[ "$rc" = 2 ] || fail "-r, the output file among the inputs: status $rc, expected 2"
cmp -s all "$work/expected" || fail "-r, the output file among the inputs: $(cmp all "$work/expected" 2>&1)"
cmp -s "$work/err" "$work/expected-err" || fail "-r, the output file among the inputs: $(head -c 300 "$work/err")"
# Appended to itself, by name, on standard input (redirected, and as -), and through a hard
# link: the file is left as it was.
for how in "-e copy" "--replace copy" "-e link" "-e" "-r - ascii"; do
  case $how in
    *copy) shown=copy ;;
    *link) shown=link ;;
    *) shown="(standard input)" ;;
  esac
  rm -f copy link
  cp mixed copy
  ln copy link
  # shellcheck disable=SC2086 # split on purpose
  run_into copy "$tool" $how < copy
  if [ "$how" = "-r - ascii" ]; then cat mixed ascii.replaced > "$work/expected"
  else cp mixed "$work/expected"; fi
  [ "$rc" = 2 ] && cmp -s copy "$work/expected" &&
    [ "$(cat "$work/err")" = "utf8check: $shown: input file is output file" ] ||
    fail "utf8check $how >> copy: status $rc, $(head -c 300 "$work/err")"
done
# Refused though empty (the copy would be empty), so that the outcome does not depend on the
# size the file has reached.
rm -f copy
: > copy
run_into copy "$tool" -e copy
[ "$rc" = 2 ] && [ ! -s copy ] && [ "$(cat "$work/err")" = "utf8check: copy: input file is output file" ] ||
  fail "-e, an empty output file as input: status $rc"
# Checking alone copies nothing: the report of the file is appended to it.
rm -f copy
cp error-surrogate copy
run_into copy "$tool" copy
{ cat error-surrogate; report copy error-surrogate; } > "$work/expected"
[ "$rc" = 1 ] && cmp -s copy "$work/expected" && [ ! -s "$work/err" ] ||
  fail "checking the output file: status $rc, $(head -c 300 "$work/err")"
# A file like the output but another one is copied.
rm -f copy all
cp mixed copy
cp mixed all
run_into all "$tool" -r copy
cat mixed mixed.replaced > "$work/expected"
[ "$rc" = 0 ] && cmp -s all "$work/expected" && [ ! -s "$work/err" ] ||
  fail "-r of a copy of the output file: status $rc, $(head -c 300 "$work/err")"
rm -f copy link all

echo "== utf8check: a hostile file name"
# Escape sequences that would set the terminal's title and clear it, a newline that would start
# a forged report, a backslash, and bytes that are not UTF-8.
hostile=$(printf 'evil\033]0;owned\007\033[2J\nfake.txt: line 1\r\\\377\300name')
cp error-missing-2 "$hostile"
shown=$(printf '%s' "$hostile" | "$python" "$here/oracle.py" escape)
run "$tool" "$hostile" ascii
report "$shown" error-missing-2 > "$work/expected"
expect "a hostile name" 1 "$work/expected"
# Whatever the escape, every byte printed must be printable ASCII or the line's end.
if LC_ALL=C grep -q '[^ -~]' "$work/out"; then
  fail "control or non-ASCII byte in the report: $(od -c "$work/out" | head -n 3)"
fi
run "$tool" -l "$hostile"
expect "-l, a hostile name" 1 <(printf '%s\n' "$shown")
rm -f "$hostile"
run "$tool" "$hostile"
expect "a hostile name, missing" 2 /dev/null <(printf 'utf8check: %s: No such file or directory\n' "$shown")

echo "== utf8check: Markus Kuhn's stress test"
kuhn=$shared/testdata/UTF-8-test.txt
if [ -n "$shared" ] && [ -f "$kuhn" ]; then
  "$python" "$here/oracle.py" replace "$kuhn" > "$work/expected"
  run "$tool" -r "$kuhn"
  [ "$rc" = 1 ] && cmp -s "$work/out" "$work/expected" || fail "-r of Kuhn's test, status $rc"
  { printf '%s: ' "$kuhn"; "$python" "$here/oracle.py" report "$kuhn"; } > "$work/expected"
  run "$tool" "$kuhn"
  expect "Kuhn's test" 1 "$work/expected"
else
  echo "SKIPPED: $kuhn absent"
fi

if [ "$failures" -gt 0 ]; then
  echo "utf8check test: $failures failures"
  exit 1
fi
echo "utf8check test passed"
