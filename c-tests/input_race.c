/*
 * input_race.c: every function that reads a caller's buffer keeps within its buffers while
 * another thread changes the input during the call (issue 47: a program that converts a
 * mapping of a file that another process writes).
 *
 * One thread calls the functions again and again on an input that a second thread keeps
 * changing, a byte at a time, to bytes that change the meaning of what is around them (lead
 * bytes of every length, continuation bytes, ASCII, bytes that are never UTF-8, the halves of
 * surrogates in UTF-16 and UTF-32), and back. Which characters come out is then not
 * specified; what is checked is what the header promises whatever the input does: nothing is
 * written outside [out, out + cap) (the output ends at a PROT_NONE page, so that a store past
 * it faults, and a canary before it must stay unchanged), nothing is read past the input (it
 * ends at a PROT_NONE page too), every count is within its bounds (read <= len,
 * written <= cap, a length function at most the size its contract allows, a valid_up_to or
 * boundary at most len), and each call returns a status of the API.
 *
 * The library reads LIBUTF8_FORCE_ISA once, on first use: run this program once per value.
 * INPUT_RACE_MS (default 1500) bounds the run in milliseconds; a fault prints what was being
 * called before the process dies.
 */
#define _DEFAULT_SOURCE

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "libutf8.h"

/* The longest input, in bytes. */
#define MAX_INPUT 320
/* Bytes of canary before each output. */
#define CANARY 64

static size_t page;

/* Every check of the run, as one group (check.c): the first failures are printed. */
static struct group checks;

/* What is being called, for the fault handler. */
static const char *volatile current = "nothing";

/* The guard pages after the input and after the outputs. */
static unsigned char *input_guard, *output_guard;

static void say(const char *text) {
  ssize_t ignored = write(2, text, strlen(text));
  (void)ignored;
}

static void on_fault(int sig, siginfo_t *info, void *context) {
  unsigned char *at = info->si_addr;
  (void)context;
  say("input_race: fault while calling ");
  say(current);
  say(at >= input_guard && at < input_guard + page     ? ": read past the input\n"
      : at >= output_guard && at < output_guard + page ? ": access past the output\n"
                                                       : ": elsewhere\n");
  _exit(128 + sig);
}

/* `size` bytes that end at a PROT_NONE page. */
static unsigned char *against_guard(size_t size) {
  size_t pages = (size + page - 1) / page + 1;
  unsigned char *base =
      mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || mprotect(base + pages * page, page, PROT_NONE) != 0) {
    perror("input_race: mmap");
    exit(2);
  }
  return base + pages * page - size;
}

/* The input: MAX_INPUT bytes against a guard page; the call reads its last `len`. */
static unsigned char *input_area;
/* The length of the changing input, which ends where input_area does (0: none). One value,
 * so that the writer never pairs a start with another input's length. */
static atomic_size_t racing_len;
static atomic_int stop;

/* Bytes the writer puts into the input. */
static const unsigned char flips[] = {'A',  0x00, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xE4, 0xED,
                                      0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0xB0, 0xD8,
                                      0xDC, 0x10, 0x11, 0xC0};

static uint64_t next_random(uint64_t *state) {
  /* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"). */
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static void *writer(void *arg) {
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  (void)arg;
  while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
    size_t len = atomic_load_explicit(&racing_len, memory_order_acquire);
    if (len == 0) {
      continue;
    }
    unsigned char *p = input_area + MAX_INPUT - len;
    uint64_t r = next_random(&state);
    volatile unsigned char *at = (volatile unsigned char *)p + r % len;
    unsigned char old = *at;
    *at = flips[(r >> 32) % sizeof flips];
    for (unsigned spin = (unsigned)(r >> 48) % 64; spin > 0; spin--) {
      __asm__ __volatile__("" ::: "memory");
    }
    *at = old;
  }
  return NULL;
}

/* Outputs: room for MAX_INPUT units of each width and for the lossy copies and escapes (at
 * most 6 bytes per input byte), each against a guard page, with a canary before. */
#define OUT_BYTES (8 * MAX_INPUT)
static unsigned char *out_area;

static void *output(size_t bytes) {
  unsigned char *out = out_area + OUT_BYTES - bytes;
  memset(out - CANARY, 0xA5, CANARY);
  return out;
}

static void check(int ok, const char *what, size_t len, size_t got) {
  checks.inputs++;
  if (!ok) {
    group_fail(&checks, "%s: len %zu, got %zu", what, len, got);
  }
}

static void check_canary(const void *out, const char *what) {
  const unsigned char *c = (const unsigned char *)out - CANARY;
  for (size_t i = 0; i < CANARY; i++) {
    if (c[i] != 0xA5) {
      check(0, what, 0, i);
      return;
    }
  }
}

static int is_status(int s) {
  return s >= UTF8_ERR_UNSUPPORTED_STRATEGY && s <= UTF8_OK;
}

/* One call of each function on the `len` bytes at `in` (which change meanwhile), with output
 * buffers of `cap` units or bytes. */
static void call_all(const unsigned char *in, size_t len, size_t cap) {
  const char *s = (const char *)in;
  /* The first two are the UTF-32 converters' too; the last two swap on either machine. */
  static const uint32_t utf16_flags[] = {0,         UTF8_REPLACE,
                                         UTF8_WTF8, UTF8_REPLACE | UTF8_WTF8,
                                         UTF8_UTF16BE | UTF8_REPLACE, UTF8_UTF16LE};
  for (size_t f = 0; f < sizeof utf16_flags / sizeof utf16_flags[0]; f++) {
    current = "utf8_to_utf16";
    uint16_t *out16 = output(cap * sizeof *out16);
    struct utf8_result r = utf8_to_utf16(s, len, out16, cap, utf16_flags[f]);
    check(r.read <= len && r.written <= cap && is_status(r.status), "utf8_to_utf16 counts", len,
          r.read);
    check_canary(out16, "utf8_to_utf16 canary");
    if (f < 2) {
      current = "utf8_to_utf32";
      uint32_t *out32 = output(cap * sizeof *out32);
      r = utf8_to_utf32(s, len, out32, cap, utf16_flags[f]);
      check(r.read <= len && r.written <= cap && is_status(r.status), "utf8_to_utf32 counts",
            len, r.read);
      check_canary(out32, "utf8_to_utf32 canary");
    }
    /* The same bytes as UTF-16 and UTF-32 units (the input is 4-byte aligned at its end). */
    size_t len16 = len / 2, len32 = len / 4;
    const uint16_t *in16 = (const uint16_t *)(const void *)(in + len % 2);
    const uint32_t *in32 = (const uint32_t *)(const void *)(in + len % 4);
    current = "utf16_to_utf8";
    char *out8 = output(cap);
    r = utf16_to_utf8(in16, len16, out8, cap, utf16_flags[f]);
    check(r.read <= len16 && r.written <= cap && is_status(r.status), "utf16_to_utf8 counts",
          len16, r.read);
    check_canary(out8, "utf16_to_utf8 canary");
    if (f < 2) {
      current = "utf32_to_utf8";
      out8 = output(cap);
      r = utf32_to_utf8(in32, len32, out8, cap, utf16_flags[f]);
      check(r.read <= len32 && r.written <= cap && is_status(r.status), "utf32_to_utf8 counts",
            len32, r.read);
      check_canary(out8, "utf32_to_utf8 canary");
    }
  }

  /* The replacement strategies (since 1.3), each alone and with UTF8_REPLACE. */
  static const uint32_t strategies[] = {UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
                                        UTF8_FALLBACK_CP1252,
                                        UTF8_SURROGATEESCAPE | UTF8_REPLACE | UTF8_MORE};
  for (size_t f = 0; f < 4; f++) {
    uint32_t flags = strategies[f];
    current = "utf8_to_utf16 (strategy)";
    uint16_t *out16 = output(cap * sizeof *out16);
    struct utf8_result r = utf8_to_utf16(s, len, out16, cap, flags);
    check(r.read <= len && r.written <= cap && is_status(r.status), "utf8_to_utf16 counts", len,
          r.read);
    check_canary(out16, "utf8_to_utf16 (strategy) canary");
    current = "utf8_to_utf32 (strategy)";
    uint32_t *out32 = output(cap * sizeof *out32);
    r = utf8_to_utf32(s, len, out32, cap, flags);
    check(r.read <= len && r.written <= cap && is_status(r.status), "utf8_to_utf32 counts", len,
          r.read);
    check_canary(out32, "utf8_to_utf32 (strategy) canary");
    size_t n16 = utf16_length_from_utf8_flags(s, len, flags);
    check(n16 <= len, "utf16_length_from_utf8_flags <= len", len, n16);
    n16 = utf32_length_from_utf8_flags(s, len, flags);
    check(n16 <= len, "utf32_length_from_utf8_flags <= len", len, n16);
    if (flags & UTF8_SURROGATEESCAPE) {
      size_t len16 = len / 2, len32 = len / 4;
      const uint16_t *in16 = (const uint16_t *)(const void *)(in + len % 2);
      const uint32_t *in32 = (const uint32_t *)(const void *)(in + len % 4);
      current = "utf16_to_utf8 (UTF8_SURROGATEESCAPE)";
      char *out8 = output(cap);
      r = utf16_to_utf8(in16, len16, out8, cap, flags);
      check(r.read <= len16 && r.written <= cap && is_status(r.status), "utf16_to_utf8 counts",
            len16, r.read);
      check_canary(out8, "utf16_to_utf8 (UTF8_SURROGATEESCAPE) canary");
      current = "utf32_to_utf8 (UTF8_SURROGATEESCAPE)";
      out8 = output(cap);
      r = utf32_to_utf8(in32, len32, out8, cap, flags);
      check(r.read <= len32 && r.written <= cap && is_status(r.status), "utf32_to_utf8 counts",
            len32, r.read);
      check_canary(out8, "utf32_to_utf8 (UTF8_SURROGATEESCAPE) canary");
      size_t n8 = utf8_length_from_utf16_flags(in16, len16, flags);
      check(n8 <= 3 * len16, "utf8_length_from_utf16_flags <= 3 len", len16, n8);
      n8 = utf8_length_from_utf32_flags(in32, len32, flags);
      check(n8 <= 4 * len32, "utf8_length_from_utf32_flags <= 4 len", len32, n8);
    } else {
      size_t out_len = 0;
      current = "utf8_replace_invalid_flags";
      char *out8 = output(cap);
      int st = utf8_replace_invalid_flags(s, len, out8, cap, flags, &out_len);
      check(is_status(st) && (st != UTF8_OK || out_len <= cap),
            "utf8_replace_invalid_flags out_len", len, out_len);
      check_canary(out8, "utf8_replace_invalid_flags canary");
    }
  }

  for (size_t f = 0; f < 2; f++) {
    current = "utf8_to_latin1";
    char *out8 = output(cap);
    struct utf8_result r = utf8_to_latin1(s, len, out8, cap, utf16_flags[f]);
    check(r.read <= len && r.written <= cap && is_status(r.status), "utf8_to_latin1 counts", len,
          r.read);
    check_canary(out8, "utf8_to_latin1 canary");
  }
  current = "latin1_to_utf8";
  char *out8 = output(cap);
  struct utf8_result r8 = latin1_to_utf8(s, len, out8, cap, 0);
  check(r8.read <= len && r8.written <= cap && is_status(r8.status), "latin1_to_utf8 counts", len,
        r8.read);
  check_canary(out8, "latin1_to_utf8 canary");
  current = "cp1252_to_utf8";
  out8 = output(cap);
  r8 = cp1252_to_utf8(s, len, out8, cap, 0);
  check(r8.read <= len && r8.written <= cap && is_status(r8.status), "cp1252_to_utf8 counts", len,
        r8.read);
  check_canary(out8, "cp1252_to_utf8 canary");

  current = "length functions";
  size_t n = utf16_length_from_utf8(s, len);
  check(n <= len, "utf16_length_from_utf8 <= len", len, n);
  n = utf32_length_from_utf8(s, len);
  check(n <= len, "utf32_length_from_utf8 <= len", len, n);
  n = utf8_length_from_utf16((const uint16_t *)(const void *)(in + len % 2), len / 2);
  check(n <= 3 * (len / 2), "utf8_length_from_utf16 <= 3 len", len / 2, n);
  n = utf8_length_from_utf32((const uint32_t *)(const void *)(in + len % 4), len / 4);
  check(n <= 4 * (len / 4), "utf8_length_from_utf32 <= 4 len", len / 4, n);
  n = utf8_length_from_latin1(s, len);
  check(n <= 2 * len, "utf8_length_from_latin1 <= 2 len", len, n);
  n = utf8_length_from_cp1252(s, len);
  check(n <= 3 * len, "utf8_length_from_cp1252 <= 3 len", len, n);
  n = latin1_length_from_utf8(s, len);
  check(n <= len, "latin1_length_from_utf8 <= len", len, n);

  current = "utf8_validate";
  size_t valid = 0;
  int status = utf8_validate(s, len, &valid);
  check(is_status(status) && valid <= len, "utf8_validate valid_up_to", len, valid);
  current = "utf8_count_chars";
  n = utf8_count_chars(s, len);
  check(n <= len, "utf8_count_chars <= len", len, n);
  for (int form = 0; form < 5; form++) {
    current = "utf8_validate_form";
    status = utf8_validate_form(s, len, (utf8_form)form, &valid);
    check(is_status(status) && valid <= len, "utf8_validate_form valid_up_to", len, valid);
  }
  current = "utf8_decode_next loop";
  for (size_t at = 0; at < len;) {
    uint32_t cp = 0;
    size_t consumed = 0;
    status = (utf8_decode_next)(s + at, len - at, &cp, &consumed);
    check(is_status(status) && consumed <= len - at, "utf8_decode_next consumed", len - at,
          consumed);
    at += consumed > 0 && consumed <= len - at ? consumed : 1;
  }
  current = "utf8_char_start, utf8_truncate";
  n = utf8_char_start(s, len, len / 2);
  check(n <= len / 2, "utf8_char_start <= i", len, n);
  n = utf8_truncate(s, len, len / 2);
  check(n <= len / 2, "utf8_truncate <= max", len, n);

  current = "utf8_stream_feed";
  struct utf8_stream st;
  utf8_stream_init(&st);
  status = utf8_stream_feed(&st, s, len, &valid);
  check(is_status(status), "utf8_stream_feed status", len, (size_t)status);
  status = utf8_stream_finish(&st, &valid);
  check(is_status(status), "utf8_stream_finish status", len, (size_t)status);

  /* The byte-oriented copies, into `cap` bytes and into the most they can need. */
  size_t caps[2] = {cap, 4 * len};
  for (int c = 0; c < 2; c++) {
    size_t out_len = 0;
    current = "utf8_replace_invalid";
    char *out = output(caps[c]);
    status = utf8_replace_invalid(s, len, out, caps[c], &out_len);
    check(is_status(status) && (status != UTF8_OK || out_len <= caps[c]),
          "utf8_replace_invalid out_len", len, out_len);
    check_canary(out, "utf8_replace_invalid canary");
    for (int style = 0; style < 2; style++) {
      current = "utf8_escape";
      out = output(caps[c]);
      status = utf8_escape(s, len, (utf8_escape_style)style, out, caps[c], &out_len);
      check(is_status(status) && (status != UTF8_OK || out_len <= caps[c]),
            "utf8_escape out_len", len, out_len);
      check_canary(out, "utf8_escape canary");
    }
    current = "utf8_unescape";
    out = output(caps[c]);
    status = utf8_unescape(s, len, out, caps[c], &out_len);
    check(is_status(status) && (status != UTF8_OK || out_len <= caps[c]),
          "utf8_unescape out_len", len, out_len);
    check_canary(out, "utf8_unescape canary");
  }
}

/* Appends the UTF-8 of `cp` (a scalar value) to `buf` at `*n`, if it fits in `max`. */
static void put(unsigned char *buf, size_t *n, size_t max, uint32_t cp) {
  unsigned char b[4];
  size_t k;
  if (cp < 0x80) {
    b[0] = (unsigned char)cp;
    k = 1;
  } else if (cp < 0x800) {
    b[0] = (unsigned char)(0xC0 | cp >> 6);
    b[1] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 2;
  } else if (cp < 0x10000) {
    b[0] = (unsigned char)(0xE0 | cp >> 12);
    b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    b[2] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 3;
  } else {
    b[0] = (unsigned char)(0xF0 | cp >> 18);
    b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    b[3] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 4;
  }
  if (*n + k <= max) {
    memcpy(buf + *n, b, k);
    *n += k;
  }
}

/* A well-formed input of at most `max` bytes: one script (`kind` 0-4) or a random mix. */
static size_t make_input(unsigned char *buf, size_t max, unsigned kind, uint64_t *state) {
  static const uint32_t scripts[] = {'a', 0xE9, 0x4E00, 0x1F600};
  size_t n = 0;
  while (n < max) {
    size_t before = n;
    uint32_t cp;
    if (kind < 4) {
      cp = scripts[kind];
    } else {
      uint64_t r = next_random(state);
      cp = scripts[r % 4] + (uint32_t)(r >> 8) % 64;
    }
    put(buf, &n, max, cp);
    if (n == before) {
      break;
    }
  }
  return n;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(void) {
  GROUP_BEGIN(&checks, "input_race: buffers and bounds kept while the input changes");
  page = (size_t)sysconf(_SC_PAGESIZE);
  input_area = against_guard(MAX_INPUT);
  out_area = against_guard(OUT_BYTES);
  input_guard = input_area + MAX_INPUT;
  output_guard = out_area + OUT_BYTES;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &action, NULL);
  sigaction(SIGBUS, &action, NULL);
  const char *ms = getenv("INPUT_RACE_MS");
  double budget = ms != NULL ? atof(ms) : 1500.0;

  pthread_t thread;
  if (pthread_create(&thread, NULL, writer, NULL) != 0) {
    fprintf(stderr, "input_race: cannot start the writer thread\n");
    return 2;
  }
  uint64_t state = 0x2545F4914F6CDD1DULL;
  unsigned char pristine[MAX_INPUT];
  double start = now_ms();
  unsigned long rounds = 0;
  while (now_ms() - start < budget) {
    uint64_t r = next_random(&state);
    /* Mostly short inputs (the short-string paths), sometimes up to MAX_INPUT. */
    size_t max = r % 4 == 0 ? 1 + (size_t)(r >> 8) % MAX_INPUT : 1 + (size_t)(r >> 8) % 160;
    size_t len = make_input(pristine, max, (unsigned)(r >> 20) % 5, &state);
    if (len == 0) {
      continue;
    }
    unsigned char *in = input_area + MAX_INPUT - len;
    atomic_store_explicit(&racing_len, 0, memory_order_release);
    memcpy(in, pristine, len);
    /* Capacities: the exact size of the input's own conversion (one unit per character
     * below U+10000, as the counts of the pristine input give it), one less, and more. */
    size_t exact = utf16_length_from_utf8((const char *)pristine, len);
    size_t chars = utf8_count_chars((const char *)pristine, len);
    size_t caps[] = {exact, chars, exact > 0 ? exact - 1 : 0, len, exact + 7};
    atomic_store_explicit(&racing_len, len, memory_order_release);
    for (int k = 0; k < 40; k++) {
      call_all(in, len, caps[k % 5]);
    }
    rounds++;
  }
  atomic_store_explicit(&stop, 1, memory_order_relaxed);
  pthread_join(thread, NULL);
  const char *isa = getenv("LIBUTF8_FORCE_ISA");
  printf("input_race (%s): %lu inputs, %lu checks, %lu failed\n", isa ? isa : "default", rounds,
         checks.inputs, checks.failures);
  group_end(&checks);
  return check_summary();
}
