/*
 * Lossy repair of text with errors, libutf8 against ICU and glibc iconv (`make bench`; see
 * bench/README.md). Each corpus file of a manifest (`corpus` lines of `libutf8-bench gen`'s
 * manifest.tsv) has the top bit of one byte flipped in every 1,024, 64 and 16 bytes, at the
 * middle of each stretch, as bench/c/strategies.c does (an ASCII byte becomes a stray byte of
 * 0x80..0xFF, a lead or continuation byte ASCII: errors of every kind). Each is repaired by
 *
 *   libutf8  utf8_replace_invalid: one U+FFFD per maximal subpart;
 *   icu      u_strFromUTF8WithSub(..., 0xFFFD, ...) into UTF-16, then u_strToUTF8: ICU also
 *            replaces each maximal subpart, so its output must be ours byte for byte;
 *   iconv    glibc's iconv from UTF-8 to UTF-8, which has no substitution: the usual loop calls
 *            iconv, and where it stops on EILSEQ or EINVAL writes EF BF BD and skips one byte
 *            (iconv says where the bad input starts, not how long it is). Where an ill-formed
 *            sequence is a truncated character of 2 or 3 bytes (E4 B8 then ASCII), that is one
 *            U+FFFD per byte rather than per maximal subpart: its output is compared, and the
 *            comparison reported, but it is timed either way.
 *
 * Samples interleaved (the first implementation rotating each round), medians, and each peer's
 * paired ratio: the median over the rounds of its time over libutf8's in the same round (the
 * `paired` column; 1 for libutf8). Then the output placement: libutf8 alone, the same repair at
 * 1 error per 16 bytes into an output whose address is at each of several offsets from the
 * input's modulo 4 KiB (the input page-aligned), interleaved likewise, each offset's `paired`
 * the median of its time over offset 0's in the same round. In the first part the output sits
 * at offset 0 from the input, where glibc's malloc puts two large buffers (both mapped, each
 * after a 16-byte header).
 *
 *   lossy_dense MANIFEST > lossy_dense.csv
 *
 * Environment: LIBUTF8_BENCH_SAMPLES (15), LIBUTF8_BENCH_SAMPLE_MS (10), of which this
 * harness takes three times the samples, each a fifth as long (45 of 2 ms by default).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unicode/ustring.h>
#include <unicode/utypes.h>

#include "libutf8.h"

#include "corpus_errors.h"

enum { PAGE = 4096 };

enum impl { LIBUTF8, ICU, ICONV, N_IMPLS };
static const char *const impl_names[N_IMPLS] = { "libutf8", "icu", "iconv" };

static UChar *utf16;     /* ICU's intermediate UTF-16 */
static size_t utf16_cap; /* in units */
static iconv_t cd;

/* Repairs s[0..len) into out (3 * len bytes suffice for every implementation: one U+FFFD per
 * byte at most); the bytes written, or (size_t)-1 on a failure. */
static size_t repair(enum impl m, const char *s, size_t len, char *out)
{
    size_t cap = 3 * len;
    switch (m) {
    case LIBUTF8: {
        size_t n = 0;
        return utf8_replace_invalid(s, len, out, cap, &n) == UTF8_OK ? n : (size_t)-1;
    }
    case ICU: {
        UErrorCode err = U_ZERO_ERROR;
        int32_t n16 = 0, n8 = 0;
        u_strFromUTF8WithSub(utf16, (int32_t)utf16_cap, &n16, s, (int32_t)len, 0xFFFD, NULL,
                             &err);
        if (U_FAILURE(err))
            return (size_t)-1;
        u_strToUTF8(out, (int32_t)cap, &n8, utf16, n16, &err);
        return U_FAILURE(err) ? (size_t)-1 : (size_t)n8;
    }
    default: {
        char *in = (char *)s, *o = out;
        size_t in_left = len, out_left = cap;
        iconv(cd, NULL, NULL, NULL, NULL);
        while (in_left > 0) {
            if (iconv(cd, &in, &in_left, &o, &out_left) != (size_t)-1)
                break;
            if ((errno != EILSEQ && errno != EINVAL) || out_left < 3)
                return (size_t)-1;
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            out_left -= 3;
            in++;
            in_left--;
        }
        return (size_t)(o - out);
    }
    }
}

static double sample(enum impl m, const char *s, size_t len, char *out, long reps)
{
    volatile size_t sink = 0;
    double t = now_ns();
    for (long i = 0; i < reps; i++)
        sink += repair(m, s, len, out);
    (void)sink;
    return (now_ns() - t) / (double)reps;
}

static long reps_for(enum impl m, const char *s, size_t len, char *out, double sample_ns)
{
    double once = sample(m, s, len, out, 2);
    return (long)(sample_ns / (once > 1 ? once : 1)) + 1;
}

/* The median over the rounds of t[k] / base[k]: the time of one against another's in the same
 * round, which a burst of load on a shared machine slows alike, where independent medians
 * move apart. */
static double paired_ratio(const double *t, const double *base, int samples)
{
    double r[MAX_SAMPLES];
    for (int k = 0; k < samples; k++)
        r[k] = base[k] > 0 ? t[k] / base[k] : 0;
    qsort(r, (size_t)samples, sizeof r[0], compare_doubles);
    return r[samples / 2];
}

/* One CSV row; sorts t. */
static void print_row(const char *kind, const char *name, int density, const char *impl,
                      size_t offset, size_t len, size_t errors, double *t, int samples,
                      double paired, const char *same)
{
    qsort(t, (size_t)samples, sizeof t[0], compare_doubles);
    printf("%s,%s,%d,%s,%zu,%zu,%zu,%.1f,%.1f,%.1f,%.4f,%s\n", kind, name, density, impl, offset,
           len, errors, t[samples / 2], t[0], t[samples - 1], paired, same);
}

static const size_t offsets[] = { 0, 16, 64, 2048, 4032, 4080 };
enum { N_OFFSETS = sizeof offsets / sizeof offsets[0] };

static void measure(const char *name, int density, const char *s, size_t len, char *out_base,
                    int samples, double sample_ns)
{
    static double t[N_OFFSETS + N_IMPLS][MAX_SAMPLES]; /* enough for either */
    /* The reference output, and the peers' compared with it. */
    char *ref = malloc(3 * len + 1), *out = out_base; /* out at offset 0 from s */
    if (ref == NULL)
        exit(1);
    size_t ref_len = repair(LIBUTF8, s, len, ref);
    if (ref_len == (size_t)-1) {
        fprintf(stderr, "lossy_dense: libutf8 failed on %s\n", name);
        exit(1);
    }
    size_t errors = 0; /* the U+FFFDs written (the corpus has none of its own) */
    for (size_t i = 0; i + 2 < ref_len; i++)
        if (memcmp(ref + i, "\xEF\xBF\xBD", 3) == 0)
            errors++;
    const char *same[N_IMPLS] = { "yes", "yes", "yes" };
    long reps[N_IMPLS];
    for (int m = 0; m < N_IMPLS; m++) {
        size_t n = repair((enum impl)m, s, len, out);
        if (n == (size_t)-1) {
            fprintf(stderr, "lossy_dense: %s failed on %s\n", impl_names[m], name);
            exit(1);
        }
        if (n != ref_len || memcmp(out, ref, n) != 0) {
            same[m] = "no";
            if (m == ICU)
                fprintf(stderr, "lossy_dense: ICU's output differs from libutf8's on %s, 1 in %d\n",
                        name, density);
        }
        reps[m] = reps_for((enum impl)m, s, len, out, sample_ns);
    }
    free(ref);
    for (int k = 0; k < samples; k++)
        for (int j = 0; j < N_IMPLS; j++) {
            int m = (j + k) % N_IMPLS;
            t[m][k] = sample((enum impl)m, s, len, out, reps[m]);
        }
    double paired[N_IMPLS];
    for (int m = 0; m < N_IMPLS; m++)
        paired[m] = paired_ratio(t[m], t[LIBUTF8], samples);
    for (int m = 0; m < N_IMPLS; m++)
        print_row("peers", name, density, impl_names[m], 0, len, errors, t[m], samples, paired[m],
                  same[m]);
    fflush(stdout);

    if (density != 16)
        return;
    long r = reps_for(LIBUTF8, s, len, out_base, sample_ns);
    for (int k = 0; k < samples; k++)
        for (int j = 0; j < N_OFFSETS; j++) {
            int p = (j + k) % N_OFFSETS;
            t[p][k] = sample(LIBUTF8, s, len, out_base + offsets[p], r);
        }
    double to_first[N_OFFSETS];
    for (int p = 0; p < N_OFFSETS; p++)
        to_first[p] = paired_ratio(t[p], t[0], samples);
    for (int p = 0; p < N_OFFSETS; p++)
        print_row("placement", name, density, "libutf8", offsets[p], len, errors, t[p], samples,
                  to_first[p], "yes");
    fflush(stdout);
}

static void *page_alloc(size_t n)
{
    void *p = NULL;
    return posix_memalign(&p, PAGE, n) == 0 ? p : NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lossy_dense MANIFEST > lossy_dense.csv\n");
        return 2;
    }
    int samples;
    double sample_ns;
    sampling(&samples, &sample_ns);
    /* Three times the samples, each a fifth as long: on a shared machine a sample that the
     * scheduler interrupts is then one of many, which the medians leave out, where with 15 of
     * 10 ms single files' placement spread reached 4x between runs. */
    samples = samples * 3 < MAX_SAMPLES ? samples * 3 : MAX_SAMPLES;
    sample_ns /= 5;

    cd = iconv_open("UTF-8", "UTF-8");
    if (cd == (iconv_t)-1) {
        perror("iconv_open");
        return 1;
    }
    FILE *manifest = fopen(argv[1], "r");
    if (manifest == NULL) {
        perror(argv[1]);
        return 1;
    }
    printf("kind,input,density,impl,offset,bytes,errors,median_ns,min_ns,max_ns,paired,same_output\n");
    char line[4096];
    while (fgets(line, sizeof line, manifest) != NULL) {
        char *kind = strtok(line, "\t\n"), *name = strtok(NULL, "\t\n"),
             *path = strtok(NULL, "\t\n");
        if (kind == NULL || name == NULL || path == NULL || strcmp(kind, "corpus") != 0)
            continue;
        size_t len;
        char *text = read_file(path, &len);
        if (text == NULL || len == 0 || len > INT32_MAX / 3) {
            fprintf(stderr, "lossy_dense: %s: unreadable, empty or too large\n", path);
            return 1;
        }
        /* The input page-aligned; the output room for 3 bytes per input byte past its largest
         * offset. */
        char *s = page_alloc(len), *out = page_alloc(3 * len + PAGE);
        utf16_cap = len; /* a UTF-16 unit per input byte at most */
        utf16 = malloc(utf16_cap * sizeof *utf16);
        if (s == NULL || out == NULL || utf16 == NULL)
            return 1;
        static const int densities[] = { 1024, 64, 16 };
        for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++) {
            memcpy(s, text, len);
            flip_bytes(s, len, (size_t)densities[d]);
            measure(name, densities[d], s, len, out, samples, sample_ns);
        }
        free(s);
        free(out);
        free(utf16);
        free(text);
    }
    fclose(manifest);
    iconv_close(cd);
    return 0;
}
