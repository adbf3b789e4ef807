/*
 * api_strategies.c: the replacement strategies (since 1.3) from C: UTF8_SURROGATEESCAPE,
 * UTF8_FALLBACK_LATIN1 and UTF8_FALLBACK_CP1252 in the converters, the escapes back into
 * UTF-8, utf8_replace_invalid_flags and the _flags length functions. The expected units and
 * bytes come from Python's codecs, the expression beside each: 'surrogateescape' itself, and
 * for the fallbacks a handler mapping each byte of the error range, registered as
 *   codecs.register_error('l1', lambda e: (e.object[e.start:e.end].decode('latin-1'), e.end))
 *   codecs.register_error('cp', lambda e: (''.join(cp1252(b) for b in e.object[e.start:e.end]),
 *                                          e.end))
 * where cp1252(b) is bytes([b]).decode('cp1252'), or chr(b) for WHATWG's five C1 controls.
 */

#include "api.h"

#include <stdlib.h>
#include <string.h>

#define ESC UTF8_SURROGATEESCAPE

/* b'a\xffb\xe2\x82\xf0\x9f\x98\x80\xed\xa0\x80': an invalid byte, a cut sequence, an emoji,
 * an encoded surrogate. */
static const char mixed[] = "a\xFF" "b\xE2\x82\xF0\x9F\x98\x80\xED\xA0\x80";
/* list(b.decode('utf-8', 'surrogateescape').encode('utf-16-le', 'surrogatepass')) as units */
static const uint16_t mixed_escaped16[] = { 0x0061, 0xDCFF, 0x0062, 0xDCE2, 0xDC82,
                                            0xD83D, 0xDE00, 0xDCED, 0xDCA0, 0xDC80 };
/* [ord(c) for c in b.decode('utf-8', 'surrogateescape')] */
static const uint32_t mixed_escaped32[] = { 0x0061, 0xDCFF, 0x0062, 0xDCE2, 0xDC82,
                                            0x1F600, 0xDCED, 0xDCA0, 0xDC80 };

/* b'caf\xe9 \x80\xc3\xa9': Latin-1 among UTF-8. */
static const char stray[] = "caf\xE9 \x80\xC3\xA9";
/* b.decode('utf-8', 'l1') as UTF-16 units */
static const uint16_t stray_latin1_16[] = { 0x63, 0x61, 0x66, 0xE9, 0x20, 0x80, 0xE9 };
/* b.decode('utf-8', 'l1').encode('utf-8') */
static const char stray_latin1_8[] = "caf\xC3\xA9 \xC2\x80\xC3\xA9";
/* b.decode('utf-8', 'cp').encode('utf-8') */
static const char stray_cp1252_8[] = "caf\xC3\xA9 \xE2\x82\xAC\xC3\xA9";

/* b'\x80\x81\x9f\xe2\x82': the euro sign, a WHATWG C1 control, Y diaeresis, a cut sequence. */
static const char c1[] = "\x80\x81\x9F\xE2\x82";
/* [ord(c) for c in b.decode('utf-8', 'cp')] */
static const uint32_t c1_cp1252_32[] = { 0x20AC, 0x0081, 0x0178, 0x00E2, 0x201A };

static void check_units16(const uint16_t *got, size_t n, const uint16_t *want, size_t want_n,
                          const char *what)
{
    int same = n == want_n;
    for (size_t i = 0; same && i < n; i++)
        same = got[i] == want[i];
    CHECK(same, "%s: %zu units, want %zu", what, n, want_n);
}

static void check_units32(const uint32_t *got, size_t n, const uint32_t *want, size_t want_n,
                          const char *what)
{
    int same = n == want_n;
    for (size_t i = 0; same && i < n; i++)
        same = got[i] == want[i];
    CHECK(same, "%s: %zu units, want %zu", what, n, want_n);
}

static void test_escapes(void)
{
    const size_t len = sizeof mixed - 1;
    uint16_t out16[16];
    uint32_t out32[16];
    char back[16];
    utf8_result r = utf8_to_utf16(mixed, len, out16, COUNT(out16), ESC);
    CHECK(r.status == UTF8_OK && r.read == len, "utf8_to_utf16, ESC: %s", sname(r.status));
    check_units16(out16, r.written, mixed_escaped16, COUNT(mixed_escaped16), "escaped UTF-16");
    CHECK_SIZE("length", utf16_length_from_utf8_flags(mixed, len, ESC), COUNT(mixed_escaped16),
               "utf16_length_from_utf8_flags, ESC");
    /* UTF8_REPLACE beside it changes nothing. */
    r = utf8_to_utf16(mixed, len, out16, COUNT(out16), ESC | UTF8_REPLACE);
    check_units16(out16, r.written, mixed_escaped16, COUNT(mixed_escaped16), "ESC | REPLACE");
    r = utf8_to_utf32(mixed, len, out32, COUNT(out32), ESC);
    CHECK(r.status == UTF8_OK && r.read == len, "utf8_to_utf32, ESC: %s", sname(r.status));
    check_units32(out32, r.written, mixed_escaped32, COUNT(mixed_escaped32), "escaped UTF-32");
    CHECK_SIZE("length", utf32_length_from_utf8_flags(mixed, len, ESC), COUNT(mixed_escaped32),
               "utf32_length_from_utf8_flags, ESC");

    /* And back: the bytes themselves. */
    r = utf16_to_utf8(mixed_escaped16, COUNT(mixed_escaped16), back, sizeof back, ESC);
    CHECK(r.status == UTF8_OK, "utf16_to_utf8, ESC: %s", sname(r.status));
    CHECK_OUT(back, r.written, mixed, len, "UTF-16 round trip");
    CHECK_SIZE("length", utf8_length_from_utf16_flags(mixed_escaped16, COUNT(mixed_escaped16), ESC),
               len, "utf8_length_from_utf16_flags, ESC");
    r = utf32_to_utf8(mixed_escaped32, COUNT(mixed_escaped32), back, sizeof back, ESC);
    CHECK(r.status == UTF8_OK, "utf32_to_utf8, ESC: %s", sname(r.status));
    CHECK_OUT(back, r.written, mixed, len, "UTF-32 round trip");
    CHECK_SIZE("length", utf8_length_from_utf32_flags(mixed_escaped32, COUNT(mixed_escaped32), ESC),
               len, "utf8_length_from_utf32_flags, ESC");

    /* Without the flag, an escape is a lone surrogate: an error, or U+FFFD. */
    r = utf16_to_utf8(mixed_escaped16, COUNT(mixed_escaped16), back, sizeof back, 0);
    CHECK(r.status == UTF8_ERR_SURROGATE && r.read == 1, "utf16_to_utf8 without ESC: %s",
          sname(r.status));
    /* Any other lone surrogate stays an error with the flag: U+DC7F is no escape.
     * '\udc7f'.encode('utf-8', 'surrogateescape') raises; with 'replace' it is b'?', and
     * libutf8 writes U+FFFD as for any lone surrogate. */
    static const uint16_t not_escape[] = { 0x61, 0xDC7F, 0xDC80 };
    r = utf16_to_utf8(not_escape, COUNT(not_escape), back, sizeof back, ESC);
    CHECK(r.status == UTF8_ERR_SURROGATE && r.read == 1 && r.written == 1,
          "U+DC7F with ESC: %s at %zu", sname(r.status), r.read);
    r = utf16_to_utf8(not_escape, COUNT(not_escape), back, sizeof back, ESC | UTF8_REPLACE);
    CHECK_OUT(back, r.written, "a\xEF\xBF\xBD\x80", 5, "U+DC7F with ESC | REPLACE");
}

static void test_fallbacks(void)
{
    const size_t len = sizeof stray - 1;
    uint16_t out16[16];
    uint32_t out32[16];
    char out[32];
    size_t n = 0;
    utf8_result r = utf8_to_utf16(stray, len, out16, COUNT(out16), UTF8_FALLBACK_LATIN1);
    CHECK(r.status == UTF8_OK && r.read == len, "utf8_to_utf16, LATIN1: %s", sname(r.status));
    check_units16(out16, r.written, stray_latin1_16, COUNT(stray_latin1_16), "Latin-1 fallback");
    CHECK_SIZE("length", utf16_length_from_utf8_flags(stray, len, UTF8_FALLBACK_LATIN1),
               COUNT(stray_latin1_16), "utf16_length_from_utf8_flags, LATIN1");

    r = utf8_to_utf32(LIT(c1), out32, COUNT(out32), UTF8_FALLBACK_CP1252);
    CHECK(r.status == UTF8_OK && r.read == 5, "utf8_to_utf32, CP1252: %s", sname(r.status));
    check_units32(out32, r.written, c1_cp1252_32, COUNT(c1_cp1252_32), "Windows-1252 fallback");
    CHECK_SIZE("length", utf32_length_from_utf8_flags(LIT(c1), UTF8_FALLBACK_CP1252),
               COUNT(c1_cp1252_32), "utf32_length_from_utf8_flags, CP1252");

    /* The lossy copy: a size query, then the copy. */
    utf8_status st = utf8_replace_invalid_flags(stray, len, NULL, 0, UTF8_FALLBACK_LATIN1, &n);
    CHECK(st == UTF8_ERR_BUFFER_TOO_SMALL && n == sizeof stray_latin1_8 - 1,
          "size query, LATIN1: %s, %zu", sname(st), n);
    st = utf8_replace_invalid_flags(stray, len, out, sizeof out, UTF8_FALLBACK_LATIN1, &n);
    CHECK_STATUS(st, UTF8_OK, "utf8_replace_invalid_flags, LATIN1");
    CHECK_OUT(out, n, stray_latin1_8, sizeof stray_latin1_8 - 1, "Latin-1 repair");
    st = utf8_replace_invalid_flags(stray, len, out, sizeof out, UTF8_FALLBACK_CP1252, &n);
    CHECK_STATUS(st, UTF8_OK, "utf8_replace_invalid_flags, CP1252");
    CHECK_OUT(out, n, stray_cp1252_8, sizeof stray_cp1252_8 - 1, "Windows-1252 repair");
    /* flags 0: utf8_replace_invalid. b.decode('utf-8', 'replace').encode('utf-8') */
    st = utf8_replace_invalid_flags(stray, len, out, sizeof out, 0, &n);
    CHECK_STATUS(st, UTF8_OK, "utf8_replace_invalid_flags, 0");
    CHECK_OUT(out, n, "caf\xEF\xBF\xBD \xEF\xBF\xBD\xC3\xA9", 12, "U+FFFD repair");
}

static void test_streams_and_room(void)
{
    uint16_t out16[8];
    /* UTF8_MORE holds back a cut sequence, which a strategy would otherwise escape. */
    utf8_result r = utf8_to_utf16(LIT("ab\xE2\x82"), out16, COUNT(out16), ESC | UTF8_MORE);
    CHECK(r.status == UTF8_ERR_TRUNCATED && r.read == 2 && r.written == 2,
          "ESC | MORE: %s, read %zu", sname(r.status), r.read);
    /* An output too short for all the units of an error stops before it. */
    r = utf8_to_utf16(LIT("a\xE2\x82"), out16, 2, ESC);
    CHECK(r.status == UTF8_ERR_BUFFER_TOO_SMALL && r.read == 1 && r.written == 1,
          "ESC into 2 units: %s, read %zu", sname(r.status), r.read);
    r = utf8_to_utf16(LIT("a\xE2\x82"), out16, 3, ESC);
    CHECK(r.status == UTF8_OK && r.read == 3 && r.written == 3, "ESC into 3 units: %s",
          sname(r.status));
}

static void test_refused(void)
{
    uint16_t out16[8];
    uint32_t out32[8];
    char out[8];
    size_t n = 99;
    static const uint16_t u16[] = { 0x61 };
    static const uint32_t u32[] = { 0x61 };
    static const uint32_t two[] = { ESC | UTF8_FALLBACK_LATIN1, ESC | UTF8_FALLBACK_CP1252,
                                    UTF8_FALLBACK_LATIN1 | UTF8_FALLBACK_CP1252 };
    for (size_t i = 0; i < COUNT(two); i++) {
        utf8_result r = utf8_to_utf16(LIT("a"), out16, COUNT(out16), two[i]);
        CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "two strategies, utf8_to_utf16");
        r = utf8_to_utf32(LIT("a"), out32, COUNT(out32), two[i]);
        CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "two strategies, utf8_to_utf32");
        CHECK(utf16_length_from_utf8_flags(LIT("a"), two[i]) == 0 &&
                  utf32_length_from_utf8_flags(LIT("a"), two[i]) == 0,
              "the lengths of two strategies are 0");
    }
    utf8_result r = utf8_to_utf16(LIT("a"), out16, COUNT(out16), ESC | UTF8_WTF8);
    CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "ESC | WTF8, utf8_to_utf16");
    r = utf16_to_utf8(u16, 1, out, sizeof out, ESC | UTF8_WTF8);
    CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "ESC | WTF8, utf16_to_utf8");
    r = utf8_to_utf16(LIT("a"), out16, COUNT(out16), UTF8_FALLBACK_LATIN1 | UTF8_WTF8);
    CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "LATIN1 | WTF8, utf8_to_utf16");
    /* The UTF-32 converters do not take UTF8_WTF8: an unknown flag, with a strategy or not. */
    r = utf8_to_utf32(LIT("a"), out32, COUNT(out32), ESC | UTF8_WTF8);
    CHECK_STATUS(r.status, UTF8_ERR_INVALID_ARGUMENT, "ESC | WTF8, utf8_to_utf32");
    r = utf32_to_utf8(u32, 1, out, sizeof out, ESC | UTF8_WTF8);
    CHECK_STATUS(r.status, UTF8_ERR_INVALID_ARGUMENT, "ESC | WTF8, utf32_to_utf8");
    r = utf16_to_utf8(u16, 1, out, sizeof out, UTF8_FALLBACK_LATIN1);
    CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "a fallback into UTF-8, from UTF-16");
    r = utf32_to_utf8(u32, 1, out, sizeof out, UTF8_FALLBACK_CP1252);
    CHECK_STATUS(r.status, UTF8_ERR_UNSUPPORTED_STRATEGY, "a fallback into UTF-8, from UTF-32");
    CHECK(utf8_length_from_utf16_flags(u16, 1, UTF8_FALLBACK_LATIN1) == 0 &&
              utf8_length_from_utf32_flags(u32, 1, UTF8_FALLBACK_CP1252) == 0 &&
              utf16_length_from_utf8_flags(LIT("a"), ESC | UTF8_WTF8) == 0,
          "the lengths of refused flags are 0");
    utf8_status st = utf8_replace_invalid_flags(LIT("a\xFF"), out, sizeof out, ESC, &n);
    CHECK(st == UTF8_ERR_UNSUPPORTED_STRATEGY && n == 99,
          "utf8_replace_invalid_flags, ESC: %s, out_len %zu", sname(st), n);
    st = utf8_replace_invalid_flags(NULL, 1, out, sizeof out, 0, &n);
    CHECK_STATUS(st, UTF8_ERR_NULL_POINTER, "utf8_replace_invalid_flags(NULL, 1)");
    CHECK(utf16_length_from_utf8_flags(NULL, 3, ESC) == 0 &&
              utf8_length_from_utf16_flags(NULL, 3, ESC) == 0,
          "the lengths of (NULL, 3) are 0");
    /* Without a strategy, the lengths are the old functions'. */
    CHECK(utf16_length_from_utf8_flags(LIT("a\xE2\x82"), 0) == utf16_length_from_utf8(LIT("a\xE2\x82")) &&
              utf16_length_from_utf8_flags(LIT("a\xE2\x82"), ESC) == 3,
          "utf16_length_from_utf8_flags of a cut sequence");
}

void test_strategies(void)
{
    test_escapes();
    test_fallbacks();
    test_streams_and_room();
    test_refused();
}
