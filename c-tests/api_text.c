/*
 * api_text.c: the text functions (since 1.2) from C: character boundaries (utf8_char_start,
 * utf8_truncate), streaming validation, and utf8_escape, utf8_unescape and
 * utf8_replace_invalid with every size of buffer and every bad argument.
 */

#include "api.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Character boundaries (since 1.2): utf8_char_start, utf8_truncate                               */
/* ---------------------------------------------------------------------------------------------- */

void test_char_boundaries(void)
{
    /* RFC 3629 section 7, "A<NOT IDENTICAL TO><ALPHA>.": characters start at 0, 1, 4 and 6. */
    static const char text[] = "\x41\xE2\x89\xA2\xCE\x91\x2E";
    static const size_t text_start[] = { 0, 1, 1, 1, 4, 4, 6 }; /* of the one holding byte i */
    /* Unicode ch. 3, table 3-9: C0 is a maximal subpart alone, so AF is a character of its own;
     * then 'A', and the input ends inside U+2262 (E2 89): E2 89 is one character. */
    static const char bad[] = "\xC0\xAF\x41\xE2\x89";
    static const size_t bad_start[] = { 0, 1, 2, 3, 3 };
    char *s = dup_exact(LIT(text)), *b = dup_exact(LIT(bad));
    char ctx[96];
    size_t i;

    for (i = 0; i < COUNT(text_start); i++) {
        snprintf(ctx, sizeof ctx, "RFC 3629 section 7, A<NOT IDENTICAL TO><ALPHA>., index %lu",
                 (unsigned long)i);
        CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, i), text_start[i], ctx);
        CHECK_SIZE("utf8_truncate", utf8_truncate(s, 7, i), text_start[i], ctx);
    }
    for (i = 0; i < COUNT(bad_start); i++) {
        snprintf(ctx, sizeof ctx, "[C0 AF 41 E2 89], index %lu", (unsigned long)i);
        CHECK_SIZE("utf8_char_start", utf8_char_start(b, 5, i), bad_start[i], ctx);
        CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, i), bad_start[i], ctx);
    }
    /* i >= len gives len; max >= len gives len, even when the buffer ends inside a character. */
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, 7), 7, "char_start(text, 7, 7)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 7, SIZE_MAX), 7, "char_start(text, 7, MAX)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(s, 7, 8), 7, "truncate(text, 7, 8)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, 5), 5, "truncate([C0 AF 41 E2 89], 5, 5)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(b, 5, SIZE_MAX), 5, "truncate([...], 5, MAX)");
    /* 0 for (NULL, any); a real pointer with length 0 is the empty buffer. */
    CHECK_SIZE("utf8_char_start", utf8_char_start(NULL, 0, 0), 0, "char_start(NULL, 0, 0)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(NULL, 7, 3), 0, "char_start(NULL, 7, 3)");
    CHECK_SIZE("utf8_char_start", utf8_char_start(s, 0, 3), 0, "char_start(text, 0, 3)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 0, 0), 0, "truncate(NULL, 0, 0)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 7, 3), 0, "truncate(NULL, 7, 3)");
    CHECK_SIZE("utf8_truncate", utf8_truncate(NULL, 7, 9), 0, "truncate(NULL, 7, 9)");
    free(s);
    free(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Streaming validation (since 1.2): utf8_stream_init, utf8_stream_feed, utf8_stream_finish       */
/* ---------------------------------------------------------------------------------------------- */

/* Feeds a chunk from an exact-size heap copy; checks the status and *valid_up_to. */
static void expect_feed_at(int line, utf8_stream *st, const char *chunk, size_t len,
                           utf8_status want, size_t want_up_to, const char *ctx)
{
    char *c = dup_exact(chunk, len);
    size_t n = 12345;

    check_status_at(__FILE__, line, utf8_stream_feed(st, c, len, &n), want, ctx);
    check_size_at(__FILE__, line, "valid_up_to", n, want_up_to, ctx);
    free(c);
}

static void expect_finish_at(int line, utf8_stream *st, utf8_status want, size_t want_up_to,
                             const char *ctx)
{
    size_t n = 12345;

    check_status_at(__FILE__, line, utf8_stream_finish(st, &n), want, ctx);
    check_size_at(__FILE__, line, "valid_up_to", n, want_up_to, ctx);
}

#define EXPECT_FEED(st, lit, want, up_to, ctx)                                                     \
    expect_feed_at(__LINE__, (st), LIT(lit), UTF8_##want, (up_to), (ctx))
#define EXPECT_FINISH(st, want, up_to, ctx)                                                        \
    expect_finish_at(__LINE__, (st), UTF8_##want, (up_to), (ctx))

void test_stream(void)
{
    static const char *const split = "RFC 3629 section 7, BOM then U+233B4 split in two chunks";
    static const char *const f4 = "header: a chunk ending in F4, then one starting with 90";
    utf8_stream st, copy, zeroed;
    size_t n;

    /* EF BB BF | F0 A3 ... 8E B4: the pending character is not an error until proven one. */
    utf8_stream_init(&st);
    EXPECT_FEED(&st, "\xEF\xBB\xBF\xF0\xA3", OK, 3, split);
    copy = st; /* copying the struct copies the stream */
    EXPECT_FEED(&st, "\x8E\xB4", OK, 7, split);
    EXPECT_FINISH(&st, OK, 7, split);
    EXPECT_FINISH(&st, OK, 7, "after UTF8_OK the stream is unchanged");
    /* The copy ends inside U+233B4: TRUNCATED at its offset, kept like any other error. */
    EXPECT_FINISH(&copy, ERR_TRUNCATED, 3, "the copy, ended inside U+233B4");
    EXPECT_FEED(&copy, "\x8E\xB4", ERR_TRUNCATED, 3, "the copy, fed after its TRUNCATED error");

    /* A zero-filled struct is a stream at its start; the error is reported at the F4. */
    memset(&zeroed, 0, sizeof zeroed);
    EXPECT_FEED(&zeroed, "A\xF4", OK, 1, f4);
    EXPECT_FEED(&zeroed, "\x90", ERR_TOO_LARGE, 1, f4);
    EXPECT_FEED(&zeroed, "B", ERR_TOO_LARGE, 1, "every call after an error returns it again");
    EXPECT_FINISH(&zeroed, ERR_TOO_LARGE, 1, "finish after an error returns it again");
    utf8_stream_init(&zeroed);
    EXPECT_FEED(&zeroed, "B", OK, 1, "utf8_stream_init starts over");

    /* A NULL state: NULL_POINTER, valid_up_to untouched; utf8_stream_init(NULL) does nothing. */
    utf8_stream_init(NULL);
    n = 12345;
    CHECK_STATUS(utf8_stream_feed(NULL, "A", 1, &n), UTF8_ERR_NULL_POINTER, "stream_feed(NULL st)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL st)");
    CHECK_STATUS(utf8_stream_feed(NULL, NULL, 0, &n), UTF8_ERR_NULL_POINTER,
                 "stream_feed(NULL st, (NULL, 0))");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL st, (NULL, 0))");
    CHECK_STATUS(utf8_stream_finish(NULL, &n), UTF8_ERR_NULL_POINTER, "stream_finish(NULL st)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_finish(NULL st)");

    /* A NULL chunk with len > 0 changes nothing; (NULL, 0) is an empty chunk; NULL valid_up_to. */
    utf8_stream_init(&st);
    EXPECT_FEED(&st, "\xEF\xBB\xBF\xF0\xA3", OK, 3, "before the NULL chunk");
    copy = st;
    n = 12345;
    CHECK_STATUS(utf8_stream_feed(&st, NULL, 2, &n), UTF8_ERR_NULL_POINTER, "stream_feed(NULL, 2)");
    CHECK_SIZE("valid_up_to (untouched)", n, 12345, "stream_feed(NULL, 2)");
    CHECK(memcmp(&st, &copy, sizeof st) == 0, "stream_feed(NULL, 2) changed the stream");
    CHECK_STATUS(utf8_stream_feed(&st, NULL, 0, &n), UTF8_OK, "stream_feed(NULL, 0)");
    CHECK_SIZE("valid_up_to", n, 3, "stream_feed(NULL, 0)");
    CHECK_STATUS(utf8_stream_feed(&st, "\x8E\xB4", 2, NULL), UTF8_OK,
                 "stream_feed, valid_up_to NULL");
    CHECK_STATUS(utf8_stream_finish(&st, NULL), UTF8_OK, "stream_finish, valid_up_to NULL");
    EXPECT_FINISH(&st, OK, 7, "stream_finish after calls with valid_up_to NULL");

    /* A state these functions never leave (all bits set): UTF8_ERR_INVALID_ARGUMENT. */
    memset(&st, 0xFF, sizeof st);
    CHECK_STATUS(utf8_stream_feed(&st, "A", 1, &n), UTF8_ERR_INVALID_ARGUMENT,
                 "stream_feed on a garbage state");
    CHECK_STATUS(utf8_stream_finish(&st, &n), UTF8_ERR_INVALID_ARGUMENT,
                 "stream_finish on a garbage state");
}

/* ---------------------------------------------------------------------------------------------- */
/* Text functions (since 1.2): utf8_escape, utf8_unescape, utf8_replace_invalid                  */
/* ---------------------------------------------------------------------------------------------- */

/* The functions with the (in, len, out, cap, out_len) signature, utf8_escape for each style. */
typedef utf8_status (*text_fn)(const char *in, size_t len, char *out, size_t cap, size_t *out_len);

static utf8_status escape_c(const char *in, size_t len, char *out, size_t cap, size_t *out_len)
{
    return utf8_escape(in, len, UTF8_ESCAPE_C, out, cap, out_len);
}

static utf8_status escape_shell(const char *in, size_t len, char *out, size_t cap, size_t *out_len)
{
    return utf8_escape(in, len, UTF8_ESCAPE_SHELL, out, cap, out_len);
}

static const struct {
    const char *name;
    text_fn fn;
} text_fns[] = {
    { "utf8_escape(UTF8_ESCAPE_C)", escape_c },
    { "utf8_escape(UTF8_ESCAPE_SHELL)", escape_shell },
    { "utf8_unescape", utf8_unescape },
    { "utf8_replace_invalid", utf8_replace_invalid },
};

/*
 * fn on the len bytes at in (an exact heap copy): on UTF8_OK, the want_len bytes at want, found
 * through the size query (NULL, 0), a buffer one byte short, an exact one, and out_len NULL; on
 * an error (UTF8_ERR_INVALID_ESCAPE), that status with *out_len == want_len, whatever the buffer.
 */
static void expect_text_at(int line, const char *name, text_fn fn, const char *input, size_t len,
                           utf8_status want_st, const char *want, size_t want_len)
{
    char ctx[160];
    char *in = dup_exact(input, len), *out;
    size_t n = 12345, cap = want_st == UTF8_OK ? want_len : len;

    snprintf(ctx, sizeof ctx, "%s [%s] (line %d)", name, hex(input, len), line);
    check_status_at(__FILE__, line, fn(in, len, NULL, 0, &n),
                    want_st == UTF8_OK && want_len > 0 ? UTF8_ERR_BUFFER_TOO_SMALL : want_st,
                    ctx);
    check_size_at(__FILE__, line, "out_len of the size query", n, want_len, ctx);
    if (want_st == UTF8_OK && want_len > 0) {
        out = sentinel_buffer(want_len - 1);
        n = 12345;
        check_status_at(__FILE__, line, fn(in, len, out, want_len - 1, &n),
                        UTF8_ERR_BUFFER_TOO_SMALL, ctx);
        check_size_at(__FILE__, line, "out_len, one byte short", n, want_len, ctx);
        free(out);
    }
    out = sentinel_buffer(cap);
    n = 12345;
    check_status_at(__FILE__, line, fn(in, len, out, cap, &n), want_st, ctx);
    if (want_st == UTF8_OK) {
        check_bytes_at(__FILE__, line, out, n, cap, want, want_len, ctx);
        memset(out, SENTINEL_BYTE, cap);
        check_status_at(__FILE__, line, fn(in, len, out, cap, NULL), want_st, ctx);
        check_bytes_at(__FILE__, line, out, want_len, cap, want, want_len, ctx);
    } else {
        check_size_at(__FILE__, line, "out_len", n, want_len, ctx);
    }
    free(out);
    free(in);
}

#define EXPECT_TEXT(fn, in, want)                                                                  \
    expect_text_at(__LINE__, #fn, (fn), LIT(in), UTF8_OK, LIT(want))
#define EXPECT_BAD_ESCAPE(in, offset)                                                              \
    expect_text_at(__LINE__, "utf8_unescape", utf8_unescape, LIT(in), UTF8_ERR_INVALID_ESCAPE,     \
                   NULL, (offset))

/*
 * UTF8_ESCAPE_C_MAX_LEN, UTF8_ESCAPE_SHELL_MAX_LEN and UTF8_ESCAPE_MAX_LEN against the worst
 * case the escapes of libutf8(3) allow (4 bytes per input byte; for the shell style 2 quotes
 * and 3 bytes per $'...' segment, at most one per two bytes), reached by ill-formed bytes (C)
 * and by 80 27 80 27 ... (shell), and never exceeded by inputs of the bytes both styles
 * escape, into a buffer of exactly the macro's size.
 */
static void test_escape_max_len(void)
{
    static const char pieces[] = "\x80'\x01\n\\\xC2\x85" "a $#{}\xE2\x80\xAE\xFF";
    uint64_t seed = 45;
    size_t len, i, n, want, bad_input;
    char in[64], *out;
    int style;

    for (style = UTF8_ESCAPE_C; style <= UTF8_ESCAPE_SHELL; style++) {
        for (len = 0; len < sizeof in; len++) {
            for (i = 0; i < len; i++)
                in[i] = style == UTF8_ESCAPE_SHELL && i % 2 == 1 ? '\'' : '\x80';
            want = style == UTF8_ESCAPE_C ? 4 * len : 2 + 4 * len + 3 * ((len + 1) / 2);
            CHECK(UTF8_ESCAPE_MAX_LEN((utf8_escape_style)style, len) == want,
                  "UTF8_ESCAPE_MAX_LEN(%d, %lu): %lu, want %lu", style, (unsigned long)len,
                  (unsigned long)UTF8_ESCAPE_MAX_LEN((utf8_escape_style)style, len),
                  (unsigned long)want);
            out = sentinel_buffer(want);
            n = 0;
            CHECK(utf8_escape(in, len, (utf8_escape_style)style, out, want, &n) == UTF8_OK &&
                      n == want,
                  "utf8_escape style %d of the worst input of %lu bytes: %lu bytes, want %lu",
                  style, (unsigned long)len, (unsigned long)n, (unsigned long)want);
            free(out);
        }
    }
    CHECK(UTF8_ESCAPE_C_MAX_LEN(10) == 40 && UTF8_ESCAPE_SHELL_MAX_LEN(0) == 2 &&
              UTF8_ESCAPE_SHELL_MAX_LEN(1) == 9 && UTF8_ESCAPE_SHELL_MAX_LEN(10) == 57 &&
              UTF8_ESCAPE_MAX_LEN(UTF8_ESCAPE_SHELL, 3) == 20,
          "the escape size macros on hand-counted lengths");
    /* Random inputs of those bytes, each style into a buffer of exactly its bound: one check
     * for all of them, which names the first input over it. */
    for (i = 0, bad_input = 0; i < 20000 && bad_input == 0; i++) {
        size_t k;

        seed = seed * 6364136223846793005u + 1442695040888963407u;
        len = (size_t)(seed >> 33) % sizeof in;
        for (k = 0; k < len; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            in[k] = pieces[(seed >> 33) % (sizeof pieces - 1)];
        }
        for (style = UTF8_ESCAPE_C; style <= UTF8_ESCAPE_SHELL && bad_input == 0; style++) {
            want = UTF8_ESCAPE_MAX_LEN((utf8_escape_style)style, len);
            out = sentinel_buffer(want);
            n = 0;
            if (utf8_escape(in, len, (utf8_escape_style)style, out, want, &n) != UTF8_OK ||
                n > want)
                bad_input = i + 1;
            free(out);
        }
    }
    CHECK(bad_input == 0, "utf8_escape of random input %lu: over UTF8_ESCAPE_MAX_LEN",
          (unsigned long)bad_input - 1);
}

void test_text(void)
{
    char out[16];
    size_t i, n;
    int bad;

    /*
     * UTF8_ESCAPE_C, as the header specifies it: 'a' unchanged; C0 AF (Unicode ch. 3, table 3-9:
     * two maximal subparts) byte by byte as \xHH in lower case; \ as \\; LF as \n; U+0085 (C1)
     * and U+202E (bidirectional) as \u{HHHH}; U+00E9 unchanged; E2 82, cut short, byte by byte.
     */
    EXPECT_TEXT(escape_c, "a\xC0\xAF\\\n\xC2\x85\xE2\x80\xAE\xC3\xA9\xE2\x82",
                "a\\xc0\\xaf\\\\\\n\\u{0085}\\u{202e}\xC3\xA9\\xe2\\x82");
    EXPECT_TEXT(utf8_unescape, "a\\xc0\\xaf\\\\\\n\\u{0085}\\u{202e}\xC3\xA9\\xe2\\x82",
                "a\xC0\xAF\\\n\xC2\x85\xE2\x80\xAE\xC3\xA9\xE2\x82");
    EXPECT_TEXT(utf8_unescape, "\\xC0\\u{202E}\\t", "\xC0\xE2\x80\xAE\t"); /* either case */
    EXPECT_TEXT(utf8_unescape, "\xFF\x01", "\xFF\x01"); /* bytes outside escapes are copied */
    /* UTF8_ESCAPE_SHELL: the header's examples. */
    EXPECT_TEXT(escape_shell, "", "''");
    EXPECT_TEXT(escape_shell, "abc", "abc");
    EXPECT_TEXT(escape_shell, "it's", "\"it's\"");
    EXPECT_TEXT(escape_shell, "a b", "'a b'");
    /* Single quotes, closed around a $'...' segment (three octal digits per byte) and reopened. */
    EXPECT_TEXT(escape_shell, "a\xFF" "b", "'a'$'\\377''b'");
    EXPECT_TEXT(escape_shell, "a\0b", "'a'$'\\000''b'");
    EXPECT_TEXT(escape_c, "", "");
    /* Bad escapes: the offset of the backslash, reported before a too small buffer. */
    EXPECT_BAD_ESCAPE("ok\\q", 2);
    EXPECT_BAD_ESCAPE("\\x4", 0);
    EXPECT_BAD_ESCAPE("\\u{41}", 0);
    EXPECT_BAD_ESCAPE("a\\u{d800}", 1);
    EXPECT_BAD_ESCAPE("ab\\", 2);
    /*
     * Unicode ch. 3, "U+FFFD Substitution of Maximal Subparts", table 3-8: 61 F1 80 80 E1 80
     * C2 62 80 63 80 BF 64 is 61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64; valid input unchanged.
     */
    EXPECT_TEXT(utf8_replace_invalid, "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
                "\x61\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\x62\xEF\xBF\xBD\x63"
                "\xEF\xBF\xBD\xEF\xBF\xBD\x64");
    EXPECT_TEXT(utf8_replace_invalid, "\x41\xE2\x89\xA2\xCE\x91\x2E",
                "\x41\xE2\x89\xA2\xCE\x91\x2E");
    EXPECT_TEXT(utf8_replace_invalid, "", "");

    /* Bad arguments, for each: NULL_POINTER with out and *out_len untouched; (NULL, 0) empty. */
    for (i = 0; i < COUNT(text_fns); i++) {
        char ctx[96];

        snprintf(ctx, sizeof ctx, "%s((NULL, 3), out)", text_fns[i].name);
        memset(out, SENTINEL_BYTE, sizeof out);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 3, out, sizeof out, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK(n == 12345 && untouched(out, sizeof out), "%s: out_len %lu, out [%s] written", ctx,
              (unsigned long)n, hex(out, sizeof out));
        snprintf(ctx, sizeof ctx, "%s(\"abc\", (NULL, 16))", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn("abc", 3, NULL, 16, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        snprintf(ctx, sizeof ctx, "%s((NULL, 3), (NULL, 0))", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 3, NULL, 0, &n), UTF8_ERR_NULL_POINTER, ctx);
        CHECK_SIZE("out_len (untouched)", n, 12345, ctx);
        snprintf(ctx, sizeof ctx, "%s((NULL, 0), out)", text_fns[i].name);
        n = 12345;
        CHECK_STATUS(text_fns[i].fn(NULL, 0, out, sizeof out, &n), UTF8_OK, ctx);
        CHECK_SIZE("out_len", n, i == 1 ? 2 : 0, ctx); /* the shell's empty word is '' */
    }
    /* A style other than UTF8_ESCAPE_C and UTF8_ESCAPE_SHELL: out and *out_len untouched. */
    for (bad = -1; bad <= 2; bad += 3) {
        memset(out, SENTINEL_BYTE, sizeof out);
        n = 12345;
        CHECK(utf8_escape("abc", 3, (utf8_escape_style)bad, out, sizeof out, &n) ==
                      UTF8_ERR_INVALID_ARGUMENT &&
                  n == 12345 && untouched(out, sizeof out),
              "utf8_escape style %d: want UTF8_ERR_INVALID_ARGUMENT, nothing written", bad);
        CHECK_STATUS(utf8_escape("abc", 3, (utf8_escape_style)bad, NULL, 0, NULL),
                     UTF8_ERR_INVALID_ARGUMENT, "utf8_escape, bad style, (NULL, 0), NULL");
    }
    test_escape_max_len();
}
