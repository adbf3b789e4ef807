/*
 * stack_use.c: how much stack each function of the API uses, against the bound that issue 3
 * sets ("stack use bounded by a few hundred bytes").
 *
 * Each function runs over inputs that reach its paths (ASCII, characters of every width, every
 * class of error, strings shorter than a SIMD block and longer than many, every converter
 * direction and flag) on a thread of its own, whose stack is a buffer filled with a pattern
 * beforehand. After the thread ends, the lowest byte of the buffer that no longer holds the
 * pattern shows how deep the calls went below the thread function's frame. Measured this way
 * the figure is what the compiled library really uses, kernels and all, whichever
 * implementation runs (LIBUTF8_FORCE_ISA; the Makefile runs this once per implementation). The
 * library's one-time CPU detection is not in it: it runs on the main thread, which makes the
 * inputs with the library before any thread is measured.
 *
 * A function that leaves a byte of the pattern unchanged could in principle hide a deeper
 * write behind it, so the pattern is checked at two different values and the deeper result
 * is kept.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "libutf8.h"

/* The most stack a call may use, in bytes. Issue 3 bounds validation, decoding and counting
 * by "a few hundred bytes"; the converters keep more state (SIMD registers spilled to 64-byte
 * aligned slots in the kernels), and are held to about a kilobyte and a half: how much the
 * compiler spills depends on its version, and Rust 1.85, the oldest supported, spills more than
 * the current one (the commits that set these give the figures). With UTF8_MORE too: the end
 * of the input converted again runs after the converter has returned, not below it
 * (src/engine/more.rs). */
#define FEW_HUNDRED 512
#define CONVERTERS 1664

/* The size of each thread's stack: glibc keeps its thread descriptor and TLS at its top. */
#define THREAD_STACK (256 * 1024)

/* ---- Inputs, in static storage so that they take no stack ---- */

#define TEXT_LEN 8192
static char mixed[TEXT_LEN];   /* well-formed: ASCII and 2-, 3- and 4-byte characters */
static char ascii[TEXT_LEN];   /* well-formed: ASCII only */
static char broken[TEXT_LEN];  /* mixed, with an error of every class at spread-out places */
/* Mixed text with one error at three quarters, longer than the 2 MiB from which the kernels
 * read ahead in a loop of their own (src/algorithms/lookup.rs, STREAM_FROM). */
#define LARGE_LEN (4u << 20)
static char large[LARGE_LEN];
static uint16_t utf16[TEXT_LEN];
static uint16_t utf16_broken[TEXT_LEN];
static uint32_t utf32[TEXT_LEN];
static uint32_t utf32_broken[TEXT_LEN];
static size_t utf16_len, utf32_len;
/* UTF-8 text whose characters all fit in Latin-1 (U+0020..U+00FF), which utf8_to_latin1
 * converts whole. */
static char latin_utf8[2 * TEXT_LEN];
static size_t latin_utf8_len;
static char out8[4 * TEXT_LEN * 4];
static uint16_t out16[2 * TEXT_LEN];
static uint32_t out32[2 * TEXT_LEN];

/* A fixed pseudo-random sequence (xorshift), so that every run measures the same inputs. */
static uint32_t rng_state = 2463534242u;
static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Fills `buf` with well-formed text: ASCII only, or characters of 1 to 4 bytes (RFC 3629
 * section 3: scalar values below 0x110000 that are not surrogates), up to `len` bytes. */
static void make_text(char *buf, size_t len, int ascii_only) {
    size_t at = 0;
    while (at < len) {
        uint32_t width = ascii_only ? 1 : 1 + next_random() % 4, cp;
        size_t n = 0;
        char enc[4];
        switch (width) {
        case 1: cp = 0x20 + next_random() % 0x5F; break;
        case 2: cp = 0x80 + next_random() % (0x800 - 0x80); break;
        case 3:
            do cp = 0x800 + next_random() % (0x10000 - 0x800);
            while (cp >= 0xD800 && cp <= 0xDFFF);
            break;
        default: cp = 0x10000 + next_random() % (0x110000 - 0x10000); break;
        }
        if (utf8_encode(cp, enc, sizeof enc, &n) != UTF8_OK || at + n > len) {
            buf[at++] = ' ';
            continue;
        }
        memcpy(buf + at, enc, n);
        at += n;
    }
}

/* Every input a function of UTF-8 is run on: the three texts whole, and their prefixes and
 * suffixes of every length up to 160 bytes (one to a few SIMD registers); then the large
 * text. */
typedef void (*utf8_workload)(const char *s, size_t len);

static void for_each_input(utf8_workload work) {
    const char *texts[] = {mixed, ascii, broken};
    size_t t, n;
    for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        work(texts[t], TEXT_LEN);
        for (n = 0; n <= 160; n++) {
            work(texts[t], n);
            work(texts[t] + TEXT_LEN - n, n);
        }
    }
    work(large, LARGE_LEN);
    work(NULL, 0);
}

/* ---- The workloads, one per function or family of functions ---- */

/* The results are summed into a volatile so that no call can be left out. */
static volatile size_t sink;

static void run_validate(const char *s, size_t len) {
    size_t good = 0;
    sink += (size_t)utf8_validate(s, len, &good) + good;
}

static void run_decode_next(const char *s, size_t len) {
    size_t at = 0;
    while (at < len) {
        uint32_t cp = 0;
        size_t used = 0;
        /* The library function itself, not the header's inline code. */
        (utf8_decode_next)(s + at, len - at, &cp, &used);
        sink += cp;
        at += used;
    }
}

static void run_count(const char *s, size_t len) { sink += utf8_count_chars(s, len); }

static void run_forms(const char *s, size_t len) {
    int form;
    for (form = UTF8_FORM_STRICT; form <= UTF8_FORM_RFC2279; form++) {
        size_t good = 0, at = 0;
        sink += (size_t)utf8_validate_form(s, len, (utf8_form)form, &good) + good;
        while (at < len && at < 512) {
            uint32_t cp = 0;
            size_t used = 0;
            utf8_decode_next_form(s + at, len - at, (utf8_form)form, &cp, &used);
            sink += cp;
            at += used;
        }
    }
}

static void run_stream(const char *s, size_t len) {
    utf8_stream st;
    size_t at = 0, good = 0, chunk = 1;
    utf8_stream_init(&st);
    while (at < len) {
        size_t n = len - at < chunk ? len - at : chunk;
        sink += (size_t)utf8_stream_feed(&st, s + at, n, &good);
        at += n;
        chunk = chunk * 3 % 1021 + 1;
    }
    sink += (size_t)utf8_stream_finish(&st, &good) + good;
}

/* The replacement strategies of 1.3, each alone (UTF8_REPLACE is the 1.2 flag). */
static const uint32_t strategies[] = {UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
                                      UTF8_FALLBACK_CP1252};
#define STRATEGIES (sizeof strategies / sizeof strategies[0])

static void run_text(const char *s, size_t len) {
    size_t n = 0, i;
    sink += (size_t)utf8_escape(s, len, UTF8_ESCAPE_C, out8, sizeof out8, &n);
    sink += (size_t)utf8_unescape(out8, n, out8 + sizeof out8 / 2, sizeof out8 / 2, &n);
    sink += (size_t)utf8_escape(s, len, UTF8_ESCAPE_SHELL, out8, sizeof out8, &n) + n;
    sink += (size_t)utf8_replace_invalid(s, len, out8, sizeof out8, &n) + n;
    /* Into UTF-8 the fallbacks apply; UTF8_SURROGATEESCAPE is refused, checked all the same. */
    for (i = 0; i < STRATEGIES; i++)
        sink += (size_t)utf8_replace_invalid_flags(s, len, out8, sizeof out8, strategies[i], &n) + n;
    for (i = 0; i <= len && i < 64; i++)
        sink += utf8_char_start(s, len, i) + utf8_truncate(s, len, i);
    sink += utf8_truncate(s, len, len / 2);
}

/* The converters from UTF-8 with every flag of 1.2, every byte order and every strategy, and
 * `more` (0 or UTF8_MORE) beside each; the length functions without it, which do not take it. */
static void convert_from_utf8(const char *s, size_t len, uint32_t more) {
    uint32_t flags;
    size_t i;
    utf8_result r;
    for (flags = 0; flags <= (UTF8_REPLACE | UTF8_WTF8); flags++) {
        r = utf8_to_utf16(s, len, out16, sizeof out16 / sizeof out16[0], flags | more);
        sink += r.read + r.written;
        /* The other byte order than the machine's (either one swaps on some machine). */
        r = utf8_to_utf16(s, len, out16, sizeof out16 / sizeof out16[0],
                          flags | more | UTF8_UTF16BE);
        sink += r.read + r.written;
        r = utf8_to_utf16(s, len, out16, sizeof out16 / sizeof out16[0],
                          flags | more | UTF8_UTF16LE);
        sink += r.read + r.written;
        if (flags & UTF8_WTF8) continue; /* UTF-16 only */
        r = utf8_to_utf32(s, len, out32, sizeof out32 / sizeof out32[0], flags | more);
        sink += r.read + r.written;
    }
    for (i = 0; i < STRATEGIES; i++) {
        r = utf8_to_utf16(s, len, out16, sizeof out16 / sizeof out16[0], strategies[i] | more);
        sink += r.read + r.written;
        r = utf8_to_utf16(s, len, out16, sizeof out16 / sizeof out16[0],
                          strategies[i] | more | UTF8_UTF16BE);
        sink += r.read + r.written;
        r = utf8_to_utf32(s, len, out32, sizeof out32 / sizeof out32[0], strategies[i] | more);
        sink += r.read + r.written;
        if (more) continue;
        sink += utf16_length_from_utf8_flags(s, len, strategies[i] | UTF8_UTF16BE) +
                utf32_length_from_utf8_flags(s, len, strategies[i]);
    }
    if (!more) sink += utf16_length_from_utf8(s, len) + utf32_length_from_utf8(s, len);
}

static void run_from_utf8(const char *s, size_t len) { convert_from_utf8(s, len, 0); }
static void run_from_utf8_more(const char *s, size_t len) { convert_from_utf8(s, len, UTF8_MORE); }

/* The lengths the converters to UTF-8 take of a text of `total` units: 0 to 160, then all of
 * it; past that, a value that ends the loop. */
static size_t next_length(size_t n, size_t total) {
    if (n < 160 && n < total) return n + 1;
    return n < total ? total : total + 1;
}

/* The converters to UTF-8 take the UTF-16 and UTF-32 texts instead, with `more` as
 * convert_from_utf8 does; on the whole texts only, as their lengths are its own. */
static void convert_to_utf8(size_t len, uint32_t more) {
    const uint16_t *w16[] = {utf16, utf16_broken};
    const uint32_t *w32[] = {utf32, utf32_broken};
    size_t t, n;
    uint32_t flags;
    utf8_result r;
    if (len != TEXT_LEN) return;
    for (t = 0; t < 2; t++)
        for (n = 0; n <= utf16_len; n = next_length(n, utf16_len)) {
            for (flags = 0; flags <= (UTF8_REPLACE | UTF8_WTF8); flags++) {
                r = utf16_to_utf8(w16[t], n, out8, sizeof out8, flags | more);
                sink += r.read + r.written;
                r = utf16_to_utf8(w16[t], n, out8, sizeof out8, flags | more | UTF8_UTF16BE);
                sink += r.read + r.written;
                r = utf16_to_utf8(w16[t], n, out8, sizeof out8, flags | more | UTF8_UTF16LE);
                sink += r.read + r.written;
            }
            /* UTF8_SURROGATEESCAPE, the one strategy from UTF-16 and UTF-32 */
            r = utf16_to_utf8(w16[t], n, out8, sizeof out8, UTF8_SURROGATEESCAPE | more);
            sink += r.read + r.written;
            r = utf16_to_utf8(w16[t], n, out8, sizeof out8,
                              UTF8_SURROGATEESCAPE | more | UTF8_UTF16BE);
            sink += r.read + r.written;
            if (more) continue;
            sink += utf8_length_from_utf16(w16[t], n) +
                    utf8_length_from_utf16_flags(w16[t], n, UTF8_SURROGATEESCAPE);
        }
    for (t = 0; t < 2; t++)
        for (n = 0; n <= utf32_len; n = next_length(n, utf32_len)) {
            for (flags = 0; flags <= UTF8_REPLACE; flags++) {
                r = utf32_to_utf8(w32[t], n, out8, sizeof out8, flags | more);
                sink += r.read + r.written;
            }
            r = utf32_to_utf8(w32[t], n, out8, sizeof out8, UTF8_SURROGATEESCAPE | more);
            sink += r.read + r.written;
            if (more) continue;
            sink += utf8_length_from_utf32(w32[t], n) +
                    utf8_length_from_utf32_flags(w32[t], n, UTF8_SURROGATEESCAPE);
        }
}

static void run_to_utf8(const char *unused, size_t len) {
    (void)unused;
    convert_to_utf8(len, 0);
}

static void run_to_utf8_more(const char *unused, size_t len) {
    (void)unused;
    convert_to_utf8(len, UTF8_MORE);
}

/* Latin-1 and Windows-1252: any bytes are text in both, and UTF-8 into Latin-1, with and
 * without UTF8_REPLACE; once, on the (NULL, 0) input, text that utf8_to_latin1 converts whole,
 * every prefix up to 160 bytes and all of it. */
static void run_latin1(const char *s, size_t len) {
    static const uint32_t flags[] = {0, UTF8_REPLACE, UTF8_MORE};
    size_t i, n;
    utf8_result r;
    for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        r = latin1_to_utf8(s, len, out8, sizeof out8, flags[i]);
        sink += r.read + r.written;
        r = cp1252_to_utf8(s, len, out8, sizeof out8, flags[i]);
        sink += r.read + r.written;
        r = utf8_to_latin1(s, len, out8, sizeof out8, flags[i]);
        sink += r.read + r.written;
    }
    sink += utf8_length_from_latin1(s, len) + utf8_length_from_cp1252(s, len) +
            latin1_length_from_utf8(s, len);
    if (s != NULL) return;
    for (n = 0; n <= latin_utf8_len; n = next_length(n, latin_utf8_len)) {
        r = utf8_to_latin1(latin_utf8, n, out8, sizeof out8, 0);
        sink += r.read + r.written + latin1_length_from_utf8(latin_utf8, n);
    }
}

static void run_detect(const char *s, size_t len) {
    size_t n = 0;
    sink += (size_t)utf8_detect_bom(s, len, &n) + n + utf8_detect_encodings(s, len);
}

/* The functions that take no text: every code point class, every form, and the tables. */
static void run_scalar(const char *unused, size_t unused_len) {
    uint32_t cp;
    char enc[UTF8_FORM_MAX_BYTES];
    (void)unused;
    if (unused_len != 0) return; /* once, on the (NULL, 0) input */
    for (cp = 0; cp <= 0x110010; cp += cp < 0x10000 ? 1 : 0xFF) {
        size_t n = 0;
        int form;
        sink += (size_t)utf8_encode(cp, enc, sizeof enc, &n) + n;
        for (form = UTF8_FORM_STRICT; form <= UTF8_FORM_RFC2279; form++)
            sink += (size_t)utf8_encode_form(cp, (utf8_form)form, enc, sizeof enc, &n) + n;
    }
    for (cp = 0; cp < 20; cp++) sink += strlen(utf8_status_str(-(int)cp));
    sink += strlen(utf8_version());
}

/* Calls nothing: the stack the harness itself uses, subtracted from the others. */
static void run_nothing(const char *s, size_t len) { sink += (size_t)(s != NULL) + len; }

static const struct {
    const char *name;
    utf8_workload work;
    size_t limit;
} workloads[] = {
    {"utf8_validate", run_validate, FEW_HUNDRED},
    {"utf8_decode_next", run_decode_next, FEW_HUNDRED},
    {"utf8_count_chars", run_count, FEW_HUNDRED},
    {"utf8_validate_form, utf8_decode_next_form", run_forms, FEW_HUNDRED},
    {"utf8_stream_init, _feed, _finish", run_stream, FEW_HUNDRED},
    {"utf8_escape, utf8_unescape, utf8_replace_invalid, _flags, utf8_char_start, utf8_truncate",
     run_text, FEW_HUNDRED},
    {"utf8_to_utf16, utf8_to_utf32, utf16_length_from_utf8, utf32_length_from_utf8",
     run_from_utf8, CONVERTERS},
    {"utf16_to_utf8, utf32_to_utf8, utf8_length_from_utf16, utf8_length_from_utf32",
     run_to_utf8, CONVERTERS},
    {"utf8_to_utf16, utf8_to_utf32 with UTF8_MORE", run_from_utf8_more, CONVERTERS},
    {"utf16_to_utf8, utf32_to_utf8 with UTF8_MORE", run_to_utf8_more, CONVERTERS},
    {"utf8_encode, utf8_encode_form, utf8_status_str, utf8_version", run_scalar, FEW_HUNDRED},
    {"latin1_to_utf8, cp1252_to_utf8, utf8_to_latin1 and their lengths", run_latin1, CONVERTERS},
    {"utf8_detect_bom, utf8_detect_encodings", run_detect, FEW_HUNDRED},
};

/* ---- The measurement ---- */

struct job {
    utf8_workload work;
    uintptr_t frame;      /* an address in the thread function's frame */
    unsigned char *stack; /* the thread's stack, filled with `pattern` */
    unsigned char pattern;
    size_t low; /* the offset in `stack` of the lowest byte that no longer holds the pattern */
};

/* Bytes just below this function's frame that are left as they are when the pattern is
 * written again (its own locals and the loop's). */
#define FRAME_GAP 128

/* Runs the work and finds how deep it went. The C library runs code of its own at this depth
 * before it calls the thread function (glibc 2.41: more than a kilobyte), so the pattern below
 * the frame is written again first; and the depth is read before returning, as the library's
 * exit path may go deeper too. Both are loops in this frame, which call nothing (the volatile
 * store keeps the compiler from making the first a call to memset, whose frame would be in the
 * bytes it writes). */
static void *thread_main(void *arg) {
    struct job *job = arg;
    volatile char here = 0;
    volatile unsigned char *p;
    size_t low;
    job->frame = (uintptr_t)&here;
    for (p = job->stack; (uintptr_t)p + FRAME_GAP < job->frame; p++) *p = job->pattern;
    for_each_input(job->work);
    for (low = 0; low < THREAD_STACK && job->stack[low] == job->pattern; low++) continue;
    job->low = low;
    return NULL;
}

/* Runs `work` on a thread whose stack is `stack`, filled with `pattern` first, and sets
 * `*depth` to the bytes used below the thread function's frame: returns 0 if the thread could
 * not run. */
static int stack_depth(utf8_workload work, unsigned char *stack, unsigned char pattern,
                       size_t *depth) {
    pthread_attr_t attr;
    pthread_t thread;
    struct job job;
    size_t low;
    job.work = work;
    job.frame = 0;
    job.stack = stack;
    job.pattern = pattern;
    job.low = THREAD_STACK;
    memset(stack, pattern, THREAD_STACK);
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstack(&attr, stack, THREAD_STACK) != 0 ||
        pthread_create(&thread, &attr, thread_main, &job) != 0)
        return 0;
    pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
    low = job.low;
    *depth = job.frame > (uintptr_t)(stack + low) ? job.frame - (uintptr_t)(stack + low) : 0;
    return job.frame != 0;
}

int main(void) {
    unsigned char *stack = NULL;
    size_t i, harness = 0, worst = 0;
    utf8_result r;

    make_text(mixed, TEXT_LEN, 0);
    make_text(ascii, TEXT_LEN, 1);
    memcpy(broken, mixed, TEXT_LEN);
    /* Errors of every class (RFC 3629 section 4), each at a few places: a stray continuation,
     * C0/C1 and F5..FF leads, an overlong E0 80, a surrogate ED A0, an F4 90 too large, and a
     * lead cut off by ASCII. The text around them stays as make_text wrote it. */
    for (i = 0; i < 8; i++) {
        static const char *const errors[] = {"\x80", "\xC0\xAF", "\xFF", "\xE0\x80\x80",
                                             "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82 "};
        const char *e = errors[i % (sizeof errors / sizeof errors[0])];
        memcpy(broken + 500 + i * 900, e, strlen(e));
    }
    make_text(large, LARGE_LEN, 0);
    large[LARGE_LEN / 4 * 3] = '\xFF'; /* never in UTF-8, wherever it lands */
    r = utf8_to_utf16(mixed, TEXT_LEN, utf16, TEXT_LEN, 0);
    utf16_len = r.written;
    r = utf8_to_utf32(mixed, TEXT_LEN, utf32, TEXT_LEN, 0);
    utf32_len = r.written;
    memcpy(utf16_broken, utf16, sizeof utf16);
    memcpy(utf32_broken, utf32, sizeof utf32);
    utf16_broken[utf16_len / 2] = 0xD800; /* a lone surrogate */
    utf32_broken[utf32_len / 2] = 0x110000; /* beyond Unicode */
    /* Lone trail surrogates that UTF8_SURROGATEESCAPE turns back into the bytes 80 and FF */
    utf16_broken[utf16_len / 4] = 0xDC80;
    utf32_broken[utf32_len / 4] = 0xDCFF;
    for (i = 0; i < TEXT_LEN; i++) {
        unsigned char c = (unsigned char)(0x20 + next_random() % 0xE0);
        if (c < 0x80) {
            latin_utf8[latin_utf8_len++] = (char)c;
        } else { /* RFC 3629: U+0080..U+07FF as 110xxxxx 10xxxxxx */
            latin_utf8[latin_utf8_len++] = (char)(0xC0 | c >> 6);
            latin_utf8[latin_utf8_len++] = (char)(0x80 | (c & 0x3F));
        }
    }
    CHECK(utf8_validate(mixed, TEXT_LEN, NULL) == UTF8_OK &&
              utf8_validate(ascii, TEXT_LEN, NULL) == UTF8_OK &&
              utf8_validate(broken, TEXT_LEN, NULL) != UTF8_OK && utf16_len > 0 && utf32_len > 0 &&
              utf8_validate(large, LARGE_LEN, NULL) != UTF8_OK &&
              latin1_length_from_utf8(latin_utf8, latin_utf8_len) == TEXT_LEN,
          "the inputs are what they should be");

    /* A page-aligned buffer, as pthread_attr_setstack asks. */
    if (posix_memalign((void **)&stack, 4096, THREAD_STACK) != 0) {
        printf("FAIL: no memory for the thread's stack\n");
        return 1;
    }
    /* The harness's own frames, taken off every figure: what is left below the frame of the
     * thread function when it writes the pattern again (FRAME_GAP at most). It may be nothing:
     * where a call keeps its return address in a register (ARM), the thread function's locals
     * can all lie above the one whose address marks its frame, and calling a leaf function that
     * does nothing writes no stack. */
    CHECK(stack_depth(run_nothing, stack, 0xA5, &harness), "the thread ran");
    CHECK(harness <= FRAME_GAP + 64, "the harness alone uses %lu bytes", (unsigned long)harness);
    printf("Stack used per function, bytes, beyond the harness's own %lu:\n",
           (unsigned long)harness);
    for (i = 0; i < sizeof workloads / sizeof workloads[0]; i++) {
        size_t a = 0, b = 0;
        int ran = stack_depth(workloads[i].work, stack, 0xA5, &a) &&
                  stack_depth(workloads[i].work, stack, 0x5A, &b);
        size_t used = (a > b ? a : b) - (harness < a && harness < b ? harness : 0);
        printf("%6lu  (limit %4lu)  %s\n", (unsigned long)used,
               (unsigned long)workloads[i].limit, workloads[i].name);
        CHECK(ran && a > harness && b > harness, "%s: the thread ran and its stack was measured",
              workloads[i].name);
        CHECK(used <= workloads[i].limit, "%s uses %lu bytes of stack, more than %lu",
              workloads[i].name, (unsigned long)used, (unsigned long)workloads[i].limit);
        if (used > worst) worst = used;
    }
    printf("deepest: %lu bytes\n", (unsigned long)worst);
    free(stack);
    return check_summary();
}
