/*
 * guard_pages.c: over-read and over-write guards for the libutf8 C API.
 *
 * Every input is copied twice into one arena of read-write pages that lies between two
 * PROT_NONE pages: once so that its last byte is the last byte before the trailing guard page
 * (end-aligned), once so that its first byte is the first byte after the leading guard page
 * (start-aligned). Every function that reads input is then called on exactly [p, p + len):
 * utf8_validate, utf8_count_chars, a lossy utf8_decode_next loop (through the header's macro)
 * and single utf8_decode_next calls at every offset (the library function itself). A read of
 * even one byte outside the buffer on the guarded side is a SIGSEGV that kills the test; a
 * handler first prints what was being tested. The other side of each copy is filled with 0x80,
 * a continuation byte, so that a read there changes a result (it would complete a truncated
 * tail) and fails a check. utf8_encode writes into buffers placed against a guard page in the
 * same way, of exactly the size needed, or smaller (then nothing may be written). The
 * converters (utf8_to_utf16, utf16_to_utf8, utf8_to_utf32, utf32_to_utf8) read inputs placed
 * against either guard page and write outputs of exactly the size needed (as the length
 * functions report it) against the other one, or one unit smaller. Then, with inputs and
 * outputs in arenas of their own, so that both can end at a guard page at once, each input
 * against either guard page converts into outputs that end at a guard page and have room for
 * exactly the units needed and for 1 to 80 more (every count for well-formed text up to 257
 * characters; for the others every count up to 20, then every 4th, or 8th for the longest
 * inputs), then exactly at the leading guard page, and one unit short. Their spare
 * bytes are filled with a pattern that changes from byte to byte before the call and must be
 * unchanged after it: the converters store whole registers past their output and store back
 * what was there. The inputs: well-formed text of each width, 0..96 characters and more up
 * to 257; an ill-formed item (each error class of UTF-8, surrogates encoded in UTF-8, lone
 * UTF-16 surrogates before and after pairs, UTF-32 surrogates and values above 0x10FFFF,
 * some with ASCII or a surrogate in their low 16 bits) after 0..100 characters (at 16, 32 and
 * 64 units +-1 in ASCII) and before 1 or 40, or two such items; ASCII runs of 256..511 units
 * then other characters; inputs of 2,048 bytes and more, and of more than 8,192, with and
 * without ill-formed items. Those with ill-formed items are converted strictly, with
 * UTF8_REPLACE, and for the UTF-16 converters with UTF8_WTF8 and both flags (well-formed text
 * in one of these modes each), every result checked against a reference conversion.
 *
 * The sibling forms (utf8_validate_form, utf8_decode_next_form, utf8_encode_form) get the same
 * treatment as the first functions on each form's own text, cut tails and encodings, and
 * unknown forms must read nothing.
 *
 * The text functions (since 1.2) run on the same inputs: utf8_stream_feed/finish in one chunk,
 * two, and one-byte chunks; utf8_char_start and utf8_truncate at the same offsets as the single
 * calls; and utf8_replace_invalid, utf8_escape (both styles) and utf8_unescape (on the escape's
 * output) with the input against one guard page and an output buffer of exactly the size the
 * size query asked for against the other, then the other way round.
 *
 * Every expected value comes from how the input was built (valid text of known characters, a
 * known tail or error at a known offset) or from the reference codec (reference.c), written
 * from the RFC 3629 section 4 grammar, the status table of the API and the maximal-subpart rule
 * of the Unicode Standard, chapter 3 (for the converters also from its UTF-16 and UTF-32
 * definitions, section 3.9, and the WTF-8 definition: a surrogate code point in 3 bytes); none
 * was printed by the library. Where both exist they are compared too, so a slip in the
 * construction or the reference shows up as a failure rather than as a weaker test.
 *
 * The library reads LIBUTF8_FORCE_ISA (scalar, sse4.2, avx2, avx512, avx512-zen4) once, on
 * first use: run this program once per value. ASCII inputs up to 256 bytes need no kernel, and
 * counting takes the scalar path below 64 bytes, whatever the ISA.
 * GUARD_PAGES_SAMPLE=N runs only every Nth input of the sweeps (and of the converters with room
 * to spare), for slow runs (valgrind).
 * GUARD_PAGES_EXHAUSTIVE=1 adds the large sweeps (every 3-byte input, every 4-byte input
 * F0..F4 80..BF xx xx, lengths up to 600, more error positions and families, single calls at
 * every offset everywhere); they take minutes, not seconds.
 *
 * The last line printed is "N passed, M failed"; the exit status is 0 iff M is 0.
 */

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and sigaction under -std=c99 */
#endif

#include <libutf8.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------------- */
/* The check layer                                                                                */
/* ---------------------------------------------------------------------------------------------- */

#include "calls.h"     /* the converters behind one signature */
#include "check.h"     /* the checks, groups, sname */
#include "reference.h" /* the reference codec */

/* The bytes of an input around offset `at`, for messages: "len N: ... XX XX [XX] XX ...", the
 * byte at `at` in brackets. A few static buffers, so that one printf can use several. */
static const char *around(const unsigned char *p, size_t len, size_t at)
{
    enum { SIDE = 12 };
    static char ring[4][4 * (2 * SIDE + 2) + 48];
    static unsigned next;
    char *buf = ring[next++ % 4], *w = buf;
    size_t from = at > SIDE ? at - SIDE : 0, to = len - at > SIDE ? at + SIDE : len, i;

    w += sprintf(w, "len %lu:", (unsigned long)len);
    if (from > 0)
        w += sprintf(w, " ...");
    for (i = from; i < to; i++)
        w += sprintf(w, i == at ? " [%02X]" : " %02X", p[i]);
    if (at == len)
        w += sprintf(w, " [end]");
    if (to < len)
        w += sprintf(w, " ...");
    return buf;
}

static double now_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *section_name;
static double section_start;
static unsigned long section_first; /* group_inputs when the section began */

static void section_begin(const char *name)
{
    section_name = name;
    section_first = group_inputs;
    section_start = now_seconds();
}

static void section_end(void)
{
    printf("== %s: %lu inputs, %.2f s\n", section_name, group_inputs - section_first,
           now_seconds() - section_start);
    fflush(stdout);
}

/* ---------------------------------------------------------------------------------------------- */
/* The arena: [PROT_NONE page][read-write pages][PROT_NONE page]                                  */
/* ---------------------------------------------------------------------------------------------- */

#define POISON 0x80 /* fills the read-write pages outside the inputs: a continuation byte */

static size_t page_size;
static unsigned char *arena_lo, *arena_hi; /* the read-write pages are [arena_lo, arena_hi) */

/* Maps an arena with room for at least `need` bytes between its guard pages: the read-write
 * pages are [*lo, *hi), filled with POISON. */
static void arena_init(size_t need, unsigned char **lo, unsigned char **hi)
{
    long ps = sysconf(_SC_PAGESIZE);
    size_t rw_pages;
    unsigned char *m;

    page_size = ps > 0 ? (size_t)ps : 4096;
    rw_pages = (need + page_size - 1) / page_size + 1;
    m = mmap(NULL, (rw_pages + 2) * page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    *lo = m + page_size;
    *hi = *lo + rw_pages * page_size;
    if (mprotect(*lo, rw_pages * page_size, PROT_READ | PROT_WRITE) != 0) {
        perror("mprotect");
        exit(2);
    }
    memset(*lo, POISON, rw_pages * page_size);
}

/* What is being tested, for the fault handler. */
static struct {
    const char *volatile group;
    const char *volatile call;
    const char *volatile where;
    const unsigned char *volatile input;
    volatile size_t len;
    volatile size_t off;
} now;

static struct sigaction previous_segv, previous_bus;

/* Async-signal-safe output for the fault handler. */
static void say(const char *s)
{
    size_t n = 0;
    ssize_t r;

    while (s[n] != '\0')
        n++;
    r = write(2, s, n);
    (void)r;
}

static void say_number(size_t v)
{
    char b[24];
    size_t i = sizeof b;
    ssize_t r;

    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    r = write(2, b + i, sizeof b - i);
    (void)r;
}

static void say_bytes(const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789ABCDEF";
    char b[4];
    size_t i;
    ssize_t r;

    for (i = 0; i < n; i++) {
        b[0] = ' ';
        b[1] = digits[p[i] >> 4];
        b[2] = digits[p[i] & 15];
        r = write(2, b, 3);
        (void)r;
    }
}

/* Prints what was being tested, then puts back the previous disposition and returns: the
 * faulting access runs again and gets AddressSanitizer's report, valgrind's, or the default
 * action, so the process still dies of the signal. */
static void on_fault(int sig)
{
    const unsigned char *in = now.input;
    size_t len = now.len;

    say("\nguard_pages: ");
    say(sig == SIGSEGV ? "SIGSEGV" : "SIGBUS");
    say(": an access outside the buffer, in ");
    say(now.call != NULL ? now.call : "(no library call)");
    say(", ");
    say(now.group != NULL ? now.group : "(no group)");
    say(", ");
    say(now.where != NULL ? now.where : "");
    say(" input of length ");
    say_number(len);
    say(", call at offset ");
    say_number(now.off);
    if (in != NULL) {
        say(":");
        if (len > 48) {
            say(" ...");
            say_bytes(in + len - 48, 48);
        } else {
            say_bytes(in, len);
        }
    }
    say("\n");
    sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, NULL);
}

static void install_fault_handler(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
    sigaction(SIGBUS, &sa, &previous_bus);
}

/* In a child process, reads the byte at p; returns the signal that killed the child, or 0. */
static int child_read_dies_of(const unsigned char *p)
{
    pid_t pid;
    int wstatus;

    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        volatile unsigned char c;

        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        c = *(const volatile unsigned char *)p;
        (void)c;
        _exit(0);
    }
    if (waitpid(pid, &wstatus, 0) != pid)
        return -1;
    return WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
}

/* The guard pages really guard: one byte past each end kills a reader; the ends themselves do
 * not. Skipped under valgrind, which would report the child's deliberate fault as an error
 * (recognised by its preloaded library), or with GUARD_PAGES_SELFTEST=0. */
static void test_guards_work(void)
{
    const char *env = getenv("GUARD_PAGES_SELFTEST"), *preload = getenv("LD_PRELOAD");
    int sig;

    if (env != NULL && strcmp(env, "0") == 0) {
        printf("guard self-test SKIPPED (GUARD_PAGES_SELFTEST=0)\n");
        return;
    }
    if (preload != NULL && strstr(preload, "vgpreload") != NULL) {
        printf("guard self-test SKIPPED under valgrind (it would report the child's fault)\n");
        return;
    }
    sig = child_read_dies_of(arena_hi);
    CHECK(sig == SIGSEGV || sig == SIGBUS,
          "reading the first byte of the trailing guard page: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_lo - 1);
    CHECK(sig == SIGSEGV || sig == SIGBUS,
          "reading the last byte of the leading guard page: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_hi - 1);
    CHECK(sig == 0, "reading the last read-write byte: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_lo);
    CHECK(sig == 0, "reading the first read-write byte: child ended with signal %d", sig);
}

/* ---------------------------------------------------------------------------------------------- */
/* Valid text of an exact length                                                                  */
/* ---------------------------------------------------------------------------------------------- */

static size_t max_len; /* inputs of every length 0..max_len */
static int exhaustive; /* GUARD_PAGES_EXHAUSTIVE */
static unsigned long sample = 1; /* GUARD_PAGES_SAMPLE */

enum family { F_ASCII, F_TWO, F_THREE, F_FOUR, F_MIXED, N_FAMILIES };

static const char *const family_names[N_FAMILIES] = { "ASCII", "2-byte", "3-byte", "4-byte",
                                                      "mixed" };

/* Code points of each width (RFC 3629 section 3 table): the ends of each range, the examples
 * of RFC 3629 section 4 and 7 and of the encyclopedia article, and a few more. */
static const uint32_t width2[] = { 0x0080, 0x00A9, 0x0391, 0x05D0, 0x07FF, 0x00A2, 0x0100 };
static const uint32_t width3[] = { 0x0800, 0x20AC, 0x4F60, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF,
                                   0x2262, 0xD55C };
static const uint32_t width4[] = { 0x10000, 0x10348, 0x1F600, 0x233B4, 0xFFFFF, 0x10FFFF,
                                   0x100000 };

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* A scalar value whose encoding is `width` bytes long. */
static uint32_t pick(int family, size_t width, size_t index, uint32_t *state)
{
    uint32_t r = next_random(state), v;

    if (width == 1)
        return family == F_ASCII || family == F_MIXED ? r & 0x7F : 0x41 + (uint32_t)(index % 26);
    if (family == F_MIXED && r % 4 != 0) { /* anywhere in the range, surrogates excluded */
        r = next_random(state);
        if (width == 2)
            return 0x80 + r % 0x780;
        if (width == 3) {
            v = 0x800 + r % (0x10000 - 0x800 - 0x800);
            return v >= 0xD800 ? v + 0x800 : v;
        }
        return 0x10000 + r % 0x100000;
    }
    if (width == 2)
        return width2[(index + r) % COUNT(width2)];
    if (width == 3)
        return width3[(index + r) % COUNT(width3)];
    return width4[(index + r) % COUNT(width4)];
}

/* Writes well-formed UTF-8 of exactly `len` bytes to out, and its characters to cps (if not
 * NULL); returns their number. Fixed-width families start with the ASCII characters that make
 * up the length, so that the text ends with a character of the family's width. */
static size_t make_text(int family, size_t len, uint32_t seed, unsigned char *out, uint32_t *cps)
{
    uint32_t state = seed * 2654435761u ^ (uint32_t)len * 40503u, cp;
    size_t at = 0, chars = 0, width, n;

    while (at < len) {
        size_t left = len - at;

        if (family == F_ASCII) {
            width = 1;
        } else if (family == F_MIXED) {
            width = 1 + next_random(&state) % 4;
            if (width > left)
                width = left;
        } else {
            width = (size_t)family + 1; /* F_TWO .. F_FOUR */
            if (left % width != 0)
                width = 1;
        }
        cp = pick(family, width, chars, &state);
        n = reference_encode(cp, out + at);
        if (n != width) {
            fprintf(stderr, "guard_pages: make_text: U+%04lX is not %lu bytes\n",
                    (unsigned long)cp, (unsigned long)width);
            exit(2);
        }
        if (cps != NULL)
            cps[chars] = cp;
        at += n;
        chars++;
    }
    return chars;
}

/* ---------------------------------------------------------------------------------------------- */
/* One input, at both ends of the arena, through every function that reads input                 */
/* ---------------------------------------------------------------------------------------------- */

/* What the construction of an input says about it. */
struct want {
    utf8_status status; /* of utf8_validate */
    size_t up_to;       /* its *valid_up_to */
    size_t chars;       /* utf8_count_chars, and the steps of a decoding loop */
    const uint32_t *cps; /* valid text: its characters in order; else NULL */
};

/* ALL_OFFSETS: the decoding loop on both copies, single calls at every offset. EDGE_OFFSETS,
 * for the larger sets: the loop on the end-aligned copy only, single calls near both ends. */
enum offsets { ALL_OFFSETS, EDGE_OFFSETS };

#define MAX_LEN_LIMIT 1024
#define EDGE_FRONT 4  /* EDGE_OFFSETS: single calls at the first 4 offsets ... */
#define EDGE_BACK 8   /* ... and the last 8, and at the end itself (length 0) */

static const char *const where_names[2] = { "end-aligned", "start-aligned" };

/* One utf8_decode_next call (the library function, not the header's inline code) at offset i
 * of both copies, against the reference. */
static void single_call(struct group *g, unsigned char *const at[2], const unsigned char *in,
                        size_t len, size_t i)
{
    uint32_t want_cp, cp;
    size_t want_n, n;
    utf8_status want_st, st;
    int k;

    want_st = ref_decode(in + i, len - i, &want_cp, &want_n);
    now.call = "utf8_decode_next (single call)";
    now.off = i;
    for (k = 0; k < 2; k++) {
        now.where = where_names[k];
        cp = 0x12345678;
        n = 99;
        st = (utf8_decode_next)((const char *)at[k] + i, len - i, &cp, &n);
        if (st != want_st || cp != want_cp || n != want_n)
            group_fail(g, "%s, (utf8_decode_next) at offset %lu [%s]: %s U+%04lX consumed %lu, "
                          "want %s U+%04lX consumed %lu",
                       where_names[k], (unsigned long)i, around(in, len, i), sname(st),
                       (unsigned long)cp, (unsigned long)n, sname(want_st),
                       (unsigned long)want_cp, (unsigned long)want_n);
    }
}

/*
 * The text functions (since 1.2) on one input: every function that writes output writes
 * exactly the size it asked for against each guard page (the input against the other one), and
 * every function that reads input reads it against both.
 */

/* Output of any of them is at most this many times the input, plus a few bytes: the shell
 * style writes ''$'\\377' and the like, at most 5 bytes per input byte and 2 more. */
#define OUTPUT_ROOM 8

/* Whether out[0..n) is what the text functions promise to print: well-formed by the
 * reference, and with no C0 control, DEL, C1 control (C2 80..9F) or bidirectional control
 * (E2 80 AA..AE, E2 81 A6..A9). */
static int terminal_safe(const unsigned char *out, size_t n)
{
    size_t up_to, steps, i;

    if (ref_scan(out, n, &up_to, &steps) != UTF8_OK)
        return 0;
    for (i = 0; i < n; i++) {
        if (out[i] < 0x20 || out[i] == 0x7F)
            return 0;
        if (out[i] == 0xC2 && i + 1 < n && out[i + 1] >= 0x80 && out[i + 1] <= 0x9F)
            return 0;
        if (out[i] == 0xE2 && i + 2 < n &&
            ((out[i + 1] == 0x80 && out[i + 2] >= 0xAA && out[i + 2] <= 0xAE) ||
             (out[i + 1] == 0x81 && out[i + 2] >= 0xA6 && out[i + 2] <= 0xA9)))
            return 0;
    }
    return 1;
}

/* What an output function is: utf8_replace_invalid, utf8_unescape, or utf8_escape in a style. */
typedef utf8_status (*output_fn)(const char *in, size_t len, int style, char *out, size_t cap,
                                 size_t *out_len);

static utf8_status call_replace(const char *in, size_t len, int style, char *out, size_t cap,
                                size_t *out_len)
{
    (void)style;
    return utf8_replace_invalid(in, len, out, cap, out_len);
}

static utf8_status call_escape(const char *in, size_t len, int style, char *out, size_t cap,
                               size_t *out_len)
{
    return utf8_escape(in, len, (utf8_escape_style)style, out, cap, out_len);
}

static utf8_status call_unescape(const char *in, size_t len, int style, char *out, size_t cap,
                                 size_t *out_len)
{
    (void)style;
    return utf8_unescape(in, len, out, cap, out_len);
}

/*
 * Runs `fn` on in[0..len): a size query with the input against the leading guard page, then
 * the output of exactly that size against the trailing guard page, then the input against the
 * trailing guard page and the output against the leading one. The output, identical both
 * times, is left in `result` (room for OUTPUT_ROOM * len + 8 bytes); returns its length, or
 * (size_t)-1 after a failure.
 */
static size_t guarded_output(struct group *g, const char *name, output_fn fn, int style,
                             const unsigned char *in, size_t len, unsigned char *result)
{
    unsigned char *src, *dst;
    size_t need = 0, n, cap = OUTPUT_ROOM * len + 8;
    utf8_status st;

    now.call = name;
    now.off = 0;
    /* input start-aligned, size query */
    src = arena_lo;
    memcpy(src, in, len);
    st = fn((const char *)src, len, style, NULL, 0, &need);
    if ((st != UTF8_OK && st != UTF8_ERR_BUFFER_TOO_SMALL) || (st == UTF8_OK) != (need == 0) ||
        need > cap || arena_lo + len + need > arena_hi) {
        group_fail(g, "%s, size query [%s]: %s, %lu bytes", name, around(in, len, 0), sname(st),
                   (unsigned long)need);
        return (size_t)-1;
    }
    /* output end-aligned, exactly the size needed */
    now.where = "input start-aligned, output end-aligned";
    dst = arena_hi - need;
    n = 99;
    st = fn((const char *)src, len, style, (char *)dst, need, &n);
    if (st != UTF8_OK || n != need) {
        group_fail(g, "%s, input at the leading guard, output at the trailing one [%s]: %s, "
                      "%lu bytes, want UTF8_OK, %lu",
                   name, around(in, len, 0), sname(st), (unsigned long)n, (unsigned long)need);
        return (size_t)-1;
    }
    memcpy(result, dst, need);
    memset(dst, POISON, need);
    memset(src, POISON, len);
    /* input end-aligned, output start-aligned */
    now.where = "input end-aligned, output start-aligned";
    src = arena_hi - len;
    memcpy(src, in, len);
    dst = arena_lo;
    n = 99;
    st = fn((const char *)src, len, style, (char *)dst, need, &n);
    if (st != UTF8_OK || n != need || memcmp(dst, result, need) != 0) {
        group_fail(g, "%s, input at the trailing guard, output at the leading one [%s]: %s, "
                      "%lu bytes, want UTF8_OK, %lu, the same bytes",
                   name, around(in, len, 0), sname(st), (unsigned long)n, (unsigned long)need);
        return (size_t)-1;
    }
    memset(dst, POISON, need);
    memset(src, POISON, len);
    return need;
}

/* One input through the streaming validator, in the chunks that `cuts` (increasing offsets)
 * make of the copy at p; the status and position at the end must be utf8_validate's. */
static void stream_chunks(struct group *g, const unsigned char *p, const unsigned char *in,
                          size_t len, const size_t *cuts, size_t ncuts, const char *how,
                          utf8_status want_st, size_t want_up_to)
{
    utf8_stream st;
    utf8_status s = UTF8_OK;
    size_t from = 0, j, at = 99;

    now.call = "utf8_stream_feed";
    utf8_stream_init(&st);
    for (j = 0; j <= ncuts && s == UTF8_OK; j++) {
        size_t to = j < ncuts ? cuts[j] : len;

        now.off = from;
        s = utf8_stream_feed(&st, (const char *)p + from, to - from, &at);
        from = to;
    }
    now.call = "utf8_stream_finish";
    if (s == UTF8_OK)
        s = utf8_stream_finish(&st, &at);
    if (s != want_st || at != want_up_to)
        group_fail(g, "%s, utf8_stream_feed in %s [%s]: %s at %lu, want %s at %lu", now.where,
                   how, around(in, len, want_up_to), sname(s), (unsigned long)at,
                   sname(want_st), (unsigned long)want_up_to);
}

static void text_functions(struct group *g, unsigned char *const at[2], const unsigned char *in,
                           size_t len, utf8_status want_st, size_t want_up_to,
                           enum offsets offsets)
{
    static unsigned char want[4 * MAX_LEN_LIMIT], got[OUTPUT_ROOM * MAX_LEN_LIMIT + 8],
        back[OUTPUT_ROOM * MAX_LEN_LIMIT + 8];
    static size_t starts[MAX_LEN_LIMIT + 1], cuts[MAX_LEN_LIMIT];
    size_t off, n, i, want_len = 0, got_len, back_len;
    uint32_t cp;
    int k, style;

    /* The reference's lossy decoding, and the start of the unit that holds each byte. */
    for (off = 0; off < len; off += n) {
        utf8_status st = ref_decode(in + off, len - off, &cp, &n);

        want_len += reference_encode(st == UTF8_OK ? cp : REPLACEMENT, want + want_len);
        for (i = off; i < off + n; i++)
            starts[i] = off;
    }
    starts[len] = len;

    /* The output functions on every input of the smaller sets, every 8th of the larger ones
     * (whose inputs differ little), to keep the run short. The copies at both ends are
     * overwritten by the outputs: put them back afterwards. */
    if (offsets == EDGE_OFFSETS && g->inputs % 8 != 0)
        goto readers;
    got_len = guarded_output(g, "utf8_replace_invalid", call_replace, 0, in, len, got);
    if (got_len != (size_t)-1 && (got_len != want_len || memcmp(got, want, want_len) != 0))
        group_fail(g, "utf8_replace_invalid [%s]: %lu bytes, want %lu (the reference's lossy "
                      "decoding)", around(in, len, 0), (unsigned long)got_len,
                   (unsigned long)want_len);
    for (style = UTF8_ESCAPE_C; style <= UTF8_ESCAPE_SHELL; style++) {
        got_len = guarded_output(g, "utf8_escape", call_escape, style, in, len, got);
        if (got_len == (size_t)-1)
            continue;
        if (!terminal_safe(got, got_len))
            group_fail(g, "utf8_escape style %d [%s]: the output is not terminal-safe", style,
                       around(in, len, 0));
        if (style != UTF8_ESCAPE_C)
            continue;
        back_len = guarded_output(g, "utf8_unescape", call_unescape, 0, got, got_len, back);
        if (back_len != (size_t)-1 && (back_len != len || memcmp(back, in, len) != 0))
            group_fail(g, "utf8_unescape(utf8_escape(x)) [%s]: %lu bytes, not x",
                       around(in, len, 0), (unsigned long)back_len);
    }
    memcpy(at[0], in, len);
    memcpy(at[1], in, len);

readers:
    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];

        now.where = where_names[k];
        /* one chunk, two halves, and (for the smaller sets) one byte at a time */
        stream_chunks(g, at[k], in, len, NULL, 0, "one chunk", want_st, want_up_to);
        cuts[0] = len / 2;
        stream_chunks(g, at[k], in, len, cuts, 1, "two chunks", want_st, want_up_to);
        if (offsets == ALL_OFFSETS && len > 1) {
            for (i = 1; i < len; i++)
                cuts[i - 1] = i;
            stream_chunks(g, at[k], in, len, cuts, len - 1, "one-byte chunks", want_st,
                          want_up_to);
        }

        for (i = 0; i <= len; i++) {
            if (offsets == EDGE_OFFSETS && i >= EDGE_FRONT && i + EDGE_BACK < len)
                continue;
            now.off = i;
            now.call = "utf8_char_start";
            n = utf8_char_start(p, len, i);
            if (n != starts[i])
                group_fail(g, "%s, utf8_char_start at %lu [%s]: %lu, want %lu", where_names[k],
                           (unsigned long)i, around(in, len, i), (unsigned long)n,
                           (unsigned long)starts[i]);
            now.call = "utf8_truncate";
            n = utf8_truncate(p, len, i);
            if (n != starts[i])
                group_fail(g, "%s, utf8_truncate to %lu [%s]: %lu, want %lu", where_names[k],
                           (unsigned long)i, around(in, len, i), (unsigned long)n,
                           (unsigned long)starts[i]);
        }
    }
}

/*
 * Runs one input: at the end and at the start of the arena, utf8_validate, utf8_count_chars,
 * a lossy decoding loop through the header's utf8_decode_next macro, and single calls of the
 * library's utf8_decode_next at every offset (with EDGE_OFFSETS: the loop at the end of the
 * arena only, single calls near both ends). Expected:
 * `known` where the construction says (and the reference must agree), else the reference.
 */
static void run_input(struct group *g, const unsigned char *in, size_t len,
                      const struct want *known, enum offsets offsets)
{
    unsigned char *at[2];
    utf8_status want_st, st;
    size_t want_up_to, want_chars, up_to, chars, i, off, steps, n;
    int k;

    if (sample > 1) {
        static unsigned long seen;
        if (seen++ % sample != 0)
            return;
    }
    g->inputs++;
    if (len > MAX_LEN_LIMIT || arena_lo + 2 * len > arena_hi) {
        group_fail(g, "input of length %lu does not fit the arena", (unsigned long)len);
        return;
    }
    want_st = ref_scan(in, len, &want_up_to, &want_chars);
    if (known != NULL) {
        if (known->status != want_st || known->up_to != want_up_to || known->chars != want_chars)
            group_fail(g, "THIS TEST IS WRONG: the construction says %s up to %lu, %lu chars; "
                          "the reference %s up to %lu, %lu chars [%s]",
                       sname(known->status), (unsigned long)known->up_to,
                       (unsigned long)known->chars, sname(want_st), (unsigned long)want_up_to,
                       (unsigned long)want_chars, around(in, len, known->up_to));
        want_st = known->status;
        want_up_to = known->up_to;
        want_chars = known->chars;
    }

    at[0] = arena_hi - len; /* the last byte is the last one before the trailing guard page */
    at[1] = arena_lo;       /* the first byte is the first one after the leading guard page */
    memcpy(at[0], in, len);
    memcpy(at[1], in, len);
    now.group = g->name;
    now.input = in;
    now.len = len;

    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];
        uint32_t cp, want_cp;

        now.where = where_names[k];
        now.off = 0;
        now.call = "utf8_validate";
        up_to = 12345;
        st = utf8_validate(p, len, &up_to);
        if (st != want_st || up_to != want_up_to)
            group_fail(g, "%s, utf8_validate [%s]: %s up to %lu, want %s up to %lu",
                       where_names[k], around(in, len, want_up_to), sname(st),
                       (unsigned long)up_to, sname(want_st), (unsigned long)want_up_to);

        now.call = "utf8_count_chars";
        chars = utf8_count_chars(p, len);
        if (chars != want_chars)
            group_fail(g, "%s, utf8_count_chars [%s]: %lu, want %lu", where_names[k],
                       around(in, len, len), (unsigned long)chars, (unsigned long)want_chars);

        /* the lossy decoding loop a C program writes, with the header's macro */
        if (k == 1 && offsets == EDGE_OFFSETS)
            break;
        now.call = "utf8_decode_next (decoding loop)";
        for (off = 0, steps = 0; off < len; steps++) {
            size_t want_n;
            utf8_status want_step;

            now.off = off;
            cp = 0x12345678;
            n = 99;
            st = utf8_decode_next(p + off, len - off, &cp, &n);
            want_step = ref_decode(in + off, len - off, &want_cp, &want_n);
            if (known != NULL && known->cps != NULL && steps < want_chars &&
                want_cp != known->cps[steps]) {
                group_fail(g, "THIS TEST IS WRONG: step %lu, the construction says U+%04lX, "
                              "the reference U+%04lX",
                           (unsigned long)steps, (unsigned long)known->cps[steps],
                           (unsigned long)want_cp);
                break;
            }
            if (st != want_step || cp != want_cp || n != want_n) {
                group_fail(g, "%s, decoding loop step %lu at offset %lu [%s]: %s U+%04lX "
                              "consumed %lu, want %s U+%04lX consumed %lu",
                           where_names[k], (unsigned long)steps, (unsigned long)off,
                           around(in, len, off), sname(st), (unsigned long)cp, (unsigned long)n,
                           sname(want_step), (unsigned long)want_cp, (unsigned long)want_n);
                break;
            }
            off += n;
        }
        if (off == len && steps != want_chars)
            group_fail(g, "%s, decoding loop [%s]: %lu steps, want %lu", where_names[k],
                       around(in, len, len), (unsigned long)steps, (unsigned long)want_chars);
    }

    /* single calls at each offset, up to the end itself (length 0) */
    if (offsets == ALL_OFFSETS || len <= EDGE_FRONT + EDGE_BACK) {
        for (i = 0; i <= len; i++)
            single_call(g, at, in, len, i);
    } else {
        for (i = 0; i < EDGE_FRONT; i++)
            single_call(g, at, in, len, i);
        for (i = len - EDGE_BACK; i <= len; i++)
            single_call(g, at, in, len, i);
    }

    text_functions(g, at, in, len, want_st, want_up_to, offsets);

    memset(at[0], POISON, len);
    memset(at[1], POISON, len);
    now.call = NULL;
    now.input = NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* 1: valid text of every length                                                                  */
/* ---------------------------------------------------------------------------------------------- */

static void test_valid_text(void)
{
    static unsigned char buf[MAX_LEN_LIMIT];
    static uint32_t cps[MAX_LEN_LIMIT];
    struct group g;
    struct want w;
    int f;
    uint32_t seed;
    size_t len;

    section_begin("valid text, every length");
    for (f = 0; f < N_FAMILIES; f++)
        for (seed = 1; seed <= (f == F_MIXED ? 3u : 1u); seed++) {
            GROUP_BEGIN(&g, "valid %s text (seed %lu), lengths 0..%lu", family_names[f],
                        (unsigned long)seed, (unsigned long)max_len);
            for (len = 0; len <= max_len; len++) {
                w.chars = make_text(f, len, seed, buf, cps);
                w.status = UTF8_OK;
                w.up_to = len;
                w.cps = cps;
                run_input(&g, buf, len, &w, ALL_OFFSETS);
            }
            group_end(&g);
        }
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 2: valid text then a tail: a truncated sequence, or a lone byte                                */
/* ---------------------------------------------------------------------------------------------- */

struct tail {
    const char *bytes;
    size_t len;
    utf8_status status; /* of the whole input: the tail is its first ill-formed sequence */
    size_t steps;       /* decoding-loop steps the tail takes */
};

#define BYTES(s) (s), (sizeof(s) - 1)

static const struct tail tails[] = {
    /* proper prefixes of well-formed sequences (RFC 3629 section 4): the input ends inside */
    { BYTES("\xC2"), UTF8_ERR_TRUNCATED, 1 },             /* of C2 A9, RFC 3629 section 4 */
    { BYTES("\xDF"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xE2\x82"), UTF8_ERR_TRUNCATED, 1 },         /* of E2 82 AC, the euro sign */
    { BYTES("\xE0\xA0"), UTF8_ERR_TRUNCATED, 1 },         /* of U+0800 */
    { BYTES("\xED\x9F"), UTF8_ERR_TRUNCATED, 1 },         /* of U+D7FF */
    { BYTES("\xEF\xBF"), UTF8_ERR_TRUNCATED, 1 },         /* of U+FFFF */
    { BYTES("\xF0\x9F\x98"), UTF8_ERR_TRUNCATED, 1 },     /* of F0 9F 98 80, RFC 3629 s. 4 */
    { BYTES("\xF4\x8F\xBF"), UTF8_ERR_TRUNCATED, 1 },     /* of U+10FFFF */
    { BYTES("\xF0\x90\x80"), UTF8_ERR_TRUNCATED, 1 },     /* of U+10000 */
    { BYTES("\xF1\x80\x80"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xF3\xBF\xBF"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xF0\x9F"), UTF8_ERR_TRUNCATED, 1 },
    /* a lone lead byte at the very end */
    { BYTES("\xE0"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xE1"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xED"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xF0"), UTF8_ERR_TRUNCATED, 1 },
    { BYTES("\xF4"), UTF8_ERR_TRUNCATED, 1 },
    /* a lone byte that begins no sequence, at the very end */
    { BYTES("\xF5"), UTF8_ERR_TOO_LARGE, 1 },
    { BYTES("\xFF"), UTF8_ERR_INVALID_BYTE, 1 },
    { BYTES("\xC0"), UTF8_ERR_OVERLONG, 1 },
    { BYTES("\x80"), UTF8_ERR_UNEXPECTED_CONTINUATION, 1 },
    { BYTES("\xBF"), UTF8_ERR_UNEXPECTED_CONTINUATION, 1 },
    /* a prefix whose second byte already decides the error, at the very end */
    { BYTES("\xE0\x80"), UTF8_ERR_OVERLONG, 2 },
    { BYTES("\xED\xA0"), UTF8_ERR_SURROGATE, 2 },
    { BYTES("\xF4\x90"), UTF8_ERR_TOO_LARGE, 2 },
    { BYTES("\xF0\x8F\xBF"), UTF8_ERR_OVERLONG, 3 },
};

static const char *tail_hex(const struct tail *t)
{
    static char buf[16];
    char *w = buf;
    size_t i;

    for (i = 0; i < t->len; i++)
        w += sprintf(w, i ? " %02X" : "%02X", (unsigned char)t->bytes[i]);
    return buf;
}

static void test_tails(void)
{
    static unsigned char buf[MAX_LEN_LIMIT];
    struct group g;
    struct want w;
    size_t t, len;
    int f;

    section_begin("valid text then a truncated or bad tail, every length");
    for (t = 0; t < COUNT(tails); t++)
        for (f = 0; f < N_FAMILIES; f++) {
            GROUP_BEGIN(&g, "valid %s text then [%s], lengths %lu..%lu", family_names[f],
                        tail_hex(&tails[t]), (unsigned long)tails[t].len,
                        (unsigned long)max_len);
            for (len = tails[t].len; len <= max_len; len++) {
                size_t prefix = len - tails[t].len;

                w.chars = make_text(f, prefix, 7, buf, NULL) + tails[t].steps;
                memcpy(buf + prefix, tails[t].bytes, tails[t].len);
                w.status = tails[t].status;
                w.up_to = prefix;
                w.cps = NULL;
                run_input(&g, buf, len, &w, ALL_OFFSETS);
            }
            group_end(&g);
        }
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 3: an error of every class at the end and around block boundaries                             */
/* ---------------------------------------------------------------------------------------------- */

struct bad {
    const char *bytes;
    size_t len;
    utf8_status status;
    size_t decisive; /* the bytes that decide the error; a shorter cut at the end is TRUNCATED */
    size_t steps;    /* decoding-loop steps the whole sequence takes */
};

/* From RFC 3629 sections 3 and 4, and the API's status table. Each is a lead byte that is an
 * error on its own or with its second byte, then continuation bytes that are each an error of
 * their own (steps = len); or a lead byte cut short by a non-continuation byte (MISSING), where
 * the maximal subpart is one step and what follows is one more. */
static const struct bad errors[] = {
    { BYTES("\x80"), UTF8_ERR_UNEXPECTED_CONTINUATION, 1, 1 },
    { BYTES("\xBF"), UTF8_ERR_UNEXPECTED_CONTINUATION, 1, 1 },
    { BYTES("\xC0\x80"), UTF8_ERR_OVERLONG, 1, 2 },               /* RFC 3629 section 4 */
    { BYTES("\xC1\xBF"), UTF8_ERR_OVERLONG, 1, 2 },
    { BYTES("\xE0\x80\x80"), UTF8_ERR_OVERLONG, 2, 3 },
    { BYTES("\xE0\x9F\xBF"), UTF8_ERR_OVERLONG, 2, 3 },
    { BYTES("\xF0\x80\x80\x80"), UTF8_ERR_OVERLONG, 2, 4 },
    { BYTES("\xF0\x8F\xBF\xBF"), UTF8_ERR_OVERLONG, 2, 4 },
    { BYTES("\xED\xA0\x80"), UTF8_ERR_SURROGATE, 2, 3 },          /* RFC 3629 section 4 */
    { BYTES("\xED\xBF\xBF"), UTF8_ERR_SURROGATE, 2, 3 },
    { BYTES("\xF4\x90\x80\x80"), UTF8_ERR_TOO_LARGE, 2, 4 },
    { BYTES("\xF5\x80\x80\x80"), UTF8_ERR_TOO_LARGE, 1, 4 },      /* RFC 3629 section 4 */
    { BYTES("\xF7\xBF\xBF\xBF"), UTF8_ERR_TOO_LARGE, 1, 4 },
    { BYTES("\xF8"), UTF8_ERR_INVALID_BYTE, 1, 1 },
    { BYTES("\xFE"), UTF8_ERR_INVALID_BYTE, 1, 1 },
    { BYTES("\xFF"), UTF8_ERR_INVALID_BYTE, 1, 1 },
    { BYTES("\xF8\x88\x80\x80\x80"), UTF8_ERR_INVALID_BYTE, 1, 5 }, /* RFC 2279's 5-byte form */
    { BYTES("\xC2\x41"), UTF8_ERR_MISSING_CONTINUATION, 2, 2 },
    { BYTES("\xE1\x41"), UTF8_ERR_MISSING_CONTINUATION, 2, 2 },
    { BYTES("\xE2\x82\x41"), UTF8_ERR_MISSING_CONTINUATION, 3, 2 },
    { BYTES("\xF1\x80\x41"), UTF8_ERR_MISSING_CONTINUATION, 3, 2 },
    { BYTES("\xF0\x9F\x98\x41"), UTF8_ERR_MISSING_CONTINUATION, 4, 2 },
    { BYTES("\xDF\xC2\xA9"), UTF8_ERR_MISSING_CONTINUATION, 2, 2 }, /* then a whole C2 A9 */
};

/* Where an error starts: at the end (its first byte the last, last-1 .. last-4, or its last
 * byte the last), at the start, and around the 16-, 32- and 64-byte boundaries: -3, -1, 0, +1,
 * +3 (with GUARD_PAGES_EXHAUSTIVE, -4..+3, and 48 too). */
static size_t error_positions(size_t len, size_t elen, size_t *pos)
{
    static const size_t boundaries[] = { 16, 32, 64, 128, 192, 256, 48,
                                         320, 384, 448, 512, 576 };
    static unsigned char seen[MAX_LEN_LIMIT];
    size_t cand[8 * COUNT(boundaries) + 16], nc = 0, n = 0, i;
    int d;

    if (len == 0)
        return 0;
    for (i = 1; i <= 5 && i <= len; i++)
        cand[nc++] = len - i;
    if (elen <= len)
        cand[nc++] = len - elen;
    cand[nc++] = 0;
    cand[nc++] = 1;
    for (i = 0; i < COUNT(boundaries) && boundaries[i] < len + 4; i++) {
        if (boundaries[i] == 48 && !exhaustive)
            continue;
        for (d = -4; d <= 3; d++) /* the boundaries are all above 4 */
            if (exhaustive || d == -3 || d == -1 || d == 0 || d == 1 || d == 3)
                cand[nc++] = (size_t)((long)boundaries[i] + d);
    }
    for (i = 0; i < nc; i++)
        if (cand[i] < len && !seen[cand[i]]) {
            seen[cand[i]] = 1;
            pos[n++] = cand[i];
        }
    for (i = 0; i < n; i++)
        seen[pos[i]] = 0;
    return n;
}

static void test_errors(void)
{
    static const int families[] = { F_ASCII, F_MIXED, F_FOUR };
    static unsigned char buf[MAX_LEN_LIMIT];
    size_t pos[128];
    struct group g;
    struct want w;
    size_t e, len, np, j, fi;

    section_begin("an error of every class at the end and around block boundaries");
    for (e = 0; e < COUNT(errors); e++) {
        const struct bad *b = &errors[e];

        for (fi = 0; fi < (exhaustive ? COUNT(families) : 2); fi++) {
            int f = families[fi];

            GROUP_BEGIN(&g, "%s %s in valid %s text, lengths 1..%lu", sname(b->status),
                        tail_hex(&(const struct tail){ b->bytes, b->len, UTF8_OK, 0 }),
                        family_names[f], (unsigned long)max_len);
            for (len = 1; len <= max_len; len++) {
                np = error_positions(len, b->len, pos);
                for (j = 0; j < np; j++) {
                    size_t at = pos[j], k = len - at < b->len ? len - at : b->len;

                    w.chars = make_text(f, at, 11, buf, NULL);
                    memcpy(buf + at, b->bytes, k);
                    if (k == b->len) { /* whole, then valid text to the end */
                        w.chars += b->steps + make_text(f, len - at - k, 13, buf + at + k, NULL);
                        w.status = b->status;
                    } else if (k >= b->decisive) { /* cut, still this error */
                        w.chars += k;
                        w.status = b->status;
                    } else { /* cut before the deciding byte: the input ends inside */
                        w.chars += 1;
                        w.status = UTF8_ERR_TRUNCATED;
                    }
                    w.up_to = at;
                    w.cps = NULL;
                    run_input(&g, buf, len, &w, exhaustive ? ALL_OFFSETS : EDGE_OFFSETS);
                }
            }
            group_end(&g);
        }
    }
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 4: every short input, alone and at the end of one or two blocks                                */
/* ---------------------------------------------------------------------------------------------- */

/* The bytes that stand for all 256 after the second byte, in the default sweeps: each edge of
 * the ranges of RFC 3629 section 4 and of the API's status table, and a few inside them. */
static const unsigned char some_bytes[] = { 0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                            0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                            0xF0, 0xF4, 0xF5, 0xF8, 0xFF };

/* Every input of `n` bytes whose first byte is in first_lo..first_hi and second byte in
 * second_lo..second_hi, and whose later bytes are any byte (all: 1) or one of some_bytes (0),
 * after `prefix` bytes of valid mixed text; expected values from the reference. */
static void sweep(size_t n, unsigned first_lo, unsigned first_hi, unsigned second_lo,
                  unsigned second_hi, int all, size_t prefix)
{
    static unsigned char buf[MAX_LEN_LIMIT];
    struct group g;
    unsigned long total = 1, i, later = all ? 256 : COUNT(some_bytes);
    size_t k;

    GROUP_BEGIN(&g, "every %lu-byte input, first byte %02X..%02X, second %02X..%02X, then %s, "
                    "after %lu bytes of valid text",
                (unsigned long)n, first_lo, first_hi, n > 1 ? second_lo : 0,
                n > 1 ? second_hi : 0, n < 3 ? "nothing" : all ? "any" : "some bytes",
                (unsigned long)prefix);
    make_text(F_MIXED, prefix, 17, buf, NULL);
    for (k = 2; k < n; k++)
        total *= later;
    total *= (unsigned long)(first_hi - first_lo + 1);
    if (n > 1)
        total *= (unsigned long)(second_hi - second_lo + 1);
    for (i = 0; i < total; i++) {
        unsigned long rest = i;

        for (k = n; k-- > 2;) {
            buf[prefix + k] = all ? (unsigned char)(rest % 256) : some_bytes[rest % later];
            rest /= later;
        }
        if (n > 1) {
            buf[prefix + 1] = (unsigned char)(second_lo + rest % (second_hi - second_lo + 1));
            rest /= second_hi - second_lo + 1;
        }
        buf[prefix] = (unsigned char)(first_lo + rest);
        run_input(&g, buf, prefix + n, NULL, prefix == 0 ? ALL_OFFSETS : EDGE_OFFSETS);
    }
    group_end(&g);
}

static void test_sweeps(void)
{
    section_begin("every 1- and 2-byte input, 3-byte ones C2..F4 xx (some bytes)");
    sweep(1, 0x00, 0xFF, 0x00, 0xFF, 1, 0);
    sweep(1, 0x00, 0xFF, 0x00, 0xFF, 1, 63);  /* the last byte of one block */
    sweep(1, 0x00, 0xFF, 0x00, 0xFF, 1, 127); /* of two */
    sweep(2, 0x00, 0xFF, 0x00, 0xFF, 1, 0);
    sweep(2, 0x00, 0xFF, 0x00, 0xFF, 1, 62);
    sweep(2, 0x00, 0xFF, 0x00, 0xFF, 1, 126);
    sweep(3, 0xC2, 0xF4, 0x00, 0xFF, 0, 0);
    sweep(3, 0xC2, 0xF4, 0x80, 0xBF, 0, 61);
    sweep(4, 0xF0, 0xF4, 0x80, 0xBF, 0, 0);
    sweep(4, 0xF0, 0xF4, 0x80, 0xBF, 0, 60);
    section_end();
    if (!exhaustive)
        return;
    section_begin("GUARD_PAGES_EXHAUSTIVE: every 3-byte input, 4-byte F0..F4 80..BF xx xx");
    sweep(3, 0x00, 0xFF, 0x00, 0xFF, 1, 0);
    sweep(3, 0xC2, 0xF4, 0x80, 0xBF, 1, 61);
    sweep(4, 0xF0, 0xF4, 0x80, 0xBF, 1, 0);
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 5: utf8_encode into buffers against a guard page                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Whether the n bytes at p all still hold POISON. */
static int untouched(const unsigned char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p[i] != POISON)
            return 0;
    return 1;
}

#define WATCHED 16 /* bytes at each end of the arena checked for stray writes */

static void encode_one(struct group *g, uint32_t cp)
{
    unsigned char want[4];
    size_t need, cap, out_len;
    utf8_status want_st, st;
    unsigned char *out;

    now.group = g->name;
    now.input = NULL;
    now.len = 0;
    now.off = cp;
    g->inputs++;
    if (cp >= 0xD800 && cp <= 0xDFFF) { /* RFC 3629 section 3: surrogates are prohibited */
        want_st = UTF8_ERR_SURROGATE;
        need = 0;
    } else if (cp > 0x10FFFF) {         /* ... and the range ends at U+10FFFF */
        want_st = UTF8_ERR_TOO_LARGE;
        need = 0;
    } else {
        want_st = UTF8_OK;
        need = reference_encode(cp, want);
    }

    if (want_st == UTF8_OK) {
        /* exactly the size needed, against the trailing guard page, then the leading one */
        now.call = "utf8_encode (end-aligned, exact size)";
        out = arena_hi - need;
        out_len = 99;
        st = utf8_encode(cp, (char *)out, need, &out_len);
        if (st != UTF8_OK || out_len != need || memcmp(out, want, need) != 0 ||
            !untouched(arena_hi - WATCHED, WATCHED - need))
            group_fail(g, "U+%04lX into %lu bytes before the guard page: %s, out_len %lu, "
                          "bytes %02X %02X %02X %02X",
                       (unsigned long)cp, (unsigned long)need, sname(st), (unsigned long)out_len,
                       out[0], need > 1 ? out[1] : 0, need > 2 ? out[2] : 0,
                       need > 3 ? out[3] : 0);
        memset(out, POISON, need);

        now.call = "utf8_encode (start-aligned, exact size)";
        out = arena_lo;
        out_len = 99;
        st = utf8_encode(cp, (char *)out, need, &out_len);
        if (st != UTF8_OK || out_len != need || memcmp(out, want, need) != 0 ||
            !untouched(arena_lo + need, WATCHED - need))
            group_fail(g, "U+%04lX into %lu bytes after the guard page: %s, out_len %lu",
                       (unsigned long)cp, (unsigned long)need, sname(st),
                       (unsigned long)out_len);
        memset(out, POISON, need);
    }

    /* every smaller capacity, the buffer against the trailing guard page: nothing written;
     * for a refused value, every capacity up to UTF8_MAX_BYTES */
    for (cap = 0; cap < (want_st == UTF8_OK ? need : (size_t)UTF8_MAX_BYTES + 1); cap++) {
        now.call = "utf8_encode (end-aligned, too small or refused)";
        out = arena_hi - cap; /* cap 0: a pointer to the guard page itself */
        out_len = 99;
        st = utf8_encode(cp, (char *)out, cap, &out_len);
        if (st != (want_st == UTF8_OK ? UTF8_ERR_BUFFER_TOO_SMALL : want_st) ||
            out_len != need || !untouched(arena_hi - WATCHED, WATCHED))
            group_fail(g, "0x%04lX into %lu bytes before the guard page: %s, out_len %lu, "
                          "want %s, out_len %lu, nothing written",
                       (unsigned long)cp, (unsigned long)cap, sname(st), (unsigned long)out_len,
                       sname(want_st == UTF8_OK ? UTF8_ERR_BUFFER_TOO_SMALL : want_st),
                       (unsigned long)need);
        memset(arena_hi - WATCHED, POISON, WATCHED);
    }
    now.call = NULL;
}

static void test_encode(void)
{
    static const uint32_t above[] = { 0x110000, 0x110001, 0x11FFFF, 0x1FFFFF, 0x200000,
                                      0x3FFFFFF, 0x4000000, 0x7FFFFFFF, 0x80000000,
                                      0xFFFFFFFE, 0xFFFFFFFF };
    struct group g;
    uint32_t cp;
    uint64_t v;
    size_t i;

    section_begin("utf8_encode of every scalar value into buffers against a guard page");
    GROUP_BEGIN(&g, "utf8_encode of every scalar value, exact and smaller buffers at a guard");
    for (cp = 0; cp <= 0x10FFFF; cp++)
        if (cp < 0xD800 || cp > 0xDFFF)
            encode_one(&g, cp);
    group_end(&g);
    GROUP_BEGIN(&g, "utf8_encode refuses every surrogate, writing nothing at a guard");
    for (cp = 0xD800; cp <= 0xDFFF; cp++)
        encode_one(&g, cp);
    group_end(&g);
    GROUP_BEGIN(&g, "utf8_encode refuses values above U+10FFFF, writing nothing at a guard");
    for (i = 0; i < COUNT(above); i++)
        encode_one(&g, above[i]);
    for (v = 0x110000; v <= 0xFFFFFFFFu; v += 0x10003)
        encode_one(&g, (uint32_t)v);
    group_end(&g);
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 6: out-parameters against a guard page                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Each out-parameter is the last object before the trailing guard page: a write wider than its
 * type would fault. The input sits at the start of the arena. */
static void test_out_params(void)
{
    /* C2 A9: RFC 3629 section 4; E2 82: the euro sign cut short */
    static const unsigned char in[] = { 0x41, 0xC2, 0xA9, 0xE2, 0x82 };
    size_t *up_to = (size_t *)(void *)(arena_hi - sizeof(size_t));
    size_t *consumed = (size_t *)(void *)(arena_hi - sizeof(size_t));
    size_t *out_len = (size_t *)(void *)(arena_hi - sizeof(size_t));
    uint32_t *cp = (uint32_t *)(void *)(arena_hi - sizeof(uint32_t));
    const char *p = (const char *)arena_lo;
    size_t local_n = 99;
    uint32_t local_cp = 0;
    utf8_status st;

    section_begin("out-parameters against a guard page");
    now.group = "out-parameters against a guard page";
    memcpy(arena_lo, in, sizeof in);

    now.call = "utf8_validate";
    *up_to = 99;
    st = utf8_validate(p, sizeof in, up_to);
    CHECK(st == UTF8_ERR_TRUNCATED && *up_to == 3,
          "utf8_validate [41 C2 A9 E2 82], valid_up_to at the guard: %s up to %lu, want "
          "TRUNCATED up to 3", sname(st), (unsigned long)*up_to);

    now.call = "utf8_decode_next";
    *cp = 0;
    st = (utf8_decode_next)(p + 1, sizeof in - 1, cp, &local_n);
    CHECK(st == UTF8_OK && *cp == 0xA9 && local_n == 2,
          "(utf8_decode_next) [C2 A9 E2 82], cp at the guard: %s U+%04lX consumed %lu, want "
          "U+00A9 consumed 2", sname(st), (unsigned long)*cp, (unsigned long)local_n);
    *cp = 0;
    st = (utf8_decode_next)(p + 3, sizeof in - 3, cp, NULL);
    CHECK(st == UTF8_ERR_TRUNCATED && *cp == REPLACEMENT,
          "(utf8_decode_next) [E2 82], cp at the guard: %s U+%04lX, want TRUNCATED U+FFFD",
          sname(st), (unsigned long)*cp);
    *consumed = 99;
    st = (utf8_decode_next)(p + 3, sizeof in - 3, &local_cp, consumed);
    CHECK(st == UTF8_ERR_TRUNCATED && *consumed == 2 && local_cp == REPLACEMENT,
          "(utf8_decode_next) [E2 82], consumed at the guard: %s U+%04lX consumed %lu, want "
          "TRUNCATED U+FFFD consumed 2", sname(st), (unsigned long)local_cp,
          (unsigned long)*consumed);

    now.call = "utf8_encode";
    *out_len = 99;
    st = utf8_encode(0x1F600, (char *)arena_lo + 8, 4, out_len);
    CHECK(st == UTF8_OK && *out_len == 4 && memcmp(arena_lo + 8, "\xF0\x9F\x98\x80", 4) == 0,
          "utf8_encode U+1F600, out_len at the guard: %s, out_len %lu", sname(st),
          (unsigned long)*out_len);
    *out_len = 99;
    st = utf8_encode(0x1F600, NULL, 0, out_len);
    CHECK(st == UTF8_ERR_BUFFER_TOO_SMALL && *out_len == 4,
          "utf8_encode U+1F600 into (NULL, 0), out_len at the guard: %s, out_len %lu",
          sname(st), (unsigned long)*out_len);

    memset(arena_lo, POISON, 16);
    memset(arena_hi - 16, POISON, 16);
    now.call = NULL;
    section_end();
}


/* ---------------------------------------------------------------------------------------------- */
/* 7: the sibling forms (utf8_*_form, since 1.2) against a guard page                             */
/* ---------------------------------------------------------------------------------------------- */

/* Characters of each form, with their bytes as the forms' definitions give them (tests/forms.rs
 * checks every value against independent oracles; here the point is where the library reads
 * and writes). Each list avoids a lead surrogate directly before a trail one, which WTF-8 and
 * RFC 2279 refuse as a pair. */
struct form_char {
    uint32_t cp;
    unsigned char len;
    unsigned char bytes[6];
};

#define FORM_CHARS 8
#define N_FORMS 5

static const struct form_char form_chars[N_FORMS][FORM_CHARS] = {
    [UTF8_FORM_STRICT] = { { 0x41, 1, { 0x41 } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                           { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0, 1, { 0x00 } },
                           { 0x1F600, 4, { 0xF0, 0x9F, 0x98, 0x80 } },
                           { 0xFFFD, 3, { 0xEF, 0xBF, 0xBD } }, { 0x7F, 1, { 0x7F } },
                           { 0x10FFFF, 4, { 0xF4, 0x8F, 0xBF, 0xBF } } },
    /* WTF-8: unpaired surrogates in 3 bytes */
    [UTF8_FORM_WTF8] = { { 0x41, 1, { 0x41 } }, { 0xD800, 3, { 0xED, 0xA0, 0x80 } },
                         { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0xDFFF, 3, { 0xED, 0xBF, 0xBF } },
                         { 0x1F600, 4, { 0xF0, 0x9F, 0x98, 0x80 } },
                         { 0xDC00, 3, { 0xED, 0xB0, 0x80 } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                         { 0xDBFF, 3, { 0xED, 0xAF, 0xBF } } },
    /* CESU-8: U+1F4A9 as the pair D83D DCA9 (Unicode TR #26) */
    [UTF8_FORM_CESU8] = { { 0x41, 1, { 0x41 } }, { 0x1F4A9, 6, { 0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9 } },
                          { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0, 1, { 0x00 } },
                          { 0x10000, 6, { 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80 } },
                          { 0xE9, 2, { 0xC3, 0xA9 } }, { 0xD7FF, 3, { 0xED, 0x9F, 0xBF } },
                          { 0x10FFFF, 6, { 0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF } } },
    /* Modified UTF-8: CESU-8, U+0000 as C0 80 */
    [UTF8_FORM_MUTF8] = { { 0x41, 1, { 0x41 } }, { 0, 2, { 0xC0, 0x80 } },
                          { 0x1F4A9, 6, { 0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9 } },
                          { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                          { 0x10000, 6, { 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80 } },
                          { 0xFFFF, 3, { 0xEF, 0xBF, 0xBF } }, { 0x7F, 1, { 0x7F } } },
    /* RFC 2279: section 2's 5- and 6-byte rows, and a lone surrogate */
    [UTF8_FORM_RFC2279] = { { 0x41, 1, { 0x41 } },
                            { 0x7FFFFFFF, 6, { 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF } },
                            { 0x2262, 3, { 0xE2, 0x89, 0xA2 } },
                            { 0x200000, 5, { 0xF8, 0x88, 0x80, 0x80, 0x80 } },
                            { 0xD800, 3, { 0xED, 0xA0, 0x80 } }, { 0x391, 2, { 0xCE, 0x91 } },
                            { 0x4000000, 6, { 0xFC, 0x84, 0x80, 0x80, 0x80, 0x80 } },
                            { 0x1FFFFF, 4, { 0xF7, 0xBF, 0xBF, 0xBF } } },
};

/* Text of exactly `len` bytes: the form's characters in turn from `first`, 'A' where the next
 * does not fit. Returns the number of characters; their values go to cps. */
static size_t make_form_text(int form, size_t len, size_t first, unsigned char *out,
                             uint32_t *cps)
{
    size_t n = 0, chars = 0, i = first;

    while (n < len) {
        const struct form_char *c = &form_chars[form][i++ % FORM_CHARS];

        if (n + c->len > len)
            c = &form_chars[form][0];
        memcpy(out + n, c->bytes, c->len);
        n += c->len;
        cps[chars++] = c->cp;
    }
    return chars;
}

/* One input of `form` at both ends of the arena: utf8_validate_form gives want_st up to
 * want_up_to; a decoding loop gives the `chars` values of cps, then (if want_st is not UTF8_OK)
 * want_st over the rest; single calls at every offset agree between the two copies. */
static void run_form_input(struct group *g, int form, const unsigned char *in, size_t len,
                           utf8_status want_st, size_t want_up_to, const uint32_t *cps,
                           size_t chars)
{
    unsigned char *at[2];
    utf8_status st, st2;
    size_t up_to, off, steps, n, n2, i;
    uint32_t cp, cp2;
    int k;

    g->inputs++;
    at[0] = arena_hi - len;
    at[1] = arena_lo;
    memcpy(at[0], in, len);
    memcpy(at[1], in, len);
    now.group = g->name;
    now.input = in;
    now.len = len;
    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];

        now.where = where_names[k];
        now.off = 0;
        now.call = "utf8_validate_form";
        up_to = 12345;
        st = utf8_validate_form(p, len, (utf8_form)form, &up_to);
        if (st != want_st || up_to != want_up_to)
            group_fail(g, "%s, form %d, utf8_validate_form [%s]: %s up to %lu, want %s up to %lu",
                       where_names[k], form, around(in, len, want_up_to), sname(st),
                       (unsigned long)up_to, sname(want_st), (unsigned long)want_up_to);
        now.call = "utf8_decode_next_form (decoding loop)";
        for (off = 0, steps = 0; off < len; steps++) {
            now.off = off;
            st = utf8_decode_next_form(p + off, len - off, (utf8_form)form, &cp, &n);
            if (steps < chars ? st != UTF8_OK || cp != cps[steps]
                              : st != want_st || n != len - off) {
                group_fail(g, "%s, form %d, decoding step %lu at offset %lu [%s]: %s U+%04lX "
                              "consumed %lu",
                           where_names[k], form, (unsigned long)steps, (unsigned long)off,
                           around(in, len, off), sname(st), (unsigned long)cp, (unsigned long)n);
                break;
            }
            off += n;
        }
    }
    now.call = "utf8_decode_next_form (single calls)";
    for (i = 0; i <= len; i++) {
        now.off = i;
        st = utf8_decode_next_form((const char *)at[0] + i, len - i, (utf8_form)form, &cp, &n);
        st2 = utf8_decode_next_form((const char *)at[1] + i, len - i, (utf8_form)form, &cp2, &n2);
        if (st != st2 || cp != cp2 || n != n2 || n > len - i)
            group_fail(g, "form %d, single calls at offset %lu [%s]: %s U+%04lX consumed %lu "
                          "end-aligned, %s U+%04lX consumed %lu start-aligned",
                       form, (unsigned long)i, around(in, len, i), sname(st), (unsigned long)cp,
                       (unsigned long)n, sname(st2), (unsigned long)cp2, (unsigned long)n2);
    }
    memset(at[0], POISON, len);
    memset(at[1], POISON, len);
    now.call = NULL;
    now.input = NULL;
}

/* utf8_encode_form of cp: the size query, then exactly that size against each guard page (the
 * bytes read back as cp), then every smaller capacity (nothing written); a refused value
 * (want_refusal != UTF8_OK) writes nothing into any capacity up to UTF8_FORM_MAX_BYTES. */
static void encode_form_one(struct group *g, int form, uint32_t cp, utf8_status want_refusal)
{
    size_t need = 99, cap, out_len, n;
    utf8_status st;
    unsigned char *out;
    uint32_t back;
    int k;

    g->inputs++;
    now.group = g->name;
    now.input = NULL;
    now.off = cp;
    now.call = "utf8_encode_form (size query)";
    st = utf8_encode_form(cp, (utf8_form)form, NULL, 0, &need);
    if (want_refusal != UTF8_OK) {
        for (cap = 0; cap <= UTF8_FORM_MAX_BYTES; cap++) {
            now.call = "utf8_encode_form (refused)";
            out = arena_hi - cap;
            out_len = 99;
            st = utf8_encode_form(cp, (utf8_form)form, (char *)out, cap, &out_len);
            if (st != want_refusal || out_len != 0 || !untouched(arena_hi - WATCHED, WATCHED))
                group_fail(g, "form %d, 0x%04lX into %lu bytes: %s, out_len %lu, want %s",
                           form, (unsigned long)cp, (unsigned long)cap, sname(st),
                           (unsigned long)out_len, sname(want_refusal));
            memset(arena_hi - WATCHED, POISON, WATCHED);
        }
        return;
    }
    if (st != UTF8_ERR_BUFFER_TOO_SMALL || need < 1 || need > UTF8_FORM_MAX_BYTES) {
        group_fail(g, "form %d, 0x%04lX size query: %s, out_len %lu", form, (unsigned long)cp,
                   sname(st), (unsigned long)need);
        return;
    }
    for (k = 0; k < 2; k++) {
        now.call = "utf8_encode_form (exact size)";
        out = k == 0 ? arena_hi - need : arena_lo;
        out_len = 99;
        st = utf8_encode_form(cp, (utf8_form)form, (char *)out, need, &out_len);
        back = 0;
        n = 0;
        if (st == UTF8_OK)
            utf8_decode_next_form((const char *)out, need, (utf8_form)form, &back, &n);
        if (st != UTF8_OK || out_len != need || back != cp || n != need ||
            !untouched(k == 0 ? arena_hi - WATCHED : arena_lo + need, WATCHED - need))
            group_fail(g, "form %d, 0x%04lX into %lu bytes %s: %s, out_len %lu, reads back "
                          "as 0x%04lX in %lu",
                       form, (unsigned long)cp, (unsigned long)need, where_names[k], sname(st),
                       (unsigned long)out_len, (unsigned long)back, (unsigned long)n);
        memset(out, POISON, need);
    }
    for (cap = 0; cap < need; cap++) {
        now.call = "utf8_encode_form (too small)";
        out = arena_hi - cap;
        out_len = 99;
        st = utf8_encode_form(cp, (utf8_form)form, (char *)out, cap, &out_len);
        if (st != UTF8_ERR_BUFFER_TOO_SMALL || out_len != need ||
            !untouched(arena_hi - WATCHED, WATCHED))
            group_fail(g, "form %d, 0x%04lX into %lu bytes: %s, out_len %lu, want "
                          "BUFFER_TOO_SMALL, %lu, nothing written",
                       form, (unsigned long)cp, (unsigned long)cap, sname(st),
                       (unsigned long)out_len, (unsigned long)need);
        memset(arena_hi - WATCHED, POISON, WATCHED);
    }
    now.call = NULL;
}

static void test_forms(void)
{
    static unsigned char buf[MAX_LEN_LIMIT + 8];
    static uint32_t cps[MAX_LEN_LIMIT + 8];
    static const uint32_t edges[] = { 0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF,
                                      0xDC00, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
                                      0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000,
                                      0x7FFFFFFF, 0x80000000, 0xFFFFFFFF };
    struct group g;
    size_t len, chars, i, k;
    uint32_t cp;
    int form, bad;

    section_begin("utf8_*_form: each form's text, cut tails and encodings at a guard page");
    for (form = 0; form < N_FORMS; form++) {
        GROUP_BEGIN(&g, "form %d: valid text of every length, and every cut of its characters",
                    form);
        for (len = 0; len <= max_len; len++) {
            chars = make_form_text(form, len, len, buf, cps);
            run_form_input(&g, form, buf, len, UTF8_OK, len, cps, chars);
        }
        /* A character cut short at the end: the input ends inside a sequence (TRUNCATED). */
        for (len = 0; len + 6 <= max_len; len += 61) {
            for (i = 0; i < FORM_CHARS; i++) {
                const struct form_char *c = &form_chars[form][i];

                chars = make_form_text(form, len, len, buf, cps);
                for (k = 1; k < c->len; k++) {
                    /* WTF-8 and RFC 2279: after a lead surrogate (3 bytes), the start of a
                     * trail one (ED, ED B0..BF), which more input could make a pair, refused:
                     * truncated from the lead surrogate (libutf8(3)). */
                    int pair_start = (form == UTF8_FORM_WTF8 || form == UTF8_FORM_RFC2279) &&
                                     chars > 0 && cps[chars - 1] >= 0xD800 &&
                                     cps[chars - 1] <= 0xDBFF && c->bytes[0] == 0xED &&
                                     (k == 1 || (c->bytes[1] >= 0xB0 && c->bytes[1] <= 0xBF));

                    memcpy(buf + len, c->bytes, k);
                    run_form_input(&g, form, buf, len + k, UTF8_ERR_TRUNCATED,
                                   pair_start ? len - 3 : len, cps, chars - (size_t)pair_start);
                }
            }
        }
        group_end(&g);

        GROUP_BEGIN(&g, "form %d: utf8_encode_form into buffers against a guard page", form);
        for (i = 0; i < COUNT(edges); i++) {
            for (cp = edges[i] - 2; cp != edges[i] + 3; cp++) {
                uint32_t max = form == UTF8_FORM_RFC2279 ? 0x7FFFFFFFu : 0x10FFFFu;
                int surrogate_refused = form == UTF8_FORM_STRICT || form == UTF8_FORM_CESU8 ||
                                        form == UTF8_FORM_MUTF8;

                encode_form_one(&g, form, cp,
                                cp > max ? UTF8_ERR_TOO_LARGE
                                : (cp >= 0xD800 && cp <= 0xDFFF && surrogate_refused)
                                    ? UTF8_ERR_SURROGATE
                                    : UTF8_OK);
            }
        }
        group_end(&g);
    }

    GROUP_BEGIN(&g, "an unknown form: UTF8_ERR_INVALID_ARGUMENT, nothing read or written");
    for (bad = -2; bad <= 7; bad++) {
        size_t up_to = 99, n = 99;
        uint32_t c = 99;

        if (bad >= 0 && bad < N_FORMS)
            continue;
        g.inputs++;
        now.call = "utf8_*_form (unknown form)";
        /* the input is the guard page itself: any read faults */
        if (utf8_validate_form((const char *)arena_hi, 4, (utf8_form)bad, &up_to) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            utf8_decode_next_form((const char *)arena_hi, 4, (utf8_form)bad, &c, &n) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            utf8_encode_form(0x41, (utf8_form)bad, (char *)arena_hi - 6, 6, &n) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            up_to != 99 || n != 99 || c != 99 || !untouched(arena_hi - WATCHED, WATCHED))
            group_fail(&g, "form %d was not refused untouched", bad);
    }
    group_end(&g);
    now.call = NULL;
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 8: the converters (utf8_to_utf16 ...): inputs and outputs against guard pages                  */
/* ---------------------------------------------------------------------------------------------- */

struct direction {
    const char *name;
    enum form from, to;
    convert_fn convert;
    length_fn length;
};

static const struct direction directions[] = {
    { "utf8_to_utf16", UTF8, UTF16, conv_8_16, len_8_16 },
    { "utf8_to_utf32", UTF8, UTF32, conv_8_32, len_8_32 },
    { "utf16_to_utf8", UTF16, UTF8, conv_16_8, len_16_8 },
    { "utf32_to_utf8", UTF32, UTF8, conv_32_8, len_32_8 },
};

/* One call of d->convert on the `in_len` units at `in`, into exactly `cap` units placed at
 * the start of the arena (out_at_start) or against its end: the result must be `want`, the
 * output `want_out` (want.written units), and the watched bytes around the output untouched. */
static void convert_one(struct group *g, const struct direction *d, const unsigned char *in,
                        size_t in_len, int out_at_start, size_t cap, uint32_t flags,
                        utf8_result want, const unsigned char *want_out)
{
    size_t us = unit_size[d->to], bytes = cap * us;
    unsigned char *out = out_at_start ? arena_lo : arena_hi - bytes;
    utf8_result r;
    int clean;

    g->inputs++;
    now.group = g->name;
    now.call = d->name;
    now.input = in;
    now.len = in_len * unit_size[d->from];
    now.off = cap;
    r = d->convert(in, in_len, out, cap, flags);
    clean = out_at_start ? untouched(arena_lo + want.written * us, WATCHED)
                         : untouched(out - WATCHED, WATCHED) &&
                               untouched(out + want.written * us, bytes - want.written * us);
    if (r.status != want.status || r.read != want.read || r.written != want.written ||
        memcmp(out, want_out, want.written * us) != 0 || !clean)
        group_fail(g, "%s of %lu units, flags %lu, into %lu units at the %s: %s read %lu "
                      "written %lu%s; want %s read %lu written %lu",
                   d->name, (unsigned long)in_len, (unsigned long)flags, (unsigned long)cap,
                   out_at_start ? "start" : "end", sname(r.status), (unsigned long)r.read,
                   (unsigned long)r.written, clean ? "" : ", wrote outside", sname(want.status),
                   (unsigned long)want.read, (unsigned long)want.written);
    memset(out_at_start ? arena_lo : arena_hi - bytes - WATCHED, POISON, bytes + WATCHED);
    now.call = NULL;
}

/* The code points of the generated texts: every encoded width in every form, and the edges;
 * and the same without those above U+FFFF, for UTF-16 with no surrogate (which the AVX-512
 * converter into UTF-8 takes 32 units at a time). */
static const uint32_t text_cps[] = { 0x41,    0xE9,   0x20AC,  0x1F600, 0x7F,    0x80,
                                     0x7FF,   0x800,  0xFFFD,  0xFFFF,  0x10000, 0x10FFFF,
                                     0x4E2D,  0x61,   0x62,    0x63 };
static const uint32_t bmp_cps[] = { 0x41,   0xE9,   0x20AC, 0x7F, 0x80, 0x7FF, 0x800,
                                    0xFFFD, 0xFFFF, 0x4E2D, 0x61, 0x62, 0x63 };

/* What ends an ill-formed input, in each form, with the status it gets and its length in
 * units: UTF-8 E2 82 (the euro sign cut short), a UTF-16 high surrogate, UTF-32 0x110000. */
static size_t put_bad_tail(enum form f, unsigned char *p, utf8_status *status)
{
    static const uint16_t high = 0xD800;
    static const uint32_t too_large = 0x110000;

    switch (f) {
    case UTF8:
        p[0] = 0xE2;
        p[1] = 0x82;
        *status = UTF8_ERR_TRUNCATED;
        return 2;
    case UTF16:
        memcpy(p, &high, 2);
        *status = UTF8_ERR_TRUNCATED; /* the next unit could complete it */
        return 1;
    default:
        memcpy(p, &too_large, 4);
        *status = UTF8_ERR_TOO_LARGE;
        return 1;
    }
}

static void test_transcode(void)
{
    static unsigned char in_buf[4 * 400], want[4 * 400 + 16];
    size_t max_chars = exhaustive ? 300 : 150, di, n, i, at_end, bmp;
    struct group g;

    section_begin("the converters: inputs and outputs of exactly their size at guard pages");
    for (di = 0; di < COUNT(directions); di++) {
        const struct direction *d = &directions[di];
        size_t ius = unit_size[d->from], ous = unit_size[d->to];

        GROUP_BEGIN(&g,
                    "%s of 0..%lu characters, of all widths and below U+10000, with and "
                    "without a bad tail",
                    d->name, (unsigned long)max_chars);
        for (bmp = 0; bmp < 2; bmp++) {
            for (n = 0; n <= max_chars; n++) {
                size_t in_len = 0, out_len = 0, last_in = 0, last_out = 0, tail_len;
                utf8_status tail_status;
                unsigned char *in;
                utf8_result r;

                for (i = 0; i < n; i++) {
                    uint32_t cp = bmp ? bmp_cps[(i * 7 + n) % COUNT(bmp_cps)]
                                      : text_cps[(i * 7 + n) % COUNT(text_cps)];

                    last_in = put_units(d->from, cp, in_buf + in_len * ius);
                    last_out = put_units(d->to, cp, want + out_len * ous);
                    in_len += last_in;
                    out_len += last_out;
                }
                for (at_end = 0; at_end < 2; at_end++) {
                    /* the input against one guard page, the output against the other */
                    in = at_end ? arena_hi - in_len * ius : arena_lo;
                    memcpy(in, in_buf, in_len * ius);
                    r.status = UTF8_OK;
                    r.read = in_len;
                    r.written = out_len;
                    convert_one(&g, d, in, in_len, at_end, out_len, 0, r, want);
                    convert_one(&g, d, in, in_len, at_end, out_len, UTF8_REPLACE, r, want);
                    g.inputs++;
                    if (d->length(in, in_len) != out_len)
                        group_fail(&g, "length of %lu units: %lu, want %lu", (unsigned long)in_len,
                                   (unsigned long)d->length(in, in_len), (unsigned long)out_len);
                    if (n > 0) { /* one unit short: the last character does not fit */
                        r.status = UTF8_ERR_BUFFER_TOO_SMALL;
                        r.read = in_len - last_in;
                        r.written = out_len - last_out;
                        convert_one(&g, d, in, in_len, at_end, out_len - 1, 0, r, want);
                    }
                    memset(in, POISON, in_len * ius);
                }

                /* the same text and a bad tail, which ends at the trailing guard page */
                tail_len = put_bad_tail(d->from, in_buf + in_len * ius, &tail_status);
                in = arena_hi - (in_len + tail_len) * ius;
                memcpy(in, in_buf, (in_len + tail_len) * ius);
                r.status = tail_status;
                r.read = in_len;
                r.written = out_len;
                convert_one(&g, d, in, in_len + tail_len, 1, out_len + 4, 0, r, want);
                /* replaced: one U+FFFD, in an output of exactly the size the length function
                 * gives */
                put_units(d->to, REPLACEMENT, want + out_len * ous);
                r.status = UTF8_OK;
                r.read = in_len + tail_len;
                r.written = out_len + (d->to == UTF8 ? 3 : 1);
                g.inputs++;
                if (d->length(in, in_len + tail_len) != r.written)
                    group_fail(&g, "length of %lu units and a bad tail: %lu, want %lu",
                               (unsigned long)in_len,
                               (unsigned long)d->length(in, in_len + tail_len),
                               (unsigned long)r.written);
                convert_one(&g, d, in, in_len + tail_len, 1, r.written, UTF8_REPLACE, r, want);
                memset(in, POISON, (in_len + tail_len) * ius);
            }
        }
        group_end(&g);
    }
    section_end();
}

/* ---------------------------------------------------------------------------------------------- */
/* 9: the converters with room to spare, errors in the middle, WTF-8 and long inputs              */
/* ---------------------------------------------------------------------------------------------- */

/*
 * The inputs lie in an arena of their own and the outputs in another, so that an input and
 * its output can both end at a guard page. An output buffer has room for exactly the units
 * the conversion writes, or up to SPARE_MAX more: the converters store whole registers past
 * their output and store back what was there, which then must reach no further than the
 * buffer's end, and leave every spare byte as it was. Before each call the spare bytes are
 * filled with a pattern that differs from one byte to the next, so that a byte stored back one
 * place off, or not stored back, shows; the bytes the output will cover hold POISON.
 */
#define CONV_MAX_IN 9216                                  /* bytes: the long inputs cross 8192 */
#define SPARE_MAX 80                                      /* spare units after the output */
#define CONV_MAX_OUT (4 * CONV_MAX_IN + 4 * SPARE_MAX)    /* bytes: UTF-8 into UTF-32 */

static unsigned char *conv_in_lo, *conv_in_hi, *conv_out_lo, *conv_out_hi;

/* The flags of each mode; the WTF-8 ones apply to the UTF-16 converters only. */
#define N_MODES 4
static const uint32_t mode_flags[N_MODES] = { 0, UTF8_REPLACE, UTF8_WTF8,
                                              UTF8_WTF8 | UTF8_REPLACE };

static size_t modes_of(const struct direction *d)
{
    return d->from == UTF16 || d->to == UTF16 ? 4 : 2;
}

/* What the spare byte at offset i of an output buffer holds before the call. */
static unsigned char spare_pattern(size_t i)
{
    return (unsigned char)(0x35 + 0x6B * i);
}

/* Whether GUARD_PAGES_SAMPLE skips this input. */
static int conv_sampled_out(void)
{
    static unsigned long seen;

    return sample > 1 && seen++ % sample != 0;
}

/*
 * Ill-formed items to put in the middle of a text, each followed by a character (never a
 * continuation byte or a low surrogate) and preceded by a whole one, with what each mode makes
 * of them: written from the API's status table, the maximal-subpart rule and the WTF-8
 * definition, apart from ref_char, which must agree. An item's first unit is ill-formed when
 * it stops a conversion.
 */
struct bad_item {
    enum form form;
    size_t len;
    uint32_t units[6];
    utf8_status status;      /* strict: the conversion stops at the item with this */
    size_t n_replaced;
    uint32_t replaced[6];    /* UTF8_REPLACE: what the item becomes */
    utf8_status wtf_status;  /* UTF8_WTF8 (UTF-16 converters) */
    size_t n_wtf;
    uint32_t wtf[6];         /* UTF8_WTF8 | UTF8_REPLACE, and UTF8_WTF8 if wtf_status is OK */
};

#define F_ REPLACEMENT
#define F2_ F_, F_
#define F3_ F_, F_, F_
#define F6_ F3_, F3_

static const struct bad_item bad_items[] = {
    /* UTF-8 (read as WTF-8 too by utf8_to_utf16 with UTF8_WTF8) */
    { UTF8, 2, { 0xC0, 0x80 }, UTF8_ERR_OVERLONG, 2, { F2_ }, UTF8_ERR_OVERLONG, 2, { F2_ } },
    { UTF8, 2, { 0xC1, 0xBF }, UTF8_ERR_OVERLONG, 2, { F2_ }, UTF8_ERR_OVERLONG, 2, { F2_ } },
    { UTF8, 3, { 0xE0, 0x80, 0x80 }, UTF8_ERR_OVERLONG, 3, { F3_ }, UTF8_ERR_OVERLONG, 3,
      { F3_ } },
    { UTF8, 3, { 0xED, 0xA0, 0x80 }, UTF8_ERR_SURROGATE, 3, { F3_ }, UTF8_OK, 1, { 0xD800 } },
    { UTF8, 3, { 0xED, 0xBF, 0xBF }, UTF8_ERR_SURROGATE, 3, { F3_ }, UTF8_OK, 1, { 0xDFFF } },
    { UTF8, 6, { 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80 }, UTF8_ERR_SURROGATE, 6, { F6_ },
      UTF8_ERR_SURROGATE, 1, { F_ } },
    { UTF8, 6, { 0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80 }, UTF8_ERR_SURROGATE, 6, { F6_ }, UTF8_OK,
      2, { 0xDC00, 0xD800 } },
    { UTF8, 6, { 0xED, 0xAF, 0xBF, 0xED, 0xA0, 0x80 }, UTF8_ERR_SURROGATE, 6, { F6_ }, UTF8_OK,
      2, { 0xDBFF, 0xD800 } },
    { UTF8, 2, { 0xED, 0xA0 }, UTF8_ERR_SURROGATE, 2, { F2_ }, UTF8_ERR_MISSING_CONTINUATION, 1,
      { F_ } },
    { UTF8, 2, { 0xE2, 0x82 }, UTF8_ERR_MISSING_CONTINUATION, 1, { F_ },
      UTF8_ERR_MISSING_CONTINUATION, 1, { F_ } },
    { UTF8, 3, { 0xF0, 0x9F, 0x98 }, UTF8_ERR_MISSING_CONTINUATION, 1, { F_ },
      UTF8_ERR_MISSING_CONTINUATION, 1, { F_ } },
    { UTF8, 4, { 0xF4, 0x90, 0x80, 0x80 }, UTF8_ERR_TOO_LARGE, 4, { F2_, F2_ },
      UTF8_ERR_TOO_LARGE, 4, { F2_, F2_ } },
    { UTF8, 1, { 0xF5 }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_ERR_TOO_LARGE, 1, { F_ } },
    { UTF8, 1, { 0xFF }, UTF8_ERR_INVALID_BYTE, 1, { F_ }, UTF8_ERR_INVALID_BYTE, 1, { F_ } },
    { UTF8, 5, { 0xF8, 0x88, 0x80, 0x80, 0x80 }, UTF8_ERR_INVALID_BYTE, 5, { F3_, F2_ },
      UTF8_ERR_INVALID_BYTE, 5, { F3_, F2_ } },
    { UTF8, 1, { 0x80 }, UTF8_ERR_UNEXPECTED_CONTINUATION, 1, { F_ },
      UTF8_ERR_UNEXPECTED_CONTINUATION, 1, { F_ } },
    { UTF8, 1, { 0xC2 }, UTF8_ERR_MISSING_CONTINUATION, 1, { F_ },
      UTF8_ERR_MISSING_CONTINUATION, 1, { F_ } },
    /* UTF-16: lone surrogates, before and after pairs */
    { UTF16, 1, { 0xD800 }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 1, { 0xD800 } },
    { UTF16, 1, { 0xDBFF }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 1, { 0xDBFF } },
    { UTF16, 1, { 0xDC00 }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 1, { 0xDC00 } },
    { UTF16, 1, { 0xDFFF }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 1, { 0xDFFF } },
    { UTF16, 2, { 0xDC00, 0xD800 }, UTF8_ERR_SURROGATE, 2, { F2_ }, UTF8_OK, 2,
      { 0xDC00, 0xD800 } },
    { UTF16, 3, { 0xD800, 0xD800, 0xDC00 }, UTF8_ERR_SURROGATE, 2, { F_, 0x10000 }, UTF8_OK, 2,
      { 0xD800, 0x10000 } },
    { UTF16, 3, { 0xDFFF, 0xD83D, 0xDE00 }, UTF8_ERR_SURROGATE, 2, { F_, 0x1F600 }, UTF8_OK, 2,
      { 0xDFFF, 0x1F600 } },
    /* UTF-32: surrogates, values above 0x10FFFF (some whose low 16 bits are ASCII or a
     * surrogate, and one that is negative as a signed value) */
    { UTF32, 1, { 0xD800 }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0xDFFF }, UTF8_ERR_SURROGATE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 2, { 0xDC00, 0xD800 }, UTF8_ERR_SURROGATE, 2, { F2_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0x110000 }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0x1FFFFF }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0xFFFF0041 }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0x0011D800 }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0x80000000 }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
    { UTF32, 1, { 0xFFFFFFFF }, UTF8_ERR_TOO_LARGE, 1, { F_ }, UTF8_OK, 0, { 0 } },
};

/* An input under construction, in d->from, and what its construction says each mode makes of
 * it (with room enough). */
static struct {
    const struct direction *d;
    size_t len; /* units */
    unsigned char in[CONV_MAX_IN];
    utf8_result want[N_MODES];
    unsigned char out[N_MODES][CONV_MAX_OUT];
} built;

static void build_begin(const struct direction *d)
{
    size_t m;

    built.d = d;
    built.len = 0;
    for (m = 0; m < N_MODES; m++) {
        built.want[m].status = UTF8_OK;
        built.want[m].read = 0;
        built.want[m].written = 0;
    }
}

static void build_room(size_t units)
{
    if ((built.len + units) * unit_size[built.d->from] > CONV_MAX_IN) {
        fprintf(stderr, "guard_pages: an input longer than CONV_MAX_IN\n");
        exit(2);
    }
}

/* Appends `cp` to what mode m writes, unless that mode has stopped. */
static void build_out(size_t m, uint32_t cp)
{
    utf8_result *w = &built.want[m];
    size_t ous = unit_size[built.d->to];

    if (w->status == UTF8_OK)
        w->written += put_units(built.d->to, cp, built.out[m] + w->written * ous);
}

static void build_char(uint32_t cp)
{
    size_t m;

    build_room(4);
    built.len += put_units(built.d->from, cp, built.in + built.len * unit_size[built.d->from]);
    for (m = 0; m < N_MODES; m++) {
        build_out(m, cp);
        if (built.want[m].status == UTF8_OK)
            built.want[m].read = built.len;
    }
}

static void build_bad(const struct bad_item *b)
{
    size_t us = unit_size[built.d->from], m, i;

    build_room(b->len);
    for (i = 0; i < b->len; i++) {
        unsigned char *p = built.in + (built.len + i) * us;
        uint16_t u16 = (uint16_t)b->units[i];

        if (b->form == UTF8)
            *p = (unsigned char)b->units[i];
        else if (b->form == UTF16)
            memcpy(p, &u16, 2);
        else
            memcpy(p, &b->units[i], 4);
    }
    for (m = 0; m < N_MODES; m++) {
        utf8_result *w = &built.want[m];
        int wtf8 = (mode_flags[m] & UTF8_WTF8) != 0, replace = (mode_flags[m] & UTF8_REPLACE) != 0;
        utf8_status st = wtf8 ? b->wtf_status : b->status;

        if (w->status != UTF8_OK)
            continue;
        if (st != UTF8_OK && !replace) {
            w->status = st; /* read stays at the item's start */
            continue;
        }
        for (i = 0; i < (wtf8 ? b->n_wtf : b->n_replaced); i++)
            build_out(m, wtf8 ? b->wtf[i] : b->replaced[i]);
        w->read = built.len + b->len;
    }
    built.len += b->len;
}

/* Texts: character i of a text of n of a kind. */
static const uint32_t ascii_cps[] = { 0x41, 0x62, 0x20, 0x7E, 0x00, 0x7F, 0x31 };
static const uint32_t latin_cps[] = { 0x41, 0xE9, 0x62, 0x7FF, 0x80, 0x63, 0x416 };
static const uint32_t three_cps[] = { 0x4E2D, 0x800, 0xFFFD, 0xD7FF, 0xE000, 0xFFFF, 0x20AC };
static const uint32_t four_cps[] = { 0x1F600, 0x10000, 0x10FFFF, 0x233B4, 0x1D11E };

static const struct {
    const char *name;
    const uint32_t *cps;
    size_t n;
} kinds[] = {
    { "ASCII", ascii_cps, COUNT(ascii_cps) },
    { "ASCII and 2-byte", latin_cps, COUNT(latin_cps) },
    { "3-byte", three_cps, COUNT(three_cps) },
    { "4-byte", four_cps, COUNT(four_cps) },
    { "below U+10000", bmp_cps, COUNT(bmp_cps) },
    { "all widths", text_cps, COUNT(text_cps) },
};

enum { K_ASCII, K_LATIN, K_THREE, K_FOUR, K_BMP, K_ALL, N_KINDS };

static void build_text(int kind, size_t chars, size_t seed)
{
    size_t i;

    for (i = 0; i < chars; i++)
        build_char(kinds[kind].cps[(i * 7 + seed) % kinds[kind].n]);
}

/* Characters of `kind` until the input has at least `bytes` bytes. */
static void build_text_bytes(int kind, size_t bytes, size_t seed)
{
    size_t i;

    for (i = 0; built.len * unit_size[built.d->from] < bytes; i++)
        build_char(kinds[kind].cps[(i * 7 + seed) % kinds[kind].n]);
}

/* One call: the built input at `in`, flags of mode m, into `cap` units ending at the end of
 * the output arena (or starting at its start); the result, the output, the spare bytes and
 * the watched bytes outside the buffer checked. */
static void conv_call(struct group *g, const unsigned char *in, int in_at_end, size_t m,
                      utf8_result want, const unsigned char *want_out, size_t cap,
                      int out_at_start)
{
    static const char *const where[2][2] = {
        { "input start-aligned, output end-aligned", "input start-aligned, output start-aligned" },
        { "input end-aligned, output end-aligned", "input end-aligned, output start-aligned" },
    };
    const struct direction *d = built.d;
    size_t ous = unit_size[d->to], bytes = cap * ous, wbytes = want.written * ous, i;
    size_t bad_spare = (size_t)-1;
    unsigned char *out = out_at_start ? conv_out_lo : conv_out_hi - bytes;
    utf8_result r;
    int outside;

    g->inputs++;
    now.where = where[in_at_end][out_at_start];
    now.off = cap;
    for (i = wbytes; i < bytes; i++)
        out[i] = spare_pattern(i);
    r = d->convert(in, built.len, out, cap, mode_flags[m]);
    for (i = wbytes; i < bytes && bad_spare == (size_t)-1; i++)
        if (out[i] != spare_pattern(i))
            bad_spare = i;
    outside = out_at_start ? !untouched(out + bytes, WATCHED) : !untouched(out - WATCHED, WATCHED);
    if (r.status != want.status || r.read != want.read || r.written != want.written ||
        memcmp(out, want_out, wbytes) != 0 || bad_spare != (size_t)-1 || outside) {
        char what[96] = "";

        if (bad_spare != (size_t)-1)
            sprintf(what, ", spare byte %lu changed (%02X, was %02X)", (unsigned long)bad_spare,
                    out[bad_spare], spare_pattern(bad_spare));
        else if (r.written == want.written && memcmp(out, want_out, wbytes) != 0)
            sprintf(what, ", wrong output");
        group_fail(g, "%s of %lu units (input at the %s), flags %lu, into %lu units (%lu "
                      "spare) at the %s: %s read %lu written %lu%s%s; want %s read %lu "
                      "written %lu",
                   d->name, (unsigned long)built.len, in_at_end ? "end" : "start",
                   (unsigned long)mode_flags[m], (unsigned long)cap,
                   (unsigned long)(cap - want.written), out_at_start ? "start" : "end",
                   sname(r.status), (unsigned long)r.read, (unsigned long)r.written, what,
                   outside ? ", wrote outside" : "", sname(want.status),
                   (unsigned long)want.read, (unsigned long)want.written);
    }
    memset(out, POISON, bytes);
}

/* Spare units tried: every count up to 20, then every `stride`-th up to SPARE_MAX. */
static size_t next_spare(size_t k, size_t stride)
{
    return k < 20 ? k + 1 : k + stride;
}

/*
 * Runs the built input in modes [first, end) of its direction (the UTF-16 converters have
 * four, the others two): for each, the construction is checked against the reference; then,
 * with the input against the leading guard page and against the trailing one, the output of
 * exactly the size needed and of every spare count that `stride` gives, ending at the trailing
 * guard page of the output arena; exactly the size needed at the leading one; and one unit
 * short, where the last character does not fit (as the reference says). The length function
 * is checked against the UTF8_REPLACE conversion (and the UTF8_WTF8 one).
 */
static void conv_run(struct group *g, size_t first, size_t end, size_t stride)
{
    static unsigned char ref_out[CONV_MAX_OUT];
    const struct direction *d = built.d;
    size_t ius = unit_size[d->from], ous = unit_size[d->to], m, k, at_end, len;
    unsigned char *in;
    utf8_result ref, want;

    if (end > modes_of(d))
        end = modes_of(d);
    now.group = g->name;
    now.call = d->name;
    for (m = first; m < end; m++) {
        if (conv_sampled_out())
            continue;
        want = built.want[m];
        ref = ref_convert(d->from, d->to, built.in, built.len, mode_flags[m], (size_t)-1,
                          ref_out);
        if (ref.status != want.status || ref.read != want.read || ref.written != want.written ||
            memcmp(ref_out, built.out[m], want.written * ous) != 0) {
            group_fail(g, "THIS TEST IS WRONG: %s of %lu units, flags %lu: the construction "
                          "says %s read %lu written %lu, the reference %s read %lu written %lu%s",
                       d->name, (unsigned long)built.len, (unsigned long)mode_flags[m],
                       sname(want.status), (unsigned long)want.read,
                       (unsigned long)want.written, sname(ref.status), (unsigned long)ref.read,
                       (unsigned long)ref.written,
                       ref.written == want.written ? ", other units" : "");
            continue;
        }
        for (at_end = 0; at_end < 2; at_end++) {
            in = at_end ? conv_in_hi - built.len * ius : conv_in_lo;
            memcpy(in, built.in, built.len * ius);
            now.input = in;
            now.len = built.len * ius;
            now.where = at_end ? "input end-aligned" : "input start-aligned";
            now.off = 0;
            if (m == 1 || (m == 3 && d->from == UTF16)) { /* exact */
                g->inputs++;
                if ((len = d->length(in, built.len)) != want.written)
                    group_fail(g, "length of %lu units: %lu, want %lu (flags %lu)",
                               (unsigned long)built.len, (unsigned long)len,
                               (unsigned long)want.written, (unsigned long)mode_flags[m]);
            } else if (m == 3) { /* utf16_length_from_utf8 bounds WTF-8 */
                g->inputs++;
                if ((len = d->length(in, built.len)) < want.written)
                    group_fail(g, "length of %lu units: %lu, below the %lu units of WTF-8",
                               (unsigned long)built.len, (unsigned long)len,
                               (unsigned long)want.written);
            }
            for (k = 0; k <= SPARE_MAX; k = next_spare(k, stride))
                conv_call(g, in, (int)at_end, m, want, built.out[m], want.written + k, 0);
            conv_call(g, in, (int)at_end, m, want, built.out[m], want.written, 1);
            if (want.written > 0) {
                ref = ref_convert(d->from, d->to, built.in, built.len, mode_flags[m],
                                  want.written - 1, ref_out);
                conv_call(g, in, (int)at_end, m, ref, ref_out, want.written - 1, 0);
            }
            memset(in, POISON, built.len * ius);
        }
    }
    now.call = NULL;
    now.input = NULL;
    now.where = NULL;
}

static void test_transcode_spare(void)
{
    static const size_t more[] = { 127, 128, 129, 191, 192, 193, 255, 256, 257 };
    size_t di, n, i, kind;
    struct group g;

    section_begin("the converters: valid text into outputs with 0..80 units to spare");
    for (di = 0; di < COUNT(directions); di++) {
        const struct direction *d = &directions[di];

        for (kind = 0; kind < N_KINDS; kind++) {
            GROUP_BEGIN(&g, "%s of %s text, 0..96 and more characters, into room to spare",
                        d->name, kinds[kind].name);
            for (i = 0; i <= 96 + COUNT(more); i++) {
                n = i <= 96 ? i : more[i - 97];
                build_begin(d);
                build_text((int)kind, n, n);
                /* all modes give the same output: each input in one of them */
                conv_run(&g, n % modes_of(d), n % modes_of(d) + 1, 1);
            }
            group_end(&g);
        }
    }
    section_end();
}

static void test_transcode_bad(void)
{
    static const size_t befores[] = { 0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64,
                                      65, 100 };
    static const size_t afters[] = { 1, 40 };
    size_t di, bi, ai, fi, kind;
    struct group g;

    section_begin("the converters: ill-formed input in the middle, UTF8_REPLACE and UTF8_WTF8");
    for (di = 0; di < COUNT(directions); di++) {
        const struct direction *d = &directions[di];

        GROUP_BEGIN(&g, "%s of text, an ill-formed item, text; strict, replaced%s", d->name,
                    modes_of(d) == 4 ? ", WTF-8" : "");
        for (bi = 0; bi < COUNT(bad_items); bi++) {
            if (bad_items[bi].form != d->from)
                continue;
            for (kind = K_ASCII; kind <= K_ALL; kind += K_ALL - K_ASCII) { /* these two */
                for (fi = 0; fi < COUNT(befores); fi++) {
                    for (ai = 0; ai < COUNT(afters); ai++) {
                        build_begin(d);
                        build_text((int)kind, befores[fi], bi);
                        build_bad(&bad_items[bi]);
                        build_text(K_ALL, afters[ai], bi + fi);
                        conv_run(&g, 0, N_MODES, 4);
                    }
                }
            }
        }
        /* two items, 16 characters apart */
        for (bi = 0; bi < COUNT(bad_items); bi++) {
            if (bad_items[bi].form != d->from)
                continue;
            for (fi = 0; fi < COUNT(bad_items); fi++) {
                if (bad_items[fi].form != d->from)
                    continue;
                build_begin(d);
                build_text(K_BMP, 20, bi);
                build_bad(&bad_items[bi]);
                build_text(K_ALL, 16, fi);
                build_bad(&bad_items[fi]);
                build_text(K_LATIN, 30, fi);
                conv_run(&g, 0, N_MODES, 12);
            }
        }
        group_end(&g);
    }
    section_end();
}

static void test_transcode_long(void)
{
    static const size_t runs[] = { 256, 257, 300, 511 };
    size_t di, i, j, n_bad;
    struct group g;

    section_begin("the converters: inputs of 256 to 9,000 bytes, both ends at guard pages");
    for (di = 0; di < COUNT(directions); di++) {
        const struct direction *d = &directions[di];
        const struct bad_item *bad[COUNT(bad_items)];

        for (i = 0, n_bad = 0; i < COUNT(bad_items); i++)
            if (bad_items[i].form == d->from)
                bad[n_bad++] = &bad_items[i];

        GROUP_BEGIN(&g, "%s of an ASCII run of 256 to 511 units, then other characters",
                    d->name);
        for (i = 0; i < COUNT(runs); i++) {
            build_begin(d);
            build_text(K_ASCII, runs[i], i);
            build_text(i % 2 ? K_ALL : K_LATIN, 150, i);
            conv_run(&g, 0, N_MODES, 4);
        }
        group_end(&g);

        GROUP_BEGIN(&g, "%s of 2,048 and 8,192 bytes and more, of each kind of text", d->name);
        for (i = K_LATIN; i < N_KINDS; i++) {
            build_begin(d);
            build_text_bytes((int)i, 2048 + 3 * i, i);
            conv_run(&g, i % modes_of(d), i % modes_of(d) + 1, 4);
            build_begin(d);
            build_text_bytes((int)i, 8192 + 61 * i, i);
            conv_run(&g, i % modes_of(d), i % modes_of(d) + 1, 8);
        }
        /* ASCII up to just before 8,192 bytes, then other characters across it */
        build_begin(d);
        build_text_bytes(K_ASCII, 8192 - 100, 0);
        build_text_bytes(K_ALL, 8192 + 300, 0);
        conv_run(&g, 0, N_MODES, 8);
        group_end(&g);

        GROUP_BEGIN(&g, "%s of 2,048 and 8,192 bytes and more with ill-formed items inside",
                    d->name);
        for (i = 0; i < 2; i++) {
            build_begin(d);
            for (j = 0; built.len * unit_size[d->from] < (i ? 8192 + 200 : 2048 + 100); j++) {
                build_text(j % 2 ? K_ALL : K_BMP, 40 + j % 61, j);
                build_bad(bad[j % n_bad]);
            }
            build_text(K_ALL, 10, 0);
            conv_run(&g, 0, N_MODES, 8);
        }
        group_end(&g);
    }
    section_end();
}

int main(void)
{
    const char *isa = getenv("LIBUTF8_FORCE_ISA");
    const char *ex = getenv("GUARD_PAGES_EXHAUSTIVE"), *every = getenv("GUARD_PAGES_SAMPLE");
    double start = now_seconds();

    exhaustive = ex != NULL && ex[0] != '\0' && strcmp(ex, "0") != 0;
    if (every != NULL && strtoul(every, NULL, 10) > 1)
        sample = strtoul(every, NULL, 10);
    max_len = exhaustive ? 600 : 300;
    /* an input and the longest output side by side */
    arena_init(OUTPUT_ROOM * max_len, &arena_lo, &arena_hi);
    /* the converters' inputs and outputs, each in an arena of its own */
    arena_init(CONV_MAX_IN, &conv_in_lo, &conv_in_hi);
    arena_init(CONV_MAX_OUT, &conv_out_lo, &conv_out_hi);
    install_fault_handler();

    printf("guard_pages: libutf8 %s; LIBUTF8_FORCE_ISA=%s; page %lu bytes, %lu read-write; "
           "lengths 0..%lu; %s; every %lu input(s)\n",
           utf8_version(), isa != NULL ? isa : "(unset: the library picks the best kernel)",
           (unsigned long)page_size, (unsigned long)(arena_hi - arena_lo),
           (unsigned long)max_len,
           exhaustive ? "GUARD_PAGES_EXHAUSTIVE: every sweep" : "default sweeps", sample);
    fflush(stdout);

    test_guards_work();
    test_out_params();
    test_valid_text();
    test_tails();
    test_errors();
    test_sweeps();
    test_encode();
    test_transcode();
    test_transcode_spare();
    test_transcode_bad();
    test_transcode_long();
    test_forms();

    printf("== total: %.2f s\n", now_seconds() - start);
    return check_summary();
}
