/*
 * test_api.c: tests of the libutf8 C API, through its installed header only.
 *
 * Every expected value here was written by hand from the source documents (RFC 3629, RFC 2279,
 * the encyclopedia article on UTF-8, the utf-8(7) man page), the Unicode Standard, chapter 3,
 * and the definitions of the sibling forms (WTF-8, Unicode TR #26 for CESU-8, Java's DataInput);
 * where no standard defines the result (escaping, streaming, character boundaries, bad
 * arguments), from the contract documented in libutf8.h and libutf8(3); none was printed by the
 * library. Where a whole range is checked, the expectation comes from the reference codec
 * (reference.c), written from the RFC 3629 tables, not from the library.
 *
 * This file holds the exact-size heap buffers and main; the suites are in api_*.c, one file
 * per subject (api.h lists them), over the check layer (check.c).
 *
 * Usage: test_api [UTF-8-test.txt expected-lossy-decoding.txt]
 *   The two optional arguments enable the Markus Kuhn stress test; without them it is SKIPPED.
 * The last line printed is "N passed, M failed"; the exit status is 0 iff M is 0.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A heap copy of exactly n bytes, so that AddressSanitizer catches any read past the input. */
char *dup_exact(const char *p, size_t n)
{
    char *q = malloc(n ? n : 1);

    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(q, p, n);
    return q;
}

/* A heap buffer of exactly n bytes filled with SENTINEL_BYTE: ASan catches a write past it. */
void *sentinel_buffer(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(p, SENTINEL_BYTE, n ? n : 1);
    return p;
}

int main(int argc, char **argv)
{
    test_examples();
    test_first_bytes();
    test_byte_pairs();
    test_boundaries();
    test_truncation();
    test_null_inputs();
    test_null_out_params();
    test_encode_buffers();
    test_strings();
    test_round_trip();
    test_forms();
    test_char_boundaries();
    test_stream();
    test_text();
    test_conversions();
    test_more();
    test_byte_order();
    test_detect();
    test_latin1();
    test_strategies();
#ifndef LIBUTF8_NO_INLINE
    test_inline_decode_next();
#endif
    test_kuhn(argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL);

    return check_summary();
}
