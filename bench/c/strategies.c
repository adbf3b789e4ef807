/*
 * The replacement strategies against UTF8_REPLACE on text with errors (`make bench`; see
 * bench/README.md): utf8_to_utf16, utf8_to_utf32 and the lossy copy (utf8_replace_invalid_flags)
 * on each corpus file of a manifest (`corpus` lines of `libutf8-bench gen`'s manifest.tsv) with
 * the top bit of one byte flipped in every 64 bytes, and in every 1024 (an ASCII byte becomes a
 * stray byte of 0x80..0xFF, a lead or continuation byte ASCII: errors of every kind). For each
 * function, file and density, the strategies' samples are interleaved with UTF8_REPLACE's (the
 * first one rotating each round) so that a shared machine's noise slows them alike; each row
 * gives the median, fastest and slowest time per call. bench/report.py judges the goal: each
 * strategy within 10% of UTF8_REPLACE's time.
 *
 *   strategies MANIFEST > strategies.csv
 *
 * Environment: LIBUTF8_BENCH_SAMPLES (15), LIBUTF8_BENCH_SAMPLE_MS (10).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libutf8.h"

#include "corpus_errors.h"

enum { MAX_VARIANTS = 4 };

static uint16_t *out16;
static uint32_t *out32;
static char *out8;
static size_t out_cap;

enum function { TO_UTF16, TO_UTF32, REPAIR, N_FUNCTIONS };
static const char *const function_names[N_FUNCTIONS] = { "utf8_to_utf16", "utf8_to_utf32",
                                                         "utf8_replace_invalid_flags" };

struct variant {
    const char *name;
    uint32_t flags;
};
static const struct variant variants[N_FUNCTIONS][MAX_VARIANTS] = {
    { { "UTF8_REPLACE", UTF8_REPLACE }, { "UTF8_SURROGATEESCAPE", UTF8_SURROGATEESCAPE },
      { "UTF8_FALLBACK_LATIN1", UTF8_FALLBACK_LATIN1 },
      { "UTF8_FALLBACK_CP1252", UTF8_FALLBACK_CP1252 } },
    { { "UTF8_REPLACE", UTF8_REPLACE }, { "UTF8_SURROGATEESCAPE", UTF8_SURROGATEESCAPE },
      { "UTF8_FALLBACK_LATIN1", UTF8_FALLBACK_LATIN1 },
      { "UTF8_FALLBACK_CP1252", UTF8_FALLBACK_CP1252 } },
    { { "UTF8_REPLACE", UTF8_REPLACE }, { "UTF8_FALLBACK_LATIN1", UTF8_FALLBACK_LATIN1 },
      { "UTF8_FALLBACK_CP1252", UTF8_FALLBACK_CP1252 }, { NULL, 0 } },
};

/* One call: the units or bytes written, or (size_t)-1 if it did not convert all of `s`. */
static size_t call(enum function f, const char *s, size_t len, uint32_t flags)
{
    utf8_result r;
    size_t n = 0;
    switch (f) {
    case TO_UTF16:
        r = utf8_to_utf16(s, len, out16, out_cap, flags);
        return r.status == UTF8_OK ? r.written : (size_t)-1;
    case TO_UTF32:
        r = utf8_to_utf32(s, len, out32, out_cap, flags);
        return r.status == UTF8_OK ? r.written : (size_t)-1;
    default:
        return utf8_replace_invalid_flags(s, len, out8, 3 * out_cap, flags, &n) == UTF8_OK
                   ? n
                   : (size_t)-1;
    }
}

static double sample(enum function f, const char *s, size_t len, uint32_t flags, long reps)
{
    volatile size_t sink = 0;
    double t = now_ns();
    for (long i = 0; i < reps; i++)
        sink += call(f, s, len, flags);
    (void)sink;
    return (now_ns() - t) / (double)reps;
}

static void measure(const char *name, int density, const char *s, size_t len, int samples,
                    double sample_ns)
{
    for (int f = 0; f < N_FUNCTIONS; f++) {
        int nv = 0;
        long reps[MAX_VARIANTS];
        static double t[MAX_VARIANTS][MAX_SAMPLES];
        while (nv < MAX_VARIANTS && variants[f][nv].name != NULL)
            nv++;
        for (int v = 0; v < nv; v++) {
            if (call((enum function)f, s, len, variants[f][v].flags) == (size_t)-1) {
                fprintf(stderr, "strategies: %s %s failed on %s\n", function_names[f],
                        variants[f][v].name, name);
                exit(1);
            }
            double once = sample((enum function)f, s, len, variants[f][v].flags, 3);
            reps[v] = (long)(sample_ns / (once > 1 ? once : 1)) + 1;
        }
        for (int k = 0; k < samples; k++)
            for (int j = 0; j < nv; j++) {
                int v = (j + k) % nv;
                t[v][k] = sample((enum function)f, s, len, variants[f][v].flags, reps[v]);
            }
        for (int v = 0; v < nv; v++) {
            qsort(t[v], (size_t)samples, sizeof t[v][0], compare_doubles);
            printf("%s,%d,%s,%s,%zu,%.1f,%.1f,%.1f\n", name, density, function_names[f],
                   variants[f][v].name, len, t[v][samples / 2], t[v][0], t[v][samples - 1]);
        }
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: strategies MANIFEST > strategies.csv\n");
        return 2;
    }
    int samples;
    double sample_ns;
    sampling(&samples, &sample_ns);

    FILE *manifest = fopen(argv[1], "r");
    if (manifest == NULL) {
        perror(argv[1]);
        return 1;
    }
    printf("input,density,function,strategy,bytes,median_ns,min_ns,max_ns\n");
    char line[4096];
    while (fgets(line, sizeof line, manifest) != NULL) {
        char *kind = strtok(line, "\t\n"), *name = strtok(NULL, "\t\n"),
             *path = strtok(NULL, "\t\n");
        if (kind == NULL || name == NULL || path == NULL || strcmp(kind, "corpus") != 0)
            continue;
        size_t len;
        char *text = read_file(path, &len);
        if (text == NULL) {
            perror(path);
            return 1;
        }
        if (len > out_cap) {
            out_cap = len;
            free(out16);
            free(out32);
            free(out8);
            out16 = malloc(len * sizeof *out16);
            out32 = malloc(len * sizeof *out32);
            out8 = malloc(3 * len);
            if (out16 == NULL || out32 == NULL || out8 == NULL)
                return 1;
        }
        static const int densities[] = { 64, 1024 };
        for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++) {
            char *s = malloc(len + 1);
            if (s == NULL)
                return 1;
            memcpy(s, text, len);
            flip_bytes(s, len, (size_t)densities[d]);
            measure(name, densities[d], s, len, samples, sample_ns);
            free(s);
        }
        free(text);
    }
    fclose(manifest);
    return 0;
}
