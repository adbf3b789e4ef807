#!/usr/bin/env bash
# Install check, as a user or a packager would do it: `make install DESTDIR=...`, build a program
# with nothing but pkg-config (against the shared library; against the static one, named by the
# static_libs variable beside the shared one, and with --static where it is alone, also with
# `cc -static`), with CMake's find_package (shared and static, and through a symbolic link to
# the package's directory from another prefix) and with Meson's dependency() where those are
# installed, run it, and check that `make install` installs exactly the files it should and
# that `make uninstall` leaves none of them behind.
#
# usage: install_check.sh MAKE WORKDIR LIBDIR PKGCONFIGDIR INCLUDEDIR BINDIR MANDIR VERSION
set -euo pipefail
make=$1 work=$2 libdir=$3 pcdir=$4 includedir=$5 bindir=$6 mandir=$7 version=$8
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
# The Makefile's CMAKEDIR, where it is given (as on make's command line).
cmakedir=${CMAKEDIR:-$libdir/cmake/libutf8}
rm -rf "$work"
mkdir -p "$work"

# Builds $4 (install_check.c by default) into $3 against the installation staged under root $1,
# with the output of pkg-config for each set of flags in $2, separated by ';'.
build_with_pkg_config() {
  local root=$1 flag_sets=$2 out=$3 src=${4:-$here/install_check.c} flags
  : > "$work/flags"
  IFS=';' read -ra flag_sets <<< "$flag_sets"
  for flags in "${flag_sets[@]}"; do
    # PKG_CONFIG_SYSROOT_DIR maps the installed paths into the staging root.
    # shellcheck disable=SC2086 # the flags are meant to be split
    PKG_CONFIG_PATH="$root$pcdir" PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR= \
      "${PKG_CONFIG:-pkg-config}" $flags libutf8 | tee -a "$work/flags" | \
      sed "s|^|pkg-config $flags libutf8: |"
  done
  # shellcheck disable=SC2046 # the flags are meant to be split
  "$cc" -std=c99 -Wall -Wextra -Werror -pedantic "$src" $(cat "$work/flags") -o "$out"
}

echo "== install check: shared library"
$make --no-print-directory install DESTDIR="$work/root"
# Each exported function has a man page name, a link to libutf8(3).
expected_files=$( (printf '%s\n' "$libdir/libutf8.so.$version" "$libdir/libutf8.so.${version%%.*}" \
  "$libdir/libutf8.so" "$libdir/libutf8.a" "$includedir/libutf8.h" "$pcdir/libutf8.pc" \
  "$cmakedir/libutf8-config.cmake" "$cmakedir/libutf8-config-version.cmake" \
  "$bindir/utf8check" "$mandir/man1/utf8check.1" "$mandir/man3/libutf8.3"
  sed "s|.*|$mandir/man3/&.3|" "$here/exported-symbols.txt") | sort)
installed_files=$(cd "$work/root" && find . ! -type d | sed 's/^\.//' | sort)
if [ "$installed_files" != "$expected_files" ]; then
  echo "make install installed:"; echo "$installed_files"; echo "expected:"; echo "$expected_files"
  exit 1
fi
build_with_pkg_config "$work/root" "--cflags --libs" "$work/prog-shared"
readelf -d "$work/prog-shared" | grep -q 'NEEDED.*\[libutf8\.so\.1\]'
LD_LIBRARY_PATH="$work/root$libdir" "$work/prog-shared"
for f in $(cat "$here/exported-symbols.txt"); do
  [ "$(readlink "$work/root$mandir/man3/$f.3")" = libutf8.3 ] || { echo "man3/$f.3 is no link"; exit 1; }
done

echo "== install check: static library beside the shared one (README.md's command)"
build_with_pkg_config "$work/root" "--cflags;--variable=static_libs" "$work/prog-static-beside"
if readelf -d "$work/prog-static-beside" | grep -q 'NEEDED.*libutf8'; then
  echo "prog-static-beside is linked against the shared library"; exit 1
fi
"$work/prog-static-beside"

echo "== install check: the example in README.md"
awk '/^```c$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' "$here/../README.md" > "$work/readme_example.c"
build_with_pkg_config "$work/root" "--cflags --libs" "$work/readme-example" "$work/readme_example.c"
# C0 AF (an overlong '/') is two maximal subparts: two U+FFFD.
expected=$(printf 'invalid at byte 6: %s\ncaf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd etc' "overlong encoding")
actual=$(LD_LIBRARY_PATH="$work/root$libdir" "$work/readme-example")
[ "$actual" = "$expected" ] || { echo "README example printed: $actual"; exit 1; }

echo "== install check: the example in the installed libutf8(3)"
# The roff escapes it uses: \e for a backslash, \(aq for a quote, \- for a minus.
awk '/^\.SH EXAMPLES/ { f = 1 } f && /^\.EX/ { g = 1; next } g && /^\.EE/ { exit } g' \
  "$work/root$mandir/man3/libutf8.3" | sed -e 's/\\e/\\/g' -e "s/\\\\(aq/'/g" -e 's/\\-/-/g' \
  > "$work/man_example.c"
build_with_pkg_config "$work/root" "--cflags --libs" "$work/man-example" "$work/man_example.c"
actual=$(LD_LIBRARY_PATH="$work/root$libdir" "$work/man-example")
[ "$actual" = "$expected" ] || { echo "libutf8(3) example printed: $actual"; exit 1; }

# The CMake package: a consumer found by CMAKE_PREFIX_PATH, linked with libutf8::libutf8, the
# shared library and then the static one; and a Meson consumer through dependency('libutf8').
prefix=$(PKG_CONFIG_PATH="$work/root$pcdir" PKG_CONFIG_LIBDIR= "${PKG_CONFIG:-pkg-config}" \
  --variable=prefix libutf8)
if command -v cmake > /dev/null; then
  for kind in shared static; do
    echo "== install check: CMake consumer, $kind library (find_package, libutf8::libutf8)"
    build="$work/cmake-$kind"
    static=$([ "$kind" = static ] && echo ON || echo OFF)
    { cmake -S "$here/cmake" -B "$build" -DCMAKE_PREFIX_PATH="$work/root$prefix" \
        -DCMAKE_C_COMPILER="$cc" -Dlibutf8_USE_STATIC_LIBS="$static" &&
      cmake --build "$build"; } > "$work/cmake-$kind.log" 2>&1 || { cat "$work/cmake-$kind.log"; exit 1; }
    grep -q "libutf8_DIR:PATH=$work/root$cmakedir\$" "$build/CMakeCache.txt" ||
      { echo "CMake found libutf8 elsewhere than in $work/root$cmakedir"; exit 1; }
    if [ "$kind" = shared ]; then
      readelf -d "$build/install_check" | grep -q 'NEEDED.*\[libutf8\.so\.1\]'
    elif readelf -d "$build/install_check" | grep -q 'NEEDED.*libutf8'; then
      echo "the CMake consumer is linked against the shared library"; exit 1
    fi
    LD_LIBRARY_PATH="$work/root$libdir" "$build/install_check"
  done
  # Found through a symbolic link from another prefix, as CMake may find it on a merged /usr
  # (/lib/<arch>/cmake/libutf8, through /lib -> usr/lib): the paths it gives are still those of
  # the installation.
  echo "== install check: CMake consumer, the package found through a link from another prefix"
  build="$work/cmake-link"
  mkdir -p "$work/link-prefix/lib/cmake"
  ln -s "$work/root$cmakedir" "$work/link-prefix/lib/cmake/libutf8"
  { cmake -S "$here/cmake" -B "$build" -DCMAKE_PREFIX_PATH="$work/link-prefix" \
      -DCMAKE_C_COMPILER="$cc" &&
    cmake --build "$build"; } > "$work/cmake-link.log" 2>&1 || { cat "$work/cmake-link.log"; exit 1; }
  grep -q "libutf8_DIR:PATH=$work/link-prefix/lib/cmake/libutf8\$" "$build/CMakeCache.txt" ||
    { echo "CMake found libutf8 elsewhere than in $work/link-prefix/lib/cmake/libutf8"; exit 1; }
  readelf -d "$build/install_check" | grep -q 'NEEDED.*\[libutf8\.so\.1\]'
  LD_LIBRARY_PATH="$work/root$libdir" "$build/install_check"
else
  echo "skipped: CMake consumer (needs cmake)"
fi
if ! command -v meson > /dev/null; then
  echo "skipped: Meson consumer (needs meson)"
elif ! command -v ninja > /dev/null; then
  echo "skipped: Meson consumer (needs ninja)"
else
  echo "== install check: Meson consumer (dependency('libutf8'))"
  build="$work/meson"
  { PKG_CONFIG_PATH="$work/root$pcdir" PKG_CONFIG_SYSROOT_DIR="$work/root" PKG_CONFIG_LIBDIR= CC="$cc" \
      meson setup "$build" "$here/meson" && meson compile -C "$build"; } > "$work/meson.log" 2>&1 ||
    { cat "$work/meson.log"; exit 1; }
  readelf -d "$build/install_check" | grep -q 'NEEDED.*\[libutf8\.so\.1\]'
  LD_LIBRARY_PATH="$work/root$libdir" "$build/install_check"
fi

echo "== install check: static library alone"
# A system with only the static library installed: --static must bring every system library
# the Rust standard library needs (Libs.private).
$make --no-print-directory install DESTDIR="$work/static-root"
rm -f "$work/static-root$libdir"/libutf8.so*
build_with_pkg_config "$work/static-root" "--static --cflags --libs" "$work/prog-static"
if readelf -d "$work/prog-static" | grep -q 'NEEDED.*libutf8'; then
  echo "prog-static is linked against the shared library"; exit 1
fi
"$work/prog-static"
# And a program linked statically throughout, C library included (where it is installed).
if [ -f "$(${cc} -print-file-name=libc.a)" ]; then
  echo "$cc -static prog.c \$(pkg-config --static --cflags --libs libutf8)"
  # shellcheck disable=SC2046 # the flags are meant to be split
  "$cc" -std=c99 -Wall -Wextra -Werror -pedantic -static "$here/install_check.c" \
    $(cat "$work/flags") -o "$work/prog-all-static" 2> "$work/static-link.log" ||
    { cat "$work/static-link.log"; exit 1; }
  if readelf -d "$work/prog-all-static" | grep -q NEEDED; then
    echo "prog-all-static needs shared libraries"; exit 1
  fi
  "$work/prog-all-static"
else
  echo "no libc.a: the fully static link is not tested"
fi

echo "== uninstall check"
$make --no-print-directory uninstall DESTDIR="$work/root"
left=$(find "$work/root" ! -type d)
if [ -n "$left" ]; then
  echo "make uninstall left files behind:"; echo "$left"; exit 1
fi
# The directory of the CMake package is libutf8's alone; the others are shared, and stay.
if [ -e "$work/root$cmakedir" ]; then
  echo "make uninstall left $cmakedir behind"; exit 1
fi
echo "install check passed"
