/*
 * reference.c: the reference codec of the C tests (see reference.h), written from RFC 3629
 * sections 3 and 4, the API's status table, the Unicode Standard's chapter 3 (the
 * maximal-subpart rule; UTF-16 and UTF-32, section 3.9) and the WTF-8 definition, rather than
 * taken from the library, so that the tests compare the library with an independent
 * expectation. It calls no function of the library.
 */

#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h" /* COUNT */

const size_t unit_size[3] = { 1, 2, 4 };

/* RFC 3629 section 3, "Encoding Algorithm", for a scalar value: its 1..4 bytes at `out`. */
size_t reference_encode(uint32_t cp, unsigned char out[4])
{
    if (cp <= 0x7F) {
        out[0] = (unsigned char)cp;                          /* 0xxxxxxx */
        return 1;
    }
    if (cp <= 0x7FF) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));          /* 110xxxxx 10xxxxxx */
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp <= 0xFFFF) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));         /* 1110xxxx 10xxxxxx 10xxxxxx */
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));             /* 11110xxx 10xxxxxx x3 */
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

static struct lead leads[256];
static int leads_ready;

/* Fills leads[] from the grammar; a byte left out of it is a slip here, and stops the run. */
static void leads_init(void)
{
    /* RFC 3629 section 4:
     *   UTF8-1 = %x00-7F
     *   UTF8-2 = %xC2-DF UTF8-tail
     *   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
     *            %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
     *   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
     *            %xF4 %x80-8F 2( UTF8-tail )
     * with, from the API's status table, the error of a continuation byte out of range. */
    static const struct {
        unsigned char first_lo, first_hi, width, second_lo, second_hi;
        utf8_status bad_second;
    } abnf[] = {
        { 0x00, 0x7F, 1, 0x00, 0x00, UTF8_OK },
        { 0xC2, 0xDF, 2, 0x80, 0xBF, UTF8_ERR_MISSING_CONTINUATION },
        { 0xE0, 0xE0, 3, 0xA0, 0xBF, UTF8_ERR_OVERLONG },
        { 0xE1, 0xEC, 3, 0x80, 0xBF, UTF8_ERR_MISSING_CONTINUATION },
        { 0xED, 0xED, 3, 0x80, 0x9F, UTF8_ERR_SURROGATE },
        { 0xEE, 0xEF, 3, 0x80, 0xBF, UTF8_ERR_MISSING_CONTINUATION },
        { 0xF0, 0xF0, 4, 0x90, 0xBF, UTF8_ERR_OVERLONG },
        { 0xF1, 0xF3, 4, 0x80, 0xBF, UTF8_ERR_MISSING_CONTINUATION },
        { 0xF4, 0xF4, 4, 0x80, 0x8F, UTF8_ERR_TOO_LARGE },
    };
    /* The API's status table for the bytes that begin no sequence. */
    static const struct {
        unsigned char lo, hi;
        utf8_status status;
    } never[] = {
        { 0x80, 0xBF, UTF8_ERR_UNEXPECTED_CONTINUATION },
        { 0xC0, 0xC1, UTF8_ERR_OVERLONG },
        { 0xF5, 0xF7, UTF8_ERR_TOO_LARGE },
        { 0xF8, 0xFF, UTF8_ERR_INVALID_BYTE },
    };
    size_t i;
    unsigned b;

    for (b = 0; b < 256; b++)
        leads[b].alone = 1; /* not a status: must be overwritten below */
    for (i = 0; i < COUNT(abnf); i++)
        for (b = abnf[i].first_lo; b <= abnf[i].first_hi; b++) {
            leads[b].width = abnf[i].width;
            leads[b].lo = abnf[i].second_lo;
            leads[b].hi = abnf[i].second_hi;
            leads[b].bad_second = (signed char)abnf[i].bad_second;
            leads[b].alone = (signed char)(abnf[i].width == 1 ? UTF8_OK : UTF8_ERR_TRUNCATED);
        }
    for (i = 0; i < COUNT(never); i++)
        for (b = never[i].lo; b <= never[i].hi; b++) {
            leads[b].width = 0;
            leads[b].alone = (signed char)never[i].status;
        }
    for (b = 0; b < 256; b++)
        if (leads[b].alone > 0) {
            fprintf(stderr, "reference: byte %02X left unclassified\n", b);
            exit(2);
        }
}

const struct lead *lead_of(unsigned char b)
{
    if (!leads_ready) {
        leads_init();
        leads_ready = 1;
    }
    return &leads[b];
}

int is_tail(unsigned char b)
{
    return b >= 0x80 && b <= 0xBF; /* UTF8-tail = %x80-BF */
}

/* The character at the start of s[0..len): its status, its value (U+FFFD on error) and the
 * bytes it takes (the maximal subpart on error: the longest prefix of a well-formed sequence,
 * at least 1; all of the input if it ends inside one; 0 for empty input). */
utf8_status ref_decode(const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    const struct lead *l;
    uint32_t v;
    size_t k;

    *cp = REPLACEMENT;
    if (len == 0) {
        *n = 0;
        return UTF8_ERR_TRUNCATED;
    }
    l = lead_of(s[0]);
    *n = 1;
    if (l->width == 1) {
        *cp = s[0];
        return UTF8_OK;
    }
    if (l->width == 0)
        return (utf8_status)l->alone;
    if (len < 2) {
        *n = len;
        return UTF8_ERR_TRUNCATED;
    }
    if (s[1] < l->lo || s[1] > l->hi)
        return is_tail(s[1]) ? (utf8_status)l->bad_second : UTF8_ERR_MISSING_CONTINUATION;
    for (k = 2; k < l->width; k++) {
        if (k >= len) {
            *n = len;
            return UTF8_ERR_TRUNCATED;
        }
        if (!is_tail(s[k])) {
            *n = k;
            return UTF8_ERR_MISSING_CONTINUATION;
        }
    }
    /* RFC 3629 section 3: the lead byte keeps 7 - width bits, each continuation byte 6 */
    v = s[0] & (0x7Fu >> l->width);
    for (k = 1; k < l->width; k++)
        v = v << 6 | (s[k] & 0x3Fu);
    *cp = v;
    *n = l->width;
    return UTF8_OK;
}

/* One decoding loop that skips each character or maximal subpart: the status of the first
 * ill-formed sequence and the length of the well-formed prefix (utf8_validate), and the number
 * of steps (utf8_count_chars). */
utf8_status ref_scan(const unsigned char *s, size_t len, size_t *up_to, size_t *steps)
{
    utf8_status first = UTF8_OK, st;
    size_t off = 0, n;
    uint32_t cp;

    *up_to = len;
    *steps = 0;
    while (off < len) {
        st = ref_decode(s + off, len - off, &cp, &n);
        if (st != UTF8_OK && first == UTF8_OK) {
            first = st;
            *up_to = off;
        }
        off += n;
        ++*steps;
    }
    return first;
}

size_t put_units(enum form f, uint32_t cp, unsigned char *p)
{
    uint16_t u16[2];

    if (f == UTF8)
        return reference_encode(cp, p);
    if (f == UTF32) {
        memcpy(p, &cp, 4);
        return 1;
    }
    if (cp < 0x10000) {
        u16[0] = (uint16_t)cp;
        memcpy(p, u16, 2);
        return 1;
    }
    u16[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
    u16[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
    memcpy(p, u16, 4);
    return 2;
}

/* Unit i of the units at p, in form f. */
uint32_t unit_at(enum form f, const unsigned char *p, size_t i)
{
    uint16_t u16;
    uint32_t u32;

    if (f == UTF8)
        return p[i];
    if (f == UTF16) {
        memcpy(&u16, p + 2 * i, 2);
        return u16;
    }
    memcpy(&u32, p + 4 * i, 4);
    return u32;
}

int is_surrogate(uint32_t v)
{
    return v >= 0xD800 && v <= 0xDFFF;
}

/*
 * The reference for the converters: the character at unit `at` of the `len` units at `in` in
 * form f, its status, value (U+FFFD on error) and units. UTF-8 by ref_decode (maximal subparts);
 * with `wtf8`, WTF-8 (https://simonsapin.github.io/wtf-8/): also ED A0..BF 80..BF, the
 * surrogate code point, its maximal subparts ED A0..BF, and a lead surrogate's three bytes
 * directly followed by a trail surrogate's one ill-formed sequence of six (UTF8_ERR_SURROGATE,
 * libutf8(3)). UTF-16 from The Unicode Standard section 3.9 (D91): a high surrogate then a low
 * one is a pair, any other surrogate is lone (UTF8_ERR_SURROGATE, or UTF8_ERR_TRUNCATED for a
 * high surrogate that ends the input; with `wtf8`, itself). UTF-32 (D90): surrogates and values
 * above 0x10FFFF are ill-formed, one unit each.
 */
utf8_status ref_char(enum form f, const unsigned char *in, size_t len, size_t at, int wtf8,
                     uint32_t *cp, size_t *n)
{
    const unsigned char *s = in + at;
    size_t left = len - at;
    uint32_t u = unit_at(f, in, at), v;

    *cp = REPLACEMENT;
    *n = 1;
    if (f == UTF8) {
        if (!wtf8 || s[0] != 0xED || left < 2 || s[1] < 0xA0 || s[1] > 0xBF)
            return ref_decode(s, left, cp, n);
        if (left < 3) {
            *n = left;
            return UTF8_ERR_TRUNCATED;
        }
        if (!is_tail(s[2])) {
            *n = 2;
            return UTF8_ERR_MISSING_CONTINUATION;
        }
        v = 0xD000u | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu); /* 1101 from ED, 6 + 6 bits */
        if (v <= 0xDBFF && left >= 6 && s[3] == 0xED && s[4] >= 0xB0 && s[4] <= 0xBF &&
            is_tail(s[5])) {
            *n = 6;
            return UTF8_ERR_SURROGATE;
        }
        *cp = v;
        *n = 3;
        return UTF8_OK;
    }
    if (f == UTF32) {
        if (is_surrogate(u))
            return UTF8_ERR_SURROGATE;
        if (u > 0x10FFFF)
            return UTF8_ERR_TOO_LARGE;
        *cp = u;
        return UTF8_OK;
    }
    if (!is_surrogate(u)) {
        *cp = u;
        return UTF8_OK;
    }
    if (u <= 0xDBFF && left >= 2 && (v = unit_at(f, in, at + 1)) >= 0xDC00 && v <= 0xDFFF) {
        *cp = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
        *n = 2;
        return UTF8_OK;
    }
    if (wtf8) {
        *cp = u;
        return UTF8_OK;
    }
    return u <= 0xDBFF && left == 1 ? UTF8_ERR_TRUNCATED : UTF8_ERR_SURROGATE;
}

/* The reference conversion of the `len` units at `in` into `out` (room for `cap` units), as
 * the API defines it: each character converted in turn; stopped at an ill-formed one (without
 * UTF8_REPLACE, which replaces it by U+FFFD) or at one that does not fit. A surrogate value
 * (WTF-8) goes out as one UTF-16 unit, or in UTF-8 as its 3 bytes, as put_units writes it. */
utf8_result ref_convert(enum form from, enum form to, const unsigned char *in, size_t len,
                        uint32_t flags, size_t cap, unsigned char *out)
{
    utf8_result r;
    unsigned char units[16];
    size_t ous = unit_size[to], n, k;
    uint32_t cp;
    utf8_status st;

    r.status = UTF8_OK;
    r.read = 0;
    r.written = 0;
    while (r.read < len) {
        st = ref_char(from, in, len, r.read, (flags & UTF8_WTF8) != 0, &cp, &n);
        if (st != UTF8_OK && (flags & UTF8_REPLACE) == 0) {
            r.status = st;
            return r;
        }
        k = put_units(to, cp, units);
        if (r.written + k > cap) {
            r.status = UTF8_ERR_BUFFER_TOO_SMALL;
            return r;
        }
        memcpy(out + r.written * ous, units, k * ous);
        r.written += k;
        r.read += n;
    }
    return r;
}
