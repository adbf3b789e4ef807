/*
 * guard_inputs.c: well-formed text of an exact length for the guard-page program, in families
 * of characters of one width (after ASCII that makes up the length) or of every width, each
 * character encoded by the reference encoder.
 */

#include "guard.h"

#include <stdio.h>
#include <stdlib.h>

const char *const family_names[N_FAMILIES] = { "ASCII", "2-byte", "3-byte", "4-byte",
                                               "mixed" };

/* Code points of each width (RFC 3629 section 3 table): the ends of each range, the examples
 * of RFC 3629 section 4 and 7 and of the encyclopedia article, and a few more. */
static const uint32_t width2[] = { 0x0080, 0x00A9, 0x0391, 0x05D0, 0x07FF, 0x00A2, 0x0100 };
static const uint32_t width3[] = { 0x0800, 0x20AC, 0x4F60, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF,
                                   0x2262, 0xD55C };
static const uint32_t width4[] = { 0x10000, 0x10348, 0x1F600, 0x233B4, 0xFFFFF, 0x10FFFF,
                                   0x100000 };

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* A scalar value whose encoding is `width` bytes long. */
static uint32_t pick(int family, size_t width, size_t index, uint32_t *state)
{
    uint32_t r = next_random(state), v;

    if (width == 1)
        return family == F_ASCII || family == F_MIXED ? r & 0x7F : 0x41 + (uint32_t)(index % 26);
    if (family == F_MIXED && r % 4 != 0) { /* anywhere in the range, surrogates excluded */
        r = next_random(state);
        if (width == 2)
            return 0x80 + r % 0x780;
        if (width == 3) {
            v = 0x800 + r % (0x10000 - 0x800 - 0x800);
            return v >= 0xD800 ? v + 0x800 : v;
        }
        return 0x10000 + r % 0x100000;
    }
    if (width == 2)
        return width2[(index + r) % COUNT(width2)];
    if (width == 3)
        return width3[(index + r) % COUNT(width3)];
    return width4[(index + r) % COUNT(width4)];
}

/* Writes well-formed UTF-8 of exactly `len` bytes to out, and its characters to cps (if not
 * NULL); returns their number. Fixed-width families start with the ASCII characters that make
 * up the length, so that the text ends with a character of the family's width. */
size_t make_text(int family, size_t len, uint32_t seed, unsigned char *out, uint32_t *cps)
{
    uint32_t state = seed * 2654435761u ^ (uint32_t)len * 40503u, cp;
    size_t at = 0, chars = 0, width, n;

    while (at < len) {
        size_t left = len - at;

        if (family == F_ASCII) {
            width = 1;
        } else if (family == F_MIXED) {
            width = 1 + next_random(&state) % 4;
            if (width > left)
                width = left;
        } else {
            width = (size_t)family + 1; /* F_TWO .. F_FOUR */
            if (left % width != 0)
                width = 1;
        }
        cp = pick(family, width, chars, &state);
        n = reference_encode(cp, out + at);
        if (n != width) {
            fprintf(stderr, "guard_pages: make_text: U+%04lX is not %lu bytes\n",
                    (unsigned long)cp, (unsigned long)width);
            exit(2);
        }
        if (cps != NULL)
            cps[chars] = cp;
        at += n;
        chars++;
    }
    return chars;
}
