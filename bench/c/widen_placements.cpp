/*
 * utf8_to_utf16 and utf8_to_utf32 against simdutf's validating converters, with the output at
 * several distances from the input: not run by `make bench`. For each file given (corpus files
 * of ../shared/corpus, or any valid UTF-8), the input 16 bytes into a page and the output at
 * 0, 48, 1,024 and 2,048 bytes after that offset (modulo 4 KiB), the median of ROUNDS calls
 * (default 200) of each of the four functions, taken in turn with the first rotating each
 * round, in GB/s of UTF-8. Each output is checked against simdutf's first. Pure ASCII (lipsum
 * Latin) measures the widening of long runs of ASCII, which is bound by the L2 cache: the input
 * and its UTF-32 outgrow the L1 cache.
 *
 *   S=$(ls -d ~/.cargo/registry/src/(star)/simdutf-0.7.0/cpp)
 *   make && c++ -std=c++17 -O2 -I"$S" -Iinclude bench/c/widen_placements.cpp \
 *     bench/target/release/build/simdutf-(star)/out/libsimdutfrs.a target/release/libutf8.a \
 *     -lpthread -ldl -o widen_placements
 *   ./widen_placements ../shared/corpus/lipsum_Latin-Lipsum.utf8.txt
 *
 * where (star) is `*` (simdutf's library exists after `cargo build --release --manifest-path
 * bench/Cargo.toml`). For a change, link the `libutf8.a` of each build in turn.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "simdutf.h"
extern "C" {
#include "libutf8.h"
}

static double now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

enum { SIMDUTF_16, LIBUTF8_16, SIMDUTF_32, LIBUTF8_32, FUNCTIONS };

// One call of function `f` on the `n` bytes at `in`, into `out`: the units written, 0 on error.
static size_t call(int f, const char *in, size_t n, char *out) {
  switch (f) {
    case SIMDUTF_16:
      return simdutf::convert_utf8_to_utf16le(in, n, reinterpret_cast<char16_t *>(out));
    case LIBUTF8_16: {
      utf8_result r = utf8_to_utf16(in, n, reinterpret_cast<uint16_t *>(out), n, 0);
      return r.status == UTF8_OK ? r.written : 0;
    }
    case SIMDUTF_32:
      return simdutf::convert_utf8_to_utf32(in, n, reinterpret_cast<char32_t *>(out));
    default: {
      utf8_result r = utf8_to_utf32(in, n, reinterpret_cast<uint32_t *>(out), n, 0);
      return r.status == UTF8_OK ? r.written : 0;
    }
  }
}

int main(int argc, char **argv) {
  const char *env = getenv("ROUNDS");
  const int rounds = env ? atoi(env) : 200;
  if (argc < 2 || rounds < 1) {
    fprintf(stderr, "usage: [ROUNDS=N] %s FILE...\n", argv[0]);
    return 2;
  }
  const size_t distances[] = {0, 48, 1024, 2048};
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 1;
    }
    std::vector<char> text;
    char chunk[65536];
    for (size_t got; (got = fread(chunk, 1, sizeof chunk, f)) > 0;) {
      text.insert(text.end(), chunk, chunk + got);
    }
    fclose(f);
    const size_t n = text.size();
    if (n == 0 || !simdutf::validate_utf8(text.data(), n)) {
      fprintf(stderr, "%s: empty or not valid UTF-8\n", argv[i]);
      return 1;
    }
    char *in_page = static_cast<char *>(aligned_alloc(4096, n + 8192));
    char *out_page = static_cast<char *>(aligned_alloc(4096, 4 * n + 8192));
    std::vector<char> want16(2 * n), want32(4 * n);
    if (!in_page || !out_page) return 1;
    char *in = in_page + 16;
    memcpy(in, text.data(), n);
    const size_t units16 = call(SIMDUTF_16, in, n, want16.data());
    const size_t units32 = call(SIMDUTF_32, in, n, want32.data());
    const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    for (size_t d : distances) {
      char *out = out_page + (16 + d) % 4096;
      std::vector<double> times[FUNCTIONS];
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < FUNCTIONS; k++) {
          const int fn = (k + r) % FUNCTIONS;
          const double start = now_ns();
          const size_t units = call(fn, in, n, out);
          times[fn].push_back(now_ns() - start);
          const bool utf16 = fn == SIMDUTF_16 || fn == LIBUTF8_16;
          const size_t want = utf16 ? units16 : units32;
          const size_t bytes = utf16 ? 2 * want : 4 * want;
          if (units != want || memcmp(out, utf16 ? want16.data() : want32.data(), bytes)) {
            fprintf(stderr, "%s: function %d gave other output\n", name, fn);
            return 1;
          }
        }
      }
      double gbs[FUNCTIONS];
      for (int k = 0; k < FUNCTIONS; k++) {
        std::sort(times[k].begin(), times[k].end());
        gbs[k] = n / times[k][rounds / 2];
      }
      printf("%-34s out +%4zu  UTF-16: libutf8 %6.1f simdutf %6.1f GB/s  "
             "UTF-32: libutf8 %6.1f simdutf %6.1f GB/s\n",
             name, d, gbs[LIBUTF8_16], gbs[SIMDUTF_16], gbs[LIBUTF8_32], gbs[SIMDUTF_32]);
    }
    free(in_page);
    free(out_page);
  }
  return 0;
}
