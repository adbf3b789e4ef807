/*
 * libutf8's utf8_to_latin1 or latin1_to_utf8 against simdutf's convert_utf8_to_latin1 or
 * convert_latin1_to_utf8, sample by sample: not run by `make bench`. For each `latin1-utf8`
 * line of a manifest of `libutf8-bench gen` (text that Latin-1 holds, in UTF-8; its Latin-1 made
 * by simdutf), simdutf and each build of libutf8.so given are timed one after the other in each
 * round, on the same buffers, and the report gives the median over the rounds of simdutf's time
 * over the build's (above 1.00x the build is faster), with the ratio of their fastest samples in
 * brackets and the build's best GB/s. The input starts IN bytes into a page (16 by default), the
 * output D bytes
 * further mod 4096 (environment D, 0 by default; a list such as D=0,128,1024,2048 measures each
 * placement in turn, and then each figure is the geometric mean of the placements'): where the
 * two lie moved both libraries by up to 30% on inputs held in the L1 cache, and D=0, the
 * placement of two large buffers from malloc, slows a loop whose loads wait for the stores
 * before them. The first second is spent in a busy loop: the first placement measured before it
 * ran slower on this machine, both libraries alike but not in the same proportion. On a machine
 * shared with other builds, the Rust harness's independent medians moved single files by up to
 * 40% between runs; these ratios by a few %.
 *
 * simdutf is the one the Rust harness builds (the `simdutf` crate: its C++ sources and, after
 * `cargo build --release --manifest-path bench/Cargo.toml`, its static library):
 *
 *   S=$(ls -d ~/.cargo/registry/src/(star)/simdutf-0.7.0/cpp)
 *   c++ -std=c++17 -O2 -I"$S" bench/c/ab_latin1.cpp \
 *     bench/target/release/build/simdutf-(star)/out/libsimdutfrs.a -ldl -o ab_latin1
 *   grep ^latin1-utf8 bench/target/data/manifest.tsv > latin1.tsv
 *   SAMPLES=150 D=0,128,1024,2048 ./ab_latin1 utf8_to_latin1 latin1.tsv before/libutf8.so \
 *     after/libutf8.so
 *
 * where (star) is `*`. SAMPLES: rounds (300 by default). SAMPLE_NS: the least time of a
 * library's calls in a sample, 30000 (30 µs) by default; each switch of library slows the
 * calls just after it, which short samples count, so the Rust harness's steady state needs
 * SAMPLE_NS=1e7, its 10 ms (BENCHMARKS.md). ENDS_AT_PAGE=1 places each input so that its last
 * byte is the last of a page whose next page is mapped but never touched (IN is then ignored):
 * a masked load that reaches into that page with lanes masked off costs a microcode assist on
 * every call.
 */
#include <dlfcn.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "simdutf.h"

namespace {

// libutf8's struct utf8_result, for the library loaded with dlopen.
struct result {
  int status;
  size_t read, written;
};
using converter = result (*)(const char *, size_t, char *, size_t, uint32_t);

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

// `name` from a copy of the library at `path`, at an address of its own.
converter load(const char *path, const char *name) {
  char copy[] = "/tmp/ab_latin1-XXXXXX";
  int fd = mkstemp(copy);
  if (fd < 0) exit(2);
  close(fd);
  std::string cmd = std::string("cp '") + path + "' '" + copy + "'";
  if (system(cmd.c_str()) != 0) exit(2);
  void *lib = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
  unlink(copy);
  void *sym = lib ? dlsym(lib, name) : nullptr;
  if (sym == nullptr) {
    fprintf(stderr, "ab_latin1: %s: %s\n", path, dlerror());
    exit(2);
  }
  converter fn;
  memcpy(&fn, &sym, sizeof sym);
  return fn;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[1], "utf8_to_latin1") != 0 &&
                   strcmp(argv[1], "latin1_to_utf8") != 0)) {
    fprintf(stderr, "usage: %s utf8_to_latin1|latin1_to_utf8 MANIFEST LIBUTF8_SO...\n",
            argv[0]);
    return 2;
  }
  const bool to_latin1 = strcmp(argv[1], "utf8_to_latin1") == 0;
  const int builds = argc - 3;
  std::vector<converter> build;
  for (int b = 0; b < builds; b++) build.push_back(load(argv[3 + b], argv[1]));
  const int samples = getenv("SAMPLES") ? atoi(getenv("SAMPLES")) : 300;
  const double sample_ns = getenv("SAMPLE_NS") ? atof(getenv("SAMPLE_NS")) : 3e4;
  std::vector<size_t> offsets;
  for (const char *d = getenv("D") ? getenv("D") : "0"; *d != '\0';) {
    char *end;
    offsets.push_back(size_t(strtoul(d, &end, 10)));
    d = *end == ',' ? end + 1 : end + strlen(end);
  }
  // The input's offset in its page (environment IN, 16 by default).
  size_t in_at = getenv("IN") ? size_t(atol(getenv("IN"))) % 4096 : 16;
  const bool ends_at_page = getenv("ENDS_AT_PAGE") && atoi(getenv("ENDS_AT_PAGE")) != 0;
  for (double t0 = now(); now() - t0 < 1e9;) {
  }
  FILE *manifest = fopen(argv[2], "r");
  if (manifest == nullptr || samples < 1) return 2;
  printf("%-40s %12s", "input", "simdutf");
  for (int b = 0; b < builds; b++) printf("  build %d / simdutf      ", b + 1);
  printf("\n");
  char kind[64], name[256], path[4096];
  size_t call_len;
  while (fscanf(manifest, "%63s %255s %4095s %zu", kind, name, path, &call_len) == 4) {
    if (strcmp(kind, "latin1-utf8") != 0) continue;
    FILE *file = fopen(path, "rb");
    if (file == nullptr || fseek(file, 0, SEEK_END) != 0) return 1;
    const size_t n = size_t(ftell(file));
    rewind(file);
    std::vector<char> utf8(n), latin1(n + 64);
    if (fread(utf8.data(), 1, n, file) != n) return 1;
    fclose(file);
    const size_t n_latin1 = simdutf::convert_utf8_to_latin1(utf8.data(), n, latin1.data());
    if (n_latin1 == 0) continue;
    const size_t len = to_latin1 ? n : n_latin1, want = to_latin1 ? n_latin1 : n;
    const size_t cap = to_latin1 ? n + 64 : 2 * n_latin1 + 64;
    char *in_page, *out_page = static_cast<char *>(aligned_alloc(4096, cap + 8192));
    const size_t in_pages = (len + 4095) / 4096 + 1;
    if (ends_at_page) {
      // Fresh pages: the last one, after the input, is never written.
      void *m = mmap(nullptr, in_pages * 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) return 1;
      in_at = (4096 - len % 4096) % 4096;
      in_page = static_cast<char *>(m) + (in_pages - 1) * 4096 - len - in_at;
    } else {
      in_page = static_cast<char *>(aligned_alloc(4096, len + 8192));
    }
    if (in_page == nullptr || out_page == nullptr) return 1;
    char *in = in_page + in_at, *out = out_page;
    memcpy(in, to_latin1 ? utf8.data() : latin1.data(), len);
    auto run = [&](int b) -> size_t {
      if (b < 0)
        return to_latin1 ? simdutf::convert_utf8_to_latin1(in, len, out)
                         : simdutf::convert_latin1_to_utf8(in, len, out);
      result r = build[size_t(b)](in, len, out, cap, 0);
      return r.status == 0 ? r.written : 0;
    };
    // Per build: the sums over the placements of the logarithms of the median ratio, of the
    // ratio of the fastest samples and of the best GB/s; simdutf's best GB/s first.
    const size_t n_builds = static_cast<size_t>(builds);
    std::vector<double> log_median(n_builds), log_best(n_builds), log_speed(n_builds + 1);
    for (size_t d : offsets) {
      out = out_page + (in_at + d) % 4096;
      for (int b = -1; b < builds; b++)
        if (run(b) != want) {
          fprintf(stderr, "ab_latin1: %s: %s gets it wrong\n", name,
                  b < 0 ? "simdutf" : argv[3 + b]);
          return 1;
        }
      // Calls per sample: at least SAMPLE_NS of simdutf's.
      long reps = 1;
      for (;;) {
        double t0 = now();
        for (long r = 0; r < reps; r++) run(-1);
        if (now() - t0 > sample_ns) break;
        reps *= 2;
      }
      std::vector<double> best(size_t(builds) + 1, 1e300), t(size_t(builds) + 1);
      std::vector<std::vector<double>> ratio(static_cast<size_t>(builds));
      for (int s = 0; s < samples; s++) {
        for (int k = 0; k <= builds; k++) {
          int b = (k + s) % (builds + 1) - 1;
          double t0 = now();
          for (long r = 0; r < reps; r++) run(b);
          t[size_t(b + 1)] = (now() - t0) / double(reps);
          best[size_t(b + 1)] = std::min(best[size_t(b + 1)], t[size_t(b + 1)]);
        }
        for (int b = 0; b < builds; b++) ratio[size_t(b)].push_back(t[0] / t[size_t(b) + 1]);
      }
      log_speed[0] += std::log(double(len) / best[0]);
      for (int b = 0; b < builds; b++) {
        std::vector<double> &r = ratio[size_t(b)];
        std::sort(r.begin(), r.end());
        log_median[size_t(b)] += std::log(r[r.size() / 2]);
        log_best[size_t(b)] += std::log(best[0] / best[size_t(b) + 1]);
        log_speed[size_t(b) + 1] += std::log(double(len) / best[size_t(b) + 1]);
      }
    }
    const double places = double(offsets.size());
    printf("%-40s %7.1f GB/s", name, std::exp(log_speed[0] / places));
    for (int b = 0; b < builds; b++)
      printf("  %6.3fx [%5.3f] %5.1f GB/s", std::exp(log_median[size_t(b)] / places),
             std::exp(log_best[size_t(b)] / places),
             std::exp(log_speed[size_t(b) + 1] / places));
    printf("\n");
    fflush(stdout);
    if (ends_at_page)
      munmap(in_page + in_at + len - (in_pages - 1) * 4096, in_pages * 4096);
    else
      free(in_page);
    free(out_page);
  }
  return 0;
}
