/*
 * Builds of libutf8.so side by side on one function, utf8_validate, utf8_count_chars or a
 * converter: each build's time per call on the inputs of a manifest written by `libutf8-bench
 * gen`, the builds' samples interleaved so that a shared machine's noise slows them alike. Each
 * build is loaded several times, from copies of its file, at as many addresses (COPIES): where
 * a library lies moves single inputs by up to 20-50% (two loads of one build, five runs: 300-byte
 * strings into UTF-16 0.80x in one run, 1.00x in the others; 1000-byte strings 1.15x in one), so
 * a build's time is the median of its copies' medians, and the last column gives the largest
 * ratio between the medians of two copies of one build, what placement alone did. For
 * changes to the kernels: build the library before and after the change (for example in two git
 * worktrees) and compare. Pools (`fresh` and `short` lines; see bench/README.md) are processed
 * one string per call, as make bench does, so that the branch predictors cannot learn the text;
 * other lines one file per call.
 *
 *   cc -std=c11 -O2 -Wall -Wextra -pedantic -Iinclude bench/c/ab_builds.c -ldl -o ab_builds
 *   grep ^fresh bench/target/data/manifest.tsv > fresh.tsv
 *   ./ab_builds utf16_to_utf8 fresh.tsv before/libutf8.so after/libutf8.so ...
 *   grep ^short bench/target/data/manifest.tsv > short.tsv
 *   ./ab_builds utf8_validate short.tsv before/libutf8.so after/libutf8.so ...
 *
 * The function is utf8_validate, utf8_count_chars, utf8_to_utf16, utf8_to_utf32, utf16_to_utf8,
 * utf32_to_utf8, utf8_to_latin1 or latin1_to_utf8 (the last two on text that Latin-1 holds, the
 * `latin1-utf8` lines of the manifest: the UTF-8, whose Latin-1 the first build makes). Prints, per input, the speed of builds 2, 3, ... relative to the first (its
 * time over theirs: above 1.00x they are faster), the first build's time per call and its GB/s
 * of UTF-8, and the placement spread; a ratio within that spread of 1.00x is no difference.
 * Every copy's result is checked first: the input is valid, its characters counted right, and a
 * converter's output converts back to it. LIBUTF8_FORCE_ISA=avx2 (or another) measures another
 * kernel.
 *
 * LIBUTF8_AB_FLAGS=16 (UTF8_UTF16BE) passes those flags to the UTF-16 converters, whose UTF-16,
 * made by the first build, is then big-endian: for the byte order's own cost, before and after.
 *
 * A build given as PATH@ISA runs the implementation ISA (as LIBUTF8_FORCE_ISA=ISA would), so
 * that two implementations of one build can be compared in one process (each copy chooses its
 * implementation on its first call), for example
 *
 *   ./ab_builds utf8_validate corpus.tsv ./libutf8.so@avx2 ./libutf8.so@avx512-zen4
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libutf8.h"

enum { SAMPLES = 5, COPIES = 3, MAX_BUILDS = 8 };

/* One build's function: one of the eight pointers is set. */
struct build {
  utf8_status (*validate)(const char *, size_t, size_t *);
  size_t (*count)(const char *, size_t);
  utf8_result (*to16)(const char *, size_t, uint16_t *, size_t, uint32_t);
  utf8_result (*to32)(const char *, size_t, uint32_t *, size_t, uint32_t);
  utf8_result (*from16)(const uint16_t *, size_t, char *, size_t, uint32_t);
  utf8_result (*from32)(const uint32_t *, size_t, char *, size_t, uint32_t);
  utf8_result (*to_latin1)(const char *, size_t, char *, size_t, uint32_t);
  utf8_result (*from_latin1)(const char *, size_t, char *, size_t, uint32_t);
};

/* `name` from the library at `path`, into the function pointer at `fn` (ISO C has no cast from
 * void * to a function pointer). */
static void load(const char *path, const char *name, void *fn) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  void *sym = lib ? dlsym(lib, name) : NULL;
  if (sym == NULL) {
    fprintf(stderr, "ab_builds: %s: %s\n", path, dlerror());
    exit(2);
  }
  memcpy(fn, &sym, sizeof sym);
}

/* `name` from a copy of the library at `path`, which dlopen loads anew (it opens a file once),
 * at an address of its own. */
static void load_copy(const char *path, const char *name, void *fn) {
  char copy[] = "/tmp/ab_builds-XXXXXX";
  char buf[65536];
  size_t n;
  int fd = mkstemp(copy);
  FILE *from = fopen(path, "rb"), *to = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (from == NULL || to == NULL) {
    fprintf(stderr, "ab_builds: cannot copy %s to %s\n", path, copy);
    exit(2);
  }
  while ((n = fread(buf, 1, sizeof buf, from)) > 0) fwrite(buf, 1, n, to);
  if (ferror(from) || fclose(to) != 0) {
    fprintf(stderr, "ab_builds: cannot copy %s to %s\n", path, copy);
    exit(2);
  }
  fclose(from);
  load(copy, name, fn);
  unlink(copy); /* the mapping stays */
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One input: its strings of UTF-8 (one, or a pool's copies) and their UTF-16, UTF-32 or Latin-1
 * forms. */
struct input {
  char *utf8;
  size_t len, count;   /* bytes per string, strings */
  void *units;         /* the other form, strings back to back */
  size_t *starts;      /* where each string's units start, and the end */
  size_t unit;         /* 2 or 4, or 1 (Latin-1) */
  void *out;           /* room for any one string's output */
};

/* The flags of the UTF-16 converters (LIBUTF8_AB_FLAGS). */
static uint32_t utf16_flags;

/* Runs build `b` on string `k` of `in`; utf8_validate's valid_up_to is the result's `read`. */
static utf8_result run(const struct build *b, const struct input *in, size_t k) {
  const char *text = in->utf8 + k * in->len;
  const char *units = (const char *)in->units + in->starts[k] * in->unit;
  size_t count = in->starts[k + 1] - in->starts[k];
  if (b->count) {
    utf8_result r = {UTF8_OK, 0, 0};
    r.written = b->count(text, in->len);
    return r;
  }
  if (b->validate) {
    /* Not straight into the result: a copy of the result that reads the stores just made
     * would stall (store forwarding fails), 6 ns a call. */
    size_t good = 0;
    utf8_status status = b->validate(text, in->len, &good);
    utf8_result r = {UTF8_OK, 0, 0};
    r.status = status;
    r.read = good;
    return r;
  }
  if (b->to16) return b->to16(text, in->len, (uint16_t *)in->out, in->len, utf16_flags);
  if (b->to32) return b->to32(text, in->len, (uint32_t *)in->out, in->len, 0);
  if (b->to_latin1) return b->to_latin1(text, in->len, in->out, in->len, 0);
  if (b->from_latin1) return b->from_latin1(units, count, in->out, in->len, 0);
  if (b->from16)
    return b->from16((const uint16_t *)(const void *)units, count, in->out, in->len,
                     utf16_flags);
  return b->from32((const uint32_t *)(const void *)units, count, in->out, in->len, 0);
}

/* Makes the first call of build `b`, with LIBUTF8_FORCE_ISA=isa: the library chooses its
 * implementation then, and keeps it. The input is not ASCII, so that the call reaches the
 * implementation. */
static void choose_isa(const struct build *b, const char *isa) {
  static const char e_acute[] = "\xC3\xA9";
  static const uint16_t e_acute16[] = {0xE9};
  static const uint32_t e_acute32[] = {0xE9};
  uint32_t out[2];
  size_t good;
  const char *before = getenv("LIBUTF8_FORCE_ISA");
  char *saved = before ? strdup(before) : NULL;
  setenv("LIBUTF8_FORCE_ISA", isa, 1);
  if (b->validate) b->validate(e_acute, 2, &good);
  if (b->count) b->count(e_acute, 2);
  if (b->to16) b->to16(e_acute, 2, (uint16_t *)out, 2, 0);
  if (b->to32) b->to32(e_acute, 2, out, 2, 0);
  if (b->from16) b->from16(e_acute16, 1, (char *)out, 2, 0);
  if (b->from32) b->from32(e_acute32, 1, (char *)out, 2, 0);
  if (b->to_latin1) b->to_latin1(e_acute, 2, (char *)out, 2, 0);
  if (b->from_latin1) b->from_latin1("\xE9", 1, (char *)out, 2, 0);
  if (saved) {
    setenv("LIBUTF8_FORCE_ISA", saved, 1);
    free(saved);
  } else {
    unsetenv("LIBUTF8_FORCE_ISA");
  }
}

int main(int argc, char **argv) {
  static const char *const functions[] = {"utf8_to_utf16", "utf8_to_utf32", "utf16_to_utf8",
                                          "utf32_to_utf8", "utf8_validate", "utf8_count_chars",
                                          "utf8_to_latin1", "latin1_to_utf8"};
  static struct build build[MAX_BUILDS][COPIES];
  struct build first = {0};
  int builds = argc - 3, from8, which = -1, b, c;
  size_t unit;
  char kind[32], name[128], path[4096];
  size_t call_len;
  FILE *manifest;
  for (b = 0; b < 8 && argc > 1; b++)
    if (strcmp(argv[1], functions[b]) == 0) which = b;
  if (argc < 5 || builds > MAX_BUILDS || which < 0) {
    fprintf(stderr, "usage: %s FUNCTION MANIFEST LIBUTF8_SO[@ISA] LIBUTF8_SO[@ISA]...\n", argv[0]);
    return 2;
  }
  if (getenv("LIBUTF8_AB_FLAGS") != NULL)
    utf16_flags = (uint32_t)strtoul(getenv("LIBUTF8_AB_FLAGS"), NULL, 0);
  from8 = which < 2 || which == 6;
  /* utf8_validate needs no other form (its units are UTF-16, made and unused); the number of
   * UTF-32 units is the number of characters utf8_count_chars must give. */
  unit = which >= 6 ? 1 : which % 2 == 0 ? 2 : 4;
  for (b = 0; b < builds; b++) {
    char *isa = strrchr(argv[3 + b], '@');
    if (isa != NULL) *isa++ = '\0'; /* argv[3 + b] is the path now */
    for (c = 0; c < COPIES; c++) {
      struct build *copy = &build[b][c];
      void *fn[8] = {0};
      load_copy(argv[3 + b], argv[1], &fn[which]);
      memcpy(&copy->to16, &fn[0], sizeof fn[0]);
      memcpy(&copy->to32, &fn[1], sizeof fn[1]);
      memcpy(&copy->from16, &fn[2], sizeof fn[2]);
      memcpy(&copy->from32, &fn[3], sizeof fn[3]);
      memcpy(&copy->validate, &fn[4], sizeof fn[4]);
      memcpy(&copy->count, &fn[5], sizeof fn[5]);
      memcpy(&copy->to_latin1, &fn[6], sizeof fn[6]);
      memcpy(&copy->from_latin1, &fn[7], sizeof fn[7]);
      if (isa != NULL) choose_isa(copy, isa);
    }
  }
  /* The other form of the text, made by the first build. */
  if (unit == 1)
    load(argv[3], "utf8_to_latin1", &first.to_latin1);
  else if (unit == 2)
    load(argv[3], "utf8_to_utf16", &first.to16);
  else
    load(argv[3], "utf8_to_utf32", &first.to32);
  manifest = fopen(argv[2], "r");
  if (!manifest) {
    fprintf(stderr, "ab_builds: cannot read %s\n", argv[2]);
    return 1;
  }
  printf("%-34s", "input");
  for (b = 1; b < builds; b++) printf(" build %d", b + 1);
  printf("   first build                  placement\n");
  while (fscanf(manifest, "%31s %127s %4095s %zu", kind, name, path, &call_len) == 4) {
    struct input in = {0};
    FILE *file = fopen(path, "rb");
    size_t size, k;
    long reps = 1, r;
    static double times[MAX_BUILDS][COPIES][SAMPLES];
    double median[MAX_BUILDS][COPIES], of_build[MAX_BUILDS], spread = 1;
    int s;
    if (!file || fseek(file, 0, SEEK_END) != 0) return 1;
    size = (size_t)ftell(file);
    rewind(file);
    in.len = strcmp(kind, "fresh") == 0 || strcmp(kind, "short") == 0 ? call_len : size;
    in.count = size / in.len;
    in.unit = unit;
    in.utf8 = malloc(size);
    in.units = malloc(size * unit);
    in.starts = malloc((in.count + 1) * sizeof *in.starts);
    in.out = malloc(in.len * unit + 64);
    if (fread(in.utf8, 1, size, file) != size) return 1;
    fclose(file);
    in.starts[0] = 0;
    for (k = 0; k < in.count; k++) {
      const char *text = in.utf8 + k * in.len;
      void *units = (char *)in.units + in.starts[k] * unit;
      utf8_result got = unit == 1   ? first.to_latin1(text, in.len, (char *)units, in.len, 0)
                        : unit == 2 ? first.to16(text, in.len, (uint16_t *)units, in.len,
                                                 utf16_flags)
                                    : first.to32(text, in.len, (uint32_t *)units, in.len, 0);
      in.starts[k + 1] = in.starts[k] + got.written;
    }
    /* Every build must accept the text, and give back the text (to UTF-8) or its units (from
     * UTF-8). */
    for (b = 0; b < builds * COPIES; b++)
      for (k = 0; k < in.count; k++) {
        utf8_result got = run(&build[b / COPIES][b % COPIES], &in, k);
        size_t units = in.starts[k + 1] - in.starts[k];
        int same = which == 5   ? got.written == units /* utf8_count_chars */
                   : which == 4 ? got.read == in.len   /* utf8_validate */
                   : from8      ? got.written == units &&
                                 memcmp(in.out, (char *)in.units + in.starts[k] * unit,
                                        units * unit) == 0
                                : got.written == in.len &&
                                 memcmp(in.out, in.utf8 + k * in.len, in.len) == 0;
        if (got.status != UTF8_OK || !same) {
          fprintf(stderr, "ab_builds: %s: %s gets %s wrong\n", argv[3 + b / COPIES], argv[1],
                  name);
          return 1;
        }
      }
    /* Calls per sample: at least 5 ms of the first build. */
    for (;;) {
      double t0 = now();
      for (r = 0; r < reps; r++)
        for (k = 0; k < in.count; k++) run(&build[0][0], &in, k);
      if (now() - t0 > 5e6) break;
      reps *= 2;
    }
    for (s = 0; s < SAMPLES; s++)
      for (b = 0; b < builds * COPIES; b++) {
        int next = (b + s) % (builds * COPIES), nb = next / COPIES, nc = next % COPIES;
        double t0 = now();
        for (r = 0; r < reps; r++)
          for (k = 0; k < in.count; k++) run(&build[nb][nc], &in, k);
        times[nb][nc][s] = (now() - t0) / (double)(reps * (long)in.count);
      }
    for (b = 0; b < builds; b++) {
      for (c = 0; c < COPIES; c++) {
        qsort(times[b][c], SAMPLES, sizeof(double), by_value);
        median[b][c] = times[b][c][SAMPLES / 2];
      }
      qsort(median[b], COPIES, sizeof(double), by_value);
      of_build[b] = median[b][COPIES / 2];
      if (median[b][COPIES - 1] / median[b][0] > spread)
        spread = median[b][COPIES - 1] / median[b][0];
    }
    printf("%-34s", name);
    for (b = 1; b < builds; b++) printf(" %9.2fx", of_build[0] / of_build[b]);
    printf("   %8.1f ns, %6.2f GB/s   %6.2fx\n", of_build[0], (double)in.len / of_build[0],
           spread);
    free(in.utf8);
    free(in.units);
    free(in.starts);
    free(in.out);
  }
  return 0;
}
