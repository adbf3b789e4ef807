/*
 * The header's inline utf8_decode_next loop against ICU's U8_NEXT loop (`make bench`; see
 * bench/README.md, "Decoding against ICU").
 *
 * usage: decode_icu COMPILER OUT_CSV FILE...
 *
 * Each FILE (a corpus file, NAME.utf8.txt) is decoded to code points, stored into an array, by
 * two loops that a C programmer writes: one calling utf8_decode_next, which include/libutf8.h
 * turns into its inline function (libutf8_inline_decode_next; the errors, absent here, would go
 * to the library function), and one of ICU's U8_NEXT macro (unicode/utf8.h, header only: no ICU
 * library is linked). Both loops are in this one file, compiled once by each compiler (run.sh
 * builds it with gcc -O2 and with clang -O2; COMPILER names the build in the CSV).
 *
 * Before timing, both loops decode each file once and must give the same code points, none of
 * them negative (U8_NEXT's value for an ill-formed sequence). Then a repetition count is
 * calibrated so that a sample lasts LIBUTF8_BENCH_DECODE_MS (5 ms), and
 * LIBUTF8_BENCH_DECODE_SAMPLES (21) pairs of samples are taken, the two loops one after the
 * other in each pair, the first of the pair alternating, so that a neighbour's load slows both
 * alike. One CSV row per file appended to OUT_CSV (its header written if the file is empty):
 * each loop's median and fastest time per call, and the median over the pairs of ICU's time
 * over libutf8's in the same pair (above 1, libutf8's loop is faster).
 *
 * With LIBUTF8_BENCH_DECODE_ONCE=libutf8 or icu, each file is decoded once by that loop alone,
 * nothing compared, timed or written: the run to count instructions under callgrind, e.g.
 *   LIBUTF8_BENCH_DECODE_ONCE=icu valgrind --tool=callgrind bench/target/decode-icu-gcc \
 *     gcc /dev/null FILE
 * then `callgrind_annotate` (the line of icu_loop or libutf8_loop).
 */
#define _POSIX_C_SOURCE 200809L

#include <libutf8.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicode/utf8.h>

#if !defined(LIBUTF8_INLINE_DECODE_NEXT)
#error "the header's inline utf8_decode_next is what this program measures"
#endif

enum { MAX_SAMPLES = 1001 };

/* A loop of its own, not inlined into the timing loop, for each implementation: each is
 * compiled as it would be in a user's function that decodes a buffer. Each starts a page, so
 * that nothing else in the binary moves it: linked statically, the library's cold functions
 * come first in the program's text, and a change of their size moved both loops by 1,152 bytes,
 * where GCC's loop of the same instructions decoded lipsum Hindi 15% slower (BENCHMARKS.md). */
#define NOINLINE __attribute__((noinline, aligned(4096)))

static NOINLINE size_t libutf8_loop(const char *s, size_t len, uint32_t *out) {
  size_t n = 0;
  while (len > 0) {
    uint32_t cp;
    size_t used;
    utf8_decode_next(s, len, &cp, &used);
    out[n++] = cp;
    s += used;
    len -= used;
  }
  return n;
}

static NOINLINE size_t icu_loop(const char *s, size_t len, int32_t *out) {
  const uint8_t *p = (const uint8_t *)s;
  int32_t i = 0, length = (int32_t)len;
  size_t n = 0;
  while (i < length) {
    UChar32 c;
    U8_NEXT(p, i, length, c);
    out[n++] = c;
  }
  return n;
}

/* The input and output, as far as the compiler knows, may now be anything: a call can be
 * neither hoisted out of the repetition loop nor merged with the one before. */
static void clobber(const void *p) { __asm__ __volatile__("" : : "r"(p) : "memory"); }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long env_long(const char *name, long fallback, long lo, long hi) {
  const char *v = getenv(name);
  char *end;
  long x;
  if (!v || !*v) return fallback;
  x = strtol(v, &end, 10);
  if (*end || x < lo || x > hi) {
    fprintf(stderr, "decode_icu: %s=%s: not a number from %ld to %ld\n", name, v, lo, hi);
    exit(2);
  }
  return x;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) return NULL;
  for (;;) {
    if (n == cap) {
      char *more = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
      if (!more) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = more;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  if (ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* The time of `reps` calls of one loop, in ns per call. */
static double sample(int icu, const char *s, size_t len, void *out, long reps) {
  double t = now();
  for (long r = 0; r < reps; r++) {
    clobber(s);
    if (icu)
      icu_loop(s, len, out);
    else
      libutf8_loop(s, len, out);
    clobber(out);
  }
  return (now() - t) / (double)reps;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: decode_icu COMPILER OUT_CSV FILE...\n");
    return 2;
  }
  const char *compiler = argv[1];
  int samples = (int)env_long("LIBUTF8_BENCH_DECODE_SAMPLES", 21, 1, MAX_SAMPLES);
  double sample_ns = 1e6 * (double)env_long("LIBUTF8_BENCH_DECODE_MS", 5, 1, 10000);
  const char *once = getenv("LIBUTF8_BENCH_DECODE_ONCE");
  if (once && *once && strcmp(once, "libutf8") != 0 && strcmp(once, "icu") != 0) {
    fprintf(stderr, "decode_icu: LIBUTF8_BENCH_DECODE_ONCE=%s: not libutf8 or icu\n", once);
    return 2;
  }
  FILE *csv = fopen(argv[2], "a");
  if (!csv) {
    perror(argv[2]);
    return 1;
  }
  if (ftell(csv) == 0)
    fprintf(csv, "compiler,input,bytes,chars,libutf8_median_ns,libutf8_min_ns,icu_median_ns,"
                 "icu_min_ns,icu_over_libutf8,samples\n");
  for (int a = 3; a < argc; a++) {
    size_t len;
    char *s = read_file(argv[a], &len);
    if (!s) {
      perror(argv[a]);
      return 1;
    }
    if (len > INT32_MAX) {
      fprintf(stderr, "decode_icu: %s: longer than U8_NEXT's int32_t offsets\n", argv[a]);
      return 1;
    }
    uint32_t *ours = malloc((len + 1) * sizeof *ours);
    int32_t *theirs = malloc((len + 1) * sizeof *theirs);
    if (!ours || !theirs) {
      fprintf(stderr, "decode_icu: out of memory\n");
      return 1;
    }
    if (once && *once) {
      size_t k = strcmp(once, "icu") == 0 ? icu_loop(s, len, theirs) : libutf8_loop(s, len, ours);
      free(s);
      free(ours);
      free(theirs);
      if (k == 0 && len != 0) return 1;
      continue;
    }
    size_t n = libutf8_loop(s, len, ours), m = icu_loop(s, len, theirs);
    for (size_t i = 0; i < n && i < m; i++)
      if (theirs[i] < 0 || ours[i] != (uint32_t)theirs[i]) {
        fprintf(stderr, "decode_icu: %s: code point %zu: libutf8 U+%04lX, ICU %ld\n", argv[a],
                i, (unsigned long)ours[i], (long)theirs[i]);
        return 1;
      }
    if (n != m) {
      fprintf(stderr, "decode_icu: %s: libutf8 %zu code points, ICU %zu\n", argv[a], n, m);
      return 1;
    }

    /* Calibration: the repetitions of the slower loop that fill one sample. */
    long reps = 1;
    for (;;) {
      double t = sample(0, s, len, ours, reps), u = sample(1, s, len, theirs, reps);
      double slower = (t > u ? t : u) * (double)reps;
      if (slower >= sample_ns) break;
      reps = slower * 4 < sample_ns ? reps * 4 : (long)((double)reps * sample_ns / slower) + 1;
    }
    double lib[MAX_SAMPLES], icu[MAX_SAMPLES], ratio[MAX_SAMPLES];
    for (int k = 0; k < samples; k++) {
      if (k % 2) {
        icu[k] = sample(1, s, len, theirs, reps);
        lib[k] = sample(0, s, len, ours, reps);
      } else {
        lib[k] = sample(0, s, len, ours, reps);
        icu[k] = sample(1, s, len, theirs, reps);
      }
      ratio[k] = icu[k] / lib[k];
    }
    double r = median(ratio, samples);
    double lib_med = median(lib, samples), icu_med = median(icu, samples);
    const char *base = strrchr(argv[a], '/');
    base = base ? base + 1 : argv[a];
    size_t name_len = strlen(base);
    if (name_len > 9 && strcmp(base + name_len - 9, ".utf8.txt") == 0) name_len -= 9;
    fprintf(csv, "%s,%.*s,%zu,%zu,%.1f,%.1f,%.1f,%.1f,%.4f,%d\n", compiler, (int)name_len, base,
            len, n, lib_med, lib[0], icu_med, icu[0], r, samples);
    fflush(csv);
    fprintf(stderr, "%s %-40.*s libutf8 %8.1f us, ICU %8.1f us, ICU / libutf8 %.3f\n", compiler,
            (int)name_len, base, lib_med / 1e3, icu_med / 1e3, r);
    free(s);
    free(ours);
    free(theirs);
  }
  return ferror(csv) || fclose(csv) ? 1 : 0;
}
