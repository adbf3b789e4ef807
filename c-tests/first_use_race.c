/*
 * first_use_race.c: threads that make their first calls into the library at once, as a
 * threaded program's workers may at start-up. The library chooses its implementation on first
 * use and caches it; each racing thread may choose, all must get correct results, and a
 * LIBUTF8_FORCE_ISA that is ignored must be reported once, as one whole line (the Makefile
 * runs this with such a value and counts the lines on standard error).
 *
 * Exit status 0 if every thread's results are right, 1 otherwise.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "libutf8.h"

enum { THREADS = 8, CHARS = 4096 };

/* "é" (C3 A9) CHARS times, then one byte that is not UTF-8: long enough and not ASCII, so
 * that validation runs the chosen SIMD kernel. */
static char text[2 * CHARS + 1];
static pthread_barrier_t start;

static void *first_calls(void *failed) {
    size_t valid = 0;
    utf8_status st;

    pthread_barrier_wait(&start);
    st = utf8_validate(text, sizeof text, &valid);
    if (st != UTF8_ERR_INVALID_BYTE || valid != 2 * CHARS ||
        utf8_count_chars(text, sizeof text) != CHARS + 1)
        *(int *)failed = 1;
    return NULL;
}

int main(void) {
    pthread_t threads[THREADS];
    int failed[THREADS] = {0};
    int i, bad = 0;

    for (i = 0; i < CHARS; i++) memcpy(text + 2 * i, "\xC3\xA9", 2);
    text[2 * CHARS] = (char)0xFF;
    if (pthread_barrier_init(&start, NULL, THREADS) != 0) return 1;
    for (i = 0; i < THREADS; i++)
        if (pthread_create(&threads[i], NULL, first_calls, &failed[i]) != 0) return 1;
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        bad |= failed[i];
    }
    pthread_barrier_destroy(&start);
    if (bad) fprintf(stderr, "first_use_race: a thread got a wrong result\n");
    return bad;
}
