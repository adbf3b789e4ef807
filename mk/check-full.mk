# The stages that `make check-full` adds to `make check` (see mk/check.mk): they need the
# network, nightly Rust, an older Rust or emulators, and each says it skipped where its tools
# are absent (.ci/run installs them). Under `make -j`, jobs start in the order of check-full's
# prerequisites: the longest first, Miri, then check-rust (the longest of `make check`, whose
# last minutes run one test alone: ended last, it left a core idle), then the others.
FULL_STAGES := miri aarch64 msrv portable reproducible i686 musl fuzz peers header-fresh

.PHONY: check-full $(FULL_STAGES:%=check-%)

check-full: check-miri check-rust $(filter-out check-miri,$(FULL_STAGES:%=check-%)) check
	@$(call summary,check-full,$(CHECK_STAGES) $(FULL_STAGES))

# The committed header is what cbindgen generates from the sources now (the generator's crates
# come from crates.io on first use).
check-header-fresh:
	@mkdir -p $(BUILD)
	$(GEN_HEADER) . $(BUILD)/libutf8.h
	@cmp -s include/libutf8.h $(BUILD)/libutf8.h || \
	  { echo "include/libutf8.h differs from a fresh generation: run 'make header'"; \
	    diff -u include/libutf8.h $(BUILD)/libutf8.h; exit 1; }

# The Rust tests under Miri: the FFI layer, the scalar code and the SIMD kernels, whose target
# features are enabled at compile time so that Miri runs them. Under Miri the randomized tests
# sample less and the exhaustive sweeps are skipped (too slow to interpret). Miri interprets on
# one core, so the test files run as two processes side by side (scripts/check-miri.sh), of
# about the same length under Miri: the converters', the security, the oracle, the fallback
# strategies' and the lossy copies' tests, and all the others with the library's unit tests.
# The tests that run each implementation run one SIMD implementation a call (tests/common).
# (Not AVX-512, nor the tests of its own paths: a fourth implementation would lengthen every
# test, and Miri does not implement the byte compression of its UTF-16 to UTF-8 step;
# docs/TESTING.md gives the command that checks its validation kernel.)
MIRI_RUSTFLAGS := -C target-feature=+sse4.2,+popcnt,+avx2
# Miri's checks of threads off (its data race detector and its emulation of weak memory): no
# test run under Miri starts threads (beyond the one libtest runs it on), and the library
# shares nothing between threads but atomics, which c-tests/first_use_race.c races
# natively; they lengthen every test.
MIRI_FLAGS := -Zmiri-disable-data-race-detector -Zmiri-disable-weak-memory-emulation
MIRI_HEAVY := transcode security oracle strategies lossy
# Not under Miri: tests/chunks.rs, the chunked conversions through the C API (safe code above
# the converters, which tests/transcode.rs and tests/ffi.rs take through Miri), whose property
# runs thousands of conversions per input.
MIRI_SKIPPED := chunks
MIRI_OTHERS := $(filter-out $(MIRI_HEAVY) $(MIRI_SKIPPED),$(basename $(notdir $(wildcard tests/*.rs))))
check-miri:
	@$(call begin,miri)
	@scripts/check-miri.sh $(RESULTS)/miri "$(CARGO)" $(BUILD) '$(MIRI_RUSTFLAGS)' \
	  '$(MIRI_FLAGS)' "$(MIRI_HEAVY)" "$(MIRI_OTHERS)"

# The oldest Rust that Cargo.toml's rust-version promises (1.85, Debian 13's) builds the C
# library and passes the whole Rust test suite, in build/msrv (scripts/check-msrv.sh), its
# exhaustive sweeps and randomized tests sampled (every MSRV_SWEEP_STEP-th input or iteration;
# check-rust runs them in full); then that C library's stack use is measured as check-stack
# measures the current one's.
# Needs that toolchain, which .ci/run installs: rustup toolchain install $(MSRV) --profile
# minimal.
MSRV := $(shell sed -n 's/^rust-version *= *"\([^"]*\)".*/\1/p' Cargo.toml)
MSRV_SWEEP_STEP ?= 64
check-msrv: $(BUILD)/native-static-libs
	@$(call begin,msrv)
	@CC="$(CC)" STACK_FLAGS="$(CSTD_FLAGS)" STATIC_LIBS="$$(cat $(BUILD)/native-static-libs)" \
	  ISA_NAMES="$(ISA_NAMES)" \
	  scripts/check-msrv.sh $(RESULTS)/msrv "$(CARGO)" $(MSRV) $(BUILD)/msrv $(MSRV_SWEEP_STEP)

# Under emulation a test runs about 50 times slower than natively: the QEMU runs sample the
# exhaustive sweeps and the randomized tests (every QEMU_SWEEP_STEP-th input, a
# QEMU_SWEEP_STEP-th of the iterations; check-rust runs them in full).
QEMU_SWEEP_STEP ?= 8

# Clippy for aarch64, and Rust tests built for aarch64 and run under QEMU (scripts/
# check-aarch64.sh): the NEON kernel and the portable code, on a machine that is not aarch64.
# AARCH64_TESTS are the kernels' test files, and the script adds the converters' tests of the
# validated stretches and the Latin-1 converters' tests of its blocks (the whole suite passes
# too, in several minutes more: `make check-aarch64 AARCH64_TESTS= QEMU_SWEEP_STEP=1`). Then
# the C library cross-built by this Makefile as docs/PACKAGING.md says and installed, the installed
# utf8check, and the C harness and the stack measure against that library, under QEMU with each
# implementation (with the tests' flags alone: the user's are for this machine's compiler).
check-aarch64: $(BUILD)/kuhn-expected.txt
	@$(call begin,aarch64)
	@LIBUTF8_TEST_SWEEP_STEP=$(QEMU_SWEEP_STEP) MAKE="$(MAKE)" C_HARNESS_SRC="$(TEST_API_SRC)" \
	  C_HARNESS_FLAGS="$(CSTD_FLAGS)" KUHN_ARGS="$(KUHN_ARGS)" \
	  scripts/check-aarch64.sh $(RESULTS)/aarch64 "$(CARGO)" $(BUILD)/aarch64 $(AARCH64_TESTS)

# The portable (scalar) implementation where no SIMD one exists: Clippy for i686 (32-bit),
# s390x (big-endian) and 32-bit ARM, and PORTABLE_TESTS, the tests of the validator, the
# decoder, the C API, the streams, the conversions (UTF-16 of either byte order, Latin-1, the
# strategies), the lengths and detection, built for s390x and run under QEMU
# (scripts/check-portable.sh), so that byte order and word size are not assumed, sampled as
# check-aarch64 is; then the C harness and the stack measure against the C library built for
# 32-bit ARM, under QEMU, with the tests' flags alone as for check-aarch64.
check-portable: $(BUILD)/kuhn-expected.txt
	@$(call begin,portable)
	@LIBUTF8_TEST_SWEEP_STEP=$(QEMU_SWEEP_STEP) C_HARNESS_SRC="$(TEST_API_SRC)" \
	  C_HARNESS_FLAGS="$(CSTD_FLAGS)" KUHN_ARGS="$(KUHN_ARGS)" \
	  scripts/check-portable.sh $(RESULTS)/portable "$(CARGO)" $(BUILD)/armv7 $(PORTABLE_TESTS)

# The library on a 32-bit target (scripts/check-i686.sh): I686_TESTS built for i686 with the
# tests' profile and run natively (an x86_64 machine runs i686 programs), then the C harness
# and the stack measure against the C library built for i686, with the tests' flags alone as
# for check-aarch64.
check-i686: $(BUILD)/kuhn-expected.txt
	@$(call begin,i686)
	@C_HARNESS_SRC="$(TEST_API_SRC)" C_HARNESS_FLAGS="$(CSTD_FLAGS)" KUHN_ARGS="$(KUHN_ARGS)" \
	  scripts/check-i686.sh $(RESULTS)/i686 "$(CARGO)" $(BUILD)/i686 $(I686_TESTS)

# The C library on musl (scripts/check-musl.sh): built for Rust's x86_64-unknown-linux-musl
# target by this Makefile as docs/PACKAGING.md says, installed to /usr in a staging folder,
# checked as check-abi checks the native one, and the C harness, built with musl-gcc from what
# pkg-config gives, run against the shared and the static library with each implementation, then
# the installed utf8check; with the tests' flags alone, as for check-aarch64.
check-musl: $(BUILD)/kuhn-expected.txt
	@$(call begin,musl)
	@MAKE="$(MAKE)" C_HARNESS_SRC="$(TEST_API_SRC)" C_HARNESS_FLAGS="$(CSTD_FLAGS)" \
	  KUHN_ARGS="$(KUHN_ARGS)" scripts/check-musl.sh $(RESULTS)/musl $(BUILD)/musl

# The build is reproducible (scripts/check-reproducible.sh): two copies of the sources, in
# folders of different names, built and installed under a different umask, locale, time zone,
# user and home folder, with the same SOURCE_DATE_EPOCH, install the same bytes, as `make` builds
# by default and with debugging information built as docs/PACKAGING.md says; and `make dist`
# writes the same tarball in both. Four builds of the library, in build/reproducible.
check-reproducible:
	@$(call begin,reproducible)
	@MAKE="$(MAKE)" scripts/check-reproducible.sh $(RESULTS)/reproducible $(BUILD)/reproducible

# Brief fuzzing: every target of fuzz/ for CHECK_FUZZ_SECONDS, where nightly Rust is installed
# (fuzz/run.sh builds the targets with cargo-fuzz's flags; FUZZING.md).
check-fuzz:
	@$(call begin,fuzz)
	@if $(CARGO) +nightly -vV 2>/dev/null | grep -q -- -nightly; then \
	  echo "FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS)"; \
	  FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS); \
	else \
	  $(call skipped,fuzz,brief fuzzing,nightly Rust); \
	fi

# libutf8 against peers that share no code with it (bench/tests/peers.rs, run by
# scripts/check-peers.sh): simdutf for Latin-1, UTF-16 in either byte order and the detection
# of encodings and byte-order marks, encoding_rs for Windows-1252. They are the benchmarks'
# dependencies (bench/Cargo.toml, its lock file), fetched from crates.io, which the offline
# `make check` cannot do; skipped where they cannot be fetched or no C++ compiler (for
# simdutf) is installed. The comparisons on the corpus files need $(SHARED)/corpus.
check-peers:
	@$(call begin,peers)
	@scripts/check-peers.sh $(RESULTS)/peers "$(CARGO)" "$(CXX)" $(SHARED)/corpus
