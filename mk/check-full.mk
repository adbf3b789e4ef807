# The stages that `make check-full` adds to `make check` (see mk/check.mk): they need the
# network, nightly Rust, an older Rust or emulators, and each says it skipped where its tools
# are absent (.ci/run installs them).
FULL_STAGES := header-fresh miri msrv aarch64 portable fuzz

.PHONY: check-full $(FULL_STAGES:%=check-%)

check-full: check $(FULL_STAGES:%=check-%)
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
# one core, so the test files run as two processes side by side (scripts/check-miri.sh): the
# heaviest one (the converters), and all the others.
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
check-miri:
	@$(call begin,miri)
	@scripts/check-miri.sh $(RESULTS)/miri "$(CARGO)" $(BUILD) '$(MIRI_RUSTFLAGS)' \
	  "$(MIRI_HEAVY)" "$(MIRI_OTHERS)"

# The oldest Rust that Cargo.toml's rust-version promises (1.85, Debian 13's) builds the C
# library and passes the whole Rust test suite, in build/msrv (scripts/check-msrv.sh). Needs
# that toolchain, which .ci/run installs: rustup toolchain install $(MSRV) --profile minimal.
MSRV := $(shell sed -n 's/^rust-version *= *"\([^"]*\)".*/\1/p' Cargo.toml)
check-msrv:
	@scripts/check-msrv.sh "$(CARGO)" $(MSRV) $(BUILD)/msrv

# Clippy for aarch64, and the Rust tests of the validation kernels and of the converters
# through every implementation built for aarch64 and run under QEMU's user-mode emulation: the
# NEON kernel and the portable code, on a machine that is not aarch64. Under emulation a test
# runs about 50 times slower than natively, so these are the kernels' test files (about two
# minutes) and the converters' tests of the validated stretches (the whole suite passes too,
# in several minutes more: `make check-aarch64 AARCH64_TESTS=`). Needs the Rust target, QEMU
# and a cross linker, which .ci/run installs: `rustup target add aarch64-unknown-linux-gnu`,
# `apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross`.
AARCH64 := aarch64-unknown-linux-gnu
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
# not assumed. About a minute and a half, most of it building. Needs the Rust targets, QEMU and
# a cross linker for s390x, which .ci/run installs: `rustup target add i686-unknown-linux-gnu
# s390x-unknown-linux-gnu`, `apt-get install qemu-user gcc-s390x-linux-gnu
# libc6-dev-s390x-cross`.
PORTABLE_TARGETS := i686-unknown-linux-gnu s390x-unknown-linux-gnu
S390X := s390x-unknown-linux-gnu
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

# Brief fuzzing: every target of fuzz/ for CHECK_FUZZ_SECONDS, where nightly Rust and cargo-fuzz
# are installed (FUZZING.md).
check-fuzz:
	@$(call begin,fuzz)
	@if $(CARGO) +nightly fuzz --version >/dev/null 2>&1; then \
	  echo "FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS)"; \
	  FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(CHECK_FUZZ_SECONDS); \
	else \
	  $(call skipped,fuzz,brief fuzzing,cargo-fuzz on nightly Rust); \
	fi
