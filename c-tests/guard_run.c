/*
 * guard_run.c: one input of the guard-page program, copied against both guard pages of the
 * arena, through every function that reads UTF-8 (utf8_validate, utf8_count_chars, a decoding
 * loop through the header's macro and single calls of the library's utf8_decode_next, then the
 * text functions of guard_text.c), against what its construction says and the reference.
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
