/*
 * guard_validate.c: the suites of the guard-page program that read UTF-8 (each input through
 * guard_run.c): valid text of every length; valid text then a truncated or bad tail; an error
 * of every class at the end and around block boundaries; every short input, alone and at the
 * end of one or two blocks.
 */

#include "guard.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 1: valid text of every length                                                                  */
/* ---------------------------------------------------------------------------------------------- */

void test_valid_text(void)
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

void test_tails(void)
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

void test_errors(void)
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

void test_sweeps(void)
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
/* 5: dense errors                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Text of each family with the top bit of one byte flipped every `step` bytes (as the
 * benchmark of error-dense text flips them: errors of every kind), at every length up to 100:
 * the lossy copy's scalar loop of dense errors, which reads and writes 8 bytes at a time, runs
 * up to 8 bytes before the input's end and the end of an output of exactly the size needed.
 * Expected values from the reference. */
void test_dense_errors(void)
{
    static const size_t steps[] = { 3, 5, 9, 16, 21 };
    static unsigned char buf[128];
    struct group g;
    size_t s, len, i;
    int f;

    section_begin("dense errors: one byte in every 3..21 flipped, lengths up to 100");
    for (f = 0; f < N_FAMILIES; f++)
        for (s = 0; s < COUNT(steps); s++) {
            GROUP_BEGIN(&g, "%s text, one byte in %lu flipped", family_names[f],
                        (unsigned long)steps[s]);
            for (len = 1; len <= 100; len++) {
                make_text(f, len, 19, buf, NULL);
                for (i = steps[s] / 2; i < len; i += steps[s])
                    buf[i] ^= 0x80;
                run_input(&g, buf, len, NULL, EDGE_OFFSETS);
            }
            group_end(&g);
        }
    section_end();
}
