/*
 * api_convert.c: the converters (since 1.2) from C: the RFC 3629 examples to UTF-16 and UTF-32
 * and back with every flag, measured by the size functions; an error of each converter;
 * UTF8_MORE and the carry-over loop of libutf8(3); bad arguments.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    { "utf8_to_utf16", conv_8_16, 1, 2, UTF8_REPLACE | UTF8_WTF8 | UTF8_UTF16LE | UTF8_UTF16BE },
    { "utf8_to_utf32", conv_8_32, 1, 4, UTF8_REPLACE },
    { "utf16_to_utf8", conv_16_8, 2, 1, UTF8_REPLACE | UTF8_WTF8 | UTF8_UTF16LE | UTF8_UTF16BE },
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

void test_conversions(void)
{
    static const uint16_t lone[] = { 0x0041, 0xDC00, 0x0042 };  /* a lone trail surrogate */
    static const uint16_t cut[] = { 0xFEFF, 0xD84C };           /* U+233B4 without its trail */
    static const uint32_t above[] = { 0x0041, 0x110000, 0x0042 };
    static const uint32_t surrogate[] = { 0xD800 };
    static const uint16_t u16_overlong[] = { 0x002F, 0xFFFD, 0xFFFD, 0x002E, 0x002F };
    static const uint32_t u32_ff[] = { 0x0041, 0xFFFD, 0x0042 };
    static const uint16_t u16_d800[] = { 0xD800 };
    static const uint32_t bad_flags[] = { 0x100, 0x80000000u, UTF8_WTF8, UTF8_UTF16LE,
                                          UTF8_UTF16BE };
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
void test_more(void)
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

/*
 * UTF8_UTF16LE and UTF8_UTF16BE (since 1.3): RFC 3629's last example, U+FEFF U+233B4, is the
 * units FEFF D84C DFB4 (RFC 2781 section 2.1 gives how U+233B4 becomes its pair); RFC 2781
 * section 3.1 writes each unit high byte first in UTF-16BE and low byte first in UTF-16LE.
 */
void test_byte_order(void)
{
    static const char be[] = "\xFE\xFF\xD8\x4C\xDF\xB4";
    static const char le[] = "\xFF\xFE\x4C\xD8\xB4\xDF";
    static const char utf8[] = "\xEF\xBB\xBF\xF0\xA3\x8E\xB4";
    /* The same with a lone trail surrogate (DC00) before the pair, and U+FFFD for it. */
    static const char be_lone[] = "\xDC\x00\xD8\x4C\xDF\xB4";
    static const char le_lone[] = "\x00\xDC\x4C\xD8\xB4\xDF";
    static const char fffd_utf8[] = "\xEF\xBF\xBD\xF0\xA3\x8E\xB4";
    /* UTF-8 with an ill-formed byte (FF) before U+233B4: U+FFFD is FFFD. */
    static const char be_fffd[] = "\xFF\xFD\xD8\x4C\xDF\xB4";
    static const char le_fffd[] = "\xFD\xFF\x4C\xD8\xB4\xDF";
    static const char *const units[2] = { le, be };
    static const char *const units_lone[2] = { le_lone, be_lone };
    static const char *const units_fffd[2] = { le_fffd, be_fffd };
    static const uint32_t order[2] = { UTF8_UTF16LE, UTF8_UTF16BE };
    uint16_t aligned[3];
    size_t o;

    for (o = 0; o < 2; o++) {
        uint32_t f = order[o];
        EXPECT_CONVERT(TO16, utf8, 7, f, 3, OK, 7, units[o], 3);
        EXPECT_CONVERT(TO16, utf8, 7, f | UTF8_REPLACE | UTF8_MORE, 3, OK, 7, units[o], 3);
        /* The pair does not fit: the BOM alone, in that order. */
        EXPECT_CONVERT(TO16, utf8, 7, f, 2, ERR_BUFFER_TOO_SMALL, 3, units[o], 1);
        /* The input ends inside U+233B4: carried over with UTF8_MORE. */
        EXPECT_CONVERT(TO16, utf8, 6, f | UTF8_MORE, 3, ERR_TRUNCATED, 3, units[o], 1);
        EXPECT_CONVERT(TO16, "\xFF\xF0\xA3\x8E\xB4", 5, f | UTF8_REPLACE, 3, OK, 5,
                       units_fffd[o], 3);
        EXPECT_CONVERT(TO16, "\xFF\xF0\xA3\x8E\xB4", 5, f, 3, ERR_INVALID_BYTE, 0, "", 0);

        memcpy(aligned, units[o], sizeof aligned);
        EXPECT_CONVERT(FROM16, aligned, 3, f, 7, OK, 3, utf8, 7);
        /* A high surrogate that ends the input, read in that order. */
        EXPECT_CONVERT(FROM16, aligned, 2, f, 7, ERR_TRUNCATED, 1, utf8, 3);
        EXPECT_CONVERT(FROM16, aligned, 2, f | UTF8_MORE | UTF8_REPLACE, 7, ERR_TRUNCATED, 1,
                       utf8, 3);
        memcpy(aligned, units_lone[o], sizeof aligned);
        EXPECT_CONVERT(FROM16, aligned, 3, f, 7, ERR_SURROGATE, 0, "", 0);
        EXPECT_CONVERT(FROM16, aligned, 3, f | UTF8_REPLACE, 7, OK, 3, fffd_utf8, 7);
        CHECK_SIZE("utf8_length_from_utf16_flags", utf8_length_from_utf16_flags(aligned, 3, f), 7,
                   "[DC00 D84C DFB4] in that order");
        CHECK_SIZE("utf16_length_from_utf8_flags", utf16_length_from_utf8_flags(utf8, 7, f), 3,
                   "BOM then U+233B4");
        memcpy(aligned, units[o], sizeof aligned);
        CHECK_SIZE("utf8_length_from_utf16_flags", utf8_length_from_utf16_flags(aligned, 3, f), 7,
                   "[FEFF D84C DFB4] in that order");
    }
    /* Both orders at once: refused. */
    EXPECT_CONVERT(TO16, utf8, 7, UTF8_UTF16LE | UTF8_UTF16BE, 3, ERR_INVALID_ARGUMENT, 0, "", 0);
    memcpy(aligned, be, sizeof aligned);
    EXPECT_CONVERT(FROM16, aligned, 3, UTF8_UTF16LE | UTF8_UTF16BE, 7, ERR_INVALID_ARGUMENT, 0,
                   "", 0);
    CHECK_SIZE("utf8_length_from_utf16_flags",
               utf8_length_from_utf16_flags(aligned, 3, UTF8_UTF16LE | UTF8_UTF16BE), 0,
               "both orders");
}
