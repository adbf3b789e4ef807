/*
 * check.c: the check layer shared by the C test programs (see check.h).
 */

#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static unsigned long n_passed, n_failed;

unsigned long group_inputs;

/* A group prints this many of its failures. */
#define GROUP_SHOWN 5

int check_at(int ok, const char *file, int line, const char *fmt, ...)
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

int check_summary(void)
{
    printf("%lu passed, %lu failed\n", n_passed, n_failed);
    return n_failed == 0 ? 0 : 1;
}

void group_begin(struct group *g, const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    g->file = file;
    g->line = line;
    g->inputs = 0;
    g->failures = 0;
    va_start(ap, fmt);
    vsnprintf(g->name, sizeof g->name, fmt, ap);
    va_end(ap);
}

void group_fail(struct group *g, const char *fmt, ...)
{
    va_list ap;

    if (g->failures++ < GROUP_SHOWN) {
        printf("FAIL %s:%d: %s: ", g->file, g->line, g->name);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
}

void group_end(const struct group *g)
{
    group_inputs += g->inputs;
    if (g->inputs > 0)
        check_at(g->failures == 0, g->file, g->line, "%s: %lu failure(s) in %lu input(s)",
                 g->name, g->failures, g->inputs);
    else
        check_at(g->failures == 0, g->file, g->line, "%s: %lu failure(s) in all", g->name,
                 g->failures);
}

const char *sname(int status)
{
    static const char *const names[] = {
        "UTF8_OK", "TRUNCATED", "UNEXPECTED_CONTINUATION", "MISSING_CONTINUATION", "OVERLONG",
        "SURROGATE", "TOO_LARGE", "INVALID_BYTE", "BUFFER_TOO_SMALL", "NULL_POINTER",
        "INVALID_ARGUMENT", "INVALID_ESCAPE", "UNREPRESENTABLE", "UNSUPPORTED_STRATEGY",
    };
    return status <= 0 && status >= LOWEST_STATUS ? names[-status] : "(not a utf8_status)";
}

const char *hex(const void *p, size_t n)
{
    enum { SHOWN = 40 };
    static char ring[4][3 * SHOWN + 8];
    static unsigned next;
    const unsigned char *b = p;
    char *buf = ring[next++ % 4], *w = buf;
    size_t i;

    if (n == 0)
        return "(empty)";
    for (i = 0; i < n && i < SHOWN; i++)
        w += sprintf(w, i ? " %02X" : "%02X", b[i]);
    if (n > SHOWN)
        strcpy(w, " ...");
    return buf;
}

int all_bytes(const void *p, size_t n, unsigned char value)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        if (b[i] != value)
            return 0;
    return 1;
}

int check_status_at(const char *file, int line, int got, int want, const char *ctx)
{
    return check_at(got == want, file, line, "%s: status %d %s, want %d %s", ctx, got, sname(got),
                    want, sname(want));
}

int check_size_at(const char *file, int line, const char *what, size_t got, size_t want,
                  const char *ctx)
{
    return check_at(got == want, file, line, "%s: %s = %lu, want %lu", ctx, what,
                    (unsigned long)got, (unsigned long)want);
}

int check_cp_at(const char *file, int line, uint32_t got, uint32_t want, const char *ctx)
{
    return check_at(got == want, file, line, "%s: cp = U+%04lX, want U+%04lX", ctx,
                    (unsigned long)got, (unsigned long)want);
}

int check_bytes_at(const char *file, int line, const char *out, size_t out_len, size_t cap,
                   const char *want, size_t want_len, const char *ctx)
{
    return check_at(out_len == want_len && memcmp(out, want, want_len) == 0, file, line,
                    "%s: out_len %lu, bytes [%s], want [%s]", ctx, (unsigned long)out_len,
                    hex(out, out_len < cap ? out_len : cap), hex(want, want_len));
}
