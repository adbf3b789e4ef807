/*
 * guard_convert_build.c: the converters' inputs in the guard-page program, built a character
 * or an ill-formed item at a time, with what each mode (strict, UTF8_REPLACE, UTF8_WTF8 and
 * both) makes of them written down as they are built, so that the expectation comes from the
 * construction (and guard_convert_spare.c compares it with the reference).
 */

#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flags of each mode; the WTF-8 ones apply to the UTF-16 converters only. */
const uint32_t mode_flags[N_MODES] = { 0, UTF8_REPLACE, UTF8_WTF8, UTF8_WTF8 | UTF8_REPLACE };

size_t modes_of(const struct direction *d)
{
    return d->from == UTF16 || d->to == UTF16 ? 4 : 2;
}

struct built_input built;

void build_begin(const struct direction *d)
{
    size_t m;

    built.d = d;
    built.len = 0;
    for (m = 0; m < N_MODES; m++) {
        built.want[m].status = UTF8_OK;
        built.want[m].read = 0;
        built.want[m].written = 0;
    }
}

static void build_room(size_t units)
{
    if ((built.len + units) * unit_size[built.d->from] > CONV_MAX_IN) {
        fprintf(stderr, "guard_pages: an input longer than CONV_MAX_IN\n");
        exit(2);
    }
}

/* Appends `cp` to what mode m writes, unless that mode has stopped. */
static void build_out(size_t m, uint32_t cp)
{
    utf8_result *w = &built.want[m];
    size_t ous = unit_size[built.d->to];

    if (w->status == UTF8_OK)
        w->written += put_units(built.d->to, cp, built.out[m] + w->written * ous);
}

void build_char(uint32_t cp)
{
    size_t m;

    build_room(4);
    built.len += put_units(built.d->from, cp, built.in + built.len * unit_size[built.d->from]);
    for (m = 0; m < N_MODES; m++) {
        build_out(m, cp);
        if (built.want[m].status == UTF8_OK)
            built.want[m].read = built.len;
    }
}

void build_bad(const struct bad_item *b)
{
    size_t us = unit_size[built.d->from], m, i;

    build_room(b->len);
    for (i = 0; i < b->len; i++) {
        unsigned char *p = built.in + (built.len + i) * us;
        uint16_t u16 = (uint16_t)b->units[i];

        if (b->form == UTF8)
            *p = (unsigned char)b->units[i];
        else if (b->form == UTF16)
            memcpy(p, &u16, 2);
        else
            memcpy(p, &b->units[i], 4);
    }
    for (m = 0; m < N_MODES; m++) {
        utf8_result *w = &built.want[m];
        int wtf8 = (mode_flags[m] & UTF8_WTF8) != 0, replace = (mode_flags[m] & UTF8_REPLACE) != 0;
        utf8_status st = wtf8 ? b->wtf_status : b->status;

        if (w->status != UTF8_OK)
            continue;
        if (st != UTF8_OK && !replace) {
            w->status = st; /* read stays at the item's start */
            continue;
        }
        for (i = 0; i < (wtf8 ? b->n_wtf : b->n_replaced); i++)
            build_out(m, wtf8 ? b->wtf[i] : b->replaced[i]);
        w->read = built.len + b->len;
    }
    built.len += b->len;
}

/* Texts: character i of a text of n of a kind. */
static const uint32_t ascii_cps[] = { 0x41, 0x62, 0x20, 0x7E, 0x00, 0x7F, 0x31 };
static const uint32_t latin_cps[] = { 0x41, 0xE9, 0x62, 0x7FF, 0x80, 0x63, 0x416 };
static const uint32_t three_cps[] = { 0x4E2D, 0x800, 0xFFFD, 0xD7FF, 0xE000, 0xFFFF, 0x20AC };
static const uint32_t four_cps[] = { 0x1F600, 0x10000, 0x10FFFF, 0x233B4, 0x1D11E };

static const struct {
    const char *name;
    const uint32_t *cps;
    size_t n;
} kinds[] = {
    { "ASCII", ascii_cps, COUNT(ascii_cps) },
    { "ASCII and 2-byte", latin_cps, COUNT(latin_cps) },
    { "3-byte", three_cps, COUNT(three_cps) },
    { "4-byte", four_cps, COUNT(four_cps) },
    { "below U+10000", bmp_cps, COUNT(bmp_cps) },
    { "all widths", text_cps, COUNT(text_cps) },
};

const char *kind_name(int kind)
{
    return kinds[kind].name;
}

void build_text(int kind, size_t chars, size_t seed)
{
    size_t i;

    for (i = 0; i < chars; i++)
        build_char(kinds[kind].cps[(i * 7 + seed) % kinds[kind].n]);
}

/* Characters of `kind` until the input has at least `bytes` bytes. */
void build_text_bytes(int kind, size_t bytes, size_t seed)
{
    size_t i;

    for (i = 0; built.len * unit_size[built.d->from] < bytes; i++)
        build_char(kinds[kind].cps[(i * 7 + seed) % kinds[kind].n]);
}
