# What this machine has, asked once per make: the compilers and tools that the tests use where
# they are installed (and skip, saying so, where they are not), and the implementations the
# library runs here.

comma := ,

# AddressSanitizer and UndefinedBehaviorSanitizer for the C tests, where the compiler has them
# and a program built with them runs: `y` if so. Run, not only linked: a compiler can link
# run-time libraries that its programs cannot load (musl-gcc on a glibc system finds glibc's
# libasan.so, which musl's loader cannot load, and no test would run).
SANITIZERS := $(shell probe=$$(mktemp) && printf 'int main(void) { return 0; }\n' | \
  $(CC) -x c -fsanitize=address,undefined - -o $$probe 2>/dev/null && $$probe >/dev/null 2>&1 && \
  echo y; rm -f $$probe)
SANITIZE := -g $(if $(SANITIZERS),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all)

# clang and clang++ (both), and the C++ compiler: `y` if found.
CLANG := $(shell command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1 && echo y)
CXX_FOUND := $(shell command -v $(CXX) >/dev/null 2>&1 && echo y)

VALGRIND_FOUND := $(shell command -v $(VALGRIND) >/dev/null 2>&1 && echo y)

# The implementations LIBUTF8_FORCE_ISA names, those the library built here runs on this machine,
# and the one it picks, asked of the library itself (c-tests/isa_probe.c): a name it cannot use
# is reported on standard error with the one it uses instead, and a usable one is not. (Asked
# when a recipe needs them, once the probe is built.)
ISA_NAMES := scalar sse4.2 avx2 avx512 avx512-zen4 avx512-zen5 neon
ISA_PROBE := $(BUILD)/isa_probe
ISAS = $(shell for isa in $(ISA_NAMES); do \
  [ -n "$$(LIBUTF8_FORCE_ISA=$$isa $(ISA_PROBE) 2>&1 >/dev/null)" ] || echo $$isa; done)
BEST_ISA = $(shell LIBUTF8_FORCE_ISA=none $(ISA_PROBE) 2>&1 >/dev/null | sed -n 's/.*; using //p')
# A name the library does not run here.
UNUSABLE_ISA = $(firstword $(filter-out $(ISAS),$(ISA_NAMES)))
$(ISA_PROBE): c-tests/isa_probe.c include/libutf8.h $(BUILD)/native-static-libs
	$(CC) -std=c99 $(CPPFLAGS) $(CFLAGS) $(CSTD_FLAGS) -Iinclude $< $(TARGET)/libutf8.a \
	  $(LDFLAGS) $$(cat $(BUILD)/native-static-libs) -o $@
