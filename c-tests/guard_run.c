/*
 * guard_run.c: one input of the guard-page program, copied against both guard pages of the
 * arena, through every function that reads UTF-8 (utf8_validate, utf8_count_chars, the
 * detection functions, a decoding loop through the header's macro and single calls of the
 * library's utf8_decode_next, then the text functions of guard_text.c), against what its
 * construction says and the reference (for detection, the rules of libutf8(3), written here).
 */

#include "guard.h"

#include <string.h>

const char *const where_names[2] = { "end-aligned", "start-aligned" };

/* One utf8_decode_next call (the library function, not the header's inline code) at offset i
 * of both copies, against the reference. */
static void single_call(struct group *g, unsigned char *const at[2], const unsigned char *in,
                        size_t len, size_t i)
{
    uint32_t want_cp, cp;
    size_t want_n, n;
    utf8_status want_st, st;
    int k;

    want_st = ref_decode(in + i, len - i, &want_cp, &want_n);
    now.call = "utf8_decode_next (single call)";
    now.off = i;
    for (k = 0; k < 2; k++) {
        now.where = where_names[k];
        cp = 0x12345678;
        n = 99;
        st = (utf8_decode_next)((const char *)at[k] + i, len - i, &cp, &n);
        if (st != want_st || cp != want_cp || n != want_n)
            group_fail(g, "%s, (utf8_decode_next) at offset %lu [%s]: %s U+%04lX consumed %lu, "
                          "want %s U+%04lX consumed %lu",
                       where_names[k], (unsigned long)i, around(in, len, i), sname(st),
                       (unsigned long)cp, (unsigned long)n, sname(want_st),
                       (unsigned long)want_cp, (unsigned long)want_n);
    }
}

/* Whether the `len` bytes at `in` are UTF-16 (unit = 2) or UTF-32 (unit = 4) in the byte order
 * `big`, by the rules of libutf8(3): an even length and no unpaired surrogate; a multiple of 4
 * bytes, every unit below 0x110000 and not D800..DFFF. */
static int ref_valid_in(const unsigned char *in, size_t len, size_t unit, int big)
{
    size_t i, j;
    uint32_t u;
    int prev_high = 0; /* the unit before is a high surrogate */

    if (len % unit != 0)
        return 0;
    for (i = 0; i < len; i += unit) {
        for (u = 0, j = 0; j < unit; j++)
            u |= (uint32_t)in[i + (big ? j : unit - 1 - j)] << (8 * (unit - 1 - j));
        if (unit == 4 && (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)))
            return 0;
        if (unit == 2) {
            int high = u >= 0xD800 && u <= 0xDBFF, low = u >= 0xDC00 && u <= 0xDFFF;
            if (prev_high != low)
                return 0;
            prev_high = high;
        }
    }
    return !prev_high;
}

/* What utf8_detect_encodings should return for an input whose UTF-8 validation gives `st`. */
static uint32_t ref_encodings(const unsigned char *in, size_t len, utf8_status st)
{
    return (st == UTF8_OK ? 1u : 0u) | (ref_valid_in(in, len, 2, 0) ? 2u : 0u) |
           (ref_valid_in(in, len, 2, 1) ? 4u : 0u) | (ref_valid_in(in, len, 4, 0) ? 8u : 0u) |
           (ref_valid_in(in, len, 4, 1) ? 16u : 0u);
}

/* The byte-order mark `in` starts with, by the table of libutf8(3), and its length. */
static utf8_encoding ref_bom(const unsigned char *in, size_t len, size_t *bom_len)
{
    static const struct {
        const char *mark;
        size_t len;
        utf8_encoding e;
    } marks[] = {
        { "\xFF\xFE\x00\x00", 4, UTF8_ENCODING_UTF32LE },
        { "\x00\x00\xFE\xFF", 4, UTF8_ENCODING_UTF32BE },
        { "\xEF\xBB\xBF", 3, UTF8_ENCODING_UTF8 },
        { "\xFF\xFE", 2, UTF8_ENCODING_UTF16LE },
        { "\xFE\xFF", 2, UTF8_ENCODING_UTF16BE },
    };
    size_t i;

    for (i = 0; i < sizeof marks / sizeof *marks; i++)
        if (len >= marks[i].len && memcmp(in, marks[i].mark, marks[i].len) == 0) {
            *bom_len = marks[i].len;
            return marks[i].e;
        }
    *bom_len = 0;
    return UTF8_ENCODING_NONE;
}

/*
 * Runs one input: at the end and at the start of the arena, utf8_validate, utf8_count_chars,
 * a lossy decoding loop through the header's utf8_decode_next macro, and single calls of the
 * library's utf8_decode_next at every offset (with EDGE_OFFSETS: the loop at the end of the
 * arena only, single calls near both ends). Expected:
 * `known` where the construction says (and the reference must agree), else the reference.
 */
void run_input(struct group *g, const unsigned char *in, size_t len,
               const struct want *known, enum offsets offsets)
{
    unsigned char *at[2];
    utf8_status want_st, st;
    size_t want_up_to, want_chars, up_to, chars, i, off, steps, n;
    int k;

    if (sample > 1) {
        static unsigned long seen;
        if (seen++ % sample != 0)
            return;
    }
    g->inputs++;
    if (len > MAX_LEN_LIMIT || arena_lo + 2 * len > arena_hi) {
        group_fail(g, "input of length %lu does not fit the arena", (unsigned long)len);
        return;
    }
    want_st = ref_scan(in, len, &want_up_to, &want_chars);
    if (known != NULL) {
        if (known->status != want_st || known->up_to != want_up_to || known->chars != want_chars)
            group_fail(g, "THIS TEST IS WRONG: the construction says %s up to %lu, %lu chars; "
                          "the reference %s up to %lu, %lu chars [%s]",
                       sname(known->status), (unsigned long)known->up_to,
                       (unsigned long)known->chars, sname(want_st), (unsigned long)want_up_to,
                       (unsigned long)want_chars, around(in, len, known->up_to));
        want_st = known->status;
        want_up_to = known->up_to;
        want_chars = known->chars;
    }

    place_both(g, in, len, at);

    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];
        uint32_t cp, want_cp;

        now.where = where_names[k];
        now.off = 0;
        now.call = "utf8_validate";
        up_to = 12345;
        st = utf8_validate(p, len, &up_to);
        if (st != want_st || up_to != want_up_to)
            group_fail(g, "%s, utf8_validate [%s]: %s up to %lu, want %s up to %lu",
                       where_names[k], around(in, len, want_up_to), sname(st),
                       (unsigned long)up_to, sname(want_st), (unsigned long)want_up_to);

        now.call = "utf8_count_chars";
        chars = utf8_count_chars(p, len);
        if (chars != want_chars)
            group_fail(g, "%s, utf8_count_chars [%s]: %lu, want %lu", where_names[k],
                       around(in, len, len), (unsigned long)chars, (unsigned long)want_chars);

        now.call = "utf8_detect_encodings";
        if (utf8_detect_encodings(p, len) != ref_encodings(in, len, want_st))
            group_fail(g, "%s, utf8_detect_encodings [%s]: %#x, want %#x", where_names[k],
                       around(in, len, 0), (unsigned)utf8_detect_encodings(p, len),
                       (unsigned)ref_encodings(in, len, want_st));
        {
            size_t bom_len = 99, want_bom_len;
            utf8_encoding bom, want_bom = ref_bom(in, len, &want_bom_len);

            now.call = "utf8_detect_bom";
            bom = utf8_detect_bom(p, len, &bom_len);
            if (bom != want_bom || bom_len != want_bom_len)
                group_fail(g, "%s, utf8_detect_bom [%s]: %d length %lu, want %d length %lu",
                           where_names[k], around(in, len, 0), (int)bom, (unsigned long)bom_len,
                           (int)want_bom, (unsigned long)want_bom_len);
        }

        /* the lossy decoding loop a C program writes, with the header's macro */
        if (k == 1 && offsets == EDGE_OFFSETS)
            break;
        now.call = "utf8_decode_next (decoding loop)";
        for (off = 0, steps = 0; off < len; steps++) {
            size_t want_n;
            utf8_status want_step;

            now.off = off;
            cp = 0x12345678;
            n = 99;
            st = utf8_decode_next(p + off, len - off, &cp, &n);
            want_step = ref_decode(in + off, len - off, &want_cp, &want_n);
            if (known != NULL && known->cps != NULL && steps < want_chars &&
                want_cp != known->cps[steps]) {
                group_fail(g, "THIS TEST IS WRONG: step %lu, the construction says U+%04lX, "
                              "the reference U+%04lX",
                           (unsigned long)steps, (unsigned long)known->cps[steps],
                           (unsigned long)want_cp);
                break;
            }
            if (st != want_step || cp != want_cp || n != want_n) {
                group_fail(g, "%s, decoding loop step %lu at offset %lu [%s]: %s U+%04lX "
                              "consumed %lu, want %s U+%04lX consumed %lu",
                           where_names[k], (unsigned long)steps, (unsigned long)off,
                           around(in, len, off), sname(st), (unsigned long)cp, (unsigned long)n,
                           sname(want_step), (unsigned long)want_cp, (unsigned long)want_n);
                break;
            }
            off += n;
        }
        if (off == len && steps != want_chars)
            group_fail(g, "%s, decoding loop [%s]: %lu steps, want %lu", where_names[k],
                       around(in, len, len), (unsigned long)steps, (unsigned long)want_chars);
    }

    /* single calls at each offset, up to the end itself (length 0) */
    if (offsets == ALL_OFFSETS || len <= EDGE_FRONT + EDGE_BACK) {
        for (i = 0; i <= len; i++)
            single_call(g, at, in, len, i);
    } else {
        for (i = 0; i < EDGE_FRONT; i++)
            single_call(g, at, in, len, i);
        for (i = len - EDGE_BACK; i <= len; i++)
            single_call(g, at, in, len, i);
    }

    text_functions(g, at, in, len, want_st, want_up_to, offsets);

    clear_both(at, len);
}
