/*
 * guard_text.c: the text functions (since 1.2) on one input of the guard-page program:
 * utf8_stream_feed/finish in one chunk, two and one-byte chunks; utf8_char_start and
 * utf8_truncate at the offsets of the single calls; utf8_replace_invalid, utf8_escape (both
 * styles) and utf8_unescape (on the escape's output), and the single-byte converters (since
 * 1.3: latin1_to_utf8, cp1252_to_utf8, utf8_to_latin1 with UTF8_REPLACE, sized by their length
 * functions), and the replacement strategies (since 1.3: utf8_replace_invalid_flags with each
 * fallback; utf8_to_utf16 and utf8_to_utf32 with each strategy, utf8_to_utf16 with
 * UTF8_SURROGATEESCAPE into UTF-16BE too, and utf16_to_utf8 and utf32_to_utf8 with
 * UTF8_SURROGATEESCAPE on their output, sized by the _flags length functions), each writing
 * exactly the size it asked for against one guard page, the input against the other, then the
 * other way round.
 */

#include "guard.h"

#include <string.h>

/* Whether out[0..n) is what the text functions promise to print: well-formed by the
 * reference, and with no C0 control, DEL, C1 control (C2 80..9F) or bidirectional control
 * (E2 80 AA..AE, E2 81 A6..A9). */
static int terminal_safe(const unsigned char *out, size_t n)
{
    size_t up_to, steps, i;

    if (ref_scan(out, n, &up_to, &steps) != UTF8_OK)
        return 0;
    for (i = 0; i < n; i++) {
        if (out[i] < 0x20 || out[i] == 0x7F)
            return 0;
        if (out[i] == 0xC2 && i + 1 < n && out[i + 1] >= 0x80 && out[i + 1] <= 0x9F)
            return 0;
        if (out[i] == 0xE2 && i + 2 < n &&
            ((out[i + 1] == 0x80 && out[i + 2] >= 0xAA && out[i + 2] <= 0xAE) ||
             (out[i + 1] == 0x81 && out[i + 2] >= 0xA6 && out[i + 2] <= 0xA9)))
            return 0;
    }
    return 1;
}

/* What an output function is: utf8_replace_invalid, utf8_unescape, or utf8_escape in a style. */
typedef utf8_status (*output_fn)(const char *in, size_t len, int style, char *out, size_t cap,
                                 size_t *out_len);

static utf8_status call_replace(const char *in, size_t len, int style, char *out, size_t cap,
                                size_t *out_len)
{
    (void)style;
    return utf8_replace_invalid(in, len, out, cap, out_len);
}

static utf8_status call_escape(const char *in, size_t len, int style, char *out, size_t cap,
                               size_t *out_len)
{
    return utf8_escape(in, len, (utf8_escape_style)style, out, cap, out_len);
}

static utf8_status call_unescape(const char *in, size_t len, int style, char *out, size_t cap,
                                 size_t *out_len)
{
    (void)style;
    return utf8_unescape(in, len, out, cap, out_len);
}

/* The single-byte converters as output functions, `style` choosing one: the size query is
 * the length function (and the converter into no room at all, which must stop before
 * anything), the call with room the converter. */
enum { SB_LATIN1, SB_CP1252, SB_TO_LATIN1, N_SB };

static utf8_status call_single_byte(const char *in, size_t len, int style, char *out,
                                    size_t cap, size_t *out_len)
{
    static utf8_result (*const convert[N_SB])(const char *, size_t, char *, size_t, uint32_t) = {
        latin1_to_utf8, cp1252_to_utf8, utf8_to_latin1
    };
    static size_t (*const length[N_SB])(const char *, size_t) = {
        utf8_length_from_latin1, utf8_length_from_cp1252, latin1_length_from_utf8
    };
    size_t need = length[style](in, len);
    utf8_result r = convert[style](in, len, out, cap, style == SB_TO_LATIN1 ? UTF8_REPLACE : 0);

    if (r.read > len || r.written > cap)
        return UTF8_ERR_INVALID_ARGUMENT; /* reported as a failure by the caller */
    *out_len = r.status == UTF8_OK ? r.written : need;
    return r.status;
}

/* The strategies as output functions, `style` choosing one and the target: the lossy copy
 * with a fallback, the converters from UTF-8 (their units as bytes in native order, or
 * big-endian for ST_16_ESC_BE), and, from ST_BACK_16 on, the converters into UTF-8 with
 * UTF8_SURROGATEESCAPE reading their input's bytes as the units ST_16_ESC, ST_32_ESC and
 * ST_16_ESC_BE wrote. */
enum { ST_COPY_LATIN1, ST_COPY_CP1252, ST_16_ESC, ST_16_LATIN1, ST_16_CP1252, ST_32_ESC,
       ST_32_LATIN1, ST_32_CP1252, ST_16_ESC_BE, ST_BACK_16, ST_BACK_32, ST_BACK_16_BE, N_ST };

static const uint32_t strategy_flags[N_ST] = {
    UTF8_FALLBACK_LATIN1, UTF8_FALLBACK_CP1252, UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1,
    UTF8_FALLBACK_CP1252, UTF8_SURROGATEESCAPE, UTF8_FALLBACK_LATIN1, UTF8_FALLBACK_CP1252,
    UTF8_SURROGATEESCAPE | UTF8_UTF16BE, UTF8_SURROGATEESCAPE, UTF8_SURROGATEESCAPE,
    UTF8_SURROGATEESCAPE | UTF8_UTF16BE,
};

static utf8_status call_strategy(const char *in, size_t len, int style, char *out, size_t cap,
                                 size_t *out_len)
{
    uint32_t flags = strategy_flags[style];
    size_t need, unit;
    utf8_result r;

    if (style <= ST_COPY_CP1252)
        return utf8_replace_invalid_flags(in, len, out, cap, flags, out_len);
    if (style == ST_BACK_16 || style == ST_BACK_16_BE) {
        /* The input's buffer is aligned for its units at both guards (an even length). */
        const uint16_t *units = (const uint16_t *)(const void *)in;
        need = utf8_length_from_utf16_flags(units, len / 2, flags);
        r = utf16_to_utf8(units, len / 2, out, cap, flags);
        unit = 1;
    } else if (style == ST_BACK_32) {
        /* As above, a length that is a multiple of 4. */
        const uint32_t *units = (const uint32_t *)(const void *)in;
        need = utf8_length_from_utf32_flags(units, len / 4, flags);
        r = utf32_to_utf8(units, len / 4, out, cap, flags);
        unit = 1;
    } else if (style <= ST_16_CP1252 || style == ST_16_ESC_BE) {
        unit = 2;
        need = unit * utf16_length_from_utf8_flags(in, len, flags);
        r = utf8_to_utf16(in, len, (uint16_t *)(void *)out, cap / unit, flags);
    } else {
        unit = 4;
        need = unit * utf32_length_from_utf8_flags(in, len, flags);
        r = utf8_to_utf32(in, len, (uint32_t *)(void *)out, cap / unit, flags);
    }
    if (r.read > len || r.written * unit > cap)
        return UTF8_ERR_INVALID_ARGUMENT; /* reported as a failure by the caller */
    *out_len = r.status == UTF8_OK ? r.written * unit : need;
    return r.status == UTF8_ERR_BUFFER_TOO_SMALL || r.status == UTF8_OK ? r.status
                                                                        : UTF8_ERR_INVALID_ARGUMENT;
}

/* Windows-1252's 0x80..0x9F by the WHATWG index, written again here. */
static const uint16_t cp1252_c1[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* What the single-byte converter `style` writes for in[0..len), by the reference codec. */
static size_t single_byte_reference(int style, const unsigned char *in, size_t len,
                                    unsigned char *want)
{
    size_t off, n, w = 0;
    uint32_t cp;

    for (off = 0; off < len; off += n) {
        if (style == SB_TO_LATIN1) {
            utf8_status st = ref_decode(in + off, len - off, &cp, &n);
            want[w++] = st == UTF8_OK && cp <= 0xFF ? (unsigned char)cp : '?';
            continue;
        }
        n = 1;
        cp = in[off];
        if (style == SB_CP1252 && cp >= 0x80 && cp < 0xA0)
            cp = cp1252_c1[cp - 0x80];
        w += reference_encode(cp, want + w);
    }
    return w;
}

/* What the strategy `style` (below ST_BACK_16) writes for in[0..len), by the reference codec:
 * each character, and for each byte of an ill-formed sequence its escape or its character. */
static size_t strategy_reference(int style, const unsigned char *in, size_t len,
                                 unsigned char *want)
{
    size_t off, n, i, w = 0;
    uint32_t cp;
    uint32_t flags = strategy_flags[style];

    for (off = 0; off < len; off += n) {
        utf8_status st = ref_decode(in + off, len - off, &cp, &n);
        for (i = 0; i < (st == UTF8_OK ? 1 : n); i++) {
            uint32_t c = cp;
            if (st != UTF8_OK) {
                c = in[off + i];
                if (flags & UTF8_SURROGATEESCAPE)
                    c = 0xDC00 + c;
                else if (flags == UTF8_FALLBACK_CP1252 && c >= 0x80 && c < 0xA0)
                    c = cp1252_c1[c - 0x80];
            }
            if (style <= ST_COPY_CP1252) {
                w += reference_encode(c, want + w);
            } else if (style <= ST_16_CP1252 || style == ST_16_ESC_BE) {
                uint16_t u[2];
                size_t k = 1, j;
                if (c >= 0x10000) {
                    u[0] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
                    u[1] = (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF));
                    k = 2;
                } else {
                    u[0] = (uint16_t)c;
                }
                for (j = 0; j < k; j++) {
                    if (style == ST_16_ESC_BE) {
                        want[w++] = (unsigned char)(u[j] >> 8);
                        want[w++] = (unsigned char)(u[j] & 0xFF);
                    } else {
                        memcpy(want + w, &u[j], 2);
                        w += 2;
                    }
                }
            } else {
                memcpy(want + w, &c, 4);
                w += 4;
            }
        }
    }
    return w;
}

/*
 * Runs `fn` on in[0..len): a size query with the input against the leading guard page, then
 * the output of exactly that size against the trailing guard page, then the input against the
 * trailing guard page and the output against the leading one. The output, identical both
 * times, is left in `result` (room for OUTPUT_ROOM * len + 8 bytes); returns its length, or
 * (size_t)-1 after a failure.
 */
static size_t guarded_output(struct group *g, const char *name, output_fn fn, int style,
                             const unsigned char *in, size_t len, unsigned char *result)
{
    unsigned char *src, *dst;
    size_t need = 0, n, cap = OUTPUT_ROOM * len + 8;
    utf8_status st;

    now.call = name;
    now.off = 0;
    /* input start-aligned, size query */
    src = arena_lo;
    memcpy(src, in, len);
    st = fn((const char *)src, len, style, NULL, 0, &need);
    if ((st != UTF8_OK && st != UTF8_ERR_BUFFER_TOO_SMALL) || (st == UTF8_OK) != (need == 0) ||
        need > cap || arena_lo + len + need > arena_hi) {
        group_fail(g, "%s, size query [%s]: %s, %lu bytes", name, around(in, len, 0), sname(st),
                   (unsigned long)need);
        return (size_t)-1;
    }
    /* output end-aligned, exactly the size needed */
    now.where = "input start-aligned, output end-aligned";
    dst = arena_hi - need;
    n = 99;
    st = fn((const char *)src, len, style, (char *)dst, need, &n);
    if (st != UTF8_OK || n != need) {
        group_fail(g, "%s, input at the leading guard, output at the trailing one [%s]: %s, "
                      "%lu bytes, want UTF8_OK, %lu",
                   name, around(in, len, 0), sname(st), (unsigned long)n, (unsigned long)need);
        return (size_t)-1;
    }
    memcpy(result, dst, need);
    memset(dst, POISON, need);
    memset(src, POISON, len);
    /* input end-aligned, output start-aligned */
    now.where = "input end-aligned, output start-aligned";
    src = arena_hi - len;
    memcpy(src, in, len);
    dst = arena_lo;
    n = 99;
    st = fn((const char *)src, len, style, (char *)dst, need, &n);
    if (st != UTF8_OK || n != need || memcmp(dst, result, need) != 0) {
        group_fail(g, "%s, input at the trailing guard, output at the leading one [%s]: %s, "
                      "%lu bytes, want UTF8_OK, %lu, the same bytes",
                   name, around(in, len, 0), sname(st), (unsigned long)n, (unsigned long)need);
        return (size_t)-1;
    }
    memset(dst, POISON, need);
    memset(src, POISON, len);
    return need;
}

/* One input through the streaming validator, in the chunks that `cuts` (increasing offsets)
 * make of the copy at p; the status and position at the end must be utf8_validate's. */
static void stream_chunks(struct group *g, const unsigned char *p, const unsigned char *in,
                          size_t len, const size_t *cuts, size_t ncuts, const char *how,
                          utf8_status want_st, size_t want_up_to)
{
    utf8_stream st;
    utf8_status s = UTF8_OK;
    size_t from = 0, j, at = 99;

    now.call = "utf8_stream_feed";
    utf8_stream_init(&st);
    for (j = 0; j <= ncuts && s == UTF8_OK; j++) {
        size_t to = j < ncuts ? cuts[j] : len;

        now.off = from;
        s = utf8_stream_feed(&st, (const char *)p + from, to - from, &at);
        from = to;
    }
    now.call = "utf8_stream_finish";
    if (s == UTF8_OK)
        s = utf8_stream_finish(&st, &at);
    if (s != want_st || at != want_up_to)
        group_fail(g, "%s, utf8_stream_feed in %s [%s]: %s at %lu, want %s at %lu", now.where,
                   how, around(in, len, want_up_to), sname(s), (unsigned long)at,
                   sname(want_st), (unsigned long)want_up_to);
}

void text_functions(struct group *g, unsigned char *const at[2], const unsigned char *in,
                    size_t len, utf8_status want_st, size_t want_up_to,
                    enum offsets offsets)
{
    static unsigned char want[4 * MAX_LEN_LIMIT], got[OUTPUT_ROOM * MAX_LEN_LIMIT + 8],
        back[OUTPUT_ROOM * MAX_LEN_LIMIT + 8];
    static size_t starts[MAX_LEN_LIMIT + 1], cuts[MAX_LEN_LIMIT];
    size_t off, n, i, want_len = 0, got_len, back_len;
    uint32_t cp;
    int k, style;

    /* The reference's lossy decoding, and the start of the unit that holds each byte. */
    for (off = 0; off < len; off += n) {
        utf8_status st = ref_decode(in + off, len - off, &cp, &n);

        want_len += reference_encode(st == UTF8_OK ? cp : REPLACEMENT, want + want_len);
        for (i = off; i < off + n; i++)
            starts[i] = off;
    }
    starts[len] = len;

    /* The output functions on every input of the smaller sets, every 8th of the larger ones
     * (whose inputs differ little), to keep the run short. The copies at both ends are
     * overwritten by the outputs: put them back afterwards. */
    if (offsets == EDGE_OFFSETS && g->inputs % 8 != 0)
        goto readers;
    got_len = guarded_output(g, "utf8_replace_invalid", call_replace, 0, in, len, got);
    if (got_len != (size_t)-1 && (got_len != want_len || memcmp(got, want, want_len) != 0))
        group_fail(g, "utf8_replace_invalid [%s]: %lu bytes, want %lu (the reference's lossy "
                      "decoding)", around(in, len, 0), (unsigned long)got_len,
                   (unsigned long)want_len);
    for (style = UTF8_ESCAPE_C; style <= UTF8_ESCAPE_SHELL; style++) {
        got_len = guarded_output(g, "utf8_escape", call_escape, style, in, len, got);
        if (got_len == (size_t)-1)
            continue;
        if (!terminal_safe(got, got_len))
            group_fail(g, "utf8_escape style %d [%s]: the output is not terminal-safe", style,
                       around(in, len, 0));
        if (style != UTF8_ESCAPE_C)
            continue;
        back_len = guarded_output(g, "utf8_unescape", call_unescape, 0, got, got_len, back);
        if (back_len != (size_t)-1 && (back_len != len || memcmp(back, in, len) != 0))
            group_fail(g, "utf8_unescape(utf8_escape(x)) [%s]: %lu bytes, not x",
                       around(in, len, 0), (unsigned long)back_len);
    }
    for (style = 0; style < N_SB; style++) {
        static const char *const names[N_SB] = { "latin1_to_utf8", "cp1252_to_utf8",
                                                 "utf8_to_latin1 (UTF8_REPLACE)" };
        size_t sb_len = single_byte_reference(style, in, len, back);

        got_len = guarded_output(g, names[style], call_single_byte, style, in, len, got);
        if (got_len != (size_t)-1 && (got_len != sb_len || memcmp(got, back, sb_len) != 0))
            group_fail(g, "%s [%s]: %lu bytes, want %lu (the reference's)", names[style],
                       around(in, len, 0), (unsigned long)got_len, (unsigned long)sb_len);
    }
    for (style = 0; style < ST_BACK_16; style++) {
        static const char *const names[N_ST] = {
            "utf8_replace_invalid_flags (UTF8_FALLBACK_LATIN1)",
            "utf8_replace_invalid_flags (UTF8_FALLBACK_CP1252)",
            "utf8_to_utf16 (UTF8_SURROGATEESCAPE)", "utf8_to_utf16 (UTF8_FALLBACK_LATIN1)",
            "utf8_to_utf16 (UTF8_FALLBACK_CP1252)", "utf8_to_utf32 (UTF8_SURROGATEESCAPE)",
            "utf8_to_utf32 (UTF8_FALLBACK_LATIN1)", "utf8_to_utf32 (UTF8_FALLBACK_CP1252)",
            "utf8_to_utf16 (UTF8_SURROGATEESCAPE | UTF8_UTF16BE)",
            "utf16_to_utf8 (UTF8_SURROGATEESCAPE)", "utf32_to_utf8 (UTF8_SURROGATEESCAPE)",
            "utf16_to_utf8 (UTF8_SURROGATEESCAPE | UTF8_UTF16BE)"
        };
        int back_style;
        size_t st_len = strategy_reference(style, in, len, back);

        got_len = guarded_output(g, names[style], call_strategy, style, in, len, got);
        if (got_len == (size_t)-1)
            continue;
        if (got_len != st_len || memcmp(got, back, st_len) != 0) {
            group_fail(g, "%s [%s]: %lu bytes, want %lu (the reference's)", names[style],
                       around(in, len, 0), (unsigned long)got_len, (unsigned long)st_len);
            continue;
        }
        if (style == ST_16_ESC)
            back_style = ST_BACK_16;
        else if (style == ST_32_ESC)
            back_style = ST_BACK_32;
        else if (style == ST_16_ESC_BE)
            back_style = ST_BACK_16_BE;
        else
            continue;
        /* The escapes back into the bytes, reading the units against the guards. */
        memcpy(want, got, got_len);
        back_len = guarded_output(g, names[back_style], call_strategy, back_style, want,
                                  got_len, back);
        if (back_len != (size_t)-1 && (back_len != len || memcmp(back, in, len) != 0))
            group_fail(g, "%s of %s [%s]: %lu bytes, not the input", names[back_style],
                       names[style], around(in, len, 0), (unsigned long)back_len);
    }
    memcpy(at[0], in, len);
    memcpy(at[1], in, len);

readers:
    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];

        now.where = where_names[k];
        /* one chunk, two halves, and (for the smaller sets) one byte at a time */
        stream_chunks(g, at[k], in, len, NULL, 0, "one chunk", want_st, want_up_to);
        cuts[0] = len / 2;
        stream_chunks(g, at[k], in, len, cuts, 1, "two chunks", want_st, want_up_to);
        if (offsets == ALL_OFFSETS && len > 1) {
            for (i = 1; i < len; i++)
                cuts[i - 1] = i;
            stream_chunks(g, at[k], in, len, cuts, len - 1, "one-byte chunks", want_st,
                          want_up_to);
        }

        for (i = 0; i <= len; i++) {
            if (offsets == EDGE_OFFSETS && i >= EDGE_FRONT && i + EDGE_BACK < len)
                continue;
            now.off = i;
            now.call = "utf8_char_start";
            n = utf8_char_start(p, len, i);
            if (n != starts[i])
                group_fail(g, "%s, utf8_char_start at %lu [%s]: %lu, want %lu", where_names[k],
                           (unsigned long)i, around(in, len, i), (unsigned long)n,
                           (unsigned long)starts[i]);
            now.call = "utf8_truncate";
            n = utf8_truncate(p, len, i);
            if (n != starts[i])
                group_fail(g, "%s, utf8_truncate to %lu [%s]: %lu, want %lu", where_names[k],
                           (unsigned long)i, around(in, len, i), (unsigned long)n,
                           (unsigned long)starts[i]);
        }
    }
}

/* The single-byte converters on inputs of 24 KiB to 192 KiB, longer than the others here (at
 * most 1,024 bytes): AVX-512 on AMD Zen 5 copies their runs of ASCII a block a step at a
 * pace there (`copy_paced` in src/kernels/x86/avx512/latin1.rs), up to a character from
 * U+0080 (C3 A9, or the lone byte E9 at the very end) near the end of the input, in its
 * middle, or to the end; each converter as guarded_output calls it, in an arena of their own
 * in place of the shared one. */
void test_single_byte_long(void)
{
#define LONG_SB_MAX (192 * 1024)
    static const size_t lens[] = { 24 * 1024 + 1, 40000, 65536 + 37, LONG_SB_MAX };
    static unsigned char in[LONG_SB_MAX], want[2 * LONG_SB_MAX], got[2 * LONG_SB_MAX];
    static const char *const names[N_SB] = { "latin1_to_utf8", "cp1252_to_utf8",
                                             "utf8_to_latin1 (UTF8_REPLACE)" };
    unsigned char *shared_lo = arena_lo, *shared_hi = arena_hi;
    size_t i, k, style;
    struct group g;

    section_begin("the single-byte converters: runs of ASCII of 24 KiB to 192 KiB");
    arena_init(4 * LONG_SB_MAX, &arena_lo, &arena_hi);
    for (i = 0; i < COUNT(lens); i++) {
        size_t len = lens[i];
        const size_t ends[] = { len, len - 1, len - 2, len - 200, len / 2 + 7 };

        GROUP_BEGIN(&g, "single-byte converters on %lu bytes of ASCII", (unsigned long)len);
        for (k = 0; k < COUNT(ends); k++) {
            size_t at = ends[k], j;

            for (j = 0; j < len; j++)
                in[j] = (unsigned char)(' ' + (j * 7 + k) % 95);
            if (at + 1 < len) {
                in[at] = 0xC3;
                in[at + 1] = 0xA9;
            } else if (at < len) {
                in[at] = 0xE9;
            }
            now.group = g.name;
            now.input = in;
            now.len = len;
            g.inputs++;
            for (style = 0; style < N_SB; style++) {
                size_t want_len = single_byte_reference((int)style, in, len, want);
                size_t got_len =
                    guarded_output(&g, names[style], call_single_byte, (int)style, in, len, got);

                if (got_len != (size_t)-1 &&
                    (got_len != want_len || memcmp(got, want, want_len) != 0))
                    group_fail(&g, "%s, character at %lu: %lu bytes, want %lu (the reference's)",
                               names[style], (unsigned long)at, (unsigned long)got_len,
                               (unsigned long)want_len);
            }
        }
        group_end(&g);
    }
    arena_lo = shared_lo;
    arena_hi = shared_hi;
    section_end();
#undef LONG_SB_MAX
}
