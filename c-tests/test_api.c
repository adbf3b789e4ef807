/*
 * test_api.c: tests of the libutf8 C API, through its installed header only.
 *
 * Every expected value here was written by hand from the source documents (RFC 3629, RFC 2279,
 * the encyclopedia article on UTF-8, the utf-8(7) man page), the Unicode Standard, chapter 3,
 * and the definitions of the sibling forms (WTF-8, Unicode TR #26 for CESU-8, Java's DataInput);
 * where no standard defines the result (escaping, streaming, character boundaries, bad
 * arguments), from the contract documented in libutf8.h and libutf8(3); none was printed by the
 * library. Where a whole range is checked, the expectation comes from the reference codec
 * (reference.c), written from the RFC 3629 tables, not from the library.
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

#include "calls.h"     /* the converters behind one signature */
#include "check.h"     /* the checks, typed checks, groups, sname, hex */
#include "reference.h" /* the reference codec */

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

static void test_first_bytes(void)
{
    unsigned b;

    for (b = 0; b <= 0xFF; b++) {
        struct lead l = *lead_of((unsigned char)b);
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
        want = l.width >= 2 ? UTF8_ERR_MISSING_CONTINUATION : (utf8_status)l.alone;
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

/* Every two-byte input (L, S), against the reference's lead bytes: one check for all 65536. */
static void test_byte_pairs(void)
{
    struct group g;
    unsigned lead, second;

    GROUP_BEGIN(&g, "every two-byte input");

    for (lead = 0; lead <= 0xFF; lead++) {
        for (second = 0; second <= 0xFF; second++) {
            struct lead l = *lead_of((unsigned char)lead), s = *lead_of((unsigned char)second);
            char pair[2];
            utf8_status want_st, want_vst, st, vst;
            uint32_t want_cp = REPLACEMENT, cp = 0;
            size_t want_n = 1, want_up_to = 0, n = 0, up_to = 0;

            if (l.width == 1) {             /* ASCII, then the second byte on its own */
                want_st = UTF8_OK;
                want_cp = lead;
                want_vst = (utf8_status)s.alone;
                want_up_to = s.alone == UTF8_OK ? 2 : 1;
            } else if (l.width == 0) {      /* never a lead byte */
                want_st = want_vst = (utf8_status)l.alone;
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
                want_st = want_vst = (utf8_status)l.bad_second;
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
    struct group scalars, surrogates;
    uint32_t cp;

    GROUP_BEGIN(&scalars, "round trip of every scalar value U+0000..U+10FFFF");
    GROUP_BEGIN(&surrogates, "every surrogate U+D800..U+DFFF refused");
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
    struct group advance;
    char *in = NULL, *expected = NULL, *out;
    size_t in_len = 0, expected_len = 0, out_len = 0, off = 0, first_error_at = 0, up_to = 0, i;
    utf8_status first_error = UTF8_OK, st;

    GROUP_BEGIN(&advance, "Kuhn test: every decode step consumes 1..remaining bytes");
    if (input_path == NULL || expected_path == NULL) {
        printf("Kuhn stress test SKIPPED (shared/ test data absent: no file arguments given)\n");
        return;
    }
    /* Files named but unreadable are a broken run, not absent data. */
    if (!CHECK(read_file(input_path, &in, &in_len), "Kuhn test: cannot read %s", input_path) ||
        !CHECK(read_file(expected_path, &expected, &expected_len), "Kuhn test: cannot read %s",
               expected_path)) {
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
    struct group same;
    /* After every 3-byte start: ASCII, continuations at both ends of their range, a lead. */
    static const unsigned char fourths[] = { 0x41, 0x80, 0xBF, 0xC3 };
    unsigned a, b, c, d;
    size_t len;

    GROUP_BEGIN(&same, "utf8_decode_next(...) and (utf8_decode_next)(...) agree");
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
    int bad, f;

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
        /* checked first: before a NULL buffer with a length */
        CHECK(utf8_validate_form(NULL, 1, (utf8_form)bad, NULL) == UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_decode_next_form(NULL, 1, (utf8_form)bad, NULL, NULL) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_encode_form(0x41, (utf8_form)bad, NULL, 1, NULL) ==
                      UTF8_ERR_INVALID_ARGUMENT,
              "form %d with NULL buffers: want UTF8_ERR_INVALID_ARGUMENT", bad);
    }
    /* Each form's bad arguments, as utf8_validate, utf8_decode_next and utf8_encode's. */
    for (f = UTF8_FORM_STRICT; f <= UTF8_FORM_RFC2279; f++) {
        utf8_form form = (utf8_form)f;
        /* U+10000: a surrogate pair of 3 bytes each in CESU-8 and Modified UTF-8, else 4 bytes */
        size_t u10000 = form == UTF8_FORM_CESU8 || form == UTF8_FORM_MUTF8 ? 6 : 4;
        char ctx[64];

        snprintf(ctx, sizeof ctx, "form %d, NULL buffers and out-parameters", f);
        n = up_to = 12345;
        cp = 0x12345678;
        CHECK_STATUS(utf8_validate_form(NULL, 3, form, &up_to), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_STATUS(utf8_decode_next_form(NULL, 3, form, &cp, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK(up_to == 12345 && n == 12345 && cp == 0x12345678, "%s: out-parameters written", ctx);
        CHECK_STATUS(utf8_encode_form(0x41, form, NULL, 4, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        CHECK_STATUS(utf8_validate_form(NULL, 0, form, &up_to), UTF8_OK, ctx);
        CHECK_SIZE("valid_up_to of (NULL, 0)", up_to, 0, ctx);
        CHECK_STATUS(utf8_decode_next_form(NULL, 0, form, &cp, &n), UTF8_ERR_TRUNCATED, ctx);
        CHECK(n == 0 && cp == REPLACEMENT, "%s: decode (NULL, 0): consumed %lu, U+%04lX", ctx,
              (unsigned long)n, (unsigned long)cp);
        CHECK_STATUS(utf8_encode_form(0x10000, form, NULL, 0, &n), UTF8_ERR_BUFFER_TOO_SMALL, ctx);
        CHECK_SIZE("out_len of the size query for U+10000", n, u10000, ctx);
        n = 12345;
        CHECK_STATUS(utf8_encode_form(0x80000000u, form, NULL, 0, &n), UTF8_ERR_TOO_LARGE, ctx);
        CHECK_SIZE("out_len of a refused value", n, 0, ctx);
        /* NULL out-parameters */
        CHECK_STATUS(utf8_validate_form("\xC0\x80", 2, form, NULL),
                     form == UTF8_FORM_MUTF8 ? UTF8_OK : UTF8_ERR_OVERLONG, ctx);
        CHECK_STATUS(utf8_decode_next_form("A", 1, form, NULL, NULL), UTF8_OK, ctx);
        memset(out, SENTINEL_BYTE, sizeof out);
        CHECK_STATUS(utf8_encode_form(0x41, form, out, sizeof out, NULL), UTF8_OK, ctx);
        CHECK_OUT(out, 1, "A", 1, ctx);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Shared by the functions since 1.2: exact-size buffers, untouched bytes                         */
/* ---------------------------------------------------------------------------------------------- */

/* Whether the n bytes at p all still hold SENTINEL_BYTE. */
static int untouched(const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        if (b[i] != SENTINEL_BYTE)
            return 0;
    return 1;
}

/* A heap buffer of exactly n bytes filled with SENTINEL_BYTE: ASan catches a write past it. */
static void *sentinel_buffer(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(p, SENTINEL_BYTE, n ? n : 1);
    return p;
}

/* ---------------------------------------------------------------------------------------------- */
/* Character boundaries (since 1.2): utf8_char_start, utf8_truncate                               */
/* ---------------------------------------------------------------------------------------------- */

static void test_char_boundaries(void)
{
    /* RFC 3629 section 7, "A<NOT IDENTICAL TO><ALPHA>.": characters start at 0, 1, 4 and 6. */
    static const char text[] = "\x41\xE2\x89\xA2\xCE\x91\x2E";
    static const size_t text_start[] = { 0, 1, 1, 1, 4, 4, 6 }; /* of the one holding byte i */
    /* Unicode ch. 3, table 3-9: C0 is a maximal subpart alone, so AF is a character of its own;
     * then 'A', and the input ends inside U+2262 (E2 89): E2 89 is one character. */
    static const char bad[] = "\xC0\xAF\x41\xE2\x89";
    static const size_t bad_start[] = { 0, 1, 2, 3, 3 };
    char *s = dup_exact(LIT(text)), *b = dup_exact(LIT(bad));
    char ctx[96];
    size_t i;

    for (i = 0; i < COUNT(text_start); i++) {
        snprintf(ctx, sizeof ctx, "RFC 3629 section 7, A<NOT IDENTICAL TO><ALPHA>., index %lu",
                 (unsigned long)i);
        CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, i), text_start[i], ctx);
        CHECK_SIZE("utf8_truncate", utf8_truncate(s, 7, i), text_start[i], ctx);
    }
    for (i = 0; i < COUNT(bad_start); i++) {
        snprintf(ctx, sizeof ctx, "[C0 AF 41 E2 89], index %lu", (unsigned long)i);
        CHECK_SIZE("utf8_char_start", utf8_char_start(b, 5, i), bad_start[i], ctx);
        CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, i), bad_start[i], ctx);
    }
    /* i >= len gives len; max >= len gives len, even when the buffer ends inside a character. */
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, 7), 7, "char_start(text, 7, 7)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, SIZE_MAX), 7, "char_start(text, 7, MAX)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(s, 7, 8), 7, "truncate(text, 7, 8)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, 5), 5, "truncate([C0 AF 41 E2 89], 5, 5)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, SIZE_MAX), 5, "truncate([...], 5, MAX)");
    /* 0 for (NULL, any); a real pointer with length 0 is the empty buffer. */
    CHECK_SIZE("utf8_char_start", utf8_char_start(NULL, 0, 0), 0, "char_start(NULL, 0, 0)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(NULL, 7, 3), 0, "char_start(NULL, 7, 3)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 0, 3), 0, "char_start(text, 0, 3)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 0, 0), 0, "truncate(NULL, 0, 0)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 7, 3), 0, "truncate(NULL, 7, 3)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 7, 9), 0, "truncate(NULL, 7, 9)");
    free(s);
    free(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Streaming validation (since 1.2): utf8_stream_init, utf8_stream_feed, utf8_stream_finish       */
/* ---------------------------------------------------------------------------------------------- */

/* Feeds a chunk from an exact-size heap copy; checks the status and *valid_up_to. */
static void expect_feed_at(int line, utf8_stream *st, const char *chunk, size_t len,
                           utf8_status want, size_t want_up_to, const char *ctx)
{
    char *c = dup_exact(chunk, len);
    size_t n = 12345;

    check_status_at(__FILE__, line, utf8_stream_feed(st, c, len, &n), want, ctx);
    check_size_at(__FILE__, line, "valid_up_to", n, want_up_to, ctx);
    free(c);
}

static void expect_finish_at(int line, utf8_stream *st, utf8_status want, size_t want_up_to,
                             const char *ctx)
{
    size_t n = 12345;

    check_status_at(__FILE__, line, utf8_stream_finish(st, &n), want, ctx);
    check_size_at(__FILE__, line, "valid_up_to", n, want_up_to, ctx);
}

#define EXPECT_FEED(st, lit, want, up_to, ctx)                                                     \
    expect_feed_at(__LINE__, (st), LIT(lit), UTF8_##want, (up_to), (ctx))
#define EXPECT_FINISH(st, want, up_to, ctx)                                                        \
    expect_finish_at(__LINE__, (st), UTF8_##want, (up_to), (ctx))

static void test_stream(void)
{
    static const char *const split = "RFC 3629 section 7, BOM then U+233B4 split in two chunks";
    static const char *const f4 = "header: a chunk ending in F4, then one starting with 90";
    utf8_stream st, copy, zeroed;
    size_t n;

    /* EF BB BF | F0 A3 ... 8E B4: the pending character is not an error until proven one. */
    utf8_stream_init(&st);
    EXPECT_FEED(&st, "\xEF\xBB\xBF\xF0\xA3", OK, 3, split);
    copy = st; /* copying the struct copies the stream */
    EXPECT_FEED(&st, "\x8E\xB4", OK, 7, split);
    EXPECT_FINISH(&st, OK, 7, split);
    EXPECT_FINISH(&st, OK, 7, "after UTF8_OK the stream is unchanged");
    /* The copy ends inside U+233B4: TRUNCATED at its offset, kept like any other error. */
    EXPECT_FINISH(&copy, ERR_TRUNCATED, 3, "the copy, ended inside U+233B4");
    EXPECT_FEED(&copy, "\x8E\xB4", ERR_TRUNCATED, 3, "the copy, fed after its TRUNCATED error");

    /* A zero-filled struct is a stream at its start; the error is reported at the F4. */
    memset(&zeroed, 0, sizeof zeroed);
    EXPECT_FEED(&zeroed, "A\xF4", OK, 1, f4);
    EXPECT_FEED(&zeroed, "\x90", ERR_TOO_LARGE, 1, f4);
    EXPECT_FEED(&zeroed, "B", ERR_TOO_LARGE, 1, "every call after an error returns it again");
    EXPECT_FINISH(&zeroed, ERR_TOO_LARGE, 1, "finish after an error returns it again");
    utf8_stream_init(&zeroed);
    EXPECT_FEED(&zeroed, "B", OK, 1, "utf8_stream_init starts over");

    /* A NULL state: NULL_POINTER, valid_up_to untouched; utf8_stream_init(NULL) does nothing. */
    utf8_stream_init(NULL);
    n = 12345;
    CHECK_STATUS(utf8_stream_feed(NULL, "A", 1, &n), UTF8_ERR_NULL_POINTER, "stream_feed(NULL st)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL st)");
    CHECK_STATUS(utf8_stream_feed(NULL, NULL, 0, &n), UTF8_ERR_NULL_POINTER,
                 "stream_feed(NULL st, (NULL, 0))");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL st, (NULL, 0))");
    CHECK_STATUS(utf8_stream_finish(NULL, &n), UTF8_ERR_NULL_POINTER, "stream_finish(NULL st)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_finish(NULL st)");

    /* A NULL chunk with len > 0 changes nothing; (NULL, 0) is an empty chunk; NULL valid_up_to. */
    utf8_stream_init(&st);
    EXPECT_FEED(&st, "\xEF\xBB\xBF\xF0\xA3", OK, 3, "before the NULL chunk");
    copy = st;
    n = 12345;
    CHECK_STATUS(utf8_stream_feed(&st, NULL, 2, &n), UTF8_ERR_NULL_POINTER, "stream_feed(NULL, 2)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL, 2)");
    CHECK(memcmp(&st, &copy, sizeof st) == 0, "stream_feed(NULL, 2) changed the stream");
    CHECK_STATUS(utf8_stream_feed(&st, NULL, 0, &n), UTF8_OK, "stream_feed(NULL, 0)");
    CHECK_SIZE("valid_up_to", n, 3, "stream_feed(NULL, 0)");
    CHECK_STATUS(utf8_stream_feed(&st, "\x8E\xB4", 2, NULL), UTF8_OK,
                 "stream_feed, valid_up_to NULL");
    CHECK_STATUS(utf8_stream_finish(&st, NULL), UTF8_OK, "stream_finish, valid_up_to NULL");
    EXPECT_FINISH(&st, OK, 7, "stream_finish after calls with valid_up_to NULL");

    /* A state these functions never leave (all bits set): UTF8_ERR_INVALID_ARGUMENT. */
    memset(&st, 0xFF, sizeof st);
    CHECK_STATUS(utf8_stream_feed(&st, "A", 1, &n), UTF8_ERR_INVALID_ARGUMENT,
                 "stream_feed on a garbage state");
    CHECK_STATUS(utf8_stream_finish(&st, &n), UTF8_ERR_INVALID_ARGUMENT,
                 "stream_finish on a garbage state");
}

/* ---------------------------------------------------------------------------------------------- */
/* Text functions (since 1.2): utf8_escape, utf8_unescape, utf8_replace_invalid                  */
/* ---------------------------------------------------------------------------------------------- */

/* The functions with the (in, len, out, cap, out_len) signature, utf8_escape for each style. */
typedef utf8_status (*text_fn)(const char *in, size_t len, char *out, size_t cap, size_t *out_len);

static utf8_status escape_c(const char *in, size_t len, char *out, size_t cap, size_t *out_len)
{
    return utf8_escape(in, len, UTF8_ESCAPE_C, out, cap, out_len);
}

static utf8_status escape_shell(const char *in, size_t len, char *out, size_t cap, size_t *out_len)
{
    return utf8_escape(in, len, UTF8_ESCAPE_SHELL, out, cap, out_len);
}

static const struct {
    const char *name;
    text_fn fn;
} text_fns[] = {
    { "utf8_escape(UTF8_ESCAPE_C)", escape_c },
    { "utf8_escape(UTF8_ESCAPE_SHELL)", escape_shell },
    { "utf8_unescape", utf8_unescape },
    { "utf8_replace_invalid", utf8_replace_invalid },
};

/*
 * fn on the len bytes at in (an exact heap copy): on UTF8_OK, the want_len bytes at want, found
 * through the size query (NULL, 0), a buffer one byte short, an exact one, and out_len NULL; on
 * an error (UTF8_ERR_INVALID_ESCAPE), that status with *out_len == want_len, whatever the buffer.
 */
static void expect_text_at(int line, const char *name, text_fn fn, const char *input, size_t len,
                           utf8_status want_st, const char *want, size_t want_len)
{
    char ctx[160];
    char *in = dup_exact(input, len), *out;
    size_t n = 12345, cap = want_st == UTF8_OK ? want_len : len;

    snprintf(ctx, sizeof ctx, "%s [%s] (line %d)", name, hex(input, len), line);
    check_status_at(__FILE__, line, fn(in, len, NULL, 0, &n),
                    want_st == UTF8_OK && want_len > 0 ? UTF8_ERR_BUFFER_TOO_SMALL : want_st,
                    ctx);
    check_size_at(__FILE__, line, "out_len of the size query", n, want_len, ctx);
    if (want_st == UTF8_OK && want_len > 0) {
        out = sentinel_buffer(want_len - 1);
        n = 12345;
        check_status_at(__FILE__, line, fn(in, len, out, want_len - 1, &n),
                        UTF8_ERR_BUFFER_TOO_SMALL, ctx);
        check_size_at(__FILE__, line, "out_len, one byte short", n, want_len, ctx);
        free(out);
    }
    out = sentinel_buffer(cap);
    n = 12345;
    check_status_at(__FILE__, line, fn(in, len, out, cap, &n), want_st, ctx);
    if (want_st == UTF8_OK) {
        check_bytes_at(__FILE__, line, out, n, cap, want, want_len, ctx);
        memset(out, SENTINEL_BYTE, cap);
        check_status_at(__FILE__, line, fn(in, len, out, cap, NULL), want_st, ctx);
        check_bytes_at(__FILE__, line, out, want_len, cap, want, want_len, ctx);
    } else {
        check_size_at(__FILE__, line, "out_len", n, want_len, ctx);
    }
    free(out);
    free(in);
}

#define EXPECT_TEXT(fn, in, want)                                                                  \
    expect_text_at(__LINE__, #fn, (fn), LIT(in), UTF8_OK, LIT(want))
#define EXPECT_BAD_ESCAPE(in, offset)                                                              \
    expect_text_at(__LINE__, "utf8_unescape", utf8_unescape, LIT(in), UTF8_ERR_INVALID_ESCAPE,     \
                   NULL, (offset))

static void test_text(void)
{
    char out[16];
    size_t i, n;
    int bad;

    /*
     * UTF8_ESCAPE_C, as the header specifies it: 'a' unchanged; C0 AF (Unicode ch. 3, table 3-9:
     * two maximal subparts) byte by byte as \xHH in lower case; \ as \\; LF as \n; U+0085 (C1)
     * and U+202E (bidirectional) as \u{HHHH}; U+00E9 unchanged; E2 82, cut short, byte by byte.
     */
    EXPECT_TEXT(escape_c, "a\xC0\xAF\\\n\xC2\x85\xE2\x80\xAE\xC3\xA9\xE2\x82",
                "a\\xc0\\xaf\\\\\\n\\u{0085}\\u{202e}\xC3\xA9\\xe2\\x82");
    EXPECT_TEXT(utf8_unescape, "a\\xc0\\xaf\\\\\\n\\u{0085}\\u{202e}\xC3\xA9\\xe2\\x82",
                "a\xC0\xAF\\\n\xC2\x85\xE2\x80\xAE\xC3\xA9\xE2\x82");
    EXPECT_TEXT(utf8_unescape, "\\xC0\\u{202E}\\t", "\xC0\xE2\x80\xAE\t"); /* either case */
    EXPECT_TEXT(utf8_unescape, "\xFF\x01", "\xFF\x01"); /* bytes outside escapes are copied */
    /* UTF8_ESCAPE_SHELL: the header's examples. */
    EXPECT_TEXT(escape_shell, "", "''");
    EXPECT_TEXT(escape_shell, "abc", "abc");
    EXPECT_TEXT(escape_shell, "it's", "\"it's\"");
    EXPECT_TEXT(escape_shell, "a b", "'a b'");
    /* Single quotes, closed around a $'...' segment (three octal digits per byte) and reopened. */
    EXPECT_TEXT(escape_shell, "a\xFF" "b", "'a'$'\\377''b'");
    EXPECT_TEXT(escape_shell, "a\0b", "'a'$'\\000''b'");
    EXPECT_TEXT(escape_c, "", "");
    /* Bad escapes: the offset of the backslash, reported before a too small buffer. */
    EXPECT_BAD_ESCAPE("ok\\q", 2);
    EXPECT_BAD_ESCAPE("\\x4", 0);
    EXPECT_BAD_ESCAPE("\\u{41}", 0);
    EXPECT_BAD_ESCAPE("a\\u{d800}", 1);
    EXPECT_BAD_ESCAPE("ab\\", 2);
    /*
     * Unicode ch. 3, "U+FFFD Substitution of Maximal Subparts", table 3-8: 61 F1 80 80 E1 80
     * C2 62 80 63 80 BF 64 is 61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64; valid input unchanged.
     */
    EXPECT_TEXT(utf8_replace_invalid, "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
                "\x61\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\x62\xEF\xBF\xBD\x63"
                "\xEF\xBF\xBD\xEF\xBF\xBD\x64");
    EXPECT_TEXT(utf8_replace_invalid, "\x41\xE2\x89\xA2\xCE\x91\x2E",
                "\x41\xE2\x89\xA2\xCE\x91\x2E");
    EXPECT_TEXT(utf8_replace_invalid, "", "");

    /* Bad arguments, for each: NULL_POINTER with out and *out_len untouched; (NULL, 0) empty. */
    for (i = 0; i < COUNT(text_fns); i++) {
        char ctx[96];

        snprintf(ctx, sizeof ctx, "%s((NULL, 3), out)", text_fns[i].name);
        memset(out, SENTINEL_BYTE, sizeof out);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 3, out, sizeof out, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK(n == 12345 && untouched(out, sizeof out), "%s: out_len %lu, out [%s] written", ctx,
              (unsigned long)n, hex(out, sizeof out));
        snprintf(ctx, sizeof ctx, "%s(\"abc\", (NULL, 16))", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn("abc", 3, NULL, 16, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        snprintf(ctx, sizeof ctx, "%s((NULL, 3), (NULL, 0))", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 3, NULL, 0, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        snprintf(ctx, sizeof ctx, "%s((NULL, 0), out)", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 0, out, sizeof out, &n), UTF8_OK, ctx);
        CHECK_SIZE("out_len", n, i == 1 ? 2 : 0, ctx); /* the shell's empty word is '' */
    }
    /* A style other than UTF8_ESCAPE_C and UTF8_ESCAPE_SHELL: out and *out_len untouched. */
    for (bad = -1; bad <= 2; bad += 3) {
        memset(out, SENTINEL_BYTE, sizeof out);
        n = 12345;
        CHECK(utf8_escape("abc", 3, (utf8_escape_style)bad, out, sizeof out, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  n == 12345 && untouched(out, sizeof out),
              "utf8_escape style %d: want UTF8_ERR_INVALID_ARGUMENT, nothing written", bad);
        CHECK_STATUS(utf8_escape("abc", 3, (utf8_escape_style)bad, NULL, 0, NULL),
                     UTF8_ERR_INVALID_ARGUMENT, "utf8_escape, bad style, (NULL, 0), NULL");
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Conversions (since 1.2): UTF-8 to and from UTF-16 and UTF-32, and the size functions           */
/* ---------------------------------------------------------------------------------------------- */

struct converter {
    const char *name;
    utf8_result (*fn)(const void *in, size_t len, void *out, size_t cap, uint32_t flags);
    size_t in_unit, out_unit;   /* bytes per code unit */
    uint32_t valid_flags;       /* every other bit is UTF8_ERR_INVALID_ARGUMENT */
};

enum { TO16, TO32, FROM16, FROM32 };
static const struct converter converters[] = {
    { "utf8_to_utf16", conv_8_16, 1, 2, UTF8_REPLACE | UTF8_WTF8 },
    { "utf8_to_utf32", conv_8_32, 1, 4, UTF8_REPLACE },
    { "utf16_to_utf8", conv_16_8, 2, 1, UTF8_REPLACE | UTF8_WTF8 },
    { "utf32_to_utf8", conv_32_8, 4, 1, UTF8_REPLACE },
};

static int check_result_at(const char *file, int line, utf8_result got, utf8_status st,
                           size_t read, size_t written, const char *ctx)
{
    return check_at(got.status == st && got.read == read && got.written == written, file, line,
                    "%s: %s read %lu written %lu, want %s read %lu written %lu", ctx,
                    sname(got.status), (unsigned long)got.read, (unsigned long)got.written,
                    sname(st), (unsigned long)read, (unsigned long)written);
}

#define CHECK_RESULT(got, st, read, written, ctx)                                                  \
    check_result_at(__FILE__, __LINE__, (got), (st), (read), (written), (ctx))

/*
 * Converts the len units at in (an exact heap copy) into an exact heap buffer of cap units:
 * checks the result, the written units against want, and that the units after them are
 * untouched.
 */
static void expect_convert_at(int line, int which, const void *input, size_t len, uint32_t flags,
                              size_t cap, utf8_status st, size_t read, const void *want,
                              size_t written)
{
    const struct converter *c = &converters[which];
    char ctx[160];
    char *in = dup_exact(input, len * c->in_unit);
    unsigned char *out = sentinel_buffer(cap * c->out_unit);
    utf8_result r = c->fn(in, len, out, cap, flags);
    size_t shown = (r.written <= cap ? r.written : cap) * c->out_unit;

    snprintf(ctx, sizeof ctx, "%s([%s], cap %lu, flags %lu) (line %d)", c->name,
             hex(input, len * c->in_unit), (unsigned long)cap, (unsigned long)flags, line);
    if (check_result_at(__FILE__, line, r, st, read, written, ctx)) {
        check_at(memcmp(out, want, written * c->out_unit) == 0, __FILE__, line,
                 "%s: output [%s], want [%s]", ctx, hex(out, shown),
                 hex(want, written * c->out_unit));
        check_at(untouched(out + written * c->out_unit, (cap - written) * c->out_unit), __FILE__,
                 line, "%s: units after the output written: [%s]", ctx,
                 hex(out, cap * c->out_unit));
    }
    free(out);
    free(in);
}

#define EXPECT_CONVERT(which, in, len, flags, cap, st, read, want, written)                        \
    expect_convert_at(__LINE__, (which), (in), (len), (flags), (cap), UTF8_##st, (read), (want),   \
                      (written))

/* RFC 3629 section 7, its UTF-16 and UTF-32 forms written out (U+233B4 is D84C DFB4). */
static const struct {
    const char *what;
    const char *utf8;
    size_t len8;
    uint16_t utf16[4];
    size_t len16;
    uint32_t utf32[4];
    size_t len32;
} conversions[] = {
    { "A<NOT IDENTICAL TO><ALPHA>.", LIT("\x41\xE2\x89\xA2\xCE\x91\x2E"),
      { 0x0041, 0x2262, 0x0391, 0x002E }, 4, { 0x0041, 0x2262, 0x0391, 0x002E }, 4 },
    { "Korean \"hangugeo\"", LIT("\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"),
      { 0xD55C, 0xAD6D, 0xC5B4 }, 3, { 0xD55C, 0xAD6D, 0xC5B4 }, 3 },
    { "BOM then Japanese \"nihongo\"", LIT("\xEF\xBB\xBF\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
      { 0xFEFF, 0x65E5, 0x672C, 0x8A9E }, 4, { 0xFEFF, 0x65E5, 0x672C, 0x8A9E }, 4 },
    { "BOM then U+233B4", LIT("\xEF\xBB\xBF\xF0\xA3\x8E\xB4"), { 0xFEFF, 0xD84C, 0xDFB4 }, 3,
      { 0xFEFF, 0x233B4 }, 2 },
};

static void test_conversions(void)
{
    static const uint16_t lone[] = { 0x0041, 0xDC00, 0x0042 };  /* a lone trail surrogate */
    static const uint16_t cut[] = { 0xFEFF, 0xD84C };           /* U+233B4 without its trail */
    static const uint32_t above[] = { 0x0041, 0x110000, 0x0042 };
    static const uint32_t surrogate[] = { 0xD800 };
    static const uint16_t u16_overlong[] = { 0x002F, 0xFFFD, 0xFFFD, 0x002E, 0x002F };
    static const uint32_t u32_ff[] = { 0x0041, 0xFFFD, 0x0042 };
    static const uint16_t u16_d800[] = { 0xD800 };
    static const uint32_t bad_flags[] = { 8, 0x80000000u, UTF8_WTF8 };
    size_t i, j, k;
    uint32_t flags;

    /* The examples in both directions, with every accepted flag (no effect on valid input). */
    for (i = 0; i < COUNT(conversions); i++) {
        const char *u8 = conversions[i].utf8;
        size_t n8 = conversions[i].len8, n16 = conversions[i].len16, n32 = conversions[i].len32;
        const uint16_t *u16 = conversions[i].utf16;
        const uint32_t *u32 = conversions[i].utf32;
        char ctx[96];

        for (flags = 0; flags <= (UTF8_REPLACE | UTF8_WTF8 | UTF8_MORE); flags++) {
            if ((flags & UTF8_WTF8) == 0) {
                EXPECT_CONVERT(TO32, u8, n8, flags, n32, OK, n8, u32, n32);
                EXPECT_CONVERT(FROM32, u32, n32, flags, n8, OK, n32, u8, n8);
            }
            EXPECT_CONVERT(TO16, u8, n8, flags, n16, OK, n8, u16, n16);
            EXPECT_CONVERT(FROM16, u16, n16, flags, n8, OK, n16, u8, n8);
        }
        snprintf(ctx, sizeof ctx, "RFC 3629 section 7, %s", conversions[i].what);
        CHECK_SIZE("utf16_length_from_utf8", utf16_length_from_utf8(u8, n8), n16, ctx);
        CHECK_SIZE("utf32_length_from_utf8", utf32_length_from_utf8(u8, n8), n32, ctx);
        CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(u16, n16), n8, ctx);
        CHECK_SIZE("utf8_length_from_utf32", utf8_length_from_utf32(u32, n32), n8, ctx);
    }

    /* A character that does not fit: read is its offset; continuing from there finishes. */
    EXPECT_CONVERT(TO16, "\xEF\xBB\xBF\xF0\xA3\x8E\xB4", 7, 0, 2, ERR_BUFFER_TOO_SMALL, 3,
                   conversions[3].utf16, 1);
    EXPECT_CONVERT(TO16, "\xF0\xA3\x8E\xB4", 4, 0, 2, OK, 4, conversions[3].utf16 + 1, 2);
    EXPECT_CONVERT(TO32, "\xEF\xBB\xBF\xF0\xA3\x8E\xB4", 7, 0, 1, ERR_BUFFER_TOO_SMALL, 3,
                   conversions[3].utf32, 1);
    EXPECT_CONVERT(FROM16, conversions[3].utf16, 3, 0, 6, ERR_BUFFER_TOO_SMALL, 1, "\xEF\xBB\xBF",
                   3);
    EXPECT_CONVERT(FROM32, conversions[3].utf32, 2, 0, 6, ERR_BUFFER_TOO_SMALL, 1, "\xEF\xBB\xBF",
                   3);

    /* One error per converter: stops at the offset of the bad character; each U+FFFD with
     * UTF8_REPLACE. RFC 3629 section 10: C0 AE must not become '.'. */
    EXPECT_CONVERT(TO16, "\x2F\xC0\xAE\x2E\x2F", 5, 0, 8, ERR_OVERLONG, 1, u16_overlong, 1);
    EXPECT_CONVERT(TO16, "\x2F\xC0\xAE\x2E\x2F", 5, UTF8_REPLACE, 8, OK, 5, u16_overlong, 5);
    EXPECT_CONVERT(TO16, "\x2F\xC0\xAE\x2E\x2F", 5, UTF8_WTF8, 8, ERR_OVERLONG, 1, u16_overlong, 1);
    EXPECT_CONVERT(TO16, "\xEF\xBB\xBF\xF0\xA3", 5, 0, 8, ERR_TRUNCATED, 3, conversions[3].utf16,
                   1);
    EXPECT_CONVERT(TO16, "\xED\xA0\x80", 3, 0, 8, ERR_SURROGATE, 0, u16_d800, 0);
    EXPECT_CONVERT(TO16, "\xED\xA0\x80", 3, UTF8_WTF8, 8, OK, 3, u16_d800, 1);
    /* Unicode ch. 3, table 3-11: FF is never in UTF-8. */
    EXPECT_CONVERT(TO32, "\x41\xFF\x42", 3, 0, 8, ERR_INVALID_BYTE, 1, u32_ff, 1);
    EXPECT_CONVERT(TO32, "\x41\xFF\x42", 3, UTF8_REPLACE, 8, OK, 3, u32_ff, 3);
    /* A lone surrogate; a high surrogate that ends the input is TRUNCATED, lone in WTF-8. */
    EXPECT_CONVERT(FROM16, lone, 3, 0, 8, ERR_SURROGATE, 1, "\x41", 1);
    EXPECT_CONVERT(FROM16, lone, 3, UTF8_REPLACE, 8, OK, 3, "\x41\xEF\xBF\xBD\x42", 5);
    EXPECT_CONVERT(FROM16, lone, 3, UTF8_WTF8, 8, OK, 3, "\x41\xED\xB0\x80\x42", 5);
    EXPECT_CONVERT(FROM16, cut, 2, 0, 8, ERR_TRUNCATED, 1, "\xEF\xBB\xBF", 3);
    EXPECT_CONVERT(FROM16, cut, 2, UTF8_REPLACE, 8, OK, 2, "\xEF\xBB\xBF\xEF\xBF\xBD", 6);
    EXPECT_CONVERT(FROM16, cut, 2, UTF8_WTF8, 8, OK, 2, "\xEF\xBB\xBF\xED\xA1\x8C", 6);
    /* RFC 3629 section 3: nothing above U+10FFFF, no surrogate. */
    EXPECT_CONVERT(FROM32, above, 3, 0, 8, ERR_TOO_LARGE, 1, "\x41", 1);
    EXPECT_CONVERT(FROM32, above, 3, UTF8_REPLACE, 8, OK, 3, "\x41\xEF\xBF\xBD\x42", 5);
    EXPECT_CONVERT(FROM32, surrogate, 1, 0, 8, ERR_SURROGATE, 0, "", 0);
    EXPECT_CONVERT(FROM32, surrogate, 1, UTF8_REPLACE, 8, OK, 1, "\xEF\xBF\xBD", 3);

    /* The size functions count each replacement: they give the UTF8_REPLACE sizes above. */
    CHECK_SIZE("utf16_length_from_utf8", utf16_length_from_utf8("\x2F\xC0\xAE\x2E\x2F", 5), 5,
               "[2F C0 AE 2E 2F]");
    CHECK_SIZE("utf32_length_from_utf8", utf32_length_from_utf8("\x41\xFF\x42", 3), 3,
               "[41 FF 42]");
    CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(lone, 3), 5, "[0041 DC00 0042]");
    CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(cut, 2), 6, "[FEFF D84C]");
    CHECK_SIZE("utf8_length_from_utf32", utf8_length_from_utf32(above, 3), 5,
               "[41 110000 42]");
    CHECK_SIZE("utf16_length_from_utf8", utf16_length_from_utf8(NULL, 5), 0, "(NULL, 5)");
    CHECK_SIZE("utf32_length_from_utf8", utf32_length_from_utf8(NULL, 5), 0, "(NULL, 5)");
    CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(NULL, 5), 0, "(NULL, 5)");
    CHECK_SIZE("utf8_length_from_utf32", utf8_length_from_utf32(NULL, 5), 0, "(NULL, 5)");
    CHECK_SIZE("utf16_length_from_utf8", utf16_length_from_utf8(NULL, 0), 0, "(NULL, 0)");
    CHECK_SIZE("utf32_length_from_utf8", utf32_length_from_utf8(NULL, 0), 0, "(NULL, 0)");
    CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(NULL, 0), 0, "(NULL, 0)");
    CHECK_SIZE("utf8_length_from_utf32", utf8_length_from_utf32(NULL, 0), 0, "(NULL, 0)");
    {
        static const union { uint32_t align; unsigned char b[12]; } odd = { 0 };
        const void *misaligned = odd.b + 1;

        CHECK_SIZE("utf8_length_from_utf16", utf8_length_from_utf16(misaligned, 2), 0,
                   "a misaligned input");
        CHECK_SIZE("utf8_length_from_utf32", utf8_length_from_utf32(misaligned, 2), 0,
                   "a misaligned input");
    }

    /* Bad arguments: NULL_POINTER or INVALID_ARGUMENT with read == written == 0, out untouched. */
    for (i = 0; i < COUNT(converters); i++) {
        const struct converter *c = &converters[i];
        static const uint32_t zeros[2];          /* "\0" as one unit of any width: U+0000 */
        unsigned char out[16];
        char ctx[96];

        snprintf(ctx, sizeof ctx, "%s((NULL, 1), out)", c->name);
        memset(out, SENTINEL_BYTE, sizeof out);
        CHECK_RESULT(c->fn(NULL, 1, out, sizeof out / c->out_unit, 0), UTF8_ERR_NULL_POINTER, 0, 0,
                     ctx);
        CHECK(untouched(out, sizeof out), "%s: out written [%s]", ctx, hex(out, sizeof out));
        snprintf(ctx, sizeof ctx, "%s(U+0000, (NULL, 1))", c->name);
        CHECK_RESULT(c->fn(zeros, 1, NULL, 1, 0), UTF8_ERR_NULL_POINTER, 0, 0, ctx);
        snprintf(ctx, sizeof ctx, "%s((NULL, 0), out)", c->name);
        CHECK_RESULT(c->fn(NULL, 0, out, sizeof out / c->out_unit, 0), UTF8_OK, 0, 0, ctx);
        CHECK(untouched(out, sizeof out), "%s: out written [%s]", ctx, hex(out, sizeof out));
        snprintf(ctx, sizeof ctx, "%s((NULL, 0), (NULL, 0))", c->name);
        CHECK_RESULT(c->fn(NULL, 0, NULL, 0, 0), UTF8_OK, 0, 0, ctx);
        /* A UTF-16 or UTF-32 buffer one byte off its alignment (which C does not allow either):
         * UTF8_ERR_INVALID_ARGUMENT, nothing read or written. The unions align the bytes. */
        if (c->in_unit > 1 || c->out_unit > 1) {
            static const union { uint32_t align; unsigned char b[12]; } odd_in = { 0 };
            union { uint32_t align; unsigned char b[20]; } odd_out;
            const void *in = c->in_unit > 1 ? (const void *)(odd_in.b + 1) : (const void *)"a";
            void *dst = c->out_unit > 1 ? (void *)(odd_out.b + 1) : (void *)out;

            snprintf(ctx, sizeof ctx, "%s, a misaligned %s", c->name,
                     c->in_unit > 1 ? "input" : "output");
            memset(odd_out.b, SENTINEL_BYTE, sizeof odd_out.b);
            memset(out, SENTINEL_BYTE, sizeof out);
            CHECK_RESULT(c->fn(in, 1, dst, 2, 0), UTF8_ERR_INVALID_ARGUMENT, 0, 0, ctx);
            CHECK(untouched(odd_out.b, sizeof odd_out.b) && untouched(out, sizeof out),
                  "%s: out written", ctx);
        }
        /* An empty output: the first character does not fit (no size: the *_length_* do that). */
        snprintf(ctx, sizeof ctx, "%s(U+0000, (NULL, 0))", c->name);
        CHECK_RESULT(c->fn(zeros, 1, NULL, 0, 0), UTF8_ERR_BUFFER_TOO_SMALL, 0, 0, ctx);
        for (j = 0; j < COUNT(bad_flags); j++) {
            if (bad_flags[j] & c->valid_flags)
                continue;
            for (k = 0; k < 2; k++) { /* the bad bit alone, and with UTF8_REPLACE */
                flags = bad_flags[j] | (k ? UTF8_REPLACE : 0);
                snprintf(ctx, sizeof ctx, "%s(U+0000, out, flags 0x%lX)", c->name,
                         (unsigned long)flags);
                memset(out, SENTINEL_BYTE, sizeof out);
                CHECK_RESULT(c->fn(zeros, 1, out, sizeof out / c->out_unit, flags),
                             UTF8_ERR_INVALID_ARGUMENT, 0, 0, ctx);
                CHECK(untouched(out, sizeof out), "%s: out written [%s]", ctx,
                      hex(out, sizeof out));
            }
        }
    }
}

/*
 * Converts the `len` bytes at `in` into UTF-16 at `out`, `step` bytes at a time (at most 64), as
 * libutf8(3) shows under "Converting a stream": UTF8_MORE on every chunk but the last, the bytes
 * from `read` on carried over to the next. Returns the final status; *at is its offset in the
 * stream, *n the units written.
 */
static utf8_status stream_to_utf16(const char *in, size_t len, size_t step, uint32_t flags,
                                   uint16_t *out, size_t cap, size_t *at, size_t *n)
{
    char buf[64 + 8];
    size_t kept = 0, from = 0;

    *at = 0;
    *n = 0;
    for (;;) {
        size_t take = len - from < step ? len - from : step;
        int last = from + take == len;
        utf8_result r;

        memcpy(buf + kept, in + from, take);
        from += take;
        r = utf8_to_utf16(buf, kept + take, out + *n, cap - *n, flags | (last ? 0 : UTF8_MORE));
        *n += r.written;
        *at += r.read;
        if (r.status == UTF8_ERR_TRUNCATED && !last) {
            kept = kept + take - r.read;
            CHECK(kept <= 5, "UTF8_MORE left %lu bytes to carry over", (unsigned long)kept);
            memmove(buf, buf + r.read, kept);
            continue;
        }
        if (r.status != UTF8_OK || last)
            return r.status;
        kept = 0;
    }
}

/* UTF8_MORE: more input follows. The WTF-8 specification: ED A0 80 ED B0 80 (U+D800 then
 * U+DC00, in 3-byte halves) is not WTF-8, U+10000 is F0 90 80 80, and a lone surrogate is. */
static void test_more(void)
{
    static const uint16_t u16_a_fffd[] = { 0x0041, 0xFFFD };
    static const uint16_t u16_d800[] = { 0xD800 };
    static const uint16_t u16_10000[] = { 0xD800, 0xDC00 };
    static const uint16_t pile[] = { 0x0041, 0xD83D, 0xDCA9 }; /* "A" U+1F4A9 */
    static const uint32_t u32_pile[] = { 0x0041, 0x1F4A9 };
    static const uint32_t u32_a[] = { 0x0041 };
    static const struct {
        const char *s;
        size_t len;
    } streams[] = {
        { LIT("\xED\xA0\x80\xED\xB0\x80") },
        { LIT("\xED\xA0\xBD\xED\xB2\xA9\xF0\x9F\x92\xA9") },
        { LIT("\xEF\xBB\xBF\xF0\xA3\x8E\xB4\x41\xE2\x82") },
        { LIT("\xED\xA0\x80\xED\xED\xB0\x80\xE2\x82\xAC") },
        { LIT("\xC0\xAF\xE1\xE1\x80\x80\x41") },
    };
    uint32_t flags;
    size_t i, step;

    EXPECT_CONVERT(TO16, "\xED\xA0\x80\xED\xB0\x80", 6, UTF8_WTF8, 8, ERR_SURROGATE, 0,
                   u16_d800, 0);
    EXPECT_CONVERT(TO16, "\xF0\x90\x80\x80", 4, UTF8_WTF8 | UTF8_MORE, 8, OK, 4, u16_10000, 2);
    /* The two chunks, 5 + 1 bytes: the first stops at the lead surrogate, with or
     * without UTF8_MORE, so that the carried-over bytes are refused as one call refuses. */
    EXPECT_CONVERT(TO16, "\xED\xA0\x80\xED\xB0", 5, UTF8_WTF8, 8, ERR_TRUNCATED, 0, u16_d800,
                   0);
    EXPECT_CONVERT(TO16, "\xED\xA0\x80\xED\xB0", 5, UTF8_WTF8 | UTF8_MORE, 8, ERR_TRUNCATED, 0,
                   u16_d800, 0);
    /* 3 + 3: a lead surrogate at the end waits for more input with UTF8_MORE only. */
    EXPECT_CONVERT(TO16, "\xED\xA0\x80", 3, UTF8_WTF8 | UTF8_MORE, 8, ERR_TRUNCATED, 0, u16_d800,
                   0);
    EXPECT_CONVERT(TO16, "\xED\xA0\x80", 3, UTF8_WTF8, 8, OK, 3, u16_d800, 1);
    /* A cut sequence is left, not replaced, with UTF8_REPLACE | UTF8_MORE. */
    EXPECT_CONVERT(TO16, "\x41\xE2\x82", 3, UTF8_REPLACE | UTF8_MORE, 8, ERR_TRUNCATED, 1,
                   u16_a_fffd, 1);
    EXPECT_CONVERT(TO16, "\x41\xE2\x82", 3, UTF8_REPLACE, 8, OK, 3, u16_a_fffd, 2);
    EXPECT_CONVERT(TO32, "\x41\xF0\x9F\x92", 4, UTF8_REPLACE | UTF8_MORE, 8, ERR_TRUNCATED, 1,
                   u32_a, 1);
    EXPECT_CONVERT(TO32, "\xC0\xAF\xE2", 3, UTF8_MORE, 8, ERR_OVERLONG, 0, u32_a, 0);
    /* A high surrogate that ends UTF-16 input is left with UTF8_MORE, whatever the flags. */
    for (flags = 0; flags <= (UTF8_REPLACE | UTF8_WTF8); flags++) {
        EXPECT_CONVERT(FROM16, pile, 2, flags | UTF8_MORE, 8, ERR_TRUNCATED, 1, "\x41", 1);
        EXPECT_CONVERT(FROM16, pile + 1, 2, flags | UTF8_MORE, 8, OK, 2, "\xF0\x9F\x92\xA9", 4);
    }
    EXPECT_CONVERT(FROM32, u32_pile, 2, UTF8_MORE, 8, OK, 2, "\x41\xF0\x9F\x92\xA9", 5);

    /* The carry-over loop, every chunk size, every flag: what one call gives. */
    for (i = 0; i < COUNT(streams); i++) {
        for (flags = 0; flags <= (UTF8_REPLACE | UTF8_WTF8); flags++) {
            uint16_t whole[32], chunked[32];
            utf8_result want = utf8_to_utf16(streams[i].s, streams[i].len, whole, 32, flags);

            for (step = 1; step <= 8; step++) {
                size_t at, n;
                utf8_status st = stream_to_utf16(streams[i].s, streams[i].len, step, flags,
                                                 chunked, 32, &at, &n);

                CHECK(st == want.status && at == want.read && n == want.written &&
                          memcmp(chunked, whole, n * sizeof *whole) == 0,
                      "[%s] in chunks of %lu, flags %lu: %s at %lu, %lu units; one call: %s at "
                      "%lu, %lu units",
                      hex(streams[i].s, streams[i].len), (unsigned long)step,
                      (unsigned long)flags, utf8_status_str(st), (unsigned long)at,
                      (unsigned long)n, utf8_status_str(want.status), (unsigned long)want.read,
                      (unsigned long)want.written);
            }
        }
    }
    /* The stream, a byte at a time: refused at 0, nothing written. */
    {
        uint16_t out[8];
        size_t at, n;
        utf8_status st = stream_to_utf16("\xED\xA0\x80\xED\xB0\x80", 6, 1, UTF8_WTF8, out, 8,
                                         &at, &n);

        CHECK(st == UTF8_ERR_SURROGATE && at == 0 && n == 0,
              "WTF-8 pair in 3-byte halves, a byte at a time: %s at %lu, %lu units",
              utf8_status_str(st), (unsigned long)at, (unsigned long)n);
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
    test_char_boundaries();
    test_stream();
    test_text();
    test_conversions();
    test_more();
#ifndef LIBUTF8_NO_INLINE
    test_inline_decode_next();
#endif
    test_kuhn(argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL);

    return check_summary();
}
