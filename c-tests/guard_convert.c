/*
 * guard_convert.c: the converters (utf8_to_utf16, utf8_to_utf32, utf16_to_utf8,
 * utf32_to_utf8) and their length functions against the guard pages: inputs against either
 * guard page, outputs of exactly the size needed against the other one, or one unit smaller,
 * on text of every width with and without a bad tail; UTF-16 also in the other byte order than
 * the machine's (UTF8_UTF16BE or UTF8_UTF16LE), whose converters swap in their registers.
 */

#include "guard.h"

#include <string.h>

const struct direction directions[] = {
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
const uint32_t text_cps[] = { 0x41,    0xE9,   0x20AC,  0x1F600, 0x7F,    0x80,
                              0x7FF,   0x800,  0xFFFD,  0xFFFF,  0x10000, 0x10FFFF,
                              0x4E2D,  0x61,   0x62,    0x63 };
const uint32_t bmp_cps[] = { 0x41,   0xE9,   0x20AC, 0x7F, 0x80, 0x7FF, 0x800,
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

void swap_units(unsigned char *p, size_t units)
{
    size_t i;
    unsigned char b;

    for (i = 0; i < units; i++) {
        b = p[2 * i];
        p[2 * i] = p[2 * i + 1];
        p[2 * i + 1] = b;
    }
}

uint32_t other_order(void)
{
    const uint16_t one = 1;
    unsigned char low;

    memcpy(&low, &one, 1);
    return low ? UTF8_UTF16BE : UTF8_UTF16LE;
}

const struct direction *ordered_direction(size_t i, int *swapped)
{
    const struct direction *d = &directions[i % N_DIRECTIONS];

    *swapped = i >= N_DIRECTIONS;
    return *swapped && d->from != UTF16 && d->to != UTF16 ? NULL : d;
}

/* The length of the conversion of `len` units of UTF-16 in the other byte order into UTF-8. */
static size_t len_16x_8(const void *in, size_t len)
{
    return utf8_length_from_utf16_flags((const uint16_t *)in, len, UTF8_REPLACE | other_order());
}

void test_transcode(void)
{
    static unsigned char in_buf[4 * 400], want[4 * 400 + 16];
    size_t max_chars = exhaustive ? 300 : 150, di, n, i, at_end, bmp, swapped;
    struct group g;

    section_begin("the converters: inputs and outputs of exactly their size at guard pages");
    for (di = 0; di < N_ORDERED; di++) {
        int other;
        const struct direction *d = ordered_direction(di, &other);
        size_t ius, ous;
        uint32_t order;
        size_t (*length)(const void *, size_t);

        if (d == NULL)
            continue;
        ius = unit_size[d->from];
        ous = unit_size[d->to];
        order = other ? other_order() : 0;
        length = other && d->from == UTF16 ? len_16x_8 : d->length;
        GROUP_BEGIN(&g,
                    "%s%s of 0..%lu characters, of all widths, below U+10000 and ASCII, with "
                    "and without a bad tail",
                    d->name, other ? OTHER_ORDER : "", (unsigned long)max_chars);
        /* bmp: 0 all widths, 1 below U+10000, 2 ASCII (which the C functions widen by a
         * path of their own with AVX-512) */
        for (bmp = 0; bmp < 3; bmp++) {
            for (n = 0; n <= max_chars; n++) {
                size_t in_len = 0, out_len = 0, last_in = 0, last_out = 0, tail_len;
                utf8_status tail_status;
                unsigned char *in;
                utf8_result r;

                for (i = 0; i < n; i++) {
                    uint32_t cp = bmp == 2 ? 0x20 + (uint32_t)((i * 7 + n) % 95)
                                  : bmp    ? bmp_cps[(i * 7 + n) % COUNT(bmp_cps)]
                                           : text_cps[(i * 7 + n) % COUNT(text_cps)];

                    last_in = put_units(d->from, cp, in_buf + in_len * ius);
                    last_out = put_units(d->to, cp, want + out_len * ous);
                    in_len += last_in;
                    out_len += last_out;
                }
                if (other)
                    swap_units(d->from == UTF16 ? in_buf : want, d->from == UTF16 ? in_len : out_len);
                for (at_end = 0; at_end < 2; at_end++) {
                    /* the input against one guard page, the output against the other */
                    in = at_end ? arena_hi - in_len * ius : arena_lo;
                    memcpy(in, in_buf, in_len * ius);
                    r.status = UTF8_OK;
                    r.read = in_len;
                    r.written = out_len;
                    convert_one(&g, d, in, in_len, at_end, out_len, order, r, want);
                    convert_one(&g, d, in, in_len, at_end, out_len, UTF8_REPLACE | order, r, want);
                    g.inputs++;
                    if (length(in, in_len) != out_len)
                        group_fail(&g, "length of %lu units: %lu, want %lu", (unsigned long)in_len,
                                   (unsigned long)length(in, in_len), (unsigned long)out_len);
                    if (n > 0) { /* one unit short: the last character does not fit */
                        r.status = UTF8_ERR_BUFFER_TOO_SMALL;
                        r.read = in_len - last_in;
                        r.written = out_len - last_out;
                        convert_one(&g, d, in, in_len, at_end, out_len - 1, order, r, want);
                    }
                    memset(in, POISON, in_len * ius);
                }

                /* the same text and a bad tail, which ends at the trailing guard page */
                tail_len = put_bad_tail(d->from, in_buf + in_len * ius, &tail_status);
                if (other && d->from == UTF16)
                    swap_units(in_buf + in_len * ius, tail_len);
                in = arena_hi - (in_len + tail_len) * ius;
                memcpy(in, in_buf, (in_len + tail_len) * ius);
                r.status = tail_status;
                r.read = in_len;
                r.written = out_len;
                convert_one(&g, d, in, in_len + tail_len, 1, out_len + 4, order, r, want);
                /* replaced: one U+FFFD, in an output of exactly the size the length function
                 * gives */
                swapped = put_units(d->to, REPLACEMENT, want + out_len * ous);
                if (other && d->to == UTF16)
                    swap_units(want + out_len * ous, swapped);
                r.status = UTF8_OK;
                r.read = in_len + tail_len;
                r.written = out_len + (d->to == UTF8 ? 3 : 1);
                g.inputs++;
                if (length(in, in_len + tail_len) != r.written)
                    group_fail(&g, "length of %lu units and a bad tail: %lu, want %lu",
                               (unsigned long)in_len,
                               (unsigned long)length(in, in_len + tail_len),
                               (unsigned long)r.written);
                convert_one(&g, d, in, in_len + tail_len, 1, r.written, UTF8_REPLACE | order, r,
                            want);
                memset(in, POISON, (in_len + tail_len) * ius);
            }
        }
        group_end(&g);
    }
    section_end();
}
