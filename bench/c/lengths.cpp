/*
 * The length functions against simdutf's, file by file: not run by `make bench`. For each
 * file given (corpus files of ../shared/corpus, or any UTF-8), the best of 40 calls of
 * utf16_length_from_utf8, utf32_length_from_utf8, utf8_length_from_utf16 (of the file's UTF-16,
 * made by simdutf) and utf8_length_from_utf32, each beside simdutf's function of the same name,
 * in GB/s of input. simdutf's trust their input to be valid; libutf8's are exact for any input,
 * and so validate UTF-8 as they count. Ill-formed files give the lengths from UTF-8 alone. The
 * results are checked against simdutf's conversions first.
 *
 *   S=$(ls -d ~/.cargo/registry/src/(star)/simdutf-0.7.0/cpp)
 *   make && c++ -std=c++17 -O2 -I"$S" -Iinclude bench/c/lengths.cpp \
 *     bench/target/release/build/simdutf-(star)/out/libsimdutfrs.a target/release/libutf8.a \
 *     -lpthread -ldl -o lengths
 *   ./lengths ../shared/corpus/(star).utf8.txt
 *
 * where (star) is `*` (simdutf's library exists after `cargo build --release --manifest-path
 * bench/Cargo.toml`).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vector>

#include "simdutf.h"
extern "C" {
#include "libutf8.h"
}

namespace {

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

// GB/s of `bytes` of input: the fastest of 40 calls of `f`.
template <class F>
double speed(F f, size_t bytes) {
  double best = 1e18;
  for (int r = 0; r < 40; r++) {
    double t = now();
    volatile size_t sink = f();
    (void)sink;
    t = now() - t;
    if (t < best) best = t;
  }
  return double(bytes) / best;
}

}  // namespace

int main(int argc, char **argv) {
  printf("%-30s %22s | %22s | %22s | %22s\n", "file (GB/s: libutf8 simdutf)",
         "utf16_length_from_utf8", "utf32_length_from_utf8", "utf8_length_from_utf16",
         "utf8_length_from_utf32");
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (f == nullptr || fseek(f, 0, SEEK_END) != 0) return 1;
    const size_t n = size_t(ftell(f));
    rewind(f);
    std::vector<char> s(n);
    if (fread(s.data(), 1, n, f) != n) return 1;
    fclose(f);
    const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    printf("%-30.30s %10.2f %11.2f | %10.2f %11.2f |", name,
           speed([&] { return utf16_length_from_utf8(s.data(), n); }, n),
           speed([&] { return simdutf::utf16_length_from_utf8(s.data(), n); }, n),
           speed([&] { return utf32_length_from_utf8(s.data(), n); }, n),
           speed([&] { return simdutf::utf32_length_from_utf8(s.data(), n); }, n));
    if (!simdutf::validate_utf8(s.data(), n)) {
      printf(" (ill-formed)\n");
      continue;
    }
    std::vector<char16_t> u16(n);
    std::vector<char32_t> u32(n);
    const size_t n16 = simdutf::convert_utf8_to_utf16le(s.data(), n, u16.data());
    const size_t n32 = simdutf::convert_utf8_to_utf32(s.data(), n, u32.data());
    const uint16_t *p16 = reinterpret_cast<const uint16_t *>(u16.data());
    const uint32_t *p32 = reinterpret_cast<const uint32_t *>(u32.data());
    if (utf16_length_from_utf8(s.data(), n) != n16 || utf32_length_from_utf8(s.data(), n) != n32 ||
        utf8_length_from_utf16(p16, n16) != n || utf8_length_from_utf32(p32, n32) != n) {
      printf(" lengths differ from simdutf's conversions\n");
      return 1;
    }
    printf(" %10.2f %11.2f | %10.2f %11.2f\n",
           speed([&] { return utf8_length_from_utf16(p16, n16); }, 2 * n16),
           speed([&] { return simdutf::utf8_length_from_utf16le(u16.data(), n16); }, 2 * n16),
           speed([&] { return utf8_length_from_utf32(p32, n32); }, 4 * n32),
           speed([&] { return simdutf::utf8_length_from_utf32(u32.data(), n32); }, 4 * n32));
  }
  return 0;
}
