/*
 * api_args.c: the bad arguments of the first functions from C (NULL inputs, NULL
 * out-parameters), and utf8_status_str and utf8_version.
 */

#include "api.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 9: bad arguments, NULL out-parameters                                                          */
/* ---------------------------------------------------------------------------------------------- */

void test_null_inputs(void)
{
    static const char some[] = "abc";
    uint32_t cp;
    size_t n;

    /* (NULL, 0), and a real pointer with length 0, are the empty input. */
    n = 99;
    CHECK_STATUS(utf8_validate(NULL, 0, &n), UTF8_OK, "validate(NULL, 0)");
    CHECK_SIZE("valid_up_to", n, 0, "validate(NULL, 0)");
    n = 99;
    CHECK_STATUS(utf8_validate(some, 0, &n), UTF8_OK, "validate(\"abc\", 0)");
    CHECK_SIZE("valid_up_to", n, 0, "validate(\"abc\", 0)");
    cp = 0x12345678;
    n = 99;
    CHECK_STATUS(utf8_decode_next(NULL, 0, &cp, &n), UTF8_ERR_TRUNCATED, "decode_next(NULL, 0)");
    CHECK_SIZE("consumed", n, 0, "decode_next(NULL, 0)");
    CHECK_CP(cp, REPLACEMENT, "decode_next(NULL, 0)");
    cp = 0x12345678;
    n = 99;
    CHECK_STATUS(utf8_decode_next(some, 0, &cp, &n), UTF8_ERR_TRUNCATED, "decode_next(\"abc\", 0)");
    CHECK_SIZE("consumed", n, 0, "decode_next(\"abc\", 0)");
    CHECK_CP(cp, REPLACEMENT, "decode_next(\"abc\", 0)");

    /* NULL with a non-zero length: NULL_POINTER, out-parameters untouched. */
    n = 12345;
    CHECK_STATUS(utf8_validate(NULL, 5, &n), UTF8_ERR_NULL_POINTER, "validate(NULL, 5)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "validate(NULL, 5)");
    cp = 0x12345678;
    n = 12345;
    CHECK_STATUS(utf8_decode_next(NULL, 5, &cp, &n), UTF8_ERR_NULL_POINTER, "decode_next(NULL, 5)");
    CHECK_SIZE("consumed (untouched)", n, 12345, "decode_next(NULL, 5)");
    CHECK_CP(cp, 0x12345678, "decode_next(NULL, 5), cp untouched");
    CHECK_STATUS(utf8_validate(NULL, 1, NULL), UTF8_ERR_NULL_POINTER, "validate(NULL, 1, NULL)");
    CHECK_STATUS(utf8_decode_next(NULL, 1, NULL, NULL), UTF8_ERR_NULL_POINTER,
                 "decode_next(NULL, 1, NULL, NULL)");
    CHECK_STATUS(utf8_decode_next(NULL, 0, NULL, NULL), UTF8_ERR_TRUNCATED,
                 "decode_next(NULL, 0, NULL, NULL)");

    /* utf8_count_chars has no status: (NULL, any) counts 0 characters. */
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(NULL, 0), 0, "count_chars(NULL, 0)");
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(NULL, 5), 0, "count_chars(NULL, 5)");
    CHECK_SIZE("utf8_count_chars", utf8_count_chars(some, 0), 0, "count_chars(\"abc\", 0)");
}

/* Every out-parameter may be NULL: the status is unchanged and the others are still written. */
void test_null_out_params(void)
{
    static const struct {
        const char *bytes;
        size_t len;
        utf8_status status;
        uint32_t cp;
        size_t consumed;
    } inputs[] = {
        { LIT("\xE2\x82\xAC"), UTF8_OK, 0x20AC, 3 },                    /* encyclopedia: euro */
        { LIT("\xC0\x80"), UTF8_ERR_OVERLONG, REPLACEMENT, 1 },         /* RFC 3629 section 3 */
        { LIT("\xE4\xBD"), UTF8_ERR_TRUNCATED, REPLACEMENT, 2 },        /* RFC 3629 section 4 */
    };
    char out[UTF8_MAX_BYTES];
    size_t i, n;
    uint32_t cp;

    for (i = 0; i < COUNT(inputs); i++) {
        char ctx[96];
        char *in = dup_exact(inputs[i].bytes, inputs[i].len);

        snprintf(ctx, sizeof ctx, "NULL out-parameters [%s]", hex(in, inputs[i].len));
        CHECK_STATUS(utf8_validate(in, inputs[i].len, NULL), inputs[i].status, ctx);
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, NULL, NULL), inputs[i].status, ctx);
        n = 99;
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, NULL, &n), inputs[i].status, ctx);
        CHECK_SIZE("consumed with cp NULL", n, inputs[i].consumed, ctx);
        cp = 0x12345678;
        CHECK_STATUS(utf8_decode_next(in, inputs[i].len, &cp, NULL), inputs[i].status, ctx);
        CHECK_CP(cp, inputs[i].cp, ctx);
        free(in);
    }

    memset(out, SENTINEL_BYTE, sizeof out);
    CHECK_STATUS(utf8_encode(0x20AC, out, sizeof out, NULL), UTF8_OK,
                 "encode U+20AC, out_len NULL");
    CHECK_OUT(out, 3, "\xE2\x82\xAC", 3, "encode U+20AC, out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, NULL, 0, NULL), UTF8_ERR_BUFFER_TOO_SMALL,
                 "encode U+20AC into (NULL, 0), out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, out, 2, NULL), UTF8_ERR_BUFFER_TOO_SMALL,
                 "encode U+20AC, cap 2, out_len NULL");
    CHECK_STATUS(utf8_encode(0xD800, out, sizeof out, NULL), UTF8_ERR_SURROGATE,
                 "encode U+D800, out_len NULL");
    CHECK_STATUS(utf8_encode(0x110000, out, sizeof out, NULL), UTF8_ERR_TOO_LARGE,
                 "encode 0x110000, out_len NULL");
    CHECK_STATUS(utf8_encode(0x20AC, NULL, 4, NULL), UTF8_ERR_NULL_POINTER,
                 "encode U+20AC into (NULL, 4), out_len NULL");
}

/* ---------------------------------------------------------------------------------------------- */
/* 10: utf8_status_str and utf8_version                                                           */
/* ---------------------------------------------------------------------------------------------- */

void test_strings(void)
{
    static const int unknown[] = { 1, 42, LOWEST_STATUS - 1, INT_MIN, INT_MAX };
    const char *known[1 - LOWEST_STATUS];
    char want_version[64];
    const char *version;
    int st, other;
    size_t i;

    for (st = 0; st >= LOWEST_STATUS; st--) {
        known[-st] = utf8_status_str(st);
        CHECK(known[-st] != NULL && known[-st][0] != '\0', "utf8_status_str(%d) is NULL or empty",
              st);
    }
    for (st = 0; st >= LOWEST_STATUS; st--)
        for (other = st - 1; other >= LOWEST_STATUS; other--)
            if (known[-st] != NULL && known[-other] != NULL)
                CHECK(strcmp(known[-st], known[-other]) != 0,
                      "utf8_status_str(%d) and utf8_status_str(%d) are both \"%s\"", st, other,
                      known[-st]);
    for (i = 0; i < COUNT(unknown); i++) {
        const char *s = utf8_status_str(unknown[i]);
        int clash = 0;

        CHECK(s != NULL && s[0] != '\0', "utf8_status_str(%d) is NULL or empty", unknown[i]);
        for (st = 0; s != NULL && st >= LOWEST_STATUS; st--)
            clash |= known[-st] != NULL && strcmp(s, known[-st]) == 0;
        CHECK(!clash, "utf8_status_str(%d) = \"%s\", the text of a known status", unknown[i],
              s ? s : "(null)");
    }

    snprintf(want_version, sizeof want_version, "%d.%d.%d", LIBUTF8_VERSION_MAJOR,
             LIBUTF8_VERSION_MINOR, LIBUTF8_VERSION_PATCH);
    version = utf8_version();
    CHECK(version != NULL && strcmp(version, want_version) == 0,
          "utf8_version() = \"%s\", header says \"%s\"", version ? version : "(null)",
          want_version);
}
