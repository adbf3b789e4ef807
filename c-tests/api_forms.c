/*
 * api_forms.c: the sibling forms (since 1.2) from C: each form's defining examples, replayed
 * step by step and encoded back, its refusals and its bad arguments.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* The sibling forms (since 1.2): each form's defining examples and refusals                      */
/* ---------------------------------------------------------------------------------------------- */

struct form_example {
    int line;
    utf8_form form;
    const char *what;
    const char *bytes;
    size_t len;
    utf8_status status; /* expected from utf8_validate_form ... */
    size_t valid_up_to; /* ... and its *valid_up_to */
    struct step steps[MAX_STEPS];
};

#define FROW(form, what, lit) __LINE__, UTF8_FORM_##form, (what), LIT(lit)

static const struct form_example form_examples[] = {
    /* RFC 2279 section 4, in every form (BMP characters other than U+0000). */
    { FROW(RFC2279, "RFC 2279 section 4: A<NOT IDENTICAL TO><ALPHA>.",
           "\x41\xE2\x89\xA2\xCE\x91\x2E"),
      ALL_VALID(7), { CHAR(0x41, 1), CHAR(0x2262, 3), CHAR(0x391, 2), CHAR(0x2E, 1) } },
    { FROW(CESU8, "RFC 2279 section 4: Korean \"hangugo\"",
           "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"),
      ALL_VALID(9), { CHAR(0xD55C, 3), CHAR(0xAD6D, 3), CHAR(0xC5B4, 3) } },
    { FROW(MUTF8, "RFC 2279 section 4: Japanese \"nihongo\"",
           "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
      ALL_VALID(9), { CHAR(0x65E5, 3), CHAR(0x672C, 3), CHAR(0x8A9E, 3) } },
    /* RFC 2279 section 2: the 5- and 6-byte rows; FE and FF never appear; shortest form only. */
    { FROW(RFC2279, "RFC 2279: first and last 5-byte values",
           "\xF8\x88\x80\x80\x80\xFB\xBF\xBF\xBF\xBF"),
      ALL_VALID(10), { CHAR(0x200000, 5), CHAR(0x3FFFFFF, 5) } },
    { FROW(RFC2279, "RFC 2279: first and last 6-byte values",
           "\xFC\x84\x80\x80\x80\x80\xFD\xBF\xBF\xBF\xBF\xBF"),
      ALL_VALID(12), { CHAR(0x4000000, 6), CHAR(0x7FFFFFFF, 6) } },
    { FROW(RFC2279, "RFC 2279: 4-byte values above U+10FFFF", "\xF4\x90\x80\x80\xF7\xBF\xBF\xBF"),
      ALL_VALID(8), { CHAR(0x110000, 4), CHAR(0x1FFFFF, 4) } },
    { FROW(RFC2279, "RFC 2279: FE, FF, overlong 5- and 6-byte forms",
           "\xFE\xFF\xF8\x87\xBF\xFC\x83\xBF"),
      FAILS_AT(INVALID_BYTE, 0),
      { BAD(INVALID_BYTE, 1), BAD(INVALID_BYTE, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(RFC2279, "RFC 2279: a 6-byte value cut short", "\xFD\xBF\xBF\xBF\x41"),
      FAILS_AT(MISSING_CONTINUATION, 0), { BAD(MISSING_CONTINUATION, 4), CHAR(0x41, 1) } },
    /* Modified UTF-8: U+0000 is C0 80, never 00. */
    { FROW(MUTF8, "Modified UTF-8: NUL as C0 80", "a\xC0\x80" "b"), ALL_VALID(4),
      { CHAR(0x61, 1), CHAR(0, 2), CHAR(0x62, 1) } },
    { FROW(MUTF8, "Modified UTF-8: a 00 byte, C0 81", "a\x00\xC0\x81"), FAILS_AT(INVALID_BYTE, 1),
      { CHAR(0x61, 1), BAD(INVALID_BYTE, 1), BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(CESU8, "CESU-8: C0 80 stays an overlong NUL", "\xC0\x80"), FAILS_AT(OVERLONG, 0),
      { BAD(OVERLONG, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
    /* CESU-8 and Modified UTF-8: U+1F4A9 as D83D DCA9, three bytes each. */
    { FROW(CESU8, "CESU-8: U+1F4A9 as a surrogate pair", "\xED\xA0\xBD\xED\xB2\xA9"),
      ALL_VALID(6), { CHAR(0x1F4A9, 6) } },
    { FROW(MUTF8, "Modified UTF-8: U+1F4A9 as a surrogate pair", "\xED\xA0\xBD\xED\xB2\xA9"),
      ALL_VALID(6), { CHAR(0x1F4A9, 6) } },
    { FROW(CESU8, "CESU-8: no 4-byte form", "\xF0\x9F\x92\xA9"), FAILS_AT(INVALID_BYTE, 0),
      { BAD(INVALID_BYTE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(CESU8, "CESU-8: unpaired lead then trail surrogate", "\xED\xA0\xBD" "a\xED\xB2\xA9"),
      FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 3), CHAR(0x61, 1), BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1),
        BAD(UNEXPECTED_CONTINUATION, 1) } },
    { FROW(MUTF8, "Modified UTF-8: a pair cut by the end", "a\xED\xA0\xBD\xED\xB2"),
      FAILS_AT(TRUNCATED, 1), { CHAR(0x61, 1), BAD(TRUNCATED, 5) } },
    /* WTF-8: unpaired surrogates allowed, a pair of them refused. */
    { FROW(WTF8, "WTF-8: lone lead surrogate", "\xED\xA0\x80"), ALL_VALID(3), { CHAR(0xD800, 3) } },
    { FROW(WTF8, "WTF-8: trail then lead surrogate", "\xED\xB0\x80\xED\xA0\x80"), ALL_VALID(6),
      { CHAR(0xDC00, 3), CHAR(0xD800, 3) } },
    { FROW(WTF8, "WTF-8: a surrogate pair in 3-byte halves", "a\xED\xA0\xBD\xED\xB2\xA9" "b"),
      FAILS_AT(SURROGATE, 1), { CHAR(0x61, 1), BAD(SURROGATE, 6), CHAR(0x62, 1) } },
    { FROW(WTF8, "WTF-8: U+1F4A9 in 4 bytes", "\xF0\x9F\x92\xA9"), ALL_VALID(4),
      { CHAR(0x1F4A9, 4) } },
    { FROW(RFC2279, "RFC 2279: a surrogate pair in 3-byte halves", "\xED\xA0\xBD\xED\xB2\xA9"),
      FAILS_AT(SURROGATE, 0), { BAD(SURROGATE, 6) } },
    { FROW(STRICT, "strict: a lone surrogate", "\xED\xA0\x80"), FAILS_AT(SURROGATE, 0),
      { BAD(SURROGATE, 1), BAD(UNEXPECTED_CONTINUATION, 1), BAD(UNEXPECTED_CONTINUATION, 1) } },
};

static void test_form_example(const struct form_example *ex)
{
    char ctx[256];
    char *in = dup_exact(ex->bytes, ex->len);
    size_t up_to = 12345, off = 0, i;
    utf8_status st;
    const struct step *want = ex->steps;

    snprintf(ctx, sizeof ctx, "form %d, %s (row at line %d) [%s]", (int)ex->form, ex->what,
             ex->line, hex(ex->bytes, ex->len));
    st = utf8_validate_form(in, ex->len, ex->form, &up_to);
    CHECK_STATUS(st, ex->status, ctx);
    CHECK_SIZE("valid_up_to", up_to, ex->valid_up_to, ctx);

    /* The lossy decoding loop; every OK step is encoded back, in the form, to the same bytes. */
    for (i = 0; off < ex->len && i < MAX_STEPS && want[i].consumed != 0; i++) {
        uint32_t cp = 0x12345678;
        size_t consumed = 99, out_len = 99;
        char out[UTF8_FORM_MAX_BYTES];
        char sctx[320];

        snprintf(sctx, sizeof sctx, "%s, step %lu at offset %lu", ctx, (unsigned long)i,
                 (unsigned long)off);
        st = utf8_decode_next_form(in + off, ex->len - off, ex->form, &cp, &consumed);
        CHECK_STATUS(st, want[i].status, sctx);
        CHECK_CP(cp, want[i].cp, sctx);
        if (!CHECK_SIZE("consumed", consumed, want[i].consumed, sctx))
            break;
        if (st == UTF8_OK) {
            st = utf8_encode_form(cp, ex->form, out, sizeof out, &out_len);
            CHECK_STATUS(st, UTF8_OK, sctx);
            CHECK_OUT(out, out_len, in + off, consumed, sctx);
        }
        off += consumed;
    }
    CHECK(off == ex->len && (i == MAX_STEPS || want[i].consumed == 0),
          "%s: decoding loop ended after %lu step(s) at offset %lu", ctx, (unsigned long)i,
          (unsigned long)off);
    free(in);
}

void test_forms(void)
{
    /* Refused encodings: above each form's range, and surrogates where a form has none. */
    static const struct {
        utf8_form form;
        uint32_t cp;
        utf8_status status;
    } refused[] = {
        { UTF8_FORM_STRICT, 0xD800, UTF8_ERR_SURROGATE },
        { UTF8_FORM_CESU8, 0xDC00, UTF8_ERR_SURROGATE },
        { UTF8_FORM_MUTF8, 0xDFFF, UTF8_ERR_SURROGATE },
        { UTF8_FORM_WTF8, 0x110000, UTF8_ERR_TOO_LARGE },
        { UTF8_FORM_CESU8, 0x110000, UTF8_ERR_TOO_LARGE },
        { UTF8_FORM_RFC2279, 0x80000000u, UTF8_ERR_TOO_LARGE },
    };
    char out[UTF8_FORM_MAX_BYTES];
    size_t i, n, up_to;
    uint32_t cp;
    int bad, f;

    for (i = 0; i < COUNT(form_examples); i++)
        test_form_example(&form_examples[i]);
    for (i = 0; i < COUNT(refused); i++) {
        n = 99;
        CHECK(utf8_encode_form(refused[i].cp, refused[i].form, out, sizeof out, &n) ==
                      refused[i].status &&
                  n == 0,
              "utf8_encode_form(0x%lX, form %d): want %s, out_len 0 (got %lu)",
              (unsigned long)refused[i].cp, (int)refused[i].form, sname(refused[i].status),
              (unsigned long)n);
    }
    /* U+10000 in 6 bytes (CESU-8), so UTF8_MAX_BYTES does not suffice; the size query says so. */
    n = 99;
    CHECK(utf8_encode_form(0x10000, UTF8_FORM_CESU8, out, UTF8_MAX_BYTES, &n) ==
                  UTF8_ERR_BUFFER_TOO_SMALL &&
              n == 6,
          "utf8_encode_form(U+10000, CESU-8) into UTF8_MAX_BYTES: want BUFFER_TOO_SMALL, 6 (%lu)",
          (unsigned long)n);
    /* Unknown forms: UTF8_ERR_INVALID_ARGUMENT, out-parameters untouched. */
    for (bad = -1; bad <= 6; bad += 7) {
        n = 99;
        up_to = 99;
        cp = 99;
        CHECK(utf8_validate_form("a", 1, (utf8_form)bad, &up_to) == UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_decode_next_form("a", 1, (utf8_form)bad, &cp, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_encode_form(0x41, (utf8_form)bad, out, sizeof out, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  n == 99 && up_to == 99 && cp == 99,
              "form %d: want UTF8_ERR_INVALID_ARGUMENT, nothing written", bad);
        /* checked first: before a NULL buffer with a length */
        CHECK(utf8_validate_form(NULL, 1, (utf8_form)bad, NULL) == UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_decode_next_form(NULL, 1, (utf8_form)bad, NULL, NULL) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  utf8_encode_form(0x41, (utf8_form)bad, NULL, 1, NULL) ==
                      UTF8_ERR_INVALID_ARGUMENT,
              "form %d with NULL buffers: want UTF8_ERR_INVALID_ARGUMENT", bad);
    }
    /* Each form's bad arguments, as utf8_validate, utf8_decode_next and utf8_encode's. */
    for (f = UTF8_FORM_STRICT; f <= UTF8_FORM_RFC2279; f++) {
        utf8_form form = (utf8_form)f;
        /* U+10000: a surrogate pair of 3 bytes each in CESU-8 and Modified UTF-8, else 4 bytes */
        size_t u10000 = form == UTF8_FORM_CESU8 || form == UTF8_FORM_MUTF8 ? 6 : 4;
        char ctx[64];

        snprintf(ctx, sizeof ctx, "form %d, NULL buffers and out-parameters", f);
        n = up_to = 12345;
        cp = 0x12345678;
        CHECK_STATUS(utf8_validate_form(NULL, 3, form, &up_to), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_STATUS(utf8_decode_next_form(NULL, 3, form, &cp, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK(up_to == 12345 && n == 12345 && cp == 0x12345678, "%s: out-parameters written", ctx);
        CHECK_STATUS(utf8_encode_form(0x41, form, NULL, 4, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        /* the NULL buffer is checked before the value, as in utf8_encode: no form takes this */
        CHECK_STATUS(utf8_encode_form(0x80000000u, form, NULL, 4, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len of a refused value into NULL (untouched)", n, 12345, ctx);
        CHECK_STATUS(utf8_validate_form(NULL, 0, form, &up_to), UTF8_OK, ctx);
        CHECK_SIZE("valid_up_to of (NULL, 0)", up_to, 0, ctx);
        CHECK_STATUS(utf8_decode_next_form(NULL, 0, form, &cp, &n), UTF8_ERR_TRUNCATED, ctx);
        CHECK(n == 0 && cp == REPLACEMENT, "%s: decode (NULL, 0): consumed %lu, U+%04lX", ctx,
              (unsigned long)n, (unsigned long)cp);
        CHECK_STATUS(utf8_encode_form(0x10000, form, NULL, 0, &n), UTF8_ERR_BUFFER_TOO_SMALL, ctx);
        CHECK_SIZE("out_len of the size query for U+10000", n, u10000, ctx);
        n = 12345;
        CHECK_STATUS(utf8_encode_form(0x80000000u, form, NULL, 0, &n), UTF8_ERR_TOO_LARGE, ctx);
        CHECK_SIZE("out_len of a refused value", n, 0, ctx);
        /* NULL out-parameters */
        CHECK_STATUS(utf8_validate_form("\xC0\x80", 2, form, NULL),
                     form == UTF8_FORM_MUTF8 ? UTF8_OK : UTF8_ERR_OVERLONG, ctx);
        CHECK_STATUS(utf8_decode_next_form("A", 1, form, NULL, NULL), UTF8_OK, ctx);
        memset(out, SENTINEL_BYTE, sizeof out);
        CHECK_STATUS(utf8_encode_form(0x41, form, out, sizeof out, NULL), UTF8_OK, ctx);
        CHECK_OUT(out, 1, "A", 1, ctx);
    }
}
