/*
 * guard_pages.c: over-read and over-write guards for the libutf8 C API.
 *
 * Every input is copied twice into one arena of read-write pages that lies between two
 * PROT_NONE pages: once so that its last byte is the last byte before the trailing guard page
 * (end-aligned), once so that its first byte is the first byte after the leading guard page
 * (start-aligned). Every function that reads input is then called on exactly [p, p + len):
 * utf8_validate, utf8_count_chars, utf8_detect_encodings, utf8_detect_bom, a lossy
 * utf8_decode_next loop (through the header's macro) and single utf8_decode_next calls at
 * every offset (the library function itself). A read of
 * even one byte outside the buffer on the guarded side is a SIGSEGV that kills the test; a
 * handler first prints what was being tested. The other side of each copy is filled with 0x80,
 * a continuation byte, so that a read there changes a result (it would complete a truncated
 * tail) and fails a check. utf8_encode writes into buffers placed against a guard page in the
 * same way, of exactly the size needed, or smaller (then nothing may be written). The
 * converters (utf8_to_utf16, utf16_to_utf8, utf8_to_utf32, utf32_to_utf8) read inputs placed
 * against either guard page and write outputs of exactly the size needed (as the length
 * functions report it) against the other one, or one unit smaller. The single-byte converters
 * (latin1_to_utf8, cp1252_to_utf8, utf8_to_latin1) run on every input as the text functions do
 * (guard_text.c): input and output of exactly the size needed, each against a guard page. Then, with inputs and
 * outputs in arenas of their own, so that both can end at a guard page at once, each input
 * against either guard page converts into outputs that end at a guard page and have room for
 * exactly the units needed and for 1 to 80 more (every count for well-formed text up to 257
 * characters; for the others every count up to 20, then every 4th, or 8th for the longest
 * inputs), then exactly at the leading guard page, and one unit short. Their spare
 * bytes are filled with a pattern that changes from byte to byte before the call and must be
 * unchanged after it: the converters store whole registers past their output and store back
 * what was there. The inputs: well-formed text of each width, 0..96 characters and more up
 * to 257; an ill-formed item (each error class of UTF-8, surrogates encoded in UTF-8, lone
 * UTF-16 surrogates before and after pairs, UTF-32 surrogates and values above 0x10FFFF,
 * some with ASCII or a surrogate in their low 16 bits) after 0..100 characters (at 16, 32 and
 * 64 units +-1 in ASCII) and before 1 or 40, or two such items; ASCII runs of 256..511 units
 * then other characters; inputs of 2,048 bytes and more, and of more than 8,192, with and
 * without ill-formed items. Those with ill-formed items are converted strictly, with
 * UTF8_REPLACE, and for the UTF-16 converters with UTF8_WTF8 and both flags (well-formed text
 * in one of these modes each), every result checked against a reference conversion. Last,
 * the single-byte converters on runs of ASCII of 24 KiB to 192 KiB, which AVX-512 on Zen 5
 * copies a block a step (guard_text.c).
 *
 * The sibling forms (utf8_validate_form, utf8_decode_next_form, utf8_encode_form) get the same
 * treatment as the first functions on each form's own text, cut tails and encodings, and
 * unknown forms must read nothing.
 *
 * Text of each family with one byte in every 3 to 21 flipped, at every length up to 100 (dense
 * errors, where the lossy copy decodes with 8-byte loads and stores), goes through the same.
 *
 * The text functions (since 1.2) run on the same inputs: utf8_stream_feed/finish in one chunk,
 * two, and one-byte chunks; utf8_char_start and utf8_truncate at the same offsets as the single
 * calls; and utf8_replace_invalid, utf8_escape (both styles) and utf8_unescape (on the escape's
 * output) with the input against one guard page and an output buffer of exactly the size the
 * size query asked for against the other, then the other way round.
 *
 * Every expected value comes from how the input was built (valid text of known characters, a
 * known tail or error at a known offset) or from the reference codec (reference.c), written
 * from the RFC 3629 section 4 grammar, the status table of the API and the maximal-subpart rule
 * of the Unicode Standard, chapter 3 (for the converters also from its UTF-16 and UTF-32
 * definitions, section 3.9, and the WTF-8 definition: a surrogate code point in 3 bytes); none
 * was printed by the library. Where both exist they are compared too, so a slip in the
 * construction or the reference shows up as a failure rather than as a weaker test.
 *
 * The library reads LIBUTF8_FORCE_ISA (scalar, sse4.2, avx2, avx512, avx512-zen4,
 * avx512-zen5) once, on first use: run this program once per value. ASCII inputs up to 256
 * bytes need no kernel, and counting takes the scalar path below 64 bytes, whatever the ISA.
 * GUARD_PAGES_SAMPLE=N runs only every Nth input of the sweeps (and of the converters with room
 * to spare), for slow runs (valgrind). With LIBUTF8_FORCE_ISA=scalar it defaults to 4: the
 * scalar implementation reads its input through bounds-checked slices, no SIMD load that could
 * reach past them; the pages check the pointers of the C functions there, which every fourth
 * input reaches as well.
 * GUARD_PAGES_EXHAUSTIVE=1 adds the large sweeps (every 3-byte input, every 4-byte input
 * F0..F4 80..BF xx xx, lengths up to 600, more error positions and families, single calls at
 * every offset everywhere); they take minutes, not seconds.
 *
 * The last line printed is "N passed, M failed"; the exit status is 0 iff M is 0.
 *
 * This file holds the options, the report and main; guard.h lists the other files, each of one
 * job: the arena and fault handler (guard_arena.c), the generated inputs (guard_inputs.c,
 * guard_convert_build.c), one input through every reader (guard_run.c, guard_text.c), and the
 * suites by subject (guard_validate.c, guard_encode.c, guard_forms.c, guard_convert.c,
 * guard_convert_spare.c), over the check layer (check.c) and the reference codec
 * (reference.c).
 */

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* clock_gettime under -std=c99 */
#endif

#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t max_len;
int exhaustive;
unsigned long sample = 1;

/* The bytes of an input around offset `at`, for messages: "len N: ... XX XX [XX] XX ...", the
 * byte at `at` in brackets. A few static buffers, so that one printf can use several. */
const char *around(const unsigned char *p, size_t len, size_t at)
{
    enum { SIDE = 12 };
    static char ring[4][4 * (2 * SIDE + 2) + 48];
    static unsigned next;
    char *buf = ring[next++ % 4], *w = buf;
    size_t from = at > SIDE ? at - SIDE : 0, to = len - at > SIDE ? at + SIDE : len, i;

    w += sprintf(w, "len %lu:", (unsigned long)len);
    if (from > 0)
        w += sprintf(w, " ...");
    for (i = from; i < to; i++)
        w += sprintf(w, i == at ? " [%02X]" : " %02X", p[i]);
    if (at == len)
        w += sprintf(w, " [end]");
    if (to < len)
        w += sprintf(w, " ...");
    return buf;
}

double now_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *section_name;
static double section_start;
static unsigned long section_first; /* group_inputs when the section began */

void section_begin(const char *name)
{
    section_name = name;
    section_first = group_inputs;
    section_start = now_seconds();
}

void section_end(void)
{
    printf("== %s: %lu inputs, %.2f s\n", section_name, group_inputs - section_first,
           now_seconds() - section_start);
    fflush(stdout);
}

int main(void)
{
    const char *isa = getenv("LIBUTF8_FORCE_ISA");
    const char *ex = getenv("GUARD_PAGES_EXHAUSTIVE"), *every = getenv("GUARD_PAGES_SAMPLE");
    double start = now_seconds();

    exhaustive = ex != NULL && ex[0] != '\0' && strcmp(ex, "0") != 0;
    if (every != NULL && strtoul(every, NULL, 10) > 1)
        sample = strtoul(every, NULL, 10);
    else if (every == NULL && isa != NULL && strcmp(isa, "scalar") == 0)
        sample = 4;
    max_len = exhaustive ? 600 : 300;
    /* an input and the longest output side by side */
    arena_init(OUTPUT_ROOM * max_len, &arena_lo, &arena_hi);
    /* the converters' inputs and outputs, each in an arena of its own */
    arena_init(CONV_MAX_IN, &conv_in_lo, &conv_in_hi);
    arena_init(CONV_MAX_OUT, &conv_out_lo, &conv_out_hi);
    install_fault_handler();

    printf("guard_pages: libutf8 %s; LIBUTF8_FORCE_ISA=%s; page %lu bytes, %lu read-write; "
           "lengths 0..%lu; %s; every %lu input(s)\n",
           utf8_version(), isa != NULL ? isa : "(unset: the library picks the best kernel)",
           (unsigned long)page_size, (unsigned long)(arena_hi - arena_lo),
           (unsigned long)max_len,
           exhaustive ? "GUARD_PAGES_EXHAUSTIVE: every sweep" : "default sweeps", sample);
    fflush(stdout);

    test_guards_work();
    test_out_params();
    test_valid_text();
    test_tails();
    test_errors();
    test_sweeps();
    test_dense_errors();
    test_encode();
    test_transcode();
    test_transcode_spare();
    test_transcode_bad();
    test_transcode_long();
    test_forms();
    test_single_byte_long();

    printf("== total: %.2f s\n", now_seconds() - start);
    return check_summary();
}
