/*
 * reference.h: the reference codec of the C tests (reference.c), written from the standards
 * rather than taken from the library, so that the tests compare the library with an
 * independent expectation.
 */
#ifndef LIBUTF8_REFERENCE_H
#define LIBUTF8_REFERENCE_H

#include <libutf8.h>

#include <stddef.h>
#include <stdint.h>

#define REPLACEMENT 0xFFFDu

/* RFC 3629 section 3, "Encoding Algorithm", for a scalar value: its 1..4 bytes at `out`. */
size_t reference_encode(uint32_t cp, unsigned char out[4]);

/* What a byte means where a character must start (RFC 3629 section 4, the status table). */
struct lead {
    unsigned char width;        /* of the sequence it begins; 0: it begins none */
    unsigned char lo, hi;       /* the range of the second byte */
    signed char bad_second;     /* status for a continuation byte outside lo..hi */
    signed char alone;          /* status of the byte on its own (width 0: always) */
};

const struct lead *lead_of(unsigned char b);
/* UTF8-tail = %x80-BF */
int is_tail(unsigned char b);

/* The character at the start of s[0..len): its status, value (U+FFFD on error) and length
 * (the maximal subpart on error). */
utf8_status ref_decode(const unsigned char *s, size_t len, uint32_t *cp, size_t *n);
/* A decoding loop over s[0..len): the first error and where it starts, and the steps. */
utf8_status ref_scan(const unsigned char *s, size_t len, size_t *up_to, size_t *steps);

/* An encoding form, and the bytes of its unit. */
enum form { UTF8, UTF16, UTF32 };
extern const size_t unit_size[3];

/* Appends cp to p in form f; returns the number of units. */
size_t put_units(enum form f, uint32_t cp, unsigned char *p);
/* Unit i of the units at p, in form f. */
uint32_t unit_at(enum form f, const unsigned char *p, size_t i);
int is_surrogate(uint32_t v);
/* The character at unit `at` of the `len` units at `in`, in form f (WTF-8 with `wtf8`). */
utf8_status ref_char(enum form f, const unsigned char *in, size_t len, size_t at, int wtf8,
                     uint32_t *cp, size_t *n);
/* The conversion of the `len` units at `in` from `from` into `to`, as the API defines it. */
utf8_result ref_convert(enum form from, enum form to, const unsigned char *in, size_t len,
                        uint32_t flags, size_t cap, unsigned char *out);

#endif
