# The tests: the two tiers, the results each stage records, and the stages of `make check`
# (those that `make check-full` adds are in mk/check-full.mk).
#
# Two tiers. `make check` is the packager's suite: it runs offline, on any Linux architecture,
# with the distribution's Rust and C compiler, and skips, saying so, what needs a tool that is
# not installed. `make check-full` adds what needs the network, nightly Rust or emulators: the
# header compared with a fresh cbindgen run, Miri, the oldest supported Rust, the aarch64,
# s390x and 32-bit ARM runs under QEMU, the i686 and musl builds, the reproducible build, brief
# fuzzing and the peers. CI runs `make check-full`.
#
# Each stage records what it checked in $(RESULTS)/STAGE, a line each: "passed: WHAT", or
# "skipped: WHAT (needs TOOL)", also printed when it skips (scripts/record.sh). A stage that
# records nothing counts as one pass. The summary line counts them (scripts/summary.sh).
CHECK_STAGES := rust version header abi c guard race stack valgrind install utf8check man
RESULTS := $(BUILD)/results

.PHONY: check $(CHECK_STAGES:%=check-%)

# $(call begin,STAGE): forget what STAGE recorded in an earlier run.
begin = scripts/record.sh begin $(RESULTS)/$(1)
# $(call passed,STAGE,WHAT) and $(call skipped,STAGE,WHAT,TOOL): record a result.
passed = scripts/record.sh passed $(RESULTS)/$(1) "$(2)"
skipped = scripts/record.sh skipped $(RESULTS)/$(1) "$(2)" "$(3)"
# $(call summary,NAME,STAGES): the skipped lines again, then "NAME: P passed, 0 failed, S
# skipped" (make stops at the first failure, so a summary has none).
summary = scripts/summary.sh $(1) $(RESULTS) $(2)

check: $(CHECK_STAGES:%=check-%)
	@$(call summary,check,$(CHECK_STAGES))

# C test programs: the user's flags, then the tests' own (warnings as errors, sanitizers).
CSTD_FLAGS := $(WARNINGS) -Werror
TEST_CC = $(CC) $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS)
# The sources of the C harness and of the guard-page program: each its main file and its own
# files, then the check layer, the reference codec and the converters behind one signature,
# which both share.
C_SHARED_SRC := c-tests/check.c c-tests/reference.c c-tests/calls.c
TEST_API_SRC := $(addprefix c-tests/,test_api.c api_decode.c api_encode.c api_args.c \
  api_forms.c api_text.c api_convert.c api_kuhn.c api_detect.c api_latin1.c \
  api_strategies.c) $(C_SHARED_SRC)
GUARD_PAGES_SRC := $(addprefix c-tests/,guard_pages.c guard_arena.c guard_inputs.c guard_run.c \
  guard_text.c guard_validate.c guard_encode.c guard_forms.c guard_convert.c \
  guard_convert_build.c guard_convert_spare.c) $(C_SHARED_SRC)
# $(call sanitized,STAGE,WHAT): records whether WHAT ran under the sanitizers.
sanitized = $(if $(SANITIZERS),$(call passed,$(1),$(2) under ASan and UBSan),\
  $(call skipped,$(1),$(2) under ASan and UBSan,a compiler with -fsanitize=address$(comma)undefined))
# $(call per_isa,COMMAND): COMMAND once per implementation the library runs here, side by side
# (scripts/per-isa.sh).
per_isa = scripts/per-isa.sh $(BUILD) "$(ISAS)" $(1)

# Markus Kuhn's UTF-8 stress test, where the shared test data is. The arguments that make the C
# harness replay it, or none where it is absent (as a shell command substitution: the expected
# file is made by the run).
KUHN := $(SHARED)/testdata/UTF-8-test.txt
KUHN_ARGS = $$([ -s $(BUILD)/kuhn-expected.txt ] && echo "$(KUHN) $(BUILD)/kuhn-expected.txt" || true)

# Made again on every run: the file is there or not, and SHARED may name another folder, from
# one run to the next, and a file made for the last run would skip the comparison, or fail it.
$(BUILD)/kuhn-expected.txt: c-tests/lossy_oracle.py FORCE
	@mkdir -p $(BUILD)
	@if [ -f $(KUHN) ]; then $(PYTHON) c-tests/lossy_oracle.py $(KUHN) > $@; \
	 else echo "$(KUHN) absent: the stress-test comparison will be skipped"; : > $@; fi

# The Rust tests (tests/, and the library's unit tests). Those that replay Kuhn's stress test
# return early where it is absent, and say so on standard error, which cargo test shows only
# for a test that fails: the skip is said here.
check-rust:
	$(CARGO) test
	@[ -f $(KUHN) ] || echo "SKIPPED: the Rust tests' replay of $(KUHN) (absent)"

# The version that Cargo.toml states, in the header and the man pages.
check-version:
	@scripts/check-version.sh $(VERSION)

# The header must declare only names with the library's prefixes, and must compile as C and
# C++, alone and after the system headers (whose declarations it must not contradict), also
# under the stricter warnings that some programs build with (its inline code is compiled as part
# of theirs). With GCC, and with clang where it is installed (.ci/run installs it): the two warn
# differently (clang++ reports NULL under -Wzero-as-null-pointer-constant, g++ does not). The
# header is compiled from a file that includes it: clang warns of an unused static inline
# function in the file it is given.
HEADER_C_WARNINGS := -Wconversion -Wsign-conversion -Wcast-qual -Wshadow -Wstrict-prototypes \
  -Wmissing-prototypes -Wundef
HEADER_CXX_WARNINGS := -Wold-style-cast -Wconversion -Wsign-conversion -Wcast-qual -Wshadow \
  -Wundef -Wzero-as-null-pointer-constant
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
# A program that includes the header and calls nothing links without the library, at every
# optimisation level: CMake's check_include_file, for one, links such a program.
# $(call link_header_alone,compiler,language)
define link_header_alone
	mkdir -p $(BUILD)
	for opt in -O0 -Og -O2; do \
	  printf '#include "libutf8.h"\nint main(void) { return 0; }\n' | \
	    $(1) $(CPPFLAGS) $(CSTD_FLAGS) $$opt -Iinclude -x $(2) - -o $(BUILD)/header-alone \
	    || exit 1; done
endef
check-header:
	@$(call begin,header)
	$(PYTHON) c-tests/header_names.py include/libutf8.h
	$(call compile_header_c,$(CC))
	$(call link_header_alone,$(CC),c)
	@$(call passed,header,the header compiled as C by $(CC))
ifeq ($(CXX_FOUND),y)
	$(call compile_header_cxx,$(CXX),$(if $(findstring clang,$(CXX)),,-Wuseless-cast))
	$(call link_header_alone,$(CXX),c++)
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

# The exported symbols, their versions, the soname; no panic or allocation reachable from C;
# programs linked against releases up to 1.2.0 still run (scripts/check-abi.sh).
check-abi: all
	scripts/check-abi.sh "$(CC)" $(TARGET) $(SONAME) $(BUILD)

# The C harness, built from the installed header and run against the installed shared and
# static libraries, and once without the header's inline code, under AddressSanitizer and
# UndefinedBehaviorSanitizer where the compiler has them; the static build once per
# implementation; and once built with clang where it is installed.
STAGE := $(abspath $(BUILD)/stage)
STAGE_LIB := $(STAGE)$(LIBDIR)
STAGE_INC := $(STAGE)$(INCLUDEDIR)
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
	@# The A/B tools of bench/c (and fresh_copies.c) are not run here, but must keep compiling.
	for f in bench/c/ab_*.c bench/c/fresh_copies.c; do \
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
	@# How an ignored LIBUTF8_FORCE_ISA is reported, also by threads making their first calls at
	@# once (c-tests/first_use_race.c).
	$(TEST_CC) -std=c99 -D_POSIX_C_SOURCE=200809L $(SANITIZE) -I$(STAGE_INC) \
	  c-tests/first_use_race.c $(STAGE_LIB)/libutf8.a $(LDFLAGS) \
	  $$(cat $(BUILD)/native-static-libs) -pthread -o $(BUILD)/first_use_race
	scripts/check-isa-reports.sh $(BUILD) "$(ISAS)" "$(BEST_ISA)" "$(UNUSABLE_ISA)" \
	  $(BUILD)/test_api_static $(BUILD)/first_use_race

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

# The man pages: a section of libutf8(3) for every exported function, its status table against
# the header's, both pages rendered by groff and linted by mandoc where installed.
check-man:
	@scripts/check-man.sh $(RESULTS)/man
