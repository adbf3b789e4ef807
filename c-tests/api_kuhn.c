/*
 * api_kuhn.c: Markus Kuhn's UTF-8 decoder capability and stress test, decoded lossily from C
 * and compared with Python's codec (c-tests/lossy_oracle.py writes the expected file).
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------------------------- */
/* 8: Markus Kuhn's UTF-8 decoder capability and stress test                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Reads a whole file into an exactly-sized heap buffer; 0 if it cannot be read. */
static int read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, *grown;
    size_t cap = 0, n = 0, got;

    if (f == NULL)
        return 0;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                fclose(f);
                return 0;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return 0;
    }
    fclose(f);
    *data = dup_exact(buf, n);
    *len = n;
    free(buf);
    return 1;
}

void test_kuhn(const char *input_path, const char *expected_path)
{
    struct group advance;
    char *in = NULL, *expected = NULL, *out;
    size_t in_len = 0, expected_len = 0, out_len = 0, off = 0, first_error_at = 0, up_to = 0, i;
    utf8_status first_error = UTF8_OK, st;

    GROUP_BEGIN(&advance, "Kuhn test: every decode step consumes 1..remaining bytes");
    if (input_path == NULL || expected_path == NULL) {
        printf("Kuhn stress test SKIPPED (shared/ test data absent: no file arguments given)\n");
        return;
    }
    /* Files named but unreadable are a broken run, not absent data. */
    if (!CHECK(read_file(input_path, &in, &in_len), "Kuhn test: cannot read %s", input_path) ||
        !CHECK(read_file(expected_path, &expected, &expected_len), "Kuhn test: cannot read %s",
               expected_path)) {
        free(in);
        return;
    }

    /* Lossy decoding: U+FFFD for each maximal subpart, as Python's decode('utf-8', 'replace'). */
    out = malloc(3 * in_len + UTF8_MAX_BYTES);
    if (out == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    while (off < in_len) {
        uint32_t cp = 0;
        size_t consumed = 0, written = 0;

        st = utf8_decode_next(in + off, in_len - off, &cp, &consumed);
        if (consumed < 1 || consumed > in_len - off) {
            group_fail(&advance, "at offset %lu [%s]: %s consumed %lu", (unsigned long)off,
                       hex(in + off, in_len - off < 4 ? in_len - off : 4), sname(st),
                       (unsigned long)consumed);
            break;
        }
        if (st != UTF8_OK) {
            if (first_error == UTF8_OK) {
                first_error = st;
                first_error_at = off;
            }
            cp = REPLACEMENT;
        }
        if (utf8_encode(cp, out + out_len, UTF8_MAX_BYTES, &written) != UTF8_OK) {
            group_fail(&advance, "at offset %lu: cannot encode U+%04lX", (unsigned long)off,
                       (unsigned long)cp);
            break;
        }
        out_len += written;
        off += consumed;
    }
    group_end(&advance);

    for (i = 0; i < out_len && i < expected_len && out[i] == expected[i]; i++)
        continue;
    CHECK(i == out_len && i == expected_len,
          "Kuhn test: lossy decoding of %s differs from %s at output offset %lu "
          "(lengths %lu and %lu): got [%s], want [%s]",
          input_path, expected_path, (unsigned long)i, (unsigned long)out_len,
          (unsigned long)expected_len, hex(out + i, out_len - i < 12 ? out_len - i : 12),
          hex(expected + i, expected_len - i < 12 ? expected_len - i : 12));

    /* utf8_count_chars gives the number of characters of Python's lossy decoding. */
    {
        size_t expected_chars = 0;

        for (i = 0; i < expected_len; i++)
            expected_chars += ((unsigned char)expected[i] & 0xC0) != 0x80;
        CHECK(utf8_count_chars(in, in_len) == expected_chars,
              "Kuhn test: utf8_count_chars gives %lu, Python's lossy decoding has %lu characters",
              (unsigned long)utf8_count_chars(in, in_len), (unsigned long)expected_chars);
    }

    /* The file holds malformed lines: validate stops where the decoding loop met the first one. */
    st = utf8_validate(in, in_len, &up_to);
    CHECK(st != UTF8_OK, "Kuhn test: utf8_validate accepts %s, which has malformed lines",
          input_path);
    CHECK(st == first_error && up_to == first_error_at,
          "Kuhn test: utf8_validate gives %s at %lu, the decoding loop's first error is %s at %lu",
          sname(st), (unsigned long)up_to, sname(first_error), (unsigned long)first_error_at);

    free(out);
    free(in);
    free(expected);
}
