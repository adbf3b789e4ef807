/*
 * check.h: the check layer shared by the C test programs (check.c). Each check is counted; a
 * failed one prints "FAIL file:line: description"; check_summary() prints the closing line
 * "N passed, M failed" and gives the exit status. A group counts many comparisons as one check
 * and prints only its first few failures.
 */
#ifndef LIBUTF8_CHECK_H
#define LIBUTF8_CHECK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Counts one check; prints "FAIL file:line: description" if it failed. Returns ok. */
int check_at(int ok, const char *file, int line, const char *fmt, ...) PRINTF_LIKE(4, 5);

#define CHECK(cond, ...) check_at((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

/* Prints the closing line; returns the exit status: 0 iff no check failed. */
int check_summary(void);

/* Many comparisons counted as a single check, made where GROUP_BEGIN stands. */
struct group {
    const char *file;
    int line;
    char name[128];
    unsigned long inputs;   /* counted by the caller, where it counts them */
    unsigned long failures;
};

void group_begin(struct group *g, const char *file, int line, const char *fmt, ...)
    PRINTF_LIKE(4, 5);
#define GROUP_BEGIN(g, ...) group_begin((g), __FILE__, __LINE__, __VA_ARGS__)
/* Counts a failure; prints the first few. */
void group_fail(struct group *g, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* The group's one check; adds its inputs to group_inputs. */
void group_end(const struct group *g);
/* The inputs of every group ended so far. */
extern unsigned long group_inputs;

/* The most negative status the tests know. */
#define LOWEST_STATUS (-13)

/* Our own names for the statuses (not utf8_status_str, which is under test). */
const char *sname(int status);

/* Hex of a byte string, for messages; a few static buffers, so that one printf can use
 * several. */
const char *hex(const void *p, size_t n);

/* Whether the n bytes at p all hold `value`. */
int all_bytes(const void *p, size_t n, unsigned char value);

/* Typed comparisons: each argument is evaluated once, so calls can be passed directly. */
int check_status_at(const char *file, int line, int got, int want, const char *ctx);
int check_size_at(const char *file, int line, const char *what, size_t got, size_t want,
                  const char *ctx);
int check_cp_at(const char *file, int line, uint32_t got, uint32_t want, const char *ctx);
/* Compares the first out_len bytes at `out` (an array of `cap` bytes) with the expected bytes;
 * a bad out_len is shown but never used to read past the array. */
int check_bytes_at(const char *file, int line, const char *out, size_t out_len, size_t cap,
                   const char *want, size_t want_len, const char *ctx);

#define CHECK_STATUS(got, want, ctx) check_status_at(__FILE__, __LINE__, (got), (want), (ctx))
#define CHECK_SIZE(what, got, want, ctx)                                                           \
    check_size_at(__FILE__, __LINE__, (what), (got), (want), (ctx))
#define CHECK_CP(got, want, ctx) check_cp_at(__FILE__, __LINE__, (got), (want), (ctx))
#define CHECK_OUT(out, out_len, want, want_len, ctx)                                               \
    check_bytes_at(__FILE__, __LINE__, (out), (out_len), sizeof(out), (want), (want_len), (ctx))

#endif
