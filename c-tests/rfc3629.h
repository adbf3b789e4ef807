/*
 * rfc3629.h: reference code for the C tests, written from RFC 3629 rather than taken from
 * the library, so that the tests compare the library with an independent expectation.
 */
#ifndef LIBUTF8_RFC3629_H
#define LIBUTF8_RFC3629_H

#include <stddef.h>
#include <stdint.h>

/* RFC 3629 section 3, "Encoding Algorithm", for a scalar value: its 1..4 bytes at `out`. */
static size_t reference_encode(uint32_t cp, unsigned char out[4])
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

#endif
