/*
 * The yardstick of utf8check/bench.sh: one utf8_validate call over a whole file, mapped into
 * memory (the pages loaded before the clock starts). Prints the seconds that call takes and the
 * result; the process's own run time, mapping included, is measured from outside.
 *
 * usage: validate_file FILE
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libutf8.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  struct stat sb;
  int fd = argc == 2 ? open(argv[1], O_RDONLY) : -1;
  if (fd < 0 || fstat(fd, &sb) != 0 || sb.st_size == 0) {
    fputs("usage: validate_file NON-EMPTY-FILE\n", stderr);
    return 2;
  }
  size_t len = (size_t)sb.st_size;
  const char *s = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  if (s == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  /* Touch every page, so that the clock measures validation, not page faults. */
  volatile unsigned char sink = 0;
  for (size_t i = 0; i < len; i += 4096) sink ^= (unsigned char)s[i];
  (void)sink; /* read once: clang counts the writes alone as "set but not used" */
  size_t valid = 0;
  double start = now();
  utf8_status st = utf8_validate(s, len, &valid);
  double seconds = now() - start;
  printf("%.4f s in utf8_validate: %s, %zu of %zu bytes valid\n", seconds, utf8_status_str(st),
         valid, len);
  return st == UTF8_OK ? 0 : 1;
}
