/*
 * guard_arena.c: the arena of the guard-page program, read-write pages between two PROT_NONE
 * pages, so that a read or write of one byte outside a buffer placed against either end kills
 * the process; the fault handler that first says what was being tested; and the self-test that
 * shows the guard pages guard.
 */

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and sigaction under -std=c99 */
#endif

#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

size_t page_size;
unsigned char *arena_lo, *arena_hi;

/* Maps an arena with room for at least `need` bytes between its guard pages: the read-write
 * pages are [*lo, *hi), filled with POISON. */
void arena_init(size_t need, unsigned char **lo, unsigned char **hi)
{
    long ps = sysconf(_SC_PAGESIZE);
    size_t rw_pages;
    unsigned char *m;

    page_size = ps > 0 ? (size_t)ps : 4096;
    rw_pages = (need + page_size - 1) / page_size + 1;
    m = mmap(NULL, (rw_pages + 2) * page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    *lo = m + page_size;
    *hi = *lo + rw_pages * page_size;
    if (mprotect(*lo, rw_pages * page_size, PROT_READ | PROT_WRITE) != 0) {
        perror("mprotect");
        exit(2);
    }
    memset(*lo, POISON, rw_pages * page_size);
}

/* What is being tested, for the fault handler. */
struct testing now;

/* Copies in[0..len) against both guard pages, at[0] ending where the trailing one begins and
 * at[1] beginning where the leading one ends, and records it for the fault handler. */
void place_both(const struct group *g, const unsigned char *in, size_t len, unsigned char *at[2])
{
    at[0] = arena_hi - len; /* the last byte is the last one before the trailing guard page */
    at[1] = arena_lo;       /* the first byte is the first one after the leading guard page */
    memcpy(at[0], in, len);
    memcpy(at[1], in, len);
    now.group = g->name;
    now.input = in;
    now.len = len;
}

/* Puts POISON back over both copies: nothing is being tested. */
void clear_both(unsigned char *const at[2], size_t len)
{
    memset(at[0], POISON, len);
    memset(at[1], POISON, len);
    now.call = NULL;
    now.input = NULL;
}

static struct sigaction previous_segv, previous_bus;

/* Async-signal-safe output for the fault handler. */
static void say(const char *s)
{
    size_t n = 0;
    ssize_t r;

    while (s[n] != '\0')
        n++;
    r = write(2, s, n);
    (void)r;
}

static void say_number(size_t v)
{
    char b[24];
    size_t i = sizeof b;
    ssize_t r;

    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    r = write(2, b + i, sizeof b - i);
    (void)r;
}

static void say_bytes(const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789ABCDEF";
    char b[4];
    size_t i;
    ssize_t r;

    for (i = 0; i < n; i++) {
        b[0] = ' ';
        b[1] = digits[p[i] >> 4];
        b[2] = digits[p[i] & 15];
        r = write(2, b, 3);
        (void)r;
    }
}

/* Prints what was being tested, then puts back the previous disposition and returns: the
 * faulting access runs again and gets AddressSanitizer's report, valgrind's, or the default
 * action, so the process still dies of the signal. */
static void on_fault(int sig)
{
    const unsigned char *in = now.input;
    size_t len = now.len;

    say("\nguard_pages: ");
    say(sig == SIGSEGV ? "SIGSEGV" : "SIGBUS");
    say(": an access outside the buffer, in ");
    say(now.call != NULL ? now.call : "(no library call)");
    say(", ");
    say(now.group != NULL ? now.group : "(no group)");
    say(", ");
    say(now.where != NULL ? now.where : "");
    say(" input of length ");
    say_number(len);
    say(", call at offset ");
    say_number(now.off);
    if (in != NULL) {
        say(":");
        if (len > 48) {
            say(" ...");
            say_bytes(in + len - 48, 48);
        } else {
            say_bytes(in, len);
        }
    }
    say("\n");
    sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, NULL);
}

void install_fault_handler(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
    sigaction(SIGBUS, &sa, &previous_bus);
}

/* In a child process, reads the byte at p; returns the signal that killed the child, or 0. */
static int child_read_dies_of(const unsigned char *p)
{
    pid_t pid;
    int wstatus;

    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        volatile unsigned char c;

        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        c = *(const volatile unsigned char *)p;
        (void)c;
        _exit(0);
    }
    if (waitpid(pid, &wstatus, 0) != pid)
        return -1;
    return WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
}

/* The guard pages really guard: one byte past each end kills a reader; the ends themselves do
 * not. Skipped under valgrind, which would report the child's deliberate fault as an error
 * (recognised by its preloaded library), or with GUARD_PAGES_SELFTEST=0. */
void test_guards_work(void)
{
    const char *env = getenv("GUARD_PAGES_SELFTEST"), *preload = getenv("LD_PRELOAD");
    int sig;

    if (env != NULL && strcmp(env, "0") == 0) {
        printf("guard self-test SKIPPED (GUARD_PAGES_SELFTEST=0)\n");
        return;
    }
    if (preload != NULL && strstr(preload, "vgpreload") != NULL) {
        printf("guard self-test SKIPPED under valgrind (it would report the child's fault)\n");
        return;
    }
    sig = child_read_dies_of(arena_hi);
    CHECK(sig == SIGSEGV || sig == SIGBUS,
          "reading the first byte of the trailing guard page: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_lo - 1);
    CHECK(sig == SIGSEGV || sig == SIGBUS,
          "reading the last byte of the leading guard page: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_hi - 1);
    CHECK(sig == 0, "reading the last read-write byte: child ended with signal %d", sig);
    sig = child_read_dies_of(arena_lo);
    CHECK(sig == 0, "reading the first read-write byte: child ended with signal %d", sig);
}
