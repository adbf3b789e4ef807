# libutf8: `make` builds, `make check` tests, `make install` installs, `make dist` writes the
# source tarball (see README.md). This file holds what a user or a packager sets and the
# targets they run; the rules are in mk/, the longer recipes in scripts/.

# ---------------------------------------------------------------------------------------------
# What a user or a packager sets (on make's command line or in the environment)

# The tools.
CARGO ?= cargo
CC ?= cc
CXX ?= c++
PYTHON ?= python3
PKG_CONFIG ?= pkg-config
VALGRIND ?= valgrind

# Where `make install` puts the files; DESTDIR stages the installation under another root.
PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/libutf8
BINDIR ?= $(EXEC_PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

# CFLAGS, CPPFLAGS and LDFLAGS from the environment or the command line are passed to every
# compilation and link of C, a distribution's hardening flags included. Warnings are errors in
# the test tiers only: a warning that a newer compiler adds must not break a build.
CFLAGS ?= -O2

# The shared test data lives beside the clone in CI; a user's clone may not have it.
SHARED ?= ../shared

# The tests' knobs (docs/TESTING.md): how long check-race runs each implementation; how long
# `make fuzz` and check-fuzz run each fuzz target, and how many at a time; the Rust tests that
# check-aarch64 and check-portable run under QEMU, and check-i686 natively (empty: the whole
# suite).
INPUT_RACE_MS ?= 1500
FUZZ_SECONDS ?= 600
CHECK_FUZZ_SECONDS ?= 5
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
AARCH64_TESTS ?= --lib --test kernels --test oracle --test security --test ffi --test boundary
PORTABLE_TESTS ?= --lib --test oracle --test security --test ffi --test boundary --test stream \
  --test lossy --test escape --test lengths --test detect --test transcode --test latin1 \
  --test strategies
I686_TESTS ?= $(PORTABLE_TESTS)

# ---------------------------------------------------------------------------------------------
# The targets, and the file of mk/ that holds each one's rule:
#
#   all          (the default) the C library, target/release/libutf8.so and .a;   build.mk
#                build/libutf8.pc; build/utf8check
#   header       regenerates include/libutf8.h with cbindgen                      build.mk
#   install      installs what `make` built (PREFIX, DESTDIR, ...)                install.mk
#   uninstall    removes what `make install` installed (the same variables)       install.mk
#   check        the packager's tests, offline; skips what needs an absent tool   check.mk
#                (docs/TESTING.md); a stage alone: make check-STAGE
#   check-full   check, and what needs the network, nightly Rust, emulators (CI)  check-full.mk
#   lint         rustfmt and clippy over the library and the header's generator   dev.mk
#   dist         libutf8-VERSION.tar.gz of the committed tree                     dev.mk
#   bench        the benchmarks against libutf8's peers (bench/README.md)         dev.mk
#   fuzz         every fuzz target for FUZZ_SECONDS (FUZZING.md)                  dev.mk
#   clean        removes what the targets above wrote                             dev.mk

.DEFAULT_GOAL := all

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DELETE_ON_ERROR:

# The build, what this machine has (compilers, sanitizers, tools), the installation, the two
# test tiers, the developer's targets.
include mk/build.mk mk/detect.mk mk/install.mk mk/check.mk mk/check-full.mk mk/dev.mk
