/*
 * check.h: the check layer shared by the C test programs. Each check is counted; a failed one
 * prints "FAIL file:line: description"; check_summary() prints the closing line
 * "N passed, M failed" and gives the exit status.
 */
#ifndef LIBUTF8_CHECK_H
#define LIBUTF8_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

static unsigned long n_passed, n_failed;

static int check_at(int ok, const char *file, int line, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* Counts one check; prints "FAIL file:line: description" if it failed. Returns ok. */
static int check_at(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    if (ok) {
        n_passed++;
        return 1;
    }
    n_failed++;
    printf("FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    return 0;
}

#define CHECK(cond, ...) check_at((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

/* Prints the closing line; returns the exit status: 0 iff no check failed. */
static int check_summary(void)
{
    printf("%lu passed, %lu failed\n", n_passed, n_failed);
    return n_failed == 0 ? 0 : 1;
}

#endif
