/*
 * api_latin1.c: the Latin-1 and Windows-1252 converters (since 1.3) from C: latin1_to_utf8,
 * cp1252_to_utf8, utf8_to_latin1 and their length functions, on examples whose expected
 * bytes come from Python's codecs ('latin-1'; 'cp1252' completed with the WHATWG index's
 * five C1 controls; b.decode('utf-8', 'replace').encode('latin-1', 'replace')), and every
 * single byte against the mapping written again here; full outputs resumed, UTF8_MORE, bad
 * arguments, and the fallback of libutf8(3): utf8_validate, then cp1252_to_utf8.
 */

#include "api.h"

#include <stdlib.h>
#include <string.h>

typedef utf8_result (*sb_convert_fn)(const char *, size_t, char *, size_t, uint32_t);
typedef size_t (*sb_length_fn)(const char *, size_t);

struct latin1_case {
    const char *what;
    sb_convert_fn convert;
    sb_length_fn length; /* the exact size of the output, or NULL */
    uint32_t flags;
    const char *in;
    size_t in_len;
    const char *out;
    size_t out_len;
    utf8_status status;
    size_t read;
};

#define OK_ALL(in_len) UTF8_OK, (in_len)

static const struct latin1_case cases[] = {
    { "latin1_to_utf8, cafe and the upper half's ends", latin1_to_utf8, utf8_length_from_latin1,
      0, LIT("caf\xE9 \xA0\xFF\x80\x7F"), LIT("caf\xC3\xA9 \xC2\xA0\xC3\xBF\xC2\x80\x7F"),
      OK_ALL(9) },
    { "cp1252_to_utf8, euro, quotes, Y diaeresis", cp1252_to_utf8, utf8_length_from_cp1252, 0,
      LIT("\x80 \x93hi\x94 \x9F"),
      LIT("\xE2\x82\xAC \xE2\x80\x9Chi\xE2\x80\x9D \xC5\xB8"), OK_ALL(8) },
    { "cp1252_to_utf8, WHATWG's five C1 controls", cp1252_to_utf8, utf8_length_from_cp1252, 0,
      LIT("\x81\x8D\x8F\x90\x9D"), LIT("\xC2\x81\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D"), OK_ALL(5) },
    { "cp1252_to_utf8, Latin-1 above 0x9F", cp1252_to_utf8, utf8_length_from_cp1252, 0,
      LIT("\xA0\xE9\xFF"), LIT("\xC2\xA0\xC3\xA9\xC3\xBF"), OK_ALL(3) },
    { "utf8_to_latin1, strict, U+20AC stops", utf8_to_latin1, NULL, 0,
      LIT("caf\xC3\xA9 \xE2\x82\xAC"), LIT("caf\xE9 "), UTF8_ERR_UNREPRESENTABLE, 6 },
    { "utf8_to_latin1, replace, U+20AC is ?", utf8_to_latin1, latin1_length_from_utf8,
      UTF8_REPLACE, LIT("caf\xC3\xA9 \xE2\x82\xAC"), LIT("caf\xE9 ?"), OK_ALL(9) },
    { "utf8_to_latin1, replace, a cut sequence and FF", utf8_to_latin1, latin1_length_from_utf8,
      UTF8_REPLACE, LIT("\xC3\xA9\xE2\x82x\xFF\xE2\x82\xAC"), LIT("\xE9?x??"), OK_ALL(9) },
    { "utf8_to_latin1, replace, Unicode table 3-8", utf8_to_latin1, latin1_length_from_utf8,
      UTF8_REPLACE, LIT("\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41"), LIT("????A"), OK_ALL(9) },
    { "utf8_to_latin1, replace, maximal subparts", utf8_to_latin1, latin1_length_from_utf8,
      UTF8_REPLACE, LIT("\xF0\x9F\x98\x80\xED\xA0\x80\xC0\xAF\xF4\x90\x80\x80\xC2"),
      LIT("???????????"), OK_ALL(14) },
    { "utf8_to_latin1, strict, overlong", utf8_to_latin1, NULL, 0, LIT("a\xC0\xAF"), LIT("a"),
      UTF8_ERR_OVERLONG, 1 },
    { "utf8_to_latin1, strict, cut at the end", utf8_to_latin1, NULL, 0, LIT("ab\xC3"),
      LIT("ab"), UTF8_ERR_TRUNCATED, 2 },
    { "utf8_to_latin1, MORE holds a cut sequence back", utf8_to_latin1, NULL, UTF8_MORE,
      LIT("ab\xC3"), LIT("ab"), UTF8_ERR_TRUNCATED, 2 },
    { "utf8_to_latin1, MORE and REPLACE hold it back", utf8_to_latin1, NULL,
      UTF8_MORE | UTF8_REPLACE, LIT("\xFF" "b\xE2\x82"), LIT("?b"), UTF8_ERR_TRUNCATED, 2 },
    { "utf8_to_latin1, strict, all of Latin-1", utf8_to_latin1, latin1_length_from_utf8, 0,
      LIT("\x00\x7F\xC2\x80\xC3\xBF"), LIT("\x00\x7F\x80\xFF"), OK_ALL(6) },
    { "latin1_to_utf8, empty", latin1_to_utf8, utf8_length_from_latin1, 0, LIT(""), LIT(""),
      OK_ALL(0) },
    /* UTF8_REPLACE and UTF8_MORE change nothing: every byte is a character, and a last byte
     * that would start a UTF-8 sequence is not held back. */
    { "latin1_to_utf8, MORE, a last C3 converted", latin1_to_utf8, utf8_length_from_latin1,
      UTF8_MORE, LIT("ab\xC3"), LIT("ab\xC3\x83"), OK_ALL(3) },
    { "latin1_to_utf8, REPLACE and MORE", latin1_to_utf8, utf8_length_from_latin1,
      UTF8_REPLACE | UTF8_MORE, LIT("\xFFz\xC3"), LIT("\xC3\xBFz\xC3\x83"), OK_ALL(3) },
    { "cp1252_to_utf8, REPLACE and MORE, a last E2 82", cp1252_to_utf8, utf8_length_from_cp1252,
      UTF8_REPLACE | UTF8_MORE, LIT("\x80\xE2\x82"),
      LIT("\xE2\x82\xAC\xC3\xA2\xE2\x80\x9A"), OK_ALL(3) },
};

static void test_cases(void)
{
    for (size_t i = 0; i < COUNT(cases); i++) {
        const struct latin1_case *c = &cases[i];
        char *in = dup_exact(c->in, c->in_len);
        char out[64];
        memset(out, SENTINEL_BYTE, sizeof out);
        utf8_result r = c->convert(in, c->in_len, out, sizeof out, c->flags);
        CHECK_STATUS(r.status, c->status, c->what);
        CHECK_SIZE("read", r.read, c->read, c->what);
        CHECK_OUT(out, r.written, c->out, c->out_len, c->what);
        CHECK(untouched(out + r.written, sizeof out - r.written), "%s: wrote past its output",
              c->what);
        if (c->length != NULL)
            CHECK_SIZE("length", c->length(in, c->in_len), c->out_len, c->what);
        free(in);
    }
}

/* Each byte alone, against the mappings written again here from ISO-8859-1 and the WHATWG
 * index-windows-1252. */
static const uint16_t windows_1252_80_9f[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

static size_t utf8_of(uint32_t cp, char *out)
{
    size_t n = 0;
    CHECK(utf8_encode(cp, out, UTF8_MAX_BYTES, &n) == UTF8_OK, "utf8_encode(U+%04lX)",
          (unsigned long)cp);
    return n;
}

static void test_every_byte(void)
{
    struct group g;
    GROUP_BEGIN(&g, "every byte through the three converters");
    for (unsigned b = 0; b < 256; b++) {
        char in = (char)b, want[4], out[4], back[1];
        uint32_t cp1252 = b >= 0x80 && b < 0xA0 ? windows_1252_80_9f[b - 0x80] : b;
        size_t n = utf8_of(b, want);
        utf8_result r = latin1_to_utf8(&in, 1, out, sizeof out, 0);
        g.inputs++;
        if (r.status != UTF8_OK || r.written != n || memcmp(out, want, n) != 0 ||
            utf8_length_from_latin1(&in, 1) != n)
            group_fail(&g, "latin1_to_utf8 %02X: %s, %s", b, sname(r.status), hex(out, r.written));
        r = utf8_to_latin1(want, n, back, sizeof back, 0);
        if (r.status != UTF8_OK || r.written != 1 || back[0] != in)
            group_fail(&g, "utf8_to_latin1 of U+%04X: %s", b, sname(r.status));
        n = utf8_of(cp1252, want);
        r = cp1252_to_utf8(&in, 1, out, sizeof out, 0);
        if (r.status != UTF8_OK || r.written != n || memcmp(out, want, n) != 0 ||
            utf8_length_from_cp1252(&in, 1) != n)
            group_fail(&g, "cp1252_to_utf8 %02X: %s, %s", b, sname(r.status), hex(out, r.written));
    }
    group_end(&g);
}

/* A full output at every capacity: the conversion stops before the character that does not
 * fit, and resuming from `read` gives the whole output. */
static void test_full_outputs(void)
{
    static const char in[] = "\x80x\xE9\x9D\x93\xFF!";
    const size_t len = sizeof in - 1;
    /* WHATWG's index-windows-1252 (Python's cp1252 but for 9D, which it leaves undefined):
     * U+20AC, x, U+00E9, U+009D, U+201C, U+00FF, ! */
    static const char whole[] = "\xE2\x82\xAC" "x" "\xC3\xA9" "\xC2\x9D" "\xE2\x80\x9C"
                                "\xC3\xBF" "!";
    const size_t need = sizeof whole - 1;
    CHECK(utf8_length_from_cp1252(in, len) == need, "utf8_length_from_cp1252 of %s", hex(in, len));
    utf8_result r;
    for (size_t cap = 0; cap <= need; cap++) {
        char out[32];
        size_t read = 0, written = 0, this_cap = cap;
        int rounds = 0;
        for (;;) {
            r = cp1252_to_utf8(in + read, len - read, out + written, this_cap, 0);
            read += r.read;
            written += r.written;
            if (r.status != UTF8_ERR_BUFFER_TOO_SMALL || ++rounds > 20)
                break;
            this_cap = r.written == 0 ? this_cap + 1 : cap;
        }
        CHECK(r.status == UTF8_OK && read == len, "cap %zu: %s at %zu", cap, sname(r.status), read);
        CHECK_OUT(out, written, whole, need, "resumed");
    }
    /* Into Latin-1: one byte per character, so capacity 2 stops at the third. */
    char out[2];
    r = utf8_to_latin1(LIT("\xC3\xA9\xC3\xA8\xC3\xA0"), out, sizeof out, 0);
    CHECK(r.status == UTF8_ERR_BUFFER_TOO_SMALL && r.read == 4 && r.written == 2,
          "utf8_to_latin1 into 2 bytes: %s, read %zu", sname(r.status), r.read);
}

static void test_arguments(void)
{
    char out[4];
    utf8_result r = utf8_to_latin1(LIT("a"), out, sizeof out, UTF8_WTF8);
    CHECK(r.status == UTF8_ERR_INVALID_ARGUMENT && r.read == 0 && r.written == 0,
          "utf8_to_latin1 with UTF8_WTF8: %s", sname(r.status));
    r = latin1_to_utf8(LIT("a"), out, sizeof out, 8);
    CHECK(r.status == UTF8_ERR_INVALID_ARGUMENT, "latin1_to_utf8 with flag 8: %s",
          sname(r.status));
    /* The strategies have nothing to replace from Latin-1, nor a way to write into it. */
    static const uint32_t strategies[] = { UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
                                           UTF8_FALLBACK_CP1252 };
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        r = utf8_to_latin1(LIT("a\xE9" "b"), out, sizeof out, strategies[i]);
        CHECK(r.status == UTF8_ERR_UNSUPPORTED_STRATEGY && r.read == 0 && r.written == 0,
              "utf8_to_latin1 with strategy %u: %s", (unsigned)strategies[i], sname(r.status));
        r = latin1_to_utf8(LIT("a"), out, sizeof out, strategies[i]);
        CHECK(r.status == UTF8_ERR_UNSUPPORTED_STRATEGY, "latin1_to_utf8 with strategy %u: %s",
              (unsigned)strategies[i], sname(r.status));
        r = cp1252_to_utf8(LIT("a"), out, sizeof out, strategies[i] | UTF8_REPLACE);
        CHECK(r.status == UTF8_ERR_UNSUPPORTED_STRATEGY, "cp1252_to_utf8 with strategy %u: %s",
              (unsigned)strategies[i], sname(r.status));
    }
    r = cp1252_to_utf8(NULL, 1, out, sizeof out, 0);
    CHECK(r.status == UTF8_ERR_NULL_POINTER, "cp1252_to_utf8(NULL, 1): %s", sname(r.status));
    r = latin1_to_utf8(LIT("a"), NULL, 1, 0);
    CHECK(r.status == UTF8_ERR_NULL_POINTER, "latin1_to_utf8 into NULL: %s", sname(r.status));
    r = cp1252_to_utf8(NULL, 0, NULL, 0, UTF8_REPLACE | UTF8_MORE);
    CHECK(r.status == UTF8_OK && r.read == 0 && r.written == 0, "empty: %s", sname(r.status));
    CHECK(utf8_length_from_latin1(NULL, 5) == 0 && utf8_length_from_cp1252(NULL, 5) == 0 &&
              latin1_length_from_utf8(NULL, 5) == 0,
          "the length functions of (NULL, 5) are 0");
    CHECK(strcmp(utf8_status_str(UTF8_ERR_UNREPRESENTABLE), "unknown status") != 0,
          "UTF8_ERR_UNREPRESENTABLE has a description");
}

/* libutf8(3)'s fallback: UTF-8 when it validates, else all of it read as Windows-1252. */
static void read_text(const char *in, size_t len, char *out, size_t cap, size_t *out_len)
{
    size_t good;
    if (utf8_validate(in, len, &good) == UTF8_OK) {
        memcpy(out, in, len);
        *out_len = len;
    } else {
        utf8_result r = cp1252_to_utf8(in, len, out, cap, 0);
        *out_len = r.status == UTF8_OK ? r.written : 0;
    }
}

static void test_fallback(void)
{
    char out[32];
    size_t n;
    read_text(LIT("na\xC3\xAFve \xE2\x82\xAC"), out, sizeof out, &n);
    CHECK_OUT(out, n, "na\xC3\xAFve \xE2\x82\xAC", 10, "UTF-8 is kept");
    read_text(LIT("na\xEFve \x80"), out, sizeof out, &n);
    CHECK_OUT(out, n, "na\xC3\xAFve \xE2\x82\xAC", 10, "Windows-1252 is converted");
}

void test_latin1(void)
{
    test_cases();
    test_every_byte();
    test_full_outputs();
    test_arguments();
    test_fallback();
}
