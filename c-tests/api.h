/*
 * api.h: what the files of the C harness (test_api.c and api_*.c) share: exact-size heap
 * buffers (test_api.c), the rows of expected decoding steps, and the suites, one file per
 * subject.
 */
#ifndef LIBUTF8_API_H
#define LIBUTF8_API_H

#include <libutf8.h>

#include <stddef.h>
#include <stdint.h>

#include "calls.h"
#include "check.h"
#include "reference.h"

/* A string literal and its length, NUL bytes included (the terminating NUL excluded). */
#define LIT(s) (s), (sizeof(s) - 1)

#define SENTINEL_BYTE 0xA5

/* A heap copy of exactly n bytes, so that AddressSanitizer catches any read past the input. */
char *dup_exact(const char *p, size_t n);
/* A heap buffer of exactly n bytes filled with SENTINEL_BYTE: ASan catches a write past it. */
void *sentinel_buffer(size_t n);
/* Whether the n bytes at p all still hold SENTINEL_BYTE. */
#define untouched(p, n) all_bytes((p), (n), SENTINEL_BYTE)

/* One expected utf8_decode_next result, in a loop that skips *consumed bytes after each call. */
struct step {
    utf8_status status;
    uint32_t cp;
    size_t consumed; /* 0 ends the list */
};

#define MAX_STEPS 12
#define CHAR(cp, n) { UTF8_OK, (cp), (n) }
#define BAD(st, n) { UTF8_ERR_##st, REPLACEMENT, (n) }
#define ALL_VALID(n) UTF8_OK, (n)
#define FAILS_AT(st, offset) UTF8_ERR_##st, (offset)

/* A code point and its bytes. */
struct encoding {
    uint32_t cp;
    const char *bytes;
    size_t len;
};

/* The suites, in the order main runs them. */
void test_examples(void);          /* api_decode.c */
void test_first_bytes(void);
void test_byte_pairs(void);
void test_boundaries(void);        /* api_encode.c */
void test_truncation(void);        /* api_decode.c */
void test_null_inputs(void);       /* api_args.c */
void test_null_out_params(void);
void test_encode_buffers(void);    /* api_encode.c */
void test_strings(void);           /* api_args.c */
void test_round_trip(void);        /* api_encode.c */
void test_forms(void);             /* api_forms.c */
void test_char_boundaries(void);   /* api_text.c */
void test_stream(void);
void test_text(void);
void test_conversions(void);       /* api_convert.c */
void test_more(void);
void test_byte_order(void);
void test_detect(void);         /* api_detect.c */
void test_latin1(void);         /* api_latin1.c */
void test_strategies(void);     /* api_strategies.c */
#ifndef LIBUTF8_NO_INLINE
void test_inline_decode_next(void); /* api_decode.c */
#endif
void test_kuhn(const char *input_path, const char *expected_path); /* api_kuhn.c */

#endif
