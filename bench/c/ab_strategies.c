/*
 * A replacement strategy against UTF8_REPLACE (or one build against another), sample by
 * sample: not run by `make bench`. For each file, with the top bit of one byte flipped in every
 * DENSITY bytes (as c/strategies.c does), each variant (a build of libutf8.so and the flags it
 * is called with) is timed one after the other in each round, and the report gives, per file
 * and variant, the median over the rounds of its time over the first variant's in the same
 * round, then their geometric mean. Pairing the samples so keeps the ratio steady where
 * independent medians are not: on a machine shared with other builds, strategies.c's medians
 * moved single files by up to 2.7x. A build loaded twice (two variants of the same path and
 * flags) shows what its placement alone moves.
 *
 *   cc -std=c11 -O2 -Wall -Wextra -pedantic -Iinclude bench/c/ab_strategies.c -ldl -lm \
 *     -o ab_strategies
 *   ./ab_strategies utf8_to_utf32 64 11 $(ls ../shared/corpus/wikipedia_*) -- \
 *     target/release/libutf8.so:1 target/release/libutf8.so:32 target/release/libutf8.so:64
 *
 * FUNCTION is utf8_to_utf16, utf8_to_utf32 or utf8_replace_invalid_flags; SAMPLES at most 1000;
 * each variant is PATH:FLAGS (UTF8_REPLACE is 1, UTF8_SURROGATEESCAPE 32, UTF8_FALLBACK_LATIN1
 * 64, UTF8_FALLBACK_CP1252 128).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libutf8.h"

enum { MAX_VARIANTS = 16, MAX_FILES = 256, MAX_SAMPLES = 1000 };

struct variant {
  utf8_result (*to16)(const char *, size_t, uint16_t *, size_t, uint32_t);
  utf8_result (*to32)(const char *, size_t, uint32_t *, size_t, uint32_t);
  utf8_status (*lossy)(const char *, size_t, char *, size_t, uint32_t, size_t *);
  uint32_t flags;
};

static void *out;
static size_t cap;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static size_t run(const struct variant *v, const char *s, size_t len) {
  size_t n = 0;
  if (v->to16) return v->to16(s, len, (uint16_t *)out, cap, v->flags).written;
  if (v->to32) return v->to32(s, len, (uint32_t *)out, cap, v->flags).written;
  v->lossy(s, len, (char *)out, 3 * cap, v->flags, &n);
  return n;
}

/* `name` from a copy of the library at `path` (a fresh address for each variant). */
static void load(const char *path, const char *name, void *fn) {
  char copy[] = "/tmp/ab_strategies-XXXXXX", cmd[8300];
  int fd = mkstemp(copy);
  void *lib, *sym;
  if (fd < 0) exit(2);
  close(fd);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
  if (system(cmd) != 0) exit(2);
  lib = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
  unlink(copy);
  sym = lib ? dlsym(lib, name) : NULL;
  if (sym == NULL) {
    fprintf(stderr, "ab_strategies: %s: %s\n", path, dlerror());
    exit(2);
  }
  memcpy(fn, &sym, sizeof sym);
}

int main(int argc, char **argv) {
  static struct variant v[MAX_VARIANTS];
  static double ratio[MAX_VARIANTS][MAX_SAMPLES];
  static char *files[MAX_FILES];
  double logs[MAX_VARIANTS] = {0}, t[MAX_VARIANTS];
  int nf = 0, nv = 0, i = 4, density, samples;
  if (argc < 7) {
    fprintf(stderr, "usage: %s FUNCTION DENSITY SAMPLES FILE... -- PATH:FLAGS...\n", argv[0]);
    return 2;
  }
  density = atoi(argv[2]);
  samples = atoi(argv[3]);
  if (density < 1 || samples < 1 || samples > MAX_SAMPLES) return 2;
  while (i < argc && strcmp(argv[i], "--") != 0 && nf < MAX_FILES) files[nf++] = argv[i++];
  for (i++; i < argc && nv < MAX_VARIANTS; i++, nv++) {
    char path[4096], *colon;
    snprintf(path, sizeof path, "%s", argv[i]);
    colon = strrchr(path, ':');
    if (colon == NULL) return 2;
    *colon = '\0';
    v[nv].flags = (uint32_t)strtoul(colon + 1, NULL, 0);
    if (strcmp(argv[1], "utf8_to_utf16") == 0)
      load(path, argv[1], &v[nv].to16);
    else if (strcmp(argv[1], "utf8_to_utf32") == 0)
      load(path, argv[1], &v[nv].to32);
    else
      load(path, "utf8_replace_invalid_flags", &v[nv].lossy);
  }
  if (nf == 0 || nv < 2) return 2;
  printf("%-34s", "file");
  for (i = 1; i < nv; i++) printf("  %9s %d", "variant", i + 1);
  printf("\n");
  for (int f = 0; f < nf; f++) {
    FILE *fp = fopen(files[f], "rb");
    size_t len, k;
    long reps = 1, r;
    char *s;
    const char *base = strrchr(files[f], '/');
    if (fp == NULL || fseek(fp, 0, SEEK_END) != 0) return 1;
    len = (size_t)ftell(fp);
    rewind(fp);
    s = malloc(len + 1);
    out = malloc(4 * len + 64);
    cap = len;
    if (s == NULL || out == NULL || fread(s, 1, len, fp) != len) return 1;
    fclose(fp);
    for (k = (size_t)density / 2; k < len; k += (size_t)density) s[k] = (char)(s[k] ^ 0x80);
    /* Calls per sample: at least 0.2 ms of the first variant. */
    for (;;) {
      double t0 = now();
      for (r = 0; r < reps; r++) run(&v[0], s, len);
      if (now() - t0 > 2e5) break;
      reps *= 2;
    }
    for (int round = 0; round < samples; round++) {
      for (int j = 0; j < nv; j++) {
        int w = (j + round) % nv;
        double t0 = now();
        for (r = 0; r < reps; r++) run(&v[w], s, len);
        t[w] = now() - t0;
      }
      for (int w = 0; w < nv; w++) ratio[w][round] = t[w] / t[0];
    }
    printf("%-34s", base ? base + 1 : files[f]);
    for (int w = 1; w < nv; w++) {
      qsort(ratio[w], (size_t)samples, sizeof(double), by_value);
      printf("  %10.3fx", ratio[w][samples / 2]);
      logs[w] += log(ratio[w][samples / 2]);
    }
    printf("\n");
    fflush(stdout);
    free(s);
    free(out);
  }
  printf("%-34s", "geometric mean");
  for (i = 1; i < nv; i++) printf("  %10.3fx", exp(logs[i] / nf));
  printf("\n");
  return 0;
}
