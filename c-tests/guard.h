/*
 * guard.h: what the files of the guard-page program (guard_pages.c and guard_*.c) share: the
 * arena and the record of what is being tested (guard_arena.c), the options, the generated
 * inputs (guard_inputs.c, guard_convert_build.c), the run of one input through every function
 * that reads it (guard_run.c, guard_text.c), and the suites.
 */
#ifndef LIBUTF8_GUARD_H
#define LIBUTF8_GUARD_H

#include <libutf8.h>

#include <stddef.h>
#include <stdint.h>

#include "calls.h"
#include "check.h"
#include "reference.h"

/* guard_pages.c: the options, the report ------------------------------------------------------ */

extern size_t max_len;        /* inputs of every length 0..max_len */
extern int exhaustive;        /* GUARD_PAGES_EXHAUSTIVE */
extern unsigned long sample;  /* GUARD_PAGES_SAMPLE */

/* The bytes of an input around offset `at`, for messages: "len N: ... XX XX [XX] XX ...". */
const char *around(const unsigned char *p, size_t len, size_t at);
/* A section of the run: its closing line "== name: N inputs, T s". */
void section_begin(const char *name);
void section_end(void);
double now_seconds(void);

/* guard_arena.c: [PROT_NONE page][read-write pages][PROT_NONE page] --------------------------- */

#define POISON 0x80 /* fills the read-write pages outside the inputs: a continuation byte */
#define WATCHED 16  /* bytes at each end of the arena checked for stray writes */

extern size_t page_size;
extern unsigned char *arena_lo, *arena_hi; /* the read-write pages are [arena_lo, arena_hi) */

void arena_init(size_t need, unsigned char **lo, unsigned char **hi);
void install_fault_handler(void);

/* Whether the n bytes at p all still hold POISON. */
#define untouched(p, n) all_bytes((p), (n), POISON)

/* What is being tested, for the fault handler. */
struct testing {
    const char *volatile group;
    const char *volatile call;
    const char *volatile where;
    const unsigned char *volatile input;
    volatile size_t len;
    volatile size_t off;
};
extern struct testing now;

/* An input copied against both guard pages (at[0] end-aligned, at[1] start-aligned), and
 * POISON put back. */
void place_both(const struct group *g, const unsigned char *in, size_t len, unsigned char *at[2]);
void clear_both(unsigned char *const at[2], size_t len);

/* guard_inputs.c: valid text of an exact length ----------------------------------------------- */

enum family { F_ASCII, F_TWO, F_THREE, F_FOUR, F_MIXED, N_FAMILIES };
extern const char *const family_names[N_FAMILIES];

size_t make_text(int family, size_t len, uint32_t seed, unsigned char *out, uint32_t *cps);

/* guard_run.c, guard_text.c: one input through every function that reads it ------------------ */

/* What the construction of an input says about it. */
struct want {
    utf8_status status; /* of utf8_validate */
    size_t up_to;       /* its *valid_up_to */
    size_t chars;       /* utf8_count_chars, and the steps of a decoding loop */
    const uint32_t *cps; /* valid text: its characters in order; else NULL */
};

/* ALL_OFFSETS: the decoding loop on both copies, single calls at every offset. EDGE_OFFSETS,
 * for the larger sets: the loop on the end-aligned copy only, single calls near both ends. */
enum offsets { ALL_OFFSETS, EDGE_OFFSETS };

#define MAX_LEN_LIMIT 1024
#define EDGE_FRONT 4  /* EDGE_OFFSETS: single calls at the first 4 offsets ... */
#define EDGE_BACK 8   /* ... and the last 8, and at the end itself (length 0) */

/* Output of any text function is at most this many times the input, plus a few bytes: the
 * shell style writes ''$'\\377' and the like, at most 5 bytes per input byte and 2 more. */
#define OUTPUT_ROOM 8

extern const char *const where_names[2];

void run_input(struct group *g, const unsigned char *in, size_t len, const struct want *known,
               enum offsets offsets);
void text_functions(struct group *g, unsigned char *const at[2], const unsigned char *in,
                    size_t len, utf8_status want_st, size_t want_up_to, enum offsets offsets);

/* guard_convert.c: the converters ------------------------------------------------------------- */

struct direction {
    const char *name;
    enum form from, to;
    convert_fn convert;
    length_fn length;
};

#define N_DIRECTIONS 4
extern const struct direction directions[N_DIRECTIONS];

/* UTF-16 in the other byte order than the machine's: its flag (UTF8_UTF16BE or UTF8_UTF16LE),
 * and the swap of the two bytes of each of `units` units at p (guard_convert.c). */
uint32_t other_order(void);
void swap_units(unsigned char *p, size_t units);
#define OTHER_ORDER " in the other byte order" /* in a group's name, after the direction's */

/* The directions, then those with a UTF-16 side again in the other byte order: the i-th of
 * N_ORDERED, with *swapped set, or NULL for a direction without UTF-16 the second time. */
#define N_ORDERED (2 * N_DIRECTIONS)
const struct direction *ordered_direction(size_t i, int *swapped);

/* The code points of the generated texts (guard_convert.c). */
extern const uint32_t text_cps[16], bmp_cps[13];

/* guard_convert_build.c: the converters' inputs, built with what each mode makes of them ------- */

#define CONV_MAX_IN 9216                                  /* bytes: the long inputs cross 8192 */
#define SPARE_MAX 80                                      /* spare units after the output */
#define CONV_MAX_OUT (4 * CONV_MAX_IN + 4 * SPARE_MAX)    /* bytes: UTF-8 into UTF-32 */

/* The converters' inputs and outputs, each in an arena of its own (guard_convert_spare.c). */
extern unsigned char *conv_in_lo, *conv_in_hi, *conv_out_lo, *conv_out_hi;

/* The flags of each mode; the WTF-8 ones apply to the UTF-16 converters only. */
#define N_MODES 4
extern const uint32_t mode_flags[N_MODES];
size_t modes_of(const struct direction *d);

/* An ill-formed item, and what each mode makes of it (guard_convert_spare.c lists them). */
struct bad_item {
    enum form form;
    size_t len;
    uint32_t units[6];
    utf8_status status;      /* strict: the conversion stops at the item with this */
    size_t n_replaced;
    uint32_t replaced[6];    /* UTF8_REPLACE: what the item becomes */
    utf8_status wtf_status;  /* UTF8_WTF8 (UTF-16 converters) */
    size_t n_wtf;
    uint32_t wtf[6];         /* UTF8_WTF8 | UTF8_REPLACE, and UTF8_WTF8 if wtf_status is OK */
};

/* An input under construction, in d->from, and what its construction says each mode makes of
 * it (with room enough). */
struct built_input {
    const struct direction *d;
    size_t len; /* units */
    unsigned char in[CONV_MAX_IN];
    utf8_result want[N_MODES];
    unsigned char out[N_MODES][CONV_MAX_OUT];
};
extern struct built_input built;

/* The kinds of text build_text writes. */
enum { K_ASCII, K_LATIN, K_THREE, K_FOUR, K_BMP, K_ALL, N_KINDS };
const char *kind_name(int kind);

void build_begin(const struct direction *d);
void build_char(uint32_t cp);
void build_bad(const struct bad_item *b);
void build_text(int kind, size_t chars, size_t seed);
void build_text_bytes(int kind, size_t bytes, size_t seed);

/* The suites ---------------------------------------------------------------------------------- */

void test_guards_work(void);     /* guard_arena.c */
void test_out_params(void);      /* guard_encode.c */
void test_valid_text(void);      /* guard_validate.c */
void test_tails(void);
void test_errors(void);
void test_sweeps(void);
void test_dense_errors(void);
void test_encode(void);          /* guard_encode.c */
void test_transcode(void);       /* guard_convert.c */
void test_transcode_spare(void); /* guard_convert_spare.c */
void test_transcode_bad(void);
void test_transcode_long(void);
void test_forms(void);           /* guard_forms.c */
void test_single_byte_long(void); /* guard_text.c */

#endif
