# libutf8: `make` builds, `make check` tests, `make install` installs, `make dist` writes the
# source tarball (see README.md).

CARGO ?= cargo
CC ?= cc
CXX ?= c++
PYTHON ?= python3
PKG_CONFIG ?= pkg-config
VALGRIND ?= valgrind

PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/libutf8
BINDIR ?= $(EXEC_PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

VERSION := $(shell sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
MAJOR := $(firstword $(subst ., ,$(VERSION)))
REALNAME := libutf8.so.$(VERSION)
SONAME := libutf8.so.$(MAJOR)

# Cargo's outputs (where CARGO_TARGET_DIR says, as cargo does), and make's own (pkg-config
# file, test programs, staged installs).
TARGET := $(or $(CARGO_TARGET_DIR),target)/release
BUILD := build
# The shared test data lives beside the clone in CI; a user's clone may not have it.
SHARED ?= ../shared
KUHN := $(SHARED)/testdata/UTF-8-test.txt

# CFLAGS, CPPFLAGS and LDFLAGS from the environment or the command line are passed to every
# compilation and link of C, a distribution's hardening flags included. Warnings are errors in
# the test tiers only: a warning that a newer compiler adds must not break a build.
CFLAGS ?= -O2
WARNINGS := -Wall -Wextra -pedantic
CSTD_FLAGS := $(WARNINGS) -Werror
# AddressSanitizer and UndefinedBehaviorSanitizer for the C tests, where the compiler has them
# (and their run-time libraries are installed): `y` if so.
comma := ,
SANITIZERS := $(shell printf 'int main(void) { return 0; }\n' | $(CC) -x c \
  -fsanitize=address,undefined - -o /dev/null 2>/dev/null && echo y)
SANITIZE := -g $(if $(SANITIZERS),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DELETE_ON_ERROR:

.PHONY: all header lint check check-full check-rust check-version check-header check-abi check-c \
        check-guard check-race check-stack check-valgrind check-install check-utf8check check-man \
        check-header-fresh check-miri check-msrv check-aarch64 check-portable check-fuzz install \
        uninstall dist bench fuzz clean FORCE

all: $(BUILD)/libutf8.pc $(BUILD)/utf8check

# One cargo run builds the C library, libutf8.so and libutf8.a (the package in capi/, linking
# the codec crate of src/ without the standard library), and prints the system libraries the
# static library needs. It runs when a Rust source is newer than its last run or a library is
# missing, not on every make: `make install` after `make` runs no cargo (which may not be in
# root's PATH, and would leave files owned by root in the target directory).
RUST_SOURCES := $(shell find src capi -name '*.rs') Cargo.toml capi/Cargo.toml Cargo.lock capi/libutf8.map
$(BUILD)/native-static-libs: $(RUST_SOURCES) \
  $(if $(and $(wildcard $(TARGET)/libutf8.so),$(wildcard $(TARGET)/libutf8.a)),,FORCE)
	@mkdir -p $(BUILD)
	$(CARGO) rustc --release --package libutf8-capi --lib -- --print native-static-libs 2>&1 \
	  | tee $(BUILD)/cargo.log
	sed -n 's/^note: native-static-libs: //p' $(BUILD)/cargo.log > $@.tmp
	test -s $@.tmp
	mv $@.tmp $@

# The pkg-config file for PREFIX, EXEC_PREFIX, LIBDIR and INCLUDEDIR: written to $(1).
define write_pc
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@EXEC_PREFIX@|$(patsubst $(PREFIX)%,$${prefix}%,$(EXEC_PREFIX))|' \
	    -e 's|@LIBDIR@|$(patsubst $(EXEC_PREFIX)%,$${exec_prefix}%,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(VERSION)|' \
	    -e "s|@LIBS_PRIVATE@|$$(cat $(BUILD)/native-static-libs)|" pkgconfig/libutf8.pc.in > $(1)
endef

# The CMake package (cmake/*.cmake.in), written to directory $(1): the paths of LIBDIR and
# INCLUDEDIR relative to CMAKEDIR, so that the installation can be staged or moved; the system
# libraries of the static library as a CMake list; the pointer size from the library's ELF class.
CMAKE_REL = $(shell realpath -m -s --relative-to=$(CMAKEDIR) $(1))
define write_cmake
	sed -e 's|@CMAKE_REL_LIBDIR@|$(call CMAKE_REL,$(LIBDIR))|' \
	    -e 's|@CMAKE_REL_INCLUDEDIR@|$(call CMAKE_REL,$(INCLUDEDIR))|' \
	    -e "s|@CMAKE_STATIC_LIBS@|$$(tr -s ' ' ';' < $(BUILD)/native-static-libs)|" \
	    -e 's|@MAJOR@|$(MAJOR)|' cmake/libutf8-config.cmake.in > $(1)/libutf8-config.cmake
	class=$$(od -An -tu1 -j4 -N1 $(TARGET)/libutf8.so | tr -d ' '); \
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAJOR@|$(MAJOR)|' \
	    -e "s|@SIZEOF_VOID_P@|$$((class * 4))|" -e "s|@BITS@|$$((class * 32))|" \
	    cmake/libutf8-config-version.cmake.in > $(1)/libutf8-config-version.cmake
	chmod 0644 $(1)/libutf8-config.cmake $(1)/libutf8-config-version.cmake
endef

# Regenerated on every run, so that it always shows the PREFIX of the last make.
$(BUILD)/libutf8.pc: pkgconfig/libutf8.pc.in $(BUILD)/native-static-libs FORCE
	$(call write_pc,$@)

# The utf8check command, compiled as a user would compile it: against the header and the shared
# library just built, so that it needs libutf8.so.1 at run time (no rpath: like any program
# using a system library, it finds it where it is installed, through ld.so's configuration).
$(BUILD)/utf8check: utf8check/utf8check.c include/libutf8.h $(BUILD)/native-static-libs
	$(CC) -std=c99 $(WARNINGS) $(CPPFLAGS) $(CFLAGS) -Iinclude $< \
	  -L$(TARGET) -lutf8 $(LDFLAGS) -o $@

# The header, include/libutf8.h, is committed and installed as it is: building the library does
# not generate it, so needs no crate. tools/gen-header generates it from the Rust sources with
# cbindgen (fetched from crates.io on first use); check-header compares the two. Built without
# optimisation: from scratch that takes half the time of a release build (28 s against 55 s on 2
# cores), and the unoptimised generator still runs in half a second.
GEN_HEADER = $(CARGO) run --quiet --locked --manifest-path tools/gen-header/Cargo.toml --
header:
	$(GEN_HEADER) . include/libutf8.h

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) fmt --manifest-path tools/gen-header/Cargo.toml -- --check
	$(CARGO) clippy --locked --manifest-path tools/gen-header/Cargo.toml -- -D warnings

# One man page name per function of libutf8(3) (its .SS sections, which check-man matches with
# the exported symbols), linked to that page, so that `man utf8_validate` finds it.
MAN3_LINKS := $(shell sed -n 's/^\.SS \([a-z0-9_]*\)()$$/\1/p' man/libutf8.3)

# Installs what `make` built; it builds only what is missing or older than its sources.
install: $(BUILD)/utf8check
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 0755 $(TARGET)/libutf8.so $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libutf8.so
	install -m 0644 $(TARGET)/libutf8.a $(DESTDIR)$(LIBDIR)/libutf8.a
	install -m 0644 include/libutf8.h $(DESTDIR)$(INCLUDEDIR)/libutf8.h
	$(call write_pc,$(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc)
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc
	$(call write_cmake,$(DESTDIR)$(CMAKEDIR))
	install -m 0755 $(BUILD)/utf8check $(DESTDIR)$(BINDIR)/utf8check
	install -m 0644 man/utf8check.1 $(DESTDIR)$(MANDIR)/man1/utf8check.1
	install -m 0644 man/libutf8.3 $(DESTDIR)$(MANDIR)/man3/libutf8.3
	for f in $(MAN3_LINKS); do ln -sf libutf8.3 $(DESTDIR)$(MANDIR)/man3/$$f.3; done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libutf8.so $(DESTDIR)$(LIBDIR)/libutf8.a \
	      $(DESTDIR)$(INCLUDEDIR)/libutf8.h $(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc \
	      $(DESTDIR)$(CMAKEDIR)/libutf8-config.cmake \
	      $(DESTDIR)$(CMAKEDIR)/libutf8-config-version.cmake \
	      $(DESTDIR)$(BINDIR)/utf8check $(DESTDIR)$(MANDIR)/man1/utf8check.1 \
	      $(DESTDIR)$(MANDIR)/man3/libutf8.3 $(MAN3_LINKS:%=$(DESTDIR)$(MANDIR)/man3/%.3)

clean:
	$(CARGO) clean
	rm -rf $(BUILD) bench/target bench/results fuzz/target tools/gen-header/target
	rm -f $(DIST)

# The source tarball, libutf8-VERSION.tar.gz: the committed tree at HEAD (git archive), so
# uncommitted changes are not included. It builds and tests without the network: the library
# has no crate dependency and Cargo.lock is committed.
DIST := libutf8-$(VERSION).tar.gz
dist:
	git archive --format=tar.gz --prefix=libutf8-$(VERSION)/ -o $(DIST) HEAD
	@echo "wrote $(DIST) (HEAD; uncommitted changes are not in it)"

# The benchmark suite: measures libutf8 against its peers and regenerates BENCHMARKS.md and
# bench/chart.svg (see bench/README.md). Not part of `make check`. Needs, besides what `make`
# needs: g++, utf8proc and GLib (apt-get install -y g++ libutf8proc-dev libglib2.0-dev).
bench: all
	CARGO="$(CARGO)" CC="$(CC)" PYTHON="$(PYTHON)" PKG_CONFIG="$(PKG_CONFIG)" \
	  LIBUTF8_CORPUS="$${LIBUTF8_CORPUS:-$(SHARED)/corpus}" bench/run.sh

# ---------------------------------------------------------------------------------------------
# Tests

#
# Two tiers. `make check` is the packager's suite: it runs offline, on any Linux architecture,
# with the distribution's Rust and C compiler, and skips, saying so, what needs a tool that is
# not installed. `make check-full` adds what needs the network, nightly Rust or emulators: the
# header compared with a fresh cbindgen run, Miri, the oldest supported Rust, the aarch64 and
# s390x runs under QEMU, and brief fuzzing. CI runs `make check-full`.
#
# Each stage records what it checked in $(RESULTS)/STAGE, a line each: "passed: WHAT", or
# "skipped: WHAT (needs TOOL)", also printed when it skips. A stage that records nothing counts
# as one pass. The summary line counts them.
CHECK_STAGES := rust version header abi c guard race stack valgrind install utf8check man
FULL_STAGES := header-fresh miri msrv aarch64 portable fuzz
RESULTS := $(BUILD)/results

# $(call begin,STAGE): forget what STAGE recorded in an earlier run.
begin = mkdir -p $(RESULTS) && : > $(RESULTS)/$(1)
# $(call passed,STAGE,WHAT) and $(call skipped,STAGE,WHAT,TOOL): record a result.
passed = echo "passed: $(2)" >> $(RESULTS)/$(1)
skipped = echo "skipped: $(2) (needs $(3))" | tee -a $(RESULTS)/$(1)
# $(call summary,NAME,STAGES): the skipped lines again, then "NAME: P passed, 0 failed, S
# skipped" (make stops at the first failure, so a summary has none).
define summary
	@passed=0; skipped=0; \
	for stage in $(2); do \
	  f=$(RESULTS)/$$stage; \
	  if [ -s $$f ]; then \
	    grep '^skipped:' $$f || true; \
	    passed=$$((passed + $$(grep -c '^passed:' $$f || true))); \
	    skipped=$$((skipped + $$(grep -c '^skipped:' $$f || true))); \
	  else passed=$$((passed + 1)); fi; \
	done; \
	echo "$(1): $$passed passed, 0 failed, $$skipped skipped"
endef

check: $(CHECK_STAGES:%=check-%)
	$(call summary,check,$(CHECK_STAGES))

check-full: check $(FULL_STAGES:%=check-%)
	$(call summary,check-full,$(CHECK_STAGES) $(FULL_STAGES))

check-rust:
	$(CARGO) test

# The oldest Rust that Cargo.toml's rust-version promises (1.85, Debian 13's) builds the C
# library as a distribution would and passes the whole Rust test suite, into a target directory
# of its own (target/ keeps the current toolchain's build). It predates AVX-512's target
# features and intrinsics (Rust 1.89): build.rs leaves the AVX-512 kernels out, the tests expect
# them absent, and the last line says whether the build script compiled them in. Needs that
# toolchain, which .ci/run installs: rustup toolchain install $(MSRV) --profile minimal.
MSRV := $(shell sed -n 's/^rust-version *= *"\([^"]*\)".*/\1/p' Cargo.toml)
check-msrv:
	@if rustup run $(MSRV) rustc --version >/dev/null 2>&1; then \
	  echo "CARGO_TARGET_DIR=$(BUILD)/msrv $(CARGO) +$(MSRV) build --release"; \
	  CARGO_TARGET_DIR=$(BUILD)/msrv $(CARGO) +$(MSRV) build --release || exit 1; \
	  echo "CARGO_TARGET_DIR=$(BUILD)/msrv $(CARGO) +$(MSRV) test"; \
	  CARGO_TARGET_DIR=$(BUILD)/msrv $(CARGO) +$(MSRV) test || exit 1; \
	  rustc=$$(rustup run $(MSRV) rustc --version); \
	  output=$$(ls -t $(BUILD)/msrv/debug/build/libutf8-[0-9a-f]*/output | head -n 1); \
	  if grep -qx 'cargo::rustc-cfg=libutf8_avx512' "$$output"; then \
	    echo "check-msrv: $$rustc: AVX-512 kernels compiled in"; \
	  else \
	    echo "check-msrv: $$rustc: AVX-512 kernels not compiled in (they need Rust 1.89)"; \
	  fi; \
	else \
	  echo "check-msrv: SKIPPED: no Rust $(MSRV) toolchain" \
	       "(rustup toolchain install $(MSRV) --profile minimal)"; \
	fi

# The Rust tests under Miri: the FFI layer, the scalar code and the SIMD kernels, whose target
# features are enabled at compile time so that Miri runs them. Under Miri the randomized tests
# sample less and the exhaustive sweeps are skipped (too slow to interpret). Miri interprets on
# one core, so the test files run as two processes side by side: the heaviest one (the
# converters), and all the others; both outputs are printed when both have ended, pass or fail.
# (Not AVX-512: a fourth implementation would lengthen every test, and Miri does not implement
# the byte compression of its UTF-16 to UTF-8 step; docs/TESTING.md gives the command that
# checks its validation kernel.)
MIRI_RUSTFLAGS := -C target-feature=+sse4.2,+popcnt,+avx2
MIRI_HEAVY := transcode
# Not under Miri: tests/chunks.rs, the chunked conversions through the C API (safe code above
# the converters, which tests/transcode.rs and tests/ffi.rs take through Miri), whose property
# runs thousands of conversions per input.
MIRI_SKIPPED := chunks
MIRI_OTHERS := $(filter-out $(MIRI_HEAVY) $(MIRI_SKIPPED),$(basename $(notdir $(wildcard tests/*.rs))))
MIRI_TEST = RUSTFLAGS='$(MIRI_RUSTFLAGS)' $(CARGO) +nightly miri test
check-miri:
	@$(call begin,miri)
	@if $(CARGO) +nightly miri --version >/dev/null 2>&1; then \
	  mkdir -p $(BUILD) || exit 1; \
	  $(MIRI_TEST) --no-run || exit 1; \
	  echo "$(MIRI_TEST) $(MIRI_HEAVY:%=--test %) &"; \
	  echo "$(MIRI_TEST) --lib $(MIRI_OTHERS:%=--test %)"; \
	  { $(MIRI_TEST) $(MIRI_HEAVY:%=--test %) > $(BUILD)/miri-heavy.log 2>&1 && heavy=0 || \
	    heavy=$$?; echo $$heavy > $(BUILD)/miri-heavy.status; } & \
	  $(MIRI_TEST) --lib $(MIRI_OTHERS:%=--test %) > $(BUILD)/miri-others.log 2>&1 && others=0 || \
	    others=$$?; \
	  wait; cat $(BUILD)/miri-others.log $(BUILD)/miri-heavy.log; \
	  test $$others = 0 && test "$$(cat $(BUILD)/miri-heavy.status)" = 0; \
	else \
	  $(call skipped,miri,the Rust tests under Miri,nightly Rust with Miri); \
	fi

# Clippy for aarch64, and the Rust tests of the validation kernels and of the converters
# through every implementation built for aarch64 and run under QEMU's user-mode emulation: the
# NEON kernel and the portable code, on a machine that is not aarch64. Under emulation a test
# runs about 50 times slower than natively, so these are the kernels' test files (about two
# minutes) and the converters' tests of the validated stretches (the whole suite passes too,
# in several minutes more: `make check-aarch64 AARCH64_TESTS=`). Needs the Rust target, QEMU
# and a cross linker,
# which .ci/run installs: `rustup target add aarch64-unknown-linux-gnu`, `apt-get install
# qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross`.
AARCH64 := aarch64-unknown-linux-gnu
AARCH64_TESTS ?= --lib --test kernels --test oracle --test security --test ffi --test boundary
# (A filter after `--` applies to every test file of a run: these run on their own.)
AARCH64_TRANSCODE_TESTS := implementations_are_tested_here \
  a_few_inputs_through_every_implementation errors_and_capacities_around_the_validated_stretches \
  every_error_at_every_offset_of_the_first_blocks
AARCH64_TEST = CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
  $(CARGO) test --release --target $(AARCH64)
check-aarch64:
	@$(call begin,aarch64)
	@if rustup target list --installed 2>/dev/null | grep -qx $(AARCH64) && \
	    command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; then \
	  echo "$(CARGO) clippy --target $(AARCH64) --all-targets -- -D warnings"; \
	  $(CARGO) clippy --target $(AARCH64) --all-targets -- -D warnings || exit 1; \
	  echo "$(CARGO) test --release --target $(AARCH64) $(AARCH64_TESTS)"; \
	  $(AARCH64_TEST) $(AARCH64_TESTS) || exit 1; \
	  echo "$(CARGO) test --release --target $(AARCH64) --test transcode --" \
	       "$(AARCH64_TRANSCODE_TESTS)"; \
	  $(AARCH64_TEST) --test transcode -- $(AARCH64_TRANSCODE_TESTS); \
	else \
	  $(call skipped,aarch64,the NEON kernel's tests under QEMU,the $(AARCH64) Rust target$(comma) \
	    qemu-aarch64 and aarch64-linux-gnu-gcc); \
	fi

# The portable (scalar) implementation where no SIMD one exists: Clippy for a 32-bit target
# (i686) and for a big-endian one (s390x), and the s390x build of the tests of the validator,
# the decoder, the C API and the streams run under QEMU, so that byte order and word size are
# not assumed. About a minute and a half, most of it building. Needs the Rust targets, QEMU and a cross
# linker for s390x, which .ci/run installs: `rustup target add i686-unknown-linux-gnu
# s390x-unknown-linux-gnu`, `apt-get install qemu-user gcc-s390x-linux-gnu
# libc6-dev-s390x-cross`.
PORTABLE_TARGETS := i686-unknown-linux-gnu s390x-unknown-linux-gnu
S390X := s390x-unknown-linux-gnu
PORTABLE_TESTS ?= --lib --test oracle --test security --test ffi --test boundary --test stream \
  --test lossy --test escape
check-portable:
	@$(call begin,portable)
	@if [ "$$(rustup target list --installed 2>/dev/null | grep -cxF \
	        -e $(word 1,$(PORTABLE_TARGETS)) -e $(word 2,$(PORTABLE_TARGETS)))" = 2 ] && \
	    command -v qemu-s390x >/dev/null && command -v s390x-linux-gnu-gcc >/dev/null; then \
	  for t in $(PORTABLE_TARGETS); do \
	    echo "$(CARGO) clippy --target $$t --all-targets -- -D warnings"; \
	    $(CARGO) clippy --target $$t --all-targets -- -D warnings || exit 1; \
	  done; \
	  echo "$(CARGO) test --release --target $(S390X) $(PORTABLE_TESTS)"; \
	  CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc \
	  CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="qemu-s390x -L /usr/s390x-linux-gnu" \
	    $(CARGO) test --release --target $(S390X) $(PORTABLE_TESTS) || exit 1; \
	else \
	  $(call skipped,portable,the i686 and s390x builds and s390x tests under QEMU,the Rust \
	    targets $(PORTABLE_TARGETS)$(comma) qemu-s390x and s390x-linux-gnu-gcc); \
	fi

# The header must declare only names with the library's prefixes, and must compile as C and C++, alone and after the system headers (whose
# declarations it must not contradict), also under the stricter warnings that some programs
# build with (its inline code is compiled as part of theirs). With GCC, and with clang where it
# is installed (.ci/run installs it): the two warn differently (clang++ reports NULL under
# -Wzero-as-null-pointer-constant, g++ does not). The header is compiled from a file that
# includes it: clang warns of an unused static inline function in the file it is given.
HEADER_C_WARNINGS := -Wconversion -Wsign-conversion -Wcast-qual -Wshadow -Wstrict-prototypes \
  -Wmissing-prototypes -Wundef
HEADER_CXX_WARNINGS := -Wold-style-cast -Wconversion -Wsign-conversion -Wcast-qual -Wshadow \
  -Wundef -Wzero-as-null-pointer-constant
CLANG := $(shell command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1 && echo y)
CXX_FOUND := $(shell command -v $(CXX) >/dev/null 2>&1 && echo y)
# $(call compile_header_c,C compiler) and $(call compile_header_cxx,C++ compiler,C++ warnings of
# that compiler alone)
define compile_header_c
	for std in c99 c11; do \
	  printf '#include "libutf8.h"\n' | \
	    $(1) -std=$$std $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS) $(HEADER_C_WARNINGS) -Iinclude \
	      -fsyntax-only -x c -; \
	  printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n#include "libutf8.h"\n' | \
	    $(1) -std=$$std -D_POSIX_C_SOURCE=200809L $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS) -Iinclude \
	      -fsyntax-only -x c -; done
endef
define compile_header_cxx
	for std in c++11 c++17; do \
	  printf '#include "libutf8.h"\n' | \
	    $(1) -std=$$std $(CPPFLAGS) $(CXXFLAGS) $(CSTD_FLAGS) $(HEADER_CXX_WARNINGS) $(2) \
	      -Iinclude -fsyntax-only -x c++ -; \
	  printf '#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <unistd.h>\n#include "libutf8.h"\n' | \
	    $(1) -std=$$std $(CPPFLAGS) $(CXXFLAGS) $(CSTD_FLAGS) -Iinclude -fsyntax-only -x c++ -; done
endef
check-header:
	@$(call begin,header)
	$(PYTHON) c-tests/header_names.py include/libutf8.h
	$(call compile_header_c,$(CC))
	@$(call passed,header,the header compiled as C by $(CC))
ifeq ($(CXX_FOUND),y)
	$(call compile_header_cxx,$(CXX),$(if $(findstring clang,$(CXX)),,-Wuseless-cast))
	@$(call passed,header,the header compiled as C++ by $(CXX))
else
	@$(call skipped,header,the header compiled as C++,a C++ compiler: $(CXX))
endif
ifeq ($(CLANG),y)
	$(call compile_header_c,clang)
	$(call compile_header_cxx,clang++,)
	@$(call passed,header,the header compiled as C and C++ by clang and clang++)
else
	@$(call skipped,header,the header compiled as C and C++ by clang and clang++,clang)
endif

# The committed header is what cbindgen generates from the sources now (check-full: the
# generator's crates come from crates.io on first use).
check-header-fresh:
	@mkdir -p $(BUILD)
	$(GEN_HEADER) . $(BUILD)/libutf8.h
	@cmp -s include/libutf8.h $(BUILD)/libutf8.h || \
	  { echo "include/libutf8.h differs from a fresh generation: run 'make header'"; \
	    diff -u include/libutf8.h $(BUILD)/libutf8.h; exit 1; }

# The shared library exports the committed symbol list and nothing else, under its soname,
# each function with the version node of the release that added it (c-tests/symbol-versions.txt,
# from capi/libutf8.map; GNU ld also lists each node as an absolute symbol of its own name).
# No panic can reach C, and nothing allocates: a program that references every exported
# function, linked with the static library and with unreferenced sections removed, holds
# no panic or allocator code at all (the linker follows every reference, function-pointer
# tables included). Then a program referencing every function, linked against the versioned
# library, needs LIBUTF8_1.0 to 1.2 and runs; and the same program linked against an
# unversioned libutf8.so.1, as releases up to 1.2.0 were (a stand-in with the same soname and
# names), runs against this one too: ld.so binds an unversioned reference to the default version.
ABI_COMPAT := $(BUILD)/abi-compat
check-abi: all
	nm -D --defined-only --with-symbol-versions $(TARGET)/libutf8.so | \
	  awk '!($$2 == "A" && $$3 ~ /^LIBUTF8_/) { print $$3 }' | sort > $(BUILD)/symbol-versions.txt
	diff -u c-tests/symbol-versions.txt $(BUILD)/symbol-versions.txt
	sed 's/@.*//' $(BUILD)/symbol-versions.txt > $(BUILD)/symbols.txt
	diff -u c-tests/exported-symbols.txt $(BUILD)/symbols.txt
	readelf -d $(TARGET)/libutf8.so | grep -q 'SONAME.*\[$(SONAME)\]'
	{ echo '/* Generated from c-tests/exported-symbols.txt by the Makefile. */'; \
	  echo '#include <stdint.h>'; \
	  echo '#include <stdio.h>'; \
	  sed 's/.*/extern char &[];/' c-tests/exported-symbols.txt; \
	  echo 'int main(void) {'; \
	  sed 's/.*/  printf("%p\\n", (void *)\&&);/' c-tests/exported-symbols.txt;  \
	  echo '  return 0;'; \
	  echo '}'; } > $(BUILD)/every_function.c
	$(CC) -O2 $(BUILD)/every_function.c $(TARGET)/libutf8.a -Wl,--gc-sections \
	  $$(cat $(BUILD)/native-static-libs) -o $(BUILD)/every_function
	test $$($(BUILD)/every_function | wc -l) = $$(wc -l < c-tests/exported-symbols.txt)
	@if nm -C $(BUILD)/every_function | grep -E 'panic|rust_begin_unwind|__rust_alloc|__rdl_alloc'; then \
	  echo "check-abi: the library has a path to a panic or an allocation (symbols above)"; exit 1; fi
	rm -rf $(ABI_COMPAT)
	mkdir -p $(ABI_COMPAT)/unversioned $(ABI_COMPAT)/run
	ln -s $(abspath $(TARGET)/libutf8.so) $(ABI_COMPAT)/run/$(SONAME)
	{ echo '/* Generated from c-tests/exported-symbols.txt by the Makefile. */'; \
	  echo '#include <stdio.h>'; \
	  echo 'typedef void function(void);'; \
	  sed 's/.*/extern function &;/' c-tests/exported-symbols.txt; \
	  echo 'static function *const functions[] = {'; \
	  sed 's/.*/  &,/' c-tests/exported-symbols.txt; \
	  echo '};'; \
	  echo 'int main(void) {'; \
	  echo '  size_t n = 0;'; \
	  echo '  for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) n += functions[i] != 0;'; \
	  echo '  printf("%zu functions\n", n);'; \
	  echo "  return n != $$(wc -l < c-tests/exported-symbols.txt);"; \
	  echo '}'; } > $(ABI_COMPAT)/every_function.c
	$(CC) -O2 $(ABI_COMPAT)/every_function.c -L$(TARGET) -lutf8 -o $(ABI_COMPAT)/versioned
	test "$$(readelf -V $(ABI_COMPAT)/versioned | grep -o 'Name: LIBUTF8_1\.[0-9]*' | sort | uniq | \
	  tr '\n' ' ')" = "Name: LIBUTF8_1.0 Name: LIBUTF8_1.1 Name: LIBUTF8_1.2 "
	LD_BIND_NOW=1 LD_LIBRARY_PATH=$(ABI_COMPAT)/run $(ABI_COMPAT)/versioned
	sed 's/.*/void &(void) {}/' c-tests/exported-symbols.txt > $(ABI_COMPAT)/unversioned.c
	$(CC) -shared -fPIC -Wl,-soname,$(SONAME) $(ABI_COMPAT)/unversioned.c \
	  -o $(ABI_COMPAT)/unversioned/libutf8.so
	$(CC) -O2 $(ABI_COMPAT)/every_function.c -L$(ABI_COMPAT)/unversioned -lutf8 \
	  -o $(ABI_COMPAT)/linked-unversioned
	@if readelf -V $(ABI_COMPAT)/linked-unversioned | grep LIBUTF8_; then \
	  echo "check-abi: the program linked against the unversioned stand-in needs versions"; exit 1; fi
	LD_BIND_NOW=1 LD_LIBRARY_PATH=$(ABI_COMPAT)/run $(ABI_COMPAT)/linked-unversioned

# The implementations LIBUTF8_FORCE_ISA names, those the library built here runs on this machine,
# and the one it picks, asked of the library itself (c-tests/isa_probe.c): a name it cannot use
# is reported on standard error with the one it uses instead, and a usable one is not.
ISA_NAMES := scalar sse4.2 avx2 avx512 avx512-zen4 neon
ISA_PROBE := $(BUILD)/isa_probe
ISAS = $(shell for isa in $(ISA_NAMES); do \
  [ -n "$$(LIBUTF8_FORCE_ISA=$$isa $(ISA_PROBE) 2>&1 >/dev/null)" ] || echo $$isa; done)
BEST_ISA = $(shell LIBUTF8_FORCE_ISA=none $(ISA_PROBE) 2>&1 >/dev/null | sed -n 's/.*; using //p')
# A name the library does not run here.
UNUSABLE_ISA = $(firstword $(filter-out $(ISAS),$(ISA_NAMES)))
$(ISA_PROBE): c-tests/isa_probe.c include/libutf8.h $(BUILD)/native-static-libs
	$(CC) -std=c99 $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS) -Iinclude $< $(TARGET)/libutf8.a \
	  $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) -o $@

# Runs the command line $(1) once per implementation in ISAS, all at once (the programs run
# on one core each), then prints their outputs in turn, failing if one failed or if the
# library reported that the forced implementation is not in use. (An `if`, not `! grep`: bash
# -e does not stop at a negated command, so only the last pass's `! grep` decided the status.)
define per_isa
	for isa in $(ISAS); do \
	  { status=0; LIBUTF8_FORCE_ISA=$$isa $(1) > $(BUILD)/isa-$$isa.out \
	      2> $(BUILD)/isa-$$isa.err || status=$$?; echo $$status > $(BUILD)/isa-$$isa.status; } & \
	done; \
	wait; \
	for isa in $(ISAS); do \
	  echo "== LIBUTF8_FORCE_ISA=$$isa $(1)"; \
	  cat $(BUILD)/isa-$$isa.out; cat $(BUILD)/isa-$$isa.err >&2; \
	  test "$$(cat $(BUILD)/isa-$$isa.status)" = 0; \
	  if grep -q 'LIBUTF8_FORCE_ISA' $(BUILD)/isa-$$isa.err; then exit 1; fi; \
	done
endef

# The C harness, built from the installed header and run against the installed shared and
# static libraries, and once without the header's inline code, under AddressSanitizer and
# UndefinedBehaviorSanitizer where the compiler has them; the static build once per
# implementation; and once built with clang where it is installed.
STAGE := $(abspath $(BUILD)/stage)
STAGE_LIB := $(STAGE)$(LIBDIR)
STAGE_INC := $(STAGE)$(INCLUDEDIR)

# The arguments that make the C harness replay Kuhn's file, or none where it is absent (as a
# shell command substitution: the expected file is made by the run).
KUHN_ARGS = $$([ -s $(BUILD)/kuhn-expected.txt ] && echo "$(KUHN) $(BUILD)/kuhn-expected.txt" || true)

$(BUILD)/kuhn-expected.txt: c-tests/lossy_oracle.py
	@if [ -f $(KUHN) ]; then $(PYTHON) c-tests/lossy_oracle.py $(KUHN) > $@; \
	 else echo "$(KUHN) absent: the stress-test comparison will be skipped"; : > $@; fi

# C test programs: the user's flags, then the tests' own (warnings as errors, sanitizers).
TEST_CC = $(CC) $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS)
# The sources of the C harness and of the guard-page program: each its main file and its own
# files, then the check layer, the reference codec and the converters behind one signature,
# which both share.
C_SHARED_SRC := c-tests/check.c c-tests/reference.c c-tests/calls.c
TEST_API_SRC := $(addprefix c-tests/,test_api.c api_decode.c api_encode.c api_args.c \
  api_forms.c api_text.c api_convert.c api_kuhn.c) $(C_SHARED_SRC)
GUARD_PAGES_SRC := $(addprefix c-tests/,guard_pages.c guard_arena.c guard_inputs.c guard_run.c \
  guard_text.c guard_validate.c guard_encode.c guard_forms.c guard_convert.c \
  guard_convert_build.c guard_convert_spare.c) $(C_SHARED_SRC)
# $(call sanitized,STAGE,WHAT): records whether WHAT ran under the sanitizers.
sanitized = $(if $(SANITIZERS),$(call passed,$(1),$(2) under ASan and UBSan),\
  $(call skipped,$(1),$(2) under ASan and UBSan,a compiler with -fsanitize=address$(comma)undefined))

check-c: all $(BUILD)/kuhn-expected.txt $(ISA_PROBE)
	@$(call begin,c)
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(STAGE)
	$(TEST_CC) -std=c99 $(SANITIZE) -I$(STAGE_INC) $(TEST_API_SRC) \
	  -L$(STAGE_LIB) -lutf8 -Wl,-rpath,$(STAGE_LIB) $(LDFLAGS) -o $(BUILD)/test_api_shared
	$(TEST_CC) -std=c99 $(SANITIZE) -I$(STAGE_INC) $(TEST_API_SRC) \
	  $(STAGE_LIB)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/test_api_static
	$(TEST_CC) -std=c99 $(SANITIZE) -DLIBUTF8_NO_INLINE -I$(STAGE_INC) $(TEST_API_SRC) \
	  $(STAGE_LIB)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/test_api_no_inline
	@# The A/B tools of bench/c are not run here, but must keep compiling.
	for f in bench/c/ab_*.c; do \
	  $(TEST_CC) -std=c11 -I$(STAGE_INC) -c $$f -o $(BUILD)/$$(basename $$f .c).o || exit 1; \
	done
	kuhn_args=$(KUHN_ARGS); \
	for t in shared no_inline; do \
	  echo "== C harness, $$t library"; $(BUILD)/test_api_$$t $$kuhn_args; done; \
	$(call per_isa,$(BUILD)/test_api_static $$kuhn_args)
	@$(call passed,c,the C harness: $(ISAS))
	@$(call sanitized,c,the C harness)
ifeq ($(CLANG),y)
	@# Built with clang as well (without sanitizers: their runtime is a package of its own), so
	@# that the header's inline decoder as clang compiles it is compared with the library's.
	clang -std=c99 $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS) -O2 -I$(STAGE_INC) $(TEST_API_SRC) \
	  $(STAGE_LIB)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/test_api_clang
	@echo "== C harness, built with clang"
	$(BUILD)/test_api_clang $(KUHN_ARGS)
	@$(call passed,c,the C harness built with clang)
else
	@$(call skipped,c,the C harness built with clang,clang)
endif
	@# A value that is not an implementation, or one this CPU lacks, is reported once and the
	@# best implementation used (the harness passing shows it works).
	@# (The best is one of those this machine runs.)
	test -n "$(filter $(BEST_ISA),$(ISAS))"
	for forced in bogus $(UNUSABLE_ISA); do \
	  echo "== LIBUTF8_FORCE_ISA=$$forced (reported, ignored)"; \
	  LIBUTF8_FORCE_ISA=$$forced $(BUILD)/test_api_static > /dev/null 2> $(BUILD)/isa-stderr; \
	  reason=$$([ $$forced = bogus ] && echo "is unknown" || echo "is not supported by this CPU"); \
	  diff <(echo "libutf8: LIBUTF8_FORCE_ISA=$$forced $$reason; using $(BEST_ISA)") \
	    $(BUILD)/isa-stderr; \
	done
	@# Threads making their first calls at once (c-tests/first_use_race.c): right results, and
	@# an ignored value reported once, in one line, escaped; an empty value is no value.
	$(TEST_CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(SANITIZE) -I$(STAGE_INC) \
	  c-tests/first_use_race.c $(STAGE_LIB)/libutf8.a $(LDFLAGS) \
	  $$(cat $(BUILD)/native-static-libs) -pthread -o $(BUILD)/first_use_race
	for run in $$(seq 20); do \
	  LIBUTF8_FORCE_ISA=bogus $(BUILD)/first_use_race 2> $(BUILD)/isa-stderr; \
	  diff <(echo "libutf8: LIBUTF8_FORCE_ISA=bogus is unknown; using $(BEST_ISA)") \
	    $(BUILD)/isa-stderr; \
	done
	LIBUTF8_FORCE_ISA=$$'av\033x2 \\' $(BUILD)/first_use_race 2> $(BUILD)/isa-stderr
	diff <(printf '%s%s\n' 'libutf8: LIBUTF8_FORCE_ISA=av\x1bx2\x20\x5c is unknown; using ' \
	  $(BEST_ISA)) $(BUILD)/isa-stderr
	LIBUTF8_FORCE_ISA= $(BUILD)/first_use_race 2> $(BUILD)/isa-stderr
	test ! -s $(BUILD)/isa-stderr
	for first in 0 1 2 3 4 5; do $(BUILD)/first_use_race $$first || exit 1; done

# Over-read guards (c-tests/guard_pages.c and guard_*.c): every input against a PROT_NONE page,
# under AddressSanitizer and UndefinedBehaviorSanitizer where the compiler has them, once per
# implementation.
check-guard: all $(ISA_PROBE)
	@$(call begin,guard)
	$(TEST_CC) -std=c99 -D_DEFAULT_SOURCE $(SANITIZE) -Iinclude \
	  $(GUARD_PAGES_SRC) $(TARGET)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/guard_pages
	$(call per_isa,$(BUILD)/guard_pages)
	@$(call passed,guard,the guard pages: $(ISAS))
	@$(call sanitized,guard,the guard pages)

# Input that changes during the call (c-tests/input_race.c): a second thread flips input bytes
# while every function runs against guard pages, for INPUT_RACE_MS per implementation, one
# implementation after another (side by side, the runs would share the cores and race less).
# Built without sanitizers: the race is the test, and the guard pages catch what it breaks.
INPUT_RACE_MS ?= 1500
check-race: all $(ISA_PROBE)
	$(TEST_CC) -std=c11 -O2 -Iinclude c-tests/input_race.c c-tests/check.c $(TARGET)/libutf8.a \
	  $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) -pthread -o $(BUILD)/input_race
	for isa in $(ISAS); do \
	  LIBUTF8_FORCE_ISA=$$isa INPUT_RACE_MS=$(INPUT_RACE_MS) $(BUILD)/input_race || exit 1; done

# Stack use (c-tests/stack_use.c): each function's deepest call against its bound, measured on
# a pattern-filled thread stack, once per implementation; built without sanitizers, which
# would change the frames, and without the user's CFLAGS and CPPFLAGS: the measure is of the
# library, and assumes the harness's own frames (hardening flags such as
# -fstack-clash-protection probe the pattern the measure reads).
check-stack: all $(ISA_PROBE)
	$(CC) $(CSTD_FLAGS) -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Iinclude \
	  c-tests/stack_use.c c-tests/check.c $(TARGET)/libutf8.a $(LDFLAGS) \
	  $$(cat $(BUILD)/native-static-libs) -lpthread -o $(BUILD)/stack_use
	$(call per_isa,$(BUILD)/stack_use)

# Both C programs under valgrind memcheck, built without sanitizers (and without the header's
# inline code, so that every call reaches the library), on the best implementation; the guard
# page sweeps sampled (every 16th input: they run in full under ASan once per implementation).
VALGRIND_FOUND := $(shell command -v $(VALGRIND) >/dev/null 2>&1 && echo y)
check-valgrind: all $(BUILD)/kuhn-expected.txt
	@$(call begin,valgrind)
ifeq ($(VALGRIND_FOUND),y)
	$(TEST_CC) -std=c99 -D_DEFAULT_SOURCE -g -O1 -Iinclude \
	  $(GUARD_PAGES_SRC) $(TARGET)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/guard_pages_valgrind
	$(TEST_CC) -std=c99 -g -O1 -DLIBUTF8_NO_INLINE -Iinclude \
	  $(TEST_API_SRC) $(TARGET)/libutf8.a $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) \
	  -o $(BUILD)/test_api_valgrind
	GUARD_PAGES_SAMPLE=16 $(VALGRIND) --error-exitcode=1 --leak-check=full -q \
	  $(BUILD)/guard_pages_valgrind
	kuhn_args=$(KUHN_ARGS); \
	$(VALGRIND) --error-exitcode=1 --leak-check=full -q $(BUILD)/test_api_valgrind $$kuhn_args
else
	@$(call skipped,valgrind,the C harness and guard pages under valgrind,valgrind)
endif

# Coverage-guided fuzzing (FUZZING.md): every target of fuzz/ for FUZZ_SECONDS each, as many
# at a time as there are cores (FUZZ_JOBS); make check runs each for CHECK_FUZZ_SECONDS where
# nightly Rust and cargo-fuzz are installed.
FUZZ_SECONDS ?= 600
CHECK_FUZZ_SECONDS ?= 10
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

fuzz:
	FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(FUZZ_SECONDS)

check-fuzz:
	@$(call begin,fuzz)
	@if $(CARGO) +nightly fuzz --version >/dev/null 2>&1; then \
	  echo "FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS)"; \
	  FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS); \
	else \
	  $(call skipped,fuzz,brief fuzzing,cargo-fuzz on nightly Rust); \
	fi

# A user's view: install, build programs with nothing but pkg-config, CMake's find_package and
# Meson's dependency() (where those are installed), run them, uninstall.
check-install: all
	@$(call begin,install)
	c-tests/install_check.sh "$(MAKE)" $(abspath $(BUILD)/install-check) $(LIBDIR) $(PKGCONFIGDIR) \
	  $(INCLUDEDIR) $(BINDIR) $(MANDIR) $(VERSION) | tee $(BUILD)/install-check.log
	@$(call passed,install,the install check with pkg-config)
	@grep '^skipped:' $(BUILD)/install-check.log >> $(RESULTS)/install || true

# utf8check end to end, run from a staged installation (utf8check/test.sh).
UTF8CHECK_STAGE := $(abspath $(BUILD)/utf8check-stage)
# `make` builds it without -Werror; here its warnings are errors.
check-utf8check: all
	$(TEST_CC) -std=c99 -Iinclude -fsyntax-only utf8check/utf8check.c
	rm -rf $(UTF8CHECK_STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(UTF8CHECK_STAGE)
	PYTHON="$(PYTHON)" utf8check/test.sh $(UTF8CHECK_STAGE) $(BINDIR) $(LIBDIR) $(MANDIR) \
	  $(VERSION) $(abspath $(BUILD)/utf8check-test) $(SHARED)

# The man pages render without a warning, libutf8(3) has a section for every exported function,
# and its table of statuses has the names and values of the header's utf8_status, no more, no
# less (the values are ABI).
check-man:
	@missing=$$(sed 's/.*/^\\.SS &()$$/' c-tests/exported-symbols.txt | \
	  while IFS= read -r pattern; do grep -q "$$pattern" man/libutf8.3 || echo "$$pattern"; done); \
	if [ -n "$$missing" ]; then echo "man/libutf8.3 lacks:" $$missing; exit 1; fi
	@header=$$(sed -n -e '/^typedef enum utf8_status {/,/^} utf8_status;/{' \
	  -e 's/^ *\(UTF8_[A-Z_]*\) = \(-\?[0-9]*\),$$/\1 \2/p' -e '}' include/libutf8.h | sort); \
	man=$$(sed -n -e '/^\.SH STATUS CODES/,/^\.TE/{' -e 's/\\-/-/' \
	  -e 's/^\(UTF8_[A-Z_]*\)\t\(-\?[0-9]*\)\t.*/\1 \2/p' -e '}' man/libutf8.3 | sort); \
	if [ -z "$$header" ] || [ "$$header" != "$$man" ]; then \
	  echo "man/libutf8.3's STATUS CODES (+) differ from utf8_status in include/libutf8.h (-):"; \
	  diff <(echo "$$header") <(echo "$$man") | sed -n 's/^</-/p;s/^>/+/p'; exit 1; fi
	@$(call begin,man)
	@$(call passed,man,libutf8(3) against the exported symbols and the header's statuses)
	@if command -v groff >/dev/null; then \
	  for page in man/libutf8.3 man/utf8check.1; do \
	    echo "groff -t -man -Tutf8 -ww -z $$page"; \
	    out=$$(groff -t -man -Tutf8 -ww -z $$page 2>&1); \
	    if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; done; \
	  $(call passed,man,the man pages rendered by groff without a warning); \
	else $(call skipped,man,the man pages rendered by groff,groff); fi
	@if command -v mandoc >/dev/null; then \
	  echo "mandoc -T lint -W warning man/libutf8.3 man/utf8check.1"; \
	  mandoc -T lint -W warning man/libutf8.3 man/utf8check.1; \
	  $(call passed,man,the man pages linted by mandoc); \
	else $(call skipped,man,the man pages linted by mandoc,mandoc); fi

# The version, kept in Cargo.toml, where the sources state it: the header's macros and the man
# pages' titles. (The Makefile writes it into the pkg-config file and the library's file name,
# and utf8_version() returns it: check-install and check-utf8check compare those.)
check-version:
	@header=$$(sed -n 's/^#define LIBUTF8_VERSION_[A-Z]* \([0-9]*\)$$/\1/p' include/libutf8.h | \
	  paste -sd.); \
	if [ "$$header" != "$(VERSION)" ]; then \
	  echo "include/libutf8.h says $$header, Cargo.toml $(VERSION): run 'make header'"; exit 1; fi
	@for page in man/libutf8.3 man/utf8check.1; do \
	  grep -q '^\.TH .* "libutf8 $(VERSION)" ' $$page || \
	    { echo "$$page: its .TH line does not say libutf8 $(VERSION)"; exit 1; }; done
