# The developer's targets around the library: the lint, the source tarball, the benchmarks, the
# long fuzzing run, and clean.

.PHONY: lint dist bench fuzz clean

# The layers of src/ and the tests' Windows-1252 table against Python's codec; then Clippy
# twice: with the tests, and over the library as the C library builds it, without the tests'
# `internals` feature, where an item only the tests use would be dead code.
lint:
	$(PYTHON) tools/check-layers.py
	$(PYTHON) tools/check-cp1252.py
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy -p libutf8-capi -- -D warnings
	$(CARGO) fmt --manifest-path tools/gen-header/Cargo.toml -- --check
	$(CARGO) clippy --locked --manifest-path tools/gen-header/Cargo.toml -- -D warnings

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

# Coverage-guided fuzzing (FUZZING.md): every target of fuzz/ for FUZZ_SECONDS each, as many
# at a time as there are cores (FUZZ_JOBS).
fuzz:
	FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(FUZZ_SECONDS)

clean:
	$(CARGO) clean
	rm -rf $(BUILD) bench/target bench/results fuzz/target tools/gen-header/target
	rm -f $(DIST)
