/*
 * api_decode.c: utf8_validate, utf8_decode_next and utf8_count_chars from C: the examples of
 * the source documents, replayed step by step and encoded back; every byte as a first byte;
 * every two-byte input, against the reference codec's lead bytes; truncation inside a
 * sequence; and the header's inline utf8_decode_next against the library function.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 1-5: the examples of the source documents, replayed through validate, decode_next and encode   */
/* ---------------------------------------------------------------------------------------------- */

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

void test_examples(void)
{
    size_t i;

    for (i = 0; i < COUNT(examples); i++)
        test_example(&examples[i]);
}

/* ---------------------------------------------------------------------------------------------- */
/* 6: every byte as a first byte, and every two-byte input                                        */
/* ---------------------------------------------------------------------------------------------- */

void test_first_bytes(void)
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
void test_byte_pairs(void)
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
/* 12: truncation inside a sequence                                                               */
/* ---------------------------------------------------------------------------------------------- */

void test_truncation(void)
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
/* The header's inline utf8_decode_next (unless LIBUTF8_NO_INLINE) equals the library function    */
/* ---------------------------------------------------------------------------------------------- */

#ifndef LIBUTF8_NO_INLINE /* without the header's inline code there is nothing to compare */
/* at[len]: a heap block of exactly len bytes (NULL for 0), so that AddressSanitizer reports any
 * read past the input's end, by the inline code or the library. */
static char *at[5];

/* Compares the macro and the function on the `len` bytes at at[len]. */
static void compare_inline(struct group *same, size_t len)
{
    uint32_t cp1 = 1, cp2 = 2;
    size_t n1 = 3, n2 = 4;
    utf8_status st1 = utf8_decode_next(at[len], len, &cp1, &n1);
    utf8_status st2 = (utf8_decode_next)(at[len], len, &cp2, &n2);

    if (st1 != st2 || cp1 != cp2 || n1 != n2)
        group_fail(same, "[%s]: %s U+%04lX %lu vs %s U+%04lX %lu", hex(at[len], len),
                   sname(st1), (unsigned long)cp1, (unsigned long)n1, sname(st2),
                   (unsigned long)cp2, (unsigned long)n2);
}

/* Every input of 0 to 3 bytes; every 4-byte input whose fourth byte can change the result, and
 * the others with a fourth byte of each kind. The inline code reads the fourth byte only after
 * a lead byte from F0, and then only ORs its payload into the other continuation bytes'; so
 * beyond a lead from F0 followed by two continuation bytes, where all 256 are taken, the
 * fourth byte's kind is all that can matter (ASCII, both ends of the continuation range, a
 * lead). Each input is also cut at every length: its prefixes are the shorter inputs. */
void test_inline_decode_next(void)
{
    struct group same;
    static const unsigned char fourths[] = { 0x41, 0x80, 0xBF, 0xC3 };
    unsigned a, b, c, d;
    size_t len;

    for (len = 1; len < COUNT(at); len++)
        if (!(at[len] = malloc(len))) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    GROUP_BEGIN(&same, "utf8_decode_next(...) and (utf8_decode_next)(...) agree");
    for (a = 0; a < 256; a++)
        for (b = 0; b < 256; b++)
            for (c = 0; c < 256; c++) {
                int every = a >= 0xF0 && (b & 0xC0) == 0x80 && (c & 0xC0) == 0x80;
                size_t i;

                /* The input's bytes, into each block as far as it reaches. */
                for (len = 1; len < COUNT(at); len++)
                    for (i = 0; i < len && i < 3; i++)
                        at[len][i] = (char)(i == 0 ? a : i == 1 ? b : c);
                for (len = 0; len < 4; len++)
                    compare_inline(&same, len);
                for (d = 0; d < (every ? 256 : COUNT(fourths)); d++) {
                    at[4][3] = (char)(every ? d : fourths[d]);
                    compare_inline(&same, 4);
                }
            }
    group_end(&same);
    for (len = 1; len < COUNT(at); len++)
        free(at[len]);
    CHECK_STATUS(utf8_decode_next(NULL, 3, NULL, NULL), UTF8_ERR_NULL_POINTER,
                 "decode_next(NULL, 3) through the header");
}

#endif
