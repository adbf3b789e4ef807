/*
 * test_api.c: tests of the libutf8 C API, through its installed header only.
 *
 * Every expected value here was written by hand from the source documents (RFC 3629, RFC 2279,
 * the encyclopedia article on UTF-8, the utf-8(7) man page), the Unicode Standard, chapter 3,
 * and the definitions of the sibling forms (WTF-8, Unicode TR #26 for CESU-8, Java's DataInput);
 * none was printed by the library. Where a whole range is checked, the expectation comes from a
 * small classifier or encoder written here from the RFC 3629 tables, not from the library.
 *
 * Usage: test_api [UTF-8-test.txt expected-lossy-decoding.txt]
 *   The two optional arguments enable the Markus Kuhn stress test; without them it is SKIPPED.
 * The last line printed is "N passed, M failed"; the exit status is 0 iff M is 0.
 */

#include <libutf8.h>

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* The check layer                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* PRINTF_LIKE, n_passed, n_failed, check_at, CHECK, check_summary. */
#include "check.h"
#include "rfc3629.h" /* reference_encode */

/* A group of many comparisons counted as a single check: the first few failures are printed. */
struct group {
    const char *file;
    int line;
    const char *name;
    unsigned long failures;
};

#define GROUP(name) { __FILE__, __LINE__, (name), 0 }
#define GROUP_SHOWN 5

static void group_fail(struct group *g, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void group_fail(struct group *g, const char *fmt, ...)
{
    va_list ap;

    if (g->failures++ < GROUP_SHOWN) {
        printf("FAIL %s:%d: %s: ", g->file, g->line, g->name);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
}

static void group_end(const struct group *g)
{
    check_at(g->failures == 0, g->file, g->line, "%s: %lu failure(s) in all", g->name, g->failures);
}

/* Hex of a byte string, for messages; a few static buffers so one printf can use several. */
static const char *hex(const void *p, size_t n)
{
    enum { SHOWN = 40 };
    static char ring[4][3 * SHOWN + 8];
    static unsigned next;
    const unsigned char *b = p;
    char *buf = ring[next++ % 4], *w = buf;
    size_t i;

    if (n == 0)
        return "(empty)";
    for (i = 0; i < n && i < SHOWN; i++)
        w += sprintf(w, i ? " %02X" : "%02X", b[i]);
    if (n > SHOWN)
        strcpy(w, " ...");
    return buf;
}

/* The most negative status this test knows. */
#define LOWEST_STATUS (-11)

/* Our own names for the statuses (not utf8_status_str, which is under test). */
static const char *sname(int status)
{
    static const char *const names[] = {
        "UTF8_OK", "TRUNCATED", "UNEXPECTED_CONTINUATION", "MISSING_CONTINUATION", "OVERLONG",
        "SURROGATE", "TOO_LARGE", "INVALID_BYTE", "BUFFER_TOO_SMALL", "NULL_POINTER",
        "INVALID_ARGUMENT", "INVALID_ESCAPE",
    };
    return status <= 0 && status >= LOWEST_STATUS ? names[-status] : "(not a utf8_status)";
}

/* Typed comparisons: each argument is evaluated once, so calls can be passed directly. */
static int check_status_at(const char *file, int line, int got, int want, const char *ctx)
{
    return check_at(got == want, file, line, "%s: status %d %s, want %d %s", ctx, got, sname(got),
                    want, sname(want));
}

static int check_size_at(const char *file, int line, const char *what, size_t got, size_t want,
                         const char *ctx)
{
    return check_at(got == want, file, line, "%s: %s = %lu, want %lu", ctx, what,
                    (unsigned long)got, (unsigned long)want);
}

static int check_cp_at(const char *file, int line, uint32_t got, uint32_t want, const char *ctx)
{
    return check_at(got == want, file, line, "%s: cp = U+%04lX, want U+%04lX", ctx,
                    (unsigned long)got, (unsigned long)want);
}

#define CHECK_STATUS(got, want, ctx) check_status_at(__FILE__, __LINE__, (got), (want), (ctx))
#define CHECK_SIZE(what, got, want, ctx)                                                           \
    check_size_at(__FILE__, __LINE__, (what), (got), (want), (ctx))
#define CHECK_CP(got, want, ctx) check_cp_at(__FILE__, __LINE__, (got), (want), (ctx))
/* Compares the first out_len bytes of the array `out` with the expected bytes; a bad out_len
 * is shown but never used to read past the array. */
static int check_bytes_at(const char *file, int line, const char *out, size_t out_len, size_t cap,
                          const char *want, size_t want_len, const char *ctx)
{
    return check_at(out_len == want_len && memcmp(out, want, want_len) == 0, file, line,
                    "%s: out_len %lu, bytes [%s], want [%s]", ctx, (unsigned long)out_len,
                    hex(out, out_len < cap ? out_len : cap), hex(want, want_len));
}

#define CHECK_OUT(out, out_len, want, want_len, ctx)                                               \
    check_bytes_at(__FILE__, __LINE__, (out), (out_len), sizeof(out), (want), (want_len), (ctx))

/* A heap copy of exactly n bytes, so that AddressSanitizer catches any read past the input. */
static char *dup_exact(const char *p, size_t n)
{
    char *q = malloc(n ? n : 1);

    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(q, p, n);
    return q;
}

/* A string literal and its length, NUL bytes included (the terminating NUL excluded). */
#define LIT(s) (s), (sizeof(s) - 1)

#define REPLACEMENT 0xFFFDu
#define SENTINEL_BYTE 0xA5

/* ---------------------------------------------------------------------------------------------- */
/* 1-5: the examples of the source documents, replayed through validate, decode_next and encode   */
/* ---------------------------------------------------------------------------------------------- */

/* One expected utf8_decode_next result, in a loop that skips *consumed bytes after each call. */
struct step {
    utf8_status status;
    uint32_t cp;
    size_t consumed; /* 0 ends the list */
};

#define MAX_STEPS 12
#define CHAR(cp, n) { UTF8_OK, (cp), (n) }
#define BAD(st, n) { UTF8_ERR_##st, REPLACEMENT, (n) }

struct example {
    int line;           /* of the row in this file */
    const char *source; /* where the example comes from */
    const char *what;
    const char *bytes;
    size_t len;
    utf8_status status; /* expected from utf8_validate ... */
    size_t valid_up_to; /* ... and its *valid_up_to */
    struct step steps[MAX_STEPS];
};

#define ROW(source, what, lit) __LINE__, (source), (what), LIT(lit)
#define ALL_VALID(n) UTF8_OK, (n)
#define FAILS_AT(st, offset) UTF8_ERR_##st, (offset)

static const struct example examples[] = {
    /* RFC 3629 section 4, "Validation Examples": valid sequences. */
    { ROW("RFC 3629 section 4", "A", "\x41"), ALL_VALID(1), { CHAR(0x0041, 1) } },
    { ROW("RFC 3629 section 4; utf-8(7)", "copyright sign", "\xC2\xA9"), ALL_VALID(2),
      { CHAR(0x00A9, 2) } },
    { ROW("RFC 3629 section 4", "U+4F60", "\xE4\xBD\xA0"), ALL_VALID(3), { CHAR(0x4F60, 3) } },
    { ROW("RFC 3629 section 4", "U+1F600", "\xF0\x9F\x98\x80"), ALL_VALID(4),
      { CHAR(0x1F600, 4) } },

    /* RFC 3629 section 4, "Validation Examples": invalid sequences. */
    { ROW("RFC 3629 sections 3, 4, 10; RFC 2279 section 6", "overlong U+0000", "\xC0\x80"),
      FAILS_AT(OVERLONG, 0), { BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    { ROW("RFC 3629 section 4", "surrogate U+D800", "\xED\xA0\x80"), FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    { ROW("RFC 3629 section 4", "lead byte F5", "\xF5\x80\x80\x80"), FAILS_AT(TOO_LARGE, 0),
      { BAD(TOO_LARGE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { ROW("RFC 3629 section 4", "truncated U+4F60", "\xE4\xBD"), FAILS_AT(TRUNCATED, 0),
      { BAD(TRUNCATED, 2) } },

    /* RFC 3629 section 3: a surrogate pair that must not decode to U+233B4. */
    { ROW("RFC 3629 section 3", "CESU-8 surrogate pair", "\xED\xA1\x8C\xED\xBE\xB4"),
      FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },

    /* RFC 3629 section 10, RFC 2279 section 6: must not become "/../". */
    { ROW("RFC 3629 section 10; RFC 2279 section 6", "overlong '.' in a path",
          "\x2F\xC0\xAE\x2E\x2F"),
      FAILS_AT(OVERLONG, 1),
      { CHAR(0x2F, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x2E, 1),
        CHAR(0x2F, 1) } },

    /* RFC 2279 section 4 and RFC 3629 section 7. */
    { ROW("RFC 2279 section 4; RFC 3629 section 7", "A<NOT IDENTICAL TO><ALPHA>.",
          "\x41\xE2\x89\xA2\xCE\x91\x2E"),
      ALL_VALID(7), { CHAR(0x0041, 1), CHAR(0x2262, 3), CHAR(0x0391, 2), CHAR(0x002E, 1) } },
    { ROW("RFC 2279 section 4; RFC 3629 section 7", "Korean \"hangugo\"",
          "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"),
      ALL_VALID(9), { CHAR(0xD55C, 3), CHAR(0xAD6D, 3), CHAR(0xC5B4, 3) } },
    { ROW("RFC 2279 section 4; RFC 3629 section 7", "Japanese \"nihongo\"",
          "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
      ALL_VALID(9), { CHAR(0x65E5, 3), CHAR(0x672C, 3), CHAR(0x8A9E, 3) } },
    { ROW("RFC 3629 section 7", "BOM then U+233B4", "\xEF\xBB\xBF\xF0\xA3\x8E\xB4"), ALL_VALID(7),
      { CHAR(0xFEFF, 3), CHAR(0x233B4, 4) } },

    /* Encyclopedia article: the example table, the Euro walk-through, its overlong form. */
    { ROW("encyclopedia, example table", "dollar sign", "\x24"), ALL_VALID(1),
      { CHAR(0x0024, 1) } },
    { ROW("encyclopedia, example table", "cent sign", "\xC2\xA2"), ALL_VALID(2),
      { CHAR(0x00A2, 2) } },
    { ROW("encyclopedia, example table", "euro sign", "\xE2\x82\xAC"), ALL_VALID(3),
      { CHAR(0x20AC, 3) } },
    { ROW("encyclopedia, example table", "Gothic hwair", "\xF0\x90\x8D\x88"), ALL_VALID(4),
      { CHAR(0x10348, 4) } },
    { ROW("encyclopedia, overlong encodings", "4-byte overlong euro", "\xF0\x82\x82\xAC"),
      FAILS_AT(OVERLONG, 0),
      { BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { ROW("encyclopedia, invalid byte sequences", "U+FFFD itself is valid", "\xEF\xBF\xBD"),
      ALL_VALID(3), { CHAR(0xFFFD, 3) } },

    /* utf-8(7) man page. */
    { ROW("utf-8(7)", "not equal to", "\xE2\x89\xA0"), ALL_VALID(3), { CHAR(0x2260, 3) } },

    /* RFC 3629 section 3/4 boundaries: would-be encodings of refused code points. */
    { ROW("RFC 3629 section 3", "surrogate U+DFFF", "\xED\xBF\xBF"), FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    { ROW("RFC 3629 section 3", "U+110000", "\xF4\x90\x80\x80"), FAILS_AT(TOO_LARGE, 0),
      { BAD(TOO_LARGE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },

    /* Unicode Standard chapter 3, "U+FFFD Substitution of Maximal Subparts", tables 3-8 to 3-11. */
    { ROW("Unicode ch. 3, table 3-8", "maximal subparts",
          "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
      FAILS_AT(MISSING_CONTINUATION, 1),
      { CHAR(0x61, 1), BAD(MISSING_CONTINUATION, 3), BAD(MISSING_CONTINUATION, 2),
        BAD(MISSING_CONTINUATION, 1), CHAR(0x62, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x63, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x64, 1) } },
    { ROW("Unicode ch. 3, table 3-9", "non-shortest forms", "\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41"),
      FAILS_AT(OVERLONG, 0),
      { BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(OVERLONG, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(OVERLONG, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x41, 1) } },
    { ROW("Unicode ch. 3, table 3-10", "ill-formed sequences for surrogates",
          "\xED\xA0\x80\xED\xBF\xBF\xED\xAF\x41"),
      FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x41, 1) } },
    { ROW("Unicode ch. 3, table 3-11", "other ill-formed sequences",
          "\xF4\x91\x92\x93\xFF\x41\x80\xBF\x42"),
      FAILS_AT(TOO_LARGE, 0),
      { BAD(TOO_LARGE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(INVALID_BYTE, 1), CHAR(0x41, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1), CHAR(0x42, 1) } },
    { ROW("Unicode ch. 3, table 3-12", "truncated sequences",
          "\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41"),
      FAILS_AT(MISSING_CONTINUATION, 0),
      { BAD(MISSING_CONTINUATION, 2), BAD(MISSING_CONTINUATION, 1), BAD(MISSING_CONTINUATION, 3),
        BAD(MISSING_CONTINUATION, 2), CHAR(0x41, 1) } },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_example(const struct example *ex)
{
    char ctx[256];
    char *in = dup_exact(ex->bytes, ex->len);
    size_t up_to = 12345, off = 0, loop_up_to = 0, i;
    utf8_status st, loop_status = UTF8_OK;
    const struct step *want = ex->steps;

    snprintf(ctx, sizeof ctx, "%s, %s (row at line %d) [%s]", ex->source, ex->what, ex->line,
             hex(ex->bytes, ex->len));

    st = utf8_validate(in, ex->len, &up_to);
    CHECK_STATUS(st, ex->status, ctx);
    CHECK_SIZE("valid_up_to", up_to, ex->valid_up_to, ctx);

    /* The lossy decoding loop, step by step; every OK step is encoded back to the same bytes. */
    for (i = 0; off < ex->len && i < MAX_STEPS && want[i].consumed != 0; i++) {
        uint32_t cp = 0x12345678;
        size_t consumed = 99, out_len = 99;
        char out[UTF8_MAX_BYTES];
        char sctx[320];

        snprintf(sctx, sizeof sctx, "%s, step %lu at offset %lu", ctx, (unsigned long)i,
                 (unsigned long)off);
        st = utf8_decode_next(in + off, ex->len - off, &cp, &consumed);
        CHECK_STATUS(st, want[i].status, sctx);
        CHECK_CP(cp, want[i].cp, sctx);
        if (!CHECK_SIZE("consumed", consumed, want[i].consumed, sctx))
            break;
        if (st == UTF8_OK) {
            st = utf8_encode(cp, out, sizeof out, &out_len);
            CHECK_STATUS(st, UTF8_OK, sctx);
            CHECK_OUT(out, out_len, in + off, consumed, sctx);
        } else if (loop_status == UTF8_OK) {
            loop_status = st;
            loop_up_to = off;
        }
        off += consumed;
    }
    CHECK(off == ex->len && (i == MAX_STEPS || want[i].consumed == 0),
          "%s: decoding loop ended after %lu step(s) at offset %lu", ctx, (unsigned long)i,
          (unsigned long)off);
    if (loop_status == UTF8_OK)
        loop_up_to = off;

    /* utf8_count_chars counts the row's steps: each maximal subpart is one character. */
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(in, ex->len), i, ctx);

    /* utf8_validate reports the first ill-formed sequence the decoding loop met. */
    CHECK(loop_status == ex->status && loop_up_to == ex->valid_up_to,
          "%s: decoding loop's first error %s at %lu disagrees with the row's %s at %lu", ctx,
          sname(loop_status), (unsigned long)loop_up_to, sname(ex->status),
          (unsigned long)ex->valid_up_to);
    free(in);
}

static void test_examples(void)
{
    size_t i;

    for (i = 0; i < COUNT(examples); i++)
        test_example(&examples[i]);
}

/* ---------------------------------------------------------------------------------------------- */
/* 6: every byte as a first byte, and every two-byte input                                        */
/* ---------------------------------------------------------------------------------------------- */

/*
 * What a byte means where a character must start, written from the RFC 3629 section 4 ABNF and the
 * status table of the API: the width of the sequence it begins (0: it begins none), the range its
 * second byte must fall in, the status for a continuation byte outside that range, and the status
 * when the input ends right after it.
 */
struct lead {
    int width;
    unsigned lo, hi;
    utf8_status bad_second;
    utf8_status alone;
};

static struct lead classify_lead(unsigned b)
{
    struct lead r = { 0, 0x80, 0xBF, UTF8_ERR_MISSING_CONTINUATION, UTF8_ERR_TRUNCATED };

    if (b <= 0x7F) {                        /* UTF8-1 */
        r.width = 1;
        r.alone = UTF8_OK;
    } else if (b <= 0xBF) {                 /* UTF8-tail */
        r.alone = UTF8_ERR_UNEXPECTED_CONTINUATION;
    } else if (b <= 0xC1) {                 /* would be an overlong UTF8-2 */
        r.alone = UTF8_ERR_OVERLONG;
    } else if (b <= 0xDF) {                 /* UTF8-2 = %xC2-DF UTF8-tail */
        r.width = 2;
    } else if (b <= 0xEF) {                 /* UTF8-3 */
        r.width = 3;
        if (b == 0xE0) {                    /* %xE0 %xA0-BF UTF8-tail */
            r.lo = 0xA0;
            r.bad_second = UTF8_ERR_OVERLONG;
        } else if (b == 0xED) {             /* %xED %x80-9F UTF8-tail */
            r.hi = 0x9F;
            r.bad_second = UTF8_ERR_SURROGATE;
        }
    } else if (b <= 0xF4) {                 /* UTF8-4 */
        r.width = 4;
        if (b == 0xF0) {                    /* %xF0 %x90-BF 2( UTF8-tail ) */
            r.lo = 0x90;
            r.bad_second = UTF8_ERR_OVERLONG;
        } else if (b == 0xF4) {             /* %xF4 %x80-8F 2( UTF8-tail ) */
            r.hi = 0x8F;
            r.bad_second = UTF8_ERR_TOO_LARGE;
        }
    } else if (b <= 0xF7) {                 /* would be above U+10FFFF */
        r.alone = UTF8_ERR_TOO_LARGE;
    } else {                                /* F8..FF: never in UTF-8 */
        r.alone = UTF8_ERR_INVALID_BYTE;
    }
    return r;
}

static void test_first_bytes(void)
{
    unsigned b;

    for (b = 0; b <= 0xFF; b++) {
        struct lead l = classify_lead(b);
        char in[2], ctx[96];
        char *alone, *with_a;
        uint32_t cp = 0x12345678;
        size_t consumed = 99, up_to = 99;
        utf8_status st, want;

        in[0] = (char)b;
        in[1] = 'A';
        alone = dup_exact(in, 1);
        with_a = dup_exact(in, 2);

        /* (a) alone */
        snprintf(ctx, sizeof ctx, "first byte alone [%02X]", b);
        st = utf8_decode_next(alone, 1, &cp, &consumed);
        CHECK_STATUS(st, l.alone, ctx);
        CHECK_SIZE("consumed", consumed, 1, ctx);
        CHECK_CP(cp, l.width == 1 ? (uint32_t)b : REPLACEMENT, ctx);
        st = utf8_validate(alone, 1, &up_to);
        CHECK_STATUS(st, l.alone, ctx);
        CHECK_SIZE("valid_up_to", up_to, l.width == 1 ? 1 : 0, ctx);

        /* (b) followed by 'A', which must never be swallowed */
        snprintf(ctx, sizeof ctx, "first byte then 'A' [%02X 41]", b);
        want = l.width >= 2 ? UTF8_ERR_MISSING_CONTINUATION : l.alone;
        cp = 0x12345678;
        st = utf8_decode_next(with_a, 2, &cp, &consumed);
        CHECK_STATUS(st, want, ctx);
        CHECK_SIZE("consumed", consumed, 1, ctx);
        CHECK_CP(cp, l.width == 1 ? (uint32_t)b : REPLACEMENT, ctx);
        st = utf8_decode_next(with_a + 1, 1, &cp, &consumed);
        CHECK(st == UTF8_OK && cp == 0x41 && consumed == 1, "%s: the 'A' after it was not decoded",
              ctx);
        st = utf8_validate(with_a, 2, &up_to);
        CHECK_STATUS(st, want, ctx);
        CHECK_SIZE("valid_up_to", up_to, l.width == 1 ? 2 : 0, ctx);

        free(alone);
        free(with_a);
    }
}

/* Every two-byte input (L, S), against classify_lead: one check for all 65536. */
static void test_byte_pairs(void)
{
    struct group g = GROUP("every two-byte input");
    unsigned lead, second;

    for (lead = 0; lead <= 0xFF; lead++) {
        for (second = 0; second <= 0xFF; second++) {
            struct lead l = classify_lead(lead), s = classify_lead(second);
            char pair[2];
            utf8_status want_st, want_vst, st, vst;
            uint32_t want_cp = REPLACEMENT, cp = 0;
            size_t want_n = 1, want_up_to = 0, n = 0, up_to = 0;

            if (l.width == 1) {             /* ASCII, then the second byte on its own */
                want_st = UTF8_OK;
                want_cp = lead;
                want_vst = s.alone;
                want_up_to = s.alone == UTF8_OK ? 2 : 1;
            } else if (l.width == 0) {      /* never a lead byte */
                want_st = want_vst = l.alone;
            } else if (second >= l.lo && second <= l.hi) {
                want_n = 2;
                if (l.width == 2) {         /* RFC 3629 section 3: 110xxxxx 10xxxxxx */
                    want_st = want_vst = UTF8_OK;
                    want_cp = ((uint32_t)(lead & 0x1F) << 6) | (second & 0x3F);
                    want_up_to = 2;
                } else {
                    want_st = want_vst = UTF8_ERR_TRUNCATED;
                }
            } else if (second >= 0x80 && second <= 0xBF) {
                want_st = want_vst = l.bad_second;
            } else {
                want_st = want_vst = UTF8_ERR_MISSING_CONTINUATION;
            }

            pair[0] = (char)lead;
            pair[1] = (char)second;
            st = utf8_decode_next(pair, 2, &cp, &n);
            vst = utf8_validate(pair, 2, &up_to);
            if (st != want_st || cp != want_cp || n != want_n || vst != want_vst ||
                up_to != want_up_to)
                group_fail(&g,
                           "[%02X %02X]: decode %s cp U+%04lX consumed %lu, validate %s up to %lu; "
                           "want decode %s cp U+%04lX consumed %lu, validate %s up to %lu",
                           lead, second, sname(st), (unsigned long)cp, (unsigned long)n, sname(vst),
                           (unsigned long)up_to, sname(want_st), (unsigned long)want_cp,
                           (unsigned long)want_n, sname(want_vst), (unsigned long)want_up_to);
        }
    }
    group_end(&g);
}

/* ---------------------------------------------------------------------------------------------- */
/* 7: boundary code points                                                                        */
/* ---------------------------------------------------------------------------------------------- */

struct encoding {
    uint32_t cp;
    const char *bytes;
    size_t len;
};

/* RFC 3629 section 3 table and section 4 ABNF: the ends of each range, written out literally. */
static const struct encoding boundaries[] = {
    { 0x0000, LIT("\x00") },             { 0x007F, LIT("\x7F") },
    { 0x0080, LIT("\xC2\x80") },         { 0x07FF, LIT("\xDF\xBF") },
    { 0x0800, LIT("\xE0\xA0\x80") },     { 0xD7FF, LIT("\xED\x9F\xBF") },
    { 0xE000, LIT("\xEE\x80\x80") },     { 0xFFFD, LIT("\xEF\xBF\xBD") },
    { 0xFFFF, LIT("\xEF\xBF\xBF") },     { 0x10000, LIT("\xF0\x90\x80\x80") },
    { 0x10FFFF, LIT("\xF4\x8F\xBF\xBF") },
    /* the examples of the encyclopedia and the man page, in the encoding direction */
    { 0x0024, LIT("\x24") },             { 0x00A2, LIT("\xC2\xA2") },
    { 0x20AC, LIT("\xE2\x82\xAC") },     { 0x10348, LIT("\xF0\x90\x8D\x88") },
    { 0x00A9, LIT("\xC2\xA9") },         { 0x2260, LIT("\xE2\x89\xA0") },
};

struct refusal {
    uint32_t cp;
    utf8_status status;
};

/* RFC 3629 section 3: surrogates are prohibited, and the range ends at U+10FFFF. */
static const struct refusal refusals[] = {
    { 0xD800, UTF8_ERR_SURROGATE },   { 0xDBFF, UTF8_ERR_SURROGATE },
    { 0xDC00, UTF8_ERR_SURROGATE },   { 0xDFFF, UTF8_ERR_SURROGATE },
    { 0x110000, UTF8_ERR_TOO_LARGE }, { 0x1FFFFF, UTF8_ERR_TOO_LARGE },
    { 0x200000, UTF8_ERR_TOO_LARGE }, { 0x7FFFFFFF, UTF8_ERR_TOO_LARGE },
    { 0x80000000, UTF8_ERR_TOO_LARGE }, { 0xFFFFFFFF, UTF8_ERR_TOO_LARGE },
};

static void test_boundaries(void)
{
    size_t i, j;

    for (i = 0; i < COUNT(boundaries); i++) {
        const struct encoding *e = &boundaries[i];
        char ctx[96], out[UTF8_MAX_BYTES];
        char *in = dup_exact(e->bytes, e->len);
        size_t out_len = 99, consumed = 99, up_to = 99;
        uint32_t cp = 0x12345678;
        utf8_status st;

        snprintf(ctx, sizeof ctx, "RFC 3629 section 3, U+%04lX [%s]", (unsigned long)e->cp,
                 hex(e->bytes, e->len));
        st = utf8_encode(e->cp, out, sizeof out, &out_len);
        CHECK_STATUS(st, UTF8_OK, ctx);
        CHECK_OUT(out, out_len, e->bytes, e->len, ctx);
        st = utf8_decode_next(in, e->len, &cp, &consumed);
        CHECK_STATUS(st, UTF8_OK, ctx);
        CHECK_CP(cp, e->cp, ctx);
        CHECK_SIZE("consumed", consumed, e->len, ctx);
        st = utf8_validate(in, e->len, &up_to);
        CHECK_STATUS(st, UTF8_OK, ctx);
        CHECK_SIZE("valid_up_to", up_to, e->len, ctx);
        free(in);
    }

    /* Refused whatever the buffer: out_len set to 0, nothing written. */
    for (i = 0; i < COUNT(refusals); i++) {
        const struct refusal *r = &refusals[i];
        char ctx[96], out[8];
        size_t out_len = 99, caps[] = { 0, 1, 4, sizeof out };

        for (j = 0; j < COUNT(caps); j++) {
            snprintf(ctx, sizeof ctx, "RFC 3629 section 3, encode 0x%lX, cap %lu",
                     (unsigned long)r->cp, (unsigned long)caps[j]);
            memset(out, SENTINEL_BYTE, sizeof out);
            out_len = 99;
            CHECK_STATUS(utf8_encode(r->cp, out, caps[j], &out_len), r->status, ctx);
            CHECK_SIZE("out_len", out_len, 0, ctx);
            CHECK(out[0] == (char)SENTINEL_BYTE && memcmp(out, out + 1, sizeof out - 1) == 0,
                  "%s: buffer written: [%s]", ctx, hex(out, sizeof out));
        }
        snprintf(ctx, sizeof ctx, "encode 0x%lX into (NULL, 0)", (unsigned long)r->cp);
        out_len = 99;
        CHECK_STATUS(utf8_encode(r->cp, NULL, 0, &out_len), r->status, ctx);
        CHECK_SIZE("out_len", out_len, 0, ctx);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* 12: truncation inside a sequence                                                               */
/* ---------------------------------------------------------------------------------------------- */

static void test_truncation(void)
{
    /* C2 A9: RFC 3629 section 4, utf-8(7); E2 82 AC: encyclopedia; F0 9F 98 80: RFC 3629 s. 4 */
    static const struct encoding whole[] = {
        { 0x00A9, LIT("\xC2\xA9") },
        { 0x20AC, LIT("\xE2\x82\xAC") },
        { 0x1F600, LIT("\xF0\x9F\x98\x80") },
    };
    size_t i, k;

    for (i = 0; i < COUNT(whole); i++) {
        for (k = 1; k < whole[i].len; k++) {
            char buf[8], ctx[96];
            char *in;
            uint32_t cp = 0;
            size_t consumed = 99, up_to = 99;

            /* the prefix alone */
            in = dup_exact(whole[i].bytes, k);
            snprintf(ctx, sizeof ctx, "proper prefix [%s]", hex(in, k));
            CHECK_STATUS(utf8_decode_next(in, k, &cp, &consumed), UTF8_ERR_TRUNCATED, ctx);
            CHECK_SIZE("consumed", consumed, k, ctx);
            CHECK_CP(cp, REPLACEMENT, ctx);
            CHECK_STATUS(utf8_validate(in, k, &up_to), UTF8_ERR_TRUNCATED, ctx);
            CHECK_SIZE("valid_up_to", up_to, 0, ctx);
            free(in);

            /* the prefix then 'A': the 'A' is not swallowed */
            memcpy(buf, whole[i].bytes, k);
            buf[k] = 'A';
            in = dup_exact(buf, k + 1);
            snprintf(ctx, sizeof ctx, "proper prefix then 'A' [%s]", hex(in, k + 1));
            CHECK_STATUS(utf8_decode_next(in, k + 1, &cp, &consumed), UTF8_ERR_MISSING_CONTINUATION,
                         ctx);
            CHECK_SIZE("consumed", consumed, k, ctx);
            CHECK_STATUS(utf8_validate(in, k + 1, &up_to), UTF8_ERR_MISSING_CONTINUATION, ctx);
            CHECK_SIZE("valid_up_to", up_to, 0, ctx);
            free(in);

            /* after a valid character, valid_up_to counts it */
            buf[0] = 'x';
            memcpy(buf + 1, whole[i].bytes, k);
            in = dup_exact(buf, k + 1);
            snprintf(ctx, sizeof ctx, "'x' then proper prefix [%s]", hex(in, k + 1));
            CHECK_STATUS(utf8_validate(in, k + 1, &up_to), UTF8_ERR_TRUNCATED, ctx);
            CHECK_SIZE("valid_up_to", up_to, 1, ctx);
            free(in);
        }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* 9: bad arguments, NULL out-parameters, output buffer sizes                                     */
/* ---------------------------------------------------------------------------------------------- */

static void test_null_inputs(void)
{
    static const char some[] = "abc";
    uint32_t cp;
    size_t n;

    /* (NULL, 0), and a real pointer with length 0, are the empty input. */
    n = 99;
    CHECK_STATUS(utf8_validate(NULL, 0, &n), UTF8_OK, "validate(NULL, 0)");
    CHECK_SIZE("valid_up_to", n, 0, "validate(NULL, 0)");
    n = 99;
    CHECK_STATUS(utf8_validate(some, 0, &n), UTF8_OK, "validate(\"abc\", 0)");
    CHECK_SIZE("valid_up_to", n, 0, "validate(\"abc\", 0)");
    cp = 0x12345678;
    n = 99;
    CHECK_STATUS(utf8_decode_next(NULL, 0, &cp, &n), UTF8_ERR_TRUNCATED, "decode_next(NULL, 0)");
    CHECK_SIZE("consumed", n, 0, "decode_next(NULL, 0)");
    CHECK_CP(cp, REPLACEMENT, "decode_next(NULL, 0)");
    cp = 0x12345678;
    n = 99;
    CHECK_STATUS(utf8_decode_next(some, 0, &cp, &n), UTF8_ERR_TRUNCATED, "decode_next(\"abc\", 0)");
    CHECK_SIZE("consumed", n, 0, "decode_next(\"abc\", 0)");
    CHECK_CP(cp, REPLACEMENT, "decode_next(\"abc\", 0)");

    /* NULL with a non-zero length: NULL_POINTER, out-parameters untouched. */
    n = 12345;
    CHECK_STATUS(utf8_validate(NULL, 5, &n), UTF8_ERR_NULL_POINTER, "validate(NULL, 5)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "validate(NULL, 5)");
    cp = 0x12345678;
    n = 12345;
    CHECK_STATUS(utf8_decode_next(NULL, 5, &cp, &n), UTF8_ERR_NULL_POINTER, "decode_next(NULL, 5)");
    CHECK_SIZE("consumed (untouched)", n, 12345, "decode_next(NULL, 5)");
    CHECK_CP(cp, 0x12345678, "decode_next(NULL, 5), cp untouched");
    CHECK_STATUS(utf8_validate(NULL, 1, NULL), UTF8_ERR_NULL_POINTER, "validate(NULL, 1, NULL)");
    CHECK_STATUS(utf8_decode_next(NULL, 1, NULL, NULL), UTF8_ERR_NULL_POINTER,
                 "decode_next(NULL, 1, NULL, NULL)");
    CHECK_STATUS(utf8_decode_next(NULL, 0, NULL, NULL), UTF8_ERR_TRUNCATED,
                 "decode_next(NULL, 0, NULL, NULL)");

    /* utf8_count_chars has no status: (NULL, any) counts 0 characters. */
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(NULL, 0), 0, "count_chars(NULL, 0)");
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(NULL, 5), 0, "count_chars(NULL, 5)");
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(some, 0), 0, "count_chars(\"abc\", 0)");
}

/* Every out-parameter may be NULL: the status is unchanged and the others are still written. */
static void test_null_out_params(void)
{
    static const struct {
        const char *bytes;
        size_t len;
        utf8_status status;
        uint32_t cp;
        size_t consumed;
    } inputs[] = {
        { LIT("\xE2\x82\xAC"), UTF8_OK, 0x20AC, 3 },                    /* encyclopedia: euro */
        { LIT("\xC0\x80"), UTF8_ERR_OVERLONG, REPLACEMENT, 1 },         /* RFC 3629 section 3 */
        { LIT("\xE4\xBD"), UTF8_ERR_TRUNCATED, REPLACEMENT, 2 },        /* RFC 3629 section 4 */
    };
    char out[UTF8_MAX_BYTES];
    size_t i, n;
    uint32_t cp;

    for (i = 0; i < COUNT(inputs); i++) {
        char ctx[96];
        char *in = dup_exact(inputs[i].bytes, inputs[i].len);

        snprintf(ctx, sizeof ctx, "NULL out-parameters [%s]", hex(in, inputs[i].len));
        CHECK_STATUS(utf8_validate(in, inputs[i].len, NULL), inputs[i].status, ctx);
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, NULL, NULL), inputs[i].status, ctx);
        n = 99;
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, NULL, &n), inputs[i].status, ctx);
        CHECK_SIZE("consumed with cp NULL", n, inputs[i].consumed, ctx);
        cp = 0x12345678;
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, &cp, NULL), inputs[i].status, ctx);
        CHECK_CP(cp, inputs[i].cp, ctx);
        free(in);
    }

    memset(out, SENTINEL_BYTE, sizeof out);
    CHECK_STATUS(utf8_encode(0x20AC, out, sizeof out, NULL), UTF8_OK,
                 "encode U+20AC, out_len NULL");
    CHECK_OUT(out, 3, "\xE2\x82\xAC", 3, "encode U+20AC, out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, NULL, 0, NULL), UTF8_ERR_BUFFER_TOO_SMALL,
                 "encode U+20AC into (NULL, 0), out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, out, 2, NULL), UTF8_ERR_BUFFER_TOO_SMALL,
                 "encode U+20AC, cap 2, out_len NULL");
    CHECK_STATUS(utf8_encode(0xD800, out, sizeof out, NULL), UTF8_ERR_SURROGATE,
                 "encode U+D800, out_len NULL");
    CHECK_STATUS(utf8_encode(0x110000, out, sizeof out, NULL), UTF8_ERR_TOO_LARGE,
                 "encode 0x110000, out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, NULL, 4, NULL), UTF8_ERR_NULL_POINTER,
                 "encode U+20AC into (NULL, 4), out_len NULL");
}

/* One code point of each width (RFC 3629 section 3 table), with its bytes. */
static const struct encoding widths[] = {
    { 0x0041, LIT("\x41") },                /* RFC 3629 section 4 */
    { 0x00A9, LIT("\xC2\xA9") },            /* RFC 3629 section 4 */
    { 0x20AC, LIT("\xE2\x82\xAC") },        /* encyclopedia */
    { 0x1F600, LIT("\xF0\x9F\x98\x80") },   /* RFC 3629 section 4 */
};

/* A NULL out with cap > 0 is checked before anything else: NULL_POINTER, out_len untouched. */
static void expect_null_out(uint32_t cp, size_t cap)
{
    char ctx[64];
    size_t n = 12345;

    snprintf(ctx, sizeof ctx, "encode 0x%04lX into (NULL, %lu)", (unsigned long)cp,
             (unsigned long)cap);
    CHECK_STATUS(utf8_encode(cp, NULL, cap, &n), UTF8_ERR_NULL_POINTER, ctx);
    CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
}

static void test_encode_buffers(void)
{
    /* the size query (NULL, 0) at both ends of each range of RFC 3629 section 3 */
    static const struct {
        uint32_t cp;
        size_t needed;
    } queries[] = {
        { 0x0000, 1 }, { 0x007F, 1 }, { 0x0080, 2 }, { 0x07FF, 2 },
        { 0x0800, 3 }, { 0xFFFF, 3 }, { 0x10000, 4 }, { 0x10FFFF, 4 },
    };
    size_t i, cap, n;

    for (i = 0; i < COUNT(queries); i++) {
        char ctx[64];

        snprintf(ctx, sizeof ctx, "size query for U+%04lX", (unsigned long)queries[i].cp);
        n = 99;
        CHECK_STATUS(utf8_encode(queries[i].cp, NULL, 0, &n), UTF8_ERR_BUFFER_TOO_SMALL, ctx);
        CHECK_SIZE("out_len", n, queries[i].needed, ctx);

        expect_null_out(queries[i].cp, 1);
        expect_null_out(queries[i].cp, UTF8_MAX_BYTES);
    }
    for (i = 0; i < COUNT(refusals); i++)
        expect_null_out(refusals[i].cp, UTF8_MAX_BYTES);

    /* every cap 0..4 against every width: too small writes nothing, enough writes exactly. */
    for (i = 0; i < COUNT(widths); i++) {
        for (cap = 0; cap <= UTF8_MAX_BYTES; cap++) {
            char out[8], ctx[64];
            size_t j, untouched_from = cap >= widths[i].len ? widths[i].len : 0;
            int untouched = 1;
            utf8_status st;

            snprintf(ctx, sizeof ctx, "encode U+%04lX, cap %lu", (unsigned long)widths[i].cp,
                     (unsigned long)cap);
            memset(out, SENTINEL_BYTE, sizeof out);
            n = 99;
            st = utf8_encode(widths[i].cp, out, cap, &n);
            CHECK_SIZE("out_len", n, widths[i].len, ctx);
            if (cap < widths[i].len) {
                CHECK_STATUS(st, UTF8_ERR_BUFFER_TOO_SMALL, ctx);
            } else {
                CHECK_STATUS(st, UTF8_OK, ctx);
                CHECK_OUT(out, widths[i].len, widths[i].bytes, widths[i].len, ctx);
            }
            for (j = untouched_from; j < sizeof out; j++)
                untouched &= out[j] == (char)SENTINEL_BYTE;
            CHECK(untouched, "%s: bytes written beyond the encoding: [%s]", ctx,
                  hex(out, sizeof out));
        }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* 10: utf8_status_str and utf8_version                                                           */
/* ---------------------------------------------------------------------------------------------- */

static void test_strings(void)
{
    static const int unknown[] = { 1, 42, LOWEST_STATUS - 1, INT_MIN, INT_MAX };
    const char *known[1 - LOWEST_STATUS];
    char want_version[64];
    const char *version;
    int st, other;
    size_t i;

    for (st = 0; st >= LOWEST_STATUS; st--) {
        known[-st] = utf8_status_str(st);
        CHECK(known[-st] != NULL && known[-st][0] != '\0', "utf8_status_str(%d) is NULL or empty",
              st);
    }
    for (st = 0; st >= LOWEST_STATUS; st--)
        for (other = st - 1; other >= LOWEST_STATUS; other--)
            if (known[-st] != NULL && known[-other] != NULL)
                CHECK(strcmp(known[-st], known[-other]) != 0,
                      "utf8_status_str(%d) and utf8_status_str(%d) are both \"%s\"", st, other,
                      known[-st]);
    for (i = 0; i < COUNT(unknown); i++) {
        const char *s = utf8_status_str(unknown[i]);
        int clash = 0;

        CHECK(s != NULL && s[0] != '\0', "utf8_status_str(%d) is NULL or empty", unknown[i]);
        for (st = 0; s != NULL && st >= LOWEST_STATUS; st--)
            clash |= known[-st] != NULL && strcmp(s, known[-st]) == 0;
        CHECK(!clash, "utf8_status_str(%d) = \"%s\", the text of a known status", unknown[i],
              s ? s : "(null)");
    }

    snprintf(want_version, sizeof want_version, "%d.%d.%d", LIBUTF8_VERSION_MAJOR,
             LIBUTF8_VERSION_MINOR, LIBUTF8_VERSION_PATCH);
    version = utf8_version();
    CHECK(version != NULL && strcmp(version, want_version) == 0,
          "utf8_version() = \"%s\", header says \"%s\"", version ? version : "(null)",
          want_version);
}

/* ---------------------------------------------------------------------------------------------- */
/* 11: every scalar value, round trip                                                             */
/* ---------------------------------------------------------------------------------------------- */

static void test_round_trip(void)
{
    struct group scalars = GROUP("round trip of every scalar value U+0000..U+10FFFF");
    struct group surrogates = GROUP("every surrogate U+D800..U+DFFF refused");
    uint32_t cp;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        unsigned char want[4];
        char out[UTF8_MAX_BYTES];
        size_t want_len = reference_encode(cp, want), out_len = 99, consumed = 99, up_to = 99;
        uint32_t back = 0x12345678;
        utf8_status st, dst, vst;

        st = utf8_encode(cp, out, sizeof out, &out_len);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            /* the would-be encoding ED A0..BF xx must be refused by the decoder too */
            dst = utf8_decode_next((const char *)want, want_len, &back, &consumed);
            vst = utf8_validate((const char *)want, want_len, &up_to);
            if (st != UTF8_ERR_SURROGATE || out_len != 0 || dst != UTF8_ERR_SURROGATE ||
                consumed != 1 || back != REPLACEMENT || vst != UTF8_ERR_SURROGATE || up_to != 0)
                group_fail(&surrogates,
                           "U+%04lX: encode %s out_len %lu; [%s] decodes %s consumed %lu, "
                           "validates %s up to %lu",
                           (unsigned long)cp, sname(st), (unsigned long)out_len,
                           hex(want, want_len), sname(dst), (unsigned long)consumed, sname(vst),
                           (unsigned long)up_to);
            continue;
        }
        if (st != UTF8_OK || out_len != want_len || memcmp(out, want, want_len) != 0) {
            group_fail(&scalars, "U+%04lX: encode %s [%s], want [%s]", (unsigned long)cp, sname(st),
                       hex(out, st == UTF8_OK && out_len <= 4 ? out_len : 0), hex(want, want_len));
            continue;
        }
        dst = utf8_decode_next(out, out_len, &back, &consumed);
        vst = utf8_validate(out, out_len, &up_to);
        if (dst != UTF8_OK || back != cp || consumed != want_len || vst != UTF8_OK ||
            up_to != want_len)
            group_fail(&scalars,
                       "U+%04lX [%s]: decodes %s U+%04lX consumed %lu, validates %s up to %lu",
                       (unsigned long)cp, hex(out, out_len), sname(dst), (unsigned long)back,
                       (unsigned long)consumed, sname(vst), (unsigned long)up_to);
    }
    group_end(&scalars);
    group_end(&surrogates);
}

/* ---------------------------------------------------------------------------------------------- */
/* 8: Markus Kuhn's UTF-8 decoder capability and stress test                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Reads a whole file into an exactly-sized heap buffer; 0 if it cannot be read. */
static int read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, *grown;
    size_t cap = 0, n = 0, got;

    if (f == NULL)
        return 0;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                fclose(f);
                return 0;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return 0;
    }
    fclose(f);
    *data = dup_exact(buf, n);
    *len = n;
    free(buf);
    return 1;
}

static void test_kuhn(const char *input_path, const char *expected_path)
{
    struct group advance = GROUP("Kuhn test: every decode step consumes 1..remaining bytes");
    char *in = NULL, *expected = NULL, *out;
    size_t in_len = 0, expected_len = 0, out_len = 0, off = 0, first_error_at = 0, up_to = 0, i;
    utf8_status first_error = UTF8_OK, st;

    if (input_path == NULL || expected_path == NULL || !read_file(input_path, &in, &in_len) ||
        !read_file(expected_path, &expected, &expected_len)) {
        printf("Kuhn stress test SKIPPED (shared/ test data absent: %s)\n",
               input_path == NULL || expected_path == NULL ? "no file arguments given"
                                                           : "cannot read the files given");
        free(in);
        return;
    }

    /* Lossy decoding: U+FFFD for each maximal subpart, as Python's decode('utf-8', 'replace'). */
    out = malloc(3 * in_len + UTF8_MAX_BYTES);
    if (out == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    while (off < in_len) {
        uint32_t cp = 0;
        size_t consumed = 0, written = 0;

        st = utf8_decode_next(in + off, in_len - off, &cp, &consumed);
        if (consumed < 1 || consumed > in_len - off) {
            group_fail(&advance, "at offset %lu [%s]: %s consumed %lu", (unsigned long)off,
                       hex(in + off, in_len - off < 4 ? in_len - off : 4), sname(st),
                       (unsigned long)consumed);
            break;
        }
        if (st != UTF8_OK) {
            if (first_error == UTF8_OK) {
                first_error = st;
                first_error_at = off;
            }
            cp = REPLACEMENT;
        }
        if (utf8_encode(cp, out + out_len, UTF8_MAX_BYTES, &written) != UTF8_OK) {
            group_fail(&advance, "at offset %lu: cannot encode U+%04lX", (unsigned long)off,
                       (unsigned long)cp);
            break;
        }
        out_len += written;
        off += consumed;
    }
    group_end(&advance);

    for (i = 0; i < out_len && i < expected_len && out[i] == expected[i]; i++)
        continue;
    CHECK(i == out_len && i == expected_len,
          "Kuhn test: lossy decoding of %s differs from %s at output offset %lu "
          "(lengths %lu and %lu): got [%s], want [%s]",
          input_path, expected_path, (unsigned long)i, (unsigned long)out_len,
          (unsigned long)expected_len, hex(out + i, out_len - i < 12 ? out_len - i : 12),
          hex(expected + i, expected_len - i < 12 ? expected_len - i : 12));

    /* utf8_count_chars gives the number of characters of Python's lossy decoding. */
    {
        size_t expected_chars = 0;

        for (i = 0; i < expected_len; i++)
            expected_chars += ((unsigned char)expected[i] & 0xC0) != 0x80;
        CHECK(utf8_count_chars(in, in_len) == expected_chars,
              "Kuhn test: utf8_count_chars gives %lu, Python's lossy decoding has %lu characters",
              (unsigned long)utf8_count_chars(in, in_len), (unsigned long)expected_chars);
    }

    /* The file holds malformed lines: validate stops where the decoding loop met the first one. */
    st = utf8_validate(in, in_len, &up_to);
    CHECK(st != UTF8_OK, "Kuhn test: utf8_validate accepts %s, which has malformed lines",
          input_path);
    CHECK(st == first_error && up_to == first_error_at,
          "Kuhn test: utf8_validate gives %s at %lu, the decoding loop's first error is %s at %lu",
          sname(st), (unsigned long)up_to, sname(first_error), (unsigned long)first_error_at);

    free(out);
    free(in);
    free(expected);
}

/* ---------------------------------------------------------------------------------------------- */
/* The header's inline utf8_decode_next (unless LIBUTF8_NO_INLINE) equals the library function    */
/* ---------------------------------------------------------------------------------------------- */

#ifndef LIBUTF8_NO_INLINE /* without the header's inline code there is nothing to compare */
/* Compares the macro and the function on `len` bytes at `in` (NULL if len is 0). */
static void compare_inline(struct group *same, const char *in, size_t len)
{
    uint32_t cp1 = 1, cp2 = 2;
    size_t n1 = 3, n2 = 4;
    utf8_status st1 = utf8_decode_next(len ? in : NULL, len, &cp1, &n1);
    utf8_status st2 = (utf8_decode_next)(len ? in : NULL, len, &cp2, &n2);

    if (st1 != st2 || cp1 != cp2 || n1 != n2)
        group_fail(same, "[%s]: %s U+%04lX %lu vs %s U+%04lX %lu", hex(in, len), sname(st1),
                   (unsigned long)cp1, (unsigned long)n1, sname(st2), (unsigned long)cp2,
                   (unsigned long)n2);
}

static void test_inline_decode_next(void)
{
    struct group same = GROUP("utf8_decode_next(...) and (utf8_decode_next)(...) agree");
    /* After every 3-byte start: ASCII, continuations at both ends of their range, a lead. */
    static const unsigned char fourths[] = { 0x41, 0x80, 0xBF, 0xC3 };
    unsigned a, b, c, d;
    size_t len;

    for (a = 0; a < 256; a++)
        for (b = 0; b < 256; b++)
            for (c = 0; c < 256; c++)
                for (d = 0; d < COUNT(fourths); d++) {
                    char in[4];

                    in[0] = (char)a;
                    in[1] = (char)b;
                    in[2] = (char)c;
                    in[3] = (char)fourths[d];
                    /* Shorter inputs are the prefixes: once per (a, b, c), not per fourth. */
                    for (len = d == 0 ? 0 : 4; len <= 4; len++)
                        compare_inline(&same, in, len);
                }
    group_end(&same);
    CHECK_STATUS(utf8_decode_next(NULL, 3, NULL, NULL), UTF8_ERR_NULL_POINTER,
                 "decode_next(NULL, 3) through the header");
}

#endif

/* ---------------------------------------------------------------------------------------------- */
/* The sibling forms (since 1.2): each form's defining examples and refusals                      */
/* ---------------------------------------------------------------------------------------------- */

struct form_example {
    int line;
    utf8_form form;
    const char *what;
    const char *bytes;
    size_t len;
    utf8_status status; /* expected from utf8_validate_form ... */
    size_t valid_up_to; /* ... and its *valid_up_to */
    struct step steps[MAX_STEPS];
};

#define FROW(form, what, lit) __LINE__, UTF8_FORM_##form, (what), LIT(lit)

static const struct form_example form_examples[] = {
    /* RFC 2279 section 4, in every form (BMP characters other than U+0000). */
    { FROW(RFC2279, "RFC 2279 section 4: A<NOT IDENTICAL TO><ALPHA>.",
           "\x41\xE2\x89\xA2\xCE\x91\x2E"),
      ALL_VALID(7), { CHAR(0x41, 1), CHAR(0x2262, 3), CHAR(0x391, 2), CHAR(0x2E, 1) } },
    { FROW(CESU8, "RFC 2279 section 4: Korean \"hangugo\"",
           "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"),
      ALL_VALID(9), { CHAR(0xD55C, 3), CHAR(0xAD6D, 3), CHAR(0xC5B4, 3) } },
    { FROW(MUTF8, "RFC 2279 section 4: Japanese \"nihongo\"",
           "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
      ALL_VALID(9), { CHAR(0x65E5, 3), CHAR(0x672C, 3), CHAR(0x8A9E, 3) } },
    /* RFC 2279 section 2: the 5- and 6-byte rows; FE and FF never appear; shortest form only. */
    { FROW(RFC2279, "RFC 2279: first and last 5-byte values",
           "\xF8\x88\x80\x80\x80\xFB\xBF\xBF\xBF\xBF"),
      ALL_VALID(10), { CHAR(0x200000, 5), CHAR(0x3FFFFFF, 5) } },
    { FROW(RFC2279, "RFC 2279: first and last 6-byte values",
           "\xFC\x84\x80\x80\x80\x80\xFD\xBF\xBF\xBF\xBF\xBF"),
      ALL_VALID(12), { CHAR(0x4000000, 6), CHAR(0x7FFFFFFF, 6) } },
    { FROW(RFC2279, "RFC 2279: 4-byte values above U+10FFFF", "\xF4\x90\x80\x80\xF7\xBF\xBF\xBF"),
      ALL_VALID(8), { CHAR(0x110000, 4), CHAR(0x1FFFFF, 4) } },
    { FROW(RFC2279, "RFC 2279: FE, FF, overlong 5- and 6-byte forms",
           "\xFE\xFF\xF8\x87\xBF\xFC\x83\xBF"),
      FAILS_AT(INVALID_BYTE, 0),
      { BAD(INVALID_BYTE, 1), BAD(INVALID_BYTE, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(RFC2279, "RFC 2279: a 6-byte value cut short", "\xFD\xBF\xBF\xBF\x41"),
      FAILS_AT(MISSING_CONTINUATION, 0), { BAD(MISSING_CONTINUATION, 4), CHAR(0x41, 1) } },
    /* Modified UTF-8: U+0000 is C0 80, never 00. */
    { FROW(MUTF8, "Modified UTF-8: NUL as C0 80", "a\xC0\x80" "b"), ALL_VALID(4),
      { CHAR(0x61, 1), CHAR(0, 2), CHAR(0x62, 1) } },
    { FROW(MUTF8, "Modified UTF-8: a 00 byte, C0 81", "a\x00\xC0\x81"), FAILS_AT(INVALID_BYTE, 1),
      { CHAR(0x61, 1), BAD(INVALID_BYTE, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(CESU8, "CESU-8: C0 80 stays an overlong NUL", "\xC0\x80"), FAILS_AT(OVERLONG, 0),
      { BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    /* CESU-8 and Modified UTF-8: U+1F4A9 as D83D DCA9, three bytes each. */
    { FROW(CESU8, "CESU-8: U+1F4A9 as a surrogate pair", "\xED\xA0\xBD\xED\xB2\xA9"),
      ALL_VALID(6), { CHAR(0x1F4A9, 6) } },
    { FROW(MUTF8, "Modified UTF-8: U+1F4A9 as a surrogate pair", "\xED\xA0\xBD\xED\xB2\xA9"),
      ALL_VALID(6), { CHAR(0x1F4A9, 6) } },
    { FROW(CESU8, "CESU-8: no 4-byte form", "\xF0\x9F\x92\xA9"), FAILS_AT(INVALID_BYTE, 0),
      { BAD(INVALID_BYTE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(CESU8, "CESU-8: unpaired lead then trail surrogate", "\xED\xA0\xBD" "a\xED\xB2\xA9"),
      FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 3), CHAR(0x61, 1), BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(MUTF8, "Modified UTF-8: a pair cut by the end", "a\xED\xA0\xBD\xED\xB2"),
      FAILS_AT(TRUNCATED, 1), { CHAR(0x61, 1), BAD(TRUNCATED, 5) } },
    /* WTF-8: unpaired surrogates allowed, a pair of them refused. */
    { FROW(WTF8, "WTF-8: lone lead surrogate", "\xED\xA0\x80"), ALL_VALID(3), { CHAR(0xD800, 3) } },
    { FROW(WTF8, "WTF-8: trail then lead surrogate", "\xED\xB0\x80\xED\xA0\x80"), ALL_VALID(6),
      { CHAR(0xDC00, 3), CHAR(0xD800, 3) } },
    { FROW(WTF8, "WTF-8: a surrogate pair in 3-byte halves", "a\xED\xA0\xBD\xED\xB2\xA9" "b"),
      FAILS_AT(SURROGATE, 1), { CHAR(0x61, 1), BAD(SURROGATE, 6), CHAR(0x62, 1) } },
    { FROW(WTF8, "WTF-8: U+1F4A9 in 4 bytes", "\xF0\x9F\x92\xA9"), ALL_VALID(4),
      { CHAR(0x1F4A9, 4) } },
    { FROW(RFC2279, "RFC 2279: a surrogate pair in 3-byte halves", "\xED\xA0\xBD\xED\xB2\xA9"),
      FAILS_AT(SURROGATE, 0), { BAD(SURROGATE, 6) } },
    { FROW(STRICT, "strict: a lone surrogate", "\xED\xA0\x80"), FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
};

static void test_form_example(const struct form_example *ex)
{
    char ctx[256];
    char *in = dup_exact(ex->bytes, ex->len);
    size_t up_to = 12345, off = 0, i;
    utf8_status st;
    const struct step *want = ex->steps;

    snprintf(ctx, sizeof ctx, "form %d, %s (row at line %d) [%s]", (int)ex->form, ex->what,
             ex->line, hex(ex->bytes, ex->len));
    st = utf8_validate_form(in, ex->len, ex->form, &up_to);
    CHECK_STATUS(st, ex->status, ctx);
    CHECK_SIZE("valid_up_to", up_to, ex->valid_up_to, ctx);

    /* The lossy decoding loop; every OK step is encoded back, in the form, to the same bytes. */
    for (i = 0; off < ex->len && i < MAX_STEPS && want[i].consumed != 0; i++) {
        uint32_t cp = 0x12345678;
        size_t consumed = 99, out_len = 99;
        char out[UTF8_FORM_MAX_BYTES];
        char sctx[320];

        snprintf(sctx, sizeof sctx, "%s, step %lu at offset %lu", ctx, (unsigned long)i,
                 (unsigned long)off);
        st = utf8_decode_next_form(in + off, ex->len - off, ex->form, &cp, &consumed);
        CHECK_STATUS(st, want[i].status, sctx);
        CHECK_CP(cp, want[i].cp, sctx);
        if (!CHECK_SIZE("consumed", consumed, want[i].consumed, sctx))
            break;
        if (st == UTF8_OK) {
            st = utf8_encode_form(cp, ex->form, out, sizeof out, &out_len);
            CHECK_STATUS(st, UTF8_OK, sctx);
            CHECK_OUT(out, out_len, in + off, consumed, sctx);
        }
        off += consumed;
    }
    CHECK(off == ex->len && (i == MAX_STEPS || want[i].consumed == 0),
          "%s: decoding loop ended after %lu step(s) at offset %lu", ctx, (unsigned long)i,
          (unsigned long)off);
    free(in);
}

static void test_forms(void)
{
    /* Refused encodings: above each form's range, and surrogates where a form has none. */
    static const struct {
        utf8_form form;
        uint32_t cp;
        utf8_status status;
    } refused[] = {
        { UTF8_FORM_STRICT, 0xD800, UTF8_ERR_SURROGATE },
        { UTF8_FORM_CESU8, 0xDC00, UTF8_ERR_SURROGATE },
        { UTF8_FORM_MUTF8, 0xDFFF, UTF8_ERR_SURROGATE },
        { UTF8_FORM_WTF8, 0x110000, UTF8_ERR_TOO_LARGE },
        { UTF8_FORM_CESU8, 0x110000, UTF8_ERR_TOO_LARGE },
        { UTF8_FORM_RFC2279, 0x80000000u, UTF8_ERR_TOO_LARGE },
    };
    char out[UTF8_FORM_MAX_BYTES];
    size_t i, n, up_to;
    uint32_t cp;
    int bad;

    for (i = 0; i < COUNT(form_examples); i++)
        test_form_example(&form_examples[i]);
    for (i = 0; i < COUNT(refused); i++) {
        n = 99;
        CHECK(utf8_encode_form(refused[i].cp, refused[i].form, out, sizeof out, &n) ==
                      refused[i].status &&
                  n == 0,
              "utf8_encode_form(0x%lX, form %d): want %s, out_len 0 (got %lu)",
              (unsigned long)refused[i].cp, (int)refused[i].form, sname(refused[i].status),
              (unsigned long)n);
    }
    /* U+10000 in 6 bytes (CESU-8), so UTF8_MAX_BYTES does not suffice; the size query says so. */
    n = 99;
    CHECK(utf8_encode_form(0x10000, UTF8_FORM_CESU8, out, UTF8_MAX_BYTES, &n) ==
                  UTF8_ERR_BUFFER_TOO_SMALL &&
              n == 6,
          "utf8_encode_form(U+10000, CESU-8) into UTF8_MAX_BYTES: want BUFFER_TOO_SMALL, 6 (%lu)",
          (unsigned long)n);
    /* Unknown forms: UTF8_ERR_INVALID_ARGUMENT, out-parameters untouched. */
    for (bad = -1; bad <= 6; bad += 7) {
        n = 99;
        up_to = 99;
        cp = 99;
        CHECK(utf8_validate_form("a", 1, (utf8_form)bad, &up_to) == UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_decode_next_form("a", 1, (utf8_form)bad, &cp, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_encode_form(0x41, (utf8_form)bad, out, sizeof out, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  n == 99 && up_to == 99 && cp == 99,
              "form %d: want UTF8_ERR_INVALID_ARGUMENT, nothing written", bad);
    }
}

int main(int argc, char **argv)
{
    test_examples();
    test_first_bytes();
    test_byte_pairs();
    test_boundaries();
    test_truncation();
    test_null_inputs();
    test_null_out_params();
    test_encode_buffers();
    test_strings();
    test_round_trip();
    test_forms();
#ifndef LIBUTF8_NO_INLINE
    test_inline_decode_next();
#endif
    test_kuhn(argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL);

    return check_summary();
}
