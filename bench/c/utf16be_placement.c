/*
 * utf16be_placement.c: utf16_to_utf8 on one file's UTF-16, in the machine's order and with
 * UTF8_UTF16BE, at several placements of the output: not run by `make bench`. The file's text
 * (UTF-8) is converted to UTF-16 by the library, and its byte-swapped copy made; each input
 * starts IN bytes into a page of its own (0 by default), and its output D bytes further mod
 * 4096, for each D of a fixed list. Each of 101 rounds times 50 calls of each; printed are the
 * medians of the time a call and of the paired ratio (big-endian time over native time in a
 * round). Written when `make bench` reported 1.24x on Hebrew lipsum for UTF-16BE -> UTF-8 (the
 * goal: 1.10x) where the group run alone gave 0.98-1.09: each order's input is a buffer of its
 * own. On this machine its own swings were as large as any placement's (see BENCHMARKS.md).
 *
 *   make
 *   cc -O2 -Iinclude bench/c/utf16be_placement.c target/release/libutf8.a -lpthread -ldl \
 *     -o utf16be_placement
 *   IN=16 ./utf16be_placement ../shared/corpus/lipsum_Hebrew-Lipsum.utf8.txt
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "corpus_errors.h" /* now_ns, compare_doubles, read_file */
#include "libutf8.h"

#define ROUNDS 101
#define CALLS 50

static double median(double *v) {
  qsort(v, ROUNDS, sizeof *v, compare_doubles);
  return v[ROUNDS / 2];
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: [IN=offset] %s file.utf8.txt\n", argv[0]);
    return 2;
  }
  const size_t in_offset = getenv("IN") ? (size_t)atoi(getenv("IN")) % 4096 & ~(size_t)1 : 0;
  size_t n;
  char *text = read_file(argv[1], &n);
  if (text == NULL) {
    perror(argv[1]);
    return 1;
  }
  /* Four regions of 2 MiB: the two inputs, the two outputs. */
  const size_t region = 2 << 20;
  char *base = mmap(NULL, 4 * region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || n > region / 4) {
    fprintf(stderr, "no room\n");
    return 1;
  }
  uint16_t *native = (uint16_t *)(void *)(base + in_offset);
  uint16_t *swapped = (uint16_t *)(void *)(base + region + in_offset);
  const struct utf8_result r = utf8_to_utf16(text, n, native, n, 0);
  if (r.status != UTF8_OK) {
    fprintf(stderr, "not UTF-8\n");
    return 1;
  }
  const size_t units = r.written;
  for (size_t i = 0; i < units; i++)
    swapped[i] = (uint16_t)(native[i] >> 8 | native[i] << 8);
  /* A second of work first: the machine ran slower before it. */
  for (double t0 = now_ns(); now_ns() - t0 < 1e9;) {
  }
  static const size_t offsets[] = {0, 16, 272, 976, 1616, 2000, 2064, 3072, 4080};
  for (size_t d = 0; d < sizeof offsets / sizeof *offsets; d++) {
    const size_t at = (in_offset + offsets[d]) % 4096;
    char *out_native = base + 2 * region + at, *out_swapped = base + 3 * region + at;
    double ratio[ROUNDS], t_native[ROUNDS], t_swapped[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
      double t0 = now_ns();
      for (int j = 0; j < CALLS; j++)
        utf16_to_utf8(native, units, out_native, 3 * units, 0);
      const double a = now_ns() - t0;
      t0 = now_ns();
      for (int j = 0; j < CALLS; j++)
        utf16_to_utf8(swapped, units, out_swapped, 3 * units, UTF8_UTF16BE);
      const double b = now_ns() - t0;
      ratio[k] = b / a;
      t_native[k] = a / CALLS;
      t_swapped[k] = b / CALLS;
    }
    printf("IN=%zu D=%4zu native %6.0f ns  UTF-16BE %6.0f ns  BE/native %.3f\n", in_offset,
           offsets[d], median(t_native), median(t_swapped), median(ratio));
  }
  return 0;
}
