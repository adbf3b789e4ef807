# The build: the C library (cargo), the pkg-config file, the utf8check command; the header's
# generator.

VERSION := $(shell sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
MAJOR := $(firstword $(subst ., ,$(VERSION)))
REALNAME := libutf8.so.$(VERSION)
SONAME := libutf8.so.$(MAJOR)

# Cargo's outputs (where CARGO_TARGET_DIR says, as cargo does; in a folder named after the target
# where CARGO_BUILD_TARGET names one, as in a cross build), and make's own (pkg-config file,
# utf8check, test programs, staged installs), in a folder of the target's too: a build for
# another target then leaves no utf8check of its own where `make install` takes this one's.
TARGET := $(or $(CARGO_TARGET_DIR),target)$(if $(CARGO_BUILD_TARGET),/$(CARGO_BUILD_TARGET))/release
BUILD := build$(if $(CARGO_BUILD_TARGET),/$(CARGO_BUILD_TARGET))

WARNINGS := -Wall -Wextra -pedantic

.PHONY: all header FORCE

all: $(BUILD)/libutf8.pc $(BUILD)/utf8check

# One cargo run builds the C library, libutf8.so and libutf8.a (the package in capi/, linking
# the codec crate of src/ without the standard library), and prints the system libraries the
# static library needs. It runs when a Rust source is newer than its last run or a library is
# missing, not on every make: `make install` after `make` runs no cargo (which may not be in
# root's PATH, and would leave files owned by root in the target directory).
#
# Every function starts a 64-byte line (the flag reaches all the library's code: with link-time
# optimisation it is all compiled in this crate): at LLVM's 16 bytes, a function moved within
# its cache lines whenever code before it changed, and the C functions' short paths, the same
# instructions, took up to a third longer or shorter from one build to the next (BENCHMARKS.md).
RUST_SOURCES := $(shell find src capi -name '*.rs') Cargo.toml capi/Cargo.toml Cargo.lock capi/libutf8.map
$(BUILD)/native-static-libs: $(RUST_SOURCES) mk/build.mk \
  $(if $(and $(wildcard $(TARGET)/libutf8.so),$(wildcard $(TARGET)/libutf8.a)),,FORCE)
	@mkdir -p $(BUILD)
	$(CARGO) rustc --release --package libutf8-capi --lib -- \
	  -C llvm-args=-align-all-functions=6 --print native-static-libs 2>&1 \
	  | tee $(BUILD)/cargo.log
	@# Where the target links statically by default (Rust's musl targets), cargo drops the
	@# cdylib with a warning and builds libutf8.a alone: a build without libutf8.so would then
	@# link utf8check statically, and fail only at `make install`.
	@if grep -q "dropping unsupported crate type .cdylib." $(BUILD)/cargo.log || \
	    [ ! -f $(TARGET)/libutf8.so ] || [ ! -f $(TARGET)/libutf8.a ]; then \
	  echo "cargo built no libutf8.so or libutf8.a in $(TARGET) (see $(BUILD)/cargo.log); for a"; \
	  echo "target that links the C library statically by default, as Rust's musl targets do,"; \
	  echo "turn it off: -C target-feature=-crt-static in RUSTFLAGS (docs/PACKAGING.md, musl)"; \
	  exit 1; fi
	@# Built for musl but linked by the system's cc (cargo's linker for the target not named):
	@# libutf8.so then needs glibc's libc.so.6, and would not load where the package goes.
	@case "$(CARGO_BUILD_TARGET)" in *-musl*) \
	  if readelf -d $(TARGET)/libutf8.so 2>/dev/null | grep -q 'NEEDED.*\[libc\.so\.6\]'; then \
	    echo "$(TARGET)/libutf8.so, built for $(CARGO_BUILD_TARGET), needs glibc's libc.so.6:"; \
	    echo "name musl's compiler as cargo's linker for it (docs/PACKAGING.md, musl)"; \
	    exit 1; fi;; esac
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

# Regenerated on every run, so that it always shows the PREFIX of the last make.
$(BUILD)/libutf8.pc: pkgconfig/libutf8.pc.in $(BUILD)/native-static-libs FORCE
	$(call write_pc,$@)

# The utf8check command, compiled as a user would compile it: against the header and the shared
# library just built, so that it needs libutf8.so.1 at run time (no rpath: like any program
# using a system library, it finds it where it is installed, through ld.so's configuration).
# LDFLAGS before the library, so that options such as -Wl,--as-needed apply to it.
$(BUILD)/utf8check: utf8check/utf8check.c include/libutf8.h $(BUILD)/native-static-libs
	$(CC) -std=c99 $(WARNINGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -Iinclude $< \
	  -L$(TARGET) -lutf8 -o $@

# The header, include/libutf8.h, is committed and installed as it is: building the library does
# not generate it, so needs no crate. tools/gen-header generates it from the Rust sources with
# cbindgen (fetched from crates.io on first use); check-header-fresh compares the two. Built
# without optimisation: from scratch that takes half the time of a release build, and the
# unoptimised generator still runs in half a second.
GEN_HEADER = $(CARGO) run --quiet --locked --manifest-path tools/gen-header/Cargo.toml --
header:
	$(GEN_HEADER) . include/libutf8.h
