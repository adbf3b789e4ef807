/*
 * corpus_errors.h: what the harnesses that time the corpus with errors put in share
 * (strategies.c, lossy_dense.c): the clock, the samples' order, reading a corpus file, the
 * sampling settings from the environment, and the errors themselves; utf16be_placement.c takes
 * the first three. Static inline functions: each harness is one translation unit, and one that
 * takes only some of them is not warned of the others.
 */
#ifndef LIBUTF8_BENCH_CORPUS_ERRORS_H
#define LIBUTF8_BENCH_CORPUS_ERRORS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* At most this many samples per measurement, whatever LIBUTF8_BENCH_SAMPLES says. */
enum { MAX_SAMPLES = 101 };

static inline double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* For qsort: ascending doubles. */
static inline int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The file at `path`, malloc'ed (one byte to spare), its length in *len; NULL if unreadable. */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *p = n < 0 ? NULL : malloc((size_t)n + 1);
    if (p == NULL || fread(p, 1, (size_t)n, fp) != (size_t)n) {
        fclose(fp);
        free(p);
        return NULL;
    }
    fclose(fp);
    *len = (size_t)n;
    return p;
}

/* LIBUTF8_BENCH_SAMPLES (15, at most MAX_SAMPLES) and LIBUTF8_BENCH_SAMPLE_MS (10), in ns. */
static inline void sampling(int *samples, double *sample_ns)
{
    const char *e = getenv("LIBUTF8_BENCH_SAMPLES");
    *samples = e != NULL && atoi(e) > 0 ? atoi(e) : 15;
    if (*samples > MAX_SAMPLES)
        *samples = MAX_SAMPLES;
    e = getenv("LIBUTF8_BENCH_SAMPLE_MS");
    *sample_ns = (e != NULL && atof(e) > 0 ? atof(e) : 10) * 1e6;
}

/* The errors: the top bit of one byte flipped in every `density` bytes, from density / 2. */
static inline void flip_bytes(char *s, size_t len, size_t density)
{
    for (size_t i = density / 2; i < len; i += density)
        s[i] = (char)(s[i] ^ 0x80);
}

#endif
