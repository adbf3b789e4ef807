/*
 * guard_encode.c: the suites of the guard-page program that write: utf8_encode of every value
 * into buffers of exactly the size needed, and smaller, against a guard page; and every
 * out-parameter as the last object before the trailing guard page.
 */

#include "guard.h"

#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 5: utf8_encode into buffers against a guard page                                               */
/* ---------------------------------------------------------------------------------------------- */

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

void test_encode(void)
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
void test_out_params(void)
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
