/*
 * api_encode.c: utf8_encode from C, and decoding the values it encodes: the boundary code
 * points of RFC 3629 both ways, the refused values, every output capacity and the size query,
 * and every scalar value's round trip against the reference encoder.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 7: boundary code points                                                                        */
/* ---------------------------------------------------------------------------------------------- */

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

void test_boundaries(void)
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
/* 9: output buffer sizes                                                                         */
/* ---------------------------------------------------------------------------------------------- */

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

void test_encode_buffers(void)
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
/* 11: every scalar value, round trip                                                             */
/* ---------------------------------------------------------------------------------------------- */

void test_round_trip(void)
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
