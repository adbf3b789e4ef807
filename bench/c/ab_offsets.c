/*
 * Two builds of libutf8.so side by side: utf8_validate's speed on each file, with the input at
 * several distances from a 64-byte boundary, the two builds' samples interleaved so that a
 * shared machine's noise slows both alike. For changes to the kernels: build the library
 * before and after the change (for example in two git worktrees) and compare.
 *
 *   cc -std=c11 -O2 -Wall -Wextra -pedantic bench/c/ab_offsets.c -ldl -o ab_offsets
 *   ./ab_offsets before/target/release/libutf8.so after/target/release/libutf8.so FILE...
 *
 * Prints, per file and offset, the median GB/s of each build (A/B) and their ratio B/A.
 * LIBUTF8_FORCE_ISA=avx2 (or another) measures another kernel.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*validate_fn)(const char *, size_t, size_t *);

enum { SAMPLES = 15, MAX_INPUT = 1 << 24 };
static const size_t offsets[] = {0, 1, 16, 32, 48, 63};
#define NOFFSETS (sizeof offsets / sizeof offsets[0])

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static validate_fn load(const char *path) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  void *fn = lib ? dlsym(lib, "utf8_validate") : NULL;
  validate_fn validate;
  if (fn == NULL) {
    fprintf(stderr, "ab_offsets: %s: %s\n", path, dlerror());
    exit(2);
  }
  memcpy(&validate, &fn, sizeof validate); /* ISO C has no cast from void * to a function */
  return validate;
}

int main(int argc, char **argv) {
  validate_fn validate[2];
  char *data, *buffer;
  int f;
  if (argc < 4) {
    fprintf(stderr, "usage: ab_offsets A/libutf8.so B/libutf8.so FILE...\n");
    return 2;
  }
  validate[0] = load(argv[1]);
  validate[1] = load(argv[2]);
  data = malloc(MAX_INPUT);
  buffer = aligned_alloc(64, MAX_INPUT + 128);
  if (data == NULL || buffer == NULL) return 1;
  for (f = 3; f < argc; f++) {
    FILE *in = fopen(argv[f], "rb");
    size_t len, o;
    long reps;
    const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
    if (in == NULL) {
      perror(argv[f]);
      return 1;
    }
    len = fread(data, 1, MAX_INPUT, in);
    fclose(in);
    if (len == 0) continue;
    reps = (long)(2e8 / (double)len) + 1;
    printf("%-32.32s", name);
    for (o = 0; o < NOFFSETS; o++) {
      double t[2][SAMPLES], gbs[2];
      int s, k;
      char *s0 = buffer + offsets[o];
      memcpy(s0, data, len);
      for (s = 0; s < SAMPLES; s++) {
        for (k = 0; k < 2; k++) {
          int which = s % 2 ? 1 - k : k; /* alternate which build goes first */
          long r;
          double t0 = now();
          for (r = 0; r < reps; r++) {
            size_t good;
            validate[which](s0, len, &good);
            __asm__ volatile("" : : "r"(good) : "memory");
          }
          t[which][s] = now() - t0;
        }
      }
      for (k = 0; k < 2; k++) {
        qsort(t[k], SAMPLES, sizeof(double), by_value);
        gbs[k] = (double)len * (double)reps / t[k][SAMPLES / 2] / 1e9;
      }
      printf("  %2zu: %5.1f/%5.1f %.2fx", offsets[o], gbs[0], gbs[1], gbs[1] / gbs[0]);
    }
    printf("\n");
  }
  return 0;
}
