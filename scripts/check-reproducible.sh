#!/usr/bin/env bash
# The build is reproducible (https://reproducible-builds.org/): two copies of the source tree,
# in folders of different names and depths, built and installed by MAKE as docs/PACKAGING.md
# says, at different times, under a different umask, locale, time zone, user name and home
# folder, and with the same SOURCE_DATE_EPOCH, install the same bytes with the same modes.
# Twice: as `make` builds by default, and with debugging information, where each copy's folder
# is remapped to one name (rustc's --remap-path-prefix in RUSTFLAGS, GCC's -ffile-prefix-map in
# CFLAGS), as a distribution's debug-symbol package is built. And `make dist`, run in each copy,
# writes the same tarball. Into BUILD; records what it checked in RESULTS.
#
# usage: check-reproducible.sh RESULTS BUILD   (environment: MAKE)
set -euo pipefail
results=$1 build=$2
record=$(dirname "$0")/record.sh
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
rm -rf "$build"
mkdir -p "$build"
build=$(cd "$build" && pwd)
copies=("$build/a/libutf8" "$build/bb/a-longer-name/libutf8-$version")
# The sources, without what builds write (cargo's target folders, make's build folder). The
# first copy's files keep their times; the second's, and its folders, are dated a day back, as
# the files of two clones made at different times differ.
for src in "${copies[@]}"; do
  mkdir -p "$src"
  find . \( -name target -o -path ./build -o -path ./.git \) -prune -o -type f -print0 |
    tar --null -T - -cf - | tar -xf - -C "$src"
done
find "${copies[1]}" -exec touch -d '1 day ago' {} +

# reproducible-builds.org's definition holds SOURCE_DATE_EPOCH the same: the caller's, as a
# distribution's build sets it, else the last commit's date (any fixed one outside git). Nothing
# reads it now; a date that the build records is the same in both copies only if it comes from
# it. The builds run one after the other, so that the clock differs, and in time zones 14 hours
# apart, so that for most of the day the date does too.
[ -n "${SOURCE_DATE_EPOCH-}" ] || SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || true)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1}
# Each copy has a home folder of its own, but the caller's toolchain (rustup's proxies find it
# in RUSTUP_HOME) and cargo's configuration (in CARGO_HOME): where those differ, the builds may.
cargo_home=${CARGO_HOME:-$HOME/.cargo} rustup_home=${RUSTUP_HOME:-$HOME/.rustup}

# Runs MAKE ARGS in copy N (0 or 1), its output added to LOG, under the copy's own umask,
# locale, time zone (POSIX strings: they need no time zone database), user name and home
# folder, with no CARGO_TARGET_DIR or CARGO_BUILD_TARGET of the caller's: cargo's outputs in the
# copy's own target folder.
make_in_copy() {
  local n=$1 log=$2 src=${copies[$1]}
  shift 2
  local masks=(022 077) locales=(C C.UTF-8) zones=(UTC0 KIR-14) users=(builder someone-else)
  local settings=(LC_ALL="${locales[$n]}" TZ="${zones[$n]}" USER="${users[$n]}"
    LOGNAME="${users[$n]}" HOME="$build/home-$n" CARGO_HOME="$cargo_home"
    RUSTUP_HOME="$rustup_home")
  mkdir -p "$build/home-$n"
  echo "(cd $src && umask ${masks[$n]} && ${settings[*]}" \
    "${CARGO_PROFILE_RELEASE_DEBUG:+CARGO_PROFILE_RELEASE_DEBUG=$CARGO_PROFILE_RELEASE_DEBUG}" \
    "${RUSTFLAGS:+RUSTFLAGS=\"$RUSTFLAGS\"} $MAKE $*)"
  (
    cd "$src"
    umask "${masks[$n]}"
    # shellcheck disable=SC2086 # MAKE may hold arguments
    env -u CARGO_TARGET_DIR -u CARGO_BUILD_TARGET "${settings[@]}" \
      $MAKE --no-print-directory "$@" >> "$log" 2>&1
  ) || { cat "$log"; exit 1; }
}

# Builds and installs copy N into ROOT with the settings VAR=VALUE.
build_copy() {
  local n=$1 root=$2
  shift 2
  : > "$root.log"
  make_in_copy "$n" "$root.log" CPPFLAGS= LDFLAGS= "$@" all
  make_in_copy "$n" "$root.log" CPPFLAGS= LDFLAGS= "$@" install DESTDIR="$root" PREFIX=/usr
}

# Whether files ONE and TWO hold the same bytes; where not, says how, briefly: the lines of a
# tarball's listing (dates, owners, order), or the strings, that one holds and the other not,
# where a recorded folder, name or date shows (diffoscope gives the whole difference, slowly).
same_bytes() {
  cmp -s "$1" "$2" && return 0
  echo "check-reproducible: $1 and $2 differ:"
  if [[ $1 == *.tar.gz ]]; then
    diff <(tar --full-time -tvzf "$1") <(tar --full-time -tvzf "$2") | sed -n 1,20p || true
  else
    diff <(strings -a -n 8 "$1" | LC_ALL=C sort -u) <(strings -a -n 8 "$2" | LC_ALL=C sort -u) |
      sed -n 1,20p || true
  fi
  echo "(diffoscope $1 $2 shows the whole difference)"
  return 1
}

# Every file and link the two folders hold, with its mode, and whether their bytes are the same.
compare() {
  local one=$1 two=$2 f differ=0
  listing() { (cd "$1" && find . -printf '%M %p %l\n' | LC_ALL=C sort); }
  if ! diff <(listing "$one") <(listing "$two"); then
    echo "check-reproducible: the two copies wrote different files or modes ($3)"
    exit 1
  fi
  while IFS= read -r f; do
    same_bytes "$one/$f" "$two/$f" || differ=1
  done < <(cd "$one" && find . -type f -printf '%P\n' | LC_ALL=C sort)
  if [ $differ = 1 ]; then
    echo "check-reproducible: the two copies wrote different bytes ($3)"
    exit 1
  fi
  echo "check-reproducible: $3: $(cd "$one" && find . -type f | wc -l) files, the same bytes"
  "$record" passed "$results" "$3 reproducible: two copies write the same bytes"
}

# make dist's tarball, of the repository's HEAD, made in each copy (whose Makefile is the
# working tree's) with git reading the caller's repository: its bytes, not its mode, which is
# the umask's.
if gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null); then
  for n in 0 1; do
    make_in_copy $n "$build/dist-$n.log" dist GIT_DIR="$gitdir" DIST="$build/dist-$n.tar.gz"
  done
  if ! same_bytes "$build/dist-0.tar.gz" "$build/dist-1.tar.gz"; then
    echo "check-reproducible: the two copies wrote different bytes (make dist's tarball)"
    exit 1
  fi
  echo "check-reproducible: make dist's tarball: the same bytes"
  "$record" passed "$results" "make dist's tarball reproducible: two copies write the same bytes"
else
  "$record" skipped "$results" "make dist's tarball reproducible" "a git checkout"
fi

for n in 0 1; do build_copy $n "$build/plain-$n" CFLAGS=-O2; done
compare "$build/plain-0" "$build/plain-1" "the default build"

for n in 0 1; do
  src=$(cd "${copies[$n]}" && pwd)
  # What the default build wrote in the copy, removed without `make clean`, whose `cargo clean`
  # would empty the caller's CARGO_TARGET_DIR, not the copy's target folder.
  rm -rf "$src/target" "$src/build"
  CARGO_PROFILE_RELEASE_DEBUG=true \
    RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--remap-path-prefix=$src=/usr/src/libutf8-$version" \
    build_copy $n "$build/debug-$n" \
    CFLAGS="-O2 -g -ffile-prefix-map=$src=/usr/src/libutf8-$version"
done
# Without debugging information the comparison would say nothing of it.
if readelf -S "$build/debug-0/usr/lib/libutf8.so.$version" | grep -q debug_info; then :; else
  echo "check-reproducible: the debug build's libutf8.so has no debugging information"
  exit 1
fi
compare "$build/debug-0" "$build/debug-1" "the build with debugging information"
