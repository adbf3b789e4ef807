/*
 * api_detect.c: encoding detection (since 1.3) from C: utf8_detect_bom and
 * utf8_detect_encodings on the byte-order-mark examples of RFC 3629 section 7 and RFC 2781
 * section 3.3, the marks of the Unicode FAQ on byte-order marks, and bad arguments. Each
 * expected set was worked out by hand from the rules in libutf8(3): UTF-8 by RFC 3629, UTF-16
 * an even length and no unpaired surrogate, UTF-32 a multiple of 4 bytes of scalar values.
 */

#include "api.h"

#include <stdio.h>
#include <stdlib.h>

#define U8 UTF8_ENCODING_UTF8
#define U16LE UTF8_ENCODING_UTF16LE
#define U16BE UTF8_ENCODING_UTF16BE
#define U32LE UTF8_ENCODING_UTF32LE
#define U32BE UTF8_ENCODING_UTF32BE

struct detect_case {
    const char *what;
    const char *bytes;
    size_t len;
    utf8_encoding bom; /* the mark the input starts with */
    size_t bom_len;
    uint32_t whole; /* the encodings all of it is valid in, the mark included */
    uint32_t text;  /* those of the text after the mark */
};

static const struct detect_case cases[] = {
    /* RFC 3629 section 7: U+233B4 after a UTF-8 BOM. The text alone, F0 A3 8E B4, is also
     * UTF-16 in both orders (A3F0 B48E, F0A3 8EB4: no surrogate); as UTF-32 it is above
     * 0x10FFFF either way. */
    { "RFC 3629 section 7, BOM and U+233B4", LIT("\xEF\xBB\xBF\xF0\xA3\x8E\xB4"), U8, 3, U8,
      U8 | U16LE | U16BE },
    /* RFC 2781 section 3.3: U+12345 (D808 DF45) after a BOM, big-endian and little-endian.
     * Read in the other order the units are FFFE 08D8 45DF: no surrogate, valid too. Six
     * bytes are no UTF-32; FE and FF are no UTF-8; D8 08 is a cut UTF-8 sequence. */
    { "RFC 2781 section 3.3, UTF-16BE with BOM", LIT("\xFE\xFF\xD8\x08\xDF\x45"), U16BE, 2,
      U16LE | U16BE, U16LE | U16BE },
    { "RFC 2781 section 3.3, UTF-16LE with BOM", LIT("\xFF\xFE\x08\xD8\x45\xDF"), U16LE, 2,
      U16LE | U16BE, U16LE | U16BE },
    /* The Unicode FAQ's UTF-32 marks, before U+12345. Read little-endian, 00 00 FE FF is
     * 0xFFFE0000, above 0x10FFFF; as UTF-16 the units have no surrogate in either order; the
     * text after the mark is four ASCII bytes, UTF-8 too. */
    { "UTF-32BE BOM and U+12345", LIT("\x00\x00\xFE\xFF\x00\x01\x23\x45"), U32BE, 4,
      U32BE | U16LE | U16BE, U32BE | U16LE | U16BE | U8 },
    { "UTF-32LE BOM and U+12345", LIT("\xFF\xFE\x00\x00\x45\x23\x01\x00"), U32LE, 4,
      U32LE | U16LE | U16BE, U32LE | U16LE | U16BE | U8 },
    /* The marks alone: each is U+FEFF in its own encoding. FF FE 00 00 is UTF-32LE's mark,
     * not UTF-16LE's followed by U+0000 (though it is that too, as UTF-16LE). */
    { "UTF-8 BOM", LIT("\xEF\xBB\xBF"), U8, 3, U8, 0x1F },
    { "UTF-16LE BOM", LIT("\xFF\xFE"), U16LE, 2, U16LE | U16BE, 0x1F },
    { "UTF-16BE BOM", LIT("\xFE\xFF"), U16BE, 2, U16LE | U16BE, 0x1F },
    { "UTF-32LE BOM", LIT("\xFF\xFE\x00\x00"), U32LE, 4, U32LE | U16LE | U16BE, 0x1F },
    { "UTF-32BE BOM", LIT("\x00\x00\xFE\xFF"), U32BE, 4, U32BE | U16LE | U16BE, 0x1F },
    /* Parts of marks are none; FF FE 00 starts with UTF-16LE's. */
    { "EF BB", LIT("\xEF\xBB"), UTF8_ENCODING_NONE, 0, U16LE | U16BE, U16LE | U16BE },
    { "FF", LIT("\xFF"), UTF8_ENCODING_NONE, 0, 0, 0 },
    { "FF FE 00", LIT("\xFF\xFE\x00"), U16LE, 2, 0, U8 },
    { "00 00 FE", LIT("\x00\x00\xFE"), UTF8_ENCODING_NONE, 0, 0, 0 },
    /* No mark: ASCII of an even length is UTF-8 and UTF-16 alike (no guessing); four NULs are
     * valid in all five; 00 00 11 00 is 0x110000 little-endian, 0x1100 big-endian. */
    { "ab", LIT("ab"), UTF8_ENCODING_NONE, 0, U8 | U16LE | U16BE, U8 | U16LE | U16BE },
    { "abcd", LIT("abcd"), UTF8_ENCODING_NONE, 0, U8 | U16LE | U16BE, U8 | U16LE | U16BE },
    { "four NULs", LIT("\x00\x00\x00\x00"), UTF8_ENCODING_NONE, 0, 0x1F, 0x1F },
    { "00 00 11 00", LIT("\x00\x00\x11\x00"), UTF8_ENCODING_NONE, 0, U8 | U16LE | U16BE | U32BE,
      U8 | U16LE | U16BE | U32BE },
    /* A lone high surrogate D800 little-endian (00D8 big-endian); a pair in the wrong order
     * (00DC 00D8 little-endian; 0x00D800DC, above 0x10FFFF, as UTF-32LE). */
    { "lone D800 (LE)", LIT("\x00\xD8"), UTF8_ENCODING_NONE, 0, U16BE, U16BE },
    { "DC00 D800 (BE)", LIT("\xDC\x00\xD8\x00"), UTF8_ENCODING_NONE, 0, U16LE, U16LE },
};

void test_detect(void)
{
    char ctx[96];
    size_t i;

    for (i = 0; i < COUNT(cases); i++) {
        const struct detect_case *c = &cases[i];
        char *s = dup_exact(c->bytes, c->len);
        size_t bom_len = 99;
        utf8_encoding bom = utf8_detect_bom(s, c->len, &bom_len);

        snprintf(ctx, sizeof ctx, "%s", c->what);
        CHECK(bom == c->bom, "utf8_detect_bom: got %d, want %d (%s)", (int)bom, (int)c->bom,
              ctx);
        CHECK_SIZE("utf8_detect_bom's length", bom_len, c->bom_len, ctx);
        CHECK(utf8_detect_encodings(s, c->len) == c->whole,
              "utf8_detect_encodings: got %#x, want %#x (%s)",
              (unsigned)utf8_detect_encodings(s, c->len), (unsigned)c->whole, ctx);
        CHECK(utf8_detect_encodings(s + bom_len, c->len - bom_len) == c->text,
              "utf8_detect_encodings after the mark: got %#x, want %#x (%s)",
              (unsigned)utf8_detect_encodings(s + bom_len, c->len - bom_len), (unsigned)c->text,
              ctx);
        /* A NULL bom_len is not written. */
        CHECK(utf8_detect_bom(s, c->len, NULL) == c->bom, "utf8_detect_bom, NULL bom_len (%s)",
              ctx);
        free(s);
    }
    /* The values are simdutf's encoding_type bits. */
    CHECK(UTF8_ENCODING_NONE == 0 && U8 == 1 && U16LE == 2 && U16BE == 4 && U32LE == 8 &&
              U32BE == 16,
          "utf8_encoding's values");
    /* The empty input: valid in all five, no mark; NULL with a length: nothing. */
    {
        size_t bom_len = 99;
        CHECK(utf8_detect_encodings(NULL, 0) == 0x1F, "utf8_detect_encodings(NULL, 0)");
        CHECK(utf8_detect_encodings("", 0) == 0x1F, "utf8_detect_encodings(\"\", 0)");
        CHECK(utf8_detect_encodings(NULL, 4) == 0, "utf8_detect_encodings(NULL, 4)");
        CHECK(utf8_detect_bom(NULL, 0, &bom_len) == UTF8_ENCODING_NONE && bom_len == 0,
              "utf8_detect_bom(NULL, 0)");
        bom_len = 99;
        CHECK(utf8_detect_bom(NULL, 4, &bom_len) == UTF8_ENCODING_NONE && bom_len == 99,
              "utf8_detect_bom(NULL, 4): NONE, bom_len not written");
    }
}
