/*
 * guard_convert_spare.c: the converters with room to spare (0 to 80 units after the output,
 * whose bytes must be left as they were), ill-formed input in the middle (strict, UTF8_REPLACE,
 * UTF8_WTF8) and inputs past 2,048 and 8,192 bytes, inputs and outputs each in an arena of its
 * own, against the reference conversion; each group of the UTF-16 converters again with UTF-16
 * in the other byte order than the machine's (UTF8_UTF16BE or UTF8_UTF16LE), which their SIMD
 * kernels swap in registers before the same stores past the output, on the same inputs with
 * their UTF-16 units swapped.
 */

#include "guard.h"

#include <stdio.h>
#include <string.h>

/*
 * The inputs lie in an arena of their own and the outputs in another, so that an input and
 * its output can both end at a guard page. An output buffer has room for exactly the units
 * the conversion writes, or up to SPARE_MAX more: the converters store whole registers past
 * their output and store back what was there, which then must reach no further than the
 * buffer's end, and leave every spare byte as it was. Before each call the spare bytes are
 * filled with a pattern that differs from one byte to the next, so that a byte stored back one
 * place off, or not stored back, shows; the bytes the output will cover hold POISON.
 */

unsigned char *conv_in_lo, *conv_in_hi, *conv_out_lo, *conv_out_hi;

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

/* One call: the built input at `in` (UTF-16 units swapped for the other order), with `flags`,
 * into `cap` units ending at the end of the output arena (or starting at its start); the
 * result, the output, the spare bytes and the watched bytes outside the buffer checked. */
static void conv_call(struct group *g, const unsigned char *in, int in_at_end, uint32_t flags,
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
    r = d->convert(in, built.len, out, cap, flags);
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
                   (unsigned long)flags, (unsigned long)cap,
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

/* The length function of a direction with UTF-16, with `flags` (the byte order among them). */
static size_t length_flags(const struct direction *d, const unsigned char *in, size_t len,
                           uint32_t flags)
{
    return d->from == UTF16 ? utf8_length_from_utf16_flags((const uint16_t *)in, len, flags)
                            : utf16_length_from_utf8_flags((const char *)in, len, flags);
}

/*
 * Runs the built input in modes [first, end) of its direction (the UTF-16 converters have
 * four, the others two): for each, the construction is checked against the reference; then,
 * with the input against the leading guard page and against the trailing one, the output of
 * exactly the size needed and of every spare count that `stride` gives, ending at the trailing
 * guard page of the output arena; exactly the size needed at the leading one; and one unit
 * short, where the last character does not fit (as the reference says). The length function
 * is checked against the UTF8_REPLACE conversion (and the UTF8_WTF8 one).
 *
 * `swapped` (a direction with UTF-16 only): UTF-16 in the other byte order than the machine's.
 * The construction and the reference stay in the machine's order; the converter reads the
 * input's units swapped (from UTF-16) or must write the expected units swapped (into UTF-16),
 * with other_order() in its flags, and the length is that of the _flags function with them.
 */
static void conv_run(struct group *g, size_t first, size_t end, size_t stride, int swapped)
{
    static unsigned char ref_out[CONV_MAX_OUT], in_units[CONV_MAX_IN], want_out[CONV_MAX_OUT];
    const struct direction *d = built.d;
    size_t ius = unit_size[d->from], ous = unit_size[d->to], m, k, at_end, len;
    uint32_t order = swapped ? other_order() : 0, flags;
    const unsigned char *src = built.in;
    unsigned char *in;
    utf8_result ref, want;

    if (end > modes_of(d))
        end = modes_of(d);
    if (swapped && d->from == UTF16) {
        memcpy(in_units, built.in, built.len * ius);
        swap_units(in_units, built.len);
        src = in_units;
    }
    now.group = g->name;
    now.call = d->name;
    for (m = first; m < end; m++) {
        if (conv_sampled_out())
            continue;
        want = built.want[m];
        flags = mode_flags[m] | order;
        ref = ref_convert(d->from, d->to, built.in, built.len, mode_flags[m], (size_t)-1, ref_out);
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
        memcpy(want_out, built.out[m], want.written * ous);
        if (swapped && d->to == UTF16)
            swap_units(want_out, want.written);
        for (at_end = 0; at_end < 2; at_end++) {
            in = at_end ? conv_in_hi - built.len * ius : conv_in_lo;
            memcpy(in, src, built.len * ius);
            now.input = in;
            now.len = built.len * ius;
            now.where = at_end ? "input end-aligned" : "input start-aligned";
            now.off = 0;
            if (m == 1 || m == 3) { /* UTF8_REPLACE, and UTF8_WTF8 with it */
                g->inputs++;
                len = swapped ? length_flags(d, in, built.len, flags) : d->length(in, built.len);
                if (m == 3 && d->from == UTF8) { /* utf16_length_from_utf8 bounds WTF-8 */
                    if (len < want.written)
                        group_fail(g, "length of %lu units: %lu, below the %lu units of WTF-8",
                                   (unsigned long)built.len, (unsigned long)len,
                                   (unsigned long)want.written);
                } else if (len != want.written) { /* exact */
                    group_fail(g, "length of %lu units: %lu, want %lu (flags %lu)",
                               (unsigned long)built.len, (unsigned long)len,
                               (unsigned long)want.written, (unsigned long)flags);
                }
            }
            for (k = 0; k <= SPARE_MAX; k = next_spare(k, stride))
                conv_call(g, in, (int)at_end, flags, want, want_out, want.written + k, 0);
            conv_call(g, in, (int)at_end, flags, want, want_out, want.written, 1);
            if (want.written > 0) {
                ref = ref_convert(d->from, d->to, built.in, built.len, mode_flags[m],
                                  want.written - 1, ref_out);
                if (swapped && d->to == UTF16)
                    swap_units(ref_out, ref.written);
                conv_call(g, in, (int)at_end, flags, ref, ref_out, want.written - 1, 0);
            }
            memset(in, POISON, built.len * ius);
        }
    }
    now.call = NULL;
    now.input = NULL;
    now.where = NULL;
}

void test_transcode_spare(void)
{
    static const size_t more[] = { 127, 128, 129, 191, 192, 193, 255, 256, 257 };
    size_t di, n, i, kind;
    struct group g;

    section_begin("the converters: valid text into outputs with 0..80 units to spare");
    for (di = 0; di < N_ORDERED; di++) {
        int swapped;
        const struct direction *d = ordered_direction(di, &swapped);

        if (d == NULL)
            continue;
        for (kind = 0; kind < N_KINDS; kind++) {
            GROUP_BEGIN(&g, "%s%s of %s text, 0..96 and more characters, into room to spare",
                        d->name, swapped ? OTHER_ORDER : "", kind_name((int)kind));
            for (i = 0; i <= 96 + COUNT(more); i++) {
                n = i <= 96 ? i : more[i - 97];
                build_begin(d);
                build_text((int)kind, n, n);
                /* all modes give the same output: each input in one of them */
                conv_run(&g, n % modes_of(d), n % modes_of(d) + 1, 1, swapped);
            }
            group_end(&g);
        }
    }
    section_end();
}

void test_transcode_bad(void)
{
    static const size_t befores[] = { 0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64,
                                      65, 100 };
    static const size_t afters[] = { 1, 40 };
    size_t di, bi, ai, fi, kind;
    struct group g;

    section_begin("the converters: ill-formed input in the middle, UTF8_REPLACE and UTF8_WTF8");
    for (di = 0; di < N_ORDERED; di++) {
        int swapped;
        const struct direction *d = ordered_direction(di, &swapped);

        if (d == NULL)
            continue;
        GROUP_BEGIN(&g, "%s%s of text, an ill-formed item, text; strict, replaced%s", d->name,
                    swapped ? OTHER_ORDER : "", modes_of(d) == 4 ? ", WTF-8" : "");
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
                        conv_run(&g, 0, N_MODES, 4, swapped);
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
                conv_run(&g, 0, N_MODES, 12, swapped);
            }
        }
        group_end(&g);
    }
    section_end();
}

void test_transcode_long(void)
{
    static const size_t runs[] = { 256, 257, 300, 511 };
    size_t di, i, j, n_bad;
    struct group g;

    section_begin("the converters: inputs of 256 to 9,000 bytes, both ends at guard pages");
    for (di = 0; di < N_ORDERED; di++) {
        int swapped;
        const struct direction *d = ordered_direction(di, &swapped);
        const struct bad_item *bad[COUNT(bad_items)];

        if (d == NULL)
            continue;
        for (i = 0, n_bad = 0; i < COUNT(bad_items); i++)
            if (bad_items[i].form == d->from)
                bad[n_bad++] = &bad_items[i];

        GROUP_BEGIN(&g, "%s%s of an ASCII run of 256 to 511 units, then other characters",
                    d->name, swapped ? OTHER_ORDER : "");
        for (i = 0; i < COUNT(runs); i++) {
            build_begin(d);
            build_text(K_ASCII, runs[i], i);
            build_text(i % 2 ? K_ALL : K_LATIN, 150, i);
            conv_run(&g, 0, N_MODES, 4, swapped);
        }
        group_end(&g);

        GROUP_BEGIN(&g, "%s%s of 2,048 and 8,192 bytes and more, of each kind of text", d->name,
                    swapped ? OTHER_ORDER : "");
        for (i = K_LATIN; i < N_KINDS; i++) {
            build_begin(d);
            build_text_bytes((int)i, 2048 + 3 * i, i);
            conv_run(&g, i % modes_of(d), i % modes_of(d) + 1, 4, swapped);
            build_begin(d);
            build_text_bytes((int)i, 8192 + 61 * i, i);
            conv_run(&g, i % modes_of(d), i % modes_of(d) + 1, 8, swapped);
        }
        /* ASCII up to just before 8,192 bytes, then other characters across it */
        build_begin(d);
        build_text_bytes(K_ASCII, 8192 - 100, 0);
        build_text_bytes(K_ALL, 8192 + 300, 0);
        conv_run(&g, 0, N_MODES, 8, swapped);
        group_end(&g);

        GROUP_BEGIN(&g, "%s%s of 2,048 and 8,192 bytes and more with ill-formed items inside",
                    d->name, swapped ? OTHER_ORDER : "");
        for (i = 0; i < 2; i++) {
            build_begin(d);
            for (j = 0; built.len * unit_size[d->from] < (i ? 8192 + 200 : 2048 + 100); j++) {
                build_text(j % 2 ? K_ALL : K_BMP, 40 + j % 61, j);
                build_bad(bad[j % n_bad]);
            }
            build_text(K_ALL, 10, 0);
            conv_run(&g, 0, N_MODES, 8, swapped);
        }
        group_end(&g);
    }
    section_end();
}
