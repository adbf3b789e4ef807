/*
 * first_use_race.c: threads that make their first calls into the library at once, as a
 * threaded program's workers may at start-up. The library chooses its implementation on first
 * use and caches it; each racing thread may choose, all must get correct results, and a
 * LIBUTF8_FORCE_ISA that is ignored must be reported once, as one whole line (the Makefile
 * runs this with such a value and counts the lines on standard error). The threads' first
 * calls go to each of the functions that run a kernel in turn, since each takes its own way
 * to the choice (UTF-8 into UTF-16 and UTF-32 twice: a short string of ASCII, which the C
 * functions widen with AVX-512 where it is in use, asks for the choice itself); with an
 * argument N (0 to 7), function N is called first, alone, so that a run for each N (as the
 * Makefile makes) is sure to take each of those ways.
 *
 * Exit status 0 if every result is right, 1 otherwise.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libutf8.h"

enum { THREADS = 12, CHARS = 4096, CALLS = 8, ASCII16 = 100, ASCII32 = 48 };

/* "é" (C3 A9) CHARS times, then one byte that is not UTF-8: long enough and not ASCII, so
 * that validation runs the chosen SIMD kernel; and U+00E9 CHARS times in UTF-16 and UTF-32. */
static char text[2 * CHARS + 1];
static uint16_t text16[CHARS];
static uint32_t text32[CHARS];
/* ASCII letters and digits, of which the first ASCII16 or ASCII32 bytes are converted. */
static char ascii[ASCII16];
static pthread_barrier_t start;

/* Call `which` (0..CALLS-1) of the functions that run a kernel, on the texts above: whether
 * its result is right. */
static int call_right(int which) {
  char out8[2 * CHARS];
  uint16_t out16[CHARS];
  uint32_t out32[CHARS];
  size_t valid = 0, k;
  utf8_result r;

  switch (which) {
  case 0:
    return utf8_validate(text, sizeof text, &valid) == UTF8_ERR_INVALID_BYTE &&
           valid == 2 * CHARS;
  case 1:
    return utf8_count_chars(text, sizeof text) == CHARS + 1;
  case 2:
    r = utf8_to_utf16(text, 2 * CHARS, out16, CHARS, 0);
    for (k = 0; k < CHARS && out16[k] == 0xE9; k++) {
    }
    return r.status == UTF8_OK && r.written == CHARS && k == CHARS;
  case 3:
    r = utf8_to_utf32(text, 2 * CHARS, out32, CHARS, 0);
    for (k = 0; k < CHARS && out32[k] == 0xE9; k++) {
    }
    return r.status == UTF8_OK && r.written == CHARS && k == CHARS;
  case 4:
    r = utf16_to_utf8(text16, CHARS, out8, sizeof out8, 0);
    return r.status == UTF8_OK && r.written == 2 * CHARS && memcmp(out8, text, 2 * CHARS) == 0;
  case 5:
    r = utf32_to_utf8(text32, CHARS, out8, sizeof out8, 0);
    return r.status == UTF8_OK && r.written == 2 * CHARS && memcmp(out8, text, 2 * CHARS) == 0;
  case 6:
    r = utf8_to_utf16(ascii, ASCII16, out16, CHARS, 0);
    for (k = 0; k < ASCII16 && out16[k] == (unsigned char)ascii[k]; k++) {
    }
    return r.status == UTF8_OK && r.written == ASCII16 && k == ASCII16;
  default:
    r = utf8_to_utf32(ascii, ASCII32, out32, CHARS, 0);
    for (k = 0; k < ASCII32 && out32[k] == (unsigned char)ascii[k]; k++) {
    }
    return r.status == UTF8_OK && r.written == ASCII32 && k == ASCII32;
  }
}

/* Thread `*arg`: its first call to function `*arg % CALLS`, then the others. */
static void *first_calls(void *arg) {
  int *me = arg, i;

  pthread_barrier_wait(&start);
  for (i = 0; i < CALLS; i++)
    if (!call_right((*me + i) % CALLS)) *me = -1;
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t threads[THREADS];
  int thread[THREADS];
  int i, bad = 0;

  for (i = 0; i < CHARS; i++) {
    memcpy(text + 2 * i, "\xC3\xA9", 2);
    text16[i] = 0xE9;
    text32[i] = 0xE9;
  }
  text[2 * CHARS] = (char)0xFF;
  for (i = 0; i < ASCII16; i++) ascii[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36];
  if (argc > 1 && !call_right(atoi(argv[1]) % CALLS)) bad = 1;
  if (pthread_barrier_init(&start, NULL, THREADS) != 0) return 1;
  for (i = 0; i < THREADS; i++) {
    thread[i] = i;
    if (pthread_create(&threads[i], NULL, first_calls, &thread[i]) != 0) return 1;
  }
  for (i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    bad |= thread[i] < 0;
  }
  pthread_barrier_destroy(&start);
  if (bad) fprintf(stderr, "first_use_race: a result was wrong\n");
  return bad;
}
