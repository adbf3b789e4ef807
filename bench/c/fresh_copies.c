/*
 * Where a converter loses speed on fresh text: not run by `make bench`. A fresh pool of the
 * Rust harness (`bench/target/data/fresh-NAME.pool`, copies of one corpus file of LEN bytes,
 * each with its lines in another order) is converted copy by copy, each copy ROUNDS times in
 * a row (the branch predictors learn it), then all copies in turn ROUNDS times (they cannot):
 * the median ns of a call for each copy, then the mean ns of a call in turn. A call in turn
 * much slower than every copy alone points at branches learned on the repeated text, as on
 * Persian Wikipedia into UTF-32 before the run's stores stopped choosing between three and
 * four (BENCHMARKS.md); a slower call in turn where the inputs outgrow the caches is also
 * memory.
 *
 *   cc -std=c11 -O2 -Wall -Wextra -pedantic -Iinclude bench/c/fresh_copies.c \
 *     target/release/libutf8.a -lpthread -ldl -o fresh_copies
 *   LEN=$(grep -P '^corpus\twikipedia_mars_persan\t' bench/target/data/manifest.tsv | cut -f4)
 *   ./fresh_copies utf8_to_utf32 bench/target/data/fresh-wikipedia_mars_persan.pool $LEN
 *
 * DIRECTION is utf8_to_utf32 or utf32_to_utf8 (each copy's UTF-32 made by utf8_to_utf32 first).
 * ROUNDS (environment, 200 by default).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libutf8.h"

enum { MAX_COPIES = 64, MAX_ROUNDS = 10000 };

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One conversion of copy k in the chosen direction. */
struct pool {
    int to_utf32;
    const char *utf8[MAX_COPIES];
    uint32_t *utf32[MAX_COPIES];
    size_t utf32_len[MAX_COPIES];
    size_t len;
    uint32_t *out32;
    char *out8;
};

static void convert(const struct pool *p, size_t k)
{
    struct utf8_result r;
    if (p->to_utf32)
        r = utf8_to_utf32(p->utf8[k], p->len, p->out32, p->len, 0);
    else
        r = utf32_to_utf8(p->utf32[k], p->utf32_len[k], p->out8, 4 * p->len, 0);
    if (r.status != UTF8_OK) {
        fprintf(stderr, "fresh_copies: copy %lu: status %d\n", (unsigned long)k, (int)r.status);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    struct pool p;
    const char *rounds_env = getenv("ROUNDS");
    size_t rounds = rounds_env ? strtoul(rounds_env, NULL, 10) : 200, n, copies, k, r;
    static double times[MAX_ROUNDS];
    char *text;
    FILE *f;
    double start;

    if (argc != 4 || (strcmp(argv[1], "utf8_to_utf32") && strcmp(argv[1], "utf32_to_utf8")) ||
        rounds == 0 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: [ROUNDS=N] fresh_copies utf8_to_utf32|utf32_to_utf8 POOL LEN\n");
        return 2;
    }
    memset(&p, 0, sizeof p);
    p.to_utf32 = argv[1][5] == '3';
    p.len = strtoul(argv[3], NULL, 10);
    f = fopen(argv[2], "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[2]);
        return 2;
    }
    n = (size_t)ftell(f);
    rewind(f);
    text = malloc(n + 1);
    if (p.len == 0 || text == NULL || fread(text, 1, n, f) != n) {
        fprintf(stderr, "fresh_copies: cannot read %s\n", argv[2]);
        return 2;
    }
    fclose(f);
    copies = n / p.len;
    if (copies == 0 || copies > MAX_COPIES) {
        fprintf(stderr, "fresh_copies: %lu copies of %lu bytes\n", (unsigned long)copies,
                (unsigned long)p.len);
        return 2;
    }
    p.out32 = malloc(p.len * sizeof(uint32_t));
    p.out8 = malloc(4 * p.len);
    if (p.out32 == NULL || p.out8 == NULL)
        return 2;
    for (k = 0; k < copies; k++) {
        struct utf8_result res;
        p.utf8[k] = text + k * p.len;
        p.utf32[k] = malloc(p.len * sizeof(uint32_t));
        if (p.utf32[k] == NULL)
            return 2;
        res = utf8_to_utf32(p.utf8[k], p.len, p.utf32[k], p.len, 0);
        if (res.status != UTF8_OK) {
            fprintf(stderr, "fresh_copies: copy %lu is not UTF-8\n", (unsigned long)k);
            return 1;
        }
        p.utf32_len[k] = res.written;
    }

    /* A moment's busy loop first, so that the clock has risen. */
    start = now_ns();
    while (now_ns() - start < 3e8)
        ;
    for (k = 0; k < copies; k++) {
        for (r = 0; r < rounds; r++) {
            double t = now_ns();
            convert(&p, k);
            times[r] = now_ns() - t;
        }
        qsort(times, rounds, sizeof times[0], by_value);
        printf("copy %lu alone: %.0f ns a call (median of %lu)\n", (unsigned long)k,
               times[rounds / 2], (unsigned long)rounds);
    }
    start = now_ns();
    for (r = 0; r < rounds; r++)
        for (k = 0; k < copies; k++)
            convert(&p, k);
    printf("the %lu copies in turn: %.0f ns a call\n", (unsigned long)copies,
           (now_ns() - start) / (double)(rounds * copies));
    return 0;
}
