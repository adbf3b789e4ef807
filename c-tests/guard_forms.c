/*
 * guard_forms.c: the sibling forms (utf8_validate_form, utf8_decode_next_form,
 * utf8_encode_form, since 1.2) against the guard pages, on each form's own text, cut tails and
 * encodings; an unknown form must read and write nothing.
 */

#include "guard.h"

#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* 7: the sibling forms (utf8_*_form, since 1.2) against a guard page                             */
/* ---------------------------------------------------------------------------------------------- */

/* Characters of each form, with their bytes as the forms' definitions give them (tests/forms.rs
 * checks every value against independent oracles; here the point is where the library reads
 * and writes). Each list avoids a lead surrogate directly before a trail one, which WTF-8 and
 * RFC 2279 refuse as a pair. */
struct form_char {
    uint32_t cp;
    unsigned char len;
    unsigned char bytes[6];
};

#define FORM_CHARS 8
#define N_FORMS 5

static const struct form_char form_chars[N_FORMS][FORM_CHARS] = {
    [UTF8_FORM_STRICT] = { { 0x41, 1, { 0x41 } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                           { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0, 1, { 0x00 } },
                           { 0x1F600, 4, { 0xF0, 0x9F, 0x98, 0x80 } },
                           { 0xFFFD, 3, { 0xEF, 0xBF, 0xBD } }, { 0x7F, 1, { 0x7F } },
                           { 0x10FFFF, 4, { 0xF4, 0x8F, 0xBF, 0xBF } } },
    /* WTF-8: unpaired surrogates in 3 bytes */
    [UTF8_FORM_WTF8] = { { 0x41, 1, { 0x41 } }, { 0xD800, 3, { 0xED, 0xA0, 0x80 } },
                         { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0xDFFF, 3, { 0xED, 0xBF, 0xBF } },
                         { 0x1F600, 4, { 0xF0, 0x9F, 0x98, 0x80 } },
                         { 0xDC00, 3, { 0xED, 0xB0, 0x80 } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                         { 0xDBFF, 3, { 0xED, 0xAF, 0xBF } } },
    /* CESU-8: U+1F4A9 as the pair D83D DCA9 (Unicode TR #26) */
    [UTF8_FORM_CESU8] = { { 0x41, 1, { 0x41 } }, { 0x1F4A9, 6, { 0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9 } },
                          { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0, 1, { 0x00 } },
                          { 0x10000, 6, { 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80 } },
                          { 0xE9, 2, { 0xC3, 0xA9 } }, { 0xD7FF, 3, { 0xED, 0x9F, 0xBF } },
                          { 0x10FFFF, 6, { 0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF } } },
    /* Modified UTF-8: CESU-8, U+0000 as C0 80 */
    [UTF8_FORM_MUTF8] = { { 0x41, 1, { 0x41 } }, { 0, 2, { 0xC0, 0x80 } },
                          { 0x1F4A9, 6, { 0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9 } },
                          { 0x20AC, 3, { 0xE2, 0x82, 0xAC } }, { 0xE9, 2, { 0xC3, 0xA9 } },
                          { 0x10000, 6, { 0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80 } },
                          { 0xFFFF, 3, { 0xEF, 0xBF, 0xBF } }, { 0x7F, 1, { 0x7F } } },
    /* RFC 2279: section 2's 5- and 6-byte rows, and a lone surrogate */
    [UTF8_FORM_RFC2279] = { { 0x41, 1, { 0x41 } },
                            { 0x7FFFFFFF, 6, { 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF } },
                            { 0x2262, 3, { 0xE2, 0x89, 0xA2 } },
                            { 0x200000, 5, { 0xF8, 0x88, 0x80, 0x80, 0x80 } },
                            { 0xD800, 3, { 0xED, 0xA0, 0x80 } }, { 0x391, 2, { 0xCE, 0x91 } },
                            { 0x4000000, 6, { 0xFC, 0x84, 0x80, 0x80, 0x80, 0x80 } },
                            { 0x1FFFFF, 4, { 0xF7, 0xBF, 0xBF, 0xBF } } },
};

/* Text of exactly `len` bytes: the form's characters in turn from `first`, 'A' where the next
 * does not fit. Returns the number of characters; their values go to cps. */
static size_t make_form_text(int form, size_t len, size_t first, unsigned char *out,
                             uint32_t *cps)
{
    size_t n = 0, chars = 0, i = first;

    while (n < len) {
        const struct form_char *c = &form_chars[form][i++ % FORM_CHARS];

        if (n + c->len > len)
            c = &form_chars[form][0];
        memcpy(out + n, c->bytes, c->len);
        n += c->len;
        cps[chars++] = c->cp;
    }
    return chars;
}

/* One input of `form` at both ends of the arena: utf8_validate_form gives want_st up to
 * want_up_to; a decoding loop gives the `chars` values of cps, then (if want_st is not UTF8_OK)
 * want_st over the rest; single calls at every offset agree between the two copies. */
static void run_form_input(struct group *g, int form, const unsigned char *in, size_t len,
                           utf8_status want_st, size_t want_up_to, const uint32_t *cps,
                           size_t chars)
{
    unsigned char *at[2];
    utf8_status st, st2;
    size_t up_to, off, steps, n, n2, i;
    uint32_t cp, cp2;
    int k;

    g->inputs++;
    place_both(g, in, len, at);
    for (k = 0; k < 2; k++) {
        const char *p = (const char *)at[k];

        now.where = where_names[k];
        now.off = 0;
        now.call = "utf8_validate_form";
        up_to = 12345;
        st = utf8_validate_form(p, len, (utf8_form)form, &up_to);
        if (st != want_st || up_to != want_up_to)
            group_fail(g, "%s, form %d, utf8_validate_form [%s]: %s up to %lu, want %s up to %lu",
                       where_names[k], form, around(in, len, want_up_to), sname(st),
                       (unsigned long)up_to, sname(want_st), (unsigned long)want_up_to);
        now.call = "utf8_decode_next_form (decoding loop)";
        for (off = 0, steps = 0; off < len; steps++) {
            now.off = off;
            st = utf8_decode_next_form(p + off, len - off, (utf8_form)form, &cp, &n);
            if (steps < chars ? st != UTF8_OK || cp != cps[steps]
                              : st != want_st || n != len - off) {
                group_fail(g, "%s, form %d, decoding step %lu at offset %lu [%s]: %s U+%04lX "
                              "consumed %lu",
                           where_names[k], form, (unsigned long)steps, (unsigned long)off,
                           around(in, len, off), sname(st), (unsigned long)cp, (unsigned long)n);
                break;
            }
            off += n;
        }
    }
    now.call = "utf8_decode_next_form (single calls)";
    for (i = 0; i <= len; i++) {
        now.off = i;
        st = utf8_decode_next_form((const char *)at[0] + i, len - i, (utf8_form)form, &cp, &n);
        st2 = utf8_decode_next_form((const char *)at[1] + i, len - i, (utf8_form)form, &cp2, &n2);
        if (st != st2 || cp != cp2 || n != n2 || n > len - i)
            group_fail(g, "form %d, single calls at offset %lu [%s]: %s U+%04lX consumed %lu "
                          "end-aligned, %s U+%04lX consumed %lu start-aligned",
                       form, (unsigned long)i, around(in, len, i), sname(st), (unsigned long)cp,
                       (unsigned long)n, sname(st2), (unsigned long)cp2, (unsigned long)n2);
    }
    clear_both(at, len);
}

/* utf8_encode_form of cp: the size query, then exactly that size against each guard page (the
 * bytes read back as cp), then every smaller capacity (nothing written); a refused value
 * (want_refusal != UTF8_OK) writes nothing into any capacity up to UTF8_FORM_MAX_BYTES. */
static void encode_form_one(struct group *g, int form, uint32_t cp, utf8_status want_refusal)
{
    size_t need = 99, cap, out_len, n;
    utf8_status st;
    unsigned char *out;
    uint32_t back;
    int k;

    g->inputs++;
    now.group = g->name;
    now.input = NULL;
    now.off = cp;
    now.call = "utf8_encode_form (size query)";
    st = utf8_encode_form(cp, (utf8_form)form, NULL, 0, &need);
    if (want_refusal != UTF8_OK) {
        for (cap = 0; cap <= UTF8_FORM_MAX_BYTES; cap++) {
            now.call = "utf8_encode_form (refused)";
            out = arena_hi - cap;
            out_len = 99;
            st = utf8_encode_form(cp, (utf8_form)form, (char *)out, cap, &out_len);
            if (st != want_refusal || out_len != 0 || !untouched(arena_hi - WATCHED, WATCHED))
                group_fail(g, "form %d, 0x%04lX into %lu bytes: %s, out_len %lu, want %s",
                           form, (unsigned long)cp, (unsigned long)cap, sname(st),
                           (unsigned long)out_len, sname(want_refusal));
            memset(arena_hi - WATCHED, POISON, WATCHED);
        }
        return;
    }
    if (st != UTF8_ERR_BUFFER_TOO_SMALL || need < 1 || need > UTF8_FORM_MAX_BYTES) {
        group_fail(g, "form %d, 0x%04lX size query: %s, out_len %lu", form, (unsigned long)cp,
                   sname(st), (unsigned long)need);
        return;
    }
    for (k = 0; k < 2; k++) {
        now.call = "utf8_encode_form (exact size)";
        out = k == 0 ? arena_hi - need : arena_lo;
        out_len = 99;
        st = utf8_encode_form(cp, (utf8_form)form, (char *)out, need, &out_len);
        back = 0;
        n = 0;
        if (st == UTF8_OK)
            utf8_decode_next_form((const char *)out, need, (utf8_form)form, &back, &n);
        if (st != UTF8_OK || out_len != need || back != cp || n != need ||
            !untouched(k == 0 ? arena_hi - WATCHED : arena_lo + need, WATCHED - need))
            group_fail(g, "form %d, 0x%04lX into %lu bytes %s: %s, out_len %lu, reads back "
                          "as 0x%04lX in %lu",
                       form, (unsigned long)cp, (unsigned long)need, where_names[k], sname(st),
                       (unsigned long)out_len, (unsigned long)back, (unsigned long)n);
        memset(out, POISON, need);
    }
    for (cap = 0; cap < need; cap++) {
        now.call = "utf8_encode_form (too small)";
        out = arena_hi - cap;
        out_len = 99;
        st = utf8_encode_form(cp, (utf8_form)form, (char *)out, cap, &out_len);
        if (st != UTF8_ERR_BUFFER_TOO_SMALL || out_len != need ||
            !untouched(arena_hi - WATCHED, WATCHED))
            group_fail(g, "form %d, 0x%04lX into %lu bytes: %s, out_len %lu, want "
                          "BUFFER_TOO_SMALL, %lu, nothing written",
                       form, (unsigned long)cp, (unsigned long)cap, sname(st),
                       (unsigned long)out_len, (unsigned long)need);
        memset(arena_hi - WATCHED, POISON, WATCHED);
    }
    now.call = NULL;
}

void test_forms(void)
{
    static unsigned char buf[MAX_LEN_LIMIT + 8];
    static uint32_t cps[MAX_LEN_LIMIT + 8];
    static const uint32_t edges[] = { 0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF,
                                      0xDC00, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
                                      0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000,
                                      0x7FFFFFFF, 0x80000000, 0xFFFFFFFF };
    struct group g;
    size_t len, chars, i, k;
    uint32_t cp;
    int form, bad;

    section_begin("utf8_*_form: each form's text, cut tails and encodings at a guard page");
    for (form = 0; form < N_FORMS; form++) {
        GROUP_BEGIN(&g, "form %d: valid text of every length, and every cut of its characters",
                    form);
        for (len = 0; len <= max_len; len++) {
            chars = make_form_text(form, len, len, buf, cps);
            run_form_input(&g, form, buf, len, UTF8_OK, len, cps, chars);
        }
        /* A character cut short at the end: the input ends inside a sequence (TRUNCATED). */
        for (len = 0; len + 6 <= max_len; len += 61) {
            for (i = 0; i < FORM_CHARS; i++) {
                const struct form_char *c = &form_chars[form][i];

                chars = make_form_text(form, len, len, buf, cps);
                for (k = 1; k < c->len; k++) {
                    /* WTF-8 and RFC 2279: after a lead surrogate (3 bytes), the start of a
                     * trail one (ED, ED B0..BF), which more input could make a pair, refused:
                     * truncated from the lead surrogate (libutf8(3)). */
                    int pair_start = (form == UTF8_FORM_WTF8 || form == UTF8_FORM_RFC2279) &&
                                     chars > 0 && cps[chars - 1] >= 0xD800 &&
                                     cps[chars - 1] <= 0xDBFF && c->bytes[0] == 0xED &&
                                     (k == 1 || (c->bytes[1] >= 0xB0 && c->bytes[1] <= 0xBF));

                    memcpy(buf + len, c->bytes, k);
                    run_form_input(&g, form, buf, len + k, UTF8_ERR_TRUNCATED,
                                   pair_start ? len - 3 : len, cps, chars - (size_t)pair_start);
                }
            }
        }
        group_end(&g);

        GROUP_BEGIN(&g, "form %d: utf8_encode_form into buffers against a guard page", form);
        for (i = 0; i < COUNT(edges); i++) {
            for (cp = edges[i] - 2; cp != edges[i] + 3; cp++) {
                uint32_t max = form == UTF8_FORM_RFC2279 ? 0x7FFFFFFFu : 0x10FFFFu;
                int surrogate_refused = form == UTF8_FORM_STRICT || form == UTF8_FORM_CESU8 ||
                                        form == UTF8_FORM_MUTF8;

                encode_form_one(&g, form, cp,
                                cp > max ? UTF8_ERR_TOO_LARGE
                                : (cp >= 0xD800 && cp <= 0xDFFF && surrogate_refused)
                                    ? UTF8_ERR_SURROGATE
                                    : UTF8_OK);
            }
        }
        group_end(&g);
    }

    GROUP_BEGIN(&g, "an unknown form: UTF8_ERR_INVALID_ARGUMENT, nothing read or written");
    for (bad = -2; bad <= 7; bad++) {
        size_t up_to = 99, n = 99;
        uint32_t c = 99;

        if (bad >= 0 && bad < N_FORMS)
            continue;
        g.inputs++;
        now.call = "utf8_*_form (unknown form)";
        /* the input is the guard page itself: any read faults */
        if (utf8_validate_form((const char *)arena_hi, 4, (utf8_form)bad, &up_to) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            utf8_decode_next_form((const char *)arena_hi, 4, (utf8_form)bad, &c, &n) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            utf8_encode_form(0x41, (utf8_form)bad, (char *)arena_hi - 6, 6, &n) !=
                UTF8_ERR_INVALID_ARGUMENT ||
            up_to != 99 || n != 99 || c != 99 || !untouched(arena_hi - WATCHED, WATCHED))
            group_fail(&g, "form %d was not refused untouched", bad);
    }
    group_end(&g);
    now.call = NULL;
    section_end();
}
